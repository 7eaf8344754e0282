"""The railway searches' budgets: a time limit (wall time from the command's start) and the
process's memory budget (solver/search/memory.py). The chances' expectimax asks `check` as it
goes, and CP-SAT gets the time that is left: past either, RailwayError says which, in one line
(found by a review: a big deck's hint ran for minutes with neither, and said nothing)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from solver.search import memory

from .deck import RailwayError

EVERY = 1024  # steps between two looks at the clock and the memory
# The codes of a RailwayError that a budget ran out (CP-SAT's "timeout" too): the position is
# fine, the budget too small for it, and a command says so with exit status 1, not 2.
BUDGET_CODES = ("time_limit", "memory", "timeout")


@dataclass
class RailwayBudget:
    seconds: float | None = None  # the time limit, as given
    deadline: float | None = None  # a time.perf_counter() reading
    _steps: int = field(default=0, repr=False)

    @staticmethod
    def of(seconds: float | None, started: float | None = None) -> RailwayBudget:
        """A time limit counted from `started` (a time.perf_counter() reading; by default now)."""
        if seconds is None:
            return RailwayBudget()
        return RailwayBudget(seconds, (time.perf_counter() if started is None else started) + seconds)

    def left(self, most: float) -> float:
        """The seconds a solver may take: what is left of the limit, at most `most`."""
        if self.deadline is None:
            return most
        return max(0.01, min(most, self.deadline - time.perf_counter()))

    def check(self) -> None:
        self._steps += 1
        if self._steps % EVERY:
            return
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise RailwayError(
                f"the answer did not finish within the time limit ({self.seconds:g} s): a position this big "
                "needs more (--time-limit)",
                "time_limit",
            )
        if memory.spent():
            raise RailwayError(
                f"the answer outgrew the memory budget ({memory.describe(memory.limit())}): a position this big "
                "needs more (--max-memory)",
                "memory",
            )


__all__ = ["BUDGET_CODES", "RailwayBudget"]
