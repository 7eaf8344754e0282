"""The companion's files: a whole game saved as JSON and read back (every step checked again),
the position in play exported in the FORMAT.md form, and files written whole or not at all.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from solver.core import jsonio
from solver.core.files import write_whole
from solver.core.jsonio import Unreadable, json_error, read_text, shown_path
from solver.play.driver import (
    PLAY,
    REWARD,
    Deal,
    Draw,
    GameError,
    Playthrough,
    Reshuffle,
    SeededDeck,
    Setup,
    Table,
    new_table,
    seed_from_json,
    step_from_json,
    step_text,
    step_to_json,
)
from solver.words.numbers import count_text

from .parse import CompanionError
from .prose import race_words, waits
from .session import Note, Reply, Session, Settings, deck_steps

SAVE_FORMAT = "lobo-hint companion game"
SAVE_VERSION = 1


def save_json(session: Session) -> dict[str, Any]:
    """The whole game: settings and every step; the end is repeated so a cut list is noticed, and
    a checksum of it all is kept so that an edited file is noticed too."""
    t = session.table
    out: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "setup": session.setup.to_json(),
        "mode": "virtual" if session.virtual else "physical",
        "seed": session.seed,
        "steps": [step_to_json(s) for s in session.game.steps],
        "end": {"steps": len(session.game.steps), "round": t.rounds, "phase": t.phase},
    }
    out["checksum"] = checksum(out)
    return out


SAVE_KEYS = {"format", "version", "setup", "mode", "seed", "steps", "end", "checksum"}
CHECKED = ("setup", "mode", "seed", "steps", "end")  # what a save's checksum covers


def checksum(raw: dict[str, Any]) -> str:
    """SHA-256 of what decides the game (setup, mode, seed, steps, end), as canonical JSON: a play
    changed for another that draws the same cards, steps dropped with the end lowered to match, the
    mode or a ruling changed all change it."""
    canonical = json.dumps({k: raw.get(k) for k in CHECKED}, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def load_json(raw: Any, settings: Settings | None = None) -> Session:
    """A session from a save file's JSON, every step checked again (and, for a virtual game,
    every card against the seeded deck). CompanionError says what is wrong, in one line."""
    if not isinstance(raw, dict) or raw.get("format") != SAVE_FORMAT:
        raise CompanionError('not a saved lobo-hint game (no "format": "lobo-hint companion game")')
    unknown = sorted(set(raw) - SAVE_KEYS)
    if unknown:
        raise CompanionError(f"unknown key {unknown[0]!r}")
    if raw.get("version") != SAVE_VERSION or isinstance(raw.get("version"), bool):  # true == 1 in Python
        raise CompanionError(f"version {raw.get('version')!r} is not one this lobo-hint reads ({SAVE_VERSION})")

    mode, seed = raw.get("mode"), raw.get("seed")
    if mode not in ("virtual", "physical"):
        raise CompanionError('mode: must be "virtual" or "physical"')
    if mode == "virtual":
        try:
            seed_from_json(seed)
        except GameError as e:
            raise CompanionError(f"{e} (a virtual game needs its seed)") from None
    if mode == "physical" and seed is not None:
        raise CompanionError("seed: a physical game has no seed (null)")
    steps_raw, end = raw.get("steps"), raw.get("end")
    if not isinstance(steps_raw, list):
        raise CompanionError("steps: must be a list")
    if not isinstance(end, dict) or not isinstance(end.get("steps"), int):
        raise CompanionError('end: must be {"steps": N, "round": R, "phase": P}')
    try:
        setup = Setup.from_json(raw.get("setup"))
        steps = [step_from_json(s) for s in steps_raw]
    except GameError as e:
        raise CompanionError(str(e)) from None
    session = Session(
        Playthrough.start(new_table(setup)), seed=seed if mode == "virtual" else None, settings=settings or Settings()
    )
    deck = session.deck()
    game = session.game
    for i, step in enumerate(steps, start=1):
        if deck is not None and isinstance(step, (Deal, Draw, Reshuffle)) and deck.next_step(game.table) != step:
            raise CompanionError(
                f"step {i} ({step_text(step, game.table)}): the seeded deck of this game gives {_dealt(deck, game.table)}"
            )
        try:
            game = game.then(step)
        except GameError as e:
            raise CompanionError(f"step {i} ({step_text(step, game.table)}): {e}") from None
    t = game.table
    got = {"steps": len(steps), "round": t.rounds, "phase": t.phase}
    if any(end.get(k) != v for k, v in got.items()):
        raise CompanionError(
            f"the steps lead to {_at(got)}, but the file's end says {_at(end)}: the step list was cut or edited"
        )
    # Last: an edit that still replays (a play changed for another that draws the same cards,
    # steps dropped with the end lowered to match, the mode or a ruling changed) is told by the
    # checksum. A save from before checksums has none, and loads.
    if "checksum" in raw and raw["checksum"] != checksum(raw):
        raise CompanionError(
            "the file was changed after it was saved (its checksum does not match its setup and steps); "
            'to load it as it is now, delete its "checksum" line'
        )
    session = replace(session, game=game, saved=game.steps)
    session, _ = deck_steps(session)  # an older save may stop before a deal
    return session


def _at(end: dict[str, Any]) -> str:
    """Where a game stands, in words (found by a review: the message showed two Python dicts)."""
    return f"step {end.get('steps')} (round {end.get('round')}, phase {end.get('phase')})"


def _dealt(deck: SeededDeck, t: Table) -> str:
    step = deck.next_step(t)
    return "nothing here (it waits for the Player)" if step is None else step_text(step, t)


def _json_lines(text: str) -> int:
    """How many lines of JSON the text is, where it is two or more and every line is one (else 0)."""
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        return len(lines) if len(lines) > 1 and all(isinstance(jsonio.loads(x), dict) for x in lines) else 0
    except (json.JSONDecodeError, RecursionError):
        return 0


def load_text(text: str, settings: Settings | None = None) -> Session:
    try:
        raw = jsonio.loads(text)
    except json.JSONDecodeError as e:
        lines = _json_lines(text)
        if lines:  # (found by a review: a simulate --games-out file was called broken)
            raise CompanionError(
                f"{count_text(lines, 'line')} of JSON, one game a line (as simulate --games-out writes), not one saved"
                " game: `lobo-hint replay FILE --game N` replays one of them, `lobo-hint analyse` analyses them"
            ) from None
        raise CompanionError(f"not valid JSON: {json_error(e)}; cut short or edited?") from None
    except RecursionError:
        raise CompanionError("not valid JSON: nested too deeply") from None
    try:
        return load_json(raw, settings)
    except RecursionError:
        raise CompanionError("nested too deeply") from None


def load_file(path: str | Path, settings: Settings | None = None) -> Session:
    """A saved game from its file; CompanionError names the file and the fault."""
    p = Path(path)
    try:
        text = read_text(path)  # as given: Path('') would be the current folder
    except Unreadable as e:
        raise CompanionError(f"{shown_path(path)}: cannot read: {e}") from None
    try:
        session = load_text(text, settings)
    except CompanionError as e:
        raise CompanionError(f"{p}: {e}") from None
    return replace(session, save_path=str(p))


def write_atomic(path: str | Path, text: str) -> None:
    """A saved game's file written whole or not at all (solver/core/files.py)."""
    write_whole(path, text)


def _write(path: str, text: str) -> None:
    try:
        write_atomic(path, text)
    except OSError as e:
        raise CompanionError(f"cannot write {shown_path(path)}: {e.strerror or e}") from None
    except ValueError:  # a NUL byte in the name
        raise CompanionError(f"cannot write {shown_path(path)}: the name holds a NUL byte") from None


def _held(path: str) -> str | None:
    """What a file the companion would write over holds: "save" (a saved game), "other", or None
    (nothing: no file, or an empty one)."""
    p = Path(path)
    try:
        if not p.is_file() or p.stat().st_size == 0:
            return None
        raw = jsonio.loads(read_text(path))
    except (OSError, Unreadable, ValueError, RecursionError):
        return "other"
    return "save" if isinstance(raw, dict) and raw.get("format") == SAVE_FORMAT else "other"


def save(session: Session, path: str | None) -> Reply:
    path = path or session.save_path
    if path is None:
        raise CompanionError("save needs a file name: save game.json")
    if _held(path) == "other":  # found by a review: an export, a notes file, written over without a word
        raise CompanionError(f"{shown_path(path)} holds something other than a saved game: save to another file")
    _write(path, json.dumps(save_json(session), indent=1) + "\n")
    after = replace(session, saved=session.game.steps, save_path=path, quitting=False)
    n = len(session.game.steps)
    # Saved over the same file after an undo: the steps taken back since are gone from it too.
    dropped = len(session.saved) - n if path == session.save_path and session.saved[:n] == session.game.steps else 0
    gone = (
        f"; the {count_text(dropped, 'step')} taken back since the last save {'is' if dropped == 1 else 'are'} no longer in it"
        if dropped > 0
        else ""
    )
    return Reply(
        after,
        (
            Note(
                "info",
                f"saved to {path} ({n} step{'' if n == 1 else 's'}{gone}); resume with lobo-hint play --load {path}",
            ),
        ),
    )


def export_json(session: Session) -> dict[str, Any]:
    """The position in play (or the won round whose reward is to be chosen) in the FORMAT.md form."""
    t = session.table
    if t.phase not in (PLAY, REWARD):
        raise CompanionError(f"no position to export: {waits(t)}")
    return t.position().to_json()


def export(session: Session, path: str) -> Reply:
    pos = export_json(session)
    if _held(path) == "save":  # found by a review: the game's own save written over, the game lost
        raise CompanionError(f"{shown_path(path)} holds a saved game: export the position to another file")
    _write(path, json.dumps(pos, indent=1) + "\n")
    use = "lobo-hint reward" if pos.get("phase") == "reward" else "lobo-hint"
    race = race_words(session.table)
    notes = (Note("info", f"wrote the position to {path} (try: {use} {path})"),)
    return Reply(session, notes + ((Note("info", race),) if race else ()))
