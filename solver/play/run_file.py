"""A run's games file (`simulate --games-out`, each of `report`'s games files): one game record a
line, each with the budgets it was played under, so that a run cut short can be resumed.

Game i of a seed is dealt and played from (seed, i) alone (simulate.py), so a resumed run keeps
the file's games 0..k-1 and plays k on: under a state budget it ends with the very file an
uncut run writes. A file is resumed only by the run that wrote it (the same game, difficulty,
policy, seed and budgets); anything else is refused, naming its line, rather than mixed in.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solver.core.jsonio import loads
from solver.play.driver import GameError, Setup
from solver.play.simulate import GameRecord, replay_record


class RunFileError(ValueError):
    """A games file that cannot be resumed: one line naming the file, the line and why."""


def record_line(record: GameRecord, budget: dict[str, Any]) -> str:
    """One line of a games file: the record, its budgets beside its policy."""
    out: dict[str, Any] = {}
    for key, value in record.to_json().items():
        out[key] = value
        if key == "policy":
            out["budget"] = budget
    return json.dumps(out) + "\n"


def resumed(path: str | Path, setup: Setup, policy: str, seed: int, budget: dict[str, Any]) -> list[GameRecord]:
    """The games of this run already in `path`, in order (none when it does not exist or is empty).
    A torn last line (a run killed while writing it) is not a game: the caller drops it before
    appending (files.repair_tail)."""
    p = Path(path)
    if not p.exists():
        return []
    if not p.is_file():  # a device would be read forever, a pipe waited on
        raise RunFileError(f"{path}: not a regular file (a device, a pipe or a folder): resume a file this run wrote")
    try:
        text = p.read_text(encoding="utf-8-sig", errors="surrogateescape")  # an editor's byte-order mark is no error
    except OSError as e:
        raise RunFileError(f"{path}: cannot read it: {e.strerror or e}") from None
    lines = text.split("\n")
    lines.pop()  # what follows the last newline: empty, or a torn line
    records: list[GameRecord] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        records.append(_game(line, f"{path}: line {n}", setup, policy, seed, budget, len(records)))
    return records


def _game(line: str, where: str, setup: Setup, policy: str, seed: int, budget: dict[str, Any], due: int) -> GameRecord:
    try:
        raw = loads(line)
    except (ValueError, RecursionError):
        raise RunFileError(f"{where}: not a game record (not JSON): resume a file this run wrote") from None
    try:
        record = GameRecord.from_json(raw)
    except GameError as e:
        raise RunFileError(f"{where}: not a game record ({e}): resume a file this run wrote") from None
    another = "a file of another run: resume with the options it was written with, or choose another file"
    if record.setup != setup:
        g = record.setup
        other = (
            f"{g.game} {g.difficulty}" if (g.game, g.difficulty) != (setup.game, setup.difficulty) else "other rules"
        )
        raise RunFileError(f"{where}: a game of {other}, this run's is {setup.game} {setup.difficulty}: {another}")
    if record.policy != policy:
        raise RunFileError(f"{where}: a game of policy {record.policy}, this run's is {policy}: {another}")
    if record.seed != seed:
        raise RunFileError(f"{where}: a game of seed {record.seed}, this run's is {seed}: {another}")
    if "budget" not in raw:
        raise RunFileError(
            f"{where}: the game does not say its budgets (written by an older lobo-hint): "
            "a resumed run cannot tell that its games were played alike; choose another file"
        )
    if raw["budget"] != budget:
        raise RunFileError(
            f"{where}: played with budgets {_said(raw['budget'])}, this run's are {_said(budget)}: {another}"
        )
    if record.index != due:
        raise RunFileError(
            f"{where}: game {record.index} where game {due} was due: the file is not one run's, in order"
        )
    try:
        replay_record(record)  # an edited game (its result, its steps) would count as it says
    except GameError as e:
        raise RunFileError(f"{where}: game {record.index} does not replay ({e}): not as this run played it") from None
    return record


def _said(budget: Any) -> str:
    if not isinstance(budget, dict):
        return repr(budget)
    return ", ".join(f"{k} {v}" for k, v in budget.items() if v is not None) or "none"
