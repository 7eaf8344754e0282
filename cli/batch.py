"""Many puzzles at once: batch (solve them in parallel, streaming results) and generate (make new
ones with their answers). solver/batch/ does the work; it loads when a command runs.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from solver.core.files import write_whole
from solver.core.status import Check, Outcome, RecordStatus
from solver.words.numbers import count_text

from . import render
from .common import (
    EXIT_INPUT,
    LateOut,
    MemoryOpt,
    OutputError,
    close_out,
    disk_code,
    emit_json,
    fail,
    first_line,
    interrupted,
    one_line,
    positive,
    resume_lock,
    use_memory,
    writable_folder,
)

app = typer.Typer()


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
    "digest",
    "budget",
]


SHOWN_PROBLEMS = 5  # invalid puzzles listed on screen; every one is in --out


@app.command(epilog="Example: lobo-hint batch puzzles/ --out results.jsonl --resume --check")
def batch(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH...", help="files, folders (their .json, .jsonl and .railway files), globs"),
    ],
    out: Annotated[str | None, typer.Option("--out", "-o", help="write one line per puzzle as it is solved")] = None,
    fmt: Annotated[
        str | None, typer.Option("--format", help="jsonl or csv (for --out; default: csv for a .csv file, else jsonl)")
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="skip the puzzles already answered in --out (by file and line; invalid ones are read again)",
        ),
    ] = False,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="processes (default: all cores)")] = None,
    time_limit: Annotated[
        float | None, typer.Option("--time-limit", "-t", help="seconds per puzzle (default 30; none with --max-states)")
    ] = None,
    max_states: Annotated[
        int | None,
        typer.Option(
            "--max-states", help="search states a hint puzzle (with --samples: the same answers on any machine)"
        ),
    ] = None,
    samples: Annotated[int | None, typer.Option("--samples", help="random deals a play for a hint's estimates")] = None,
    cluster: Annotated[str | None, typer.Option("--cluster", help="a Dask scheduler, tcp://HOST:PORT")] = None,
    max_memory: MemoryOpt = None,
    check_expect: Annotated[
        bool,
        typer.Option(
            "--check",
            help="exit 1 if any answer differs from its puzzle's expect (compared, and counted in the summary, either way)",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
) -> None:
    """Solve many puzzles (finish for final rounds, hint otherwise), in parallel, each result written to
    --out as it is solved (without --out: the summary only).

    A bad puzzle never stops the batch: it gets its own line (status invalid) and is listed on
    stderr when the batch is done.

    Exit status:

    * 0: every puzzle solved (and, with --check, as expected)
    * 1: a mismatch under --check, or a puzzle the solver failed on (status error); or the run
      stopped by the machine: a full disk, a cluster's scheduler lost (rerun with --resume)
    * 2: a bad argument (such as a path naming no file: nothing is started, --out is left alone),
      or an invalid puzzle (every other puzzle is still solved and written)
    * 130: interrupted (rerun with --resume)
    """
    from solver.batch.runner import (
        among_inputs,
        answered_records,
        budget_text,
        digest,
        iter_jobs,
        keep_answered,
        named_inputs,
        place,
        problem,
        read_records,
        resumable,
        run_batch,
        unmatched,
    )
    from solver.parallel import ClusterError, connect

    if fmt is None:  # (found by a review: --out r.csv wrote JSON lines)
        fmt = "csv" if out is not None and out.lower().endswith(".csv") else "jsonl"
    if fmt not in ("jsonl", "csv"):
        fail(f"--format: {fmt!r} is not one of jsonl, csv")
    if resume and out is None:
        fail("--resume needs --out (the file whose answered puzzles are skipped)")
    if fmt != "jsonl" and out is None:
        fail(f"--format {fmt} needs --out (the file the results are written to; without it, the summary only)")
    if jobs is not None and jobs < 1:
        fail(f"--jobs: must be at least 1, not {jobs}")
    positive(time_limit, "--time-limit")
    positive(max_states, "--max-states")
    positive(samples, "--samples")
    if time_limit is None and max_states is None:
        time_limit = 30.0
    budget = use_memory(max_memory)
    nothing = unmatched(paths)
    if nothing:
        fail("; ".join(nothing))
    if out is not None and Path(out).exists():
        if named_inputs(paths, out):
            fail(f"--out: {out} is one of the puzzle files this batch reads: write the results to another file")
        if among_inputs(paths, out) and _format_written(out) == "other":  # an earlier --out is left out
            fail(
                f"--out: {out} is a puzzle file this batch reads (by its folder or a glob), not results: "
                "write the results to another file"
            )
        if not resume and Path(out).is_file() and _format_written(out) == "other":
            # Found by a review: a collection of puzzles named by mistake was emptied without a word.
            fail(f"--out: {out} holds something other than batch results: choose another file, or remove it first")
    # One pass over the puzzles: how many, and for --resume each one's digest by its place.
    total, current, files = 0, {}, set()
    for j in iter_jobs(paths, out):
        total += 1
        if resume:
            current[place(j.source, j.line)] = digest(j.raw)
            files.add(place(j.source, None))
    skip: set[str] = set()
    before: list[dict[str, Any]] = []  # the records a resume keeps: counted in the summary
    held = None  # the lock on a file resumed: one run appends to it at a time
    if resume and out is not None:
        held = resume_lock(out, "--out")  # (a device would be read forever, a pipe waited on)
        try:
            written = _format_written(out)
            if written == "other":
                fail(f"--out: {out} holds no batch results: resume into a file this command wrote, or choose another")
            if written is not None and written != fmt:
                fail(
                    f"--out: {out} holds {written.upper()} results: resume it with --format {written}, "
                    "or choose another file"
                )
            try:
                # Skipped: the puzzles answered under these budgets and not edited since.
                answered = answered_records(read_records(out, fmt))
                try:
                    skip = resumable(answered, current, budget_text(time_limit, max_states, samples), files)
                except ValueError as e:
                    fail(f"--out: {out}: {e}")
                before = keep_answered(out, fmt, skip)  # one line a puzzle: those read again are written again
            except (OSError, UnicodeDecodeError) as e:
                fail(f"--out: cannot read {out}: {getattr(e, 'strerror', None) or e}")
            except (RecursionError, ValueError, csv.Error) as e:
                why = "a line nested too deeply" if isinstance(e, RecursionError) else f"{e}"
                fail(f"--out: {out} does not hold results this batch can resume from ({why}): choose another file")
        except BaseException:
            close_out(held)
            raise
    client = None
    if cluster is not None:
        if jobs is not None:  # (found by a review: ignored without a word)
            typer.echo("lobo-hint: --jobs is not used with --cluster: the cluster's workers solve", err=True)
        try:
            client = connect(cluster)  # before --out is opened: a wrong address truncates nothing
        except ClusterError as e:
            close_out(held)
            fail(str(e))
    # Emptied at the first result, not before (found by a review: a rerun without --resume
    # stopped at once had emptied a file of hours of results), and locked.
    header = io.StringIO()
    if fmt == "csv":
        csv.DictWriter(header, fieldnames=CSV_COLUMNS).writeheader()
    try:
        sink = (
            None
            if out is None
            else LateOut(out, "--out", append=resume, header=header.getvalue(), what="result", rest="solve")
        )
    except BaseException:
        close_out(held)
        if client is not None:
            client.close()
        raise
    mismatches = [_mismatch_line(r) for r in before if r.get("check") == Check.MISMATCH]
    problems: list[tuple[dict[str, Any], str]] = []
    try:
        with render.batch_progress(total - len(skip), enabled=not as_json) as advance:

            def on_result(record: dict[str, Any]) -> None:
                if sink is not None:
                    if fmt == "csv":
                        text = io.StringIO()
                        csv.DictWriter(text, fieldnames=CSV_COLUMNS, extrasaction="ignore").writerow(record)
                        sink.write(text.getvalue())
                    else:
                        sink.write(json.dumps(record, ensure_ascii=False) + "\n")
                if record.get("check") == Check.MISMATCH:
                    mismatches.append(_mismatch_line(record))
                line = problem(record)
                if line is not None:
                    problems.append((record, line))
                advance(record)

            summary = run_batch(
                iter_jobs(paths, out),  # its own --out, in a folder it reads, is not a puzzle file
                workers=jobs,
                time_limit=time_limit,
                max_memory=budget,
                max_states=max_states,
                samples=samples,
                skip=skip,
                before=before,
                on_result=on_result,
                cluster=client,
                on_wait=lambda note: typer.echo(f"lobo-hint: {note}", err=True),
            )
    except KeyboardInterrupt:
        # The file's count, those kept from before included (a review: "the 4" of 8).
        interrupted("; no --out: no result was kept" if sink is None else sink.said(len(before) + sink.records))
    except OutputError as e:
        if sink is not None:
            sink.close()
        fail(f"{e}; the results before are in it (rerun with --resume when there is room)", code=1)
    except ClusterError as e:  # the scheduler lost mid-run
        fail(
            f"{e}{'; no --out: no result was kept' if sink is None else sink.said(len(before) + sink.records)}", code=1
        )
    finally:
        if sink is not None:
            sink.close()
        close_out(held)
        if client is not None:
            client.close()
    invalid = [r for r, _ in problems if r["status"] == RecordStatus.INVALID]
    if as_json:
        listed = [{k: r.get(k) for k in ("id", "source", "line", "error")} for r in invalid]
        emit_json({**summary.to_json(), "mismatches": mismatches, "invalid_puzzles": listed})
    else:
        out_console = render.console()
        out_console.print(render.batch_summary(summary))
        for line in mismatches:
            out_console.print(f"[red]mismatch[/red] {line}", soft_wrap=True)  # one line a puzzle, for grep
    _list_problems(problems, out)
    if check_expect and summary.total and not summary.matched + summary.mismatched:
        # (found by a review: "matched 0" and exit 0 read as a pass)
        typer.echo("lobo-hint: --check: no puzzle solved had an expect: nothing was checked", err=True)
    if invalid:
        raise typer.Exit(EXIT_INPUT)
    if len(problems) > len(invalid) or (check_expect and mismatches):
        raise typer.Exit(1)


def _mismatch_line(record: dict[str, Any]) -> str:
    """A mismatched puzzle in one line (a CSV record, resumed, has no `mismatch`: what differs)."""
    from solver.batch.runner import named

    # An estimate off its exact expectation may be the budget, not the expectation.
    estimate = (
        ""
        if record.get("exact", True) not in (False, "False")
        else " (an estimate: exact false; a larger budget, -t or --max-states, may agree)"
    )
    differs = record.get("mismatch") or ["see its record"]
    return f"{named(record)}: {'; '.join(differs)}{estimate}"  # ids may repeat: where it was read (a review)


def _list_problems(problems: list[tuple[dict[str, Any], str]], out: str | None) -> None:
    """The first few invalid or failed puzzles on stderr, each with its reason."""
    for record, line in problems[:SHOWN_PROBLEMS]:
        typer.echo(f"lobo-hint: {record['status']}: {one_line(line)}", err=True)
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
    seed: Annotated[
        int, typer.Option("--seed", "-s", min=0, help="the same seed gives the same puzzles (0 or more)")
    ] = 1,
    only: Annotated[str | None, typer.Option("--only", help="won or lost: keep only winnable or lost ones")] = None,
    grade: Annotated[str | None, typer.Option("--grade", help="easy, medium or hard: keep only this grade")] = None,
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            "-g",
            help="vanguard or lobo: hint and known-pile puzzles of one game (default: both, a quarter lobo)",
        ),
    ] = None,
) -> None:
    """Random puzzles with their answers, graded (hard: one narrow way), as files for batch --check."""
    from solver.batch.generate import KINDS as GENERATE_KINDS
    from solver.batch.generate import TRIES, never_matches
    from solver.batch.generate import generate as make_puzzles
    from solver.batch.grades import GRADES
    from solver.core.games import GAMES

    if kind not in GENERATE_KINDS:
        fail(f"--kind: {kind!r} is not one of {', '.join(GENERATE_KINDS)}")
    if game is not None and game not in GAMES:
        fail(f"--game: {game!r} is not one of {', '.join(GAMES)}")
    if difficulty not in ("easy", "standard", "hard"):
        fail(f"--difficulty: {difficulty!r} is not one of easy, standard, hard")
    if only not in (None, Outcome.WON, Outcome.LOST):
        fail(f"--only: {only!r} is not one of won, lost")
    if grade not in (None, *GRADES):
        fail(f"--grade: {grade!r} is not one of easy, medium, hard")
    positive(count, "--count")
    never = never_matches(kind, only, grade, game)
    if never is not None:
        fail(never)
    folder = writable_folder(out, "--out")
    written = 0
    with render.batch_progress(count, doing="generating") as advance:
        for puzzle in make_puzzles(kind, difficulty, count, seed, only, grade, game=game):
            try:
                write_whole(folder / f"{puzzle.id}.json", json.dumps(puzzle.to_json(), indent=1) + "\n")
            except OSError as e:
                done = f" ({written} written before it)" if written else ""
                fail(f"--out: cannot write into {out}: {e.strerror or e}{done}", code=disk_code(e))
            written += 1
            advance(puzzle)
    typer.echo(
        f"wrote {count_text(written, 'puzzle')} to {folder}"
        + (
            ""
            if written == count
            else f" (asked for {count}: no more of {TRIES * count} positions dealt matched "
            + " and ".join(f"--{k} {v}" for k, v in (("only", only), ("grade", grade)) if v)
            + ")"
        )
    )


def _format_written(path: str) -> str | None:
    """The format an earlier run wrote to path: "jsonl" (its first line a result), "csv" (its
    first line the header), "other" (neither: no file of this command's), or None for a file
    that is missing, empty or unreadable (the resume's own reading says why)."""
    first = first_line(path)
    if first is None:
        return None
    if first.rstrip("\r\n") == ",".join(CSV_COLUMNS):
        return "csv"
    try:
        record = json.loads(first)
    except (ValueError, RecursionError):
        return "other"
    return "jsonl" if isinstance(record, dict) and {"source", "status"} <= record.keys() else "other"
