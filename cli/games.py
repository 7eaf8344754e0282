"""Whole-game commands: simulate, replay, report, reward, on this module's Typer app (cli/main.py
adds it to the lobo-hint app); all the work is in solver/."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table as RichTable
from rich.text import Text

from solver.core.cards import DIFFICULTIES
from solver.core.games import GAMES
from solver.core.games import game as game_of
from solver.core.position import load_position
from solver.core.rounds import rewards
from solver.core.status import WON
from solver.parallel import ClusterError
from solver.play.driver import (
    DRAW,
    MAX_SEED,
    PLAY,
    Deal,
    Draw,
    GameError,
    Move,
    Playthrough,
    Reshuffle,
    Setup,
    Take,
    step_text,
)
from solver.play.policies import BEST_RULE, BEST_SAMPLES, GREEDY_RULE
from solver.play.registry import CLAIRVOYANT_RULE, HINT_RULE, POLICIES
from solver.words.board import draw_text
from solver.words.numbers import count_text

from . import render
from .common import (
    JsonOpt,
    LateOut,
    MemoryOpt,
    OutputError,
    PositionArg,
    close_out,
    command_began,
    disk_code,
    emit_json,
    fail,
    input_errors,
    interrupted,
    not_its_number,
    numbers_held,
    positive,
    resume_lock,
    use_memory,
    writable_folder,
)

if TYPE_CHECKING:  # simulate, report and reward import what they need when they run
    from solver.play.reward_values import RewardAdvice
    from solver.play.simulate import GameRecord, SimulationSummary

app = typer.Typer()

GameOpt = Annotated[str, typer.Option("--game", "-g", help="vanguard or lobo")]
DifficultyOpt = Annotated[str, typer.Option("--difficulty", "-d", help="easy, standard or hard")]
GamesOpt = Annotated[int, typer.Option("--games", "-n", help="how many games")]
SeedOpt = Annotated[
    int,
    typer.Option(
        "--seed", "-s", min=0, max=MAX_SEED, help="the same seed deals the same games to every policy (0 or more)"
    ),
]
JobsOpt = Annotated[int | None, typer.Option("--jobs", "-j", help="processes (default: all cores)")]
ClusterOpt = Annotated[str | None, typer.Option("--cluster", help="a Dask scheduler, tcp://HOST:PORT")]
SamplesOpt = Annotated[
    int | None,
    typer.Option(
        "--samples",
        help=f"deals sampled per play: best's pile orders (default {BEST_SAMPLES}); the hint's, where its search "
        "cannot finish (default 1000 with --max-states)",
    ),
]
ThinkOpt = Annotated[
    float | None,
    typer.Option(
        "--think",
        help="the hint policy's seconds a decision (default 0.05 without --max-states); at least 0.5 near the end "
        "of a vanguard round (13 unknown cards or fewer), where the exact search can finish",
    ),
]
MaxStatesOpt = Annotated[
    int | None,
    typer.Option(
        "--max-states",
        help="the hint policy's state budget a decision, instead of a clock: a seeded run then plays the same "
        "games on any machine, under any load (e.g. --max-states 3000 --samples 64); at least 1,000,000 near "
        "the end of a vanguard round (13 unknown cards or fewer)",
    ),
]

POLICY_HELP = (
    "random: uniform over legal plays, never folding while another play exists. "
    + GREEDY_RULE
    + " "
    + BEST_RULE
    + " "
    + HINT_RULE
    + " "
    + CLAIRVOYANT_RULE
)


def _choice(value: str, allowed: tuple[str, ...] | list[str], name: str) -> str:
    if value not in allowed:
        fail(f"{name}: {value!r} is not one of {', '.join(allowed)}")
    return value


def _checks(
    games: int | None,
    jobs: int | None,
    samples: int | None,
    think: float | None = None,
    max_states: int | None = None,
    samples_flag: str = "--samples",
) -> None:
    if think is not None and not 0 < think <= 600:
        fail(f"--think: more than 0 and at most 600 seconds, not {think}")
    if max_states is not None and max_states < 1:
        fail(f"--max-states: must be at least 1, not {max_states}")
    if games is not None and games < 1:
        fail(f"--games: must be at least 1, not {games}")
    if jobs is not None and jobs < 1:
        fail(f"--jobs: must be at least 1, not {jobs}")
    if samples is not None and samples < 1:
        fail(f"{samples_flag}: must be at least 1, not {samples}")


def _unused_budgets(policy: str, samples: int | None, think: float | None, max_states: int | None) -> None:
    """Say on stderr which budgets the policy does not use (a script may pass one set of options to
    every policy: a note, not a refusal)."""
    unused = [name for name, value, users in (("--samples", samples, ("hint", "best")),
                                              ("--think", think, ("hint",)),
                                              ("--max-states", max_states, ("hint",)))
              if value is not None and policy not in users]  # fmt: skip
    if unused:
        typer.echo(f"lobo-hint: --policy {policy} does not use {' or '.join(unused)}: it changes nothing", err=True)


@contextmanager
def _bar(label: str, total: int, enabled: bool) -> Iterator[Callable[[int, str], None]]:
    """done / total, rate, won so far, time left, on stderr when it is a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield lambda _done, _note: None
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        render.RateColumn(),
        TextColumn("{task.fields[note]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total, note="")

        def update(done: int, note: str) -> None:
            bar.update(task, completed=done, note=note)

        yield update


@app.command(
    name="simulate",
    epilog="Example: lobo-hint simulate --game vanguard --difficulty standard --games 2000 --policy best --seed 7 "
    "--games-out games.jsonl",
    help="Play whole games from shuffled decks with a policy and sum them up: win rate (95% Wilson interval), "
    "scores, rounds, party losses, the final round, rewards.\n\nPolicies: " + POLICY_HELP,
)
def simulate_cmd(
    game: GameOpt = "vanguard",
    difficulty: DifficultyOpt = "standard",
    games: GamesOpt = 1000,
    policy: Annotated[
        str, typer.Option("--policy", "-p", help="hint, best, greedy, random or clairvoyant (see above)")
    ] = "best",
    seed: SeedOpt = 1,
    samples: SamplesOpt = None,
    think: ThinkOpt = None,
    max_states: MaxStatesOpt = None,
    jobs: JobsOpt = None,
    cluster: ClusterOpt = None,
    games_out: Annotated[
        str | None, typer.Option("--games-out", help="write every game's full record, one JSON line per game")
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="keep the games already in --games-out (a run cut short, the same options) and play the rest",
        ),
    ] = False,
    max_memory: MemoryOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the numbers as JSON")] = False,
) -> None:
    from solver.core.files import repair_tail
    from solver.play.registry import policy_budget
    from solver.play.run_file import RunFileError, record_line, resumed
    from solver.play.simulate import simulate, summarize

    _choice(game, GAMES, "--game")
    _choice(difficulty, tuple(DIFFICULTIES), "--difficulty")
    _choice(policy, POLICIES, "--policy")
    _checks(games, jobs, samples, think, max_states)
    _unused_budgets(policy, samples, think, max_states)
    use_memory(max_memory)
    setup = Setup(game, difficulty)
    budget = policy_budget(policy, samples, think, max_states)
    before: list[GameRecord] = []
    held = None  # the lock on a file resumed: one run appends to it at a time
    if resume:
        if games_out is None:
            fail("--resume needs --games-out (the file whose games are kept)")
        held = resume_lock(games_out, "--games-out")
        try:
            kept = resumed(games_out, setup, policy, seed, budget)
            repair_tail(games_out)  # a torn last line, so that the games appended start clean
        except RunFileError as e:
            fail(f"--games-out: {e}")
        except OSError as e:
            fail(f"--games-out: cannot write {games_out}: {e.strerror or e}", code=disk_code(e))
        before = kept[:games]
        if len(kept) > games:
            typer.echo(f"lobo-hint: {games_out} holds {len(kept)} games: the first {games} are summed", err=True)
    sink = None if games_out is None else LateOut(games_out, "--games-out", append=resume)
    won, done = sum(r.won for r in before), len(before)
    t0 = time.perf_counter()
    try:
        with _bar(f"{game} {difficulty} {policy}", games, not as_json) as update:
            if before:
                update(done, f"won {won} ({done} games from {games_out})")

            def on_record(r: GameRecord) -> None:
                nonlocal won, done
                won += r.won
                done += 1
                if sink is not None:
                    sink.write(record_line(r, budget))
                update(r.index + 1, f"won {won}")

            records = before + simulate(
                setup,
                policy,
                games,
                seed,
                samples=samples,
                workers=jobs,
                cluster=cluster,
                on_record=on_record,
                think=think,
                max_states=max_states,
                first=len(before),
            )
    except KeyboardInterrupt:
        interrupted("" if sink is None else sink.said(done))
    except OutputError as e:
        if sink is not None:
            sink.close()
        fail(f"{e}; the games before are in it (rerun with --resume when there is room)", code=1)
    except (OSError, RuntimeError) as e:  # a Dask scheduler that cannot be reached, or is missing
        fail(_cluster_said(e, cluster))
    finally:
        if sink is not None:
            sink.close()
        close_out(held)
    summary = summarize(records, time.perf_counter() - t0, resumed=len(before))
    if as_json:
        emit_json({**summary.to_json(), "seed": seed, **budget})
    else:
        render.console().print(summary_view(summary, seed, budget))
        if before:
            render.console().print(
                f"{len(before)} of the {len(records)} games read from {games_out} (--resume)", soft_wrap=True
            )


def summary_view(s: SimulationSummary, seed: int, budget: dict[str, Any] | None = None) -> Group:
    js = s.to_json()
    t = RichTable(title=f"{s.setup.game}, {s.setup.difficulty}, policy {s.policy}: {s.games} games, seed {seed}")
    t.add_column("")
    t.add_column("", justify="right")
    lo, hi = s.interval
    t.add_row("won", f"{s.wins} ({100 * s.win_rate:.1f}%, 95% interval {100 * lo:.1f}% – {100 * hi:.1f}%)")
    sc = js["score"]
    g = game_of(s.setup.game)
    what = "your points at the end" if g.is_race else "score (won games)"
    if sc["mean"] is not None:
        t.add_row(what, f"mean {sc['mean']:.1f}, quartiles {sc['q1']:g} / {sc['median']:g} / {sc['q3']:g}")
    else:
        t.add_row(what, "—")
    r = js["rounds"]
    t.add_row("rounds per game", f"mean {r['mean']:.2f}, quartiles {r['q1']:g} / {r['median']:g} / {r['q3']:g}")
    if g.has_party:
        t.add_row("party members lost", f"mean {js['members_lost']['mean']:.2f}")
    if g.has_final_round:
        t.add_row("final round reached", f"{s.final_reached} ({100 * js['final_round_reached_rate']:.1f}%)")
    if g.has_rewards:
        total = sum(s.rewards.values())
        taken = ", ".join(
            f"{k} {100 * v / total:.0f}%" for k, v in sorted(s.rewards.items(), key=lambda kv: (-kv[1], kv[0]))
        )
        t.add_row("rewards taken", f"{total}: {taken}" if total else "—")
    if js["games_per_second"]:
        t.add_row("speed", f"{js['games_per_second']:.1f} games/s ({js['seconds']:.1f} s)")
    said = [
        f"{k.replace('_', ' ')} {v:g}{' s' if k == 'think' else ''}" for k, v in (budget or {}).items() if v is not None
    ]
    if said:  # (found by a review: only --json said the budget the games were played with)
        t.add_row("budget", ", ".join(said) + (" a decision" if "think" in (budget or {}) else ""))
    return Group(t)


@app.command(epilog="Example: lobo-hint replay games.jsonl --game 17")
@input_errors
def replay(
    path: Annotated[
        str,
        typer.Argument(
            metavar="GAMES.jsonl",
            help="a file written by simulate --games-out, a save of play, or a game as {setup, steps}",
        ),
    ],
    game: Annotated[
        int | None,
        typer.Option(
            "--game",
            help='the game to replay in a file of many: its number (its "game" key). A file of one game needs '
            "none; if given, it must be that game's own number (a save or a {setup, steps} game has none)",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Replay one recorded game step by step, every card and play checked.

    Every card is checked against the seeded deck (of a record, or of a save of a virtual game)
    and every play against the rules; the game is shown round by round."""
    from solver.play.game_files import GameFileError, game_from_json, read_raw

    try:
        where, raw = _pick(path, read_raw(path), game)
    except GameFileError as e:  # a file that cannot be read at all
        fail(str(e))
    number = _number(raw)
    try:
        played = game_from_json(raw, where)
    except GameFileError as e:
        fail(
            f"{where}: game {number} does not replay: {e.fault}" if number is not None and not e.other_kind else str(e)
        )
    if game is not None and game != number:  # a file of one game, another number asked for
        fail(not_its_number(path, game, number))
    g = played.game
    setup = g.tables[0].setup
    if number is not None:
        title = f"Game {number} of seed {raw['seed']}: {setup.game}, {setup.difficulty}, policy {played.policy or ''}"
    else:
        title = f"{where}: {setup.game}, {setup.difficulty}"
    if as_json:
        emit_json({"replayed": True, "game": number, "result": g.table.result, "score": g.table.score,
                   "steps": len(g.steps), "record": raw})  # fmt: skip
    else:
        seeded = isinstance(raw, dict) and raw.get("seed") is not None  # a record, or a save of a virtual game
        # Each line whole, for grep (a review: the verdict wrapped at 80 columns when piped).
        render.console().print(game_view(g, title, seeded), soft_wrap=True)


def _number(raw: Any) -> int | None:
    """A record's "game", when it is a whole number."""
    n = raw.get("game") if isinstance(raw, dict) else None
    return n if isinstance(n, int) and not isinstance(n, bool) else None


def _pick(path: str, found: Iterator[Any], game: int | None) -> tuple[str, Any]:
    """The (where, JSON) of the game asked for: the only one of a file of one game, or the first
    whose "game" is `game`. Anything else is one line saying which games the file holds. The file
    is read a value at a time: only the game picked is kept."""
    from solver.play.game_files import GameFileError

    count, first, match, unread = 0, None, None, []
    held: list[int] = []
    for entry in found:
        count += 1
        if isinstance(entry, GameFileError):
            unread.append(entry)
        elif count == 1:
            first = entry
        if not isinstance(entry, GameFileError) and (number := _number(entry[1])) is not None:
            held.append(number)
        if match is None and not isinstance(entry, GameFileError) and game is not None and _number(entry[1]) == game:
            match = entry
    if count == 0:
        fail(f"{path}: no game in this file: it is empty")
    if count == 1:
        if first is None:
            fail(str(unread[0]))
        where, raw = first
        own = _number(raw)
        if game is not None and own is not None and game != own:
            fail(not_its_number(path, game, own))
        return where, raw  # one with no number is replayed first: its faults are said before --game's
    if game is None:
        unreadable = f" and {count_text(len(unread), 'line')} that cannot be read ({unread[0]})" if unread else ""
        fail(
            f"{path}: {count_text(count - len(unread), 'game')} in this file{unreadable}: "
            'name one with --game N (its "game" key)'
        )
    if match is not None:
        where, raw = match
        return where, raw
    said = f" ({count_text(len(unread), 'line')} could not be read; the first: {unread[0]})" if unread else ""
    fail(f"{path}: no game {game} in this file{numbers_held(sorted(held))}{said}")


def game_view(g: Playthrough, title: str, seeded: bool = True) -> Group:
    lines: list[Text | RichTable] = [Text(title, style="bold")]
    setup = g.tables[0].setup
    rules = game_of(setup.game)
    for step, before, after in zip(g.steps, g.tables[:-1], g.tables[1:], strict=True):
        if isinstance(step, Deal):
            final = " — the final round" if after.final_reached and not before.final_reached else ""
            lines.append(
                Text(
                    f"Round {after.rounds}: pile {before.pile_size} → {before.pile_size - len(step.player) - len(step.wolf)}{final}",
                    style="bold",
                )
            )
            lines.append(Text(f"  dealt: you {_cards(step.player)}, Wolf {_cards(step.wolf)}"))
        elif isinstance(step, Move):
            reserve = f" reserve {_cards(before.reserve)}" if rules.has_reserve else ""
            lines.append(Text(f"  you {_cards(before.hand)}{reserve} | Wolf {_cards(before.wolf)}:  {step_text(step)}"))
        elif isinstance(step, Draw):
            who, _ = before.owed()
            lines.append(
                Text(
                    f"    {draw_text(who, step.cards) if who in ('player', 'wolf') else 'revealed: ' + _cards(step.cards)}"
                )
            )
        elif isinstance(step, Take):
            lines.append(Text(f"  reward: {step.reward}"))  # the round's end, just above, said it was won
        elif isinstance(step, Reshuffle):
            lines.append(Text("  reshuffle: the discards go back into the pile"))
        if before.phase in (PLAY, DRAW) and after.phase not in (PLAY, DRAW) and after.round is not None:
            lines.append(Text(_round_end(after), style="dim"))
    end = g.table
    if end.over:
        verdict = f"Game {end.result}" + (f", score {end.score}" if end.score is not None and end.result == WON else "")
    else:
        verdict = "The game goes on"  # a save of a game not finished
    if rules.is_race:
        verdict += f" — points: you {end.points[0]}, Wolf {end.points[1]}"
    lines.append(
        Text(
            verdict
            + f" ({len(g.steps)} steps replayed, "
            # Without a seeded deck a card can only be one the deck still holds (a review: "every
            # card checked" of a game that has no deck to check it against).
            + ("every card and play checked)" if seeded else "every play checked, and every card as one still unseen)"),
            style="bold" if not end.over else "bold green" if end.result == WON else "bold red",
        )
    )
    return Group(*lines)


def _round_end(t: Any) -> str:
    s = t.round
    if game_of(s.game).is_race:
        return f"  round {'won' if s.outcome == WON else 'lost'}: points you {t.points[0]}, Wolf {t.points[1]}"
    if s.outcome == WON:
        return f"  round won with {_cards(s.hand)}" + (" (the final round)" if s.final else "")
    return f"  round lost, the Wolf keeps {_cards(s.wolf)}; party now {' '.join(t.party) or 'none'}"


def _cluster_said(e: Exception, cluster: str | None) -> str:
    """A failure of the run in one line, named --cluster's when a cluster was asked for (a
    ClusterError names it already)."""
    return f"--cluster: {e}" if cluster and not isinstance(e, ClusterError) else str(e)


def _cards(values: tuple[int, ...]) -> str:
    return " ".join(map(str, values)) if values else "—"


@app.command(epilog="Example: lobo-hint report --games 2000 -o report/   (then open report/report.md)")
def report(
    out: Annotated[str, typer.Option("--out", "-o", help="folder for report.md and the PNG plots")],
    games: GamesOpt = 1000,
    seed: SeedOpt = 1,
    game: Annotated[str, typer.Option("--game", "-g", help="vanguard, lobo or both")] = "both",
    samples: SamplesOpt = None,
    think: ThinkOpt = None,
    max_states: MaxStatesOpt = None,
    jobs: JobsOpt = None,
    cluster: ClusterOpt = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume", help="keep the games already in --out's games/ (a report cut short, the same options)"
        ),
    ] = False,
    max_memory: MemoryOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the numbers as JSON")] = False,
) -> None:
    """Simulate every difficulty × policy on the same deals; write report.md with tables and plots.

    Policies hint, best, greedy, random and clairvoyant; plots of win rates with intervals, score histograms and
    party survival by round. Every game's record is kept in --out's games/ folder as it ends, so a report cut
    short goes on with --resume."""
    from solver.play.report import build_report
    from solver.play.run_file import RunFileError

    _choice(game, [*GAMES, "both"], "--game")
    _checks(games, jobs, samples, think, max_states)
    use_memory(max_memory)
    folder = writable_folder(out, "--out")
    names = GAMES if game == "both" else (game,)
    total = len(names) * len(DIFFICULTIES) * len(POLICIES) * games
    done_by: dict[str, int] = {}
    with _bar("report", total, not as_json) as update:

        def progress(label: str, done: int, _n: int) -> None:
            done_by[label] = done
            update(sum(done_by.values()), label)

        try:
            result = build_report(folder, games, seed, game_names=names, samples=samples, workers=jobs,
                                  cluster=cluster, progress=progress, think=think, max_states=max_states,
                                  resume=resume)  # fmt: skip
        except KeyboardInterrupt:
            interrupted(f"; the finished games are in {folder / 'games'} (rerun with --resume to play the rest)")
        except RunFileError as e:
            fail(f"--resume: {e}")
        except OSError as e:
            if e.filename is None and disk_code(e) == 2:
                fail(_cluster_said(e, cluster))
            where = f"cannot write {e.filename}" if e.filename else "cannot write"
            room = "; rerun with --resume when there is room" if disk_code(e) == 1 else ""
            fail(f"--out: {where}: {e.strerror or e}{room}", code=disk_code(e))
        except RuntimeError as e:
            fail(_cluster_said(e, cluster))
    if as_json:
        emit_json(result.to_json())
        return
    out_console = render.console()
    width = max((len(s.policy) for s in result.summaries), default=6)  # clairvoyant is 11 letters
    for s in result.summaries:
        lo, hi = s.interval
        out_console.print(
            f"{s.setup.game:8} {s.setup.difficulty:8} {s.policy:{width}}  won {100 * s.win_rate:5.1f}% "
            f"(95%: {100 * lo:.1f}–{100 * hi:.1f}%)"
        )
    out_console.print(
        f"wrote {', '.join(str(f) for f in result.files)}; every game's record in {folder / 'games'}", soft_wrap=True
    )


@app.command(
    epilog="Examples: lobo-hint reward won.json; lobo-hint reward won.json --policy best --samples 400 --jobs 2"
)
@input_errors
def reward(
    path: PositionArg,
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            "-n",
            help="game: next rounds played out per reward where they are (default 1000, as the hint); "
            "a simulator policy: continuations per reward (default 200)",
        ),
    ] = None,
    policy: Annotated[
        str,
        typer.Option(
            "--policy",
            "-p",
            help="game: rank by the game values the hint uses (exact near the end, else the next round played out); "
            "or play continuations out with a simulator policy: hint, best, greedy, random",
        ),
    ] = "game",
    budget: Annotated[int | None, typer.Option("--budget", help="best's samples per move in the continuations")] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            "-s",
            min=0,
            max=MAX_SEED,
            help="the deals' seed (default: game 0, the hint's own deals; a simulator policy 1)",
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", help="processes for a simulator policy's continuations (default: all cores)"),
    ] = None,
    cluster: ClusterOpt = None,
    max_memory: MemoryOpt = None,
    as_json: JsonOpt = False,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            "-t",
            help="seconds for the game values: a next final deal too big to enumerate by then is sampled (exact: false)",
        ),
    ] = 2.0,
) -> None:
    """Rank the rewards after a won round by the chance to win the game.

    The position has "phase": "reward". By default each reward is valued as the hint values the end
    of a round (exact where the next deal is surely the final round); with a simulator --policy,
    continuations are played out on the same deals for every reward, and the answer says when a
    difference is not significant."""
    from solver.play.reward import CONTINUATIONS, CONTINUED, GAME_VALUES, advise_reward

    began = command_began()
    positive(time_limit, "--time-limit")
    if policy == "clairvoyant":  # (found by a review: refused without the reason)
        fail("--policy: clairvoyant sees the pile, so its win rates are no player's chances: one of "
             f"{', '.join((GAME_VALUES, *CONTINUED))}")  # fmt: skip
    _choice(policy, (GAME_VALUES, *CONTINUED), "--policy")
    _checks(None, jobs, budget, samples_flag="--budget")  # best's samples a move, in the continuations
    use_memory(max_memory)
    if samples is not None and samples < 2:
        fail(f"--samples: at least 2, not {samples}")
    if policy == GAME_VALUES and (budget is not None or cluster is not None):
        fail(f"{'--budget' if budget is not None else '--cluster'}: only for a simulator --policy's continuations")
    if policy == GAME_VALUES and jobs is not None:  # a note, as simulate's (found by a review: silent)
        typer.echo(f"lobo-hint: --policy {GAME_VALUES} does not use --jobs: it changes nothing", err=True)
    pos = load_position(path, allow_reward=True)
    if not game_of(pos.game).has_rewards:
        fail(f"{path}: {pos.game} has no rewards: a won round's reward is vanguard's")
    if pos.phase != "reward":
        fail(
            f'{path}: not a reward position: add "phase": "reward" (the round was just won; the Wolf\'s hand is empty)'
        )
    if pos.objective != "game":  # found by a review: "party" was read and ignored
        fail(f"{path}: objective: {pos.objective!r}: rewards are ranked by the chance to win the game (game)")
    offered = len(rewards(pos.player, pos.party))
    continued = CONTINUATIONS if samples is None else samples
    with _bar("continuations", max(1, offered * continued), not as_json and policy != GAME_VALUES) as update:
        try:
            advice = advise_reward(pos, policy=policy, samples=continued, seed=seed, budget=budget, workers=jobs,
                                   cluster=cluster, progress=lambda d, _t: update(d, ""),
                                   deadline=began + time_limit, played_out=samples)  # fmt: skip
        except GameError as e:
            fail(f"{path}: {e}")
        except (OSError, RuntimeError) as e:
            fail(_cluster_said(e, cluster))
    if as_json:
        emit_json(advice.to_json())
    else:
        out = render.console()
        out.print(render.position_panel(pos, title=f"{path}: reward to choose"))
        out.print(advice_view(advice))


def advice_view(a: RewardAdvice) -> Group:
    from solver.words.hint import reward_texts  # loads the search: only for advice

    t = RichTable(title=f"Rewards by chance to win the game ({a.made_by()})", title_justify="left")
    t.add_column("Reward", style="bold")
    t.add_column("Win", justify="right")
    t.add_column("95% interval", justify="right")
    t.add_column("vs best (paired, 95%)", justify="right")
    t.add_column("")
    for i, v in enumerate(a.ranked):
        best_exact = bool(a.ranked[0].exact)
        exact = bool(v.exact) and best_exact  # exact values: no interval, no chance
        win, interval, vs = reward_texts(
            i == 0, bool(v.exact), best_exact, v.win_rate, v.interval, v.difference, v.difference_interval
        )
        mark = (
            "[green]best[/green]" if i == 0
            else "worse" if v.significant
            else "[green]as good[/green]" if exact
            else "[yellow]not significantly worse[/yellow]"
        )  # fmt: skip
        t.add_row(escape(str(v.reward)), win, interval, vs, mark)
    return Group(Text(a.verdict(), style="bold"), t)
