"""The expectimax search over the rest of a round, written once for both modes: run as plain
Python for a small search, compiled by numba for a big one (solver/search/compiled.py loads this
file a second time, with the compiled kernel and hash table in place of the plain ones).

Every rule comes from the kernel (solver/core/kernel.py); the objective (solver/core/objectives.py)
fixes the value of every end of the round and which shortcuts are sound for it. Pruning, each
sound:

  * Star1 at chance nodes, with per-outcome bounds: every outcome's child is first bounded
    cheaply (cheap(): an end of the round, the final round's cover, the table, a sure loss, a
    dead end, a sure cover), and the outcomes not searched yet count with those bounds rather
    than the whole range, so a node whose likely outcomes are known is cut at once. Results
    found under such a cut are stored as bounds, never as exact values.
  * A decision node stops as soon as a play reaches the window's top.
  * Under `win`: Perfect and Sum alone covering the Wolf's hand is a sure win (those plays only
    ever add cards to the Player's); the sure-loss tests of solver/search/bounds.py are losses.
    So are they under `game` in vanguard where any loss takes the last member (one active, or a
    Wolf's hand the count argument keeps at least as big as the party). There a state is worth at
    most the round's win probability, and a `win` search's upper bounds, left in the same table
    under tagged keys (P_TAGGED, P_WIN_BOUND), bound the game search's states from above.

Budgets: compiled code cannot raise to its caller cheaply, so when its state budget runs out
(ctr[LIMIT]) or a table asks to grow (ctr[GROW]) the search stops: every node on the way up
stores what it had learnt as bounds and returns NaN; the caller re-enters until its clock runs
out, and finished subtrees stay in the table.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from solver.core.kernel import jit as plain_jit
from solver.core.objectives import GAME_CODE, PARTY_CODE, POINTS_CODE, WIN_CODE

K: Any
T: Any
try:  # compiled mode (solver/search/compiled.py)
    K = __lobo_kernel__  # type: ignore[name-defined]
    T = __lobo_tables__  # type: ignore[name-defined]
except NameError:
    from solver.core import kernel as K
    from solver.search import tables as T

if TYPE_CHECKING:
    jit = plain_jit
else:
    jit = K.jit

Vec = Any

EPS = 1e-12

# Counters shared with the caller. ESTIMATED counts the ends of rounds valued by the evaluator
# (objective `game` beyond the exact horizon): a search that met one is not exact.
STATES, HITS, CHANCE, CUTOFFS, LIMIT, STOPPED, OUTCOMES, GROW, FILLED, MEMO_FILLED, FIXED, MEMO_FIXED = range(12)
ESTIMATED, DEAL_FILLED, DEAL_FIXED = range(12, 15)
# The cover memo and the next deals' table ask to grow apart from the transposition table: they
# only remember pure functions of their keys, so a full one that takes no more costs time, not
# soundness, and the search goes on; its driver grows them between calls (solver/search/engine.py).
MEMO_GROW = 15
# While a clock runs (ctr[PACED] = 1), the next deal's enumerations count against the chunk's
# limit as well as the states (ctr[WORK], in about a state's time a unit): under `game` one end
# of a round may cost a thousand states' time, and the driver looks at its clock between chunks.
WORK, PACED = 16, 17
# How many times an enumeration of next deals stopped part-way (next_deal) to be taken up again.
PAUSED = 18
ERROR = 19
# The arena the search's big nodes take their buffers from (a chance node of more than FEW
# outcomes, a decision node of more than ROOM moves): the search itself makes no heap arrays, so it
# is compiled without numba's reference counts. ARENA_I and ARENA_F are the tops of its two stacks
# (ints, floats); a node that finds no room sets NEED_I / NEED_F to the size it needed and stops
# as at a budget; its driver grows the arena and goes on (solver/search/engine.py).
ARENA_I, ARENA_F, NEED_I, NEED_F = range(20, 24)
COUNTERS = 24
# The arena's first size (ints; half as many floats): room for the biggest chance node (nine cards
# drawn of ten values: 48,620 outcomes) and more, so that it is seldom grown (a grown arena
# restarts the search from its root). Its pages cost nothing until a big node writes there.
ARENA_WORDS = 1 << 20

# The search's parameters (ints): the objective, the party the round started with, whether hand
# and reserve are one for it, the key's words; lobo's race: the points each side has and the
# target.
P_OBJECTIVE, P_ROOT_ACTIVE, P_MERGE, P_WORDS, P_SCORE_P, P_SCORE_W, P_TARGET = range(7)
# 1: try a decision node's plays last first (Fold still last). A second thread sharing the table
# searches so (engine.py): the two walk the tree in different orders and meet on finished subtrees.
P_REVERSED = 7
# Under `game` in vanguard, where any loss takes the last member, a state is worth at most the
# round's win probability (a won round's end is worth 1 at most, a lost one 0). So a `win` search
# may leave its values in the table a `game` search then uses: P_TAGGED = 1 marks its keys with
# WIN_TAG (in the game search's layout: hand and reserve as one, as `win` allows), and with
# P_WIN_BOUND = 1 the game search reads them as upper bounds there (_win_hi).
P_TAGGED, P_WIN_BOUND = 8, 9
PARAMS = 10
WIN_TAG = 1 << 60  # a bit no key's first word uses (kernel.key: 60 bits)
# ... and (floats) the objective's value range.
F_LO, F_HI = range(2)
FPARAMS = 2

# Objectives (solver/core/objectives.py holds what each means).
WIN, PARTY, POINTS, GAME = WIN_CODE, PARTY_CODE, POINTS_CODE, GAME_CODE

# The evaluator (solver/search/evaluator.py): the chance to win the game from the deal of a round
# that is not surely final, vanguard by (the deck's top value, cards in the pile, active members,
# reserve cards), lobo by (the deck's top value, the Player's points, the Wolf's), read off tables
# in one float array.
EV_PILES = 64
EV_RESERVE = 8
EV_VANGUARD = EV_PILES * 4 * EV_RESERVE  # one difficulty's table
EV_LOBO = 3 * EV_VANGUARD
EV_TARGET = 100
EV_SIZE = EV_LOBO + 3 * EV_TARGET * EV_TARGET
# Each value's standard error (its sampling error) sits EV_ERRORS further on; the largest of those
# a search reads is kept in ctr[ERROR], in millionths, for the estimate's interval.
EV_ERRORS = EV_SIZE

# The kernel's sizes as this module's constants: stack buffers need sizes numba sees as literals.
STATE = K.STATE
ENDINGS = K.ENDINGS

# Moves per decision node before the buffer is made bigger (most have a dozen or two), and the
# words of that buffer (constants: stack buffers have a size fixed when compiled).
ROOM = 48
ROOM_WORDS = ROOM * K.MOVE
# A chance node's outcomes before its buffers leave the stack for the arena (ARENA_I).
FEW = 64
FEW_ROWS = FEW * 10
# The most words a state key takes (kernel.key_words of a state with every card a known top one).
KEY_MOST = K.KEY_WORDS + (K.MAX_TOPS - 10 + 14) // 15
# A chance node computes each outcome's key once, keeps it here (KEY_MOST words an outcome), and
# hands it to cheap() and to the outcome's search: a key costs as much as a table probe.
FEW_KEYS = FEW * KEY_MOST


@jit()
def terminal(st: Vec, par: Vec, mk: Any, mv: Any, dk: Any, dv: Any, ev: Vec, ctr: Vec) -> float:
    """The value of an ended round (NaN with ctr[STOPPED] set when a next deal's enumeration was
    interrupted: next_deal)."""
    obj = par[P_OBJECTIVE]
    won = st[K.OUTCOME] == K.WON
    if obj == WIN:
        return 1.0 if won else 0.0
    if obj == POINTS:
        return float(K.player_points(st) - K.wolf_points(st))
    if obj == GAME:
        if (st[K.RULESET] & K.RACE) != 0:
            return lobo_game(st, par, ev, ctr)
        return vanguard_game(st, mk, mv, dk, dv, ev, ctr)
    # PARTY: minus the members this round costs
    if won:
        return -float(par[P_ROOT_ACTIVE] - K.active(st))
    if st[K.FINAL] == 1:
        return -float(par[P_ROOT_ACTIVE])
    return -float(K.falling(K.cards_in(st, K.WOLF), K.active(st)))


@jit()
def lobo_game(st: Vec, par: Vec, ev: Vec, ctr: Vec) -> float:
    """lobo under `game`: the round's points go to the side that scores them (RULES.md §3); a side
    at the target has won; otherwise the race goes on from the new scores (the evaluator's)."""
    sp = par[P_SCORE_P]
    sw = par[P_SCORE_W]
    sp += K.player_points(st)
    sw += K.wolf_points(st)
    if sp >= par[P_TARGET]:
        return 1.0
    if sw >= par[P_TARGET]:
        return 0.0
    return estimated(ev, EV_LOBO + ((st[K.TOPV] - 8) * EV_TARGET + sp) * EV_TARGET + sw, ctr)


@jit(inline="always")
def estimated(ev: Vec, at: int, ctr: Vec) -> float:
    """The evaluator's value at `at`, counted (ctr[ESTIMATED]), its standard error kept if it is
    the largest this search has read (ctr[ERROR], in millionths)."""
    ctr[ESTIMATED] += 1
    e = int(ev[EV_ERRORS + at] * 1e6 + 0.5)
    if e > ctr[ERROR]:
        ctr[ERROR] = e
    return ev[at]


@jit()
def vanguard_game(st: Vec, mk: Any, mv: Any, dk: Any, dv: Any, ev: Vec, ctr: Vec) -> float:
    """vanguard under `game` (RULES.md §7): a final round won is the game won, lost the game lost;
    a regular round lost turns min(k, active) members face down (the game is lost with the last)
    and the next round is dealt; a regular round won gives the best of its rewards (a card of
    the winning hand to the reserve, or a member revived), then the next deal."""
    if st[K.FINAL] == 1:
        return 1.0 if st[K.OUTCOME] == K.WON else 0.0
    acts = K.stack(ENDINGS)
    kept = K.stack(ENDINGS)
    m = K.endings(st, acts, kept)
    if m > 1 and K.seen_before_the_reward(st) and K.near_final(st):
        return revealed_reward(st, acts, kept, m, mk, mv, dk, dv, ev, ctr)
    return best_ending(st, acts, kept, m, mk, mv, dk, dv, ev, ctr)


@jit()
def best_ending(st: Vec, acts: Vec, kept: Vec, m: int, mk: Any, mv: Any, dk: Any, dv: Any, ev: Vec, ctr: Vec) -> float:
    """The best of the m endings (K.endings) by the next deal's value; 0 when there is none."""
    best = 0.0  # no ending: the party is gone
    for o in range(m):
        x = next_deal(st, acts[o], kept[o], mk, mv, dk, dv, ev, ctr)
        if ctr[STOPPED]:
            return np_nan()  # an enumeration was interrupted: the caller takes the whole range
        best = max(best, x)
    return best


@jit()
def revealed_reward(
    st: Vec, acts: Vec, kept: Vec, m: int, mk: Any, mv: Any, dk: Any, dv: Any, ev: Vec, ctr: Vec
) -> float:
    """A round won with the top card visible: the winning draw turned up a new top card, which the
    Player sees before choosing the reward (RULES.md §5), so the best reward is taken for each top
    card the pile can show, and averaged (found by a review: the reward was chosen blind, 0.95 for
    a round whose every top card lets a reward win the game). Only where the next deal is valued
    exactly: the evaluator's estimate beyond does not read the top card."""
    seen = K.stack(STATE)
    for i in range(K.TOPS):
        seen[i] = st[i]
    seen[K.NTOP] = 1
    unseen = 0
    for i in range(10):
        unseen += st[K.UNSEEN + i]
    total = 0.0
    for v in range(1, 11):
        c = st[K.UNSEEN + v - 1]
        if c == 0:
            continue
        seen[K.TOPS] = v
        seen[K.UNSEEN + v - 1] = c - 1
        x = best_ending(seen, acts, kept, m, mk, mv, dk, dv, ev, ctr)
        if ctr[STOPPED]:
            return np_nan()
        total += c / unseen * x
        seen[K.UNSEEN + v - 1] = c
    return total


@jit(heap=True)
def next_deal(st: Vec, act: int, kept: int, mk: Any, mv: Any, dk: Any, dv: Any, ev: Vec, ctr: Vec) -> float:
    """The chance to win the game from the next deal, after a regular round that ends in st, with
    act members active and the card `kept` (0: none) put into the reserve. The deal comes from the
    pile as it is: its known top cards first, the rest uniformly from the unseen cards (§5, §7).
    Exact when the deal surely makes the final round (pile <= 2 × hand_size + final_threshold):
    every deal of the two hands is enumerated and the final round is won if the Wolf's cards can
    be covered (§4). Beyond that, the evaluator's estimate (counted in ctr[ESTIMATED]).

    While a clock runs (ctr[PACED]) an enumeration past the chunk's budget stops between two of
    the Player's hands: it sets ctr[STOPPED], returns NaN and keeps its sum so far in the table,
    so a big one is spread over chunks, each of which looks at the clock."""
    h = st[K.HAND_SIZE]
    n = st[K.PILE]
    reserve = 0
    for i in range(10):
        reserve += st[K.RESERVE + i]
    if kept > 0:
        reserve += 1
    if not K.next_deal_final(n, h, st[K.FINAL_THRESHOLD]):
        at = (st[K.TOPV] - 8) * EV_VANGUARD + (min(n, EV_PILES - 1) * 4 + act) * EV_RESERVE
        return estimated(ev, at + min(reserve, EV_RESERVE - 1), ctr)
    # Remembered by what decides the deal's value: the party, the reserve with the card kept, the
    # pile, the unseen cards and the known top cards that will be dealt.
    kb = K.stack(3)
    # The hand size too (the table outlives a search: engine.py); past 31 every size deals alike.
    k0 = act | (n << 2) | (min(h, 32) << 40)
    k1 = 0
    for i in range(10):
        k0 |= (st[K.RESERVE + i] + (1 if kept == i + 1 else 0)) << (8 + 3 * i)
        k1 |= st[K.UNSEEN + i] << (3 * i)
    dealt_tops = min(st[K.NTOP], K.dealt(n, h), 14)
    k2 = dealt_tops
    for j in range(dealt_tops):
        k2 |= st[K.TOPS + j] << (6 + 4 * j)
    kb[0] = k0
    kb[1] = k1
    kb[2] = k2
    # An entry's second word is 0.0 when it is the value, minus the rows of the Player's hands
    # done when an enumeration was interrupted (its first word the sum so far): it goes on there.
    found, x, y = T.tt_get(dk, dv, kb)
    if found and y >= 0.0:
        return x
    start = 0
    total = 0.0
    if found:
        start = int(-y)
        total = x
    d = K.dealt(n, h)
    deal = K.stack(STATE)  # the final round's hands, built in a state vector for the cover
    for i in range(10):
        deal[K.RESERVE + i] = st[K.RESERVE + i]
    if kept > 0:
        deal[K.RESERVE + kept - 1] += 1
    up = 0
    uw = 0
    for j in range(d):
        to_player = K.to_the_player(j, n, h)
        if j < st[K.NTOP]:
            deal[(K.HAND if to_player else K.WOLF) + st[K.TOPS + j] - 1] += 1
        elif to_player:
            up += 1
        else:
            uw += 1
    allowed = max(0, act - 1)
    unseen = K.stack(10)
    for i in range(10):
        unseen[i] = st[K.UNSEEN + i]
    na = K.draw_count(unseen, 0, up)
    rows_a = K.ints(na * 10)
    prob_a = K.floats(na)
    K.draws(unseen, 0, up, rows_a, prob_a)
    rest = K.stack(10)
    work = 0
    for ra in range(start, na):
        if ctr[PACED] and ra > start and ctr[STATES] + ctr[WORK] + work // 2 > ctr[LIMIT]:
            # Over the chunk's budget (a clock runs): the rows done are kept, and the search
            # stops as at its state budget; the next chunk takes this enumeration up at row ra.
            T.put(dk, dv, kb, total, -float(ra), ctr, DEAL_FILLED, MEMO_GROW, DEAL_FIXED)
            ctr[WORK] += work // 2
            ctr[STOPPED] = 1
            ctr[PAUSED] += 1
            return np_nan()
        for i in range(10):
            rest[i] = unseen[i] - rows_a[ra * 10 + i]
            deal[K.HAND + i] += rows_a[ra * 10 + i]
        nb = K.draw_count(rest, 0, uw)
        work += nb
        rows_b = K.ints(nb * 10)
        prob_b = K.floats(nb)
        K.draws(rest, 0, uw, rows_b, prob_b)
        won = 0.0
        for rb in range(nb):
            for i in range(10):
                deal[K.WOLF + i] += rows_b[rb * 10 + i]
            if K.cards_in(deal, K.WOLF) == 0 or cover(deal, allowed, mk, mv, ctr) >= 0:
                won += prob_b[rb]
            for i in range(10):
                deal[K.WOLF + i] -= rows_b[rb * 10 + i]
        total += prob_a[ra] * won
        for i in range(10):
            deal[K.HAND + i] -= rows_a[ra * 10 + i]
    T.put(dk, dv, kb, total, 0.0, ctr, DEAL_FILLED, MEMO_GROW, DEAL_FIXED)
    if ctr[PACED]:
        ctr[WORK] += work // 2
    return total


@jit(inline="always")
def cover_key(st: Vec, allowed: int, kb: Vec) -> None:
    """The cover memo's key: the sacrifices allowed, the Player's cards, the Wolf's."""
    k0 = allowed
    k1 = 0
    for i in range(10):
        k0 |= (st[K.HAND + i] + st[K.RESERVE + i]) << (2 + 3 * i)
        k1 |= st[K.WOLF + i] << (3 * i)
    kb[0] = k0
    kb[1] = k1


@jit()
def cover(st: Vec, allowed: int, mk: Any, mv: Any, ctr: Vec) -> int:
    """kernel.min_sacrifices, remembered: the same covers recur all over a search."""
    kb = K.stack(2)
    cover_key(st, allowed, kb)
    found, x, _ = T.tt_get(mk, mv, kb)
    if found:
        return int(x)
    r = K.min_sacrifices(st, allowed)
    T.put(mk, mv, kb, float(r), 0.0, ctr, MEMO_FILLED, MEMO_GROW, MEMO_FIXED)
    if ctr[PACED]:
        # Its time in states' times (about 1 us each, compiled): some 0.6 us at 4 cards a side, 65
        # at 20, 150 at 24 (bench/README.md), so that a chunk of big final deals keeps the clock
        # (found by a review: hand_size 20 overran -t 2 by 3 s in one chunk counted as 80,000).
        n = 0
        for i in range(10):
            n += st[K.WOLF + i]
        ctr[WORK] += 1 + n * n * n * n // 2500
    return r


@jit()
def final_value(st: Vec, par: Vec, mk: Any, mv: Any, ctr: Vec) -> float:
    """A vanguard final round at a decision point: nothing more is drawn, so its value is read
    off the cover: won if the sacrifices allowed (active - 1) and the cards do it."""
    need = cover(st, max(0, K.active(st) - 1), mk, mv, ctr)
    if par[P_OBJECTIVE] == PARTY:
        if need < 0:
            return -float(par[P_ROOT_ACTIVE])
        return -float(par[P_ROOT_ACTIVE] - K.active(st) + need)
    return 1.0 if need >= 0 else 0.0


@jit(inline="always")
def _key(st: Vec, kb: Vec, par: Vec) -> None:
    """The state's key in this search's table (kernel.key), tagged when a game search will read it
    (P_TAGGED)."""
    K.key(st, kb, par[P_WORDS], par[P_MERGE] == 1)
    if par[P_TAGGED] == 1:
        kb[0] |= WIN_TAG


@jit()
def _win_hi(st: Vec, par: Vec, fpar: Vec, tk: Any, tv: Any) -> float:
    """An upper bound on the round's win probability from st: what a tagged `win` search left in
    the table (P_TAGGED), else the range's top."""
    kb = K.stack(KEY_MOST)
    K.key(st, kb, par[P_WORDS], True)
    kb[0] |= WIN_TAG
    found, _, hi = T.tt_get(tk, tv, kb)
    return hi if found else fpar[F_HI]


@jit(inline="always")
def _is_final_decision(st: Vec) -> bool:
    return (st[K.RULESET] & K.FINAL_ROUND) != 0 and st[K.FINAL] == 1 and st[K.OUTCOME] == 0 and not K.is_chance(st)


@jit(inline="always")
def _lost_is_nothing(st: Vec, obj: int) -> bool:
    """Whether a round lost from st is worth the objective's least, 0: under `win` always; under
    `game` in vanguard when any loss takes the last member (kernel.loss_takes_all; a final round
    lost loses the game). There a round the sure-loss tests prove lost (kernel.sure_loss, dead_end)
    is worth 0 without a search."""
    return obj == WIN or (obj == GAME and (st[K.RULESET] & K.RACE) == 0 and K.loss_takes_all(st))


@jit(inline="always")
def _lone_nothing(st: Vec, obj: int) -> bool:
    """Whether kernel.lone_card proves st worth the objective's least, 0, without a search: under
    `win` a round lost; under `game` in vanguard one whose every loss also takes the whole party."""
    if obj == WIN:
        return K.lone_card(st, 1) or K.few_matches(st)
    return obj == GAME and (st[K.RULESET] & K.RACE) == 0 and (K.lone_card(st, K.active(st)) or K.few_matches(st))


@jit()
def cheap(
    st: Vec, par: Vec, fpar: Vec, tk: Any, tv: Any, mk: Any, mv: Any, dk: Any, dv: Any, ev: Vec, ctr: Vec
) -> tuple[float, float]:
    """Bounds on a state's value without searching it: an end of the round, the final round's
    cover, a chance node that wins whatever comes, the table, and under `win` a sure loss, a dead
    end or a sure cover (under `game` where any loss takes the last member: the sure loss, the
    dead end, and a tagged win search's upper bound, P_WIN_BOUND)."""
    kin = K.stack(1)
    kin[0] = -1
    return _cheap(st, kin, par, fpar, tk, tv, mk, mv, dk, dv, ev, ctr)


@jit(inline="always")
def _own_key(st: Vec, kin: Vec, kb: Vec, par: Vec) -> None:
    """kb := the state's key: kin where the caller computed it already (kin[0] >= 0), else made."""
    if kin[0] >= 0:
        for w in range(par[P_WORDS]):
            kb[w] = kin[w]
    else:
        _key(st, kb, par)


@jit()
def _cheap(
    st: Vec, kin: Vec, par: Vec, fpar: Vec, tk: Any, tv: Any, mk: Any, mv: Any, dk: Any, dv: Any, ev: Vec, ctr: Vec
) -> tuple[float, float]:
    """cheap(), given the state's key in kin (kin[0] = -1: not computed)."""
    if st[K.OUTCOME] != 0:
        v = terminal(st, par, mk, mv, dk, dv, ev, ctr)
        if ctr[STOPPED]:
            return fpar[F_LO], fpar[F_HI]  # its next deal was interrupted: nothing known yet
        return v, v
    obj = par[P_OBJECTIVE]
    if _is_final_decision(st):
        v = final_value(st, par, mk, mv, ctr)
        return v, v
    if (obj == WIN or obj == PARTY) and K.cards_in(st, K.WOLF) == 0 and st[K.OWED_W] == 0:  # noqa: SIM109
        # The Wolf's hand is empty, the Player still draws: won whatever is drawn (under points
        # and game the drawn card counts: it scores, or may be kept).
        won = 1.0 if obj == WIN else -float(par[P_ROOT_ACTIVE] - K.active(st))
        return won, won
    if _lone_nothing(st, obj):
        return 0.0, 0.0  # before the table: such a state is never stored there
    kb = K.stack(KEY_MOST)
    _own_key(st, kin, kb, par)
    found, lo, hi = T.tt_get(tk, tv, kb)
    if found:
        return lo, hi
    if _lost_is_nothing(st, obj):
        if K.sure_loss(st):
            return 0.0, 0.0
        if not K.is_chance(st):
            if K.dead_end(st):
                return 0.0, 0.0
            if obj == WIN and cover(st, 0, mk, mv, ctr) == 0:
                return 1.0, 1.0
        if par[P_WIN_BOUND] == 1:
            return fpar[F_LO], min(fpar[F_HI], _win_hi(st, par, fpar, tk, tv))
    return fpar[F_LO], fpar[F_HI]


@jit()
def bounds(
    st: Vec, par: Vec, fpar: Vec, tk: Any, tv: Any, mk: Any, mv: Any, dk: Any, dv: Any, ev: Vec, ctr: Vec
) -> tuple[float, float]:
    """What the table knows of a state's value (the whole range when nothing)."""
    if st[K.OUTCOME] != 0:
        v = terminal(st, par, mk, mv, dk, dv, ev, ctr)
        if ctr[STOPPED]:
            return fpar[F_LO], fpar[F_HI]  # its next deal was interrupted: nothing known yet
        return v, v
    kb = K.stack(KEY_MOST)
    _key(st, kb, par)
    found, lo, hi = T.tt_get(tk, tv, kb)
    if found:
        return lo, hi
    return fpar[F_LO], fpar[F_HI]


@jit()
def _likeliest_first(prob: Vec, clo: Vec, chi: Vec, n: int, order: Vec, weight: Vec) -> None:
    """order := the outcomes by probability times the width of their bounds, biggest first, ties
    in order (insertion sort: most chance nodes have ten outcomes or fewer, the big ones are rare);
    weight is scratch."""
    for j in range(n):
        weight[j] = prob[j] * (chi[j] - clo[j])
    for j in range(n):
        w = weight[j]
        t = j
        while t > 0 and weight[order[t - 1]] < w:
            order[t] = order[t - 1]
            t -= 1
        order[t] = j


@jit()
def search(
    st: Vec,
    a: float,
    b: float,
    par: Vec,
    fpar: Vec,
    tk: Any,
    tv: Any,
    mk: Any,
    mv: Any,
    dk: Any,
    dv: Any,
    ev: Vec,
    ctr: Vec,
    ih: Vec,
    fh: Vec,
    kin: Vec,
) -> float:  # pragma: no cover - compiled, and run plain by the tests
    """The value of a state that has not ended, if it lies inside (a, b) by more than EPS;
    otherwise a bound on the side it fell (an upper bound at or below a + EPS, a lower bound at
    or above b - EPS). NaN once a budget has run out (bounds stored on the way up). ih and fh:
    the arena (ints, floats) for big nodes' buffers (ARENA_I). kin: the state's key where the
    caller computed it (a chance node, for its outcomes), else kin[0] = -1.

    One function for decision and chance nodes alike: compiled recursion must stay within one
    function."""
    kb = K.stack(KEY_MOST)
    kb_kid = K.stack(KEY_MOST)
    _own_key(st, kin, kb, par)
    lo = fpar[F_LO]
    hi = fpar[F_HI]
    found, tlo, thi = T.tt_get(tk, tv, kb)
    if found:
        lo = tlo
        hi = thi
        if hi - lo <= EPS or hi <= a + EPS or lo >= b - EPS:
            ctr[HITS] += 1
            if lo >= b - EPS or hi - lo <= EPS:
                return lo
            return hi
        a = max(a, lo)
        b = min(b, hi)
    elif par[P_WIN_BOUND] == 1 and _lost_is_nothing(st, par[P_OBJECTIVE]):
        hi = min(hi, _win_hi(st, par, fpar, tk, tv))
        if hi <= a + EPS:
            ctr[HITS] += 1
            return hi
        b = min(b, hi)
    ctr[STATES] += 1
    if ctr[STATES] + ctr[WORK] > ctr[LIMIT] or ctr[GROW]:
        ctr[STOPPED] = 1
        return np_nan()
    obj = par[P_OBJECTIVE]
    v = 0.0
    if K.is_chance(st):
        # Star1 with per-outcome bounds.
        ctr[CHANCE] += 1
        d = K.owed_now(st)
        n = K.draw_count(st, K.UNSEEN, d)
        # A node's buffers on the stack; a chance node with more outcomes than FEW (many
        # cards drawn at once) takes them from the arena. A node restores the arena's tops when
        # it ends; a stop needs no restoring (every node returns at once, and the driver starts
        # the next call with empty tops).
        outs = K.stack_scratch(FEW_ROWS)
        prob = K.stack_floats(FEW)
        clo = K.stack_floats(FEW)
        chi = K.stack_floats(FEW)
        weight = K.stack_floats(FEW)
        order = K.stack_scratch(FEW)
        okeys = K.stack_scratch(FEW_KEYS)
        mark_i = ctr[ARENA_I]
        mark_f = ctr[ARENA_F]
        if n > FEW:  # from the arena (in plain mode a slice is a fresh list: as good a buffer)
            need_i = mark_i + (11 + KEY_MOST) * n
            if need_i > len(ih) or mark_f + 4 * n > len(fh):
                ctr[NEED_I] = max(ctr[NEED_I], need_i)
                ctr[NEED_F] = max(ctr[NEED_F], mark_f + 4 * n)
                ctr[STOPPED] = 1
                return np_nan()
            outs = ih[mark_i : mark_i + 10 * n]
            order = ih[mark_i + 10 * n : mark_i + 11 * n]
            okeys = ih[mark_i + 11 * n : need_i]
            prob = fh[mark_f : mark_f + n]
            clo = fh[mark_f + n : mark_f + 2 * n]
            chi = fh[mark_f + 2 * n : mark_f + 3 * n]
            weight = fh[mark_f + 3 * n : mark_f + 4 * n]
            ctr[ARENA_I] = need_i
            ctr[ARENA_F] = mark_f + 4 * n
        K.draws(st, K.UNSEEN, d, outs, prob)
        ctr[OUTCOMES] += n
        kid = K.stack(STATE)
        # The outcomes' table slots fetched first, all at once: their memory misses overlap
        # (and under `win` their cover memo's, which cheap() reads for every new decision).
        words = par[P_WORDS]
        for j in range(n):
            K.apply_draw(st, outs, j * 10, kid)
            okeys[j * KEY_MOST] = -1
            if kid[K.OUTCOME] != 0:
                continue
            if _is_final_decision(kid):  # valued by its cover alone (final_value)
                cover_key(kid, max(0, K.active(kid) - 1), kb_kid)
                T.prefetch(mk, kb_kid)
                continue
            if _lone_nothing(kid, obj):
                continue  # valued 0 by cheap(), without the table
            _key(kid, kb_kid, par)
            for w in range(words):
                okeys[j * KEY_MOST + w] = kb_kid[w]
            T.prefetch(tk, kb_kid)
            if obj == WIN and not K.is_chance(kid):
                cover_key(kid, 0, kb_kid)
                T.prefetch(mk, kb_kid)
        rest_lo = 0.0
        rest_hi = 0.0
        for j in range(n):
            K.apply_draw(st, outs, j * 10, kid)
            lo_j, hi_j = _cheap(
                kid, okeys[j * KEY_MOST : (j + 1) * KEY_MOST], par, fpar, tk, tv, mk, mv, dk, dv, ev, ctr
            )
            if ctr[STOPPED]:
                return np_nan()  # an outcome's next deal was interrupted: nothing to store yet
            clo[j] = lo_j
            chi[j] = hi_j
            rest_lo += prob[j] * lo_j
            rest_hi += prob[j] * hi_j
        _likeliest_first(prob, clo, chi, n, order, weight)
        done = 0.0
        finished = True
        for t in range(n):
            j = order[t]
            pf = prob[j]
            rest_lo -= pf * clo[j]
            rest_hi -= pf * chi[j]
            if chi[j] - clo[j] <= EPS:
                done += pf * clo[j]
                continue
            # The child must beat these for the node to land inside (a, b).
            ca = (a - done - rest_hi) / pf
            cb = (b - done - rest_lo) / pf
            if ca >= chi[j] - EPS:
                # Even if this child and every later one were at their tops, the node stays <= a.
                ctr[CUTOFFS] += 1
                v = min(a, done + pf * chi[j] + rest_hi)
                finished = False
                break
            if cb <= clo[j] + EPS:
                ctr[CUTOFFS] += 1
                v = max(b, done + pf * clo[j] + rest_lo)
                finished = False
                break
            wa = max(clo[j], ca)
            wb = min(chi[j], cb)
            K.apply_draw(st, outs, j * 10, kid)
            kid_key = okeys[j * KEY_MOST : (j + 1) * KEY_MOST]
            cv = search(kid, wa, wb, par, fpar, tk, tv, mk, mv, dk, dv, ev, ctr, ih, fh, kid_key)
            if ctr[STOPPED]:
                # Every child before this one is exact (a bound would have returned already).
                blo, bhi = bounds(kid, par, fpar, tk, tv, mk, mv, dk, dv, ev, ctr)
                cut_lo = done + pf * max(clo[j], blo) + rest_lo
                cut_hi = done + pf * min(chi[j], bhi) + rest_hi
                T.put(tk, tv, kb, max(lo, cut_lo), min(hi, cut_hi), ctr, FILLED, GROW, FIXED)
                return np_nan()
            if cv <= wa + EPS and ca > clo[j]:
                # An upper bound on this child: the node cannot reach above a.
                ctr[CUTOFFS] += 1
                v = min(a, done + pf * cv + rest_hi)
                finished = False
                break
            if cv >= wb - EPS and cb < chi[j]:
                ctr[CUTOFFS] += 1
                v = max(b, done + pf * cv + rest_lo)
                finished = False
                break
            done += pf * cv
        ctr[ARENA_I] = mark_i
        ctr[ARENA_F] = mark_f
        if finished:
            v = done
            # Probabilities are floats: a node whose every outcome is at an end of the range must
            # say so exactly, not 0.9999999999999999.
            if abs(done - fpar[F_HI]) < 1e-12:
                v = fpar[F_HI]
            elif abs(done - fpar[F_LO]) < 1e-12:
                v = fpar[F_LO]
    elif _is_final_decision(st):
        v = final_value(st, par, mk, mv, ctr)
    elif obj == WIN and cover(st, 0, mk, mv, ctr) == 0:
        v = 1.0  # Perfect and Sum plays alone cover the Wolf's hand
    else:
        room = ROOM
        buf = K.stack_scratch(ROOM_WORDS)
        m = K.moves(st, buf, room)
        mark_i = ctr[ARENA_I]
        while m < 0:  # more moves than ROOM: a bigger buffer from the arena
            room *= 4
            if mark_i + room * K.MOVE > len(ih):
                ctr[NEED_I] = max(ctr[NEED_I], mark_i + room * K.MOVE)
                ctr[STOPPED] = 1
                return np_nan()
            buf = ih[mark_i : mark_i + room * K.MOVE]
            m = K.moves(st, buf, room)
        if room > ROOM:
            ctr[ARENA_I] = mark_i + room * K.MOVE
        child = K.stack(STATE)
        nokey = K.stack(1)
        nokey[0] = -1
        best = fpar[F_LO] - 1.0
        proven = fpar[F_LO]  # the best value known to be reached (not merely bounded from above)
        rev = par[P_REVERSED] == 1
        for gg in range(m):
            g = m - 2 - gg if rev and gg < m - 1 else gg
            K.apply_move(st, buf, g * K.MOVE, child)
            low = max(a, best)
            if child[K.OUTCOME] != 0:
                cv = terminal(child, par, mk, mv, dk, dv, ev, ctr)
                if ctr[STOPPED]:
                    T.put(tk, tv, kb, max(lo, proven), hi, ctr, FILLED, GROW, FIXED)
                    return np_nan()
            elif (_lost_is_nothing(child, obj) and K.sure_loss(child)) or _lone_nothing(child, obj):
                cv = 0.0  # known without a search (and not worth a table entry: the test is cheaper)
            else:
                cv = search(child, low, b, par, fpar, tk, tv, mk, mv, dk, dv, ev, ctr, ih, fh, nokey)
                if ctr[STOPPED]:
                    blo, _ = bounds(child, par, fpar, tk, tv, mk, mv, dk, dv, ev, ctr)
                    T.put(tk, tv, kb, max(lo, max(proven, blo)), hi, ctr, FILLED, GROW, FIXED)
                    return np_nan()
            if cv > low + EPS:
                proven = max(proven, cv)
            if cv > best:
                best = cv
                if best >= b - EPS:
                    ctr[CUTOFFS] += 1
                    break
        ctr[ARENA_I] = mark_i
        v = best
    if v <= a + EPS:
        hi = min(hi, max(v, lo))
    elif v >= b - EPS:
        lo = max(lo, min(v, hi))
    else:
        lo = v
        hi = v
    T.put(tk, tv, kb, lo, hi, ctr, FILLED, GROW, FIXED)
    return v


@jit(inline="always")
def np_nan() -> float:
    return math.nan
