"""The hint's answers under state budgets, recorded on seeded positions and compared between two
checkouts: a refactoring that must not change behaviour (issue 22) is checked with it.

    python bench/same_answers.py record OUT.jsonl [--count 200] [--max-states 3000] [--samples 8]
    python bench/same_answers.py compare BEFORE.jsonl AFTER.jsonl

record: `--count` positions of each kind (random rounds of both games under every objective, small
rounds whose whole game is within the exact horizon, round starts far from the end, whose values are
estimates), each answered by `hint` with a state budget and a sample budget and no time limit, so
the answer is the same every run. Timing fields are dropped. compare: the positions whose answers
differ, and a count.

Run `record` in each checkout (PYTHONPATH pointing at it) and `compare` the two files.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gen import random_game_position, random_position  # noqa: E402
from solver.core.position import PositionError, parse_position  # noqa: E402
from solver.search.hint import hint  # noqa: E402

TIMING = {"seconds", "elapsed", "time", "wall", "cpu", "rate", "states_per_second"}


def positions(count: int) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for i in range(count):
        rng = random.Random(f"same-{i}")
        out.append((f"random-{i}", random_position(rng, max_pile=14)))
        out.append((f"random-game-{i}", random_position(random.Random(f"same-game-{i}"), max_pile=20, objective=False)))
        out.append((f"horizon-{i}", random_game_position(random.Random(f"same-horizon-{i}"))))
    for i in range(count // 10):
        rng = random.Random(f"same-start-{i}")
        game = "lobo" if i % 3 == 0 else "vanguard"
        deck = [v for v in range(1, 10) for _ in range(5 if game == "lobo" else 4)]
        rng.shuffle(deck)
        out.append((f"start-{i}", {"game": game, "difficulty": "standard", "player": deck[:4], "wolf": deck[4:8]}))
    return out


def _scrub(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _scrub(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [_scrub(v) for v in x]
    if isinstance(x, float):
        return round(x, 12)
    return x


def record(args: argparse.Namespace) -> None:
    with open(args.out, "w", encoding="utf-8") as f:
        for name, raw in positions(args.count):
            try:
                pos = parse_position(raw)
            except PositionError as e:
                f.write(json.dumps({"name": name, "refused": str(e)}) + "\n")
                continue
            h = hint(pos, max_states=args.max_states, samples=args.samples)
            f.write(json.dumps({"name": name, "answer": _scrub(h.to_json())}, sort_keys=True) + "\n")
            f.flush()


def compare(args: argparse.Namespace) -> None:
    def load(p: str) -> dict[str, Any]:
        with open(p, encoding="utf-8") as f:
            return {d["name"]: d for d in map(json.loads, f)}

    a, b = load(args.before), load(args.after)
    differ = [n for n in a if a[n] != b.get(n)]
    for n in differ[:20]:
        print(n, json.dumps(a[n])[:300], "\n   ->", json.dumps(b.get(n))[:300])
    print(f"{len(a)} positions, {len(b)} after; {len(differ)} answers differ")
    sys.exit(1 if differ or len(a) != len(b) else 0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("record")
    r.add_argument("out")
    r.add_argument("--count", type=int, default=200)
    r.add_argument("--max-states", type=int, default=3000)
    r.add_argument("--samples", type=int, default=8)
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    args = ap.parse_args()
    record(args) if args.what == "record" else compare(args)


if __name__ == "__main__":
    main()
