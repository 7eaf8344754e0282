"""The CP-SAT finisher against brute force, its proofs, and the check command's judgement."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from conftest import examples, sample_sizes
from gen import random_final, reference_form
from reference.finish import best_finish as reference_best_finish
from reference.finish import check_plays as reference_check
from reference.finish import coverable as reference_coverable
from reference.finish import finish_score
from solver.core.plays import parse_plays
from solver.core.position import PositionError, parse_position
from solver.core.rules import final_state, initial_state
from solver.finish.finisher import judge_finish, solve_finish
from solver.finish.verify import brute_finish, core_is_minimal, coverable, replay_score
from solver.words.hint import explain


def final(**raw: Any) -> Any:
    raw.setdefault("final", True)
    return initial_state(parse_position(raw))


@sample_sizes(150, 5000)
def test_cp_sat_agrees_with_brute_force_on_random_final_rounds(n: int) -> None:
    """CP-SAT's finish against two brute forces: solver/finish/verify.py's, and the reference's, which
    also replays the plays by its own rules (solve_finish scores its plays by the rules engine's
    replay, so that replay would only check it against itself). A lost round's core is checked
    minimal by the reference's own cover search: the core cannot be covered, and every core less
    one card can. (500 rounds catch a fault in 1% of rounds with 99% probability.)"""
    rng = random.Random(5000)
    wins = losses = 0
    for _ in range(n):
        raw = random_final(rng)
        pos = parse_position(raw)
        s = initial_state(pos)
        f = solve_finish(s)
        b = brute_finish(s.wolf, s.hand, s.reserve, s.party, s.rules.reserve_scores)
        ref_pos = reference_form(pos)
        assert f.exact, raw
        if b.score is None:
            assert f.status == "lost", raw
            assert f.proof is not None and f.proof.minimal
            assert core_is_minimal(f.proof.wolf, s.hand, s.reserve, len(s.party)), (raw, f.proof)
            assert not (f.proof.wolf and set(f.proof.wolf) - set(s.wolf))
            assert reference_best_finish(ref_pos)["status"] == "lost", raw
            core = list(f.proof.wolf)
            assert core and not reference_coverable(ref_pos, core), (raw, core)
            for i in range(len(core)):
                assert reference_coverable(ref_pos, core[:i] + core[i + 1 :]), (raw, core, i)
            losses += 1
        else:
            assert f.status == "win" and f.score == b.score, (raw, f.score, b.score)
            assert replay_score(s, f.plays) == f.score, raw  # the finish replays through the rules engine
            # The reference replays the plays in order by its own rules and finds its own best.
            judged = reference_check(ref_pos, ", ".join(str(p) for p in f.plays))
            assert judged["legal"] and judged["clears"], (raw, judged)
            assert judged["score"] == judged["best_score"] == f.score, (raw, f.score, judged)
            wins += 1
    assert wins > n // 5 and losses > n // 5  # both kinds of answer are exercised


def test_agrees_with_the_reference_finisher() -> None:
    rng = random.Random(77)
    for _ in range(300):
        raw = random_final(rng, max_hand=7, max_reserve=3, max_wolf=6)
        pos = parse_position(raw)
        f = solve_finish(initial_state(pos))
        ref = reference_best_finish(pos.to_json())
        assert f.status == ref["status"], raw
        if f.status == "win":
            assert f.score == ref["score"], raw


@pytest.mark.parametrize("path", examples("finish"), ids=lambda p: p.name)
def test_contract_finish_examples(path: Path) -> None:
    case = json.loads(path.read_text())
    s = initial_state(parse_position(case["position"]))
    f = solve_finish(s)
    assert f.status == case["expect"]["status"]
    if f.status == "win":
        assert f.score == case["expect"]["score"]
    else:
        assert f.proof is not None and sorted(f.proof.wolf) == sorted(case["expect"]["proof"]["wolf"])


@pytest.mark.parametrize("path", examples("check"), ids=lambda p: p.name)
def test_contract_check_examples(path: Path) -> None:
    case = json.loads(path.read_text())
    s = initial_state(parse_position(case["position"]))
    got = judge_finish(s, tuple(parse_plays(case["plays"]))).to_json()
    for k, v in case["expect"].items():
        assert got[k] == v, (k, got)


# Hand-worked cases (docs/rules.md has the same ones) -------------------------------------------------


def test_sacrifice_beats_spending_big_cards() -> None:
    # Hand 1 3 4 6, Wolf 7 9, party J Q K. Covering both with cards (3+6=9 and 1+... no 7 is left from
    # 1+4) is impossible, so one sacrifice: 3+4=7 and J=9 leave 1+6=7 and two members: 7 + 20 = 27;
    # 1+6=7 and J=9 also leave 7 (3+4); 3+6=9 and J=7 leave only 1+4=5: 25.
    s = final(player=[1, 3, 4, 6], wolf=[7, 9], party=["J", "Q", "K"])
    f = solve_finish(s)
    assert f.score == 27 and len(f.members_left) == 2 and sum(f.hand_left) == 7


def test_reserve_cards_cost_nothing_by_default() -> None:
    s = final(player=[4], reserve=[2, 5], wolf=[7], party=["K"])
    f = solve_finish(s)
    assert f.score == 4 + 10 and [str(p) for p in f.plays] == ["2r+5r=7"]
    s2 = final(player=[4], reserve=[2, 5], wolf=[7], party=["K"], rules={"reserve_scores": True})
    # Now spending the reserve costs 7 and spending 4+... is impossible (no 3): 2r+5r=7 still, score 4+10.
    assert solve_finish(s2).score == 14


def test_lost_final_round_core_and_reason() -> None:
    # 8 is only 1+7, and then 7 is left with 6 alone: each card can be made, never both (15 > 14 anyway).
    s = final(player=[1, 6, 7], wolf=[7, 8], party=["J"])
    f = solve_finish(s)
    assert f.status == "lost" and f.proof is not None
    assert sorted(f.proof.wolf) == [7, 8] and f.proof.minimal
    assert "no sacrifice is allowed" in f.proof.reason
    assert coverable([7], s.hand, s.reserve, 1) and coverable([8], s.hand, s.reserve, 1)


def test_core_names_the_cards_that_cannot_be_made() -> None:
    s = final(player=[1, 3], wolf=[8, 6, 5, 1, 8], party=["Q", "K"], difficulty="easy")
    f = solve_finish(s)
    assert f.proof is not None and sorted(f.proof.wolf) == [8, 8]
    assert f.proof.reason == "nothing you hold adds up to 8, and only one sacrifice is allowed"


def test_a_proof_says_what_the_sacrifices_take_and_what_is_left() -> None:
    """Found by a review: "the rest of 9, 7, 3 cannot be made from your cards at once" read as
    nothing; 9 takes the one sacrifice, then 7 (5+2) and 3 (1+2) both need the 2."""
    s = final(player=[1, 2, 5, 5], wolf=[3, 5, 7, 9], party=["Q", "K"])
    f = solve_finish(s)
    assert f.proof is not None and sorted(f.proof.wolf) == [3, 7, 9]
    assert f.proof.reason == (
        "nothing you hold adds up to 9, so it takes a sacrifice; then 7 and 3 cannot both be made "
        "from your cards at once, and no sacrifice is left"
    )


def test_a_proof_names_the_total_only_when_it_is_the_reason() -> None:
    """Found by a review: "your cards (total 28) cannot make 5, 5, 4, 4" named a total that was no
    reason (18 is less than 28): 6, 6 and 7 make neither 4 nor 5."""
    s = final(player=[6, 7, 4, 6], reserve=[5], wolf=[4, 5, 4, 5], party=["J", "Q"], difficulty="easy")
    f = solve_finish(s)
    assert f.proof is not None and "total" not in f.proof.reason
    assert f.proof.reason.startswith("your cards cannot be split into groups adding up to 5, 5, 4, 4 all at once")
    s = final(player=[1, 4], wolf=[5, 4], party=["J"], difficulty="easy")
    f = solve_finish(s)
    assert f.proof is not None
    assert f.proof.reason == "your cards total 5, less than the 9 that 5, 4 need, and no sacrifice is allowed"


def test_alternatives_are_counted() -> None:
    s = final(player=[3, 9, 6, 1, 5, 4], reserve=[7, 2], wolf=[6, 5, 3, 7], party=["J"])
    f = solve_finish(s, count_alternatives=True)
    assert f.score == 26 and f.alternatives == 1  # 1+2r=3 or 4+2r=6 beside 7r=7, 5=5 and 6=6 or 3=3
    assert not f.alternatives_capped  # every one counted


def test_a_count_of_finishes_the_clock_cuts_short_says_at_least_one_and_capped() -> None:
    """Found by a review: a count stopped before its first solution said "-1 other finish(es)"."""
    from solver.finish.finisher import FinishModel, _count_optimal

    s = final(
        difficulty="hard",
        player=[6, 7, 2, 5, 10, 6, 9, 8, 6, 3, 4, 9, 10, 8, 1, 7, 2, 3],
        wolf=[4, 2, 1, 7, 5, 8, 5, 4, 2, 7, 10, 3, 9, 3, 1, 4],
        reserve=[8, 1, 9, 6, 5, 10],
    )
    fm = FinishModel(s)
    solver = fm.solver(30.0, 1)
    solver.solve(fm.model)
    cost = round(solver.objective_value)
    assert _count_optimal(s, fm, cost, 50, 1e-9) == (1, True)  # nothing counted: the best one found
    assert _count_optimal(s, fm, cost, 50, 30.0) == (1, False)  # the one there is, all counted


def test_a_count_cut_short_is_not_called_the_only_finish() -> None:
    """Found by a review: `finish -t 0.05` said "The only finish with this score" where its count
    of the others stopped before it found one (`other_optimal_finishes_capped`)."""
    from dataclasses import replace

    from rich.console import Console

    from cli.render import finish_view

    def shown(f: Any) -> str:
        console = Console(record=True, width=200)
        console.print(finish_view(f))
        return console.export_text()

    f = solve_finish(
        final(player=[3, 9, 6, 1, 5, 4], reserve=[7, 2], wolf=[6, 5, 3, 7], party=["J"]), count_alternatives=True
    )
    assert "1 other finish reaches the same score." in shown(f)
    cut = shown(replace(f, alternatives=0, alternatives_capped=True))
    assert "not counted before the time limit ran out" in cut and "The only finish" not in cut
    assert "The only finish with this score." in shown(replace(f, alternatives=0))
    assert "3+ other finishes reach" in shown(replace(f, alternatives=3, alternatives_capped=True))


def test_check_says_the_best_score_is_unknown_where_the_clock_left_it() -> None:
    """Found by a review: `check -t 0.001` said "Clears the Wolf: score 28." and nothing more."""
    from dataclasses import replace

    from rich.console import Console

    from cli.render import check_view
    from solver.core.status import FinishStatus

    def shown(v: Any) -> str:
        console = Console(record=True, width=200)
        console.print(check_view(v))
        return console.export_text()

    s = final(player=[3, 9, 6, 1, 5, 4], reserve=[7, 2], wolf=[6, 5, 3, 7], party=["J"])
    good = judge_finish(s, tuple(parse_plays("1+2r=3, 7r=7, 5=5, 6=6")))
    bad = judge_finish(s, tuple(parse_plays("8=8")))
    assert "Best score: 26" in shown(good) and "ran out" not in shown(good)
    unknown = replace(good.best, status=FinishStatus.UNKNOWN, score=None, plays=(), exact=False)
    assert "Best score: at least 26: the time limit ran out" in shown(replace(good, best=unknown))
    assert "Best score: unknown: the time limit ran out" in shown(replace(bad, best=unknown))


def test_time_limit_unknown_is_not_exact() -> None:
    s = final(
        player=list(range(1, 10)) * 2,
        wolf=[9, 9, 8, 8, 7, 7, 6, 6, 5, 5, 4],
        difficulty="standard",
        party=["J", "Q", "K"],
    )
    f = solve_finish(s, time_limit=1e-6)
    assert f.status in ("win", "lost", "unknown")
    if f.status == "unknown":
        assert not f.exact and f.score is None


def test_finish_needs_a_final_round_or_force() -> None:
    pos = parse_position({"player": [5], "wolf": [5], "draw_pile": {"size": 20}})
    with pytest.raises(PositionError, match="--final"):
        final_state(pos)
    s, forced = final_state(pos, force=True)
    assert forced and s.final
    with pytest.raises(PositionError, match="lobo has no final round"):
        final_state(parse_position({"game": "lobo", "player": [5], "wolf": [5]}), force=True)


# check -------------------------------------------------------------------------------------------


def judged(plays: str, **raw: Any) -> dict[str, Any]:
    s = final(**raw)
    return judge_finish(s, tuple(parse_plays(plays))).to_json()


BASE = {"player": [1, 4, 5, 6, 9], "reserve": [2], "wolf": [4, 5, 6, 9], "party": ["J", "Q"]}


@pytest.mark.parametrize(
    ("plays", "expect"),
    [
        ("4=4, 5=5, 6=6, 9=9", {"legal": True, "clears": True, "score": 1 + 20}),
        ("2r+4=6, 4=4", {"legal": False}),  # the 4 was spent by the first play
        ("4=4, 5=5, 6=6, J=9", {"legal": True, "clears": True, "score": 1 + 9 + 10}),
        ("4=4, 5=5, 1+2r+6=9, J=6", {"legal": True, "clears": True}),
        ("4=4, 5=5", {"legal": True, "clears": False, "score": None, "optimal": False}),
        ("J=4, Q=5", {"legal": False}),  # the Queen would be the last member
        ("9=4+5", {"legal": False}),  # no Split in the final round
        ("9>6", {"legal": False}),  # no Over in the final round
        ("3=3", {"legal": False}),  # no 3 held
        ("4+1=5, fold", {"legal": True, "clears": False}),
        ("fold, 4=4", {"legal": False}),
        ("1+5=6, 4=4, 2r=...", None),
    ],
)
def test_check_judges_each_kind(plays: str, expect: dict[str, Any] | None) -> None:
    if expect is None:
        with pytest.raises(Exception, match="cannot read"):
            parse_plays(plays)
        return
    got = judged(plays, **BASE)
    for k, v in expect.items():
        assert got[k] == v, (plays, got)
    best = brute_finish(BASE["wolf"], BASE["player"], BASE["reserve"], ("J", "Q")).score
    assert got["best_score"] == best
    assert got["optimal"] == (got["legal"] and got["clears"] and got["score"] == best)
    if not got["legal"]:
        assert got["bad_play"]["reason"]


def test_check_cut_short_says_it_cannot_tell_whether_a_finish_is_optimal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by a review: with the best finish's search cut short, the best finish was "not optimal".
    # Cut short for certain: CP-SAT sometimes solves this small round within even 1e-9 s (its
    # presolve runs before it reads the clock), and the test then failed one run in a few hundred.
    from solver.core.status import FinishStatus
    from solver.finish import finisher

    monkeypatch.setattr(finisher, "solve_finish", lambda *_a, **_k: finisher.Finish(FinishStatus.UNKNOWN, False))
    s = final(**BASE)
    best = brute_finish(BASE["wolf"], BASE["player"], BASE["reserve"], ("J", "Q"))
    got = judge_finish(s, best.plays, time_limit=1e-9).to_json()
    assert got["exact"] is False and got["score"] == best.score
    assert got["optimal"] is None and "better" not in got
    worse = judge_finish(s, tuple(parse_plays("4=4, 5=5, 6=6, J=9")), time_limit=1e-9).to_json()
    assert worse["optimal"] is (False if worse["best_score"] is not None else None)


def test_check_agrees_with_the_reference_on_random_finishes() -> None:
    rng = random.Random(99)
    for _ in range(200):
        raw = random_final(rng, max_hand=7, max_reserve=3, max_wolf=5)
        pos = parse_position(raw)
        s = initial_state(pos)
        f = solve_finish(s)
        plays = list(f.plays)
        if plays and rng.random() < 0.5:
            rng.shuffle(plays)  # any order is legal: final-round plays commute
            plays = plays[: rng.randint(0, len(plays))]
        text = ", ".join(str(p) for p in plays) or "fold"
        ours = judge_finish(s, tuple(parse_plays(text))).to_json()
        theirs = reference_check(pos.to_json(), text)
        for k in ("legal", "clears", "score", "best_score", "optimal"):
            assert ours[k] == theirs[k], (raw, text, k, ours, theirs)


# Found by a review: a lost final round of 18 cards against 12, whose proof core the exact cover
# search took tens of seconds to shrink (and minutes for 24 against 16), whatever -t said.
BIG_LOST = {"difficulty": "hard", "final": True, "reserve": [1, 2, 3] * 3, "player": [4, 5, 6] * 3,
            "wolf": [10, 9, 8, 7] * 3}  # fmt: skip


def test_a_big_lost_final_round_keeps_the_clock_and_its_proof_is_still_a_proof() -> None:
    import time

    from solver.finish import finisher
    from solver.search.hint import hint

    # Measured in this process's CPU time (CP-SAT runs one worker here), which a busy machine does
    # not stretch as it stretches wall time: 43 s of it before.
    state = initial_state(parse_position(BIG_LOST))
    t0 = time.process_time()
    f = solve_finish(state, time_limit=0.3)
    assert time.process_time() - t0 < 3.0
    assert f.status.value == "lost" and f.proof is not None
    # Whatever was left open, every card kept was kept on a decided check: the core cannot be
    # covered (decided here with all the time it needs; reference_coverable would take minutes).
    assert finisher._coverable_by(state, list(f.proof.wolf), time.perf_counter() + 60) is False
    assert f.to_json()["proof"]["minimal"] == f.proof.minimal
    t0 = time.process_time()
    answer = hint(parse_position(BIG_LOST), time_limit=0.3)
    assert time.process_time() - t0 < 5.0 and answer.proof is not None


@sample_sizes(60, 1000)
def test_a_core_left_unshrunk_by_the_clock_is_still_uncoverable_and_says_so(n: int) -> None:
    # With no time at all for the deletions, the core is CP-SAT's (or all the Wolf's cards): never
    # coverable, and not called minimal unless every deletion was decided.
    from solver.finish import finisher

    rng = random.Random("unshrunk-core")
    seen = 0
    while seen < n:
        raw = random_final(rng)
        try:
            state = final_state(parse_position(raw), True)[0]
        except PositionError:
            continue
        if finisher._unmakeable_core(state) is not None or coverable(
            state.wolf, state.hand, state.reserve, len(state.party)
        ):
            continue  # lost at a glance, or not lost
        core, minimal = finisher._assumption_core(state, 0.0)  # the clock already out
        assert not coverable(core, state.hand, state.reserve, len(state.party)), raw
        assert not minimal or core_is_minimal(core, state.hand, state.reserve, len(state.party)), raw
        seen += 1


def _child_truth(raw: dict[str, Any], play: dict[str, Any]) -> int | None:
    """The best score after a final-round play, by the reference's own search: the play's cards
    taken from the position as written (plays commute in a final round), None when lost."""
    from collections import Counter

    def less(cards: list[int], taken: list[int]) -> list[int]:
        return list((Counter(cards) - Counter(taken)).elements())

    if play["type"] == "fold":
        return None
    child = dict(raw)
    child["player"] = less(raw["player"], play["hand"])
    child["reserve"] = less(raw["reserve"], play["reserve"])
    child["wolf"] = less(raw["wolf"], play["wolf"])
    if play["type"] == "sacrifice":
        child["party"] = [m for m in raw["party"] if m != play["member"]]
    if not child["wolf"]:  # the play won the round: no position to write
        scores = bool(raw["rules"]["reserve_scores"])
        return finish_score(child["player"], child["reserve"], len(child.get("party", "JQK")), scores)
    done = reference_best_finish(reference_form(parse_position(child)))
    return done["score"] if done["status"] == "win" else None


@sample_sizes(24, 500)
def test_a_final_round_hint_cut_short_by_the_clock_bounds_what_it_did_not_decide(n: int) -> None:
    # Found by a review: under -t, a final round's plays whose finish the clock cut short were
    # shown as lost (a blunder), one of them as the best play, and others at the score of a finish
    # found but not proven best, with no bounds. Every play's value is now exact or bounded, the
    # bounds hold the reference's best score (their low end 0 stands for a loss), and only a play
    # that truly loses is lost or a blunder.
    from solver.search.hint import hint

    rng = random.Random("final-round-clock")
    bounded = exact = 0
    for i in range(n):
        raw = random_final(rng, max_hand=12, max_reserve=4, max_wolf=9)
        raw["objective"] = "score"
        answer = hint(parse_position(raw), time_limit=(0.002, 0.004, 0.02, 0.08)[i % 4]).to_json()
        for m in answer["moves"]:
            truth = _child_truth(raw, m["play"])
            if "bounds" in m:
                lo, hi = m["bounds"]
                assert (lo == 0) if truth is None else lo <= truth <= hi, (raw, m, truth)
                bounded += 1
            else:
                assert m["value"] == truth, (raw, m, truth)
                exact += 1
            assert not m.get("blunder") or truth is None, (raw, m)
        if answer["status"] == "proven_won":
            best_score = reference_best_finish(reference_form(parse_position(raw)))["score"]
            best = next(m for m in answer["moves"] if m["play"] == answer["best"])
            if "bounds" in best:
                # A finish found, not proven best (a clock of a few ms on a busy machine: found in
                # session 46, the flake of session 45): the round is won, and the best score lies
                # within the best play's bounds, whose middle is its value.
                assert best["bounds"][0] <= best_score <= best["bounds"][1], (raw, best, best_score)
                assert answer["value"] == best["value"] and not answer["exact"], raw
            else:
                assert _child_truth(raw, answer["best"]) == answer["value"] == best_score, raw
        if answer["status"] != "proven_lost":
            assert answer["best"]["type"] != "fold", raw  # a round left open is not given up
        assert answer["exact"] == all("bounds" not in m for m in answer["moves"]), raw
    assert bounded > 0 and exact > 0  # both kinds met (how many varies with the machine's speed)


# The review's kind of round, smaller: 14 cards and a reserve of 4 against 10 (361 plays, each a
# finish of its own: four seconds to value them all).
BIG_WON = {"difficulty": "hard", "final": True, "objective": "score", "player": [1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10, 10],
           "wolf": [10, 10, 9, 9, 8, 7, 6, 5, 5, 4], "reserve": [1, 2, 3, 4]}  # fmt: skip


@pytest.mark.parametrize("objective", ["score", "game"])
def test_a_finish_found_but_not_proven_best_proves_the_round_won(
    monkeypatch: pytest.MonkeyPatch, objective: str
) -> None:
    """Found by a review: with the root's finish cut short (found, not proven best) the answer said
    "open" beside a win probability of 1, and the finish's own first play had 0 as its low bound.
    A finish found wins the round: proven won, and its first play is worth at least that finish."""
    from dataclasses import replace

    from solver.search import hint as hints

    pos = parse_position({**BIG_WON, "objective": objective})
    real = hints.solve_finish
    calls: list[Any] = []

    def cut_root(*args: Any, **kw: Any) -> Any:
        f = real(*args, **kw)
        calls.append(f)
        return replace(f, exact=False) if len(calls) == 1 else f  # the root's: as a clock leaves it

    monkeypatch.setattr(hints, "solve_finish", cut_root)
    answer = hints.hint(pos, time_limit=0.3)
    root = calls[0]
    assert root.status.value == "win" and answer.status == "proven_won" and not answer.exact
    assert answer.win_probability == 1.0
    first = next(m for m in answer.moves if m.play.kind == root.plays[0].kind and m.play == root.plays[0])
    worth = float(root.score) if objective == "score" else 1.0
    low = first.value if first.bounds is None else first.bounds[0]
    assert low is not None and low >= worth, (first, root.score)
    assert explain(answer).startswith("starts the best finish found (") and "a better one may exist" in explain(answer)


def test_a_final_round_the_clock_left_open_is_not_said_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by a review: no finish found in time read "no finish exists: the Wolf cannot be cleared".
    from solver.finish.finisher import Finish, FinishStatus
    from solver.search import hint as hints

    monkeypatch.setattr(hints, "solve_finish", lambda *args, **kw: Finish(FinishStatus.UNKNOWN, False))
    answer = hints.hint(parse_position(BIG_WON), time_limit=0.3)
    assert answer.status == "open" and not answer.exact and answer.proof is None
    assert explain(answer) == "no finish found before the time limit ran out: ranked by bounds"


def test_a_big_final_round_under_a_clock_keeps_it_and_bounds_every_play_it_leaves_open() -> None:
    import time

    from solver.search.hint import hint

    pos = parse_position(BIG_WON)
    truth = {m.play: m.value for m in hint(pos).moves}  # no clock: every play's own finish, to the end
    assert len(truth) > 300 and None in truth.values()
    for limit in (0.05, 0.3):
        # CPU time, which a busy machine does not stretch as it stretches the wall clock (CP-SAT
        # runs one worker here): 3.4 s of it under -t 0.05 before, a share floor each.
        t0 = time.process_time()
        answer = hint(pos, time_limit=limit)
        assert time.process_time() - t0 < limit + 0.5
        assert answer.status == "proven_won" and answer.best is not None and answer.value == truth[answer.best]
        assert not answer.exact and answer.stats["stopped"] == "time"
        for m in answer.moves:
            if m.bounds is None:
                assert m.value == truth[m.play], (limit, m)
            else:
                lo, hi = m.bounds
                assert (lo == 0) if truth[m.play] is None else lo <= (truth[m.play] or 0) <= hi, (limit, m)
            assert not m.blunder or truth[m.play] is None, (limit, m)


@pytest.mark.parametrize("command", ["finish", "hint"])
def test_verify_past_its_limit_says_not_verified_and_keeps_the_answer(tmp_path: Path, command: str) -> None:
    # Found by a review: --verify's brute force ran for minutes on a big final round, whatever -t
    # said, with no word. It now has --verify-limit (60 s by default) and says when it ran past it.
    from typer.testing import CliRunner

    from cli.main import app

    runner = CliRunner()
    big = tmp_path / "big.json"
    big.write_text(json.dumps(BIG_WON))
    args = [command, str(big), "-t", "0.3", "--verify", "--verify-limit", "0.05"]
    r = runner.invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    answer = json.loads(r.stdout)
    assert answer["verified"] is None and answer["verify_note"].startswith("not verified: the brute force did not")
    assert (answer.get("status") or answer.get("best")) is not None
    r = runner.invoke(app, args)
    assert r.exit_code == 0 and "Not verified: the brute force did not finish within 0.05 s" in " ".join(
        r.stdout.split()
    )
    small = tmp_path / "small.json"
    small.write_text(
        json.dumps({"final": True, "player": [2, 3, 5], "wolf": [5, 5], "reserve": [], "objective": "score"})
    )
    r = runner.invoke(app, [command, str(small), "--verify", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["verified"] is True and "verify_note" not in json.loads(r.stdout)
    r = runner.invoke(app, [command, str(small), "--json"])
    assert "verified" not in json.loads(r.stdout)  # no --verify: no verdict either way


def test_verify_past_the_memory_budget_says_not_verified(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by a review: --verify's memos grew about 8 MB a second with no memory budget. Under a
    # budget the process is already past, the brute force stops at once and says why.
    from typer.testing import CliRunner

    from cli.main import app
    from solver.search import memory

    big = tmp_path / "big.json"
    big.write_text(json.dumps(BIG_WON))
    monkeypatch.delenv(memory.ENV, raising=False)
    try:
        r = CliRunner().invoke(app, ["finish", str(big), "-t", "0.3", "--verify", "--max-memory", "64M", "--json"])
    finally:
        memory.set_limit(None)
        os.environ.pop(memory.ENV, None)  # (not monkeypatch: it would put the 64M back at teardown)
    assert r.exit_code == 0, r.output
    answer = json.loads(r.stdout)
    assert answer["verified"] is None and answer["verify_note"].startswith("not verified: the brute force ran out")
    assert answer["status"] == "win"


SHORT_OF_TOTAL = (
    ([4, 3, 2, 4, 2, 1, 3, 1, 3, 2], [8, 6, 5, 8, 8, 7, 9, 7], [3, 1, 2, 4, 4]),
    ([4, 2, 3, 1, 1, 4, 2, 1, 3, 1, 3], [8, 9, 10, 5, 8, 5, 7, 9], [2, 4, 2, 4, 3]),
)


@pytest.mark.parametrize("reference", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_a_loss_counting_proves_gets_a_minimal_core_quickly(reference: bool) -> None:
    """Found by a review: CP-SAT's own core (without presolve) took the whole 10 s on rounds whose
    cards simply total too little, and the core was left "not minimal" with every deletion a 0.01 s
    check. Counting now proves such a set, and the deletions get their time. (The reference's
    check of the minimality takes 6 s a round: the slow run's.)"""
    from solver.core.status import FinishStatus
    from solver.finish.finisher import solve_finish

    for player, wolf, reserve in SHORT_OF_TOTAL:
        raw = {"difficulty": "hard", "player": player, "wolf": wolf, "reserve": reserve, "final": True}
        s = initial_state(parse_position(raw))
        f = solve_finish(s, time_limit=10)
        assert f.status == FinishStatus.LOST and f.proof is not None and f.proof.minimal, f.proof
        assert not reference or core_is_minimal(f.proof.wolf, s.hand, s.reserve, len(s.party))
