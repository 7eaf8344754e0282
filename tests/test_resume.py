"""A run cut short goes on: `simulate --resume` and `report --resume` keep the games of their
files and play the rest, ending with what an uncut run writes; another run's file is refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from conftest import ROOT
from processes import MAIN_WITH_CTRL_C
from solver.play.report import build_report, games_file

runner = CliRunner()
BEST = ["simulate", "--policy", "best", "--samples", "4", "--seed", "11", "-j", "1", "--difficulty", "easy"]


def _games(path: Path) -> list[dict[str, Any]]:
    """A games file's records, each without the time it took (the one thing a replay changes)."""
    return [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in path.read_text().splitlines()]


def _cut(path: Path, keep: int, torn: bool = True) -> None:
    """The file as a run killed after `keep` games leaves it, half of the next line written."""
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:keep]) + (lines[keep][: len(lines[keep]) // 2] if torn else ""))


def test_a_resumed_run_ends_with_the_file_and_numbers_of_an_uncut_run(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    r = runner.invoke(app, [*BEST, "--games", "8", "--games-out", str(whole), "--json"])
    assert r.exit_code == 0, r.output
    uncut = json.loads(r.stdout)
    cut.write_bytes(whole.read_bytes())
    _cut(cut, 3)
    r = runner.invoke(app, [*BEST, "--games", "8", "--games-out", str(cut), "--resume", "--json"])
    assert r.exit_code == 0, r.output
    again = json.loads(r.stdout)
    assert _games(cut) == _games(whole)  # the torn line dropped, games 3-7 played as before
    assert again["resumed"] == 3 and "resumed" not in uncut
    for key in ("games", "wins", "win_rate", "win_rate_95", "score", "rounds", "members_lost", "rewards"):
        assert again[key] == uncut[key], key
    assert all(g["budget"] == {"samples": 4} for g in _games(whole))
    # Resumed again with nothing left to play: the same numbers, the file untouched.
    before = cut.read_bytes()
    r = runner.invoke(app, [*BEST, "--games", "8", "--games-out", str(cut), "--resume"])
    assert r.exit_code == 0 and "8 of the 8 games read from" in r.stdout, r.output
    assert cut.read_bytes() == before
    # An editor's byte-order mark on line 1 is no other run's file.
    cut.write_bytes(b"\xef\xbb\xbf" + before)
    r = runner.invoke(app, [*BEST, "--games", "8", "--games-out", str(cut), "--resume"])
    assert r.exit_code == 0 and "8 of the 8 games read from" in r.stdout, r.output
    # A file that does not exist yet is a run from its start.
    fresh = tmp_path / "fresh.jsonl"
    r = runner.invoke(app, [*BEST, "--games", "8", "--games-out", str(fresh), "--resume"])
    assert r.exit_code == 0 and _games(fresh) == _games(whole), r.output


def test_a_resumed_hint_run_under_state_budgets_repeats_the_uncut_one(tmp_path: Path) -> None:
    args = ["simulate", "--policy", "hint", "--max-states", "300", "--samples", "8", "--seed", "3", "-j", "1"]
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    assert runner.invoke(app, [*args, "--games", "2", "--games-out", str(whole)]).exit_code == 0
    cut.write_bytes(whole.read_bytes())
    _cut(cut, 1, torn=False)
    r = runner.invoke(app, [*args, "--games", "2", "--games-out", str(cut), "--resume"])
    assert r.exit_code == 0, r.output
    assert _games(cut) == _games(whole)  # the predicted chances too
    assert _games(whole)[0]["budget"] == {"samples": 8, "max_states": 300, "think": None}


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (["--seed", "12"], "line 1: a game of seed 11, this run's is 12: a file of another run"),
        (["--policy", "greedy"], "line 1: a game of policy best, this run's is greedy"),
        (["--difficulty", "hard"], "line 1: a game of vanguard easy, this run's is vanguard hard"),
        (["--game", "lobo"], "line 1: a game of vanguard easy, this run's is lobo easy"),
        (["--samples", "5"], "line 1: played with budgets samples 4, this run's are samples 5"),
    ],
)
def test_another_runs_file_is_refused_and_left_as_it_was(tmp_path: Path, change: list[str], said: str) -> None:
    out = tmp_path / "g.jsonl"
    assert runner.invoke(app, [*BEST, "--games", "3", "--games-out", str(out)]).exit_code == 0
    before = out.read_bytes()
    r = runner.invoke(app, [*BEST, *change, "--games", "6", "--games-out", str(out), "--resume"])
    assert r.exit_code == 2 and f"--games-out: {out}: {said}" in r.stderr.splitlines()[-1], r.output
    assert "Traceback" not in r.output
    assert out.read_bytes() == before


def test_files_that_are_no_run_are_refused_naming_the_line(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    assert runner.invoke(app, [*BEST, "--games", "4", "--games-out", str(out)]).exit_code == 0
    lines = out.read_text().splitlines(keepends=True)
    old = "".join(json.dumps({k: v for k, v in json.loads(x).items() if k != "budget"}) + "\n" for x in lines)
    cases = {
        "gap": ("".join(lines[:2] + lines[3:]), "line 3: game 3 where game 2 was due"),
        "old": (old, "line 1: the game does not say its budgets (written by an older lobo-hint)"),
        "text": ("hello\n", "line 1: not a game record (not JSON)"),
        "object": ('{"a": 1}\n', 'line 1: not a game record (no "game" key'),
    }
    for name, (text, said) in cases.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(text)
        r = runner.invoke(app, [*BEST, "--games", "6", "--games-out", str(path), "--resume"])
        assert r.exit_code == 2 and f"{path}: {said}" in r.stderr, (name, r.output)
        assert path.read_text() == text
    r = runner.invoke(app, [*BEST, "--games", "6", "--resume"])
    assert r.exit_code == 2 and "--resume needs --games-out" in r.stderr


def test_ctrl_c_then_resume_plays_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    cmd = [sys.executable, "-c", MAIN_WITH_CTRL_C, "simulate", "--games", "60", "-j", "1", "--policy", "best",
           "--samples", "4", "--seed", "11", "--games-out", str(out)]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 180  # a wait, not a limit: a fresh machine compiles the search first
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 3):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "(rerun with --resume to play the rest)" in err.decode(), err
    kept = len(out.read_text().splitlines())
    r = runner.invoke(app, ["simulate", "--games", "60", "-j", "1", "--policy", "best", "--samples", "4",
                            "--seed", "11", "--games-out", str(out), "--resume", "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["resumed"] == kept < 60
    assert [g["game"] for g in _games(out)] == list(range(60))


def test_a_report_cut_short_goes_on_from_its_games_files(tmp_path: Path) -> None:
    kinds: dict[str, Any] = {"game_names": ("vanguard",), "difficulties": ("easy",), "policies": ("greedy", "best")}
    whole = build_report(tmp_path / "whole", 6, 5, samples=3, workers=1, **kinds)
    cut = tmp_path / "cut"
    first = build_report(cut, 6, 5, samples=3, workers=1, **kinds)
    assert [s.wins for s in first.summaries] == [s.wins for s in whole.summaries]
    greedy, best = (games_file(cut, "vanguard", "easy", p) for p in ("greedy", "best"))
    _cut(best, 2)
    greedy.unlink()  # a row never started
    again = build_report(cut, 6, 5, samples=3, workers=1, resume=True, **kinds)
    for p in ("greedy", "best"):
        assert _games(games_file(cut, "vanguard", "easy", p)) == _games(
            games_file(tmp_path / "whole", "vanguard", "easy", p)
        )
    assert [s.to_json() | {"seconds": 0, "games_per_second": 0, "resumed": 0} for s in again.summaries] == [
        s.to_json() | {"seconds": 0, "games_per_second": 0, "resumed": 0} for s in whole.summaries
    ]
    assert [s.resumed for s in again.summaries] == [0, 2]
    assert "games/" in (cut / "report.md").read_text()
    # Another seed's report in the same folder is refused, its files left as they were.
    before = best.read_bytes()
    args = ["report", "--games", "6", "--seed", "6", "--game", "vanguard", "-o", str(cut), "--resume", "-j", "1"]
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and "--resume: " in r.stderr and "a game of seed 5, this run's is 6" in r.stderr, r.output
    assert best.read_bytes() == before


def test_what_cannot_be_resumed_safely_is_refused(tmp_path: Path) -> None:
    # Found by a review: /dev/full read forever (all memory), a pipe waited on, two runs resuming
    # one file interleaved their games, an edited game counted as it said.
    for path in ("/dev/full", "/dev/zero"):
        r = runner.invoke(app, [*BEST, "--games", "3", "--games-out", path, "--resume"])
        assert r.exit_code == 2 and "is not a regular file" in r.stderr, r.output
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = runner.invoke(app, [*BEST, "--games", "3", "--games-out", str(fifo), "--resume"])
    assert r.exit_code == 2 and "is not a regular file" in r.stderr
    out = tmp_path / "g.jsonl"
    assert runner.invoke(app, [*BEST, "--games", "3", "--games-out", str(out)]).exit_code == 0
    from solver.core.files import append_locked

    with append_locked(out):  # another run holds it
        r = runner.invoke(app, [*BEST, "--games", "6", "--games-out", str(out), "--resume"])
    assert r.exit_code == 2 and f"another run is writing {out}" in r.stderr, r.output
    lines = out.read_text().splitlines()
    edited = json.loads(lines[1])
    edited["result"], edited["score"] = ("lost", None) if edited["result"] == "won" else ("won", 99)
    out.write_text("\n".join([lines[0], json.dumps(edited), lines[2]]) + "\n")
    r = runner.invoke(app, [*BEST, "--games", "6", "--games-out", str(out), "--resume"])
    assert r.exit_code == 2 and "line 2: game 1 does not replay" in r.stderr, r.output


def test_a_torn_line_is_cut_in_place(tmp_path: Path) -> None:
    from solver.core.files import repair_tail

    path, link = tmp_path / "g.jsonl", tmp_path / "link.jsonl"
    path.write_text('{"a": 1}\n{"b": ')
    path.chmod(0o600)
    os.link(path, link)
    repair_tail(path)
    assert path.read_text() == '{"a": 1}\n' and (path.stat().st_mode & 0o777) == 0o600
    assert link.read_text() == '{"a": 1}\n'  # the same file still: not a copy renamed over it


def test_a_report_stopped_before_a_rows_first_game_leaves_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Found by a review: a report run again without --resume emptied each row's file as the row
    # began; a Ctrl-C during its first game lost what the file held.
    import solver.play.report as report

    kinds: dict[str, Any] = {"game_names": ("vanguard",), "difficulties": ("easy",), "policies": ("greedy",)}
    build_report(tmp_path, 3, 5, workers=1, **kinds)
    row = games_file(tmp_path, "vanguard", "easy", "greedy")
    before = row.read_bytes()

    def interrupted(*_args: Any, **_kw: Any) -> Any:
        raise KeyboardInterrupt  # Ctrl-C while the row's first game is played

    monkeypatch.setattr(report, "simulate", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_report(tmp_path, 3, 5, workers=1, **kinds)
    assert row.read_bytes() == before


def test_analyse_resume_knows_a_file_however_its_path_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert (
        runner.invoke(
            app, ["simulate", "--policy", "greedy", "--games", "2", "-j", "1", "--games-out", "g.jsonl"]
        ).exit_code
        == 0
    )
    args = ["--out", "a.jsonl", "--max-states", "200", "--samples", "4", "-j", "1"]
    assert runner.invoke(app, ["analyse", "g.jsonl", *args]).exit_code == 0
    r = runner.invoke(app, ["analyse", "./g.jsonl", *args, "--resume", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["skipped"] == 2, r.output
    # Found by a review: nothing left to do showed nothing; every game in the file is summed up.
    assert [x["game"] for x in json.loads(r.stdout)["summaries"]] == [0, 1]
    shown = runner.invoke(app, ["analyse", "g.jsonl", *args, "--resume"]).stdout
    assert "Games analysed" in shown and "0 games analysed into a.jsonl (2 already in it)" in shown
    # ... and a file of another name (a copy of the same games) is not appended to it.
    (tmp_path / "copy.jsonl").write_bytes((tmp_path / "g.jsonl").read_bytes())
    r = runner.invoke(app, ["analyse", "copy.jsonl", *args, "--resume"])
    assert r.exit_code == 2 and "line 1 is an analysis of a game of" in r.stderr and "not of copy.jsonl" in r.stderr
    analyses = tmp_path / "a.jsonl"
    assert len(analyses.read_text().splitlines()) == 2
    kept = analyses.read_bytes()
    tampered = json.loads(kept.splitlines()[0])
    tampered["summary"]["total_loss"] = "x"
    analyses.write_text(json.dumps(tampered) + "\n")
    r = runner.invoke(app, ["analyse", "g.jsonl", *args, "--resume"])
    assert r.exit_code == 2 and "line 1: its summary is not one this command writes" in r.stderr, r.output
    analyses.write_bytes(kept)
    assert len(analyses.read_text().splitlines()) == 2
    # Found by a review: an editor's byte-order mark on line 1 had game 0 analysed again, and a
    # line that is not an analysis was kept among the ones appended after it.
    analyses.write_bytes(b"\xef\xbb\xbf" + analyses.read_bytes())
    r = runner.invoke(app, ["analyse", "g.jsonl", *args, "--resume", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["skipped"] == 2, r.output
    first, second = analyses.read_text(encoding="utf-8-sig").splitlines()
    analyses.write_text(f"{first}\n{second[:40]}\n{second}\n")
    before = analyses.read_bytes()
    r = runner.invoke(app, ["analyse", "g.jsonl", *args, "--resume"])
    assert r.exit_code == 2 and "a.jsonl: line 2 is not a game analysis" in r.stderr, r.output
    assert analyses.read_bytes() == before
