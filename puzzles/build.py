"""Builds puzzles/collection/: seeded positions with expected answers computed by the plain
reference implementations of tests/reference (never by the fast engine), graded, and indexed
in puzzles/README.md.

    python puzzles/build.py        # rewrites puzzles/collection/ and the index

The test suite recomputes every expected answer with the reference and runs `batch --check`.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from gen import random_final, random_position, reference_form  # noqa: E402
from reference.expectimax import analyse  # noqa: E402
from reference.finish import best_finish  # noqa: E402
from solver.batch.grades import finish_grade, hint_grade, lost_grade  # noqa: E402
from solver.core.position import parse_position  # noqa: E402
from solver.core.rules import initial_state  # noqa: E402
from solver.finish.finisher import solve_finish  # noqa: E402

OUT = ROOT / "puzzles" / "collection"


def finish_expect(raw: dict[str, Any]) -> tuple[dict[str, Any], str]:
    ref = best_finish(reference_form(raw))
    if ref["status"] == "win":
        return {"status": "win", "score": ref["score"]}, f"final round, best finish scores {ref['score']}"
    return {"status": "lost"}, "final round that cannot be finished"


def hint_expect(raw: dict[str, Any]) -> tuple[dict[str, Any], str, str] | None:
    """The expected answer, a note and the grade; None where every play is worth the same (Fold
    too): no puzzle, as `lobo-hint generate` has it."""
    pos = reference_form(raw)
    ref = analyse(pos)
    key = "value" if pos["objective"] != "win" else "win_probability"
    best = ref["value"]
    moves = [{"play": p, "value": float(v), "value_exact": str(v)} for p, v in ref["moves"] if v is not None]
    best_plays = [p for p, v in ref["moves"] if v == best]
    values = sorted({v for _, v in ref["moves"] if v is not None}, reverse=True)
    if len(values) < 2:
        return None
    grade = hint_grade(len(best_plays), values[0] - values[1])
    expect = {key: float(best), f"{key}_exact": str(best), "best_plays": best_plays, "moves": moves}
    what = {"win": "win probability", "party": "party members", "points": "points"}[pos["objective"]]
    return expect, f"{pos['game']} {pos['difficulty']}, {what} {best} ({len(ref['moves'])} plays)", grade


def small(rng: random.Random, **kw: Any) -> dict[str, Any]:
    """Positions the reference can value quickly: few cards, few unknown draws."""
    while True:
        raw = random_position(rng, max_hand=4, max_wolf=4, max_reserve=2, max_pile=3, **kw)
        pos = parse_position(raw)
        if pos.final or pos.pile_size == 0 or len(pos.player) + len(pos.reserve) < 2:
            continue
        return raw


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        old.unlink()
    rng = random.Random(2026)
    index: list[tuple[str, str, str]] = []

    def save(name: str, raw: dict[str, Any], expect: dict[str, Any], note: str, grade: str) -> None:
        body = {"id": name, "note": note, "grade": grade, "position": raw, "expect": expect}
        (OUT / f"{name}.json").write_text(json.dumps(body, indent=1) + "\n")
        index.append((name, note, grade))

    won = lost = 0
    while won < 10 or lost < 8:
        raw = random_final(rng, max_hand=7, max_reserve=3, max_wolf=6)
        expect, note = finish_expect(raw)
        # The grade only (never the answer) from the finisher: how many best finishes there are,
        # or how many Wolf cards the proof of a loss needs.
        f = solve_finish(initial_state(parse_position(raw)), count_alternatives=True)
        if expect["status"] == "win" and won < 10:
            won += 1
            save(f"finish-won-{won:02d}", raw, expect, note, finish_grade(len(raw["wolf"]), f.alternatives or 0))
        elif expect["status"] == "lost" and lost < 8:
            lost += 1
            assert f.proof is not None
            save(f"finish-lost-{lost:02d}", raw, expect, note, lost_grade(len(f.proof.wolf)))
    i = 0
    while i < 12:
        raw = small(rng, game="vanguard" if (i + 1) % 3 else "lobo")
        pos = parse_position(raw)
        unseen = [v for v, n in enumerate(pos.unseen, start=1) for _ in range(n)]
        rng.shuffle(unseen)
        raw["draw_pile"] = list(pos.pile_top) + unseen[: pos.unknown_in_pile]
        raw.get("rules", {}).pop("top_card_visible", None)
        if raw.get("objective") == "party" and i % 2:
            raw["objective"] = "win"
        made = hint_expect(raw)
        if made is None:
            continue
        i += 1
        expect, note, grade = made
        save(f"known-pile-{i:02d}", raw, expect, "fully known pile: " + note, grade)
    for difficulty in ("easy", "standard", "hard"):
        made = 0
        while made < 8:
            raw = small(rng, game="vanguard")
            answer = hint_expect(raw) if raw["difficulty"] == difficulty else None
            if answer is None:
                continue
            made += 1
            expect, note, grade = answer
            save(f"hint-{difficulty}-{made:02d}", raw, expect, "mid-round: " + note, grade)
    made = 0
    while made < 10:
        raw = small(rng, game="lobo")
        answer = hint_expect(raw)
        if answer is None:
            continue
        made += 1
        expect, note, grade = answer
        save(f"lobo-{made:02d}", raw, expect, note, grade)

    lines = [
        "# Puzzles",
        "",
        '`collection/`: positions in the FORMAT.md form, each wrapped as `{"id", "note", "grade",',
        '"position", "expect"}` with its expected answer computed by the plain reference implementations',
        "of `tests/reference/` (`python puzzles/build.py` rebuilds them). The test suite recomputes every",
        "answer with the reference and runs `lobo-hint batch puzzles/ --check` over them. `examples/` holds",
        "three positions to start from (the README runs two; lobo.json is a race). Grades, as `lobo-hint generate` gives them",
        "(solver/batch/grades.py): a hint is *easy* when several plays are equally best, *medium* when one",
        "is, *hard* when one is, less than 0.1 ahead of the next; a finish is *easy* with more than three",
        "other best finishes, *medium* with one to three, *hard* when it is the only one against three Wolf",
        "cards or more; a round that cannot be finished is *hard* when its proof needs three Wolf cards or",
        "more, else *medium*.",
        "",
        "| id | what | grade |",
        "|---|---|---|",
    ]
    lines += [f"| `{name}` | {note} | {grade} |" for name, note, grade in index]
    (ROOT / "puzzles" / "README.md").write_text("\n".join(lines) + "\n")
    print(f"{len(index)} puzzles written to {OUT}")


if __name__ == "__main__":
    main()
