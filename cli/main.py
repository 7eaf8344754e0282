"""The `lobo-hint` app. A path as the first argument runs the hint; a known word runs that command.

Errors in the input (a bad file, position or play) print one line on stderr and exit with 2.
"""

from __future__ import annotations

import csv
import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from solver import __version__
from solver.plays import PlayError, parse_plays
from solver.position import Position, PositionError, Rules, load_position, with_objective
from solver.railway.deck import RailwayError
from solver.rules import final_state, initial_state, legal_plays
from solver.schema import position_schema
from solver.summary import rules_summary

from . import render

# The searches, the finisher, batch, generate and graph are imported by the commands that use
# them: a command starts without loading what only another command needs (tests/test_startup.py).

app = typer.Typer(
    name="lobo-hint",
    help="Solver and hint engine for Lobo and Lobo: The Vanguard.\n\n"
    "Example: lobo-hint position.json   (the best play; same as `lobo-hint hint position.json`)",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)

EXIT_INPUT = 2
F = TypeVar("F", bound=Callable[..., Any])

PositionArg = Annotated[str, typer.Argument(metavar="POSITION.json", help="a position file (FORMAT.md form)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print the answer as JSON (the FORMAT.md contract)")]


def fail(message: str, code: int = EXIT_INPUT) -> None:
    """One line on stderr, nothing on stdout, and the exit status."""
    typer.echo(f"lobo-hint: error: {message}", err=True)
    raise typer.Exit(code)


def input_errors(func: F) -> F:
    """Turn every input error into one line and exit 2; never a traceback for bad input."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (PositionError, PlayError, RailwayError) as e:
            fail(str(e))
        except RecursionError:
            fail("the input is nested too deeply")
        except KeyboardInterrupt:
            typer.echo("lobo-hint: interrupted", err=True)
            raise typer.Exit(130) from None

    return wrapper  # type: ignore[return-value]


def emit_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"lobo-hint {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_version, is_eager=True, help="print the version and exit")
    ] = False,
) -> None:
    """Solver and hint engine for Lobo and Lobo: The Vanguard.

    A position file as the first argument gives the hint: **lobo-hint position.json**
    """


ObjectiveOpt = Annotated[
    str | None, typer.Option("--objective", help="win, party (vanguard) or points (lobo); default: RULES.md §6")
]
TimeOpt = Annotated[
    float, typer.Option("--time-limit", "-t", help="seconds before answering with what is known (exact: false)")
]
VerifyOpt = Annotated[bool, typer.Option("--verify", help="re-check the answer independently (brute force)")]
FinalOpt = Annotated[bool, typer.Option("--final", help="treat the position as a final round")]


@app.command(epilog="Example: lobo-hint hint position.json --json   (or just: lobo-hint position.json)")
@input_errors
def hint(
    path: PositionArg,
    as_json: JsonOpt = False,
    objective: ObjectiveOpt = None,
    time_limit: TimeOpt = 60.0,
    max_states: Annotated[int | None, typer.Option("--max-states", help="stop after this many search states")] = None,
    verify: VerifyOpt = False,
) -> None:
    """The best play and the value of every legal play (also: lobo-hint POSITION.json)."""
    from solver.hint import explain
    from solver.hint import hint as solve_hint
    from solver.verify import verify_hint

    pos = with_objective(load_position(path), objective)
    _positive(time_limit, "--time-limit")
    _positive(max_states, "--max-states")
    with render.progress(enabled=not as_json) as report:
        result = solve_hint(pos, time_limit=time_limit, max_states=max_states, progress=report)
    problems = verify_hint(pos, result) if verify else None
    if as_json:
        emit_json(_verdict_keys(result.to_json(), problems))
    else:
        out = render.console()
        out.print(render.position_panel(pos))
        out.print(render.hint_view(pos, result, explain(result)))
        if problems is not None:
            out.print(render.verdict(problems))
    if problems:
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
) -> None:
    """The best finish of a Vanguard final round, or a checkable proof that none exists."""
    from solver.finish import solve_finish
    from solver.verify import check_finish_answer

    pos = load_position(path)
    state, forced = final_state(pos, final)
    _positive(time_limit, "--time-limit")
    _positive(workers, "--workers")
    result = solve_finish(state, time_limit=time_limit, workers=workers, count_alternatives=True)
    problems = None
    if verify:
        core = result.proof.wolf if result.proof else None
        problems = check_finish_answer(state, result.status, result.score, result.plays, core)
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
    if problems:
        raise typer.Exit(1)


@app.command(epilog='Example: lobo-hint check position.json --plays "9=4+5, 7=7, K=8"')
@input_errors
def check(
    path: PositionArg,
    plays: Annotated[str, typer.Option("--plays", "-p", help="the finish in text notation, plays separated by , or ;")],
    as_json: JsonOpt = False,
    final: FinalOpt = False,
    time_limit: Annotated[float, typer.Option("--time-limit", "-t", help="seconds for CP-SAT")] = 10.0,
) -> None:
    """Judge a proposed final-round finish: legal?, clears the Wolf?, its score against the best."""
    from solver.finish import judge_finish

    pos = load_position(path)
    state, forced = final_state(pos, final)
    proposed = tuple(parse_plays(plays))
    _positive(time_limit, "--time-limit")
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
) -> None:
    """The lookahead as a graph (decision and chance nodes, values) for Graphviz, Gephi or code."""
    from solver.graph import lookahead_graph, write_graph

    pos = with_objective(load_position(path), objective)
    _positive(depth + 1, "--depth")
    _positive(max_nodes, "--max-nodes")
    _positive(time_limit, "--time-limit")
    if not out.lower().endswith((".graphml", ".dot", ".gv", ".json")):
        fail(f"--out: {out}: use a .graphml, .dot or .json file")
    g = lookahead_graph(pos, depth, max_nodes=max_nodes, time_limit=time_limit)
    try:
        kind = write_graph(g, out)
    except OSError as e:
        fail(f"--out: cannot write {out}: {e.strerror or e}")
    note = " (truncated at --max-nodes)" if g.graph["truncated"] else ""
    typer.echo(f"wrote {out} ({kind}): {g.number_of_nodes()} nodes, {g.number_of_edges()} edges{note}")


CSV_COLUMNS = [
    "id",
    "source",
    "line",
    "kind",
    "status",
    "exact",
    "best",
    "score",
    "value",
    "win_probability",
    "check",
    "error",
    "seconds",
]


@app.command(epilog="Example: lobo-hint batch puzzles/ --out results.jsonl --resume --check")
def batch(
    paths: Annotated[list[str], typer.Argument(metavar="PATH...", help="files, folders, globs, .jsonl files")],
    out: Annotated[str | None, typer.Option("--out", "-o", help="write one line per puzzle as it is solved")] = None,
    fmt: Annotated[str, typer.Option("--format", help="jsonl or csv (for --out)")] = "jsonl",
    resume: Annotated[bool, typer.Option("--resume", help="skip the ids already in --out")] = False,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="processes (default: all cores)")] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", "-t", help="seconds per puzzle")] = 30.0,
    cluster: Annotated[str | None, typer.Option("--cluster", help="a Dask scheduler, tcp://HOST:PORT")] = None,
    check_expect: Annotated[
        bool, typer.Option("--check", help="compare with each puzzle's expect; exit 1 on any mismatch")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
) -> None:
    """Solve many puzzles (finish for final rounds, hint otherwise), in parallel, streaming results."""
    from solver.batch import done_ids, iter_jobs, repair_tail, run_batch

    if fmt not in ("jsonl", "csv"):
        fail(f"--format: {fmt!r} is not one of jsonl, csv")
    if resume and out is None:
        fail("--resume needs --out (the file whose finished ids are skipped)")
    if jobs is not None and jobs < 1:
        fail(f"--jobs: must be at least 1, not {jobs}")
    _positive(time_limit, "--time-limit")
    skip = done_ids(out) if resume and out is not None and fmt == "jsonl" else set()
    if resume and fmt == "csv" and out is not None:
        skip = _csv_ids(out)
    if resume and out is not None:
        repair_tail(out)
    total = sum(1 for _ in iter_jobs(paths))
    sink = None
    if out is not None:
        try:
            sink = open(out, "a" if resume else "w", encoding="utf-8", newline="")  # noqa: SIM115
        except OSError as e:
            fail(f"--out: cannot write {out}: {e.strerror or e}")
    writer = None
    if sink is not None and fmt == "csv":
        writer = csv.DictWriter(sink, fieldnames=CSV_COLUMNS, extrasaction="ignore")
        if sink.tell() == 0:
            writer.writeheader()
    mismatches: list[str] = []
    try:
        with render.batch_progress(total - len(skip), enabled=not as_json) as advance:

            def on_result(record: dict[str, Any]) -> None:
                if sink is not None:
                    if writer is not None:
                        writer.writerow(record)
                    else:
                        sink.write(json.dumps(record, ensure_ascii=False) + "\n")
                    sink.flush()  # a killed batch loses nothing that finished
                if record.get("check") == "mismatch":
                    mismatches.append(f"{record['id']}: {'; '.join(record.get('mismatch', []))}")
                advance(record)

            summary = run_batch(
                iter_jobs(paths), workers=jobs, time_limit=time_limit, skip=skip, on_result=on_result, cluster=cluster
            )
    except KeyboardInterrupt:
        typer.echo("lobo-hint: interrupted; finished results are in --out (rerun with --resume)", err=True)
        raise typer.Exit(130) from None
    finally:
        if sink is not None:
            sink.close()
    if as_json:
        emit_json({**summary.to_json(), "mismatches": mismatches})
    else:
        out_console = render.console()
        out_console.print(render.batch_summary(summary))
        for line in mismatches:
            out_console.print(f"[red]mismatch[/red] {line}")
    if check_expect and mismatches:
        raise typer.Exit(1)


@app.command(epilog="Example: lobo-hint generate --kind finish --difficulty hard --count 20 --seed 7 -o new/")
def generate(
    out: Annotated[str, typer.Option("--out", "-o", help="folder to write the puzzle files into")],
    kind: Annotated[str, typer.Option("--kind", "-k", help="finish, hint or known-pile")] = "finish",
    difficulty: Annotated[str, typer.Option("--difficulty", "-d", help="easy, standard or hard")] = "standard",
    count: Annotated[int, typer.Option("--count", "-n", help="how many puzzles")] = 10,
    seed: Annotated[int, typer.Option("--seed", "-s", help="the same seed gives the same puzzles")] = 1,
    only: Annotated[str | None, typer.Option("--only", help="won or lost: keep only winnable or lost ones")] = None,
    grade: Annotated[str | None, typer.Option("--grade", help="easy, medium or hard: keep only this grade")] = None,
) -> None:
    """Random puzzles with their answers, graded (hard: one narrow way), as files for batch --check."""
    from solver.generate import KINDS as GENERATE_KINDS
    from solver.generate import generate as make_puzzles

    if kind not in GENERATE_KINDS:
        fail(f"--kind: {kind!r} is not one of {', '.join(GENERATE_KINDS)}")
    if difficulty not in ("easy", "standard", "hard"):
        fail(f"--difficulty: {difficulty!r} is not one of easy, standard, hard")
    if only not in (None, "won", "lost"):
        fail(f"--only: {only!r} is not one of won, lost")
    if grade not in (None, "easy", "medium", "hard"):
        fail(f"--grade: {grade!r} is not one of easy, medium, hard")
    _positive(count, "--count")
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"--out: cannot make {out}: {e.strerror or e}")
    written = 0
    for puzzle in make_puzzles(kind, difficulty, count, seed, only, grade):
        target = folder / f"{puzzle.id}.json"
        tmp = target.with_name(target.name + ".part")
        tmp.write_text(json.dumps(puzzle.to_json(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(target)
        written += 1
    typer.echo(
        f"wrote {written} puzzle(s) to {folder}"
        + ("" if written == count else f" (asked for {count}: the filters are rare)")
    )


def _csv_ids(path: str) -> set[str]:
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return {row["id"] for row in csv.DictReader(f) if row.get("id")}
    except OSError:
        return set()


def _verdict_keys(js: dict[str, Any], problems: list[str] | None) -> dict[str, Any]:
    """--verify's outcome in the JSON answer."""
    if problems is not None:
        js["verified"] = not problems
        if problems:
            js["verify_problems"] = problems
    return js


def _positive(value: float | None, name: str) -> None:
    if value is not None and value <= 0:
        fail(f"{name}: must be more than 0, not {value}")


@app.command(epilog="Example: lobo-hint moves position.json --json")
@input_errors
def moves(path: PositionArg, as_json: JsonOpt = False) -> None:
    """Every distinct legal play, grouped by kind, with what it makes each side draw."""
    pos = load_position(path)
    state = initial_state(pos)
    plays = legal_plays(state)
    if as_json:
        emit_json({"moves": [p.to_json() for p in plays]})
        return
    out = render.console()
    out.print(render.position_panel(pos))
    out.print(render.plays_table(state, plays))


@app.command(epilog="Example: lobo-hint validate position.json")
@input_errors
def validate(path: PositionArg, as_json: JsonOpt = False) -> None:
    """Check a position file: show it if valid, or name exactly what is wrong (exit 2)."""
    pos = load_position(path)
    if as_json:
        emit_json({"valid": True, "position": pos.to_json(), "unseen": _unseen_json(pos)})
        return
    out = render.console()
    out.print(render.position_panel(pos, title=f"{path}: valid"))


def _unseen_json(pos: Position) -> dict[str, int]:
    return {str(v): n for v, n in enumerate(pos.unseen, start=1)}


@app.command(epilog="Example: lobo-hint schema > position.schema.json")
def schema() -> None:
    """Print a JSON Schema of the position format, for editors and other tools."""
    emit_json(position_schema())


@app.command(epilog="Example: lobo-hint rules --game lobo")
@input_errors
def rules(
    game: Annotated[str, typer.Option("--game", "-g", help="vanguard or lobo")] = "vanguard",
    position: Annotated[
        str | None, typer.Option("--position", "-p", help="show the rulings in force for this position file")
    ] = None,
) -> None:
    """The rules and the rulings in force, in brief (docs/rules.md has them in full)."""
    in_force = Rules()
    if position is not None:
        pos = load_position(position)
        game, in_force = pos.game, pos.rules
    if game not in ("vanguard", "lobo"):
        fail(f"--game: {game!r} is not one of vanguard, lobo")
    render.console().print(render.rules_group(game, rules_summary(game, in_force)))


COMMANDS = {"hint", "moves", "validate", "schema", "rules", "finish", "check", "graph", "batch", "generate", "railway"}
COMMANDS |= {"simulate", "replay", "report", "reward"}  # cli/games.py
COMMANDS |= {"play"}  # cli/play.py
TOP_OPTIONS = {"--help", "-h", "--version", "-V", "--install-completion", "--show-completion"}


def dispatch(argv: list[str]) -> list[str]:
    """`lobo-hint POSITION.json [options]` means `lobo-hint hint POSITION.json [options]`."""
    if not argv or argv[0] in COMMANDS or argv[0] in TOP_OPTIONS:
        return argv
    return ["hint", *argv]


def main() -> None:
    argv = dispatch(sys.argv[1:])
    # Completion runs through environment variables with no arguments; leave it to Typer.
    if any(k.endswith("_COMPLETE") for k in os.environ):
        app()
        return
    app(args=argv, prog_name="lobo-hint")


from . import games as _games  # noqa: E402, F401 - registers simulate, replay, report, reward
from . import play as _play  # noqa: E402, F401 - registers play
from .railway import railway_app  # noqa: E402 - its commands use this module's helpers

app.add_typer(railway_app, name="railway")

if __name__ == "__main__":
    main()
