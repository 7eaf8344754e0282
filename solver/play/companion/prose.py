"""The companion's words: what a step did, a round's end, the game's result, what to type next,
the history and summary of a game, why a hint's play is best, and the help. Everything here reads
tables, steps and hint results and returns text; nothing changes a session.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from solver.core.games import LOBO_TARGET
from solver.core.games import game as game_of
from solver.core.plays import to_text
from solver.core.rounds import final_at_deal, pile_after_deal, rewards, round_points
from solver.core.rules import play_effect
from solver.core.status import LOST, WON, FinishStatus, HintStatus
from solver.play.driver import (
    DEAL,
    DRAW,
    PLAY,
    RESHUFFLE,
    REWARD,
    Deal,
    Draw,
    Move,
    Playthrough,
    Reshuffle,
    Step,
    Table,
    Take,
    step_text,
    waiting_for,
)
from solver.search.hint import HintResult, MoveResult
from solver.words.board import draw_text
from solver.words.hint import cut_short, explain
from solver.words.numbers import count_text

if TYPE_CHECKING:  # the session's types only: prose reads sessions, never runs them
    from .session import HintNote, Session

HINT_ROWS = 6  # the plays a hint's table shows (with every play tied with the best); `hint all`: all of them

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
    "analyse": (
        "analyse   (analyse 5)",
        "every decision so far against the best one, with marks, the luck of the cards and a summary (5: seconds a decision)",
    ),
    "save": ("save game.json", "save the whole game (resume with lobo-hint play --load game.json)"),
    "export": ("export pos.json", "write the position in play in the FORMAT.md form, for lobo-hint"),
    "help": ("help   (help draw)", "this list, or one command"),
    "quit": ("quit", "leave (asks first if steps are unsaved, at game over too); Ctrl-D too"),
}


def waits(t: Table) -> str:
    return f"the game is over ({t.result})" if t.over else f"the table waits for {waiting_for(t)}"


def whereabouts(t: Table, v: int) -> str:
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


def race_words(t: Table) -> str | None:
    """How a race to another target than 100 reaches the hint and a position file, whose race is
    to 100 (FORMAT.md): None for a race to 100 or a game that is no race."""
    target = t.setup.target
    if not game_of(t.setup.game).is_race or target == LOBO_TARGET:
        return None
    (p, w), exact = t.race_scores
    now = f"{t.points[0]}–{t.points[1]} in a race to {target}"
    if exact:
        return f"{now} is {p}–{w} in a race to 100: the same race (what counts is the points still needed)"
    return (
        f"{now} is valued as {p}–{w} in a race to 100: positions and the hint know no longer race, so a side "
        "needing more than 100 points counts as needing 100 (the chances are rough until both need 100 or fewer)"
    )


def hint_rows(result: HintResult, limit: int | None = HINT_ROWS) -> tuple[tuple[MoveResult, ...], int]:
    """The rows a hint's table shows, and how many plays it leaves out: the first `limit` plays
    (best first), widened to every play tied with the best or marked as not told apart from it
    (≈ best: found by a review, 7>4 left out); None: every play. A single play left out is shown
    instead, since the line saying so would take its row."""
    moves = result.moves
    if limit is None or len(moves) <= limit + 1:
        return moves, 0
    best = next((m.value for m in moves if m.play == result.best), None)
    shown = [
        m
        for i, m in enumerate(moves)
        if i < limit
        or m.play == result.best
        or m.tied
        or (best is not None and m.value is not None and abs(m.value - best) < 1e-9)
    ]
    if len(moves) - len(shown) <= 1:
        return moves, 0
    return tuple(shown), len(moves) - len(shown)


def why_lines(h: HintNote) -> list[str]:
    if h.advice is not None:
        a = h.advice
        lines = [a.verdict()]
        from solver.play.reward_values import GAME_VALUES  # numpy and the simulator: only when advice is shown
        from solver.search.round_end import SAMPLED

        if a.policy == GAME_VALUES:
            for v in a.ranked:
                lo, hi = v.interval
                band = "exact" if v.exact else f"95% {100 * lo:.1f}–{100 * hi:.1f}%"
                if a.samples and v is not a.ranked[0]:
                    dlo, dhi = v.difference_interval
                    band += (
                        f"; {100 * v.difference:+.1f} points against the best, 95% {100 * dlo:+.1f} to {100 * dhi:+.1f}"
                    )
                lines.append(f"{v.reward}: chance to win the game {100 * v.win_rate:.1f}% ({band})")
            how = a.best.method
            lines.append(
                "each reward is valued by the hint's game values: exact where the next deal is surely the final round"
                if not a.samples or how is None
                else f"each reward is valued over the same {a.samples} deals ({how})"
                + (
                    ""
                    if SAMPLED in how
                    else ", each next round played on to its end and valued as the hint values the end of a round "
                    "(the evaluator's table knows the reserve only by its size)"
                )
            )
            return lines
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
    status: dict[str, str] = {
        HintStatus.PROVEN_WON: "the round is won whatever comes",
        HintStatus.PROVEN_LOST: "the round cannot be won",
    }
    if r.status in status:
        lines.append(status[r.status])
    if r.finish is not None and r.finish.status == FinishStatus.WIN:
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
        lines.append(
            "not exact: the time ran out, so the values are bounds or sampled estimates (try hint 60)"
            if cut_short(r)
            else "not exact: the rounds after this one are valued by estimates (more time does not change that)"
        )
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
                f"{count_text(after.pile_size)} left in the pile"
            )
            if after.round is not None and after.round.final and game_of(after.setup.game).has_final_round:
                out.append(f"this is the final round: {final_reason(after, dealt=True)}")
        case Draw(cards):
            who = before.owed()[0]
            text = _cards_text(cards)
            if who == "reveal":
                out.append(f"the new top card of the pile is {text}")
            else:
                out.append(draw_text(who, cards))
        case Move(play):
            out.append(f"you play {to_text(play)}")
            # Known top cards drawn by the play come with it, not as a draw step: named here (the
            # top card face up, a puzzle's known pile), as a draw step names the others.
            known = play_effect(before.round, play) if before.round is not None else None
            if known is not None and known.known:
                who = "player" if known.player_draws else "wolf"
                out.append(f"{draw_text(who, known.known)} (known: the top of the pile)")
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
    if game_of(after.setup.game).is_race:
        p, w = after.points
        if s.outcome == WON:
            out.append(f"round {n} won: you score {sum(s.hand)} ({_cards_text(s.hand)}); you {p}, the Wolf {w}")
        else:
            out.append(f"round {n} lost: the Wolf scores {sum(s.wolf)} ({_cards_text(s.wolf)}); you {p}, the Wolf {w}")
    elif s.outcome == WON:
        out.append(f"{'final round' if s.final else f'round {n}'} won")
        if after.phase == REWARD:
            offered = ", ".join(str(r) for r in rewards(s.hand, s.party))
            out.append(f"choose a reward: {offered}")
        elif not s.final:
            out.append("no reward is possible: the hand is empty and the whole party is face up")
    else:
        fallen = [m for m in before.party if m not in after.party]
        if s.final:
            out.append("final round lost")
        else:
            down = f": {', '.join(fallen)} turned face down" if fallen else ""
            out.append(f"round {n} lost with {count_text(len(s.wolf))} left to the Wolf{down}")
    if after.over:
        out.append(game_result(after))
    elif after.phase == RESHUFFLE:
        cards = f"{after.pile_size} card{'' if after.pile_size == 1 else 's'}"
        out.append(f"the pile ({cards}) cannot deal a round: the discards are shuffled back in")
    return out


def game_result(t: Table) -> str:
    if game_of(t.setup.game).is_race:
        p, w = t.points
        return f"game {'won' if t.result == WON else 'lost'}: you {p}, the Wolf {w} (first to {t.setup.target})"
    if t.result == WON:
        return f"game won: score {t.score} = {score_breakdown(t)}"
    if not t.party:
        return "game lost: the whole party is face down"
    return "game lost: the final round was lost"


def score_breakdown(t: Table) -> str:
    """How a won vanguard game's score is made (RULES.md §4)."""
    s = t.round
    assert s is not None
    text = f"hand {sum(s.hand)} ({_cards_text(s.hand)}) + 10 × {count_text(len(s.party), 'party member')}"
    if s.rules.reserve_scores:
        text += f" + reserve {sum(s.reserve)}"
    return text


def prompts(session: Session) -> list[str]:
    """What to type next, when it is the user's turn to name cards (a physical game) or a reward."""
    t = session.table
    if t.phase == REWARD:
        return ["type the reward you take, or reward for advice"]  # the round's end named them
    if session.virtual or t.phase not in (DEAL, DRAW, RESHUFFLE):
        return []
    if t.phase == DEAL:
        p, w = t.deal_sizes()
        return [f"deal round {t.rounds + 1}: {count_text(p)} to you, {w} to the Wolf — type deal YOURS / WOLF'S"]
    if t.phase == RESHUFFLE:
        return ["shuffle the discards into the pile, then type reshuffle"]
    who, n = t.owed()
    if who == "reveal":
        return ["turn the new top card face up and type reveal CARD"]
    return [
        f"{'you draw' if who == 'player' else 'the Wolf draws'} {count_text(n)}: type draw " + " ".join(["CARD"] * n)
    ]


def round_number(t: Table) -> int:
    """The round the table is in, or, before a deal, the round to be dealt: the number the
    history and the deal's own note give it (never a round 0)."""
    return t.rounds + 1 if t.phase in (DEAL, RESHUFFLE) else t.rounds


def where_it_stands(t: Table, steps: int) -> str:
    """A game taken up again (a save loaded, a page uploaded): its round as the prompt numbers it
    (found by a review: "round 2 …; next: the deal of round 3"), its steps, what comes next."""
    return f"round {round_number(t)}, {count_text(steps, 'step')}; next: {waiting_for(t)}"


def final_reason(t: Table, *, dealt: bool = False) -> str:
    threshold = t.setup.rules.final_threshold
    return (
        f"the pile holds {t.pile_size} ≤ {threshold} after the deal" if dealt else "the pile ran out during the round"
    )


def final_status(session: Session) -> str:
    """Whether the final round has begun, and why (vanguard)."""
    t = session.table
    if not game_of(t.setup.game).has_final_round:
        return f"{t.setup.game} has no final round"
    threshold = t.setup.rules.final_threshold
    if t.phase in (PLAY, DRAW) and t.final:
        return "yes: " + final_reason(t, dealt=_final_at_deal(session.game))
    if t.over:
        return "the game is over" + (" (the final round was reached)" if t.final_reached else "")
    if t.phase in (DEAL, REWARD):
        left = pile_after_deal(t.pile_size, t.setup.rules)
        if final_at_deal(game_of(t.setup.game), left, t.setup.rules):
            return f"the next round will be: its deal leaves {left} ≤ {threshold} cards in the pile"
        return f"not yet: the next deal leaves {left} in the pile (final at ≤ {threshold})"
    return f"no: the deal left more than {threshold} in the pile; final if the pile runs out"


def _final_at_deal(game: Playthrough) -> bool:
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
    steps: tuple[str, ...]  # each in a few words (step_text)
    outcome: str | None  # WON, LOST, None while in play
    final: bool
    reward: str | None = None
    fallen: tuple[str, ...] = ()  # members turned face down (losses and sacrifices)
    points: int = 0  # lobo: points scored in the round (by you when won, by the Wolf when lost)


def rounds(game: Playthrough) -> list[RoundRecord]:
    """The game cut into rounds, each with its steps and what it ended in."""
    out: list[RoundRecord] = []
    current: list[str] = []
    # A reshuffle comes between rounds: it opens the round it deals (found by a review: it was
    # left out of the history, though it can be undone).
    reshuffled: list[str] = []
    number, party_before = 0, game.tables[0].party
    for i, step in enumerate(game.steps):
        before, after = game.tables[i], game.tables[i + 1]
        if isinstance(step, Reshuffle):
            reshuffled.append(step_text(step, before))
            continue
        if isinstance(step, Deal):
            number, current, party_before = after.rounds, reshuffled, before.party
            reshuffled = []
        current.append(step_text(step, before))
        if isinstance(step, (Deal, Draw, Move)) and after.phase not in (PLAY, DRAW) and after.round is not None:
            s = after.round
            pts = sum(round_points(s))  # the side that scored: the outcome says
            fallen = tuple(m for m in party_before if m not in after.party)
            out.append(RoundRecord(number, tuple(current), s.outcome, s.final, None, fallen, pts))
        elif isinstance(step, Take) and out:
            out[-1] = replace(out[-1], steps=(*out[-1].steps, step_text(step, before)), reward=str(step.reward))
    if current and (not out or out[-1].number != number):
        now = game.table.round
        out.append(RoundRecord(number, tuple(current), None, now is not None and now.final))
    if reshuffled:  # the next round, not yet dealt
        out.append(RoundRecord(number + 1, tuple(reshuffled), None, False))
    return out


def history_lines(game: Playthrough) -> list[str]:
    lines = []
    for r in rounds(game):
        end = {WON: "won", LOST: "lost", None: "in play"}[r.outcome]
        if r.fallen:
            end += f" ({' '.join(r.fallen)} face down)"
        lines.append(f"round {r.number}{' (final)' if r.final else ''}: {end}: " + ", ".join(r.steps))
    return lines or ["no step yet"]


def summary_lines(game: Playthrough) -> list[str]:
    """The end of a game in a few lines: the result and score, then the rounds."""
    t = game.table
    lines = [game_result(t) if t.over else f"in play: round {round_number(t)}"]
    rs = [r for r in rounds(game) if r.outcome is not None]
    won = sum(r.outcome == WON for r in rs)
    lines.append(f"{count_text(len(rs), 'round')} played: {won} won, {len(rs) - won} lost")
    kinds = Counter(s.play.kind for s in game.steps if isinstance(s, Move))
    if kinds:
        lines.append("plays: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])))
    g = game_of(t.setup.game)
    if g.has_party:
        fallen = [f"{' '.join(r.fallen)} in round {r.number}" for r in rs if r.fallen]
        lines.append("turned face down: " + (", ".join(fallen) if fallen else "none"))
    if g.has_rewards:
        taken = [f"{r.reward} (round {r.number})" for r in rs if r.reward]
        lines.append("rewards: " + (", ".join(taken) if taken else "none"))
    if g.has_final_round:
        lines.append("final round reached: " + ("yes" if t.final_reached else "no"))
    if g.is_race:
        lines.append(
            "points by round: "
            + ", ".join(f"{r.number}: {'you' if r.outcome == WON else 'Wolf'} {r.points}" for r in rs)
        )
    if g.reshuffles and t.reshuffles:
        lines.append(f"reshuffles: {t.reshuffles}")
    return lines
