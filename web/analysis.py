"""The analysis of a game as the page shows it: the summary, the plot (SVG text), each decision
with the table as it was and the hint that would have been given, in words. Made once, where the
analysis ran (web/hints.py's worker), and kept with the game by the store."""

from __future__ import annotations

import io
from typing import Any

from solver.core.games import game
from solver.play.analysis import Analysis, Chance, Decision
from solver.play.analysis_plot import figure
from solver.play.driver import Table, step_to_json
from solver.words.board import cards_text
from solver.words.numbers import chance_text, count_text, gap_spec, gap_text

FORMAT = "lobo-hint page analysis"
PHONE_PLOT = (4.2, 3.6)  # inches: about the pixels of a phone's page, so labels keep their size
PHONE_LABELS = 8.0  # points
HINT_ROWS = 6  # the hint's best options shown on a tap (and the one played, if lower)


def _pct(c: Chance, spec: str = ".1f") -> str:
    return chance_text(c.value, c.low, c.high, c.exact, spec)


def _table_text(t: Table) -> str:
    parts = [f"you {cards_text(t.hand)}"]
    if t.reserve:
        parts.append(f"reserve {cards_text(t.reserve)}")
    if t.phase != "reward":
        parts.append(f"the Wolf {cards_text(t.wolf)}")
    if game(t.setup.game).has_party:
        parts.append(f"party {' '.join(t.party) or '—'}")
    parts.append(f"pile {t.pile_size}")
    return " · ".join(parts)


def _decision(d: Decision, t: Table) -> dict[str, Any]:
    what = "took" if d.kind == "reward" else "played"
    if d.played == d.best:
        verdict = f"You {what} {d.played} ({_pct(d.chance_played)}), the hint's choice too."
    else:
        spec = gap_spec(d.chance_best.value, d.chance_played.value)
        verdict = (
            f"You {what} {d.played} ({_pct(d.chance_played, spec)}); the hint: {d.best} ({_pct(d.chance_best, spec)}), "
            f"{gap_text(d.chance_best.value, d.chance_played.value, spec)} points more"
            + ("" if d.apart else ", within the estimates' uncertainty")
            + "."
        )
    return {
        **d.to_json(),
        "table": {
            "hand": list(t.hand),
            "wolf": list(t.wolf),
            "reserve": list(t.reserve),
            "party": list(t.party),
            "pile": t.pile_size,
        },
        "table_text": _table_text(t),
        "verdict": verdict,
        "played_text": _pct(d.chance_played),
        "best_text": _pct(d.chance_best),
        "hint_rows": _hint_rows(d),
    }


def _hint_rows(d: Decision) -> list[dict[str, Any]]:
    """The hint as it would have been given: its best options with their chances, best first,
    and the option played wherever it ranked."""
    return [
        {"rank": i + 1, "option": text, "chance_text": _pct(c), "played": text == d.played, "best": i == 0}
        for i, (text, c) in enumerate(d.choices)
        if i < HINT_ROWS or text == d.played
    ]


def page_analysis(a: Analysis) -> dict[str, Any]:
    """Everything the page shows of an analysis, JSON-ready (the SVG as text)."""
    svg = io.BytesIO()
    figure(a, PHONE_PLOT, PHONE_LABELS).savefig(svg, format="svg")
    s = a.summary()
    start = s["start_chance"]
    lines = [
        f"Chance to win before the first deal: {'—' if start is None else f'{100 * start:.1f}%'}",
        f"Lost by decisions: {s['total_loss']:.1f} points over {count_text(s['decisions'], 'decision')} "
        + (
            "(no decision could matter)"
            if s["error_rate"] is None
            else f"(error rate {s['error_rate']:.2f} an unforced decision)"
        ),
        f"Luck of the cards: {s['total_luck']:+.1f} points",
        "Marks: "
        + ", ".join(f"{n} {m}" for m, n in s["marks"].items())
        + (f" ({s['marks_not_told_apart']} not told apart: ≈)" if s["marks_not_told_apart"] else ""),
    ]
    if s["decisive"] is not None:
        d = s["decisive"]
        lines.append(f"The decisive moment: step {d['number']}, {d['text']} ({d['points']:+.1f} points)")
    return {
        "format": FORMAT,
        "at": len(a.game.steps),
        "steps": [step_to_json(x) for x in a.game.steps],
        "seconds": a.budget.time_limit,
        "summary": s,
        "summary_lines": lines,
        "decisions": [_decision(d, a.game.tables[d.step]) for d in a.decisions],
        "luck": [x.to_json() for x in a.luck],
        "svg": svg.getvalue().decode("utf-8"),
    }


__all__ = ["FORMAT", "page_analysis"]
