"""Reference brute force for the vanguard final round (RULES.md §4 "The final round", §6).

In the final round nothing is drawn, so the plays commute and finishing is an assignment
problem: every Wolf card is covered either by a Sacrifice (at most active - 1 of them) or by a
disjoint group of available cards (hand and reserve) adding up exactly to it.

Everything here is plain recursion over those assignments.  The only memo is keyed by the whole
remaining state, so it cannot change any answer.
"""

from __future__ import annotations

import re
from typing import Any

from .legal import MEMBER_ORDER, Play, Position, is_final, legal_plays, make_play, play_key

# --------------------------------------------------------------------------------------------
# Small multiset helpers (hands are kept as sorted tuples of values).


def remove_cards(cards: tuple[int, ...], taken: list[int] | tuple[int, ...]) -> tuple[int, ...] | None:
    """cards minus the multiset taken, or None if taken is not contained in cards."""
    left = list(cards)
    for v in taken:
        if v not in left:
            return None
        left.remove(v)
    return tuple(sorted(left))


def sub_multisets_with_sum(cards: tuple[int, ...], target: int) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset of cards whose values add up to exactly target.

    target 0 gives [()] (the empty group).  Values are all >= 1, so we stop as soon as the
    remaining target is reached or exceeded.
    """
    distinct = sorted(set(cards))
    results: list[tuple[int, ...]] = []

    def rec(i: int, remaining: int, chosen: list[int]) -> None:
        if remaining == 0:
            results.append(tuple(sorted(chosen)))
            return
        if i == len(distinct):
            return
        v = distinct[i]
        for k in range(cards.count(v) + 1):
            if k * v > remaining:
                break
            rec(i + 1, remaining - k * v, chosen + [v] * k)

    rec(0, target, [])
    return results


def cover_groups(
    hand: tuple[int, ...], reserve: tuple[int, ...], w: int
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every distinct (hand part, reserve part) whose values add up exactly to w."""
    groups = []
    for hand_sum in range(w + 1):
        for hand_part in sub_multisets_with_sum(hand, hand_sum):
            for reserve_part in sub_multisets_with_sum(reserve, w - hand_sum):
                if hand_part or reserve_part:
                    groups.append((hand_part, reserve_part))
    return groups


def cover_play(hand_part: tuple[int, ...], reserve_part: tuple[int, ...], w: int) -> Play:
    """A group of one card is a Perfect, of two or more a Sum."""
    kind = "perfect" if len(hand_part) + len(reserve_part) == 1 else "sum"
    return make_play(kind, hand_part, reserve_part, [w])


def finish_score(
    hand: tuple[int, ...] | list[int], reserve: tuple[int, ...] | list[int], active: int, reserve_scores: bool
) -> int:
    """Score of a won final round: hand + 10 x active members (+ reserve if it scores)."""
    score = sum(hand) + 10 * active
    if reserve_scores:
        score += sum(reserve)
    return score


def _ordered_party(party: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(m for m in MEMBER_ORDER if m in party)


# --------------------------------------------------------------------------------------------
# coverable


def coverable(pos: Position, wolf_values: list[int]) -> bool:
    """Can these Wolf cards all be covered at once?

    Each by a disjoint group of available cards adding up exactly to it, or by a Sacrifice;
    at most (active - 1) sacrifices.  wolf_values must be a sub-multiset of pos["wolf"].
    """
    if remove_cards(tuple(sorted(pos["wolf"])), wolf_values) is None:
        raise ValueError(f"{wolf_values} is not part of the Wolf's hand {pos['wolf']}")
    hand = tuple(sorted(pos["player"]))
    reserve = tuple(sorted(pos["reserve"]))
    sacrifices = max(len(pos["party"]) - 1, 0)
    memo: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int], bool] = {}

    def rec(hand: tuple[int, ...], reserve: tuple[int, ...], wolf: tuple[int, ...], sacrifices: int) -> bool:
        if not wolf:
            return True
        key = (hand, reserve, wolf, sacrifices)
        if key in memo:
            return memo[key]
        # Take the first uncovered Wolf card: it must be covered somehow.
        w, rest = wolf[0], wolf[1:]
        result = False
        if sacrifices > 0 and rec(hand, reserve, rest, sacrifices - 1):
            result = True
        if not result:
            for hand_part, reserve_part in cover_groups(hand, reserve, w):
                new_hand = remove_cards(hand, hand_part)
                new_reserve = remove_cards(reserve, reserve_part)
                assert new_hand is not None and new_reserve is not None
                if rec(new_hand, new_reserve, rest, sacrifices):
                    result = True
                    break
        memo[key] = result
        return result

    return rec(hand, reserve, tuple(sorted(wolf_values, reverse=True)), sacrifices)


# --------------------------------------------------------------------------------------------
# best_finish


def _require_final_vanguard(pos: Position) -> None:
    if pos["game"] != "vanguard" or not is_final(pos):
        raise ValueError("only a vanguard final round can be finished")


def best_finish(pos: Position) -> dict[str, Any]:
    """Best finish of a vanguard final round.

    {"status": "win", "score": int, "plays": [plays]} or {"status": "lost"}.
    """
    _require_final_vanguard(pos)
    reserve_scores = bool(pos["rules"]["reserve_scores"])
    memo: dict[
        tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[str, ...]], tuple[int, list[Play]] | None
    ] = {}

    def rec(
        hand: tuple[int, ...], reserve: tuple[int, ...], wolf: tuple[int, ...], party: tuple[str, ...]
    ) -> tuple[int, list[Play]] | None:
        """(best score, plays) covering every card of wolf, or None if impossible."""
        if not wolf:
            return finish_score(hand, reserve, len(party), reserve_scores), []
        key = (hand, reserve, wolf, party)
        if key in memo:
            return memo[key]
        w, rest = wolf[0], wolf[1:]
        best: tuple[int, list[Play]] | None = None

        def consider(candidate: tuple[int, list[Play]] | None, play: Play) -> None:
            nonlocal best
            if candidate is None:
                return
            score, plays = candidate
            if best is None or score > best[0]:
                best = (score, [play, *plays])

        # Sacrifice: which member falls never changes the score, so try the first active one;
        # another member must stay active.
        if len(party) >= 2:
            member = party[0]
            consider(rec(hand, reserve, rest, party[1:]), make_play("sacrifice", [], [], [w], member=member))

        # Cover with a group of available cards adding up exactly to w.
        for hand_part, reserve_part in cover_groups(hand, reserve, w):
            new_hand = remove_cards(hand, hand_part)
            new_reserve = remove_cards(reserve, reserve_part)
            assert new_hand is not None and new_reserve is not None
            consider(rec(new_hand, new_reserve, rest, party), cover_play(hand_part, reserve_part, w))

        memo[key] = best
        return best

    result = rec(
        tuple(sorted(pos["player"])),
        tuple(sorted(pos["reserve"])),
        tuple(sorted(pos["wolf"], reverse=True)),
        _ordered_party(pos["party"]),
    )
    if result is None:
        return {"status": "lost"}
    return {"status": "win", "score": result[0], "plays": result[1]}


# --------------------------------------------------------------------------------------------
# Text notation (FORMAT.md "A play in text")

_VALUE_RE = re.compile(r"^(10|[1-9]|A|T)([SHDC♠♥♦♣])?$")
_MEMBER_RE = re.compile(r"^([JQK])([S♠])?$")


def _parse_value(text: str) -> int:
    m = _VALUE_RE.match(text.strip().upper())
    if not m:
        raise ValueError(f"bad card {text!r}")
    face = m.group(1)
    return {"A": 1, "T": 10}.get(face) or int(face)


def parse_play(text: str) -> Play:
    """Parse one play in text notation: '7=7', '4+2r=6', '9=6+3', '9>6', 'K=8', 'fold'."""
    text = text.strip()
    if text.lower() == "fold":
        return make_play("fold")
    if text.count("=") + text.count(">") != 1:
        raise ValueError(f"bad play {text!r}: needs exactly one '=' or '>'")
    sign = "=" if "=" in text else ">"
    left_text, right_text = text.split(sign)
    left = [t.strip() for t in left_text.split("+")]
    right = [t.strip() for t in right_text.split("+")]
    wolf = [_parse_value(t) for t in right]

    # Sacrifice: a single party member on a single Wolf card.
    if len(left) == 1 and _MEMBER_RE.match(left[0].upper()):
        if sign != "=" or len(wolf) != 1:
            raise ValueError(f"bad sacrifice {text!r}")
        member = _MEMBER_RE.match(left[0].upper()).group(1)  # type: ignore[union-attr]
        return make_play("sacrifice", [], [], wolf, member=member)

    hand: list[int] = []
    reserve: list[int] = []
    for token in left:
        # A trailing 'r' marks a reserve card (it is not a suit letter).
        if token.lower().endswith("r"):
            reserve.append(_parse_value(token[:-1]))
        else:
            hand.append(_parse_value(token))
    mine = len(hand) + len(reserve)

    if sign == ">":
        if mine != 1 or len(wolf) != 1:
            raise ValueError(f"bad over {text!r}")
        return make_play("over", hand, reserve, wolf)
    if mine == 1 and len(wolf) == 1:
        return make_play("perfect", hand, reserve, wolf)
    if mine >= 2 and len(wolf) == 1:
        return make_play("sum", hand, reserve, wolf)
    if mine == 1 and len(wolf) >= 2:
        return make_play("split", hand, reserve, wolf)
    raise ValueError(f"bad play {text!r}: no play has several cards on both sides")


def parse_plays(text: str) -> list[Play]:
    """Several plays separated by ',' or ';'."""
    parts = [p for p in re.split(r"[,;]", text) if p.strip()]
    return [parse_play(p) for p in parts]


# --------------------------------------------------------------------------------------------
# check_plays


def _describe(play: Play) -> str:
    """A play in (roughly) the text notation, for error messages."""
    if play["type"] == "fold":
        return "fold"
    mine = [str(v) for v in play.get("hand", [])] + [f"{v}r" for v in play.get("reserve", [])]
    if play["type"] == "sacrifice":
        mine = [str(play.get("member"))]
    sign = ">" if play["type"] == "over" else "="
    return "+".join(mine) + sign + "+".join(str(v) for v in play.get("wolf", []))


def _why_illegal(
    play: Play, hand: tuple[int, ...], reserve: tuple[int, ...], wolf: tuple[int, ...], party: tuple[str, ...]
) -> str:
    """A reason for an illegal play, for the error message only (legality is decided elsewhere)."""
    if remove_cards(hand, play.get("hand", [])) is None:
        return "the Player does not hold those hand cards"
    if remove_cards(reserve, play.get("reserve", [])) is None:
        return "those cards are not in the reserve"
    if remove_cards(wolf, play.get("wolf", [])) is None:
        return "the Wolf does not hold those cards"
    if play["type"] == "sacrifice":
        if play.get("member") not in party:
            return "that party member is not active"
        return "a sacrifice must leave another party member active"
    if play["type"] in ("split", "over"):
        return "split and over are illegal in the final round"
    return "the values do not match the rule for that play"


def check_plays(pos: Position, plays: list[Play] | str) -> dict[str, Any]:
    """Replay a proposed finish of a final round, in order (FORMAT.md "Check a finish").

    {"legal", "clears", "score" (None unless it clears), "best_score" (None when lost),
    "optimal"}; an illegal sequence also carries "error" naming the first bad play and why.
    """
    _require_final_vanguard(pos)
    finish = best_finish(pos)
    best_score = finish["score"] if finish["status"] == "win" else None

    def illegal(reason: str) -> dict[str, Any]:
        return {
            "legal": False,
            "clears": False,
            "score": None,
            "best_score": best_score,
            "optimal": False,
            "error": reason,
        }

    if isinstance(plays, str):
        try:
            plays = parse_plays(plays)
        except ValueError as exc:
            return illegal(str(exc))

    hand = tuple(sorted(pos["player"]))
    reserve = tuple(sorted(pos["reserve"]))
    wolf = tuple(sorted(pos["wolf"]))
    party = _ordered_party(pos["party"])
    folded = False

    for index, play in enumerate(plays, start=1):
        if folded or not wolf:
            return illegal(f"play {index} ({play['type']}): the round is already over")
        # The current position, still final: a play is legal iff the generator lists it.
        current = dict(pos)
        current.update(player=list(hand), reserve=list(reserve), wolf=list(wolf), party=list(party), final=True)
        legal_keys = {play_key(p) for p in legal_plays(current)}
        if play_key(play) not in legal_keys:
            return illegal(f"play {index} {_describe(play)}: {_why_illegal(play, hand, reserve, wolf, party)}")
        if play["type"] == "fold":
            folded = True
            continue
        new_hand = remove_cards(hand, play.get("hand", []))
        new_reserve = remove_cards(reserve, play.get("reserve", []))
        new_wolf = remove_cards(wolf, play.get("wolf", []))
        assert new_hand is not None and new_reserve is not None and new_wolf is not None
        hand, reserve, wolf = new_hand, new_reserve, new_wolf
        if play["type"] == "sacrifice":
            party = tuple(m for m in party if m != play["member"])

    clears = not folded and not wolf
    score = finish_score(hand, reserve, len(party), bool(pos["rules"]["reserve_scores"])) if clears else None
    return {
        "legal": True,
        "clears": clears,
        "score": score,
        "best_score": best_score,
        "optimal": clears and score == best_score,
    }
