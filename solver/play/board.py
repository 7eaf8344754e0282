"""The companion's table as data: what `lobo-hint play` draws as text, as plain values for any
other front end (the web page of `lobo-hint serve`).

Pure functions over the companion's `Session` and the driver's `Table`; the words they carry (what
the table waits for, the final round, the result, the history) are the companion's own, so every
front end says the same thing. Nothing here renders or knows about requests.

    data = board(session)            # JSON-able: hands, reserve, party, pile, unseen, round, ...
    options = play_options(table)    # the legal plays with what each makes both sides draw
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from solver.core.cards import MEMBERS
from solver.core.games import game
from solver.core.plays import Play, to_text
from solver.core.rounds import Reward, rewards
from solver.core.rules import Effect, legal_plays, play_effect
from solver.play.companion import (
    HINT_ROWS,
    HintNote,
    Session,
    can_undo,
    decisions_made,
    execute,
    final_status,
    hint_for_now,
    hint_rows,
    history_lines,
    prompts,
    round_number,
    save_json,
    summary_lines,
)
from solver.play.driver import DRAW, PLAY, REWARD, Table, waiting_for
from solver.search.hint import MoveResult
from solver.words.hint import blunder_note, explain, mark_text, reward_texts, ties_note


@dataclass(frozen=True)
class PlayOption:
    """One legal play of the table in play, and what it does."""

    play: Play
    effect: Effect

    @property
    def text(self) -> str:
        return to_text(self.play)

    def to_json(self) -> dict[str, Any]:
        e = self.effect
        return {
            "text": self.text,
            "kind": self.play.kind,
            "hand": list(self.play.hand),
            "reserve": list(self.play.reserve),
            "wolf": list(self.play.wolf),
            "member": self.play.member,
            "effect": {
                "player_draws": e.player_draws,
                "wolf_draws": e.wolf_draws,
                "known": list(e.known),
                "member": e.member,
                "wins": e.wins,
                "loses": e.loses,
                "makes_final": e.makes_final,
            },
        }


def play_options(t: Table) -> list[PlayOption]:
    """The legal plays of the table in play (none outside phase play), in the rules' order."""
    s = t.round
    if t.phase != PLAY or s is None:
        return []
    return [PlayOption(p, play_effect(s, p)) for p in legal_plays(s)]


def reward_options(t: Table) -> list[Reward]:
    """The rewards on offer after a won round (none outside phase reward)."""
    s = t.round
    if t.phase != REWARD or s is None:
        return []
    return list(rewards(s.hand, s.party))


def revision(session: Session) -> str:
    """A short digest of the game's steps: two tables with the same number of steps but a
    different past (a step taken back and another taken) have different revisions."""
    steps = save_json(session)["steps"]
    return hashlib.sha256(json.dumps(steps, sort_keys=True).encode()).hexdigest()[:12]


def board(session: Session) -> dict[str, Any]:
    """Everything the companion's screen shows, as data (the CLI's board panel and prompts)."""
    t = session.table
    setup = t.setup
    in_round = t.phase in (PLAY, DRAW)
    who, owed = t.owed()
    summary = summary_lines(session.game) if t.over else None
    last = t.last_hands
    out: dict[str, Any] = {
        "game": setup.game,
        "difficulty": setup.difficulty,
        "top": setup.top,
        "rules": setup.rules.to_json(),
        "mode": "virtual" if session.virtual else "physical",
        "seed": session.seed,
        "steps": len(session.game.steps),
        "can_undo": can_undo(session),
        "can_analyse": decisions_made(session) > 0,
        "revision": revision(session),
        "phase": t.phase,
        "next": waiting_for(t) if not t.over else f"nothing: the game is {t.result}",
        "round": round_number(t),
        "to_be_dealt": round_number(t) > t.rounds,
        "reshuffles": t.reshuffles,
        "wolf": list(t.wolf) if in_round else list(last[1]) if last else None,
        "hand": list(last[0]) if last else list(t.hand),
        "winning_hand": t.phase == REWARD,
        "pile": {"size": t.pile_size, "top": list(t.pile_top)},
        "unseen": list(t.unseen),
        "discards": list(t.discards_in_view),
        "owed": {"who": who, "count": owed} if t.phase == DRAW else None,
        "deal": list(t.deal_sizes()) if t.phase == "deal" else None,
        "prompts": prompts(session),
        "plays": [o.to_json() for o in play_options(t)],
        "rewards": [{"text": str(r), "kind": r.kind, "value": r.value, "member": r.member} for r in reward_options(t)],
        "over": t.over,
        "result": t.result,
        "score": t.score,
        # The summary's first line is the result: for a won vanguard game, the score and how it is made.
        "result_text": summary[0] if summary else None,
        "summary": summary,
        "history": history_lines(session.game),
    }
    g = game(setup.game)
    if g.has_reserve:
        out["reserve"] = list(t.reserve)
    if g.has_party:
        out["party"] = {"up": [m for m in MEMBERS if m in t.party], "down": [m for m in MEMBERS if m not in t.party]}
    if g.has_final_round:
        out["final"] = {"in_play": t.final, "status": final_status(session)}
    if g.is_race:
        out["points"] = {"you": t.points[0], "wolf": t.points[1], "target": setup.target}
    return out


def current_hint(session: Session) -> HintNote | None:
    """The last hint or reward advice, if it was given for the table as it is now."""
    return hint_for_now(session)


def hint_data(session: Session, whole: bool = False) -> dict[str, Any] | None:
    """The current hint (or reward advice) as data: the rows the CLI's table shows (the best
    HINT_ROWS and every play tied with the best; `whole`: every play), how many are left out, and
    the reasons `why` gives. None when no hint was given for the table as it is now."""
    note = current_hint(session)
    if note is None:
        return None
    why = [n.text for n in execute(session, "why").notes]
    if note.advice is not None:
        a = note.advice
        best_exact = bool(a.ranked[0].exact)
        ranked = []
        for i, v in enumerate(a.ranked):
            win, interval, vs = reward_texts(
                i == 0, bool(v.exact), best_exact, v.win_rate, v.interval, v.difference, v.difference_interval
            )
            ranked.append(
                {
                    "reward": str(v.reward),
                    "wins": v.wins,
                    "samples": v.samples,
                    "win_rate": v.win_rate,
                    "interval": list(v.interval),
                    "difference": v.difference,
                    "difference_interval": list(v.difference_interval),
                    "significant": v.significant,
                    "exact": bool(v.exact),
                    "win_text": win,
                    "interval_text": interval,
                    "vs_text": vs,
                }
            )
        return {
            "kind": "advice",
            "verdict": a.verdict(),
            "made_by": a.made_by(),
            "policy": a.policy,
            "samples": a.samples,
            "rewards": ranked,
            "why": why,
        }
    r = note.result
    assert r is not None
    rows, left_out = hint_rows(r, None if whole else HINT_ROWS)
    top = next((m for m in r.moves if m.play == r.best), None)
    return {
        "kind": "hint",
        "ties_note": ties_note(rows, top),
        "blunder_note": blunder_note(r, rows),
        "status": r.status,
        "objective": r.objective,
        "exact": r.exact,
        "best": None if r.best is None else to_text(r.best),
        "reason": explain(r),
        "finish": [to_text(p) for p in r.finish.plays] if r.finish is not None and r.finish.status == "win" else None,
        "finish_score": r.finish.score if r.finish is not None and r.finish.status == "win" else None,
        "line": [to_text(p) for p in r.line] if r.line is not None and r.finish is None else None,
        "note": r.note,
        "rows": [_row(m, r.best, top) for m in rows],
        "left_out": left_out,
        "total": len(r.moves),
        "seconds": r.stats.get("seconds"),  # counted from when it was asked
        "why": why,
    }


def _row(m: MoveResult, best: Play | None, top: MoveResult | None) -> dict[str, Any]:
    out = m.to_json()
    out["text"] = to_text(m.play)
    out["best"] = m.play == best
    out["tied"] = m.tied
    out["mark"] = mark_text(m, top)  # "best", "= best", "≈ best" or ""
    out["blunder"] = m.blunder
    return out


__all__ = [
    "PlayOption",
    "board",
    "current_hint",
    "hint_data",
    "play_options",
    "revision",
    "reward_options",
]
