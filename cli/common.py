"""What every command module shares: the one-line errors and their exit statuses, Ctrl-C, JSON
output, the options several commands take, and the memory budget. Imports no command module.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from typing import Annotated, Any, NoReturn, TypeVar

import typer

from solver.core.plays import PlayError
from solver.core.position import PositionError
from solver.railway.deck import RailwayError

EXIT_INPUT = 2
F = TypeVar("F", bound=Callable[..., Any])

PositionArg = Annotated[str, typer.Argument(metavar="POSITION.json", help="a position file (FORMAT.md form)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print the answer as JSON (the FORMAT.md contract)")]
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
FinalOpt = Annotated[bool, typer.Option("--final", help="treat the position as a final round")]


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


def said_interrupted() -> bool:
    """Whether a command has said `interrupted` since the last `forget_interrupted()`."""
    return _said_interrupted


def forget_interrupted() -> None:
    global _said_interrupted
    _said_interrupted = False


def emit_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


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
    if value is not None and value <= 0:
        fail(f"{name}: must be more than 0, not {value}")
