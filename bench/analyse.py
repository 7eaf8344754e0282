"""What `lobo-hint analyse` says of players of known strength, and what it costs (issue 25).

    python bench/analyse.py [--games 10] [--seed 31] [--policies hint,greedy,random]
                            [--time-limit 2 | --max-states 3000 --samples 64] [--jobs 2]

Plays the same seeded deals with each policy (the hint policy at its simulator defaults), then
analyses every game at the given budget, and prints per policy: games won, the mean loss a game
and a decision (error rate), the marks a game, the lowest single loss (never much below 0 if the
losses are honest), the mean luck, and the analysis's wall time a game. A sound analysis ranks
the policies as their win rates do, and gives the hint policy's own games next to no loss.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.play.analysis import Analysis, DecisionBudget, PlayedGame, analyse_games
from solver.play.driver import Setup
from solver.play.simulate import replay_record, simulate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--game", default="vanguard")
    ap.add_argument("--policies", default="hint,greedy,random")
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--max-states", type=int, default=None)
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args()
    limit = args.time_limit if args.time_limit is not None or args.max_states is not None else 2.0
    budget = DecisionBudget(limit, args.max_states, args.samples)
    setup = Setup(args.game, "standard")
    print(f"{args.games} {args.game} games a policy, seed {args.seed}; analysed at {budget.to_json()}")
    print("policy    won  loss/game  loss/decision  marks/game  lowest loss  luck/game  seconds/game")
    for policy in args.policies.split(","):
        records = simulate(setup, policy, args.games, args.seed, workers=args.jobs)
        done: list[Analysis] = []
        t0 = time.perf_counter()
        games = [PlayedGame(replay_record(r), f"game {r.index}", r.index, policy) for r in records]
        analyse_games(games, budget, workers=args.jobs, on_analysis=done.append)
        seconds = (time.perf_counter() - t0) / len(done)
        decisions = [d for a in done for d in a.decisions]
        print(
            f"{policy:8} {sum(r.won for r in records):4}  {mean(a.total_loss for a in done):9.1f}"
            f"  {mean(d.loss for d in decisions):13.2f}  {mean(sum(a.marks().values()) for a in done):10.1f}"
            f"  {min(d.loss for d in decisions):11.2f}  {mean(a.total_luck for a in done):+9.1f}  {seconds:12.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
