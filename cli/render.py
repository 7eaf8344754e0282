"""Rendering for people: positions, play lists and rule summaries as rich tables and panels. The
words the web page shows too (cards, the party, what a play does, the hint's columns) come from
solver/words/."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from solver.core.games import game
from solver.core.plays import Play
from solver.core.position import Position
from solver.core.rounds import final_at_deal
from solver.core.rules import State, play_effect
from solver.core.status import FinishStatus, HintStatus
from solver.finish.verify import NOTHING_TO_VERIFY
from solver.words.board import cards_text, effect_text, party_text
from solver.words.numbers import count_text

if TYPE_CHECKING:  # the searches and the finisher load only for the commands that use them
    from solver.batch.runner import BatchSummary
    from solver.finish.finisher import Finish, Judgement
    from solver.search.hint import HintResult


def final_reason(pos: Position) -> str:
    if not game(pos.game).has_final_round:
        return f"{pos.game} has no final round"
    dealt_final = final_at_deal(game(pos.game), pos.pile_size, pos.rules)  # as if the deal left this pile
    if not pos.final and not dealt_final:
        return f"no: the pile holds {pos.pile_size}, more than {pos.rules.final_threshold}; it turns final when the pile empties"
    if not pos.final:
        return "no: given as not final (the round began with a bigger pile); it turns final when the pile empties"
    if pos.pile_size == 0:
        return "yes: the pile is empty"
    if dealt_final:
        return f"yes: the pile holds {pos.pile_size} ≤ {pos.rules.final_threshold}"
    return "yes: given as final"


def position_panel(pos: Position, title: str = "Position") -> Panel:
    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold")
    t.add_column()
    t.add_row("Game", f"{pos.game}, {pos.difficulty} (A..{pos.top})")
    if pos.phase == "reward":  # the Wolf's hand is empty: the round is won
        t.add_row("Wolf", "— (the round is won: choose a reward)")
    else:
        t.add_row("Wolf", cards_text(pos.wolf) + f"   (total {sum(pos.wolf)})")
    t.add_row("You", cards_text(pos.player) + f"   (total {sum(pos.player)})")
    g = game(pos.game)
    if g.has_reserve:
        t.add_row("Reserve", cards_text(pos.reserve))
    if g.has_party:
        t.add_row("Party", party_text(pos.party))
    if g.is_race:  # what the game objective's value turns on
        t.add_row("Scores", f"you {pos.scores[0]}, the Wolf {pos.scores[1]} (the first to {g.target} wins)")
    pile = count_text(pos.pile_size)
    if pos.pile_top:
        pile += f", known top (top first): {cards_text(pos.pile_top)}"
    t.add_row("Draw pile", pile)
    unseen = pos.unseen
    t.add_row(
        "Unseen", "  ".join(f"{v}×{n}" for v, n in enumerate(unseen, start=1) if n) + f"   ({count_text(sum(unseen))})"
    )
    if pos.discard:
        t.add_row("Discards", cards_text(pos.discard))
    if g.has_final_round:
        t.add_row("Final round", final_reason(pos))
    t.add_row("Objective", pos.objective)
    return Panel(t, title=title, expand=False)


def plays_table(state: State, plays: Sequence[Play]) -> Table:
    t = Table(title="Legal plays", title_justify="left")
    t.add_column("Kind", style="bold")
    t.add_column("Play")
    t.add_column("Then")
    last = None
    for p in plays:
        t.add_row(p.kind.title() if p.kind != last else "", str(p), effect_text(play_effect(state, p), state))
        last = p.kind
    return t


def rules_group(game: str, sections: list[tuple[str, list[str]]]) -> Group:
    parts: list[Text | Panel] = [
        Text(f"Rules of {game} as lobo-hint plays them (full text: docs/rules.md)", style="bold")
    ]
    for heading, lines in sections:
        parts.append(Panel(escape("\n".join(f"• {line}" for line in lines)), title=escape(heading), title_align="left"))
    return Group(*parts)


def console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


@contextmanager
def progress(enabled: bool = True) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr over the plays being valued; nothing when stderr is not a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    with Progress(
        TextColumn("valuing plays"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("plays", total=None)

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield report


STATUS_COLOUR = {HintStatus.PROVEN_WON: "green", HintStatus.PROVEN_LOST: "red"}


def _coloured(text: str, colour: str | None) -> str:
    return f"[{colour}]{text}[/{colour}]" if colour else text


def hint_view(pos: Position, result: HintResult, reason: str) -> Group:
    from solver.words.hint import (  # loads the search: only for a hint
        STATUS_WORDS,
        estimates_note,
        hint_columns,
        mark_text,
        ties_note,
        why_not_exact,
    )

    columns, cells = hint_columns(pos.game, result, result.moves)
    t = Table(title_justify="left")
    t.add_column("Play", style="bold")
    for title in columns:
        t.add_column(title, justify="right")
    t.add_column("")
    top = next((m for m in result.moves if m.play == result.best), None)
    for m, row in zip(result.moves, cells, strict=True):
        marks = []
        if mark := mark_text(m, top):
            marks.append(f"[green]{mark}[/green]")
        if m.blunder and (m.play == result.best or m.tied):
            # Not a blunder beside "best" (found by a review): the game is as good either way.
            marks.append("[yellow]gives up a round won for certain, as good for the game[/yellow]")
        elif m.blunder:
            marks.append("[red]blunder: gives up a round won for certain[/red]")
        t.add_row(str(m.play), *row, " ".join(marks))
    lines: list[Text | Table | str] = []
    best_text = "fold" if result.best is None else str(result.best)
    lines.append(
        Text.from_markup(
            f"[bold]Best play: {escape(best_text)}[/bold]   status: {_coloured(STATUS_WORDS[result.status], STATUS_COLOUR.get(result.status))}"
            + ("" if result.exact else f"   [yellow](not exact: {why_not_exact(result)})[/yellow]")
        )
    )
    if reason:
        lines.append(Text(reason))
    if result.finish is not None and result.finish.status == FinishStatus.WIN:
        lines.append(Text(f"Best finish: {', '.join(map(str, result.finish.plays))}  → score {result.finish.score}"))
    if result.line is not None and result.finish is None:
        lines.append(Text(f"Best line (the pile is known): {', '.join(map(str, result.line))}"))
    if result.proof is not None:
        lines.append(
            Text(
                f"Proof: {result.proof.get('reason', '')}"
                + (_proof_cards(result.proof["wolf"]) if "wolf" in result.proof else "")
            )
        )
    if result.note:
        lines.append(Text(f"Note: {result.note}", style="yellow"))
    lines.append(t)
    for note in (ties_note(result.moves, top), estimates_note(result.moves)):
        if note:
            lines.append(Text(note, style="dim"))
    stats = result.stats
    if stats.get("states"):  # none where no search ran (a lone fold, a round lost at a glance)
        lines.append(
            Text(
                f"{stats['states']} states, {stats['cache_hits']} cache hits, {stats['chance_nodes']} chance "
                f"nodes, {stats['seconds']} s",
                style="dim",
            )
        )
    return Group(*lines)


def _proof_cards(wolf: list[int]) -> str:
    return f" (the Wolf's {wolf[0]})" if len(wolf) == 1 else f" (Wolf cards {', '.join(map(str, wolf))})"


def finish_view(f: Finish) -> Group:
    parts: list[Text | Table] = []
    if f.status == FinishStatus.WIN:
        parts.append(Text.from_markup(f"[bold green]Finish: {escape(', '.join(map(str, f.plays)))}[/bold green]"))
        reserve = sum(f.reserve_left) if f.stats.get("reserve_scores") else 0
        made = f"hand {sum(f.hand_left)} ({cards_text(f.hand_left)}) + party {len(f.members_left)}×10"
        if reserve:
            made += f" + reserve {reserve}"
        parts.append(Text(f"Score {f.score} = {made}" + ("" if f.exact else "  (best found: not proven optimal)")))
        if f.alternatives is not None:
            sacrifices = any(p.kind == "sacrifice" for p in f.plays)
            if f.alternatives == 0 and f.alternatives_capped:
                # Found by a review: "the only finish" where the count had not begun.
                line = "Other finishes with this score: not counted before the time limit ran out."
            elif f.alternatives == 0:
                line = "The only finish with this score" + (
                    " (whichever members are sacrificed)." if sacrifices else "."
                )
            else:
                more = "+" if f.alternatives_capped else ""
                one = f.alternatives == 1 and not more
                line = f"{f.alternatives}{more} other {'finish reaches' if one else 'finishes reach'} the same score"
                line += " (which members are sacrificed not counted)." if sacrifices else "."
            parts.append(Text(line))
    elif f.status == FinishStatus.LOST:
        assert f.proof is not None
        parts.append(Text.from_markup("[bold red]No finish exists: the round is lost.[/bold red]"))
        cards = (
            f"the Wolf's {f.proof.wolf[0]} cannot be covered"
            if len(f.proof.wolf) == 1
            else f"Wolf cards {', '.join(map(str, f.proof.wolf))} cannot all be covered"
        )
        shown = (
            ""
            if f.proof.minimal
            else " (a smaller set of Wolf cards may prove it too: time ran out before that was checked)"
        )
        parts.append(Text(f"Proof: {cards}: {f.proof.reason}.{shown}"))
    else:
        parts.append(Text("No answer within the time limit (not exact): try a larger --time-limit.", style="yellow"))
    return Group(*parts)


def check_view(v: Judgement) -> Group:
    parts: list[Text] = []
    for i, p in enumerate(v.plays):
        if v.bad_index is not None and i == v.bad_index:
            parts.append(
                Text.from_markup(f"  {i + 1}. {escape(str(p))}  [red]illegal: {escape(v.bad_reason or '')}[/red]")
            )
            break
        parts.append(Text.from_markup(f"  {i + 1}. {escape(str(p))}  [green]legal[/green]"))
    if not v.legal:
        parts.append(Text("The finish is illegal.", style="red"))
    elif any(p.kind == "fold" for p in v.plays):
        parts.append(
            Text("Every play is legal, but the finish folds: the final round is lost, and the game.", style="yellow")
        )
    elif not v.clears:
        parts.append(Text("Every play is legal, but the Wolf still holds cards: the round is not won.", style="yellow"))
    else:
        parts.append(Text(f"Clears the Wolf: score {v.score}.", style="green"))
    if v.best.status == FinishStatus.WIN:
        parts.append(
            Text(
                f"Best score: {v.best.score}"
                + ("" if v.optimal is not False else f"; a better finish: {', '.join(map(str, v.best.plays))}")
            )
        )
        if v.optimal:
            parts.append(Text("Optimal.", style="bold green"))
        elif v.optimal is None:
            parts.append(
                Text(
                    "As good as the best found, but the time limit cut the search short: maybe optimal.", style="yellow"
                )
            )
    elif v.best.status == FinishStatus.LOST and v.best.proof is not None:
        parts.append(Text(f"No finish exists: {v.best.proof.reason}."))
    else:
        # Found by a review: nothing was said of the best score where the clock left it unknown.
        found = f"at least {v.score}" if v.clears and v.score is not None and v.legal else "unknown"
        parts.append(
            Text(f"Best score: {found}: the time limit ran out before a best finish was found.", style="yellow")
        )
    return Group(*parts)


def verdict(problems: list[str] | str, checked: list[str] | None = None) -> Text:
    """--verify's outcome; checked: what was re-checked (None: the answer as a whole); problems a
    string: why the brute force neither verified nor refuted the answer."""
    if isinstance(problems, str):
        return Text(problems[0].upper() + problems[1:] + ".", style="yellow")
    if not problems and checked == []:
        return Text(NOTHING_TO_VERIFY.capitalize() + ".", style="yellow")
    if not problems:
        what = "" if checked is None else ": " + ", ".join(checked)
        return Text(f"Verified independently (brute force){what}.", style="bold green")
    return Text("VERIFY FAILED: " + "; ".join(problems), style="bold red")


class RateColumn(ProgressColumn):
    """Puzzles per second."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text("  ?/s" if speed is None else f"{speed:5.1f}/s")


@contextmanager
def batch_progress(total: int, enabled: bool = True, doing: str = "solving") -> Iterator[Callable[[Any], None]]:
    """Done / total, rate and time left on stderr, when stderr is a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield lambda _record: None
        return
    columns = (
        TextColumn(doing),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TextColumn("elapsed"),  # each time said by its word before it (a review: "0:00:10 left 0:00:02")
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("puzzles", total=total)
        yield lambda _record: bar.advance(task)


def batch_summary(summary: BatchSummary) -> Table:
    s = summary.to_json()
    t = Table(title="Batch summary", title_justify="left")
    t.add_column("")
    t.add_column("", justify="right")
    for label, key in (
        ("puzzles", "total"),
        ("solved", "solved"),
        ("won / proven won", "proven_won_or_won"),
        ("lost / proven lost", "proven_lost_or_lost"),
        ("open (neither proven)", "open"),
        ("not exact (a budget, or rounds after estimated)", "not_exact"),
        ("invalid", "invalid"),
        ("errors", "errors"),
        ("expected answer matched (--check: a mismatch exits 1)", "matched"),
        ("mismatched", "mismatched"),
        ("of them answered before (--resume)", "skipped_by_resume"),
    ):
        t.add_row(label, str(s[key]))
    t.add_row("time p50 / p95 / max", f"{s['seconds_p50']:.3f} / {s['seconds_p95']:.3f} / {s['seconds_max']:.3f} s")
    return t
