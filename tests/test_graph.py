"""The lookahead graph: built from the search, values consistent, files readable by networkx."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import networkx as nx
import pytest

from conftest import ROOT
from solver.core.position import load_position, parse_position
from solver.search.graph import lookahead_graph, write_graph
from solver.search.hint import hint

EXAMPLE = ROOT / "puzzles" / "examples" / "midround.json"


def test_graph_values_are_consistent_with_the_search() -> None:
    pos = load_position(EXAMPLE)
    g = lookahead_graph(pos, 3)
    root = "n0"
    assert abs(g.nodes[root]["value"] - hint(pos).value) < 1e-12  # type: ignore[operator]
    for n, a in g.nodes(data=True):
        out = list(g.out_edges(n, data=True))
        if a["kind"] == "chance":
            assert abs(sum(e["probability"] for _, _, e in out) - 1) < 1e-12
            expected = sum(e["probability"] * g.nodes[v]["value"] for _, v, e in out)
            assert abs(a["value"] - expected) < 1e-9
        elif a["kind"] == "decision" and out:
            assert abs(a["value"] - max(g.nodes[v]["value"] for _, v, _ in out)) < 1e-12
        elif a["kind"] == "won":
            assert a["value"] == 1.0 and not out
    assert not g.graph["truncated"]


def test_a_lobo_graph_values_the_race_as_it_stands() -> None:
    """Found by a review: under `game` the graph valued every lobo race as if it stood at 0-0."""
    from solver.core.position import parse_position

    base = {"game": "lobo", "difficulty": "easy", "player": [5], "wolf": [3], "draw_pile": {"size": 2}}
    values = {}
    for scores in ((0, 99), (95, 0), (0, 0)):
        pos = parse_position({**base, "scores": {"player": scores[0], "wolf": scores[1]}})
        g = lookahead_graph(pos, 1)
        assert abs(g.nodes["n0"]["value"] - hint(pos).value) < 1e-9, scores  # type: ignore[operator]
        values[scores] = g.nodes["n0"]["value"]
    # At 0-99 every line loses the game (any round lost gives the Wolf a point): exact 0.
    assert values[(0, 99)] == 0.0 and values[(0, 99)] < values[(0, 0)] < values[(95, 0)]


def test_equal_states_are_one_node_and_depth_is_respected() -> None:
    pos = load_position(EXAMPLE)
    shallow, deep = lookahead_graph(pos, 1), lookahead_graph(pos, 3)
    assert shallow.number_of_nodes() < deep.number_of_nodes()
    assert max(a["level"] for _, a in shallow.nodes(data=True)) == 1
    labels = [(a["label"], a["kind"]) for _, a in deep.nodes(data=True) if a["kind"] == "decision"]
    # Two decision nodes may look alike only if their unseen pools differ; most lines merge.
    assert deep.number_of_edges() >= deep.number_of_nodes() - 1
    assert len(labels) >= 1
    capped = lookahead_graph(pos, 5, max_nodes=10)
    assert capped.number_of_nodes() == 10 and capped.graph["truncated"]


def test_written_files_read_back(tmp_path: Path) -> None:
    g = lookahead_graph(load_position(EXAMPLE), 2)
    for name in ("t.graphml", "t.json", "t.dot"):
        write_graph(g, tmp_path / name)
    back = nx.read_graphml(tmp_path / "t.graphml")
    assert back.number_of_nodes() == g.number_of_nodes() and back.number_of_edges() == g.number_of_edges()
    js = nx.node_link_graph(json.loads((tmp_path / "t.json").read_text()), edges="edges")
    assert js.number_of_edges() == g.number_of_edges()
    dot = (tmp_path / "t.dot").read_text()
    assert dot.startswith("digraph") and dot.count("->") == g.number_of_edges()
    assert not list(tmp_path.glob("*.part"))
    assert 'exact="true"' in dot and 'kind="chance"' in dot and "probability=" in dot  # every attribute, in DOT too


def test_a_final_round_root_is_valued_under_its_own_objective() -> None:
    # Found by a review: a final round's graph said objective "win" and 1.0 whatever was asked.
    pos = load_position(ROOT / "puzzles" / "examples" / "final.json")
    best = hint(pos)
    assert best.objective == "score" and best.exact
    for objective, value in (("score", best.value), ("win", 1.0), ("game", 1.0)):
        g = lookahead_graph(pos, 2, objective=None if objective == "score" else objective)
        assert g.graph["objective"] == objective and g.graph["exact"], g.graph
        assert g.number_of_nodes() == 1 and g.nodes["n0"]["kind"] == "final" and g.nodes["n0"]["value"] == value
    # ... and so was `party` (a second review), on a round whose finish sacrifices two members.
    pos = parse_position({"player": [3, 5, 9], "wolf": [3, 4, 5, 8], "draw_pile": {"size": 0}, "final": False})
    party = hint(replace(pos, objective="party")).value
    assert party == -2
    g = lookahead_graph(pos, 0, objective="party")
    assert g.graph["objective"] == "party" and g.graph["exact"] and g.nodes["n0"]["value"] == party


def test_values_that_rest_on_the_evaluator_are_not_called_exact() -> None:
    # Found by a review: lobo's race beyond the round was read from its table, and the graph said
    # exact: true where the hint gives an interval.
    pos = load_position(ROOT / "puzzles" / "examples" / "lobo.json")
    answer = hint(pos)
    assert not answer.exact
    g = lookahead_graph(pos, 1)
    assert g.graph["estimated"] and not g.graph["exact"] and g.graph["error"] > 0
    assert abs(g.nodes["n0"]["value"] - (answer.value or 0.0)) < 1e-9
    plain = lookahead_graph(load_position(EXAMPLE), 1)
    assert not plain.graph["estimated"] and plain.graph["exact"]


def test_a_big_layout_keeps_to_its_clock_and_its_memory() -> None:
    # Found by a review: at -t 20 a deep graph took 27 s (the bounds of the nodes left and the file
    # took seconds after the clock), and under --max-memory 300M the process reached 800 MB.
    import time

    from solver.core.position import parse_position
    from solver.search import memory

    pos = parse_position({"player": [1, 4, 7, 9], "wolf": [6, 2, 3, 8]})
    began = time.process_time()  # CPU time: a busy test machine does not stretch it
    g = lookahead_graph(pos, 50, max_nodes=10**8, time_limit=3.0)
    took = time.process_time() - began
    assert took < 3.0 and g.graph["stopped"] == "time", (took, g.graph)
    limit = memory.resident() + 40 * 1024**2
    memory.set_limit(limit)
    try:
        g = lookahead_graph(pos, 50, max_nodes=10**8, time_limit=8.0)
        # (on a busy machine the clock may stop the layout first: the room is what must hold)
        assert g.graph["stopped"] in ("memory", "time") and memory.resident() < limit, (
            g.graph,
            memory.resident() - limit,
        )
    finally:
        memory.set_limit(None)


def test_the_command_says_it_works_on_a_terminal_and_how_long_it_may(tmp_path: Path) -> None:
    # Found by a review: `graph --depth 0` of a round's start waited its whole 30 s in silence.
    import os
    import pty
    import select
    import subprocess
    import sys

    main, side = pty.openpty()
    out = tmp_path / "g.json"
    args = ["graph", str(ROOT / "puzzles" / "examples" / "midround.json"), "--depth", "0", "-t", "0.5", "-o", str(out)]
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from cli.main import main; main()", *args],
            cwd=ROOT, stderr=side, stdout=subprocess.PIPE, text=True, timeout=60,
        )  # fmt: skip
        said = os.read(main, 4096).decode() if select.select([main], [], [], 5)[0] else ""
    finally:
        os.close(main)
        os.close(side)
    assert done.returncode == 0 and out.exists(), done.stdout
    assert "laying out and valuing the lookahead (at most 0.5 s, --time-limit)" in said, said


def test_a_final_round_cut_short_has_bounds_on_its_own_scale(monkeypatch: pytest.MonkeyPatch) -> None:
    # The finish found below, the most a finish can score above (it was 1 under `score`, below the
    # finish found).
    from solver.core.rules import final_score, initial_state
    from solver.finish import finisher

    real = finisher.solve_finish
    monkeypatch.setattr(finisher, "solve_finish", lambda *a, **kw: replace(real(*a, **kw), exact=False))
    pos = load_position(ROOT / "puzzles" / "examples" / "final.json")
    g = lookahead_graph(pos, 0)
    node = g.nodes["n0"]
    assert not g.graph["exact"] and "value" not in node
    assert node["lo"] == hint(pos).value and node["hi"] == final_score(initial_state(pos)) > node["lo"], node
