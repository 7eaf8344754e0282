"""The difficulty report: every game × difficulty × policy simulated on the same seeds, written as
report.md with tables and PNG plots (matplotlib's Agg canvas through Figure objects: no pyplot,
no global figure state, no display needed)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from solver import __version__
from solver.core.cards import DIFFICULTIES
from solver.core.files import append_locked, repair_tail, write_whole
from solver.core.games import GAMES, VANGUARD
from solver.core.games import game as game_of
from solver.play.driver import Setup
from solver.play.policies import BEST_RULE, GREEDY_RULE
from solver.play.registry import CLAIRVOYANT_RULE, HINT_RULE, POLICIES, policy_budget
from solver.play.run_file import RunFileError, record_line, resumed
from solver.play.simulate import GameRecord, SimulationSummary, simulate, summarize
from solver.words.numbers import count_text

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# Every plot has this size in pixels (width, height), so the report lays out evenly.
PLOT_SIZE = (1000, 420)
DPI = 100
# One colour a policy, the same in every figure and its legend, far apart (hint and clairvoyant
# fell back to matplotlib's own, the legend's blue and the bars' orange or grey not matching).
COLOURS = {"hint": "#6a3d9a", "best": "#1b7837", "greedy": "#2166ac", "random": "#b2182b", "clairvoyant": "#e08214"}


@dataclass(frozen=True)
class Report:
    summaries: tuple[SimulationSummary, ...]
    files: tuple[Path, ...]
    seed: int
    games: int
    games_folder: Path
    budgets: dict[str, dict[str, Any]] = field(default_factory=dict)  # each policy's, as its games record them

    def to_json(self) -> dict[str, Any]:
        return {
            "version": __version__,
            "games": self.games,
            "seed": self.seed,
            # How it was made (found by a review: simulate --json said its budgets, report's did not).
            "budgets": self.budgets,
            "files": [str(f) for f in self.files],
            "games_folder": str(self.games_folder),
            # Each as `simulate --json` gives it, seed and budgets included (found by a review).
            "results": [{**s.to_json(), "seed": self.seed, **self.budgets.get(s.policy, {})} for s in self.summaries],
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
    think: float | None = None,
    max_states: int | None = None,
    resume: bool = False,
) -> Report:
    """Simulate every combination (the same seed, so the same deals, for each policy) and write the report.
    samples: best's and the hint's sample budget; think, max_states: the hint's clock and state budget.
    Every game's record goes to games/GAME_DIFFICULTY_POLICY.jsonl as it ends; resume: keep the
    games already there (a report cut short) and play the rest (run_file.RunFileError when a file
    is another run's; OSError when one cannot be written)."""
    (out / GAMES_FOLDER).mkdir(parents=True, exist_ok=True)
    rows = [(g, d, p) for g in game_names for d in difficulties for p in policies]
    budgets = {p: policy_budget(p, samples, think, max_states) for p in policies}
    # Every row's file is read before any game is played: another run's file is refused at once,
    # not after the rows before it have run.
    kept = {
        row: resumed(games_file(out, *row), Setup(row[0], row[1]), row[2], seed, budgets[row[2]])[:games]
        if resume
        else []
        for row in rows
    }
    summaries: list[SimulationSummary] = []
    for game, difficulty, policy in rows:
        label = f"{game} {difficulty} {policy}"
        budget, before = budgets[policy], kept[game, difficulty, policy]
        sink = _RowFile(games_file(out, game, difficulty, policy), budget, resume)
        done = len(before)
        if progress:
            progress(label, done, games)
        t0 = time.perf_counter()

        def tick(record: GameRecord, label: str = label, sink: _RowFile = sink) -> None:
            nonlocal done
            sink.write(record)
            done += 1
            if progress:
                progress(label, done, games)

        try:
            records = before + simulate(
                Setup(game, difficulty),
                policy,
                games,
                seed,
                samples=samples,
                workers=workers,
                cluster=cluster,
                on_record=tick,
                think=think,
                max_states=max_states,
                first=len(before),
            )
        finally:
            sink.close()
        summaries.append(summarize(records, time.perf_counter() - t0, resumed=len(before)))
    files = [_save(win_rates_figure(summaries, game_names, difficulties, policies), out / WIN_RATES_PNG)]
    files += [
        _save(scores_figure(summaries, game, difficulties, policies), out / scores_png(game)) for game in game_names
    ]
    if any(game_of(g).has_party for g in game_names):
        files.append(_save(survival_figure(summaries, difficulties, policies), out / SURVIVAL_PNG))
    # A report's plots that this one no longer makes (found by a review: a lobo plot stayed beside
    # a vanguard-only report in the same folder).
    ours = {WIN_RATES_PNG, SURVIVAL_PNG, *map(scores_png, GAMES)}
    for stale in (out / name for name in sorted(ours - {f.name for f in files})):
        stale.unlink(missing_ok=True)
    md = out / "report.md"
    command = f"--games {games} --seed {seed}" + (
        "" if tuple(game_names) == tuple(GAMES) else f" --game {game_names[0]}"
    )
    try:
        write_whole(
            md, _markdown(summaries, files, command, seed, games, samples, _hint_budget(think, max_states, samples))
        )
    except OSError as e:  # named with its file (a write's own error names none)
        raise OSError(e.errno, e.strerror, str(md)) from None
    return Report(tuple(summaries), (md, *files), seed, games, out / GAMES_FOLDER, budgets)


GAMES_FOLDER = "games"
WIN_RATES_PNG, SURVIVAL_PNG = "win_rates.png", "party_survival.png"  # the report's plots, and:


def scores_png(game_name: str) -> str:
    return f"scores_{game_name}.png"


class _RowFile:
    """One row's games file. Resumed, it is locked for this run and its torn last line dropped at
    once (files.append_locked: a second run resuming it is refused); otherwise it is emptied at
    its first record, not before, so a report stopped before a row's first game leaves the row's
    file as it was. A write that fails (a full disk) is an OSError that names the file."""

    def __init__(self, path: Path, budget: dict[str, Any], resume: bool) -> None:
        self.path, self.budget = path, budget
        self.sink: IO[str] | None = None
        if resume:
            try:
                self.sink = append_locked(path)
            except BlockingIOError:
                raise RunFileError(f"{path}: another run is writing it: wait for it to end") from None
            repair_tail(path)

    def write(self, record: GameRecord) -> None:
        try:
            if self.sink is None:
                self.sink = self.path.open("w", encoding="utf-8")
            self.sink.write(record_line(record, self.budget))
            self.sink.flush()  # a report killed loses no finished game
        except OSError as e:
            raise OSError(e.errno, e.strerror, str(self.path)) from None

    def close(self) -> None:
        if self.sink is not None:
            with contextlib.suppress(OSError):  # a failure of its own was raised by write already
                self.sink.close()


def games_file(out: Path, game: str, difficulty: str, policy: str) -> Path:
    """Where a report keeps one row's games, one record a line."""
    return out / GAMES_FOLDER / f"{game}_{difficulty}_{policy}.jsonl"


def _figure(columns: int, title: str) -> tuple[Figure, list[Any]]:
    from matplotlib.figure import Figure  # a quarter of a second to import: only for a report

    fig = Figure(figsize=(PLOT_SIZE[0] / DPI, PLOT_SIZE[1] / DPI), dpi=DPI, layout="constrained")
    fig.suptitle(title)
    axes = fig.subplots(1, columns, squeeze=False)[0]
    return fig, list(axes)


def _legend(fig: Figure, policies: Sequence[str], *, lines: bool = False) -> None:
    """One legend for the figure, outside every panel: the same colour is the same policy in each."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [
        Line2D([], [], color=COLOURS[p], marker="o" if lines else None, label=p)
        if lines
        else Patch(color=COLOURS[p], label=p)
        for p in policies
    ]
    fig.legend(handles=handles, title="policy", loc="outside right upper")


def _counts(axis: Any) -> None:
    """A count axis: ticks on whole numbers only (no 0.5 of a game), at most 6 (a review found
    lobo's 105 and 120 run together in a narrow panel)."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(nbins=5, integer=True))


def _save(fig: Figure, path: Path) -> Path:
    # No bbox_inches="tight": the image keeps exactly PLOT_SIZE.
    try:
        write_whole(path, lambda tmp: fig.savefig(tmp, dpi=DPI, format="png"))
    except OSError as e:  # named with its file (a write's own error names none)
        raise OSError(e.errno, e.strerror, str(path)) from None
    return path


def _find(summaries: Sequence[SimulationSummary], game: str, difficulty: str, policy: str) -> SimulationSummary | None:
    return next(
        (s for s in summaries if (s.setup.game, s.setup.difficulty, s.policy) == (game, difficulty, policy)), None
    )


def _games_each(summaries: Sequence[SimulationSummary]) -> str:
    sizes = sorted({s.games for s in summaries})
    return f"{count_text(sizes[0], 'game')} each" if len(sizes) == 1 else "games each: " + ", ".join(map(str, sizes))


def win_rates_figure(
    summaries: Sequence[SimulationSummary], games: Sequence[str], difficulties: Sequence[str], policies: Sequence[str]
) -> Figure:
    """Win rate by difficulty and policy, a panel a game; whiskers: the 95% Wilson interval."""
    fig, axes = _figure(len(games), f"Games won, with 95% Wilson intervals ({_games_each(summaries)})")
    width = 0.8 / max(1, len(policies))
    top = 0.0
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
            ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, color=COLOURS[policy], error_kw={"linewidth": 1})
            # The rate over each whisker: a rate of 0% has no bar to see.
            for x, y, h in zip(xs, ys, hi, strict=True):
                ax.text(x, y + h + 1, f"{y:.0f}%", ha="center", va="bottom", fontsize=8)
                top = max(top, y + h)
        ax.set_xticks(range(len(difficulties)), list(difficulties))
        ax.set_xlabel("difficulty")
        ax.set_ylabel("games won (%)")
        ax.set_title(game)
    for ax in axes:  # one scale for every game, so the bars compare across panels
        ax.set_ylim(0, min(100.0, top) * 1.12 + 1)
    _legend(fig, policies)
    return fig


def _bins(values: Sequence[int]) -> list[float]:
    """Shared bin edges for a panel's histograms, each bin a whole number of points wide and
    centred so no value sits on an edge; about 12 bins at most, over at least 5 values (so the
    axis has whole numbers to tick even when every game scored the same)."""
    lo, hi = min(values), max(values)
    if hi - lo < 4:
        lo = max(0, lo - 2)  # scores and points are never negative
        hi = lo + 4 if hi < lo + 4 else hi
    width = max(1, -(-(hi - lo + 1) // 12))
    edges = [lo - 0.5]
    while edges[-1] < hi:
        edges.append(edges[-1] + width)
    return edges


def scores_figure(
    summaries: Sequence[SimulationSummary], game: str, difficulties: Sequence[str], policies: Sequence[str]
) -> Figure:
    """One game's score distributions, a panel a difficulty, one outline a policy."""
    vanguard = not game_of(game).is_race  # a vanguard game scores only when it is won
    rows = [s for s in summaries if s.setup.game == game]
    what = "score of the won games" if vanguard else "your points at the end of each game"
    fig, axes = _figure(len(difficulties), f"{game}: {what} ({_games_each(rows)})")
    for ax, difficulty in zip(axes, difficulties, strict=True):
        found = [(p, s) for p in policies if (s := _find(summaries, game, difficulty, p)) is not None]
        values = [v for _, s in found for v in s.scores]
        if values:
            # Side by side in each bin: outlines drawn over one another hide the lower ones.
            ax.hist(
                [list(s.scores) for _, s in found],
                bins=_bins(values),
                histtype="bar",
                color=[COLOURS[p] for p, _ in found],
            )
        else:
            ax.text(0.5, 0.5, "no game won" if vanguard else "no game", transform=ax.transAxes, ha="center")
            ax.tick_params(bottom=False, left=False, labelbottom=False, labelleft=False)
        ax.set_title(f"{difficulty} (A..{Setup(game, difficulty).top})")
        ax.set_xlabel("score (points)" if vanguard else "your points")
        ax.set_ylabel("won games" if vanguard else "games")
        _counts(ax.xaxis)  # scores are whole points
        _counts(ax.yaxis)
    _legend(fig, policies)
    return fig


def survival_figure(
    summaries: Sequence[SimulationSummary], difficulties: Sequence[str], policies: Sequence[str]
) -> Figure:
    """Vanguard: the mean number of party members face up after each round (an ended game keeps its last party)."""
    rows = [s for s in summaries if game_of(s.setup.game).has_party]
    fig, axes = _figure(len(difficulties), f"vanguard: party members face up, round by round ({_games_each(rows)})")
    for ax, difficulty in zip(axes, difficulties, strict=True):
        for policy in policies:
            s = _find(summaries, VANGUARD.name, difficulty, policy)
            if s is not None and s.survival:
                rounds = range(0, len(s.survival) + 1)
                ax.plot(list(rounds), [3.0, *s.survival], marker="o", color=COLOURS[policy])
        ax.set_title(difficulty)
        ax.set_xlabel("rounds played")
        ax.set_ylabel("members face up (mean)")
        ax.set_ylim(0, 3.15)
        _counts(ax.xaxis)
    _legend(fig, policies, lines=True)
    return fig


def _caption(stem: str) -> str:
    if stem == "win_rates":
        return "Share of games won by difficulty and policy; the whiskers are the 95% Wilson intervals."
    if stem == "party_survival":
        return (
            "Vanguard: party members face up (mean over the games) after each round; a game that has ended "
            "counts with its last party."
        )
    game = stem.removeprefix("scores_")
    what = "your points at the end of each game" if game_of(game).is_race else "the score of each won game"
    return f"{game.capitalize()}: {what}, by difficulty; the policies' bars side by side in each bin."


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _hint_budget(think: float | None, max_states: int | None, samples: int | None) -> str:
    """The hint policy's budget in words, as make_policy reads it."""
    from solver.play.hint_policy import HINT_SAMPLES, THINK

    if max_states is None:
        return f"{think or THINK} s a decision" + (f", at most {samples} deals a play" if samples else "")
    clock = f", and at most {think} s" if think else " (no clock: the same games on any machine)"
    return f"at most {max_states} states and {samples or HINT_SAMPLES} deals a play a decision{clock}"


def _markdown(
    summaries: Sequence[SimulationSummary],
    files: Sequence[Path],
    command: str,
    seed: int,
    games: int,
    samples: int | None,
    hint_budget: str = "",
) -> str:
    lines = [
        "# How hard is it? Simulated whole games",
        "",
        f"{count_text(games, 'game')} per row, seed {seed}: game i of every row is dealt the same cards (common random",
        "numbers), so the policies are compared on identical deals. Win rates with 95% Wilson intervals.",
        f"Made by lobo-hint {__version__} (`lobo-hint report {command}`, with the budgets below).",
        "",
    ]
    for game in dict.fromkeys(s.setup.game for s in summaries):
        rows = [s for s in summaries if s.setup.game == game]
        g = game_of(game)
        lines += [f"## {game}", ""]
        if g.has_party:  # and a final round: members lost, final round reached
            lines += [
                "| difficulty | policy | win rate | 95% interval | score of won games: mean (q1 / median / q3) "
                "| rounds (mean) | members turned face down (mean; a revived one counts again) | final round reached | games/s |",
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
            if g.has_party:
                cells += [f"{js['members_lost']['mean']:.2f}", _pct(js["final_round_reached_rate"])]
            cells.append(f"{js['games_per_second']:.1f}" if js["games_per_second"] else "—")
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        if g.has_rewards:
            lines += ["### Rewards taken", "", "| difficulty | policy | rewards (how often) |", "|---|---|---|"]
            for s in rows:
                taken = ", ".join(f"{k}: {v}" for k, v in sorted(s.rewards.items(), key=lambda kv: -kv[1])) or "—"
                lines.append(f"| {s.setup.difficulty} | {s.policy} | {taken} |")
            lines.append("")
    lines += [
        f"Every game's record is in {GAMES_FOLDER}/, one file a row (GAME_DIFFICULTY_POLICY.jsonl): "
        "`lobo-hint replay` and `lobo-hint analyse` read them, and `lobo-hint report --resume` goes on "
        "from them after a report cut short.",
        "",
    ]
    lines += ["## Plots", ""]
    for f in files:
        caption = _caption(f.stem)
        lines += [f"![{caption}]({f.name})", "", f"*{caption}*", ""]
    lines += [
        "## The policies",
        "",
        "* random — uniform over the legal plays, never folding while another play exists; a random reward.",
        f"* {GREEDY_RULE}",
        f"* {BEST_RULE}" + (f" This report: {samples} samples." if samples else ""),
        f"* {HINT_RULE}" + (f" This report: {hint_budget}." if hint_budget else ""),
        f"* {CLAIRVOYANT_RULE}",
        "",
    ]
    return "\n".join(lines)
