"""The analysis of a game as a picture: the chance to win over the game's steps, the marked
decisions and the big swings of luck labelled (matplotlib's Agg canvas through a Figure, as the
report draws: no pyplot, no display). PNG or SVG by the file's suffix; written whole or not at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.core.files import write_whole
from solver.play.analysis import Analysis
from solver.play.driver import Deal
from solver.words.numbers import number_text  # the loss alone: the marks' and the title's

FORMATS = ("png", "svg")
BIG_SWING = 10.0  # points of luck worth a label
DPI = 110


def plot_format(path: str) -> str:
    """The picture format a file name asks for; ValueError naming the choices."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValueError(f"{path}: a plot is written as .png or .svg, not {suffix or 'a name without a suffix'}")
    return suffix


def write_plot(analysis: Analysis, path: str) -> None:
    fmt = plot_format(path)
    fig = figure(analysis)
    write_whole(path, lambda tmp: fig.savefig(tmp, dpi=DPI, format=fmt))


def figure(analysis: Analysis, size: tuple[float, float] = (10, 4.2), labels: float = 7) -> Any:
    """The plot as a matplotlib Figure, `size` inches, its labels `labels` points (a phone's page
    asks for a narrower figure with larger labels: it is shown at about 300 pixels wide)."""
    from matplotlib.figure import Figure  # a quarter of a second to import: only for a plot
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=size, layout="constrained")
    ax = fig.add_subplot()
    points = [(i, 100 * c) for i, c in enumerate(analysis.chances) if c is not None]
    if points:
        xs, ys = zip(*points, strict=True)
        ax.plot(xs, ys, color="#1f5fa8", linewidth=1.6, marker=".", markersize=4, zorder=2)
    for i, step in enumerate(analysis.game.steps):
        if isinstance(step, Deal):
            ax.axvline(i, color="#bbbbbb", linewidth=0.8, linestyle=":", zorder=1)
            ax.text(
                i + 0.2,
                101,
                f"round {analysis.game.tables[i].rounds + 1}",
                fontsize=labels,
                color="#777777",
                va="bottom",
            )
    colours = {"??": "#c0392b", "?": "#e67e22", "?!": "#d4ac0d"}
    last = max(1, len(analysis.game.steps))

    def side(x: float, dy: int) -> dict[str, Any]:
        """A label right of its point, or left of it in the plot's right part (else it is cut off)."""
        right = x > 0.6 * last
        return {"xytext": (-4 if right else 4, dy), "ha": "right" if right else "left"}

    for d in analysis.decisions:
        if d.mark is None:
            continue
        y = 100 * d.chance_best.value
        ax.scatter([d.step], [y], color=colours[d.mark], s=46, zorder=3)
        ax.annotate(
            f"{d.mark}{'' if d.apart else ' ≈'} {d.played} (step {d.number})\n(best {d.best}, −{number_text(d.loss, '.1f')})", (d.step, y),
            textcoords="offset points",
            **side(d.step, 8), fontsize=labels, color=colours[d.mark],
        )  # fmt: skip
    for x in analysis.luck:
        if abs(x.swing) < BIG_SWING:
            continue
        y = 100 * x.after
        # Below its point, but above one near the floor (found by a review: drawn over the axis).
        dy = 8 if y < 15 else -14
        ax.annotate(
            f"{x.swing:+.0f}: {_cards(x.text)}", (x.steps[-1] + 1, y), textcoords="offset points",
            **side(x.steps[-1] + 1, dy), fontsize=labels, color="#2e7d32" if x.swing > 0 else "#8e24aa",
        )  # fmt: skip
    ax.set_ylim(-2, 106)
    ax.set_xlim(-0.5, last + 0.5)
    narrow = size[0] < 6  # the title and the axis's label in two lines (else cut at the edge)
    gap = chr(10) if narrow else " "
    ax.set_xlabel(f"steps taken{gap}(the table's step n is taken from n − 1 to n)", fontsize=labels + 2)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # steps are whole: no step 2.5
    ax.set_ylabel("chance to win the game (%)", fontsize=labels + 2)
    ax.tick_params(labelsize=labels + 1)
    ax.grid(axis="y", color="#eeeeee")
    s = analysis.summary()
    setup = analysis.game.tables[0].setup
    name = f"game {analysis.index}" if analysis.index is not None else "the game"
    result = s["result"] or "not finished"
    ax.set_title(
        f"{name.capitalize()} ({setup.game}, {setup.difficulty}): {result};{gap}"
        f"decisions lost {s['total_loss']:.1f} points, luck {s['total_luck']:+.1f}",
        fontsize=labels + 3,
    )
    return fig


def _cards(text: str) -> str:
    """The cards of a luck entry's text, without its words ("round 2 dealt: 1 2 / 3 4" → "1 2 / 3 4")."""
    return "; ".join(part.split(": ", 1)[-1].removeprefix("you draw: ").removeprefix("the Wolf draws: ")
                     for part in text.split("; "))  # fmt: skip


__all__ = ["FORMATS", "figure", "plot_format", "write_plot"]
