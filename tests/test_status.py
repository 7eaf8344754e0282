"""The status words as one vocabulary (solver/core/status.py): the members are their words in
every output, the rules keep plain strings, and no module of ours compares a status with a
literal word any more."""

from __future__ import annotations

import ast
import csv
import io
import json
from enum import StrEnum
from pathlib import Path

import pytest

from solver.batch.runner import BatchSummary, Job, solve_one
from solver.core.plays import FOLD
from solver.core.position import parse_position
from solver.core.rules import LOST, WON, apply, initial_state
from solver.core.status import Check, FinishStatus, HintStatus, Outcome, RecordStatus
from solver.finish.finisher import judge_finish, solve_finish

ROOT = Path(__file__).resolve().parent.parent
VOCABULARIES: list[type[StrEnum]] = [Outcome, HintStatus, FinishStatus, RecordStatus, Check]


@pytest.mark.parametrize("member", [m for v in VOCABULARIES for m in v], ids=str)
def test_a_member_is_its_word_in_json_csv_text_and_dict_keys(member: StrEnum) -> None:
    word = member.value
    assert type(word) is str and member == word and hash(member) == hash(word)
    assert json.dumps({"status": member, member: 1}, indent=2) == json.dumps({"status": word, word: 1}, indent=2)
    assert f"{member}" == str(member) == word
    out = io.StringIO()
    csv.DictWriter(out, fieldnames=["status"]).writerow({"status": member})
    assert out.getvalue() == f"{word}\r\n"
    assert {word: "found"}[member] == "found"


def test_the_rules_keep_plain_strings_in_a_state() -> None:
    """A State's outcome goes to code that wants an exact str: the lookahead graph's node kinds,
    which networkx's GraphML writer refuses as a str subclass."""
    assert type(WON) is str and type(LOST) is str
    assert WON == Outcome.WON and LOST == Outcome.LOST
    s = initial_state(parse_position({"player": [5], "wolf": [9, 9]}))
    lost = apply(s, FOLD)
    assert lost.outcome == Outcome.LOST and type(lost.outcome) is str


def test_the_finisher_says_its_status_by_the_vocabulary_and_writes_plain_words() -> None:
    won = initial_state(parse_position({"player": [9, 4, 5, 7], "wolf": [9, 7], "final": True}))
    lost = initial_state(parse_position({"player": [1], "wolf": [9, 7], "final": True, "party": ["J"]}))
    for state, status in ((won, FinishStatus.WIN), (lost, FinishStatus.LOST)):
        f = solve_finish(state)
        assert f.status is status
        js = f.to_json()
        assert js["status"] == status.value and type(js["status"]) is str  # to_json: plain JSON values
    verdict = judge_finish(won, ())
    assert verdict.legal and not verdict.clears and verdict.best.status is FinishStatus.WIN


def test_batch_records_say_their_status_by_the_vocabulary_and_their_json_lines_are_unchanged() -> None:
    bad = solve_one(Job("bad", "bad.json", None, {"player": [11], "wolf": [5]}, None), 5.0, None)
    assert bad["status"] is RecordStatus.INVALID
    line = json.dumps(bad, ensure_ascii=False)
    assert '"status": "invalid"' in line and '"kind": "invalid"' in line
    moves = solve_one(
        Job("moves", "m.json", None, {"position": {"player": [5], "wolf": [5]}, "expect": {"plays": []}}, None),
        5.0,
        None,
    )
    assert moves["status"] is RecordStatus.LISTED and moves["check"] is Check.MISMATCH
    summary = BatchSummary()
    for r in (bad, moves, {"status": "proven_won", "seconds": 0.1}, {"status": FinishStatus.LOST, "seconds": 0.1}):
        summary.add(r)
    assert (summary.invalid, summary.solved, summary.won, summary.lost, summary.mismatched) == (1, 3, 1, 1, 1)


# ---------------------------------------------------------------------------------------------
# Nowhere in the modules that use the vocabulary is a status compared with a literal word

USERS = sorted(
    {
        *(ROOT / "cli").glob("*.py"),
        *(ROOT / "solver" / "finish").glob("*.py"),
        *(ROOT / "solver" / "batch").glob("*.py"),
        *(ROOT / "solver" / "play" / "companion").glob("*.py"),
        ROOT / "solver" / "play" / "policies.py",
        ROOT / "solver" / "search" / "rollout.py",
    }
)
SUBJECTS = {"status", "outcome", "result", "check"}  # what names a status: r.status, r["check"], r.get("status")
WORDS = {m.value for v in VOCABULARIES for m in v}  # not CP-SAT's own ("optimal", "feasible"...)


def _subject(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ):
        return str(node.args[0].value)
    return None


def _words(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [w for e in node.elts for w in _words(e)]
    return []


def literal_status_comparisons(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_subject(o) in SUBJECTS for o in operands):
                found += [f"line {node.lineno}: {w!r}" for o in operands for w in _words(o) if w in WORDS]
    return found


def test_the_check_sees_a_literal_comparison() -> None:
    """The control: the old forms are found, the vocabulary's are not."""
    old = 'if f.status == "win" or r.get("check") == "match" or s["status"] in ("invalid", "error"): pass'
    assert len(literal_status_comparisons(old)) == 4
    assert literal_status_comparisons("if f.status == FinishStatus.WIN or r.objective == 'win': pass") == []
    assert literal_status_comparisons("if status in ('optimal', 'feasible'): pass") == []


@pytest.mark.parametrize("path", USERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_status_is_compared_with_a_literal_word(path: Path) -> None:
    assert literal_status_comparisons(path.read_text(encoding="utf-8")) == []


def test_a_status_search_cut_short_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by a review: a lobo round proven lost with more time was "open" and "exact" with
    # nothing saying that the search for its proof had run out of budget.
    import solver.search.hint as hint_module
    from solver.search.engine import Budget

    raw = {"game": "lobo", "player": [1, 2], "wolf": [9, 9], "draw_pile": {"size": 6}, "objective": "points"}
    settled = hint_module.hint(parse_position(raw), time_limit=5)
    assert settled.status == HintStatus.PROVEN_LOST and "status_stopped" not in settled.stats

    def cut(*_args: object, **_kw: object) -> bool:
        raise Budget

    monkeypatch.setattr(hint_module.WinCheck, "won", cut)
    answer = hint_module.hint(parse_position(raw), time_limit=5).to_json()
    assert answer["status"] == HintStatus.OPEN and answer["exact"] is True and "proof" not in answer
    assert answer["stats"]["status_stopped"] is True and "ran out of budget" in answer["note"]
