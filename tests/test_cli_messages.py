"""Messages a new user meets (issue 13): a word that is no command, an illegal play's true reason,
an empty play, a misspelt key, a number too long to read, and usage errors as one line."""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import cli.position
from cli.main import COMMANDS, NotACommand, app, dispatch, main
from conftest import ROOT, state
from solver.core.jsonio import HugeNumber, loads
from solver.core.plays import PlayError, make_play, parse_plays
from solver.core.position import PositionError, parse_position
from solver.core.rules import why_illegal

runner = CliRunner()
HUGE = "9" * 5000  # past Python's 4,300-digit limit for int(str)
FINAL = {"game": "vanguard", "difficulty": "hard", "player": [6, 6, 5, 7], "wolf": [10, 3, 6, 9], "reserve": [1]}


def lobo(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`lobo-hint ARGS` through main(), as the installed script runs it: (exit status, out, err)."""
    monkeypatch.setattr(sys, "argv", ["lobo-hint", *args])
    with pytest.raises(SystemExit) as e:
        main()
    out, err = capsys.readouterr()
    code = e.value.code
    return (code if isinstance(code, int) else 0), out, err


def write(tmp_path: Path, raw: Any, name: str = "pos.json") -> str:
    p = tmp_path / name
    p.write_text(raw if isinstance(raw, str) else json.dumps(raw))
    return str(p)


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lobo-hint: error: "), err
    return lines[0]


# A first word that is neither a command nor a file -----------------------------------------------


def test_a_word_that_is_no_command_says_so_suggests_and_lists(monkeypatch: Any, capsys: Any, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = lobo(monkeypatch, capsys, "frobnicate")
    line = one_error_line(err)
    assert code == 2 and not out
    assert "'frobnicate' is neither a command nor a file" in line and "cannot read" not in line
    assert all(c in line for c in COMMANDS)
    code, _, err = lobo(monkeypatch, capsys, "hnit", "--json")
    assert code == 2 and "did you mean 'hint'?" in one_error_line(err)


def test_a_first_argument_that_looks_like_a_file_still_says_it_does_not_exist(
    monkeypatch: Any, capsys: Any, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    for arg in ("nope.json", "some/dir/pos"):
        code, _, err = lobo(monkeypatch, capsys, arg)
        assert code == 2 and "No such file" in one_error_line(err), arg
    # A bare word naming a file that is there is that file.
    (tmp_path / "frobnicate").write_text(json.dumps({"player": [5], "wolf": [5], "final": True}))
    assert dispatch(["frobnicate"]) == ["hint", "frobnicate"]
    with pytest.raises(NotACommand):
        dispatch(["frobnicat"])


# An illegal play's reason, and an empty play -----------------------------------------------------


def test_a_play_that_does_not_add_up_says_so_and_not_mark_it_reserve(tmp_path: Path) -> None:
    s = state(**FINAL, final=True)
    reason = why_illegal(s, make_play("perfect", [1], [], [9]))
    assert reason == "1 does not equal 9: a Perfect needs equal values"
    # Marking it 1r would not help either: the reserve is not mentioned.
    assert why_illegal(s, make_play("perfect", [], [1], [9])) == reason
    # A card held nowhere is named too; one only in the reserve, correctly marked, is fine.
    assert why_illegal(s, make_play("perfect", [2], [], [9])) == (
        "2 does not equal 9: a Perfect needs equal values (and you hold no 2)"
    )
    assert why_illegal(s, make_play("perfect", [1], [], [10])) is not None
    assert why_illegal(s, make_play("sum", [5], [1], [6])) is None
    # The reserve is named when it is the only thing wrong.
    assert why_illegal(s, make_play("sum", [5, 1], [], [6])) == "the 1 is in your reserve: mark it 1r"
    r = runner.invoke(app, ["check", write(tmp_path, FINAL), "--plays", "A=9", "--final", "--json", "-t", "5"])
    assert r.exit_code == 0, r.output
    bad = json.loads(r.stdout)["bad_play"]
    assert bad["index"] == 1 and bad["reason"] == reason


def test_an_empty_play_between_separators_names_its_place(tmp_path: Path) -> None:
    for text, where in (
        ("9=9,, 2+5=7", "play 2 is empty"),
        ("9=9; ;2+5=7", "play 2"),
        ("9=9,", "play 2"),
        (",9=9", "play 1"),
    ):
        with pytest.raises(PlayError, match=where):
            parse_plays(text)
    r = runner.invoke(app, ["check", write(tmp_path, FINAL), "--plays", "9=9,, 2+5=7", "--final"])
    assert r.exit_code == 2 and "play 2 is empty" in r.stderr and not r.stdout


# Unknown keys name the closest known one ---------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"resrve": [1]}, "unknown key 'resrve': did you mean 'reserve'?"),
        ({"rules": {"hand_sise": 4}}, "rules: unknown key 'hand_sise': did you mean 'hand_size'?"),
        ({"draw_pile": {"sise": 3}}, "draw_pile: unknown key 'sise': did you mean 'size'?"),
        ({"zzz": 1}, "unknown key 'zzz' (known keys: "),
    ],
)
def test_an_unknown_key_names_the_closest_known_one(tmp_path: Path, extra: dict[str, Any], said: str) -> None:
    with pytest.raises(PositionError, match=f"^{re.escape(said)}"):
        parse_position({"player": [5], "wolf": [5], **extra})
    r = runner.invoke(app, ["validate", write(tmp_path, {"player": [5], "wolf": [5], **extra})])
    assert r.exit_code == 2 and said in r.stderr


# Numbers too long to read ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            '{"player": [5, %s], "wolf": [5]}',
            "player[1]: bad card 99999999… (5000 digits): values run from 1 (Ace) to 10",
        ),
        ('{"player": [5], "wolf": [-%s]}', "wolf[0]: bad card -99999999… (5000 digits)"),
        ('{"player": [5], "wolf": [5], "draw_pile": {"size": %s}}', "draw_pile.size: 99999999… (5000 digits)"),
        ('{"player": [5], "wolf": [5], "draw_pile": {"top": [%s]}}', "draw_pile.top[0]"),
        ('{"player": [5], "wolf": [5], "rules": {"hand_size": %s}}', "rules.hand_size: 99999999… (5000 digits)"),
        (
            '{"player": [5], "wolf": [5], "rules": {"final_threshold": -%s}}',
            "rules.final_threshold: must be at least 0",
        ),
        ('{"player": [5], "wolf": [5], "game": %s}', "game: 99999999… (5000 digits) is not one of"),
        ('{"player": [5], "wolf": [5], "objective": [%s]}', "objective:"),
        ('{"player": [5], "wolf": [5], "party": [%s]}', "party[0]: bad party member 99999999…"),
        ('{"position": {"player": [5], "wolf": [5], "final": %s}}', "final: must be true or false"),
    ],
)
def test_a_huge_number_is_a_bad_value_named_in_one_short_line(tmp_path: Path, text: str, key: str) -> None:
    path = write(tmp_path, text % HUGE)
    for cmd in (["validate", path], ["hint", path, "--json"]):
        r = runner.invoke(app, cmd)
        assert r.exit_code == 2 and not r.stdout, (cmd, r.exception)
        line = r.stderr.strip()
        assert "\n" not in line and key in line and len(line) < 300, line


def test_a_huge_id_is_kept_as_a_label() -> None:
    pos = parse_position(loads('{"id": ' + HUGE + ', "player": [5], "wolf": [5], "final": true}'))
    assert pos.label == HUGE
    assert isinstance(loads(HUGE), HugeNumber) and loads("9" * 30) == int("9" * 30)


def test_a_huge_number_in_a_railway_position(tmp_path: Path) -> None:
    deck = {"name": "tiny", "season_tickets": 1, "stations": ["A", "B", "C"], "junctions": {"J": ["A", "B"]}}
    for text, key in (
        ('{"deck": %s, "hand": ["A"], "players": %s}', "players: 99999999… (5000 digits)"),
        ('{"deck": %s, "hand": ["A"], "stock": -%s}', "stock: must be at least 0"),
        ('{"deck": %s, "hand": ["A", %s]}', "hand[1]: a card must be a name (a string), not a number"),
    ):
        path = write(tmp_path, text % (json.dumps(deck), HUGE), "pos.railway")
        r = runner.invoke(app, ["railway", "lobo", path])
        assert r.exit_code == 2 and key in r.stderr and len(r.stderr) < 300, r.stderr
    deck_path = write(tmp_path, json.dumps(deck).replace('"season_tickets": 1', f'"season_tickets": {HUGE}'), "d.json")
    r = runner.invoke(app, ["railway", "validate", deck_path])
    assert r.exit_code == 2 and "season_tickets: 99999999… (5000 digits)" in r.stderr


# Usage errors: one line, the option named, exit 2 ------------------------------------------------


def test_a_bad_option_value_is_one_line_naming_the_option(monkeypatch: Any, capsys: Any, tmp_path: Path) -> None:
    pos = write(tmp_path, {"player": [5], "wolf": [5], "final": True})
    cases = [
        (["hint", pos, "--time-limit", "abc"], "--time-limit: 'abc' is not a number"),
        ([pos, "-t", "abc"], "--time-limit: 'abc' is not a number"),
        (["hint"], "Missing argument 'POSITION.json'"),
        (["hint", pos, "--objective"], "'--objective' requires an argument"),
        (["hint", pos, "extra"], "extra"),
        (["batch", pos, "--jobs", "two"], "--jobs: 'two' is not a whole number"),
        (["generate", "-o", str(tmp_path), "--count", "x"], "--count: 'x' is not a whole number"),
        (["railway", "nosuch"], "No such command 'nosuch'"),
        (["railway", "hint", pos, "--by"], "'--by' requires an argument"),
    ]
    for args, said in cases:
        code, out, err = lobo(monkeypatch, capsys, *args)
        assert code == 2 and not out and said in one_error_line(err), args


def test_an_unknown_option_is_one_line_on_every_command(monkeypatch: Any, capsys: Any) -> None:
    commands = [[c] for c in sorted(COMMANDS)] + [["railway", c] for c in ("validate", "lobo", "hint")]
    for cmd in commands:
        code, out, err = lobo(monkeypatch, capsys, *cmd, "--no-such-option")
        assert code == 2 and not out, cmd
        assert "No such option: --no-such-option" in one_error_line(err), cmd


def test_help_version_and_no_arguments_are_unchanged(monkeypatch: Any, capsys: Any) -> None:
    code, out, err = lobo(monkeypatch, capsys, "hint", "--help")
    assert code == 0 and "Usage: lobo-hint hint" in out and not err
    code, out, err = lobo(monkeypatch, capsys, "--version")
    assert code == 0 and out.startswith("lobo-hint ") and not err
    for args in ([], ["railway"]):  # no arguments: the help, exit 2, as Typer does
        code, out, err = lobo(monkeypatch, capsys, *args)
        assert code == 2 and "Usage: lobo-hint" in out and not err, args


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch: Any, capsys: Any, tmp_path: Path) -> None:
    def interrupt(*_args: Any, **_kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.position, "load_position", interrupt)
    code, _, err = lobo(monkeypatch, capsys, "validate", write(tmp_path, {"player": [5], "wolf": [5]}))
    assert code == 130 and err == "lobo-hint: interrupted\n"
    monkeypatch.setattr(cli.position, "position_schema", interrupt)  # a command with no handler of its own
    code, _, err = lobo(monkeypatch, capsys, "schema")
    assert code == 130 and err == "lobo-hint: interrupted\n"


def test_a_broken_installation_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The rollout policy's weights unreadable (a damaged install): one line naming the file, exit
    # 1, no traceback; a round start needs them (objective `game`, estimated by rollouts).
    from solver.search import rollout_policy

    bad = tmp_path / "rollout_policy.json"
    bad.write_text("{broken")
    monkeypatch.setattr(rollout_policy, "DATA", bad)
    rollout_policy.shipped.cache_clear()
    try:
        f = tmp_path / "start.json"
        f.write_text(json.dumps({"player": [2, 5, 6, 9], "wolf": [1, 5, 7, 8], "draw_pile": {"size": 28}}))
        code, out, err = lobo(monkeypatch, capsys, str(f), "--time-limit", "0.2")
    finally:
        rollout_policy.shipped.cache_clear()
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "rollout policy's weights" in err and str(bad) in err and "reinstall" in err


# Numbers no budget or seed can be (issue 26) ------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--seed", "-1", "--games", "1"],
        ["report", "--seed", "-1", "--games", "1"],
        ["reward", "puzzles/examples/midround.json", "--seed", "-1"],
    ],
    ids=["simulate", "report", "reward"],
)
def test_a_negative_seed_is_one_line(monkeypatch: Any, capsys: Any, args: list[str]) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = lobo(monkeypatch, capsys, *args)
    assert code == 2 and not out
    assert "--seed" in one_error_line(err)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["simulate", "--seed", "-1"], "--seed: at least 0, not -1"),
        (["simulate", "--seed", "x"], "--seed: 'x' is not a whole number"),
        (["simulate", "--games", "two"], "--games: 'two' is not a whole number"),
        (["simulate", "--think", "fast"], "--think: 'fast' is not a number"),
    ],
)
def test_a_bad_option_value_is_said_in_the_projects_words(
    monkeypatch: Any, capsys: Any, args: list[str], said: str
) -> None:
    # Found by a review: Click's "Invalid value for '--seed' / '-s': -1 is not in the range
    # 0<=x<=9223372036854775807" beside every other error's "--option: what is wrong".
    code, out, err = lobo(monkeypatch, capsys, *args)
    assert code == 2 and not out
    assert one_error_line(err) == f"lobo-hint: error: {said} (try: lobo-hint simulate --help)"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0"])
def test_a_time_limit_that_is_no_finite_positive_number_is_refused(monkeypatch: Any, capsys: Any, value: str) -> None:
    code, out, err = lobo(monkeypatch, capsys, str(ROOT / "puzzles" / "examples" / "midround.json"), "-t", value)
    assert code == 2 and not out
    assert "--time-limit: must be a finite number more than 0" in one_error_line(err)


@pytest.mark.parametrize("value", ["0", "1025", "100000"])
def test_finish_workers_beyond_what_cp_sat_takes_are_refused(monkeypatch: Any, capsys: Any, value: str) -> None:
    # CP-SAT calls a model with some 20,000 workers invalid: that ended in a traceback.
    final = str(ROOT / "puzzles" / "examples" / "final.json")
    code, out, err = lobo(monkeypatch, capsys, "finish", final, "-w", value)
    assert code == 2 and not out
    assert "--workers" in one_error_line(err)


def test_a_cluster_that_cannot_be_used_is_named_once(monkeypatch: Any, capsys: Any) -> None:
    code, out, err = lobo(monkeypatch, capsys, "simulate", "--cluster", "notaurl", "--games", "1")
    assert code == 2 and not out
    line = one_error_line(err)
    assert "--cluster: " in line and line.count("--cluster") == 1, line


def test_a_count_below_one_is_refused_as_a_whole_number(monkeypatch: Any, capsys: Any) -> None:
    code, out, err = lobo(
        monkeypatch, capsys, str(ROOT / "puzzles" / "examples" / "midround.json"), "--max-states", "0"
    )
    assert code == 2 and not out
    assert "--max-states: must be a whole number more than 0, not 0" in one_error_line(err)


# Files that are no position files (issue 26) ------------------------------------------------------


def test_a_fifo_a_device_a_folder_and_a_huge_file_are_refused_at_once(
    monkeypatch: Any, capsys: Any, tmp_path: Path
) -> None:
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # no writer: reading it would wait forever
    huge = tmp_path / "huge.json"
    with huge.open("wb") as f:
        f.truncate(21 * 1024**2)
    for path, why in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"), (huge, "larger than 20 MB")):
        code, out, err = lobo(monkeypatch, capsys, "validate", str(path))
        assert code == 2 and not out
        assert why in one_error_line(err), err


@pytest.mark.parametrize("command", [["hint"], ["validate"], ["railway", "validate"]])
def test_an_empty_file_name_is_said_so_not_taken_for_the_current_folder(
    monkeypatch: Any, capsys: Any, command: list[str]
) -> None:
    code, out, err = lobo(monkeypatch, capsys, *command, "")
    assert code == 2 and not out
    assert one_error_line(err).endswith("'': cannot read: the file name is empty"), err


def test_a_bad_budget_is_named_as_the_user_wrote_it(monkeypatch: Any, capsys: Any) -> None:
    code, out, err = lobo(
        monkeypatch, capsys, "reward", str(ROOT / "puzzles" / "examples" / "midround.json"), "--budget", "-1"
    )
    assert code == 2 and not out
    assert "--budget: must be at least 1, not -1" in one_error_line(err)


def test_a_nul_byte_in_a_path_is_one_line(monkeypatch: Any, capsys: Any, tmp_path: Path) -> None:
    from solver.play.companion import CompanionError
    from solver.play.companion.files import _write

    deck = write(tmp_path, {"deck": "x\u0000y.json"}, "railway.json")
    code, out, err = lobo(monkeypatch, capsys, "railway", "validate", deck)
    assert code == 2 and not out
    assert "x\\x00y.json: cannot read: the name holds a NUL byte" in one_error_line(err)
    with pytest.raises(CompanionError, match="NUL byte"):
        _write(str(tmp_path / "a\u0000b.json"), "{}")


# A full disk (issue 26) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, said",
    [
        (
            ["simulate", "--games", "2", "--policy", "greedy", "--games-out", "/dev/full"],
            "--games-out: cannot write /dev/full",
        ),
        (["batch", "puzzles/examples", "--out", "/dev/full", "-j", "1"], "--out: cannot write /dev/full"),
    ],
    ids=["simulate", "batch"],
)
def test_an_output_file_on_a_full_disk_is_one_line_and_exit_1(
    monkeypatch: Any, capsys: Any, args: list[str], said: str
) -> None:
    monkeypatch.chdir(ROOT)
    code, _, err = lobo(monkeypatch, capsys, *args)
    assert code == 1
    line = one_error_line(err)
    assert said in line and "No space left on device" in line


def test_standard_output_on_a_full_disk_is_one_line_and_exit_1() -> None:
    import subprocess

    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "from cli.main import run; run()",
                "moves",
                "puzzles/examples/midround.json",
                "--json",
            ],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["lobo-hint: error: cannot write the output: No space left on device"]


def test_a_file_written_whole_leaves_nothing_behind_when_writing_fails(tmp_path: Path) -> None:
    from solver.core.files import write_whole

    target = tmp_path / "out.json"
    target.write_text("old")

    def fails(path: Path) -> None:
        path.write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        write_whole(target, fails)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.json"]
    write_whole(target, "new")
    assert target.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_a_file_written_whole_writes_through_a_link_and_refuses_what_is_not_a_file(tmp_path: Path) -> None:
    # Found by a review: `save` (and graph -o) renamed the new file over the path: a symbolic link
    # became a file (its target left as it was), and as root /dev/full became a file.
    import os

    from solver.core.files import write_whole

    target = tmp_path / "target.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_whole(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in (fifo, tmp_path):
        with pytest.raises(OSError, match="not a regular file"):
            write_whole(path, "data")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "pipe", "target.json"]


# Small refusals (issue 26) ----------------------------------------------------------------------


def test_a_lobo_target_of_0_is_refused_not_taken_for_100(monkeypatch: Any, capsys: Any) -> None:
    code, out, err = lobo(monkeypatch, capsys, "play", "--game", "lobo", "--target", "0")
    assert code == 2 and not out
    assert "the target score must be from 1 to" in one_error_line(err)


def test_a_negative_depth_is_refused_in_the_words_of_the_option(monkeypatch: Any, capsys: Any, tmp_path: Path) -> None:
    example = str(ROOT / "puzzles" / "examples" / "midround.json")
    code, out, err = lobo(monkeypatch, capsys, "graph", example, "--depth", "-1", "-o", str(tmp_path / "g.graphml"))
    assert code == 2 and not out
    assert "--depth: 0 or more plays deep, not -1" in one_error_line(err)
    assert not (tmp_path / "g.graphml").exists()


def test_a_null_card_is_shown_as_json_writes_it(monkeypatch: Any, capsys: Any, tmp_path: Path) -> None:
    path = write(tmp_path, {"player": [1, None], "wolf": [2]}, "p.json")
    code, out, err = lobo(monkeypatch, capsys, "validate", path)
    assert code == 2 and not out
    assert "player[1]: bad card null:" in one_error_line(err)


def test_a_ctrl_c_while_the_program_is_still_imported_is_one_line_and_130() -> None:
    """The installed script's entry (cli/entry.py) catches a Ctrl-C that comes before the commands
    are loaded; here the import of typer raises it, as a terminal's Ctrl-C would at that moment."""
    import subprocess

    code = (
        "import sys\n"
        "class CtrlC:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'typer':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, CtrlC())\n"
        "from cli.entry import run\n"
        "run()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "--version"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "lobo-hint: interrupted\n")


def test_the_installed_script_runs_the_command_line() -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", "from cli.entry import run; run()", "--version"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout.startswith("lobo-hint ")


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_an_output_that_takes_ascii_or_latin_1_shows_plain_signs_and_exact_json(tmp_path: Path, encoding: str) -> None:
    # It was a traceback at the first dash (UnicodeEncodeError): now signs it cannot encode are
    # shown plainly, and JSON escapes them, so it still reads as the same data.
    import os
    import subprocess

    script = "from cli.entry import run; run()"

    def lobo_hint(*args: str, narrow: bool = True) -> subprocess.CompletedProcess[bytes]:
        env = {**os.environ, "PYTHONIOENCODING": encoding if narrow else "utf-8"}
        return subprocess.run(
            [sys.executable, "-c", script, *args], capture_output=True, cwd=ROOT, env=env, timeout=120
        )

    text = lobo_hint("puzzles/examples/midround.json", "--max-states", "2000")
    assert text.returncode == 0 and text.stderr == b"", text.stderr
    shown = text.stdout.decode(encoding)  # strictly: every byte is the output's encoding
    assert ("1x1  2x2" if encoding == "ascii" else "1×1  2×2") in shown and "Best play" in shown
    (tmp_path / "défi×.json").write_text("{")  # an invalid puzzle: its name is in the JSON
    data = lobo_hint("batch", str(tmp_path), "--json", "-j", "1")
    whole = lobo_hint("batch", str(tmp_path), "--json", "-j", "1", narrow=False)
    assert data.returncode == whole.returncode == 2, data.stderr  # every puzzle invalid
    assert not whole.stdout.isascii()  # the check means something: the JSON has such characters
    read = json.loads(data.stdout.decode(encoding))  # strictly, as a reader in that encoding would
    untimed = [{k: v for k, v in r.items() if not k.startswith("seconds")} for r in (read, json.loads(whole.stdout))]
    assert read["invalid_puzzles"][0]["source"].endswith("défi×.json") and untimed[0] == untimed[1]


def test_finish_check_and_reward_name_the_file_when_the_position_does_not_fit(monkeypatch: Any, capsys: Any) -> None:
    # Found by a review: finish and check said "final: this is not a final round" without the
    # file; reward told a lobo position to add "phase": "reward", which lobo refuses.
    examples = ROOT / "puzzles" / "examples"
    for args, said in (
        (["finish", str(examples / "midround.json")], "midround.json: final: this is not a final round"),
        (["check", str(examples / "lobo.json"), "--plays", "1=1"], "lobo.json: game: lobo has no final round"),
        (["reward", str(examples / "lobo.json")], "lobo.json: lobo has no rewards"),
    ):
        code, _out, err = lobo(monkeypatch, capsys, *args)
        assert code == 2 and said in err and err.count("\n") == 1, (args, err)
    # Found by a review: a short pile said "the pile holds 3 cards" where "final": false was why.
    short = Path(tempfile.mkdtemp()) / "short.json"
    short.write_text(json.dumps({"player": [5], "wolf": [5], "draw_pile": {"size": 3}, "final": False}))
    code, _out, err = lobo(monkeypatch, capsys, "finish", str(short))
    assert code == 2 and '"final": false: the round began with more cards in the pile' in err, err


def test_reward_says_why_the_clairvoyant_is_refused(monkeypatch: Any, capsys: Any) -> None:
    # Found by a review: "'clairvoyant' is not one of game, hint, …" without the reason docs give.
    monkeypatch.chdir(ROOT)
    code, _, err = lobo(monkeypatch, capsys, "reward", "puzzles/examples/midround.json", "--policy", "clairvoyant")
    assert code == 2 and "clairvoyant sees the pile" in one_error_line(err)


def test_reward_by_the_game_values_says_jobs_changes_nothing(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    # Found by a review: --jobs was taken without a word where --budget is refused.
    won = tmp_path / "won.json"
    won.write_text(
        json.dumps({"phase": "reward", "player": [2, 8], "wolf": [], "party": ["Q", "K"], "discard": [1, 1, 3, 3]})
    )
    code, out, err = lobo(monkeypatch, capsys, "reward", str(won), "--jobs", "2", "-t", "1", "--json")
    assert (
        code == 0
        and json.loads(out)["best"]
        and err == "lobo-hint: --policy game does not use --jobs: it changes nothing\n"
    )
    code, _, err = lobo(monkeypatch, capsys, "reward", str(won), "-t", "1", "--json")
    assert code == 0 and err == ""


def test_a_disk_that_fills_mid_record_leaves_no_torn_line(tmp_path: Path, monkeypatch: Any) -> None:
    # Found by a review: a full disk left half a record as the file's last line (no JSON reader
    # takes it) until a --resume cut it.
    import errno

    from cli import common

    out = tmp_path / "r.jsonl"
    sink = common.LateOut(str(out), "--out", what="result")
    sink.write('{"a": 1}\n')
    real = os.write
    calls = []

    def half_then_full(fd: int, data: Any) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(common.os, "write", half_then_full)
    with pytest.raises(common.OutputError, match="No space left on device"):
        sink.write('{"b": 2, "padding": "' + "x" * 100 + '"}\n')
    monkeypatch.setattr(common.os, "write", real)
    sink.close()
    assert len(calls) == 2 and out.read_text() == '{"a": 1}\n'


def test_a_torn_json_file_is_said_the_same_way_by_every_command(monkeypatch: Any, capsys: Any, tmp_path: Path) -> None:
    """A review: a position said `not valid JSON: why`, a game file `not valid JSON (why)`."""
    torn = tmp_path / "torn.json"
    torn.write_text('{"setup": ')
    said = f"{torn}: not valid JSON: Expecting value at line 1 column 11"
    for args in (["hint", str(torn)], ["replay", str(torn)], ["analyse", str(torn)], ["play", "--load", str(torn)]):
        code, _, err = lobo(monkeypatch, capsys, *args)
        assert code == 2 and said in err, (args, err)


def test_a_game_name_for_a_games_number_says_what_the_option_is_there(monkeypatch: Any, capsys: Any) -> None:
    """A review: --game names the game elsewhere (-g lobo), a game's number in replay and analyse."""
    for command in ("replay", "analyse"):
        code, _, err = lobo(monkeypatch, capsys, command, "games.jsonl", "--game", "lobo")
        assert code == 2 and "'lobo' is not a whole number; here --game N is a game's number in the file" in err
        code, _, err = lobo(monkeypatch, capsys, command, "games.jsonl", "--game", "x")
        assert code == 2 and "here --game" not in err
