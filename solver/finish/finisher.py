"""The final-round finisher: an optimal finish by CP-SAT, or a checkable proof that none exists.

In the final round nothing is drawn, so the plays commute and finishing is an assignment: each
Wolf card is covered by a Sacrifice or by a disjoint group of the Player's cards (hand and
reserve) adding up exactly to it. The model counts cards by value (how many 4s of the hand go
to Wolf card j), which removes the symmetry between equal cards of one source outright.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solver.core.cover import counts, min_sacrifices
from solver.core.plays import Play, make_play
from solver.core.rules import State, apply, final_score, sacrifices_allowed, why_illegal
from solver.core.status import WON, FinishStatus

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

SOURCES = ("hand", "reserve")
# CP-SAT refuses a model solved by some 20,000 workers or more; no machine has the cores for 1,024.
MAX_WORKERS = 1024


class FinisherBug(RuntimeError):
    """CP-SAT called the model invalid: a bug in the model, never the user's fault."""


@dataclass(frozen=True)
class Proof:
    """Wolf cards that cannot all be covered together; `minimal` when removing any one makes the rest coverable."""

    wolf: tuple[int, ...]
    reason: str
    minimal: bool

    def to_json(self) -> dict[str, Any]:
        return {"wolf": list(self.wolf), "reason": self.reason, "minimal": self.minimal}


@dataclass(frozen=True)
class Finish:
    status: FinishStatus  # WIN, LOST or UNKNOWN (the time limit cut the search short)
    exact: bool  # False: the score is only the best found, or no answer was found in time
    score: int | None = None
    plays: tuple[Play, ...] = ()
    proof: Proof | None = None
    hand_left: tuple[int, ...] = ()
    reserve_left: tuple[int, ...] = ()
    members_left: tuple[str, ...] = ()
    alternatives: int | None = None  # other distinct optimal finishes (None: not counted)
    alternatives_capped: bool = False
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status.value, "exact": self.exact}  # the word: plain JSON values
        if self.status == FinishStatus.WIN:
            out["score"] = self.score
            out["plays"] = [p.to_json() for p in self.plays]
            out["breakdown"] = {
                "hand": sum(self.hand_left),
                "party": 10 * len(self.members_left),
                "reserve": sum(self.reserve_left) if self.stats.get("reserve_scores") else 0,
            }
            if self.alternatives is not None:
                out["other_optimal_finishes"] = self.alternatives
                out["other_optimal_finishes_capped"] = self.alternatives_capped
        elif self.proof is not None:
            out["proof"] = self.proof.to_json()
        out["stats"] = self.stats
        return out


def finish_worth(f: Finish, state: State, objective: str) -> float:
    """What a final round is worth when this finish wins it: under `score` its score, under
    `party` minus the members of `state` it sacrifices, else 1 (the round won)."""
    if objective == "score":
        return float(f.score or 0)
    if objective == "party":
        return -float(len(state.party) - len(f.members_left))
    return 1.0


def won_worth(end: State, state: State, objective: str) -> float:
    """The same for the round won in `end` (`state` itself: the most any finish is worth)."""
    if objective == "score":
        return float(final_score(end))
    if objective == "party":
        return -float(len(state.party) - len(end.party))
    return 1.0


class FinishModel:
    """One CP-SAT model of a final round. `covered[j]` says Wolf card j must be covered; in the
    proof model they are assumptions instead of facts."""

    def __init__(
        self, state: State, *, for_proof: bool = False, objective: str = "score", optimize: bool = True
    ) -> None:
        # Imported here and not at the top: ortools (with pandas) takes most of a second to load.
        from ortools.sat.python import cp_model

        self.state = state
        self.objective = objective
        self.wolf = sorted(state.wolf, reverse=True)
        self.allowed = sacrifices_allowed(state)
        self.have = {"hand": Counter(state.hand), "reserve": Counter(state.reserve)}
        m = self.model = cp_model.CpModel()
        nw = len(self.wolf)
        # use[s][v][j]: how many cards of value v from source s cover Wolf card j.
        self.use: dict[tuple[str, int, int], cp_model.IntVar] = {}
        for s in SOURCES:
            for v, n in self.have[s].items():
                for j, w in enumerate(self.wolf):
                    if v <= w:
                        self.use[s, v, j] = m.new_int_var(0, min(n, w // v), f"{s}{v}_w{j}")
                if any(v <= w for w in self.wolf):
                    m.add(sum(self.use[s, v, j] for j in range(nw) if (s, v, j) in self.use) <= n)
        self.sac = [m.new_bool_var(f"sac{j}") for j in range(nw)]
        self.covered = [m.new_bool_var(f"covered{j}") for j in range(nw)]
        m.add(sum(self.sac) <= self.allowed)
        for j, w in enumerate(self.wolf):
            made = sum(v * x for (s, v, jj), x in self.use.items() if jj == j)
            m.add(made + w * self.sac[j] == w).only_enforce_if(self.covered[j])
            if for_proof:
                # An uncovered card takes no cards and no sacrifice, so it cannot help the others.
                m.add(made == 0).only_enforce_if(self.covered[j].Not())
                m.add(self.sac[j] == 0).only_enforce_if(self.covered[j].Not())
            else:
                m.add(self.covered[j] == 1)
        # Equal Wolf cards are interchangeable, so any solution can be permuted among them to sort
        # them by one key: sacrificed first, then by how many of one chosen kind of card (the
        # biggest value of the first source that has cards) each takes. One key only: sorting by
        # two at once is not always possible. Not in the proof model: there equal cards differ in
        # whether they are assumed covered.
        chosen = next(((s, max(self.have[s])) for s in SOURCES if self.have[s]), None)
        for j in range(nw - 1):
            if for_proof or self.wolf[j] != self.wolf[j + 1]:
                continue
            m.add(self.sac[j] >= self.sac[j + 1])
            if chosen is not None:
                a, b = self.use.get((*chosen, j)), self.use.get((*chosen, j + 1))
                if a is not None and b is not None:
                    m.add(a >= b).only_enforce_if(self.sac[j].Not())
        # The score is fixed minus what the finish spends: hand cards (and reserve cards when they
        # score) at their value, 10 per sacrifice.
        spent = sum(v * x for (s, v, _), x in self.use.items() if s == "hand" or state.rules.reserve_scores)
        self.cost = spent + 10 * sum(self.sac)
        if objective == "party":
            # Fewest members lost first; among those, the best score. 1000 outweighs any hand.
            self.cost = spent + 1000 * sum(self.sac)
        if optimize and not for_proof:
            m.minimize(self.cost)

    def solver(self, time_limit: float, workers: int) -> cp_model.CpSolver:
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(0.001, time_limit)
        solver.parameters.num_workers = max(1, min(workers, MAX_WORKERS))
        # CP-SAT's own Ctrl-C handler would take the signal from Python: the command could not say
        # "interrupted" or keep what it had written. Solves are short; Python's KeyboardInterrupt
        # comes when this one returns.
        solver.parameters.catch_sigint_signal = False
        return solver

    def plays(self, solver: cp_model.CpSolver) -> tuple[Play, ...]:
        members = iter(self.state.party)
        out: list[Play] = []
        sacrifices: list[Play] = []
        for j, w in enumerate(self.wolf):
            if solver.boolean_value(self.sac[j]):
                sacrifices.append(make_play("sacrifice", wolf=(w,), member=next(members)))
                continue
            hand = [v for (s, v, jj), x in self.use.items() if jj == j and s == "hand" for _ in range(solver.value(x))]
            res = [
                v for (s, v, jj), x in self.use.items() if jj == j and s == "reserve" for _ in range(solver.value(x))
            ]
            out.append(make_play("perfect" if len(hand) + len(res) == 1 else "sum", hand, res, (w,)))
        return tuple(out + sacrifices)


def _status(code: Any) -> str:
    from ortools.sat.python import cp_model

    if code == cp_model.MODEL_INVALID:
        raise FinisherBug("CP-SAT says the finish model is invalid")
    return {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible", cp_model.INFEASIBLE: "infeasible"}.get(
        code, "unknown"
    )


def solve_finish(
    state: State,
    *,
    time_limit: float = 10.0,
    workers: int = 1,
    count_alternatives: bool = False,
    alternatives_cap: int = 50,
    objective: str = "score",
    prove: bool = True,
    check: bool = True,
) -> Finish:
    """The best finish of a final-round state (its party's sacrifices allowed), or a proof of loss.

    objective "score" maximizes the game score; "party" loses the fewest members, then maximizes the score.
    prove=False: a loss without its proof (a caller that needs only won or lost).
    check=False: the model's finish applied without checking each play against every legal one
    (half a big round's time; a caller that needs only the value: its plays are not shown).
    """
    t0 = time.perf_counter()
    if _unmakeable_core(state) is not None:
        # Lost at a glance (more cards nothing adds up to than sacrifices): no model needed.
        proof = find_core(state) if prove else None
        quick_stats: dict[str, Any] = {"solver": "not needed", "seconds": round(time.perf_counter() - t0, 6)}
        return Finish(FinishStatus.LOST, True, proof=proof, stats=quick_stats)
    fm = FinishModel(state, objective=objective)
    solver = fm.solver(time_limit, workers)
    status = _status(solver.solve(fm.model))
    stats: dict[str, Any] = {
        "solver": status,
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "reserve_scores": state.rules.reserve_scores,
    }
    if status in ("optimal", "feasible"):
        plays = fm.plays(solver)
        end = play_through(state, plays)[0] if check else _applied(state, plays)
        alternatives = capped = None
        if count_alternatives and status == "optimal":
            alternatives, capped = _count_optimal(
                state,
                fm,
                round(solver.objective_value),
                alternatives_cap,
                max(0.01, time_limit - (time.perf_counter() - t0)),
            )
        stats["seconds"] = round(time.perf_counter() - t0, 6)
        return Finish(
            FinishStatus.WIN,
            status == "optimal",
            final_score(end),
            plays,
            None,
            end.hand,
            end.reserve,
            end.party,
            None if alternatives is None else alternatives - 1,
            bool(capped),
            stats,
        )
    if status == "infeasible":
        proof = find_core(state, time_limit=max(0.01, time_limit - (time.perf_counter() - t0))) if prove else None
        stats["seconds"] = round(time.perf_counter() - t0, 6)
        return Finish(FinishStatus.LOST, True, proof=proof, stats=stats)
    stats["seconds"] = round(time.perf_counter() - t0, 6)
    return Finish(FinishStatus.UNKNOWN, False, stats=stats)


def _count_optimal(state: State, fm: FinishModel, cost: int, cap: int, time_limit: float) -> tuple[int, bool]:
    """Distinct optimal finishes (as sets of plays), up to `cap`: every solution of cost == optimum;
    and whether the count stopped before the last (at the cap, or the time limit)."""
    from ortools.sat.python import cp_model

    # Made here, not at import: its base class is ortools'.
    class _Collector(cp_model.CpSolverSolutionCallback):
        def __init__(self, fm: FinishModel, cap: int) -> None:
            super().__init__()
            self.fm, self.cap = fm, cap
            self.seen: set[tuple[Play, ...]] = set()

        def on_solution_callback(self) -> None:
            self.seen.add(tuple(sorted(self.fm.plays(self), key=Play.sort_key)))  # type: ignore[arg-type]
            if len(self.seen) >= self.cap:
                self.stop_search()

    again = FinishModel(state, objective=fm.objective, optimize=False)
    again.model.add(again.cost == cost)
    solver = again.solver(time_limit, 1)
    solver.parameters.enumerate_all_solutions = True
    collector = _Collector(again, cap)
    finished = solver.solve(again.model, collector) == cp_model.OPTIMAL  # every solution enumerated
    # Stopped by the cap or the clock, the count is a least one; the first solve's finish is one
    # (found by a review: a count cut off before its first solution said "-1 other finishes").
    return max(len(collector.seen), 1), not finished or len(collector.seen) >= cap


def find_core(state: State, *, time_limit: float = 10.0) -> Proof:
    """A set of Wolf cards that cannot all be covered, minimal when the time limit allows: CP-SAT's
    sufficient assumptions, then shrunk by deletion (drop a card whenever the rest stays
    infeasible), then re-checked. Every card kept is kept on a decided check, so the core is a
    proof whatever the clock; `minimal` says whether every deletion was decided."""
    deadline = time.perf_counter() + time_limit
    quick = _unmakeable_core(state)
    values, minimal = (quick, True) if quick is not None else _assumption_core(state, deadline)
    # Re-check before showing it: the core really cannot be covered (--verify checks it again, and
    # its minimality, by verify.py's own brute force).
    if _coverable_by(state, list(values), max(deadline, time.perf_counter() + RECHECK_SECONDS)):
        raise FinisherBug(f"the proof core {values} is coverable")
    return Proof(values, loss_reason(state, values), minimal)


def _assumption_core(state: State, deadline: float) -> tuple[tuple[int, ...], bool]:
    fm = FinishModel(state, for_proof=True)
    core = list(range(len(fm.wolf)))
    if _short_of_total(state, list(fm.wolf)):
        # Counting alone proves the whole Wolf uncoverable: the deletions below make it minimal.
        return _shrunk(state, fm, core, deadline)
    # 1. CP-SAT's own core: every Wolf card's "covered" literal is an assumption.
    fm.model.add_assumptions(fm.covered)
    # A share of the clock: without presolve this solve can run to any limit and decide nothing,
    # and the deletions below need the rest (found by a review: the whole 10 s went here, and a
    # core whose every deletion takes 0.01 s was left "not minimal").
    solver = fm.solver(max(0.001, ASSUMPTION_SHARE * (deadline - time.perf_counter())), 1)
    # Presolve can report cores with literals outside the assumptions; without it they are sound.
    solver.parameters.cp_model_presolve = False
    if _status(solver.solve(fm.model)) == "infeasible":
        wanted = {fm.covered[j].index: j for j in core}
        suggested = sorted(wanted[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in wanted)
        if suggested and _coverable_by(state, [fm.wolf[j] for j in suggested], deadline) is False:
            core = suggested
    return _shrunk(state, fm, core, deadline)


def _short_of_total(state: State, wolf: list[int]) -> bool:
    """Whether counting alone shows these Wolf cards cannot all be covered: cards cover a Wolf card
    only with exactly its value, and the sacrifices allowed at best take the largest ones."""
    allowed = sacrifices_allowed(state)
    rest = sorted(wolf)[: max(0, len(wolf) - allowed)]
    return sum(state.hand) + sum(state.reserve) < sum(rest)


def _shrunk(state: State, fm: FinishModel, core: list[int], deadline: float) -> tuple[tuple[int, ...], bool]:
    # 2. Shrink by deletion: drop a card whenever the rest still cannot be covered. The result is
    # minimal when every check was decided: taking away any one remaining card makes the rest
    # coverable. A check the clock leaves open keeps its card (the core stays a proof).
    minimal = True
    i = 0
    while i < len(core):
        trial = core[:i] + core[i + 1 :]
        coverable = _coverable_by(state, [fm.wolf[j] for j in trial], deadline) if trial else True
        if coverable is False:
            core = trial
        else:
            minimal = minimal and coverable is True
            i += 1
    return tuple(sorted((fm.wolf[j] for j in core), reverse=True)), minimal


# The exact cover search decides a set of Wolf cards in moments when the cards it may use are few;
# with more, its groups multiply past any clock, and CP-SAT decides within the time left.
EXACT_COVER_CARDS = 12
RECHECK_SECONDS = 0.1  # the core's re-check gets at least this long, whatever the clock left
ASSUMPTION_SHARE = 0.25  # of the proof's clock, for CP-SAT's own core; the deletions get the rest


def _coverable_by(state: State, wolf: list[int], deadline: float) -> bool | None:
    """Whether these Wolf cards can be covered together; None when the clock ran out first."""
    if _short_of_total(state, wolf):
        return False
    if len(state.hand) + len(state.reserve) <= EXACT_COVER_CARDS:
        return _subset_coverable(state, wolf)
    left = deadline - time.perf_counter()
    if left <= 0:
        return None
    fm = FinishModel(state._replace(wolf=tuple(wolf)), optimize=False)
    status = _status(fm.solver(left, 1).solve(fm.model))
    return True if status in ("optimal", "feasible") else False if status == "infeasible" else None


def _subset_coverable(state: State, wolf: list[int]) -> bool:
    """Can these Wolf cards be covered together? (cover.py's exact search: far quicker than CP-SAT at
    proving small covers impossible; --verify re-checks the core by verify.py's brute force)."""
    return min_sacrifices(wolf, counts(state.hand + state.reserve), sacrifices_allowed(state)) is not None


def _makeable(state: State) -> set[int]:
    """Every total up to 10 that some group of your cards adds up to."""
    sums = {0}
    for v in state.hand + state.reserve:
        sums |= {x + v for x in sums if x + v <= 10}
    return sums


def _unmakeable_core(state: State) -> tuple[int, ...] | None:
    """The common, simplest proof: more Wolf cards that no group of your cards adds up to than
    sacrifices allowed. Any (allowed + 1) of them form a minimal core: none can be covered but by
    a sacrifice, and without one of them the others take exactly the sacrifices allowed."""
    allowed = sacrifices_allowed(state)
    sums = _makeable(state)
    cannot = sorted((w for w in state.wolf if w not in sums), reverse=True)
    if len(cannot) <= allowed:
        return None
    return tuple(cannot[: allowed + 1])


def loss_reason(state: State, core: tuple[int, ...]) -> str:
    """One line a player can check at the table."""
    allowed = sacrifices_allowed(state)
    sac = {0: "no sacrifice is allowed", 1: "only one sacrifice is allowed"}.get(
        allowed, f"only {allowed} sacrifices are allowed"
    )
    makeable = _makeable(state)
    cannot = sorted({w for w in core if w not in makeable})
    names = " or ".join(str(w) for w in cannot)
    if cannot and sum(1 for w in core if w not in makeable) > allowed:
        return f"nothing you hold adds up to {names}, and {sac}"
    listed = ", ".join(str(w) for w in sorted(core, reverse=True))
    total = sum(state.hand) + sum(state.reserve)
    if cannot:
        # Found by a review: "the rest of 9, 7, 3" read as nothing: the sacrifices the unmakeable
        # cards take, then what is left that cannot be made together.
        forced = [w for w in core if w not in makeable]
        rest = sorted((w for w in core if w in makeable), reverse=True)
        spare = allowed - len(forced)
        left = {0: "no sacrifice is left", 1: "only one sacrifice is left"}.get(
            spare, f"only {spare} sacrifices are left"
        )
        takes = "it takes a sacrifice" if len(forced) == 1 else "they take a sacrifice each"
        both = {1: "", 2: " both"}.get(len(rest), " all")
        words = [str(w) for w in rest]  # (the words, solver/words/, are a layer above: worded here)
        rest_text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
        return (
            f"nothing you hold adds up to {names}, so {takes}; then {rest_text} cannot{both} be made "
            f"from your cards at once, and {left}"
        )
    if total < sum(core):
        return f"your cards total {total}, less than the {sum(core)} that {listed} need, and {sac}"
    # (Found by a review: "your cards (total 28) cannot make 5, 5, 4, 4" named a total that is no reason.)
    return f"your cards cannot be split into groups adding up to {listed} all at once, and {sac}"


@dataclass(frozen=True)
class Judgement:
    """A proposed finish judged: legal in order, clears the Wolf, its score against the best."""

    legal: bool
    clears: bool
    score: int | None
    best: Finish
    bad_index: int | None = None
    bad_reason: str | None = None
    plays: tuple[Play, ...] = ()

    @property
    def optimal(self) -> bool | None:
        """None when a budget cut the best finish's search short and the finish scores as much as
        the best found: it may be the best, or not (found by a review: it said false)."""
        if not (self.legal and self.clears and self.score is not None):
            return False
        if self.best.score is not None and self.score < self.best.score:
            return False
        return True if self.best.exact else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "legal": self.legal,
            "clears": self.clears,
            "score": self.score,
            "best_score": self.best.score,
            "optimal": self.optimal,
        }
        if self.bad_index is not None:
            out["bad_play"] = {
                "index": self.bad_index + 1,
                "play": str(self.plays[self.bad_index]),
                "reason": self.bad_reason,
            }
        if self.optimal is False and self.best.status == FinishStatus.WIN:
            out["better"] = [p.to_json() for p in self.best.plays]
            out["better_text"] = ", ".join(str(p) for p in self.best.plays)
        if self.best.status == FinishStatus.LOST and self.best.proof is not None:
            out["proof"] = self.best.proof.to_json()
        if not self.best.exact:
            out["exact"] = False
        return out


def play_through(state: State, plays: Sequence[Play]) -> tuple[State, int | None, str | None]:
    """The plays applied in order by the rules, up to the first one that is not a legal final-round
    play: the state reached, and that play's index (0-based) and what is wrong with it (None, None:
    every play is legal). The finisher's own replay; verify.py keeps an independent one for --verify."""
    s = state
    for i, p in enumerate(plays):
        if s.is_terminal:
            return s, i, "the round is already over"
        reason = why_illegal(s, p)
        if reason is not None:
            return s, i, reason
        s = apply(s, p, check=False)
        if s.is_chance:
            return s, i, "this play draws cards: not a final-round play"
    return s, None, None


def _applied(state: State, plays: Sequence[Play]) -> State:
    for p in plays:
        state = apply(state, p, check=False)
    return state


def judge_finish(state: State, plays: tuple[Play, ...], *, time_limit: float = 10.0, workers: int = 1) -> Judgement:
    best = solve_finish(state, time_limit=time_limit, workers=workers)
    end, bad_index, reason = play_through(state, plays)
    if bad_index is not None:
        return Judgement(False, False, None, best, bad_index, reason, plays)
    clears = end.outcome == WON
    return Judgement(True, clears, final_score(end) if clears else None, best, plays=plays)
