"""A played game read back from any file lobo-hint writes of one: a companion save (terminal or
phone page), a `simulate --games-out` line, or a game as {"setup": ..., "steps": [...]}
(Playthrough.to_json). Every step is replayed and checked; a record's cards against its seeded
deck too. A file of many games (.jsonl) is read a line at a time, a bad line reported and passed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from solver.core import jsonio
from solver.core.jsonio import Unreadable, read_text, shown_path
from solver.play.analysis import PlayedGame
from solver.play.companion import SAVE_FORMAT, CompanionError, load_json
from solver.play.driver import GameError, Playthrough
from solver.play.simulate import GameRecord, replay_record

BIG_FILE = 1024**3  # a file of many games is read a line at a time, up to this size a line


class GameFileError(ValueError):
    """A file or a line that is not a game this program can replay: one line, where and why."""


def game_from_json(raw: Any, where: str) -> PlayedGame:
    """The game in one JSON value; GameFileError names `where` and the fault."""
    try:
        if not isinstance(raw, dict):
            raise GameError("not a game: a JSON object is expected")
        if raw.get("format") == SAVE_FORMAT:
            return PlayedGame(load_json(raw).game, where)
        if "player" in raw or "wolf" in raw:
            ask = (
                "`lobo-hint reward POSITION.json` ranks its rewards"
                if raw.get("phase") == "reward"
                else "`lobo-hint POSITION.json` gives its best play"
            )
            raise GameError(
                f"a position, not a game (the kind `export` writes): {ask};"
                " to analyse a game, `save` it in `play` (or download it from the phone page) and analyse that"
            )
        if "deal_seed" in raw or {"game", "seed", "result"} <= set(raw):
            record = GameRecord.from_json(raw)
            return PlayedGame(replay_record(record), where, record.index, record.policy or None)
        if "steps" in raw and "setup" in raw:
            return PlayedGame(Playthrough.from_json(raw), where)
        raise GameError(
            'not a game: a companion save ("format"), a simulate --games-out record or {"setup": ..., "steps": [...]}'
        )
    except (GameError, CompanionError) as e:
        raise GameFileError(f"{where}: {e}") from None
    except RecursionError:
        raise GameFileError(f"{where}: nested too deeply") from None


def read_games(path: str) -> Iterator[PlayedGame | GameFileError]:
    """Every game in a file, in order: one JSON document, or one JSON value a line. A line that is
    not a game comes as its GameFileError and the rest are still read; a file that cannot be read
    at all raises GameFileError."""
    shown = shown_path(path)
    try:
        text: str | None = read_text(path)
    except Unreadable as e:
        if not str(e).startswith(("larger than", "not UTF-8")):
            raise GameFileError(f"{shown}: cannot read: {e}") from None
        text = None  # too big for one document, or a line that is not text: a file of many games
    if text is not None:
        try:
            raw = jsonio.loads(text)
        except json.JSONDecodeError as e:
            if not _lines_of_json(text):
                raise GameFileError(f"{shown}: not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
        except RecursionError:
            raise GameFileError(f"{shown}: nested too deeply") from None
        else:
            yield _one(raw, shown)
            return
    yield from _lines(path, shown)


def _lines_of_json(text: str) -> bool:
    """Whether a text that is not one JSON document is one a line: one of its first lines is a
    whole JSON object (a save cut short is not; a file of games with a torn line is)."""
    lines = [line for line in text.splitlines() if line.strip()][:3]
    for line in lines:
        try:
            if isinstance(jsonio.loads(line), dict):
                return True
        except (json.JSONDecodeError, RecursionError):
            continue
    return False


def _one(raw: Any, where: str) -> PlayedGame | GameFileError:
    try:
        return game_from_json(raw, where)
    except GameFileError as e:
        return e


def _lines(path: str, shown: str) -> Iterator[PlayedGame | GameFileError]:
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the with below; each line decoded alone
    except OSError as e:
        raise GameFileError(f"{shown}: cannot read: {e.strerror or e}") from None
    with handle:
        n = 0
        while True:
            n += 1
            data = handle.readline(BIG_FILE)
            if not data:
                return
            try:
                line = data.decode("utf-8")
            except UnicodeDecodeError as e:
                yield GameFileError(f"{shown}:{n}: not UTF-8 text (byte {e.start})")
                continue
            if not line.strip():
                continue
            try:
                raw = jsonio.loads(line)
            except json.JSONDecodeError as e:
                yield GameFileError(f"{shown}:{n}: not valid JSON ({e.msg} at column {e.colno})")
                continue
            except RecursionError:
                yield GameFileError(f"{shown}:{n}: nested too deeply")
                continue
            yield _one(raw, f"{shown}:{n}")


__all__ = ["GameFileError", "PlayedGame", "game_from_json", "read_games"]
