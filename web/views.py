"""What the page shows of a game, as JSON: the companion's board as data (solver/play/board.py)
with the words and numbers the terminal shows, made by the same functions (solver/words/), so a
hint reads the same on the phone as in `lobo-hint play`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from solver.core.games import game
from solver.play.board import board, current_hint, hint_data, play_options
from solver.play.companion import HINT_ROWS, hint_rows, round_number, summary_lines
from solver.play.driver import PLAY, Deal, Draw, Step, waiting_for
from solver.words.board import effect_text, party_text
from solver.words.hint import STATUS_WORDS, estimates_note, hint_columns, why_not_exact
from web.hints import HintJob
from web.store import Entry


def title(entry: Entry) -> str:
    s = entry.session
    setup = s.setup
    mode = f"virtual, seed {s.seed}" if s.virtual else "real cards"
    return f"{game(setup.game).title} · {setup.difficulty} (A..{setup.top}) · {mode}"


def short_title(entry: Entry) -> str:
    """The title for a phone's narrow bar."""
    s = entry.session
    mode = f"seed {s.seed}" if s.virtual else "real cards"
    return f"{game(s.setup.game).label} · {s.setup.difficulty} · {mode}"


def game_view(entry: Entry, job: HintJob | None, whole: bool = False) -> dict[str, Any]:
    """The whole page of one game: the table, what the last change said, the hint and its job."""
    session = entry.session
    t = session.table
    data = board(session)
    if game(t.setup.game).has_party:
        data["party_text"] = party_text(t.party)
    if t.phase == PLAY and t.round is not None:
        for row, option in zip(data["plays"], play_options(t), strict=True):
            row["then"] = effect_text(option.effect, t.round)
    return {
        "id": entry.id,
        "title": title(entry),
        "short_title": short_title(entry),
        "board": data,
        # What to type next is the terminal's: the page shows buttons and a keypad instead.
        "notes": [{"kind": n.kind, "text": n.text} for n in entry.notes if n.kind != "prompt"],
        "hint": hint_view(entry, whole),
        "job": None if job is None else job.to_json(),
        "analysis": analysis_stub(entry),
        "analysis_outdated": entry.analysis_outdated,
    }


def undone_cards(taken: Sequence[Step]) -> dict[str, list[int]] | None:
    """The cards of a deal or a draw just taken back, for the page to put back in the keypad's
    slots: one wrong card is then one tap to fix, not the whole deal typed again (found by a
    review). A deal's by side, a draw's (or a revealed top card's) as `cards`. None for anything
    else (a play, a reward, several steps)."""
    if len(taken) != 1:
        return None
    step = taken[0]
    if isinstance(step, Deal):
        return {"player": list(step.player), "wolf": list(step.wolf)}
    if isinstance(step, Draw):
        return {"cards": list(step.cards)}
    return None


def analysis_stub(entry: Entry) -> dict[str, Any] | None:
    """What the game's page needs to know of its kept analysis (the whole: GET .../analysis)."""
    a = entry.analysis
    if a is None:
        return None
    return {"at": a["at"], "current": a["at"] == len(entry.session.game.steps), "summary": a["summary"]}


def hint_view(entry: Entry, whole: bool) -> dict[str, Any] | None:
    """The current hint with the terminal's columns: the value (fractions, percentages, scores as
    the CLI writes them), the 95% interval of estimates, the win chance, the bounds, the marks."""
    session = entry.session
    data = hint_data(session, whole)
    note = current_hint(session)
    if data is None or note is None:
        return None
    if note.advice is not None:  # its rows carry the terminal's texts (solver/play/board.py)
        return data
    r = note.result
    assert r is not None
    moves, _ = hint_rows(r, None if whole else HINT_ROWS)
    columns, cells = hint_columns(session.setup.game, r, moves)
    for row, row_cells in zip(data["rows"], cells, strict=True):
        row["cells"] = row_cells
    data["columns"] = columns
    data["status_text"] = STATUS_WORDS[r.status]
    # The terminal's words, without what only a terminal (or a developer) can act on: the source
    # files named, the `hint 60` command, the rulings by their keys in the save file.
    data["estimates_note"] = estimates_note(moves, sources=False)
    data["not_exact"] = None if r.exact else why_not_exact(r)  # why the chances are not exact
    longest = (r.stats.get("seconds") or 0) >= PAGE_LONGEST - 1
    data["why"] = [
        line.replace("(try hint 60)", "(30 s, the longest the page offers, was not enough)" if longest else MORE_TIME)
        for line in data["why"]
    ]
    if data["note"]:
        data["note"] = RULINGS.sub("these rulings", data["note"])
    return data


RULINGS = re.compile(r"these rulings \([^)]*\)")
PAGE_LONGEST = 30  # seconds: the longest hint the page's time picker offers (app.js)
MORE_TIME = f"(pick {PAGE_LONGEST} s beside Hint and tap Hint again)"


def summary_view(entry: Entry, job: HintJob | None) -> dict[str, Any]:
    """A game in the list of games."""
    s = entry.session
    t = s.table
    return {
        "id": entry.id,
        "title": title(entry),
        "round": round_number(t),
        "phase": t.phase,
        "next": waiting_for(t) if not t.over else f"nothing: the game is {t.result}",
        "steps": len(s.game.steps),
        "over": t.over,
        "result": summary_lines(s.game)[0] if t.over else None,
        "updated": entry.updated,
        "thinking": job is not None and job.state == "running",
    }


__all__ = ["analysis_stub", "game_view", "hint_view", "short_title", "summary_view", "title", "undone_cards"]
