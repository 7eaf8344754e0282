"""The value networks' trainer (solver/train/value_net.py) end to end, at a toy size: its self-play
is the simulator's hint policy, a state budget makes a run repeat exactly, and what it writes is a
file the search reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.core.position import parse_position
from solver.core.rules import initial_state, vector
from solver.play import hint_policy
from solver.play.driver import PLAY, Setup
from solver.play.registry import make_policy
from solver.play.simulate import play_game, replay_record
from solver.search import value_net
from solver.train import value_net as trainer

SEED, GAMES, STATES, SAMPLES = 1, 1, 300, 8  # game 0 of seed 1 reaches the end of a round 8 times
ENDGAME_STATES = 30_000  # the shipped million, cut for the test's time


def _train(out: Path) -> tuple[dict[str, object], list[list[object]]]:
    trainer.main(
        ["--difficulties", "standard", "--games", str(GAMES), "--seed", str(SEED), "--iterations", "1",
         "--max-states", str(STATES), "--samples", str(SAMPLES), "--jobs", "1",
         "--out", str(out / "net.json"), "--samples-out", str(out / "samples.jsonl")]
    )  # fmt: skip
    net = json.loads((out / "net.json").read_text(encoding="utf-8"))
    rows = [json.loads(line) for line in (out / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    return net, rows


def test_the_trainer_plays_the_simulators_games_and_repeats_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hint_policy, "ENDGAME_STATES", ENDGAME_STATES)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    net, rows = _train(tmp_path / "a")
    again, rows_again = _train(tmp_path / "b")
    # Under a state budget the same seed plays the same games and fits the same network.
    assert rows == rows_again
    entry = net["networks"]["vanguard"]["standard"]  # type: ignore[index]
    assert entry["weights"] == again["networks"]["vanguard"]["standard"]["weights"]  # type: ignore[index]
    assert entry["made"]["policy"] == f"hint, {STATES} states and {SAMPLES} samples a decision"
    assert entry["made"]["games"] == GAMES and entry["made"]["samples"] == len(rows)

    # Every position the simulator's hint policy decides in, at the same budgets (more near the end
    # of a round), is a sample of the same game, valued as the simulator's policy valued it: the
    # network learns from the player the simulator measures.
    policy = make_policy("hint", max_states=STATES, samples=SAMPLES)
    setup = Setup("vanguard", "standard")
    for index in range(GAMES):
        record = play_game(setup, policy, SEED, index)
        game = replay_record(record)
        sampled: dict[tuple[int, ...], object] = {tuple(r[1]): r[2] for r in rows if r[5] == index}  # type: ignore[arg-type]
        decided = 0
        for table, step in zip(game.tables, record.to_json()["steps"], strict=False):
            if table.phase == PLAY and table.round is not None and not table.round.final:
                state = tuple(vector(initial_state(table.position())))
                assert sampled[state] == pytest.approx(step["predicted"], abs=1e-6), (index, step)
                decided += 1
        assert decided > 0

    # What it wrote is a file the search reads.
    monkeypatch.setattr(value_net, "DATA", tmp_path / "a" / "net.json")
    monkeypatch.setattr(value_net, "_ARRAYS", {})
    value_net._raw.cache_clear()
    try:
        start = initial_state(parse_position({"player": [1, 3, 5, 8], "wolf": [2, 6, 6, 7], "final": False}))
        assert value_net.for_round(start) is not None
    finally:
        value_net._raw.cache_clear()


@pytest.mark.parametrize("flag", ["--think", "--max-states", "--samples"])
def test_the_trainer_refuses_a_budget_of_nothing(flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        trainer.main([flag, "0", "--out", str(tmp_path / "net.json")])
    assert e.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(f"error: {flag}: more than 0, not 0")
    assert not (tmp_path / "net.json").exists()


def test_the_trainer_refuses_bad_samples_and_difficulties_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "samples.jsonl"
    bad.write_text('["standard", [1, 2]\n', encoding="utf-8")
    shapeless = tmp_path / "numbers.jsonl"
    shapeless.write_text("7\n", encoding="utf-8")  # JSON, but not a sample
    cases = {
        (
            "--difficulties",
            "standard,nope",
        ): "error: --difficulties: no difficulty 'nope' (one of easy, standard, hard)",
        ("--from-samples", str(tmp_path / "none.jsonl")): "cannot read",
        ("--from-samples", str(bad)): f"error: --from-samples: {bad}, line 1: not a sample as --samples-out writes it",
        ("--from-samples", str(shapeless)): "line 1: not a sample as --samples-out writes it",
    }
    for args, said in cases.items():
        with pytest.raises(SystemExit) as e:
            trainer.main([*args, "--out", str(tmp_path / "net.json")])
        assert e.value.code == 2
        assert said in capsys.readouterr().err.splitlines()[-1]
        assert not (tmp_path / "net.json").exists()
