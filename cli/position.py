"""The commands that read a position, or the rules, without searching: moves, validate, schema
(the position format) and rules. Quick: they load no search (tests/test_startup.py).
"""

from __future__ import annotations

from typing import Annotated

import typer

from solver.core.games import GAMES
from solver.core.position import Position, Rules, load_position
from solver.core.rules import initial_state, legal_plays
from solver.core.schema import position_schema
from solver.core.summary import rules_summary

from . import render
from .common import JsonOpt, PositionArg, emit_json, fail, input_errors

app = typer.Typer()


@app.command(epilog="Example: lobo-hint moves position.json --json")
@input_errors
def moves(path: PositionArg, as_json: JsonOpt = False) -> None:
    """Every distinct legal play, grouped by kind, with what it makes each side draw."""
    pos = load_position(path)
    state = initial_state(pos)
    plays = legal_plays(state)
    if as_json:
        emit_json({"moves": [p.to_json() for p in plays]})
        return
    out = render.console()
    out.print(render.position_panel(pos))
    out.print(render.plays_table(state, plays))


@app.command(epilog="Example: lobo-hint validate position.json")
@input_errors
def validate(path: PositionArg, as_json: JsonOpt = False) -> None:
    """Check a position file: show it if valid, or name exactly what is wrong (exit 2)."""
    pos = load_position(path, allow_reward=True)  # a reward position is a position too (for `reward`)
    if as_json:
        emit_json({"valid": True, "position": pos.to_json(), "unseen": _unseen_json(pos)})
        return
    out = render.console()
    out.print(render.position_panel(pos, title=f"{path}: valid"))


def _unseen_json(pos: Position) -> dict[str, int]:
    return {str(v): n for v, n in enumerate(pos.unseen, start=1)}


@app.command(epilog="Example: lobo-hint schema > position.schema.json   (the railway game: lobo-hint railway schema)")
def schema() -> None:
    """Print a JSON Schema of the position format, for editors and other tools."""
    emit_json(position_schema())


@app.command(epilog="Example: lobo-hint rules --game lobo")
@input_errors
def rules(
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="vanguard or lobo (default vanguard, or the position's)")
    ] = None,
    position: Annotated[
        str | None, typer.Option("--position", "-p", help="show the rulings in force for this position file")
    ] = None,
) -> None:
    """The rules and the rulings in force, in brief (docs/rules.md has them in full)."""
    in_force = Rules()
    if position is not None:
        pos = load_position(position, allow_reward=True)  # a reward position has rulings too
        if game is not None and game != pos.game:  # (found by a review: --game was ignored without a word)
            fail(f"--game {game}: {position} is a {pos.game} position; leave --game out, or give another position")
        game, in_force = pos.game, pos.rules
    game = game or "vanguard"
    if game not in GAMES:
        fail(f"--game: {game!r} is not one of {', '.join(GAMES)}")
    render.console().print(render.rules_group(game, rules_summary(game, in_force)))
