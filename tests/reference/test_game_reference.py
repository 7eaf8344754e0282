"""The reference `game` values (reference/game.py, RULES.md §7) against the worked examples, against
hand-worked small positions, and against a second, plainer route on random positions: with the
pile's order known, the whole game is a yes/no search, and an unknown order is the average of the
known ones wherever no later choice has to be made without knowing it."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from conftest import examples, sample_sizes
from gen import random_game_position

from .expectimax import COPIES, TOP_VALUE, unseen_counts
from .finish import remove_cards
from .game import OutOfScope, game_values, in_scope, round_win_values
from .legal import Play, PlayKey, Position, legal_plays, make_play, play_key
from .test_reference_examples import normalize

FOLD = play_key(make_play("fold"))


def _perfect(v: int) -> PlayKey:
    return play_key(make_play("perfect", [v], [], [v]))


def _load(path: Path) -> dict[str, Any]:
    with open(path) as f:
        example: dict[str, Any] = json.load(f)
    return example


def _game(raw: dict[str, Any]) -> tuple[Fraction, dict[PlayKey, Fraction]]:
    return game_values(normalize(raw, objective="game"))


# ---- the worked examples ----------------------------------------------------------------------


@pytest.mark.parametrize("path", examples("game"), ids=lambda p: p.name)
def test_worked_examples(path: Path) -> None:
    example = _load(path)
    pos = normalize(example["position"], objective="game")
    value, moves = game_values(pos)
    expect = example["expect"]
    assert value == Fraction(expect["value_exact"])
    assert moves == {play_key(m["play"]): Fraction(m["value_exact"]) for m in expect["moves"]}
    assert {k for k, v in moves.items() if v == value} == {play_key(p) for p in expect["best_plays"]}
    # The round's own probabilities are for the same plays.
    win, win_moves = round_win_values(pos)
    assert set(win_moves) == set(moves)
    assert win == max(win_moves.values())


def test_example_01_by_hand() -> None:
    """Example 01 worked by hand. Unseen: one 6, one 7, two 8s; the pile is 5, 4, 7, then those
    four in a random order (u1..u4).
    * Fold: J falls (one Wolf card), Q stays: no sacrifice. Seven cards, fewer than 2 x 4, are
      dealt one at a time: Player 5, 7, u2, u4; Wolf 4, u1, u3. The reserve 4 covers the 4; u1 and
      u3 are covered only when they are a 7 and an 8 (2 of the 6 equally likely pairs): 1/3.
    * 1=1 draws the 5 and wins; reviving K (two sacrifices next round) is the best reward: the
      Wolf gets 7, u2, u4 and the Player 4, u1, u3 and the reserve 4, so 4+4r covers an 8; lost
      only when both 8s went to the Player (1/6): 5/6."""
    pos = normalize(_load(examples("game")[1])["position"], objective="game")
    value, moves = game_values(pos)
    assert moves[FOLD] == Fraction(1, 3)
    assert moves[_perfect(1)] == value == Fraction(5, 6)


# ---- hand-worked small positions ------------------------------------------------------------


def _raw(**kw: Any) -> dict[str, Any]:
    """A standard vanguard regular round; every card not named is in the discards unless
    unseen= names the unseen ones."""
    unseen = kw.pop("unseen", [])
    raw: dict[str, Any] = {"game": "vanguard", "difficulty": "standard", "party": ["J", "Q", "K"], "final": False}
    raw.update(kw)
    top = TOP_VALUE[raw["difficulty"]]
    deck = [v for v in range(1, top + 1) for _ in range(COPIES["vanguard"])]
    pile = raw.get("draw_pile", {})
    known = pile if isinstance(pile, list) else pile.get("top", [])
    for v in [*raw["player"], *raw["wolf"], *raw.get("reserve", []), *known, *unseen]:
        deck.remove(v)
    raw["discard"] = deck
    return raw


def test_the_last_card_drawn_wins_and_a_fold_can_keep_the_game() -> None:
    # 3=3 draws the pile's last card: the round turned final and is won, so is the game. A fold
    # costs J (one Wolf card); the next deal is that one card, to the Player, none to the Wolf:
    # the Player wins that round at once, and it is final (§2.1, §4).
    value, moves = _game(_raw(player=[3], wolf=[3], draw_pile={"size": 1}, unseen=[5]))
    assert moves == {_perfect(3): 1, FOLD: 1} and value == 1
    # The round alone: the fold loses it.
    assert round_win_values(normalize(_raw(player=[3], wolf=[3], draw_pile={"size": 1}, unseen=[5])))[1][FOLD] == 0
    # With J alone, the fold takes the last member.
    _, moves = _game(_raw(player=[3], wolf=[3], party=["J"], draw_pile={"size": 1}, unseen=[5]))
    assert moves == {_perfect(3): 1, FOLD: 0}


def test_a_regular_win_whose_next_deal_is_surely_won() -> None:
    # 3=3 draws one of two cards: won, and the pile keeps one card, so the round was regular; the
    # next deal gives that card to the Player and none to the Wolf: the game is won.
    _, moves = _game(_raw(player=[3], wolf=[3], party=["J"], draw_pile={"size": 2}, unseen=[5, 6, 7]))
    assert moves == {_perfect(3): 1, FOLD: 0}


def test_losing_the_round_takes_the_last_member() -> None:
    # Only Fold is legal (1 is below both Wolf cards). Two Wolf cards left: min(2, 2) takes J and Q,
    # the game is lost, though the next deal (one card, to the Player) would have won it.
    value, moves = _game(_raw(player=[1], wolf=[5, 6], party=["J", "Q"], draw_pile={"size": 1}, unseen=[7]))
    assert moves == {FOLD: 0} and value == 0
    # With K up too, K survives and the next deal wins.
    value, moves = _game(_raw(player=[1], wolf=[5, 6], draw_pile={"size": 1}, unseen=[7]))
    assert moves == {FOLD: 1} and value == 1


def test_the_next_deal_by_hand() -> None:
    # Fold only. J falls; Q and K allow one sacrifice in the final round. The pile is the four
    # unseen cards 1, 1, 2, 3; four cards cannot deal 2 x 4, so they go one at a time, Player
    # first: the Player gets a random two, the Wolf the other two. One Wolf card is sacrificed,
    # the other must be covered: lost only when the Player holds 2, 3 and the Wolf 1, 1 (1 in 6).
    base = {"player": [], "wolf": [9], "draw_pile": {"size": 4}, "unseen": [1, 1, 2, 3]}
    assert _game(_raw(**base)) == (Fraction(5, 6), {FOLD: Fraction(5, 6)})
    # A 1 in the reserve, carried into the next round, covers that case too.
    assert _game(_raw(**base, reserve=[1])) == (1, {FOLD: 1})
    # A known top card is dealt first, to the Player: 3 and one of 1, 1, 2; the Wolf gets the other
    # two. Lost when the Player's other card is the 2 (1 in 3).
    assert _game(_raw(**dict(base, draw_pile={"size": 4, "top": [3]}, unseen=[1, 1, 2]))) == (
        Fraction(2, 3),
        {FOLD: Fraction(2, 3)},
    )


def test_the_next_deal_follows_the_hand_size() -> None:
    # hand_size 1: one card to each side, two stay in the pile (final_threshold 2: final). The
    # fold costs J (one Wolf card) and leaves Q alone, without sacrifices: the next round is won
    # only if the two dealt cards are equal (both 1s: 2/4 x 1/3).
    rules = {"hand_size": 1, "final_threshold": 2}
    base = {"player": [], "wolf": [9], "party": ["J", "Q"], "rules": rules, "unseen": [1, 1, 2, 3]}
    assert _game(_raw(**base, draw_pile={"size": 4})) == (Fraction(1, 6), {FOLD: Fraction(1, 6)})
    # A known 3 on top goes to the Player; the Wolf's card is then never a 3.
    assert _game(_raw(**dict(base, unseen=[1, 1, 2]), draw_pile={"size": 4, "top": [3]}))[0] == 0
    # A known 1 on top: the Wolf's card is the other 1 with probability 1/3.
    assert _game(_raw(**dict(base, unseen=[1, 2, 3]), draw_pile={"size": 4, "top": [1]}))[0] == Fraction(1, 3)


@pytest.mark.parametrize(
    ("pile", "wrong"),
    [
        # The Player is dealt 9, 9, 5 and the Wolf 7, 10, 10: 5+2r covers the 7 and two
        # sacrifices the 10s. With 4r nothing covers the 7 (5+4 = 9): three cards, two sacrifices.
        # Keep the 2 (not the card just drawn); with 4 and 4 in hand instead, the game is lost.
        ([4, 9, 9, 5, 7, 10, 10], {"player": [3, 4]}),
        # The Player is dealt 6, 6, 5 and the Wolf 9, 10, 10: 5+4r covers the 9; with 2r nothing
        # covers the 9 or a 10. Keep the 4 (the card just drawn); when a 2 is drawn instead, the
        # game is lost.
        ([4, 6, 6, 5, 9, 10, 10], {"draw_pile": [2, 6, 6, 5, 9, 10, 10]}),
    ],
)
def test_the_reward_that_wins(pile: list[int], wrong: dict[str, Any]) -> None:
    # 3=3 draws the top card and wins with it and the 2 in hand; the party is full, so the reward
    # is one of the two into the reserve, and only one of them wins the next (final) round. A fold
    # costs J and deals the Player the drawn card and two big ones, which cover at most one of the
    # Wolf's three cards, with one sacrifice: lost.
    base: dict[str, Any] = {
        "difficulty": "hard",
        "player": [2, 3],
        "wolf": [3],
        "draw_pile": pile,
        "rules": {"hand_size": 3, "final_threshold": 1},
    }
    assert _game(_raw(**base)) == (1, {_perfect(3): 1, FOLD: 0})
    value, moves = _game(_raw(**dict(base, **wrong)))
    assert value == 0 and moves[_perfect(3)] == 0


# Found by a review (its own count over the 720 orders of the pile): with the top card visible,
# the winning draw turns up a new top card, which the Player sees before choosing the reward.
TOP_SEEN_BEFORE_THE_REWARD = [
    ({"player": [5, 4], "wolf": [4], "draw_pile": {"size": 7, "top": [3]},
      "discard": [1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8]}, Fraction(1), Fraction(19, 20)),
    ({"player": [3, 5], "wolf": [5], "draw_pile": {"size": 7, "top": [7]},
      "discard": [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 6, 6, 6, 7, 7, 8, 8]}, Fraction(19, 20), Fraction(9, 10)),
]  # fmt: skip


@pytest.mark.parametrize(("cards", "seen", "blind"), TOP_SEEN_BEFORE_THE_REWARD)
def test_the_top_card_the_winning_draw_turns_up_is_seen_before_the_reward(
    cards: dict[str, Any], seen: Fraction, blind: Fraction
) -> None:
    raw = {"game": "vanguard", "difficulty": "easy", "party": ["J", "Q", "K"], "final": False, **cards}
    assert _game({**raw, "rules": {"hand_size": 3, "top_card_visible": True}})[0] == seen
    # Face down, the first card of the next deal is unknown when the reward is chosen.
    assert _game({**raw, "rules": {"hand_size": 3}})[0] == blind


def test_reviving_a_member_is_a_reward() -> None:
    # J alone. 3=3 draws the 6 and wins; the next deal (hand_size 1) gives the Player 5 and the
    # Wolf 7. Keeping the 6 does not cover the 7 (5, 6, no 7); turning Q face up allows one
    # sacrifice, which does. A fold takes J.
    raw = _raw(player=[3], wolf=[3], party=["J"], draw_pile=[6, 5, 7], rules={"hand_size": 1, "final_threshold": 1})
    assert _game(raw) == (1, {_perfect(3): 1, FOLD: 0})
    # With Q up as well there is nobody to revive: keeping the 6 is the only reward, and one
    # sacrifice (J or Q) covers the 7 anyway.
    assert _game(dict(raw, party=["J", "Q"]))[1][_perfect(3)] == 1


def test_a_final_round_is_the_game() -> None:
    # A final round (flagged, or with an empty pile whatever the flag says) is won or lost, and
    # so is the game: the fold is worth 0 even though the party would survive a regular loss.
    for pile, final in (({"size": 3}, True), ({"size": 0}, False)):
        value, moves = _game(_raw(player=[5], wolf=[5], draw_pile=pile, final=final, unseen=[1, 2, 3]))
        assert value == 1 and moves[FOLD] == 0 and moves[_perfect(5)] == 1
        sacrifices = [k for k in moves if k[0] == "sacrifice"]
        assert len(sacrifices) == 3 and all(moves[k] == 1 for k in sacrifices)


def test_a_round_that_turns_final_is_the_game() -> None:
    # 5=2+3 makes the Wolf draw the pile's last card, the known 7: the round turns final. The
    # Player has the 1 left and J and Q: one sacrifice, two Wolf cards (7, 9): lost, and the game
    # with it (a fold at the start, with three Wolf cards, takes J and Q: lost too).
    raw = _raw(player=[1, 5], wolf=[2, 3, 9], party=["J", "Q"], draw_pile={"size": 1, "top": [7]})
    _, moves = _game(raw)
    assert moves[play_key(make_play("split", [5], [], [2, 3]))] == 0
    # With K up too: two sacrifices cover the 7 and the 9.
    _, moves = _game(dict(raw, party=["J", "Q", "K"]))
    assert moves[play_key(make_play("split", [5], [], [2, 3]))] == 1


def test_out_of_scope_positions_are_refused() -> None:
    big = normalize(_raw(player=[3], wolf=[3], draw_pile={"size": 17}, unseen=list(range(1, 10)) * 2), "game")
    assert not in_scope(big)
    with pytest.raises(OutOfScope, match="2 x hand_size"):
        game_values(big)
    # The same pile is in scope with a larger final_threshold, or when the round is final.
    assert in_scope(dict(big, rules=dict(big["rules"], final_threshold=9)))
    assert in_scope(dict(big, final=True))
    lobo = normalize({"game": "lobo", "player": [3], "wolf": [3]}, "game")
    with pytest.raises(OutOfScope, match="vanguard"):
        game_values(lobo)


# ---- a second route: the whole game with the pile's order known -------------------------------


Cards = tuple[int, ...]
Party = tuple[str, ...]  # the active members, in J, Q, K order
Known = tuple[Cards, Cards, Cards, Party, Cards, bool]  # hand, reserve, Wolf, party, pile, final


class KnownGame:
    """Can the game be won when the order of the whole pile is known? A plain search over every
    play, reward and round, written apart from game.py: it deals the next round from the list of
    cards and plays it out play by play (instead of finish.coverable)."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.hand_size: int = pos["rules"]["hand_size"]
        self.threshold: int = pos["rules"]["final_threshold"]
        self.memo: dict[Known, bool] = {}

    def start(self, pile: Cards) -> Known:
        p = self.pos
        return (
            tuple(sorted(p["player"])),
            tuple(sorted(p["reserve"])),
            tuple(sorted(p["wolf"])),
            tuple(m for m in "JQK" if m in p["party"]),
            pile,
            bool(p["final"]) or not pile,
        )

    def plays(self, state: Known) -> list[Play]:
        hand, reserve, wolf, party, pile, final = state
        return legal_plays(
            dict(
                self.pos,
                player=list(hand),
                reserve=list(reserve),
                wolf=list(wolf),
                party=list(party),
                draw_pile={"size": len(pile), "top": list(pile)},
                final=final,
            )
        )

    def decide(self, state: Known) -> bool:
        if state not in self.memo:
            self.memo[state] = any(self.play(state, p) for p in self.plays(state))
        return self.memo[state]

    def play(self, state: Known, play: Play) -> bool:
        hand, reserve, wolf, party, pile, final = state
        if play["type"] == "fold":
            return self.lost(len(wolf), reserve, party, pile, final)
        new_hand = remove_cards(hand, play["hand"])
        new_reserve = remove_cards(reserve, play["reserve"])
        new_wolf = remove_cards(wolf, play["wolf"])
        assert new_hand is not None and new_reserve is not None and new_wolf is not None
        hand, reserve, wolf = new_hand, new_reserve, new_wolf
        if play["type"] == "sacrifice":
            party = tuple(m for m in party if m != play["member"])
        elif play["type"] in ("perfect", "sum") and not final and pile:
            hand, pile = tuple(sorted((*hand, pile[0]))), pile[1:]
        elif play["type"] == "split":
            wolf, pile = tuple(sorted((*wolf, pile[0]))), pile[1:]
        elif play["type"] == "over":
            d = (play["hand"] + play["reserve"])[0] - play["wolf"][0]
            wolf, pile = tuple(sorted((*wolf, *pile[:d]))), pile[d:]
        final = final or not pile
        if not wolf:
            return self.won(hand, reserve, party, pile, final)
        return self.decide((hand, reserve, wolf, party, pile, final))

    def won(self, hand: Cards, reserve: Cards, party: Party, pile: Cards, final: bool) -> bool:
        if final:
            return True
        rewards = [(tuple(sorted((*reserve, v))), party) for v in hand]
        down = [m for m in "JQK" if m not in party]
        if down:
            rewards.append((reserve, tuple(m for m in "JQK" if m in party or m == down[0])))
        return any(self.deal(pile, r, p) for r, p in rewards or [(reserve, party)])

    def lost(self, k: int, reserve: Cards, party: Party, pile: Cards, final: bool) -> bool:
        if final:
            return False
        party = party[min(k, len(party)) :]
        return bool(party) and self.deal(pile, reserve, party)

    def deal(self, pile: Cards, reserve: Cards, party: Party) -> bool:
        n = self.hand_size
        if len(pile) >= 2 * n:
            player, wolf, rest = pile[:n], pile[n : 2 * n], pile[2 * n :]
        else:
            player, wolf, rest = pile[0::2], pile[1::2], ()
        if not wolf:
            return True
        assert len(rest) <= self.threshold, "the next round is the final one"
        return self.decide((tuple(sorted(player)), reserve, tuple(sorted(wolf)), party, rest, True))


def _orders(pos: Position) -> list[tuple[int, ...]]:
    """Every order of the pile, each equally likely: the known top, then any ordered choice of
    distinct unseen cards (the ones not chosen left the game unseen)."""
    counts = unseen_counts(pos)
    unseen = [v for v in range(1, 11) for _ in range(counts[v])]
    unknown = pos["draw_pile"]["size"] - len(pos["draw_pile"]["top"])
    return [tuple(pos["draw_pile"]["top"]) + order for order in permutations(unseen, unknown)]


def _random_in_scope(seed: str, n: int) -> list[Position]:
    rng = random.Random(seed)
    found = [normalize(random_game_position(rng, final=rng.choice([False, False, None])), "game") for _ in range(n)]
    assert all(in_scope(p) for p in found)
    return found


def test_known_piles_agree_with_a_plain_whole_game_search() -> None:
    # The pile given as a list: every draw and deal is known, and every value is 0 or 1.
    regular = 0
    for pos in _random_in_scope("game-known", 150):
        pile = _orders(pos)[0]
        pos = dict(pos, draw_pile={"size": len(pile), "top": list(pile)})
        known = KnownGame(pos)
        start = known.start(pile)
        value, moves = game_values(pos)
        assert moves == {play_key(p): Fraction(int(known.play(start, p))) for p in known.plays(start)}
        assert value == int(known.decide(start))
        regular += not start[-1]
    assert regular >= 75  # most of them are regular rounds, whose next deal is searched


def test_unknown_piles_against_every_order_of_the_pile() -> None:
    # Knowing the order can only help: the value is at most the average, over the orders, of the
    # known-order value. After a fold nothing is chosen without knowing the order (the final
    # round is played with both hands face up), so the fold is worth exactly that average.
    folds_won = 0
    for pos in _random_in_scope("game-orders", 120):
        orders = _orders(pos)
        value, moves = game_values(pos)
        known = KnownGame(pos)
        fold = Fraction(sum(known.play(known.start(o), make_play("fold")) for o in orders), len(orders))
        best = Fraction(sum(known.decide(known.start(o)) for o in orders), len(orders))
        assert moves[FOLD] == fold
        assert value <= best
        assert all(0 <= v <= 1 for v in moves.values())
        folds_won += fold > 0
    assert folds_won >= 10


@sample_sizes(25, 240)
def test_random_positions_hold_together(n: int) -> None:
    for pos in _random_in_scope("game-props", n):
        value, moves = game_values(pos)
        _, win_moves = round_win_values(pos)
        assert value == max(moves.values())
        assert set(moves) == set(win_moves) == {play_key(p) for p in legal_plays(pos)}
        if pos["final"] or pos["draw_pile"]["size"] == 0:
            # A final round: winning it is winning the game.
            assert moves == win_moves
        # More is never worse: a card more in the reserve (taken from the discards, so the pile
        # is the same), or a face-down member face up.
        for v in sorted(set(pos["discard"]))[:2]:
            richer = dict(
                pos, reserve=[*pos["reserve"], v], discard=list(remove_cards(tuple(pos["discard"]), [v]) or ())
            )
            assert game_values(richer)[0] >= value
        down = [m for m in ("J", "Q", "K") if m not in pos["party"]]
        if down:
            assert game_values(dict(pos, party=[*pos["party"], down[0]]))[0] >= value
