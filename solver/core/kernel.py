"""The rules kernel: a round of either game as a vector of counts, and every rule that moves it.

Every consumer of the rules goes through these functions: the Python API of rules.py (legal
plays, apply, chance outcomes, for the CLI, the simulator, the companion and the finisher's
replay) and the expectimax search (solver/search/expectimax.py), run as plain Python for a small
search or compiled by numba for a big one. So a ruling or a play type is written here once.

The source is written in the small part of Python that numba compiles: flat buffers, integer
and float arithmetic, loops, no objects. The same functions run on Python lists (plain mode:
list indexing is the quickest CPython has) and on numpy arrays (compiled mode:
solver/search/compiled.py loads this file a second time with `__lobo_jit__` set to numba's
decorator, and the functions call each other compiled). Buffers are allocated by `ints` and
`floats`, which each mode provides.

A state vector (ints(STATE)): counts by value (index v - 1 for value v) of the Player's hand,
the reserve, the Wolf's hand and the cards nobody has seen; then the pile's size, its known top
cards (in order, the top first), the active party (a bitmask: Jack 1, Queen 2, King 4), the flags
and the rulings. A move is a row of ints(MOVE): its kind, the counts it takes from the hand, the
reserve and the Wolf's hand, and the member a sacrifice turns face down.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:

    def jit(**options: Any) -> Callable[[F], F]: ...
    def ints(n: int) -> Any: ...
    def floats(n: int) -> Any: ...
    def scratch(n: int) -> Any: ...
    def stack(n: int) -> Any: ...
    def stack_scratch(n: int) -> Any: ...
    def stack_floats(n: int) -> Any: ...

    ZERO: int
    ONE: int
else:
    try:  # compiled mode: solver/search/compiled.py sets these before it runs this file
        jit = __lobo_jit__
        ints = __lobo_ints__
        floats = __lobo_floats__
        scratch = __lobo_scratch__  # a buffer every part of which is written before it is read
        # The same three of a constant size in the caller's stack frame (compiled.py): for the
        # small buffers of every node, never returned or kept past the function that makes them.
        stack = __lobo_stack__
        stack_scratch = __lobo_stack_scratch__
        stack_floats = __lobo_stack_floats__
        # Not literals: numba's cache of a recursive function breaks on literal arguments.
        ZERO = __lobo_zero__
        ONE = __lobo_one__
    except NameError:

        def jit(**options):
            """Plain mode: the function as written."""
            return lambda f: f

        def ints(n):
            return [0] * n

        def floats(n):
            return [0.0] * n

        scratch = stack = stack_scratch = ints
        stack_floats = floats
        ZERO = 0
        ONE = 1


Vec = Any  # a list of ints (plain mode) or an int64 array (compiled mode)

# -- the state vector ----------------------------------------------------------------------------

HAND = 0
RESERVE = 10
WOLF = 20
UNSEEN = 30
PILE = 40  # cards in the draw pile, known top cards included
NTOP = 41  # how many of its top cards are known
PARTY = 42  # active members: Jack 1, Queen 2, King 4 (vanguard; 0 for lobo)
FINAL = 43  # 1 once the round is final (vanguard)
OWED_P = 44  # unknown cards owed to the Player by the play just made (a chance node)
OWED_W = 45  # unknown cards owed to the Wolf
REVEAL = 46  # 1: the new top card is about to be turned face up (top_card_visible)
OUTCOME = 47  # 0 while the round goes on, WON or LOST
TOPV = 48  # the deck's top value: 8, 9 or 10
RULESET = 49  # what the game has: FINAL_ROUND | SACRIFICES | PARTY_FALLS | RACE (games.Game.ruleset)
HAND_SIZE = 50
FINAL_THRESHOLD = 51
RESERVE_SCORES = 52
TOP_VISIBLE = 53
TOPS = 54  # the known top cards' values, TOPS + 0 the top one
MAX_TOPS = 50  # the biggest deck: lobo hard, 50 cards
STATE = TOPS + MAX_TOPS

WON = 1
LOST = 2
# The game's rules as capabilities, not names: a Game record (solver/core/games.py) sets them, so
# a new variant is a record plus kernel code only for a rule that is really new.
FINAL_ROUND = 1  # a short pile makes the final round (no Split, no Over, nothing drawn)
SACRIFICES = 2  # a party member may be sacrificed on a Wolf card in the final round
PARTY_FALLS = 4  # a lost regular round turns party members face down (falling)
RACE = 8  # every ended round scores points (player_points, wolf_points) in a race to a target
JACK, QUEEN, KING = 1, 2, 4
PARTY_SIZE = 3

# -- a move --------------------------------------------------------------------------------------

PERFECT, SUM, SPLIT, OVER, SACRIFICE, FOLD = 0, 1, 2, 3, 4, 5
M_KIND = 0
M_HAND = 1
M_RESERVE = 11
M_WOLF = 21
M_MEMBER = 31
MOVE = 32
# Moves are written into a buffer of `cap` rows; a position with more returns -1 and the caller
# retries with a bigger one (never a truncated list).


@jit(inline="always")
def active(st: Vec) -> int:
    """The number of active party members."""
    p = st[PARTY]
    return (p & 1) + ((p >> 1) & 1) + ((p >> 2) & 1)


@jit(inline="always")
def cards_in(st: Vec, base: int) -> int:
    n = 0
    for i in range(10):
        n += st[base + i]
    return n


@jit(inline="always")
def value_of(st: Vec, base: int) -> int:
    """The total value of the cards counted at base."""
    t = 0
    for i in range(10):
        t += (i + 1) * st[base + i]
    return t


@jit(inline="always")
def is_chance(st: Vec) -> bool:
    return st[OUTCOME] == 0 and (st[OWED_P] > 0 or st[OWED_W] > 0 or st[REVEAL] == 1)


@jit(inline="always")
def unknown_in_pile(st: Vec) -> int:
    return st[PILE] - st[NTOP]


# -- between rounds (RULES.md §2-§4): the deal, the final round, what an ended round costs ---------
# solver/core/rounds.py is their Python face; the search and the rollouts call them directly.


@jit(inline="always")
def dealt(pile: int, hand_size: int) -> int:
    """How many cards a deal takes from a pile: both hands, or what the pile holds."""
    return min(2 * hand_size, pile)


@jit(inline="always")
def to_the_player(j: int, n: int, h: int) -> bool:
    """Whether the j-th card dealt from a pile of n goes to the Player (RULES.md §2): the first h
    do and the next h go to the Wolf; a pile too short for both hands is dealt one card at a time,
    Player first."""
    return j < h if n >= 2 * h else j % 2 == 0


@jit(inline="always")
def final_when_dealt(ruleset: int, pile_left: int, final_threshold: int) -> bool:
    """Whether a round dealt with pile_left cards left in the pile is the final round (§4)."""
    return (ruleset & FINAL_ROUND) != 0 and pile_left <= final_threshold


@jit(inline="always")
def next_deal_final(pile: int, hand_size: int, final_threshold: int) -> bool:
    """Whether the next deal from a pile of this size is surely the final round, whatever the
    rounds before it do (the exact horizon of `game`): a deal takes up to 2 × hand_size cards."""
    return pile <= 2 * hand_size + final_threshold


@jit(inline="always")
def near_final(st: Vec) -> bool:
    """next_deal_final for the pile of the round in st."""
    return next_deal_final(st[PILE], st[HAND_SIZE], st[FINAL_THRESHOLD])


@jit(inline="always")
def can_revive(act: int) -> bool:
    """Whether a won regular round may revive a member (one is face down); the other reward, a
    card of the winning hand to the reserve, needs only a card in the hand (§4)."""
    return act < PARTY_SIZE


@jit(inline="always")
def seen_before_the_reward(st: Vec) -> bool:
    """A regular round won with the top card visible whose winning draw uncovered a new top card:
    the card is turned up before the reward is chosen, as before any decision (§5)."""
    return st[OUTCOME] == WON and st[FINAL] == 0 and st[TOP_VISIBLE] == 1 and st[PILE] > 0 and st[NTOP] == 0


@jit(inline="always")
def short_for_a_deal(pile: int, hand_size: int) -> bool:
    """A pile that cannot deal both hands in full: a game that reshuffles does so first (§3)."""
    return pile < 2 * hand_size


@jit(inline="always")
def falling(wolf_left: int, act: int) -> int:
    """The members a lost regular vanguard round turns face down: one per Wolf card left, at most
    every active member."""
    return min(wolf_left, act)


# The most next tables a regular round's end can lead to: a card of each value kept, or a revival.
ENDINGS = 11


@jit()
def endings(st: Vec, acts: Vec, kept: Vec) -> int:
    """The next round's tables a regular vanguard round ended in st can lead to (§4), one per
    choice the Player has: (active members, the card put into the reserve, 0 for none) into acts
    and kept (ENDINGS rows at most); their number, 0 when the party is gone (the game is lost).
    Lost: `falling` members go face down. Won: one reward, a card of the hand kept or a member
    revived; none when neither is possible."""
    act = active(st)
    if st[OUTCOME] != WON:
        left = act - falling(cards_in(st, WOLF), act)
        if left <= 0:
            return 0
        acts[0] = left
        kept[0] = 0
        return 1
    m = 0
    for v in range(1, 11):
        if st[HAND + v - 1] > 0:
            acts[m] = act
            kept[m] = v
            m += 1
    if can_revive(act):
        acts[m] = act + 1
        kept[m] = 0
        m += 1
    if m == 0:
        acts[0] = act
        kept[0] = 0
        m = 1
    return m


@jit(inline="always")
def player_points(st: Vec) -> int:
    """lobo: the Player's points for an ended round (the winning hand's values; 0 when lost)."""
    return value_of(st, HAND) if st[OUTCOME] == WON else 0


@jit(inline="always")
def wolf_points(st: Vec) -> int:
    """lobo: the Wolf's points for an ended round (the values left in its hand; 0 when won)."""
    return value_of(st, WOLF) if st[OUTCOME] == LOST else 0


# -- settling: the rules that follow every step --------------------------------------------------


@jit()
def settle(st: Vec) -> None:
    """Once nothing is owed: a vanguard round whose pile is empty is final (even when this same
    draw wins: a round whose pile ran out was the final round); an empty Wolf's hand wins; with
    the top card visible, a hidden new top card is about to be turned face up."""
    if st[OUTCOME] != 0 or st[OWED_P] > 0 or st[OWED_W] > 0:
        return
    if (st[RULESET] & FINAL_ROUND) != 0 and st[PILE] == 0:
        st[FINAL] = 1
    if cards_in(st, WOLF) == 0:
        st[OUTCOME] = WON
        st[REVEAL] = 0
    elif st[TOP_VISIBLE] == 1 and st[PILE] > 0 and st[NTOP] == 0:
        st[REVEAL] = 1


# -- legal moves ---------------------------------------------------------------------------------


@jit()
def _row(out: Vec, m: int, kind: int) -> int:
    """Start move row m (cleared) of the given kind; its offset in out."""
    at = m * MOVE
    for j in range(MOVE):
        out[at + j] = 0
    out[at + M_KIND] = kind
    return at


# An odometer's buffer (ints(4 * OD)): for each non-zero count, where it is, how many, its value
# and the counter's digit.
OD = 20
SLOT, HAVE, VAL, CUR = 0, OD, 2 * OD, 3 * OD
OD_WORDS = 4 * OD  # a constant, as stack() needs


@jit()
def _odometer(st: Vec, base: int, width: int, top: int, od: Vec) -> int:
    """Set up a mixed-radix counter over the non-zero counts among st[base : base + width] whose
    values are at most top; how many."""
    n = 0
    for i in range(width):
        v = i % 10 + 1
        if st[base + i] > 0 and v <= top:
            od[SLOT + n] = i
            od[HAVE + n] = st[base + i]
            od[VAL + n] = v
            od[CUR + n] = 0
            n += 1
    return n


@jit(inline="always")
def _tick(od: Vec, n: int, s: int, k: int, top: int) -> tuple[int, int, bool]:
    """The odometer's next group with a sum of at most top: (its sum, its card count, whether
    every group has been seen)."""
    i = 0
    while i < n:
        if od[CUR + i] < od[HAVE + i] and s + od[VAL + i] <= top:
            od[CUR + i] += 1
            return s + od[VAL + i], k + 1, False
        s -= od[CUR + i] * od[VAL + i]
        k -= od[CUR + i]
        od[CUR + i] = 0
        i += 1
    return s, k, True


@jit()
def _groups_of_mine(st: Vec, out: Vec, m: int, cap: int) -> int:
    """Perfect and Sum: every sub-multiset of hand and reserve (kept apart: which pays is part
    of the play) whose total is a value the Wolf holds. One pass of a mixed-radix counter over
    the counts, carrying past any count that would go beyond the Wolf's biggest value (every
    value is positive, so the totals at or below it form a down-set and nothing is skipped)."""
    top = 0
    for v in range(10, 0, -1):
        if st[WOLF + v - 1] > 0:
            top = v
            break
    if top == 0:
        return m
    od = stack_scratch(OD_WORDS)
    n = _odometer(st, HAND, 20, top, od)  # HAND + 10.. is RESERVE: one pool
    s = 0
    k = 0
    while True:
        s, k, done = _tick(od, n, s, k, top)
        if done:
            return m
        if st[WOLF + s - 1] > 0:
            if m >= cap:
                return -1
            at = _row(out, m, PERFECT if k == 1 else SUM)
            for j in range(n):
                out[at + M_HAND + od[SLOT + j]] = od[CUR + j]  # M_RESERVE follows M_HAND
            out[at + M_WOLF + s - 1] = 1
            m += 1


@jit()
def _splits(st: Vec, out: Vec, m: int, cap: int) -> int:
    """Split: two or more Wolf cards adding up to one card of the Player's (hand or reserve)."""
    top = 0
    for v in range(10, 0, -1):
        if st[HAND + v - 1] > 0 or st[RESERVE + v - 1] > 0:
            top = v
            break
    if top == 0:
        return m
    od = stack_scratch(OD_WORDS)
    n = _odometer(st, WOLF, 10, top, od)
    s = 0
    k = 0
    while True:
        s, k, done = _tick(od, n, s, k, top)
        if done:
            return m
        if k < 2:
            continue
        for source in range(2):
            base = HAND if source == 0 else RESERVE
            if st[base + s - 1] > 0:
                if m >= cap:
                    return -1
                at = _row(out, m, SPLIT)
                out[at + (M_HAND if source == 0 else M_RESERVE) + s - 1] = 1
                for j in range(n):
                    out[at + M_WOLF + od[SLOT + j]] = od[CUR + j]
                m += 1


# The gates of the play types that depend on the round, not on the cards' values: moves() opens
# them and rules.why_illegal names the one a play fails, so each is written here once.
NO_SACRIFICES, NOT_FINAL, LAST_MEMBER, IN_FINAL, PILE_SHORT = 1, 2, 3, 4, 5


@jit(inline="always")
def sacrifice_open(st: Vec) -> int:
    """0 when a sacrifice may be made here, else which gate is shut: NO_SACRIFICES, NOT_FINAL,
    LAST_MEMBER (the member's own state is the play's: rules.why_illegal)."""
    if (st[RULESET] & SACRIFICES) == 0:
        return NO_SACRIFICES
    if st[FINAL] != 1:
        return NOT_FINAL
    if active(st) < 2:
        return LAST_MEMBER
    return 0


@jit(inline="always")
def draw_play_open(st: Vec, d: int) -> int:
    """0 when a Split (d = 1) or an Over making the Wolf draw d cards may be made here, else
    IN_FINAL or PILE_SHORT."""
    if st[FINAL] == 1:
        return IN_FINAL
    if d > st[PILE]:
        return PILE_SHORT
    return 0


@jit()
def moves(st: Vec, out: Vec, cap: int) -> int:
    """Every distinct legal move at a decision node into out (at most cap rows of MOVE ints);
    their number, or -1 when they need more than cap rows.
    Fold is always legal, and last. The order is the search's: Perfect and Sum, Sacrifice,
    Split, then Over by the difference, smallest first (moves that shrink the Wolf's hand
    without giving it cards first: they cut the search soonest)."""
    m = _groups_of_mine(st, out, 0, cap)
    if m < 0:
        return -1
    if sacrifice_open(st) == 0:
        for bit in (JACK, QUEEN, KING):
            if st[PARTY] & bit:
                for w in range(1, 11):
                    if st[WOLF + w - 1] > 0:
                        if m >= cap:
                            return -1
                        at = _row(out, m, SACRIFICE)
                        out[at + M_WOLF + w - 1] = 1
                        out[at + M_MEMBER] = bit
                        m += 1
    if draw_play_open(st, 1) == 0:
        m = _splits(st, out, m, cap)
        if m < 0:
            return -1
    for d in range(1, 10):
        if draw_play_open(st, d) != 0:
            break
        for source in range(2):
            base = HAND if source == 0 else RESERVE
            for p in range(d + 1, 11):
                w = p - d
                if st[base + p - 1] > 0 and st[WOLF + w - 1] > 0:
                    if m >= cap:
                        return -1
                    at = _row(out, m, OVER)
                    out[at + (M_HAND if source == 0 else M_RESERVE) + p - 1] = 1
                    out[at + M_WOLF + w - 1] = 1
                    m += 1
    if m >= cap:
        return -1
    _row(out, m, FOLD)
    return m + 1


@jit()
def move_sum(mv: Vec, at: int, base: int) -> int:
    """The total value of the cards a move row takes from base (M_HAND, M_RESERVE, M_WOLF)."""
    t = 0
    for i in range(10):
        t += (i + 1) * mv[at + base + i]
    return t


@jit()
def draws_of(st: Vec, mv: Vec, at: int) -> int:
    """How many cards the move makes someone draw (the Player for Perfect and Sum)."""
    kind = mv[at + M_KIND]
    if kind == PERFECT or kind == SUM:  # noqa: SIM109 - compiled code: no `in` on tuples
        return 1 if st[FINAL] == 0 and st[PILE] > 0 else 0
    if kind == SPLIT:
        return 1
    if kind == OVER:
        return move_sum(mv, at, M_HAND) + move_sum(mv, at, M_RESERVE) - move_sum(mv, at, M_WOLF)
    return 0


# -- applying moves and draws --------------------------------------------------------------------


@jit()
def _take_tops(st: Vec, k: int, to: int) -> None:
    """The k known top cards go to the hand (to = HAND) or the Wolf's hand (to = WOLF)."""
    for j in range(k):
        st[to + st[TOPS + j] - 1] += 1
    n = st[NTOP]
    for j in range(n - k):
        st[TOPS + j] = st[TOPS + j + k]
    for j in range(n - k, n):
        st[TOPS + j] = 0
    st[NTOP] = n - k
    st[PILE] -= k


@jit(inline="always")
def _copy(st: Vec, child: Vec) -> None:
    """child := st, as far as it is read: the known top cards past NTOP never are."""
    for i in range(TOPS + st[NTOP]):  # a loop: a slice assignment may copy through the heap
        child[i] = st[i]


@jit()
def apply_move(st: Vec, mv: Vec, at: int, child: Vec) -> None:
    """child := the state after the legal move at row `at` of mv, its known top cards drawn and
    settled; a chance node if unknown cards are still owed."""
    _copy(st, child)
    kind = mv[at + M_KIND]
    if kind == FOLD:
        child[OUTCOME] = LOST
        return
    for i in range(10):
        child[HAND + i] -= mv[at + M_HAND + i]
        child[RESERVE + i] -= mv[at + M_RESERVE + i]
        child[WOLF + i] -= mv[at + M_WOLF + i]
    if kind == SACRIFICE:
        child[PARTY] &= ~mv[at + M_MEMBER]
    owed = draws_of(st, mv, at)
    # Known top cards are drawn first, in order; what stays owed comes from the unknown part.
    k = min(owed, child[NTOP])
    to = HAND if kind == PERFECT or kind == SUM else WOLF  # noqa: SIM109
    if k > 0:
        _take_tops(child, k, to)
    if to == HAND:
        child[OWED_P] = owed - k
    else:
        child[OWED_W] = owed - k
    settle(child)


@jit()
def apply_draw(st: Vec, drawn: Vec, at: int, child: Vec) -> None:
    """child := the state after a chance node's outcome: the counts drawn (row `at` of drawn, 10
    ints) go to whoever is owed them, or become the new known top card (a reveal)."""
    _copy(st, child)
    for i in range(10):
        child[UNSEEN + i] -= drawn[at + i]
    owed = st[OWED_P] + st[OWED_W]
    if owed == 0:  # a reveal: the new top card is known
        for i in range(10):
            if drawn[at + i] > 0:
                child[TOPS] = i + 1
        child[NTOP] = 1
        child[REVEAL] = 0
        settle(child)
        return
    to = HAND if st[OWED_P] > 0 else WOLF
    for i in range(10):
        child[to + i] += drawn[at + i]
    child[PILE] -= owed
    child[OWED_P] = 0
    child[OWED_W] = 0
    settle(child)


# -- the greedy rule and a round played out by it --------------------------------------------------
# The rule's words are GREEDY_PLAY_RULE (solver/search/rollout.py); the simulator's greedy policy
# and every greedy rollout (the best policy's; the estimates' but under `game`) play by them.

GREEDY_BASE = 256  # a rank's digits: counts of cards (at most 50 of a deck) and values


@jit()
def greedy_rank(mv: Vec, at: int) -> int:
    """The greedy rule's rank of move row `at`, smaller better: Perfect, Sum and Split by the most
    Wolf cards taken, the fewest of the Player's cards, the fewest reserve cards, the highest Wolf
    card; then Over by the smallest difference, the highest Wolf card, the fewest reserve cards;
    then Sacrifice on the highest Wolf card; Fold last."""
    kind = mv[at + M_KIND]
    taken = mine = kept = top = 0
    for i in range(10):
        taken += mv[at + M_WOLF + i]
        mine += mv[at + M_HAND + i] + mv[at + M_RESERVE + i]
        kept += mv[at + M_RESERVE + i]
        if mv[at + M_WOLF + i] > 0:
            top = i + 1
    b = GREEDY_BASE
    if kind == PERFECT or kind == SUM or kind == SPLIT:  # noqa: SIM109 - compiled code: no `in` on tuples
        return (((0 * b + (b - 1 - taken)) * b + mine) * b + kept) * b + (10 - top)
    if kind == OVER:
        return (
            ((1 * b + (move_sum(mv, at, M_HAND) + move_sum(mv, at, M_RESERVE) - top)) * b + (10 - top)) * b + kept
        ) * b
    if kind == SACRIFICE:
        return (((2 * b) * b) * b * b) + (10 - top)
    return 3 * b * b * b * b


@jit()
def _cards_order(mv: Vec, a: int, b: int, base: int) -> int:
    """-1, 0 or 1 as rows a's cards at base, as an ascending tuple of values, sort before, with or
    after row b's (a tuple that is the start of another sorts first)."""
    i = j = 0
    ra = mv[a + base]
    rb = mv[b + base]
    while True:
        while i < 10 and ra == 0:
            i += 1
            ra = mv[a + base + i] if i < 10 else 0
        while j < 10 and rb == 0:
            j += 1
            rb = mv[b + base + j] if j < 10 else 0
        if i == 10 or j == 10:
            return 0 if i == j else (-1 if i == 10 else 1)
        if i != j:
            return -1 if i < j else 1
        ra -= 1
        rb -= 1


@jit()
def listed_before(mv: Vec, a: int, b: int) -> bool:
    """Whether row a comes before row b in the order plays are listed (Play.sort_key: kind, then
    the Wolf's cards, the hand's, the reserve's, the member): the greedy rule's last tie-break."""
    if mv[a + M_KIND] != mv[b + M_KIND]:
        return mv[a + M_KIND] < mv[b + M_KIND]
    for base in (M_WOLF, M_HAND, M_RESERVE):
        c = _cards_order(mv, a, b, base)
        if c != 0:
            return c < 0
    return mv[a + M_MEMBER] < mv[b + M_MEMBER]


@jit()
def greedy(mv: Vec, m: int) -> int:
    """The offset of the move the greedy rule makes among the m rows of mv (the best rank; among
    equal ranks the one listed first)."""
    best = 0
    rank = greedy_rank(mv, 0)
    for g in range(1, m):
        at = g * MOVE
        r = greedy_rank(mv, at)
        if r < rank or (r == rank and listed_before(mv, at, best)):
            best, rank = at, r
    return best


# -- the rollout policy: a weighted score of each legal move ----------------------------------------
# The estimates' rollouts under `game` play by it (weights tuned offline, per game and difficulty,
# against the evaluator's values of the round's ends: solver/train/rollout_weights.py); weights
# with w[RP_ON] = 0 are the greedy rule itself. A move's score is the sum of w[F] × feature F, in
# the order listed; the best score is played, the one listed first among equal scores.

RP_ON = 0
RP_WIN = 1  # the move empties the Wolf's hand (Perfect or Sum on its last cards)
RP_TAKEN = 2  # Wolf cards it takes
RP_MINE = 3  # hand cards it uses
RP_KEPT = 4  # reserve cards it uses
RP_TOP = 5  # the highest Wolf card it takes (its value)
RP_OVER = 6  # 1 for an Over
RP_DIFF = 7  # an Over's difference: the cards the Wolf draws
RP_SPLIT = 8  # 1 for a Split
RP_SPENT = 9  # the total value of the hand cards it uses
RP_WOLF_AFTER = 10  # the Wolf's cards after it, its draws included
RP_DIFF_NEAR = 11  # an Over's difference when the pile is small (vanguard: the next deal is surely final)
RP_MINE_AFTER = 12  # the Player's hand after it, its draw included
RP_FOLD = 13  # Fold: a constant,
RP_FOLD_COST = 14  # × what it costs: the members it turns face down (vanguard), the Wolf's points (lobo),
RP_FOLD_ACTIVE = 15  # × the members active,
RP_FOLD_NEAR = 16  # × 1 when the pile is that small
RP_SIZE = 17
GREEDY_WEIGHTS = (0.0,) * RP_SIZE  # w[RP_ON] = 0: the greedy rule


@jit()
def policy_score(st: Vec, mv: Vec, at: int, w: Vec) -> float:
    """The rollout policy's score of the legal move at row `at` of mv (higher is better)."""
    kind = mv[at + M_KIND]
    k = cards_in(st, WOLF)
    near = 1.0 if near_final(st) else 0.0
    if kind == FOLD:
        act = active(st)
        cost = value_of(st, WOLF) if (st[RULESET] & RACE) != 0 else falling(k, act)
        return w[RP_FOLD] + w[RP_FOLD_COST] * cost + w[RP_FOLD_ACTIVE] * act + w[RP_FOLD_NEAR] * near
    taken = mine = kept = top = spent = 0
    for i in range(10):
        taken += mv[at + M_WOLF + i]
        mine += mv[at + M_HAND + i]
        kept += mv[at + M_RESERVE + i]
        spent += (i + 1) * mv[at + M_HAND + i]
        if mv[at + M_WOLF + i] > 0:
            top = i + 1
    over = 1 if kind == OVER else 0
    split = 1 if kind == SPLIT else 0
    diff = spent + move_sum(mv, at, M_RESERVE) - top if over == 1 else 0
    wolf_after = k - taken + diff + split
    gains = 1 if kind == PERFECT or kind == SUM else 0  # noqa: SIM109 - compiled code: no `in` on tuples
    drawn = 1 if gains == 1 and st[PILE] > 0 else 0
    win = 1 if wolf_after == 0 and gains == 1 else 0
    x = w[RP_WIN] * win
    x += w[RP_TAKEN] * taken
    x += w[RP_MINE] * mine
    x += w[RP_KEPT] * kept
    x += w[RP_TOP] * top
    x += w[RP_OVER] * over
    x += w[RP_DIFF] * diff
    x += w[RP_SPLIT] * split
    x += w[RP_SPENT] * spent
    x += w[RP_WOLF_AFTER] * wolf_after
    x += w[RP_DIFF_NEAR] * diff * near
    x += w[RP_MINE_AFTER] * (cards_in(st, HAND) - mine + drawn)
    return x


@jit()
def choose(st: Vec, mv: Vec, m: int, w: Vec) -> int:
    """The offset of the move the rollout policy makes among the m rows of mv: the greedy rule's
    when w[RP_ON] is 0, else the best score (among equal scores, the one listed first)."""
    if w[RP_ON] == 0.0:
        return greedy(mv, m)
    best = 0
    score = policy_score(st, mv, 0, w)
    for g in range(1, m):
        at = g * MOVE
        x = policy_score(st, mv, at, w)
        if x > score or (x == score and listed_before(mv, at, best)):
            best, score = at, x
    return best


@jit(heap=True)
def play_out(st: Vec, order: Vec, at: int, w: Vec) -> int:
    """The round in st played on by the rollout policy of weights w (w[RP_ON] = 0: the greedy
    rule), in place, the unknown cards drawn in the order order[at], order[at + 1], … (known top
    cards are drawn first by apply_move), until it ends or (vanguard) reaches a decision of its
    final round. Returns where the order stops."""
    cap = 64
    out = scratch(cap * MOVE)
    child = scratch(STATE)
    drawn = ints(10)
    final_round = (st[RULESET] & FINAL_ROUND) != 0
    while st[OUTCOME] == 0:
        if is_chance(st):
            d = st[OWED_P] + st[OWED_W]
            if d == 0:
                d = 1  # a reveal
            for i in range(10):
                drawn[i] = 0
            for j in range(d):
                drawn[order[at + j] - 1] += 1
            at += d
            apply_draw(st, drawn, 0, child)
        elif final_round and st[FINAL] == 1:
            return at
        else:
            m = moves(st, out, cap)
            while m < 0:
                cap *= 4
                out = scratch(cap * MOVE)
                m = moves(st, out, cap)
            apply_move(st, out, choose(st, out, m, w), child)
        _copy(child, st)
    return at


# -- chance: what a draw can bring ---------------------------------------------------------------


def _binomials() -> tuple[float, ...]:
    from math import comb

    return tuple(float(comb(n, k)) if k <= n else 0.0 for n in range(STATE) for k in range(12))


# C(n, k) as floats (all exact: below 2**53), row n of 12 (compiled mode: the same as an array).
BINOMIAL: Any
try:
    BINOMIAL = __lobo_binomial__  # type: ignore[name-defined]
except NameError:
    BINOMIAL = _binomials()


WAYS = 11 * 16  # draw_count's table on the stack, for draws of up to 15 cards


@jit(heap=True)
def draw_count(unseen: Vec, base: int, d: int) -> int:
    """How many multisets of d values the unseen counts (at base) allow."""
    size = 11 * (d + 1)
    ways = stack_scratch(WAYS) if size <= WAYS else scratch(size)
    for i in range(size):
        ways[i] = 0
    ways[0] = 1
    for i in range(10):
        for j in range(d + 1):
            w = ways[i * (d + 1) + j]
            if w:
                for k in range(min(unseen[base + i], d - j) + 1):
                    ways[(i + 1) * (d + 1) + j + k] += w
    return ways[10 * (d + 1) + d]


@jit()
def draws(unseen: Vec, base: int, d: int, out: Vec, prob: Vec) -> int:
    """Every multiset of d values drawn from the unseen counts (at base), as rows of 10 counts in
    out, and its probability (multivariate hypergeometric) in prob; their number. Depth first
    over the values, the highest count first; cap[i], the cards of values i and up, keeps out of
    branches that cannot make up d."""
    total = 0
    for i in range(10):
        total += unseen[base + i]
    denominator = BINOMIAL[total * 12 + d]
    cap = stack(11)
    for i in range(9, -1, -1):
        cap[i] = cap[i + 1] + unseen[base + i]
    cur = stack(10)
    low = stack(10)
    need = stack(10)
    need[0] = d
    cur[0] = min(d, unseen[base])
    low[0] = max(0, d - cap[1])
    m = 0
    i = 0
    while True:
        if cur[i] < low[i]:
            i -= 1
            if i < 0:
                break
            cur[i] -= 1
            continue
        rest = need[i] - cur[i]
        if rest == 0:
            w = 1.0
            for j in range(10):
                c = cur[j] if j <= i else 0
                out[m * 10 + j] = c
                if c:
                    w *= BINOMIAL[unseen[base + j] * 12 + c]
            prob[m] = w / denominator
            m += 1
            cur[i] -= 1
            continue
        if i == 9:  # rest > 0 with no value left: cap makes this impossible, but be sure
            cur[i] -= 1
            continue
        i += 1
        need[i] = rest
        cur[i] = min(rest, unseen[base + i])
        low[i] = max(0, rest - cap[i + 1])
    return m


@jit()
def owed_now(st: Vec) -> int:
    """How many cards a chance node draws or reveals (a reveal is one)."""
    owed = st[OWED_P] + st[OWED_W]
    return owed if owed > 0 else 1


# -- exact cover: the final round ----------------------------------------------------------------


@jit()
def _hopeless(wolf: Vec, avail: Vec, allowed: int) -> bool:
    """No cover is left: every Wolf card not sacrificed takes at least one of the Player's cards,
    and as much of their total as its value, even with the `allowed` biggest sacrificed. (Without
    this, a big Wolf hand against many small cards searched for seconds.)"""
    wolf_cards = 0
    wolf_total = 0
    cards = 0
    total = 0
    for v in range(1, 11):
        wolf_cards += wolf[v - 1]
        wolf_total += v * wolf[v - 1]
        cards += avail[v - 1]
        total += v * avail[v - 1]
    if cards < wolf_cards - allowed:
        return True
    spared = 0
    left = allowed
    for v in range(10, 0, -1):
        if left <= 0:
            break
        take = min(left, wolf[v - 1])
        spared += take * v
        left -= take
    return total < wolf_total - spared


@jit()
def _cover(wolf: Vec, avail: Vec, allowed: int, rem: int, start: int) -> int:
    """Fewest sacrifices covering the Wolf's cards (counts), or -1. rem > 0: a group for the card
    being covered still needs rem more, from values >= start."""
    if rem > 0:
        best = -1
        for v in range(start, min(rem, 10) + 1):
            if avail[v - 1] > 0:
                avail[v - 1] -= 1
                r = _cover(wolf, avail, allowed, rem - v, v)
                avail[v - 1] += 1
                if r >= 0 and (best < 0 or r < best):
                    best = r
                    if best == 0:
                        return 0
        return best
    # The next card to cover: the biggest (the fewest groups: dead ends show early).
    w = 0
    for v in range(10, 0, -1):
        if wolf[v - 1] > 0:
            w = v
            break
    if w == 0:
        return 0
    if _hopeless(wolf, avail, allowed):
        return -1
    wolf[w - 1] -= 1
    best = _cover(wolf, avail, allowed, w, ONE)
    if best != 0 and allowed > 0:
        r = _cover(wolf, avail, allowed - ONE, ZERO, ONE)
        if r >= 0 and (best < 0 or r + 1 < best):
            best = r + 1
    wolf[w - 1] += 1
    return best


@jit()
def min_sacrifices(st: Vec, allowed: int) -> int:
    """Fewest sacrifices (at most `allowed`) with which the Wolf's cards can all be covered by
    disjoint groups of the Player's cards (hand and reserve: which pays does not matter here)
    adding up exactly to each; -1 when they cannot."""
    wolf = stack(10)
    avail = stack(10)
    cards = 0
    for i in range(10):
        wolf[i] = st[WOLF + i]
        avail[i] = st[HAND + i] + st[RESERVE + i]
        cards += avail[i] - wolf[i]
    if cards + allowed < 0:
        return -1  # every Wolf card not sacrificed needs a card of the Player's
    return _cover(wolf, avail, allowed, ZERO, ONE)


# -- sure losses (vanguard): see the argument in solver/search/bounds.py -------------------------


@jit(inline="always")
def _pool_count(st: Vec, val: int, with_wolf: bool) -> int:
    """Cards of this value among the known top cards, the unseen ones and (with_wolf) the Wolf's."""
    n = st[UNSEEN + val - 1] + (st[WOLF + val - 1] if with_wolf else 0)
    for j in range(st[NTOP]):
        if st[TOPS + j] == val:
            n += 1
    return n


@jit()
def _highest_pool(st: Vec, k: int, with_wolf: bool) -> int:
    """The total of the k highest cards among the known top cards, the unseen ones and (with_wolf)
    the Wolf's hand."""
    total = 0
    for val in range(10, 0, -1):
        if k == 0:
            break
        take = min(k, _pool_count(st, val, with_wolf))
        total += take * val
        k -= take
    return total


@jit()
def split_gain(st: Vec, left: int) -> int:
    """The most that Splits into four or more cards can still add to Ψ = P - K + n: with g such
    Splits, their cards number at most the count of the smallest values (among every card the
    Wolf holds or may yet draw) that fit within g × the top value."""
    if left <= 0:
        return 0
    top = st[TOPV]
    best = 0
    fits = 0  # how many of the smallest cards add up to at most g × top
    total = 0
    val = 1
    have = _pool_count(st, 1, True)
    for g in range(1, left + 1):
        while val <= 10:
            if have == 0:
                val += 1
                if val <= 10:
                    have = _pool_count(st, val, True)
                continue
            if total + val > g * top:
                break
            total += val
            fits += 1
            have -= 1
        if fits < 4 * g:
            break
        best = max(best, fits - 3 * g)
    return best


@jit(inline="always")
def _count_terms(st: Vec) -> tuple[int, int, int]:
    """The count argument's P, K and n (solver/search/bounds.py): the Player's cards and the
    Wolf's, each with the draws owed to it, and the pile left after those draws."""
    player = cards_in(st, HAND) + cards_in(st, RESERVE) + st[OWED_P]
    wolf = cards_in(st, WOLF) + st[OWED_W]
    return player, wolf, st[PILE] - st[OWED_P] - st[OWED_W]


@jit()
def sure_loss(st: Vec) -> bool:
    """True only when no order of the pile and no line of play wins this vanguard round (the
    count argument and the value argument, solver/search/bounds.py)."""
    if (st[RULESET] & FINAL_ROUND) == 0 or st[OUTCOME] != 0:
        return False
    player, wolf, left = _count_terms(st)
    sacrifices = max(0, active(st) - 1)
    if player == 0 and left > 0 and st[FINAL] == 0:
        return True  # no card to play and the round is not final: only Fold
    psi = player - wolf + left + sacrifices
    if psi < 0 and psi + split_gain(st, left) < 0:
        return True
    v = value_of(st, HAND) + value_of(st, RESERVE) - value_of(st, WOLF)
    if v >= 0:
        return False
    draws_left = max(0, left) + st[OWED_P]
    high = _highest_pool(st, draws_left, False) if draws_left > 0 else 0
    if st[OWED_W] == 0 and left <= 0:
        # Nothing more will come to the Wolf: it can only sacrifice cards it holds now.
        sac = 0
        k = sacrifices
        for val in range(10, 0, -1):
            if k == 0:
                break
            take = min(k, st[WOLF + val - 1])
            sac += take * val
            k -= take
    else:
        sac = sacrifices * st[TOPV]
    return v + high + sac < 0


@jit()
def loss_takes_all(st: Vec) -> bool:
    """True only when every way this vanguard round can still be lost turns the last active member
    face down: one member is active, or the count argument (solver/search/bounds.py) keeps at least
    as many cards in the Wolf's hand as there are members, until the round ends. (A final round
    lost loses the game whatever the party.)"""
    act = active(st)
    if act <= 1:
        return True
    player, wolf, left = _count_terms(st)
    # The Wolf holds K = P + n - Ψ >= -Ψ cards at any moment, and Ψ never grows past its value
    # now plus what Splits can add (sacrifices only come in the final round).
    psi = player - wolf + left
    return psi + act <= 0 and psi + split_gain(st, left) + act <= 0


@jit()
def _sums_of_two_or_more(st: Vec, base: int, also: int) -> int:
    """Bit v set: some two or more of these cards (counts at base, plus at also if also >= 0) add
    up to v (v <= 10)."""
    one = 0  # sums of one or more cards
    two = 0
    for v in range(1, 11):
        n = st[base + v - 1] + (st[also + v - 1] if also >= 0 else 0)
        for _ in range(n):
            two = (two | (one << v)) & 0x7FF
            one = (one | (1 << v) | (one << v)) & 0x7FF
    return two


@jit()
def no_play(st: Vec) -> bool:
    """Before the final round: only Fold is legal (no Perfect, Sum, Split or Over)."""
    mine = 0
    wolf = 0
    for v in range(1, 11):
        if st[HAND + v - 1] > 0 or st[RESERVE + v - 1] > 0:
            mine |= 1 << v
        if st[WOLF + v - 1] > 0:
            wolf |= 1 << v
    if mine & wolf:
        return False  # a Perfect
    for d in range(1, min(st[PILE], 9) + 1):
        if mine & (wolf << d):
            return False  # an Over by d
    if _sums_of_two_or_more(st, HAND, RESERVE) & wolf:
        return False  # a Sum
    return not (st[PILE] >= 1 and _sums_of_two_or_more(st, WOLF, -1) & mine)  # a Split


@jit()
def _pair_sums(st: Vec) -> int:
    """Bit v set: some two of the Player's cards add up to v (v <= 10)."""
    out = 0
    for x in range(1, 6):
        for y in range(x, 11 - x):
            nx = st[HAND + x - 1] + st[RESERVE + x - 1]
            ny = st[HAND + y - 1] + st[RESERVE + y - 1]
            if nx and ny and (x != y or nx >= 2):
                out |= 1 << (x + y)
    return out


@jit()
def dead_end(st: Vec) -> bool:
    """A vanguard decision before the final round that is lost: only Fold is legal, or the count
    argument holds one play ahead. Without a Perfect or a Split, every play lowers Ψ (a Sum of k
    cards by k - 1, an Over by 2d): by 2 or more unless a Sum of two cards is legal."""
    if (st[RULESET] & FINAL_ROUND) == 0 or st[FINAL] == 1 or st[OUTCOME] != 0 or st[NTOP] > 0:
        return False
    if no_play(st):
        return True
    mine = 0
    wolf = 0
    for v in range(1, 11):
        if st[HAND + v - 1] > 0 or st[RESERVE + v - 1] > 0:
            mine |= 1 << v
        if st[WOLF + v - 1] > 0:
            wolf |= 1 << v
    if mine & wolf or (st[PILE] >= 1 and _sums_of_two_or_more(st, WOLF, -1) & mine):
        return False
    step = 1 if _pair_sums(st) & wolf else 2
    player, wolf_cards, left = _count_terms(st)  # nothing is owed at a decision
    psi = player - wolf_cards + left + max(0, active(st) - 1) - step
    if psi >= 0:
        return False
    return psi + split_gain(st, left) < 0


@jit()
def _split_most(st: Vec, holdable: int, drawn: int) -> int:
    """The most of the Wolf's cards that one Split can take: that add up to a value whose bit is
    set in holdable (a card the Player may hold then); 0 if none (j >= 2). The Wolf's cards are
    those it holds and, when it is owed `drawn` cards, up to that many of each unseen value."""
    sums = stack(11)  # sums[j]: bit s set when some j of the Wolf's cards add up to s <= 10
    sums[0] = 1
    for v in range(1, 11):
        for _ in range(st[WOLF + v - 1] + min(drawn, st[UNSEEN + v - 1])):
            for j in range(10, 0, -1):
                sums[j] |= (sums[j - 1] << v) & 0x7FF
    for j in range(10, 1, -1):
        if sums[j] & holdable:
            return j
    return 0


@jit()
def _matches(st: Vec) -> tuple[int, int]:
    """What Perfects can take of the Wolf's hand as it is now: for each value, the fewer of its
    Wolf cards and of the cards of that value the Player holds or may draw (hand, reserve, unseen,
    known top cards); and the values the Player may hold, as bits."""
    matched = 0
    holdable = 0
    for v in range(1, 11):
        can = st[HAND + v - 1] + st[RESERVE + v - 1] + st[UNSEEN + v - 1]
        for t in range(min(st[NTOP], MAX_TOPS)):
            if st[TOPS + t] == v:
                can += 1
        if can > 0:
            holdable |= 1 << v
        matched += min(st[WOLF + v - 1], can)
    return matched, holdable


@jit()
def _perfects_fall_short(st: Vec, c: int, need: int) -> bool:
    """lone_card's other case: the one card c equals a Wolf card, or may once the Wolf has drawn
    the d cards it is owed (then every bound below holds whatever it draws: k and the pile are
    counted after the draw, a drawn card adds at most one Perfect, and the Split counts up to d of
    each unseen value among the Wolf's cards). The Player never
    holds two cards again (a Perfect draws one for the one it plays; no Sum; an Over or a Split
    leaves none, and only Fold follows before the final round). So the Wolf's hand shrinks only by
    Perfects, each of a card the Player holds or may draw: at most `matched` of them, and at most 1
    + pile. The round is won only (1) by Perfects alone, (2) by Perfects that empty the pile, then
    one more and the final round's active - 1 sacrifices, (3) by m Perfects, then an Over by the
    pile's last pile - m cards, the Wolf's k - m - 1 + (pile - m) cards all sacrificed, or (4) by
    m = pile - 1 Perfects, then a Split of j cards that empties the pile, the Wolf's k - m - j + 1
    all sacrificed. True when none can happen, and every loss leaves the Wolf at least `need`
    cards (it loses at most matched, and j - 1 to a Split)."""
    d = st[OWED_W]
    k = cards_in(st, WOLF) + d
    pile = st[PILE] - d
    sac = active(st) - 1
    matched, holdable = _matches(st)  # c is the Player's one card: it is among them
    matched = min(matched + d, 1 + pile)
    j = _split_most(st, holdable, d)
    if k - matched - max(0, j - 1) < need:
        return False  # a loss may leave the Wolf fewer cards than `need`
    if matched >= k or (matched >= pile and matched + sac >= k):
        return False  # (1), (2)
    m = min(matched, pile - 1)
    if m >= 0 and k + pile - 2 * m <= sac + 1:
        return False  # (3)
    return not (pile - 1 <= matched and j >= 2 and k - (pile - 1) - j + 1 <= sac)  # (4)


@jit()
def few_matches(st: Vec) -> bool:
    """A vanguard round before its final round with one member active (no sacrifice, ever), at a
    decision or while cards are drawn: True only when it cannot be won. The Player's cards P (hand,
    reserve and a draw owed) never grow, and once P is down to 1 only Perfects go on (an Over or a
    Split then leaves nothing and the Wolf a card). So at most P - 1 plays are not Perfects, each
    taking at most max(1, j) of the Wolf's cards (a Sum one, an Over one, a Split j), and the
    Perfects take at most the Wolf's cards of values the Player holds or may draw, one each (plus
    one for each card the Wolf is owed). Cards the Wolf draws later only add to what must go (a
    Perfect or a Split takes no more of them than they added; but a Split that takes some may
    take more of the Wolf's cards now than one that takes none: _split_most_with_draws). Lost
    when all of that falls short of the Wolf's hand."""
    if (st[RULESET] & FINAL_ROUND) == 0 or st[FINAL] == 1 or st[OUTCOME] != 0 or active(st) != 1:
        return False
    d = st[OWED_W]
    if st[REVEAL] == 1 or (d > 0 and st[NTOP] > 0):
        return False
    k = cards_in(st, WOLF) + d
    mine = cards_in(st, HAND) + cards_in(st, RESERVE) + st[OWED_P]
    matched, holdable = _matches(st)
    matched += d
    if matched + max(0, mine - 1) >= k:
        return False  # (without looking for Splits: the common case, and the cheaper test)
    j = _split_most(st, holdable, d) if st[PILE] - d <= 0 else _split_most_with_draws(st, holdable, d)
    return matched + max(0, mine - 1) * max(1, j) < k


@jit()
def _split_most_with_draws(st: Vec, holdable: int, drawn: int) -> int:
    """few_matches' Split while the Wolf may still draw: a Split may add cards the Wolf draws later
    to its own (6 = 1 + 2 + 3 with the 1 drawn after an Over). Those it takes net nothing (each
    was added first), so what counts is how many of the Wolf's cards now (and up to `drawn` of
    each unseen value) one Split can take: at most the most of them whose values add up to no more
    than the highest value the Player may hold, its smallest cards."""
    top = 0
    for v in range(1, 11):
        if holdable & (1 << v):
            top = v
    j = 0
    total = 0
    for v in range(1, 11):
        for _ in range(st[WOLF + v - 1] + min(drawn, st[UNSEEN + v - 1])):
            if total + v > top:
                return j
            total += v
            j += 1
    return j


@jit()
def lone_card(st: Vec, need: int) -> bool:
    """A vanguard round before its final round where the Player holds one card (hand and reserve
    together). True only when no line from here wins the round or ends it with fewer than `need`
    Wolf cards: need 1, the round is lost; need = active, every loss turns the whole party face
    down. Where a Wolf card equals the card, or a card the Wolf is drawing may: _perfects_fall_short.
    Otherwise, at a decision or while the Wolf draws: no Perfect,
    no Sum, so every play but Fold is an Over or a Split, which leaves the Player nothing while the
    pile still holds cards (only Fold follows) and the Wolf at least one card. A play that empties
    the pile (the final round: the sacrifices may cover the Wolf's hand) is ruled out rather than
    followed."""
    if (st[RULESET] & FINAL_ROUND) == 0 or st[FINAL] == 1 or st[OUTCOME] != 0:
        return False
    d = st[OWED_W]
    if st[OWED_P] > 0 or st[REVEAL] == 1 or (d > 0 and st[NTOP] > 0):
        return False
    c = 0
    for v in range(1, 11):
        n = st[HAND + v - 1] + st[RESERVE + v - 1]
        if n > 0:
            if n > 1 or c > 0:
                return False
            c = v
    if c > 0 and (st[WOLF + c - 1] > 0 or (d > 0 and st[UNSEEN + c - 1] > 0)):
        return _perfects_fall_short(st, c, need)
    k = cards_in(st, WOLF) + d
    pile = st[PILE] - d
    if c == 0 or k < need or pile < 2:
        return False  # (no card: sure_loss's case), a Perfect, a Fold that leaves fewer, or a Split that ends the pile
    # An Over by d = pile ends the pile: the Wolf then holds k - 1 + d cards, for active - 1 sacrifices.
    if c > pile and k - 1 + pile <= active(st) - 1:
        return False
    if need > 1:
        # A Split into j cards leaves the Wolf k - j + 1: j is at most how many of its smallest
        # cards (those it holds, and any it may draw) fit within c.
        j = 0
        total = 0
        for v in range(1, c):
            for _ in range(st[WOLF + v - 1] + (min(d, st[UNSEEN + v - 1]) if d > 0 else 0)):
                if total + v <= c:
                    total += v
                    j += 1
        if j >= 2 and k - j + 1 < need:
            return False
    return True


# -- keys: a state as a few integers -------------------------------------------------------------

KEY_WORDS = 3  # without known top cards past the tenth; each further word holds 15 more
# At most one known top card: two words, so a table entry is 32 bytes, two to a cache line
# (sessions 16 and 22, bench/README.md). Hand and reserve kept as one: the reserve's bits hold the
# third word; kept apart: each value's four counts as one of 330 ids (RANK4), 9 bits.
COMPACT_WORDS = 2


def _ranks4() -> tuple[int, ...]:
    """An id for every (hand, reserve, Wolf, unseen) count of one value that key_fits allows (seven
    in all at most): 330 of them, so 9 bits; indexed by the four counts' 3-bit fields."""
    out, n = [-1] * 4096, 0
    for code in range(4096):
        if (code >> 9) + ((code >> 6) & 7) + ((code >> 3) & 7) + (code & 7) <= 7:
            out[code] = n
            n += 1
    return tuple(out)


RANK4: Any
try:
    RANK4 = __lobo_rank4__  # type: ignore[name-defined]
except NameError:
    RANK4 = _ranks4()


@jit()
def key_words(st: Vec) -> int:
    """How many words key() needs for this state."""
    extra = st[NTOP] - 10
    return KEY_WORDS if extra <= 0 else KEY_WORDS + (extra + 14) // 15


@jit()
def search_words(st: Vec) -> int:
    """How many words the keys of a search from this state take, whatever its objective:
    COMPACT_WORDS when at most one top card is known (later states never know more: a top card is
    turned face up only when none is known), else key_words."""
    if st[NTOP] <= 1:
        return COMPACT_WORDS
    return key_words(st)


@jit()
def key_fits(st: Vec) -> bool:
    """Whether key() can pack every state of this round: a card is always in exactly one place,
    so no count of any value ever exceeds the total of that value here (at most 7 fits), the
    pile only shrinks (63 fits) and an Over owes at most 9 (15 fits)."""
    for i in range(10):
        n = st[HAND + i] + st[RESERVE + i] + st[WOLF + i] + st[UNSEEN + i]
        if min(st[HAND + i], st[RESERVE + i], st[WOLF + i], st[UNSEEN + i]) < 0:
            return False
        for j in range(st[NTOP]):
            if st[TOPS + j] == i + 1:
                n += 1
        if n > 7:
            return False
    return st[PILE] <= 63 and 0 <= st[NTOP] <= MAX_TOPS and st[OWED_W] <= 15 and st[OWED_P] <= 1


@jit()
def key(st: Vec, out: Vec, words: int, merge: bool) -> None:
    """The state packed into `words` non-negative integers of 60 bits (out[0:words]). merge:
    hand and reserve as one (objectives for which it does not matter which pays); COMPACT_WORDS
    words only with at most one known top card (search_words). Only what
    decides the rest of the round goes in: the party as its number of members (who falls never
    changes the outcome), and not the rulings, which are the same in one search. The caller
    checks once, at the root, that every state of the round fits (key_fits)."""
    k2 = st[PILE] | (st[NTOP] << 6) | (active(st) << 12) | (st[FINAL] << 14) | (st[OWED_P] << 15)
    k2 |= (st[OWED_W] << 16) | (st[REVEAL] << 20) | (st[OUTCOME] << 21)
    for j in range(min(st[NTOP], 10)):
        k2 |= st[TOPS + j] << (24 + 4 * j)
    if words == COMPACT_WORDS and not merge:  # each value's four counts as a 9-bit id, six then four, k2 split
        c0 = 0
        c1 = 0
        for i in range(6):
            c0 |= RANK4[(st[HAND + i] << 9) | (st[RESERVE + i] << 6) | (st[WOLF + i] << 3) | st[UNSEEN + i]] << (9 * i)
        for i in range(6, 10):
            c1 |= RANK4[(st[HAND + i] << 9) | (st[RESERVE + i] << 6) | (st[WOLF + i] << 3) | st[UNSEEN + i]] << (
                9 * (i - 6)
            )
        out[0] = c0 | ((k2 & 63) << 54)
        out[1] = c1 | ((k2 >> 6) << 36)
        return
    k0 = 0
    k1 = 0
    for i in range(10):
        h = st[HAND + i] + (st[RESERVE + i] if merge else 0)
        r = 0 if merge else st[RESERVE + i]
        k0 |= h << (3 * i)
        k0 |= r << (30 + 3 * i)
        k1 |= st[WOLF + i] << (3 * i)
        k1 |= st[UNSEEN + i] << (30 + 3 * i)
    if words == COMPACT_WORDS:  # merged, one top card at most: k2 has 28 bits, the reserve's are free
        out[0] = k0 | (k2 << 30)
        out[1] = k1
        return
    out[0] = k0
    out[1] = k1
    out[2] = k2
    for w in range(KEY_WORDS, words):
        kw = 0
        first = 10 + 15 * (w - KEY_WORDS)
        for j in range(first, min(st[NTOP], first + 15)):
            kw |= st[TOPS + j] << (4 * (j - first))
        out[w] = kw
