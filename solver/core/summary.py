"""The rules and rulings in force, in brief, for `lobo-hint rules`. docs/rules.md has them in full."""

from __future__ import annotations

from solver.core.cards import DIFFICULTIES
from solver.core.games import game as game_of
from solver.core.position import Rules

_PLAYS = [
    ("Perfect", "1 of yours = 1 Wolf card of equal value", "you draw 1"),
    ("Sum", "2+ of yours adding up to 1 Wolf card", "you draw 1"),
    ("Split", "1 of yours = 2+ Wolf cards adding up to it", "the Wolf draws 1 (needs 1 in the pile)"),
    ("Over", "1 of yours higher than 1 Wolf card", "the Wolf draws the difference (needs that many in the pile)"),
    ("Fold", "always allowed", "the round is lost"),
]


def rules_summary(game: str, rules: Rules | None = None) -> list[tuple[str, list[str]]]:
    """Sections of (heading, lines)."""
    r = rules or Rules()
    g = game_of(game)
    decks = ", ".join(f"{d} A..{t} ({g.deck_size(d)} cards)" for d, t in DIFFICULTIES.items())
    cards = [
        f"Only values count (A=1 .. 10); suits never matter. {g.copies} copies of each value: {decks}.",
        f"Deal {r.hand_size} to you, then {r.hand_size} to the Wolf; "
        + (
            "a pile too short for both hands is first shuffled together with the discards [ruling]."
            if g.reshuffles
            else "a short pile deals one at a time, you first [ruling]; a Wolf dealt no card loses that round at once."
        ),
        "The Wolf never acts. You win the round the moment the Wolf's hand is empty (after the play's draw).",
        "Every card played is discarded. Drawn cards go to your hand.",
    ]
    if g.has_party:
        cards.insert(1, "Plus the party: J, Q, K of spades, never in the pile.")
    plays = [f"{name}: {cond}; {then}." for name, cond, then in _PLAYS]
    plays.append(
        "Perfect/Sum with an empty pile draw nothing; a Split or Over the pile cannot pay for is illegal [ruling]."
    )
    plays.append("With no legal play but Fold, you must fold.")
    sections = [("Cards and the round", cards), ("Plays", plays)]
    if g.is_race:
        sections.append(
            (
                "Scoring",
                [
                    "Won round: you score your hand's total. Lost round: the Wolf scores its hand's total.",
                    f"First to {g.target} wins. A pile too short for a new round is shuffled together with the discards into a new pile [ruling].",
                ],
            )
        )
    if g.has_party:
        sections.append(
            (
                "Party, reserve, rewards",
                [
                    "Losing a regular round with k Wolf cards left turns min(k, active) members face down: J, then Q, then K [ruling].",
                    "All three face down: the game is lost.",
                    "Winning a regular round: one reward, your choice: a card of the winning hand to the reserve, or revive a member.",
                    "Reserve cards can be used in any play, any round; the reserve has no size limit [ruling].",
                ],
            )
        )
    if g.has_final_round:
        reserve_note = "reserve cards score too" if r.reserve_scores else "reserve cards do not score [ruling]"
        sections.append(
            (
                "The final round",
                [
                    f"Final when the pile holds {r.final_threshold} or fewer cards after the deal, or once the pile runs out.",
                    "Then: no Split, no Over, Perfect/Sum draw nothing, and Sacrifice (a member on any 1 Wolf card) is legal,"
                    " as long as one member stays active.",
                    f"Won: score = hand total + 10 per active member ({reserve_note}). Lost: the game is lost.",
                ],
            )
        )
    pile = (
        "face up: you always know the next card"
        if r.top_card_visible
        else "face down: only its order is hidden [ruling]"
    )
    sections.append(
        (
            "What you know",
            [
                f"Everything is face up but the pile's order. The pile's top card is {pile}.",
                "Unknown draws are uniform over the unseen cards; an Over's d cards are drawn without replacement.",
            ],
        )
    )
    sections.append(
        (
            'Rulings that a position can change (its "rules" object)',
            [
                ", ".join(f"{k} = {v}" for k, v in r.written().items() if k in g.rulings),
            ],
        )
    )
    return sections
