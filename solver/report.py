"""The difficulty report: every game × difficulty × policy simulated on the same seeds, written as
report.md with tables and PNG plots (matplotlib's Agg canvas through Figure objects: no pyplot,
no global figure state, no display needed)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cards import DIFFICULTIES, GAMES
from .game import Setup
from .policies import BEST_RULE, GREEDY_RULE, POLICIES
from .simulate import Summary, simulate, summarize

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# Every plot has this size in pixels (width, height), so the report lays out evenly.
PLOT_SIZE = (1000, 420)
DPI = 100
COLOURS = {"best": "#1b7837", "greedy": "#2166ac", "random": "#b2182b"}


@dataclass(frozen=True)
class Report:
    summaries: tuple[Summary, ...]
    files: tuple[Path, ...]
    seed: int
    games: int

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seed": self.seed,
            "files": [str(f) for f in self.files],
            "results": [s.to_json() for s in self.summaries],
        }


def build_report(
    out: Path,
    games: int,
    seed: int,
    *,
    game_names: Sequence[str] = GAMES,
    difficulties: Sequence[str] = tuple(DIFFICULTIES),
    policies: Sequence[str] = POLICIES,
    samples: int | None = None,
    workers: int | None = None,
    cluster: Any = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> Report:
    """Simulate every combination (the same seed, so the same deals, for each policy) and write the report."""
    out.mkdir(parents=True, exist_ok=True)
    summaries: list[Summary] = []
    for game in game_names:
        for difficulty in difficulties:
            for policy in policies:
                label = f"{game} {difficulty} {policy}"
                done = 0

                def tick(_record: object, label: str = label) -> None:
                    nonlocal done
                    done += 1
                    if progress:
                        progress(label, done, games)

                t0 = time.perf_counter()
                records = simulate(
                    Setup(game, difficulty),
                    policy,
                    games,
                    seed,
                    samples=samples,
                    workers=workers,
                    cluster=cluster,
                    on_record=tick,
                )
                summaries.append(summarize(records, time.perf_counter() - t0))
    files = [
        _win_rates(out / "win_rates.png", summaries, game_names, difficulties, policies),
        _scores(out / "scores.png", summaries, game_names, difficulties, policies),
    ]
    if "vanguard" in game_names:
        files.append(_survival(out / "party_survival.png", summaries, difficulties, policies))
    md = out / "report.md"
    _atomic_write(md, _markdown(summaries, files, games, seed, samples))
    return Report(tuple(summaries), (md, *files), seed, games)


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def _figure(columns: int) -> tuple[Figure, list[Any]]:
    from matplotlib.figure import Figure  # a quarter of a second to import: only for a report

    fig = Figure(figsize=(PLOT_SIZE[0] / DPI, PLOT_SIZE[1] / DPI), dpi=DPI, layout="constrained")
    axes = fig.subplots(1, columns, squeeze=False)[0]
    return fig, list(axes)


def _save(fig: Figure, path: Path) -> Path:
    # No bbox_inches="tight": the image keeps exactly PLOT_SIZE.
    tmp = path.with_name(path.stem + ".part.png")
    fig.savefig(tmp, dpi=DPI, format="png")
    tmp.replace(path)
    return path


def _find(summaries: Sequence[Summary], game: str, difficulty: str, policy: str) -> Summary | None:
    return next(
        (s for s in summaries if (s.setup.game, s.setup.difficulty, s.policy) == (game, difficulty, policy)), None
    )


def _win_rates(
    path: Path, summaries: Sequence[Summary], games: Sequence[str], difficulties: Sequence[str], policies: Sequence[str]
) -> Path:
    fig, axes = _figure(len(games))
    width = 0.8 / max(1, len(policies))
    for ax, game in zip(axes, games, strict=True):
        for j, policy in enumerate(policies):
            xs, ys, lo, hi = [], [], [], []
            for i, difficulty in enumerate(difficulties):
                s = _find(summaries, game, difficulty, policy)
                if s is None:
                    continue
                xs.append(i + (j - (len(policies) - 1) / 2) * width)
                ys.append(100 * s.win_rate)
                lo.append(100 * (s.win_rate - s.interval[0]))
                hi.append(100 * (s.interval[1] - s.win_rate))
            ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=policy, color=COLOURS.get(policy))
        ax.set_xticks(range(len(difficulties)), list(difficulties))
        ax.set_ylabel("games won (%)")
        ax.set_title(f"{game}: win rate, 95% Wilson interval")
        ax.set_ylim(bottom=0)
        ax.legend()
    return _save(fig, path)


def _scores(
    path: Path, summaries: Sequence[Summary], games: Sequence[str], difficulties: Sequence[str], policies: Sequence[str]
) -> Path:
    panels = [(g, d) for g in games for d in difficulties]
    fig, axes = _figure(len(panels))
    for ax, (game, difficulty) in zip(axes, panels, strict=True):
        for policy in policies:
            s = _find(summaries, game, difficulty, policy)
            if s is not None and s.scores:
                ax.hist(s.scores, bins=15, histtype="step", linewidth=1.5, label=policy, color=COLOURS.get(policy))
        ax.set_title(f"{game} {difficulty}", fontsize=9)
        ax.set_xlabel("score of won games" if game == "vanguard" else "your points at the end", fontsize=8)
        ax.tick_params(labelsize=7)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    axes[0].set_ylabel("games")
    return _save(fig, path)


def _survival(path: Path, summaries: Sequence[Summary], difficulties: Sequence[str], policies: Sequence[str]) -> Path:
    fig, axes = _figure(len(difficulties))
    for ax, difficulty in zip(axes, difficulties, strict=True):
        for policy in policies:
            s = _find(summaries, "vanguard", difficulty, policy)
            if s is not None and s.survival:
                rounds = range(0, len(s.survival) + 1)
                ax.plot(list(rounds), [3.0, *s.survival], marker="o", label=policy, color=COLOURS.get(policy))
        ax.set_title(f"vanguard {difficulty}")
        ax.set_xlabel("end of round")
        ax.set_ylim(0, 3.1)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("active party members (mean)")
    return _save(fig, path)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _markdown(summaries: Sequence[Summary], files: Sequence[Path], games: int, seed: int, samples: int | None) -> str:
    lines = [
        "# How hard is it? Simulated whole games",
        "",
        f"{games} games per row, seed {seed}: game i of every row is dealt the same cards (common random",
        "numbers), so the policies are compared on identical deals. Win rates with 95% Wilson intervals.",
        "",
    ]
    for game in dict.fromkeys(s.setup.game for s in summaries):
        rows = [s for s in summaries if s.setup.game == game]
        lines += [f"## {game}", ""]
        if game == "vanguard":
            lines += [
                "| difficulty | policy | win rate | 95% interval | score of won games: mean (q1 / median / q3) "
                "| rounds (mean) | members lost (mean) | final round reached | games/s |",
                "|---|---|---|---|---|---|---|---|---|",
            ]
        else:
            lines += [
                "| difficulty | policy | win rate | 95% interval | your points at the end: mean (q1 / median / q3) "
                "| rounds (mean) | games/s |",
                "|---|---|---|---|---|---|---|",
            ]
        for s in rows:
            js = s.to_json()
            sc = js["score"]
            score = "—" if sc["mean"] is None else f"{sc['mean']:.1f} ({sc['q1']:g} / {sc['median']:g} / {sc['q3']:g})"
            cells = [
                s.setup.difficulty,
                s.policy,
                _pct(s.win_rate),
                f"{_pct(s.interval[0])} – {_pct(s.interval[1])}",
                score,
                f"{js['rounds']['mean']:.2f}",
            ]
            if game == "vanguard":
                cells += [f"{js['members_lost']['mean']:.2f}", _pct(js["final_round_reached_rate"])]
            cells.append(f"{js['games_per_second']:.1f}" if js["games_per_second"] else "—")
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        if game == "vanguard":
            lines += ["### Rewards taken", "", "| difficulty | policy | rewards (how often) |", "|---|---|---|"]
            for s in rows:
                taken = ", ".join(f"{k}: {v}" for k, v in sorted(s.rewards.items(), key=lambda kv: -kv[1])) or "—"
                lines.append(f"| {s.setup.difficulty} | {s.policy} | {taken} |")
            lines.append("")
    lines += ["## Plots", ""]
    for f in files:
        lines += [f"![{f.stem}]({f.name})", ""]
    lines += [
        "## The policies",
        "",
        "* random — uniform over the legal plays, never folding while another play exists; a random reward.",
        f"* {GREEDY_RULE}",
        f"* {BEST_RULE}" + (f" This report: {samples} samples." if samples else ""),
        "",
    ]
    return "\n".join(lines)
