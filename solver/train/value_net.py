"""Training the value networks (solver/search/value_net.py reads them; data/value_net.json):

    python -m solver.train.value_net [--difficulties easy,standard,hard] [--games 4000] [--seed 1001]
        [--think 0.05 | --max-states 3000 --samples 64] [--iterations 3] [--jobs 2] [--cluster ADDR] [--samples-out F]
    python -m solver.train.value_net --from-samples F [--iterations 3]     (nothing played again)

How (the route of TD-Gammon and expert iteration, for a game with chance between plays):

1. Self-play: whole vanguard games played by the hint policy (solver/play/hint_policy.py, the
   advice a player gets) with the simulator's budgets: `think` seconds a decision, or with
   `--max-states` a state budget under which a seeded run plays the same games on any machine;
   more near the end of a round, as the simulator gives. The same seeded deals as the simulator's. At
   every decision of a regular round, every legal play's state after it (between the play and its
   draw) is a sample, with the hint's value of the play for the game and its chance to win the
   round; the decision's own state is one too, with the best play's. Where the hint's search
   finished those values are exact; elsewhere they are its estimates (the lookahead over the
   networks already shipped, or rollouts where there are none), corrected for their bias.
2. A network (solver/search/network.py: what a player knows, by value; two heads, the game and
   the round) is fitted to them (solver/train/mlp.py), games split 95/5 between fitting and
   checking.
3. Expert iteration, `iterations` times: every sample's targets become the lookahead's values
   over the network just fitted (solver/search/lookahead.py, two plies deep: every draw, every
   play after it, the network beyond; ends of the round valued exactly as the search values them),
   and the network is fitted again. The lookahead is what the hint plays by, so its values are the
   next targets: a step of fitted value iteration, anchored by the exact ends of the round.

The file records, per network, the games, seed, think, iterations, the code's commit and the
held-out error, and the feature layout (value_net.LAYOUT) the search checks on load. Runs on
every core (`--jobs`) or a Dask cluster (`--cluster`), like the simulator.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from solver.core.cards import DIFFICULTIES
from solver.core.games import VANGUARD as VANGUARD_GAME
from solver.core.kernel import OUTCOME, STATE
from solver.core.position import Position
from solver.core.rules import apply, initial_state, vector
from solver.parallel.run import run_parallel
from solver.play.driver import PLAY, Move, SeededDeck, Setup, Take, advance, new_table
from solver.play.hint_policy import THINK, HintPolicy
from solver.play.registry import make_policy
from solver.play.simulate import chunks, policy_rng
from solver.search import network, value_net
from solver.search.engine import Search
from solver.train import mlp
from solver.train.provenance import commit

VANGUARD = VANGUARD_GAME.name
Row = tuple[list[int], float, float | None, bool, int]  # state, game value, round win, exact, game
DEPTH = 2  # plies of the lookahead whose values become the next targets
HELD_OUT = 20  # every 20th game is kept out of the fit, to check it


def decisions(
    difficulty: str,
    seed: int,
    indices: Sequence[int],
    think: float | None,
    max_states: int | None = None,
    samples: int | None = None,
) -> list[Row]:
    """Worker: the samples of some games of the hint policy (step 1), the simulator's own (its
    budgets, more near the end of a round: hint_policy.decision_budgets)."""
    setup = Setup(VANGUARD, difficulty)
    policy = _policy(think, max_states, samples)
    rows: list[Row] = []
    for index in indices:
        table = new_table(setup)
        deck = SeededDeck.for_table(table, seed, index)
        rng = policy_rng(seed, index, policy.name)
        while not table.over:
            step = deck.next_step(table)
            if step is None and table.phase == PLAY and table.round is not None and not table.round.final:
                state = initial_state(table.position())
                answer = policy.answer(table)
                wins = []
                for m in answer.moves:
                    child = apply(state, m.play, check=False)
                    if child.outcome is None and m.value is not None:
                        rows.append((vector(child), m.value, m.win_probability, m.bounds is None, index))
                    if m.win_probability is not None:
                        wins.append(m.win_probability)
                if answer.value is not None:
                    rows.append((vector(state), answer.value, max(wins) if wins else None, answer.exact, index))
                assert answer.best is not None
                step = Move(answer.best)
            elif step is None:
                step = Move(policy.play(table, rng)) if table.phase == PLAY else Take(policy.reward(table, rng))
            table = advance(table, step)
    return rows


def _policy(think: float | None, max_states: int | None, samples: int | None) -> HintPolicy:
    """The hint policy `simulate --policy hint` plays with these budgets."""
    policy = make_policy("hint", samples, think, max_states)
    assert isinstance(policy, HintPolicy)
    return policy


def _played_by(policy: HintPolicy) -> str:
    if policy.max_states is None:
        return f"hint, {policy.think} s a decision"
    at_most = "" if policy.think is None else f", at most {policy.think} s"
    return f"hint, {policy.max_states} states and {policy.samples} samples a decision{at_most}"


def self_play(
    difficulty: str,
    games: int,
    seed: int,
    budgets: tuple[float | None, int | None, int | None],
    jobs: int | None,
    cluster: Any,
) -> list[Row]:
    out: list[Row] = []
    done = [0]
    t0 = time.perf_counter()

    def emit(rows: list[Row]) -> None:
        out.extend(rows)
        done[0] += 1
        print(f"  {difficulty}: {len(out)} samples, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)

    tasks = ((difficulty, seed, idx, *budgets) for idx in chunks(games, jobs or 2))
    run_parallel(decisions, tasks, emit=emit, workers=jobs, cluster=cluster)
    return out


def inputs(states: Any) -> Any:
    """The network's features of every state (rows of the kernel's vector), by network.py itself."""
    from solver.search import compiled

    n = len(states)
    out = np.zeros(n * network.FEATURES, np.float64)
    compiled.network.features_of(np.ascontiguousarray(states, np.int64).ravel(), n, out)
    return out.reshape(n, network.FEATURES)


def targets_of(difficulty: str, states: list[list[int]], net: list[float]) -> list[list[float]]:
    """Worker: each state's value by the lookahead over `net`, DEPTH plies, each head (step 3)."""
    from solver.core.rules import state_of

    top = DIFFICULTIES[difficulty]
    like = initial_state(Position(game=VANGUARD, difficulty=difficulty, player=(1,), wolf=(top,)))
    arr = np.array(net, np.float64)
    part = [state_of(s, like) for s in states]
    out = [[0.0] * network.HEADS for _ in states]
    for head, objective in ((network.GAME_HEAD, "game"), (network.WIN_HEAD, "win")):
        values, _ = Search(like, objective).lookahead(part, DEPTH, arr)
        for row, v in zip(out, values, strict=True):
            row[head] = v
    return out


def lookahead_targets(states: Any, net: Any, difficulty: str, jobs: int | None, cluster: Any) -> Any:
    """targets_of every state, on every core (or the cluster), in chunks."""
    size = 10_000
    tasks = ((difficulty, states[a : a + size].tolist(), net.tolist()) for a in range(0, len(states), size))
    got: list[list[float]] = []
    run_parallel(targets_of, tasks, emit=got.extend, workers=jobs, cluster=cluster, ordered=True)
    return np.array(got, np.float64)


def train(
    rows: list[Row], difficulty: str, iterations: int, seed: int, jobs: int | None = None, cluster: Any = None
) -> tuple[mlp.Fit, list[dict[str, Any]]]:
    states = np.array([r[0] for r in rows], np.int64)
    assert states.shape[1] == STATE and not states[:, OUTCOME].any()
    x = inputs(states)
    y = np.array([[r[1], r[2] if r[2] is not None else 0.0] for r in rows], np.float64).clip(0.0, 1.0)
    mask = np.array([[True, r[2] is not None] for r in rows])
    held = np.array([r[4] % HELD_OUT == 0 for r in rows])
    exact = np.array([r[3] for r in rows])
    first, first_mask = y.copy(), mask.copy()
    steps = []
    fitted = mlp.fit(x, y, mask, held_out=held, seed=seed)
    steps.append({"targets": "the hint's values", "held_out_rmse": fitted.rmse, "epochs": fitted.epochs})
    print(f"  {difficulty}: fitted to the hint's values, held-out RMSE {fitted.rmse}", file=sys.stderr, flush=True)
    for it in range(iterations):
        t0 = time.perf_counter()
        looked = lookahead_targets(states, mlp.to_array(fitted.weights), difficulty, jobs, cluster)
        # Where the hint's search finished, its value stays the target: exact, it anchors the rest.
        y = np.where(exact[:, None] & first_mask & (np.arange(network.HEADS) == network.GAME_HEAD), first, looked)
        mask = np.ones_like(mask)
        fitted = mlp.fit(x, y, mask, held_out=held, seed=seed + it + 1)
        steps.append(
            {"targets": f"lookahead {DEPTH} plies over step {it}", "held_out_rmse": fitted.rmse, "epochs": fitted.epochs,
             "mean_target": [float(v) for v in y.mean(0)]}
        )  # fmt: skip
        print(
            f"  {difficulty}: iteration {it + 1}, targets in {time.perf_counter() - t0:.0f} s, held-out RMSE {fitted.rmse}",
            file=sys.stderr, flush=True,
        )  # fmt: skip
    return fitted, steps


def _existing(path: Path) -> dict[str, Any]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) and value_net.stale(raw.get("stamp")) is None else {}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Train the value networks (solver/search/data/value_net.json).")
    ap.add_argument("--difficulties", default="easy,standard,hard")
    ap.add_argument("--games", type=int, default=4000, help="self-play games a difficulty")
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument(
        "--think", type=float, default=None, help=f"the hint policy's seconds a decision in self-play (default {THINK})"
    )
    ap.add_argument(
        "--max-states", type=int, default=None, help="a state budget a decision instead: the same games on any machine"
    )
    ap.add_argument("--samples", type=int, default=None, help="with --max-states: deals a play for its estimates")
    ap.add_argument("--iterations", type=int, default=3, help="steps of expert iteration after the first fit")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--cluster", default=None, help="a Dask scheduler's address: self-play on the cluster")
    ap.add_argument("--samples-out", default=None, help="keep the self-play samples here (JSON lines)")
    ap.add_argument("--from-samples", default=None, help="train from kept samples instead of playing")
    ap.add_argument("--out", default=str(value_net.DATA))
    args = ap.parse_args(argv)
    for flag, given in (("--think", args.think), ("--max-states", args.max_states), ("--samples", args.samples)):
        if given is not None and given <= 0:
            ap.error(f"{flag}: more than 0, not {given:g}")
    difficulties = args.difficulties.split(",")
    for difficulty in difficulties:
        if difficulty not in DIFFICULTIES:  # before any work: nothing half-written
            ap.error(f"--difficulties: no difficulty {difficulty!r} (one of {', '.join(DIFFICULTIES)})")
    budgets = (args.think, args.max_states, args.samples)
    played_by = _played_by(_policy(*budgets))
    out_path = Path(args.out)
    data = _existing(out_path) or {"networks": {}}
    data["about"] = (
        "solver/search/value_net.py: the value networks by game and difficulty (solver/search/network.py's layout), "
        "trained by solver/train/value_net.py; 'made' says how"
    )
    data["stamp"] = value_net.LAYOUT
    kept: dict[str, list[Row]] = {}
    if args.from_samples:
        try:
            lines = Path(args.from_samples).read_text(encoding="utf-8").splitlines()
        except OSError as e:
            ap.error(f"--from-samples: cannot read {args.from_samples}: {e.strerror}")
        for number, line in enumerate(lines, 1):
            try:
                d, state, v, w, exact, g = json.loads(line)
            except (ValueError, TypeError):  # not JSON, or not a list of six
                ap.error(f"--from-samples: {args.from_samples}, line {number}: not a sample as --samples-out writes it")
            kept.setdefault(d, []).append((state, v, w, exact, g))
    for difficulty in difficulties:
        t0 = time.perf_counter()
        rows = kept.get(difficulty) or self_play(difficulty, args.games, args.seed, budgets, args.jobs, args.cluster)
        if args.samples_out and not args.from_samples:
            with open(args.samples_out, "a", encoding="utf-8") as f:
                for state, v, w, exact, g in rows:
                    f.write(json.dumps([difficulty, state, v, w, exact, g]) + "\n")
        fitted, steps = train(rows, difficulty, args.iterations, args.seed, args.jobs, args.cluster)
        games = len({r[4] for r in rows})
        data["networks"].setdefault(VANGUARD, {})[difficulty] = {
            "sizes": mlp.sizes(fitted.weights),
            "weights": [round(w, 7) for w in mlp.flat(fitted.weights)],
            "made": {
                "policy": played_by,
                "games": games,
                **(
                    {"samples_from": Path(args.from_samples).name, "fit_seed": args.seed}
                    if args.from_samples
                    else {"seed": args.seed}
                ),
                "samples": len(rows),
                "held_out": f"every {HELD_OUT}th game",
                "iterations": args.iterations,
                "lookahead_plies": DEPTH,
                "steps": steps,
                "code": commit(),
                "seconds": round(time.perf_counter() - t0),
            },
        }
        out_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")  # after every difficulty
        print(f"{difficulty}: {len(rows)} samples of {games} games; written to {out_path}", file=sys.stderr)


if __name__ == "__main__":
    main()
