"""The analysis of a game on the terminal: the decisions with their marks, the luck of the cards,
and the summary (rich tables); one line a game for many games. Rendering only: the numbers are
solver/play/analysis.py's."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from solver.core.games import game as game_of
from solver.words.numbers import chance_text, count_text, gap_spec, gap_text, signed_text

if TYPE_CHECKING:  # annotations only: `lobo-hint --help` need not load the analysis and the search
    from solver.play.analysis import Analysis, Chance

MARK_STYLE = {"??": "bold red", "?": "red", "?!": "yellow"}


def _pct(c: Chance, spec: str = ".1f") -> str:
    return chance_text(c.value, c.low, c.high, c.exact, spec)


LEGEND = (
    "chance: to win the game, exact or an estimate with its 95% interval in parentheses (--json names each "
    "estimate's method); loss: best − played, in points; marks by the loss: ?! over 2 points, ? over 5, "
    "?? over 10; ≈: the two chances' intervals overlap (a reward's: the interval of their difference, the "
    "rewards played out on the same deals, holds 0), so the loss is the estimates' difference, not told "
    "apart from none"
)


def view(a: Analysis) -> Group:
    setup = a.game.tables[0].setup
    s = a.summary()
    name = f"Game {a.index}" if a.index is not None else "The game"
    who = f", played by {a.policy}" if a.policy else ""
    head = Text(f"{name} ({setup.game}, {setup.difficulty}{who}): {s['result'] or 'not finished'}", style="bold")
    decisions = Table(title="Decisions", title_justify="left", show_edge=False)
    for col, just in (("step", "right"), ("round", "right"), ("played", "left"), ("chance", "right"),
                      ("best", "left"), ("its chance", "right"), ("loss", "right"), ("mark", "left")):  # fmt: skip
        decisions.add_column(col, justify=just)  # type: ignore[arg-type]
    for d in a.decisions:
        same = d.played == d.best
        mark = " ".join(x for x in (d.mark, "" if same or d.apart else "≈") if x)
        spec = ".1f" if same else gap_spec(d.chance_best.value, d.chance_played.value)
        decisions.add_row(
            str(d.number), str(d.round), d.played, _pct(d.chance_played, spec), "=" if same else d.best,
            "" if same else _pct(d.chance_best, spec),
            "" if same else gap_text(d.chance_best.value, d.chance_played.value, spec),
            Text(mark, style=MARK_STYLE.get(d.mark or "", "dim") if d.apart else "dim"),
        )  # fmt: skip
    legend = Text(LEGEND, style="dim")
    luck = Table(title="Luck: what the cards did to the chance to win", title_justify="left", show_edge=False)
    luck.add_column("step", justify="right")
    luck.add_column("cards")
    luck.add_column("before", justify="right")
    luck.add_column("after", justify="right")
    luck.add_column("swing", justify="right")
    for x in a.luck:
        style = "green" if x.swing >= 5 else "magenta" if x.swing <= -5 else ""
        spec = gap_spec(x.after, x.before)
        luck.add_row(str(x.number), x.text, f"{100 * x.before:{spec}}%", f"{100 * x.after:{spec}}%",
                     Text(signed_text(float(gap_text(x.after, x.before, spec)), "+" + spec), style=style))  # fmt: skip
    return Group(head, decisions, legend, luck, summary_view(a))


def summary_view(a: Analysis) -> Table:
    s = a.summary()
    t = Table(title="Summary", title_justify="left", show_header=False, show_edge=False)
    t.add_column("")
    t.add_column("")
    start = s["start_chance"]
    t.add_row("chance to win before the first deal", "—" if start is None else f"{100 * start:.1f}%")
    t.add_row("lost by decisions", f"{s['total_loss']:.1f} points over {count_text(s['decisions'], 'decision')} "
              f"({s['exact_decisions']} valued exactly)")  # fmt: skip
    t.add_row("error rate", f"{_rate(s)} points an unforced decision ({s['unforced_decisions']} of them)")
    t.add_row("luck", f"{s['total_luck']:+.1f} points")
    marks = s["marks"]
    uncertain = s["marks_not_told_apart"]
    t.add_row(
        "marks",
        ", ".join(f"{n} {m}" for m, n in marks.items())
        + "  (?! over 2 points, ? over 5, ?? over 10)"
        + (f"; {uncertain} of them not told apart (≈)" if uncertain else ""),
    )
    d: dict[str, Any] | None = s["decisive"]
    if d is not None:
        what = "decision" if d["kind"] == "decision" else "luck"
        t.add_row("the decisive moment", f"step {d['number']}, {what}: {d['text']} ({d['points']:+.1f} points)")
    t.add_row("budget", _budget(a))
    return t


def _rate(s: dict[str, Any]) -> str:
    """An error rate, or — where no decision could matter."""
    return "—" if s["error_rate"] is None else f"{s['error_rate']:.2f}"


def _budget(a: Analysis) -> str:
    b = a.budget
    said = _budget_parts(b.time_limit, b.max_states, b.samples) + " a decision"
    end = b.near_the_end(game_of(a.game.table.setup.game))
    # Said only where it raises the budget (found by a review: "2 s a decision; at least 2 s near
    # the end" said nothing).
    if end is not None and (end["time_limit"], end["max_states"]) != (b.time_limit, b.max_states):
        said += (
            f"; at least {_budget_parts(end['time_limit'], end['max_states'], None)} near the end of a round "
            f"({end['unknown_cards_at_most']} unknown cards or fewer), as the hint policy gives them"
        )
    return said


def _budget_parts(time_limit: float | None, max_states: int | None, samples: int | None) -> str:
    parts = []
    if time_limit is not None:
        parts.append(f"{time_limit:g} s")
    if max_states is not None:
        parts.append(f"{max_states:,} states")
    if samples is not None:
        parts.append(f"{samples} samples")
    return " / ".join(parts)


def games_view(rows: list[dict[str, Any]]) -> Table:
    """The games of a file, one row each: `game` and `source` beside an analysis's summary keys;
    a legend, and (for more than one game) a row of totals."""
    t = Table(
        title="Games analysed",
        title_justify="left",
        show_edge=False,
        caption=(
            "start: the chance to win the game at the first deal; lost: points of chance the decisions"
            " gave away; luck: points the cards gave (+) or took (−); ?? ? ?!: decisions that lost over"
            " 10, 5, 2 points; error rate: points lost an unforced decision; the last row: all the"
            " games (start: their mean)"
        ),
        caption_justify="left",
    )
    for col in ("game", "result", "start", "lost", "luck", "??", "?", "?!", "error rate"):
        t.add_column(col, justify="left" if col in ("game", "result") else "right")
    for s in rows:
        m = s["marks"]
        start = s["start_chance"]
        t.add_row(
            str(s["game"]) if s.get("game") is not None else (s.get("source") or ""), s["result"] or "—",
            "—" if start is None else f"{100 * start:.1f}%", f"{s['total_loss']:.1f}", f"{s['total_luck']:+.1f}",
            str(m["??"]), str(m["?"]), str(m["?!"]), _rate(s),
        )  # fmt: skip
    if len(rows) > 1:
        _totals(t, rows)
    return t


def _totals(t: Table, rows: list[dict[str, Any]]) -> None:
    """All the games in a last row (analysis.games_total)."""
    from solver.play.analysis import games_total

    s = games_total(rows)
    start = s["start_chance"]
    t.add_section()
    t.add_row(
        f"all {s['games']}", f"{s['won']} won", "—" if start is None else f"{100 * start:.1f}%",
        f"{s['total_loss']:.1f}", f"{s['total_luck']:+.1f}",
        *(str(s["marks"][m]) for m in ("??", "?", "?!")), _rate(s),
    )  # fmt: skip


@contextmanager
def progress(total: int, enabled: bool = True) -> Iterator[Callable[[], None]]:
    """Tables valued / total, and the time left, on stderr when it is a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield lambda: None
        return
    columns = (
        TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("left"),
        TimeRemainingColumn(),
    )  # fmt: skip
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("tables", total=total)
        yield lambda: bar.advance(task)
