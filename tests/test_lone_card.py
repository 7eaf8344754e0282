"""kernel.lone_card and kernel.few_matches are sound. lone_card: a Player left with one card that no Wolf card equals. Where it says
no line wins the round, the reference finds no chance to win it; where it says, besides, that
every loss takes the whole party, the reference values the game 0. A state while the Wolf draws
is claimed only where every draw leaves a decision the test claims (checked against the reference
through the decisions)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from conftest import sample_sizes
from gen import random_game_position, random_position, reference_form
from reference.expectimax import analyse
from reference.game import game_values
from reference.test_reference_examples import normalize
from solver.core import kernel
from solver.core.plays import parse_play
from solver.core.position import parse_position
from solver.core.rules import State, apply, apply_outcome, chance_outcomes, initial_state, legal_plays, vector


def _one_card_root(raw: dict[str, Any]) -> State | None:
    root = initial_state(parse_position(raw))
    if root.outcome is not None or root.final or root.is_chance or len(root.hand) + len(root.reserve) != 1:
        return None
    return root


@sample_sizes(80, 1500)
def test_a_lone_card_round_has_no_chance_to_win(n: int) -> None:
    rng = random.Random("lone-card-win")
    claimed = checked = chains = 0
    while checked < n:
        raw = random_position(rng, game="vanguard", max_hand=1, max_wolf=6, max_reserve=1, max_pile=5, final=False)
        raw["objective"] = "win"
        root = _one_card_root(raw)
        if root is None:
            continue
        checked += 1
        if kernel.lone_card(vector(root), 1):
            claimed += 1
            chains += (root.hand + root.reserve)[0] in root.wolf
            assert analyse(reference_form(raw))["value"] == 0, raw
    assert claimed > n // 4, claimed  # the claims are frequent enough to mean something
    assert chains > n // 20, chains  # ... and those of a card that a Perfect can play


@sample_sizes(100, 1000)
def test_a_lone_card_round_that_takes_the_party_is_worth_nothing(n: int) -> None:
    rng = random.Random("lone-card-game")
    claimed = checked = chains = 0
    while checked < n:
        raw = random_game_position(rng, objective=None, final=False, max_hand=1, max_reserve=1, max_wolf=6)
        raw["party"] = rng.sample(["J", "Q", "K"], rng.randint(1, 3))
        root = _one_card_root(raw)
        if root is None:
            continue
        checked += 1
        if kernel.lone_card(vector(root), len(root.party)):
            claimed += 1
            chains += (root.hand + root.reserve)[0] in root.wolf
            value, _ = game_values(normalize(raw, objective="game"))
            assert value == 0, raw
    assert claimed > n // 5, claimed
    assert chains > n // 20, chains


def _draws_after(root: State) -> list[tuple[str, State]]:
    """The states after root's plays that wait on a draw, each with its play's text."""
    after = ((str(play), apply(root, play)) for play in legal_plays(root))
    return [(text, s) for text, s in after if s.outcome is None and s.is_chance]


def _as_position(s: State) -> dict[str, Any]:
    """A decision state as a position (FORMAT.md) the reference reads: what is not in play and
    not unseen is in the discards."""
    top = len(s.unseen)
    held = [*s.hand, *s.reserve, *s.wolf, *s.pile_top]
    discard = [v for v in range(1, top + 1) for _ in range(4 - held.count(v) - s.unseen[v - 1])]
    return {
        "game": "vanguard", "difficulty": {8: "easy", 9: "standard", 10: "hard"}[top],
        "player": list(s.hand), "reserve": list(s.reserve), "wolf": list(s.wolf), "party": list(s.party),
        "draw_pile": {"size": s.pile_size, "top": list(s.pile_top)}, "final": s.final, "discard": discard,
    }  # fmt: skip


@sample_sizes(300, 5000)
def test_a_lone_card_while_the_wolf_draws_is_lost_after_every_draw(n: int) -> None:
    """A claim while the Wolf draws holds for every draw: where the decision after it is not
    claimed itself, the reference finds no chance to win it, and (for need > 1) values its game 0."""
    rng = random.Random("lone-card-chance")
    claimed = checked = referred = 0
    while checked < n:
        raw = random_position(rng, game="vanguard", max_hand=2, max_wolf=5, max_reserve=1, max_pile=8, final=False)
        raw["rules"] = {}
        root = initial_state(parse_position(raw))
        if root.outcome is not None or root.final or root.is_chance:
            continue
        for play, s in _draws_after(root):
            checked += 1
            for need in range(1, len(s.party) + 1):
                if not kernel.lone_card(vector(s), need):
                    continue
                claimed += 1
                draws = chance_outcomes(s)
                for o, _ in rng.sample(draws, min(3, len(draws))):
                    after = apply_outcome(s, o)
                    assert after.outcome is None, (raw, play)
                    if kernel.lone_card(vector(after), need):
                        continue
                    referred += 1
                    pos = _as_position(after)
                    assert analyse(reference_form({**pos, "objective": "win"}))["value"] == 0, (pos, need)
                    if need > 1 and not after.final:
                        value, _ = game_values(normalize(pos, objective="game"))
                        assert value == 0, (pos, need)
    assert claimed > n // 10 and referred > n // 20, (claimed, referred)


FULL = ["J", "Q", "K"]
# Ways out of a lone card that the test must leave open, each one the round's only chance:
WAYS_OUT = {
    # an Over that empties the pile: the final round, whose sacrifices cover the Wolf's two cards;
    "over": {"player": [5], "wolf": [3], "draw_pile": {"size": 2}, "party": FULL},
    # a Split that empties it, the same way;
    "split": {"player": [7], "wolf": [1, 2, 4], "draw_pile": {"size": 1}, "party": FULL},
    # two Perfects from a pile of one: the second of the card the first one draws;
    "perfects": {"player": [9], "wolf": [9, 9], "draw_pile": {"size": 1}, "party": ["J"]},
    # a Perfect, then a Split of the Wolf's three smallest cards, then two sacrifices;
    "perfect-split": {
        "player": [6], "wolf": [1, 2, 3, 6], "draw_pile": {"size": 1}, "party": FULL,
        "discard": [1, 1, 1, 2, 2, 2, 3, 3, 3],
    },
    # a Perfect, then an Over by the pile's last card, then two sacrifices (no Split: no 7 to hold);
    "perfect-over": {
        "player": [5], "wolf": [5, 2], "draw_pile": {"size": 2}, "party": FULL, "discard": [2, 2, 2, 7, 7, 7, 7],
    },
    # a Perfect that empties the pile, then two sacrifices (no Over, no Split reaches the end);
    "perfects-sacrifices": {"player": [9], "wolf": [9, 8, 8], "draw_pile": {"size": 1}, "party": FULL, "discard": [8, 8]},
    # a Split of three cards into a 10 (the hard deck) that empties the pile, then two sacrifices;
    "split-into-ten": {
        "player": [10], "wolf": [10, 2, 3, 5], "draw_pile": {"size": 1}, "party": FULL, "difficulty": "hard",
        "discard": [2, 2, 2, 3, 3, 3, 5, 5, 5],
    },
    # a Perfect, then a sacrifice for a card no draw can match.
    "perfect-sacrifice": {"player": [9], "wolf": [9, 8], "draw_pile": {"size": 1}, "party": FULL, "discard": [8, 8, 8]},
}  # fmt: skip


@pytest.mark.parametrize("way", list(WAYS_OUT))
def test_a_lone_card_with_a_way_out_is_not_called_lost(way: str) -> None:
    raw = {"difficulty": "standard", **WAYS_OUT[way], "final": False, "objective": "win"}
    root = _one_card_root(raw)
    assert root is not None
    assert analyse(reference_form(raw))["value"] > 0
    assert not any(kernel.lone_card(vector(root), need) for need in (1, 2, 3))


def test_a_split_may_leave_the_wolf_too_few_cards_to_take_the_party() -> None:
    """Two members, and a Perfect then a Split can leave the Wolf one card: the loss that follows
    takes one member, and the next deal (one card, to the Player) wins the game."""
    unseen = [6, 9, 9, 9]
    deck = [v for v in range(1, 10) for _ in range(4)]
    for v in [6, 6, 1, 5, *unseen]:
        deck.remove(v)
    raw = {
        "player": [6], "wolf": [6, 1, 5], "party": ["J", "Q"], "draw_pile": {"size": 3}, "final": False,
        "discard": deck, "difficulty": "standard",
    }  # fmt: skip
    root = _one_card_root(raw)
    assert root is not None
    value, _ = game_values(normalize(raw, objective="game"))
    assert value > 0
    assert not kernel.lone_card(vector(root), 2)


def _one_member(rng: random.Random, max_hand: int) -> dict[str, Any]:
    raw = random_position(rng, game="vanguard", max_hand=max_hand, max_wolf=7, max_reserve=1, max_pile=5, final=False)
    raw["party"] = [rng.choice(["J", "Q", "K"])]
    raw["rules"] = {}
    return raw


@sample_sizes(800, 5000)
def test_one_member_with_too_few_matches_has_no_chance_to_win(n: int) -> None:
    """kernel.few_matches: with one member, where it says the round cannot be won, the reference
    finds no chance to win it, at decisions with two or three cards (one is lone_card's case)."""
    rng = random.Random("few-matches")
    claimed = checked = 0
    while checked < n:
        raw = _one_member(rng, 3)
        root = initial_state(parse_position(raw))
        if root.outcome is not None or root.final or root.is_chance or len(root.hand + root.reserve) < 2:
            continue
        checked += 1
        if kernel.few_matches(vector(root)):
            claimed += 1
            assert analyse(reference_form({**raw, "objective": "win"}))["value"] == 0, raw
    assert claimed > n // 20, claimed


@sample_sizes(300, 3000)
def test_one_member_with_too_few_matches_while_cards_are_drawn(n: int) -> None:
    """The same claim while cards are drawn (to the Player after a Perfect or a Sum, to the Wolf
    after an Over or a Split): every draw's decision is claimed itself or has no chance to win."""
    rng = random.Random("few-matches-chance")
    claimed = checked = referred = 0
    while checked < n:
        root = initial_state(parse_position(_one_member(rng, 4)))
        if root.outcome is not None or root.final or root.is_chance:
            continue
        for play, s in _draws_after(root):
            checked += 1
            if not kernel.few_matches(vector(s)):
                continue
            claimed += 1
            draws = chance_outcomes(s)
            for o, _ in rng.sample(draws, min(3, len(draws))):
                after = apply_outcome(s, o)
                assert after.outcome is None, play
                if after.final or not (kernel.few_matches(vector(after)) or kernel.lone_card(vector(after), 1)):
                    referred += 1
                    pos = _as_position(after)
                    assert analyse(reference_form({**pos, "objective": "win"}))["value"] == 0, pos
    assert claimed > n // 10, claimed


def _pile_known_by_its_cards(rng: random.Random) -> dict[str, Any]:
    """One member, and every card not in play discarded: the unseen cards are the pile's own, few
    values, so few_matches claims often (random_position's discards are small). The pile leans to
    low cards, which the Wolf may draw into a Split."""
    deck = [v for v in range(1, 10) for _ in range(4)]
    rng.shuffle(deck)
    mine, wolf, pile = rng.randint(3, 4), rng.randint(2, 4), rng.randint(2, 3)
    deck.sort(key=lambda v: v + rng.uniform(0, 8))
    deck = deck[pile:]  # the first `pile` cards (low ones, mostly) are the pile's: unseen
    rng.shuffle(deck)
    return {
        "difficulty": "standard", "player": deck[:mine], "wolf": deck[mine : mine + wolf],
        "discard": deck[mine + wolf :], "draw_pile": {"size": pile}, "final": False,
        "party": [rng.choice(["J", "Q", "K"])], "rules": {},
    }  # fmt: skip


@sample_sizes(3000, 40000)
def test_one_member_with_the_pile_known_by_its_cards(n: int) -> None:
    """Found by a review: with hand 6 7 9 against 2 3 8 and a pile of 1 and 7, few_matches called the
    round lost, counting no Split (no two of 2 3 8 make 6, 7 or 9); but 9>8 makes the Wolf draw the
    1, and 6 = 1 + 2 + 3 then takes three cards. The search valued the play before it 1/6 where
    1/3 is exact. Every claim, at a decision and after each of its plays, against the reference."""
    rng = random.Random("few-matches-known-pile")
    claimed = checked = 0
    while checked < n:
        raw = _pile_known_by_its_cards(rng)
        root = initial_state(parse_position(raw))
        if root.outcome is not None or root.final or root.is_chance:
            continue
        checked += 1
        states = [(None, root), *((play, apply(root, play)) for play in legal_plays(root))]
        for play, s in states:
            if s.outcome is None and not s.final and kernel.few_matches(vector(s)):
                claimed += 1
                chances = [apply_outcome(s, o) for o, _ in chance_outcomes(s)] if s.is_chance else [s]
                for after in chances:
                    if after.outcome is None:
                        pos = _as_position(after)
                        assert analyse(reference_form({**pos, "objective": "win"}))["value"] == 0, (raw, play)
    assert claimed > n // 5, claimed


def test_a_split_may_take_a_card_the_wolf_draws_later() -> None:
    raw = {
        "difficulty": "standard", "player": [6, 7, 9, 9], "wolf": [3, 8, 8], "party": ["K"], "final": False,
        "discard": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 7, 7, 8, 8, 9, 9],
        "draw_pile": {"size": 3}, "objective": "win",
    }  # fmt: skip
    over = apply(initial_state(parse_position(raw)), parse_play("9>8"))
    drew_2 = apply_outcome(over, (2,))
    assert not kernel.few_matches(vector(drew_2))
    assert analyse(reference_form(_as_position(drew_2) | {"objective": "win"}))["value"] == Fraction(1, 2)


def test_a_reserve_card_matches_too() -> None:
    """One member: a Perfect from the hand, one from the reserve, then a Sum of the two cards drawn
    (a 7 from the 1s to 6s left) wins; few_matches must count the reserve's 9 as a match."""
    raw = {
        "player": [8], "reserve": [9], "wolf": [9, 8, 7], "party": ["K"], "draw_pile": {"size": 2},
        "final": False, "difficulty": "standard", "discard": [7, 7, 7, 8, 8, 9, 9],
    }  # fmt: skip
    root = initial_state(parse_position(raw))
    assert analyse(reference_form({**raw, "objective": "win"}))["value"] > 0
    assert not kernel.few_matches(vector(root))
