"""The companion's session: an immutable value holding the game so far, how the cards come, and a
little bookkeeping, with the steps and requests that make the next session (start, take_step,
undo, leave, ask_hint, ask_reward, why). Each returns a `Reply`: the new session, the notes to
show, and what to show. The rules are driver.py's and rules.py's; the words are prose.py's.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from solver.core.position import Position
from solver.play.analysis import Analysis, DecisionBudget, PlayedGame, analyse_games, tasks
from solver.play.driver import (
    DEAL,
    DRAW,
    PLAY,
    RESHUFFLE,
    REWARD,
    Deal,
    Draw,
    GameError,
    Move,
    Playthrough,
    Reshuffle,
    SeededDeck,
    Setup,
    Step,
    Table,
    Take,
    new_table,
    step_text,
)
from solver.search.hint import HintResult, hint
from solver.words.numbers import count_text

from .parse import CompanionError
from .prose import events, prompts, race_words, waits, whereabouts, why_lines

if TYPE_CHECKING:  # the reward advice (and the simulator under it) loads when it is first asked for
    from solver.play.reward_values import RewardAdvice

DECK_INDEX = 0  # a virtual game is game 0 of its seed: the same deal as `simulate --seed S`'s first game


@dataclass(frozen=True)
class Settings:
    """How much the engine may spend when asked; not part of the game, never saved."""

    hint_seconds: float = 2.0
    reward_policy: str = "game"
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
    game: Playthrough
    seed: int | None = None  # the seeded deck of a virtual game; None: a physical game
    saved: tuple[Step, ...] = ()  # the steps as last saved or loaded
    save_path: str | None = None
    last_hint: HintNote | None = None
    # The last analysis of the game (`analyse`): kept, so that asking again for the same steps and
    # budget shows it without searching again.
    analysis: Analysis | None = None
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
        """How far the game is from its last save: the steps typed since, and those the save holds
        that were taken back since. The deck's own steps can be dealt again, so they do not count."""
        new, back = self.changes()
        return new + back

    def changes(self) -> tuple[int, int]:
        """(steps typed beyond what the save shares with the game, steps of the save taken back)."""
        steps = self.game.steps
        shared = 0
        for a, b in zip(steps, self.saved, strict=False):
            if a != b:
                break
            shared += 1
        return (sum(1 for s in steps[shared:] if self.typed(s)), sum(1 for s in self.saved[shared:] if self.typed(s)))

    def unsaved_words(self) -> str:
        """What unsaved() counts, in words: "2 steps are not saved; 1 step of the save was taken back"."""
        new, back = self.changes()
        where = f" (last saved to {self.save_path})" if self.save_path else ""
        parts = [f"{count_text(new, 'step')} {'is' if new == 1 else 'are'} not saved"] if new else []
        if back:
            parts.append(
                f"{count_text(back, 'step')} of the save {'was' if back == 1 else 'were'} taken back, still in the file"
            )
        return "; ".join(parts) + where

    def typed(self, step: Step) -> bool:
        return not self.virtual or isinstance(step, (Move, Take))


@dataclass(frozen=True)
class Note:
    kind: str  # "event" (what happened), "info", "prompt" (what to type: the terminal's words), "warn", "error"
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


def error_reply(session: Session, text: str) -> Reply:
    return Reply(session, (Note("error", text),))


# ---------------------------------------------------------------------------------------------
# Starting


def start(setup: Setup, seed: int | None = None, settings: Settings | None = None) -> Reply:
    """A new game: physical (seed None: the user types the cards) or virtual (dealt from the seed)."""
    session = Session(Playthrough.start(new_table(setup)), seed=seed, settings=settings or Settings())
    session, notes = deck_steps(session)
    if seed is not None:
        intro = [Note("info", f"virtual game: the program shuffles (seed {seed}) and deals")]
    else:
        intro = [
            Note("info", "physical game: you deal and draw the real cards"),
            Note("prompt", "type the cards as they are dealt and drawn (deal ... / ..., draw ...)"),
        ]
    return Reply(session, (*intro, *notes), changed=True, show="board")


def deck_steps(session: Session) -> tuple[Session, list[Note]]:
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
# Steps


def take_step(session: Session, step: Step, said: str = "") -> Reply:
    """A step typed by the user, checked by the rules; in a virtual game the deck's steps follow.
    said: the word a draw was typed with ("draw" or "reveal"), checked against the one due."""
    t = session.table
    if session.virtual and isinstance(step, (Deal, Draw, Reshuffle)):
        what = "reshuffles" if isinstance(step, Reshuffle) else "deals and draws"
        raise CompanionError(f"in a virtual game the program {what}: {waits(t)}")
    if isinstance(step, (Deal, Draw)) and t.phase == step_phase(step):
        _check_word(t, said)
        _check_supply(t, step)
    try:
        game = session.game.then(step)
    except GameError as e:
        raise CompanionError(str(e)) from None
    notes = [Note("event", x) for x in events(t, step, game.table, virtual=session.virtual)]
    after, more = deck_steps(replace(session, game=game))
    notes += more
    notes += [Note("prompt", x) for x in prompts(after)]
    return Reply(after, tuple(notes), changed=True, show="summary" if after.table.over else "board")


def step_phase(step: Step) -> str:
    return {Deal: DEAL, Draw: DRAW, Move: PLAY, Take: REWARD, Reshuffle: RESHUFFLE}[type(step)]


def _check_word(t: Table, said: str) -> None:
    """A reveal typed as a draw, or a draw as a reveal: the cards would be taken for what is due,
    and a player who meant the other would not know (found by a review)."""
    who = t.owed()[0]
    if said == "draw" and who == "reveal":
        raise CompanionError("no card is drawn now: the new top card is turned face up; type reveal CARD")
    if said == "reveal" and who in ("player", "wolf"):
        hand = "your hand" if who == "player" else "the Wolf's hand"
        raise CompanionError(f"no card is revealed now: the next card goes to {hand}; type draw CARD")


def _check_supply(t: Table, step: Deal | Draw) -> None:
    """A card the pile cannot hold any more, named with where every copy of it is."""
    named = Counter(step.player + step.wolf) if isinstance(step, Deal) else Counter(step.cards)
    # Known top cards leave the pile first: a deal takes them; owed draws come after them.
    known = Counter(t.pile_top[: len(step.player) + len(step.wolf)]) if isinstance(step, Deal) else Counter()
    for v, n in sorted(named.items()):
        can = t.unseen[v - 1] + known[v]
        if n > can:
            where = whereabouts(t, v)
            raise CompanionError(
                f"no {v} can come from the pile: "
                + (f"you typed {n} but only {can} can still be in it" if can else "none is left in it")
                + (f" ({where})" if where else "")
            )


def _decisions(session: Session) -> list[int]:
    """The Player's plays and rewards so far, by step index (the deals and draws are the deck's)."""
    return [i for i, s in enumerate(session.game.steps) if isinstance(s, (Move, Take))]


def _undoable(session: Session) -> list[int]:
    """The steps undo can take back, by index: in a virtual game the Player's (the deck's steps go
    with them), in a physical game every step."""
    return _decisions(session) if session.virtual else list(range(len(session.game.steps)))


def can_undo(session: Session) -> bool:
    return bool(_undoable(session))


def decisions_made(session: Session) -> int:
    """What an analysis has to judge (a deal alone has nothing)."""
    return len(_decisions(session))


NOTHING_TO_ANALYSE = "nothing to analyse yet: no play has been made"


def undo(session: Session, n: int = 1) -> Reply:
    """Take back n steps; in a virtual game n of the Player's steps, with the deck's steps after them."""
    steps = session.game.steps
    mine = _undoable(session)
    if not mine:
        raise CompanionError(
            "nothing to undo: no play has been made yet (the deal is the deck's)"
            if session.virtual
            else "nothing to undo: no step has been taken yet"
        )
    cut = mine[-min(n, len(mine))]
    taken = steps[cut:]
    game = session.game.undo(len(taken))
    after = replace(session, game=game)
    befores = session.game.tables[cut:]
    words = [step_text(s, t) for s, t in zip(taken, befores, strict=False) if after.typed(s)]
    notes = [Note("event", "took back: " + ", ".join(words))]
    if n > len(mine):  # asked for more than there is: say how many went
        notes.append(Note("info", f"only {len(mine)} could be taken back: the game's start"))
    notes += [Note("prompt", x) for x in prompts(after)]
    return Reply(after, tuple(notes), changed=True, show="board")


def leave(session: Session) -> Reply:
    n = session.unsaved()
    # A finished game is asked about too: its save is the record to replay or share.
    if n and not session.quitting:
        return Reply(
            replace(session, quitting=True),
            (Note("warn", f"{session.unsaved_words()}: type save FILE, or quit again to leave without saving"),),
        )
    notes = (Note("info", f"left with {count_text(n, 'unsaved step')}"),) if n else ()
    return Reply(session, notes, quit=True)


# ---------------------------------------------------------------------------------------------
# The engine: hints and reward advice


def warm_engine(notice: bool = True) -> None:
    """Load what a hint needs before one is asked (CP-SAT for final rounds, the compiled search),
    so that the first hint spends its time limit searching, not loading (found by a review: a
    companion's first hint was an estimate where a later one of the same table was exact). Quietly
    nothing where something cannot load: the hint says why when it is asked."""
    try:
        import solver.finish.finisher  # noqa: F401
        from solver.search.engine import warm_up

        warm_up(notice)
    except Exception:  # see the docstring
        pass


def ask_hint(session: Session, seconds: float, started: float | None = None, threads: int = 1) -> Reply:
    """The hint for the table as it is, within `seconds` counted from `started` (a
    time.perf_counter() reading: when it was asked; by default now), its search on `threads`
    cores (search.hint)."""
    t = session.table
    if t.phase == REWARD:
        s = session.settings
        return ask_reward(session, s.reward_policy, s.reward_samples)
    if t.phase != PLAY:
        raise CompanionError(f"nothing to hint: {waits(t)}")
    pos = t.position()
    result = hint(pos, time_limit=seconds, started=started, threads=threads)
    note = HintNote(len(session.game.steps), pos, result=result)
    race = race_words(t) if not t.race_scores[1] else None  # an exact race to 100 needs no word
    return Reply(replace(session, last_hint=note), (Note("info", race),) if race else (), show="hint")


def hint_for_now(session: Session) -> HintNote | None:
    """The last hint or reward advice, if it was given for the table as it is now: at as many
    steps and for the same position (found by a review: an undo, then other cards, made another
    table at the same step, and `hint all` and `why` showed the old one's advice)."""
    h = session.last_hint
    if h is None or h.at_step != len(session.game.steps) or session.table.phase not in (PLAY, REWARD):
        return None
    return h if h.position == session.table.position() else None


def current_hint(session: Session) -> bool:
    """Whether the last hint is a play hint for the table as it is now."""
    h = hint_for_now(session)
    return h is not None and h.result is not None


def ask_reward(session: Session, policy: str, samples: int) -> Reply:
    t = session.table
    if t.phase != REWARD:
        raise CompanionError(f"no reward to choose: {waits(t)}")
    pos = t.position()
    from solver.play.reward import advise_reward

    try:
        # The hint's seconds bound the game values too (a next deal too big to enumerate is sampled).
        deadline = time.perf_counter() + session.settings.hint_seconds
        advice = advise_reward(pos, policy=policy, samples=samples, workers=1, deadline=deadline)
    except GameError as e:  # pragma: no cover - a table in phase reward always has a reward
        raise CompanionError(str(e)) from None
    note = HintNote(len(session.game.steps), pos, advice=advice)
    return Reply(replace(session, last_hint=note), show="advice")


def ask_analysis(
    session: Session, seconds: float, workers: int | None = None, progress: Callable[[int, int], None] | None = None
) -> Reply:
    """The analysis of the game so far (solver/play/analysis.py), `seconds` a decision, its
    decisions searched on `workers` processes (default: every core); the one kept with the
    session when it is for the same steps and budget. progress(done, total) hears each table valued."""
    if not decisions_made(session):
        raise CompanionError(NOTHING_TO_ANALYSE)
    budget = DecisionBudget(seconds)
    kept = session.analysis
    if kept is not None and kept.game.steps == session.game.steps and kept.budget == budget:
        return Reply(session, show="analysis")
    done: list[Analysis] = []
    where = session.save_path or "this game"
    total = len(tasks(session.game))
    valued = [0]

    def tick(_piece: object) -> None:
        valued[0] += 1
        if progress is not None:
            progress(valued[0], total)

    analyse_games([PlayedGame(session.game, where)], budget, workers=workers, on_analysis=done.append, on_piece=tick)
    return Reply(replace(session, analysis=done[0]), show="analysis")


def why(session: Session) -> Reply:
    h = session.last_hint
    if h is None:
        raise CompanionError("no hint yet: type hint first")
    lines = why_lines(h)
    later = len(session.game.steps) - h.at_step
    if later > 0 and hint_for_now(session) is None:
        lines.insert(0, f"(the last hint was given {count_text(later, 'step')} ago, for the position then)")
    elif hint_for_now(session) is None:
        lines.insert(0, "(the last hint was for a position since taken back: type hint for this one)")
    return Reply(session, tuple(Note("info", x) for x in lines))
