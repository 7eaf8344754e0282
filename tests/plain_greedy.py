"""The greedy rule (solver/search/rollout.py: GREEDY_PLAY_RULE) restated plainly over Play values
and the rules' Python API, to judge the kernel's greedy (kernel.greedy, kernel.play_out) that the
greedy policy and every rollout play by."""

from __future__ import annotations

from collections.abc import Callable

from solver.core.cover import counts, min_sacrifices
from solver.core.games import game
from solver.core.plays import Play
from solver.core.rules import WON, State, apply, apply_outcome, legal_plays


def greedy_key(play: Play) -> tuple[int, int, int, int, int]:
    """Smaller is better; among equal keys the play listed first (legal_plays' order)."""
    if play.kind in ("perfect", "sum", "split"):
        return (0, -len(play.wolf), len(play.hand) + len(play.reserve), len(play.reserve), -max(play.wolf))
    if play.kind == "over":
        return (1, play.mine[0] - play.wolf[0], -play.wolf[0], len(play.reserve), 0)
    if play.kind == "sacrifice":
        return (2, 0, 0, 0, -play.wolf[0])
    return (3, 0, 0, 0, 0)


def greedy_play(s: State) -> Play:
    return min(legal_plays(s), key=greedy_key)  # min keeps the first of equal keys


def rollout(s: State, order: list[int], choose: Callable[[State], Play] | None = None) -> State:
    """Draw by draw through the rules' API: the unknown cards in this order, each play the greedy
    rule's (or choose's: tests/plain_policy.py), until the round ends or (vanguard) turns final at
    a decision."""
    i = 0
    while s.outcome is None:
        if s.is_chance:
            d = s.owed_player + s.owed_wolf or 1
            s = apply_outcome(s, tuple(sorted(order[i : i + d])))
            i += d
        elif game(s.game).has_final_round and s.final:
            return s
        else:
            s = apply(s, (choose or greedy_play)(s))
    return s


def dealt_final_won(end: State, rest: list[int]) -> bool | None:
    """A greedy rollout's vanguard round end, when its next deal surely makes the final round:
    whether that final round, dealt from the pile as it is (its known top cards, then `rest`, the
    rollout's order after the round), can be won. The reward: revive a member when one is face
    down, else the lowest hand card to the reserve; a lost round turns
    min(Wolf's cards, active) members face down. None: not such an end (the next deal may be a
    regular round, or this was the final round)."""
    r = end.rules
    if (
        end.game != "vanguard"
        or end.final
        or end.outcome is None
        or end.pile_size > 2 * r.hand_size + r.final_threshold
    ):
        return None
    active, reserve = len(end.party), list(end.reserve)
    if end.outcome != WON:
        active -= min(len(end.wolf), active)
        if active == 0:
            return False
    elif active < 3:
        active += 1
    elif end.hand:
        reserve.append(min(end.hand))
    pile = list(end.pile_top) + rest
    assert len(pile) == end.pile_size
    h = r.hand_size
    if len(pile) >= 2 * h:
        hand, wolf = pile[:h], pile[h : 2 * h]
    else:  # one at a time, the Player first
        hand, wolf = pile[0::2], pile[1::2]
    return not wolf or min_sacrifices(tuple(sorted(wolf)), counts(tuple(hand) + tuple(reserve)), active - 1) is not None


def deal(s: State, order: list[int]) -> tuple[State, list[int]]:
    """The next round dealt into s (both hands empty) as RULES.md §2 says, card by card from the
    pile: its known top cards, then `order`. 2 × hand_size cards, the first hand_size to the
    Player, or, when the pile holds fewer, one at a time, the Player first. A vanguard pile left
    with final_threshold cards or fewer makes the final round (§4); a Wolf dealt nothing has lost
    the round at once. Returns the round and what is left of the order."""
    h = s.rules.hand_size
    pile = list(s.pile_top) + order
    k = min(2 * h, s.pile_size)
    cards = pile[:k]
    hand, wolf = (cards[:h], cards[h:]) if k == 2 * h else (cards[0::2], cards[1::2])
    from_order = max(0, k - len(s.pile_top))
    unseen = list(s.unseen)
    for v in order[:from_order]:
        unseen[v - 1] -= 1
    size = s.pile_size - k
    tops = s.pile_top[k:]
    won = not wolf
    dealt = s._replace(
        hand=tuple(sorted(hand)),
        wolf=tuple(sorted(wolf)),
        pile_size=size,
        pile_top=tuple(tops),
        unseen=tuple(unseen),
        final=game(s.game).has_final_round and size <= s.rules.final_threshold,
        outcome=WON if won else None,
        reveal=s.rules.top_card_visible and size > 0 and not tops and not won,
    )
    return dealt, order[from_order:]
