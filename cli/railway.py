"""`lobo-hint railway ...`: the railway LOBO (RAILWAY.md), a Typer sub-app (cli/main.py adds it).

The same error style as the rest of the CLI: one line on stderr, exit 2, never a traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from solver.railway.budget import BUDGET_CODES
from solver.railway.deck import (
    Deck,
    RailwayError,
    deck_graph,
    graph_summary,
    load_deck,
    parse_deck,
    read_json,
    suggestion,
    write_graphml,
)
from solver.railway.partition import METHODS, Partition, partition
from solver.railway.position import RailwayPosition, load_position, parse_position, typed_keys
from solver.railway.schema import deck_schema, position_schema
from solver.words.numbers import count_text

from .common import command_began, emit_json, input_errors, positive, use_memory

if TYPE_CHECKING:  # the advice is imported by `railway hint`, the one command that uses it
    from solver.railway.advice import Advice, Option
    from solver.railway.budget import RailwayBudget

railway_app = typer.Typer(
    name="railway",
    help="The railway LOBO, the older draw-and-discard game of the same name: decks, LOBO hands, hints.\n\n"
    "Example: lobo-hint railway hint puzzles/railway/02-take-the-discard.railway",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

JsonOpt = Annotated[bool, typer.Option("--json", help="print the answer as JSON (its keys: docs/railway.md)")]
DeckOpt = Annotated[
    str | None, typer.Option("--deck", "-d", metavar="DECK.json", help="the deck (wins over the position's own)")
]
TimeOpt = Annotated[
    float,
    typer.Option(
        "--time-limit", "-t", help="seconds the answer may take, counted from the command's start (default 30)"
    ),
]


def _budget(time_limit: float, max_memory: str | None) -> RailwayBudget:
    """The answer's time limit, from the command's start, and its memory budget."""
    from solver.railway.budget import RailwayBudget

    positive(time_limit, "--time-limit")
    use_memory(max_memory)
    return RailwayBudget.of(time_limit, command_began())


# A railway answer is whole or none (docs/railway.md): a budget reached ends the command, saying
# which to raise (found by a review: this help promised a partial answer, as the other commands').
MemoryOpt = Annotated[
    str | None,
    typer.Option(
        "--max-memory",
        metavar="SIZE",
        help="memory the answer may use, e.g. 2G or 500M (default: $LOBO_HINT_MAX_MEMORY, else 2G); "
        "reaching it ends the command with one line and exit status 1 (an answer is whole or none)",
    ),
]


@contextmanager
def _named(path: str | None) -> Iterator[None]:
    """A budget reached names the position it was reached on (a hand typed has no file)."""
    try:
        yield
    except RailwayError as e:
        if e.code not in BUDGET_CODES or path is None:
            raise
        raise RailwayError(f"{path}: {e}", e.code) from None


MethodOpt = Annotated[
    str, typer.Option("--method", "-m", help=f"how to find the largest set of journeys: {' or '.join(METHODS)}")
]


def _method(method: str) -> str:
    if method not in METHODS:
        raise RailwayError(f"--method: {method!r} is not one of {', '.join(METHODS)}", "bad_option")
    return method


def _position(path: str | None, deck: str | None, keys: dict[str, Any]) -> RailwayPosition:
    """A position from a file (with --hand and friends replacing its keys) or from the options alone."""
    if path is not None:
        return load_position(path, deck, keys)
    if deck is None:
        raise RailwayError("give a POSITION.json, or --deck DECK.json with --hand")
    if "hand" not in keys:
        raise RailwayError("give a POSITION.json, or --hand with the cards of the hand")
    return parse_position(keys, None, load_deck(deck))


@railway_app.command(
    epilog="Example: lobo-hint railway validate puzzles/railway/made-up-deck.railway --graph deck.graphml"
)
@input_errors
def validate(
    path: Annotated[str, typer.Argument(metavar="DECK.json", help="a deck file, or a position file (checks both)")],
    graph: Annotated[
        str | None, typer.Option("--graph", "-g", metavar="FILE.graphml", help="write the station–junction graph")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check a deck and show its station–junction graph in brief, or name exactly what is wrong (exit 2)."""
    raw = read_json(path)
    pos = None
    # A deck never has a hand or a deck of its own; a wrapper {"position": ...} is a position.
    if isinstance(raw, dict) and ("position" in raw or "hand" in raw or "deck" in raw):
        pos = load_position(path)
        deck = pos.deck
    else:
        deck = parse_deck(raw, path)
    g = deck_graph(deck)
    if graph is not None:
        if not graph.lower().endswith(".graphml"):
            raise RailwayError(f"--graph: {graph}: use a .graphml file")
        write_graphml(g, graph)
    summary = graph_summary(g)
    if as_json:
        out: dict[str, Any] = {"valid": True, "deck": summary}
        if pos is not None:
            out["position"] = pos.to_json()
            out["unseen"] = pos.unseen()
        if graph is not None:
            out["graph"] = graph
        emit_json(out)
        return
    for line in _deck_lines(path, deck, summary):
        typer.echo(line)
    if pos is not None:
        typer.echo(
            f"Position: valid; hand {', '.join(pos.hand) or '(empty)'}; {sum(pos.unseen().values())} cards unseen"
        )
    if graph is not None:
        typer.echo(
            f"wrote {graph}: {count_text(g.number_of_nodes(), 'node')}, {count_text(g.number_of_edges(), 'edge')}"
        )


@railway_app.command(epilog="Example: lobo-hint railway schema deck > railway-deck.schema.json")
@input_errors
def schema(
    of: Annotated[str, typer.Argument(metavar="[position|deck]", help="which file's schema")] = "position",
) -> None:
    """Print a JSON Schema of the railway position file (or of a deck file), for editors and tools."""
    schemas = {"position": position_schema, "deck": deck_schema}
    if of not in schemas:
        raise RailwayError(f"schema: {of!r} is not position or deck{suggestion(of, schemas)}", "bad_option")
    emit_json(schemas[of]())


def _deck_lines(path: str, deck: Deck, s: dict[str, Any]) -> list[str]:
    lines = [
        f"{path}: valid deck {deck.name!r}",
        f"  {count_text(s['junctions'], 'junction')}, {count_text(s['stations'], 'station')}, "
        f"{count_text(s['season_tickets'], 'season ticket')} ({count_text(s['cards'], 'card')}); "
        f"{count_text(s['journeys'], 'journey')} with two station cards",
        "  Junction: the stations it lists",
    ]
    width = max((len(j) for j in s["junction_stations"]), default=0)
    lines += [f"    {j:<{width}}  {', '.join(ss)}" for j, ss in s["junction_stations"].items()]
    lines.append("  Station: junctions through it, journeys it can end (with another station card)")
    width = max((len(x) for x in s["station_junctions"]), default=0)
    lines += [
        f"    {x:<{width}}  {count_text(s['station_junctions'][x], 'junction'):>12}  {count_text(s['station_journeys'][x], 'journey'):>12}"
        for x in s["station_junctions"]
    ]
    if s["unlisted_stations"]:
        lines.append(f"  Listed by no junction (never in a journey): {', '.join(s['unlisted_stations'])}")
    return lines


@railway_app.command(
    epilog='Example: lobo-hint railway lobo --deck puzzles/railway/made-up-deck.railway --hand "Charing Cross, '
    'Highgate, Euston"   (or: lobo-hint railway lobo POSITION.json --json)'
)
@input_errors
def lobo(
    path: Annotated[
        str | None, typer.Argument(metavar="[POSITION.json]", help="a position file (or give --deck and --hand)")
    ] = None,
    deck: DeckOpt = None,
    hand: Annotated[
        str | None, typer.Option("--hand", metavar='"CARD, CARD, ..."', help="the hand, names separated by commas")
    ] = None,
    exposed: Annotated[
        str | None,
        typer.Option("--exposed", metavar='"J, S, S; J, S, S"', help="your exposed journeys, separated by ;"),
    ] = None,
    as_json: JsonOpt = False,
    method: MethodOpt = "auto",
    time_limit: TimeOpt = 30.0,
    max_memory: MemoryOpt = None,
) -> None:
    """Is this a LOBO hand? The largest set of journeys in it, or the fewest cards no partition can place."""
    budget = _budget(time_limit, max_memory)
    pos = _position(path, deck, typed_keys(hand, exposed))
    with _named(path):
        part = partition(pos.deck, pos.hand, _method(method), budget)
    if as_json:
        emit_json(part.to_json(len(pos.exposed)))
        return
    for line in _lobo_lines(part, len(pos.exposed)):
        typer.echo(line)


def _lobo_lines(part: Partition, exposed: int) -> list[str]:
    n = len(part.journeys)
    counted = f"{count_text(n, 'journey')} in the hand" + (f", {exposed} exposed" if exposed else "")
    if part.goes_lobo(exposed):
        lines = [f"LOBO: yes ({counted})"]
    elif not part.leftover:
        lines = [f"LOBO: no: {counted}; it takes two or more in all"]
    else:
        lines = [f"LOBO: no ({counted})"]
    lines += [f"  {j}" for j in part.journeys]
    if part.leftover:
        lines.append(f"  Left over (the fewest cards that no set of journeys can place): {', '.join(part.leftover)}")
    return lines


@railway_app.command(
    epilog="Example: lobo-hint railway hint puzzles/railway/02-take-the-discard.railway   "
    '(after drawing: --draw "Victoria"; after taking the top discard: --took-top)'
)
@input_errors
def hint(
    path: Annotated[str, typer.Argument(metavar="POSITION.json", help="a railway position file")],
    deck: DeckOpt = None,
    draw: Annotated[
        str | None, typer.Option("--draw", metavar="CARD", help="the card you just drew from the stock")
    ] = None,
    took_top: Annotated[bool, typer.Option("--took-top", help="you just took the top discard")] = False,
    by: Annotated[
        str, typer.Option("--by", help="rank by 'next' (LOBO by next turn first) or 'three' (within three turns)")
    ] = "next",
    as_json: JsonOpt = False,
    method: MethodOpt = "auto",
    time_limit: TimeOpt = 30.0,
    max_memory: MemoryOpt = None,
) -> None:
    """Which source to draw from and which card to discard, by the exact chance of LOBO; outs; expose or not."""
    from solver.railway.advice import RANKINGS, advise

    budget = _budget(time_limit, max_memory)
    if by not in RANKINGS:
        raise RailwayError(f"--by: {by!r} is not one of {', '.join(RANKINGS)}", "bad_option")
    if draw is not None and took_top:
        raise RailwayError("--draw and --took-top: give one (a card comes from the stock or the discards)")
    pos = load_position(path, deck)
    if took_top and pos.top_discard is None:
        raise RailwayError("--took-top: the position has no top_discard")
    if draw is not None:
        if pos.deck.copies(draw) == 0:
            raise RailwayError(f"--draw: {draw!r} is not a card of the deck{suggestion(draw, pos.deck.names())}")
        if pos.unseen().get(draw, 0) == 0:
            taken = " (one is the top discard: after taking it, give --took-top)" if pos.top_discard == draw else ""
            raise RailwayError(f"--draw: {draw!r} cannot come from the stock: every copy is already placed{taken}")
    with _named(path):
        advice = advise(pos, draw, took_top, by, _method(method), budget)
    if as_json:
        emit_json(advice.to_json())
        return
    for line in _hint_lines(pos, advice):
        typer.echo(line)


def _pct(value: Any) -> str:
    return f"{float(value) * 100:5.1f}%"


def _outs_text(option: Option) -> str:
    if not option.outs:
        return "no outs"
    total = sum(o.count for o in option.outs)
    shown = ", ".join(f"{o.card}{f' ×{o.count}' if o.count > 1 else ''} ({o.completes})" for o in option.outs)
    return f"{count_text(total, 'out')}: {shown}"


def _hint_lines(pos: RailwayPosition, a: Advice) -> list[str]:
    exposed = len(pos.exposed)
    lines = [f"Hand: {', '.join(pos.hand) or '(empty)'}" + (f"; exposed: {exposed}" if exposed else "")]
    lines.append("  " + _lobo_lines(a.hand, exposed)[0])
    lines.append(f"Unseen: {sum(a.unseen.values())} cards (the stock and the other hands)")
    if a.drawn is not None and a.with_drawn is not None:
        lines.append(f"With {a.drawn} (from the {'top discard' if a.drawn_from == 'top_discard' else 'stock'}):")
        lines += ["  " + x for x in _lobo_lines(a.with_drawn, exposed)]
    elif a.top_discard is not None and a.with_top is not None:
        lines.append(f"With the top discard {a.top_discard}:")
        lines += ["  " + x for x in _lobo_lines(a.with_top, exposed)]
    best = a.best
    if best is None:
        lines.append("No option: nothing to draw.")
        return lines
    if best.lobo:
        lines.append(f"Best: {best.label()} (call it: no discard follows)")
    else:
        lines.append(
            f"Best: {best.label()}: LOBO by next turn {_pct(best.chances.next_turn).strip()}, "
            f"within three turns {_pct(best.chances.within_three).strip()}"
        )
    width = max(len(o.label()) for o in a.options)
    lines.append(f"  {'option':<{width}}  this turn  next turn  within 3  outs of the next draw")
    for o in a.options:
        c = o.chances
        lines.append(
            f"  {o.label():<{width}}  {_pct(c.now):>9}  {_pct(c.next_turn):>9}  {_pct(c.within_three):>8}  {_outs_text(o)}"
        )
    if a.expose is not None:
        lines.append(f"Expose: {a.expose.reason}")
    for note in a.notes:
        lines.append(f"Note: {note}")
    lines.append("Model: exact; you draw from the stock on later turns, other players ignored (docs/railway.md).")
    return lines
