"""Run the reference modules on every worked example of /work/shared/examples and agree with it.

The example positions are raw FORMAT.md positions (keys may be missing), so this file carries a
tiny normalizer that fills in the FORMAT.md defaults; the reference modules themselves only take
normalized positions.
"""

from __future__ import annotations

import json
import os
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from .expectimax import COPIES, TOP_VALUE, analyse
from .finish import best_finish, check_plays, coverable, parse_plays
from .legal import Position, legal_plays, play_key

# The repo keeps a copy of the contract examples beside the tests.
EXAMPLES = Path(os.environ.get("LOBO_EXAMPLES", str(Path(__file__).resolve().parent.parent / "examples")))

DEFAULT_RULES = {"hand_size": 4, "final_threshold": 8, "reserve_scores": False, "top_card_visible": False}


def _card(c: Any) -> int:
    """Value of a card given as an int or a FORMAT.md string (suit ignored)."""
    if isinstance(c, int) and not isinstance(c, bool):
        return c
    text = str(c).strip().upper().rstrip("SHDC♠♥♦♣")
    return {"A": 1, "T": 10}.get(text) or int(text)


def normalize(raw: dict[str, Any], objective: str | None = None) -> dict[str, Any]:
    """Fill in FORMAT.md defaults (no validation: the examples here are valid)."""
    game = raw.get("game", "vanguard")
    difficulty = raw.get("difficulty", "standard")
    rules = dict(DEFAULT_RULES)
    rules.update(raw.get("rules", {}))
    player = [_card(c) for c in raw["player"]]
    wolf = [_card(c) for c in raw["wolf"]]
    reserve = [_card(c) for c in raw.get("reserve", [])]
    party_default = ["J", "Q", "K"] if game == "vanguard" else []
    party = [str(m).strip().upper()[0] for m in raw.get("party", party_default)]
    discard = [_card(c) for c in raw.get("discard", [])]

    pile = raw.get("draw_pile", {})
    if isinstance(pile, list):
        top = [_card(c) for c in pile]
        size: int | None = len(top)
    else:
        top = [_card(c) for c in pile.get("top", [])]
        size = pile.get("size")
    if size is None:
        top_value = TOP_VALUE[difficulty]
        unseen = COPIES[game] * top_value - len(player) - len(wolf) - len(reserve) - len(discard) - len(top)
        size = len(top) + unseen

    # lobo never has a final round; an empty vanguard pile is final whatever the flag says.
    final = False
    if game == "vanguard":
        final = bool(raw.get("final", size <= rules["final_threshold"])) or size == 0

    if objective is None:
        objective = raw.get("objective") or ("points" if game == "lobo" else ("score" if final else "win"))

    return {
        "game": game,
        "difficulty": difficulty,
        "player": player,
        "wolf": wolf,
        "reserve": reserve,
        "party": party,
        "discard": discard,
        "draw_pile": {"size": size, "top": top},
        "final": final,
        "objective": objective,
        "rules": rules,
    }


def _examples(kind: str) -> list[Path]:
    found = sorted((EXAMPLES / kind).glob("*.json"))
    assert found, f"no {kind} examples in {EXAMPLES}"
    return found


def _load(path: Path) -> dict[str, Any]:
    with open(path) as f:
        example: dict[str, Any] = json.load(f)
    return example


def _ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name}/{p.name}" for p in paths]


# ------------------------------------------------------------------------------------ legal


@pytest.mark.parametrize("path", _examples("legal"), ids=_ids(_examples("legal")))
def test_legal(path: Path) -> None:
    example = _load(path)
    pos = normalize(example["position"])
    got = [play_key(p) for p in legal_plays(pos)]
    assert len(got) == len(set(got)), "a play is listed twice"
    expected = {play_key(p) for p in example["expect"]["plays"]}
    assert set(got) == expected


# ------------------------------------------------------------------------------------ finish


@pytest.mark.parametrize("path", _examples("finish"), ids=_ids(_examples("finish")))
def test_finish(path: Path) -> None:
    example = _load(path)
    pos = normalize(example["position"], objective="score")
    expect = example["expect"]
    result = best_finish(pos)
    assert result["status"] == expect["status"]
    if expect["status"] == "win":
        assert result["score"] == expect["score"]
        # The finish we found must itself replay as a legal, clearing, optimal finish.
        check = check_plays(pos, result["plays"])
        assert check["legal"] and check["clears"] and check["optimal"]
        assert check["score"] == expect["score"]
    else:
        assert not coverable(pos, pos["wolf"])
        core = expect["proof"]["wolf"]
        # The proof is an uncoverable set, and a minimal one.
        assert not coverable(pos, core)
        for i in range(len(core)):
            assert coverable(pos, core[:i] + core[i + 1 :])

    # The whole-round expectimax must agree on a final round.
    analysed = analyse(pos)
    if expect["status"] == "win":
        assert analysed["value"] == expect["score"]
    else:
        assert analysed["value"] is None
    win = analyse(dict(pos, objective="win"))["value"]
    assert win == (1 if expect["status"] == "win" else 0)


# ------------------------------------------------------------------------------------ check


@pytest.mark.parametrize("path", _examples("check"), ids=_ids(_examples("check")))
def test_check(path: Path) -> None:
    example = _load(path)
    pos = normalize(example["position"], objective="score")
    result = check_plays(pos, example["plays"])
    for key, value in example["expect"].items():
        assert result[key] == value, key
    # Passing the parsed plays must give the same answer as passing the text.
    try:
        parsed = parse_plays(example["plays"])
    except ValueError:
        return
    assert check_plays(pos, parsed) == result


# ------------------------------------------------------------------------------------ win / points


def _check_values(pos: Position, expect: dict[str, Any], best_key: str) -> None:
    result = analyse(pos)
    assert result["value"] == Fraction(expect[best_key])
    got = {play_key(play): value for play, value in result["moves"]}
    expected = {play_key(m["play"]): Fraction(m["value_exact"]) for m in expect["moves"]}
    assert got == expected
    # The best plays are exactly the moves reaching the best value.
    best = {key for key, value in got.items() if value == result["value"]}
    assert best == {play_key(p) for p in expect["best_plays"]}


@pytest.mark.parametrize("path", _examples("win"), ids=_ids(_examples("win")))
def test_win(path: Path) -> None:
    example = _load(path)
    pos = normalize(example["position"], objective="win")
    _check_values(pos, example["expect"], "win_probability_exact")


@pytest.mark.parametrize("path", _examples("points"), ids=_ids(_examples("points")))
def test_points(path: Path) -> None:
    example = _load(path)
    pos = normalize(example["position"], objective="points")
    _check_values(pos, example["expect"], "value_exact")


# ------------------------------------------------------------------------------------ small sanity cases


def _pos(**kw: Any) -> dict[str, Any]:
    base = {
        "game": "vanguard",
        "difficulty": "easy",
        "player": [],
        "wolf": [],
        "reserve": [],
        "party": ["J", "Q", "K"],
        "discard": [],
        "draw_pile": {"size": 0, "top": []},
        "final": False,
        "objective": "win",
        "rules": dict(DEFAULT_RULES),
    }
    base.update(kw)
    return base


def test_empty_pile_vanguard_is_final() -> None:
    # Empty pile: final whatever the flag says, so no Split/Over and sacrifices are legal.
    pos = _pos(player=[8, 3], wolf=[5, 3], final=False)
    kinds = {p["type"] for p in legal_plays(pos)}
    assert kinds == {"perfect", "sacrifice", "fold"}


def test_lobo_empty_pile_has_no_split_or_over() -> None:
    # 8 = 5 + 3 and 8 > 5 would need cards in the pile; lobo has no sacrifices.
    pos = _pos(game="lobo", party=[], player=[8, 3], wolf=[5, 3], objective="points")
    kinds = {p["type"] for p in legal_plays(pos)}
    assert kinds == {"perfect", "fold"}


def test_party_objective_final_round() -> None:
    # Final round, one Wolf card nobody can cover: sacrifice one member (lose 1) beats folding
    # (lose all 3 that were active).
    pos = _pos(player=[1], wolf=[7], final=True, objective="party")
    result = analyse(pos)
    assert result["value"] == -1
    values = {play_key(p): v for p, v in result["moves"]}
    assert values[play_key({"type": "fold", "hand": [], "reserve": [], "wolf": []})] == -3


def test_party_objective_regular_fold() -> None:
    # Regular round, two Wolf cards left and two members active: a fold loses min(2, 2) = 2.
    pos = _pos(player=[1], wolf=[7, 7], party=["Q", "K"], draw_pile={"size": 20, "top": []}, objective="party")
    values = {play_key(p): v for p, v in analyse(pos)["moves"]}
    assert values[play_key({"type": "fold", "hand": [], "reserve": [], "wolf": []})] == -2


def test_reserve_scores_rule() -> None:
    # Cover the 5 with 5r (hand 2 left) or with 2+3r (nothing left in hand); one member.
    pos = _pos(player=[2], wolf=[5], reserve=[5, 3], party=["J"], final=True, objective="score")
    assert best_finish(pos)["score"] == 2 + 10
    pos["rules"] = dict(DEFAULT_RULES, reserve_scores=True)
    assert best_finish(pos)["score"] == 2 + 3 + 10  # either way 15


def test_random_final_rounds_agree() -> None:
    # Two independent routes to the same answer on small random final rounds: the assignment
    # brute force (best_finish / coverable) and the play-by-play expectimax over legal_plays.
    rng = random.Random(20240601)
    for _ in range(150):
        deck = [v for v in range(1, 11) for _ in range(4)]
        rng.shuffle(deck)
        n_player, n_wolf, n_reserve = rng.randint(0, 5), rng.randint(1, 4), rng.randint(0, 2)
        pos = _pos(
            difficulty="hard",
            player=deck[:n_player],
            wolf=deck[n_player : n_player + n_wolf],
            reserve=deck[n_player + n_wolf : n_player + n_wolf + n_reserve],
            party=rng.sample(["J", "Q", "K"], rng.randint(1, 3)),
            draw_pile={"size": rng.randint(0, 3), "top": []},
            final=True,
            objective="score",
            rules=dict(DEFAULT_RULES, reserve_scores=rng.random() < 0.5),
        )
        finish = best_finish(pos)
        value = analyse(pos)["value"]
        if finish["status"] == "win":
            assert value == finish["score"]
            assert check_plays(pos, finish["plays"])["optimal"]
        else:
            assert value is None
        assert coverable(pos, pos["wolf"]) == (finish["status"] == "win")
