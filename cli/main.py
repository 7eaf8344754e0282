"""The `lobo-hint` app. A path as the first argument runs the hint; a known word runs that command.

Errors in the input (a bad file, position or play) print one line on stderr and exit with 2.
"""

from __future__ import annotations

import csv
import difflib
import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer

from solver import __version__
from solver.core.plays import PlayError, parse_plays
from solver.core.position import Position, PositionError, Rules, load_position, with_objective
from solver.core.rules import final_state, initial_state, legal_plays
from solver.core.schema import position_schema
from solver.core.summary import rules_summary
from solver.railway.deck import RailwayError

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


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
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
            interrupted()

    return wrapper  # type: ignore[return-value]


_said_interrupted = False


def interrupted(note: str = "") -> NoReturn:
    """Ctrl-C: one line on stderr and exit status 130."""
    global _said_interrupted
    _said_interrupted = True
    typer.echo(f"lobo-hint: interrupted{note}", err=True)
    raise typer.Exit(130)


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
MemoryOpt = Annotated[
    str | None,
    typer.Option(
        "--max-memory",
        metavar="SIZE",
        help="memory a search may use, e.g. 2G or 500M (default: $LOBO_HINT_MAX_MEMORY, else 2G); "
        "reaching it is like reaching the time limit (exact: false)",
    ),
]


def use_memory(text: str | None) -> int | None:
    """--max-memory (else LOBO_HINT_MAX_MEMORY) as this process's budget and its workers'; the
    bytes when given. A budget that cannot be read is a usage error, before any work starts."""
    from solver.search import memory

    try:
        if text is None:
            memory.check_environment()
            return None
        size = memory.parse_size(text)
    except memory.MemoryBudgetError as e:
        fail(f"--max-memory: {e}" if text is not None else str(e))
    memory.set_limit(size)
    os.environ[memory.ENV] = str(size)  # inherited by the worker processes this command starts
    return size
FinalOpt = Annotated[bool, typer.Option("--final", help="treat the position as a final round")]


@app.command(epilog="Example: lobo-hint hint position.json --json   (or just: lobo-hint position.json)")
@input_errors
def hint(
    path: PositionArg,
    as_json: JsonOpt = False,
    objective: ObjectiveOpt = None,
    time_limit: TimeOpt = 60.0,
    max_states: Annotated[int | None, typer.Option("--max-states", help="stop after this many search states")] = None,
    max_memory: MemoryOpt = None,
    verify: VerifyOpt = False,
) -> None:
    """The best play and the value of every legal play (also: lobo-hint POSITION.json)."""
    from solver.finish.verify import verify_hint
    from solver.search.hint import explain
    from solver.search.hint import hint as solve_hint

    pos = with_objective(load_position(path), objective)
    _positive(time_limit, "--time-limit")
    _positive(max_states, "--max-states")
    use_memory(max_memory)
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
    from solver.finish.finisher import solve_finish
    from solver.finish.verify import check_finish_answer

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
    from solver.finish.finisher import judge_finish

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
    max_memory: MemoryOpt = None,
) -> None:
    """The lookahead as a graph (decision and chance nodes, values) for Graphviz, Gephi or code."""
    from solver.search.graph import lookahead_graph, write_graph

    pos = with_objective(load_position(path), objective)
    _positive(depth + 1, "--depth")
    _positive(max_nodes, "--max-nodes")
    _positive(time_limit, "--time-limit")
    use_memory(max_memory)
    if not out.lower().endswith((".graphml", ".dot", ".gv", ".json")):
        fail(f"--out: {out}: use a .graphml, .dot or .json file")
    g = lookahead_graph(pos, depth, max_nodes=max_nodes, time_limit=time_limit)
    try:
        kind = write_graph(g, out)
    except OSError as e:
        fail(f"--out: cannot write {out}: {e.strerror or e}")
    why = {"nodes": "at --max-nodes", "time": "at --time-limit", "memory": "at --max-memory"}
    note = f" (truncated {why[g.graph['stopped']]})" if g.graph["truncated"] else ""
    if not g.graph["exact"]:
        note += "; some values are bounds (lo, hi): the time limit cut the search short"
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


SHOWN_PROBLEMS = 5  # invalid puzzles listed on screen; every one is in --out


@app.command(epilog="Example: lobo-hint batch puzzles/ --out results.jsonl --resume --check")
def batch(
    paths: Annotated[list[str], typer.Argument(metavar="PATH...", help="files, folders, globs, .jsonl files")],
    out: Annotated[str | None, typer.Option("--out", "-o", help="write one line per puzzle as it is solved")] = None,
    fmt: Annotated[str, typer.Option("--format", help="jsonl or csv (for --out)")] = "jsonl",
    resume: Annotated[bool, typer.Option("--resume", help="skip the ids already in --out")] = False,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="processes (default: all cores)")] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", "-t", help="seconds per puzzle")] = 30.0,
    cluster: Annotated[str | None, typer.Option("--cluster", help="a Dask scheduler, tcp://HOST:PORT")] = None,
    max_memory: MemoryOpt = None,
    check_expect: Annotated[
        bool, typer.Option("--check", help="compare with each puzzle's expect; exit 1 on any mismatch")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
) -> None:
    """Solve many puzzles (finish for final rounds, hint otherwise), in parallel, streaming results.

    A bad puzzle never stops the batch: it gets its own line (status invalid) and is listed on
    stderr when the batch is done.

    Exit status:

    * 0: every puzzle solved (and, with --check, as expected)
    * 1: a mismatch under --check, or a puzzle the solver failed on (status error)
    * 2: a bad argument (such as a path naming no file: nothing is started, --out is left alone),
      or an invalid puzzle (every other puzzle is still solved and written)
    * 130: interrupted (rerun with --resume)
    """
    from solver.batch.runner import (
        ClusterError,
        connect,
        done_ids,
        iter_jobs,
        problem,
        repair_tail,
        run_batch,
        unmatched,
    )

    if fmt not in ("jsonl", "csv"):
        fail(f"--format: {fmt!r} is not one of jsonl, csv")
    if resume and out is None:
        fail("--resume needs --out (the file whose finished ids are skipped)")
    if jobs is not None and jobs < 1:
        fail(f"--jobs: must be at least 1, not {jobs}")
    _positive(time_limit, "--time-limit")
    budget = use_memory(max_memory)
    nothing = unmatched(paths)
    if nothing:
        fail("; ".join(nothing))
    skip: set[str] = set()
    if resume and out is not None:
        try:
            skip = done_ids(out) if fmt == "jsonl" else _csv_ids(out)
            repair_tail(out)
        except (OSError, UnicodeDecodeError) as e:
            fail(f"--out: cannot read {out}: {getattr(e, 'strerror', None) or e}")
    total = sum(1 for _ in iter_jobs(paths))
    client = None
    if cluster is not None:
        try:
            client = connect(cluster)  # before --out is opened: a wrong address truncates nothing
        except ClusterError as e:
            fail(str(e))
    sink = None
    if out is not None:
        try:
            sink = open(out, "a" if resume else "w", encoding="utf-8", newline="")  # noqa: SIM115
        except OSError as e:
            if client is not None:
                client.close()
            fail(f"--out: cannot write {out}: {e.strerror or e}")
    writer = None
    if sink is not None and fmt == "csv":
        writer = csv.DictWriter(sink, fieldnames=CSV_COLUMNS, extrasaction="ignore")
        if sink.tell() == 0:
            writer.writeheader()
    mismatches: list[str] = []
    problems: list[tuple[dict[str, Any], str]] = []
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
                line = problem(record)
                if line is not None:
                    problems.append((record, line))
                advance(record)

            summary = run_batch(
                iter_jobs(paths),
                workers=jobs,
                time_limit=time_limit,
                max_memory=budget,
                skip=skip,
                on_result=on_result,
                cluster=client,
                on_wait=lambda note: typer.echo(f"lobo-hint: {note}", err=True),
            )
    except KeyboardInterrupt:
        interrupted("; finished results are in --out (rerun with --resume)")
    finally:
        if sink is not None:
            sink.close()
        if client is not None:
            client.close()
    invalid = [r for r, _ in problems if r["status"] == "invalid"]
    if as_json:
        listed = [{k: r.get(k) for k in ("id", "source", "line", "error")} for r in invalid]
        emit_json({**summary.to_json(), "mismatches": mismatches, "invalid_puzzles": listed})
    else:
        out_console = render.console()
        out_console.print(render.batch_summary(summary))
        for line in mismatches:
            out_console.print(f"[red]mismatch[/red] {line}")
    _list_problems(problems, out)
    if invalid:
        raise typer.Exit(EXIT_INPUT)
    if len(problems) > len(invalid) or (check_expect and mismatches):
        raise typer.Exit(1)


def _list_problems(problems: list[tuple[dict[str, Any], str]], out: str | None) -> None:
    """The first few invalid or failed puzzles on stderr, each with its reason."""
    for record, line in problems[:SHOWN_PROBLEMS]:
        typer.echo(f"lobo-hint: {record['status']}: {line}", err=True)
    rest = len(problems) - SHOWN_PROBLEMS
    if rest > 0:
        where = f"every one is in {out}" if out is not None else "give --out to keep every one"
        typer.echo(f"lobo-hint: and {rest} more ({where})", err=True)


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
    from solver.batch.generate import KINDS as GENERATE_KINDS
    from solver.batch.generate import generate as make_puzzles

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


class NotACommand(ValueError):
    """A first argument that is neither a command nor a file."""


def dispatch(argv: list[str]) -> list[str]:
    """`lobo-hint POSITION.json [options]` means `lobo-hint hint POSITION.json [options]`; a first
    word that is neither a command nor looks like a file raises NotACommand."""
    if not argv or argv[0] in COMMANDS or argv[0] in TOP_OPTIONS:
        return argv
    first = argv[0]
    if not first.startswith("-") and not _looks_like_file(first):
        close = difflib.get_close_matches(first, sorted(COMMANDS), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise NotACommand(f"{first!r} is neither a command nor a file{hint} (commands: {', '.join(sorted(COMMANDS))})")
    return ["hint", *argv]


def _looks_like_file(arg: str) -> bool:
    """A path separator or a suffix (pos.json) marks a file even when it does not exist (then the
    hint says so); a bare word is a file only if there is one."""
    return "/" in arg or os.sep in arg or bool(Path(arg).suffix) or Path(arg).exists()


# Typer 0.26+ vendors Click and raises its own copy of Click's exceptions, older Typer raises
# Click's. typer.BadParameter is public in both, and derives from the ClickException that every
# parse error (a UsageError: bad option value, missing argument, unknown option…) derives from.
CLICK_ERROR: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def _usage_line(e: Exception) -> str:
    """A Click error as one line, with where to find the usage."""
    format_message = getattr(e, "format_message", None)
    message = " ".join(str(format_message() if callable(format_message) else e).split()).rstrip(".")
    path = getattr(getattr(e, "ctx", None), "command_path", None)
    return f"{message} (try: {path} --help)" if path else message


def main() -> None:
    global _said_interrupted
    _said_interrupted = False
    # Completion runs through environment variables with no arguments; leave it to Typer.
    if any(k.endswith("_COMPLETE") for k in os.environ):
        app()
        return
    try:
        argv = dispatch(sys.argv[1:])
        # Not standalone: Typer returns the exit status and leaves usage errors to the lines below,
        # instead of printing its boxed, multi-line form of them.
        code = app(args=argv, prog_name="lobo-hint", standalone_mode=False)
    except NotACommand as e:
        typer.echo(f"lobo-hint: error: {e}", err=True)
        sys.exit(EXIT_INPUT)
    except CLICK_ERROR as e:
        if type(e).__name__ != "NoArgsIsHelpError":  # that one has printed the help already
            typer.echo(f"lobo-hint: error: {_usage_line(e)}", err=True)
        sys.exit(getattr(e, "exit_code", EXIT_INPUT))  # 2 for every usage error
    except typer.Abort:
        typer.echo("lobo-hint: aborted", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        typer.echo("lobo-hint: interrupted", err=True)
        sys.exit(130)
    if code == 130 and not _said_interrupted:  # Ctrl-C where no command caught it
        typer.echo("lobo-hint: interrupted", err=True)
    sys.exit(code if isinstance(code, int) else 0)


from . import games as _games  # noqa: E402, F401 - registers simulate, replay, report, reward
from . import play as _play  # noqa: E402, F401 - registers play
from .railway import railway_app  # noqa: E402 - its commands use this module's helpers
from .serve import register as _register_serve  # noqa: E402 - serve (web/), registered below

app.add_typer(railway_app, name="railway")
_register_serve(app)

if __name__ == "__main__":
    main()
