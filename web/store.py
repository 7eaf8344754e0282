"""The games a server follows: companion sessions, each saved as the companion's save file.

Every game is a file GAME_ID.json in the games folder, in exactly the form `play`'s `save`
writes and `play --load` reads, rewritten atomically after every step; a server started on the
same folder resumes every game, and its last analysis (GAME_ID.analysis, the page's form of
web/analysis.py) with it. A change is refused, and nothing changes, unless the caller names
the step number (and revision) it saw: two pages on one game cannot step over each other.
"""

from __future__ import annotations

import contextlib
import errno
import json
import re
import secrets
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from solver.play.board import revision
from solver.play.companion import (
    CompanionError,
    HintNote,
    Note,
    Session,
    Settings,
    cut,
    cut_echoes,
    load_file,
    load_text,
    parse_command,
    save_json,
    start,
    take_step,
    undo,
    where_it_stands,
    write_atomic,
)
from solver.play.driver import GameError, Setup, Step, step_to_json
from web.analysis import FORMAT as ANALYSIS_FORMAT

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_UNDO = 1000


MAX_MESSAGE = 400  # characters of a refusal
# Characters of a step's line: the longest step there is, a deal of a whole deck with suits, is a
# few hundred; a longer line is refused before it is read (and an echo of it is cut).
MAX_LINE = 1000
# Save failures that are a full disk or quota (507 Insufficient Storage); any other failure to
# write (a folder made read-only, removed, a disk failing) is the server's own fault (500).
NO_SPACE = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})


class WebError(Exception):
    """A request refused: the HTTP status and one sentence saying why."""

    def __init__(self, status: int, message: str) -> None:
        if len(message) > MAX_MESSAGE:  # a refusal that quotes a huge input need not send it back
            message = message[: MAX_MESSAGE - 1] + "…"
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Entry:
    id: str
    session: Session
    notes: tuple[Note, ...] = ()  # what the last change said, for every page that shows the game
    updated: float = field(default_factory=time.time)
    # The last analysis made of the game (web/analysis.py's form). It is kept when steps it covered
    # are taken back, so that the same steps made again bring it back.
    made: dict[str, Any] | None = None

    @property
    def analysis(self) -> dict[str, Any] | None:
        """The analysis of this game: the last one made, if its steps are the game's first steps."""
        return self.made if self.made is not None and self.fits(self.made) else None

    @property
    def analysis_outdated(self) -> bool:
        """Whether an analysis was made and steps it covered are now taken back."""
        return self.made is not None and not self.fits(self.made)

    def fits(self, a: dict[str, Any]) -> bool:
        """Whether an analysis is of this game: its steps are the game's first steps."""
        steps = a.get("steps", [])
        game = self.session.game.steps
        return (
            isinstance(steps, list)
            and len(steps) <= len(game)
            and steps == [step_to_json(x) for x in game[: len(steps)]]
        )

    @property
    def revision(self) -> str:
        return revision(self.session)


def save_text(session: Session) -> str:
    """The save file's text: what the companion's `save FILE` writes."""
    return json.dumps(save_json(session), indent=1) + "\n"


class Store:
    def __init__(self, folder: str | Path, settings: Settings | None = None) -> None:
        self.folder = Path(folder).expanduser()
        self.settings = settings or Settings()
        self.skipped: list[str] = []  # one line per file in the folder that could not be resumed
        self._lock = threading.RLock()
        self._games: dict[str, Entry] = {}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise WebError(500, f"cannot make the games folder {self.folder}: {e.strerror or e}") from None
        for path in sorted(self.folder.glob("*.json")):
            if not GAME_ID.fullmatch(path.stem):
                self.skipped.append(f"{path}: not a game id (letters, digits, - and _): left as it is")
                continue
            try:
                session = load_file(path, self.settings)
            except CompanionError as e:
                self.skipped.append(f"{e}: left as it is")
                continue
            note = Note("info", f"resumed: {where_it_stands(session.table, len(session.game.steps))}")
            self._games[path.stem] = Entry(
                path.stem, session, (note,), path.stat().st_mtime, self._read_analysis(path.stem)
            )

    # -- reading -------------------------------------------------------------------------------

    def get(self, game_id: str) -> Entry:
        with self._lock:
            entry = self._games.get(game_id) if GAME_ID.fullmatch(game_id) else None
            if entry is None:
                raise WebError(404, f"no game {game_id!r} on this server (it may have been deleted)")
            return entry

    def entries(self) -> list[Entry]:
        with self._lock:
            return sorted(self._games.values(), key=lambda e: -e.updated)

    def path(self, game_id: str) -> Path:
        return self.folder / f"{game_id}.json"

    def analysis_path(self, game_id: str) -> Path:
        return self.folder / f"{game_id}.analysis"

    def _read_analysis(self, game_id: str) -> dict[str, Any] | None:
        """A game's kept analysis; None when there is none or it cannot be read (it is only made again)."""
        try:
            raw = json.loads(self.analysis_path(game_id).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return None
        return raw if isinstance(raw, dict) and raw.get("format") == ANALYSIS_FORMAT else None

    # -- changes -------------------------------------------------------------------------------

    def _new_id(self) -> str:
        while True:
            game_id = secrets.token_urlsafe(8)
            if game_id not in self._games and not self.path(game_id).exists():
                return game_id

    def _commit(self, game_id: str, session: Session, notes: tuple[Note, ...]) -> Entry:
        """Save the session, then make it the game's: a save that fails changes nothing. A hint
        given before does not follow (a table taken back and played again to the same step
        number is not the table it was given for)."""
        session = replace(session, last_hint=None)
        try:
            write_atomic(self.path(game_id), save_text(session))
        except OSError as e:
            raise WebError(
                507 if e.errno in NO_SPACE else 500,
                f"cannot save the game to {self.path(game_id)}: {e.strerror or e}; nothing changed",
            ) from None
        before = self._games.get(game_id)
        entry = Entry(game_id, session, notes, made=before.made if before is not None else None)
        self._games[game_id] = entry
        return entry

    def create(self, setup: Setup, seed: int | None) -> Entry:
        with self._lock:
            reply = start(setup, seed, self.settings)
            return self._commit(self._new_id(), reply.session, reply.notes)

    def upload(self, text: str) -> Entry:
        """A game from a save file's text (what `play --load` reads), as a new game."""
        with self._lock:
            try:
                session = load_text(text, self.settings)
            except CompanionError as e:
                raise WebError(400, f"the uploaded file is not a game this server can resume: {e}") from None
            note = Note("info", f"uploaded: {where_it_stands(session.table, len(session.game.steps))}")
            return self._commit(self._new_id(), replace(session, save_path=None), (note,))

    def check(self, entry: Entry, at: Any, rev: Any) -> None:
        """Refuse a change asked from a page that shows another step of the game than its own."""
        n = len(entry.session.game.steps)
        if not isinstance(at, int) or isinstance(at, bool):
            raise WebError(400, 'name the step number the page shows ("at": a whole number)')
        if at != n:
            raise WebError(
                409, f"stale page: it shows step {at}, but the game is at step {n} (changed elsewhere); nothing changed"
            )
        # Both are required: a step number alone is the same after a step taken back and another
        # taken (found by a review: a page that left out "rev" changed a game it did not show).
        if not isinstance(rev, str):
            raise WebError(400, 'name the revision the page shows ("rev": the board\'s "revision", a string)')
        if rev != entry.revision:
            raise WebError(
                409, "stale page: the game was changed elsewhere (a step taken back and another taken); nothing changed"
            )

    def step(self, game_id: str, at: Any, rev: Any, line: Any) -> Entry:
        """One step in the companion's words (a play, a deal, a draw, a reward, a reshuffle)."""
        with self._lock:
            entry = self.get(game_id)
            self.check(entry, at, rev)
            if not isinstance(line, str) or not line.strip():
                raise WebError(
                    400, 'name the step ("line": a play like 4+2=6, deal ... / ..., draw 5, reserve 5, revive J)'
                )
            if len(line.strip()) > MAX_LINE:
                raise WebError(
                    400, f"{cut(line.strip())!r} is not a step of the game: a step is at most {MAX_LINE} characters"
                )
            session = entry.session
            try:
                cmd = parse_command(line, session.setup)
                if cmd.word != "step" or cmd.step is None:
                    raise CompanionError(
                        f"{line.strip()!r} is not a step of the game (a play, deal, draw, reward or reshuffle)"
                    )
                reply = take_step(session, cmd.step, said=cmd.said)
            except (CompanionError, GameError) as e:
                raise WebError(400, cut_echoes(str(e), line)) from None
            return self._commit(game_id, reply.session, reply.notes)

    def undo(self, game_id: str, at: Any, rev: Any, count: Any = 1) -> tuple[Entry, tuple[Step, ...]]:
        """Take back steps; the entry after, and the steps taken back."""
        with self._lock:
            entry = self.get(game_id)
            self.check(entry, at, rev)
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_UNDO:
                raise WebError(400, f'"count": the number of steps to take back, 1 to {MAX_UNDO}')
            try:
                reply = undo(entry.session, count)
            except CompanionError as e:
                raise WebError(400, str(e)) from None
            taken = entry.session.game.steps[len(reply.session.game.steps) :]
            return self._commit(game_id, reply.session, reply.notes), taken

    def attach_hint(self, game_id: str, rev: str, note: HintNote) -> None:
        """A finished hint joins its game, if the game is still at the table it was asked for
        (it is not saved: a save file holds the game, not the advice)."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is not None and entry.revision == rev:
                entry.session = replace(entry.session, last_hint=note)

    def attach_analysis(self, game_id: str, analysis: dict[str, Any]) -> None:
        """A finished analysis joins its game, if it is of the game as it is now or was, and is
        kept beside its save file (a failed write only costs an analysis made again)."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None or entry.made is analysis or not entry.fits(analysis):
                return
            entry.made = analysis
            with contextlib.suppress(OSError):  # a failed write only costs an analysis made again
                write_atomic(self.analysis_path(game_id), json.dumps(analysis) + "\n")

    def delete(self, game_id: str) -> None:
        with self._lock:
            self.get(game_id)
            try:
                self.analysis_path(game_id).unlink(missing_ok=True)
                self.path(game_id).unlink(missing_ok=True)
            except OSError as e:
                raise WebError(500, f"cannot delete {self.path(game_id)}: {e.strerror or e}") from None
            del self._games[game_id]


__all__ = ["GAME_ID", "MAX_LINE", "Entry", "Store", "WebError", "save_text"]
