"""Builds the railway LOBO examples in puzzles/railway/: positions on the made-up deck, each with
its answers computed by the plain reference of tests/reference/railway_ref.py (never by the
engine in solver/railway/), and the index in puzzles/railway/README.md.

    python puzzles/railway/build.py

The files are JSON but end in `.railway`, so that `lobo-hint batch puzzles/` (which reads every
.json below puzzles/ as a Vanguard/Lobo puzzle) leaves them alone. tests/test_railway_cli.py
checks every answer against the engine and recomputes the quick ones with the reference.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "tests"))

from reference.railway_ref import is_lobo, lobo_chance, max_journeys, unseen  # noqa: E402

DECK = "made-up-deck.railway"

POSITIONS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "01-lobo-with-the-discard",
        "the top discard completes the second journey: take it and call LOBO",
        {
            "hand": ["Charing Cross", "Highgate", "Euston", "Clapham", "Brixton"],
            "seen": ["Bow", "Morden"],
            "top_discard": "Waterloo",
            "players": 3,
            "stock": 18,
        },
    ),
    (
        "02-take-the-discard",
        "the top discard completes a journey; which card to give up for the best chances",
        {
            "hand": ["Charing Cross", "Highgate", "Season Ticket", "Bank", "Waterloo"],
            "seen": ["Brixton", "Bow", "Morden", "Woolwich", "Ilford", "Richmond", "Wimbledon", "Hammersmith"],
            "top_discard": "Euston",
            "players": 3,
            "stock": 12,
        },
    ),
    (
        "03-draw-from-the-stock",
        "the top discard helps nothing: draw from the stock",
        {
            "hand": ["Baker Street", "Paddington", "Kings Cross", "Angel", "Season Ticket"],
            "seen": ["Victoria", "Brixton", "Bow", "Ilford", "Liverpool Street", "Morden", "Waterloo", "Aldgate"],
            "top_discard": "Wimbledon",
            "players": 2,
            "stock": 10,
        },
    ),
    (
        "04-a-lobo-hand",
        "six cards just after a draw: two journeys, one with a season ticket",
        {
            "hand": ["Bank", "Aldgate", "London Bridge", "Notting Hill", "Richmond", "Season Ticket"],
            "seen": ["Victoria"],
            "players": 4,
        },
    ),
    (
        "05-one-journey-exposed",
        "one journey exposed, two cards in hand: the next journey is LOBO",
        {
            "hand": ["Stratford", "Woolwich"],
            "exposed": [["Clapham", "Victoria", "Brixton"]],
            "seen": ["Euston", "Highgate", "Hampstead", "Angel", "Marylebone", "Paddington", "Kings Cross"],
            "top_discard": "Ilford",
            "players": 3,
            "stock": 14,
        },
    ),
    (
        "06-not-yet",
        "two junctions that want the same station: one journey, three cards left over",
        {
            "hand": ["Camden Town", "Hampstead", "Angel", "Kings Cross", "Season Ticket", "Woolwich"],
            "players": 2,
        },
    ),
]


def _without(cards: list[str], card: str) -> list[str]:
    out = list(cards)
    out.remove(card)
    return out


def options(deck: dict[str, Any], pos: dict[str, Any]) -> list[dict[str, Any]]:
    """Every (source, discard) with its chances by turns 1, 2 and 3, straight from the reference."""
    hand, exposed, top = pos["hand"], pos.get("exposed", []), pos.get("top_discard")
    e = len(exposed)
    pool = unseen(deck, hand, exposed, pos.get("seen", []), top)
    out = []
    if top is not None:
        now = [*hand, top]
        if is_lobo(deck, now, e):
            out.append({"source": "top_discard", "card": top, "discard": None, "chances": [1, 1, 1]})
        else:
            for d in dict.fromkeys(now):
                kept = _without(now, d)
                chances = [0, lobo_chance(deck, kept, e, pool, 1), lobo_chance(deck, kept, e, pool, 2)]
                out.append({"source": "top_discard", "card": top, "discard": d, "chances": chances})
    if pool:
        chances = [lobo_chance(deck, hand, e, pool, n) for n in (1, 2, 3)]
        out.append({"source": "stock", "card": None, "discard": None, "chances": chances})
    return [
        {
            **{k: v for k, v in o.items() if k != "chances"},
            "now_exact": str(Fraction(o["chances"][0])),
            "next_turn_exact": str(Fraction(o["chances"][1])),
            "within_three_exact": str(Fraction(o["chances"][2])),
        }
        for o in out
    ]


def expect(deck: dict[str, Any], pos: dict[str, Any]) -> dict[str, Any]:
    hand, e = pos["hand"], len(pos.get("exposed", []))
    n = max_journeys(deck, hand)
    out: dict[str, Any] = {
        "lobo": is_lobo(deck, hand, e),
        "journeys_count": n,
        "leftover_count": len(hand) - 3 * n,
    }
    top = pos.get("top_discard")
    if top is not None:
        out["top_discard_lobo"] = is_lobo(deck, [*hand, top], e)
    # Draw advice is for a hand at the start of a turn (two short of whole journeys); the
    # other examples are for `railway lobo` only.
    opts = options(deck, pos) if len(hand) % 3 == 2 else []
    if opts:

        def key(o: dict[str, Any]) -> tuple[Fraction, ...]:
            return tuple(Fraction(o[k]) for k in ("next_turn_exact", "within_three_exact", "now_exact"))

        top_key = max(key(o) for o in opts)
        out["best"] = [{"source": o["source"], "discard": o["discard"]} for o in opts if key(o) == top_key]
        out["options"] = opts
    return out


def main() -> None:
    deck = json.loads((HERE / DECK).read_text(encoding="utf-8"))
    index = []
    for ident, note, pos in POSITIONS:
        raw = {"id": ident, "note": note, "position": {"deck": DECK, **pos}, "expect": expect(deck, pos)}
        (HERE / f"{ident}.railway").write_text(json.dumps(raw, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        ex = raw["expect"]
        what = "LOBO" if ex["lobo"] else f"{ex['journeys_count']} journey(s), {ex['leftover_count']} left over"
        if ex.get("best"):
            best = ex["best"][0]
            card = f" {pos.get('top_discard')}" if best["source"] == "top_discard" else ""
            then = f", discard {best['discard']}" if best["discard"] else ""
            what += f"; best: {best['source'].replace('_', ' ')}{card}{then}"
        index.append(f"| `{ident}.railway` | {note} | {what} |")
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    head = readme.split("<!-- index -->")[0]
    (HERE / "README.md").write_text(
        head + "<!-- index -->\n| file | what | answer |\n|---|---|---|\n" + "\n".join(index) + "\n", encoding="utf-8"
    )
    print(f"wrote {len(POSITIONS)} positions and the index")


if __name__ == "__main__":
    main()
