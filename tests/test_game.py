"""The game driver: steps, refusals, replay, conservation and rule invariants over many games."""

from __future__ import annotations

import json
import random

import pytest

from conftest import sample_sizes
from solver.core.cards import MEMBERS
from solver.core.plays import FOLD, parse_play
from solver.core.position import PositionError, parse_position
from solver.core.rounds import Reward
from solver.core.rules import legal_plays, why_illegal
from solver.play.driver import (
    DEAL,
    DRAW,
    GAME_OVER,
    PLAY,
    RESHUFFLE,
    REWARD,
    Deal,
    Draw,
    GameError,
    Move,
    Playthrough,
    Reshuffle,
    SeededDeck,
    Setup,
    Take,
    advance,
    deck_check,
    new_table,
    replay,
    step_from_json,
    step_to_json,
    table_from_position,
)
from solver.play.policies import RandomPolicy
from solver.play.simulate import GameRecord, play_game, replay_record

GAMES = [(g, d) for g in ("vanguard", "lobo") for d in ("easy", "standard", "hard")]


def _check_invariants(setup: Setup, seed: int, index: int) -> GameRecord:
    """A random game in which every table on the way is checked (conservation, party, phases)."""
    table = new_table(setup)
    deck = SeededDeck.for_table(table, seed, index)
    policy = RandomPolicy()
    rng = random.Random(index)
    steps = []
    while not table.over:
        deck_check(table)
        step = deck.next_step(table)
        if step is None:
            if table.phase == PLAY:
                assert table.round is not None
                step = Move(policy.play(table, rng))
                assert why_illegal(table.round, step.play) is None
            else:
                step = Take(policy.reward(table, rng))
        table = advance(table, step)
        steps.append(step)
    deck_check(table)
    if setup.game == "lobo":
        assert max(table.points) >= setup.target
        assert (table.result == "won") == (table.points[0] >= setup.target)
    return GameRecord(index, seed, setup, "random", tuple(steps), table.result or "", table.score, table.rounds, (),
                      (), table.final_reached)  # fmt: skip


@pytest.mark.parametrize(("game", "difficulty"), GAMES)
@sample_sizes(200, 2000)
def test_invariants_hold_at_every_step_of_random_games(game: str, difficulty: str, n: int) -> None:
    setup = Setup(game, difficulty)
    for i in range(n):
        _check_invariants(setup, 11, i)


def test_a_recorded_game_replays_card_for_card_and_every_play_was_legal() -> None:
    for game, difficulty in GAMES:
        for i in range(15):
            record = play_game(Setup(game, difficulty), RandomPolicy(), 5, i)
            again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
            assert again.steps == record.steps
            g = replay_record(again)
            assert len(g.steps) == len(record.steps)
            for step, table in zip(g.steps, g.tables[:-1], strict=True):
                if isinstance(step, Move):
                    assert table.round is not None and step.play in legal_plays(table.round)
            assert (g.table.result, g.table.score) == (record.result, record.score)


def test_a_tampered_record_is_refused() -> None:
    record = play_game(Setup(), RandomPolicy(), 5, 3)
    first_deal = record.steps[0]
    assert isinstance(first_deal, Deal)
    forged = Deal(first_deal.wolf, first_deal.player)
    bad = GameRecord(**{**record.__dict__, "steps": (forged, *record.steps[1:])})
    with pytest.raises(GameError, match="seeded deck"):
        replay_record(bad)
    cut = GameRecord(**{**record.__dict__, "steps": record.steps[:-1]})
    with pytest.raises(GameError, match="before the game is over"):
        replay_record(cut)


def test_same_seed_same_deals_for_every_policy() -> None:
    from solver.play.policies import GreedyPolicy

    a = play_game(Setup(), RandomPolicy(), 9, 4)
    b = play_game(Setup(), GreedyPolicy(), 9, 4)
    assert a.steps[0] == b.steps[0]  # the first deal is the same whatever the policy does later


def test_steps_round_trip_through_json() -> None:
    steps = [
        Deal((1, 2, 3, 4), (5, 6, 7, 8)),
        Draw((3,)),
        Move(parse_play("4+2r=6")),
        Move(FOLD),
        Take(Reward("reserve", value=7)),
        Take(Reward("revive", member="Q")),
        Reshuffle(),
    ]
    for s in steps:
        assert step_from_json(json.loads(json.dumps(step_to_json(s)))) == s
    for bad in ({"step": "deal", "player": [1], "wolf": ["x"]}, {"step": "jump"}, [], {"step": "reward"}):
        with pytest.raises(GameError):
            step_from_json(bad)


def test_physical_mode_refuses_what_does_not_fit_and_changes_nothing() -> None:
    t = new_table(Setup("vanguard", "easy"))
    assert t.phase == DEAL
    with pytest.raises(GameError, match="not time for a play"):
        advance(t, Move(FOLD))
    with pytest.raises(GameError, match="4 card"):
        advance(t, Deal((1, 2, 3), (4, 5, 6, 7)))
    with pytest.raises(GameError, match="no 1 can be in the pile"):
        advance(t, Deal((1, 1, 1, 1), (1, 5, 6, 7)))
    t = advance(t, Deal((1, 2, 3, 4), (3, 4, 7, 8)))
    assert t.phase == PLAY and t.pile_size == 24 and t.rounds == 1
    with pytest.raises(GameError, match="illegal play 9=9"):
        advance(t, Move(parse_play("9=9")))
    t = advance(t, Move(parse_play("3=3")))
    assert t.phase == DRAW and t.owed() == ("player", 1)
    with pytest.raises(GameError, match="1 card"):
        advance(t, Draw((5, 6)))
    t = advance(t, Draw((5,)))
    assert t.hand == (1, 2, 4, 5) and t.wolf == (4, 7, 8) and t.discards == (3, 3)
    deck_check(t)
    t = advance(t, Move(FOLD))  # three Wolf cards left: the whole party falls
    assert t.phase == GAME_OVER and t.result == "lost" and t.party == ()


def test_won_rounds_reward_and_the_final_round_scores() -> None:
    # A vanguard easy game entered by hand: round 1 won, a reward, round 2 dealt short of the threshold: final.
    g = Playthrough.start(new_table(Setup("vanguard", "easy")))
    g = g.then(Deal((1, 2, 3, 4), (1, 2, 3, 4)))
    for v in (1, 2, 3):
        g = g.then(Move(parse_play(f"{v}={v}"))).then(Draw((5,)))
    g = g.then(Move(parse_play("4=4"))).then(Draw((8,)))  # the Wolf is empty after the draw: won
    assert g.table.phase == REWARD and g.table.hand == (5, 5, 5, 8)
    with pytest.raises(GameError, match="not a reward here"):
        g.then(Take(Reward("reserve", value=7)))
    g = g.then(Take(Reward("reserve", value=8)))
    assert g.table.phase == DEAL and g.table.reserve == (8,) and g.table.party == MEMBERS
    assert g.table.discards == (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5)
    deck_check(g.table)
    # 32 - 8 - 4 = 20 cards left; deal 8 more: 12 > 8, not final. Undo works step by step.
    assert g.undo(1).table.phase == REWARD and g.undo(100).table.phase == DEAL and g.undo(100).steps == ()
    g = g.then(Deal((6, 6, 7, 7), (6, 7, 8, 8)))
    assert not g.table.final
    g = g.then(Move(parse_play("6=6"))).then(Draw((1,)))
    g = g.then(Move(parse_play("7=7"))).then(Draw((1,)))
    g = g.then(Move(parse_play("8r=8"))).then(Draw((2,)))
    g = g.then(Move(parse_play("6+2=8"))).then(Draw((2,)))  # won again
    assert g.table.phase == REWARD
    g = g.then(Take(Reward("reserve", value=7)))
    assert g.table.pile_size == 8
    g = g.then(Deal((3, 4, 5, 6), (3, 4, 7, 8)))  # the last 8 cards, pile 0: the final round
    assert g.table.final and g.table.final_reached
    pos = g.table.position()
    assert pos.final and pos.objective == "score" and pos.pile_size == 0
    g = g.then(Move(parse_play("3=3"))).then(Move(parse_play("4=4"))).then(Move(parse_play("7r=7")))
    g = g.then(Move(parse_play("J=8")))
    assert g.table.over and g.table.result == "won" and g.table.score == 5 + 6 + 20
    deck_check(g.table)
    again = replay(g.tables[0], g.steps)
    assert again.table == g.table
    saved = json.loads(json.dumps(g.to_json()))
    assert Playthrough.from_json(saved).table == g.table
    saved["steps"][5] = {"step": "play", "play": "9=9"}
    with pytest.raises(GameError, match="step 6"):
        Playthrough.from_json(saved)


def test_a_short_pile_deals_alternately_and_a_wolf_dealt_nothing_loses_the_round_at_once() -> None:
    deck = [v for v in range(1, 9) for _ in range(4)]
    for v in (3, 7, 8):
        deck.remove(v)
    raw = {"difficulty": "easy", "player": [3, 7], "wolf": [], "party": ["J"], "discard": deck, "phase": "reward"}
    t = table_from_position(parse_position(raw, allow_reward=True))
    assert t.pile_size == 1 and t.deal_sizes() == (1, 0)
    t = advance(t, Take(Reward("revive", member="Q")))
    t = advance(t, SeededDeck.for_table(t, 1, 0).next_step(t) or Reshuffle())
    # The one card goes to you, none to the Wolf: that round is won at once, and final (the pile is empty).
    assert t.over and t.result == "won" and t.score == 8 + 20 and t.final_reached
    assert new_table(Setup("vanguard", "easy")).deal_sizes() == (4, 4)
    from solver.core.rounds import deal_sizes

    assert deal_sizes(7, 4) == (4, 3) and deal_sizes(5, 4) == (3, 2)


def test_lobo_reshuffles_when_the_pile_cannot_deal() -> None:
    setup = Setup("lobo", "easy")
    for i in range(40):
        record = play_game(setup, RandomPolicy(), 3, i)
        g = replay_record(record)
        for step, before in zip(g.steps, g.tables[:-1], strict=True):
            if isinstance(step, Reshuffle):
                assert before.phase == RESHUFFLE and before.pile_size < 8
        if record.reshuffles:
            return
    pytest.fail("no game of 40 needed a reshuffle")


def test_reward_positions_parse_only_where_asked() -> None:
    raw = {"player": [3, 7], "wolf": [], "party": ["Q", "K"], "reserve": [2], "discard": [1, 1, 4], "phase": "reward"}
    with pytest.raises(PositionError, match="lobo-hint reward"):
        parse_position(raw)
    pos = parse_position(raw, allow_reward=True)
    assert pos.phase == "reward" and not pos.final and pos.objective == "game"
    assert pos.to_json()["phase"] == "reward"
    t = table_from_position(pos)
    assert t.phase == REWARD and t.hand == (3, 7) and t.party == ("Q", "K")
    t = advance(t, Take(Reward("revive", member="J")))
    assert t.phase == DEAL and t.party == MEMBERS and t.discards == (1, 1, 3, 4, 7)
    deck_check(t)
    for bad, words in (
        ({**raw, "wolf": [5]}, "Wolf's hand is empty"),
        ({**raw, "final": True}, "no reward"),
        ({**raw, "phase": "later"}, "phase"),
        ({"game": "lobo", "player": [3], "wolf": [], "phase": "reward"}, "vanguard"),
    ):
        with pytest.raises(PositionError, match=words):
            parse_position(bad, allow_reward=True)
    # Without the key, nothing changes: an empty Wolf hand is still refused.
    with pytest.raises(PositionError, match="empty"):
        parse_position({"player": [3], "wolf": []}, allow_reward=True)


def test_a_table_from_a_position_exports_the_same_position() -> None:
    raw = {"player": [1, 4, 7, 9], "wolf": [2, 3, 6, 8], "reserve": [5], "party": ["J", "Q"], "discard": [7, 7, 2]}
    pos = parse_position(raw)
    t = table_from_position(pos)
    assert t.phase == PLAY
    assert t.position().to_json() == pos.to_json()
    deck_check(t)
