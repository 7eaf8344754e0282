"""analyse (also spelled analyze): a played game, decision by decision, with its luck and a
summary; a file of many games with --out. The work is solver/play/analysis.py's; the tables are
cli/analysis_view.py's."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any, TypeGuard

import typer

from solver.words.numbers import count_text

from . import analysis_view
from .common import (
    EXIT_INPUT,
    JsonOpt,
    LateOut,
    MemoryOpt,
    OutputError,
    close_out,
    emit_json,
    fail,
    first_line,
    interrupted,
    not_its_number,
    numbers_held,
    one_line,
    positive,
    resume_lock,
    use_memory,
    writable_folder,
)
from .render import console

app = typer.Typer()

GameArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME",
        help="a companion save (play or the phone page), a simulate --games-out file, or {setup, steps}",
    ),
]
EXAMPLES = (
    "Examples: lobo-hint analyse game.json -o game.png   ·   lobo-hint analyse games.jsonl --game 3 --json   ·   "
    "lobo-hint analyse games.jsonl --out analysis.jsonl --resume"
)


def analyse(
    path: GameArg,
    game: Annotated[
        int | None, typer.Option("--game", help='in a file of many games: the one numbered N ("game")')
    ] = None,
    as_json: JsonOpt = False,
    plot: Annotated[
        str | None, typer.Option("--plot", "-o", metavar="FILE.png|svg", help="draw the chance to win over the game")
    ] = None,
    out: Annotated[
        str | None, typer.Option("--out", metavar="FILE.jsonl", help="analyse every game of the file: one line each")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="skip the games already analysed in --out")] = False,
    time_limit: Annotated[
        float | None, typer.Option("--time-limit", "-t", help="seconds a decision (default 2; none with --max-states)")
    ] = None,
    max_states: Annotated[int | None, typer.Option("--max-states", help="search states a decision")] = None,
    samples: Annotated[int | None, typer.Option("--samples", help="random deals a play for estimates")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="processes (default: all cores)")] = None,
    cluster: Annotated[str | None, typer.Option("--cluster", help="a Dask scheduler, tcp://HOST:PORT")] = None,
    max_memory: MemoryOpt = None,
) -> None:
    """Analyse a played game: every decision's cost, the luck of the cards, and a summary.

    For each play and reward: the chance to win the game with the choice made and with the best
    one (exact where the search is, else an estimate with its 95% interval), the loss in
    percentage points, and a mark by its size (?! over 2, ? over 5, ?? over 10; with ≈ where the
    two chances' intervals overlap, or for a reward where the interval of their difference on the
    same deals holds 0: the loss is not told apart from none). For each deal
    and draw: how far the cards moved the chance to win from what was expected.

    With a state budget (--max-states, --samples) and no --time-limit the analysis is the same on
    every run and every machine.
    """
    from solver.parallel import ClusterError, connect
    from solver.play.analysis import FORMAT, Analysis, DecisionBudget, analyse_games, game_digest, tasks
    from solver.play.analysis_plot import plot_format, write_plot
    from solver.play.game_files import GameFileError, PlayedGame, read_games

    positive(time_limit, "--time-limit")
    positive(max_states, "--max-states")
    positive(samples, "--samples")
    if jobs is not None and jobs < 1:
        fail(f"--jobs: must be at least 1, not {jobs}")
    if resume and out is None:
        fail("--resume needs --out (the file whose games are skipped)")
    if out is not None and Path(out).exists() and Path(path).exists() and Path(out).samefile(path):
        fail(f"--out: {out} is the file of games itself: write the analyses to another file")
    if out is not None and not resume and Path(out).is_file() and not _holds_analyses(out):
        # Found by a review: a save named by mistake was written over without a word.
        fail(f"--out: {out} holds something other than game analyses: choose another file, or remove it first")
    if plot is not None:
        if out is not None:
            fail("--plot draws one game: leave out --out, or pick the game with --game and no --out")
        # All said before the analysis, not after it (found by reviews).
        if Path(plot).is_dir():
            fail(f"--plot: {plot} is a folder: name the picture's file, e.g. {Path(plot) / 'game.png'}")
        try:
            plot_format(plot)
        except ValueError as e:
            also = (
                " (the analyses of many games go to --out FILE.jsonl)"
                if Path(plot).suffix in (".jsonl", ".json")
                else ""
            )
            fail(f"--plot: {e}{also}")
        folder = Path(plot).parent
        if not folder.is_dir():
            fail(f"--plot: cannot write {plot}: no folder {folder}")
        if Path(plot).exists() and not (Path(plot).is_file() and os.access(plot, os.W_OK)):
            fail(f"--plot: cannot write {plot}: {'not a regular file' if not Path(plot).is_file() else 'not writable'}")
        writable_folder(str(folder), "--plot")
    budget = DecisionBudget(
        time_limit if time_limit is not None or max_states is not None else 2.0, max_states, samples
    )
    use_memory(max_memory)
    try:
        found = list(read_games(path))
    except GameFileError as e:
        fail(str(e))
    except KeyboardInterrupt:
        interrupted()
    bad = [e for e in found if isinstance(e, GameFileError)]
    games = [g for g in found if isinstance(g, PlayedGame)]
    every = {_key(g.index, g.where): game_digest(g.game) for g in games}  # the file's games, --game or not
    if game is not None:
        numbers = sorted(g.index for g in games if g.index is not None)
        if len(games) == 1 and not bad and games[0].index != game:  # as replay says it (a review)
            fail(not_its_number(path, game, games[0].index))
        games = [g for g in games if g.index == game]
        if not games:
            unread = f" ({count_text(len(bad), 'line')} could not be read; the first: {bad[0]})" if bad else ""
            fail(f"{path}: no game {game} in this file{numbers_held(numbers)}{unread}")
        bad = []
    if out is None:
        if len(games) > 1 and game is not None:
            fail(
                f"{path} holds {len(games)} games numbered {game} (files joined?): analyse them all with --out FILE.jsonl"
            )
        if len(games) > 1:
            fail(f"{path} holds {len(games)} games: pick one with --game N, or analyse them all with --out FILE.jsonl")
        if bad:
            fail(str(bad[0]))
    done: dict[str, dict[str, Any]] = {}  # a game already in --out: its summary row
    held = None  # the lock on a file resumed: one run appends to it at a time
    if resume and out is not None:
        from solver.core.files import repair_tail

        held = resume_lock(out, "--out")
        try:
            try:
                repair_tail(out)  # a torn last line (a run killed mid-write) is no game
            except OSError as e:
                fail(f"--out: cannot write {out}: {e.strerror or e}")
            done, digests = _done(out, FORMAT, {k: getattr(budget, k) for k in BUDGET_KEYS}, path)
            # A game no longer in the file, or changed since (its digest), is analysed again, and
            # its old line goes (found by a review: a file of games made again kept the old ones').
            stale = {k for k in done if k not in every or digests.get(k) not in (None, every[k])}
            if stale:
                _drop(out, stale)
                done = {k: v for k, v in done.items() if k not in stale}
        except BaseException:
            close_out(held)  # refused: the file is free again at once (a caller in this process)
            raise
    todo = [g for g in games if _key(g.index, g.where) not in done]
    client = None
    if cluster is not None:
        try:
            client = connect(cluster)
        except ClusterError as e:
            close_out(held)
            fail(str(e))
    try:  # emptied at its first game, not before, and locked (as batch's --out)
        sink = None if out is None else LateOut(out, "--out", append=resume, what="analysed game", rest="analyse")
    except BaseException:
        close_out(held)
        if client is not None:
            client.close()
        raise
    results: list[Analysis] = []

    def on_analysis(a: Analysis) -> None:
        results.append(a)
        if sink is not None:
            sink.write(json.dumps(a.to_json(), ensure_ascii=False) + "\n")

    total = sum(len(tasks(g.game)) for g in todo)
    try:
        with analysis_view.progress(total, enabled=not as_json or out is not None) as tick:
            analyse_games(
                todo, budget, workers=jobs, cluster=client, on_analysis=on_analysis, on_piece=lambda _p: tick(),
                on_wait=lambda note: typer.echo(f"lobo-hint: {note}", err=True),
            )  # fmt: skip
    except KeyboardInterrupt:
        interrupted("" if sink is None else sink.said(len(done) + sink.records))  # the file's count
    except OutputError as e:
        if sink is not None:
            sink.close()
        fail(f"{e}; the games before are in it (rerun with --resume when there is room)", code=1)
    except ClusterError as e:  # the scheduler lost mid-run
        fail(f"{e}{'' if sink is None else sink.said(len(done) + sink.records)}", code=1)
    finally:
        if sink is not None:
            sink.close()
        close_out(held)
        if client is not None:
            client.close()
    if out is None:
        a = results[0]
        # The analysis first: a plot that cannot be written after all loses none of it.
        if as_json:
            emit_json(a.to_json())
        else:
            console().print(analysis_view.view(a))
        if plot is not None:
            try:
                write_plot(a, plot)
            except (OSError, ValueError) as e:
                fail(f"--plot: cannot write {plot}: {getattr(e, 'strerror', None) or e}", code=1)
            if not as_json:
                console().print(f"plot: {plot}", soft_wrap=True)
    else:
        # Every game of the file in --out, those a resume found there first (found by a review:
        # a resume with nothing left to do showed nothing), then this run's.
        earlier = [done[k] for k in dict.fromkeys(_key(g.index, g.where) for g in games) if k in done]
        rows = earlier + [_summary_line(a) for a in results]
        if as_json:
            emit_json(
                {
                    "games": len(results),
                    "skipped": len(games) - len(todo),
                    "out": out,
                    "summaries": rows,
                    "invalid": [str(e) for e in bad],
                }
            )
        else:
            if rows:
                console().print(analysis_view.games_view(rows))
            note = f" ({len(games) - len(todo)} already in it)" if len(games) > len(todo) else ""
            console().print(f"{count_text(len(results), 'game')} analysed into {out}{note}", soft_wrap=True)
    for line in bad[:5]:
        typer.echo(f"lobo-hint: invalid: {one_line(str(line))}", err=True)
    if len(bad) > 5:
        typer.echo(f"lobo-hint: and {count_text(len(bad) - 5, 'more line')} that are not games", err=True)
    if bad:
        raise typer.Exit(EXIT_INPUT)


def _key(index: int | None, where: str) -> str:
    """What a game is known by in --out: where it was read (file:line; two joined files may both
    have a game 0), the file by its real path (./g.jsonl and g.jsonl are one), with its number."""
    name, line = _file_of(where)
    return f"{name}{':' + line if line else ''} game {index}"


def _file_of(where: str) -> tuple[str, str]:
    """A game's file, by its real path, and its line ("" for a file of one game)."""
    name, colon, line = where.rpartition(":")
    if not (colon and line.isdigit()):
        name, line = where, ""
    return os.path.realpath(name), line


def _holds_analyses(out: str) -> bool:
    """Whether a file is empty or its first line an analysis (one this command may write over)."""
    from solver.core import jsonio
    from solver.play.analysis import FORMAT

    first = first_line(out)
    if first is None:
        return True  # nothing to lose (or the write says why it cannot)
    try:
        r = jsonio.loads(first)
    except (ValueError, RecursionError):
        return False
    return isinstance(r, dict) and r.get("format") == FORMAT


def _drop(out: str, keys: set[str]) -> None:
    """--out without the lines of these games (analysed again after it)."""
    from solver.core import jsonio
    from solver.core.files import write_whole

    kept = []
    with open(out, encoding="utf-8-sig", errors="surrogateescape") as f:
        for line in f:
            try:
                r = jsonio.loads(line)
            except (ValueError, RecursionError):
                r = None
            if not (isinstance(r, dict) and _key(r.get("game"), str(r.get("source", ""))) in keys):
                kept.append(line)
    try:
        write_whole(out, "".join(kept).encode("utf-8", errors="surrogateescape"))
    except OSError as e:
        fail(f"--out: cannot write {out}: {e.strerror or e}")


def _done(
    out: str, fmt: str, budget: dict[str, Any], games: str
) -> tuple[dict[str, dict[str, Any]], dict[str, str | None]]:
    """The games --out holds already; one analysed with other budgets, or of another file than
    `games`, is refused (a file of one run's analyses must not mix what different budgets say,
    nor gain a second copy of games read under another file's name: found by a review)."""
    from solver.core import jsonio

    p = Path(out)
    if not p.exists():
        return {}, {}
    keys: dict[str, dict[str, Any]] = {}
    digests: dict[str, str | None] = {}  # None: a line from before digests (taken as the same game)
    asked = {k: budget[k] for k in BUDGET_KEYS}
    try:
        # utf-8-sig: an editor's byte-order mark on line 1 is no reason to analyse game 0 again
        with p.open(encoding="utf-8-sig", errors="backslashreplace") as f:
            for n, text in enumerate(f, start=1):
                if not text.strip():
                    continue
                try:
                    r = jsonio.loads(text)
                except (ValueError, RecursionError):
                    r = None
                if not (isinstance(r, dict) and r.get("format") == fmt):
                    # kept, it would stay in the file among the analyses appended after it
                    fail(
                        f"--out: {out}: line {n} is not a game analysis: resume into a file this command wrote, "
                        "or choose another"
                    )
                had = r.get("budget")
                had = {k: had.get(k) for k in BUDGET_KEYS} if isinstance(had, dict) else had
                if had != asked:
                    fail(
                        f"--out: {out}: line {n}: a game analysed with budgets {_budget_said(had)}, this run's are "
                        f"{_budget_said(asked)}: resume with the budgets it was made with (--time-limit, "
                        "--max-states, --samples), or choose another file"
                    )
                source = str(r.get("source", ""))
                if _file_of(source)[0] != os.path.realpath(games):
                    fail(
                        f"--out: {out}: line {n} is an analysis of a game of {r.get('source')}, not of {games}: "
                        "resume with that file of games, or choose another --out"
                    )
                summary = r.get("summary")
                if not _summary_ok(summary):
                    fail(f"--out: {out}: line {n}: its summary is not one this command writes: choose another file")
                key = _key(r.get("game"), source)
                keys[key] = {"game": r.get("game"), "source": r.get("source"), **summary}
                digests[key] = r.get("digest") if isinstance(r.get("digest"), str) else None
    except OSError as e:
        fail(f"--out: cannot read {out}: {e.strerror or e}")
    return keys, digests


BUDGET_KEYS = ("time_limit", "max_states", "samples")


def _summary_ok(summary: Any) -> TypeGuard[dict[str, Any]]:
    """Whether an analysis line's summary holds what the table of games shows, as numbers."""

    def number(x: Any) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool)

    if not isinstance(summary, dict):
        return False
    marks = summary.get("marks")
    return (
        all(number(summary.get(k)) for k in ("total_loss", "total_luck"))
        and (summary.get("error_rate") is None or number(summary.get("error_rate")))
        and (summary.get("start_chance") is None or number(summary.get("start_chance")))
        and (summary.get("result") is None or isinstance(summary.get("result"), str))
        and isinstance(marks, dict)
        and all(isinstance(marks.get(m), int) for m in ("??", "?", "?!"))
    )


def _budget_said(budget: Any) -> str:
    if not isinstance(budget, dict):
        return "not said"
    names = {"time_limit": "--time-limit", "max_states": "--max-states", "samples": "--samples"}

    def shown(v: Any) -> str:
        return f"{v:g}" if isinstance(v, (int, float)) and not isinstance(v, bool) else repr(v)

    return ", ".join(f"{names[k]} {shown(budget[k])}" for k in BUDGET_KEYS if budget.get(k) is not None) or "none"


def _summary_line(a: Any) -> dict[str, Any]:
    return {"game": a.index, "source": a.source, **a.summary()}


for _name, _hidden in (("analyse", False), ("analyze", True)):
    app.command(_name, epilog=EXAMPLES, hidden=_hidden)(analyse)
