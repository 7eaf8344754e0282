"""The rollout policy (solver/search/rollout_policy.py): the kernel's choice against the policy
restated plainly over plays (tests/plain_policy.py), on many random positions and random weights,
in both modes (its play-outs: tests/test_greedy.py); which weights a search gets; that the shipped
weights fit the features they weigh, and do what they were tuned for (solver/train/rollout_weights.py),
on decisions of games they were not tuned on."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from plain_policy import NAMES, policy_play, random_weights

from conftest import sample_sizes
from gen import A_REWARD, random_position
from solver.core import kernel
from solver.core.cards import values_of
from solver.core.position import Rules, parse_position
from solver.core.rules import State, initial_state, kernel_moves, play_of, vector
from solver.search import compiled, rollout_policy
from solver.search.rollout_policy import GREEDY, RolloutPolicyError, weights
from solver.train import rollout_weights


def _round(rng: random.Random) -> tuple[State, list[int]]:
    """A random round at a decision (final rounds too: they have Sacrifices), and a random order
    of its pile's unknown cards."""
    while True:
        raw = random_position(rng, max_hand=7, max_wolf=7, max_reserve=3, max_pile=rng.choice([3, 8, 12, 20]))
        root = initial_state(parse_position(raw))
        if root.outcome is None and root.is_decision:
            pool = list(values_of(root.unseen))
            return root, rng.sample(pool, root.pile_size - len(root.pile_top))


def test_the_restatement_names_every_weight() -> None:
    assert len(NAMES) == kernel.RP_SIZE
    assert [getattr(kernel, "RP_" + n.upper()) for n in NAMES] == list(range(kernel.RP_SIZE))


@sample_sizes(400, 4000)
def test_the_kernel_chooses_the_play_the_policy_scores_best(n: int) -> None:
    rng = random.Random("policy-choice")
    kinds: dict[str, int] = {}
    for _ in range(n):
        s, _ = _round(rng)
        w = random_weights(rng)
        want = policy_play(s, w)
        st = vector(s)
        buf, m = kernel_moves(st)
        assert play_of(buf, kernel.choose(st, buf, m, list(w))) == want, (s, w)
        got = compiled.kernel.choose(np.array(st, np.int64), np.array(buf, np.int64), m, np.array(w))
        assert play_of(buf, int(got)) == want, (s, w)
        kinds[want.kind] = kinds.get(want.kind, 0) + 1
    # Every kind of play was chosen somewhere (Fold by choice, not only when forced).
    assert set(kinds) == {"perfect", "sum", "split", "over", "sacrifice", "fold"}, kinds


def test_which_weights_a_search_gets() -> None:
    rng = random.Random("which-weights")
    seen = set()
    for _ in range(200):
        s, _ = _round(rng)
        for objective in ("game", "win", "party", "points"):
            w = weights(s, objective)
            if objective == "game" and s.rules == Rules():
                assert w == rollout_policy.shipped()[(s.game, {8: "easy", 9: "standard", 10: "hard"}[s.top])]
                assert w[kernel.RP_ON] == 1.0
            else:  # other objectives, and rules the weights were not tuned for: the greedy rule
                assert w == GREEDY
            seen.add((s.game, objective, s.rules == Rules(), w == GREEDY))
    assert {("vanguard", "game", True, False), ("lobo", "game", True, False), ("vanguard", "win", True, True)} <= seen
    assert ("vanguard", "game", False, True) in seen


def test_a_broken_weights_file_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stamp = rollout_policy.LAYOUT  # the right one: what is broken is the rest
    broken = (
        ({"stamp": stamp, "weights": {"vanguard": {"standard": [1.0, 2.0]}}}, "are not 17 tuned weights"),
        ({"stamp": stamp, "weights": {"vanguard": [1.0]}}, "cannot be read"),
        ({"stamp": stamp, "w": 1}, "cannot be read"),
        ([1], "cannot be read"),
    )
    for text, said in (("not json", "cannot be read"), *((json.dumps(raw), said) for raw, said in broken)):
        bad = tmp_path / "w.json"
        bad.write_text(text)
        monkeypatch.setattr(rollout_policy, "DATA", bad)
        rollout_policy.shipped.cache_clear()
        try:
            with pytest.raises(RolloutPolicyError, match=f"rollout policy's weights .* {said}"):
                rollout_policy.shipped()
        finally:
            rollout_policy.shipped.cache_clear()


# -- the layout stamp: weights tuned for other features are refused, not played --------------------


def test_the_shipped_weights_fit_the_features_they_weigh() -> None:
    # The stamp names the features in their places; plain_policy restates them by hand.
    raw = json.loads(rollout_policy.DATA.read_text(encoding="utf-8"))
    assert raw["stamp"] == rollout_policy.LAYOUT
    by_hand = {"RP_SIZE": len(NAMES), "features": ["RP_" + n.upper() for n in NAMES]}
    assert by_hand == rollout_policy.LAYOUT
    assert {len(w) for w in rollout_policy.shipped().values()} == {kernel.RP_SIZE}
    assert len(rollout_policy.shipped()) == 6


def test_weights_of_another_layout_are_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = json.loads(rollout_policy.DATA.read_text(encoding="utf-8"))
    features = rollout_policy.LAYOUT["features"]
    moved = [features[0], features[2], features[1], *features[3:]]
    for stamp, why in (
        ({"RP_SIZE": 18, "features": [*features, "RP_NEW"]}, f"RP_SIZE 18, not 17; features {[*features, 'RP_NEW']!r}"),
        ({"RP_SIZE": 17, "features": moved}, f"features {moved!r}, not {features!r}"),
        (None, "it has no layout stamp"),
    ):
        bad = tmp_path / "rollout_policy.json"
        bad.write_text(json.dumps({**raw, "stamp": stamp}))
        monkeypatch.setattr(rollout_policy, "DATA", bad)
        rollout_policy.shipped.cache_clear()
        try:
            with pytest.raises(RolloutPolicyError) as e:
                rollout_policy.shipped()
        finally:
            rollout_policy.shipped.cache_clear()
        said = str(e.value)
        assert said.startswith(f"the rollout policy's weights ({bad}) were tuned for another layout ({why}")
        assert said.endswith("): tune them again with `python -m solver.train.rollout_weights`")
        assert "\n" not in said


def test_the_tuner_refuses_to_keep_weights_of_another_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Tuning only some parts would keep the others from a file of another layout: refused before
    # any game is played (this one would play 10,000 of them).
    raw = json.loads(rollout_policy.DATA.read_text(encoding="utf-8"))
    out = tmp_path / "w.json"
    out.write_text(json.dumps({**raw, "stamp": {**rollout_policy.LAYOUT, "RP_SIZE": 16}}))
    before = out.read_text()
    with pytest.raises(SystemExit) as stop:
        rollout_weights.main(["--games-of", "lobo", "--games", "10000", "--out", str(out)])
    assert stop.value.code == 2 and out.read_text() == before
    err = capsys.readouterr().err.splitlines()[-1]
    assert f"{out} was tuned for another layout (RP_SIZE 16, not 17)" in err and "tune every game and difficulty" in err


def test_the_tuner_stamps_what_it_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every part tuned again (a few draws on a few decisions) over a shipped file of another layout,
    # which the searches it runs would refuse: none of its weights is kept, and the file is stamped
    # with this layout.
    out = tmp_path / "w.json"
    out.write_text(json.dumps({"stamp": None, "weights": {"vanguard": {"easy": [1.0, 2.0]}}, "made": {"x": 1}}))
    monkeypatch.setattr(rollout_policy, "DATA", out)  # also the tuner's --out
    rollout_policy.shipped.cache_clear()
    try:
        rollout_weights.main(["--games", "1", "--iterations", "1", "--deals", "1"])
    finally:
        rollout_policy.shipped.cache_clear()
    raw = json.loads(out.read_text())
    assert raw["stamp"] == rollout_policy.LAYOUT
    assert {(g, d) for g, by in raw["weights"].items() for d in by} == {
        (g, d) for g in ("vanguard", "lobo") for d in ("easy", "standard", "hard")
    }
    assert all(
        len(w) == kernel.RP_SIZE and w[kernel.RP_ON] == 1.0 for by in raw["weights"].values() for w in by.values()
    )
    assert "x" not in raw["made"] and raw["made"]["lobo hard"]["started from"] == "standard"


@pytest.mark.parametrize("name", ["vanguard", "lobo"])
@pytest.mark.parametrize("difficulty", ["easy", "standard", "hard"])
def test_the_shipped_weights_reach_better_round_ends_than_greedy(name: str, difficulty: str) -> None:
    # On decisions of games the weights were not tuned on (another seed), paired on the same deals:
    # the mean value for the game of the round's ends the tuned policy reaches is above greedy's,
    # its 95% interval above 0 (the shipped checks, on some 3,000 decisions each: data/rollout_policy.json).
    games = {"vanguard": 40, "lobo": 8}[name]
    bench = rollout_weights.Bench(rollout_weights.decisions(name, difficulty, games, seed=777), 8, seed=5)
    figures = rollout_weights.check(bench, rollout_policy.shipped()[(name, difficulty)])
    assert figures["decisions"] > 200
    assert figures["difference_95"][0] > 0, figures


def test_the_reward_rollouts_say_which_rule_played_them() -> None:
    # The next round played out from each reward: by the tuned policy with the default rules, by the
    # greedy rule with rules the weights were not tuned for, and labelled so.
    from solver.search.estimate import NEXT_ROUND, NEXT_ROUND_GREEDY, rewards_rolled_out

    raw = A_REWARD
    for rules, want in (({}, NEXT_ROUND), ({"hand_size": 5}, NEXT_ROUND_GREEDY)):
        s = initial_state(parse_position({**raw, "rules": rules}, allow_reward=True))
        got = rewards_rolled_out(s, deals=50)
        assert got and {e.estimate.method for e in got} == {want}, rules


def test_the_tuner_takes_its_decisions_from_the_hints_games_when_asked() -> None:
    # --policy hint: the positions the hint meets (the same first deal as greedy's game, then its own
    # play), every one a regular round's decision with the race's scores.
    greedy = rollout_weights.decisions("lobo", "easy", 1, seed=3)
    hint = rollout_weights.decisions("lobo", "easy", 1, seed=3, policy="hint")
    assert hint[0] == greedy[0] and hint != greedy
    assert all(not s.final and s.wolf and s.outcome is None for s, _ in hint)
    assert any(scores != (0, 0) for _, scores in hint)
