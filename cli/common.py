"""What every command module shares: the one-line errors and their exit statuses, Ctrl-C, JSON
output, the options several commands take, and the memory budget. Imports no command module.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import IO, Annotated, Any, NoReturn, TypeVar

import typer

from solver.core.plays import PlayError
from solver.core.position import PositionError
from solver.railway.budget import BUDGET_CODES
from solver.railway.deck import RailwayError
from solver.words.numbers import count_text

EXIT_INPUT = 2
F = TypeVar("F", bound=Callable[..., Any])

PositionArg = Annotated[str, typer.Argument(metavar="POSITION.json", help="a position file (FORMAT.md form)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print the answer as JSON (its keys: docs/formats.md)")]
ObjectiveOpt = Annotated[
    str | None,
    typer.Option(
        "--objective",
        help="game (the default outside a final round), win, party (vanguard), points (lobo) or score (a final round's default): RULES.md §6",
    ),
]
TimeOpt = Annotated[
    float, typer.Option("--time-limit", "-t", help="seconds before answering with what is known (exact: false)")
]
VerifyOpt = Annotated[bool, typer.Option("--verify", help="re-check the answer independently (brute force)")]
VERIFY_SECONDS = 60.0
VerifyLimitOpt = Annotated[
    float,
    typer.Option(
        "--verify-limit",
        help="seconds the --verify brute force may take; past them the answer is shown not verified (a big "
        "final round can take far longer)",
    ),
]
MemoryOpt = Annotated[
    str | None,
    typer.Option(
        "--max-memory",
        metavar="SIZE",
        help="memory a search may use, e.g. 2G or 500M (default: $LOBO_HINT_MAX_MEMORY, else 2G); "
        "reaching it is like reaching the time limit (exact: false)",
    ),
]
FinalOpt = Annotated[bool, typer.Option("--final", help="treat the position as a final round")]


MAX_ERROR = 600  # characters of an error line: a huge input quoted back is cut


def one_line(message: str) -> str:
    """A message as one line of bounded length: a newline quoted from the input (an id's) would
    forge a second line, and a 100,000-character card need not come back whole."""
    text = message.replace("\r", "\\r").replace("\n", "\\n")
    return text if len(text) <= MAX_ERROR else text[: MAX_ERROR - 1] + "…"


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    """One line on stderr, nothing on stdout, and the exit status."""
    typer.echo(f"lobo-hint: error: {one_line(message)}", err=True)
    raise typer.Exit(code)


def input_errors(func: F) -> F:
    """Turn every input error into one line and exit 2; never a traceback for bad input."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (PositionError, PlayError, RailwayError) as e:
            # A budget that ran out is the position's size against the budget, not bad input.
            fail(str(e), code=1 if isinstance(e, RailwayError) and e.code in BUDGET_CODES else EXIT_INPUT)
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


def said_interrupted() -> bool:
    """Whether a command has said `interrupted` since the last `forget_interrupted()`."""
    return _said_interrupted


def forget_interrupted() -> None:
    global _said_interrupted
    _said_interrupted = False


_began: float | None = None


def _process_age() -> float:
    """Seconds since this process began (Linux's /proc; elsewhere 0: from now)."""
    try:
        start_ticks = float(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def begin_process() -> None:
    """The installed script's command began when its process did: the interpreter and the imports
    count against its time limit."""
    global _began
    _began = time.perf_counter() - _process_age()


def command_began() -> float:
    """When the running command began (a time.perf_counter() reading), which its time limit counts
    from: its process's start under the installed script, else now. Read once: a next command in
    the same process starts afresh."""
    global _began
    began, _began = _began, None
    return time.perf_counter() if began is None else began


class OutputError(Exception):
    """An output file that could not be written (a full disk): one line, exit status 1."""


def write_out(sink: IO[str], text: str, option: str) -> None:
    """A record written to an option's output file at once (a killed run loses nothing that
    finished), whole or not at all: a disk that fills up mid-record is cut back to the record
    before (found by a review: a torn last line, which no JSON reader takes, until --resume).
    Else OutputError naming the option, the file and why."""
    data = text.encode(getattr(sink, "encoding", None) or "utf-8", getattr(sink, "errors", None) or "strict")
    start = None
    try:
        sink.flush()  # (nothing is pending: records are written here only)
        fd = sink.fileno()
        if stat.S_ISREG(os.fstat(fd).st_mode):
            start = os.lseek(fd, 0, os.SEEK_END)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError as e:
        if start is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, start)
        raise OutputError(f"{option}: cannot write {sink.name}: {e.strerror or e}") from None


class LateOut:
    """An option's output file emptied (unless appended to) at its first record, not before: a run
    that fails or is stopped before it has a record (a cluster that cannot be reached, Ctrl-C at
    the start) leaves a file the user already had as it was, and makes none. That it can be
    written is checked at once, and it is locked from then on (a file already there) or from its
    first record (a new one): a second run writing it is refused, not interleaved (found by a
    review: two batches on one file left duplicates and a spliced line). A resumed run (`append`)
    holds its lock already (resume_lock). `header`: written first into a file that is empty (a
    CSV's column names); `what`, `rest`: the records and what a resumed run does with the rest,
    as the line after Ctrl-C says them."""

    def __init__(
        self, path: str, option: str, *, append: bool = False, header: str = "", what: str = "game", rest: str = "play"
    ) -> None:
        from solver.core.files import append_locked

        self.path, self.option, self.append, self.header, self.what, self.rest = (
            path,
            option,
            append,
            header,
            what,
            rest,
        )
        self.sink: IO[str] | None = None
        self.records = 0
        target = Path(path)
        if path.strip() in ("", "-"):  # (found by a review: "-" made a file of that name)
            fail(f"{option}: {path!r} names no file: give a file's name (the records are written there, not shown)")
        try:
            if target.is_dir():
                raise IsADirectoryError(21, "Is a directory")
            if target.exists():
                if append:
                    with open(target, "a", encoding="utf-8"):
                        pass
                else:  # held, not emptied: emptied at the first record
                    self.sink = append_locked(target)
            else:
                with open(target, "a", encoding="utf-8"):
                    pass
                target.unlink()
        except BlockingIOError:
            fail(f"{option}: another run is writing {path}: wait for it to end, or choose another file")
        except OSError as e:
            fail(f"{option}: cannot write {path}: {e.strerror or e}", code=disk_code(e))

    def write(self, text: str) -> None:
        from solver.core.files import append_locked

        if self.records == 0:
            try:
                if self.sink is None and self.append:
                    self.sink = open(self.path, "a", encoding="utf-8", errors="backslashreplace", newline="")  # noqa: SIM115 - closed by close()
                elif self.sink is None:
                    self.sink = append_locked(self.path)
                regular = os.path.isfile(self.path)  # (a device, /dev/full or a terminal, has no length)
                if not self.append and regular:
                    self.sink.truncate(0)
                empty = not regular or self.sink.seek(0, os.SEEK_END) == 0
            except BlockingIOError:
                raise OutputError(f"{self.option}: another run began writing {self.path}") from None
            except OSError as e:
                raise OutputError(f"{self.option}: cannot write {self.path}: {e.strerror or e}") from None
            text = (self.header if empty else "") + text
        assert self.sink is not None
        write_out(self.sink, text, self.option)
        self.records += 1

    def close(self) -> None:
        close_out(self.sink)

    def said(self, records: int | None = None) -> str:
        """What the file holds after a run cut short, for the line that says so."""
        n = self.records if records is None else records
        if self.records == 0:
            return f"; no {self.what} finished: {self.path} left as it was"
        are = "is" if n == 1 else "are"
        return f"; the {count_text(n, 'finished ' + self.what)} {are} in {self.path} (rerun with --resume to {self.rest} the rest)"


def resume_lock(path: str, option: str) -> IO[str]:
    """The file a run resumes, opened and locked for it: refused (exit 2) when another run holds
    it, or when it is no regular file (a device would be read forever, a pipe waited on)."""
    from solver.core.files import append_locked, regular_or_none

    try:
        regular_or_none(path, option)
        return append_locked(path)
    except ValueError as e:
        fail(str(e))
    except BlockingIOError:
        fail(f"{option}: another run is writing {path}: wait for it to end, or choose another file")
    except OSError as e:
        fail(f"{option}: cannot write {path}: {e.strerror or e}", code=disk_code(e))


def disk_code(e: OSError) -> int:
    """A full disk or quota is the machine's (exit 1, rerun when there is room); anything else the
    user's choice of file (exit 2)."""
    return 1 if e.errno in (errno.ENOSPC, errno.EDQUOT) else 2


def writable_folder(out: str, option: str, *, parents: bool = False) -> Path:
    """The folder an option names, made if need be (in a folder that exists: a mistyped parent is
    said, not made, as a file's folder is; `parents` makes them, for a default the user did not
    type) and checked writable before any work (a long run must not find out at its end)."""
    if not out.strip():
        fail(f"{option}: an empty path names no folder")
    folder = Path(out)
    parent = folder.absolute().parent
    if not parents and not folder.is_dir() and not parent.is_dir():
        fail(f"{option}: cannot make {out}: no folder {parent}")
    try:
        folder.mkdir(exist_ok=True, parents=parents)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".lobo-hint-", suffix=".probe"):
            pass
    except OSError as e:
        fail(f"{option}: cannot write into {out}: {e.strerror or e}")
    return folder


def close_out(sink: IO[str] | None) -> None:
    """Close an output file whose failure was already said (its rest cannot be written either)."""
    if sink is not None:
        with contextlib.suppress(OSError):
            sink.close()


def emit_json(obj: Any) -> None:
    text = json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        # A lone surrogate from the input (an id's "\ud800"), or an output that takes ASCII only:
        # the same JSON with every such character escaped, never replaced.
        text = json.dumps(obj, indent=2, ensure_ascii=True) + "\n"
    sys.stdout.write(text)


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


def positive(value: float | None, name: str) -> None:
    """A budget or count given: a finite number above 0 (nan and inf are neither)."""
    if value is not None and not (0 < value < math.inf):
        what = "a whole number" if isinstance(value, int) else "a finite number"
        fail(f"{name}: must be {what} more than 0, not {value}")


def first_line(path: str) -> str | None:
    """The first line of a file that is not blank (an editor's byte-order mark left out); None for
    a file that is missing, empty or unreadable (what writes or resumes it says why). What an
    output option reads to tell whether a file is one its command wrote."""
    try:
        with open(path, encoding="utf-8-sig", errors="backslashreplace") as f:
            return next((line for line in f if line.strip()), None)
    except OSError:
        return None


def not_its_number(path: str, game: int, own: int | None) -> str:
    """--game N for a file of one game that is not game N (replay's, analyse's)."""
    if own is None:
        return f'{path}: --game {game}: this file holds one game, with no number (no "game" key): leave out --game'
    return f"{path}: no game {game} in this file: it holds one game, game {own} (leave out --game)"


def numbers_held(held: list[int]) -> str:
    """The game numbers a file holds, for a --game it does not (found by a review)."""
    if not held:
        return ""
    if held == list(range(held[0], held[-1] + 1)):
        return f": it holds games {held[0]} to {held[-1]}" if len(held) > 1 else f": it holds game {held[0]}"
    return f": it holds games {', '.join(map(str, held[:8]))}{', …' if len(held) > 8 else ''}"
