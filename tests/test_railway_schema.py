"""`lobo-hint railway schema` against the railway parser (solver/railway/deck.py, position.py).

The schema never refuses a file the parser accepts (the shipped decks and positions, the contract's
examples, and a seeded sample of mutations of them), refuses every invalid one whose rule a JSON
Schema can say, and the invalid ones it lets through are exactly the kinds its `description` lists.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
from test_schema_agreement import has_float  # (a number written with a fraction, anywhere)

from conftest import EXAMPLES, ROOT
from solver.railway.deck import RailwayError, load_deck, parse_deck, read_json
from solver.railway.position import parse_position
from solver.railway.schema import deck_schema, position_schema

RAILWAY = ROOT / "puzzles" / "railway"
DECK = jsonschema.Draft202012Validator(deck_schema())
POSITION = jsonschema.Draft202012Validator(position_schema())
# Values a mutation puts in place of another: every JSON type, names with edge spaces, the
# reserved name, numbers at and past the limits.
NAMES = ["", " ", " Bank", "Bank ", "Bank\n", "Season Ticket", "Bank"]
ODD: list[Any] = [None, True, 0, 1, -1, 2.5, 7.0, 101, 10**30, *NAMES, [], {}]


def _files() -> list[Path]:
    return [*RAILWAY.glob("*.railway"), *(EXAMPLES / "railway").glob("*.json")]


def _position_with_deck_inline(path: Path) -> Any:
    raw = read_json(path)
    pos = raw.get("position", raw)
    if isinstance(pos.get("deck"), str):
        pos["deck"] = json.loads((path.parent / pos["deck"]).read_text())
    return json.loads(json.dumps(raw))


def _positions() -> list[Any]:
    return [_position_with_deck_inline(p) for p in _files() if "hand" in json.dumps(read_json(p))]


def _decks() -> list[Any]:
    out = [json.loads(p.read_text()) for p in _files() if "junctions" in json.loads(p.read_text())]
    out += [r.get("position", r)["deck"] for r in _positions()]
    return out


def parser_says(raw: Any, *, deck: bool) -> RailwayError | None:
    try:
        if deck:
            parse_deck(json.loads(json.dumps(raw)), "deck")
        else:
            parse_position(json.loads(json.dumps(raw)))
    except RailwayError as e:
        return e
    return None


def inexpressible(raw: Any, e: RailwayError) -> bool:
    """Whether the parser's refusal is one the schema's description says it cannot make."""
    text = str(e)
    return (
        (e.code == "bad_type" and has_float(raw))  # (1) 7.0
        or e.code in ("unknown_card", "too_many")  # (2) a name not in the deck, copies
        or e.code == "not_a_journey"  # (3)
        or (e.code == "bad_count" and "unseen" in text)  # (4) the stock
        or e.code == "no_station_card"  # the deck's (2)
        or (e.code == "repeated" and "both a junction and a station" in text)  # the deck's (3)
        or (e.code == "missing_key" and "--deck" in text)  # (7)
    )


def _mutate(raw: Any, rng: random.Random) -> Any:
    """One change at a random place: a value replaced, a key dropped or added, a list item repeated."""
    out = copy.deepcopy(raw)
    places: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k in list(node):
                places.append((node, k))
                walk(node[k])
        elif isinstance(node, list):
            for i in range(len(node)):
                places.append((node, i))
                walk(node[i])

    walk(out)
    parent, key = rng.choice(places)
    what = rng.randrange(4)
    if what == 0:
        parent[key] = rng.choice(ODD)
    elif what == 1 and isinstance(parent, dict):
        del parent[key]
    elif what == 2 and isinstance(parent, dict):
        parent[rng.choice(["junk", "Hand", "note", "players", "stock", "season_tickets"])] = rng.choice(ODD)
    elif isinstance(parent, list):
        parent.append(parent[key])
    elif isinstance(parent[key], str):
        parent[key] = rng.choice(["", " ", "x"]) + parent[key] + rng.choice(["", " ", "\n"])
    return out


def test_the_schema_accepts_every_shipped_deck_and_position() -> None:
    for path in _files():
        raw = read_json(path)
        kind = POSITION if "hand" in json.dumps(raw) else DECK
        assert kind.is_valid(json.loads(json.dumps(raw))), (path, list(kind.iter_errors(raw))[:1])
    load_deck(RAILWAY / "made-up-deck.railway")  # (the deck the positions name, valid)
    assert len(_positions()) >= 8 and len(_decks()) >= 3


def test_the_schema_and_the_parser_agree_on_mutated_files() -> None:
    rng = random.Random(20261207)
    seen: Counter[str] = Counter()
    for deck, samples, validator in ((True, _decks(), DECK), (False, _positions(), POSITION)):
        for _ in range(1500):
            raw = _mutate(rng.choice(samples), rng)
            error, ok = parser_says(raw, deck=deck), validator.is_valid(raw)
            if error is None:
                assert ok, (raw, next(iter(validator.iter_errors(raw))).message)
                seen["both accept"] += 1
            elif ok:
                assert inexpressible(raw, error), (str(error), raw)
                seen[f"only the parser refuses: {error.code}"] += 1
            else:
                seen["both refuse"] += 1
    # Each way the two can meet was met, so the assertions above could have failed.
    assert seen["both accept"] >= 300 and seen["both refuse"] >= 1000, seen
    assert sum(n for k, n in seen.items() if k.startswith("only")) >= 50, seen


def test_railway_schema_command_prints_both_and_refuses_a_wrong_word() -> None:
    from typer.testing import CliRunner

    from cli.main import app

    runner = CliRunner()
    for of, schema in (("position", position_schema()), ("deck", deck_schema()), (None, position_schema())):
        r = runner.invoke(app, ["railway", "schema", *([of] if of else [])])
        assert r.exit_code == 0 and json.loads(r.stdout) == schema, r.output
    r = runner.invoke(app, ["railway", "schema", "dek"])
    assert r.exit_code == 2 and "did you mean 'deck'" in r.output and "Traceback" not in r.output
