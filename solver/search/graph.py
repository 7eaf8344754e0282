"""The lookahead as a networkx DiGraph: decision nodes, chance nodes with probabilities, and leaves,
each with the value the search gives it; equal states are one node.

The graph is walked with the rules engine's own state protocol (legal plays, apply, chance
outcomes) and valued by search.Search, so there is no second copy of the rules here.
"""

from __future__ import annotations

import json
import math
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING

from solver.core.files import write_whole
from solver.core.games import game
from solver.core.position import Position
from solver.core.rules import State, apply, apply_outcome, chance_outcomes, initial_state, legal_plays
from solver.core.status import FinishStatus
from solver.search import memory
from solver.search.engine import Budget, Search, compiled_for

if TYPE_CHECKING:
    import networkx as nx


def _label(s: State) -> str:
    def cards(v: tuple[int, ...]) -> str:
        return " ".join(map(str, v)) or "-"

    text = f"you {cards(s.hand)}"
    if s.reserve:
        text += f" | reserve {cards(s.reserve)}"
    text += f" | wolf {cards(s.wolf)} | pile {s.pile_size}"
    if s.pile_top:
        text += f" (top {cards(s.pile_top)})"
    if s.party:
        text += f" | party {''.join(s.party)}"
    if s.final:
        text += " | final"
    return text


def _kind(s: State) -> str:
    if s.outcome is not None:
        return s.outcome
    if s.is_chance:
        return "chance"
    if game(s.game).has_final_round and s.final:
        return "final"
    return "decision"


def lookahead_graph(
    pos: Position,
    depth: int,
    *,
    objective: str | None = None,
    max_nodes: int = 20_000,
    time_limit: float | None = 30.0,
    started: float | None = None,
) -> nx.DiGraph[str]:
    """Every line of play up to `depth` plays deep (chance nodes included), up to max_nodes nodes.

    The lines are laid out first, breadth first (cheap: rules only), then the nodes are valued,
    the root first, while the time limit lasts; a node valued after it gets the bounds the
    search's table already has. So the time limit holds whatever the position: at the start of a
    round one node's exact value could take hours. The graph says what cut it short: its
    `stopped` attribute is "nodes" (max_nodes), "time" or "memory" (the layout itself ran out),
    absent when the layout is whole; `exact` says whether every node's value is exact. The time
    limit counts from `started` (a time.perf_counter() reading: when the command began), by default
    from this call."""
    import time

    import networkx as nx  # slow to import: only when a graph is made

    t0 = time.perf_counter() if started is None else started
    # The clock's shares: the layout two fifths, then the values, less what the bounds of the nodes
    # left and the file take (each a cost by the node).
    deadline = None if time_limit is None else t0 + 0.4 * time_limit
    end = math.inf if time_limit is None else t0 + 0.95 * time_limit
    root = initial_state(pos)
    final_round = game(pos.game).has_final_round
    if _kind(root) == "final":
        return _final_round(root, objective or pos.objective, t0, time_limit)
    obj = objective or ("win" if pos.objective == "score" else pos.objective)
    g: nx.DiGraph[str] = nx.DiGraph(objective=obj, depth=depth)
    ids: dict[State, str] = {}
    order: list[State] = []
    stopped: str | None = None

    def node(s: State, level: int) -> str:
        nonlocal stopped
        if s in ids:
            return ids[s]
        if len(ids) >= max_nodes:
            stopped = "nodes"
            raise _Full
        if len(ids) & 255 == 255:
            # Laying out a round-start graph is cheap per node, but not for 20,000 nodes with
            # chance nodes of thousands of outcomes: it keeps to the clock and the budget too.
            # (and no more nodes than the clock's rest can give bounds and write: PER_NODE)
            if deadline is not None and time.perf_counter() > min(deadline, end - PER_NODE * len(ids)):
                stopped = "time"
                raise _Full
            if memory.room() < keep:
                stopped = "memory"
                raise _Full
        nid = f"n{len(ids)}"
        ids[s] = nid
        order.append(s)
        g.add_node(nid, kind=_kind(s), label=_label(s), level=level)
        return nid

    # The compiled search loaded first (a good part of a second, on the layout's share of the clock).
    compiled_for(root)  # (not prepare: its table's memory, faulted in meanwhile, is not wanted here)
    # The layout stops with half the room it started with left: valuing the nodes and writing the
    # graph (a file as big as the graph is, made in memory) take as much again.
    keep = memory.room() // 2
    frontier = deque([(root, 0)])
    try:
        node(root, 0)
        while frontier:
            s, level = frontier.popleft()
            here = ids[s]
            if s.is_terminal or (final_round and s.final and not s.is_chance):
                continue
            if s.is_chance:
                for values, p in chance_outcomes(s):
                    child = apply_outcome(s, values)
                    new = child not in ids
                    g.add_edge(here, node(child, level), probability=float(p), cards=" ".join(map(str, values)))
                    if new:
                        frontier.append((child, level))
            elif level < depth:
                for play in legal_plays(s):
                    child = apply(s, play)
                    new = child not in ids
                    g.add_edge(here, node(child, level + 1), play=str(play))
                    if new:
                        frontier.append((child, level + 1))
    except _Full:
        pass
    # Valued root first while the clock lasts; after that, every node gets what the table knows,
    # and the file is written: PER_NODE a node, kept for them.
    ends = None if time_limit is None else end - PER_NODE * len(order)
    search = Search(root, obj, None, ends, scores=pos.scores)  # (found by a review: lobo at 0-0 whatever the race)
    exact = True
    late = False
    for s in order:
        if late:
            lo, hi = search.bounds(s)
        else:
            try:
                lo = hi = search.value(s)
            except Budget:
                lo, hi = search.bounds(s)
                late = search.stats.stopped == "time"
        attrs = g.nodes[ids[s]]
        attrs["lo"], attrs["hi"] = lo, hi
        if lo == hi:
            attrs["value"] = lo
        else:
            exact = False
    g.graph["truncated"] = stopped is not None
    if stopped is not None:  # (GraphML has no null: the key is left out instead)
        g.graph["stopped"] = stopped
    g.graph["nodes_limit"] = max_nodes
    # Under `game` the ends of a round beyond the exact horizon read the evaluator: the values
    # (and lo, hi) are then the search's over those estimates, not exact.
    g.graph["estimated"] = search.estimated
    if search.estimated:
        g.graph["error"] = round(search.error, 6)
    g.graph["exact"] = exact and not search.estimated
    g.graph["seconds"] = round(time.perf_counter() - t0, 3)
    return g


def _final_round(root: State, objective: str, t0: float, time_limit: float | None) -> nx.DiGraph[str]:
    """A final round as the root: one node, valued by the finisher under the objective asked for
    (found by a review: `party` and `game` were valued as `win`, on another scale): `score` the
    best finish's score (0 for none), `party` minus the members it sacrifices (minus every active
    one for none), `win` and `game` 1 or 0. Its plays commute and their lines are many: `lobo-hint
    finish` gives the best of them. Cut short, the node has bounds: the finish found (or the
    objective's floor) below, the most the objective allows above."""
    import time

    import networkx as nx

    from solver.finish.finisher import finish_worth, solve_finish, won_worth

    by = objective if objective in ("score", "party") else "score"
    left = 10.0 if time_limit is None else max(0.05, t0 + time_limit - time.perf_counter())  # the clock's rest
    f = solve_finish(root, time_limit=left, objective=by)
    won = f.status == FinishStatus.WIN
    # None found: the objective's floor (no score, every active member lost, the round lost).
    found = finish_worth(f, root, objective) if won else -float(len(root.party)) if objective == "party" else 0.0
    g: nx.DiGraph[str] = nx.DiGraph(objective=objective, depth=0, truncated=False, nodes_limit=1)
    g.add_node("n0", kind="final", label=_label(root), level=0)
    attrs = g.nodes["n0"]
    attrs["lo"], attrs["hi"] = (found, found) if f.exact else (found, won_worth(root, root, objective))
    if f.exact:
        attrs["value"] = found
    g.graph["estimated"] = False
    g.graph["exact"] = f.exact
    g.graph["seconds"] = round(time.perf_counter() - t0, 3)
    return g


PER_NODE = 1.5e-4  # seconds a node's bounds and its part of the file take (measured: 0.3e-4 and 0.2-1e-4)


class _Full(Exception):
    pass


def write_graph(g: nx.DiGraph[str], path: str | Path) -> str:
    """Write by the file's ending: .graphml, .dot or .json. Returns the format written."""
    import networkx as nx

    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".graphml":
        write_whole(p, lambda tmp: nx.write_graphml(g, tmp))
    elif suffix in (".dot", ".gv"):
        write_whole(p, to_dot(g))
    elif suffix == ".json":

        def dump(tmp: Path) -> None:  # streamed: no second copy of the graph as one string
            with tmp.open("w", encoding="utf-8") as f:
                json.dump(nx.node_link_data(g, edges="edges"), f, indent=1)

        write_whole(p, dump)
    else:
        raise ValueError(f"{p}: unknown graph format {suffix!r}; use .graphml, .dot or .json")
    return suffix.lstrip(".")


def to_dot(g: nx.DiGraph[str]) -> str:
    """Graphviz DOT, without needing pydot: decision nodes as boxes, chance nodes as circles. Every
    attribute of the other formats rides along (Graphviz ignores those it does not know)."""

    def q(text: object) -> str:
        text = str(text).lower() if isinstance(text, bool) else str(text)
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    def extra(attrs: dict[str, object], skip: tuple[str, ...] = ()) -> str:
        return "".join(f", {k}={q(v)}" for k, v in attrs.items() if k not in skip)

    newline = "\\n"  # DOT's own line break inside a label
    shapes = {"decision": "box", "chance": "circle", "won": "doubleoctagon", "lost": "octagon", "final": "box3d"}
    lines = ["digraph lookahead {", "  rankdir=LR;"]
    lines += [f"  {k}={q(v)};" for k, v in g.graph.items()]
    for n, a in g.nodes(data=True):
        value = f"{a['value']:.4g}" if "value" in a else f"[{a['lo']:.3g}, {a['hi']:.3g}]"
        label = q(a["label"]).rstrip('"') + newline + value + '"'
        lines.append(f"  {n} [shape={shapes.get(a['kind'], 'box')}, label={label}{extra(a, ('label',))}];")
    for u, v, a in g.edges(data=True):
        text = a.get("play") or f"{a.get('cards', '')} p={a.get('probability', 0):.3g}"
        lines.append(f"  {u} -> {v} [label={q(text)}{extra(a)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
