"""The railway LOBO: the older draw-and-discard card game of the same name (../shared/RAILWAY.md).

It shares nothing with the Vanguard engine but the command line. `deck` reads and checks decks
(and draws them as networkx graphs), `position` reads positions, `partition` splits a hand into
a largest set of journeys (two exact methods), `advice` ranks draws and discards by the chance of
going LOBO.
"""

from .deck import SEASON_TICKET, Deck, Journey, RailwayError, load_deck, parse_deck
from .partition import METHODS, Partition, partition
from .position import RailwayPosition, load_position, parse_position

__all__ = [
    "METHODS",
    "SEASON_TICKET",
    "Deck",
    "Journey",
    "Partition",
    "RailwayError",
    "RailwayPosition",
    "load_deck",
    "load_position",
    "parse_deck",
    "parse_position",
    "partition",
]
