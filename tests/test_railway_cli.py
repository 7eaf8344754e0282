"""`lobo-hint railway ...`: every invalid deck and position refused in one line with exit 2, the
answers' forms, the contract's worked examples and the shipped made-up examples."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from typer.testing import CliRunner

from cli.main import app, dispatch
from conftest import ROOT, examples
from reference.railway_ref import is_lobo, lobo_chance, max_journeys, unseen

runner = CliRunner()
PUZZLES = ROOT / "puzzles" / "railway"
DECK_FILE = PUZZLES / "made-up-deck.railway"

DECK: dict[str, Any] = {
    "name": "example (made up)",
    "season_tickets": 6,
    "junctions": {"Charing Cross": ["Victoria", "Highgate", "Euston"], "Clapham": ["Victoria", "Brixton", "Waterloo"]},
    "stations": ["Victoria", "Highgate", "Euston", "Brixton", "Waterloo"],
}
POSITION: dict[str, Any] = {
    "deck": DECK,
    "hand": ["Charing Cross", "Highgate", "Season Ticket", "Euston", "Waterloo"],
    "exposed": [["Clapham", "Victoria", "Brixton"]],
    "seen": [],
    "top_discard": "Season Ticket",
    "players": 3,
    "stock": 4,
}


def run(*args: str) -> Any:
    return runner.invoke(app, dispatch(list(args)), prog_name="lobo-hint")


def write(tmp_path: Path, raw: Any, name: str = "x.json") -> str:
    p = tmp_path / name
    p.write_text(raw if isinstance(raw, str) else json.dumps(raw))
    return str(p)


def refused(r: Any, *words: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr in the CLI's style that names the problem."""
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lobo-hint: error: "), r.stderr
    assert "Traceback" not in r.stderr and r.stdout == "", r.output
    for w in words:
        assert w in lines[0], (w, lines[0])


def deck_with(**changes: Any) -> dict[str, Any]:
    d = json.loads(json.dumps(DECK))
    d.update(changes)
    return d


J = DECK["junctions"]
BAD_DECKS: list[tuple[str, Any, tuple[str, ...]]] = [
    (
        "lists a station with no card",
        deck_with(junctions={**J, "Bank": ["Victoria", "Aldgate"]}),
        ("Aldgate", "no station card"),
    ),
    ("lists a junction", deck_with(junctions={**J, "Bank": ["Victoria", "Clapham"]}), ("Clapham", "junction")),
    ("empty junction name", deck_with(junctions={**J, "": ["Victoria", "Euston"]}), ("empty",)),
    ("blank station name", deck_with(stations=[*DECK["stations"], "  "]), ("stations[5]", "empty")),
    (
        "station name with a space after it",
        deck_with(stations=[*DECK["stations"], "Euston "]),
        ("stations[5]", "begins or ends with a space"),
    ),
    ("empty listed name", deck_with(junctions={**J, "Bank": ["Victoria", ""]}), ("Bank", "empty")),
    ("repeated station", deck_with(stations=[*DECK["stations"], "Euston"]), ("Euston", "repeated")),
    ("junction named as a station", deck_with(junctions={**J, "Euston": ["Victoria", "Highgate"]}), ("Euston", "both")),
    ("station listed twice", deck_with(junctions={**J, "Bank": ["Victoria", "Victoria"]}), ("Victoria", "twice")),
    ("season ticket as a station", deck_with(stations=[*DECK["stations"], "Season Ticket"]), ("reserved",)),
    ("season ticket as a junction", deck_with(junctions={**J, "Season Ticket": ["Victoria", "Euston"]}), ("reserved",)),
    ("season ticket listed", deck_with(junctions={**J, "Bank": ["Victoria", "Season Ticket"]}), ("reserved",)),
    ("one station", deck_with(junctions={**J, "Bank": ["Victoria"]}), ("Bank", "at least two")),
    ("no station", deck_with(junctions={**J, "Bank": []}), ("Bank", "at least two")),
    ("stations not a list", deck_with(stations="Victoria"), ("stations", "list")),
    ("junctions not an object", deck_with(junctions=[["Clapham", "Victoria"]]), ("junctions", "object")),
    ("a station list not a list", deck_with(junctions={**J, "Bank": "Victoria"}), ("Bank", "list")),
    ("a name not a string", deck_with(stations=[*DECK["stations"], 7]), ("stations[5]", "string")),
    ("negative season tickets", deck_with(season_tickets=-1), ("season_tickets", "negative")),
    ("season tickets not a number", deck_with(season_tickets="6"), ("season_tickets", "whole number")),
    ("season tickets a boolean", deck_with(season_tickets=True), ("season_tickets",)),
    ("season tickets a fraction", deck_with(season_tickets=2.5), ("season_tickets", "not 2.5")),
    ("season tickets past a pack", deck_with(season_tickets=10**11), ("season_tickets", "at most 100")),
    ("an unknown key", deck_with(colour="red"), ("unknown key 'colour'", "id, note")),
    ("name not a string", deck_with(name=3), ("name",)),
    ("no stations", {k: v for k, v in DECK.items() if k != "stations"}, ("stations", "missing")),
    ("no junctions", {k: v for k, v in DECK.items() if k != "junctions"}, ("junctions", "missing")),
    ("unknown key", deck_with(junction={}), ("junction",)),
    ("not an object", [DECK], ("object",)),
]


@pytest.mark.parametrize(("name", "deck", "words"), BAD_DECKS, ids=[b[0] for b in BAD_DECKS])
def test_invalid_decks_are_refused_in_one_line(tmp_path: Path, name: str, deck: Any, words: tuple[str, ...]) -> None:
    path = write(tmp_path, deck, "deck.json")
    refused(run("railway", "validate", path), path, *words)
    # The same deck inline in a position, and given with --deck.
    refused(run("railway", "lobo", write(tmp_path, {**POSITION, "deck": deck}), "--json"), *words)
    pos = write(tmp_path, {k: v for k, v in POSITION.items() if k != "deck"}, "pos.json")
    refused(run("railway", "hint", pos, "--deck", path), *words)


def test_deck_files_that_are_not_json(tmp_path: Path) -> None:
    repeated = (
        '{"junctions": {"Clapham": ["Victoria", "Brixton"], "Clapham": ["Victoria", "Waterloo"]},'
        ' "stations": ["Victoria", "Brixton", "Waterloo"]}'
    )
    refused(run("railway", "validate", write(tmp_path, repeated)), "Clapham", "twice")
    refused(run("railway", "validate", write(tmp_path, "{not json")), "not valid JSON", "line 1")
    refused(run("railway", "validate", write(tmp_path, '{"season_tickets": NaN}')), "NaN")
    refused(run("railway", "validate", write(tmp_path, "[" * 100_000)), "nested too deeply")
    refused(run("railway", "validate", str(tmp_path / "missing.json")), "cannot read")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    refused(run("railway", "validate", str(tmp_path / "bin.json")), "cannot read")


def pos_with(**changes: Any) -> dict[str, Any]:
    p = json.loads(json.dumps(POSITION))
    p.update(changes)
    return p


BAD_POSITIONS: list[tuple[str, Any, tuple[str, ...]]] = [
    ("unknown name", pos_with(hand=["Charing Cross", "Highgte"]), ("hand[1]", "Highgte", "did you mean 'Highgate'")),
    ("wrong case", pos_with(hand=["charing cross"]), ("charing cross",)),
    ("station twice", pos_with(seen=["Euston"]), ("Euston", "2 times", "hand[3]", "seen[0]")),
    ("too many season tickets", pos_with(seen=["Season Ticket"] * 5), ("Season Ticket", "7 times", "6 copies")),
    ("exposed and in hand", pos_with(hand=["Clapham"]), ("Clapham", "2 times")),
    (
        "exposed not listed",
        pos_with(exposed=[["Clapham", "Victoria", "Euston"]]),
        ("exposed[0]", "not a journey", "Euston"),
    ),
    (
        "exposed two junctions",
        pos_with(exposed=[["Clapham", "Charing Cross", "Victoria"]]),
        ("exposed[0]", "one junction"),
    ),
    ("exposed two cards", pos_with(exposed=[["Clapham", "Victoria"]]), ("exposed[0]", "three cards")),
    ("exposed not a list", pos_with(exposed="Clapham"), ("exposed",)),
    ("hand not a list", pos_with(hand="Euston"), ("hand", "list")),
    ("card not a string", pos_with(hand=["Euston", 3]), ("hand[1]", "a number")),
    ("players a string", pos_with(players="3"), ("players", "whole number")),
    ("no players", pos_with(players=0), ("players", "at least 1")),
    ("negative stock", pos_with(stock=-1), ("stock",)),
    ("stock too big", pos_with(stock=40), ("stock", "unseen")),
    ("top discard unknown", pos_with(top_discard="Bank"), ("top_discard", "Bank")),
    ("no hand", {k: v for k, v in POSITION.items() if k != "hand"}, ("hand", "missing")),
    ("no deck", {k: v for k, v in POSITION.items() if k != "deck"}, ("no deck", "--deck")),
    ("deck a number", pos_with(deck=5), ("deck",)),
    ("deck file missing", pos_with(deck="nowhere.json"), ("nowhere.json", "cannot read")),
    ("unknown key", pos_with(hands=[]), ("hands",)),
    ("not an object", [POSITION], ("object",)),
]


@pytest.mark.parametrize(("name", "pos", "words"), BAD_POSITIONS, ids=[b[0] for b in BAD_POSITIONS])
def test_invalid_positions_are_refused_in_one_line(tmp_path: Path, name: str, pos: Any, words: tuple[str, ...]) -> None:
    path = write(tmp_path, pos)
    for command in ("lobo", "hint", "validate"):
        refused(run("railway", command, path, *(["--json"] if command != "validate" else [])), path, *words)


def test_bad_options_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, POSITION)
    deck = write(tmp_path, DECK, "deck.json")
    refused(run("railway", "hint", path, "--draw", "Brixtn"), "--draw", "did you mean 'Brixton'")
    refused(run("railway", "hint", path, "--draw", "Brixton"), "--draw", "already placed")
    # The top discard's card typed as drawn: what was meant is said (found by a review).
    taken = str(PUZZLES / "02-take-the-discard.railway")
    refused(run("railway", "hint", taken, "--draw", "Euston"), "already placed", "top discard", "--took-top")
    refused(run("railway", "hint", path, "--draw", "Victoria", "--took-top"), "--took-top")
    refused(run("railway", "hint", write(tmp_path, pos_with(top_discard=None)), "--took-top"), "top_discard")
    refused(run("railway", "hint", path, "--by", "soon"), "--by")
    refused(run("railway", "lobo", path, "--method", "magic"), "--method")
    refused(run("railway", "lobo", "--deck", deck, "--hand", "Euston,,Victoria"), "--hand", "empty name")
    refused(run("railway", "lobo", "--hand", "Euston"), "--deck")
    refused(run("railway", "lobo", "--deck", deck), "--hand")
    refused(run("railway", "lobo", "--deck", deck, "--hand", "Euston", "--exposed", "Clapham, Euston, Victoria"))
    refused(run("railway", "validate", deck, "--graph", str(tmp_path / "g.png")), ".graphml")
    refused(run("railway", "validate", deck, "--graph", str(tmp_path / "no" / "g.graphml")), "cannot write")


def test_validate_shows_the_graph_and_exports_it(tmp_path: Path) -> None:
    out = tmp_path / "deck.graphml"
    r = run("railway", "validate", str(DECK_FILE), "--graph", str(out))
    assert r.exit_code == 0, r.output
    assert "10 junctions, 20 stations, 6 season tickets (36 cards)" in r.stdout
    assert "Woolwich" in r.stdout.split("Listed by no junction")[1]
    g = nx.read_graphml(out)
    kinds = nx.get_node_attributes(g, "kind")
    assert sum(k == "junction" for k in kinds.values()) == 10 and sum(k == "station" for k in kinds.values()) == 20
    assert g.has_edge("Charing Cross", "Highgate") and not g.has_edge("Charing Cross", "Brixton")
    assert all(kinds[a] != kinds[b] for a, b in g.edges)  # junction–station edges only
    js = json.loads(run("railway", "validate", str(DECK_FILE), "--json").stdout)["deck"]
    assert js["station_junctions"]["Highgate"] == 3 and js["station_journeys"]["Highgate"] == 2 + 3 + 2
    assert js["unlisted_stations"] == ["Woolwich"]
    # A position file is checked with its deck.
    r = run("railway", "validate", str(PUZZLES / "02-take-the-discard.railway"))
    assert r.exit_code == 0 and "Position: valid" in r.stdout


def test_lobo_answers_in_the_contract_form(tmp_path: Path) -> None:
    js = json.loads(run("railway", "lobo", write(tmp_path, POSITION), "--json").stdout)
    assert js == {
        "lobo": False,
        "journeys": [["Charing Cross", "Highgate", "Euston"]],
        "leftover": ["Season Ticket", "Waterloo"],
    }
    deck = write(tmp_path, DECK, "deck.json")
    r = run(
        "railway",
        "lobo",
        "--deck",
        deck,
        "--hand",
        "Charing Cross, Highgate, Euston",
        "--exposed",
        "Clapham,Victoria,Brixton",
    )
    assert r.exit_code == 0 and r.stdout.startswith("LOBO: yes"), r.output
    r = run("railway", "lobo", "--deck", deck, "--hand", "Charing Cross, Highgate, Euston, Waterloo")
    assert r.stdout.startswith("LOBO: no") and "Left over" in r.stdout and "Waterloo" in r.stdout
    # --hand replaces the hand of a position file; the cpsat method gives the same answer.
    r = run(
        "railway",
        "lobo",
        write(tmp_path, POSITION),
        "--hand",
        "Clapham, Waterloo, Season Ticket",
        "--json",
        "-m",
        "cpsat",
    )
    assert r.exit_code == 2  # Clapham is exposed already
    r = run(
        "railway",
        "lobo",
        write(tmp_path, POSITION),
        "--hand",
        "Charing Cross, Euston, Season Ticket",
        "--json",
        "-m",
        "cpsat",
    )
    assert json.loads(r.stdout)["lobo"] is True


def test_optional_keys_may_be_null(tmp_path: Path) -> None:
    raw = pos_with(exposed=None, seen=None, top_discard=None, players=None, stock=None)
    js = json.loads(run("railway", "lobo", write(tmp_path, raw), "--json").stdout)
    assert js["journeys"] == [["Charing Cross", "Highgate", "Euston"]] and js["lobo"] is False


def test_the_contract_examples_agree(tmp_path: Path) -> None:
    for f in examples("railway"):
        case = json.loads(f.read_text())
        for raw in (case, case["position"]):  # the wrapper and the bare position
            js = json.loads(run("railway", "lobo", write(tmp_path, raw), "--json").stdout)
            want = case["expect"]
            assert js["lobo"] == want["lobo"] and len(js["journeys"]) == want["journeys_count"], f.name
            assert len(js["leftover"]) == want["leftover_count"], f.name


def test_hint_json_and_text(tmp_path: Path) -> None:
    path = str(PUZZLES / "02-take-the-discard.railway")
    js = json.loads(run("railway", "hint", path, "--json").stdout)
    assert js["best"]["source"] == "top_discard" and js["best"]["discard"] == "Waterloo"
    assert js["top_discard"]["card"] == "Euston" and js["top_discard"]["lobo"] is False
    assert js["best"]["outs_count"] == sum(o["count"] for o in js["best"]["outs"]) > 0
    assert js["expose"]["action"] in ("expose", "keep") and js["expose"]["reason"]
    text = run("railway", "hint", path).stdout
    assert "Best: take Euston, discard Waterloo" in text and "Expose:" in text
    drawn = json.loads(run("railway", "hint", path, "--draw", "Victoria", "--json").stdout)
    assert drawn["drawn"]["card"] == "Victoria" and all(o["source"] == "drawn" for o in drawn["options"])
    took = json.loads(run("railway", "hint", path, "--took-top", "--json", "--by", "three").stdout)
    assert took["drawn"]["source"] == "top_discard" and took["ranking"] == "three"
    lobo = json.loads(run("railway", "hint", str(PUZZLES / "01-lobo-with-the-discard.railway"), "--json").stdout)
    assert lobo["top_discard"]["lobo"] and lobo["best"]["lobo"] and lobo["best"]["discard"] is None


def load_puzzle(f: Path) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    case = json.loads(f.read_text())
    return case, json.loads((f.parent / case["position"]["deck"]).read_text()), case["position"]


def test_shipped_examples_match_their_answers() -> None:
    """The engine against every stored answer (computed by the reference when the files were built)."""
    files = sorted(PUZZLES.glob("0*.railway"))
    assert len(files) >= 5
    for f in files:
        case = json.loads(f.read_text())
        want = case["expect"]
        js = json.loads(run("railway", "lobo", str(f), "--json").stdout)
        assert (js["lobo"], len(js["journeys"]), len(js["leftover"])) == (
            want["lobo"],
            want["journeys_count"],
            want["leftover_count"],
        ), f.name
        if "options" not in want:
            continue
        hint = json.loads(run("railway", "hint", str(f), "--json").stdout)
        got = {(o["source"], o["discard"]): o for o in hint["options"]}
        assert len(got) == len(want["options"]), f.name
        for o in want["options"]:
            g = got[o["source"], o["discard"]]
            for k in ("now_exact", "next_turn_exact", "within_three_exact"):
                assert Fraction(g[k]) == Fraction(o[k]), (f.name, o, k)
        assert {"source": hint["best"]["source"], "discard": hint["best"]["discard"]} in want["best"], f.name


def test_shipped_answers_are_the_reference_answers() -> None:
    """Recompute the quick part of every stored answer with the reference (no typing by hand)."""
    for f in sorted(PUZZLES.glob("0*.railway")):
        case, deck, pos = load_puzzle(f)
        want, hand, e = case["expect"], pos["hand"], len(pos.get("exposed", []))
        assert want["journeys_count"] == max_journeys(deck, hand) and want["lobo"] == is_lobo(deck, hand, e)
        pool = unseen(deck, hand, pos.get("exposed", []), pos.get("seen", []), pos.get("top_discard"))
        for o in want.get("options", []):
            if o["source"] == "top_discard" and o["discard"] is not None:
                kept = [*hand, pos["top_discard"]]
                kept.remove(o["discard"])
                assert Fraction(o["next_turn_exact"]) == lobo_chance(deck, kept, e, pool, 1), (f.name, o)
            elif o["source"] == "stock":
                assert Fraction(o["now_exact"]) == lobo_chance(deck, hand, e, pool, 1), (f.name, o)


def test_help_has_an_example_for_every_command() -> None:
    for cmd in ("validate", "lobo", "hint"):
        r = run("railway", cmd, "--help")
        assert r.exit_code == 0 and "Example: lobo-hint railway" in r.stdout, cmd
    assert "railway" in run("--help").stdout


def test_the_real_console_path(tmp_path: Path) -> None:
    """argv dispatch, exit status and stderr in a separate process, as the conformance script runs it."""
    exe = Path(sys.executable).with_name("lobo-hint")
    ok = subprocess.run(
        [str(exe), "railway", "lobo", write(tmp_path, {"position": POSITION}), "--json"], capture_output=True, text=True
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["journeys"], ok.stderr
    bad = subprocess.run(
        [str(exe), "railway", "lobo", write(tmp_path, pos_with(hand=["Nowhere"])), "--json"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.strip().splitlines()) == 1


def test_hint_says_when_the_hand_as_given_goes_lobo_or_never_can() -> None:
    # Found by a review: a hand that already goes LOBO was told to draw from the stock, and a hand
    # whose size can never go LOBO showed 0.0% everywhere with no word why.
    runner = CliRunner()
    lobo = runner.invoke(
        app, ["railway", "hint", str(ROOT / "puzzles" / "railway" / "04-a-lobo-hand.railway"), "--json"]
    )
    assert lobo.exit_code == 0, lobo.output
    assert any("already goes LOBO" in n and "call it" in n for n in json.loads(lobo.stdout)["notes"])
    never = runner.invoke(app, ["railway", "hint", str(ROOT / "puzzles" / "railway" / "06-not-yet.railway"), "--json"])
    assert any("not a multiple of three" in n for n in json.loads(never.stdout)["notes"])
    usual = runner.invoke(
        app, ["railway", "hint", str(ROOT / "puzzles" / "railway" / "02-take-the-discard.railway"), "--json"]
    )
    assert not any("multiple of three" in n or "already goes" in n for n in json.loads(usual.stdout)["notes"])


def test_a_file_of_the_other_game_is_named_with_the_command_that_reads_it() -> None:
    # Found by a review: both games are called LOBO; a railway position given to `lobo-hint` read
    # "unknown key 'deck'", a Vanguard one given to `railway` "unknown key 'player' (did you mean
    # 'players'?)".
    railway = str(PUZZLES / "02-take-the-discard.railway")
    deck = str(PUZZLES / "made-up-deck.railway")
    vanguard = str(ROOT / "puzzles" / "examples" / "midround.json")
    refused(run(railway), "a railway LOBO position", "`lobo-hint railway hint FILE`")
    refused(run("validate", railway), "a railway LOBO position")
    refused(run("validate", deck), "a railway LOBO deck", "`lobo-hint railway validate FILE`")
    for cmd in ("lobo", "hint", "validate"):
        refused(run("railway", cmd, vanguard), "a Lobo or Vanguard position", "`lobo-hint FILE`")


def test_a_big_deck_meets_its_time_limit_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by a review: a hint on a 300-card deck ran 45 s, a 41-card hand's for minutes, with
    no limit and no word. A budget that runs out is exit 1 (the position is fine, the budget small)."""
    import random

    rng = random.Random(1)
    stations = [f"S{i}" for i in range(200)]
    junctions = {f"J{i}": rng.sample(stations, rng.randint(2, 5)) for i in range(100)}
    deck = write(tmp_path, {"name": "big", "season_tickets": 6, "junctions": junctions, "stations": stations}, "d.json")
    hand = ["J1", *junctions["J1"][:1], "J2", *junctions["J2"][:1], "S199"]
    pos = write(tmp_path, {"deck": deck, "hand": hand, "players": 4, "stock": 50}, "p.json")
    r = run("railway", "hint", pos, "--time-limit", "0.3")
    assert (
        r.exit_code == 1 and "did not finish within the time limit (0.3 s)" in r.stderr and "--time-limit" in r.stderr
    )
    assert f"{pos}: the answer did not finish" in r.stderr  # the file it was reached on (a review)
    assert len(r.stderr.strip().splitlines()) == 1 and r.stdout == ""
    from solver.search import memory

    monkeypatch.delenv(memory.ENV, raising=False)
    try:  # (this process is over 64 MiB already: the budget is spent at the first look)
        r = run("railway", "hint", pos, "--max-memory", "64M")
    finally:
        memory.set_limit(None)
        os.environ.pop(memory.ENV, None)  # (not monkeypatch: it would put the 64M back at teardown)
    assert r.exit_code == 1 and "outgrew the memory budget (64 MiB)" in r.stderr, r.stderr
