"""The clairvoyant policy (solver/play/clairvoyant.py) against a brute force of the whole game
(tests/reference/clairvoyant.py) on small setups, where the brute force finishes: it wins a game
exactly when the game can be won, its games replay legally, and it wins every game `best` wins."""

from __future__ import annotations

import random

import pytest

from conftest import sample_sizes
from reference.clairvoyant import Search
from solver.core.position import Rules
from solver.core.rules import legal_plays
from solver.play.clairvoyant import ClairvoyantPolicy, coverable, finish_play
from solver.play.driver import PLAY, SeededDeck, Setup, Table, advance, new_table
from solver.play.policies import BestPolicy, GreedyPolicy
from solver.play.simulate import GameRecord, play_game, replay_record

SEED = 15

# Small games the brute force searches in well under a second each (most in milliseconds):
# short hands, and a final round that starts early. From a third to a half of them can be won.
VANGUARD = (
    Setup("vanguard", "easy", Rules(hand_size=3, final_threshold=20)),
    Setup("vanguard", "standard", Rules(hand_size=3, final_threshold=24)),
    Setup("vanguard", "easy", Rules(hand_size=3, final_threshold=20, top_card_visible=True)),
    Setup("vanguard", "easy", Rules(hand_size=2, final_threshold=8, reserve_scores=True)),  # more rounds
)
# lobo races to a few points, so the brute force sees every game to its end.
LOBO = (
    Setup("lobo", "easy", Rules(hand_size=3), target=6),
    Setup("lobo", "easy", Rules(hand_size=2, top_card_visible=True), target=7),
    Setup("lobo", "standard", Rules(hand_size=3), target=9),  # games 2 and 29 need two rounds won
)
MAX_RESHUFFLES = 3


def _games(setups: tuple[Setup, ...], n: int) -> list[tuple[Setup, int]]:
    return [(setups[i % len(setups)], i) for i in range(n)]


def _brute(setup: Setup, index: int) -> bool:
    table = new_table(setup)
    search = Search(SeededDeck.for_table(table, SEED, index), MAX_RESHUFFLES)
    won = search.can_win(table)
    assert not search.cut, "a small game must end within the reshuffles the brute force looks at"
    return won


@sample_sizes(60, 1000)
def test_vanguard_wins_exactly_the_games_that_can_be_won(n: int) -> None:
    policy = ClairvoyantPolicy()
    wins = 0
    for setup, i in _games(VANGUARD, n):
        record = play_game(setup, policy, SEED, i)
        can = _brute(setup, i)
        assert policy.exact, f"game {i} ({setup.rules}): the search ran out of budget"
        assert record.won == can, (
            f"game {i} ({setup.rules}): brute force says winnable={can}, the policy {record.result}"
        )
        assert policy.winnable == can
        replay_record(record)  # every step legal, every card the deck's, the end as recorded
        wins += record.won
    assert 0.2 * n < wins < 0.8 * n, f"{wins}/{n} won: the sample should hold both kinds of game"


@sample_sizes(12, 300)
def test_lobo_wins_exactly_the_games_that_can_be_won_when_its_search_is_exact(n: int) -> None:
    policy = ClairvoyantPolicy(round_cap=1_000_000, reshuffles_ahead=MAX_RESHUFFLES)
    wins = 0
    for setup, i in _games(LOBO, n):
        record = play_game(setup, policy, SEED, i)
        can = _brute(setup, i)
        assert policy.exact, f"game {i}: the race search was cut short on a small game"
        assert record.won == can, f"game {i} ({setup}): brute force says winnable={can}, the policy {record.result}"
        assert policy.winnable == can
        replay_record(record)
        wins += record.won
    assert 0.1 * n < wins < 0.9 * n, f"{wins}/{n} won: the sample should hold both kinds of game"


@pytest.mark.parametrize("budget", [30, 300])
def test_vanguard_out_of_budget_never_claims_a_wrong_verdict(budget: int) -> None:
    policy = ClairvoyantPolicy(budget=budget)
    inexact = 0
    for setup, i in _games(VANGUARD, 40):
        record = play_game(setup, policy, SEED, i)
        replay_record(record)
        inexact += not policy.exact
        if policy.winnable is not None:
            assert policy.winnable == _brute(setup, i), f"game {i} ({setup.rules}): a wrong verdict"
            assert record.won or not policy.winnable
    assert inexact > 0


@pytest.mark.parametrize("cap", [10, 40, 160])
def test_lobo_cut_short_never_claims_a_wrong_verdict(cap: int) -> None:
    # Rounds enumerated only in part, one reshuffle looked ahead: the verdict, when it gives one,
    # is still right (a line found wins; "cannot be won" only from an exact search).
    policy = ClairvoyantPolicy(round_cap=cap, reshuffles_ahead=0)
    inexact = 0
    for setup, i in _games(LOBO, 24):
        record = play_game(setup, policy, SEED, i)
        replay_record(record)
        inexact += not policy.exact
        if policy.winnable is not None:
            assert policy.winnable == _brute(setup, i), f"game {i} ({setup}): a wrong verdict"
            assert record.won or not policy.winnable
    assert inexact > 0


def _records(setups: tuple[Setup, ...], policy_name: str, n: int) -> list[GameRecord]:
    policy = ClairvoyantPolicy() if policy_name == "clairvoyant" else BestPolicy(samples=6)
    return [play_game(setup, policy, SEED, i) for setup, i in _games(setups, n)]


@pytest.mark.parametrize("setups", [VANGUARD, LOBO], ids=["vanguard", "lobo"])
def test_it_wins_every_game_best_wins_on_the_same_deals(setups: tuple[Setup, ...]) -> None:
    n = 24
    clair, best = _records(setups, "clairvoyant", n), _records(setups, "best", n)
    assert [c.steps[0] for c in clair] == [b.steps[0] for b in best]  # the same deals
    lost = [c.index for c, b in zip(clair, best, strict=True) if b.won and not c.won]
    assert not lost, f"best won games {lost}, the clairvoyant lost them"
    assert sum(c.won for c in clair) >= sum(b.won for b in best)


def test_full_size_games_are_played_legally_and_a_line_found_is_won() -> None:
    policy = ClairvoyantPolicy()
    for setup, i in ((Setup("vanguard", "standard"), 0), (Setup("vanguard", "hard"), 3), (Setup("lobo", "easy"), 2)):
        record = play_game(setup, policy, SEED, i)
        replay_record(record)
        assert policy.winnable is not None
        if policy.winnable:
            assert record.won, f"{setup.game} game {i}: a winning line was found but not followed to the win"
        if setup.game == "lobo":
            assert record.reshuffles >= 1  # the race's chaining of rounds went through a reshuffle


def test_a_tiny_memory_changes_nothing_but_time() -> None:
    small, big = ClairvoyantPolicy(memo_cap=100), ClairvoyantPolicy()
    for setup, i in _games(VANGUARD, 24):
        a, b = play_game(setup, small, SEED, i), play_game(setup, big, SEED, i)
        assert small.exact and (a.won, small.winnable) == (b.won, big.winnable)


def test_out_of_budget_it_plays_greedy_and_says_it_is_not_exact() -> None:
    setup = Setup("vanguard", "standard")
    tiny, greedy = ClairvoyantPolicy(budget=1), GreedyPolicy()
    a, b = play_game(setup, tiny, SEED, 5), play_game(setup, greedy, SEED, 5)
    replay_record(a)
    assert not tiny.exact and tiny.winnable is None
    # Every search stops at its first state, so every choice is the greedy rule's, except that a
    # final round is played by the cover: the regular rounds are the same game.
    finals = [k for k, t in enumerate(_tables(a)) if t.phase == PLAY and t.final]
    cut = finals[0] if finals else len(a.steps)
    assert a.steps[:cut] == b.steps[:cut]
    lobo = ClairvoyantPolicy(budget=1)
    replay_record(play_game(Setup("lobo", "easy"), lobo, SEED, 0))
    assert not lobo.exact


def _tables(record: GameRecord) -> list[Table]:
    return list(replay_record(record).tables)


def test_it_plays_only_a_game_whose_deck_it_was_shown() -> None:
    table = new_table(Setup("vanguard", "easy"))
    deck = SeededDeck.for_table(table, SEED, 0)
    step = deck.next_step(table)
    assert step is not None
    table = advance(table, step)
    with pytest.raises(ValueError, match="see"):
        ClairvoyantPolicy().play(table, random.Random(0))
    policy = ClairvoyantPolicy()
    policy.see(deck)
    assert table.round is not None and policy.play(table, random.Random(0)) in legal_plays(table.round)


def test_the_simulator_shows_the_deck_once_a_game() -> None:
    shown: list[SeededDeck] = []

    class Watching(GreedyPolicy):
        def see(self, deck: SeededDeck) -> None:
            shown.append(deck)

    play_game(Setup("vanguard", "easy"), Watching(), SEED, 3)
    assert shown == [SeededDeck.for_table(new_table(Setup("vanguard", "easy")), SEED, 3)]


def test_a_final_round_is_finished_while_it_can_be_won() -> None:
    # Final rounds met in the small games: the play chosen keeps the round coverable, and
    # finish_play folds exactly when it is not.
    policy = ClairvoyantPolicy()
    met = 0
    for setup, i in _games(VANGUARD, 40):
        record = play_game(setup, policy, SEED, i)
        for t in _tables(record):
            if t.phase == PLAY and t.final and t.round is not None:
                met += 1
                play = finish_play(t.round)
                assert (play.kind == "fold") == (not coverable(t.round))
    assert met > 10
