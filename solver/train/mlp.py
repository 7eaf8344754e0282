"""Fitting a small network: two rectified hidden layers and a logistic output per head, by Adam on
minibatches, each head's cross-entropy against soft targets (probabilities) where it has one.

numpy only: the networks here have some ten thousand weights and a few hundred thousand samples,
which a core fits in minutes; nothing in the runtime needs more than the flat array it ends in
(solver/search/network.py's layout, which `flat` writes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.search import network

Array = Any  # numpy arrays


@dataclass
class Fit:
    weights: list[Array]  # W1, b1, W2, b2, W3, b3
    rmse: list[float]  # per head, on the held-out samples
    epochs: int


def _init(inputs: int, a: int, b: int, heads: int, rng: np.random.Generator) -> list[Array]:
    return [
        rng.normal(0.0, np.sqrt(2.0 / inputs), (inputs, a)),
        np.zeros(a),
        rng.normal(0.0, np.sqrt(2.0 / a), (a, b)),
        np.zeros(b),
        rng.normal(0.0, np.sqrt(1.0 / b), (b, heads)),
        np.zeros(heads),
    ]


def _forward(p: list[Array], x: Array) -> tuple[Array, tuple[Array, ...]]:
    w1, b1, w2, b2, w3, b3 = p
    a1 = x @ w1 + b1
    h1 = np.maximum(a1, 0.0)
    a2 = h1 @ w2 + b2
    h2 = np.maximum(a2, 0.0)
    return h2 @ w3 + b3, (x, a1, h1, a2, h2)


def predict(p: list[Array], x: Array) -> Array:
    """Every head's probability for every row of x (rows × heads)."""
    z, _ = _forward(p, x)
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))


def rmse(p: list[Array], x: Array, y: Array, mask: Array) -> list[float]:
    """Per head, the root mean squared error against the targets it has."""
    err = (predict(p, x) - y) ** 2
    return [float(np.sqrt(err[mask[:, h], h].mean())) if mask[:, h].any() else float("nan") for h in range(y.shape[1])]


def fit(
    x: Array,
    y: Array,
    mask: Array,
    *,
    hidden: tuple[int, int] = (64, 32),
    epochs: int = 20,
    rate: float = 2e-3,
    batch: int = 512,
    held_out: Array | None = None,
    seed: int = 0,
    l2: float = 1e-6,
) -> Fit:
    """Fit rows x (samples × features) to targets y (samples × heads, probabilities) where mask is
    True. held_out: a boolean row mask kept out of the fit and used to pick the best epoch (the
    learning rate follows a cosine from `rate` to 0)."""
    rng = np.random.default_rng(seed)
    n, inputs = x.shape
    heads = y.shape[1]
    test = np.zeros(n, bool) if held_out is None else held_out
    train = np.flatnonzero(~test)
    p = _init(inputs, hidden[0], hidden[1], heads, rng)
    m1 = [np.zeros_like(a) for a in p]
    m2 = [np.zeros_like(a) for a in p]
    step = 0
    best: tuple[float, list[Array], list[float], int] = (np.inf, [a.copy() for a in p], [], 0)
    w = mask.astype(np.float64)
    for epoch in range(epochs):
        rng.shuffle(train)
        lr = rate * 0.5 * (1.0 + np.cos(np.pi * epoch / epochs))
        for s in range(0, len(train), batch):
            rows = train[s : s + batch]
            z, (x0, a1, h1, a2, h2) = _forward(p, x[rows])
            prob = 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))
            wb = w[rows]
            g = (prob - y[rows]) * wb / max(1.0, wb.sum())  # the cross-entropy's gradient at the logits
            d2 = (g @ p[4].T) * (a2 > 0)
            d1 = (d2 @ p[2].T) * (a1 > 0)
            grads = [x0.T @ d1 + l2 * p[0], d1.sum(0), h1.T @ d2 + l2 * p[2], d2.sum(0), h2.T @ g + l2 * p[4], g.sum(0)]
            step += 1
            for i, gi in enumerate(grads):
                m1[i] = 0.9 * m1[i] + 0.1 * gi
                m2[i] = 0.999 * m2[i] + 0.001 * gi * gi
                p[i] -= lr * (m1[i] / (1 - 0.9**step)) / (np.sqrt(m2[i] / (1 - 0.999**step)) + 1e-8)
        if test.any():
            errors = rmse(p, x[test], y[test], mask[test])
            score = float(np.nanmean(errors))
        else:
            errors, score = [], -float(epoch)
        if score < best[0]:
            best = (score, [a.copy() for a in p], errors, epoch + 1)
    return Fit(best[1], best[2], best[3])


def flat(weights: list[Array]) -> list[float]:
    """The weights in network.py's order (after its header): W1 row by row, b1, W2, b2, W3, b3."""
    out: list[float] = []
    for a in weights:
        out += [float(v) for v in np.asarray(a, np.float64).ravel()]
    return out


def sizes(weights: list[Array]) -> list[int]:
    """network.py's header: inputs, hidden sizes, heads."""
    w1, _, w2, _, w3, _ = weights
    return [int(w1.shape[0]), int(w1.shape[1]), int(w2.shape[1]), int(w3.shape[1])]


def to_array(weights: list[Array]) -> Array:
    """The network as network.evaluate reads it."""
    out = np.array([float(s) for s in sizes(weights)] + flat(weights), np.float64)
    assert len(out) == network.size(*sizes(weights))
    return out


__all__ = ["Fit", "fit", "flat", "predict", "rmse", "sizes", "to_array"]
