"""Does a round start's card composition tell more of the game's outcome than the evaluator's cell?
(issue 23)

    lobo-hint simulate --policy hint --games 3000 --seed 5151 --jobs 2 --games-out GAMES.jsonl
    python bench/round_starts.py GAMES.jsonl [--folds 5]

Beyond the exact horizon the search values the end of a round by the evaluator's table
(solver/search/evaluator.py), which knows the next deal by its cell only: cards in the pile, active
members, reserve cards. If the cards themselves (which values the reserve holds, which are left
unseen) told more about winning the game, a richer evaluator could play better. This takes every
vanguard deal of the recorded games whose next round is not surely final (the cells the table
values), and compares, by cross-validated log loss on whether the game was won:

  * the share of games won alone (a constant: what no information gives);
  * the cell's value alone, recalibrated (a logistic fit of its logit);
  * the same plus the composition: the reserve's size, its sum and its cards of 3 or less; the mean
    unseen value, the shares of unseen cards of 3 or less, of 9s and of aces.

A composition worth an evaluator lowers the held-out loss clearly (by more than its fold-to-fold
noise, printed too).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.play.driver import DEAL
from solver.play.game_files import GameFileError, read_games
from solver.search import evaluator

FEATURES = (
    "reserve cards", "reserve sum", "reserve cards <= 3", "mean unseen value",
    "unseen share <= 3", "unseen share of 9s", "unseen share of aces",
)  # fmt: skip


def rows(path: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(won, the cell's value, the composition features) for every deal beyond the horizon."""
    values = evaluator.table()
    won, cell, comp = [], [], []
    for g in read_games(path):
        if isinstance(g, GameFileError):
            raise g
        setup = g.game.tables[0].setup
        if setup.game != "vanguard":
            continue
        top, hand, threshold = setup.top, setup.rules.hand_size, setup.rules.final_threshold
        result = g.game.table.result == "won"
        for t in g.game.tables:
            if t.phase != DEAL or t.rounds == 0 or t.pile_size <= 2 * hand + threshold:
                continue
            unseen = np.array(t.unseen[:top], float)
            share = unseen / unseen.sum()
            res = t.reserve
            won.append(result)
            cell.append(values[evaluator.vanguard_index(top, t.pile_size, len(t.party), len(res))])
            comp.append([
                len(res), sum(res), sum(1 for v in res if v <= 3), float(share @ np.arange(1, top + 1)),
                float(share[:3].sum()), float(share[8]) if top >= 9 else 0.0, float(share[0]),
            ])  # fmt: skip
    return np.array(won, float), np.array(cell, float), np.array(comp, float)


def fit(z: np.ndarray, y: np.ndarray, ridge: float = 1.0) -> np.ndarray:
    """Logistic regression by Newton's method, a small ridge on every weight but the intercept."""
    a = np.hstack([np.ones((len(z), 1)), z])
    w = np.zeros(a.shape[1])
    pen = np.diag(np.r_[0.0, np.full(a.shape[1] - 1, ridge)])
    for _ in range(50):
        p = 1 / (1 + np.exp(-a @ w))
        step = np.linalg.solve((a * (p * (1 - p))[:, None]).T @ a + pen, a.T @ (p - y) + pen @ w)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def predict(w: np.ndarray, z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1 / (1 + np.exp(-(np.hstack([np.ones((len(z), 1)), z]) @ w)))
    return out


def log_loss(y: np.ndarray, p: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def held_out(z: np.ndarray, y: np.ndarray, folds: int) -> list[float]:
    """Each fold's log loss under a model fitted on the other folds (the same folds for every z)."""
    order = np.random.default_rng(0).permutation(len(y))
    out = []
    for test in np.array_split(order, folds):
        train = np.setdiff1d(order, test)
        out.append(log_loss(y[test], predict(fit(z[train], y[train]), z[test])))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", help="games recorded by simulate --games-out")
    ap.add_argument("--folds", type=int, default=5)
    args = ap.parse_args()
    try:
        y, cell, comp = rows(args.games)
    except GameFileError as e:
        print(f"round_starts: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    if len(y) < 10 * args.folds:
        print(f"round_starts: {len(y)} deals beyond the horizon: too few to compare", file=sys.stderr)
        raise SystemExit(2)
    p = np.clip(cell, 1e-4, 1 - 1e-4)
    base = np.log(p / (1 - p))[:, None]
    rich = np.hstack([base, (comp - comp.mean(0)) / (comp.std(0) + 1e-9)])
    none = held_out(np.zeros((len(y), 0)), y, args.folds)
    a, b = held_out(base, y, args.folds), held_out(rich, y, args.folds)
    diff = np.array(b) - np.array(a)
    print(f"{len(y)} deals beyond the horizon; the table says {cell.mean():.3f} on average, {y.mean():.3f} won")
    print(f"log loss: the table as it is {log_loss(y, cell):.5f}")
    print(
        f"held out ({args.folds} folds): the won share alone {np.mean(none):.5f}, the cell alone {np.mean(a):.5f}, with the composition {np.mean(b):.5f}"
    )
    print(f"  difference {diff.mean():+.5f} (folds from {diff.min():+.5f} to {diff.max():+.5f})")
    w = fit(rich, y)
    print("weights (standardised): cell logit " + f"{w[1]:+.3f}, " + ", ".join(
        f"{n} {x:+.3f}" for n, x in zip(FEATURES, w[2:], strict=True)
    ))  # fmt: skip


if __name__ == "__main__":
    main()
