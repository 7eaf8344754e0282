"""The hint: every legal play valued under the position's objective, the best one, and the status.

Final rounds are solved by the finisher (nothing is drawn there); other rounds by the expectimax
search (solver/search/expectimax.py, driven by engine.py). Whatever cuts a search short makes the answer say `exact: false`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from solver.core import objectives
from solver.core.games import game
from solver.core.plays import Play
from solver.core.position import Position, Rules
from solver.core.rules import WON, State, apply, initial_state, legal_plays
from solver.core.status import FinishStatus, HintStatus
from solver.finish.finisher import Finish, finish_worth, solve_finish, won_worth
from solver.search import bias, memory, value_net
from solver.search.engine import (
    Budget,
    MoveValue,
    Search,
    WinCheck,
    compiled_for,
    evaluate_moves,
    prepare,
    principal_line,
    value_range,
)
from solver.search.estimate import (
    EVALUATED,
    LOOKAHEAD,
    MAX_ROLLOUTS,
    MIN_ROLLOUTS,
    NETWORK_ALONE,
    Estimate,
    evaluated,
    looked_ahead,
    rolled_out,
)

EPS = 1e-9
PLANNED = 0.95  # of a time limit, planned for; the rest is the margin for overruns
OVERRUN = 0.25  # of a time limit, the most that rollouts owed their minimum (or the lookahead) may run over
HARD = 0.98  # of a time limit, what they may run to when the limit is kept (strict; the rest: the answer)
LEAST_SHARE = 0.25  # of a time limit, what the searches get however long the start took
SEARCH_SHARE = 0.7  # of a time limit, for the exact search; the rest for sampled estimates
WIN_SHARE = 0.5  # under `party`, of what is left, for the exact win search; the rest for estimates
# Under a short clock (a simulated game's decisions, objective `game`) the exact search mostly ends
# within a few milliseconds or not at all (each unknown card more triples its states), so it gets
# a smaller share, the win search too: the rest goes to rollouts, which otherwise got a tenth of
# the clock (measured in bench/README.md).
SHORT_CLOCK = 0.25
SHORT_SEARCH_SHARE = 0.35
SHORT_WIN_SHARE = 0.25
# Where a value network values the open plays (milliseconds, nothing sampled: at most 15 ms for
# a dozen plays, bench/README.md), the searches keep almost all of a clock that is not short: the
# game values', then the round win's.
NETWORK_SEARCH_SHARE = 0.9
NETWORK_WIN_SHARE = 0.97
# With one member, under `game`, the round's win search goes first with this share of the exact
# search's: its bounds cut the game search to about a seventh of its states (a loss takes the last
# member, so a state is worth at most its round's win probability: expectimax.P_WIN_BOUND). What
# it leaves open it finishes after the game search, on what is left.
FIRST_WIN_SHARE = 0.5
# A value searched to the round's end (evaluator beyond) beside a win probability estimated
# apart: one estimate, both methods, the value's first.
WIN_BY = "; the win probability: "
MIDPOINT = "middle of the sound bounds"  # a state budget only: nothing was sampled
# Under a clock, a play searched to the round's end may read few of the evaluator's values, or none
# (a play that leaves the Wolf more cards than the party has members): where every play was searched
# to the round's end, its own error is found by a search of its own, with at most this share of the
# time left between them.
OWN_ERROR_SHARE = 0.25
# Under a clock that is not short, where a value network values the open plays, the lookahead
# values every play before the searches, with at most this share of the clock (it takes some
# 40-80 ms for a dozen plays): left for last, it could find the clock spent and fall back on the
# network alone (found in session 46: a 2 s answer at 12 cards in the pile, one run in three, and
# its recommendation with it).
EARLY_LOOKAHEAD_SHARE = 0.25


@dataclass(frozen=True)
class MoveResult:
    play: Play
    value: float | None  # None: a lost final round under `score`
    win_probability: float | None = None
    bounds: tuple[float, float] | None = None  # only when the value is not exact
    blunder: bool = False  # throws away a certain win
    samples: int | None = None  # the value (or win probability) is estimated over this many deals
    method: str | None = None  # how it was estimated (solver/search/estimate.py, or MIDPOINT)
    interval: tuple[float, float] | None = None  # with samples: 95% interval for the true value
    win_interval: tuple[float, float] | None = None  # the same for win_probability, when estimated apart
    tied: bool = False  # cannot be told apart from the best play
    measured: int | None = None  # with rollouts: the plays their bias correction was measured on

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"play": self.play.to_json(), "text": str(self.play), "value": _num(self.value)}
        if self.win_probability is not None:
            out["win_probability"] = _num(self.win_probability)
        if self.bounds is not None:
            out["bounds"] = [_num(self.bounds[0]), _num(self.bounds[1])]
        if self.blunder:
            out["blunder"] = True
        if self.tied:
            out["tied"] = True
        if self.samples is not None:
            est: dict[str, Any] = {"method": self.method, "samples": self.samples}
            if self.interval is not None:
                est["interval"] = [_num(self.interval[0]), _num(self.interval[1])]
            if self.win_interval is not None:
                est["win_interval"] = [_num(self.win_interval[0]), _num(self.win_interval[1])]
            if self.measured is not None:
                est["bias_measured_on"] = self.measured
            out["estimate"] = est
        return out

    def value_estimated(self) -> bool:
        """Whether the value itself is an estimate: cut short (bounds), or searched to the round's end
        with the evaluator beyond. An exact value's row may still carry an estimate: its win
        probability's (found in session 46: such a value was marked "est." with an interval of
        no width)."""
        return self.bounds is not None or (self.method is not None and self.method.startswith(EVALUATED))

    def known_range(self) -> tuple[float, float] | None:
        """Where the value lies as far as the answer knows: the exact value, else the estimator's
        interval where it agrees with the sound bounds, else the bounds. None: lost (`score`)."""
        if self.value is None:
            return None
        if self.bounds is None:
            if self.interval is None:
                return self.value, self.value
            return self.interval
        lo, hi = self.bounds
        if self.interval is not None and self.interval[0] <= hi + EPS and self.interval[1] >= lo - EPS:
            return max(lo, self.interval[0]), min(hi, self.interval[1])
        return lo, hi


def _num(x: float | None) -> float | int | None:
    if x is None:
        return None
    r = round(x, 12) + 0.0  # + 0.0: never a negative zero
    return int(r) if r.is_integer() else r


@dataclass(frozen=True)
class HintResult:
    status: HintStatus
    objective: str
    exact: bool
    best: Play | None
    value: float | None
    win_probability: float | None
    moves: tuple[MoveResult, ...]
    proof: dict[str, Any] | None = None
    finish: Finish | None = None  # final rounds: the best finish
    note: str | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    line: tuple[Play, ...] | None = None  # a fully known pile: the whole best line from here

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "objective": self.objective,
            "exact": self.exact,
            "best": None if self.best is None else self.best.to_json(),
            "value": _num(self.value),
        }
        if self.win_probability is not None:
            out["win_probability"] = _num(self.win_probability)
        out["moves"] = [m.to_json() for m in self.moves]
        if self.proof is not None:
            out["proof"] = self.proof
        if self.finish is not None and self.finish.status == FinishStatus.WIN:
            out["finish"] = [p.to_json() for p in self.finish.plays]
            out["finish_text"] = ", ".join(str(p) for p in self.finish.plays)
        if self.line is not None:
            out["line"] = [p.to_json() for p in self.line]
            out["line_text"] = ", ".join(str(p) for p in self.line)
        if self.note:
            out["note"] = self.note
        out["stats"] = self.stats
        return out


def _sorted(moves: list[MoveResult]) -> tuple[MoveResult, ...]:
    """Best first; lost lines (None) last. Of plays worth the same (within EPS), the likelier to win
    the round first (found by a review: under `game` a round surely won was folded "as good for
    the game", the top play and its line giving up the round); then the listing order."""
    by_value = sorted(moves, key=lambda m: (m.value is None, -(m.value if m.value is not None else 0.0)))

    def worth_as_much(m: MoveResult, top: float | None) -> bool:
        return m.value is None if top is None else m.value is not None and m.value >= top - EPS

    out: list[MoveResult] = []
    while by_value:
        n = 1
        while n < len(by_value) and worth_as_much(by_value[n], by_value[0].value):
            n += 1
        out += sorted(by_value[:n], key=lambda m: -(m.win_probability if m.win_probability is not None else -1.0))
        by_value = by_value[n:]
    return tuple(out)


def _mark_ties(moves: tuple[MoveResult, ...], best: Play | None) -> tuple[MoveResult, ...]:
    """`tied` on every move that cannot be told apart from the best play's: their known ranges
    share a stretch, or one's exact value lies inside the other's range (two exact values: equal
    within EPS); two lost lines are tied too. Ranges that only touch are told apart (found by a
    review: Fold's exact 0 was "≈ best" beside a cut-short estimate whose interval began at 0)."""
    top = next((m for m in moves if m.play == best), None)
    if top is None:
        return moves
    ref = top.known_range()

    def tied(m: MoveResult) -> bool:
        r = m.known_range()
        if r is None or ref is None:
            return r is None and ref is None
        if min(r[1], ref[1]) - max(r[0], ref[0]) > EPS:
            return True
        points = [x for x in (r, ref) if x[1] - x[0] <= EPS]
        if len(points) == 2:
            return abs(r[0] - ref[0]) <= EPS
        if not points:
            return False
        (v, _), (lo, hi) = points[0], (ref if points[0] is r else r)
        # Sound bounds with nothing sampled hold their ends: a value at one may be the other play's
        # very value (found by a review: final-round plays worth the best's 38 exactly, cut short
        # with bounds 0–38, were told apart from it). A sampled interval's end is no such value.
        ranged = top if points[0] is r else m
        return lo + EPS < v < hi - EPS or (not ranged.samples and min(abs(v - lo), abs(v - hi)) <= EPS)

    return tuple(m if m is top else replace(m, tied=tied(m)) for m in moves)


def hint(
    pos: Position,
    *,
    time_limit: float | None = None,
    max_states: int | None = None,
    samples: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    started: float | None = None,
    threads: int = 1,
    strict: bool = True,
) -> HintResult:
    """Value every legal play of the position (see RULES.md §6 for the objectives).

    Where the search cannot finish, the open plays are estimated over random deals of the unseen
    cards (seeded: the same deals every time), until the time limit or `samples` deals a play.
    With `max_states` and `samples` and no time limit binding, the answer is the same every run.
    The time limit counts from `started` (a `time.perf_counter()` reading: when the command or the
    request began), by default from this call; loading the compiled search is inside it.
    threads=2 lets a search without a state budget run on two cores (engine.cores() says how many
    this process may use); the values are the same, more of them exact within a time limit.
    strict=False lets the estimates and the status search run past the limit by up to a quarter
    of it (the simulator's decisions: a pace of thinking, measured so); by default the answer
    comes within the limit, unless loading the engine took most of it (LEAST_SHARE)."""
    t0 = time.perf_counter() if started is None else started
    state = initial_state(pos)
    if game(pos.game).has_final_round and state.final:
        return _final_round(state, pos.objective, time_limit, t0)
    return _search(state, pos, time_limit, max_states, samples, progress, t0, threads, strict)


# A play of a final round gets a finish of its own only with at least this much of the clock left,
# and then at least this much of it: CP-SAT decides a big round's play in some 20 ms (20 cards
# against 15: 23 ms, measured), and a share too thin for any decides none. The rest are bounded.
CHILD_SECONDS = 0.03


@dataclass(frozen=True)
class _Child:
    """A final-round play as far as the answer knows it: lo and hi bound its value (equal: exact);
    won is None where the clock left it open whether a finish exists."""

    lo: float
    hi: float
    won: bool | None


def _final_round(state: State, objective: str, time_limit: float | None, t0: float) -> HintResult:
    limit = 10.0 if time_limit is None else time_limit
    # A time limit is the whole answer's: the plays share what the root's finish leaves (with
    # none, each finish has its own ten seconds, as a state budget's answers always had).
    due = None if time_limit is None else t0 + time_limit
    by = "party" if objective == "party" else "score"
    if due is not None:
        limit = max(CHILD_SECONDS, due - time.perf_counter())  # the start-up came out of the same clock
    root = solve_finish(state, time_limit=limit, objective=by)
    active = len(state.party)
    plays = legal_plays(state)
    worth = "game" if objective == "game" else by  # what a won final round is worth here

    exact_root = root.status == FinishStatus.WIN and root.exact
    top = (
        finish_worth(root, state, worth) if exact_root else won_worth(state, state, worth)
    )  # no play beats the best finish
    floor = 0.0 if objective == "game" else -float(active) if by == "party" else LOST
    # Which member a sacrifice turns face down never changes a finish's worth (RULES.md §4).
    alike = {replace(p, member=None) for p in root.plays} if exact_root else set()
    children: list[_Child] = []
    for i, play in enumerate(plays):
        after = apply(state, play)
        if play.kind == "fold" or root.status == FinishStatus.LOST:  # no play wins a round with no finish
            children.append(_Child(floor, floor, False))
            continue
        if after.outcome == WON:
            v = won_worth(after, state, worth)
            children.append(_Child(v, v, True))
            continue
        if replace(play, member=None) in alike:  # plays commute: the best finish less this one ends the rest
            children.append(_Child(top, top, True))
            continue
        left = math.inf if due is None else due - time.perf_counter()
        if left < CHILD_SECONDS:
            children.append(_Child(floor, top, None))
            continue
        share = limit if due is None else max(CHILD_SECONDS, left / (len(plays) - i))
        f = solve_finish(after, time_limit=share, objective=by, prove=False, check=False)
        if f.status == FinishStatus.LOST:
            children.append(_Child(floor, floor, False))
        elif f.status == FinishStatus.WIN:
            v = finish_worth(f, state, worth)
            # A finish as good as the best finish is this play's best, proven or not.
            children.append(_Child(v, v if f.exact or v >= top - EPS else top, True))
        else:
            children.append(_Child(floor, top, None))
    if root.status == FinishStatus.WIN and not exact_root and root.plays:
        # The finish found, not proven best, starts with this play: the play is worth at least it.
        first, found = replace(root.plays[0], member=None), finish_worth(root, state, worth)
        children = [
            _Child(max(c.lo, found), max(c.hi, found), True) if replace(p, member=None) == first else c
            for p, c in zip(plays, children, strict=True)
        ]
    moves = [_move(play, c, objective) for play, c in zip(plays, children, strict=True)]
    exact = root.exact and all(c.lo == c.hi for c in children)
    ordered = _sorted(moves)
    won = root.status == FinishStatus.WIN
    proof = None
    if root.status == FinishStatus.LOST and root.proof is not None:
        proof = {"kind": "final_round_core", **root.proof.to_json()}
    lost = root.status == FinishStatus.LOST
    best = root.plays[0] if won and root.plays else next((m.play for m in ordered), None)
    if lost:  # fold only where no finish exists: a round the clock left open is not lost
        best = next(m.play for m in ordered if m.play.kind == "fold")
    best_move = next(m for m in ordered if m.play == best)
    best_value = best_move.value
    if won and objective == "game":
        best_value = 1.0
    elif lost:
        best_value = None if by == "score" and objective != "game" else floor
    # The finisher's play (or Fold) can share its value with plays listed before it: it goes first.
    ordered = (*[m for m in ordered if m.play == best], *[m for m in ordered if m.play != best])
    status = (  # a finish found wins the round whatever the rest: proven, and `check` re-checks it
        HintStatus.PROVEN_WON if won
        else HintStatus.PROVEN_LOST if root.status == FinishStatus.LOST
        else HintStatus.OPEN
    )  # fmt: skip
    # A blunder throws away a certain win: only a play proven to lose is one.
    marked = _mark_ties(
        tuple(replace(m, blunder=status == HintStatus.PROVEN_WON and m.win_probability == 0.0) for m in ordered),
        best,
    )
    stats: dict[str, Any] = {"seconds": round(time.perf_counter() - t0, 4), "finisher": root.stats}
    if not exact:
        stats["stopped"] = "time"  # the clock, not the rules, left plays open
    chance = 1.0 if won else 0.0 if lost else best_move.win_probability
    return HintResult(status, objective, exact, best, best_value, chance, marked, proof, root, stats=stats)


LOST = -math.inf  # a lost finish's value under `score`: below every score (None in the answer)


def _move(play: Play, c: _Child, objective: str) -> MoveResult:
    """A final-round play's row: exact, or the middle of its sound bounds (a finish found is the
    low end; the best finish, the high end; a loss, the bottom: under `score`, 0)."""
    if c.lo == c.hi:
        value = None if c.lo == LOST else c.lo
        return MoveResult(play, value, 1.0 if c.won else 0.0)
    lo = 0.0 if c.lo == LOST else c.lo
    mid = (lo + c.hi) / 2
    if c.won:
        return MoveResult(play, mid, 1.0, (lo, c.hi), samples=0, method=MIDPOINT, interval=(lo, c.hi))
    if objective == "game":
        return MoveResult(play, mid, mid, (lo, c.hi), samples=0, method=MIDPOINT, interval=(lo, c.hi))
    return MoveResult(
        play, mid, 0.5, (lo, c.hi), samples=0, method=MIDPOINT, interval=(lo, c.hi), win_interval=(0.0, 1.0)
    )


def _search(
    state: State,
    pos: Position,
    time_limit: float | None,
    max_states: int | None,
    samples: int | None,
    progress: Callable[[int, int], None] | None,
    t0: float,
    threads: int,
    strict: bool = True,
) -> HintResult:
    # Loading the compiled search (once per process) is inside the time limit: it counts from t0.
    prepare(state, "win" if pos.objective == "score" else pos.objective, threads, time_limit, max_states)
    g = game(pos.game)
    # The chance to win the round is searched apart where it is not the value itself.
    apart = pos.objective == "game" or (g.win_probability and pos.objective == "party")
    if apart:
        prepare(state, "win")
    objective = pos.objective
    note = None
    if objective == "score":
        objective = "win"
        note = "the score objective is for final rounds; this round is valued by its win probability"
    # The answer is due within the time limit: plan for a little less (a chunk of states, the
    # rollouts' minimum and the answer itself overrun a plan by up to a tenth).
    planned = None if time_limit is None else PLANNED * time_limit
    deadline = None if planned is None else t0 + planned
    if deadline is not None and planned is not None:
        # A start that ate the limit (a busy machine, a first run) still leaves the search a
        # quarter of it: an answer a little late rather than one that searched nothing.
        deadline = max(deadline, time.perf_counter() + LEAST_SHARE * planned)
    # With a time limit, keep a share of it for sampled estimates in case the exact search fails.
    # Measured for `game` (bench/README.md); a sample budget is kept as asked.
    # What the estimates and the status search may not pass: the limit itself, less the answer's
    # own margin (found by a review: -t 3 answered in 3.8 s, the lookahead's overrun).
    hard = None if time_limit is None or not strict or deadline is None else max(deadline, t0 + HARD * time_limit)

    def overrun(seconds: float) -> float:
        return seconds if hard is None or deadline is None else max(0.0, min(seconds, hard - deadline))

    short = time_limit is not None and time_limit < SHORT_CLOCK and samples is None and pos.objective == "game"
    networked = objective in ("game", "win") and compiled_for(state) and value_net.for_round(state) is not None
    search_share = SHORT_SEARCH_SHARE if short else NETWORK_SEARCH_SHARE if networked else SEARCH_SHARE

    def exact_limit() -> float | None:
        return None if deadline is None else search_share * max(0.001, deadline - time.perf_counter())

    # Under a state budget or a short clock (the simulator's decisions) the order stays as it was:
    # what a budget buys is the same from version to version where it can be (the reproducible
    # strength runs), and under a short clock the searches mostly end in milliseconds or not at all.
    win_first = (
        apart and objective == "game" and g.win_probability and len(state.party) == 1
        and max_states is None and not short
    )  # fmt: skip
    early: dict[Play, Estimate] = {}
    if networked and deadline is not None and max_states is None and not short:
        until = time.perf_counter() + EARLY_LOOKAHEAD_SHARE * max(0.0, deadline - time.perf_counter())
        early = looked_ahead(
            state, objective, legal_plays(state), value_net.for_round(state), win=apart, deadline=until
        )
    wv: list[MoveValue] | None = None
    start = None
    if win_first:
        first = exact_limit()
        wv, tagged = evaluate_moves(
            state, "win", time_limit=None if first is None else FIRST_WIN_SHARE * first, threads=threads, tagged=True
        )
        start = tagged.table
    values, search = evaluate_moves(
        state,
        objective,
        max_states=max_states,
        time_limit=exact_limit(),
        progress=progress,
        scores=pos.scores,
        threads=threads,
        win_bound=win_first,
        start=start,
    )
    found = {m.play: m for m in values}
    # Where a value network was trained for rounds like this one, the plays the search leaves open
    # are valued by the lookahead over it (deterministic, milliseconds); elsewhere by rollouts.
    # Asked after the search, which may have handed over to the compiled code (engine.HANDOVER).
    net = value_net.for_round(state) if objective in ("game", "win") and compiled_for(state) else None
    # Every vanguard play's win probability, whatever the objective: under `win` it is the value;
    # otherwise a search of its own, with a share of what is left (the rest for estimates).
    wins: dict[Play, MoveValue] = {}
    if g.win_probability or apart:
        if apart:
            if wv is None or not all(m.exact for m in wv):
                if not win_first:
                    search.let_go_of_table()  # the win search's table takes its memory
                share = SHORT_WIN_SHARE if short else NETWORK_WIN_SHARE if networked else WIN_SHARE
                remaining = None if deadline is None else max(0.001, share * (deadline - time.perf_counter()))
                wv, _ = evaluate_moves(
                    state, "win", max_states=max_states, time_limit=remaining, threads=threads,
                    tagged=win_first, start=search.table if win_first else None,
                )  # fmt: skip
            wins = {m.play: m for m in wv}
        else:
            wins = found
    searched = all(m.exact for m in values) and all(m.exact for m in wins.values())  # to the round's end
    exact = searched and not search.estimated
    estimates: dict[Play, Estimate] = {}
    evaluated_values: dict[Play, Estimate] = {}  # searched plays' values, the evaluator's beyond the round
    if search.estimated:
        # Searched to the end of the round, every end valued for the game; beyond the exact horizon
        # that value is the evaluator's: an estimate, with the evaluator's own error (the largest
        # the search read, or for a play that ends the round, the largest that end reads: a Fold
        # that loses the last member reads none, and is exact; under a clock, where every play was
        # searched to the round's end, the largest its own search reads). Where some play is left
        # open, the time left is the estimates' (the rollouts or the lookahead).
        searched_plays = [m for m in values if m.exact]
        every = len(searched_plays) == len(values) and all(w.exact for w in wins.values())
        left = 0.0 if deadline is None else max(0.0, deadline - time.perf_counter())
        # Under a clock alone: a state budget's answer must not hang on how fast the machine is.
        own_until = (
            time.perf_counter() + OWN_ERROR_SHARE * left
            if deadline is not None and max_states is None and every
            else None
        )
        for i, m in enumerate(searched_plays):
            error = search.error
            child = apply(state, m.play, check=False)
            if child.outcome is not None:
                try:
                    read, error = search.own_error(child)
                except Budget:
                    read, error = True, search.error
            elif own_until is not None:
                share = (own_until - time.perf_counter()) / (len(searched_plays) - i)
                read, error = own_reads(child, objective, pos.scores, time.perf_counter() + share, search.error)
            else:
                read = True
            if not read:
                continue
            evaluated_values[m.play] = evaluated(m.value, error)
    open_plays = [m.play for m in values if not m.exact or not wins.get(m.play, m).exact]
    stand_ins = _stand_ins(open_plays, objective)
    open_plays = list(dict.fromkeys(stand_ins.values()))  # each state estimated once
    if open_plays and net is not None:
        # Its batches go on past the deadline by the rollouts' overrun (milliseconds a position, as
        # before): only a position with a hundred plays and more is left to the network alone.
        late = None if deadline is None or time_limit is None else deadline + overrun(max(0.05, OVERRUN * time_limit))
        estimates.update({p: early[p] for p in open_plays if p in early and early[p].method == LOOKAHEAD})
        rest = [p for p in open_plays if p not in estimates]
        if rest:
            estimates.update(looked_ahead(state, objective, rest, net, win=apart, deadline=late))
    elif open_plays and (deadline is not None or samples):
        # One method whatever the budget: rollouts, corrected for their bias (solver/search/bias.py).
        # With a sample budget only, the deals' count is the budget (math.inf: no deadline).
        estimates.update(
            rolled_out(
                state,
                objective,
                open_plays,
                deadline=math.inf if deadline is None else deadline,
                min_deals=MIN_ROLLOUTS if samples is None else min(samples, MIN_ROLLOUTS),
                max_deals=MAX_ROLLOUTS if samples is None else samples,
                win=apart,
                scores=pos.scores,
                # Under a clock alone, the minimum of deals gives way past a quarter of the time
                # limit's overrun (a sample budget is kept whatever it costs: reproducible).
                overrun=None if samples is not None or time_limit is None else overrun(max(0.05, OVERRUN * time_limit)),
            )
        )
    estimates.update({p: estimates[alike] for p, alike in stand_ins.items() if alike in estimates})
    stats = search.stats.to_json()
    if exact:
        # A first pass's share of the clock may have stopped a play that the second pass then
        # finished: the answer was not cut short, so it names no budget (formats.md: `stopped`).
        stats.pop("stopped", None)
    win_values = {p: w.value for p, w in wins.items() if w.exact}
    # A run cut short by its budget claims no proof at all, even one the status search could finish.
    # A round searched to its end has its status even where the game beyond it is an estimate.
    status, proof = HintStatus.OPEN, None
    if searched:
        settled, proof = _status(state, win_values, _extend(deadline, hard), max_states)
        status = settled or HintStatus.OPEN
        if settled is None:  # found by a review: "open" said nothing of the proof search cut short
            stats["status_stopped"] = True
            note = (f"{note}; " if note else "") + (
                "the search for a proof that the round is won or lost ran out of budget: "
                "the status open may be proven with more (--time-limit, --max-states)"
            )
    rows = _Rows(state, objective, apart, pos.scores, pos.rules == Rules())
    moves = [rows.move(p, found[p], wins.get(p), estimates.get(p), evaluated_values.get(p)) for p in legal_plays(state)]
    ordered = _sorted(moves)
    if not exact and not estimates:
        # With bounds only (a state budget, no time for estimates), recommend the play whose worst
        # case is best (its lower bound), not the one whose middle of the bounds happens to be
        # highest: that means little. But never Fold unless it is proven no worse than every play:
        # its exact value would beat every open play's wide lower bound at the start of a round.
        def worst_case(m: MoveResult) -> tuple[float, float]:
            return (m.bounds[0] if m.bounds else (m.value or 0.0), m.value or 0.0)

        fold = next((m for m in ordered if m.play.kind == "fold"), None)
        others = [m for m in ordered if m is not fold]
        fold_proven = fold is not None and all(
            (m.bounds[1] if m.bounds else (m.value or 0.0)) <= (fold.value or 0.0) for m in others
        )
        safest = max(ordered if fold_proven or not others else others, key=worst_case)
        ordered = (safest, *[m for m in ordered if m is not safest])
    if status == HintStatus.PROVEN_WON:
        ordered = tuple(
            replace(m, blunder=m.win_probability is not None and m.win_probability < 1.0 - EPS) for m in ordered
        )
    ordered = _mark_ties(ordered, ordered[0].play)
    best = ordered[0]
    line = None
    if exact and state.unknown_draws == 0 and best.play.kind != "fold":
        line = _known_line(search, state, best.play)
    stats["seconds"] = round(time.perf_counter() - t0, 4)
    if pos.objective == "game" and not exact and pos.rules != Rules():
        # The evaluator's tables and the value network were made for the default rules' rounds.
        note = (f"{note}; " if note else "") + (
            "the game after this round is valued by tables made for the default rules; under these "
            f"rulings ({', '.join(f'{k}={v}' for k, v in pos.rules.written().items())}) they are a rough "
            "guide, and an estimate's interval is its sound bounds"
        )
    if stats.get("stopped") == "memory" and memory.resident() >= memory.limit() // 2:
        # Found by a review: a budget below what the process itself holds (the interpreter, numpy
        # and the compiled search: some 190 MiB) stopped every search before its first state.
        held = memory.resident()
        note = (f"{note}; " if note else "") + (
            f"the memory budget ({memory.describe(memory.limit())}) leaves the search little or no room beside "
            f"what this process itself holds ({memory.describe(held)}): give --max-memory "
            f"{-(-(held + 128 * 1024**2) // 1024**2)}M or more"
        )
    return HintResult(
        status,
        pos.objective,
        exact,
        best.play,
        best.value,
        best.win_probability if g.win_probability else None,
        ordered,
        proof,
        None,
        note,
        stats,
        line,
    )


def _stand_ins(plays: list[Play], objective: str) -> dict[Play, Play]:
    """Each play's stand-in for its estimate: under an objective that merges hand and reserve,
    plays that differ only in which of the two a card came from reach one state, so the first of
    them stands in for all (found by a review: 5r>3 and 5>3 estimated a tenth of a point apart)."""
    if not objectives.objective(objective).merges_reserve:
        return {p: p for p in plays}
    first: dict[tuple[object, ...], Play] = {}
    return {p: first.setdefault((p.kind, p.mine, p.wolf, p.member), p) for p in plays}


def own_reads(
    child: State, objective: str, scores: tuple[int, int], deadline: float, otherwise: float
) -> tuple[bool, float]:
    """Whether a play's value (child: the state it makes, the round not ended) reads the
    evaluator, and the largest standard error it reads, by a search of its own until deadline.
    The whole search's table cannot tell: a play may take up entries another play's reads made.
    Cut short, (True, otherwise): the whole search's error, which holds for every play."""
    if time.perf_counter() >= deadline:
        return True, otherwise
    own = Search(child, objective, None, deadline, scores=scores)
    try:
        own.value(child)
    except Budget:
        return True, otherwise
    finally:
        own.let_go_of_table()
    return own.estimated, min(own.error, otherwise)


@dataclass(frozen=True)
class _Rows:
    """What a play's row needs of its decision: the round, the searched objective, and whether the
    round's win probability was searched apart from the value (under `game`)."""

    state: State
    objective: str
    apart: bool
    scores: tuple[int, int] = (0, 0)  # lobo's race
    default_rules: bool = True  # what the bias tables and the evaluator were measured under

    @property
    def last_member(self) -> bool:
        """Under `game` with one active member: losing this round loses the game (RULES.md §4), so
        a play's chance to win the game is at most its chance to win the round."""
        return self.apart and game(self.state.game).has_party and len(self.state.party) == 1

    def corrected(
        self, play: Play, e: Estimate, target: str, bounds: tuple[float, float]
    ) -> tuple[float, tuple[float, float], int]:
        """A rollout average as an estimate of the value of playing on well (bias.py)."""
        average = e.win if target == "win" and e.win is not None else e.value
        interval = e.win_interval if target == "win" else e.interval
        lo, hi = interval if interval is not None else (average, average)
        return bias.corrected(
            average,
            (average - lo, hi - average),
            game=self.state.game,
            objective=self.objective,
            target=target,
            kind=bias.kind_of(play),
            unknown=self.state.unknown_draws,
            value_range=(0.0, 1.0) if target == "win" else value_range(self.state, self.objective),
            bounds=bounds,
            estimator=bias.NETWORK if e.method == LOOKAHEAD else bias.ROLLOUTS,
            scores=self.scores,
            default_rules=self.default_rules,
        )

    def move(
        self, play: Play, m: MoveValue, w: MoveValue | None, e: Estimate | None, ev: Estimate | None = None
    ) -> MoveResult:
        """One play's row: the exact value where the search finished it (ev: searched to the
        round's end, the evaluator beyond), else the rollouts' estimate corrected for their bias,
        within the sound bounds (an estimate never leaves them), else (a state budget only, nothing
        sampled) the middle of the bounds; the same for the win probability (w; None where it is
        the value)."""
        value, interval = m.value, None
        samples, method, measured = None, None, None
        if m.exact and ev is not None:
            interval, samples, method = ev.interval, ev.samples, ev.method  # searched, but its ends estimated
            if not self.default_rules:  # the evaluator's errors were measured under the default rules
                interval = (0.0, 1.0)
        elif not m.exact:
            if e is not None and e.method == NETWORK_ALONE:  # no bias measured: the bounds hold the truth
                value, interval, samples, method = min(max(e.value, m.lo), m.hi), (m.lo, m.hi), 0, NETWORK_ALONE
            elif e is not None:
                value, interval, measured = self.corrected(play, e, "value", (m.lo, m.hi))
                samples, method = e.samples, bias.method(e.method)
            else:
                interval, samples, method = (m.lo, m.hi), 0, MIDPOINT
        win, win_interval = None, None
        if w is not None:
            win = w.value if self.apart else value  # under `win` the value is the win probability
            if self.apart and not w.exact:
                if e is not None and e.win is not None and e.method == NETWORK_ALONE:
                    win, win_interval = min(max(e.win, w.lo), w.hi), (w.lo, w.hi)
                    samples, method = 0, NETWORK_ALONE
                elif e is not None and e.win is not None:
                    win, win_interval, on = self.corrected(play, e, "win", (w.lo, w.hi))
                    samples, method = e.samples, bias.method(e.method)
                    measured = on if measured is None else measured  # the value's, where it was estimated
                else:
                    win_interval = (w.lo, w.hi)
                    samples, method = (0, MIDPOINT) if samples is None else (samples, method)
                if m.exact and ev is None:
                    interval = (m.value, m.value)
                elif m.exact and ev is not None and method != ev.method:
                    # Both, the value's then the win's (found by a review: the value's own interval was lost).
                    method = f"{ev.method}{WIN_BY}{method}"
            if self.last_member and win is not None:
                floor = None if m.exact else m.lo  # None: searched to the round's end, the surer of the two
                value, interval, win, win_interval = _game_within_round(
                    value, interval, floor, win, win_interval, w.exact
                )
        return MoveResult(
            play,
            value,
            win,
            None if m.exact else (m.lo, m.hi),
            samples=samples,
            method=method,
            interval=interval,
            win_interval=win_interval,
            measured=measured,
        )


Interval = tuple[float, float] | None


def _game_within_round(
    value: float, interval: Interval, floor: float | None, win: float, win_interval: Interval, win_exact: bool
) -> tuple[float, Interval, float, Interval]:
    """A play's game chance kept within its round chance where the round decides the game (one
    member left). Estimated apart, their biases corrected apart, the two can cross; the truth
    cannot (found by a review: 0.21% against 0.10%). A game estimate (floor: the search's lower
    bound on it) above the round's chance is brought down to it, never below that bound; a game
    value searched to the round's end, or that bound, raises a round estimate below it; and the
    game's interval ends where the round's does (a review: 0–12.5% beside 0.8–7.6%)."""
    if floor is not None and value > win:
        value = max(floor, win)
    if value > win:  # a sure game value (or the search's bound on it) above the round's estimate
        win = value
        if win_interval is not None:
            win_interval = (max(win_interval[0], value), max(win_interval[1], value))
    if interval is not None:
        cap = win if win_exact or win_interval is None else win_interval[1]
        interval = (min(interval[0], value), max(value, min(interval[1], cap)))
    return value, interval, win, win_interval


def _known_line(search: Search, state: State, first: Play) -> tuple[Play, ...] | None:
    """With nothing left to chance, the whole best line: the search's plays until the round ends or
    turns final, then the finisher's best finish."""
    # Of plays as good for the game, the line keeps the round where it can.
    tiebreak = Search(state, "win", deadline=search.deadline) if search.objective not in ("win", "score") else None
    line = principal_line(search, state, first, tiebreak=tiebreak)
    if line is None:
        return None
    end = state
    for p in line:
        end = apply(end, p)
    if end.outcome is None and game(end.game).has_final_round and end.final:
        f = solve_finish(end)
        if f.status == FinishStatus.WIN:
            line += list(f.plays)
    return tuple(line)


def _extend(deadline: float | None, hard: float | None = None) -> float | None:
    """A little time past a spent deadline for the status searches, which often finish at once
    (not past `hard`, the limit itself, where one is kept)."""
    if deadline is None:
        return None
    extended = time.perf_counter() + 0.5
    return max(deadline, extended if hard is None else min(extended, hard))


def _status(
    state: State, win_values: dict[Play, float], deadline: float | None, max_states: int | None
) -> tuple[HintStatus | None, dict[str, Any] | None]:
    """proven_won / proven_lost (about winning the round, whatever the objective), open, or None
    when the budget ran out before either was settled."""
    best_win = max(win_values.values()) if win_values else None
    check = WinCheck(max_states, deadline)
    try:
        if (best_win is not None and best_win <= EPS) or (best_win is None and not check.won(state, surely=False)):
            reason = (
                "no order of the draw pile lets any line of play empty the Wolf's hand: the search over every "
                "play and every draw was exhaustive"
            )
            return HintStatus.PROVEN_LOST, {"kind": "exhaustive", "reason": reason}
        if (best_win is None or best_win >= 1.0 - EPS) and check.won(state, surely=True):
            return HintStatus.PROVEN_WON, None
    except Budget:
        return None, None
    return HintStatus.OPEN, None


__all__ = ["HintResult", "MoveResult", "hint"]
