"""The `lobo-hint` app. A path as the first argument runs the hint; a known word runs that command.

Errors in the input (a bad file, position or play) print one line on stderr and exit with 2.

The commands live in their own modules, each with a Typer app of its own, added here in the order
--help lists them; the helpers they share are in cli/common.py. No module imports this one.
"""

from __future__ import annotations

import codecs
import contextlib
import difflib
import errno
import io
import logging
import os
import re
import signal
import sys
from pathlib import Path
from typing import Annotated

import typer
from typer.main import get_command_name

from solver import __version__

from . import analyse, batch, games, play, position, railway, serve, solve
from .bytecode import keep_bytecode
from .common import EXIT_INPUT, begin_process, forget_interrupted, said_interrupted

# The command modules import the searches, the finisher, batch, generate and graph inside the
# commands that use them: a command starts without loading what only another command needs
# (tests/test_startup.py).

app = typer.Typer(
    name="lobo-hint",
    help="Solver and hint engine for Lobo and Lobo: The Vanguard.\n\n"
    "Example: lobo-hint position.json   (the best play; same as `lobo-hint hint position.json`)",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


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


# Each module's commands, in this order in --help; railway's app is a named group (lobo-hint railway ...).
COMMAND_APPS = (solve.app, batch.app, position.app, games.app, analyse.app, play.app, serve.app, railway.railway_app)
for _commands in COMMAND_APPS:
    app.add_typer(_commands)


def _given(name: object) -> str | None:
    """A name given to Typer: it keeps one not given as a placeholder object."""
    return name if isinstance(name, str) else None


def command_names(group: typer.Typer) -> set[str]:
    """The words naming this app's commands, read from what is registered on it (by Typer's own
    rule: the name given, else the function's); an unnamed sub-app adds its own commands."""
    names = set()
    for command in group.registered_commands:
        callback = command.callback
        name = _given(command.name) or (get_command_name(callback.__name__) if callback is not None else None)
        if name:
            names.add(name)
    for sub in group.registered_groups:
        instance = sub.typer_instance
        name = _given(sub.name) or (_given(instance.info.name) if instance is not None else None)
        if name:
            names.add(name)
        elif instance is not None:
            names |= command_names(instance)
    return names


COMMANDS = command_names(app)

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


_BAD_VALUE = re.compile(r"Invalid value for '([^']+)'(?: / '[^']+')*: (.*)")
_OUT_OF_RANGE = re.compile(r"(\S+) is not in the range (-?[\d.]+)<=x(?:<=(-?[\d.]+))?")
_NOT_A = re.compile(r"'(.*)' is not a valid (int|integer|int range|float|float range)")


def _usage_line(e: Exception) -> str:
    """A Click error as one line, with where to find the usage; a bad value said as the project's
    own errors say it (found by a review: "Invalid value for '--seed' / '-s': -1 is not in the
    range 0<=x<=9223372036854775807")."""
    format_message = getattr(e, "format_message", None)
    message = " ".join(str(format_message() if callable(format_message) else e).split()).rstrip(".")
    if bad := _BAD_VALUE.fullmatch(message):
        option, why = bad.groups()
        if far := _OUT_OF_RANGE.fullmatch(why):
            value, low, high = far.groups()
            bounded = high is not None and float(high) < 1e15
            why = f"from {low} to {high}, not {value}" if bounded else f"at least {low}, not {value}"
        elif kind := _NOT_A.fullmatch(why):
            why = f"{kind.group(1)!r} is not a {'whole number' if kind.group(2).startswith('int') else 'number'}"
            from solver.core.games import GAMES  # (only here: the start of every command stays light)

            if option == "--game" and kind.group(1) in GAMES:  # replay's, analyse's: a game of a file
                why += "; here --game N is a game's number in the file, and the file says which game it is"
        message = f"{option}: {why}"
    path = getattr(getattr(e, "ctx", None), "command_path", None)
    return f"{message} (try: {path} --help)" if path else message


WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EPIPE, errno.EIO}


def _last_words(line: str) -> None:
    """A line on stderr if it can still be written (stderr may be the full disk itself)."""
    with contextlib.suppress(OSError):
        typer.echo(line, err=True)


def main() -> None:
    forget_interrupted()
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
        _ending_on_ctrl_c()
        typer.echo("lobo-hint: interrupted", err=True)
        sys.exit(130)
    except OSError as e:
        # The output could not be written (a full disk, a closed pipe): one line, not a traceback.
        if e.errno not in WRITE_ERRORS:
            raise
        _last_words(f"lobo-hint: error: cannot write the output: {e.strerror or e}")
        sys.exit(1)
    except RuntimeError as e:
        # A broken installation (its data files unreadable): one line, not a traceback.
        from solver.search.evaluator import EvaluatorError
        from solver.search.rollout_policy import RolloutPolicyError

        if not isinstance(e, EvaluatorError | RolloutPolicyError):
            raise
        typer.echo(f"lobo-hint: error: {e}; reinstall lobo-hint", err=True)
        sys.exit(1)
    if code == 130:
        _ending_on_ctrl_c()
        if not said_interrupted():  # Ctrl-C where no command caught it
            typer.echo("lobo-hint: interrupted", err=True)
    sys.exit(code if isinstance(code, int) else 0)


def _ending_on_ctrl_c() -> None:
    """The run ends on a Ctrl-C: more of them must not break its cleanup (found by a review: a
    second one during the exit's logging.shutdown printed a traceback, one run in ten)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# What the text prints beyond ASCII, as an output that cannot encode it shows it.
PLAIN = {"—": "-", "–": "-", "−": "-", "×": "x", "≤": "<=", "≥": ">=", "≈": "~", "…": "...", "·": ".",
         "→": "->", "✗": "x", "✓": "v", "•": "*", "§": "S", "±": "+/-"}  # fmt: skip


def _plain(e: UnicodeError) -> tuple[str, int]:
    if not isinstance(e, UnicodeEncodeError):
        raise e
    return "".join(PLAIN.get(c, "?") for c in e.object[e.start : e.end]), e.end


def narrow_terminal_encoding() -> None:
    """An output that takes fewer characters than Unicode (PYTHONIOENCODING=ascii, a latin-1
    terminal) shows a dash or a sign it cannot encode in ASCII (`-`, `x`, `<=`), anything else as
    `?`, instead of failing on it with a traceback; JSON escapes such characters instead
    (common.emit_json), so it stays exact."""
    codecs.register_error("lobo-hint-plain", _plain)
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "utf-8").lower().replace("_", "-")
        if not encoding.startswith("utf") and isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="lobo-hint-plain")


def run() -> None:
    """The installed script: main() in a process of its own, whose start its time limit counts from.
    A hint's process then ends without Python's teardown of the compiled search and its tables
    (a few tenths of a second, after the answer was due): its output is flushed and it started no
    other process."""
    begin_process()
    narrow_terminal_encoding()
    try:
        main()
    except SystemExit as e:
        code = e.code
    else:
        code = 0
    status = code if isinstance(code, int) else 0 if code is None else 1
    if isinstance(code, str):
        print(code, file=sys.stderr)
    try:
        fast = dispatch(sys.argv[1:])[:1] == ["hint"]
    except NotACommand:
        fast = False
    try:
        sys.stdout.flush()  # here, not at the interpreter's exit, where a failure is a traceback
    except OSError as e:
        _last_words(f"lobo-hint: error: cannot write the output: {e.strerror or e}")
        status = status or 1
        fast = True  # the unflushed rest would fail again at exit
    try:
        keep_bytecode()  # after the answer: once, where Python may not write it (cli/bytecode.py)
    except KeyboardInterrupt:  # the answer is out: a Ctrl-C now only ends the process, quietly
        status = status or 130
    if fast:
        logging.shutdown()
        with contextlib.suppress(OSError):
            sys.stderr.flush()
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    run()
