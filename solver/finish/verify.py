"""Small independent checkers: a brute-force finisher, core checks and replays.

Written apart from finish.py's CP-SAT model (plain recursion over the Wolf's cards), so that
`--verify` and the tests can re-check the fast path's answers.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from solver.core.plays import Play, make_play
from solver.core.position import Position
from solver.core.rules import WON, State, apply, final_score, why_illegal
from solver.core.status import FinishStatus, HintStatus
from solver.search import memory

if TYPE_CHECKING:
    from solver.search.hint import HintResult

Counts = tuple[int, ...]


class NotVerified(Exception):
    """The brute force ran past its time or its memory: the answer is neither verified nor refuted."""

    def __init__(self, spent: str) -> None:
        super().__init__(spent)
        self.spent = spent  # "time" or "memory"


_calls = itertools.count()
# Reading the process's memory costs a file read; its memos grow by a few hundred bytes a call.
MEMORY_EVERY = 4096


def _in_budget(deadline: float | None) -> None:
    """Raise NotVerified past the deadline, or once the memory budget (--max-memory) is spent: the
    brute force's memos grow without bound on a big round."""
    if deadline is not None and time.perf_counter() > deadline:
        raise NotVerified("time")
    if next(_calls) % MEMORY_EVERY == 0 and memory.spent():
        raise NotVerified("memory")


def _subsets_summing(counts: Counts, target: int, start: int = 1) -> list[Counts]:
    """Every sub-multiset of `counts` (index v-1 = copies of value v) with values >= start summing to target."""
    if target == 0:
        return [tuple(0 for _ in counts)]
    out: list[Counts] = []
    for v in range(start, min(target, len(counts)) + 1):
        if counts[v - 1] == 0:
            continue
        rest = list(counts)
        rest[v - 1] -= 1
        for tail in _subsets_summing(tuple(rest), target - v, v):
            pick = list(tail)
            pick[v - 1] += 1
            out.append(tuple(pick))
    return out


def _minus(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def _counts(values: Sequence[int], top: int = 10) -> Counts:
    return tuple(list(values).count(v) for v in range(1, top + 1))


@dataclass(frozen=True)
class BruteFinish:
    score: int | None  # None: no finish
    plays: tuple[Play, ...]


def brute_finish(
    wolf: Sequence[int],
    hand: Sequence[int],
    reserve: Sequence[int],
    party: Sequence[str],
    reserve_scores: bool = False,
    deadline: float | None = None,
) -> BruteFinish:
    """The best finish by trying every way to cover the largest Wolf card, recursively (memoized).
    Past `deadline` (a time.perf_counter() reading) or the memory budget it raises NotVerified."""

    @cache
    def best(ws: tuple[int, ...], h: Counts, r: Counts, members: int) -> tuple[int | None, tuple[Play, ...]]:
        _in_budget(deadline)
        if not ws:
            score = sum(v * n for v, n in enumerate(h, start=1)) + 10 * members
            if reserve_scores:
                score += sum(v * n for v, n in enumerate(r, start=1))
            return score, ()
        w, rest = ws[0], ws[1:]
        top: tuple[int | None, tuple[Play, ...]] = (None, ())
        options: list[tuple[Play, Counts, Counts, int]] = []
        if members >= 2:
            options.append((make_play("sacrifice", wolf=(w,), member="?"), h, r, members - 1))
        both = tuple(a + b for a, b in zip(h, r, strict=True))
        for pick in _subsets_summing(both, w):
            # split the pick between hand and reserve every possible way
            for hand_part in _splits(pick, h, r):
                res_part = _minus(pick, hand_part)
                hv = [v for v, n in enumerate(hand_part, start=1) for _ in range(n)]
                rv = [v for v, n in enumerate(res_part, start=1) for _ in range(n)]
                kind = "perfect" if len(hv) + len(rv) == 1 else "sum"
                options.append((make_play(kind, hv, rv, (w,)), _minus(h, hand_part), _minus(r, res_part), members))
        for play, h2, r2, m2 in options:
            sub, plays = best(rest, h2, r2, m2)
            if sub is not None and (top[0] is None or sub > top[0]):
                top = (sub, (play, *plays))
        return top

    ws = tuple(sorted(wolf, reverse=True))
    score, plays = best(ws, _counts(hand), _counts(reserve), len(party))
    # Sacrifices were searched by count; name them after the members, in party order.
    names = iter(party)
    named = tuple(
        make_play("sacrifice", wolf=p.wolf, member=next(names)) if p.kind == "sacrifice" else p for p in plays
    )
    return BruteFinish(score, named)


def _splits(pick: Counts, h: Counts, r: Counts) -> list[Counts]:
    """Every hand part of `pick` that the hand can pay, leaving a rest that the reserve can pay."""
    parts: list[list[int]] = [[]]
    for i, n in enumerate(pick):
        low, high = max(0, n - r[i]), min(n, h[i])
        parts = [[*p, k] for p in parts for k in range(low, high + 1)]
    return [tuple(p) for p in parts]


def coverable(
    wolf: Sequence[int], hand: Sequence[int], reserve: Sequence[int], active: int, deadline: float | None = None
) -> bool:
    """Can these Wolf cards all be covered at once (exact groups, or at most active-1 sacrifices)?"""
    return brute_finish(wolf, hand, reserve, ("J", "Q", "K")[:active], deadline=deadline).score is not None


def core_is_minimal(
    core: Sequence[int], hand: Sequence[int], reserve: Sequence[int], active: int, deadline: float | None = None
) -> bool:
    """The core cannot be covered, and taking away any one card makes the rest coverable."""
    if coverable(core, hand, reserve, active, deadline):
        return False
    for i in range(len(core)):
        rest = list(core[:i]) + list(core[i + 1 :])
        if not coverable(rest, hand, reserve, active, deadline):
            return False
    return True


@dataclass(frozen=True)
class Replay:
    legal: bool
    state: State
    bad_index: int | None = None  # the first illegal play (0-based)
    reason: str | None = None


def replay(state: State, plays: Sequence[Play]) -> Replay:
    """Apply plays in order through the rules engine, stopping at the first illegal one."""
    s = state
    for i, p in enumerate(plays):
        if s.is_terminal:
            return Replay(False, s, i, "the round is already over")
        reason = why_illegal(s, p)
        if reason is not None:
            return Replay(False, s, i, reason)
        s = apply(s, p)
        if s.is_chance:
            return Replay(False, s, i, "this play draws cards: not a final-round play")
    return Replay(True, s)


def replay_score(state: State, plays: Sequence[Play]) -> int | None:
    """The score a finish reaches, or None when it is illegal or leaves Wolf cards."""
    r = replay(state, plays)
    if not r.legal or r.state.outcome != WON:
        return None
    return final_score(r.state)


def plainly_won(
    state: State, surely: bool, memo: dict[tuple[bool, State], bool] | None = None, deadline: float | None = None
) -> bool:
    """The round's status by the plainest search there is: every play, every draw, no shortcuts.
    surely=False: some order of the pile lets some line win; surely=True: some strategy wins
    against every order. Past `deadline` or the memory
    budget it raises NotVerified."""
    from solver.core.rules import apply_outcome, chance_outcomes, legal_plays

    _in_budget(deadline)
    memo = {} if memo is None else memo
    if state.outcome is not None:
        return state.outcome == WON
    key = (surely, state)
    if key in memo:
        return memo[key]
    if state.is_chance:
        results = (plainly_won(apply_outcome(state, v), surely, memo, deadline) for v, _ in chance_outcomes(state))
        r = all(results) if surely else any(results)
    else:
        r = any(plainly_won(apply(state, p), surely, memo, deadline) for p in legal_plays(state) if p.kind != "fold")
    memo[key] = r
    return r


def check_finish_answer(
    state: State,
    status: str,
    score: int | None,
    plays: Sequence[Play],
    core: Sequence[int] | None,
    minimal: bool = True,
    deadline: float | None = None,
) -> list[str]:
    """Problems found when re-checking a finisher answer by brute force (empty: verified). minimal:
    whether the proof claims its core minimal (a time limit may leave it not shown so). Past
    `deadline` or the memory budget it raises NotVerified."""
    problems = []
    brute = brute_finish(state.wolf, state.hand, state.reserve, state.party, state.rules.reserve_scores, deadline)
    if status == FinishStatus.WIN:
        got = replay_score(state, plays)
        if got is None:
            problems.append("the finish does not replay legally to an empty Wolf hand")
        elif got != score:
            problems.append(f"the finish replays to {got}, not the {score} claimed")
        if brute.score != score:
            problems.append(f"brute force finds {brute.score}, not {score}")
    elif status == FinishStatus.LOST:
        if brute.score is not None:
            problems.append(f"brute force finds a finish scoring {brute.score}")
        if core is None or coverable(core, state.hand, state.reserve, len(state.party), deadline):
            problems.append("the proof's Wolf cards can all be covered")
        elif minimal and not core_is_minimal(core, state.hand, state.reserve, len(state.party), deadline):
            problems.append("the proof's Wolf cards are not a minimal set that cannot be covered")
    return problems


def not_verified(limit: float, spent: str = "time") -> str:
    if spent == "memory":
        return (
            f"not verified: the brute force ran out of memory ({memory.describe(memory.limit())},"
            " --max-memory gives it more)"
        )
    return f"not verified: the brute force did not finish within {limit:g} s (--verify-limit gives it more)"


NOTHING_TO_VERIFY = (
    "nothing to verify: this answer is an estimate and claims no proof"
    " (--verify re-checks finishes, proofs of loss and exact statuses)"
)


def hint_claims(result: HintResult) -> list[str]:
    """What verify_hint re-checks in this answer; none for an estimate that proves nothing."""
    claims = []
    if result.finish is not None:
        claims.append("the finish" if result.finish.status == FinishStatus.WIN else "the proof that no finish exists")
    if result.status != HintStatus.OPEN or result.exact:
        claims.append(f"the status {result.status}")
    return claims


def verify_hint(pos: Position, result: HintResult, deadline: float | None = None) -> list[str]:
    """Re-check a hint's claims independently: a final round's finish or core by brute force; a
    proven_lost or proven_won status by the plain status search. Values themselves are checked
    against the reference expectimax in the tests. Past `deadline` or the memory
    budget it raises NotVerified."""
    from solver.core.rules import initial_state

    state = initial_state(pos)
    problems: list[str] = []
    if result.finish is not None:
        f = result.finish
        core, minimal = (f.proof.wolf, f.proof.minimal) if f.proof else (None, True)
        problems += check_finish_answer(state, f.status, f.score, f.plays, core, minimal, deadline)
    if result.status == HintStatus.PROVEN_LOST and plainly_won(state, surely=False, deadline=deadline):
        problems.append("the plain search finds a line that wins under some order of the pile")
    if result.status == HintStatus.PROVEN_WON and not plainly_won(state, surely=True, deadline=deadline):
        problems.append("the plain search finds no strategy that wins against every order of the pile")
    if result.status == HintStatus.OPEN and result.exact:
        if not plainly_won(state, surely=False, deadline=deadline):
            problems.append("called open, but no line wins under any order of the pile")
        elif plainly_won(state, surely=True, deadline=deadline):
            problems.append("called open, but a strategy wins against every order of the pile")
    return problems
