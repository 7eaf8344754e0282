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
from solver.core.jsonio import Unreadable, json_error, read_text, shown_path
from solver.play.analysis import FORMAT as ANALYSIS_FORMAT
from solver.play.analysis import PlayedGame
from solver.play.companion import SAVE_FORMAT, SAVE_KEYS, SAVE_VERSION, CompanionError, load_json
from solver.play.driver import GameError, Setup, new_table, replay, seed_from_json
from solver.play.simulate import GameRecord, json_kind, replay_record, steps_from_json

BIG_FILE = 1024**3  # a file of many games is read a line at a time, up to this size a line


class GameFileError(ValueError):
    """A file or a line that is not a game this program can replay: one line, where and why
    (`where` and `fault` apart, for a caller that words it its own way)."""

    def __init__(self, where: str, fault: str | None = None, *, other_kind: bool = False) -> None:
        super().__init__(where if fault is None else f"{where}: {fault}")
        self.where, self.fault = (where, fault) if fault is not None else ("", where)
        self.other_kind = other_kind  # a file of another kind (a position, an analysis), not a game gone wrong


class _OtherKind(GameError):
    """A JSON value that is no game at all, but something else this program reads or writes."""


# What marks a simulate --games-out record; a game as {"setup", "steps"} has none of them.
RECORD_MARKS = frozenset({"game", "seed", "deal_seed", "result", "policy"})
# What every companion save has (a physical game's seed may be left out: it is null).
SAVE_NEEDS = ("version", "setup", "mode", "steps", "end")
SAVE_LISTED = ("format", "version", "setup", "mode", "seed", "steps", "end")  # as `save` writes them


def game_from_json(raw: Any, where: str) -> PlayedGame:
    """The game in one JSON value; GameFileError names `where` and the fault."""
    try:
        if not isinstance(raw, dict):
            raise GameError(_not_an_object(raw))
        if raw.get("format") == SAVE_FORMAT:
            try:
                return PlayedGame(load_json(raw).game, where)
            except CompanionError:
                if _save_header_ok(raw):  # past its header, a missing key or a bad step is named better here
                    _missing(raw, SAVE_NEEDS, "a save of lobo-hint play", SAVE_LISTED)
                    steps_from_json(raw["steps"])
                raise
        if "player" in raw or "wolf" in raw:
            ask = (
                "`lobo-hint reward POSITION.json` ranks its rewards"
                if raw.get("phase") == "reward"
                else "`lobo-hint POSITION.json` gives its best play"
            )
            raise _OtherKind(
                f"a position, not a game (the kind `export` writes): {ask};"
                " to analyse or replay a game, `save` it in `play` (or download it from the phone page) and give that file"
            )
        if raw.get("format") == ANALYSIS_FORMAT:  # found by a review: "no "seed" key" of its own output
            came = f" ({raw['source']})" if isinstance(raw.get("source"), str) else ""
            raise _OtherKind(f"an analysis that `lobo-hint analyse` wrote, not a game: give the game's own file{came}")
        if {"win_rate", "games", "wins"} <= raw.keys():
            raise _OtherKind(
                "a summary that `lobo-hint simulate --json` printed, not a game: simulate --games-out FILE.jsonl "
                "writes the games themselves"
            )
        if RECORD_MARKS & set(raw):
            record = GameRecord.from_json(raw)
            return PlayedGame(replay_record(record), where, record.index, record.policy or None)
        if "steps" in raw or "setup" in raw:
            _missing(raw, ("setup", "steps"), 'a game as {"setup": {...}, "steps": [...]}')
            steps = steps_from_json(raw["steps"])
            return PlayedGame(replay(new_table(Setup.from_json(raw["setup"])), steps), where)
        raise GameError(
            'not a game: a companion save ("format"), a simulate --games-out record or {"setup": ..., "steps": [...]}'
        )
    except (GameError, CompanionError) as e:
        raise GameFileError(where, str(e), other_kind=isinstance(e, _OtherKind)) from None
    except RecursionError:
        raise GameFileError(where, "nested too deeply") from None


def _save_header_ok(raw: dict[str, Any]) -> bool:
    """Whether a save passes what load_json checks before its setup and steps: version, keys, mode
    and seed (a fault there is said in load_json's own words)."""
    if raw.get("version") != SAVE_VERSION or isinstance(raw.get("version"), bool) or set(raw) - SAVE_KEYS:
        return False
    if raw.get("mode") == "physical":
        return raw.get("seed") is None
    try:
        return raw.get("mode") == "virtual" and seed_from_json(raw.get("seed")) >= 0
    except GameError:
        return False


def _missing(raw: dict[str, Any], keys: tuple[str, ...], what: str, listed: tuple[str, ...] = ()) -> None:
    """GameError naming the first of `keys` not in `raw`, and the keys `what` has (`listed`, else `keys`)."""
    for key in keys:
        if key not in raw:
            quoted = [f'"{k}"' for k in listed or keys]
            raise GameError(f'no "{key}" key: {what} has {", ".join(quoted[:-1])} and {quoted[-1]}')


def _not_an_object(raw: Any) -> str:
    said = "not a game: a JSON object {...} is expected"
    if isinstance(raw, str):
        try:
            if isinstance(jsonio.loads(raw), dict):
                return f"{said}, not a string holding one (JSON encoded twice?): decode it once"
        except (json.JSONDecodeError, RecursionError):
            pass
    if isinstance(raw, list) and raw and all(isinstance(x, dict) for x in raw):
        return f"{said}, not a list of them: a file of many games holds one a line (JSON Lines)"
    return f"{said}, not {json_kind(raw)}"


def read_raw(path: str) -> Iterator[tuple[str, Any] | GameFileError]:
    """Every JSON value of a file, each with where it is (the file, or file:line), not yet read as
    a game: one JSON document, or one JSON value a line. A line that is not JSON comes as its
    GameFileError and the rest are still read; a file that cannot be read at all raises
    GameFileError."""
    shown = shown_path(path)
    try:
        text: str | None = read_text(path)
    except Unreadable as e:
        if not str(e).startswith(("larger than", "not UTF-8")):
            raise GameFileError(shown, f"cannot read: {e}") from None
        text = None  # too big for one document, or a line that is not text: a file of many games
    if text is not None and not text.strip():
        raise GameFileError(shown, "the file is empty: no game in it")
    if text is not None:
        try:
            raw = jsonio.loads(text)
        except json.JSONDecodeError as e:
            if not _lines_of_json(text):
                raise GameFileError(shown, f"not valid JSON: {json_error(e)}") from None
        except RecursionError:
            raise GameFileError(shown, "nested too deeply") from None
        else:
            yield shown, raw
            return
    yield from _lines(path, shown)


def read_games(path: str) -> Iterator[PlayedGame | GameFileError]:
    """Every game in a file, in order: one JSON document, or one JSON value a line. A line that is
    not a game comes as its GameFileError and the rest are still read; a file that cannot be read
    at all raises GameFileError."""
    for found in read_raw(path):
        yield found if isinstance(found, GameFileError) else _one(found[1], found[0])


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


def _lines(path: str, shown: str) -> Iterator[tuple[str, Any] | GameFileError]:
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the with below; each line decoded alone
    except OSError as e:
        raise GameFileError(shown, f"cannot read: {e.strerror or e}") from None
    with handle:
        n = 0
        while True:
            n += 1
            data = handle.readline(BIG_FILE)
            if not data:
                return
            try:
                line = jsonio.jsonl_text(data, n)
            except UnicodeDecodeError as e:
                yield GameFileError(f"{shown}:{n}", f"not UTF-8 text (byte {e.start})")
                continue
            if not line.strip():
                continue
            try:
                raw = jsonio.loads(line)
            except json.JSONDecodeError as e:
                yield GameFileError(f"{shown}:{n}", f"not valid JSON: {json_error(e, line=False)}")
                continue
            except RecursionError:
                yield GameFileError(f"{shown}:{n}", "nested too deeply")
                continue
            yield f"{shown}:{n}", raw


__all__ = ["GameFileError", "PlayedGame", "game_from_json", "read_games", "read_raw"]
