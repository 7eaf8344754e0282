"""The difficulty report: tables in report.md, valid PNG plots of the right size, and plots that
read on their own (checked on matplotlib's own objects: labels, tick locators, the legend's place)."""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import pytest
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import Bbox
from typer.testing import CliRunner

from cli.main import app
from solver.core.cards import DIFFICULTIES
from solver.core.games import GAMES
from solver.play.driver import Setup
from solver.play.registry import POLICIES
from solver.play.report import PLOT_SIZE, scores_figure, survival_figure, win_rates_figure
from solver.play.simulate import SimulationSummary

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PLOTS = {"win_rates.png", "scores_vanguard.png", "scores_lobo.png", "party_survival.png"}


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the IHDR chunk, after checking the signature and the chunk's CRC."""
    import zlib

    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    body = data[16 : 16 + length]
    (crc,) = struct.unpack(">I", data[16 + length : 20 + length])
    assert zlib.crc32(kind + body) == crc, f"{path}: bad IHDR checksum"
    assert data.rstrip(b"\x00").endswith(b"IEND\xaeB`\x82"), f"{path}: no IEND chunk"
    width, height = struct.unpack(">II", body[:8])
    return width, height


@pytest.mark.usefixtures("quick_clairvoyant")
def test_report_runs_end_to_end_and_writes_its_plots(tmp_path: Path) -> None:
    out = tmp_path / "report"
    r = CliRunner().invoke(
        app, ["report", "--games", "1", "--samples", "2", "--max-states", "200", "-o", str(out), "-j", "1", "--json"]
    )
    assert r.exit_code == 0, r.output
    numbers = json.loads(r.stdout)
    assert len(numbers["results"]) == 2 * 3 * len(POLICIES)  # games × difficulties × policies (one game each)
    # How it was made (found by a review: the budgets were missing from --json).
    assert numbers["budgets"]["hint"]["max_states"] == 200 and numbers["budgets"]["best"]["samples"] == 2
    assert numbers["version"]
    # Each result is what `simulate --json` gives for its row, seed and budgets included.
    for x in numbers["results"]:
        assert x["seed"] == numbers["seed"] and {"samples"} <= set(x) and ("max_states" in x) == (x["policy"] == "hint")
    assert (
        {x["policy"] for x in numbers["results"]}
        == set(POLICIES)
        >= {"hint", "best", "greedy", "random", "clairvoyant"}
    )
    md = (out / "report.md").read_text()
    for words in (
        "## vanguard",
        "## lobo",
        "| standard | best |",
        "Wilson",
        "*Share of games won",
        "Made by lobo-hint",
    ):
        assert words in md
    pngs = sorted(out.glob("*.png"))
    assert {p.name for p in pngs} == PLOTS
    for p in pngs:
        assert f"]({p.name})" in md  # every plot is in the report
        assert png_size(p) == PLOT_SIZE
    assert not list(out.glob("*.part*"))
    # The text summary: one column for "won" whatever the policy's name (clairvoyant is longest).
    # Resumed over the same games, so it plays none of them again.
    args = ["report", "--games", "1", "--samples", "2", "--max-states", "200", "-j", "1", "--resume"]
    again = CliRunner().invoke(app, [*args, "-o", str(out)])
    assert again.exit_code == 0, again.output
    rows = [line for line in again.stdout.splitlines() if " won " in line]
    assert len(rows) == 2 * 3 * len(POLICIES) and len({line.index(" won ") for line in rows}) == 1, rows
    # One game of the two, resumed in the same folder: its command says so, and the other game's
    # plot goes (found by a review: scores_lobo.png stayed, and "Made by" left out --game).
    vanguard = CliRunner().invoke(app, [*args, "-o", str(out), "--game", "vanguard"])
    assert vanguard.exit_code == 0, vanguard.output
    assert "`lobo-hint report --games 1 --seed 1 --game vanguard`" in (out / "report.md").read_text()
    assert not (out / "scores_lobo.png").exists() and (out / "scores_vanguard.png").exists()


# ---------------------------------------------------------------------------------------------
# Each figure on its own


def summary(game: str, difficulty: str, policy: str, scores: Sequence[int], *, games: int = 5) -> SimulationSummary:
    """A few games' numbers, small on purpose: counts of 0, 1 or 2 are where a plain locator ticks 0.5."""
    wins = len(scores) if game == "vanguard" else sum(s >= 100 for s in scores)
    return SimulationSummary(
        Setup(game, difficulty), policy, games, wins, (0.0, min(1.0, wins / games + 0.3)), tuple(scores),
        rounds=(2,) * games, members_lost=(1,) * games, final_reached=wins,
        survival=(2.0, 1.4, 0.6) if game == "vanguard" else (),
    )  # fmt: skip


def summaries() -> list[SimulationSummary]:
    out = []
    for game in GAMES:
        for i, difficulty in enumerate(DIFFICULTIES):
            for j, policy in enumerate(POLICIES):
                if game == "vanguard":
                    # easy: spread scores; standard: one game, so one value; hard: no game won.
                    scores = [[12, 14, 14, 30], [12], []][i] if policy != "random" else []
                else:
                    scores = [0, 3 * j, 17 + i, 40 + j]
                out.append(summary(game, difficulty, policy, scores))
    return out


def figures() -> dict[str, Figure]:
    s = summaries()
    d, p = tuple(DIFFICULTIES), POLICIES
    return {
        "win_rates": win_rates_figure(s, GAMES, d, p),
        "scores_vanguard": scores_figure(s, "vanguard", d, p),
        "scores_lobo": scores_figure(s, "lobo", d, p),
        "party_survival": survival_figure(s, d, p),
    }


def integer_ticks(axis: object) -> bool:
    locator = axis.get_major_locator()  # type: ignore[attr-defined]
    ticks = locator()
    return isinstance(locator, MaxNLocator) and len(ticks) >= 2 and all(float(t).is_integer() for t in ticks)


@pytest.mark.parametrize("name", ["win_rates", "scores_vanguard", "scores_lobo", "party_survival"])
def test_every_panel_has_labelled_axes_and_a_title(name: str) -> None:
    fig = figures()[name]
    axes = fig.get_axes()
    assert len(axes) >= 2 and fig.get_suptitle()
    for ax in axes:
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title(), (name, ax.get_title())


def test_count_axes_tick_whole_numbers() -> None:
    figs = figures()
    for name in ("scores_vanguard", "scores_lobo"):
        for ax in figs[name].get_axes():
            fig_ax = (name, ax.get_title())
            assert integer_ticks(ax.yaxis), fig_ax  # games
            assert integer_ticks(ax.xaxis), fig_ax  # scores and points are whole numbers
    for ax in figs["party_survival"].get_axes():
        assert integer_ticks(ax.xaxis), ax.get_title()  # rounds played
    # The panel where every won game has the same score still gets whole-number ticks around it.
    standard = next(ax for ax in figs["scores_vanguard"].get_axes() if ax.get_title().startswith("standard"))
    lo, hi = standard.get_xlim()
    assert lo <= 12 <= hi and hi - lo >= 4


@pytest.mark.parametrize("name", ["win_rates", "scores_vanguard", "scores_lobo", "party_survival"])
def test_the_layout_fits_and_the_legend_is_off_the_data(name: str) -> None:
    fig = figures()[name]
    fig.draw_without_rendering()  # constrained layout places everything
    renderer = fig._get_renderer()  # type: ignore[attr-defined]
    page = Bbox.from_bounds(0, 0, *PLOT_SIZE)
    axes = fig.get_axes()
    assert all(ax.get_legend() is None for ax in axes)  # no legend inside a panel
    assert len(fig.legends) == 1
    legend = fig.legends[0].get_window_extent(renderer)
    assert {t.get_text() for t in fig.legends[0].get_texts()} == set(POLICIES)
    boxes = [ax.get_tightbbox(renderer) for ax in axes]  # each panel with its labels and ticks
    for box in [*boxes, legend]:
        assert box is not None
        assert page.x0 - 1 <= box.x0 and box.x1 <= page.x1 + 1 and page.y0 - 1 <= box.y0 and box.y1 <= page.y1 + 1
    for a, b in combinations([*boxes, legend], 2):
        assert a is not None and b is not None and not a.overlaps(b), name


def test_every_policy_has_a_colour_of_its_own() -> None:
    # Found by a review: hint and clairvoyant had none (the legend and the bars disagreed).
    from solver.play.registry import POLICIES
    from solver.play.report import COLOURS

    assert set(POLICIES) <= COLOURS.keys() and len(set(COLOURS.values())) == len(COLOURS)
