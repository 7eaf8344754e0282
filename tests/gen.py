"""Seeded random positions for the tests (a plain generator; hypothesis strategies build on it)."""

from __future__ import annotations

import random
from typing import Any

TOPS = {"easy": 8, "standard": 9, "hard": 10}
# A won round's reward with a pile far from the end: two hand cards to keep, or the Jack to revive.
A_REWARD: dict[str, Any] = {
    "phase": "reward",
    "player": [2, 5],
    "wolf": [],
    "reserve": [3],
    "party": ["Q", "K"],
    "draw_pile": {"size": 22},
}


def random_position(
    rng: random.Random,
    *,
    game: str | None = None,
    final: bool | None = None,
    max_hand: int = 6,
    max_wolf: int = 6,
    max_reserve: int = 3,
    max_pile: int | None = None,
    objective: bool = True,
) -> dict[str, Any]:
    """A valid position dict in FORMAT.md form, with variety in every key."""
    game = game or rng.choice(["vanguard", "lobo"])
    difficulty = rng.choice(list(TOPS))
    top = TOPS[difficulty]
    deck = [v for v in range(1, top + 1) for _ in range(5 if game == "lobo" else 4)]
    rng.shuffle(deck)
    n_player = rng.randint(0, max_hand)
    n_wolf = rng.randint(1, max_wolf)
    n_reserve = rng.randint(0, max_reserve) if game == "vanguard" else 0
    player, deck = deck[:n_player], deck[n_player:]
    wolf, deck = deck[:n_wolf], deck[n_wolf:]
    reserve, deck = deck[:n_reserve], deck[n_reserve:]
    n_discard = rng.randint(0, len(deck))
    discard, deck = deck[:n_discard], deck[n_discard:]
    n_top = rng.randint(0, min(2, len(deck)))
    top_cards, unseen = deck[:n_top], deck[n_top:]
    size = n_top + rng.randint(0, len(unseen))
    if max_pile is not None:
        size = min(size, max_pile)
        top_cards = top_cards[:size]
    rules: dict[str, Any] = {}
    if rng.random() < 0.3:
        rules["hand_size"] = rng.randint(1, 6)
    if rng.random() < 0.3:
        rules["final_threshold"] = rng.randint(0, 12)
    if rng.random() < 0.2:
        rules["reserve_scores"] = rng.random() < 0.5
    if size > 0 and top_cards and rng.random() < 0.2:
        rules["top_card_visible"] = True
    pos: dict[str, Any] = {
        "game": game,
        "difficulty": difficulty,
        "player": player,
        "wolf": wolf,
        "discard": discard,
        "draw_pile": {"size": size, "top": top_cards},
    }
    if rules:
        pos["rules"] = rules
    if game == "vanguard":
        pos["reserve"] = reserve
        pos["party"] = rng.sample(["J", "Q", "K"], rng.randint(1, 3))
        f = final if final is not None else (rng.random() < 0.4 if rng.random() < 0.7 else None)
        if f is not None:
            pos["final"] = f
        if objective and not (f or size == 0):
            pos["objective"] = rng.choice(["win", "party"])
        elif objective and f is None and size > rules.get("final_threshold", 8):
            # A regular round by its pile; its objective named, as the tests were written for it
            # (a position that names none is valued for the whole game now). No draw from rng:
            # every seeded sample stays what it was.
            pos["objective"] = "win"
    elif objective:
        pos["objective"] = "points"
    return pos


def random_final(rng: random.Random, *, max_hand: int = 10, max_reserve: int = 4, max_wolf: int = 10) -> dict[str, Any]:
    """A vanguard final round: hand 0..10, reserve 0..4, Wolf 1..10, party 1..3, any difficulty."""
    difficulty = rng.choice(list(TOPS))
    deck = [v for v in range(1, TOPS[difficulty] + 1) for _ in range(4)]
    rng.shuffle(deck)
    n_hand, n_res, n_wolf = rng.randint(0, max_hand), rng.randint(0, max_reserve), rng.randint(1, max_wolf)
    # Bias toward the interesting middle: Wolf cards are often small enough to be covered.
    return {
        "game": "vanguard",
        "difficulty": difficulty,
        "player": deck[:n_hand],
        "reserve": deck[n_hand : n_hand + n_res],
        "wolf": deck[n_hand + n_res : n_hand + n_res + n_wolf],
        "party": rng.sample(["J", "Q", "K"], rng.randint(1, 3)),
        "final": True,
        "rules": {"reserve_scores": rng.random() < 0.3},
    }


def reference_form(raw: Any) -> dict[str, Any]:
    """A position (raw dict or parsed Position) in the normalized form tests/reference reads: every
    key present, lobo's empty reserve and party and its final flag included."""
    from solver.core.position import Position, parse_position

    js = (raw if isinstance(raw, Position) else parse_position(raw)).to_json()
    js.setdefault("reserve", [])
    js.setdefault("party", [])
    js.setdefault("final", False)
    return js


def random_game_position(
    rng: random.Random,
    *,
    final: bool | None = False,
    max_hand: int = 4,
    max_wolf: int = 4,
    max_reserve: int = 2,
    max_pile: int = 5,
    max_unseen: int = 4,
    objective: str | None = "game",
) -> dict[str, Any]:
    """A vanguard position whose rest of the game can be searched exactly (RULES.md §7): its pile
    holds at most 2 x hand_size + final_threshold cards, so the next deal is surely the final round.
    Small on purpose: at most max_unseen unseen cards (the rest of the deck is in the discards), so
    that a brute force over every draw and every deal takes moments. final=False gives a regular
    round, True a final one, None leaves the flag out (the default: final iff the pile holds
    final_threshold cards or fewer)."""
    difficulty = rng.choice(list(TOPS))
    deck = [v for v in range(1, TOPS[difficulty] + 1) for _ in range(4)]
    rng.shuffle(deck)
    hand_size = rng.choice([1, 2, 2, 3, 3, 4])
    threshold = rng.randint(0, 4)
    n_player = rng.randint(0, max_hand)
    n_wolf = rng.randint(1, max_wolf)
    n_reserve = rng.randint(0, max_reserve)
    player, deck = deck[:n_player], deck[n_player:]
    wolf, deck = deck[:n_wolf], deck[n_wolf:]
    reserve, deck = deck[:n_reserve], deck[n_reserve:]
    size = rng.randint(1, min(max_pile, 2 * hand_size + threshold, len(deck)))
    n_top = rng.randint(0, min(2, size))
    top_cards, deck = deck[:n_top], deck[n_top:]
    n_unseen = rng.randint(size - n_top, max(size - n_top, min(max_unseen, len(deck))))
    discard = deck[n_unseen:]
    rules: dict[str, Any] = {"hand_size": hand_size, "final_threshold": threshold}
    if top_cards and rng.random() < 0.2:
        rules["top_card_visible"] = True
    if rng.random() < 0.2:
        rules["reserve_scores"] = True
    pos: dict[str, Any] = {
        "game": "vanguard",
        "difficulty": difficulty,
        "player": player,
        "wolf": wolf,
        "reserve": reserve,
        "party": rng.sample(["J", "Q", "K"], rng.randint(1, 3)),
        "discard": discard,
        "draw_pile": {"size": size, "top": top_cards},
        "rules": rules,
    }
    if final is not None:
        pos["final"] = final
    if objective is not None:
        pos["objective"] = objective
    return pos
