"""A time limit is wall time from the moment the command starts (issue 24): the interpreter, the
imports and loading the compiled search count against it. Asserted on the seconds the answer
reports and on sleeps placed before the search, never on a bare wall-clock figure of this machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, state
from solver.core.position import load_position, parse_position
from solver.search.hint import HARD, LEAST_SHARE, hint

ROUND_START = {"player": [3, 7, 9, 1], "wolf": [6, 2, 5, 8], "final": False}  # never exact in seconds
SLACK = 0.5  # the answer's own overrun past its plan (a chunk of states, the answer's assembly)


def test_the_limit_counts_from_the_given_start() -> None:
    pos = parse_position(ROUND_START)
    hint(pos, max_states=50)  # the compiled search loaded: the sleep below is all that went before
    started = time.perf_counter()
    time.sleep(0.6)
    r = hint(pos, time_limit=1.0, started=started)
    # The sleep is inside the reported time, and the answer still keeps to its limit.
    assert 0.6 <= r.stats["seconds"] <= 1.0 + SLACK, r.stats
    assert not r.exact


def test_a_cover_worked_out_counts_its_time_against_a_clocked_chunk() -> None:
    """Found by a review: with hand_size 20 one chunk of final-deal covers, each counted as half a
    state, took -t 2 to 4-6 s. A cover now counts its time in states' times (about 64 at 20 cards
    a side), where a clock paces the chunks; none under a state budget (the same answers as before)."""
    import numpy as np

    from solver.core import kernel
    from solver.search import expectimax as x

    st = np.zeros(x.STATE, np.int64)
    for v in (1, 2, 3, 4, 5, 6, 7, 8, 9, 9) * 2:
        st[kernel.HAND + v - 1] += 1
    for v in (9, 9, 9, 9, 8, 8, 8, 8, 7, 7) * 2:
        st[kernel.WOLF + v - 1] += 1
    for paced, least in ((1, 60), (0, 0)):
        ctr = np.zeros(x.COUNTERS, np.int64)
        ctr[x.PACED] = paced
        x.cover(st, 1, {}, [1 << 12], ctr)
        assert (ctr[x.WORK] >= least) if paced else ctr[x.WORK] == 0, (paced, ctr[x.WORK])


def test_the_estimates_stop_within_the_limit_itself_unless_told_not_to(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by a review: a 14-card hand with 174 plays took -t 3 to 3.8 s, the lookahead running
    a quarter of the limit past the plan. Now the estimates stop by 98% of the limit (hint.HARD);
    the simulator's decisions (strict=False, a pace of thinking) keep the quarter."""
    from solver.search import hint as hint_module

    asked: list[float] = []
    real = hint_module.looked_ahead

    def spy(*args: Any, **kw: Any) -> Any:
        asked.append(kw["deadline"])
        return real(*args, **kw)

    monkeypatch.setattr(hint_module, "looked_ahead", spy)
    many_plays = parse_position({
        "difficulty": "hard", "player": [5, 2, 6, 5, 6, 6, 2, 3, 7, 7, 9, 4, 10, 3],
        "wolf": [4, 1, 7, 10, 9, 1, 8, 5, 1, 2, 3, 4, 1, 2], "reserve": [7, 5, 6],
    })  # fmt: skip
    hint(parse_position(ROUND_START), max_states=50)  # the compiled search loaded
    for strict in (True, False):
        started = time.perf_counter()
        hint(many_plays, time_limit=1.0, started=started, strict=strict)
        late = asked[-1] - started
        assert late <= HARD * 1.0 + 1e-6 if strict else late > 1.0, (strict, late)


def test_a_start_already_past_the_limit_still_answers_every_play() -> None:
    pos = parse_position(ROUND_START)
    r = hint(pos, time_limit=0.5, started=time.perf_counter() - 1.0)
    assert r.best is not None and len(r.moves) > 1 and not r.exact
    assert all(m.value is not None for m in r.moves)


def test_a_start_that_ate_the_limit_still_leaves_the_search_its_least_share() -> None:
    """A first run on a busy machine spent the whole 2 s starting; the mid-round example, exact
    in a few hundred states, must still be exact, a quarter of the limit late at most."""
    pos = load_position(ROOT / "puzzles" / "examples" / "midround.json")
    r = hint(pos, time_limit=2.0, started=time.perf_counter() - 5.0)
    assert r.exact
    assert r.stats["seconds"] <= 5.0 + LEAST_SHARE * 2.0 + SLACK, r.stats


def test_the_command_counts_its_process_start(tmp_path: Path) -> None:
    """The installed script's whole process: what runs before main() (here a 0.8 s sleep, standing
    for a slow interpreter start) is part of the limit, and the answer says so."""
    position = tmp_path / "start.json"
    position.write_text(json.dumps(ROUND_START))
    limit = 3.0  # room for the sleep, the imports and the compiled search's loading on a busy machine
    code = "import time; time.sleep(0.8); import sys; from cli.main import run; sys.argv[0] = 'lobo-hint'; run()"
    done = subprocess.run(
        [sys.executable, "-c", code, str(position), "--json", "--time-limit", str(limit)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seconds = json.loads(done.stdout)["stats"]["seconds"]
    # Within the limit, or (a start so slow on a busy machine that it ate the limit) the least share
    # the search is always left past it.
    assert 0.8 <= seconds <= limit + LEAST_SHARE * limit + SLACK, seconds


def test_an_exact_answer_names_no_budget_that_cut_it_short() -> None:
    """Under a clock each play gets a share first and the rest after: a play the first pass stopped
    may be finished by the second. An answer exact in the end was not cut short, so its stats say
    no `stopped` (formats.md); one that is not exact says which budget cut it."""
    import random

    from gen import random_position

    rng = random.Random("stopped-but-exact")
    seen_exact = seen_cut = 0
    for _ in range(60):
        raw = random_position(rng, game="vanguard", max_hand=5, max_wolf=5, max_reserve=2, max_pile=12)
        raw["objective"] = "win"
        answer = hint(parse_position(raw), time_limit=0.02).to_json()
        if answer["exact"]:
            seen_exact += 1
            assert "stopped" not in answer["stats"], answer["stats"]
        elif "moves" in answer and any("bounds" in m for m in answer["moves"]):
            seen_cut += 1
            assert answer["stats"].get("stopped") in ("time", "memory"), answer["stats"]
    assert seen_exact > 0 and seen_cut > 0  # both kinds met (counts vary with the machine's speed)


def test_a_budget_spent_while_tracing_the_known_line_gives_no_line_not_an_error() -> None:
    """The line of a fully known pile is traced after the answer, by revaluing children: a search
    already at its time limit may raise its budget there (seen under load), and the answer then
    simply has no line."""
    from solver.core.plays import parse_play
    from solver.search.engine import Budget, principal_line

    class Spent:
        def value(self, _state: object) -> float:
            raise Budget

    s = state(player=[9, 3], wolf=[4, 5, 2], draw_pile=[1, 2, 3, 4], final=False)
    assert principal_line(Spent(), s, parse_play("9=4+5")) is None  # type: ignore[arg-type]


def test_reward_keeps_its_time_limit_where_the_next_deal_is_too_big_to_enumerate(tmp_path: Path) -> None:
    """hand_size 16: the next deal is surely final but has astronomically many pairs of hands, and
    one cover can take a second; under --time-limit the rewards are valued over sampled deals,
    and the answer says so (exact: false, its method, an interval)."""
    pos = tmp_path / "won.json"
    pos.write_text(
        json.dumps({"player": [9, 3], "wolf": [], "party": ["J", "Q"], "phase": "reward", "rules": {"hand_size": 16}})
    )
    t0 = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-c", "import sys; from cli.main import run; sys.argv[0] = 'lobo-hint'; run()",
         "reward", str(pos), "--time-limit", "2", "--json"],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )  # fmt: skip
    took = time.perf_counter() - t0
    assert r.returncode == 0, r.stderr
    assert took < 30, took  # the 2 s limit, with room for a busy machine: it gave no answer in 300 s before
    rewards = json.loads(r.stdout)["rewards"]
    assert {x["text"] for x in rewards} == {"reserve 9", "reserve 3", "revive K"}
    for x in rewards:
        assert x["exact"] is False and "sampled deals of the final round" in x["method"]
        lo, hi = x["win_probability_95"]
        assert 0 <= lo <= x["win_probability"] <= hi <= 1


def test_sampled_final_deals_are_judged_by_the_compiled_cover_as_by_the_plain_one() -> None:
    """Found by a review: 16-card deals judged by CP-SAT's finish went at a dozen in 2 s, and a best
    reward was named on none; the compiled cover takes microseconds, and says what the plain says."""
    import random

    from solver.core.cover import counts, min_sacrifices
    from solver.search.round_end import _cover_test

    covered = _cover_test()
    rng = random.Random(16)
    deck = [v for v in range(1, 10) for _ in range(4)]
    said = set()
    for _ in range(300):
        rng.shuffle(deck)
        # (10 cards a side: the plain cover's time grows fast with the cards, the agreement does not)
        wolf, mine, allowed = tuple(deck[:8]), tuple(deck[8:18]), rng.randrange(3)
        plain = min_sacrifices(wolf, counts(mine), allowed) is not None
        assert covered(wolf, mine, allowed) == plain, (wolf, mine, allowed)
        said.add(plain)
    assert said == {True, False}
    # The compiled kernel's, where it loads (the plain cover's lambda otherwise).
    assert covered.__name__ == "covered", covered


def test_sampled_reward_values_hold_the_exact_ones() -> None:
    """Where the enumeration is small, the sampled values (the same seeded deals for every reward)
    sit within their error of the exact ones."""
    from solver.core.position import Rules
    from solver.core.rules import WON, State
    from solver.search.round_end import reward_values, sampled_reward_values

    unseen = (2, 1, 1, 2, 1, 1, 1, 1, 2)  # 12 cards, the pile's: the next deal is the final round
    s = State("vanguard", (2, 6, 7), (), (1,), ("J", "Q"), 12, (), unseen, False, Rules(), outcome=WON)
    exact = dict(reward_values(s))
    sampled = sampled_reward_values(s, None, seed=5, deals=60)  # a count, not a clock: the same every run
    assert sampled and all(v.samples == 60 for _, v in sampled)
    for r, v in sampled:
        assert exact[r].exact and not v.exact
        assert abs(v.value - exact[r].value) <= 4 * v.error + 1e-9, (r, v, exact[r])


def test_a_time_limit_far_beyond_any_clock_is_no_error() -> None:
    # 1e308 s: the table sized for the states such a clock allows overflowed (OverflowError).
    r = hint(parse_position(ROUND_START), time_limit=1e308, max_states=300)
    assert r.best is not None and not r.exact
