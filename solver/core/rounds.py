"""What happens between two rounds (RULES.md §2-§4), written once: the deal and its seats, when
the dealt round is the final one, the exact horizon (the next deal surely final), lobo's
reshuffle, what a lost round costs the party, the rewards of a won one, a round's points in a
race and how a race stands.

The rules themselves are the kernel's where the compiled search needs them too (the section
"between rounds" of kernel.py: `dealt`, `to_the_player`, `final_when_dealt`, `next_deal_final`,
`seen_before_the_reward`, `short_for_a_deal`, `falling`, `player_points`, `wolf_points`); this module is their face for
the driver, the policies, the search's Python callers, the CLI and the companion, none of which
restates them.

    rounds.deal(order, rules.hand_size)            # (player, wolf, rest of the pile)
    rounds.final_at_deal(game, pile_left, rules)   # the dealt round is the final one
    rounds.party_after_loss(party, wolf_left)      # who stays face up
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.core import kernel
from solver.core.cards import MEMBERS, counts_of, member_order
from solver.core.games import LOBO_TARGET, Game, game
from solver.core.position import Rules
from solver.core.rules import State, vector
from solver.core.status import LOST, WON

# ---------------------------------------------------------------------------------------------
# The deal (§2)


def deal_sizes(pile_size: int, hand_size: int) -> tuple[int, int]:
    """How many cards the next deal gives (the Player, the Wolf)."""
    n = kernel.dealt(pile_size, hand_size)
    to_player = sum(1 for j in range(n) if kernel.to_the_player(j, pile_size, hand_size))
    return to_player, n - to_player


def deal(order: Sequence[int], hand_size: int) -> tuple[tuple[int, ...], tuple[int, ...], list[int]]:
    """Deal from a pile in order (top first): (the Player's hand, the Wolf's, the pile left)."""
    player, wolf = known_dealt(order, len(order), hand_size)  # every card of the order is known
    return tuple(sorted(player)), tuple(sorted(wolf)), list(order[kernel.dealt(len(order), hand_size) :])


def known_dealt(top: Sequence[int], pile_size: int, hand_size: int) -> tuple[list[int], list[int]]:
    """The known top cards of a pile the next deal takes, by the side each is dealt to (the
    Player's, the Wolf's): they are the first cards dealt, so §2's order places each."""
    n = kernel.dealt(pile_size, hand_size)
    known = list(enumerate(top[:n]))
    return (
        [v for j, v in known if kernel.to_the_player(j, pile_size, hand_size)],
        [v for j, v in known if not kernel.to_the_player(j, pile_size, hand_size)],
    )


def final_at_deal(g: Game, pile_left: int, rules: Rules) -> bool:
    """Whether a round dealt with pile_left cards left in the pile is the final round (§4)."""
    return kernel.final_when_dealt(g.ruleset, pile_left, rules.final_threshold)


def pile_after_deal(pile_size: int, rules: Rules) -> int:
    """The cards left in the pile once the next round is dealt."""
    return pile_size - kernel.dealt(pile_size, rules.hand_size)


def next_deal_final(pile_size: int, rules: Rules) -> bool:
    """Whether the next deal from a pile of this size is surely the final round, whatever the rest
    of this round draws: the exact horizon of the `game` objective (RULES.md §7)."""
    return kernel.next_deal_final(pile_size, rules.hand_size, rules.final_threshold)


def must_reshuffle(g: Game, pile_size: int, rules: Rules) -> bool:
    """Whether the discards go back into the pile before the next deal (lobo, §3 ruling)."""
    return g.reshuffles and kernel.short_for_a_deal(pile_size, rules.hand_size)


def reshuffled(unseen: tuple[int, ...], returned: Sequence[int], top: int) -> tuple[int, ...]:
    """The unseen counts of the pile after a reshuffle: the ruling shuffles the cards left in the
    pile and the cards returned (the discards and the pile's known top cards) together."""
    return tuple(a + b for a, b in zip(unseen, counts_of(tuple(returned), top), strict=True))


# ---------------------------------------------------------------------------------------------
# A lost round (§4)


def members_falling(party: Sequence[str], wolf_left: int) -> int:
    """How many members a lost regular round turns face down: one per Wolf card left, at most all."""
    return kernel.falling(wolf_left, len(party))


def party_after_loss(party: tuple[str, ...], wolf_left: int) -> tuple[str, ...]:
    """The party after a lost regular round: members_falling of them face down, Jack first, then
    Queen, then King."""
    return member_order(party)[members_falling(party, wolf_left) :]


# ---------------------------------------------------------------------------------------------
# A won round's reward (§4)


@dataclass(frozen=True, slots=True)
class Reward:
    """The one reward after a won regular round: a hand card to the reserve, or a member revived."""

    kind: str  # "reserve" or "revive"
    value: int | None = None
    member: str | None = None

    def __str__(self) -> str:
        return f"reserve {self.value}" if self.kind == "reserve" else f"revive {self.member}"


def rewards(hand: tuple[int, ...], party: tuple[str, ...]) -> list[Reward]:
    """Every distinct reward choice; empty when neither is possible."""
    out = [Reward("reserve", value=v) for v in sorted(set(hand))]
    out += [Reward("revive", member=m) for m in MEMBERS if m not in party]
    return out


def seen_before_the_reward(s: State) -> bool:
    """A won round's new top card is turned up before its reward (top card visible, §5)."""
    return bool(kernel.seen_before_the_reward(vector(s)))


def apply_reward(
    reward: Reward | None, hand: tuple[int, ...], reserve: tuple[int, ...], party: tuple[str, ...]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """(reserve, party) after the reward; the rest of the hand is discarded by the caller."""
    if reward is None:
        return reserve, party
    if reward.kind == "reserve":
        if reward.value not in hand:
            raise ValueError(f"the winning hand holds no {reward.value}")
        return tuple(sorted((*reserve, reward.value))), party
    if reward.member in party or reward.member not in MEMBERS:
        raise ValueError(f"{reward.member} is not face down")
    return reserve, member_order((*party, reward.member))


# ---------------------------------------------------------------------------------------------
# A race's points (§3)


def round_points(end: State) -> tuple[int, int]:
    """The points a finished round scores, (Player's, Wolf's): a race's; (0, 0) in a game that
    scores no rounds."""
    if end.outcome is None:
        raise ValueError("the round is not over")
    if not game(end.game).is_race:
        return 0, 0
    st = vector(end)
    return kernel.player_points(st), kernel.wolf_points(st)


def race_result(points: tuple[int, int], target: int) -> str | None:
    """How a race stands with these points (Player's, Wolf's): won once the Player has the target,
    lost once the Wolf has it, None while the game goes on."""
    if points[0] >= target:
        return WON
    if points[1] >= target:
        return LOST
    return None


def race_to_100(points: tuple[int, int], target: int) -> tuple[tuple[int, int], bool]:
    """This race to `target` as the race to LOBO_TARGET (100) that positions and the hint know
    (FORMAT.md's `scores`): a race is decided by the points each side still needs, so (p, w) to T
    is (p + 100 - T, w + 100 - T) to 100, the same race. True when that is exact; False when a
    side needs more than 100 (a target above 100): it is written as needing 100."""
    shift = LOBO_TARGET - target
    p, w = points[0] + shift, points[1] + shift
    return (max(0, p), max(0, w)), min(p, w) >= 0


__all__ = [
    "Reward",
    "apply_reward",
    "deal",
    "deal_sizes",
    "final_at_deal",
    "members_falling",
    "must_reshuffle",
    "next_deal_final",
    "party_after_loss",
    "pile_after_deal",
    "race_result",
    "race_to_100",
    "reshuffled",
    "rewards",
    "round_points",
]
