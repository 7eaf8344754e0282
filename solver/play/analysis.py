"""The analysis of a played game (issue 25): every decision of the Player's marked with what it
cost, the luck of every deal and draw apart from the skill, and a summary, as GNU Backgammon
analyses a match.

Every number is the chance to win the game (RULES.md §7) at one table of the game:

* at a play: the hint's value of every legal play (solver/search/hint.py, on the position the table
  shows, as the hint policy asks it); the table's value is its best play's;
* at a reward: the game values of the rewards on offer (solver/play/reward_values.py);
* between rounds, before a deal: the value of the next deal (solver/search/round_end.deal_value);
* right after a play, before the cards it draws: the value of the play made, which is what those
  cards are expected to bring;
* at the end: 1 for a game won, 0 for a game lost.

A decision's loss is the chance of its best option minus the chance of the option taken, in
percentage points; a deal's or a draw's luck is the chance after the cards came minus the chance
before. They add up: end − start = luck − loss, up to the estimates' disagreement between two
tables with no card between them.

The tables valued on their own are independent tasks (`tasks`, `value_task`): a caller runs them
on every core (solver/parallel) and puts the pieces together with `assemble`.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from solver.core.games import Game
from solver.core.games import game as game_of
from solver.core.rules import State
from solver.core.status import Outcome
from solver.parallel import run_parallel
from solver.play.driver import (
    DEAL,
    DRAW,
    GAME_OVER,
    PLAY,
    RESHUFFLE,
    REWARD,
    Deal,
    Draw,
    GameError,
    Move,
    Playthrough,
    Reshuffle,
    Step,
    Table,
    Take,
    step_text,
)
from solver.play.hint_policy import (
    ENDGAME_STATES,
    ENDGAME_THINK,
    ENDGAME_UNKNOWN,
    decision_budgets,
    hint_samples,
    raised_near_the_end,
)
from solver.words.board import cards_text, draw_text

FORMAT = "lobo-hint game analysis"
VERSION = 1
TIME_LIMIT = 2.0  # seconds a decision by default: the hint's own default budget
# A mark where the loss exceeds these many points (as chess and backgammon analyses mark them).
MARKS: tuple[tuple[float, str], ...] = ((10.0, "??"), (5.0, "?"), (2.0, "?!"))
EPS = 1e-9


@dataclass(frozen=True)
class PlayedGame:
    """A game to analyse, and where it came from (solver/play/game_files.py reads them)."""

    game: Playthrough
    where: str  # the file, or file:line for a line of many
    index: int | None = None  # a simulated game's number ("game")
    policy: str | None = None  # who played it, when the file says


@dataclass(frozen=True)
class DecisionBudget:
    """What each decision's search may spend: the hint's budgets (solver/search/hint.py), raised
    near the end of a vanguard round as the hint policy raises them (hint_policy.decision_budgets).
    With a state budget, samples and no time limit the analysis is the same on every run."""

    time_limit: float | None = TIME_LIMIT
    max_states: int | None = None
    samples: int | None = None

    def __post_init__(self) -> None:
        if self.time_limit is None and self.max_states is None:
            raise ValueError("an analysis needs a time limit or a state budget")
        # The hint policy's samples under a state budget: its own games are analysed at its budget.
        object.__setattr__(self, "samples", hint_samples(self.max_states, self.samples))

    def near_the_end(self, g: Game) -> dict[str, Any] | None:
        """The budgets a decision of game `g` gets near the end of its round (decision_budgets), said
        with the budget: there `hint` with the budget as given may answer otherwise. None: no raise
        (lobo)."""
        if not raised_near_the_end(g):
            return None
        return {
            "unknown_cards_at_most": ENDGAME_UNKNOWN,
            "time_limit": None if self.time_limit is None else max(self.time_limit, ENDGAME_THINK),
            "max_states": None if self.max_states is None else max(self.max_states, ENDGAME_STATES),
        }

    def to_json(self, g: Game) -> dict[str, Any]:
        return {
            "time_limit": self.time_limit,
            "max_states": self.max_states,
            "samples": self.samples,
            "near_the_end": self.near_the_end(g),
        }


@dataclass(frozen=True)
class Chance:
    """A chance to win the game, with where it lies as far as the search knows (95%)."""

    value: float
    low: float
    high: float
    exact: bool
    method: str | None = None

    @staticmethod
    def known(value: float) -> Chance:
        return Chance(value, value, value, True)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "chance": round(self.value, 6),
            "chance_95": [round(self.low, 6), round(self.high, 6)],
            "exact": self.exact,
        }
        if self.method is not None:
            out["method"] = self.method
        return out


def step_number(index: int) -> int:
    """A step as a person counts it, from 1: the numbers the messages about a game's steps give
    (solver/play/driver.py's replay). JSON's `step` stays the index into the steps."""
    return index + 1


@dataclass(frozen=True)
class Decision:
    """One decision of the Player's: the option taken against the best one."""

    step: int  # its index in the game's steps
    kind: str  # "play" or "reward"
    round: int
    played: str
    best: str
    chance_played: Chance
    chance_best: Chance
    options: int
    apart: bool  # the two can be told apart (for estimates: beyond their uncertainty)
    seconds: float = 0.0
    choices: tuple[tuple[str, Chance], ...] = ()  # every option with its chance, the best first

    @property
    def number(self) -> int:
        return step_number(self.step)

    @property
    def unforced(self) -> bool:
        """Whether the choice could matter: more than one option, not every one worth exactly as
        much (a forced Fold, a final round won whatever is played, are not)."""
        if self.options < 2:
            return False
        if len(self.choices) < self.options:
            return True  # not every option's value is known here
        values = [c for _, c in self.choices]
        return not (all(c.exact for c in values) and max(c.value for c in values) - min(c.value for c in values) <= EPS)

    @property
    def loss(self) -> float:
        """Best minus made, in percentage points."""
        return 100.0 * (self.chance_best.value - self.chance_played.value)

    @property
    def mark(self) -> str | None:
        """By the loss, as backgammon's analyses mark an error: the loss is the best estimate of
        what the choice cost, told apart from the best or not (`apart` says which)."""
        if self.played == self.best:
            return None
        return next((m for limit, m in MARKS if self.loss > limit + EPS), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "number": self.number,
            "kind": self.kind,
            "round": self.round,
            "played": self.played,
            "best": self.best,
            "chance_played": round(self.chance_played.value, 6),
            "chance_best": round(self.chance_best.value, 6),
            "loss": round(self.loss, 4),
            "mark": self.mark,
            "played_value": self.chance_played.to_json(),
            "best_value": self.chance_best.to_json(),
            "exact": self.chance_played.exact and self.chance_best.exact,
            "told_apart": self.apart,
            "options": self.options,
            "seconds": round(self.seconds, 3),
            "choices": [{"option": text, **c.to_json()} for text, c in self.choices],
        }


@dataclass(frozen=True)
class TableValue:
    """The chance to win at a table valued on its own (before a deal; the open end of a game)."""

    step: int
    chance: Chance


Piece = Decision | TableValue


@dataclass(frozen=True)
class Luck:
    """The cards of one deal or draw (with a reveal that follows at once): how far they moved the
    chance to win from what was expected before they came."""

    step: int
    kind: str  # "deal" or "draw"
    text: str
    cards: tuple[int, ...]
    before: float
    after: float
    steps: tuple[int, ...]  # every step the cards came in

    @property
    def number(self) -> int:
        return step_number(self.step)

    @property
    def swing(self) -> float:
        return 100.0 * (self.after - self.before)

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "number": self.number,
            "kind": self.kind,
            "text": self.text,
            "cards": list(self.cards),
            "swing": round(self.swing, 4),
            "chance_before": round(self.before, 6),
            "chance_after": round(self.after, 6),
            "steps": list(self.steps),
        }


@dataclass(frozen=True)
class Analysis:
    game: Playthrough
    budget: DecisionBudget
    decisions: tuple[Decision, ...]
    luck: tuple[Luck, ...]
    chances: tuple[float | None, ...]  # the chance to win at every table (None: after a draw, before its reveal)
    source: str | None = None
    index: int | None = None  # a record's game number
    policy: str | None = None
    seconds: float = 0.0

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def total_luck(self) -> float:
        return sum(x.swing for x in self.luck)

    def marks(self) -> dict[str, int]:
        return {m: sum(d.mark == m for d in self.decisions) for _, m in MARKS}

    def marks_not_told_apart(self) -> int:
        """Marked decisions whose two choices' intervals overlap: the loss is an estimate's."""
        return sum(d.mark is not None and not d.apart for d in self.decisions)

    def decisive(self) -> dict[str, Any] | None:
        """The moment that moved the chance to win the most: a decision's loss or a luck swing."""
        moments: list[tuple[float, dict[str, Any]]] = [
            (
                d.loss,
                {
                    "step": d.step,
                    "number": d.number,
                    "kind": "decision",
                    "text": f"{d.played} (best {d.best})",
                    "points": round(-d.loss, 4),
                },
            )
            for d in self.decisions
        ]
        moments += [
            (
                abs(x.swing),
                {"step": x.step, "number": x.number, "kind": "luck", "text": x.text, "points": round(x.swing, 4)},
            )
            for x in self.luck
        ]
        if not moments:
            return None
        return max(moments, key=lambda m: m[0])[1]

    def summary(self) -> dict[str, Any]:
        end = self.game.table
        n = len(self.decisions)
        unforced = sum(d.unforced for d in self.decisions)
        start = self.chances[0] if self.chances else None
        return {
            "start_chance": None if start is None else round(start, 6),
            "result": end.result,
            "total_loss": round(self.total_loss, 4),
            "total_luck": round(self.total_luck, 4),
            "marks": self.marks(),
            "marks_not_told_apart": self.marks_not_told_apart(),
            "decisions": n,
            "exact_decisions": sum(d.chance_played.exact and d.chance_best.exact for d in self.decisions),
            "unforced_decisions": unforced,
            # Points lost per decision that could matter, as GNU Backgammon's error rate counts
            # unforced moves only (found by a review: forced folds and rounds won whatever was
            # played diluted it, so it measured how many such a game had).
            "error_rate": None if (rate := error_rate(self.total_loss, unforced)) is None else round(rate, 4),
            "decisive": self.decisive(),
        }

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if self.source is not None:
            out["source"] = self.source
        out["digest"] = game_digest(self.game)
        if self.index is not None:
            out["game"] = self.index
        if self.policy:
            out["policy"] = self.policy
        out |= {
            "setup": self.game.tables[0].setup.to_json(),
            "steps": len(self.game.steps),
            "result": self.game.table.result,
            "budget": self.budget.to_json(game_of(self.game.tables[0].setup.game)),
            "decisions": [d.to_json() for d in self.decisions],
            "luck": [x.to_json() for x in self.luck],
            "chances": [{"step": i, "chance": round(c, 6)} for i, c in enumerate(self.chances) if c is not None],
            "summary": self.summary(),
            "seconds": round(self.seconds, 3),
        }
        return out


# ---------------------------------------------------------------------------------------------
# The tables valued on their own


Task = tuple[int, Table, Step | None]


def game_digest(game: Playthrough) -> str:
    """A game's fingerprint (its setup and steps), kept with its analysis: a resumed analysis
    analyses again a game that changed since (found by a review: a file of games made again, or a
    save saved again, kept the old games' analyses)."""
    text = json.dumps(game.to_json(), sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def error_rate(loss: float, unforced: int) -> float | None:
    """Points lost an unforced decision; None with none (found by a review: 0.00 read as perfect
    play in a game with no choice to make)."""
    return loss / unforced if unforced else None


def games_total(summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Many games' summaries (`Analysis.summary()`, as an --out file keeps them) as one: how many,
    how many won, the mean chance at the start (None: none known), the sums of loss, luck and
    marks, and the error rate over every unforced decision (lines from before those were counted:
    their games' own rates, averaged)."""
    starts = [s["start_chance"] for s in summaries if s["start_chance"] is not None]
    unforced = [s.get("unforced_decisions") for s in summaries]
    loss = sum(s["total_loss"] for s in summaries)
    rate: float | None
    if all(isinstance(u, int) for u in unforced):
        rate = error_rate(loss, sum(u for u in unforced if isinstance(u, int)))
    else:
        rates = [s["error_rate"] for s in summaries if s["error_rate"] is not None]
        rate = sum(rates) / len(rates) if rates else None
    return {
        "games": len(summaries),
        "won": sum(s["result"] == Outcome.WON for s in summaries),
        "start_chance": sum(starts) / len(starts) if starts else None,
        "total_loss": loss,
        "total_luck": sum(s["total_luck"] for s in summaries),
        "marks": {m: sum(s["marks"][m] for s in summaries) for _, m in MARKS},
        "error_rate": rate,
    }


def tasks(game: Playthrough) -> list[Task]:
    """(index, table, step taken there) for every table whose value takes a search of its own:
    each decision, each table before a deal, and the open end of a game not finished."""
    out: list[Task] = []
    for i, t in enumerate(game.tables):
        step = game.steps[i] if i < len(game.steps) else None
        if t.phase in (DEAL, RESHUFFLE) and i > 0 and isinstance(game.steps[i - 1], (Move, Take, Reshuffle)):
            continue  # valued by the choice made just before it (or the table before the reshuffle)
        if t.phase in (PLAY, REWARD, DEAL, RESHUFFLE):
            out.append((i, t, step))
    return out


def value_task(index: int, table: Table, step: Step | None, budget: DecisionBudget) -> Piece:
    """Worker: the value of one table, and at a decision taken, the decision's analysis."""
    t0 = time.perf_counter()
    if table.phase == PLAY:
        piece: Piece = _play(index, table, step, budget)
    elif table.phase == REWARD:
        piece = _reward(index, table, step, budget)
    elif table.phase in (DEAL, RESHUFFLE):
        piece = TableValue(index, deal_chance(table, budget))
    else:
        raise GameError(f"step {index}: a table waiting for a {table.phase} is not valued on its own")
    if isinstance(piece, Decision):
        piece = replace(piece, seconds=time.perf_counter() - t0)
    return piece


def _deadline(budget: DecisionBudget) -> tuple[float | None, int | None]:
    """A next final deal too big to enumerate is sampled: for the time limit, or (a state budget
    alone) over the budget's samples, so that the analysis stays the same every run."""
    if budget.time_limit is not None:
        return time.perf_counter() + budget.time_limit, None
    return None, budget.samples


def deal_chance(table: Table, budget: DecisionBudget | None = None) -> Chance:
    from solver.search.estimate import evaluated
    from solver.search.round_end import deal_value

    between = State(
        table.setup.game, (), (), table.reserve, table.party, table.pile_size, table.pile_top, table.unseen, False,
        table.setup.rules,
    )  # fmt: skip
    deadline, deals = _deadline(budget) if budget is not None else (None, None)
    v = deal_value(between, table.points, table.setup.target, deadline, deals)
    if v.exact:
        return Chance.known(v.value)
    e = evaluated(v.value, v.error)
    lo, hi = e.interval or (v.value, v.value)
    return Chance(v.value, lo, hi, False, v.method or e.method)


def _play(index: int, table: Table, step: Step | None, budget: DecisionBudget) -> Piece:
    from solver.search.hint import HintResult, MoveResult, hint

    think, max_states = decision_budgets(table, budget.time_limit, budget.max_states)
    result = hint(table.position(), time_limit=think, max_states=max_states, samples=budget.samples, strict=False)
    if result.best is None:  # pragma: no cover - a table waiting for a play has one
        raise GameError(f"step {index}: no play to value")

    def chance(r: HintResult, m: MoveResult) -> Chance:
        if r.objective == "game":
            assert m.value is not None
            lo, hi = m.known_range() or (m.value, m.value)
            # The interval is widened to hold the value itself (a bias-corrected estimate may sit
            # just outside the range its sound bounds leave).
            lo, hi = min(lo, m.value), max(hi, m.value)
            return Chance(_p(m.value), _p(lo), _p(hi), m.bounds is None and m.interval is None, m.method)
        # A vanguard final round, by its finish: won (a finish found is its proof) or not.
        won = (m.win_probability or 0.0) >= 1.0
        known = won or r.exact  # a finish found is its own proof; "none found" is one only when exact
        return Chance(1.0 if won else 0.0, 1.0 if won else 0.0, 1.0 if won or not known else 0.0, known)

    by_play = {m.play: m for m in result.moves}
    best = by_play[result.best]
    best_chance = chance(result, best)
    if step is None:
        return TableValue(index, best_chance)
    if not isinstance(step, Move):
        raise GameError(f"step {index + 1}: the table waits for a play, not {step_text(step)}")
    made = by_play.get(step.play)
    if made is None:
        raise GameError(f"step {index + 1}: {step.play} is not among the legal plays the search valued")
    made_chance = chance(result, made)
    if made_chance.low > best_chance.high + EPS or made_chance.value >= best_chance.value - EPS:
        # The play made is surely better than the one recommended (a state budget alone picks by
        # the worst case), or worth as much (a tie broken the other way): it is the best, and
        # nothing was lost.
        best, best_chance = made, made_chance
    if result.objective == "game":
        apart = made.play != best.play and not made.tied
    else:
        apart = made.play != best.play and made_chance.high < best_chance.low - EPS
    others = sorted((m for m in result.moves if m is not best), key=lambda m: -chance(result, m).value)
    return Decision(
        index,
        "play",
        table.rounds,
        str(step.play),
        str(best.play),
        made_chance,
        best_chance,
        len(result.moves),
        apart,
        choices=tuple((str(m.play), chance(result, m)) for m in (best, *others)),
    )


def _p(x: float) -> float:
    """A probability as printed: within [0, 1] (a bias correction may step a hair outside), no −0."""
    return min(1.0, max(0.0, x)) + 0.0


def _reward(index: int, table: Table, step: Step | None, budget: DecisionBudget) -> Piece:
    from solver.play.reward_values import RewardValue, game_value_ranking

    assert table.round is not None
    deadline, deals = _deadline(budget)
    ranked = game_value_ranking(table.round, deadline, 0, deals)

    def chance(v: RewardValue) -> Chance:
        lo, hi = v.interval
        return Chance(_p(v.win_rate), _p(lo), _p(hi), bool(v.exact), v.method)

    if step is None:
        return TableValue(index, chance(ranked[0]))
    if not isinstance(step, Take):
        raise GameError(f"step {index + 1}: the table waits for a reward, not {step_text(step)}")
    made = next((v for v in ranked if v.reward == step.reward), None)
    if made is None:
        raise GameError(f"step {index + 1}: {step.reward} is not a reward on offer")
    return Decision(
        index, "reward", table.rounds, str(step.reward), str(ranked[0].reward),
        chance(made), chance(ranked[0]), len(ranked), made is not ranked[0] and made.significant,
        choices=tuple((str(v.reward), chance(v)) for v in ranked),
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The pieces put together


def assemble(
    game: Playthrough,
    pieces: Sequence[Piece],
    budget: DecisionBudget,
    *,
    source: str | None = None,
    index: int | None = None,
    policy: str | None = None,
    seconds: float = 0.0,
) -> Analysis:
    """The analysis of a game from the values of its tables (value_task over tasks(game))."""
    at = {p.step: p for p in pieces}
    chances: list[float | None] = []
    decisions: list[Decision] = []
    for i, t in enumerate(game.tables):
        p = at.get(i)
        before = at.get(i - 1)
        if isinstance(p, Decision):
            decisions.append(p)
            chances.append(p.chance_best.value)
        elif t.phase == GAME_OVER:
            chances.append(1.0 if t.result == "won" else 0.0)
        elif t.phase in (DRAW, DEAL, RESHUFFLE) and isinstance(before, Decision):
            # Right after a choice, before any card: the value of the choice made, which is what
            # the cards to come are expected to bring (the next deal's own estimate may differ:
            # the luck of those cards is measured from what the choice was worth).
            chances.append(before.chance_played.value)
        elif isinstance(p, TableValue):
            chances.append(p.chance.value)
        elif t.phase == DEAL and i > 0 and isinstance(game.steps[i - 1], Reshuffle):
            chances.append(chances[i - 1])  # a reshuffle brings no card into view
        else:
            chances.append(None)
    return Analysis(
        game, budget, tuple(decisions), _luck(game, chances), tuple(chances), source, index, policy, seconds
    )


def _luck(game: Playthrough, chances: Sequence[float | None]) -> tuple[Luck, ...]:
    """One entry a deal or draw whose table before has a value; cards that follow at once, before
    the next valued table (a reveal after a draw), count with it."""
    out: list[Luck] = []
    steps = game.steps
    for i, step in enumerate(steps):
        before = chances[i]
        if not isinstance(step, (Deal, Draw)) or before is None:
            continue
        j = i + 1
        while j < len(chances) and chances[j] is None:
            j += 1
        if j >= len(chances):  # the game so far ends inside a chance step
            continue
        came = [k for k in range(i, j) if isinstance(steps[k], (Deal, Draw))]
        cards = tuple(c for k in came for c in _cards(steps[k]))
        text = "; ".join(_chance_text(game.tables[k], steps[k]) for k in came)
        out.append(
            Luck(i, "deal" if isinstance(step, Deal) else "draw", text, cards, before, chances[j] or 0.0, tuple(came))
        )
    return tuple(out)


def _cards(step: Step) -> tuple[int, ...]:
    if isinstance(step, Deal):
        return step.player + step.wolf
    if isinstance(step, Draw):
        return step.cards
    return ()


def _chance_text(before: Table, step: Step) -> str:
    if isinstance(step, Draw):
        who, _ = before.owed()
        if who in ("player", "wolf"):
            return draw_text(who, step.cards)
        return f"{cards_text(step.cards)} revealed"
    return f"round {before.rounds + 1} dealt: {step_text(step).removeprefix('deal ')}"


# ---------------------------------------------------------------------------------------------
# Many games, on every core


def analyse_games(
    games: Iterable[PlayedGame],
    budget: DecisionBudget,
    *,
    workers: int | None = None,
    cluster: Any = None,
    on_analysis: Callable[[Analysis], None],
    on_piece: Callable[[Piece], None] | None = None,
    on_wait: Callable[[str], None] | None = None,
) -> None:
    """Every game analysed, its tables valued in parallel (a decision's search on each core: the
    same results in the same order whatever the number of workers); on_analysis sees each game's
    analysis, in the games' order, as soon as its last table is valued; on_piece each table."""
    queue: deque[tuple[PlayedGame, int]] = deque()
    got: list[Piece] = []

    def all_tasks() -> Iterator[tuple[int, Table, Step | None, DecisionBudget]]:
        for played in games:
            mine = tasks(played.game)
            queue.append((played, len(mine)))
            for i, t, s in mine:
                yield i, t, s, budget
            if not mine:
                _flush()

    def _flush() -> None:
        while queue and len(got) >= queue[0][1]:
            played, n = queue.popleft()
            pieces = got[:n]
            del got[:n]
            seconds = sum(p.seconds for p in pieces if isinstance(p, Decision))
            on_analysis(
                assemble(played.game, pieces, budget, source=played.where, index=played.index, policy=played.policy,
                         seconds=seconds)
            )  # fmt: skip

    def emit(piece: Piece) -> None:
        got.append(piece)
        if on_piece is not None:
            on_piece(piece)
        _flush()

    run_parallel(value_task, all_tasks(), emit=emit, workers=workers, cluster=cluster, ordered=True, on_wait=on_wait)
    _flush()


__all__ = [
    "FORMAT",
    "MARKS",
    "TIME_LIMIT",
    "VERSION",
    "Analysis",
    "Chance",
    "Decision",
    "DecisionBudget",
    "Luck",
    "Piece",
    "PlayedGame",
    "TableValue",
    "analyse_games",
    "assemble",
    "deal_chance",
    "error_rate",
    "game_digest",
    "games_total",
    "step_number",
    "tasks",
    "value_task",
]
