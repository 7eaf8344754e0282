"""Batch solving: many puzzles from files, folders, globs and JSONL, streamed through a pool of
processes (or a Dask cluster), one result record per puzzle, written as soon as it is done.

A puzzle is a position (FORMAT.md), or a puzzle object {"position": ..., "expect": ...,
"id": ..., "plays": ...} as in puzzles/. Each gets exactly one record; a bad puzzle is a record
with its error, never the end of the batch.
"""

from __future__ import annotations

import glob
import hashlib
import json
import math
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.core.files import write_whole
from solver.core.games import game
from solver.core.jsonio import HugeNumber, Unreadable, json_error, jsonl_text, loads, read_text, shown_path
from solver.core.kinds import railway_deck, railway_position
from solver.core.plays import PlayError, from_json, parse_plays
from solver.core.position import PositionError, closest_key, json_type_name, parse_position, unwrap_puzzle
from solver.core.rules import final_state, initial_state, legal_plays
from solver.core.status import Check, FinishStatus, HintStatus, RecordStatus
from solver.finish.finisher import judge_finish, solve_finish
from solver.finish.verify import coverable
from solver.parallel import run_parallel
from solver.railway.budget import BUDGET_CODES, RailwayBudget
from solver.railway.deck import RailwayError, parse_deck, read_json
from solver.search import memory
from solver.search.hint import hint


@dataclass(frozen=True)
class Job:
    id: str
    source: str
    line: int | None
    raw: Any  # the decoded JSON, or None when it could not be read
    error: str | None = None  # why it could not be read


# The files a folder's puzzles are read from: Lobo's, and railway LOBO's (RAILWAY.md).
SUFFIXES = (".json", ".jsonl", ".railway")


def _files(arg: str) -> list[Path]:
    if not arg.strip():
        return []  # not the current folder: an empty argument names nothing
    p = Path(arg)
    if p.is_dir():
        # A link that leads nowhere is a puzzle that cannot be read, said as such, not left out.
        return sorted(q for q in p.rglob("*") if q.suffix in SUFFIXES and (q.is_file() or q.is_symlink()))
    if p.exists():
        return [p]
    matches = sorted(Path(m) for m in glob.glob(arg, recursive=True))
    return [m for m in matches if m.is_file()]


def unreadable_folders(arg: str) -> list[tuple[Path, str]]:
    """The folders under a folder argument (itself included) that cannot be listed, each with the
    reason: rglob passes over them in silence, and their puzzles would be lost without a word."""
    p = Path(arg)
    if not arg.strip() or not p.is_dir():
        return []
    found: list[tuple[Path, str]] = []
    for _ in os.walk(p, onerror=lambda e: found.append((Path(str(e.filename)), e.strerror or str(e)))):
        pass
    return sorted(found)


def unmatched(args: Iterable[str]) -> list[str]:
    """A line for each argument that names no puzzle file (a missing path, a glob matching nothing,
    a folder with no puzzle file), saying which: a usage error, refused before anything starts."""
    out = []
    for arg in args:
        if _files(arg):
            continue
        closed = [why for folder, why in unreadable_folders(arg) if folder == Path(arg)]
        if closed:
            out.append(f"{arg}: cannot read the folder: {closed[0]}")
        elif not arg.strip():
            out.append(f"{arg!r}: an empty path names no file or folder")
        elif Path(arg).is_dir():
            out.append(f"{arg}: the folder holds no .json, .jsonl or .railway file")
        elif any(c in arg for c in "*?["):
            out.append(f"{arg}: no file matches")
        else:
            out.append(f"{arg}: no such file or folder")
    return out


def named_inputs(args: Iterable[str], out: str) -> bool:
    """Whether the file `out` is itself one of the arguments (not a file of a folder or a glob
    named: that one is left out of the puzzles, iter_jobs's leave_out)."""
    target = Path(out).resolve()
    return any(arg.strip() and Path(arg).is_file() and Path(arg).resolve() == target for arg in args)


def among_inputs(args: Iterable[str], out: str) -> bool:
    """Whether the file `out` is one of the files the arguments name, by a folder or a glob too."""
    target = Path(out).resolve()
    return any(f.resolve() == target for arg in args for f in _files(arg))


def iter_jobs(args: Iterable[str], leave_out: str | None = None) -> Iterator[Job]:
    """Every puzzle named by the arguments, lazily: a JSONL file is read line by line. leave_out:
    a file never read as puzzles (the batch's own --out, in a folder it reads)."""
    left = None if leave_out is None else Path(leave_out).resolve()
    seen: set[Path] = set()  # a file named twice (itself and by its folder or a glob) is solved once
    decks: dict[Path, Any] = {}
    for arg in args:
        named = _files(arg)
        files = [f for f in named if f.resolve() != left and f.resolve() not in seen]
        seen.update(f.resolve() for f in files)
        closed = unreadable_folders(arg)
        for folder, why in closed:
            name = shown_path(folder)
            yield Job(name, name, None, None, f"{name}: cannot read the folder: {why}")
        if not named and not closed:
            yield Job(
                shown_path(arg), shown_path(arg), None, None, f"{shown_path(arg)}: no such file, folder or glob match"
            )
        for f in files:
            if f.suffix == ".jsonl":
                yield from (_with_deck(job, Path(), decks) for job in _jsonl(f))
                continue
            job = _with_deck(_one(f), f.parent, decks)
            if job.error is None and railway_deck(job.raw):
                if Path(arg).is_file():  # named as a puzzle: say what it is
                    yield replace(
                        job, raw=None, error=f"{job.source}: a railway deck, not a puzzle (a puzzle names its deck)"
                    )
                continue  # a deck beside the puzzles that name it, in a folder or a glob: not a puzzle
            yield job


def _with_deck(job: Job, base: Path, decks: dict[Path, Any]) -> Job:
    """A railway puzzle's deck named by a path, read here, where the path means something (beside
    the puzzle's file; a JSONL line's from the current folder), and put in the puzzle: a worker of
    a cluster reads none of our files (found by a review: every railway puzzle was invalid on a
    cluster started in another folder). A deck that cannot be read stays a path, for the worker
    to say why, as a local run does."""
    raw = job.raw
    position: Any = raw.get("position") if isinstance(raw, dict) and "position" in raw else raw
    if not (railway_position(position) and isinstance(position.get("deck"), str) and position["deck"].strip()):
        return job
    path = (base / position["deck"]).absolute()
    if path not in decks:
        try:
            decks[path] = read_json(path)
            parse_deck(decks[path], str(path))  # checked here, so that a bad deck's error still names its file
        except RailwayError:
            decks[path] = None
    if decks[path] is None:
        return job
    inlined = {**position, "deck": decks[path]}
    return replace(job, raw={**raw, "position": inlined} if position is not raw else inlined)


def _ident(raw: Any, fallback: str) -> str:
    if isinstance(raw, dict):
        for holder in (raw, raw.get("position") if isinstance(raw.get("position"), dict) else None):
            if isinstance(holder, dict):
                ident = holder.get("id")
                if isinstance(ident, HugeNumber):
                    return ident.text
                if isinstance(ident, (str, int)) and not isinstance(ident, bool):
                    return str(ident)
    return fallback


def _one(f: Path) -> Job:
    name = shown_path(f)
    try:
        raw = loads(read_text(f))
    except Unreadable as e:
        return Job(name, name, None, None, f"{name}: cannot read: {e}")
    except json.JSONDecodeError as e:
        return Job(name, name, None, None, f"{name}: not valid JSON: {json_error(e)}")
    except RecursionError:
        return Job(name, name, None, None, f"{name}: the JSON is nested too deeply")
    return Job(_ident(raw, name), name, None, raw)


def _jsonl(f: Path) -> Iterator[Job]:
    name = shown_path(f)
    try:
        handle = f.open("rb")
    except OSError as e:
        yield Job(name, name, None, None, f"{name}: cannot read: {e.strerror or e}")
        return
    with handle:
        # Line by line, each decoded apart: a line that is not UTF-8 is one invalid puzzle.
        for n, data in enumerate(handle, start=1):
            where = f"{name}:{n}"
            try:
                text = jsonl_text(data, n)
            except UnicodeDecodeError as e:
                yield Job(where, name, n, None, f"{where}: not UTF-8 text (byte {e.start})")
                continue
            if not text.strip():
                continue
            try:
                raw = loads(text)
            except json.JSONDecodeError as e:
                yield Job(where, name, n, None, f"{where}: not valid JSON: {json_error(e, line=False)}")
                continue
            except RecursionError:
                yield Job(where, name, n, None, f"{where}: the JSON is nested too deeply")
                continue
            yield Job(_ident(raw, where), name, n, raw)


# What a batch's own results and a railway position hold that no Lobo position does: a file of
# either in the puzzles' folder is named for what it is, not as a position with unknown keys.
RESULT_KEYS = frozenset({"source", "kind", "status", "answer"})


def _not_another_kind(raw: Any, position: Any) -> None:
    if isinstance(raw, dict) and raw.keys() >= RESULT_KEYS:
        raise PositionError(
            "a line of batch's results (--out), not a puzzle: keep results out of the puzzles' folder", "wrong_kind"
        )


# A railway answer's status (the hand goes LOBO or not), and what a railway puzzle's expect names.
RAILWAY_STATUS = {True: "goes_lobo", False: "not_lobo"}
RAILWAY_EXPECT = ("lobo", "journeys_count", "leftover_count")
# The hint's keys (puzzles/railway/README.md): read only when asked for, the hint being the slower part.
RAILWAY_HINT_EXPECT = ("top_discard_lobo", "best", "options")
RAILWAY_CHANCES = ("now_exact", "next_turn_exact", "within_three_exact")


def _solve_railway(job: Job, puzzle: dict[str, Any], record: dict[str, Any], budget: RailwayBudget) -> None:
    """A railway LOBO position (RAILWAY.md): is the hand LOBO, and its largest set of journeys, as
    `lobo-hint railway lobo --json` answers; with an expect that asks for the hint's keys, the
    hint too, as `railway hint --json` answers (in the record's `hint`). Every key of the expect
    is checked (found by a review: a wrong `best` or `options` passed)."""
    from solver.railway.partition import partition
    from solver.railway.position import parse_position as parse_railway

    base = None if job.line else Path(job.source).parent  # a deck named by path is read beside the file
    pos = parse_railway(puzzle["position"], base)
    answer = partition(pos.deck, pos.hand, budget=budget).to_json(len(pos.exposed))
    goes = bool(answer["lobo"])
    record.update(kind="railway", status=RAILWAY_STATUS[goes], exact=True, answer=answer)
    expect = puzzle.get("expect")
    if expect is None:
        return
    if not isinstance(expect, dict):
        raise PositionError(f"expect: must be an object, not {json_type_name(expect)}", "wrong_type")
    known = frozenset((*RAILWAY_EXPECT, *RAILWAY_HINT_EXPECT))
    problems = [f"expect.{k}: not a key --check compares{closest_key(k, known)}" for k in expect if k not in known]
    got = dict(zip(RAILWAY_EXPECT, (goes, len(answer["journeys"]), len(answer["leftover"])), strict=True))
    problems += [f"{k}: {got[k]!r}, want {expect[k]!r}" for k in got if k in expect and expect[k] != got[k]]
    if any(k in expect for k in RAILWAY_HINT_EXPECT):
        from solver.railway.advice import advise

        hint = record["hint"] = advise(pos, budget=budget).to_json()
        problems += _railway_hint_problems(hint, expect)
    record["check"] = Check.MISMATCH if problems else Check.MATCH
    if problems:
        record["mismatch"] = problems


def _railway_hint_problems(hint: dict[str, Any], expect: dict[str, Any]) -> list[str]:
    """What differs between `railway hint --json`'s answer and an expect's hint keys: every
    option (by its source and discard) with its exact chances, and the best one."""
    problems = []
    if "top_discard_lobo" in expect:
        top = hint["top_discard"]["lobo"] if hint["top_discard"] else None
        if top != expect["top_discard_lobo"]:
            problems.append(f"top_discard_lobo: {top!r}, want {expect['top_discard_lobo']!r}")
    options = {(o["source"], o["discard"]): o for o in hint["options"]}
    want_options = expect.get("options")
    if want_options is not None:
        if not isinstance(want_options, list) or not all(isinstance(o, dict) for o in want_options):
            raise PositionError("expect.options: must be a list of objects", "wrong_type")
        wanted = {(o.get("source"), o.get("discard")) for o in want_options}
        problems += [f"option {s} (discard {d}): not expected" for s, d in options if (s, d) not in wanted]
        for o in want_options:
            mine = options.get((o.get("source"), o.get("discard")))
            if mine is None:
                problems.append(f"option {o.get('source')} (discard {o.get('discard')}): missing")
                continue
            for k in (*RAILWAY_CHANCES, "card"):
                if k in o and not _same_chance(mine[k], o[k]):
                    problems.append(
                        f"option {o.get('source')} (discard {o.get('discard')}) {k}: {mine[k]}, want {o[k]}"
                    )
    want_best = expect.get("best")
    if want_best is not None:
        if not isinstance(want_best, list) or not all(isinstance(b, dict) for b in want_best):
            raise PositionError("expect.best: must be a list of objects", "wrong_type")
        best = hint["best"]
        mine = None if best is None else {"source": best["source"], "discard": best["discard"]}
        if mine not in [{"source": b.get("source"), "discard": b.get("discard")} for b in want_best]:
            problems.append(f"best {mine}: not among the expected best options")
    return problems


def _same_chance(mine: Any, want: Any) -> bool:
    """Exact chances compared as fractions ("139/234"), anything else as it is."""
    a, b = _fraction(mine), _fraction(want)
    return a == b if a is not None and b is not None else bool(mine == want)


def solve_one(
    job: Job,
    time_limit: float | None = None,
    max_memory: int | None = None,
    max_states: int | None = None,
    samples: int | None = None,
) -> dict[str, Any]:
    """The record for one puzzle (runs in a worker: everything it needs is in the job, and the
    memory budget, which a worker on another machine would not find in its environment).
    max_states, samples: the hint's own budgets (with a time limit that does not bind, the same
    answer on any machine)."""
    if max_memory is not None:
        memory.set_limit(max_memory)
    t0 = time.perf_counter()
    record: dict[str, Any] = {
        "id": job.id,
        "source": job.source,
        "line": job.line,
        "digest": digest(job.raw),
        "budget": budget_text(time_limit, max_states, samples),
    }
    try:
        if job.error is not None:
            raise PositionError(job.error, "unreadable")
        raw = job.raw
        puzzle = raw if isinstance(raw, dict) and "position" in raw and "player" not in raw else {"position": raw}
        _not_another_kind(raw, puzzle["position"])
        if railway_position(puzzle["position"]):
            _solve_railway(job, puzzle, record, RailwayBudget.of(time_limit, t0))
            record["seconds"] = round(time.perf_counter() - t0, 4)
            return record
        pos = parse_position(unwrap_puzzle(puzzle))  # a puzzle file's own keys checked too
        expect = puzzle.get("expect")
        _check_expect(expect)
        if isinstance(expect, dict) and isinstance(expect.get("plays"), list):
            # A legal-plays puzzle: the answer is the list of plays, no search needed.
            plays = legal_plays(initial_state(pos))
            record.update(
                kind="moves", status=RecordStatus.LISTED, exact=True, answer={"moves": [p.to_json() for p in plays]}
            )
        elif puzzle.get("plays") is not None:  # a string: unwrap_puzzle checked it (null is absent)
            state, _ = final_state(pos, force=True)
            verdict = judge_finish(state, tuple(parse_plays(puzzle["plays"])), time_limit=time_limit or 10.0)
            record.update(kind="check", status=RecordStatus.CHECKED, answer=verdict.to_json(), exact=verdict.best.exact)
        elif game(pos.game).has_final_round and pos.final:
            # As `lobo-hint finish --json` answers: the other optimal finishes counted.
            f = solve_finish(initial_state(pos), time_limit=time_limit or 10.0, count_alternatives=True)
            answer = f.to_json()
            record["stats"] = answer.pop("stats", {})
            record.update(
                kind="finish",
                status=f.status,
                exact=f.exact,
                answer=answer,
                best=", ".join(map(str, f.plays)) or None,
                score=f.score,
            )
        else:
            h = hint(pos, time_limit=time_limit, max_states=max_states, samples=samples)
            answer = h.to_json()
            record.update(
                kind="hint",
                status=h.status,
                exact=h.exact,
                answer=answer,
                best=None if h.best is None else str(h.best),
                value=answer.get("value"),  # as the answer rounds it (FORMAT.md)
                win_probability=answer.get("win_probability"),
                stats=answer.pop("stats", {}),
            )
        if expect is not None:
            problems = compare(pos, record, expect)
            record["check"] = Check.MATCH if not problems else Check.MISMATCH
            if problems:
                record["mismatch"] = problems
    except (PositionError, PlayError, RailwayError) as e:
        if isinstance(e, RailwayError) and e.code in BUDGET_CODES:  # a fine puzzle, a small budget
            record.update(kind="error", status=RecordStatus.ERROR, error=str(e), exact=False)
        else:
            # Named where it is, as `validate` and a file that cannot be read are (a review).
            place = f"{job.source}:{job.line}" if job.line else job.source
            said = str(e) if str(e).startswith(f"{place}: ") else f"{place}: {e}"
            record.update(kind="invalid", status=RecordStatus.INVALID, error=said, exact=True)
            expect = job.raw.get("expect") if isinstance(job.raw, dict) else None
            if isinstance(expect, dict) and "invalid" in expect:
                record["check"] = Check.MATCH
            elif expect is not None:
                record.update(check=Check.MISMATCH, mismatch=[f"invalid: {e}"])
    except Exception as e:  # a bug must not stop the batch: it is reported on its own line
        record.update(kind="error", status=RecordStatus.ERROR, error=f"{type(e).__name__}: {e}", exact=False)
    record["seconds"] = round(time.perf_counter() - t0, 4)
    return record


def _check_expect(expect: Any) -> None:
    """An expected answer of a shape compare() can read, or PositionError naming the key."""
    if expect is None:
        return
    if not isinstance(expect, dict):
        raise PositionError(f"expect: must be an object, not {json_type_name(expect)}", "wrong_type")
    for key in ("plays", "best_plays", "moves"):
        if key in expect and not isinstance(expect[key], list):
            raise PositionError(f"expect.{key}: must be a list, not {json_type_name(expect[key])}", "wrong_type")
    for key in ("plays", "best_plays"):
        for i, p in enumerate(expect.get(key, [])):
            try:
                from_json(p)
            except PlayError as e:
                raise PositionError(f"expect.{key}[{i}]: {e}", "malformed_play") from None
    for i, m in enumerate(expect.get("moves", [])):
        if not isinstance(m, dict) or "play" not in m or "value" not in m:
            raise PositionError(f'expect.moves[{i}]: must be an object with "play" and "value"', "wrong_type")
        try:
            from_json(m["play"])
        except PlayError as e:
            raise PositionError(f"expect.moves[{i}].play: {e}", "malformed_play") from None


def _close(a: Any, b: Any) -> bool:
    try:
        return a is not None and b is not None and math.isclose(float(a), float(b), abs_tol=1e-6)
    except (TypeError, ValueError):  # an expected value that is no number never matches
        return False


# The keys of an `expect` that --check compares (the contract examples' shapes; `line`, a known
# pile's best line, is one of possibly several and is not compared).
EXPECT_KEYS = frozenset(
    {"invalid", "plays", "legal", "clears", "score", "best_score", "optimal", "status", "win_probability",
     "win_probability_exact", "value", "value_exact", "best_plays", "moves", "proof", "line"}
)  # fmt: skip


def compare(pos: Any, record: dict[str, Any], expect: dict[str, Any]) -> list[str]:
    """What differs between a result and a puzzle's expected answer (the contract examples' shapes).
    A key --check does not know is a difference too (found by a review: "scor" passed unchecked)."""
    problems = [
        f"expect.{k}: not a key --check compares{closest_key(k, EXPECT_KEYS)}" for k in expect if k not in EXPECT_KEYS
    ]
    answer = record.get("answer", {})
    if "invalid" in expect:
        return [*problems, f"expected invalid ({expect['invalid']}), but it was solved"]
    if "plays" in expect and isinstance(expect["plays"], list):  # legal plays
        want = {from_json(p) for p in expect["plays"]}
        got = set(legal_plays(initial_state(pos)))
        if want != got:
            problems.append(f"legal plays differ: missing {len(want - got)}, extra {len(got - want)}")
        return problems
    for key in ("legal", "clears", "score", "best_score", "optimal", "status"):
        if key in expect and key in answer and answer[key] != expect[key]:
            problems.append(f"{key}: {answer[key]!r}, want {expect[key]!r}")
    for key in ("win_probability", "value"):
        if key in expect and not _close(answer.get(key), expect[key]):
            problems.append(f"{key}: {answer.get(key)}, want {expect[key]}")
        if f"{key}_exact" in expect and not _close(answer.get(key), _fraction(expect[f"{key}_exact"])):
            problems.append(f"{key}: {answer.get(key)}, want {expect[f'{key}_exact']}")
    if "proof" in expect:
        problems += _proof_problems(pos, expect["proof"])
    if "best_plays" in expect:
        allowed = {from_json(p) for p in expect["best_plays"]}
        if answer.get("best") is None or from_json(answer["best"]) not in allowed:
            problems.append(f"best play {record.get('best')} is not among the expected best plays")
    if "moves" in expect:
        # The expected moves are valued like the expected answer: win probability or value.
        key = "win_probability" if "win_probability" in expect else "value"
        valued = {from_json(m["play"]): m.get(key) for m in answer.get("moves", [])}
        for m in expect["moves"]:
            mine = valued.get(from_json(m["play"]))
            if not _close(mine, m["value"]):
                problems.append(f"move {from_json(m['play'])}: {mine}, want {m['value']}")
    return problems


def _fraction(text: Any) -> Fraction | None:
    """An exact value as the contract's examples write it ("13/42", "0"); None for anything else."""
    try:
        return Fraction(str(text)) if isinstance(text, (str, int)) and not isinstance(text, bool) else None
    except (ValueError, ZeroDivisionError):
        return None


def _proof_problems(pos: Any, proof: Any) -> list[str]:
    """An expected proof that no finish exists must be one: Wolf cards of the position that the
    available cards and the sacrifices allowed cannot all cover at once (found by a review: a
    wrong proof "matched", as the check never read it). Another proof than the answer's is fine."""
    wolf = proof.get("wolf") if isinstance(proof, dict) else None
    if not (isinstance(wolf, list) and all(type(v) is int for v in wolf)):
        return ["expect.proof: must be an object with a list of Wolf cards, wolf"]
    if Counter(wolf) - Counter(pos.wolf):
        return [f"expect.proof.wolf {wolf}: not cards of the Wolf's hand {list(pos.wolf)}"]
    if coverable(wolf, pos.player, pos.reserve, len(pos.party)):
        return [f"expect.proof.wolf {wolf}: no proof, those cards can all be covered"]
    return []


def named(record: dict[str, Any]) -> str:
    """Where a record's puzzle was read, for people: FILE or FILE:LINE, and its id where that says
    more ("p.jsonl:11 (id badcard)"): ids may repeat across files."""
    source, line = str(record.get("source", "")), record.get("line")
    place = f"{source}:{line}" if line else source
    ident = str(record.get("id", ""))
    return place if ident in (place, source) else f"{place} (id {ident})"


def problem(record: dict[str, Any]) -> str | None:
    """One line naming an invalid or failed puzzle and why, for the screen; None for a puzzle that
    was solved, or that is invalid as its own `expect` says it should be."""
    if record.get("status") not in (RecordStatus.INVALID, RecordStatus.ERROR) or record.get("check") == Check.MATCH:
        return None
    source, line = str(record.get("source", "")), record.get("line")
    place = named(record)
    error = str(record.get("error") or "no reason given")
    # Errors about an unreadable file or line already start with its name.
    for prefix in (f"{source}:{line}: " if line else None, f"{source}: "):
        if prefix and error.startswith(prefix):
            error = error[len(prefix) :]
            break
    return f"{place}: {error}"


@dataclass
class BatchSummary:
    total: int = 0
    solved: int = 0
    won: int = 0
    lost: int = 0
    not_exact: int = 0
    invalid: int = 0
    errors: int = 0
    matched: int = 0
    mismatched: int = 0
    skipped: int = 0  # of those counted, the answered before that a resumed batch kept
    times: list[float] = field(default_factory=list)

    def add(self, r: dict[str, Any]) -> None:
        """Count one record (a CSV file's, read by --resume, holds its values as text)."""
        self.total += 1
        status = r.get("status")
        if status == RecordStatus.INVALID:
            self.invalid += 1
        elif status == RecordStatus.ERROR:
            self.errors += 1
        else:
            self.solved += 1
            self.won += status in (FinishStatus.WIN, HintStatus.PROVEN_WON)
            self.lost += status in (FinishStatus.LOST, HintStatus.PROVEN_LOST)
            self.not_exact += r.get("exact", True) in (False, "False")
        self.matched += r.get("check") == Check.MATCH
        self.mismatched += r.get("check") == Check.MISMATCH
        self.times.append(float(r.get("seconds") or 0.0))

    def quantile(self, q: float) -> float:
        if not self.times:
            return 0.0
        xs = sorted(self.times)
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "solved": self.solved,
            "proven_won_or_won": self.won,
            "proven_lost_or_lost": self.lost,
            # neither (an open round; found by a review: the rows did not add up to `solved`)
            "open": self.solved - self.won - self.lost,
            "not_exact": self.not_exact,
            "invalid": self.invalid,
            "errors": self.errors,
            "matched": self.matched,
            "mismatched": self.mismatched,
            "skipped_by_resume": self.skipped,
            "seconds_p50": self.quantile(0.5),
            "seconds_p95": self.quantile(0.95),
            "seconds_max": max(self.times, default=0.0),
        }


def place(source: Any, line: Any) -> str:
    """Where a puzzle was read (its file by its real path, and line in a JSONL file): one puzzle's
    own key, where ids may repeat; `p/` and `/home/me/p/` name one file (found by a review: a
    resume under another spelling solved every puzzle again)."""
    where = os.path.realpath(str(source))
    return f"{where}:{line}" if line else where


def file_of(place_: str, line: Any) -> str:
    """The file part of a place() (its real path): the place without its `:LINE`."""
    return place_.rsplit(":", 1)[0] if line else place_


def digest(raw: Any) -> str:
    """A puzzle's fingerprint, kept with its record: a resumed batch solves again a puzzle edited
    since (found by a review: the old answer stayed, under the old id)."""
    text = json.dumps(raw, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def budget_text(time_limit: float | None, max_states: int | None, samples: int | None) -> str:
    """The budgets a record was solved with, in words; a resumed batch must give the same."""
    said = [f"time limit {time_limit:g} s" if time_limit is not None else "no time limit"]
    said += [f"{k} {v}" for k, v in (("max states", max_states), ("samples", samples)) if v is not None]
    return ", ".join(said)


@dataclass(frozen=True)
class Answered:
    """A record in an --out file a batch resumes: where its puzzle was read, and how it was solved."""

    place: str
    digest: str | None  # None: a file from before digests (taken as the same puzzle)
    budget: str | None
    file: str  # the place's file (its real path)


def answered_records(records: Iterable[dict[str, Any]]) -> list[Answered]:
    """The records a resumed batch may skip: those answered. An invalid puzzle or one the solver
    failed on is read again (it may have been fixed; else it is reported again)."""
    out = []
    for r in records:
        if "source" in r and _answered(r):
            where = place(r.get("source"), r.get("line"))
            out.append(Answered(where, r.get("digest") or None, r.get("budget") or None, file_of(where, r.get("line"))))
    return out


def read_records(out: str | Path, fmt: str = "jsonl") -> list[dict[str, Any]]:
    """The records of an output file (for --resume); a torn last line is ignored."""
    p = Path(out)
    if not p.exists():
        return []
    with p.open(encoding="utf-8", errors="backslashreplace", newline="") as f:
        if fmt == "csv":
            import csv

            return list(csv.DictReader(f))
        records = []
        for text in f:
            try:
                r = loads(text)
            except ValueError:
                continue
            if isinstance(r, dict):
                records.append(r)
        return records


def resumable(answered: list[Answered], current: dict[str, str], budget: str, files: set[str]) -> set[str]:
    """The places a resumed batch skips: answered under this run's budgets, of puzzles unchanged
    since (`current`: each place read now, its digest), and those of files this run does not read
    (another run's inputs, kept). A line of a file read (`files`, real paths) that is no longer in
    it is not kept (found by a review: a line deleted left its old record beside the new one).
    ValueError when the file was solved with other budgets (its answers and this run's would be
    mixed in one file)."""
    for a in answered:
        if a.budget is not None and a.budget != budget:
            raise ValueError(
                f"its results were solved with {a.budget}, this run's budget is {budget}: resume with the "
                "budgets it was made with (--time-limit, --max-states, --samples), or choose another file"
            )
    kept = set()
    for a in answered:
        now = current.get(a.place)
        if (now is None and a.file not in files) or (now is not None and a.digest in (None, now)):
            kept.add(a.place)
    return kept


def run_batch(
    jobs: Iterable[Job],
    *,
    workers: int | None = None,
    time_limit: float | None = None,
    skip: set[str] | None = None,  # places (place()) already answered
    before: Iterable[dict[str, Any]] = (),  # their records (keep_answered's), counted in the summary
    on_result: Callable[[dict[str, Any]], None] | None = None,
    cluster: Any = None,
    on_wait: Callable[[str], None] | None = None,
    max_memory: int | None = None,
    max_states: int | None = None,
    samples: int | None = None,
) -> BatchSummary:
    """Solve every job; each record goes to on_result as soon as it is done. At most 2 × workers
    puzzles are in flight, so memory stays flat on huge inputs. workers=1 solves in this process;
    cluster="tcp://host:port" (or a distributed.Client) solves on a Dask cluster, and on_wait hears
    every few seconds while it has no worker. max_memory: each worker's memory budget (memory.py)."""
    summary = BatchSummary()
    skip = skip or set()
    # A resumed batch's summary is the whole file's (found by a review: "puzzles 5" of 100).
    for r in before:
        summary.add(r)
        summary.skipped += 1

    def emit(r: dict[str, Any]) -> None:
        summary.add(r)
        if on_result:
            on_result(r)

    def todo() -> Iterator[Job]:
        for j in jobs:
            if place(j.source, j.line) in skip:
                continue
            yield j

    run_parallel(
        solve_one,
        ((job, time_limit, max_memory, max_states, samples) for job in todo()),
        emit=emit,
        workers=workers,
        cluster=cluster,
        on_crash=crashed,
        on_wait=on_wait,
    )
    return summary


def crashed(task: tuple[Any, ...]) -> dict[str, Any]:
    """The record of a puzzle whose process crashed, in the pool and again alone."""
    job: Job = task[0]
    return {
        "id": job.id,
        "source": job.source,
        "line": job.line,
        "kind": "error",
        "status": RecordStatus.ERROR,
        "error": "the process solving this puzzle crashed",
        "exact": False,
        "seconds": 0.0,
    }


def keep_answered(out: str | Path, fmt: str, keep: set[str] | None = None) -> list[dict[str, Any]]:
    """Before a resumed batch appends: drop the records of the puzzles it reads again (invalid, or
    the solver failed on them, or not among the places `keep`: edited since), so that the file
    keeps one line a puzzle; and a torn last line. The records kept, for the batch's summary."""
    p = Path(out)
    if not p.exists() or p.stat().st_size == 0:
        return []
    text = p.read_text(encoding="utf-8", errors="surrogateescape")
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines.pop()  # torn
    if fmt == "csv":
        import csv
        import io

        rows = list(csv.reader(io.StringIO("".join(lines))))
        names = rows[0] if rows else []
        kept = [r for r in rows[1:] if _kept(dict(zip(names, r, strict=False)), keep)]
        table = io.StringIO()
        csv.writer(table).writerows(rows[:1] + kept)
        lines = [table.getvalue()]
        records = [dict(zip(names, r, strict=False)) for r in kept]
    else:
        lines = [line for line in lines if _kept(_record(line), keep)]
        records = [_record(line) for line in lines]
    new = "".join(lines)
    if new != text:
        write_whole(p, new.encode("utf-8", errors="surrogateescape"))
    return records


def _record(line: str) -> Any:
    try:
        return loads(line)
    except ValueError:
        return None


def _kept(r: Any, keep: set[str] | None) -> bool:
    if not isinstance(r, dict) or ("status" in r and not _answered(r)):
        return False
    return keep is None or "source" not in r or place(r.get("source"), r.get("line")) in keep


def _answered(r: Any) -> bool:
    return isinstance(r, dict) and r.get("status") not in (RecordStatus.INVALID, RecordStatus.ERROR)
