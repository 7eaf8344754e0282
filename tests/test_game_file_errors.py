"""`replay` and `analyse` on game files that are not quite right (found by a review): a file of one
game, whatever its kind, replays without --game; a record or a save with a key missing is refused
in one line naming the key and where it is (exit 2, no traceback), by both commands alike."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()

# A small, fixed analysis budget: the same on every machine, and quick.
ANALYSE = ["--max-states", "200", "--samples", "4", "--jobs", "1"]


@cache
def _records() -> tuple[str, ...]:
    """The lines of `simulate --games 3 --policy greedy --seed 1 -j 1 --games-out` (as the review ran it)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "g.jsonl"
        r = runner.invoke(
            app, ["simulate", "--games", "3", "--policy", "greedy", "--seed", "1", "-j", "1", "--games-out", str(out)]
        )
        assert r.exit_code == 0, r.output
        return tuple(out.read_text().splitlines())


def record() -> dict[str, Any]:
    """Game 1 of the run: a whole record."""
    raw: dict[str, Any] = json.loads(_records()[1])
    assert raw["game"] == 1
    return raw


def bare() -> dict[str, Any]:
    """Game 1 as the driver's own form, {"setup", "steps"}: no "game" key."""
    raw = record()
    return {"setup": raw["setup"], "steps": raw["steps"]}


@cache
def _save_text() -> str:
    """A save of `lobo-hint play --virtual --seed 3` after two plays (a deal, plays and draws),
    written by its `save` command (docs/play.md): a game not over."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.json"
        typed = f"9=2+7\n8>7\nsave {path}\nquit\n"
        r = runner.invoke(app, ["play", "--virtual", "--seed", "3"], input=typed)
        assert r.exit_code == 0, r.output
        return path.read_text()


def save() -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(_save_text())
    return raw


def _write(tmp_path: Path, raw: Any, name: str = "game.json", indent: int | None = None) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(raw, indent=indent) + "\n")
    return str(path)


def _refused(args: list[str], *says: str) -> str:
    """The command exits 2 with one line on stderr holding every one of `says`, and no traceback."""
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lobo-hint: error: "), r.stderr
    assert all(s in lines[0] for s in says), (says, lines[0])
    assert "Traceback" not in r.output and r.stdout == "", r.output
    return lines[0]


# ---------------------------------------------------------------------------------------------
# A file of one game needs no --game


def test_a_game_with_no_game_key_replays_without_game(tmp_path: Path) -> None:
    # It said "1 games in this file: name one with --game N", and --game 1 then "no game 1".
    path = _write(tmp_path, bare(), "d.json")
    r = runner.invoke(app, ["replay", path])
    assert r.exit_code == 0, r.output
    # No seeded deck: its cards can only be checked as ones still unseen, and it says so.
    assert "Round 1" in r.stdout and "every play checked, and every card as one still unseen" in r.stdout
    whole = runner.invoke(app, ["replay", _write(tmp_path, record(), "one.jsonl")])
    assert whole.exit_code == 0, whole.output
    assert "every card and play checked" in whole.stdout
    # A file of two games and a line that cannot be read counts its games as games.
    both = tmp_path / "two.jsonl"
    both.write_text(json.dumps(record()) + "\n{torn\n" + json.dumps({**record(), "game": 7}) + "\n")
    many = runner.invoke(app, ["replay", str(both)])
    assert many.exit_code == 2 and "2 games in this file and 1 line that cannot be read" in many.stderr
    assert "two.jsonl:2: not valid JSON" in many.stderr  # which line, and why
    both.write_text(json.dumps(record()) + "\n{torn\n")
    one = runner.invoke(app, ["replay", str(both)])
    assert one.exit_code == 2 and "1 game in this file and 1 line" in one.stderr, one.stderr
    # An editor's byte-order mark on line 1, and a line cut short said at its own end (a review).
    both.write_bytes(b"\xef\xbb\xbf" + json.dumps(record()).encode() + b"\r\n" + b'{"game": 7\n')
    one = runner.invoke(app, ["replay", str(both)])
    assert one.exit_code == 2 and "two.jsonl:2: not valid JSON: Expecting ',' delimiter at column 11" in one.stderr
    assert "1 game in this file" in one.stderr, one.stderr
    assert _rounds(r.stdout) == _rounds(whole.stdout)  # the same game, the same view
    js = runner.invoke(app, ["replay", path, "--json"])
    assert js.exit_code == 0, js.output
    out = json.loads(js.stdout)
    assert out["replayed"] is True and out["game"] is None and out["result"] == record()["result"]
    # --game names a number this game does not have: said so, not "no game 1 in this file".
    _refused(["replay", path, "--game", "1"], "--game 1", 'no "game" key', "leave out --game")


def _rounds(shown: str) -> list[str]:
    """A replay's lines from its first round on (the title before it names the file), the last
    without what it says of its checks (a game without its seeded deck has fewer)."""
    lines = shown.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("Round 1"))
    return [*lines[first:-1], lines[-1].split(" steps replayed")[0]]


def test_a_save_of_play_replays_without_game(tmp_path: Path) -> None:
    path = _write(tmp_path, save(), "x.json", indent=1)
    r = runner.invoke(app, ["replay", path])
    assert r.exit_code == 0, r.output
    assert "Round 1" in r.stdout and "The game goes on" in r.stdout
    _refused(["replay", path, "--game", "1"], "leave out --game")


def test_a_record_of_its_own_is_replayed_by_its_number_or_none(tmp_path: Path) -> None:
    path = _write(tmp_path, record(), "one.json", indent=1)  # one document over many lines
    assert runner.invoke(app, ["replay", path]).exit_code == 0
    assert runner.invoke(app, ["replay", path, "--game", "1"]).exit_code == 0
    _refused(["replay", path, "--game", "2"], "no game 2", "it holds one game, game 1")


def test_a_file_of_many_games_still_needs_game(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(_records()) + "\n")
    _refused(["replay", str(path)], "3 games in this file", "--game N")
    _refused(["replay", str(path), "--game", "7"], "no game 7 in this file: it holds games 0 to 2")
    assert runner.invoke(app, ["replay", str(path), "--game", "2"]).exit_code == 0


@pytest.mark.parametrize("kind", ["bare", "save"])
def test_a_file_of_one_game_analyses_without_game(tmp_path: Path, kind: str) -> None:
    raw = bare() if kind == "bare" else save()
    r = runner.invoke(app, ["analyse", _write(tmp_path, raw), "--json", *ANALYSE])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["source"].endswith("game.json")


# ---------------------------------------------------------------------------------------------
# A key missing: named, and where


def _first(steps: list[dict[str, Any]], kind: str) -> int:
    return next(i for i, s in enumerate(steps) if s["step"] == kind)


def _drop_in_step(kind: str, key: str) -> Callable[[dict[str, Any]], str]:
    def edit(raw: dict[str, Any]) -> str:
        i = _first(raw["steps"], kind)
        del raw["steps"][i][key]
        return f"step {i + 1}"  # counted from 1, as every message about a file's steps (a review)

    return edit


def _drop(key: str) -> Callable[[dict[str, Any]], str]:
    def edit(raw: dict[str, Any]) -> str:
        del raw[key]
        return ""

    return edit


STEP_KEYS = {
    "play": (_drop_in_step("play", "play"), '"play"'),
    "cards": (_drop_in_step("draw", "cards"), '"cards"'),
    "deal.wolf": (_drop_in_step("deal", "wolf"), '"wolf"'),
    "deal.player": (_drop_in_step("deal", "player"), '"player"'),
    "step": (_drop_in_step("play", "step"), '"step"'),
}
TOP_KEYS = {key: (_drop(key), f'"{key}"') for key in ("steps", "setup")}


def _edited(base: dict[str, Any], edit: Callable[[dict[str, Any]], str]) -> tuple[dict[str, Any], str]:
    raw = copy.deepcopy(base)
    return raw, edit(raw)


@pytest.mark.parametrize("command", ["replay", "analyse"])
@pytest.mark.parametrize("form", ["record", "bare", "save"])
@pytest.mark.parametrize("missing", [*STEP_KEYS, *TOP_KEYS])
def test_a_missing_key_is_named_with_its_place(tmp_path: Path, command: str, form: str, missing: str) -> None:
    base = {"record": record, "bare": bare, "save": save}[form]()
    edit, key = {**STEP_KEYS, **TOP_KEYS}[missing]
    raw, place = _edited(base, edit)
    path = _write(tmp_path, raw, "bad.jsonl" if form == "record" else "bad.json", indent=1 if form == "save" else None)
    extra = ANALYSE if command == "analyse" else []
    line = _refused([command, path, *extra], f"no {key} key", place)
    assert "games in this file" not in line and "a JSON object is expected" not in line


def test_the_messages_say_what_the_step_is(tmp_path: Path) -> None:
    raw, _ = _edited(record(), _drop_in_step("deal", "wolf"))
    line = _refused(["replay", _write(tmp_path, raw)], "game 1 does not replay", 'step 1: no "wolf" key')
    assert '{"step": "deal", "player": [' in line  # what a deal step holds
    raw, _ = _edited(bare(), _drop("steps"))
    _refused(["replay", _write(tmp_path, raw)], 'no "steps" key', '{"setup": {...}, "steps": [...]}')


def test_a_missing_key_in_a_file_of_many_games_names_its_line(tmp_path: Path) -> None:
    lines = list(_records())
    raw, _ = _edited(json.loads(lines[2]), _drop_in_step("play", "play"))
    lines[2] = json.dumps(raw)
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n")
    i = _first(raw["steps"], "play")
    _refused(["replay", str(path), "--game", "2"], "g.jsonl:3: game 2 does not replay", f'step {i + 1}: no "play" key')
    _refused(["analyse", str(path), "--game", "2", *ANALYSE], "g.jsonl:3", f'step {i + 1}: no "play" key')
    assert runner.invoke(app, ["replay", str(path), "--game", "1"]).exit_code == 0  # the others still replay


@pytest.mark.parametrize("key", ["game", "seed", "result"])
def test_a_record_without_a_key_of_its_own_names_it(tmp_path: Path, key: str) -> None:
    raw = record()
    del raw[key]
    path = _write(tmp_path, raw)
    for command, extra in (("replay", []), ("analyse", ANALYSE)):
        _refused([command, path, *extra], f'no "{key}" key', "a game record has")


# ---------------------------------------------------------------------------------------------
# Not a JSON object: says what it is


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (json.dumps(json.dumps({"setup": {}, "steps": []})), "JSON encoded twice?"),
        (json.dumps([{"setup": {}, "steps": []}]), "one a line (JSON Lines)"),
        ("[1, 2]", "not a list"),
        ("7", "not a number"),
        ("", "the file is empty"),
        ("\n\n", "the file is empty"),
    ],
)
def test_what_is_not_a_game_is_said(tmp_path: Path, content: str, says: str) -> None:
    path = tmp_path / "odd.json"
    path.write_text(content)
    for command, extra in (("replay", []), ("analyse", ANALYSE)):
        line = _refused([command, str(path), *extra], says)
        assert "games in this file" not in line


def test_a_step_whose_kind_is_not_a_string_is_named(tmp_path: Path) -> None:
    raw = bare()
    raw["steps"][1]["step"] = ["play"]
    for command, extra in (("replay", []), ("analyse", ANALYSE)):
        _refused([command, _write(tmp_path, raw), *extra], "step 2: unknown step ['play']")


def test_a_missing_step_where_the_player_decides_is_said_as_such(tmp_path: Path) -> None:
    # Found by a review: a deleted reward step read "the seeded deck gives nothing, the record deal …".
    raw = record()
    at = next((i for i, s in enumerate(raw["steps"]) if s.get("step") == "reward"), None)
    if at is None:  # this game took no reward: drop a play instead (the table then waits for it)
        at = next(i for i, s in enumerate(raw["steps"]) if s.get("step") == "play")
    raw["steps"].pop(at)
    r = runner.invoke(app, ["replay", _write(tmp_path, raw, "cut.jsonl")])
    assert r.exit_code == 2 and "the table waits for your" in r.stderr and "a step is missing?" in r.stderr, r.stderr
