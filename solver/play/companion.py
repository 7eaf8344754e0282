"""The table companion: a game followed step by step, its command language, undo, save files, export.

A `Session` is an immutable value: the game so far (game.py's `Game`, every table on the way), how
the cards come (typed by the user at a physical table, or dealt from a seeded deck), and a little
bookkeeping (last save, last hint). `execute(session, line)` reads one line of the companion's
language and returns a `Reply`: the new session (the same object when nothing changed), the notes
to show, and the hint or advice asked for. Nothing here knows about terminals; cli/play.py draws.

All rules come from game.py and rules.py: the companion only translates what a person types into
steps, and what the steps did into words.

    reply = start(Setup("vanguard", "standard"), seed=3)     # virtual: the deal is already made
    reply = execute(reply.session, "9>7")                   # a play; the Wolf's draws follow
    reply = execute(reply.session, "save game.json")
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.core import jsonio
from solver.core.cards import CardError, parse_member, parse_value
from solver.core.plays import PlayError, parse_play, to_text
from solver.core.position import Position
from solver.core.rules import WON, Reward, legal_plays, rewards
from solver.play.driver import (
    DEAL,
    DRAW,
    PLAY,
    RESHUFFLE,
    REWARD,
    Deal,
    Draw,
    Game,
    GameError,
    Move,
    Reshuffle,
    SeededDeck,
    Setup,
    Step,
    Table,
    Take,
    new_table,
    step_from_json,
    step_text,
    step_to_json,
    waiting_for,
)
from solver.search.hint import HintResult, MoveResult, explain, hint

if TYPE_CHECKING:  # the reward advice (and the simulator under it) loads when it is first asked for
    from solver.play.reward import RewardAdvice

SAVE_FORMAT = "lobo-hint companion game"
SAVE_VERSION = 1
DECK_INDEX = 0  # a virtual game is game 0 of its seed: the same deal as `simulate --seed S`'s first game
REWARD_POLICIES = ("greedy", "best", "random")
HINT_ROWS = 6  # the plays a hint's table shows (with every play tied with the best); `hint all`: all of them


class CompanionError(ValueError):
    """A line that cannot be done, or a save file that cannot be read: one sentence saying why."""


@dataclass(frozen=True)
class Settings:
    """How much the engine may spend when asked; not part of the game, never saved."""

    hint_seconds: float = 10.0
    reward_policy: str = "greedy"
    reward_samples: int = 200


@dataclass(frozen=True)
class HintNote:
    """The last hint or reward advice, with the number of steps of the game it was given at."""

    at_step: int
    position: Position
    result: HintResult | None = None
    advice: RewardAdvice | None = None


@dataclass(frozen=True)
class Session:
    game: Game
    seed: int | None = None  # the seeded deck of a virtual game; None: a physical game
    saved_at: int | None = None  # the number of steps at the last save or load
    save_path: str | None = None
    last_hint: HintNote | None = None
    quitting: bool = False  # a quit was refused once because of unsaved steps
    settings: Settings = field(default_factory=Settings)

    @property
    def table(self) -> Table:
        return self.game.table

    @property
    def setup(self) -> Setup:
        return self.game.tables[0].setup

    @property
    def virtual(self) -> bool:
        return self.seed is not None

    def deck(self) -> SeededDeck | None:
        if self.seed is None:
            return None
        return SeededDeck.for_table(self.game.tables[0], self.seed, DECK_INDEX)

    def unsaved(self) -> int:
        """Steps typed since the last save: the deck's own steps can be dealt again, so they do not count."""
        return sum(1 for s in self.game.steps[self.saved_at or 0 :] if self.typed(s))

    def typed(self, step: Step) -> bool:
        return not self.virtual or isinstance(step, (Move, Take))


@dataclass(frozen=True)
class Note:
    kind: str  # "event" (what happened), "info", "warn", "error"
    text: str


@dataclass(frozen=True)
class Reply:
    session: Session
    notes: tuple[Note, ...] = ()
    changed: bool = False  # the table changed: show it again
    show: str | None = None  # "board", "plays", "history", "help", "hint", "advice", "summary"
    topic: str | None = None  # for "help"
    quit: bool = False
    whole: bool = False  # for "hint": every play, not only the best HINT_ROWS


def _error(session: Session, text: str) -> Reply:
    return Reply(session, (Note("error", text),))


# ---------------------------------------------------------------------------------------------
# Starting


def start(setup: Setup, seed: int | None = None, settings: Settings | None = None) -> Reply:
    """A new game: physical (seed None: the user types the cards) or virtual (dealt from the seed)."""
    session = Session(Game.start(new_table(setup)), seed=seed, settings=settings or Settings())
    session, notes = _deck_steps(session)
    intro = (
        f"virtual game: the program shuffles (seed {seed}) and deals"
        if seed is not None
        else "physical game: type the cards as they are dealt and drawn (deal ... / ..., draw ...)"
    )
    return Reply(session, (Note("info", intro), *notes), changed=True, show="board")


def _deck_steps(session: Session) -> tuple[Session, list[Note]]:
    """A virtual table takes the deck's steps (deals, draws, reshuffles) until it waits for the Player."""
    deck = session.deck()
    notes: list[Note] = []
    if deck is None:
        return session, notes
    game = session.game
    while (step := deck.next_step(game.table)) is not None:
        before = game.table
        game = game.then(step)
        notes += [Note("event", t) for t in events(before, step, game.table, virtual=True)]
    return replace(session, game=game), notes


# ---------------------------------------------------------------------------------------------
# The command language


WORDS = (
    "deal", "draw", "reveal", "reshuffle", "reserve", "revive", "fold", "hint", "why", "reward", "plays",
    "undo", "status", "history", "save", "export", "help", "quit", "exit",
)  # fmt: skip

HELP: dict[str, tuple[str, str]] = {
    # word: (usage, what it does)
    "play": ("4+2=6   9=6+3   9>6   7r=7   K=8   fold", "make a play (text notation; r marks a reserve card)"),
    "deal": ("deal 3 7 9 A / 6 2 2 8", "the cards dealt: yours, then / and the Wolf's (physical game)"),
    "draw": ("draw 5   (draw 3 8 for two)", "the card(s) drawn from the pile by you or the Wolf (physical game)"),
    "reveal": ("reveal 7", "the new top card turned face up, when the top card is played visible"),
    "reshuffle": ("reshuffle", "lobo: the discards are shuffled back into the pile (physical game)"),
    "reserve": ("reserve 5", "reward: put a 5 of the winning hand into the reserve"),
    "revive": ("revive J", "reward: turn a face-down party member face up"),
    "hint": (
        "hint   (hint 30, hint all)",
        f"the engine's best play and the {HINT_ROWS} best plays' values (30: take 30 seconds; all: every play)",
    ),
    "why": ("why", "why the last hint's play is best"),
    "reward": ("reward   (reward best 40)", "which reward gives the best chance to win the game"),
    "plays": ("plays", "every legal play and what it makes each side draw"),
    "undo": ("undo   (undo 3)", "take back the last step (virtual: your last play or reward)"),
    "status": ("status", "show the table again"),
    "history": ("history", "every step so far, round by round"),
    "save": ("save game.json", "save the whole game (resume with lobo-hint play --load game.json)"),
    "export": ("export pos.json", "write the position in play in the FORMAT.md form, for lobo-hint"),
    "help": ("help   (help draw)", "this list, or one command"),
    "quit": ("quit", "leave (asks first if steps are unsaved, at game over too); Ctrl-D too"),
}


@dataclass(frozen=True)
class Command:
    word: str  # "step", one of WORDS, or "" for an empty line
    step: Step | None = None
    args: tuple[str, ...] = ()


def _cards(text: str, top: int, difficulty: str, where: str) -> tuple[int, ...]:
    out = []
    # "—" is how an empty side is shown (step_text, history): typed back, it means no card.
    for token in (t for t in re.split(r"[\s,]+", text.strip()) if t and t not in ("-", "—")):
        try:
            v = parse_value(token)
        except CardError as e:
            raise CompanionError(f"{where}: {e}") from None
        if v > top:
            raise CompanionError(f"{where}: there is no {v} in a {difficulty} deck (A..{top})")
        out.append(v)
    return tuple(out)


def parse_command(line: str, setup: Setup) -> Command:
    """One typed line as a command; CompanionError for a line that means nothing."""
    text = line.strip()
    if not text or text.startswith("#"):
        return Command("")
    word, _, rest = text.partition(" ")
    word, rest = word.lower(), rest.strip()
    top, diff = setup.top, setup.difficulty
    if word == "deal":
        if rest.count("/") != 1:
            raise CompanionError("write the deal as your cards / the Wolf's cards, e.g. deal 3 7 9 A / 6 2 2 8")
        mine, wolf = rest.split("/")
        return Command(
            "step", Deal(tuple(sorted(_cards(mine, top, diff, "deal"))), tuple(sorted(_cards(wolf, top, diff, "deal"))))
        )
    if word in ("draw", "reveal"):
        cards = _cards(rest, top, diff, word)
        if not cards:
            raise CompanionError(f"{word}: name the card(s), e.g. {word} 5")
        return Command("step", Draw(cards))
    if word == "reshuffle":
        return Command("step", Reshuffle())
    if word == "reserve":
        cards = _cards(rest, top, diff, "reserve")
        if len(cards) != 1:
            raise CompanionError("reserve: name one card of the winning hand, e.g. reserve 5")
        return Command("step", Take(Reward("reserve", value=cards[0])))
    if word == "revive":
        try:
            member = parse_member(rest)
        except CardError as e:
            raise CompanionError(f"revive: {e}") from None
        return Command("step", Take(Reward("revive", member=member)))
    if word in WORDS and word != "fold":
        return Command("exit" if word == "quit" else word, args=tuple(rest.split()))
    if word == "fold" or "=" in text or ">" in text:
        try:
            return Command("step", Move(parse_play(text)))
        except PlayError as e:
            raise CompanionError(str(e)) from None
    raise CompanionError(f"unknown command {word!r}: type a play (e.g. 4+2=6), or help")


# ---------------------------------------------------------------------------------------------
# Executing a line


def execute(session: Session, line: str) -> Reply:
    """One typed line applied to the session. On any error the session comes back unchanged."""
    try:
        cmd = parse_command(line, session.setup)
    except CompanionError as e:
        return _error(session, str(e))
    if cmd.word != "exit" and session.quitting:
        session = replace(session, quitting=False)
    try:
        match cmd.word:
            case "":
                return Reply(session)
            case "step":
                assert cmd.step is not None
                return take_step(session, cmd.step)
            case "undo":
                return undo(session, _count(cmd.args, "undo"))
            case "hint":
                whole = any(a.lower() == "all" for a in cmd.args)
                args = tuple(a for a in cmd.args if a.lower() != "all")
                if whole and not args and _current_hint(session):
                    return Reply(session, show="hint", whole=True)  # the table just computed, in full
                reply = ask_hint(session, _seconds(args, session.settings.hint_seconds))
                return replace(reply, whole=whole)
            case "reward":
                return ask_reward(session, *_reward_args(cmd.args, session.settings))
            case "why":
                return why(session)
            case "save":
                return save(session, cmd.args[0] if cmd.args else None)
            case "export":
                if not cmd.args:
                    raise CompanionError("export needs a file name: export pos.json")
                return export(session, cmd.args[0])
            case "exit":
                return leave(session)
            case "help":
                topic = cmd.args[0].lower() if cmd.args else None
                if topic is not None and topic not in HELP:
                    topic = "play" if "=" in topic or ">" in topic else topic
                    if topic not in HELP:
                        raise CompanionError(f"help: no command {topic!r}; type help for the list")
                return Reply(session, show="help", topic=topic)
            case "plays":
                if session.table.phase != PLAY:
                    raise CompanionError(f"no plays to list: {_waits(session.table)}")
                return Reply(session, show="plays")
            case "status":
                return Reply(session, show="board")
            case "history":
                return Reply(session, show="history")
    except CompanionError as e:
        return _error(session, str(e))
    raise AssertionError(f"unhandled command {cmd.word!r}")  # pragma: no cover - parse_command's words


def _count(args: tuple[str, ...], word: str) -> int:
    if not args:
        return 1
    if len(args) == 1 and args[0].isdigit() and int(args[0]) >= 1:
        return int(args[0])
    raise CompanionError(f"{word}: give a number of steps, e.g. {word} 2")


def _seconds(args: tuple[str, ...], default: float) -> float:
    if not args:
        return default
    try:
        seconds = float(args[0])
    except ValueError:
        seconds = 0.0
    if len(args) > 1 or not 0 < seconds <= 3600:
        raise CompanionError("hint: give the seconds it may take, e.g. hint 30 (or hint all for every play)")
    return seconds


def _reward_args(args: tuple[str, ...], settings: Settings) -> tuple[str, int]:
    policy, samples = settings.reward_policy, settings.reward_samples
    for a in args:
        if a.lower() in REWARD_POLICIES:
            policy = a.lower()
        elif a.isdigit() and int(a) >= 2:
            samples = int(a)
        else:
            raise CompanionError(
                f"reward: {a!r} is neither a policy ({', '.join(REWARD_POLICIES)}) nor a sample count ≥ 2"
            )
    return policy, samples


# ---------------------------------------------------------------------------------------------
# Steps


def take_step(session: Session, step: Step) -> Reply:
    """A step typed by the user, checked by the rules; in a virtual game the deck's steps follow."""
    t = session.table
    if session.virtual and isinstance(step, (Deal, Draw, Reshuffle)):
        what = "reshuffles" if isinstance(step, Reshuffle) else "deals and draws"
        raise CompanionError(f"in a virtual game the program {what}: {_waits(t)}")
    if isinstance(step, (Deal, Draw)) and t.phase == step_phase(step):
        _check_supply(t, step)
    try:
        game = session.game.then(step)
    except GameError as e:
        raise CompanionError(str(e)) from None
    notes = [Note("event", x) for x in events(t, step, game.table, virtual=session.virtual)]
    after, more = _deck_steps(replace(session, game=game))
    notes += more
    notes += [Note("info", x) for x in prompts(after)]
    return Reply(after, tuple(notes), changed=True, show="summary" if after.table.over else "board")


def _waits(t: Table) -> str:
    return f"the game is over ({t.result})" if t.over else f"the table waits for {waiting_for(t)}"


def step_phase(step: Step) -> str:
    return {Deal: DEAL, Draw: DRAW, Move: PLAY, Take: REWARD, Reshuffle: RESHUFFLE}[type(step)]


def _check_supply(t: Table, step: Deal | Draw) -> None:
    """A card the pile cannot hold any more, named with where every copy of it is."""
    named = Counter(step.player + step.wolf) if isinstance(step, Deal) else Counter(step.cards)
    # Known top cards leave the pile first: a deal takes them; owed draws come after them.
    known = Counter(t.pile_top[: len(step.player) + len(step.wolf)]) if isinstance(step, Deal) else Counter()
    for v, n in sorted(named.items()):
        can = t.unseen[v - 1] + known[v]
        if n > can:
            where = _whereabouts(t, v)
            raise CompanionError(
                f"no {v} can come from the pile: "
                + (f"you typed {n} but only {can} can still be in it" if can else "none is left in it")
                + (f" ({where})" if where else "")
            )


def _whereabouts(t: Table, v: int) -> str:
    places = (
        ("in your hand", t.hand),
        ("in the Wolf's hand", t.wolf),
        ("in the reserve", t.reserve),
        ("discarded", t.discards),
        ("on top of the pile, known", t.pile_top),
    )
    parts = [f"{c.count(v)} {label}" for label, c in places if v in c]
    copies = t.setup.deck[v - 1]
    return f"the deck has {copies}: " + ", ".join(parts) if parts else ""


def undo(session: Session, n: int = 1) -> Reply:
    """Take back n steps; in a virtual game n of the Player's steps, with the deck's steps after them."""
    steps = session.game.steps
    if session.virtual:
        mine = [i for i, s in enumerate(steps) if isinstance(s, (Move, Take))]
        if not mine:
            raise CompanionError("nothing to undo: no play has been made yet (the deal is the deck's)")
        cut = mine[-min(n, len(mine))]
    else:
        if not steps:
            raise CompanionError("nothing to undo: no step has been taken yet")
        cut = max(0, len(steps) - n)
    taken = steps[cut:]
    game = session.game.undo(len(taken))
    after = replace(session, game=game, saved_at=None if (session.saved_at or 0) > cut else session.saved_at)
    notes = [Note("event", "took back: " + ", ".join(step_text(s) for s in taken if after.typed(s)))]
    notes += [Note("info", x) for x in prompts(after)]
    return Reply(after, tuple(notes), changed=True, show="board")


def leave(session: Session) -> Reply:
    n = session.unsaved()
    # A finished game is asked about too: its save is the record to replay or share.
    if n and not session.quitting:
        where = f" (last saved to {session.save_path})" if session.save_path else ""
        return Reply(
            replace(session, quitting=True),
            (Note("warn", f"{n} step(s) are not saved{where}: type save FILE, or quit again to leave without saving"),),
        )
    notes = (Note("info", f"left with {n} unsaved step(s)"),) if n else ()
    return Reply(session, notes, quit=True)


# ---------------------------------------------------------------------------------------------
# The engine: hints and reward advice


def ask_hint(session: Session, seconds: float) -> Reply:
    t = session.table
    if t.phase == REWARD:
        s = session.settings
        return ask_reward(session, s.reward_policy, s.reward_samples)
    if t.phase != PLAY:
        raise CompanionError(f"nothing to hint: {_waits(t)}")
    pos = t.position()
    result = hint(pos, time_limit=seconds)
    note = HintNote(len(session.game.steps), pos, result=result)
    return Reply(replace(session, last_hint=note), show="hint")


def _current_hint(session: Session) -> bool:
    """Whether the last hint is a play hint for the table as it is now."""
    h = session.last_hint
    return h is not None and h.result is not None and h.at_step == len(session.game.steps)


def hint_rows(result: HintResult, limit: int | None = HINT_ROWS) -> tuple[tuple[MoveResult, ...], int]:
    """The rows a hint's table shows, and how many plays it leaves out: the first `limit` plays
    (best first), widened to every play tied with the best; None: every play. A single play
    left out is shown instead, since the line saying so would take its row."""
    moves = result.moves
    if limit is None or len(moves) <= limit + 1:
        return moves, 0
    best = next((m.value for m in moves if m.play == result.best), None)
    shown = [
        m
        for i, m in enumerate(moves)
        if i < limit
        or m.play == result.best
        or (best is not None and m.value is not None and abs(m.value - best) < 1e-9)
    ]
    if len(moves) - len(shown) <= 1:
        return moves, 0
    return tuple(shown), len(moves) - len(shown)


def ask_reward(session: Session, policy: str, samples: int) -> Reply:
    t = session.table
    if t.phase != REWARD:
        raise CompanionError(f"no reward to choose: {_waits(t)}")
    pos = t.position()
    from solver.play.reward import advise_reward

    try:
        advice = advise_reward(pos, policy=policy, samples=samples, seed=1, workers=1)
    except GameError as e:  # pragma: no cover - a table in phase reward always has a reward
        raise CompanionError(str(e)) from None
    note = HintNote(len(session.game.steps), pos, advice=advice)
    return Reply(replace(session, last_hint=note), show="advice")


def why(session: Session) -> Reply:
    h = session.last_hint
    if h is None:
        raise CompanionError("no hint yet: type hint first")
    lines = why_lines(h)
    later = len(session.game.steps) - h.at_step
    if later > 0:
        lines.insert(0, f"(the last hint was given {later} step(s) ago, for the position then)")
    return Reply(session, tuple(Note("info", x) for x in lines))


def why_lines(h: HintNote) -> list[str]:
    if h.advice is not None:
        a = h.advice
        lines = [a.verdict()]
        for v in a.ranked:
            lo, hi = v.interval
            lines.append(
                f"{v.reward}: won {v.wins} of {v.samples} continuations ({100 * v.win_rate:.1f}%, 95% {100 * lo:.1f}–{100 * hi:.1f}%)"
            )
        lines.append(
            f"each reward is followed by the same {a.samples} shuffles of the unseen cards, played on by the "
            f"{a.policy} policy; a difference is significant when its 95% interval leaves out 0"
        )
        return lines
    r = h.result
    assert r is not None
    lines = [explain(r) or "no play to explain"]
    status = {"proven_won": "the round is won whatever comes", "proven_lost": "the round cannot be won"}
    if r.status in status:
        lines.append(status[r.status])
    if r.finish is not None and r.finish.status == "win":
        lines.append(
            f"final round: nothing is drawn any more, so the best finish is an exact assignment; score {r.finish.score}"
        )
    elif r.objective == "win":
        lines.append("value: the chance to win this round, over every order of the unseen cards")
    elif r.objective == "points":
        lines.append("value: your points minus the Wolf's for this round, on average over the unseen cards")
    if r.proof is not None and r.proof.get("reason"):
        lines.append(f"proof: {r.proof['reason']}")
    if not r.exact:
        lines.append("not exact: the time ran out, so the values are bounds or sampled estimates (try hint 60)")
    if r.note:
        lines.append(r.note)
    return lines


# ---------------------------------------------------------------------------------------------
# Words for what happened


def events(before: Table, step: Step, after: Table, *, virtual: bool) -> list[str]:
    """What one step did, for people: cards dealt or drawn, a round's end and its consequences."""
    out: list[str] = []
    match step:
        case Deal(player, wolf):
            out.append(
                f"round {after.rounds} dealt: you {_cards_text(player)}, the Wolf {_cards_text(wolf)}; "
                f"{after.pile_size} card(s) left in the pile"
            )
            if after.round is not None and after.round.final and after.setup.game == "vanguard":
                out.append(f"this is the final round: {final_reason(after, dealt=True)}")
        case Draw(cards):
            who = before.owed()[0]
            text = _cards_text(cards)
            if who == "reveal":
                out.append(f"the new top card of the pile is {text}")
            else:
                out.append(f"{'you draw' if who == 'player' else 'the Wolf draws'} {text}")
        case Move(play):
            out.append(f"you play {to_text(play)}")
        case Take(reward):
            if reward.kind == "reserve":
                out.append(f"reward: {reward.value} goes to the reserve; the rest of the hand is discarded")
            else:
                out.append(f"reward: {reward.member} is turned face up; the hand is discarded")
        case Reshuffle():
            out.append(f"the discards are shuffled into the pile: {after.pile_size} cards")
    if isinstance(step, (Draw, Move)) and after.phase in (PLAY, DRAW) and after.final and not before.final:
        out.append(
            "the pile is empty: this is now the final round (no Split or Over; nothing is drawn; sacrifices allowed)"
        )
    if isinstance(step, (Deal, Draw, Move)) and after.phase not in (PLAY, DRAW):
        out += round_end(before, after)
    return out


def round_end(before: Table, after: Table) -> list[str]:
    s = after.round
    assert s is not None
    n = after.rounds
    out: list[str] = []
    if after.setup.game == "lobo":
        p, w = after.points
        if s.outcome == WON:
            out.append(f"round {n} won: you score {sum(s.hand)} ({_cards_text(s.hand)}); you {p}, the Wolf {w}")
        else:
            out.append(f"round {n} lost: the Wolf scores {sum(s.wolf)} ({_cards_text(s.wolf)}); you {p}, the Wolf {w}")
    elif s.outcome == WON:
        out.append(f"{'final round' if s.final else f'round {n}'} won")
        if after.phase == REWARD:
            offered = ", ".join(str(r) for r in rewards(s.hand, s.party))
            out.append(f"choose a reward: {offered}   (type reward for advice)")
        elif not s.final:
            out.append("no reward is possible: the hand is empty and the whole party is face up")
    else:
        fallen = [m for m in before.party if m not in after.party]
        if s.final:
            out.append("final round lost")
        else:
            down = f": {', '.join(fallen)} turned face down" if fallen else ""
            out.append(f"round {n} lost with {len(s.wolf)} card(s) left to the Wolf{down}")
    if after.over:
        out.append(game_result(after))
    elif after.phase == RESHUFFLE:
        out.append(f"the pile ({after.pile_size} cards) cannot deal a round: the discards are shuffled back in")
    return out


def game_result(t: Table) -> str:
    if t.setup.game == "lobo":
        p, w = t.points
        return f"game {'won' if t.result == 'won' else 'lost'}: you {p}, the Wolf {w} (first to {t.setup.target})"
    if t.result == "won":
        return f"game won: score {t.score} = {score_breakdown(t)}"
    if not t.party:
        return "game lost: the whole party is face down"
    return "game lost: the final round was lost"


def score_breakdown(t: Table) -> str:
    """How a won vanguard game's score is made (RULES.md §4)."""
    s = t.round
    assert s is not None
    text = f"hand {sum(s.hand)} ({_cards_text(s.hand)}) + 10 × {len(s.party)} party member(s)"
    if s.rules.reserve_scores:
        text += f" + reserve {sum(s.reserve)}"
    return text


def prompts(session: Session) -> list[str]:
    """What to type next, when it is the user's turn to name cards (a physical game) or a reward."""
    t = session.table
    if t.phase == REWARD:
        return []  # the round's end already offered the rewards
    if session.virtual or t.phase not in (DEAL, DRAW, RESHUFFLE):
        return []
    if t.phase == DEAL:
        p, w = t.deal_sizes()
        return [f"deal round {t.rounds + 1}: {p} card(s) to you, {w} to the Wolf — type deal YOURS / WOLF'S"]
    if t.phase == RESHUFFLE:
        return ["shuffle the discards into the pile, then type reshuffle"]
    who, n = t.owed()
    if who == "reveal":
        return ["turn the new top card face up and type reveal CARD"]
    return [f"{'you draw' if who == 'player' else 'the Wolf draws'} {n} card(s): type draw " + " ".join(["CARD"] * n)]


def round_number(t: Table) -> int:
    """The round the table is in, or, before a deal, the round to be dealt: the number the
    history and the deal's own note give it (never a round 0)."""
    return t.rounds + 1 if t.phase in (DEAL, RESHUFFLE) else t.rounds


def final_reason(t: Table, *, dealt: bool = False) -> str:
    threshold = t.setup.rules.final_threshold
    return (
        f"the pile holds {t.pile_size} ≤ {threshold} after the deal" if dealt else "the pile ran out during the round"
    )


def final_status(session: Session) -> str:
    """Whether the final round has begun, and why (vanguard)."""
    t = session.table
    if t.setup.game != "vanguard":
        return "lobo has no final round"
    threshold = t.setup.rules.final_threshold
    if t.phase in (PLAY, DRAW) and t.final:
        return "yes: " + final_reason(t, dealt=_final_at_deal(session.game))
    if t.over:
        return "the game is over" + (" (the final round was reached)" if t.final_reached else "")
    if t.phase in (DEAL, REWARD):
        p, w = t.deal_sizes()
        left = t.pile_size - p - w
        if left <= threshold:
            return f"the next round will be: its deal leaves {left} ≤ {threshold} card(s) in the pile"
        return f"not yet: the next deal leaves {left} in the pile (final at ≤ {threshold})"
    return f"no: the deal left more than {threshold} in the pile; final if the pile runs out"


def _final_at_deal(game: Game) -> bool:
    """Whether the round in play was final from its deal (else the pile ran out during it)."""
    for i in range(len(game.steps) - 1, -1, -1):
        if isinstance(game.steps[i], Deal):
            s = game.tables[i + 1].round
            return s is not None and s.final
    return False


def _cards_text(values: Sequence[int]) -> str:
    return " ".join(map(str, values)) if values else "—"


# ---------------------------------------------------------------------------------------------
# History and the summary of a game


@dataclass(frozen=True)
class RoundRecord:
    number: int
    steps: tuple[Step, ...]
    outcome: str | None  # "won", "lost", None while in play
    final: bool
    reward: str | None = None
    fallen: tuple[str, ...] = ()  # members turned face down (losses and sacrifices)
    points: int = 0  # lobo: points scored in the round (by you when won, by the Wolf when lost)


def rounds(game: Game) -> list[RoundRecord]:
    """The game cut into rounds, each with its steps and what it ended in."""
    out: list[RoundRecord] = []
    current: list[Step] = []
    number, party_before = 0, game.tables[0].party
    for i, step in enumerate(game.steps):
        before, after = game.tables[i], game.tables[i + 1]
        if isinstance(step, Deal):
            number, current, party_before = after.rounds, [], before.party
        current.append(step)
        if isinstance(step, (Deal, Draw, Move)) and after.phase not in (PLAY, DRAW) and after.round is not None:
            s = after.round
            pts = (sum(s.hand) if s.outcome == WON else sum(s.wolf)) if after.setup.game == "lobo" else 0
            fallen = tuple(m for m in party_before if m not in after.party)
            out.append(RoundRecord(number, tuple(current), s.outcome, s.final, None, fallen, pts))
        elif isinstance(step, Take) and out:
            out[-1] = replace(out[-1], steps=(*out[-1].steps, step), reward=str(step.reward))
    if current and (not out or out[-1].number != number):
        now = game.table.round
        out.append(RoundRecord(number, tuple(current), None, now is not None and now.final))
    return out


def history_lines(game: Game) -> list[str]:
    lines = []
    for r in rounds(game):
        end = {"won": "won", "lost": "lost", None: "in play"}[r.outcome]
        if r.fallen:
            end += f" ({' '.join(r.fallen)} face down)"
        lines.append(
            f"round {r.number}{' (final)' if r.final else ''}: {end}: " + ", ".join(step_text(s) for s in r.steps)
        )
    return lines or ["no step yet"]


def summary_lines(game: Game) -> list[str]:
    """The end of a game in a few lines: the result and score, then the rounds."""
    t = game.table
    lines = [game_result(t) if t.over else f"in play: round {round_number(t)}"]
    rs = [r for r in rounds(game) if r.outcome is not None]
    won = sum(r.outcome == WON for r in rs)
    lines.append(f"{len(rs)} round(s) played: {won} won, {len(rs) - won} lost")
    kinds = Counter(s.play.kind for s in game.steps if isinstance(s, Move))
    if kinds:
        lines.append("plays: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])))
    if t.setup.game == "vanguard":
        fallen = [f"{' '.join(r.fallen)} in round {r.number}" for r in rs if r.fallen]
        lines.append("turned face down: " + (", ".join(fallen) if fallen else "none"))
        taken = [f"{r.reward} (round {r.number})" for r in rs if r.reward]
        lines.append("rewards: " + (", ".join(taken) if taken else "none"))
        lines.append("final round reached: " + ("yes" if t.final_reached else "no"))
    else:
        lines.append(
            "points by round: "
            + ", ".join(f"{r.number}: {'you' if r.outcome == WON else 'Wolf'} {r.points}" for r in rs)
        )
        if t.reshuffles:
            lines.append(f"reshuffles: {t.reshuffles}")
    return lines


# ---------------------------------------------------------------------------------------------
# Completion


def completions(session: Session) -> list[str]:
    """What may be typed now, whole lines: the legal plays or rewards, then the command words."""
    t = session.table
    out: list[str] = []
    if t.phase == PLAY and t.round is not None:
        out += [to_text(p) for p in legal_plays(t.round)]
    elif t.phase == REWARD and t.round is not None:
        out += [str(r) for r in rewards(t.round.hand, t.round.party)]
    elif not session.virtual:
        out += {
            DEAL: ["deal "],
            DRAW: ["reveal " if t.owed()[0] == "reveal" else "draw "],
            RESHUFFLE: ["reshuffle"],
        }.get(t.phase, [])
    step_words = {"deal", "draw", "reveal", "reshuffle", "reserve", "revive", "fold"}
    out += [w for w in WORDS if w not in step_words and w != "exit"]
    out.insert(out.index("hint") + 1, "hint all")
    return out


# ---------------------------------------------------------------------------------------------
# Save files and export


def save_json(session: Session) -> dict[str, Any]:
    """The whole game: settings and every step; the end is repeated so a cut list is noticed."""
    t = session.table
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "setup": session.setup.to_json(),
        "mode": "virtual" if session.virtual else "physical",
        "seed": session.seed,
        "steps": [step_to_json(s) for s in session.game.steps],
        "end": {"steps": len(session.game.steps), "round": t.rounds, "phase": t.phase},
    }


SAVE_KEYS = {"format", "version", "setup", "mode", "seed", "steps", "end"}


def load_json(raw: Any, settings: Settings | None = None) -> Session:
    """A session from a save file's JSON, every step checked again (and, for a virtual game,
    every card against the seeded deck). CompanionError says what is wrong, in one line."""
    if not isinstance(raw, dict) or raw.get("format") != SAVE_FORMAT:
        raise CompanionError('not a saved lobo-hint game (no "format": "lobo-hint companion game")')
    unknown = sorted(set(raw) - SAVE_KEYS)
    if unknown:
        raise CompanionError(f"unknown key {unknown[0]!r}")
    if raw.get("version") != SAVE_VERSION:
        raise CompanionError(f"version {raw.get('version')!r} is not one this lobo-hint reads ({SAVE_VERSION})")
    mode, seed = raw.get("mode"), raw.get("seed")
    if mode not in ("virtual", "physical"):
        raise CompanionError('mode: must be "virtual" or "physical"')
    if mode == "virtual" and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise CompanionError("seed: a virtual game needs its seed, a whole number ≥ 0")
    if mode == "physical" and seed is not None:
        raise CompanionError("seed: a physical game has no seed (null)")
    steps_raw, end = raw.get("steps"), raw.get("end")
    if not isinstance(steps_raw, list):
        raise CompanionError("steps: must be a list")
    if not isinstance(end, dict) or not isinstance(end.get("steps"), int):
        raise CompanionError('end: must be {"steps": N, "round": R, "phase": P}')
    try:
        setup = Setup.from_json(raw.get("setup"))
        steps = [step_from_json(s) for s in steps_raw]
    except GameError as e:
        raise CompanionError(str(e)) from None
    session = Session(
        Game.start(new_table(setup)), seed=seed if mode == "virtual" else None, settings=settings or Settings()
    )
    deck = session.deck()
    game = session.game
    for i, step in enumerate(steps, start=1):
        if deck is not None and isinstance(step, (Deal, Draw, Reshuffle)) and deck.next_step(game.table) != step:
            raise CompanionError(
                f"step {i} ({step_text(step)}): the seeded deck of this game gives {_dealt(deck, game.table)}"
            )
        try:
            game = game.then(step)
        except GameError as e:
            raise CompanionError(f"step {i} ({step_text(step)}): {e}") from None
    t = game.table
    got = {"steps": len(steps), "round": t.rounds, "phase": t.phase}
    if any(end.get(k) != v for k, v in got.items()):
        raise CompanionError(f"the steps end at {got}, but the file says {end}: the step list was cut or edited")
    session = replace(session, game=game, saved_at=len(steps))
    session, _ = _deck_steps(session)  # an older save may stop before a deal
    return session


def _dealt(deck: SeededDeck, t: Table) -> str:
    step = deck.next_step(t)
    return "nothing here (it waits for the Player)" if step is None else step_text(step)


def load_text(text: str, settings: Settings | None = None) -> Session:
    try:
        raw = jsonio.loads(text)
    except json.JSONDecodeError as e:
        raise CompanionError(
            f"not valid JSON ({e.msg} at line {e.lineno} column {e.colno}): cut short or edited?"
        ) from None
    except RecursionError:
        raise CompanionError("not valid JSON: nested too deeply") from None
    try:
        return load_json(raw, settings)
    except RecursionError:
        raise CompanionError("nested too deeply") from None


def load_file(path: str | Path, settings: Settings | None = None) -> Session:
    """A saved game from its file; CompanionError names the file and the fault."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CompanionError(f"{p}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    try:
        session = load_text(text, settings)
    except CompanionError as e:
        raise CompanionError(f"{p}: {e}") from None
    return replace(session, save_path=str(p))


def write_atomic(path: str | Path, text: str) -> None:
    """Write a whole file or nothing: a temporary file beside it, flushed to disk, then renamed over
    it, so a crash leaves the old file or the new one, never half of one."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{secrets.token_hex(4)}.tmp")
    # os.open with 0o666 lets the umask decide the mode, as for any file the user writes (mkstemp's is 0600).
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write(path: str, text: str) -> None:
    try:
        write_atomic(path, text)
    except OSError as e:
        raise CompanionError(f"cannot write {path}: {e.strerror or e}") from None


def save(session: Session, path: str | None) -> Reply:
    path = path or session.save_path
    if path is None:
        raise CompanionError("save needs a file name: save game.json")
    _write(path, json.dumps(save_json(session), indent=1) + "\n")
    after = replace(session, saved_at=len(session.game.steps), save_path=path, quitting=False)
    return Reply(
        after,
        (Note("info", f"saved to {path} ({len(session.game.steps)} steps); resume with lobo-hint play --load {path}"),),
    )


def export_json(session: Session) -> dict[str, Any]:
    """The position in play (or the won round whose reward is to be chosen) in the FORMAT.md form."""
    t = session.table
    if t.phase not in (PLAY, REWARD):
        raise CompanionError(f"no position to export: {_waits(t)}")
    return t.position().to_json()


def export(session: Session, path: str) -> Reply:
    pos = export_json(session)
    _write(path, json.dumps(pos, indent=1) + "\n")
    use = "lobo-hint reward" if pos.get("phase") == "reward" else "lobo-hint"
    return Reply(session, (Note("info", f"wrote the position to {path} (try: {use} {path})"),))


__all__ = [
    "HELP",
    "HINT_ROWS",
    "CompanionError",
    "HintNote",
    "Note",
    "Reply",
    "Session",
    "Settings",
    "completions",
    "execute",
    "export_json",
    "final_status",
    "hint_rows",
    "history_lines",
    "load_file",
    "load_json",
    "load_text",
    "parse_command",
    "round_number",
    "rounds",
    "save_json",
    "start",
    "summary_lines",
    "write_atomic",
]
