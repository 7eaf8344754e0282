"""Whole games: a small state machine over immutable tables, driven by recorded steps.

A `Table` is everything a player at the table can see between two steps: both hands, the reserve,
the party, the discards, the size of the draw pile and its known top cards, the round number,
lobo's scores. The order of the draw pile is never in it: a `Table` is safe to hand to a policy.
The rules of a round are those of rules.py; this module adds the deck and the round sequence
(RULES.md §2-§4): deals, party losses, rewards, the final round, lobo's reshuffles and scores.

A game is a start table and a list of steps; `advance` takes one step and refuses, with the reason,
a step that does not fit the phase or the rules. The steps name every card that comes out of the
pile, so a list of steps replays a game exactly with no deck at all. Where the cards come from is
the caller's business: `SeededDeck` deals them from a seeded shuffle (a simulation, or a virtual
table); a companion following a physical game takes them from what the user types.

    table = new_table(Setup("vanguard", "standard"))
    deck = SeededDeck.for_table(table, seed=7, index=0)
    table = advance(table, deck.next_step(table))       # the deal
    table = advance(table, Move(parse_play("4+2=6")))   # a play; then a Draw step for the card owed
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from solver.core import rounds
from solver.core.cards import DIFFICULTIES, MEMBERS, counts_of, member_order, values_of
from solver.core.games import GAMES, LOBO_TARGET
from solver.core.games import game as game_of
from solver.core.plays import Play, PlayError, from_json, to_text
from solver.core.position import Position, Rules, parse_rules
from solver.core.rounds import Reward
from solver.core.rules import LOST, WON, State, apply, apply_outcome, final_score, initial_state, settle, why_illegal
from solver.words.numbers import count_text

if TYPE_CHECKING:
    import numpy as np

# What a table waits for.
DEAL = "deal"  # the next round's cards (a Deal step)
PLAY = "play"  # the Player's play (a Move step)
DRAW = "draw"  # cards owed to the Player or the Wolf, or a top card to reveal (a Draw step)
REWARD = "reward"  # the reward after a won regular round (a Take step)
RESHUFFLE = "reshuffle"  # lobo: the pile cannot deal a round; the discards go back in (a Reshuffle step)
GAME_OVER = "over"  # the game has ended


class GameError(ValueError):
    """A step that does not fit the table: the message says why, in one sentence."""


MAX_SEED = 2**63 - 1  # a deck's seed: any whole number numpy's generator takes, up to a 64-bit signed int


def seed_from_json(raw: object, key: str = "seed") -> int:
    """A seed (or a game's index) read from a file: a whole number from 0 to MAX_SEED."""
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw <= MAX_SEED:
        raise GameError(f"{key}: a whole number from 0 to {MAX_SEED}")
    return raw


MAX_TARGET = 1_000  # lobo's race: ten times the usual 100, past any race a table plays


@dataclass(frozen=True, slots=True)
class Setup:
    """What a game is played with: the game, the difficulty, the rulings, lobo's target score."""

    game: str = "vanguard"
    difficulty: str = "standard"
    rules: Rules = field(default_factory=Rules)
    target: int = LOBO_TARGET

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise GameError(f"game {self.game!r} is not one of {', '.join(GAMES)}")
        if self.difficulty not in DIFFICULTIES:
            raise GameError(f"difficulty {self.difficulty!r} is not one of {', '.join(DIFFICULTIES)}")
        if self.target < 1:
            raise GameError(f"the target score must be from 1 to {MAX_TARGET}, not {self.target}")
        # A save may carry rulings its game has no use for; they change nothing (Rules.within).
        object.__setattr__(self, "rules", self.rules.within(game_of(self.game)))

    @staticmethod
    def asked(game: str, difficulty: str, target: int) -> Setup:
        """The setup a player asks for: a lobo target at most MAX_TARGET (a race the engine itself
        sets, as clairvoyant play's unbounded one, is no game to follow)."""
        if not 1 <= target <= MAX_TARGET:
            raise GameError(f"the target score must be from 1 to {MAX_TARGET}, not {target}")
        return Setup(game, difficulty, target=target)

    @property
    def top(self) -> int:
        return DIFFICULTIES[self.difficulty]

    @property
    def deck(self) -> tuple[int, ...]:
        """Copies of each value in the draw deck (index 0 is the Ace)."""
        return game_of(self.game).deck_counts(self.difficulty)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "difficulty": self.difficulty, "rules": self.rules.to_json()}
        if game_of(self.game).is_race:
            out["target"] = self.target
        return out

    @staticmethod
    def from_json(raw: Any) -> Setup:
        if not isinstance(raw, dict):
            raise GameError("a game's setup must be a JSON object")
        target = raw.get("target", LOBO_TARGET)
        if not isinstance(target, int) or isinstance(target, bool):
            raise GameError(f"setup: the target must be a whole number, the score that wins, not {target!r:.40}")
        try:
            return Setup(
                str(raw.get("game", "vanguard")),
                str(raw.get("difficulty", "standard")),
                parse_rules(raw.get("rules")),
                target,
            )
        except (TypeError, ValueError) as e:
            raise GameError(f"setup: {e}") from None


# ---------------------------------------------------------------------------------------------
# Steps


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards dealt at the start of a round (sorted values; the order of dealing is not needed)."""

    player: tuple[int, ...]
    wolf: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """Cards that leave the pile: owed to the Player or the Wolf by the last play, or one top card
    turned face up (rules.top_card_visible)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Move:
    """A play of the Player's, Fold included."""

    play: Play


@dataclass(frozen=True, slots=True)
class Take:
    """The reward chosen after a won regular round."""

    reward: Reward


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """lobo: the remaining pile and the discards are shuffled together into a new pile."""


Step = Deal | Draw | Move | Take | Reshuffle


def step_to_json(step: Step) -> dict[str, Any]:
    match step:
        case Deal(player, wolf):
            return {"step": "deal", "player": list(player), "wolf": list(wolf)}
        case Draw(cards):
            return {"step": "draw", "cards": list(cards)}
        case Move(play):
            return {"step": "play", "play": to_text(play)}
        case Take(reward):
            if reward.kind == "reserve":
                return {"step": "reward", "reserve": reward.value}
            return {"step": "reward", "revive": reward.member}
        case Reshuffle():
            return {"step": "reshuffle"}
    raise GameError(f"not a step: {step!r}")  # pragma: no cover - the union is exhaustive


def _values(raw: Any, where: str) -> tuple[int, ...]:
    if not isinstance(raw, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
        raise GameError(f"{where}: must be a list of card values")
    if any(not 1 <= v <= 10 for v in raw):
        raise GameError(f"{where}: card values run from 1 to 10")
    return tuple(raw)


def step_from_json(raw: Any) -> Step:
    """A step in the JSON form of step_to_json; malformed input raises GameError."""
    from solver.core.plays import parse_play

    if not isinstance(raw, dict):
        raise GameError("a step must be a JSON object")
    kind = raw.get("step")
    if kind == "deal":
        return Deal(
            tuple(sorted(_values(raw.get("player"), "deal.player"))),
            tuple(sorted(_values(raw.get("wolf"), "deal.wolf"))),
        )
    if kind == "draw":
        return Draw(_values(raw.get("cards"), "draw.cards"))
    if kind == "play":
        text = raw.get("play")
        try:
            play = parse_play(text) if isinstance(text, str) else from_json(text)
        except PlayError as e:
            raise GameError(str(e)) from None
        return Move(play)
    if kind == "reward":
        if "reserve" in raw:
            value = _values([raw["reserve"]], "reward.reserve")[0]
            return Take(Reward("reserve", value=value))
        if raw.get("revive") in MEMBERS:
            return Take(Reward("revive", member=raw["revive"]))
        raise GameError('a reward step is {"step": "reward", "reserve": VALUE} or {"step": "reward", "revive": "J"}')
    if kind == "reshuffle":
        return Reshuffle()
    raise GameError(f"unknown step {kind!r}: one of deal, draw, play, reward, reshuffle")


def step_text(step: Step, before: Table | None = None) -> str:
    """A step in a few words, for people. Given the table it was taken at, a Draw that turns the
    top card face up reads "reveal" (one step type: only the table tells the two apart)."""
    match step:
        case Deal(player, wolf):
            return f"deal {' '.join(map(str, player))} / {' '.join(map(str, wolf)) or '—'}"
        case Draw(cards):
            word = "reveal" if before is not None and before.owed()[0] == "reveal" else "draw"
            return f"{word} {' '.join(map(str, cards))}"
        case Move(play):
            return to_text(play)
        case Take(reward):
            return str(reward)
        case Reshuffle():
            return "reshuffle"
    return repr(step)  # pragma: no cover


# ---------------------------------------------------------------------------------------------
# The table


@dataclass(frozen=True, slots=True)
class Table:
    """What everyone at the table can see, and what it waits for (`phase`).

    `round` is the rules State of the round being played (phases play and draw), of the round just
    won (phase reward), or of the last round (phase over); None before the first deal. The other
    fields are always current, inside a round too.
    """

    setup: Setup
    phase: str
    round: State | None
    reserve: tuple[int, ...]
    party: tuple[str, ...]
    discards: tuple[int, ...]  # sorted values
    pile_size: int
    pile_top: tuple[int, ...]  # known top cards of the pile, in order
    unseen: tuple[int, ...]  # counts by value of the pile's unknown cards
    rounds: int = 0  # rounds dealt so far
    reshuffles: int = 0
    points: tuple[int, int] = (0, 0)  # lobo: (Player, Wolf)
    final_reached: bool = False
    result: str | None = None  # "won" or "lost" once the game is over
    score: int | None = None  # vanguard: the score of a won game; lobo: the Player's points at the end

    @property
    def over(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def hand(self) -> tuple[int, ...]:
        return self.round.hand if self.round is not None and self.phase in (PLAY, DRAW, REWARD) else ()

    @property
    def wolf(self) -> tuple[int, ...]:
        return self.round.wolf if self.round is not None and self.phase in (PLAY, DRAW) else ()

    @property
    def last_hands(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """At the game's end, the last round's hands as it ended (yours, the Wolf's), for the
        table to show (found by a review: "—" for both beside the score they made); else None."""
        return (self.round.hand, self.round.wolf) if self.over and self.round is not None else None

    @property
    def discards_in_view(self) -> tuple[int, ...]:
        """The discards as the table shows them: at the game's end, less the last hands shown beside
        them (last_hands), so that no card shows twice (found by a review: 39 cards of 36)."""
        rest = list(self.discards)
        for v in sum(self.last_hands or ((), ()), ()):
            if v in rest:
                rest.remove(v)
        return tuple(rest)

    @property
    def final(self) -> bool:
        """Whether the round in play is the final round."""
        return self.round is not None and self.phase in (PLAY, DRAW) and self.round.final

    def owed(self) -> tuple[str, int]:
        """In phase draw: who takes the cards ("player", "wolf" or "reveal") and how many."""
        s = self.round
        if self.phase != DRAW or s is None:
            return "", 0
        if s.owed_player:
            return "player", s.owed_player
        if s.owed_wolf:
            return "wolf", s.owed_wolf
        return "reveal", 1

    def deal_sizes(self) -> tuple[int, int]:
        """How many cards the next deal gives the Player and the Wolf."""
        return rounds.deal_sizes(self.pile_size, self.setup.rules.hand_size)

    @property
    def race_scores(self) -> tuple[tuple[int, int], bool]:
        """lobo: the points as a race to 100 (rounds.race_to_100: the position's and the hint's),
        and whether that is this race exactly."""
        return rounds.race_to_100(self.points, self.setup.target)

    def position(self) -> Position:
        """The position in play (FORMAT.md form via .to_json()), in phases play and reward; lobo's
        scores as the race to 100 that this race is (race_scores)."""
        s = self.round
        if s is None or self.phase not in (PLAY, REWARD):
            raise GameError(f"there is no position to show while the table waits for a {self.phase}")
        reward = self.phase == REWARD
        objective = game_of(s.game).default_objective(s.final and not reward)
        return Position(
            game=s.game,
            difficulty=self.setup.difficulty,
            player=s.hand,
            wolf=() if reward else s.wolf,
            reserve=s.reserve,
            party=s.party,
            discard=self.discards,
            pile_size=s.pile_size,
            pile_top=s.pile_top,
            final=False if reward else s.final,
            objective=objective,
            rules=s.rules,
            phase="reward" if reward else "play",
            scores=self.race_scores[0] if game_of(s.game).is_race else (0, 0),  # lobo's race, for the game objective
        )

    def cards_in_view(self) -> tuple[int, ...]:
        """Counts by value of every card accounted for (hands, reserve, discards, the pile): the
        deck, always (the conservation the tests check)."""
        top = self.setup.top
        seen = counts_of(self.hand + self.wolf + self.reserve + self.discards + self.pile_top, top)
        return tuple(a + b for a, b in zip(seen, self.unseen, strict=True))


def new_table(setup: Setup) -> Table:
    """A game before its first deal: the whole deck in the pile, the whole party face up."""
    deck = setup.deck
    return Table(
        setup,
        DEAL,
        None,
        (),
        MEMBERS if game_of(setup.game).has_party else (),
        (),
        sum(deck),
        (),
        deck,
    )


def table_from_position(pos: Position, setup: Setup | None = None, *, valued_only: bool = False) -> Table:
    """A table that goes on from a position (phase play, or reward with `"phase": "reward"`).
    The pile must hold every unseen card: a game cannot go on with cards gone from it unseen.
    valued_only: the table is only read for its round, which the search values (RULES.md §7: the
    next deal drawn from the unseen cards, those gone unseen left out), never played on: cards
    may have left the game unseen."""
    setup = setup or Setup(pos.game, pos.difficulty, pos.rules)
    if not valued_only and pos.unknown_in_pile != sum(pos.unseen):
        raise GameError(
            f"draw_pile.size: a game goes on only when the pile holds every unseen card "
            f"({len(pos.pile_top) + sum(pos.unseen)}), not {pos.pile_size}"
        )
    base = Table(
        setup,
        DEAL,
        None,
        pos.reserve,
        pos.party,
        pos.discard,
        pos.pile_size,
        pos.pile_top,
        pos.unseen,
        rounds=1,
        final_reached=pos.final,
    )
    if pos.phase == "reward":
        won = State(
            pos.game, pos.player, (), pos.reserve, pos.party, pos.pile_size, pos.pile_top, pos.unseen, False, pos.rules,
            outcome=WON,
        )  # fmt: skip
        return _end_round(base, won)
    return _enter(base, initial_state(pos))


# ---------------------------------------------------------------------------------------------
# Steps applied


def advance(t: Table, step: Step) -> Table:
    """The table after one step; GameError (with the reason) for a step that does not fit."""
    match step:
        case Deal():
            return _deal(t, step)
        case Draw():
            return _draw(t, step)
        case Move():
            return _move(t, step)
        case Take():
            return _take(t, step)
        case Reshuffle():
            return _reshuffle(t)
    raise GameError(f"not a step: {step!r}")


def _expect(t: Table, phase: str, what: str) -> None:
    if t.phase != phase:
        if t.phase == GAME_OVER:
            raise GameError(f"the game is over ({t.result}): no more {what}")
        raise GameError(f"not time for a {what}: the table waits for {waiting_for(t)}")


def waiting_for(t: Table) -> str:
    """What the table waits for, in words."""
    if t.phase == DEAL:
        p, w = t.deal_sizes()
        return f"the deal of round {t.rounds + 1} ({count_text(p)} to you, {w} to the Wolf)"
    if t.phase == DRAW:
        who, n = t.owed()
        return (
            "the new top card of the pile"
            if who == "reveal"
            else f"{count_text(n)} drawn by {'you' if who == 'player' else 'the Wolf'}"
        )
    if t.phase == PLAY:
        return "your play"
    if t.phase == REWARD:
        return "your reward (a hand card to the reserve, or a member revived)"
    if t.phase == RESHUFFLE:
        return "a reshuffle (the pile cannot deal a round)"
    return "nothing: the game is over"


def _take_from(unseen: tuple[int, ...], cards: Iterable[int], where: str) -> tuple[int, ...]:
    left = list(unseen)
    for v in cards:
        if not 1 <= v <= len(left) or left[v - 1] == 0:
            raise GameError(f"{where}: no {v} can be in the pile any more")
        left[v - 1] -= 1
    return tuple(left)


def _deal(t: Table, step: Deal) -> Table:
    _expect(t, DEAL, "deal")
    want_p, want_w = t.deal_sizes()
    if (len(step.player), len(step.wolf)) != (want_p, want_w):
        raise GameError(
            f"this deal gives {count_text(want_p)} to you and {want_w} to the Wolf, not {len(step.player)} and {len(step.wolf)}"
        )
    n = want_p + want_w
    mine, wolfs = list(step.player), list(step.wolf)
    # Known top cards are dealt first, each to the side §2's order gives it (found by a review:
    # the face-up top card was taken in the Wolf's hand).
    for side, cards, known in zip(
        ("your", "the Wolf's"),
        (mine, wolfs),
        rounds.known_dealt(t.pile_top, t.pile_size, t.setup.rules.hand_size),
        strict=True,
    ):
        for v in known:
            if v not in cards:
                raise GameError(f"the known top card {v} is dealt to {side} hand: it must be among {side} cards")
            cards.remove(v)
    unseen = _take_from(t.unseen, mine + wolfs, "deal")
    pile_size = t.pile_size - n
    s = settle(
        State(
            t.setup.game,
            tuple(sorted(step.player)),
            tuple(sorted(step.wolf)),
            t.reserve,
            t.party,
            pile_size,
            t.pile_top[n:],
            unseen,
            rounds.final_at_deal(game_of(t.setup.game), pile_size, t.setup.rules),
            t.setup.rules,
        )
    )
    return _enter(replace(t, rounds=t.rounds + 1), s)


def _draw(t: Table, step: Draw) -> Table:
    _expect(t, DRAW, "draw or reveal")  # (one step: cards leave the pile, drawn or turned face up)
    who, n = t.owed()
    if len(step.cards) != n:
        raise GameError(
            f"{count_text(n)} {'is' if n == 1 else 'are'} {'revealed' if who == 'reveal' else 'drawn'} here, not {len(step.cards)}"
        )
    assert t.round is not None
    _take_from(t.unseen, step.cards, "draw")
    return _enter(t, apply_outcome(t.round, tuple(sorted(step.cards)), check=False))


def _move(t: Table, step: Move) -> Table:
    _expect(t, PLAY, "play")
    s = t.round
    assert s is not None
    reason = why_illegal(s, step.play)
    if reason is not None:
        raise GameError(f"illegal play {to_text(step.play)}: {reason}")
    used = step.play.hand + step.play.reserve + step.play.wolf
    after = apply(s, step.play, check=False)
    return _enter(replace(t, discards=tuple(sorted(t.discards + used))) if used else t, after)


def _enter(t: Table, s: State) -> Table:
    """The table with its round at state s: the fields follow the round; a finished round ends."""
    t = replace(
        t,
        round=s,
        reserve=s.reserve,
        party=s.party,
        pile_size=s.pile_size,
        pile_top=s.pile_top,
        unseen=s.unseen,
        final_reached=t.final_reached or s.final,
        phase=DRAW if s.is_chance else PLAY,
    )
    return _end_round(t, s) if s.is_terminal else t


def _end_round(t: Table, s: State) -> Table:
    """A finished round: scores, party losses, the reward or the end of the game."""
    setup = t.setup
    g = game_of(setup.game)
    if g.is_race:
        (p, w), (dp, dw) = t.points, rounds.round_points(s)
        p, w = p + dp, w + dw
        t = replace(t, points=(p, w), discards=tuple(sorted(t.discards + s.hand + s.wolf)), round=s)
        result = rounds.race_result((p, w), setup.target)
        if result is not None:
            return replace(t, phase=GAME_OVER, result=result, score=p)
        return _between(t)
    # Not a race (vanguard): the final round ends the game, and so does a party all face down.
    if s.outcome == WON:
        if s.final:
            # The winning hand scores, and then it is out of play like every other card.
            discards = tuple(sorted(t.discards + s.hand))
            return replace(
                t, round=s, discards=discards, phase=GAME_OVER, result="won", score=final_score(s), final_reached=True
            )
        if rounds.rewards(s.hand, s.party):
            if rounds.seen_before_the_reward(s):  # a Draw step turns it up, then the reward
                return replace(t, round=s, phase=DRAW)
            return replace(t, round=s, phase=REWARD)
        return _between(replace(t, round=s, discards=tuple(sorted(t.discards + s.hand))))
    assert s.outcome == LOST
    t = replace(t, round=s, discards=tuple(sorted(t.discards + s.hand + s.wolf)))
    if s.final:
        return replace(t, phase=GAME_OVER, result="lost", score=None, final_reached=True)
    party = rounds.party_after_loss(s.party, len(s.wolf))
    t = replace(t, party=party)
    if not party:
        return replace(t, phase=GAME_OVER, result="lost", score=None)
    return _between(t)


def _between(t: Table) -> Table:
    """After a round that did not end the game: the next deal, or first a reshuffle (lobo)."""
    if rounds.must_reshuffle(game_of(t.setup.game), t.pile_size, t.setup.rules):
        return replace(t, phase=RESHUFFLE)
    if t.pile_size == 0:  # pragma: no cover - a vanguard round that empties the pile is final
        raise GameError("the pile is empty but the game is not over")
    return replace(t, phase=DEAL)


def _take(t: Table, step: Take) -> Table:
    g = game_of(t.setup.game)
    if not g.has_rewards:  # said before "not time for": there is never a time (a review)
        raise GameError(f"{g.name} has no rewards: a won round gives points, not a card kept or a member revived")
    _expect(t, REWARD, "reward")
    s = t.round
    assert s is not None
    offered = rounds.rewards(s.hand, s.party)
    if step.reward not in offered:
        raise GameError(f"{step.reward} is not a reward here: one of {', '.join(map(str, offered))}")
    reserve, party = rounds.apply_reward(step.reward, s.hand, s.reserve, s.party)
    rest = list(s.hand)
    if step.reward.kind == "reserve":
        rest.remove(step.reward.value)  # type: ignore[arg-type]
    return _between(replace(t, reserve=reserve, party=party, discards=tuple(sorted(t.discards + tuple(rest)))))


def _reshuffle(t: Table) -> Table:
    _expect(t, RESHUFFLE, "reshuffle")
    # The whole deck: lobo has no reserve, and no hand is out between rounds.
    unseen = rounds.reshuffled(t.unseen, t.discards + t.pile_top, t.setup.top)
    return replace(
        t, phase=DEAL, discards=(), pile_size=t.pile_size + len(t.discards), pile_top=(), unseen=unseen,
        reshuffles=t.reshuffles + 1,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# A game: a start table and its steps


@dataclass(frozen=True)
class Playthrough:
    """A start table, the steps taken from it and every table on the way (tables[0] is the start).
    Immutable: `then` and `undo` return new games."""

    tables: tuple[Table, ...]
    steps: tuple[Step, ...] = ()

    @staticmethod
    def start(table: Table) -> Playthrough:
        return Playthrough((table,))

    @property
    def table(self) -> Table:
        return self.tables[-1]

    def then(self, step: Step) -> Playthrough:
        return Playthrough((*self.tables, advance(self.table, step)), (*self.steps, step))

    def undo(self, n: int = 1) -> Playthrough:
        n = min(n, len(self.steps))
        return self if n == 0 else Playthrough(self.tables[:-n], self.steps[:-n])

    def to_json(self) -> dict[str, Any]:
        """The game as its setup and its steps (for a game from a fresh deck: see from_json)."""
        return {"setup": self.tables[0].setup.to_json(), "steps": [step_to_json(s) for s in self.steps]}

    @staticmethod
    def from_json(raw: Any) -> Playthrough:
        """A game saved by to_json, every step replayed and checked (GameError names the first bad one)."""
        if not isinstance(raw, dict) or not isinstance(raw.get("steps"), list):
            raise GameError('a saved game is {"setup": {...}, "steps": [...]}')
        return replay(new_table(Setup.from_json(raw.get("setup", {}))), [step_from_json(s) for s in raw["steps"]])


def replay(start: Table, steps: Sequence[Step]) -> Playthrough:
    """Every step taken again from the start, each checked: GameError names the first bad one."""
    g = Playthrough.start(start)
    for i, step in enumerate(steps, start=1):
        try:
            g = g.then(step)
        except GameError as e:
            raise GameError(f"step {i} ({step_text(step, g.table)}): {e}") from None
    return g


# ---------------------------------------------------------------------------------------------
# A seeded deck: the cards of a virtual table


def _generator(seed: int, index: int, shuffle_no: int) -> np.random.Generator:
    import numpy as np  # a tenth of a second to import: only when a deck is shuffled

    # Only (seed, game index, shuffle number) decide a deck order: never anything a policy chose,
    # so every policy meets the same deals (common random numbers).
    return np.random.default_rng([seed, index, shuffle_no, 0x10B0])


@dataclass(frozen=True)
class SeededDeck:
    """The hidden order of the pile of one game, from (seed, index) alone.

    The first shuffle orders the pile the game starts with (known top cards stay on top); each lobo
    reshuffle orders the whole deck again with its own number. Cards always leave the pile from the
    top, so the pile at any moment is the bottom `pile_size` cards of the last shuffle's order.
    """

    seed: int
    index: int
    start_top: tuple[int, ...]
    start_unseen: tuple[int, ...]
    deck: tuple[int, ...]

    @staticmethod
    def for_table(table: Table, seed: int, index: int) -> SeededDeck:
        return SeededDeck(seed, index, table.pile_top, table.unseen, table.setup.deck)

    @cached_property
    def _orders(self) -> dict[int, tuple[int, ...]]:
        return {}

    def order(self, shuffle_no: int) -> tuple[int, ...]:
        """The pile after shuffle number shuffle_no, top first (0: the start)."""
        got = self._orders.get(shuffle_no)
        if got is None:
            base = values_of(self.start_unseen if shuffle_no == 0 else self.deck)
            perm = _generator(self.seed, self.index, shuffle_no).permutation(len(base))
            got = (self.start_top if shuffle_no == 0 else ()) + tuple(base[i] for i in perm)
            self._orders[shuffle_no] = got
        return got

    def pile(self, t: Table) -> tuple[int, ...]:
        """The hidden pile of a table of this game, top first (never show it to a policy)."""
        order = self.order(t.reshuffles)
        pile = order[len(order) - t.pile_size :]
        if pile[: len(t.pile_top)] != t.pile_top:
            raise GameError("this table did not come from this deck")
        return pile

    def next_step(self, t: Table) -> Step | None:
        """The step the deck takes when the table waits for cards (deal, draw) or a reshuffle;
        None when it waits for the Player or the game is over."""
        if t.phase == DEAL:
            player, wolf, _ = rounds.deal(self.pile(t), t.setup.rules.hand_size)
            return Deal(player, wolf)
        if t.phase == DRAW:
            _, n = t.owed()
            # Owed cards and reveals only ever come after the known top is used up.
            pile = self.pile(t)
            return Draw(pile[len(t.pile_top) : len(t.pile_top) + n])
        if t.phase == RESHUFFLE:
            return Reshuffle()
        return None


def deck_check(t: Table) -> None:
    """Rule invariants of any table: raises AssertionError naming the first one broken."""
    setup = t.setup
    g = game_of(setup.game)
    assert t.cards_in_view() == setup.deck, f"cards are not conserved: {t.cards_in_view()} != {setup.deck}"
    assert t.pile_size == len(t.pile_top) + sum(t.unseen), "the pile size does not match its cards"
    assert all(n >= 0 for n in t.unseen), "negative unseen count"
    if g.has_party:
        assert set(t.party) <= set(MEMBERS) and tuple(t.party) == member_order(t.party), "bad party"
        assert t.party or t.over, "an empty party outside a lost game"
    else:
        assert not t.reserve and not t.party, "lobo has no reserve and no party"
    if g.is_race:
        assert max(t.points) < setup.target or t.over, "a score past the target but the game goes on"
    if t.phase in (PLAY, DRAW):
        assert t.round is not None and t.round.outcome is None
        assert t.wolf or t.phase == DRAW, "a decision with an empty Wolf hand"  # after the draw, it is won
        assert t.phase != DRAW or t.round.is_chance
    if t.over:
        assert t.result in ("won", "lost")
