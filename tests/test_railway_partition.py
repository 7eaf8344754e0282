"""Railway LOBO: the largest set of journeys, both exact methods against the plain brute force of
tests/reference/railway_ref.py on thousands of seeded random hands over random decks."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

from reference.railway_ref import check_partition, is_lobo, max_journeys
from solver.railway import SEASON_TICKET, Deck, parse_deck, partition
from solver.railway.partition import METHODS, fills, goes_lobo


def random_deck(rng: random.Random, tickets: int | None = None) -> dict[str, Any]:
    """A valid deck in the RAILWAY.md form: junctions listing 2..5 stations, some stations shared
    by many junctions (the hard cases), sometimes a station no junction lists."""
    n_stations = rng.randint(2, 10)
    stations = [f"S{i}" for i in range(n_stations)]
    junctions = {f"J{j}": rng.sample(stations, rng.randint(2, min(n_stations, 5))) for j in range(rng.randint(1, 7))}
    return {
        "name": "random",
        "season_tickets": rng.randint(0, 6) if tickets is None else tickets,
        "junctions": junctions,
        "stations": stations,
    }


def all_cards(raw: dict[str, Any]) -> list[str]:
    return [*raw["junctions"], *raw["stations"], *[SEASON_TICKET] * raw["season_tickets"]]


def random_hand(rng: random.Random, raw: dict[str, Any]) -> list[str]:
    cards = all_cards(raw)
    # Junction-heavy hands now and then: they are where the choice of junctions matters.
    if rng.random() < 0.3:
        cards += list(raw["junctions"])
        hand = list(dict.fromkeys(rng.sample(cards, min(len(cards), rng.randint(3, 12)))))
        tickets = min(raw["season_tickets"], rng.randint(0, 3))
        return [c for c in hand if c != SEASON_TICKET] + [SEASON_TICKET] * tickets
    return rng.sample(cards, rng.randint(0, min(len(cards), 13)))


def check_against_reference(raw: dict[str, Any], deck: Deck, hand: list[str], exposed: int) -> None:
    want = max_journeys(raw, hand)
    lobo = is_lobo(raw, hand, exposed)
    for method in METHODS:
        got = partition(deck, hand, method)
        assert len(got.journeys) == want, (method, raw, hand)
        js = got.to_json(exposed)
        assert not check_partition(raw, hand, js["journeys"], js["leftover"]), (method, raw, hand, js)
        assert js["lobo"] == lobo, (method, raw, hand, exposed)
    assert goes_lobo(deck, hand, exposed) == lobo
    assert fills(deck, hand) == (3 * want == len(hand))


@pytest.mark.parametrize("tickets", ["none", "some"])
def test_both_methods_agree_with_brute_force_on_random_hands(tickets: str) -> None:
    rng = random.Random(2024 if tickets == "none" else 7)
    hands = 0
    while hands < 1100:
        raw = random_deck(rng, 0 if tickets == "none" else None)
        deck = parse_deck(raw)
        for _ in range(5):
            hand = random_hand(rng, raw)
            check_against_reference(raw, deck, hand, rng.randint(0, 2))
            hands += 1


def test_lobo_hands_built_from_journeys_are_found() -> None:
    """Random hands are rarely LOBO; hands made of journeys (shuffled) always are."""
    rng = random.Random(11)
    for _ in range(300):
        raw = random_deck(rng, rng.randint(0, 6))
        deck = parse_deck(raw)
        pool = list(raw["stations"])
        tickets = raw["season_tickets"]
        hand: list[str] = []
        # At most three journeys: the brute force is exponential in the hand.
        chosen = rng.sample(list(raw["junctions"]), min(3, len(raw["junctions"])))
        for j in chosen:
            listed = raw["junctions"][j]
            free = [s for s in listed if s in pool]
            ends = rng.sample(free, min(len(free), rng.randint(0, 2)))
            while len(ends) < 2 and tickets:
                ends.append(SEASON_TICKET)
                tickets -= 1
            if len(ends) == 2:
                hand += [j, *ends]
                for s in ends:
                    if s != SEASON_TICKET:
                        pool.remove(s)
        rng.shuffle(hand)
        check_against_reference(raw, deck, hand, 0)
        assert fills(deck, hand)


DECK = {
    "name": "example (made up)",
    "season_tickets": 6,
    "junctions": {"Charing Cross": ["Victoria", "Highgate", "Euston"], "Clapham": ["Victoria", "Brixton", "Waterloo"]},
    "stations": ["Victoria", "Highgate", "Euston", "Brixton", "Waterloo"],
}


@pytest.mark.parametrize("method", METHODS)
def test_contract_example_and_season_tickets_in_place(method: str) -> None:
    deck = parse_deck(DECK)
    got = partition(deck, ["Charing Cross", "Highgate", "Season Ticket", "Euston", "Waterloo"], method)
    assert len(got.journeys) == 1 and len(got.leftover) == 2 and not got.goes_lobo(1)
    both_wild = partition(deck, ["Clapham", "Season Ticket", "Season Ticket"], method)
    assert [j.to_json() for j in both_wild.journeys] == [["Clapham", "Season Ticket", "Season Ticket"]]
    assert both_wild.goes_lobo(1) and not both_wild.goes_lobo(0)


@pytest.mark.parametrize("method", METHODS)
def test_a_greedy_choice_of_junction_is_not_enough(method: str) -> None:
    """C takes one station from each of A's and B's pairs: taking C first gives one journey, not two."""
    raw = {
        "season_tickets": 0,
        "junctions": {"C": ["s1", "s3"], "A": ["s1", "s2"], "B": ["s3", "s4"]},
        "stations": ["s1", "s2", "s3", "s4"],
    }
    deck = parse_deck(raw)
    got = partition(deck, ["C", "A", "B", "s1", "s2", "s3", "s4"], method)
    assert len(got.journeys) == 2 and got.leftover == ("C",)


@pytest.mark.parametrize("method", METHODS)
def test_spare_season_tickets_stay_in_the_leftover(method: str) -> None:
    deck = parse_deck(DECK)
    got = partition(deck, ["Charing Cross", "Victoria", "Highgate", "Season Ticket"], method)
    assert got.journeys[0].to_json() == ["Charing Cross", "Victoria", "Highgate"]
    assert got.leftover == ("Season Ticket",)


def test_empty_and_junctionless_hands() -> None:
    deck = parse_deck(DECK)
    for method in METHODS:
        assert partition(deck, [], method).to_json(0) == {"lobo": False, "journeys": [], "leftover": []}
        assert partition(deck, [], method).goes_lobo(2)  # nothing left over and two exposed
        assert partition(deck, ["Victoria", "Season Ticket"], method).leftover == ("Victoria", "Season Ticket")


def test_auto_hands_big_searches_to_cpsat(monkeypatch: pytest.MonkeyPatch) -> None:
    """`auto` is exact either way: with the search allowed one node, CP-SAT answers every hand."""
    # The package exports the function `partition`, which hides the module of the same name.
    part = importlib.import_module("solver.railway.partition")

    rng = random.Random(17)
    raw = random_deck(rng, 2)
    with pytest.raises(part.SearchBudget):
        while True:  # a hand that needs more than one node
            part.partition_search(parse_deck(raw), random_hand(rng, raw), max_nodes=1)
    monkeypatch.setattr(part, "SEARCH_NODES", 1)
    for _ in range(100):
        raw = random_deck(rng)
        hand = random_hand(rng, raw)
        got = partition(parse_deck(raw), hand, "auto")
        assert len(got.journeys) == max_journeys(raw, hand)
        assert not check_partition(raw, hand, [j.to_json() for j in got.journeys], list(got.leftover))
