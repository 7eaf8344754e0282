"""Random puzzles with their answers and a grade: final-round finishes, mid-round hints and rounds
with a fully known pile. Seeded: the same arguments give the same puzzles."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from solver.batch.grades import finish_grade, hint_grade, lost_grade
from solver.core.cards import DIFFICULTIES
from solver.core.games import game as game_of
from solver.core.position import parse_position
from solver.core.rules import initial_state
from solver.core.status import FinishStatus, HintStatus, Outcome
from solver.finish.finisher import solve_finish
from solver.search.hint import hint
from solver.words.numbers import count_text

KINDS = ("finish", "hint", "known-pile")
TRIES = 200  # positions dealt a puzzle asked for, at most, before the filters are given up on


@dataclass(frozen=True)
class Puzzle:
    id: str
    note: str
    grade: str
    position: dict[str, Any]
    expect: dict[str, Any]
    winnable: bool  # some order of the pile lets the round be won (--only); not in the file

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "note": self.note, "grade": self.grade, "position": self.position, "expect": self.expect}


def _deal(rng: random.Random, difficulty: str, game: str) -> list[int]:
    deck = [v for v in range(1, DIFFICULTIES[difficulty] + 1) for _ in range(game_of(game).copies)]
    rng.shuffle(deck)
    return deck


def _final(rng: random.Random, difficulty: str) -> dict[str, Any]:
    deck = _deal(rng, difficulty, "vanguard")
    h, r, w = rng.randint(3, 8), rng.randint(0, 2), rng.randint(2, 6)
    return {
        "game": "vanguard",
        "difficulty": difficulty,
        "player": deck[:h],
        "reserve": deck[h : h + r],
        "wolf": deck[h + r : h + r + w],
        "party": rng.sample(["J", "Q", "K"], rng.randint(1, 3)),
        "final": True,
        # What a final round's deal leaves (nothing is drawn from it): without it the position
        # showed every unseen card in the pile.
        "draw_pile": {"size": rng.randint(0, 8)},
    }


def _midround(rng: random.Random, difficulty: str, known: bool, game: str | None) -> dict[str, Any]:
    """4 v 4 late in a round: most of the deck discarded, so that the answer is exact and quick.
    game: one game, or None for a quarter lobo (drawn either way: a seed's other puzzles stay)."""
    drawn = "lobo" if rng.random() < 0.25 else "vanguard"
    game = game or drawn
    deck = _deal(rng, difficulty, game)
    pile = rng.randint(2, 5)
    unseen = deck[8 : 8 + pile + rng.randint(0, 2)]
    raw: dict[str, Any] = {
        "game": game,
        "difficulty": difficulty,
        "player": deck[:4],
        "wolf": deck[4:8],
        "discard": deck[8 + len(unseen) :],
    }
    if known:
        raw["draw_pile"] = unseen[:pile]
        raw["discard"] += unseen[pile:]
    else:
        raw["draw_pile"] = {"size": pile}
    g = game_of(game)
    if g.has_final_round:
        raw["final"] = False
    if g.has_party:
        raw["party"] = rng.sample(["J", "Q", "K"], rng.randint(1, 3))
    return raw


def never_matches(kind: str, only: str | None, grade: str | None, game: str | None = None) -> str | None:
    """Why a filter can never keep a puzzle of this kind (None: it can)."""
    if kind == "finish" and game is not None and not game_of(game).has_final_round:
        return f"--game {game}: a finish puzzle is a final round, and {game} has none"
    if kind == "finish" and only == Outcome.LOST and grade == "easy":
        return "--only lost --grade easy: a final round that cannot be finished is graded medium or hard"
    if kind == "known-pile" and grade == "hard":
        return (
            "--grade hard: a known pile's plays are worth exact outcomes (a round won or lost, whole"
            " points), never less than 0.1 apart"
        )
    return None


def generate(
    kind: str,
    difficulty: str,
    count: int,
    seed: int,
    only: str | None = None,
    grade: str | None = None,
    max_tries: int = TRIES,
    game: str | None = None,
) -> Iterator[Puzzle]:
    """Up to `count` puzzles; `only` "won" or "lost" keeps winnable or lost ones; `grade` keeps
    one grade; `game` one game's (hint and known-pile; None: both). Gives up after max_tries ×
    count attempts (some filters are rare)."""
    rng = random.Random(f"{kind}-{difficulty}-{seed}")
    # The filters in the name: runs with other filters into one folder write other files (found by
    # a review: --grade easy replaced the puzzles --grade hard had written there, under their names).
    name = "-".join(str(x) for x in (kind, game, difficulty, seed, only, grade) if x is not None)
    # As many digits as the count needs, so that the files sort in the order they were made.
    width = max(3, len(str(count)))
    made = tries = 0
    while made < count and tries < max_tries * count:
        tries += 1
        p = _one(kind, difficulty, rng, f"{name}-{made + 1:0{width}d}", game)
        if p is None:
            continue
        if (
            (only == Outcome.WON and not p.winnable)
            or (only == Outcome.LOST and p.winnable)
            or (grade is not None and p.grade != grade)
        ):
            continue
        made += 1
        yield p


def _clean(v: float) -> float:
    """An exact value as written: no -5.6e-17 for a sum of exact chances that is 0."""
    return round(v, 12) + 0.0


def _one(kind: str, difficulty: str, rng: random.Random, ident: str, game: str | None = None) -> Puzzle | None:
    if kind == "finish":
        raw = _final(rng, difficulty)
        f = solve_finish(initial_state(parse_position(raw)), count_alternatives=True)
        if not f.exact:
            return None
        if f.status == FinishStatus.LOST:
            assert f.proof is not None
            return Puzzle(
                ident,
                f"no finish: {f.proof.reason}",
                lost_grade(len(f.proof.wolf)),
                raw,
                {"status": FinishStatus.LOST.value, "proof": {"wolf": list(f.proof.wolf)}},
                winnable=False,
            )
        others = f.alternatives or 0
        grade = finish_grade(len(raw["wolf"]), others)
        ways = "one way" if others == 0 else f"{others + 1} ways"
        return Puzzle(
            ident,
            f"best finish scores {f.score} ({ways})",
            grade,
            raw,
            {"status": FinishStatus.WIN.value, "score": f.score},
            winnable=True,
        )
    raw = _midround(rng, difficulty, known=kind == "known-pile", game=game)
    # Graded by the value the file names, so that the file's own answer ranks the plays the same:
    # vanguard by the chance to win the round, lobo by the round's points (under `game` a lobo
    # round is never exact: the race beyond it is a table's estimate, and no puzzle was made).
    vanguard = game_of(raw["game"]).win_probability
    raw["objective"] = "win" if vanguard else "points"
    h = hint(parse_position(raw), time_limit=20)
    if not h.exact or h.value is None:
        return None
    key = "win_probability" if vanguard else "value"
    valued = [(m.play, _clean(m.value or 0.0)) for m in h.moves]
    best_value = max(v for _, v in valued)
    if all(abs(v - best_value) < 1e-9 for _, v in valued):
        return None  # every play as good as another (Fold too): no puzzle
    moves: list[dict[str, Any]] = [{"play": p.to_json(), "value": v} for p, v in valued]
    best = [p.to_json() for p, v in valued if abs(v - best_value) < 1e-9]
    values = sorted({round(v, 9) for _, v in valued}, reverse=True)
    grade = hint_grade(len(best), values[0] - values[1])
    expect: dict[str, Any] = {key: best_value, "best_plays": best, "moves": moves}
    what = "win probability" if vanguard else "points"
    note = f"{raw['game']}: {what} {best_value:.4g}, {count_text(len(best), 'best play')} of {len(moves)}"
    if h.line is not None:
        expect["line"] = [p.to_json() for p in h.line]
        note += f"; best line {', '.join(map(str, h.line))}"
    # A lobo round lost whatever is played still has plays worth more points than others.
    return Puzzle(ident, note, grade, raw, expect, winnable=h.status != HintStatus.PROVEN_LOST)
