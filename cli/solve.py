"""The commands that answer one position: hint (the best play), finish and check (a final round),
graph (the lookahead as a graph). The searches and the finisher load when a command runs.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Annotated, Any

import typer

from solver.core.plays import PlayError, parse_plays
from solver.core.position import Position, PositionError, load_position, puzzle_plays, with_objective
from solver.core.rules import State, final_state
from solver.finish.verify import NOTHING_TO_VERIFY, not_verified
from solver.words.numbers import count_text

from . import render
from .common import (
    VERIFY_SECONDS,
    FinalOpt,
    JsonOpt,
    MemoryOpt,
    ObjectiveOpt,
    PositionArg,
    TimeOpt,
    VerifyLimitOpt,
    VerifyOpt,
    command_began,
    emit_json,
    fail,
    input_errors,
    positive,
    use_memory,
)

app = typer.Typer()
HINT_SECONDS = 2.0  # the hint's default time limit, without --max-states


@app.command(epilog="Example: lobo-hint hint position.json --json   (or just: lobo-hint position.json)")
@input_errors
def hint(
    path: PositionArg,
    as_json: JsonOpt = False,
    objective: ObjectiveOpt = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            "-t",
            help="seconds before answering with what is known (exact: false); default 2, none with --max-states",
        ),
    ] = None,
    max_states: Annotated[
        int | None,
        typer.Option("--max-states", help="stop after this many search states (then no default time limit)"),
    ] = None,
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            help="at most this many random deals a play for estimates (seeded: with --max-states, the "
            "same answer every run on any machine, unless a --time-limit given binds)",
        ),
    ] = None,
    max_memory: MemoryOpt = None,
    verify: VerifyOpt = False,
    verify_limit: VerifyLimitOpt = VERIFY_SECONDS,
) -> None:
    """The best play and the value of every legal play (also: lobo-hint POSITION.json).

    Plays are ranked by the chance to win the whole game (objective game) outside a vanguard
    final round; the answer comes within --time-limit (2 s by default, none under --max-states:
    a state budget gives the same answer on any machine), counted from the command's start (a
    fresh process needs about half a second to answer at all, about a second where the compiled
    search loads: 8 unknown cards or more)."""
    from solver.finish.verify import hint_claims, verify_hint
    from solver.search.engine import cores
    from solver.search.hint import hint as solve_hint
    from solver.words.hint import explain

    began = command_began()
    pos = with_objective(load_position(path), objective)
    positive(time_limit, "--time-limit")
    positive(max_states, "--max-states")
    positive(samples, "--samples")
    positive(verify_limit, "--verify-limit")
    use_memory(max_memory)
    if time_limit is None and max_states is None:
        time_limit = HINT_SECONDS
    # (Found by a review: --max-states under the default 2 s clock stopped by time, so the
    # analysis's "hint with the same budgets gives the same values" did not hold. As batch does.)
    with render.progress(enabled=not as_json) as report:
        result = solve_hint(
            pos,
            time_limit=time_limit,
            max_states=max_states,
            samples=samples,
            progress=report,
            started=began,
            threads=cores(),
        )
    problems = _verified(lambda deadline: verify_hint(pos, result, deadline), verify_limit) if verify else None
    checked = hint_claims(result)
    if as_json:
        emit_json(_verdict_keys(result.to_json(), problems, checked))
    else:
        out = render.console()
        out.print(render.position_panel(pos))
        out.print(render.hint_view(pos, result, explain(result)))
        if problems is not None:
            out.print(render.verdict(problems, checked))
    if problems and not isinstance(problems, str):
        raise typer.Exit(1)


@app.command(epilog="Example: lobo-hint finish position.json --verify   (or --json)")
@input_errors
def finish(
    path: PositionArg,
    as_json: JsonOpt = False,
    final: FinalOpt = False,
    verify: VerifyOpt = False,
    time_limit: Annotated[float, typer.Option("--time-limit", "-t", help="seconds for CP-SAT")] = 10.0,
    workers: Annotated[int, typer.Option("--workers", "-w", help="CP-SAT search workers")] = 1,
    verify_limit: VerifyLimitOpt = VERIFY_SECONDS,
    max_memory: MemoryOpt = None,
) -> None:
    """The best finish of a Vanguard final round, or a checkable proof that none exists."""
    from solver.finish.finisher import MAX_WORKERS, solve_finish
    from solver.finish.verify import check_finish_answer

    pos = load_position(path)
    state, forced = _final_state(path, pos, final)
    positive(time_limit, "--time-limit")
    positive(workers, "--workers")
    positive(verify_limit, "--verify-limit")
    use_memory(max_memory)
    if workers > MAX_WORKERS:
        fail(f"--workers: at most {MAX_WORKERS}, not {workers}")
    result = solve_finish(state, time_limit=time_limit, workers=workers, count_alternatives=True)
    problems: list[str] | str | None = None
    if verify:
        core, minimal = (result.proof.wolf, result.proof.minimal) if result.proof else (None, True)
        problems = _verified(
            lambda deadline: check_finish_answer(
                state, result.status, result.score, result.plays, core, minimal, deadline
            ),
            verify_limit,
        )
    if as_json:
        js = result.to_json()
        if forced:
            js["treated_as_final"] = True
        emit_json(_verdict_keys(js, problems))
    else:
        out = render.console()
        out.print(render.position_panel(pos))
        if forced:
            out.print("[yellow]Not a final round: finished as one because of --final.[/yellow]")
        out.print(render.finish_view(result))
        if problems is not None:
            out.print(render.verdict(problems))
    if problems and not isinstance(problems, str):
        raise typer.Exit(1)


@app.command(epilog='Example: lobo-hint check position.json --plays "9=4+5, 7=7, K=8"')
@input_errors
def check(
    path: PositionArg,
    plays: Annotated[
        str | None,
        typer.Option(
            "--plays",
            "-p",
            help='the finish in text notation, plays separated by , or ; (default: a puzzle file\'s own "plays")',
        ),
    ] = None,
    as_json: JsonOpt = False,
    final: FinalOpt = False,
    time_limit: Annotated[float, typer.Option("--time-limit", "-t", help="seconds for CP-SAT")] = 10.0,
) -> None:
    """Judge a proposed final-round finish: legal?, clears the Wolf?, its score against the best."""
    from solver.finish.finisher import judge_finish

    pos = load_position(path)
    given_by = "--plays" if plays is not None else f'{path}: "plays"'
    plays = plays if plays is not None else puzzle_plays(path)
    if plays is None:
        fail('--plays: give the finish to judge (or a puzzle file with its own "plays")')
    state, forced = _final_state(path, pos, final)
    try:
        proposed = tuple(parse_plays(plays))
    except PlayError as e:  # named with its option (found by a review: "no plays given" alone)
        fail(f"{given_by}: {e}")
    positive(time_limit, "--time-limit")
    verdict = judge_finish(state, proposed, time_limit=time_limit)
    if as_json:
        js = verdict.to_json()
        if forced:
            js["treated_as_final"] = True
        emit_json(js)
    else:
        render.console().print(render.check_view(verdict))


@app.command(epilog="Example: lobo-hint graph position.json --depth 2 -o tree.graphml   (or .dot, .json)")
@input_errors
def graph(
    path: PositionArg,
    out: Annotated[str, typer.Option("--out", "-o", help="output file: .graphml, .dot or .json")],
    depth: Annotated[int, typer.Option("--depth", "-d", help="plays deep")] = 2,
    objective: ObjectiveOpt = None,
    max_nodes: Annotated[int, typer.Option("--max-nodes", help="stop adding nodes past this many")] = 20_000,
    time_limit: TimeOpt = 30.0,
    max_memory: MemoryOpt = None,
) -> None:
    """The lookahead as a graph (decision and chance nodes, values) for Graphviz, Gephi or code."""
    from solver.search.graph import lookahead_graph, write_graph

    pos = with_objective(load_position(path), objective)
    if depth < 0:
        fail(f"--depth: 0 or more plays deep, not {depth}")
    positive(max_nodes, "--max-nodes")
    positive(time_limit, "--time-limit")
    use_memory(max_memory)
    if not out.lower().endswith((".graphml", ".dot", ".gv", ".json")):
        fail(f"--out: {out}: use a .graphml, .dot or .json file")
    if sys.stderr.isatty():  # (found by a review: a one-node graph of a round's start waited 30 s in silence)
        typer.echo(f"laying out and valuing the lookahead (at most {time_limit:g} s, --time-limit)…", err=True)
    g = lookahead_graph(pos, depth, max_nodes=max_nodes, time_limit=time_limit, started=command_began())
    try:
        kind = write_graph(g, out)
    except OSError as e:
        fail(f"--out: cannot write {out}: {e.strerror or e}")
    why = {"nodes": "at --max-nodes", "time": "at --time-limit", "memory": "at --max-memory"}
    note = f" (truncated {why[g.graph['stopped']]})" if g.graph["truncated"] else ""
    if g.graph["estimated"]:
        note += (
            "; values rest on the evaluator's estimates beyond the round's end (standard error up to"
            f" {g.graph['error']:.3f}): not exact"
        )
    if any("value" not in a for _, a in g.nodes(data=True)):
        note += "; some values are bounds (lo, hi): the time limit cut the search short"
    if g.graph["depth"] == 0 and g.nodes["n0"]["kind"] == "final":
        note += "; a final round is one node, valued by the finisher (lobo-hint finish gives its plays)"
    typer.echo(
        f"wrote {out} ({kind}): {count_text(g.number_of_nodes(), 'node')}, {count_text(g.number_of_edges(), 'edge')}{note}"
    )


def _final_state(path: str, pos: Position, final: bool) -> tuple[State, bool]:
    """The final round to finish or check; why it is none, naming the file."""
    try:
        return final_state(pos, final)
    except PositionError as e:
        fail(f"{path}: {e}")


def _verified(check: Callable[[float], list[str]], limit: float) -> list[str] | str:
    """The brute force's problems with the answer, or why it is neither verified nor refuted (it
    ran past `limit` seconds or past the memory budget)."""
    from solver.finish.verify import NotVerified

    if sys.stderr.isatty():
        typer.echo(f"verifying by brute force (at most {limit:g} s, --verify-limit)…", err=True)
    try:
        return check(time.perf_counter() + limit)
    except NotVerified as e:
        return not_verified(limit, e.spent)


def _verdict_keys(
    js: dict[str, Any], problems: list[str] | str | None, checked: list[str] | None = None
) -> dict[str, Any]:
    """--verify's outcome in the JSON answer (problems None: not asked); checked as render.verdict's
    (an answer with nothing to re-check is not called verified: null, and why; nor one the brute
    force did not finish: null, and why)."""
    if isinstance(problems, str):
        js["verified"] = None
        js["verify_note"] = problems
    elif problems is not None:
        js["verified"] = None if checked == [] else not problems
        if checked == []:
            js["verify_note"] = NOTHING_TO_VERIFY
        if problems:
            js["verify_problems"] = problems
    return js
