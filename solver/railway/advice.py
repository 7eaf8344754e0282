"""Draw, discard and expose advice for the railway LOBO, by the exact chance of going LOBO.

The model (docs/railway.md says it in full):

* Turns are counted from the decision: turn 1 is the draw you are about to make (or, with a
  given draw, have just made), turns 2 and 3 your next two.
* Unknown cards: the stock is a uniformly random order of the unseen cards (RAILWAY.md
  [ruling]); a card you draw leaves the pool, a card you discard never comes back.
* Other players are ignored: after turn 1 you always draw from the stock, nobody takes your
  discards, and the stock does not run out.
* After every draw the discard is the best one for the chance being computed (each number is the
  best achievable for its own horizon, computed exactly by expectimax with integer fractions).
  You never expose and never take three extra cards during the horizon: a hidden journey can do
  all an exposed one can, and more.

So "LOBO next turn" is P(LOBO by turn 2) and "within three turns" P(LOBO by turn 3).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb
from typing import Any

from .budget import RailwayBudget
from .deck import SEASON_TICKET, Deck, Journey, RailwayError
from .partition import Partition, goes_lobo, partition
from .position import RailwayPosition

RANKINGS = ("next", "three")
ZERO = Fraction(0)
ONE = Fraction(1)


@dataclass(frozen=True)
class Chances:
    """P(LOBO) by turn 1 (this draw), by turn 2 (next turn) and by turn 3 (within three turns)."""

    now: Fraction
    next_turn: Fraction
    within_three: Fraction

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("now", "next_turn", "within_three"):
            value: Fraction = getattr(self, key)
            out[key] = float(value)
            out[f"{key}_exact"] = str(value)
        return out


@dataclass(frozen=True)
class Out:
    """An unseen card that completes the hand, how many copies are unseen, and the journey it completes."""

    card: str
    count: int
    completes: Journey
    journeys: tuple[Journey, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "count": self.count,
            "completes": self.completes.to_json(),
            "journeys": [j.to_json() for j in self.journeys],
        }


@dataclass(frozen=True)
class Option:
    """One choice: where the card comes from, what is discarded, and what it gives.

    source is "stock", "top_discard", "drawn" (a draw already made) or "hand" (the hand as given
    goes LOBO: call it). `discard` is None when
    the card makes LOBO (no discard follows) and for the stock, whose discard waits for the card.
    `outs` are the cards that make LOBO on the next draw this option leads to."""

    source: str
    card: str | None
    discard: str | None
    lobo: bool
    chances: Chances
    outs: tuple[Out, ...]

    def label(self) -> str:
        if self.source == "hand":
            return "call LOBO with the hand as given"
        if self.source == "stock":
            return "draw from the stock"
        take = f"take {self.card}" if self.source == "top_discard" else f"with {self.card}"
        return f"{take}: LOBO" if self.lobo else f"{take}, discard {self.discard}"

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "card": self.card,
            "discard": self.discard,
            "lobo": self.lobo,
            **self.chances.to_json(),
            "outs": [o.to_json() for o in self.outs],
            "outs_count": sum(o.count for o in self.outs),
        }


@dataclass(frozen=True)
class ExposeAdvice:
    """What to do with a completed journey: 'expose', 'keep' (hidden) or 'draw_three', and why."""

    action: str
    journey: Journey | None
    reason: str
    hidden: Chances | None = None
    exposed: Chances | None = None
    extra_next_turn: Fraction | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": self.action,
            "journey": None if self.journey is None else self.journey.to_json(),
            "reason": self.reason,
        }
        if self.hidden is not None:
            out["hidden"] = self.hidden.to_json()
        if self.exposed is not None:
            out["exposed"] = self.exposed.to_json()
        if self.extra_next_turn is not None:
            out["draw_three_next_turn"] = float(self.extra_next_turn)
            out["draw_three_next_turn_exact"] = str(self.extra_next_turn)
        return out


@dataclass(frozen=True)
class Advice:
    """The whole answer of `railway hint`."""

    hand: Partition
    exposed: int
    unseen: dict[str, int]
    top_discard: str | None
    with_top: Partition | None  # the hand plus the top discard
    drawn: str | None  # a draw already made (--draw / --took-top)
    drawn_from: str | None
    with_drawn: Partition | None
    options: tuple[Option, ...]  # best first
    ranking: str
    expose: ExposeAdvice | None
    notes: tuple[str, ...]

    @property
    def best(self) -> Option | None:
        return self.options[0] if self.options else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "lobo": self.hand.goes_lobo(self.exposed),
            "journeys": [j.to_json() for j in self.hand.journeys],
            "leftover": list(self.hand.leftover),
            "unseen_count": sum(self.unseen.values()),
            "unseen": self.unseen,
            "top_discard": None,
        }
        if self.top_discard is not None and self.with_top is not None:
            out["top_discard"] = {"card": self.top_discard, **self.with_top.to_json(self.exposed)}
        if self.drawn is not None and self.with_drawn is not None:
            out["drawn"] = {"card": self.drawn, "source": self.drawn_from, **self.with_drawn.to_json(self.exposed)}
        out["ranking"] = self.ranking
        out["best"] = self.best.to_json() if self.best else None
        out["options"] = [o.to_json() for o in self.options]
        out["expose"] = self.expose.to_json() if self.expose else None
        out["notes"] = list(self.notes)
        return out


def _without(hand: Sequence[str], card: str) -> tuple[str, ...]:
    out = list(hand)
    out.remove(card)
    return tuple(out)


class _Chance:
    """The expectimax of the model over one pool of unseen cards, for one number of exposed
    journeys. Hands are sorted tuples so that caches hit; `removed` lists the cards drawn since
    the decision (out of the pool now)."""

    def __init__(self, deck: Deck, exposed: int, pool: dict[str, int], budget: RailwayBudget | None = None) -> None:
        self.deck = deck
        self.exposed = exposed
        self.budget = budget or RailwayBudget()
        self.pool = {c: n for c, n in pool.items() if n > 0}
        self.total = sum(self.pool.values())
        self._outs: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._after: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {}

    def avail(self, card: str, removed: tuple[str, ...]) -> int:
        return self.pool.get(card, 0) - removed.count(card)

    def outs(self, kept: tuple[str, ...]) -> tuple[str, ...]:
        """The pool's card names that make kept + card a LOBO hand (whatever is left of them)."""
        found = self._outs.get(kept)
        if found is None:
            self.budget.check()
            found = self._outs[kept] = tuple(
                c for c in self._candidates(kept) if goes_lobo(self.deck, (*kept, c), self.exposed)
            )
        return found

    def _candidates(self, kept: tuple[str, ...]) -> Iterator[str]:
        """Only cards that can possibly complete: a LOBO hand of m cards has exactly m/3 junctions,
        so the count of junctions says whether the missing card is a junction or a station place."""
        size = len(kept) + 1
        if size % 3 or size // 3 + self.exposed < 2:
            return
        junctions = [c for c in kept if c in self.deck.junction_set]
        if len(junctions) == size // 3:
            listed = {s for j in junctions for s in self.deck.lists[j]}
            yield from (c for c in self.pool if c == SEASON_TICKET or (c in listed and c not in kept))
        elif len(junctions) == size // 3 - 1:
            yield from (c for c in self.pool if c in self.deck.junction_set)

    def after(self, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        """For a hand after a draw, the out-sets of its distinct discards (empty ones dropped)."""
        found = self._after.get(hand)
        if found is None:
            sets = (self.outs(_without(hand, d)) for d in dict.fromkeys(hand))
            found = self._after[hand] = tuple(s for s in sets if s)
        return found

    def count(self, outs: tuple[str, ...], removed: tuple[str, ...]) -> int:
        return sum(self.avail(c, removed) for c in outs)

    def reach(self, kept: tuple[str, ...], n: int, removed: tuple[str, ...] = ()) -> Fraction:
        """P(LOBO within n more draws) from the kept hand, discarding as well as possible."""
        left = self.total - len(removed)
        if n <= 0 or left <= 0:
            return ZERO
        kept = tuple(sorted(kept))
        if n == 1:
            return Fraction(self.count(self.outs(kept), removed), left)
        outs = set(self.outs(kept))
        if n == 2:
            # Integer numerators over left·(left−1): this is the inner loop of every hint.
            num = 0
            for c in self.pool:
                w = self.avail(c, removed)
                if w <= 0:
                    continue
                if c in outs:
                    num += w * max(left - 1, 1)
                else:
                    hand = tuple(sorted((*kept, c)))
                    taken = (*removed, c)
                    num += w * max((self.count(o, taken) for o in self.after(hand)), default=0)
            return Fraction(num, left * max(left - 1, 1))
        total = ZERO
        for c in self.pool:
            w = self.avail(c, removed)
            if w <= 0:
                continue
            self.budget.check()
            total += w * (ONE if c in outs else self.best(tuple(sorted((*kept, c))), n - 1, (*removed, c)))
        return total / left

    def best(self, hand: tuple[str, ...], n: int, removed: tuple[str, ...]) -> Fraction:
        """The best discard's chance of LOBO within n more draws, for a hand just drawn to."""
        return max((self.reach(_without(hand, d), n, removed) for d in dict.fromkeys(hand)), default=ZERO)

    def extra_three(self, hand: tuple[str, ...], removed: tuple[str, ...] = ()) -> Fraction:
        """P(LOBO by next turn) if you take three extra cards now: LOBO at once on the nine
        cards, or the best discard and then one more draw. Every 3-card draw is enumerated."""
        kinds = [c for c in self.pool if self.avail(c, removed) > 0]
        left = self.total - len(removed)
        if left < 3:
            return ZERO
        total = ZERO
        for draw in combinations_with_replacement(kinds, 3):
            ways = 1
            for c in dict.fromkeys(draw):
                ways *= comb(self.avail(c, removed), draw.count(c))
            if not ways:
                continue
            self.budget.check()
            nine = tuple(sorted((*hand, *draw)))
            if goes_lobo(self.deck, nine, self.exposed):
                total += ways
                continue
            taken = (*removed, *draw)
            best = max((self.count(o, taken) for o in self.after(nine)), default=0)
            if best and left > 3:
                total += Fraction(ways * best, left - 3)
        return total / comb(left, 3)


def _out_list(
    deck: Deck, engine: _Chance, kept: tuple[str, ...], removed: tuple[str, ...], method: str
) -> tuple[Out, ...]:
    """The outs of a kept hand with the journeys they make (a partition per out, for showing)."""
    outs = []
    for card in engine.outs(tuple(sorted(kept))):
        n = engine.avail(card, removed)
        if n <= 0:
            continue
        full = partition(deck, (*kept, card), method, engine.budget)
        completes = next(j for j in full.journeys if card in j.cards)
        outs.append(Out(card, n, completes, full.journeys))
    order = {c: i for i, c in enumerate(deck.names())}
    return tuple(sorted(outs, key=lambda o: order[o.card]))


def _key(option: Option, ranking: str) -> tuple[Fraction, ...]:
    c = option.chances
    if ranking == "three":
        return (c.within_three, c.next_turn, c.now)
    return (c.next_turn, c.within_three, c.now)


def _discards(
    deck: Deck, engine: _Chance, hand: tuple[str, ...], source: str, card: str, removed: tuple[str, ...], method: str
) -> list[Option]:
    """Every distinct discard from a hand that has just drawn `card` (not LOBO)."""
    options = []
    for d in dict.fromkeys(hand):
        kept = _without(hand, d)
        chances = Chances(ZERO, engine.reach(kept, 1, removed), engine.reach(kept, 2, removed))
        options.append(Option(source, card, d, False, chances, _out_list(deck, engine, kept, removed, method)))
    return options


def advise(
    pos: RailwayPosition,
    drawn: str | None = None,
    took_top: bool = False,
    ranking: str = "next",
    method: str = "auto",
    budget: RailwayBudget | None = None,
) -> Advice:
    """The hint. Without a draw: whether the top discard makes LOBO, the stock's outs, and every
    (source, discard) ranked. With a draw (`drawn` from the stock, or `took_top`): every discard
    ranked, and what to do with a completed journey. `budget`: its time limit and memory (else
    none: a library call)."""
    deck, hand, exposed = pos.deck, pos.hand, len(pos.exposed)
    unseen = pos.unseen()
    engine = _Chance(deck, exposed, unseen, budget)
    budget = engine.budget
    notes = []
    if pos.stock is not None and 0 < pos.stock < 3 * pos.players:
        cards = f"{pos.stock} card{'' if pos.stock == 1 else 's'}"
        notes.append(f"the stock has {cards}: it may run out within three rounds, which the model ignores")
    elif pos.stock == 0:
        # Found by a review: the note said only the top discard can be drawn, while the later
        # turns' chances went on drawing from the unseen cards without a word.
        notes.append(
            "the stock is empty: the rules shuffle a new one before your next draw, which the model "
            "ignores (its later turns draw from the unseen cards)"
        )
    mine = partition(deck, hand, method, budget)  # the hand as given, read once
    if not (took_top or drawn is not None):
        if mine.goes_lobo(exposed):
            notes.append(
                "the hand as given already goes LOBO: if you have just drawn, call it (no discard follows); "
                "the other options read it as the hand before a draw"
            )
        elif (len(hand) + 1) % 3:
            notes.append(
                f"a hand of {len(hand)} cards has {len(hand) + 1} after a draw, not a multiple of three: no draw "
                "makes it LOBO (every card in a journey), and a discard keeps its size; if these are the cards "
                "after your draw, give the hand before it with --draw CARD (or --took-top)"
            )
    with_top = None if pos.top_discard is None else partition(deck, (*hand, pos.top_discard), method, budget)
    options: list[Option] = []
    drawn_from = None
    with_drawn = None
    expose = None
    if drawn is not None and not took_top and pos.stock == 0:
        raise RailwayError(
            "--draw: the stock is empty (stock 0): only the top discard can be drawn (--took-top)", "bad_draw"
        )
    if took_top or drawn is not None:
        card = pos.top_discard if took_top else drawn
        assert card is not None
        drawn = card
        removed: tuple[str, ...] = () if took_top else (card,)
        drawn_from = "top_discard" if took_top else "stock"
        now = (*hand, card)
        with_drawn = partition(deck, now, method, budget)
        if with_drawn.goes_lobo(exposed):
            options.append(Option("drawn", card, None, True, Chances(ONE, ONE, ONE), ()))
        else:
            options += _discards(deck, engine, now, "drawn", card, removed, method)
            expose = _expose(pos, engine, now, removed, mine, with_drawn, method)
    else:
        if pos.top_discard is not None and with_top is not None:
            top = pos.top_discard
            if with_top.goes_lobo(exposed):
                options.append(Option("top_discard", top, None, True, Chances(ONE, ONE, ONE), ()))
            else:
                options += _discards(deck, engine, (*hand, top), "top_discard", top, (), method)
        if engine.total and pos.stock != 0:
            chances = Chances(engine.reach(hand, 1), engine.reach(hand, 2), engine.reach(hand, 3))
            options.append(Option("stock", None, None, False, chances, _out_list(deck, engine, hand, (), method)))
        elif pos.stock == 0 or not engine.total:
            notes.append("the stock is empty: only the top discard can be drawn")
        if mine.goes_lobo(exposed):  # first, so that `best` says it (found by a review: "draw from the stock")
            options.insert(0, Option("hand", None, None, True, Chances(ONE, ONE, ONE), ()))
        best = max(options, key=lambda o: _key(o, ranking), default=None)
        if best is not None and best.source == "top_discard" and not best.lobo and pos.top_discard is not None:
            expose = _expose(pos, engine, (*hand, pos.top_discard), (), mine, with_top, method)
        elif mine.journeys and options and not (best is not None and best.lobo):
            # (found by a review: "wait" beside a LOBO to call, or with nothing to draw)
            expose = ExposeAdvice("wait", None, "decide after your draw: ask again with --draw CARD (or --took-top)")
    options.sort(key=lambda o: _key(o, ranking), reverse=True)  # stable: ties keep their order
    return Advice(
        mine,
        exposed,
        unseen,
        pos.top_discard,
        with_top,
        drawn,
        drawn_from,
        with_drawn,
        tuple(options),
        ranking,
        expose,
        tuple(notes),
    )


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _best_chances(options: list[Option]) -> Chances:
    """The best chance for each horizon on its own, each maybe by another discard (found by a
    review: both were one discard's, the best by next turn, and "exposing lowers your chance
    within three turns" was said where another discard kept it)."""
    return Chances(
        max(o.chances.now for o in options),
        max(o.chances.next_turn for o in options),
        max(o.chances.within_three for o in options),
    )


def _expose(
    pos: RailwayPosition,
    engine: _Chance,
    now: tuple[str, ...],
    removed: tuple[str, ...],
    before: Partition,
    after: Partition | None,
    method: str,
) -> ExposeAdvice:
    """Expose a completed journey, keep it hidden, or take three extra cards (allowed only on the
    turn a journey is completed). The chances say what each costs; the score says why exposing
    can still pay: when someone else calls LOBO, an exposed journey scores 3, a hidden one -3."""
    deck, exposed = pos.deck, len(pos.exposed)
    if after is None or not after.journeys:
        return ExposeAdvice("none", None, "no completed journey in the hand: nothing to expose")
    card = now[-1]
    kept_hidden = _discards(deck, engine, now, "drawn", card, removed, method)
    hidden = _best_chances(kept_hidden)
    best_discard = max(kept_hidden, key=lambda o: _key_c(o.chances)).discard
    completed = len(after.journeys) > len(before.journeys)
    # Three extra cards only from a stock that holds them (found by a review: advised from an
    # empty one); `removed` is the card just drawn from it, if one was.
    stock_left = None if pos.stock is None else pos.stock - len(removed)
    extra = None
    if completed and (stock_left is None or stock_left >= 3):
        extra = engine.extra_three(tuple(sorted(now)), removed)
        if extra > hidden.next_turn:
            return ExposeAdvice(
                "draw_three",
                after.journeys[0],
                f"take the three extra cards: your chance of LOBO by next turn rises from "
                f"{_pct(hidden.next_turn)} to {_pct(extra)}",
                hidden,
                None,
                extra,
            )
    # Expose the journey whose exposure costs least.
    best_journey, best_exposed = None, None
    for journey in after.journeys:
        rest = list(now)
        for c in journey.cards:
            rest.remove(c)
        engine_e = _Chance(deck, exposed + 1, {c: engine.avail(c, removed) for c in engine.pool}, engine.budget)
        if not rest:
            continue
        chances = _best_chances(_discards(deck, engine_e, tuple(rest), "drawn", card, (), method))
        if best_exposed is None or _key_c(chances) > _key_c(best_exposed):
            best_journey, best_exposed = journey, chances
    if best_journey is None or best_exposed is None:
        return ExposeAdvice("keep", after.journeys[0], "keep it hidden: nothing else would be left in your hand")
    no_draw = "" if extra is None else f"; three extra cards would give {_pct(extra)} by next turn"
    if _key_c(best_exposed) >= _key_c(hidden):
        return ExposeAdvice(
            "expose",
            best_journey,
            f"expose {best_journey}: it costs no chance of LOBO ({_pct(hidden.next_turn)} by next turn, "
            f"{_pct(hidden.within_three)} within three turns either way) and scores 3 instead of -3 "
            f"if another player calls LOBO{no_draw}",
            hidden,
            best_exposed,
            extra,
        )
    rest = list(now)
    for c in best_journey.cards:
        rest.remove(c)
    if best_discard not in rest:
        # Found by a review: "keep it hidden" named a journey the best discard breaks up.
        return ExposeAdvice(
            "keep",
            best_journey,
            f"do not expose {best_journey}: your best discard, {best_discard}, breaks it up; exposing it "
            "lowers your chance of LOBO " + _drops(hidden, best_exposed) + no_draw,
            hidden,
            best_exposed,
            extra,
        )
    return ExposeAdvice(
        "keep",
        best_journey,
        f"keep {best_journey} hidden: exposing it lowers your chance of LOBO "
        + _drops(hidden, best_exposed)
        + f"; expose it when another player looks close to LOBO, since a hidden journey then costs 3 points{no_draw}",
        hidden,
        best_exposed,
        extra,
    )


def _drops(hidden: Chances, exposed: Chances) -> str:
    """The horizons whose chance exposing lowers, each from and to."""
    return " and ".join(
        f"{when} from {_pct(h)} to {_pct(e)}"
        for when, h, e in (
            ("by next turn", hidden.next_turn, exposed.next_turn),
            ("within three turns", hidden.within_three, exposed.within_three),
        )
        if e < h
    )


def _key_c(c: Chances) -> tuple[Fraction, Fraction]:
    return (c.next_turn, c.within_three)
