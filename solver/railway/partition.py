"""A largest set of disjoint journeys in a hand, season tickets wild — solved exactly, two ways.

Every journey holds exactly one junction, so a set of journeys is a set of the hand's junctions,
each given two station places, filled by distinct station cards it lists or by season tickets.
A set C of junctions can all be completed iff the hand's station cards fill at least 2|C| - t of
their places (t season tickets fill the rest), i.e. iff a largest matching of stations into the
places of C (two per junction) is that big.

* `search`: depth-first over which junctions to complete, keeping that matching up to date by
  augmenting paths from each junction added. 20-35 times faster than CP-SAT on hands of the game
  (bench/railway.py), but exponential on big hands whose junctions fight over few stations.
* `cpsat`: the same problem as a CP-SAT model, solved to optimality; a few ms whatever the hand.
* `auto` (the default): the search, handing over to CP-SAT past SEARCH_NODES nodes.

`fills` answers only "is every card in some journey?" (a LOBO hand), in one matching.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .deck import SEASON_TICKET, Deck, Journey, RailwayError, make_journey

if TYPE_CHECKING:
    from .budget import RailwayBudget

METHODS = ("auto", "search", "cpsat")
# Nodes of the search before `auto` hands the hand to CP-SAT. Hands of the game take under 40;
# only large hands whose junctions fight over few stations get near it (bench/railway.py).
SEARCH_NODES = 256


@dataclass(frozen=True)
class Partition:
    """A largest set of disjoint journeys from a hand, and every other card of the hand."""

    journeys: tuple[Journey, ...]
    leftover: tuple[str, ...]

    def goes_lobo(self, exposed: int) -> bool:
        """RAILWAY.md: nothing left over, and at least two completed journeys with the exposed ones."""
        return not self.leftover and len(self.journeys) + exposed >= 2

    def to_json(self, exposed: int) -> dict[str, Any]:
        return {
            "lobo": self.goes_lobo(exposed),
            "journeys": [j.to_json() for j in self.journeys],
            "leftover": list(self.leftover),
        }


def partition(deck: Deck, hand: Sequence[str], method: str = "auto", budget: RailwayBudget | None = None) -> Partition:
    """A largest set of disjoint journeys in `hand` (a valid hand of `deck`). Every method is
    exact; `auto` runs the search (much the faster on hands of the game) and gives a hand that
    would make it explode to CP-SAT. `budget`: CP-SAT's time is what is left of its limit."""
    most = CPSAT_SECONDS if budget is None else budget.left(CPSAT_SECONDS)
    if method == "auto":
        try:
            return partition_search(deck, hand, SEARCH_NODES)
        except SearchBudget:
            return partition_cpsat(deck, hand, most)
    if method == "search":
        return partition_search(deck, hand)
    if method == "cpsat":
        return partition_cpsat(deck, hand, most)
    raise RailwayError(f"--method: {method!r} is not one of {', '.join(METHODS)}", "bad_option")


def _parts(deck: Deck, hand: Sequence[str]) -> tuple[list[str], list[list[str]], int]:
    """The hand's junctions (hand order), the hand's stations each lists, and the season tickets."""
    in_hand = set(hand)
    junctions = [c for c in dict.fromkeys(hand) if c in deck.junction_set]
    usable = [[s for s in deck.lists[j] if s in in_hand] for j in junctions]
    return junctions, usable, sum(1 for c in hand if c == SEASON_TICKET)


def _augment(j: int, usable: list[list[str]], owner: dict[str, int], visited: set[str]) -> bool:
    """Give junction j one more station place filled, moving other junctions' stations along an
    alternating path if needed (a junction keeps as many stations as it had)."""
    for s in usable[j]:
        if s in visited:
            continue
        visited.add(s)
        held_by = owner.get(s)
        if held_by is None or _augment(held_by, usable, owner, visited):
            owner[s] = j
            return True
    return False


def _grow(j: int, usable: list[list[str]], owner: dict[str, int]) -> tuple[dict[str, int], int]:
    """The matching after adding junction j (two places): a largest one again, because every
    augmenting path of the larger graph must start at one of j's places."""
    grown = dict(owner)
    gained = 0
    while gained < 2 and _augment(j, usable, grown, set()):
        gained += 1
    return grown, gained


class SearchBudget(Exception):
    """The search visited more nodes than it was allowed (`partition` then asks CP-SAT)."""


def partition_search(deck: Deck, hand: Sequence[str], max_nodes: int | None = None) -> Partition:
    """Exact: depth-first include/exclude over the hand's junctions with the matching kept
    incrementally. Completable sets are closed under taking subsets (dropping a junction frees
    two places and at most two stations), so a junction that cannot join is skipped for good."""
    junctions, usable, tickets = _parts(deck, hand)
    n = len(junctions)
    # Most-connected junctions first: good sets are found early, which makes the bound bite.
    order = sorted(range(n), key=lambda j: -len(usable[j]))
    owner_all: dict[str, int] = {}
    for j in range(n):
        owner_all, _ = _grow(j, usable, owner_all)
    # Each journey takes two places, filled by distinct station cards or by season tickets.
    ceiling = min(n, (len(owner_all) + tickets) // 2)

    best: list[int] = []
    best_owner: dict[str, int] = {}
    nodes = 0

    def dfs(k: int, chosen: list[int], owner: dict[str, int]) -> bool:
        nonlocal best, best_owner, nodes
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            raise SearchBudget
        if len(chosen) > len(best):
            best, best_owner = list(chosen), owner
        if len(best) == ceiling:
            return True
        if k == n or len(chosen) + (n - k) <= len(best):
            return False
        # Every journey takes two places filled by distinct station cards or season tickets,
        # so what the junctions still open can match bounds what this branch can reach.
        reach = owner
        for r in order[k:]:
            reach, _ = _grow(r, usable, reach)
        if (len(reach) + tickets) // 2 <= len(best):
            return False
        j = order[k]
        grown, _ = _grow(j, usable, owner)
        if 2 * (len(chosen) + 1) - len(grown) <= tickets:
            chosen.append(j)
            if dfs(k + 1, chosen, grown):
                return True
            chosen.pop()
        return dfs(k + 1, chosen, owner)

    dfs(0, [], {})
    return _build(deck, hand, junctions, best, best_owner)


def _build(
    deck: Deck, hand: Sequence[str], junctions: list[str], chosen: list[int], owner: dict[str, int]
) -> Partition:
    """Journeys for the chosen junctions (their matched stations, season tickets for the rest)
    and the leftover in hand order."""
    journeys = []
    used = set()
    tickets = 0
    for j in sorted(chosen):
        real = [s for s, o in owner.items() if o == j]
        journey = make_journey(deck, junctions[j], real)
        journeys.append(journey)
        used.update([junctions[j], *real])
        tickets += 2 - len(real)
    leftover = []
    for c in hand:
        if c == SEASON_TICKET and tickets > 0:
            tickets -= 1
        elif c not in used:
            leftover.append(c)
    return Partition(tuple(journeys), tuple(leftover))


CPSAT_SECONDS = 60.0  # CP-SAT's time when no limit is given (a library call)


def partition_cpsat(deck: Deck, hand: Sequence[str], time_limit: float = CPSAT_SECONDS) -> Partition:
    """Exact: the same problem as a CP-SAT model. Per junction j a 0/1 `use`, per station it
    lists a 0/1 `take`, and `wild` in 0..2 season tickets: take + wild = 2·use; each station
    taken at most once; at most t season tickets; maximise the junctions used."""
    from ortools.sat.python import cp_model

    junctions, usable, tickets = _parts(deck, hand)
    if not junctions:
        return _build(deck, hand, junctions, [], {})
    m = cp_model.CpModel()
    use = [m.new_bool_var(f"use[{j}]") for j in range(len(junctions))]
    wild = [m.new_int_var(0, 2, f"wild[{j}]") for j in range(len(junctions))]
    take: dict[tuple[int, str], cp_model.IntVar] = {
        (j, s): m.new_bool_var(f"take[{j},{s}]") for j, ss in enumerate(usable) for s in ss
    }
    for j, ss in enumerate(usable):
        m.add(sum(take[j, s] for s in ss) + wild[j] == 2 * use[j])
    by_station: dict[str, list[cp_model.IntVar]] = {}
    for (_, s), x in take.items():
        by_station.setdefault(s, []).append(x)
    for xs in by_station.values():
        m.add_at_most_one(xs)
    m.add(sum(wild) <= tickets)
    # Most journeys first; among those, the fewest season tickets, so the spare ones stay in the
    # leftover where they are most useful (the search's matching does the same by construction).
    weight = 2 * len(junctions) + 1
    m.maximize(weight * sum(use) - sum(wild))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # tiny models: one worker is fastest and deterministic
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.catch_sigint_signal = False  # Ctrl-C is Python's (finisher.FinishModel.solver says why)
    if solver.solve(m) != cp_model.OPTIMAL:
        raise RailwayError(
            f"CP-SAT found no proven largest partition in {time_limit:g} s: a hand this big needs more (--time-limit)",
            "timeout",
        )
    chosen = [j for j in range(len(junctions)) if solver.boolean_value(use[j])]
    owner = {s: j for (j, s), x in take.items() if solver.boolean_value(x)}
    return _build(deck, hand, junctions, chosen, owner)


def fills(deck: Deck, hand: Sequence[str]) -> bool:
    """Is every card of the hand in some journey at once? One journey per junction, so the hand
    has 3 cards per junction, and every station card must get one of the two places of a
    junction in the hand that lists it; the season tickets then fill exactly the places left."""
    junctions = [c for c in hand if c in deck.junction_set]
    if len(hand) != 3 * len(junctions):
        return False
    in_hand = set(junctions)
    at: dict[str, list[str]] = {}

    def place(s: str, visited: set[str]) -> bool:
        for j in deck.through[s]:
            if j not in in_hand or j in visited:
                continue
            visited.add(j)
            here = at.setdefault(j, [])
            if len(here) < 2:
                here.append(s)
                return True
            for k, other in enumerate(here):
                if place(other, visited):
                    here[k] = s
                    return True
        return False

    return all(place(s, set()) for s in hand if s in deck.station_set)


def goes_lobo(deck: Deck, hand: Sequence[str], exposed: int) -> bool:
    """The hand is nothing but completed journeys, and there are at least two in all."""
    return len(hand) // 3 + exposed >= 2 and fills(deck, hand)
