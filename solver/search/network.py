"""The value network: what a round's state is worth for the whole game, learnt from self-play,
written once for both modes like the search (solver/search/compiled.py loads this file a second
time, with the compiled kernel in place of the plain one).

Its input is what a player at the table knows (RULES.md §5), read off the kernel's state vector:
the hand, the reserve and the Wolf's hand by value, the unseen cards by value, the pile's size,
the active party, and the cards a play still owes each side (a state between a play and its
draw). It never sees the order of the pile. Its outputs are probabilities (HEADS of them, each
a logistic of its own last unit): the chance to win the game (objective `game`, head GAME_HEAD)
and the chance to win the round (`win`, head WIN_HEAD), each as lobo-hint's own play from there
reaches it.

A network is one flat float array (its layout, LAYOUT below): a header of its sizes, then the
weights of two hidden layers (rectified) and the output layer, row by row. The lookahead
(solver/search/lookahead.py) values the states at its frontier with it; solver/search/value_net.py
reads the shipped weights; solver/train/value_net.py trains them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from solver.core.kernel import jit as plain_jit

K: Any
try:  # compiled mode (solver/search/compiled.py)
    K = __lobo_kernel__  # type: ignore[name-defined]
except NameError:
    from solver.core import kernel as K

if TYPE_CHECKING:
    jit = plain_jit
else:
    jit = K.jit

Vec = Any

# -- the features ---------------------------------------------------------------------------------
# Counts by value (index v - 1), scaled to about 0..1; the pile's size one-hot (its thresholds
# decide when the round and the game end: a learnt function of a one-hot needs no shape of its
# own); the active members one-hot; what a play still owes; a few sums a player counts at a glance.
F_HAND = 0
F_RESERVE = 10
F_WOLF = 20
F_UNSEEN = 30
PILE_SLOTS = 41  # 0..40 cards; a bigger pile (lobo's deck) reads as 40
F_PILE = 40
F_ACTIVE = F_PILE + PILE_SLOTS  # 0..3 members
F_OWED_P = F_ACTIVE + 4
F_OWED_W = F_OWED_P + 1
F_SUMS = F_OWED_W + 1  # hand cards, hand value, Wolf cards, Wolf value, reserve cards, reserve value, pile, cards ahead
FEATURES = F_SUMS + 8

GAME_HEAD = 0
WIN_HEAD = 1
HEADS = 2

# -- the array: header, then weights ----------------------------------------------------------------
N_INPUTS, N_HIDDEN1, N_HIDDEN2, N_HEADS = range(4)
HEADER = 4


def size(inputs: int, hidden1: int, hidden2: int, heads: int) -> int:
    """The length of a network's array."""
    return HEADER + inputs * hidden1 + hidden1 + hidden1 * hidden2 + hidden2 + hidden2 * heads + heads


@jit()
def features(st: Vec, out: Vec) -> None:
    """The network's input for state st (FEATURES floats into out)."""
    for i in range(FEATURES):
        out[i] = 0.0
    hc = 0
    hs = 0
    wc = 0
    ws = 0
    rc = 0
    rs = 0
    for i in range(10):
        h = st[K.HAND + i]
        r = st[K.RESERVE + i]
        w = st[K.WOLF + i]
        out[F_HAND + i] = 0.5 * h
        out[F_RESERVE + i] = 0.5 * r
        out[F_WOLF + i] = 0.5 * w
        out[F_UNSEEN + i] = 0.25 * st[K.UNSEEN + i]
        hc += h
        hs += h * (i + 1)
        wc += w
        ws += w * (i + 1)
        rc += r
        rs += r * (i + 1)
    n = st[K.PILE]
    out[F_PILE + min(n, PILE_SLOTS - 1)] = 1.0
    out[F_ACTIVE + min(K.active(st), 3)] = 1.0
    out[F_OWED_P] = 0.25 * st[K.OWED_P]
    out[F_OWED_W] = 0.25 * st[K.OWED_W]
    out[F_SUMS] = 0.2 * hc
    out[F_SUMS + 1] = 0.03 * hs
    out[F_SUMS + 2] = 0.2 * wc
    out[F_SUMS + 3] = 0.03 * ws
    out[F_SUMS + 4] = 0.3 * rc
    out[F_SUMS + 5] = 0.05 * rs
    out[F_SUMS + 6] = 0.04 * n
    out[F_SUMS + 7] = 0.2 * (hc + rc - wc)


@jit()
def evaluate(st: Vec, head: int, net: Vec, x: Vec, h1: Vec, h2: Vec) -> float:
    """The network's output `head` for state st, a probability. x, h1 and h2 are scratch buffers
    of FEATURES and the hidden layers' sizes (or more)."""
    f = int(net[N_INPUTS])
    a = int(net[N_HIDDEN1])
    b = int(net[N_HIDDEN2])
    heads = int(net[N_HEADS])
    features(st, x)
    w1 = HEADER
    b1 = w1 + f * a
    w2 = b1 + a
    b2 = w2 + a * b
    w3 = b2 + b
    b3 = w3 + b * heads
    for j in range(a):
        h1[j] = net[b1 + j]
    for i in range(f):
        xi = x[i]
        if xi != 0.0:  # most inputs are zero (the one-hots, the values not held)
            row = w1 + i * a
            for j in range(a):
                h1[j] += xi * net[row + j]
    for j in range(a):
        if h1[j] < 0.0:
            h1[j] = 0.0
    for k in range(b):
        s = net[b2 + k]
        for j in range(a):
            s += h1[j] * net[w2 + j * b + k]
        h2[k] = s if s > 0.0 else 0.0
    z = net[b3 + head]
    for k in range(b):
        z += h2[k] * net[w3 + k * heads + head]
    if z < -30.0:
        z = -30.0
    elif z > 30.0:
        z = 30.0
    return 1.0 / (1.0 + math.exp(-z))


@jit(heap=True)
def features_of(states: Vec, n: int, out: Vec) -> None:
    """features() of n states (states[r * STATE : (r + 1) * STATE]) into out[r * FEATURES : ...]:
    the training's inputs, made by the same code the search reads."""
    st = K.ints(K.STATE)
    x = K.floats(FEATURES)
    for r in range(n):
        for j in range(K.STATE):
            st[j] = states[r * K.STATE + j]
        features(st, x)
        for i in range(FEATURES):
            out[r * FEATURES + i] = x[i]
