"""The evaluator's tables (solver/search/evaluator.py): how they are made from samples
(solver/train/evaluator_tables.py), that the shipped file fits the layout the search reads it in,
and how each value's own standard error reaches the answers that read it."""

from __future__ import annotations

import json
import math
import random
import time
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conftest import engine_sample_sizes
from gen import A_REWARD
from solver.core.position import parse_position
from solver.core.rules import apply, initial_state, legal_plays
from solver.search import evaluator
from solver.search.evaluator import EvaluatorError
from solver.search.expectimax import EV_ERRORS, EV_LOBO, EV_PILES, EV_RESERVE, EV_SIZE, EV_TARGET, EV_VANGUARD
from solver.train import evaluator_tables, provenance


def _race_by_recursion(rounds: list[tuple[int, ...]], target: int) -> dict[tuple[int, int], Fraction]:
    """The race to `target` by plain recursion on the scores, in fractions, as the builder states
    its round model: at scores (p, w) a round is drawn from the rounds that started with both sides
    needing as much (the bands of NEED_EDGES), mixed with all the rounds at the weight SHRINK; from
    all the rounds (won: the Player scores the points, lost: the Wolf) where none started so."""

    def band(need: int) -> int:
        return sum(need > edge for edge in evaluator_tables.NEED_EDGES)

    shrink = Fraction(evaluator_tables.SHRINK)
    pooled = [(bool(r[0]), max(1, r[1])) for r in rounds]

    @cache
    def draw(bp: int, bw: int) -> dict[tuple[bool, int], Fraction]:
        mine = [
            (bool(r[0]), max(1, r[1]))
            for r in rounds
            if len(r) == 4 and (band(target - r[2]), band(target - r[3])) == (bp, bw)
        ]
        out: dict[tuple[bool, int], Fraction] = {}
        for o in pooled:
            out[o] = out.get(o, Fraction(0)) + (shrink / len(pooled) if mine else Fraction(1, len(pooled)))
        for o in mine:
            out[o] += 1
        total = sum(out.values())
        return {o: x / total for o, x in out.items()}

    @cache
    def v(p: int, w: int) -> Fraction:
        total = Fraction(0)
        for (won, points), prob in draw(band(target - p), band(target - w)).items():
            if won:
                total += prob * (1 if p + points >= target else v(p + points, w))
            else:
                total += prob * (0 if w + points >= target else v(p, w + points))
        return total

    return {(p, w): v(p, w) for p in range(target) for w in range(target)}


def test_the_race_table_is_the_race_solved_by_recursion() -> None:
    rng = random.Random("race")
    for _ in range(20):
        target = rng.randint(3, 14)
        rounds = [(rng.random() < 0.5, rng.randint(0, 9)) for _ in range(rng.randint(1, 12))]
        got = evaluator_tables._lobo_race(rounds, target)
        want = _race_by_recursion(rounds, target)  # rounds without scores: one distribution
        for (p, w), x in want.items():
            assert abs(got[p * target + w] - float(x)) < 1e-12, (rounds, target, p, w)


def test_the_banded_race_table_is_the_race_solved_by_recursion() -> None:
    # Rounds kept with the scores they started from: each pair of bands of the points needed has its
    # own round distribution (rounds without scores count in the pooled one only).
    rng = random.Random("banded race")
    for _ in range(12):
        target = rng.randint(12, 60)
        rounds: list[tuple[int, ...]] = []
        for _ in range(rng.randint(1, 30)):
            won, points = rng.random() < 0.5, rng.randint(0, 15)
            if rng.random() < 0.8:
                rounds.append((won, points, rng.randrange(target), rng.randrange(target)))
            else:
                rounds.append((won, points))
        got = evaluator_tables._lobo_race(rounds, target)
        want = _race_by_recursion(rounds, target)
        for (p, w), x in want.items():
            assert abs(got[p * target + w] - float(x)) < 1e-9, (rounds, target, p, w)


def test_the_banded_race_finds_a_round_played_differently_near_the_end() -> None:
    # A race whose Player wins a round more often when it needs 10 points or fewer (as the hint
    # plays for any win there): the table made from its rounds must find the truth near the end,
    # where one distribution for every round is wrong by far.
    target = 100

    def chance(p: int) -> float:
        return 0.8 if target - p <= 10 else 0.4

    truth: dict[tuple[int, int], float] = {}
    for total in range(2 * target - 2, -1, -1):
        for p in range(max(0, total - target + 1), min(target - 1, total) + 1):
            w = total - p
            x = 0.0
            for pts in range(1, 16):
                x += chance(p) / 15 * (1.0 if p + pts >= target else truth[p + pts, w])
                x += (1 - chance(p)) / 15 * (0.0 if w + pts >= target else truth[p, w + pts])
            truth[p, w] = x
    rng = random.Random("near the end")
    rounds: list[tuple[int, ...]] = []
    for _ in range(4000):
        p = w = 0
        while p < target and w < target:
            won, pts = rng.random() < chance(p), rng.randint(1, 15)
            rounds.append((won, pts, p, w))
            p, w = (p + pts, w) if won else (p, w + pts)
    banded = evaluator_tables._lobo_race(rounds, shrink=20.0)  # a light shrinkage: the bands alone
    pooled = evaluator_tables._lobo_race([r[:2] for r in rounds])
    for p, w, within in ((95, 60, 0.03), (80, 70, 0.03), (70, 70, 0.03), (40, 40, 0.03), (0, 0, 0.03), (92, 90, 0.1)):
        # Near the end of both sides few rounds were played: there the shrinkage towards all the
        # rounds costs some of the truth, yet far less than one distribution does.
        got = banded[p * target + w]
        assert abs(got - truth[p, w]) < within, (p, w, got, truth[p, w])
        assert abs(got - truth[p, w]) < abs(pooled[p * target + w] - truth[p, w])
    assert abs(pooled[92 * target + 90] - truth[92, 90]) > 0.3


def _truth(pile: int, active: int, reserve: int) -> float:
    """A smooth chance to win from a deal: more members, more reserve and a smaller pile help."""
    return 1.0 / (1.0 + math.exp(-(-2.5 + 0.9 * active + 0.35 * reserve - 0.04 * pile)))


def test_a_vanguard_table_is_monotone_and_its_errors_cover_the_truth() -> None:
    # Samples drawn from a known table, as many per cell as the hint's own games give the common
    # cells and as few as they give the rare ones: the table made from them must be monotone, and
    # the true value must lie within 1.96 of each cell's own standard error in about 95% of the
    # cells that had samples (shrinkage towards the neighbours biases rare cells a little).
    rng = random.Random("vanguard-table")
    samples = []
    for pile in range(17, 36):
        for active in (1, 2, 3):
            for reserve in range(EV_RESERVE):
                n = rng.choice([0, 1, 3, 10, 30, 100, 300])
                samples += [(pile, active, reserve, rng.random() < _truth(pile, active, reserve)) for _ in range(n)]
    values, errors, worst = evaluator_tables._smooth_vanguard(samples, 9)
    assert len(values) == len(errors) == EV_VANGUARD
    seen = {(p, a, r) for p, a, r, _ in samples}
    covered = total = 0
    for pile in range(EV_PILES):
        for active in (1, 2, 3):
            at = (pile * 4 + active) * EV_RESERVE
            for reserve in range(EV_RESERVE):
                if reserve:
                    assert values[at + reserve] >= values[at + reserve - 1]
                if active > 1:
                    assert values[at + reserve] >= values[at - EV_RESERVE + reserve]
                assert 0.0 < errors[at + reserve] <= 0.5
                if (pile, active, reserve) in seen:
                    total += 1
                    covered += abs(values[at + reserve] - _truth(pile, active, reserve)) <= 1.96 * errors[at + reserve]
    assert total > 300
    assert covered / total >= 0.9, (covered, total)
    assert worst == max(errors[(p * 4 + a) * EV_RESERVE + r] for p, a, r in seen)


def test_tables_made_again_from_their_samples_are_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # --from-samples re-smooths what --samples-out kept, playing nothing: the same tables. Neither
    # call writes the shipped file. A build says how far it has played, game by game at this size.
    kept = tmp_path / "samples.json"
    built = evaluator_tables.build(3, 5, "greedy", 1, ("vanguard", "lobo"), (8,), kept)
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if "games played" in line] == [
        "vanguard easy: 1/3 games played",
        "vanguard easy: 2/3 games played",
        "vanguard easy: 3/3 games played",
        "lobo easy: 1/1 games played",
    ]
    again = evaluator_tables.rebuild(json.loads(kept.read_text()))
    assert again["values"] == built["values"] and again["errors"] == built["errors"]
    assert built["parts"]["vanguard easy"]["policy"] == "greedy" and built["parts"]["lobo easy"]["games"] == 1
    assert len(built["values"]) == len(built["errors"]) == EV_SIZE
    assert built["stamp"] == evaluator.LAYOUT and built["made_by"] == "python -m solver.train.evaluator_tables"


def test_the_round_model_is_chosen_and_recorded(tmp_path: Path) -> None:
    # lobo's rounds are kept with the scores they started from: by default a distribution for each
    # pair of bands; `--round-model one` (or samples kept before the bands) one for all rounds.
    kept = tmp_path / "samples.json"
    evaluator_tables.build(4, 5, "greedy", 1, ("lobo",), (8,), kept)
    samples = json.loads(kept.read_text())
    rounds = [tuple(r) for r in samples["lobo easy"]]
    assert len(rounds) > 3 and all(len(r) == 4 for r in rounds)
    at = evaluator.lobo_index(8, 0, 0)
    cells = slice(at, at + EV_TARGET * EV_TARGET)
    pooled = [round(v, 5) for v in evaluator_tables._lobo_race([r[:2] for r in rounds], shrink=math.inf)]
    banded = [round(v, 5) for v in evaluator_tables._lobo_race(rounds)]
    assert pooled != banded
    by_bands = evaluator_tables.rebuild(samples)
    assert by_bands["values"][cells] == banded
    assert by_bands["parts"]["lobo easy"]["round model"].startswith("bands of the points needed")
    one = evaluator_tables.rebuild(samples, "one")
    assert one["values"][cells] == pooled and one["parts"]["lobo easy"]["round model"] == "one for all"
    before_bands = evaluator_tables.rebuild({**samples, "lobo easy": [r[:2] for r in samples["lobo easy"]]})
    assert (
        before_bands["values"][cells] == pooled and before_bands["parts"]["lobo easy"]["round model"] == "one for all"
    )


def test_a_build_at_the_hints_budgets_plays_the_simulators_seeded_games(tmp_path: Path) -> None:
    # --max-states and --samples: the rounds a table is made from are those of `simulate --policy hint`
    # at the same budgets and seed (the same on any machine), and the file says which budgets.
    from solver.play.driver import Setup
    from solver.play.simulate import simulate

    kept = tmp_path / "samples.json"
    built = evaluator_tables.build(4, 3, "hint", 1, ("lobo",), (8,), kept, max_states=200, samples=8)
    records = simulate(Setup("lobo", "easy"), "hint", 1, 3, workers=1, max_states=200, samples=8)
    rounds = [list(r) for r in evaluator_tables._lobo_rounds(records)]
    assert len(rounds) > 3 and json.loads(kept.read_text())["lobo easy"] == rounds
    assert built["parts"]["lobo easy"]["budget"] == "200 states and 8 samples a decision"
    assert built["parts"]["lobo easy"]["code"] == provenance.commit()


def test_the_code_is_named_by_its_commit_and_whether_it_was_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(tmp_path), *args], capture_output=True, text=True, check=True).stdout

    monkeypatch.setattr(provenance, "ROOT", tmp_path)
    assert provenance.commit() == "unknown"  # not a checkout
    git("init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    git("add", "a.py")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "a")
    head = git("rev-parse", "--short=12", "HEAD").strip()
    assert provenance.commit() == head
    (tmp_path / "b.py").write_text("untracked files do not count\n")
    assert provenance.commit() == head
    (tmp_path / "a.py").write_text("x = 2\n")
    assert provenance.commit() == head + "+changes"


@pytest.mark.parametrize("flag", ["--max-states", "--samples", "--games"])
def test_a_budget_below_one_is_refused_in_one_line(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.json"
    with pytest.raises(SystemExit) as stop:
        evaluator_tables.main([flag, "0", "--games-of", "lobo", "--out", str(out)])
    assert stop.value.code == 2 and not out.exists()
    assert f"{flag}: more than 0, not 0" in capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize(
    "text",
    ["not json", '{"lobo easy": [[]]}', '{"lobo easy": [[true, "many", 0, 0]]}', '{"lobo nightmare": []}', "[1]"],
)
def test_a_bad_samples_file_is_refused_in_one_line(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept, out = tmp_path / "samples.json", tmp_path / "out.json"
    kept.write_text(text)
    with pytest.raises(SystemExit) as stop:
        evaluator_tables.main(["--from-samples", str(kept), "--out", str(out)])
    assert stop.value.code == 2 and not out.exists()
    assert "not a samples file" in capsys.readouterr().err.splitlines()[-1]


# -- the layout stamp: tables built for other sizes are refused, not read from the wrong cells ------


def test_the_shipped_tables_fit_the_layout_the_search_reads() -> None:
    raw = json.loads(evaluator.DATA.read_text(encoding="utf-8"))
    assert raw["stamp"] == evaluator.LAYOUT
    assert len(raw["values"]) == len(raw["errors"]) == EV_SIZE == evaluator.LAYOUT["EV_SIZE"]
    # The stamp is the layout the indices read: each table ends where the next begins.
    tops = evaluator.LAYOUT["tops"]
    assert evaluator.vanguard_index(tops[0], 0, 0, 0) == 0
    assert evaluator.vanguard_index(tops[-1], EV_PILES - 1, 3, EV_RESERVE - 1) == EV_LOBO - 1
    assert evaluator.lobo_index(tops[0], 0, 0) == EV_LOBO
    assert evaluator.lobo_index(tops[-1], EV_TARGET - 1, EV_TARGET - 1) == EV_SIZE - 1
    assert len(evaluator.table()) == 2 * EV_SIZE


@pytest.fixture
def tables_at(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """Point the evaluator at a file of one's own: write(raw) makes it and returns its path; the
    tables read from it are forgotten after the test."""

    def write(raw: Any) -> Path:
        path = tmp_path / "game_values.json"
        path.write_text(raw if isinstance(raw, str) else json.dumps(raw), encoding="utf-8")
        monkeypatch.setattr(evaluator, "DATA", path)
        evaluator.table.cache_clear()
        return path

    yield write
    evaluator.table.cache_clear()


def _shipped() -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(evaluator.DATA.read_text(encoding="utf-8"))
    return raw


def test_tables_of_another_layout_are_refused_in_one_line(tables_at: Any) -> None:
    raw = _shipped()
    for stamp, why in (
        ({**raw["stamp"], "EV_PILES": 60}, "EV_PILES 60, not 64"),
        ({**raw["stamp"], "EV_TARGET": 150, "EV_SIZE": 73644}, "EV_TARGET 150, not 100; EV_SIZE 73644, not 36144"),
        (None, "it has no layout stamp"),
    ):
        path = tables_at({**raw, "stamp": stamp})
        with pytest.raises(EvaluatorError) as e:
            evaluator.table()
        said = str(e.value)
        assert said == (
            f"the evaluator's tables ({path}) were built for another layout ({why}):"
            " rebuild them with `python -m solver.train.evaluator_tables`"
        )
    # The right stamp on values of the wrong count: refused too (a damaged file).
    tables_at({**raw, "values": raw["values"][:-1]})
    with pytest.raises(EvaluatorError, match=f"hold {EV_SIZE - 1} values and {EV_SIZE} errors, not {EV_SIZE} each"):
        evaluator.table()


def test_a_hint_that_reads_stale_tables_fails_instead_of_guessing(tables_at: Any) -> None:
    from solver.search import hint as hints

    tables_at({**_shipped(), "stamp": {**evaluator.LAYOUT, "EV_RESERVE": 6}})
    raw = {"player": [2, 5, 6, 9], "wolf": [1, 5, 7, 8], "draw_pile": {"size": 28}, "objective": "game"}
    with pytest.raises(EvaluatorError, match="EV_RESERVE 6, not 8"):
        hints.hint(parse_position(raw), time_limit=0.2)


def _samples(parts: list[str]) -> dict[str, Any]:
    """Made-up samples of these parts, as build's samples_out keeps them."""
    rng = random.Random("samples")
    out: dict[str, Any] = {"about": {"policy": "greedy", "games": 8, "seed": 3}}
    for part in parts:
        if part.startswith("vanguard"):
            out[part] = [
                [rng.randint(17, 40), rng.randint(1, 3), [1] * rng.randint(0, 2), rng.random() < 0.3, i]
                for i in range(40)
            ]
        else:
            out[part] = [[rng.random() < 0.5, rng.randint(1, 30)] for _ in range(20)]
    return out


def test_a_partial_rebuild_over_stale_tables_is_refused_before_any_game(
    tables_at: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The parts not rebuilt would be kept from a file of another layout: refused, and at once (the
    # build would otherwise play its games first; this one would play 10,000).
    path = tables_at({**_shipped(), "stamp": {**evaluator.LAYOUT, "EV_PILES": 60}})
    with pytest.raises(EvaluatorError, match="rebuild every part") as e:
        evaluator_tables.build(10_000, 5, "greedy", 1, ("vanguard",), (8,))
    assert f"cannot be kept from {path} (EV_PILES 60, not 64)" in str(e.value)
    with pytest.raises(EvaluatorError, match="rebuild every part"):
        evaluator_tables.rebuild(_samples(["vanguard easy"]))
    # Every part, but from the hint's games, which play by the stale tables: refused at once too.
    with pytest.raises(
        EvaluatorError,
        match=r"EV_PILES 60, not 64\).*; the hint policy plays by them: build them first with --policy best",
    ):
        evaluator_tables.build(10_000, 5, "hint", 1)
    out = tmp_path / "out.json"
    with pytest.raises(SystemExit) as stop:
        evaluator_tables.main(["--games-of", "lobo", "--games", "10000", "--out", str(out)])
    assert stop.value.code == 2 and not out.exists()
    err = capsys.readouterr().err.splitlines()[-1]
    assert "the parts not rebuilt (lobo easy, lobo hard, lobo standard" not in err  # lobo is the part rebuilt
    assert "(vanguard easy, vanguard hard, vanguard standard) cannot be kept" in err and "rebuild every part" in err


def test_a_full_rebuild_needs_nothing_of_the_stale_tables(tables_at: Any) -> None:
    tables_at("not json")
    parts = sorted(evaluator_tables.PARTS)
    assert len(parts) == 6
    built = evaluator_tables.rebuild(_samples(parts))
    assert built["stamp"] == evaluator.LAYOUT and sorted(built["parts"]) == parts
    assert len(built["values"]) == len(built["errors"]) == EV_SIZE
    # Every cell was made again: none is left at the empty table's value, 0.
    assert min(built["values"]) > 0.0
    tables_at(built)
    assert evaluator.table() == [*built["values"], *built["errors"]]


def _position(raw: dict[str, Any]) -> Any:
    return parse_position({**raw, "objective": "win"})


def _fake_table(errors: dict[int, float]) -> list[float]:
    """The shipped values, every error 0.5 but those named (by the value's index)."""
    values = evaluator.table()[:EV_SIZE]
    errs = [0.5] * EV_SIZE
    for i, e in errors.items():
        errs[i] = e
    return values + errs


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_value_made_of_the_evaluators_carries_the_largest_error_it_read(
    monkeypatch: pytest.MonkeyPatch, engine: str
) -> None:
    # The Player's 6 against the Wolf's 6 with 20 cards in the pile: the Perfect wins the round
    # (the card drawn to the reserve, 19 cards left) and Fold loses it with one Wolf card (a member
    # down, 20 left). Those two cells are the only ends, each with its own error.
    from solver.core.intervals import Z95
    from solver.search import hint as hints
    from solver.search.engine import evaluate_moves
    from solver.search.estimate import EVALUATED

    monkeypatch.setenv("LOBO_HINT_ENGINE", engine)
    won = evaluator.vanguard_index(9, 19, 3, 1)
    lost = evaluator.vanguard_index(9, 20, 2, 0)
    fake = _fake_table({won: 0.07, lost: 0.03})
    monkeypatch.setattr(evaluator, "table", lambda: fake)
    raw = {"player": [6], "wolf": [6], "draw_pile": {"size": 20}, "final": False}
    moves, search = evaluate_moves(initial_state(_position(raw)), "game")
    assert search.estimated and abs(search.error - 0.07) < 1e-9
    by_text = {str(m.play): m for m in moves}
    assert set(by_text) == {"6=6", "fold"}
    result = hints.hint(parse_position({**raw, "objective": "game"}))
    # A play that ends the round carries the error of the cells its own end reads (engine.own_error).
    own = {"6=6": 0.07, "fold": 0.03}
    for row in result.moves:
        assert row.method == EVALUATED
        assert row.interval is not None and row.value is not None
        lo, hi = row.interval
        e = own[str(row.play)]
        assert abs(lo - max(0.0, row.value - Z95 * e)) < 1e-9 and abs(hi - min(1.0, row.value + Z95 * e)) < 1e-9
    # Search.own_error itself: the Fold's end reads its one cell; the search's largest is kept
    # after it. (6=6 ends in a draw, not an ended round: it keeps the search's largest, 0.07.)
    from solver.core.rules import apply

    root = initial_state(_position(raw))
    assert search.own_error(apply(root, by_text["fold"].play)) == (True, pytest.approx(0.03))
    assert abs(search.error - 0.07) < 1e-9 and search.estimated
    with pytest.raises(ValueError, match="ended round"):
        search.own_error(apply(root, by_text["6=6"].play))


def test_a_fold_that_loses_the_last_member_is_exact_not_tied_with_the_best() -> None:
    # It reads no cell: its 0 is exact, not an estimate with the largest error the search read
    # (which, ± 0.35 at a round start, made it look tied with the best play).
    from solver.search import hint as hints

    raw = {"player": [2, 5, 6, 9], "wolf": [1, 5, 7, 8], "draw_pile": {"size": 28}, "final": False}
    result = hints.hint(parse_position({**raw, "objective": "game"}), time_limit=0.2)
    fold = next(m for m in result.moves if m.play.kind == "fold")
    assert fold.value == 0.0 and fold.method is None and fold.interval is None and fold.bounds is None
    assert not fold.tied and result.best is not None and result.best.kind != "fold"
    assert any(m.method is not None for m in result.moves)  # the other plays are estimates


def test_each_reward_carries_the_error_of_the_value_it_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    # A round won beyond the exact horizon with a member down: keeping a card reads the cell with
    # one reserve card more, reviving the one with a member more; each reward's error is its own.
    from solver.core.rules import WON
    from solver.search.round_end import reward_values

    rng = random.Random("reward-errors")
    errors = {i: round(rng.uniform(0.01, 0.2), 5) for i in range(EV_VANGUARD, 2 * EV_VANGUARD)}
    fake = _fake_table(errors)
    monkeypatch.setattr(evaluator, "table", lambda: fake)
    raw = A_REWARD
    s = initial_state(parse_position(raw, allow_reward=True))
    assert s.outcome == WON and s.pile_size == 22
    for reward, v in reward_values(s):
        assert reward is not None and not v.exact
        if reward.kind == "reserve":
            cell = evaluator.vanguard_index(9, 22, 2, 2)
        else:
            cell = evaluator.vanguard_index(9, 22, 3, 1)
        assert v.value == evaluator.table()[cell]
        assert abs(v.error - errors[cell]) < 1e-6
    assert EV_ERRORS == EV_SIZE


@engine_sample_sizes(8, 200, plain_full=50, plain_everyday=False)
def test_a_plays_own_error_bounds_what_the_evaluators_errors_can_move_it(
    monkeypatch: pytest.MonkeyPatch, engine: str, n: int
) -> None:
    # Every cell of a made-up table moved up by its own error moves a value made of cells (their
    # averages and maxima) up by no more than the largest error among the cells it reads, and a
    # value that reads none not at all: so hint.own_reads, a play's own search, must say at least
    # that much (and "reads none" only where nothing moves).
    from solver.search import hint as hints
    from solver.search.engine import Search

    monkeypatch.setenv("LOBO_HINT_ENGINE", engine)
    rng = random.Random(f"own-error-{engine}")
    values = [0.3 + 0.4 * rng.random() for _ in range(EV_SIZE)]
    errors = [0.01 + 0.09 * rng.random() for _ in range(EV_SIZE)]
    low, high = values + errors, [v + e for v, e in zip(values, errors, strict=True)] + errors
    checked = untouched = 0
    while checked < n:
        # Small rounds beyond the exact horizon (the next deal is not surely final), with Overs that
        # draw few cards, so that every play's search finishes in moments.
        deck = [v for v in range(1, 10) for _ in range(4)]
        rng.shuffle(deck)
        a, b, r, pile = rng.randint(1, 3), rng.randint(1, 2), rng.randint(0, 1), rng.randint(17, 22)
        wolf = deck[:b]
        mine = [v for v in deck[b:] if v <= min(wolf) + 2][: a + r]
        rest = list(deck[b:])
        for v in mine:
            rest.remove(v)
        raw = {
            "player": mine[:a], "wolf": wolf, "reserve": mine[a:],
            "party": rng.choice([["J", "Q", "K"], ["Q", "K"], ["K"]]), "draw_pile": {"size": pile},
            "discard": rest[: len(rest) - pile], "final": False,  # the unseen cards are the pile
        }  # fmt: skip
        root = initial_state(parse_position({**raw, "objective": "game"}))
        for play in legal_plays(root):
            child = apply(root, play, check=False)
            if child.outcome is not None:
                continue
            monkeypatch.setattr(evaluator, "table", lambda: low)
            read, error = hints.own_reads(child, "game", (0, 0), time.perf_counter() + 0.3, 1.0)
            if error == 1.0:
                continue  # its own search did not finish: the whole search's error stands, sound as before
            before = Search(child, "game").value(child)
            monkeypatch.setattr(evaluator, "table", lambda: high)
            after = Search(child, "game").value(child)
            # (the search keeps an error in millionths: engine.Search.error)
            assert -1e-9 <= after - before <= error + 2e-6, (raw, str(play), before, after, error)
            assert read or after == before, (raw, str(play))
            checked += 1
            untouched += not read
    assert untouched < checked  # most plays read the table; the test is not vacuous


def test_a_play_that_loses_the_game_whatever_comes_is_exact() -> None:
    # Found by a review: 9>1 leaves the Wolf eight cards and the hand empty, so the Fold that
    # follows loses the whole party. It reads no cell, and is exact: 0, not 0 to 18% with the
    # largest error the whole search read.
    from solver.search import hint as hints

    discard = [8, 8, 4, 4, 1, 5, 6, 5, 3, 7, 7, 2, 1]
    raw = {
        "player": [9],
        "wolf": [1],
        "discard": discard,
        "draw_pile": {"size": 21},
        "final": False,
        "objective": "game",
    }
    result = hints.hint(parse_position(raw), time_limit=1.0)
    over = next(m for m in result.moves if str(m.play) == "9>1")
    assert over.value == 0.0 and over.method is None and over.interval is None and over.bounds is None
    fold = next(m for m in result.moves if m.play.kind == "fold")
    assert fold.method is not None and fold.value is not None and fold.value > 0  # two members left: an estimate
