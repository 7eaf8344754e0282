"""The hint search: hand-worked values, budgets that stay honest, proofs re-checked, monotonicity."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from conftest import sample_sizes
from gen import random_position
from solver.core.position import parse_position
from solver.core.rules import initial_state
from solver.finish.verify import plainly_won, verify_hint
from solver.search.engine import evaluate_moves
from solver.search.hint import hint


def pos(**raw: Any) -> Any:
    """A position valued by the round (win, lobo's points) unless it names its objective: these
    tests are about the search of one round."""
    if "objective" not in raw and raw.get("final") is not True:
        raw["objective"] = "points" if raw.get("game") == "lobo" else "win"
    return parse_position(raw)


def values(p: Any) -> dict[str, float]:
    return {str(m.play): m.value for m in hint(p).moves}


def test_hand_worked_single_draw() -> None:
    # Easy vanguard deck with everything discarded but a 2 and a 7, which are the 2-card pile.
    # You hold 5 2, the Wolf 5 7. Plays: 5=5, 2+5=7, fold (no Split, no Over below 5).
    #   5=5 draws the 7 (1/2): then 7=7 wins; or the 2 (1/2): 2 2 against 7 has no play: fold. 1/2.
    #   2+5=7 draws the 7: 7>5 makes the Wolf draw 2 but the pile holds 1: illegal, fold; or the 2:
    #   nothing beats or makes 5: fold. 0.
    discard = [v for v in range(1, 9) for _ in range(4)]
    for v in (5, 5, 2, 2, 7, 7):
        discard.remove(v)
    p = pos(difficulty="easy", player=[5, 2], wolf=[5, 7], discard=discard, draw_pile={"size": 2}, final=False)
    assert p.unseen == (0, 1, 0, 0, 0, 0, 1, 0)
    assert values(p) == {"5=5": 0.5, "2+5=7": 0.0, "fold": 0.0}
    h = hint(p)
    assert h.status == "open" and str(h.best) == "5=5"


def test_sure_cover_is_a_certain_win() -> None:
    # 3+4=7 and 6=6 cover the Wolf whatever comes: Perfect and Sum only add cards to your hand.
    p = pos(player=[3, 4, 6, 9], wolf=[7, 6], draw_pile={"size": 6}, final=False)
    h = hint(p)
    assert h.status == "proven_won" and h.exact
    assert str(h.best) in ("3+4=7", "6=6") and h.moves[0].value == 1.0
    assert plainly_won(initial_state(p), surely=True)


def test_budgets_give_sound_bounds_and_never_proofs() -> None:
    rng = random.Random(4)
    checked = 0
    while checked < 40:
        raw = random_position(rng, game=rng.choice(["vanguard", "lobo"]), max_hand=4, max_wolf=4, max_pile=5)
        p = parse_position(raw)
        if p.final:
            continue
        full = {str(m.play): m.value for m in hint(p).moves}
        for budget in (1, 5, 50):
            cut = hint(p, max_states=budget)
            if cut.exact:
                continue
            assert cut.status == "open" and cut.proof is None
            for m in cut.moves:
                if m.bounds is not None:
                    lo, hi = m.bounds
                    assert lo - 1e-9 <= full[str(m.play)] <= hi + 1e-9, (raw, str(m.play), m.bounds)
                else:
                    assert abs(m.value - full[str(m.play)]) < 1e-9  # type: ignore[operator]
            checked += 1


def test_time_limit_says_not_exact() -> None:
    p = pos(player=[2, 5, 7, 9], wolf=[3, 4, 6, 8], draw_pile={"size": 14}, final=False)
    h = hint(p, time_limit=0.2)
    assert not h.exact and h.status == "open" and h.proof is None
    assert any(m.bounds is not None for m in h.moves)
    assert h.to_json()["exact"] is False


@sample_sizes(100, 1000)
def test_proofs_are_confirmed_by_the_plain_search(n: int) -> None:
    rng = random.Random(8)
    seen = {"proven_won": 0, "proven_lost": 0, "open": 0}
    for _ in range(n):
        p = parse_position(random_position(rng, max_hand=4, max_wolf=4, max_pile=4))
        h = hint(p)
        seen[h.status] += 1
        assert verify_hint(p, h) == [], p.to_json()
    assert all(n > 5 for n in seen.values()), seen


@sample_sizes(60, 400)
def test_a_round_searched_to_its_end_has_its_status_though_the_game_beyond_is_estimated(n: int) -> None:
    """Under `game` a lobo round's later rounds are the evaluator's estimates (exact: false), but
    the round itself was searched to its end: its status is the one `points` proves (FORMAT.md:
    whatever the objective), and the plain search confirms it. Before, it was always open."""
    rng = random.Random(23)
    seen = {"proven_won": 0, "proven_lost": 0, "open": 0}
    for _ in range(n):
        raw = {**random_position(rng, game="lobo", max_hand=4, max_wolf=4, max_pile=4), "objective": "game"}
        p = parse_position(raw)
        h = hint(p)
        assert not h.exact and h.objective == "game"
        assert h.status == hint(parse_position({**raw, "objective": "points"})).status, raw
        seen[h.status] += 1
        assert verify_hint(p, h) == [], raw
    assert all(k > 3 for k in seen.values()), seen


def test_an_extra_reserve_card_never_lowers_the_win_probability() -> None:
    rng = random.Random(12)
    checked = 0
    while checked < 40:
        raw = random_position(rng, game="vanguard", max_hand=3, max_wolf=3, max_pile=3)
        raw["objective"] = "win"
        raw["final"] = False
        p = parse_position(raw)
        spare = [v for v, n in enumerate(p.unseen, start=1) if n]
        if not spare or p.pile_size == 0 or p.unknown_in_pile >= sum(p.unseen):
            continue
        more = dict(raw, reserve=[*raw["reserve"], rng.choice(spare)])
        try:
            q = parse_position(more)
        except ValueError:
            continue
        assert hint(q).win_probability >= hint(p).win_probability - 1e-12  # type: ignore[operator]
        checked += 1


def test_best_value_is_the_maximum_of_the_listed_values() -> None:
    # Final rounds too: there the finisher picks the best among plays of equal value, and it is
    # listed first (a table whose "best" row is third under two "≈ best" ones reads as a mistake).
    rng = random.Random(13)
    for i in range(160):
        final = None if i < 60 else True
        p = parse_position(random_position(rng, final=final, max_hand=4, max_wolf=4, max_pile=4))
        h = hint(p)
        listed = [m.value for m in h.moves if m.value is not None]
        assert h.moves[0].play == h.best, (p, h.best, [str(m.play) for m in h.moves])
        if h.value is not None:
            assert abs(h.value - max(listed)) < 1e-12


# The default run takes the same positions with their piles cut to 3 cards: two of the first 40
# positions, with 4 unknown cards in the pile, take 13 of the 15 s those 40 take.
@pytest.mark.parametrize(("n", "max_pile"), [(150, 3), pytest.param(300, 4, marks=pytest.mark.slow)])
def test_values_lie_in_the_objectives_range(n: int, max_pile: int) -> None:
    rng = random.Random(14)
    for _ in range(n):
        raw = random_position(rng, game="vanguard", max_hand=4, max_wolf=4, max_pile=max_pile)
        raw["final"] = False
        raw["objective"] = "party"
        p = parse_position(raw)
        ms, _ = evaluate_moves(initial_state(p), "party")
        assert all(-len(p.party) - 1e-12 <= m.value <= 1e-12 for m in ms)


def test_exact_fraction_display() -> None:
    from solver.words.numbers import as_fraction

    assert as_fraction(13 / 15) == "13/15"
    assert as_fraction(float(Fraction(461, 1485))) == "461/1485"
    # In the table: a fraction where it says more than the per cent, not "0.00% (0/1)" (a review).
    from solver.core.plays import Play
    from solver.search.hint import MoveResult
    from solver.words.hint import value_texts

    fold = Play("fold")
    texts = value_texts("win", [MoveResult(fold, 13 / 15), MoveResult(fold, 0.0), MoveResult(fold, 1.0)])
    assert texts[0].endswith("(13/15)") and texts[1].strip() == "0.00%" and texts[2].strip() == "100.00%", texts


def test_shared_table_stays_exact_on_bigger_rounds() -> None:
    """Bigger rounds than the reference can take, against a plain memoized expectimax over the
    same rules: values cached across plays under windows must stay exact (floats near a window's
    edge once turned bounds into 'exact' values here)."""
    from solver.core.rules import WON, State, apply, apply_outcome, chance_outcomes, legal_plays

    memo: dict[State, float] = {}

    def plain(s: State) -> float:
        if s.outcome is not None:
            return 1.0 if s.outcome == WON else 0.0
        if s not in memo:
            if s.is_chance:
                memo[s] = sum(float(p) * plain(apply_outcome(s, o)) for o, p in chance_outcomes(s))
            else:
                memo[s] = max(plain(apply(s, p)) for p in legal_plays(s))
        return memo[s]

    for seed in range(2):
        rng = random.Random(seed)
        deck = [v for v in range(1, 10) for _ in range(4)]
        rng.shuffle(deck)
        p = pos(player=deck[:4], wolf=deck[4:8], discard=deck[15:], draw_pile={"size": 7}, final=False)
        root = initial_state(p)
        memo.clear()
        for m in hint(p).moves:
            assert abs(m.value - plain(apply(root, m.play))) < 1e-9, (seed, str(m.play))  # type: ignore[operator]


def test_a_fully_known_pile_gives_the_whole_line() -> None:
    from solver.core.rounds import round_points
    from solver.core.rules import apply

    rng = random.Random(21)
    lines = 0
    for _ in range(60):
        raw = random_position(rng, max_hand=4, max_wolf=4, max_pile=5)
        p = parse_position(raw)
        if p.final or p.pile_size == 0:
            continue
        unseen = [v for v, n in enumerate(p.unseen, start=1) for _ in range(n)]
        rng.shuffle(unseen)
        raw["draw_pile"] = list(p.pile_top) + unseen[: p.unknown_in_pile]
        raw.get("rules", {}).pop("top_card_visible", None)
        known = parse_position(raw)
        h = hint(known)
        assert h.exact
        if h.line is None:
            assert h.best is not None and h.best.kind == "fold"
            continue
        s = initial_state(known)
        for play in h.line:
            s = apply(s, play)  # every play of the line is legal in turn
        lines += 1
        if known.game == "lobo" and s.outcome is not None:
            mine, wolf = round_points(s)
            assert abs((mine - wolf) - h.value) < 1e-9  # type: ignore[operator]
        if known.objective == "win":
            assert (s.outcome == "won") == (h.value == 1.0)
    assert lines > 10


def test_of_plays_as_good_for_the_game_the_round_kept_goes_first_and_the_line_keeps_it() -> None:
    """Found by a review: a round surely won (the pile known) had a top play that gave it up, and a
    line that folded it, "as good for the game" by listing order."""
    from solver.core.rules import apply

    rng = random.Random(43)
    checked = 0
    raws: list[dict[str, Any]] = [
        {"player": [3, 5, 7, 9], "wolf": [2, 4, 6, 8], "draw_pile": [1, 1, 2, 9, 9, 9, 8, 8, 7, 7]}
    ]
    while len(raws) < 40:
        raw = random_position(rng, max_hand=4, max_wolf=4, max_pile=6)
        p = parse_position(raw)
        if p.final or p.pile_size == 0 or p.game != "vanguard":
            continue
        raw["objective"] = "game"
        unseen = [v for v, n in enumerate(p.unseen, start=1) for _ in range(n)]
        rng.shuffle(unseen)
        raw["draw_pile"] = list(p.pile_top) + unseen[: p.unknown_in_pile]
        raw.get("rules", {}).pop("top_card_visible", None)
        raws.append(raw)
    for raw in raws:
        h = hint(parse_position(raw))
        assert h.exact and h.best is not None
        top = h.moves[0]
        equal = [m for m in h.moves if m.value is not None and abs(m.value - top.value) <= 1e-9]  # type: ignore[operator]
        assert top.win_probability == max(m.win_probability for m in equal), raw  # type: ignore[type-var]
        if top.win_probability == 1.0 and h.line is not None:
            s = initial_state(parse_position(raw))
            for play in h.line:
                s = apply(s, play)
            assert s.outcome == "won" and all(p.kind != "fold" for p in h.line), (raw, [str(p) for p in h.line])
            checked += 1
    assert checked >= 5


def test_round_start_hint_is_honest() -> None:
    p = pos(player=[2, 3, 4, 6], wolf=[3, 4, 5, 8], final=False)  # a full 28-card pile: hopeless exactly
    h = hint(p, time_limit=2)
    assert not h.exact and h.status == "open" and h.proof is None
    for m in h.moves:
        if m.samples is not None:  # how many deals were solved depends on the machine's speed
            assert m.bounds is not None and m.bounds[0] - 1e-12 <= m.value <= m.bounds[1] + 1e-12  # type: ignore[operator]
    assert h.moves[0].play == h.best and h.best.kind != "fold"
    assert h.to_json()["exact"] is False


def test_ranges_that_only_touch_are_told_apart() -> None:
    # Found by a review: at -t 1 Fold's exact 0 was "≈ best" beside the best play's estimate of
    # 6.9% whose interval began at 0. A shared stretch, or an exact value inside the other's range,
    # is a tie; a touch at an end is not; two exact values tie when equal.
    from solver.core.plays import Play
    from solver.search.hint import MoveResult, _mark_ties

    best = Play("fold")  # (the plays only name the rows here)
    rows = {
        "estimate": MoveResult(best, 0.069, samples=40, method="m", interval=(0.0, 0.153)),
        "exact 0": MoveResult(Play("perfect", hand=(1,), wolf=(1,)), 0.0),
        "exact inside": MoveResult(Play("perfect", hand=(2,), wolf=(2,)), 0.1),
        "exact above": MoveResult(Play("perfect", hand=(3,), wolf=(3,)), 0.153),
        "overlapping": MoveResult(
            Play("perfect", hand=(4,), wolf=(4,)), 0.2, samples=40, method="m", interval=(0.15, 0.3)
        ),
        "touching": MoveResult(
            Play("perfect", hand=(5,), wolf=(5,)), 0.2, samples=40, method="m", interval=(0.153, 0.3)
        ),
    }
    marked = dict(zip(rows, _mark_ties(tuple(rows.values()), best), strict=True))
    assert {k for k, m in marked.items() if m.tied} == {"exact inside", "overlapping"}
    two = _mark_ties((MoveResult(best, 0.5), MoveResult(Play("split", hand=(1,), wolf=(1, 1)), 0.5 + 1e-13)), best)
    assert two[1].tied
    # Sound bounds, nothing sampled, hold their ends (found by a review: final-round plays worth the
    # best's exact 38, cut short with bounds 0–38, were told apart from it).
    cut = MoveResult(Play("perfect", hand=(6,), wolf=(6,)), 19.0, bounds=(0.0, 38.0), samples=0, method="mid")
    below = MoveResult(Play("perfect", hand=(7,), wolf=(7,)), 9.0, bounds=(0.0, 18.0), samples=0, method="mid")
    marked_cut = _mark_ties((MoveResult(best, 38.0), cut, below), best)
    assert [m.tied for m in marked_cut[1:]] == [True, False]


def test_a_searched_value_keeps_its_own_interval_beside_a_win_estimated_apart() -> None:
    # Found by a review (lobo, `game`, -t 1): a play searched to the round's end, the evaluator
    # beyond, whose round win was still open, showed the rollouts' method with a 95% interval of
    # zero width (its interval, ± the evaluator's error, was replaced by the rollouts' estimate).
    from dataclasses import replace

    from solver.core.position import parse_position
    from solver.core.rules import initial_state, legal_plays
    from solver.search.engine import MoveValue
    from solver.search.estimate import EVALUATED, TUNED_ROLLOUTS, Estimate, evaluated
    from solver.search.hint import WIN_BY, _Rows
    from solver.words.hint import estimates_note, hint_columns

    pos = parse_position({"game": "lobo", "player": [2, 3], "wolf": [1, 6, 7], "discard": [1, 4, 5, 8, 9],
                          "draw_pile": {"size": 35}, "scores": {"player": 70, "wolf": 70}})  # fmt: skip
    root = initial_state(pos)
    play = legal_plays(root)[0]
    rows = _Rows(root, "game", True, (70, 70))
    ev = evaluated(0.0791, 0.0079)
    e = Estimate(0.05, 8, TUNED_ROLLOUTS, (0.01, 0.09), win=0.25, win_interval=(0.05, 0.6))
    m = rows.move(play, MoveValue(play, 0.0791, 0.0791, 0.0791), MoveValue(play, 0.5, 0.0, 1.0), e, ev)
    assert m.value == 0.0791 and m.bounds is None and m.interval == ev.interval and m.interval[0] < m.interval[1]
    assert m.method is not None and m.method.startswith(EVALUATED + WIN_BY) and m.samples == 8
    assert m.win_interval is not None and m.win_probability is not None
    note = estimates_note([m])
    assert "evaluator's tables" in note and "8 rollouts a play" in note
    # The table shows the value's interval.
    result = hint(pos, max_states=2000, samples=8)
    _, cells = hint_columns("lobo", replace(result, moves=(m,)), [m])
    assert cells[0][1] == "6.4–9.5%", cells


def test_an_exact_value_beside_a_win_estimated_apart_is_not_called_an_estimate() -> None:
    # Found in session 46 (-t 10, 12 cards in the pile): a play whose value the search finished,
    # its later rounds exact too (no evaluator read), but whose round win was still open, read
    # "26.45% est." with a 95% interval "26.5–26.5%" and "searched" for bounds.
    from dataclasses import replace

    from solver.core.rules import legal_plays
    from solver.search import bias
    from solver.search.engine import MoveValue
    from solver.search.estimate import LOOKAHEAD, Estimate
    from solver.search.hint import _Rows
    from solver.words.hint import hint_columns

    p = parse_position({"player": [3, 7, 9, 1], "wolf": [6, 2, 5, 8], "final": False})
    root = initial_state(p)
    play = legal_plays(root)[0]
    e = Estimate(0.3, 0, LOOKAHEAD, (0.3, 0.3), win=0.4, win_interval=(0.4, 0.4))
    m = _Rows(root, "game", True).move(play, MoveValue(play, 0.2645, 0.2645, 0.2645), MoveValue(play, 0.5, 0.0, 1.0), e)
    assert m.value == 0.2645 and m.bounds is None and m.method == bias.method(LOOKAHEAD)
    assert not m.value_estimated() and m.win_interval is not None
    result = hint(p, max_states=200)
    cut = next(x for x in result.moves if x.bounds is not None)  # a row cut short keeps the Bounds column
    columns, cells = hint_columns("vanguard", replace(result, moves=(m, cut)), [m, cut])
    row = dict(zip(columns, cells[0], strict=True))
    assert row["Chance to win the game"].strip() == "26.45%", row
    assert row["95% interval"] == "" and row["Bounds"] == "exact", row
    assert row["Round won"].endswith(" est."), row
    estimated = dict(zip(columns, cells[1], strict=True))
    assert estimated["Chance to win the game"].endswith(" est.") and estimated["95% interval"], estimated
    from solver.words.hint import explain

    said = explain(replace(result, moves=(m, cut), best=m.play, exact=False))
    assert said.startswith(f"{m.play} wins the game 26.5%;") and "estimate" not in said, said
    assert "estimate: the search was cut short" in explain(replace(result, moves=(cut, m), best=cut.play, exact=False))


def test_a_hint_whose_searches_spend_the_clock_still_looks_ahead_at_every_open_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Found in session 46: a 2 s answer at 12 cards in the pile (15 plays) gave its searches 97% of
    # the clock and the lookahead what was left, so that one run in three valued every open play by
    # the network alone (and recommended by it) where the others looked ahead. The lookahead now
    # values the plays before the searches.
    import time

    from solver.search import bias
    from solver.search import hint as hint_module
    from solver.search.estimate import LOOKAHEAD

    searched = hint_module.evaluate_moves

    def spend_the_clock(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        out = searched(*args, **{**kwargs, "max_states": 2000})
        limit = kwargs.get("time_limit")
        time.sleep(max(0.0, (limit or 0.0) - (time.perf_counter() - began)))  # as a big round's search does
        return out

    monkeypatch.setattr(hint_module, "evaluate_moves", spend_the_clock)
    p = parse_position({"player": [3, 7, 9, 2], "wolf": [5, 8, 1, 6], "reserve": [4], "party": ["J", "Q"],
                        "discard": [1, 1, 2, 2, 3, 3, 4, 5, 5, 6, 6, 7, 8, 9, 9], "draw_pile": {"size": 12}})  # fmt: skip
    r = hint(p, time_limit=1.0)
    open_rows = [m for m in r.moves if m.bounds is not None]
    assert len(open_rows) > 8  # more than the lookahead's first batch, which it values whatever the clock
    assert all(m.method == bias.method(LOOKAHEAD) for m in open_rows), {str(m.play): m.method for m in open_rows}


def test_the_only_play_is_said_to_be_the_only_one() -> None:
    # Found by a review: Fold, the one legal play, was said to "lose least".
    from solver.core.position import parse_position
    from solver.words.hint import explain

    pos = parse_position(
        {"player": [1], "wolf": [2, 5, 9, 9], "discard": [2, 3, 6, 7, 8, 9], "draw_pile": {"size": 25}}
    )
    answer = hint(pos, max_states=2000, samples=8)
    assert len(answer.moves) == 1 and answer.status == "proven_lost"
    assert explain(answer) == "the round cannot be won whatever comes; the only play"


def test_a_state_budget_that_estimated_nothing_does_not_call_a_middle_of_bounds_a_chance() -> None:
    # Found by a review: lobo at --max-states 5000, no --samples: "2+4=6 wins the game 50.2%
    # (estimate: the search was cut short)", the middle of its bounds 0.3-100%.
    from solver.search.hint import MIDPOINT
    from solver.words.hint import explain

    p = parse_position({"game": "lobo", "player": [2, 7, 8, 4], "wolf": [5, 9, 3, 6], "draw_pile": {"size": 15},
                        "discard": [1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 5, 6, 6, 7, 7, 8, 8, 8, 9, 9, 9]})  # fmt: skip
    r = hint(p, max_states=5000)
    best = next(m for m in r.moves if m.play == r.best)
    assert best.method == MIDPOINT and best.bounds is not None
    said = explain(r)
    assert said.startswith(f"{r.best} has the best worst case: ") and "--samples" in said, said
    assert "wins the game" not in said.split(";")[0], said
