"""Every key the commands print is documented in docs/formats.md, and values are shown honestly.

The keys are collected from real answers (the shipped puzzles, exact and cut short), so a key
added to an answer without a line in the docs fails here."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cli.main import app, dispatch
from cli.render import hint_view
from conftest import ROOT, examples
from solver.core.plays import FOLD, parse_play
from solver.core.position import parse_position
from solver.search.hint import HintResult, MoveResult, hint
from solver.words.hint import explain

PUZZLES = ROOT / "puzzles"
EXAMPLES = PUZZLES / "examples"
ROUND_START = {"player": [2, 3, 4, 6], "wolf": [3, 4, 5, 8], "final": False}  # a full pile: never exact
runner = CliRunner()


def run(*args: str) -> Any:
    r = runner.invoke(app, dispatch(list(args)), prog_name="lobo-hint")
    assert r.exit_code == 0, (args, r.stdout, r.stderr)
    return r


def answer(*args: str) -> Any:
    return json.loads(run(*args).stdout)


def documented(section: str) -> set[str]:
    """Every name written in backticks in one `###` section of the Answers part of docs/formats.md,
    or in the part's opening (what every answer shares: the keys of a play)."""
    doc = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    part = doc[doc.index("## Answers") :]
    found = re.search(rf"^### {re.escape(section)}.*?(?=^### |\Z)", part, re.M | re.S)
    assert found, f"docs/formats.md has no section {section!r}"
    text = part[: part.index("\n### ")] + found.group(0)
    return {w for code in re.findall(r"`([^`]+)`", text) for w in re.findall(r"\w+", code)}


def keys(js: Any, data_maps: tuple[str, ...] = (), path: str = "") -> set[str]:
    """The names of every key in a JSON answer, nested ones too; data_maps are paths whose keys are
    data (a value's count, a reward's text), not names."""
    out: set[str] = set()
    if isinstance(js, dict):
        for k, v in js.items():
            here = f"{path}.{k}" if path else k
            if path not in data_maps:
                out.add(k)
            out |= keys(v, data_maps, here)
    elif isinstance(js, list):
        for v in js:
            out |= keys(v, data_maps, path + "[]")
    return out


def write(tmp_path: Path, raw: Any, name: str) -> str:
    p = tmp_path / name
    p.write_text(json.dumps(raw))
    return str(p)


def assert_documented(section: str, found: set[str]) -> None:
    missing = found - documented(section)
    assert not missing, f"keys printed but not documented under '### {section}' in docs/formats.md: {sorted(missing)}"


def test_hint_keys_are_documented(tmp_path: Path) -> None:
    start = write(tmp_path, ROUND_START, "start.json")
    lost = write(tmp_path, {"player": [1, 2], "wolf": [9, 9], "party": ["J"], "final": True}, "lost.json")
    hopeless = write(tmp_path, {"player": [1], "wolf": [9, 9, 9], "draw_pile": {"size": 1}, "final": False}, "h.json")
    answers = [
        answer(str(EXAMPLES / "midround.json"), "--json", "--verify"),
        answer(str(EXAMPLES / "midround.json"), "--json", "--objective", "party"),
        answer(str(EXAMPLES / "midround.json"), "--json", "--objective", "score"),  # a note
        answer(str(EXAMPLES / "final.json"), "--json"),
        answer(str(EXAMPLES / "final.json"), "--json", "--objective", "party"),
        answer(str(EXAMPLES / "lobo.json"), "--json"),
        answer(str(PUZZLES / "collection" / "known-pile-01.json"), "--json"),  # a line
        answer(lost, "--json"),
        answer(hopeless, "--json"),
        # Cut short: bounds, estimates (rollouts corrected for their bias).
        answer(str(EXAMPLES / "midround.json"), "--json", "--objective", "party", "--max-states", "60", "-t", "1"),
        answer(start, "--json", "--time-limit", "0.5"),
        answer(start, "--json", "--time-limit", "0.5", "--objective", "party"),
        # lobo has no value network: its round start is estimated by the tuned policy's rollouts.
        answer(
            write(tmp_path, {"game": "lobo", "player": [1, 3, 5, 8], "wolf": [2, 6, 6, 9]}, "l.json"),
            "--json",
            "-t",
            "0.5",
        ),
        # The library with a state budget only: the value network where one fits, else the middle
        # of the bounds (no network values the party).
        hint(parse_position(ROUND_START), max_states=200).to_json(),
        hint(parse_position({**ROUND_START, "objective": "party"}), max_states=200).to_json(),
    ]
    found = set().union(*(keys(a) for a in answers))
    # The answers above reach every part of the contract (else this test would check less than it says).
    for k in ("estimate", "interval", "win_interval", "bounds", "tied", "blunder", "proof", "finish", "line", "note"):
        assert k in found, k
    assert {a["moves"][0].get("estimate", {}).get("method") for a in answers if not a["exact"]} >= {
        "greedy rollouts, corrected for their bias",
        "tuned-policy rollouts, corrected for their bias",
        "lookahead 2 plies, value network beyond, corrected for their bias",
        "middle of the sound bounds",
    }
    assert_documented("hint", found)


def test_finish_check_moves_validate_keys_are_documented(tmp_path: Path) -> None:
    final = str(EXAMPLES / "final.json")
    lost = write(tmp_path, {"player": [1, 2], "wolf": [9, 9], "party": ["J"], "final": True}, "lost.json")
    finish = [
        answer("finish", final, "--json", "--verify"),
        answer("finish", lost, "--json"),
        answer("finish", str(EXAMPLES / "midround.json"), "--json", "--final"),
    ]
    assert_documented("finish", set().union(*(keys(a) for a in finish)))
    check = [
        answer("check", final, "--plays", "7r=7, 6=6, 5=5, 1+2r=3", "--json"),
        answer("check", final, "--plays", "3=3, 5=5", "--json"),
        answer("check", final, "--plays", "9=9", "--json"),
        answer("check", lost, "--plays", "fold", "--json"),
        answer("check", str(EXAMPLES / "midround.json"), "--plays", "1=1", "--json", "--final"),
    ]
    assert_documented("check", set().union(*(keys(a) for a in check)))
    listed = [answer("moves", str(p), "--json") for p in sorted(EXAMPLES.glob("*.json"))]
    valid = [answer("validate", str(p), "--json") for p in sorted(EXAMPLES.glob("*.json"))]
    found = set().union(*(keys(a, ("unseen",)) for a in listed + valid))
    assert "top_card_visible" in found
    assert_documented("moves, validate", found)


def test_batch_keys_are_documented(tmp_path: Path) -> None:
    folder = tmp_path / "puzzles"
    folder.mkdir()
    for name in ("known-pile-01", "finish-lost-01", "finish-won-01", "lobo-01", "hint-easy-01"):
        shutil.copy(PUZZLES / "collection" / f"{name}.json", folder)
    wrong = json.loads((PUZZLES / "collection" / "lobo-02.json").read_text())
    wrong["id"] = "wrong"
    wrong["expect"]["value"] = 99
    (folder / "wrong.json").write_text(json.dumps(wrong))
    final = json.loads((EXAMPLES / "final.json").read_text())
    (folder / "check.json").write_text(json.dumps({"position": final, "plays": "3=3, 5=5"}))
    (folder / "legal.json").write_text(json.dumps({"position": final, "expect": {"plays": []}}))
    (folder / "bad.json").write_text(json.dumps({"player": [11], "wolf": [1]}))
    out = tmp_path / "out.jsonl"
    r = runner.invoke(app, ["batch", str(folder), "--out", str(out), "--jobs", "1", "--json"], prog_name="lobo-hint")
    summary = json.loads(r.stdout)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert {rec["kind"] for rec in records} == {"hint", "finish", "check", "moves", "invalid"}
    assert any(rec.get("check") == "mismatch" for rec in records)
    # A record's answer is the command's answer: its keys are documented with the command's.
    assert_documented(
        "Batch records",
        set().union(*(keys({k: v for k, v in rec.items() if k != "answer"}) for rec in records)) | keys(summary),
    )
    for rec in records:
        if rec["kind"] in ("hint", "finish", "check"):
            assert_documented(rec["kind"], keys(rec["answer"]))


@pytest.mark.usefixtures("quick_clairvoyant")
def test_whole_game_keys_are_documented(tmp_path: Path) -> None:
    found: set[str] = set()
    for game in ("vanguard", "lobo"):
        games = tmp_path / f"{game}.jsonl"
        summary = answer("simulate", "--game", game, "--games", "2", "--policy", "greedy", "--jobs", "1", "--json",
                         "--games-out", str(games))  # fmt: skip
        found |= keys(summary, ("rewards",))
        for line in games.read_text().splitlines():
            found |= keys(json.loads(line))
        found |= keys(answer("replay", str(games), "--game", "0", "--json"))
    report = answer(
        "report",
        "--games",
        "1",
        "--game",
        "vanguard",
        "--samples",
        "2",
        "--max-states",
        "200",
        "--jobs",
        "1",
        "-o",
        str(tmp_path / "r"),
        "--json",
    )
    found |= keys(report, ("results[].rewards",))
    reward = {"phase": "reward", "player": [2, 8], "wolf": [], "party": ["Q", "K"], "discard": [1, 1, 3, 3]}
    path = write(tmp_path, reward, "reward.json")
    found |= keys(answer("reward", path, "--samples", "4", "--policy", "greedy", "--jobs", "1", "--json"))
    assert_documented("Whole games", found)


def test_graph_attributes_are_documented(tmp_path: Path) -> None:
    out = tmp_path / "tree.json"
    run("graph", str(EXAMPLES / "midround.json"), "--depth", "2", "-o", str(out))
    g = json.loads(out.read_text())
    found = set(g) | set(g["graph"]) | {k for n in g["nodes"] for k in n} | {k for e in g["edges"] for k in e}
    assert {"probability", "play", "value"} <= found
    assert_documented("The lookahead graph", found)


# -- how values are shown ---------------------------------------------------------------------


def text_of(pos_raw: dict[str, Any], result: HintResult) -> str:
    console = Console(width=200, file=io.StringIO())
    console.print(hint_view(parse_position(pos_raw), result, explain(result)))
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def negative_zeros(text: str) -> list[str]:
    return [x for x in re.findall(r"-\d+(?:\.\d+)?", text) if float(x) == 0]


def test_no_negative_zero_is_shown() -> None:
    # A value that is 0 but for float rounding (an Over here sums to -1e-17): the table said -0.00%.
    case = json.loads(examples("win")[3].read_text())
    pos = parse_position(case["position"])
    shown = text_of(case["position"], hint(pos))
    assert not negative_zeros(shown), shown
    # The same by construction, in every objective and in the sentence under the board.
    for objective in ("win", "party", "points"):
        raw = (
            dict(case["position"], objective=objective)
            if objective != "points"
            else json.loads((EXAMPLES / "lobo.json").read_text())
        )
        moves = (MoveResult(parse_play("fold"), -0.0, -0.0), MoveResult(parse_play("fold"), -1e-15, 0.0))
        r = HintResult("open", objective, True, FOLD, -0.0, -0.0, moves)
        shown = text_of(raw, r)
        assert not negative_zeros(shown), (objective, shown)
        assert json.dumps(r.to_json()).count("-0") == 0


def test_fractions_for_every_exact_value_or_for_none() -> None:
    raw = json.loads((EXAMPLES / "midround.json").read_text())
    pos = parse_position(raw)
    plays = [parse_play(t) for t in ("1=1", "3>1", "8>6")]

    def table(values: list[float]) -> list[str]:
        moves = tuple(MoveResult(p, v, v) for p, v in zip(plays, values, strict=True))
        r = HintResult("open", "win", True, plays[0], values[0], values[0], moves)
        return [line for line in text_of(raw, r).splitlines() if "%" in line and "wins" not in line]

    rows = table([13 / 15, 0.8, 0.0])
    # (0% and 100% need none: "0.00% (0/1)" said nothing more)
    assert len(rows) == 3 and all(bool(re.search(r"\(\d+/\d+\)", row)) == (i < 2) for i, row in enumerate(rows)), rows
    # 0.123456789123 has no small fraction: then no row shows one, not only that row.
    rows = table([13 / 15, 0.123456789123, 0.0])
    assert len(rows) == 3 and not any("/" in row for row in rows), rows
    assert pos.objective == "game"  # (the example names none: the whole game, RULES.md §6)


def test_ties_in_exact_answers_are_equal_values() -> None:
    for path in [*examples("win"), *examples("points")]:
        raw = json.loads(path.read_text())["position"]
        h = hint(parse_position(raw))
        assert h.exact
        best = next(m for m in h.moves if m.play == h.best)
        for m in h.moves:
            if m is not best:
                assert m.tied == (abs((m.value or 0.0) - (best.value or 0.0)) <= 1e-9), (path.name, str(m.play))
    # The lobo example has two best plays: one is best, the other tied, and the table says so.
    raw = json.loads(examples("points")[0].read_text())["position"]
    h = hint(parse_position(raw))
    assert sum(m.tied for m in h.moves) >= 1
    # Exact and equal: "= best" (found by a review: "≈ best" read as maybe worse), and no note on ≈.
    shown = text_of(raw, h)
    assert "= best" in shown and "≈ best" not in shown and "cannot be told apart from the best play" not in shown


def test_a_tie_that_is_not_exact_says_what_it_means() -> None:
    from dataclasses import replace

    from solver.words.hint import mark_text, ties_note

    raw = json.loads(examples("points")[0].read_text())["position"]
    h = hint(parse_position(raw))
    best = next(m for m in h.moves if m.play == h.best)
    other = next(m for m in h.moves if m.tied)
    assert (mark_text(best, best), mark_text(other, best)) == ("best", "= best") and not ties_note(h.moves, best)
    v = other.value or 0.0
    cut = replace(other, bounds=(v - 1, v + 1), interval=(v - 0.5, v + 0.5), samples=10, method="m")
    assert mark_text(cut, best) == "≈ best"
    assert ties_note([best, cut], best).startswith("≈ best: cannot be told apart from the best play")
    assert mark_text(replace(cut, tied=False), best) == "" and not ties_note([best, replace(cut, tied=False)], best)


@pytest.mark.parametrize("objective", ["win", "party"])
def test_ties_in_cut_short_answers_are_overlapping_ranges(objective: str) -> None:
    h = hint(parse_position(dict(ROUND_START, objective=objective)), time_limit=0.5)
    assert not h.exact
    best = h.moves[0]
    ref = best.known_range()
    assert ref is not None
    for m in h.moves[1:]:
        r = m.known_range()
        assert r is not None
        apart = r[1] < ref[0] - 1e-9 or r[0] > ref[1] + 1e-9
        assert m.tied != apart, str(m.play)
        if m.samples:
            # The range is the estimator's interval where it meets the sound bounds.
            assert m.interval is not None and m.bounds is not None
            assert m.bounds[0] - 1e-12 <= r[0] <= r[1] <= m.bounds[1] + 1e-12


def test_objective_score_outside_a_final_round_is_shown_as_a_win_probability() -> None:
    raw = dict(json.loads((EXAMPLES / "midround.json").read_text()), objective="score")
    h = hint(parse_position(raw))
    shown = text_of(raw, h)
    assert h.note and "Win probability" in shown and "86.67%" in shown and "Score of the best finish" not in shown
    assert explain(h).startswith("1=1 wins 86.7%")
