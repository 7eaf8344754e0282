"""The command line: dispatch, every command's output forms, and errors as one line with exit 2."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app, dispatch
from conftest import ROOT, examples
from gen import random_position
from solver import __version__
from solver.core.plays import from_json

runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, dispatch(list(args)), prog_name="lobo-hint")


def write(tmp_path: Path, raw: Any, name: str = "pos.json") -> str:
    p = tmp_path / name
    p.write_text(raw if isinstance(raw, str) else json.dumps(raw))
    return str(p)


def test_dispatch_path_or_word() -> None:
    assert dispatch(["pos.json"]) == ["hint", "pos.json"]
    assert dispatch(["pos.json", "--json"]) == ["hint", "pos.json", "--json"]
    assert dispatch(["--json", "pos.json"]) == ["hint", "--json", "pos.json"]
    assert dispatch(["moves", "pos.json"]) == ["moves", "pos.json"]
    assert dispatch(["--version"]) == ["--version"]
    assert dispatch([]) == []


def test_path_as_first_argument_runs_the_hint(tmp_path: Path) -> None:
    path = write(tmp_path, {"player": [5, 1], "wolf": [5, 3], "draw_pile": {"size": 3}, "final": False})
    direct, via_word = run(path, "--json"), run("hint", path, "--json")
    assert direct.exit_code == 0, direct.output
    a, b = json.loads(direct.stdout), json.loads(via_word.stdout)
    del a["stats"], b["stats"]  # timings differ
    assert a == b
    assert "5=5" in run(path).stdout


def test_version_and_help() -> None:
    r = run("--version")
    assert r.exit_code == 0 and __version__ in r.stdout
    for cmd in ("hint", "moves", "validate", "schema", "rules"):
        r = run(cmd, "--help")
        assert r.exit_code == 0 and "Example: lobo-hint" in r.stdout, cmd
    assert "Example" in run("--help").stdout


def test_moves_json_contract(tmp_path: Path) -> None:
    for path in examples("legal"):
        case = json.loads(path.read_text())
        r = run("moves", write(tmp_path, case["position"]), "--json")
        assert r.exit_code == 0, r.output
        got = {from_json(p) for p in json.loads(r.stdout)["moves"]}
        assert got == {from_json(p) for p in case["expect"]["plays"]}, path.name


def test_moves_text_groups_by_kind_with_draws(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        {
            "player": [8, 8, 4, 2],
            "wolf": [4, 3, 6, 2],
            "reserve": [3],
            "party": ["J", "Q"],
            "draw_pile": {"size": 10},
            "final": False,
        },
    )
    out = run("moves", path).stdout
    for words in (
        "Perfect",
        "Sum",
        "Split",
        "Over",
        "Fold",
        "3r=3",
        "2+4=6",
        "8=2+6",
        "8>2",
        "Wolf draws 6",
        "you draw 1",
        "J Q face down",
    ):
        assert words in out, words


def test_validate_shows_the_position(tmp_path: Path) -> None:
    path = write(tmp_path, {"player": [1], "wolf": [2], "draw_pile": {"size": 5, "top": [9]}, "reserve": [4]})
    r = run("validate", path)
    assert r.exit_code == 0
    for words in ("valid", "Reserve", "Draw pile", "5 cards", "known top", "Unseen", "Final round", "yes"):
        assert words in r.stdout, words
    js = json.loads(run("validate", path, "--json").stdout)
    assert js["valid"] and js["position"]["draw_pile"] == {"size": 5, "top": [9]}
    # A reward position (what `lobo-hint reward` reads) is valid too, and says so.
    won = write(tmp_path, {"player": [3, 7], "wolf": [], "party": ["J", "Q", "K"], "phase": "reward"})
    r = run("validate", won)
    assert r.exit_code == 0 and "choose a reward" in r.stdout, r.output
    assert json.loads(run("validate", won, "--json").stdout)["position"]["phase"] == "reward"


@pytest.mark.parametrize("command", ["validate", "moves", "hint"])
def test_every_invalid_position_exits_2_with_one_line(tmp_path: Path, command: str) -> None:
    from test_position import INVALID

    for name, raw, _code, words in INVALID:
        r = run(command, write(tmp_path, raw))
        assert r.exit_code == 2, (name, r.output)
        assert r.stdout == "", name  # nothing half-written
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.stderr, (name, r.stderr)


def test_missing_file_and_bad_json(tmp_path: Path) -> None:
    for path, words in (
        (str(tmp_path / "nope.json"), "cannot read"),
        (write(tmp_path, "{oops"), "not valid JSON"),
        (write(tmp_path, b"\xff\xfe".decode("latin-1")), "not valid JSON"),
        # Positions one a line point to batch (found by a review: "Extra data" and no more).
        (write(tmp_path, '{"player": [1], "wolf": [1]}\n{"player": [2], "wolf": [2]}\n'), "is for lobo-hint batch"),
    ):
        r = run("validate", path)
        assert r.exit_code == 2 and words in r.stderr, r.stderr


def test_fuzzed_garbage_never_tracebacks(tmp_path: Path) -> None:
    rng = random.Random(7)
    atoms: list[Any] = [
        None,
        True,
        False,
        0,
        -1,
        3,
        7.5,
        1e300,
        "",
        "7",
        "Z",
        "K",
        "10♠",
        [],
        {},
        [1, 2],
        {"size": -3},
        "x" * 50,
        [[[]]],
        {"top": "7"},
    ]
    keys = [
        "game",
        "difficulty",
        "player",
        "wolf",
        "reserve",
        "party",
        "discard",
        "draw_pile",
        "final",
        "objective",
        "rules",
        "size",
        "top",
        "hand_size",
        "junk",
    ]

    def garbage(depth: int = 0) -> Any:
        r = rng.random()
        if depth > 2 or r < 0.4:
            return rng.choice(atoms)
        if r < 0.7:
            return [garbage(depth + 1) for _ in range(rng.randint(0, 4))]
        return {rng.choice(keys): garbage(depth + 1) for _ in range(rng.randint(0, 6))}

    for i in range(300):
        if i % 3 == 0:
            raw: Any = random_position(rng)
            key = rng.choice(list(raw))
            raw[key] = garbage()
        else:
            raw = garbage()
        text = json.dumps(raw) if rng.random() < 0.9 else json.dumps(raw)[: rng.randint(0, 30)]
        r = run("validate", write(tmp_path, text))
        assert r.exit_code in (0, 2), (text, r.output)
        assert ("Traceback" not in r.output and r.exception is None) or isinstance(r.exception, SystemExit), text
        if r.exit_code == 2:
            assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_schema_is_json_and_accepts_the_examples() -> None:
    js = json.loads(run("schema").stdout)
    # A position, or a puzzle file wrapping one (tests/test_schema_agreement.py checks it against validate).
    assert js["type"] == "object" and js["else"] == {"$ref": "#/$defs/position"}
    position = js["$defs"]["position"]
    assert position["type"] == "object" and position["required"] == ["player", "wolf"]
    assert set(position["properties"]) >= {
        "game",
        "difficulty",
        "player",
        "wolf",
        "reserve",
        "party",
        "discard",
        "draw_pile",
        "final",
        "objective",
        "rules",
    }
    # Every top-level key the parser accepts, extensions included, is in the schema.
    from solver.core.position import EXTENSION_KEYS, PUZZLE_KEYS, TOP_KEYS

    assert set(position["properties"]) == TOP_KEYS | EXTENSION_KEYS
    assert set(js["$defs"]["puzzle"]["properties"]) == PUZZLE_KEYS


def test_rules_command(tmp_path: Path) -> None:
    v = run("rules").stdout
    assert "Sacrifice" in v and "final round" in v.lower() and "[ruling]" in v
    lobo = run("rules", "--game", "lobo").stdout
    assert "100" in lobo and "Sacrifice" not in lobo
    r = run("rules", "--game", "chess")
    assert r.exit_code == 2
    path = write(tmp_path, {"player": [1], "wolf": [2], "rules": {"final_threshold": 5, "reserve_scores": True}})
    assert "final_threshold = 5" in run("rules", "--position", path).stdout
    # A reward position has rulings too (a review found it refused here).
    won = write(tmp_path, {"phase": "reward", "player": [1, 8], "wolf": [], "rules": {"final_threshold": 6}})
    assert "final_threshold = 6" in run("rules", "--position", won).stdout
    # --game against a position of the other game is refused (found by a review: ignored).
    r = run("rules", "--game", "lobo", "--position", won)
    assert r.exit_code == 2 and "is a vanguard position" in r.output
    assert "final_threshold = 6" in run("rules", "--game", "vanguard", "--position", won).stdout


def test_installed_entry_point_runs_as_a_process(tmp_path: Path) -> None:
    """The real console path: argv dispatch, exit status and stderr, in a separate process."""
    good = write(tmp_path, {"player": [5], "wolf": [5, 2], "draw_pile": {"size": 3}, "final": False}, "good.json")
    bad = write(tmp_path, {"player": [5], "wolf": []}, "bad.json")
    cmd = [sys.executable, "-c", "from cli.main import main; main()"]
    ok = subprocess.run([*cmd, good, "--json"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert ok.returncode == 0 and json.loads(ok.stdout)["moves"], ok.stderr
    err = subprocess.run([*cmd, "validate", bad], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert err.returncode == 2 and err.stdout == "" and len(err.stderr.strip().splitlines()) == 1
    assert "wolf" in err.stderr


FINAL = {"player": [3, 9, 6, 1, 5, 4], "reserve": [7, 2], "wolf": [6, 5, 3, 7], "party": ["J"], "final": True}
LOST = {"difficulty": "easy", "player": [1, 3], "wolf": [8, 6, 5, 1, 8], "party": ["Q", "K"], "final": True}


def test_finish_command_text_json_and_verify(tmp_path: Path) -> None:
    path = write(tmp_path, FINAL)
    r = run("finish", path, "--verify")
    assert r.exit_code == 0, r.output
    assert "Score 26" in r.stdout and "Verified independently" in r.stdout and "other finish" in r.stdout
    js = json.loads(run("finish", path, "--json", "--verify").stdout)
    assert js["status"] == "win" and js["score"] == 26 and js["verified"] is True
    assert js["breakdown"] == {"hand": 16, "party": 10, "reserve": 0}
    lost = json.loads(run("finish", write(tmp_path, LOST, "lost.json"), "--json", "--verify").stdout)
    assert lost["status"] == "lost" and sorted(lost["proof"]["wolf"]) == [8, 8] and lost["verified"]
    assert "only one sacrifice" in lost["proof"]["reason"]


def test_verify_says_what_it_checked_and_calls_an_estimate_unverified(tmp_path: Path) -> None:
    # An estimate with no proof has nothing brute force can re-check: it is not "verified".
    fresh = write(tmp_path, {"player": [2, 5, 7, 9], "wolf": [3, 4, 6, 8], "final": False}, "fresh.json")
    r = run("hint", fresh, "--verify", "-t", "0.3")
    assert r.exit_code == 0 and "Nothing to verify" in r.stdout and "Verified" not in r.stdout
    js = json.loads(run("hint", fresh, "--verify", "-t", "0.3", "--json").stdout)
    assert js["exact"] is False and js["verified"] is None and "nothing to verify" in js["verify_note"]
    lost = write(tmp_path, {"game": "lobo", "player": [1, 2], "wolf": [9, 9, 8]}, "lost.json")
    r = run("hint", lost, "--verify")
    assert r.exit_code == 0 and "Verified independently (brute force): the status proven_lost." in r.stdout
    assert json.loads(run("hint", lost, "--verify", "--json").stdout)["verified"] is True


def test_finish_refuses_a_regular_round_unless_forced(tmp_path: Path) -> None:
    path = write(tmp_path, {"player": [5, 2], "wolf": [5, 2], "draw_pile": {"size": 20}})
    r = run("finish", path)
    assert r.exit_code == 2 and "--final" in r.stderr and r.stdout == ""
    js = json.loads(run("finish", path, "--final", "--json").stdout)
    assert js["treated_as_final"] and js["score"] == 30
    assert run("finish", path, "--final", "--time-limit", "0").exit_code == 2


def test_check_command(tmp_path: Path) -> None:
    path = write(tmp_path, FINAL)
    js = json.loads(run("check", path, "--plays", "1+4+2r=7, 6=6, 5=5, 3=3", "--json").stdout)
    assert js == {**js, "legal": True, "clears": True, "score": 19, "best_score": 26, "optimal": False}
    assert js["better"]
    bad = json.loads(run("check", path, "--plays", "2=2, 6=6", "--json").stdout)
    assert bad["legal"] is False and bad["bad_play"]["index"] == 1 and "2" in bad["bad_play"]["reason"]
    text = run("check", path, "--plays", "7r=7, 4+2r=6, 5=5, 3=3").stdout
    assert "Optimal" in text
    r = run("check", path, "--plays", "7==7")
    assert r.exit_code == 2 and "--plays: cannot read play" in r.stderr
    r = run("check", path, "--plays", " ")  # (found by a review: "no plays given", no option named)
    assert r.exit_code == 2 and "--plays: no plays given" in r.stderr
    own = write(tmp_path, {"position": json.loads(Path(path).read_text()), "plays": "7=="}, "own.json")
    r = run("check", own)
    assert r.exit_code == 2 and f'{own}: "plays": cannot read play' in r.stderr, r.stderr
    assert "the finish folds: the final round is lost" in run("check", path, "--plays", "7r=7, fold").stdout
    # A puzzle file's own "plays" is the finish judged when --plays is not given (as batch judges it).
    puzzle = write(tmp_path, {"position": FINAL, "plays": "7r=7, 4+2r=6, 5=5, 3=3"}, "puzzle.json")
    assert json.loads(run("check", puzzle, "--json").stdout)["optimal"] is True
    assert json.loads(run("check", puzzle, "--plays", "2=2, 6=6", "--json").stdout)["legal"] is False
    r = run("check", path)
    assert r.exit_code == 2 and "--plays: give the finish to judge" in r.stderr


def test_hint_on_a_final_round_gives_the_first_play_of_the_best_finish(tmp_path: Path) -> None:
    js = json.loads(run(write(tmp_path, FINAL), "--json").stdout)
    assert js["status"] == "proven_won" and js["value"] == 26 and js["win_probability"] == 1
    assert js["best"] in js["finish"]
    assert js["moves"][0]["value"] == 26
    lost = json.loads(run(write(tmp_path, LOST, "l.json"), "--json").stdout)
    assert lost["status"] == "proven_lost" and lost["value"] is None and lost["proof"]["wolf"]


def test_a_fold_as_good_for_the_game_is_not_called_a_blunder_beside_best(tmp_path: Path) -> None:
    """Found by a review: "≈ best blunder" on a fold that wins the game as surely (the next deal
    gives the Wolf no card): it gives up the round, and the mark says so without contradiction."""
    pos = {
        "game": "vanguard", "difficulty": "easy", "player": [3, 8], "wolf": [2, 3], "party": ["J", "Q", "K"],
        "discard": [1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8],
        "draw_pile": {"size": 1}, "final": False, "objective": "game",
    }  # fmt: skip
    path = write(tmp_path, pos)
    fold = next(m for m in json.loads(run(path, "--json").stdout)["moves"] if m["play"]["type"] == "fold")
    assert fold["blunder"] and fold["tied"] and fold["value"] == 1  # the JSON keeps both facts
    text = " ".join(run(path).stdout.split())
    assert "blunder" not in text and "gives up a round won" in text  # (the cell wraps)


def test_an_inexact_answer_names_the_budget_that_ran_out(tmp_path: Path) -> None:
    """Found by a review: --max-memory below what the program holds stopped every search, and the
    answer said only "the budget ran out"."""
    pos = write(tmp_path, {
        "game": "vanguard", "difficulty": "standard", "player": [1, 6, 7], "wolf": [8, 9], "reserve": [3],
        "discard": [1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 6, 7, 7, 8, 9, 9], "draw_pile": {"size": 14},
    })  # fmt: skip
    text = " ".join(run(pos, "--max-states", "5").stdout.split())
    assert "(not exact: the state budget ran out)" in text, text
    # A process of its own: a memory budget is the process's (and would stay for the next test).
    cmd = [sys.executable, "-c", "from cli.main import main; main()", pos, "--max-memory", "64M"]
    text = " ".join(subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120).stdout.split())
    assert "(not exact: the memory budget ran out)" in text, text
    assert "what this process itself holds" in text and "give --max-memory" in text, text  # and what to give


def test_hint_json_contract_on_the_examples(tmp_path: Path) -> None:
    for kind, key in (("win", "win_probability"), ("points", "value")):
        for path in examples(kind):
            case = json.loads(path.read_text())
            js = json.loads(run(write(tmp_path, case["position"]), "--json").stdout)
            assert abs(js[key] - case["expect"][key]) < 1e-9
            assert from_json(js["best"]) in {from_json(p) for p in case["expect"]["best_plays"]}
            got = {from_json(m["play"]): m.get(key, m["value"]) for m in js["moves"]}
            for m in case["expect"]["moves"]:
                assert abs(got[from_json(m["play"])] - m["value"]) < 1e-9, (path.name, m)
            assert js["exact"] is True


def test_hint_budget_is_honest(tmp_path: Path) -> None:
    path = write(tmp_path, {"player": [2, 5, 7, 9], "wolf": [3, 4, 6, 8], "draw_pile": {"size": 25}})
    # The state budget cuts the search; under the default 60 s time limit the sampled estimates
    # that follow would run for 20 s, and they are not what this test is about.
    js = json.loads(run(path, "--json", "--max-states", "50", "--time-limit", "1").stdout)
    assert js["exact"] is False and js["status"] == "open" and "proof" not in js
    assert all("bounds" in m for m in js["moves"] if m["play"]["type"] != "fold") or any(
        "bounds" in m for m in js["moves"]
    )
    assert run(path, "--max-states", "0").exit_code == 2


def test_hint_under_a_state_budget_has_no_default_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by a review: `hint --max-states N --samples M` stopped by the default 2 s clock, so
    the same budgets did not give the analysis's values; as batch, a state budget drops it."""
    from solver.search import hint as hint_module

    asked: list[float | None] = []
    real = hint_module.hint

    def spy(*args: Any, **kw: Any) -> Any:
        asked.append(kw.get("time_limit"))
        return real(*args, **{**kw, "time_limit": kw.get("time_limit") or 5.0})  # (quick all the same)

    monkeypatch.setattr(hint_module, "hint", spy)
    path = write(tmp_path, {"player": [2, 5, 7, 9], "wolf": [3, 4, 6, 8], "draw_pile": {"size": 25}})
    for args in (["--max-states", "50", "--samples", "4"], [], ["--max-states", "50", "-t", "3"]):
        assert run(path, "--json", *args).exit_code == 0
    assert asked == [None, 2.0, 3.0]


def test_the_one_line_reason_names_each_overs_draw_and_no_average_of_a_known_pile() -> None:
    """Found by a review: "6r>2 wins …; 7>2 wins … (the Over gives the Wolf 5 card(s))" read as
    either Over's, and a known pile's exact score was "+9.00 on average"."""
    from solver.core.position import parse_position
    from solver.search.hint import hint
    from solver.words.hint import explain

    overs = parse_position({
        "difficulty": "easy", "player": [7], "wolf": [2, 4], "reserve": [3, 6], "party": ["J", "Q", "K"],
        "discard": [1, 2, 2, 2, 3, 3, 4, 5, 5, 6, 6, 7, 7, 8, 8, 8], "draw_pile": {"size": 8, "top": [1, 6, 3, 8]}, "final": False,
    })  # fmt: skip
    line = explain(hint(overs, max_states=20_000, samples=16))
    assert line.startswith("6r>2 (the Wolf draws 4 cards) ") and "; 7>2 (the Wolf draws 5 cards) " in line, line
    known = parse_position(
        {
            "game": "lobo",
            "player": [3, 5, 7, 9],
            "wolf": [1, 4, 7, 8],
            "draw_pile": [2, 6, 3, 4, 8],
            "objective": "points",
        }
    )
    assert explain(hint(known)) == "9=1+8 scores +9; 7=7 scores +8"


def test_a_position_piped_in_as_dash() -> None:
    """Found by a review: `lobo-hint -` said "-: cannot read: No such file or directory"."""
    text = (ROOT / "puzzles" / "examples" / "midround.json").read_text()
    cmd = [sys.executable, "-c", "from cli.main import main; main()"]
    done = subprocess.run([*cmd, "-", "--json"], input=text, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout)["best"], done.stderr
    done = subprocess.run([*cmd, "moves", "-"], input='{"player":', capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and done.stderr.startswith("lobo-hint: error: -: not valid JSON"), done.stderr


def test_hint_objective_option(tmp_path: Path) -> None:
    path = write(tmp_path, json.loads(examples("win")[0].read_text())["position"])
    js = json.loads(run(path, "--json", "--objective", "party").stdout)
    assert js["objective"] == "party" and all(-3 <= m["value"] <= 0 for m in js["moves"])
    assert "win_probability" in js["moves"][0]
    r = run(path, "--objective", "points")
    assert r.exit_code == 2 and "does not fit vanguard" in r.stderr


def test_graph_command(tmp_path: Path) -> None:
    path = write(tmp_path, json.loads(examples("win")[0].read_text())["position"])
    out = tmp_path / "tree.graphml"
    r = run("graph", path, "--depth", "1", "-o", str(out))
    assert r.exit_code == 0 and out.exists() and "nodes" in r.stdout
    bad = run("graph", path, "-o", str(tmp_path / "tree.png"))
    assert bad.exit_code == 2 and ".graphml" in bad.stderr and not (tmp_path / "tree.png").exists()


def test_deeply_nested_json_is_refused_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "[" * 100_000)
    r = run("validate", path)
    assert r.exit_code == 2 and "nested too deeply" in r.stderr and path in r.stderr
    b = run("batch", path, "--json", "-j", "1")
    assert b.exit_code == 2 and json.loads(b.stdout)["invalid"] == 1  # an invalid puzzle: exit 2


def test_counts_of_one_are_singular(tmp_path: Path) -> None:
    from solver.words.numbers import count_text

    assert (count_text(1), count_text(2), count_text(1, "node")) == ("1 card", "2 cards", "1 node")
    # Every card but one accounted for: one unseen card.
    discard = [v for v in range(1, 10) for _ in range(4)]
    for card in (1, 2, 3, 9):
        discard.remove(card)
    out = run(write(tmp_path, {"player": [1, 2], "wolf": [3], "discard": discard, "final": True}), "--verify").stdout
    assert "(1 card)" in out and "(1 cards)" not in out


def _closing(*fds: int) -> Any:
    import os

    def close() -> None:
        for fd in fds:
            os.close(fd)

    return close


def test_a_closed_standard_stream_is_no_traceback_and_loses_no_result(tmp_path: Path) -> None:
    # Found by a review: with stdout closed (`>&-`) every command ended in a traceback (sys.stdout
    # is None), an invalid file included (status 1, not 2); with stderr closed a batch wrote none
    # of its results; with stdin closed `play` failed at once.
    cmd = [sys.executable, "-c", "from cli.entry import run; run()"]
    example = str(ROOT / "puzzles" / "examples" / "midround.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"player": [1')
    shut = subprocess.run([*cmd, "validate", example], preexec_fn=_closing(1), capture_output=False, stderr=subprocess.PIPE, text=True, cwd=ROOT)  # fmt: skip
    assert shut.returncode == 0 and "standard output is closed" in shut.stderr and "Traceback" not in shut.stderr
    shut = subprocess.run([*cmd, "validate", str(bad)], preexec_fn=_closing(1), stderr=subprocess.PIPE, text=True, cwd=ROOT)  # fmt: skip
    assert shut.returncode == 2 and "not valid JSON" in shut.stderr and "Traceback" not in shut.stderr
    folder = tmp_path / "puzzles"
    folder.mkdir()
    for p in (ROOT / "puzzles" / "examples").glob("*.json"):
        (folder / p.name).write_text(p.read_text())
    out = tmp_path / "r.jsonl"
    done = subprocess.run([*cmd, "batch", str(folder), "-t", "0.3", "-j", "1", "--out", str(out)], preexec_fn=_closing(2), stdout=subprocess.DEVNULL, cwd=ROOT)  # fmt: skip
    assert done.returncode == 0 and len(out.read_text().splitlines()) == len(list(folder.glob("*.json")))
    play = subprocess.run([*cmd, "play", "--virtual", "--seed", "3"], preexec_fn=_closing(0), capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert play.returncode == 0 and "Traceback" not in play.stderr, play.stderr
