"""The board in words: cards, the party, what a play does (the CLI's play list, the web page's
"then" column)."""

from __future__ import annotations

from collections.abc import Sequence

from solver.core.cards import MEMBERS
from solver.core.games import game
from solver.core.rounds import party_after_loss
from solver.core.rules import Effect, State
from solver.words.numbers import count_text


def cards_text(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values) if values else "—"


def party_text(party: Sequence[str]) -> str:
    """The party in the rules' words, members in J Q K order: "J Q K face up", "Q K face up, J face down"."""
    up = [m for m in MEMBERS if m in party]
    down = [m for m in MEMBERS if m not in party]
    parts = [f"{' '.join(up)} face up"] if up else []
    return ", ".join([*parts, f"{' '.join(down)} face down"] if down else parts)


def draw_text(who: str, values: Sequence[int]) -> str:
    """Cards drawn, in words. They follow a colon: "the Wolf draws 2" would read as a count, as
    a play's effect counts them ("Wolf draws 2 cards")."""
    return f"{'you draw' if who == 'player' else 'the Wolf draws'}: {cards_text(values)}"


def effect_text(e: Effect, state: State) -> str:
    parts = []
    if e.player_draws:
        parts.append(f"you draw the known {e.known[0]}" if e.known else "you draw 1 card")
    elif e.wolf_draws:
        # Found by a review: "5 cards (4 known)" read as four of the five known, not a known 4.
        k = len(e.known)
        first = "all known" if k == e.wolf_draws else "the first known" if k == 1 else f"the first {k} known"
        known = f", {first}: {cards_text(e.known)}" if e.known else ""
        parts.append(f"Wolf draws {count_text(e.wolf_draws)}{known}")
    elif not e.loses and e.member is None:
        parts.append("no draw")
    if e.member:
        parts.append(f"{e.member} turned face down")
    if e.makes_final:
        parts.append("pile runs out: final round")
    if e.wins:
        parts.append("wins the round")
    if e.loses:
        if game(state.game).is_race:
            parts.append(f"round lost: Wolf scores {sum(state.wolf)}")
        elif state.final:
            parts.append("final round lost: the game is lost")
        else:
            left = party_after_loss(state.party, len(state.wolf))
            fallen = " ".join(m for m in state.party if m not in left)
            # The last member with them: said (found by a review: a fold that ends the game read
            # like any lost round).
            parts.append(f"round lost: {fallen} face down" + ("" if left else ": the game is lost"))
    return ", ".join(parts)


__all__ = ["cards_text", "effect_text", "party_text"]
