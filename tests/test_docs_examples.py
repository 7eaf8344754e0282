"""The worked examples of docs/rules.md, checked against the engine (same letters as the doc)."""

from __future__ import annotations

from fractions import Fraction

from conftest import play_texts, state
from solver.core.plays import parse_play
from solver.core.position import parse_position
from solver.core.rounds import Reward, apply_reward, party_after_loss, rewards, round_points
from solver.core.rules import apply, chance_outcomes, why_illegal
from solver.finish.finisher import solve_finish
from solver.search.hint import hint

st = state
texts = play_texts


def test_a_sum_with_a_reserve_card() -> None:
    s = st(player=[1, 4, 7, 9], reserve=[2], wolf=[3, 5, 6, 8], draw_pile={"size": 10}, final=False)
    assert {"4+2r=6", "1+4=5", "1+2r=3"} <= texts(s)
    after = apply(s, parse_play("4+2r=6"))
    assert after.hand == (1, 7, 9) and after.reserve == () and after.wolf == (3, 5, 8) and after.owed_player == 1


def test_b_a_split_and_the_wolfs_draw() -> None:
    s = st(player=[9], wolf=[1, 2, 6, 8], draw_pile={"size": 10}, final=False)
    assert {"9=1+2+6", "9=1+8"} <= texts(s)
    after = apply(s, parse_play("9=6+2+1"))
    assert after.wolf == (8,) and after.owed_wolf == 1


def test_c_an_over_and_a_short_pile() -> None:
    s = st(player=[9, 8, 7], wolf=[6], draw_pile={"size": 2}, final=False)
    assert why_illegal(s, parse_play("9>6")) is not None
    assert {"8>6", "7>6"} <= texts(s)
    known = st(player=[9], wolf=[6], draw_pile={"size": 20, "top": ["3"]}, final=False)
    after = apply(known, parse_play("9>6"))
    assert after.wolf == (3,) and after.owed_wolf == 2


def test_d_one_lobo_round_with_a_known_pile() -> None:
    s = st(game="lobo", difficulty="standard", player=[3, 5, 7, 9], wolf=[1, 4, 7, 8], draw_pile=[2, 6, 3, 4, 8])
    line = ["7=7", "5=1+4", "9>8", "3=3", "2+4=6"]
    for i, text in enumerate(line):
        s = apply(s, parse_play(text))
        if i == 1:
            assert round_points(apply(s, parse_play("fold"))) == (0, 14)
    assert s.outcome == "won" and s.hand == (8,) and round_points(s) == (8, 0)
    # The pile is fully known: the hint's value is the best line's points, at least this line's +8.
    h = hint(
        parse_position(
            {
                "game": "lobo",
                "difficulty": "standard",
                "player": [3, 5, 7, 9],
                "wolf": [1, 4, 7, 8],
                "draw_pile": [2, 6, 3, 4, 8],
                "objective": "points",
            }
        )
    )
    assert h.exact and h.value is not None and h.value >= 8


def test_e_a_lost_round_with_two_wolf_cards_left() -> None:
    assert party_after_loss(("J", "Q", "K"), 2) == ("K",)
    assert party_after_loss(("K",), 2) == ()


def test_f_choosing_a_reward() -> None:
    choices = rewards((2, 9), ("Q", "K"))
    assert [str(c) for c in choices] == ["reserve 2", "reserve 9", "revive J"]
    assert apply_reward(Reward("revive", member="J"), (2, 9), (), ("Q", "K")) == ((), ("J", "Q", "K"))


def test_g_a_finish_with_a_sacrifice() -> None:
    s = st(player=[1, 3, 4, 6], wolf=[7, 9], party=["J", "Q", "K"], final=True)
    assert solve_finish(s).score == 27
    with_reserve = st(player=[1, 3, 4, 6], reserve=[2], wolf=[7, 9], party=["J", "Q", "K"], final=True)
    assert solve_finish(with_reserve).score == 30


def test_h_a_final_round_that_cannot_be_finished() -> None:
    s = st(player=[2, 3, 4, 5], wolf=[7, 8], party=["K"], final=True)
    f = solve_finish(s)
    assert f.status == "lost" and f.proof is not None and sorted(f.proof.wolf) == [7, 8] and f.proof.minimal
    two = st(player=[2, 3, 4, 5], wolf=[7, 8], party=["Q", "K"], final=True)
    assert solve_finish(two).score == 17


def test_i_what_an_over_can_give_the_wolf() -> None:
    # Unseen 2 2 5 9 (lobo, easy deck would not hold a 9: standard).
    deck_rest = [v for v in range(1, 10) for _ in range(5)]
    for v in (2, 2, 5, 9, 8, 6):
        deck_rest.remove(v)
    s = st(game="lobo", difficulty="standard", player=[8], wolf=[6], discard=deck_rest, draw_pile={"size": 2})
    assert sorted(v for v, n in enumerate(s.unseen, start=1) for _ in range(n)) == [2, 2, 5, 9]
    odds = dict(chance_outcomes(apply(s, parse_play("8>6"))))
    assert odds == {(2, 2): Fraction(1, 6), (2, 5): Fraction(1, 3), (2, 9): Fraction(1, 3), (5, 9): Fraction(1, 6)}
