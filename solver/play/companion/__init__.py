"""The table companion: a game followed step by step, its command language, undo, save files, export.

A `Session` is an immutable value: the game so far (driver.py's `Playthrough`, every table on the way), how
the cards come (typed by the user at a physical table, or dealt from a seeded deck), and a little
bookkeeping (last save, last hint). `execute(session, line)` reads one line of the companion's
language and returns a `Reply`: the new session (the same object when nothing changed), the notes
to show, and the hint or advice asked for. Nothing here knows about terminals; cli/play.py draws.

All rules come from driver.py and rules.py: the companion only translates what a person types into
steps, and what the steps did into words.

    reply = start(Setup("vanguard", "standard"), seed=3)     # virtual: the deal is already made
    reply = execute(reply.session, "9>7")                   # a play; the Wolf's draws follow
    reply = execute(reply.session, "save game.json")

One module per concern, each using only those before it: echoes (what a refusal quotes), parse (the
typed language), prose (the words), session (the session and its steps), files (save, load, export), commands (a typed line
executed). This package re-exports their public names: import from `solver.play.companion`.
"""

from __future__ import annotations

from .commands import completions, execute
from .echoes import MAX_ECHO, cut, cut_echoes
from .files import (
    SAVE_FORMAT,
    SAVE_KEYS,
    SAVE_VERSION,
    export,
    export_json,
    load_file,
    load_json,
    load_text,
    save,
    save_json,
    write_atomic,
)
from .parse import REWARD_POLICIES, WORDS, Command, CompanionError, parse_command
from .prose import (
    HELP,
    HINT_ROWS,
    RoundRecord,
    events,
    final_reason,
    final_status,
    game_result,
    hint_rows,
    history_lines,
    prompts,
    round_end,
    round_number,
    rounds,
    score_breakdown,
    summary_lines,
    where_it_stands,
    why_lines,
)
from .session import (
    DECK_INDEX,
    NOTHING_TO_ANALYSE,
    HintNote,
    Note,
    Reply,
    Session,
    Settings,
    ask_analysis,
    ask_hint,
    ask_reward,
    can_undo,
    decisions_made,
    hint_for_now,
    leave,
    start,
    step_phase,
    take_step,
    undo,
    warm_engine,
    why,
)

__all__ = [
    "DECK_INDEX",
    "HELP",
    "HINT_ROWS",
    "MAX_ECHO",
    "NOTHING_TO_ANALYSE",
    "REWARD_POLICIES",
    "SAVE_FORMAT",
    "SAVE_KEYS",
    "SAVE_VERSION",
    "WORDS",
    "Command",
    "CompanionError",
    "HintNote",
    "Note",
    "Reply",
    "RoundRecord",
    "Session",
    "Settings",
    "ask_analysis",
    "ask_hint",
    "ask_reward",
    "can_undo",
    "completions",
    "cut",
    "cut_echoes",
    "decisions_made",
    "events",
    "execute",
    "export",
    "export_json",
    "final_reason",
    "final_status",
    "game_result",
    "hint_for_now",
    "hint_rows",
    "history_lines",
    "leave",
    "load_file",
    "load_json",
    "load_text",
    "parse_command",
    "prompts",
    "round_end",
    "round_number",
    "rounds",
    "save",
    "save_json",
    "score_breakdown",
    "start",
    "step_phase",
    "summary_lines",
    "take_step",
    "undo",
    "warm_engine",
    "where_it_stands",
    "why",
    "why_lines",
    "write_atomic",
]
