"""Railway decks (RAILWAY.md "Cards"): read, checked, and drawn as a station–junction graph.

A deck is data, because the printed rules never list the real one: every junction with the
stations it lists, every station card, and how many season tickets. Each junction and station
card is unique; season tickets are the only repeated card. Every refusal is a `RailwayError`
whose message says what is wrong and where, so the CLI can print it as one line.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from solver.core.files import write_whole
from solver.core.jsonio import HugeNumber, Unreadable, json_error, read_text, shown_path
from solver.core.jsonio import loads as json_loads
from solver.core.kinds import NOT_RAILWAY, lobo_position

if TYPE_CHECKING:  # networkx is imported only where a graph is built: it is slow to import
    import networkx as nx

SEASON_TICKET = "Season Ticket"
# The printed sheet: "There are six season tickets in the pack."
DEFAULT_SEASON_TICKETS = 6
DECK_KEYS = ("name", "season_tickets", "junctions", "stations")
# Labels a file may carry that never change play (the same extension as docs/formats.md).
LABEL_KEYS = ("id", "note")
MAX_SEASON_TICKETS = 100  # more than any pack has; a count far beyond would only make a deck no table holds


class RailwayError(ValueError):
    """An invalid deck, position or option. `code` is a stable short name for the condition."""

    def __init__(self, message: str, code: str = "invalid") -> None:
        super().__init__(message)
        self.code = code


class JsonObject(dict[str, Any]):
    """A JSON object that remembers the keys it was given more than once.

    The json module silently keeps the last of repeated keys; a deck whose junction is named
    twice must be refused, not half-read.
    """

    repeated: tuple[str, ...] = ()


def _json_object(pairs: list[tuple[str, Any]]) -> JsonObject:
    obj = JsonObject()
    repeated = []
    for k, v in pairs:
        if k in obj:
            repeated.append(k)
        obj[k] = v
    obj.repeated = tuple(repeated)
    return obj


def _no_constant(name: str) -> None:
    raise RailwayError(f"not valid JSON: {name} is not a JSON value", "bad_json")


def loads(text: str) -> Any:
    """Strict JSON: no NaN or Infinity, objects that know their repeated keys, and no integer so
    long that it cannot be read (a HugeNumber, refused where a number is wanted)."""
    return json_loads(text, object_pairs_hook=_json_object, parse_constant=_no_constant)


def read_json(path: str | Path) -> Any:
    """A JSON file, or a RailwayError naming the file and what is wrong with it."""
    p = Path(path)
    try:
        text = read_text(path)  # as given: Path('') would be the current folder
    except Unreadable as e:
        raise RailwayError(f"{shown_path(path)}: cannot read: {e}", "unreadable") from None
    try:
        return loads(text)
    except json.JSONDecodeError as e:
        raise RailwayError(f"{p}: not valid JSON: {json_error(e)}", "bad_json") from None
    except RecursionError:
        raise RailwayError(f"{p}: not valid JSON: nested too deeply", "bad_json") from None
    except RailwayError as e:
        raise RailwayError(f"{p}: {e}", e.code) from None


def type_name(v: object) -> str:
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, float):
        return repr(v)  # "not 2.5", not "not a number": a number it is
    if isinstance(v, int | float | HugeNumber):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return "null" if v is None else type(v).__name__


def suggestion(name: str, known: Iterable[str]) -> str:
    """' (did you mean ...?)' for a near miss, since names must match exactly."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.75)
    if not close:
        folded = [k for k in known if k.casefold().strip() == name.casefold().strip()]
        close = folded[:1]
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_keys(obj: Mapping[str, Any], known: Sequence[str], where: str) -> None:
    """Refuse repeated and unknown keys: a misspelt key would otherwise be silently ignored."""
    repeated = getattr(obj, "repeated", ())
    if repeated:
        raise RailwayError(f"{where}: the key {repeated[0]!r} appears twice", "repeated_key")
    for k in obj:
        if k not in known and k not in LABEL_KEYS:
            raise RailwayError(
                f"{where}: unknown key {k!r}{suggestion(k, known)}; known keys: {', '.join((*known, *LABEL_KEYS))}",
                "unknown_key",
            )


@dataclass(frozen=True)
class Journey:
    """A junction and the two station places it joins; a season ticket fills a place as itself."""

    junction: str
    stations: tuple[str, str]

    @property
    def cards(self) -> tuple[str, str, str]:
        return (self.junction, *self.stations)

    def to_json(self) -> list[str]:
        return list(self.cards)

    def __str__(self) -> str:
        # The sheet writes a journey as a path: station - junction - station.
        return f"{self.stations[0]} – {self.junction} – {self.stations[1]}"


@dataclass(frozen=True, eq=False)
class Deck:
    """A checked deck. Compared and hashed by identity: it is built once and only read."""

    name: str
    season_tickets: int
    stations: tuple[str, ...]
    lists: Mapping[str, tuple[str, ...]]  # junction -> the stations it lists, in file order
    junction_set: frozenset[str] = field(init=False, repr=False)
    station_set: frozenset[str] = field(init=False, repr=False)
    through: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)  # station -> its junctions
    _listed: Mapping[str, frozenset[str]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        through: dict[str, list[str]] = {s: [] for s in self.stations}
        for j, ss in self.lists.items():
            for s in ss:
                through[s].append(j)
        object.__setattr__(self, "junction_set", frozenset(self.lists))
        object.__setattr__(self, "station_set", frozenset(self.stations))
        object.__setattr__(self, "through", MappingProxyType({s: tuple(js) for s, js in through.items()}))
        object.__setattr__(self, "_listed", MappingProxyType({j: frozenset(ss) for j, ss in self.lists.items()}))

    @property
    def junctions(self) -> tuple[str, ...]:
        return tuple(self.lists)

    @property
    def size(self) -> int:
        return len(self.lists) + len(self.stations) + self.season_tickets

    def kind(self, card: str) -> str | None:
        """'junction', 'station', 'season' (a season ticket) or None for a name not in the deck."""
        if card in self.junction_set:
            return "junction"
        if card in self.station_set:
            return "station"
        if card == SEASON_TICKET and self.season_tickets > 0:
            return "season"
        return None

    def copies(self, card: str) -> int:
        """How many cards of this name the deck holds."""
        kind = self.kind(card)
        return 0 if kind is None else self.season_tickets if kind == "season" else 1

    def names(self) -> list[str]:
        return [*self.lists, *self.stations, *([SEASON_TICKET] if self.season_tickets else [])]

    def lists_station(self, junction: str, station: str) -> bool:
        return station in self._listed.get(junction, frozenset())

    def cards(self) -> dict[str, int]:
        """Every card name with its number of copies, in deck order."""
        return {name: self.copies(name) for name in self.names()}

    def journey(self, cards: Sequence[str]) -> Journey:
        """The journey these three cards make, in any order; a RailwayError saying why not otherwise."""
        if len(cards) != 3:
            raise RailwayError(f"a journey is three cards, not {len(cards)}", "not_a_journey")
        junctions = [c for c in cards if c in self.junction_set]
        if len(junctions) != 1:
            raise RailwayError(f"a journey has exactly one junction, not {len(junctions)}", "not_a_journey")
        j = junctions[0]
        ends = list(cards)
        ends.remove(j)
        real = [s for s in ends if s != SEASON_TICKET]
        for s in real:
            if s not in self.station_set:
                raise RailwayError(f"{s!r} is not a station", "not_a_journey")
            if not self.lists_station(j, s):
                raise RailwayError(f"{j} does not list {s}", "not_a_journey")
        if len(real) == 2 and real[0] == real[1]:
            raise RailwayError(f"the two stations must differ, not {real[0]} twice", "not_a_journey")
        return make_journey(self, j, real)


def make_journey(deck: Deck, junction: str, real: Iterable[str]) -> Journey:
    """A journey from its junction and up to two real stations; season tickets fill the rest.

    Stations are written in the junction's list order and season tickets last, so the same
    journey always prints the same way.
    """
    order = {s: i for i, s in enumerate(deck.lists[junction])}
    ends = sorted(real, key=order.__getitem__)
    ends += [SEASON_TICKET] * (2 - len(ends))
    return Journey(junction, (ends[0], ends[1]))


def _name(v: object, where: str) -> str:
    if not isinstance(v, str):
        raise RailwayError(f"{where}: a name must be a string, not {type_name(v)}", "bad_type")
    if not v.strip():
        raise RailwayError(f"{where}: a name may not be empty", "empty_name")
    if v != v.strip():  # "Chester " and "Chester" would be two cards shown alike (found by a review)
        raise RailwayError(f"{where}: {v!r} begins or ends with a space: write the name without it", "bad_name")
    if v == SEASON_TICKET:
        raise RailwayError(f"{where}: {SEASON_TICKET!r} is reserved for the season tickets", "reserved_name")
    return v


def parse_deck(raw: object, where: str = "deck") -> Deck:
    """Check a deck object (RAILWAY.md) and build it; every condition of the contract is refused."""
    if not isinstance(raw, dict):
        raise RailwayError(f"{where}: must be a JSON object with junctions and stations, not {type_name(raw)}")
    if lobo_position(raw):
        raise RailwayError(f"{where}: {NOT_RAILWAY}", "wrong_kind")
    check_keys(raw, DECK_KEYS, where)
    name = raw.get("name", "deck")
    if not isinstance(name, str):
        raise RailwayError(f"{where}: name: must be a string, not {type_name(name)}", "bad_type")
    tickets = raw.get("season_tickets", DEFAULT_SEASON_TICKETS)
    if isinstance(tickets, HugeNumber):
        raise RailwayError(f"{where}: season_tickets: {tickets} is far too many", "bad_count")
    if isinstance(tickets, bool) or not isinstance(tickets, int):
        raise RailwayError(f"{where}: season_tickets: must be a whole number, not {type_name(tickets)}", "bad_type")
    if tickets < 0:
        raise RailwayError(f"{where}: season_tickets: may not be negative ({tickets})", "bad_count")
    if tickets > MAX_SEASON_TICKETS:
        raise RailwayError(
            f"{where}: season_tickets: at most {MAX_SEASON_TICKETS} (a pack of cards), not {tickets}", "bad_count"
        )
    for key in ("stations", "junctions"):
        if key not in raw:
            raise RailwayError(f"{where}: the key {key!r} is missing", "missing_key")
    stations = _stations(raw["stations"], f"{where}: stations")
    lists = _junctions(raw["junctions"], stations, f"{where}: junctions")
    return Deck(name, tickets, tuple(stations), MappingProxyType(lists))


def _stations(raw: object, where: str) -> list[str]:
    if not isinstance(raw, list):
        raise RailwayError(f"{where}: must be a list of station names, not {type_name(raw)}", "bad_type")
    first: dict[str, int] = {}
    for i, v in enumerate(raw):
        s = _name(v, f"{where}[{i}]")
        if s in first:
            raise RailwayError(f"{where}[{i}]: {s!r} is repeated (first at [{first[s]}])", "repeated")
        first[s] = i
    return list(first)


def _junctions(raw: object, stations: list[str], where: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, dict):
        raise RailwayError(
            f"{where}: must be an object from each junction's name to the stations it lists, not {type_name(raw)}",
            "bad_type",
        )
    repeated = getattr(raw, "repeated", ())
    if repeated:
        raise RailwayError(f"{where}: {repeated[0]!r} is named twice", "repeated")
    station_set = set(stations)
    lists: dict[str, tuple[str, ...]] = {}
    for j, listed in raw.items():
        here = f"{where}[{j!r}]"
        _name(j, f"{where}: junction {j!r}")
        if j in station_set:
            raise RailwayError(
                f"{where}: {j!r} is both a junction and a station (they share one name space)", "repeated"
            )
        if not isinstance(listed, list):
            raise RailwayError(f"{here}: must be a list of station names, not {type_name(listed)}", "bad_type")
        seen: dict[str, int] = {}
        for i, v in enumerate(listed):
            s = _name(v, f"{here}[{i}]")
            if s in seen:
                raise RailwayError(f"{here}[{i}]: {s!r} is listed twice (also [{seen[s]}])", "repeated")
            if s not in station_set:
                what = "is a junction, not a station card" if s in raw else "has no station card"
                raise RailwayError(f"{here}[{i}]: {s!r} {what}{suggestion(s, stations)}", "no_station_card")
            seen[s] = i
        if len(seen) < 2:
            raise RailwayError(
                f"{here}: a junction must list at least two stations, not {len(seen)}", "too_few_stations"
            )
        lists[j] = tuple(seen)
    return lists


def load_deck(path: str | Path) -> Deck:
    """Read and check a deck file; errors name the file."""
    raw = read_json(path)
    return parse_deck(raw, str(path))


def deck_graph(deck: Deck) -> nx.Graph[str]:
    """The station–junction graph: a node per junction and per station card, an edge where a
    junction lists a station. A journey is a path station–junction–station in it."""
    import networkx as nx

    g: nx.Graph[str] = nx.Graph(name=deck.name, season_tickets=deck.season_tickets)
    for j in deck.lists:
        g.add_node(j, kind="junction")
    for s in deck.stations:
        g.add_node(s, kind="station")
    for j, ss in deck.lists.items():
        g.add_edges_from((j, s) for s in ss)
    return g


def graph_summary(g: nx.Graph[str]) -> dict[str, Any]:
    """The graph in brief: counts, each junction's stations, and for each station how many
    junctions it meets and how many journeys (with two station cards) it can end."""
    junctions = [n for n in g.nodes if g.nodes[n]["kind"] == "junction"]
    stations = [n for n in g.nodes if g.nodes[n]["kind"] == "station"]
    # A journey through junction j ending at s has its other end at any other station j lists.
    ends = {s: sum(g.degree(j) - 1 for j in g.neighbors(s)) for s in stations}
    return {
        "name": g.graph.get("name", ""),
        "junctions": len(junctions),
        "stations": len(stations),
        "season_tickets": g.graph.get("season_tickets", 0),
        "cards": len(junctions) + len(stations) + g.graph.get("season_tickets", 0),
        "journeys": sum(g.degree(j) * (g.degree(j) - 1) // 2 for j in junctions),
        "junction_stations": {j: list(g.neighbors(j)) for j in junctions},
        "station_junctions": {s: g.degree(s) for s in stations},
        "station_journeys": ends,
        "unlisted_stations": [s for s in stations if g.degree(s) == 0],
    }


def write_graphml(g: nx.Graph[str], path: str | Path) -> None:
    """GraphML for Gephi, yEd or networkx; written whole or not at all."""
    import networkx as nx

    p = Path(path)
    try:
        write_whole(p, lambda tmp: nx.write_graphml(g, tmp))
    except OSError as e:
        raise RailwayError(f"--graph: cannot write {p}: {e.strerror or e}", "unwritable") from None
