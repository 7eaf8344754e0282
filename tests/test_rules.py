"""One test per rule and per ruling of RULES.md, on hand-worked positions."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from conftest import play_texts, state
from solver.core import kernel
from solver.core.cards import parse_value
from solver.core.games import game as game_of
from solver.core.plays import Play, parse_play
from solver.core.position import parse_position
from solver.core.rounds import Reward, apply_reward, deal, party_after_loss, rewards, round_points
from solver.core.rules import (
    LOST,
    WON,
    State,
    apply,
    apply_outcome,
    chance_outcomes,
    final_score,
    legal_plays,
    vector,
    why_illegal,
)

st = state
texts = play_texts


def play(state: State, text: str) -> State:
    return apply(state, parse_play(text))


def draw(state: State, *values: int) -> State:
    assert state.is_chance
    return apply_outcome(state, tuple(sorted(values)))


# §1 Cards and decks -----------------------------------------------------------------------------


def test_suits_never_matter() -> None:
    a = st(player=["7h", "3♠"], wolf=["10d"], difficulty="hard")
    b = st(player=[7, 3], wolf=[10], difficulty="hard")
    assert a == b
    assert parse_value("As") == parse_value("a") == parse_value("1") == 1
    assert parse_value("T") == parse_value("10♣") == 10


@pytest.mark.parametrize(
    ("game", "difficulty", "size"),
    [
        ("lobo", "easy", 40),
        ("lobo", "standard", 45),
        ("lobo", "hard", 50),
        ("vanguard", "easy", 32),
        ("vanguard", "standard", 36),
        ("vanguard", "hard", 40),
    ],
)
def test_deck_sizes(game: str, difficulty: str, size: int) -> None:
    assert sum(game_of(game).deck_counts(difficulty)) == size
    # The party is never in the draw pile: a fresh vanguard position's pile is value cards only.
    pos = parse_position({"game": game, "difficulty": difficulty, "player": [], "wolf": [1]})
    assert pos.pile_size == size - 1


# §2 The deal ------------------------------------------------------------------------------------


def test_deal_full_hands_player_first() -> None:
    player, wolf, rest = deal([1, 2, 3, 4, 5, 6, 7, 8, 9], 4)
    assert (player, wolf, rest) == ((1, 2, 3, 4), (5, 6, 7, 8), [9])


def test_ruling_short_pile_deals_one_at_a_time_player_first() -> None:
    player, wolf, rest = deal([5, 6, 7, 8, 9], 4)
    assert (player, wolf, rest) == ((5, 7, 9), (6, 8), [])


def test_wolf_dealt_nothing_is_a_won_round() -> None:
    player, wolf, _ = deal([3], 4)
    assert player == (3,) and wolf == ()  # the game driver scores this as a win at once


# §2 Plays ---------------------------------------------------------------------------------------


def test_perfect_then_player_draws_one() -> None:
    s = play(st(player=[7, 2], wolf=[7, 5], draw_pile={"size": 5}, final=False), "7=7")
    assert s.is_chance and s.owed_player == 1 and s.wolf == (5,) and s.hand == (2,)
    s = draw(s, 9)
    assert s.hand == (2, 9) and s.pile_size == 4 and s.is_decision


def test_sum_mixing_hand_and_reserve() -> None:
    s = st(player=[4, 1], reserve=[2], wolf=[6, 3], draw_pile={"size": 5}, final=False)
    assert {"4+2r=6", "1+2r=3"} <= texts(s)
    s = play(s, "4+2r=6")
    assert s.reserve == () and s.hand == (1,) and s.wolf == (3,) and s.owed_player == 1


def test_split_wolf_draws_one() -> None:
    s = play(st(player=[9], wolf=[6, 2, 1, 5], draw_pile={"size": 5}, final=False), "9=1+2+6")
    assert s.owed_wolf == 1 and s.wolf == (5,) and s.hand == ()
    assert draw(s, 3).wolf == (3, 5)


def test_over_wolf_draws_the_difference() -> None:
    s = play(st(player=[9], wolf=[6, 5], draw_pile={"size": 5}, final=False), "9>6")
    assert s.owed_wolf == 3
    s = draw(s, 1, 1, 2)
    assert s.wolf == (1, 1, 2, 5) and s.pile_size == 2


def test_over_needs_a_strictly_higher_card() -> None:
    s = st(player=[6], wolf=[6], draw_pile={"size": 5}, final=False)
    assert "6>6" not in texts(s)
    assert why_illegal(s, Play("over", (6,), (), (6,))) == "6 is not higher than 6"


def test_ruling_split_and_over_need_cards_in_the_pile() -> None:
    s = st(player=[9, 7], wolf=[6, 3], draw_pile={"size": 2}, final=False)
    t = texts(s)
    assert "9>6" not in t and "7>6" in t and "9=3+6" in t  # 9>6 needs 3, the pile holds 2
    empty = st(game="lobo", player=[9], wolf=[6, 3], draw_pile={"size": 0})
    assert texts(empty) == {"fold"}  # no Split or Over with an empty pile


def test_perfect_or_sum_with_an_empty_pile_draws_nothing() -> None:
    s = play(st(game="lobo", player=[2, 5, 3], wolf=[5, 4], draw_pile={"size": 0}), "5=5")
    assert s.is_decision and s.hand == (2, 3)


def test_every_used_card_is_discarded_and_drawn_cards_go_to_the_hand() -> None:
    s = st(player=[3], reserve=[4], wolf=[7, 1], draw_pile={"size": 3, "top": [8]}, final=False)
    s2 = play(s, "3+4r=7")
    assert s2.reserve == () and s2.hand == (8,)  # known top card drawn into the hand at once
    assert s2.unseen == s.unseen  # discards are gone, not back among the unseen


def test_a_player_with_no_other_play_must_fold() -> None:
    s = st(player=[1], wolf=[5], draw_pile={"size": 3}, final=False)
    assert [str(p) for p in legal_plays(s)] == ["fold"]


def test_fold_loses() -> None:
    assert play(st(player=[1], wolf=[5]), "fold").outcome == LOST


# §2 End of the round ----------------------------------------------------------------------------


def test_round_is_won_after_the_draw_and_the_drawn_card_counts() -> None:
    s = play(st(game="lobo", player=[5, 1], wolf=[5], draw_pile={"size": 4, "top": [9]}), "5=5")
    assert s.outcome == WON and s.hand == (1, 9)
    assert round_points(s) == (10, 0)
    s = play(st(game="lobo", player=[5, 1], wolf=[5], draw_pile={"size": 4}), "5=5")
    assert s.is_chance  # the unknown card is drawn before the round is scored
    assert draw(s, 4).outcome == WON and round_points(draw(s, 4)) == (5, 0)


def test_split_and_over_never_win_on_the_spot() -> None:
    s = play(st(player=[9], wolf=[6, 3], draw_pile={"size": 3}, final=False), "9=3+6")
    assert s.outcome is None and s.owed_wolf == 1


# §3 lobo scoring --------------------------------------------------------------------------------


def test_lobo_lost_round_wolf_scores_its_hand() -> None:
    s = play(st(game="lobo", player=[1], wolf=[5, 8]), "fold")
    assert round_points(s) == (0, 13)


def test_lobo_has_no_final_round_and_no_sacrifice() -> None:
    s = st(game="lobo", player=[2], wolf=[2, 5], draw_pile={"size": 1})
    s = play(s, "2=2")
    s = draw(s, 3)
    assert s.pile_size == 0 and not s.final
    assert not any(p.kind == "sacrifice" for p in legal_plays(s))


# §4 vanguard: party, rewards, final round ---------------------------------------------------------


def test_ruling_party_losses_fall_jack_queen_king() -> None:
    assert party_after_loss(("J", "Q", "K"), 2) == ("K",)
    assert party_after_loss(("Q", "K"), 1) == ("K",)
    assert party_after_loss(("J", "K"), 5) == ()  # min(k, active): all fall, the game is lost
    assert party_after_loss(("J", "Q", "K"), 0) == ("J", "Q", "K")


def test_reward_is_a_reserve_card_or_a_revived_member() -> None:
    choices = rewards((3, 3, 8), ("Q",))
    assert [str(r) for r in choices] == ["reserve 3", "reserve 8", "revive J", "revive K"]
    assert apply_reward(Reward("reserve", value=8), (3, 3, 8), (5,), ("Q",)) == ((5, 8), ("Q",))
    assert apply_reward(Reward("revive", member="K"), (3,), (), ("Q",)) == ((), ("Q", "K"))
    assert rewards((), ("J", "Q", "K")) == []  # neither possible: no reward


def test_the_kernels_endings_are_the_rewards_and_the_losses() -> None:
    """kernel.endings (the search's menu after a regular round) against rewards and
    party_after_loss (the driver's), on seeded random ends: the same active counts and cards kept,
    a revival counted once (which member does not change a value)."""
    rng = random.Random(2812)
    base = state(player=[1], wolf=[2])
    for _ in range(3000):
        party = tuple(m for m in ("J", "Q", "K") if rng.random() < 0.7)
        won = rng.random() < 0.5
        hand = tuple(rng.randint(1, 9) for _ in range(rng.randint(0, 6)))
        wolf = () if won else tuple(rng.randint(1, 9) for _ in range(rng.randint(0, 6)))
        ended = base._replace(hand=hand, wolf=wolf, party=party, outcome=WON if won else LOST)
        st = vector(ended)
        acts, kept = [0] * kernel.ENDINGS, [0] * kernel.ENDINGS
        m = kernel.endings(st, acts, kept)
        got = sorted(zip(acts[:m], kept[:m], strict=True))
        if not won:
            left = len(party_after_loss(party, len(wolf)))
            assert got == ([] if left == 0 else [(left, 0)])
            continue
        offered = rewards(hand, party)
        want = sorted({(len(party) + (r.kind == "revive"), r.value or 0) for r in offered})
        assert got == (want or [(len(party), 0)])


def test_ruling_reserve_has_no_size_limit() -> None:
    reserve: tuple[int, ...] = tuple(range(1, 10))
    reserve, _ = apply_reward(Reward("reserve", value=4), (4,), reserve, ("J",))
    assert len(reserve) == 10


def test_final_round_by_threshold_after_the_deal() -> None:
    assert parse_position({"player": [1], "wolf": [2], "draw_pile": {"size": 8}}).final
    assert not parse_position({"player": [1], "wolf": [2], "draw_pile": {"size": 9}}).final
    assert parse_position({"player": [1], "wolf": [2], "draw_pile": {"size": 3}, "rules": {"final_threshold": 3}}).final


def test_final_round_when_the_pile_empties_after_a_draw() -> None:
    s = st(player=[9, 2, 4], wolf=[8, 2, 3], draw_pile={"size": 1}, final=False)
    assert "9>8" in texts(s)
    s = draw(play(s, "9>8"), 5)
    assert s.final and s.pile_size == 0
    t = texts(s)
    assert "K=3" in t and not any(">" in x for x in t) and "4=2+2" not in t


def test_final_round_changes_the_plays() -> None:
    s = st(player=[4, 5, 9], wolf=[4, 5], reserve=[1], party=["J", "Q", "K"], draw_pile={"size": 6}, final=True)
    t = texts(s)
    assert "9=4+5" not in t and "9>4" not in t  # no Split, no Over
    assert {"J=4", "Q=5", "K=4", "4=4", "5=5", "4+1r=5"} <= t
    s2 = play(s, "4=4")
    assert s2.is_decision and s2.hand == (5, 9) and s2.pile_size == 6  # Perfect draws nothing


def test_sacrifice_needs_another_member_active() -> None:
    s = st(player=[], wolf=[4, 5, 6], party=["J", "Q"], final=True)
    s = play(s, "J=4")
    assert s.party == ("Q",)
    assert not any(p.kind == "sacrifice" for p in legal_plays(s))
    assert why_illegal(s, parse_play("Q=5")) == "sacrificing Q would leave no active party member"


def test_sacrifice_only_in_the_final_round() -> None:
    s = st(player=[], wolf=[4], draw_pile={"size": 12})
    assert why_illegal(s, parse_play("K=4")) == "a sacrifice is only allowed in the final round"


def test_final_score_and_ruling_reserve_does_not_score() -> None:
    s = play(st(player=[1, 6, 3, 4], reserve=[2], wolf=[7], party=["J", "K"], final=True), "3+4=7")
    assert s.outcome == WON and final_score(s) == 7 + 20
    s = play(
        st(player=[1, 6, 3, 4], reserve=[2], wolf=[7], party=["J", "K"], final=True, rules={"reserve_scores": True}),
        "3+4=7",
    )
    assert final_score(s) == 7 + 20 + 2


def test_empty_pile_makes_a_vanguard_round_final_whatever_the_flag() -> None:
    assert st(player=[1], wolf=[2], draw_pile={"size": 0}, final=False).final


# §5 What the player knows -----------------------------------------------------------------------


def test_unknown_draws_are_uniform_over_the_unseen_cards() -> None:
    s = st(
        game="lobo",
        difficulty="easy",
        player=[5],
        wolf=[5, 2],
        draw_pile={"size": 2},
        discard=[v for v in range(1, 9) for _ in range(5) if v not in (5, 2, 3)] + [5, 5, 2, 2, 3, 3],
    )
    # unseen: 5, 2, 2, 3, 3, 3 (six cards) although the pile holds only 2: the rest left unseen
    assert s.unseen == (0, 2, 3, 0, 1, 0, 0, 0)
    outcomes = dict(chance_outcomes(play(s, "5=5")))
    assert outcomes == {(2,): Fraction(2, 6), (3,): Fraction(3, 6), (5,): Fraction(1, 6)}


def test_over_draws_a_multiset_without_replacement() -> None:
    s = st(
        game="lobo",
        difficulty="easy",
        player=[8],
        wolf=[6],
        draw_pile={"size": 3},
        discard=[v for v in range(1, 9) for _ in range(5) if v not in (1, 8, 6)] + [1, 1, 1, 8, 8, 8, 6, 6, 6],
    )
    # unseen: 1, 1, 8 and 6 — the Over 8>6 draws 2 of these 4
    assert s.unseen == (2, 0, 0, 0, 0, 1, 0, 1)
    outcomes = dict(chance_outcomes(play(s, "8>6")))
    assert outcomes == {
        (1, 1): Fraction(1, 6),
        (1, 6): Fraction(2, 6),
        (1, 8): Fraction(2, 6),
        (6, 8): Fraction(1, 6),
    }


def test_known_top_cards_are_drawn_first_in_order() -> None:
    s = play(st(player=[9], wolf=[6], draw_pile={"size": 5, "top": [2, 7]}, final=False), "9>6")
    assert s.wolf == (2, 7) and s.owed_wolf == 1 and s.pile_size == 3


def test_ruling_pile_face_down_by_default() -> None:
    s = draw(play(st(player=[5, 1], wolf=[5, 3], draw_pile={"size": 5}, final=False), "5=5"), 2)
    assert s.is_decision and s.pile_top == ()


def test_top_card_visible_reveals_each_new_top_card() -> None:
    s = st(player=[5, 1], wolf=[5, 3], draw_pile={"size": 5, "top": [4]}, final=False, rules={"top_card_visible": True})
    s = play(s, "5=5")
    assert s.hand == (1, 4) and s.reveal and s.is_chance  # the next card is turned up before you play
    assert sum(p for _, p in chance_outcomes(s)) == 1
    s = apply_outcome(s, (8,))
    assert s.is_decision and s.pile_top == (8,)
