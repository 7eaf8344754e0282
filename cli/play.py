"""`lobo-hint play`: the table companion in a terminal, on this module's Typer app (cli/main.py adds it).

The session is solver/play/companion/'s, drawn and read by cli/table_view.py; both load when the
command runs, so `lobo-hint --help` and every other command start without them.
"""

from __future__ import annotations

import random
import sys
import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated

import typer

from . import render
from .common import MemoryOpt, fail, input_errors, positive, use_memory

if TYPE_CHECKING:
    from solver.core.games import Game
    from solver.core.position import Rules
    from solver.play.companion import Note, Session

app = typer.Typer()


# ---------------------------------------------------------------------------------------------
# The command


@app.command(
    epilog="Example: lobo-hint play --virtual --seed 3   (a physical game: lobo-hint play --game vanguard, "
    "then deal 3 7 9 A / 6 2 2 8, plays like 4+2=6, draw 5; type help inside)"
)
@input_errors
def play(
    game: Annotated[str | None, typer.Option("--game", "-g", help="vanguard or lobo")] = None,
    difficulty: Annotated[str | None, typer.Option("--difficulty", "-d", help="easy, standard or hard")] = None,
    virtual: Annotated[bool, typer.Option("--virtual", help="the program shuffles and deals")] = False,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="the virtual deck's seed (default: random)")] = None,
    load: Annotated[str | None, typer.Option("--load", "-l", help="resume a game saved with save FILE")] = None,
    target: Annotated[int | None, typer.Option("--target", help="lobo: the score that wins (default 100)")] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", "-t", help="seconds a hint may take")] = 2.0,
    samples: Annotated[
        int,
        typer.Option(
            "--samples",
            "-n",
            help="continuations per reward for reward under --reward-policy greedy, best or random (game values rewards as the hint does)",
        ),
    ] = 200,
    reward_policy: Annotated[
        str,
        typer.Option(
            "--reward-policy",
            help="game: rank rewards by the hint's game values; or play continuations with greedy, best, random",
        ),
    ] = "game",
    max_memory: MemoryOpt = None,
    rule: Annotated[
        list[str] | None,
        typer.Option(
            "--rule",
            help="a ruling as NAME=VALUE, e.g. top_card_visible=true (the top card of the pile face up; also "
            "hand_size, final_threshold, reserve_scores: docs/rules.md); repeat for more",
        ),
    ] = None,
) -> None:
    """Follow a real game at the table (or deal a virtual one): bookkeeping, rules checks, hints."""
    from solver.core.cards import DIFFICULTIES
    from solver.core.games import GAMES, LOBO_TARGET
    from solver.core.games import game as game_of
    from solver.play.companion import REWARD_POLICIES, CompanionError, Reply, Settings, load_file, start, warm_engine
    from solver.play.driver import GameError, Setup, seed_from_json

    from .table_view import run_session, stream_reader, terminal_reader

    positive(time_limit, "--time-limit")  # nan and inf too: a hint that never ends
    if samples < 2:
        fail(f"--samples: at least 2, not {samples}")
    if reward_policy not in REWARD_POLICIES:
        fail(f"--reward-policy: {reward_policy!r} is not one of {', '.join(REWARD_POLICIES)}")
    use_memory(max_memory)
    settings = Settings(time_limit, reward_policy, samples)
    if load is not None:
        given = [name for name, v in (("--game", game), ("--difficulty", difficulty), ("--seed", seed),
                                      ("--target", target), ("--rule", rule)) if v]  # fmt: skip
        if given or virtual:
            fail(f"--load: the saved game keeps its own settings; drop {', '.join(given or ['--virtual'])}")
        try:
            session = load_file(load, settings)
        except CompanionError as e:
            fail(str(e))
        first = Reply(session, (_resumed(load, session),), show="summary" if session.table.over else "board")
    else:
        if seed is not None and not virtual:
            fail("--seed: only a virtual game has a seed; add --virtual")
        if seed is not None:
            try:
                seed_from_json(seed, "--seed")
            except GameError as e:
                fail(str(e))
        if seed is not None and seed < 0:
            fail(f"--seed: must be 0 or more, not {seed}")
        game = game or "vanguard"
        if game not in GAMES:
            fail(f"--game: {game!r} is not one of {', '.join(GAMES)}")
        difficulty = difficulty or "standard"
        if difficulty not in DIFFICULTIES:
            fail(f"--difficulty: {difficulty!r} is not one of {', '.join(DIFFICULTIES)}")
        if target is not None and not game_of(game).is_race:
            fail("--target: only lobo is a race to a score")
        try:
            setup = Setup.asked(game, difficulty, LOBO_TARGET if target is None else target)  # 0 is refused, not 100
        except GameError as e:
            fail(f"--target: {e}")  # the difficulty and the game were checked above
        setup = replace(setup, rules=_rules(rule or [], game_of(game)))
        if virtual and seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        first = start(setup, seed if virtual else None, settings)
    interactive = sys.stdin.isatty()
    if interactive:
        # The engine loads while the player reads the table, not on the first hint's clock.
        from solver.parallel.workers import IMPORTING  # (a pool forked meanwhile waits for it)

        threading.Thread(target=warm_engine, kwargs={"notice": False}, daemon=True, name=IMPORTING).start()
    console = render.console()
    reader = terminal_reader(console) if interactive else stream_reader(sys.stdin, console)
    run_session(reader, console, first, interactive=interactive)


def _rules(given: list[str], g: Game) -> Rules:
    """--rule NAME=VALUE, each read as a position's "rules" key reads (true/false, a whole number)."""
    from solver.core.position import PositionError, parse_rules

    raw: dict[str, object] = {}
    for item in given:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            fail(f"--rule: {item!r} is not NAME=VALUE, e.g. top_card_visible=true")
        text = value.strip().lower()
        # A signed whole number is read as one, so that -1 is told it is too small, not a string.
        whole = text.lstrip("+-").isdigit() and text.count("-") + text.count("+") <= 1
        raw[name.strip()] = True if text == "true" else False if text == "false" else int(text) if whole else text
    try:
        rules = parse_rules(raw)
    except PositionError as e:
        fail(f"--rule: {e}")
    refused = rules.refused(g)
    if refused:
        fail(f"--rule {refused}")
    return rules


def _resumed(path: str, session: Session) -> Note:
    from solver.play.companion import Note, where_it_stands

    return Note("info", f"resumed {path}: {where_it_stands(session.table, len(session.game.steps))}")
