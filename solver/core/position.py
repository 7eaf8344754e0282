"""Positions: the FORMAT.md JSON object, parsed and validated into a frozen `Position`.

Every refusal is a `PositionError` whose message names the problem and where it is
(the key, the index, the card), so the CLI can print it as one line.
"""

from __future__ import annotations

import difflib
import json
import math
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from solver.core import kernel
from solver.core.cards import (
    DIFFICULTIES,
    MEMBERS,
    CardError,
    counts_of,
    member_order,
    parse_member,
    parse_value,
    top_value,
)
from solver.core.games import GAMES, Game
from solver.core.games import game as game_of
from solver.core.jsonio import HugeNumber, Unreadable, json_error, loads, read_text, shown, shown_path
from solver.core.kinds import other_game
from solver.core.objectives import OBJECTIVES
from solver.core.status import Grade

TOP_KEYS = frozenset(
    {
        "game",
        "difficulty",
        "player",
        "wolf",
        "reserve",
        "party",
        "discard",
        "draw_pile",
        "final",
        "objective",
        "scores",
        "rules",
    }
)
# The project's own documented extensions (docs/formats.md): labels that never change play, and
# `phase` ("reward": the round was just won and the reward is still to choose; `lobo-hint reward`).
EXTENSION_KEYS = frozenset({"id", "note", "phase"})
PHASES = ("play", "reward")
PILE_KEYS = frozenset({"size", "top"})
MAX_RULE_NUMBER = 1_000_000
RULE_KEYS = frozenset({"hand_size", "final_threshold", "reserve_scores", "top_card_visible"})
PUZZLE_KEYS = frozenset({"position", "expect", "note", "id", "plays", "grade"})


class PositionError(ValueError):
    """An invalid position. `code` is a stable short name for the condition."""

    def __init__(self, message: str, code: str = "invalid") -> None:
        super().__init__(message)
        self.code = code


class Rules(NamedTuple):
    """The four rulings a position may change (RULES.md, FORMAT.md `rules`)."""

    hand_size: int = 4
    final_threshold: int = 8
    reserve_scores: bool = False
    top_card_visible: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "hand_size": self.hand_size,
            "final_threshold": self.final_threshold,
            "reserve_scores": self.reserve_scores,
            "top_card_visible": self.top_card_visible,
        }

    def unused(self, g: Game) -> tuple[str, ...]:
        """The rulings set away from their defaults that mean nothing in game `g` (lobo's
        final_threshold and reserve_scores: it has no final round)."""
        d = Rules()
        return tuple(k for k in self._fields if k not in g.rulings and getattr(self, k) != getattr(d, k))

    def within(self, g: Game) -> Rules:
        """These rulings as game `g` plays them: the ones it has no use for at their defaults, so that
        they change nothing (an answer's note included). A position may carry them (FORMAT.md)."""
        d = Rules()
        return self._replace(**{k: getattr(d, k) for k in self.unused(g)})

    def refused(self, g: Game) -> str | None:
        """Why a game set up with these rulings is refused (a ruling it has no use for), or None."""
        unused = self.unused(g)
        if not unused:
            return None
        return f"{unused[0]}: {g.name} has no final round, so this ruling means nothing there; leave it out"

    def written(self) -> dict[str, str]:
        """Each ruling's value as a user writes it (a position's `rules`, `--rule`): true/false."""
        return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in self.to_json().items()}


@dataclass(frozen=True, slots=True)
class Position:
    """A validated position. Hands are sorted value tuples: order and suits never matter."""

    game: str
    difficulty: str
    player: tuple[int, ...]
    wolf: tuple[int, ...]
    reserve: tuple[int, ...] = ()
    party: tuple[str, ...] = ()
    discard: tuple[int, ...] = ()
    pile_size: int = 0
    pile_top: tuple[int, ...] = ()
    final: bool = False
    objective: str = "win"
    rules: Rules = field(default_factory=Rules)
    label: str | None = None
    phase: str = "play"
    scores: tuple[int, int] = (0, 0)  # lobo: the points the Player and the Wolf have so far

    @property
    def top(self) -> int:
        return top_value(self.difficulty)

    @property
    def unseen(self) -> tuple[int, ...]:
        """Counts by value (index 0 = Ace) of the cards nobody has seen: the pool unknown draws come from."""
        used = counts_of(self.player + self.wolf + self.reserve + self.discard + self.pile_top, self.top)
        return tuple(d - u for d, u in zip(game_of(self.game).deck_counts(self.difficulty), used, strict=True))

    @property
    def unknown_in_pile(self) -> int:
        return self.pile_size - len(self.pile_top)

    def to_json(self) -> dict[str, Any]:
        """The normalized FORMAT.md form, every key present (lobo omits reserve, party and final)."""
        g = game_of(self.game)
        out: dict[str, Any] = {
            "game": self.game,
            "difficulty": self.difficulty,
            "player": list(self.player),
            "wolf": list(self.wolf),
        }
        if g.has_reserve:
            out["reserve"] = list(self.reserve)
        if g.has_party:
            out["party"] = list(self.party)
        out["discard"] = list(self.discard)
        out["draw_pile"] = {"size": self.pile_size, "top": list(self.pile_top)}
        if g.has_final_round:
            out["final"] = self.final
        out["objective"] = self.objective
        if g.is_race:
            out["scores"] = {"player": self.scores[0], "wolf": self.scores[1]}
        out["rules"] = self.rules.to_json()
        if self.phase != "play":
            out["phase"] = self.phase
        return out


def json_type_name(v: object) -> str:
    """A JSON value's kind in words, for messages: "a number", "a list", "null"."""
    if isinstance(v, HugeNumber):
        return "a number"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(v), "null" if v is None else type(v).__name__)


def _card(card: object, where: str, top: int) -> int:
    try:
        v = parse_value(card)
    except CardError as e:
        raise PositionError(f"{where}: {e}", "malformed_card") from None
    if v > top:
        raise PositionError(f"{where}: card {v} is above the top value {top} of this difficulty", "above_top")
    return v


def _cards_in_order(raw: object, where: str, top: int) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise PositionError(f"{where}: must be a list of cards, not {json_type_name(raw)}", "wrong_type")
    return tuple(_card(card, f"{where}[{i}]", top) for i, card in enumerate(raw))


def _cards(raw: object, where: str, top: int) -> tuple[int, ...]:
    """A hand: order never matters, so it is kept sorted."""
    return tuple(sorted(_cards_in_order(raw, where, top)))


def _choice(obj: dict[str, Any], key: str, allowed: tuple[str, ...] | frozenset[str], default: str) -> str:
    v = obj.get(key, default)
    if not isinstance(v, str) or v not in allowed:
        raise PositionError(f"{key}: {shown(v)} is not one of {', '.join(sorted(allowed))}", f"bad_{key}")
    return v


def _unknown_keys(obj: dict[str, Any], known: frozenset[str], where: str) -> None:
    """Refuse a key the format does not have (a misspelt key would be ignored), naming the closest."""
    extra = [k for k in obj if k not in known]
    if extra:
        raise PositionError(f"{where}unknown key {extra[0]!r}{closest_key(extra[0], known)}", "unknown_key")


def closest_key(key: str, known: frozenset[str]) -> str:
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    if not close:
        close = [k for k in sorted(known) if k.casefold() == key.strip().casefold()][:1]
    if close:
        return f": did you mean {close[0]!r}?"
    return f" (known keys: {', '.join(sorted(known))})"


def _what(v: object) -> str:
    """A wrong value for a message: a number as written (3.5, 4.0), else its JSON type."""
    if isinstance(v, float):
        return shown(v) if math.isfinite(v) else "a number too large to hold"
    return json_type_name(v)


def _int(v: object, where: str, minimum: int) -> int:
    if isinstance(v, HugeNumber):
        if v.negative:
            raise PositionError(f"{where}: must be at least {minimum}, not {v}", "out_of_range")
        raise PositionError(f"{where}: {v} is far too large", "out_of_range")
    if isinstance(v, bool) or not isinstance(v, int):
        raise PositionError(f"{where}: must be a whole number, not {_what(v)}", "wrong_type")
    if v < minimum:
        raise PositionError(f"{where}: must be at least {minimum}, not {v}", "out_of_range")
    if v > MAX_RULE_NUMBER:  # far beyond any deck, and past what the search's integers hold
        raise PositionError(f"{where}: {v} is far too large (at most {MAX_RULE_NUMBER})", "out_of_range")
    return v


def _bool(v: object, where: str) -> bool:
    if not isinstance(v, bool):
        raise PositionError(f"{where}: must be true or false, not {json_type_name(v)}", "wrong_type")
    return v


def parse_rules(raw: object) -> Rules:
    if raw is None:
        return Rules()
    if not isinstance(raw, dict):
        raise PositionError(f"rules: must be an object, not {json_type_name(raw)}", "wrong_type")
    _unknown_keys(raw, RULE_KEYS, "rules: ")
    d = Rules()
    return Rules(
        hand_size=_int(raw.get("hand_size", d.hand_size), "rules.hand_size", 1),
        final_threshold=_int(raw.get("final_threshold", d.final_threshold), "rules.final_threshold", 0),
        reserve_scores=_bool(raw.get("reserve_scores", d.reserve_scores), "rules.reserve_scores"),
        top_card_visible=_bool(raw.get("top_card_visible", d.top_card_visible), "rules.top_card_visible"),
    )


def parse_position(raw: object, *, allow_reward: bool = False) -> Position:
    """Validate a decoded JSON value against FORMAT.md and build a Position. A `"phase": "reward"`
    position (an extension) is accepted only where the caller says it can use one."""
    if not isinstance(raw, dict):
        raise PositionError(f"a position must be a JSON object, not {json_type_name(raw)}", "wrong_type")
    other = other_game(raw)
    if other is not None:
        raise PositionError(other, "wrong_kind")
    _unknown_keys(raw, TOP_KEYS | EXTENSION_KEYS, "")
    game = _choice(raw, "game", GAMES, "vanguard")
    g = game_of(game)
    phase = _choice(raw, "phase", PHASES, "play")
    reward = phase == "reward"
    if reward and not allow_reward:
        raise PositionError(
            'phase: a "reward" position (a round just won) is read by `lobo-hint reward`, not here', "bad_phase"
        )
    if reward and not g.has_rewards:
        raise PositionError('phase: "reward" is for vanguard positions (lobo has no rewards)', "bad_phase")
    difficulty = _choice(raw, "difficulty", tuple(DIFFICULTIES), "standard")
    top = top_value(difficulty)
    for key in ("player", "wolf"):
        if key not in raw:
            raise PositionError(
                f"{key}: missing (the {'Player' if key == 'player' else 'Wolf'}'s hand is required)", "missing_key"
            )
    for key, has in (("reserve", g.has_reserve), ("party", g.has_party), ("final", g.has_final_round)):
        if not has and key in raw:
            raise PositionError(
                f"{key}: lobo has no reserve, party or final round; remove the key", "lobo_reserve_or_party"
            )
    label = _label(raw)
    for key in ("draw_pile", "rules"):  # left out, they have their defaults; null is not one
        if key in raw and raw[key] is None:
            raise PositionError(f"{key}: must be {'a list or an object' if key == 'draw_pile' else 'an object'}, not null "
                                "(leave the key out for the default)", "wrong_type")  # fmt: skip

    player = _cards(raw["player"], "player", top)
    wolf = _cards(raw["wolf"], "wolf", top)
    reserve = _cards(raw.get("reserve", []), "reserve", top)
    discard = _cards(raw.get("discard", []), "discard", top)

    party: tuple[str, ...] = ()
    if g.has_party:
        raw_party = raw.get("party", list(MEMBERS))
        if not isinstance(raw_party, list):
            raise PositionError(f"party: must be a list of members, not {json_type_name(raw_party)}", "wrong_type")
        members = []
        for i, m in enumerate(raw_party):
            try:
                members.append(parse_member(m))
            except CardError as e:
                raise PositionError(f"party[{i}]: {e}", "malformed_card") from None
        for m, n in Counter(members).items():
            if n > 1:
                raise PositionError(f"party: {m} appears {n} times; there is one of each member", "too_many_copies")
        if not members:
            raise PositionError(
                "party: empty; at least one member must be active (with none the game is already lost)", "empty_party"
            )
        party = member_order(members)

    rules = parse_rules(raw.get("rules")).within(g)

    raw_pile = raw.get("draw_pile")
    size_given: int | None = None
    if raw_pile is None:
        pile_top: tuple[int, ...] = ()
    elif isinstance(raw_pile, list):
        pile_top = _cards_in_order(raw_pile, "draw_pile", top)
        size_given = len(pile_top)
    elif isinstance(raw_pile, dict):
        _unknown_keys(raw_pile, PILE_KEYS, "draw_pile: ")
        pile_top = _cards_in_order(raw_pile.get("top", []), "draw_pile.top", top)
        if "size" in raw_pile:
            size_given = _int(raw_pile["size"], "draw_pile.size", 0)
    else:
        raise PositionError(
            f"draw_pile: must be a list of cards or an object, not {json_type_name(raw_pile)}", "wrong_type"
        )

    # Copies: every seen card of a value together must fit in the deck.
    seen = Counter(player + wolf + reserve + discard + pile_top)
    copies = g.copies
    for v in sorted(seen):
        if seen[v] > copies:
            places = [
                name
                for name, cards in (
                    ("player", player),
                    ("wolf", wolf),
                    ("reserve", reserve),
                    ("discard", discard),
                    ("draw_pile", pile_top),
                )
                if v in cards
            ]
            raise PositionError(
                f"card {v}: {seen[v]} copies seen (in {', '.join(places)}) but the {game} deck holds {copies}",
                "too_many_copies",
            )
    unseen_total = g.deck_size(difficulty) - sum(seen.values())
    if size_given is None:
        pile_size = len(pile_top) + unseen_total
    else:
        pile_size = size_given
        if pile_size < len(pile_top):
            raise PositionError(
                f"draw_pile.size: {pile_size} is smaller than the {len(pile_top)} known top cards", "bad_pile_size"
            )
        if pile_size > len(pile_top) + unseen_total:
            raise PositionError(
                f"draw_pile.size: {pile_size} is more than the {len(pile_top)} known top cards plus the {unseen_total} unseen cards",
                "bad_pile_size",
            )

    if "final" in raw:
        final = _bool(raw["final"], "final")
    else:
        # A round just won with a reward to come was not final, whatever the pile holds now; else
        # the pile is taken as the deal left it (rounds.final_at_deal, the kernel's rule).
        final = kernel.final_when_dealt(g.ruleset, pile_size, rules.final_threshold) and not reward
    if reward and (final or pile_size == 0):
        raise PositionError(
            'phase: a won final round ends the game with no reward; a "reward" position has "final": false '
            "and cards in the pile",
            "bad_phase",
        )
    if g.has_final_round and pile_size == 0:
        final = True  # an empty pile makes the round final whatever the flag says

    objective = raw.get("objective", g.default_objective(final))
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise PositionError(
            f"objective: {shown(objective)} is not one of {', '.join(OBJECTIVES)}",
            "bad_objective",
        )
    if not g.allows(objective):
        raise PositionError(
            f"objective: {objective!r} does not fit {game} (its objectives: {', '.join(g.objectives)})",
            "bad_objective",
        )

    scores = _scores(raw, g)

    if reward and wolf:
        raise PositionError('wolf: a "reward" position comes after a won round: the Wolf\'s hand is empty', "bad_phase")
    if not wolf and not reward:
        raise PositionError("wolf: empty; a round with no Wolf cards is already over", "empty_wolf")
    if rules.top_card_visible and pile_size > 0 and not pile_top:
        given = raw.get("draw_pile")
        said = "empty" if isinstance(given, dict) and given.get("top") is not None else "missing"
        raise PositionError(
            f"draw_pile.top: {said}; with rules.top_card_visible the face-up top card must be named", "missing_top"
        )

    return Position(
        game=game,
        difficulty=difficulty,
        player=player,
        wolf=wolf,
        reserve=reserve,
        party=party,
        discard=discard,
        pile_size=pile_size,
        pile_top=pile_top,
        final=final,
        objective=objective,
        rules=rules,
        label=None if label is None else str(label),
        phase=phase,
        scores=scores,
    )


SCORE_KEYS = frozenset({"player", "wolf"})


def _scores(raw: dict[str, Any], g: Any) -> tuple[int, int]:
    """lobo's race so far: `scores` {"player": P, "wolf": W}, each 0..target-1 (FORMAT.md)."""
    if "scores" not in raw:
        return 0, 0
    if not g.is_race:
        raise PositionError(f"scores: {g.name} has no race to 100; remove the key", "scores_for_vanguard")
    obj = raw["scores"]
    if not isinstance(obj, dict):
        raise PositionError(
            f'scores: must be an object {{"player": P, "wolf": W}}, not {json_type_name(obj)}', "wrong_type"
        )
    _unknown_keys(obj, SCORE_KEYS, "scores: ")
    out = []
    for side in ("player", "wolf"):
        v = obj.get(side, 0)
        if isinstance(v, bool) or not isinstance(v, int):
            raise PositionError(f"scores.{side}: must be a whole number, not {shown(v)}", "wrong_type")
        if not 0 <= v < g.target:
            raise PositionError(
                f"scores.{side}: {shown(v)} is out of range (0..{g.target - 1}: a side at {g.target} has won)",
                "out_of_range",
            )
        out.append(v)
    return out[0], out[1]


def load_position(path: str | Path, *, allow_reward: bool = False) -> Position:
    """Read and validate a position file. Errors name the file."""
    p = Path(path)
    try:
        text = read_text(path)  # as given: Path('') would be the current folder
    except Unreadable as e:
        raise PositionError(f"{shown_path(path)}: cannot read: {e}", "unreadable") from None
    try:
        raw = loads(text)
    except json.JSONDecodeError as e:
        # A file of positions one a line is batch's (found by a review: "Extra data" said no more).
        lines = e.msg == "Extra data" and text[: e.pos].strip().count("\n") == 0
        several = "; a file of positions one a line is for lobo-hint batch" if lines else ""
        raise PositionError(f"{p}: not valid JSON: {json_error(e)}{several}", "bad_json") from None
    except RecursionError:
        raise PositionError(f"{p}: not valid JSON: nested too deeply", "bad_json") from None
    try:
        return parse_position(unwrap_puzzle(raw), allow_reward=allow_reward)
    except PositionError as e:
        raise PositionError(f"{p}: {e}", e.code) from None


def puzzle_plays(path: str | Path) -> str | None:
    """The finish a puzzle file proposes (its "plays", as `check` and `batch` judge it), if any;
    read after load_position, which has said what is wrong with a file that cannot be read."""
    try:
        raw = loads(read_text(path))
    except (Unreadable, json.JSONDecodeError, RecursionError):
        return None
    plays = raw.get("plays") if isinstance(raw, dict) and "position" in raw else None
    return plays if isinstance(plays, str) else None


def unwrap_puzzle(raw: object) -> object:
    """A puzzle file {"position": {...}, "expect": {...}, "note": ...} stands for its position
    (a documented extension: docs/formats.md)."""
    if isinstance(raw, dict) and "position" in raw and "player" not in raw and "wolf" not in raw:
        extra = [k for k in raw if k not in PUZZLE_KEYS]
        if extra:
            raise PositionError(
                f"unknown key {extra[0]!r} in a puzzle file{closest_key(extra[0], PUZZLE_KEYS)}", "unknown_key"
            )
        _puzzle_keys(raw)
        return raw["position"]
    return raw


def _label(raw: dict[str, Any]) -> Any:
    """The `id` (else the `note`) of a position or a puzzle file, each checked: a label, never a
    number to compute with; null is absent."""
    note = raw.get("note")
    if note is not None and not isinstance(note, str):
        raise PositionError(f"note: must be a string, not {json_type_name(note)}", "wrong_type")
    label = raw.get("id", note)
    if isinstance(label, HugeNumber):
        label = label.text
    if label is not None and (isinstance(label, bool) or not isinstance(label, (str, int))):
        raise PositionError(f"id: must be a string or a whole number, not {_what(label)}", "wrong_type")
    return label


def _puzzle_keys(raw: dict[str, Any]) -> None:
    """A puzzle file's own keys of the types they hold, null standing for absent as in a position
    (found by a review: an id that was an object was replaced by the file's name, a grade
    "extreme" passed validate)."""
    _label(raw)
    given = {k: v for k, v in raw.items() if v is not None}
    if "plays" in given and not isinstance(given["plays"], str):
        raise PositionError(
            f'plays: a finish to judge is a string of plays, as "9=4+5, 7>3", not {json_type_name(given["plays"])}',
            "wrong_type",
        )
    if "expect" in given and not isinstance(given["expect"], dict):
        raise PositionError(f"expect: must be an object, not {json_type_name(given['expect'])}", "wrong_type")
    if "grade" in given:
        _choice(given, "grade", tuple(Grade), Grade.MEDIUM)


def with_objective(pos: Position, objective: str | None) -> Position:
    """The position valued under another objective (a command-line choice), checked against the game."""
    if objective is None:
        return pos
    if objective not in OBJECTIVES:
        raise PositionError(f"--objective: {objective!r} is not one of {', '.join(OBJECTIVES)}", "bad_objective")
    g = game_of(pos.game)
    if not g.allows(objective):
        raise PositionError(
            f"--objective: {objective!r} does not fit {pos.game} (its objectives: {', '.join(g.objectives)})",
            "bad_objective",
        )
    return replace(pos, objective=objective)


def as_final(pos: Position, force: bool) -> tuple[Position, bool]:
    """The position as a final round: (position, whether it was forced). Refuses what cannot be one."""
    if not game_of(pos.game).has_final_round:
        raise PositionError("game: lobo has no final round; finishing is for vanguard positions", "not_final")
    if pos.final:
        return pos, False
    if not force:
        why = (
            f"the pile holds {pos.pile_size} cards"
            if pos.pile_size > pos.rules.final_threshold
            else '"final": false: the round began with more cards in the pile'  # found by a review
        )
        raise PositionError(
            f'final: this is not a final round ({why}); give --final to finish it as one, or set "final": true',
            "not_final",
        )
    objective = "score" if pos.objective == "win" else pos.objective
    return replace(pos, final=True, objective=objective), True
