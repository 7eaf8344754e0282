"""Batch messages and exit codes (issue 13): a path naming nothing, invalid puzzles listed with
their reason, workers that end with their parent, and a cluster with no worker yet."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from conftest import ROOT
from processes import MAIN_WITH_CTRL_C, children, kill_parent_and_wait

runner = CliRunner()
GOOD = {"player": [5, 2], "wolf": [5, 2], "draw_pile": {"size": 3}, "final": False}
SUMMARY_KEYS = {
    "total",
    "solved",
    "proven_won_or_won",
    "proven_lost_or_lost",
    "open",
    "not_exact",
    "invalid",
    "errors",
    "matched",
    "mismatched",
    "skipped_by_resume",
    "seconds_p50",
    "seconds_p95",
    "seconds_max",
    "mismatches",
}


def test_a_path_naming_nothing_is_a_usage_error_and_leaves_out_alone(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text('{"id": "kept"}\n')
    (tmp_path / "empty").mkdir()
    for args, said in (
        ([str(tmp_path / "no" / "such")], "no such file or folder"),
        ([str(tmp_path / "*.nothing")], "no file matches"),
        ([str(tmp_path / "empty")], "holds no .json, .jsonl or .railway file"),
    ):
        r = runner.invoke(app, ["batch", *args, "--out", str(out), "-j", "1"])
        assert r.exit_code == 2 and not r.stdout, args
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("lobo-hint: error: ") and args[0] in lines[0], r.stderr
        assert said in lines[0]
        assert out.read_text() == '{"id": "kept"}\n'  # neither truncated nor appended to
    r = runner.invoke(app, ["batch", str(tmp_path / "missing.json"), "--out", str(tmp_path / "new.jsonl")])
    assert r.exit_code == 2 and not (tmp_path / "new.jsonl").exists()


def test_a_folder_that_cannot_be_read_is_said_so_not_passed_over(tmp_path: Path, monkeypatch: Any) -> None:
    # A folder without read permission (a user other than root; here its listing fails as it
    # would): named as such, not "holds no .json file"; one below others is an invalid puzzle.
    real = os.scandir
    closed = {str(tmp_path / "closed"), str(tmp_path / "open" / "sub")}

    def scandir(path: Any = ".") -> Any:
        if os.fspath(path) in closed:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    for folder in ("closed", "open/sub"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "p.json").write_text(json.dumps(GOOD))
    (tmp_path / "open" / "good.json").write_text(json.dumps({"id": "good", **GOOD}))
    monkeypatch.setattr(os, "scandir", scandir)
    r = runner.invoke(app, ["batch", str(tmp_path / "closed"), "-j", "1"])
    assert r.exit_code == 2 and r.stderr.splitlines() == [
        f"lobo-hint: error: {tmp_path / 'closed'}: cannot read the folder: Permission denied"
    ]
    r = runner.invoke(app, ["batch", str(tmp_path / "open"), "-j", "1", "--json"])
    assert r.exit_code == 2, r.output
    summary = json.loads(r.stdout)
    assert summary["solved"] == 1 and summary["invalid"] == 1
    assert f"{tmp_path / 'open' / 'sub'}: cannot read the folder: Permission denied" in r.stderr


def invalid_folder(tmp_path: Path, bad_files: int) -> Path:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "good.json").write_text(json.dumps({"id": "good", **GOOD}))
    for i in range(bad_files):
        (folder / f"bad{i}.json").write_text(json.dumps({"player": [5, "Z"], "wolf": [5]}))
    rows = [json.dumps({"id": "line1", **GOOD}), "{oops", json.dumps({"id": "line3", "resrve": [], **GOOD})]
    (folder / "more.jsonl").write_text("\n".join(rows) + "\n")
    return folder


def test_invalid_puzzles_are_listed_with_their_reason_and_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    r = runner.invoke(app, ["batch", str(invalid_folder(tmp_path, 1)), "--out", str(out), "-j", "1", "-t", "2"])
    assert r.exit_code == 2, r.output
    listed = [line for line in r.stderr.splitlines() if line.startswith("lobo-hint: invalid: ")]
    assert len(listed) == 3
    assert any("bad0.json: player[1]: bad card 'Z'" in line for line in listed)
    assert any("more.jsonl:2: not valid JSON" in line for line in listed)
    assert any("more.jsonl:3 (id line3): unknown key 'resrve': did you mean 'reserve'?" in line for line in listed)
    # Every puzzle still has its line: the bad ones did not stop the good ones.
    records = {x["id"]: x for x in map(json.loads, out.read_text().splitlines())}
    assert len(records) == 5 and records["good"]["status"] != "invalid" and records["line1"]["status"] != "invalid"
    # Every invalid record's error names where it is, as validate does, read or not (a review).
    for x in records.values():
        if x["status"] == "invalid":
            place = f"{x['source']}:{x['line']}" if x["line"] else x["source"]
            assert x["error"].startswith(f"{place}: ") and not x["error"].startswith(f"{place}: {place}"), x


def test_many_invalid_puzzles_show_the_first_five_and_a_count(tmp_path: Path) -> None:
    r = runner.invoke(app, ["batch", str(invalid_folder(tmp_path, 8)), "-j", "1", "-t", "2", "--json"])
    assert r.exit_code == 2
    listed = [line for line in r.stderr.splitlines() if line.startswith("lobo-hint: invalid: ")]
    assert len(listed) == 5 and "lobo-hint: and 5 more (give --out to keep every one)" in r.stderr
    summary = json.loads(r.stdout)
    assert set(summary) == SUMMARY_KEYS | {"invalid_puzzles"}  # the old keys are all kept
    assert summary["invalid"] == 10 and len(summary["invalid_puzzles"]) == 10
    assert {"id", "source", "line", "error"} == set(summary["invalid_puzzles"][0])


def test_a_puzzle_expected_to_be_invalid_is_no_failure(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "meant.json").write_text(
        json.dumps({"position": {"player": [5, "Z"], "wolf": [5]}, "expect": {"invalid": "x"}})
    )
    (folder / "good.json").write_text(json.dumps({"id": "good", **GOOD}))
    r = runner.invoke(app, ["batch", str(folder), "-j", "1", "--check"])
    assert r.exit_code == 0 and "lobo-hint: invalid" not in r.stderr, r.output


def test_a_huge_number_in_a_jsonl_line_is_one_invalid_puzzle(tmp_path: Path) -> None:
    f = tmp_path / "p.jsonl"
    f.write_text('{"player": [5, ' + "9" * 5000 + '], "wolf": [5]}\n' + json.dumps({"id": "good", **GOOD}) + "\n")
    r = runner.invoke(app, ["batch", str(f), "-j", "1", "--json"])
    assert r.exit_code == 2
    summary = json.loads(r.stdout)
    assert summary["total"] == 2 and summary["invalid"] == 1 and summary["solved"] == 1
    assert "p.jsonl:1: player[1]: bad card 99999999… (5000 digits)" in r.stderr


def test_a_byte_order_mark_and_a_line_cut_short_in_jsonl(tmp_path: Path) -> None:
    """Found by a review: a .jsonl saved with a byte-order mark was refused on line 1 (a .json was
    read), and a line cut short was said to be wrong at column 1, the start of the next line."""
    good = json.dumps({"id": "good", **GOOD})
    cut = good[:-1]
    f = tmp_path / "p.jsonl"
    f.write_bytes(b"\xef\xbb\xbf" + good.encode() + b"\r\n" + cut.encode() + b"\n" + cut.encode())
    r = runner.invoke(app, ["batch", str(f), "-j", "1", "--json"])
    summary = json.loads(r.stdout)
    assert summary["total"] == 3 and summary["solved"] == 1 and summary["invalid"] == 2, r.output
    for n in (2, 3):
        assert f"p.jsonl:{n}: not valid JSON: Expecting ',' delimiter at column {len(cut) + 1}" in r.stderr, r.stderr


def test_the_exit_codes_are_in_the_help() -> None:
    r = runner.invoke(app, ["batch", "--help"])
    assert r.exit_code == 0
    text = " ".join(r.stdout.split())
    assert "Exit status" in text and "2: a bad argument" in text and "130: interrupted" in text


# Workers end with their parent -------------------------------------------------------------------


def test_workers_end_when_the_batch_is_killed(tmp_path: Path) -> None:
    slow = tmp_path / "slow.jsonl"
    rows = [{"id": f"s{i}", "player": [2, 5, 7, 9], "wolf": [3, 4, 6, 4 + i], "final": False} for i in range(4)]
    slow.write_text("\n".join(map(json.dumps, rows)) + "\n")
    cmd = [sys.executable, "-c", "from cli.main import main; main()", "batch", str(slow), "-j", "2", "-t", "60"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids, left = kill_parent_and_wait(proc, 2, within=5)
    assert len(kids) >= 2 and not left, (kids, left)


def test_ctrl_c_stops_a_parallel_batch_at_once_with_one_line(tmp_path: Path) -> None:
    slow = tmp_path / "slow.jsonl"
    rows = [{"id": f"s{i}", "player": [2, 5, 7, 9], "wolf": [3, 4, 6, 4 + i], "final": False} for i in range(4)]
    slow.write_text("\n".join(map(json.dumps, rows)) + "\n")
    cmd = [sys.executable, "-c", MAIN_WITH_CTRL_C, "batch", str(slow), "-j", "2", "-t", "60"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline and len(children(proc.pid)) < 2:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
    try:
        _, err = proc.communicate(timeout=20)  # not after the 60 s the puzzles in flight would take
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert err.decode().splitlines() == ["lobo-hint: interrupted; no --out: no result was kept"]


# A cluster with no worker ------------------------------------------------------------------------


@contextmanager
def batch_waiting_for_workers(*args: str) -> Iterator[tuple[Any, subprocess.Popen[str], str]]:
    """A batch started on a local cluster with no worker: the cluster, the batch's process, and
    the first line it said (within a minute; before a fix it said nothing, forever)."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=None
    ) as cluster:
        cmd = [sys.executable, "-c", "from cli.main import main; main()", "batch", *args, "--cluster"]
        proc = subprocess.Popen(
            [*cmd, cluster.scheduler_address], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert proc.stderr is not None
        try:
            said = select.select([proc.stderr], [], [], 60)[0]
            yield cluster, proc, proc.stderr.readline() if said else ""
        finally:
            proc.kill()


def test_a_cluster_with_no_worker_says_it_waits_and_carries_on_when_one_joins(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    for i in range(3):
        (folder / f"p{i}.json").write_text(
            json.dumps({"id": f"p{i}", "player": [i + 1, 2], "wolf": [i + 1], "final": True})
        )
    out = tmp_path / "r.jsonl"
    with batch_waiting_for_workers(str(folder), "--out", str(out), "--json") as (cluster, proc, first):
        assert first.strip() == f"lobo-hint: waiting for workers at {cluster.scheduler_address}: 0 connected", first
        assert proc.poll() is None and not out.exists()  # nothing solved without a worker: no file yet
        cluster.scale(1)
        stdout, rest = proc.communicate(timeout=120)
    assert proc.returncode == 0, rest
    summary: dict[str, Any] = json.loads(stdout)
    assert summary["total"] == 3 and summary["solved"] == 3
    assert {json.loads(line)["id"] for line in out.read_text().splitlines()} == {"p0", "p1", "p2"}


def test_a_scheduler_lost_mid_run_is_one_line_and_the_out_file_is_left_as_it_was(tmp_path: Path) -> None:
    """Found by a review: three tracebacks, no summary, and (before the first result) an emptied
    --out. Lost while its tasks wait for a worker: nothing finished, the file as it was."""
    puzzle = tmp_path / "p.json"
    puzzle.write_text(json.dumps({"id": "p", "player": [1, 2], "wolf": [1], "final": True}))
    out = tmp_path / "r.jsonl"
    out.write_text('{"source": "earlier.json", "status": "solved"}\n')
    from solver.parallel.cluster import CONNECT_SECONDS

    with batch_waiting_for_workers(str(puzzle), "--out", str(out)) as (cluster, proc, first):
        assert "waiting for workers" in first, first
        t0 = time.monotonic()
        cluster.close()
        _, err = proc.communicate(timeout=60)
    # Said at once, not after the client's reconnection gave up (CONNECT_SECONDS: one run in five
    # or so, before run_on_dask looked at the client's connection itself).
    assert time.monotonic() - t0 < CONNECT_SECONDS / 2, err
    assert proc.returncode == 1, err
    [line] = err.splitlines()
    assert line.startswith("lobo-hint: error: --cluster: the cluster stopped the work (") and line.endswith(
        f"; no result finished: {out} left as it was"
    ), line
    assert out.read_text() == '{"source": "earlier.json", "status": "solved"}\n'


def test_a_cluster_where_nothing_listens_is_said_at_once(tmp_path: Path) -> None:
    """Issue 26: it took 31 s (Dask retries a refused connection until its timeout)."""
    import socket

    from solver.parallel import ClusterError, connect
    from solver.parallel.cluster import CONNECT_SECONDS

    with socket.socket() as s:  # a port nobody listens on: bound, never listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        t0 = time.monotonic()
        with pytest.raises(ClusterError, match="cannot reach the scheduler"):
            connect(f"tcp://127.0.0.1:{port}")
        assert time.monotonic() - t0 < CONNECT_SECONDS  # refused at once, not waited on


def test_a_server_that_is_no_scheduler_is_said_so_not_a_traceback() -> None:
    """Something else answering at the address (a web server here): its bytes would read as a
    Dask message of exabytes (a MemoryError); the command says what it found instead."""
    import socket
    import threading

    from solver.parallel import ClusterError, connect

    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen()

        def answer() -> None:
            while True:
                try:
                    c, _ = srv.accept()
                    with c:
                        c.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                except OSError:
                    return

        threading.Thread(target=answer, daemon=True).start()
        with pytest.raises(ClusterError, match="is not a Dask scheduler"):
            connect(f"tcp://127.0.0.1:{srv.getsockname()[1]}")


def test_results_are_named_for_what_they_are_and_railway_puzzles_are_solved(tmp_path: Path) -> None:
    # Found by a review: both were "unknown key 'source'" or "unknown key 'deck'"; a later review
    # found the contract's railway examples "invalid" in a batch over its examples: they are solved
    # (as `railway lobo --json` answers) and checked.
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "good.json").write_text(json.dumps({"id": "good", **GOOD}))
    r = runner.invoke(app, ["batch", str(folder), "--out", str(folder / "old.jsonl"), "-j", "1", "-t", "1"])
    assert r.exit_code == 0, r.output
    railway = ROOT / "tests" / "examples" / "railway" / "00.json"
    (folder / "railway.json").write_text(railway.read_text())
    wrong = json.loads(railway.read_text())
    wrong["expect"]["lobo"] = not wrong["expect"]["lobo"]
    (folder / "wrong.json").write_text(json.dumps(wrong))
    out = tmp_path / "r.jsonl"
    r = runner.invoke(app, ["batch", str(folder), "-j", "1", "-t", "1", "--check", "--out", str(out)])
    lines = [line for line in r.stderr.splitlines() if "invalid" in line]
    assert any("old.jsonl:1" in line and "a line of batch's results (--out), not a puzzle" in line for line in lines)
    records = {Path(x["source"]).name: x for x in map(json.loads, out.read_text().splitlines())}
    expect = json.loads(railway.read_text())["expect"]
    solved = records["railway.json"]
    assert solved["kind"] == "railway" and solved["check"] == "match" and solved["answer"]["lobo"] == expect["lobo"]
    assert len(solved["answer"]["journeys"]) == expect["journeys_count"]
    assert records["wrong.json"]["check"] == "mismatch" and "lobo" in records["wrong.json"]["mismatch"][0]


def test_a_second_run_on_the_same_out_file_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    """Found by a review: two batches writing one --out left duplicates and a spliced line."""
    from solver.core.files import append_locked

    puzzle = tmp_path / "p.json"
    puzzle.write_text(json.dumps({"id": "p", "player": [1, 2], "wolf": [1], "final": True}))
    out = tmp_path / "r.jsonl"
    before = '{"source": "earlier.json", "status": "solved"}\n'
    for resume in (False, True):
        out.write_text(before)
        with append_locked(out):  # another run writing it
            r = runner.invoke(app, ["batch", str(puzzle), "--out", str(out), *(["--resume"] if resume else [])])
        assert r.exit_code == 2 and "another run is writing" in r.output, (resume, r.output)
        assert out.read_text() == before
    out.write_text(before := '{"my": "notes"}\n')
    r = runner.invoke(app, ["batch", str(puzzle), "--out", str(out)])
    # Found by a review: a file of something else, named by mistake, was emptied without a word.
    assert r.exit_code == 2 and "holds something other than batch results" in r.output, r.output
    assert out.read_text() == before
    out.unlink()
    assert runner.invoke(app, ["batch", str(puzzle), "--out", str(out)]).exit_code == 0
    assert json.loads(out.read_text())["id"] == "p"
    again = runner.invoke(app, ["batch", str(puzzle), "--out", str(out)])  # its own results: written again
    assert again.exit_code == 0 and json.loads(out.read_text())["id"] == "p"


def test_check_with_nothing_to_check_says_so(tmp_path: Path) -> None:
    # Found by a review: "matched 0" and exit status 0 read as a pass.
    puzzle = tmp_path / "p.json"
    puzzle.write_text(json.dumps({"id": "p", "player": [1, 2], "wolf": [1], "final": True}))
    r = runner.invoke(app, ["batch", str(puzzle), "--check"])
    assert r.exit_code == 0 and "--check: no puzzle solved had an expect: nothing was checked" in r.stderr
    r = runner.invoke(app, ["batch", str(puzzle)])
    assert "nothing was checked" not in r.stderr


def test_a_dash_for_out_is_refused_and_makes_no_file(tmp_path: Path, monkeypatch: Any) -> None:
    # Found by a review: `--out -` wrote a file named "-".
    monkeypatch.chdir(tmp_path)
    puzzle = tmp_path / "p.json"
    puzzle.write_text(json.dumps({"id": "p", "player": [1, 2], "wolf": [1], "final": True}))
    for args in (["batch", str(puzzle), "--out", "-"], ["simulate", "--games", "1", "--games-out", "-"]):
        r = runner.invoke(app, args)
        assert r.exit_code == 2 and "'-' names no file" in r.stderr, r.output
    assert not (tmp_path / "-").exists()


def test_a_task_submitted_as_the_scheduler_is_lost_does_not_wait_for_the_reconnection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The race behind the test above's slow runs, made certain: a client that lost its scheduler
    (Dask's status `connecting`) with a task it never cancelled stops the work at once."""
    from concurrent.futures import CancelledError

    from solver.parallel import cluster

    class Nothing:  # an as_completed whose tasks never finish
        def next_batch(self, block: bool) -> list[Any]:
            assert not block
            return []

    class Lost:
        status = "connecting"

    waits: list[float] = []
    monkeypatch.setattr(cluster.time, "sleep", waits.append)  # not a clock: whether it waited at all
    with pytest.raises(CancelledError, match="connection to the scheduler was lost"):
        cluster._finished(Nothing(), Lost())
    assert waits == []


def test_ctrl_c_in_a_resumed_batch_counts_what_the_file_holds(tmp_path: Path, monkeypatch: Any) -> None:
    """Found by a review: a resumed run stopped said "the 4 finished results" of a file of 8."""
    import solver.batch.runner as runner_module

    f = tmp_path / "p.jsonl"
    f.write_text("".join(json.dumps({"id": f"p{i}", **GOOD, "player": [i + 1, 2]}) + "\n" for i in range(4)))
    out = tmp_path / "r.jsonl"
    assert runner.invoke(app, ["batch", str(f), "--out", str(out), "-j", "1"]).exit_code == 0
    out.write_text("".join(out.read_text().splitlines(keepends=True)[:2]))  # two kept, two to solve
    real = runner_module.run_batch

    def stopped_after_one(jobs: Any, **kw: Any) -> Any:
        given = kw["on_result"]

        def once(record: dict[str, Any]) -> None:
            given(record)
            raise KeyboardInterrupt

        return real(jobs, **{**kw, "on_result": once})

    monkeypatch.setattr(runner_module, "run_batch", stopped_after_one)
    r = runner.invoke(app, ["batch", str(f), "--out", str(out), "-j", "1", "--resume"])
    assert r.exit_code == 130 and "the 3 finished results are in" in r.stderr, (r.exit_code, r.stderr)
    assert len(out.read_text().splitlines()) == 3
