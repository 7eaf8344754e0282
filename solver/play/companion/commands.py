"""The companion's command language run on a session: `execute` reads one typed line and returns
the `Reply` of the step or request it names; `completions` lists what may be typed now.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace

from solver.core.plays import to_text
from solver.core.rounds import rewards
from solver.core.rules import legal_plays
from solver.play.driver import DEAL, DRAW, PLAY, RESHUFFLE, REWARD
from solver.search.engine import cores

from .echoes import cut_echoes
from .files import export, save
from .parse import WORDS, CompanionError, count_arg, meant_as_step, parse_command, reward_args, seconds_arg
from .prose import HELP, waits
from .session import (
    Reply,
    Session,
    ask_analysis,
    ask_hint,
    ask_reward,
    current_hint,
    error_reply,
    leave,
    take_step,
    undo,
    why,
)


def execute(session: Session, line: str, thinking: Callable[[], AbstractContextManager[object]] = nullcontext) -> Reply:
    """One typed line applied to the session. On any error the session comes back unchanged.
    thinking(): the context a search runs in (a terminal's spinner), entered once the line was
    read and found good, so that a bad one is said at once."""
    try:
        cmd = parse_command(line, session.setup)
    except CompanionError as e:
        if session.table.over and meant_as_step(line):
            # Found by a review: "deal 8" after the game ended said how to write a deal.
            return error_reply(session, f"{waits(session.table)}: no step follows (undo takes the last one back)")
        return error_reply(session, cut_echoes(str(e), line))
    if cmd.word != "exit" and session.quitting:
        session = replace(session, quitting=False)
    try:
        match cmd.word:
            case "":
                return Reply(session)
            case "step":
                assert cmd.step is not None
                return take_step(session, cmd.step, said=cmd.said)
            case "undo":
                return undo(session, count_arg(cmd.args, "undo"))
            case "hint":
                whole = any(a.lower() == "all" for a in cmd.args)
                args = tuple(a for a in cmd.args if a.lower() != "all")
                if whole and not args and current_hint(session):
                    return Reply(session, show="hint", whole=True)  # the table just computed, in full
                # A player waits on this one answer: its search may use both cores.
                seconds = seconds_arg(args, session.settings.hint_seconds)
                with thinking():
                    reply = ask_hint(session, seconds, threads=cores())
                return replace(reply, whole=whole)
            case "reward":
                asked = reward_args(cmd.args, session.settings.reward_policy, session.settings.reward_samples)
                with thinking():
                    return ask_reward(session, *asked)
            case "why":
                return why(session)
            case "save":
                return save(session, cmd.args[0] if cmd.args else None)
            case "export":
                if not cmd.args:
                    raise CompanionError("export needs a file name: export pos.json")
                return export(session, cmd.args[0])
            case "exit":
                return leave(session)
            case "help":
                topic = cmd.args[0].lower() if cmd.args else None
                if topic is not None and topic not in HELP:
                    topic = "play" if "=" in topic or ">" in topic else topic
                    if topic not in HELP:
                        raise CompanionError(f"help: no command {topic!r}; type help for the list")
                return Reply(session, show="help", topic=topic)
            case "plays":
                if session.table.phase != PLAY:
                    raise CompanionError(f"no plays to list: {waits(session.table)}")
                return Reply(session, show="plays")
            case "status":
                return Reply(session, show="board")
            case "history":
                return Reply(session, show="history")
            case "analyse":
                return ask_analysis(session, seconds_arg(cmd.args, session.settings.hint_seconds, "analyse"))
    except CompanionError as e:
        return error_reply(session, cut_echoes(str(e), line))
    raise AssertionError(f"unhandled command {cmd.word!r}")  # pragma: no cover - parse_command's words


def completions(session: Session) -> list[str]:
    """What may be typed now, whole lines: the legal plays or rewards, then the command words."""
    t = session.table
    out: list[str] = []
    if t.phase == PLAY and t.round is not None:
        out += [to_text(p) for p in legal_plays(t.round)]
    elif t.phase == REWARD and t.round is not None:
        out += [str(r) for r in rewards(t.round.hand, t.round.party)]
    elif not session.virtual:
        out += {
            DEAL: ["deal "],
            DRAW: ["reveal " if t.owed()[0] == "reveal" else "draw "],
            RESHUFFLE: ["reshuffle"],
        }.get(t.phase, [])
    step_words = {"deal", "draw", "reveal", "reshuffle", "reserve", "revive", "fold"}
    out += [w for w in WORDS if w not in step_words and w != "exit"]
    out.insert(out.index("hint") + 1, "hint all")
    return out
