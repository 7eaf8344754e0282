"""Railway LOBO hints: outs and chances against a direct enumeration over the unseen cards
(tests/reference/railway_ref.py) on small random decks, and the expose / three-extra advice."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from typing import Any

from test_railway_partition import all_cards, random_deck

from reference.railway_ref import is_lobo, lobo_chance, unseen
from solver.railway import SEASON_TICKET, parse_position
from solver.railway.advice import Advice, _Chance, advise


def small_position(rng: random.Random, hand_size: int = 5, exposed: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """A deck of 9..14 cards and a position on it with at most 8 unseen cards."""
    while True:
        raw = random_deck(rng, rng.randint(0, 3))
        cards = all_cards(raw)
        if not 9 <= len(cards) <= 14:
            continue
        rng.shuffle(cards)
        journeys: list[list[str]] = []
        for j in list(raw["junctions"])[:exposed]:
            free = [s for s in raw["junctions"][j] if s in cards]
            if len(free) < 2:
                break
            journeys.append([j, *free[:2]])
            for c in journeys[-1]:
                cards.remove(c)
        if len(journeys) < exposed:
            continue
        hand, rest = cards[:hand_size], cards[hand_size:]
        top = rest.pop() if rest and rng.random() < 0.8 else None
        seen = [rest.pop() for _ in range(min(len(rest), rng.randint(0, 3)))]
        if not 2 <= len(rest) <= 8:
            continue
        return raw, {"deck": raw, "hand": hand, "exposed": journeys, "seen": seen, "top_discard": top}


def pool_of(raw: dict[str, Any], pos: dict[str, Any]) -> list[str]:
    return unseen(raw, pos["hand"], pos["exposed"], pos["seen"], pos["top_discard"])


def without(cards: list[str], card: str) -> list[str]:
    out = list(cards)
    out.remove(card)
    return out


def check_outs(raw: dict[str, Any], kept: list[str], e: int, pool: list[str], outs: Any) -> None:
    """The outs are exactly the pool's cards that make kept + card LOBO, with their unseen counts."""
    want = {c: pool.count(c) for c in set(pool) if is_lobo(raw, [*kept, c], e)}
    assert {o.card: o.count for o in outs} == want, (kept, pool)
    for o in outs:
        assert o.card in o.completes.cards and o.completes in o.journeys
        assert sorted(c for j in o.journeys for c in j.cards) == sorted([*kept, o.card])


def test_chances_and_outs_before_the_draw_match_enumeration() -> None:
    rng = random.Random(3)
    for case in range(60):
        e = 1 if case % 4 == 3 else 0
        raw, pos = small_position(rng, 2 if e else 5, e)
        pool = pool_of(raw, pos)
        advice = advise(parse_position(pos))
        hand, top = pos["hand"], pos["top_discard"]
        assert (
            len(advice.options)
            == (top is not None and not is_lobo(raw, [*hand, top], e)) * len(set([*hand, top]))
            + (top is not None and is_lobo(raw, [*hand, top], e))
            + 1
        )
        for o in advice.options:
            c = o.chances
            if o.source == "stock":
                want = [lobo_chance(raw, hand, e, pool, n) for n in (1, 2, 3)]
                assert [c.now, c.next_turn, c.within_three] == want, (pos, want)
                check_outs(raw, hand, e, pool, o.outs)
            elif o.lobo:
                assert is_lobo(raw, [*hand, top], e) and c.now == c.next_turn == c.within_three == 1
            else:
                kept = without([*hand, top], o.discard or "")
                assert c.now == 0
                assert c.next_turn == lobo_chance(raw, kept, e, pool, 1)
                assert c.within_three == lobo_chance(raw, kept, e, pool, 2)
                check_outs(raw, kept, e, pool, o.outs)
        ranked = [(o.chances.next_turn, o.chances.within_three, o.chances.now) for o in advice.options]
        assert ranked == sorted(ranked, reverse=True)


def test_chances_after_a_draw_match_enumeration() -> None:
    rng = random.Random(5)
    for _ in range(40):
        raw, pos = small_position(rng)
        pool = pool_of(raw, pos)
        drawn = rng.choice(pool)
        advice = advise(parse_position(pos), drawn=drawn, ranking="three")
        now = [*pos["hand"], drawn]
        rest = without(pool, drawn)
        if is_lobo(raw, now, 0):
            assert [o.lobo for o in advice.options] == [True]
            continue
        assert {o.discard for o in advice.options} == set(now)
        for o in advice.options:
            kept = without(now, o.discard or "")
            assert o.chances.next_turn == lobo_chance(raw, kept, 0, rest, 1)
            assert o.chances.within_three == lobo_chance(raw, kept, 0, rest, 2)
            check_outs(raw, kept, 0, rest, o.outs)
        ranked = [(o.chances.within_three, o.chances.next_turn) for o in advice.options]
        assert ranked == sorted(ranked, reverse=True)


def test_three_extra_cards_match_enumeration() -> None:
    """P(LOBO by next turn) after three extra cards: every 3-card draw, then LOBO at once or the
    best discard and one more draw."""
    rng = random.Random(9)
    checked = 0
    while checked < 12:
        raw, pos = small_position(rng, 6)
        pool = pool_of(raw, pos)
        if len(pool) < 4:
            continue
        checked += 1
        p = parse_position(pos)
        got = _Chance(p.deck, 0, p.unseen()).extra_three(tuple(sorted(pos["hand"])))
        total = Fraction(0)
        draws = list(combinations(range(len(pool)), 3))
        for idx in draws:
            nine = [*pos["hand"], *(pool[i] for i in idx)]
            rest = [c for i, c in enumerate(pool) if i not in idx]
            if is_lobo(raw, nine, 0):
                total += 1
            else:
                total += max(lobo_chance(raw, without(nine, d), 0, rest, 1) for d in set(nine))
        assert got == total / len(draws), pos


def test_exposing_never_raises_your_own_chances() -> None:
    """The model's reason to keep journeys hidden: a hidden journey can do all an exposed one can."""
    rng = random.Random(13)
    seen_advice = 0
    for _ in range(80):
        raw, pos = small_position(rng)
        pool = pool_of(raw, pos)
        advice: Advice = advise(parse_position(pos), drawn=rng.choice(pool))
        x = advice.expose
        if x is None or x.hidden is None or x.exposed is None:
            continue
        seen_advice += 1
        assert (x.exposed.next_turn, x.exposed.within_three) <= (x.hidden.next_turn, x.hidden.within_three)
        assert x.action == ("expose" if x.exposed == x.hidden else "keep"), x
        assert x.reason and "\n" not in x.reason
    assert seen_advice >= 5


def test_expose_advice_on_the_made_up_deck() -> None:
    deck = "puzzles/railway/made-up-deck.railway"
    from solver.railway import load_deck

    d = load_deck(deck)
    # Completing Charing Cross with the draw: three extra cards are allowed and compared.
    pos = parse_position({"hand": ["Charing Cross", "Highgate", "Bank", "Clapham", "Bow"]}, deck=d)
    advice = advise(pos, drawn="Victoria")
    assert advice.expose is not None and advice.expose.extra_next_turn is not None
    assert advice.expose.action in ("draw_three", "expose", "keep")
    # A journey that was already complete (with a season ticket) is not "completed" by the draw.
    pos = parse_position({"hand": ["Charing Cross", "Highgate", "Season Ticket", "Bank", "Clapham"]}, deck=d)
    advice = advise(pos, drawn="Waterloo")
    assert advice.expose is not None and advice.expose.extra_next_turn is None
    assert advice.expose.action in ("expose", "keep") and advice.expose.journey is not None
    # Nothing complete: nothing to expose.
    pos = parse_position({"hand": ["Charing Cross", "Bank", "Clapham", "Bow", "Morden"]}, deck=d)
    advice = advise(pos, drawn="Woolwich")
    assert advice.expose is not None and advice.expose.action == "none"
    assert SEASON_TICKET in d.names()


H01032 = {
    "deck": {
        "name": "small",
        "junctions": {"J0": ["S1", "S4"], "J1": ["S3", "S1", "S0"], "J2": ["S3", "S4", "S1"],
                      "J3": ["S0", "S3", "S2", "S1"]},
        "stations": ["S0", "S1", "S2", "S3", "S4"],
        "season_tickets": 3,
    },
    "hand": ["S2", "S4", "J3", "J1", "S1"], "top_discard": "J0", "seen": ["J2", "Season Ticket"],
    "exposed": [], "players": 2,
}  # fmt: skip


def test_expose_chances_are_each_horizons_best_against_enumeration() -> None:
    """Found by a review: the hidden and exposed chances were one discard's (the best by next turn),
    so exposing "lowered" a three-turn chance that another discard kept at 100%."""

    def check(raw: dict[str, Any], pos: dict[str, Any], now: list[str], rest: list[str], x: Any) -> None:
        for n, got in ((1, x.hidden.next_turn), (2, x.hidden.within_three)):
            assert got == max(lobo_chance(raw, without(now, d), 0, rest, n) for d in set(now)), (pos, n)
        if x.exposed is not None and x.journey is not None:
            left = list(now)
            for c in x.journey.cards:
                left.remove(c)
            for n, got in ((1, x.exposed.next_turn), (2, x.exposed.within_three)):
                assert got == max(lobo_chance(raw, without(left, d), 1, rest, n) for d in set(left)), (pos, n)

    x = advise(parse_position(H01032)).expose  # the top discard is the best draw: its expose advice
    assert x is not None and x.exposed is not None and x.exposed.within_three == 1
    check(H01032["deck"], H01032, [*H01032["hand"], "J0"], pool_of(H01032["deck"], H01032), x)
    rng = random.Random(21)
    seen = 0
    for _ in range(60):
        raw, pos = small_position(rng)
        pool = pool_of(raw, pos)
        drawn = rng.choice(pool)
        x = advise(parse_position(pos), drawn=drawn).expose
        if x is None or x.hidden is None:
            continue
        check(raw, pos, [*pos["hand"], drawn], without(pool, drawn), x)
        seen += 1
    assert seen >= 5


def test_a_draw_from_an_empty_stock_is_refused() -> None:
    import pytest

    from solver.railway import RailwayError

    pos = parse_position({**H01032, "stock": 0})
    with pytest.raises(RailwayError, match="the stock is empty"):
        advise(pos, drawn="S0")
    assert advise(pos, took_top=True).drawn == "J0"  # the top discard still can be taken
    # Its later turns' chances are the model's, not the rules' new stock: said, with or without a draw.
    for answer in (advise(pos), advise(pos, took_top=True)):
        assert any("the rules shuffle a new one" in n and "model ignores" in n for n in answer.notes), answer.notes
    assert not any("shuffle" in n for n in advise(parse_position({**H01032, "stock": 4})).notes)


def test_no_expose_decision_beside_a_lobo_to_call_or_with_nothing_to_draw() -> None:
    # Found by a review: "decide after your draw" beside "take Waterloo: LOBO", and notes that the
    # stock "may run out" and to "ask again with --draw" where the stock was empty already.
    from solver.railway import load_position

    lobo_now = advise(load_position("puzzles/railway/01-lobo-with-the-discard.railway"))
    assert lobo_now.best is not None and lobo_now.best.lobo and lobo_now.expose is None
    empty = advise(parse_position({**H01032, "hand": ["S2", "J3", "S1", "S4", "J1"], "top_discard": None, "stock": 0}))
    assert not empty.options and empty.expose is None
    assert not any("run out" in n for n in empty.notes)


BROKEN_UP = {
    "deck": {"name": "random", "season_tickets": 0, "stations": ["S0", "S1", "S2", "S3", "S4", "S5"],
             "junctions": {"J0": ["S5", "S0", "S4", "S3", "S1"], "J1": ["S4", "S3", "S1", "S2"], "J2": ["S2", "S4", "S5"],
                           "J3": ["S0", "S3", "S4", "S2"], "J4": ["S3", "S5"], "J5": ["S5", "S3", "S0", "S1"],
                           "J6": ["S1", "S3"]}},
    "hand": ["J5", "S0", "J0", "J2", "S3"], "exposed": [], "seen": [], "top_discard": "J1",
}  # fmt: skip


def test_keep_advice_says_when_the_best_discard_breaks_the_journey_up() -> None:
    """Found by a review: "keep S3 – J5 – S0 hidden" where the best discard is J5 itself."""
    advice = advise(parse_position(BROKEN_UP), drawn="J3")
    x = advice.expose
    assert x is not None and x.action == "keep" and x.journey is not None
    best = max(
        (o for o in advice.options if o.discard is not None),
        key=lambda o: (o.chances.next_turn, o.chances.within_three),
    )
    assert best.discard in x.journey.cards
    assert f"your best discard, {best.discard}, breaks it up" in x.reason and "within three turns from" in x.reason


TINY = {
    "name": "tiny",
    "season_tickets": 2,
    "junctions": {"Crewe": ["Chester", "Stafford", "Warrington"], "York": ["Leeds", "Darlington", "Doncaster"],
                  "Derby": ["Leeds", "Stafford"]},
    "stations": ["Chester", "Stafford", "Warrington", "Leeds", "Darlington", "Doncaster", "Hull"],
}  # fmt: skip


def test_three_extra_cards_only_from_a_stock_that_holds_them() -> None:
    # Found by a review: "take the three extra cards" advised with the stock empty.
    base = {
        "deck": TINY,
        "hand": ["Crewe", "Chester", "Derby", "Leeds", "Hull"],
        "players": 2,
        "top_discard": "Stafford",
    }
    for stock, drawn, three in ((5, None, True), (3, None, True), (2, None, False), (0, None, False),
                                (3, "Stafford", False), (4, "Stafford", True)):  # fmt: skip
        pos = parse_position({**base, "stock": stock, **({"top_discard": "Doncaster"} if drawn else {})})
        got = advise(pos, drawn=drawn) if drawn else advise(pos, took_top=True)
        assert got.expose is not None and (got.expose.action == "draw_three") == three, (stock, drawn, got.expose)


def test_a_hand_that_goes_lobo_as_given_is_best_called() -> None:
    # Found by a review: LOBO: yes, and then "Best: draw from the stock".
    hand = ["Crewe", "Chester", "Stafford", "Derby", "Leeds", "Season Ticket"]
    got = advise(parse_position({"deck": TINY, "hand": hand, "players": 2, "stock": 4}))
    assert got.best is not None and got.best.source == "hand" and got.best.lobo and got.expose is None
    assert [o.source for o in got.options] == ["hand", "stock"]
    assert advise(parse_position({"deck": TINY, "hand": hand[:5], "players": 2})).options[0].source != "hand"
