"""The table companion in a terminal (`lobo-hint play`, cli/play.py): this module reads lines
(readline with tab completion at a terminal, or any stream of lines, which is how the tests drive
it) and draws the table with rich. Everything the session does is in solver/play/companion/; this
module loads with the command that uses it, so other commands start without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext
from dataclasses import replace

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from solver.core.games import game as game_of
from solver.core.rules import legal_plays
from solver.play.companion import (
    HELP,
    HINT_ROWS,
    Reply,
    Session,
    completions,
    execute,
    final_status,
    hint_rows,
    history_lines,
    round_number,
    summary_lines,
)
from solver.play.driver import DEAL, DRAW, GAME_OVER, PLAY, RESHUFFLE, REWARD, waiting_for
from solver.words.board import cards_text, party_text
from solver.words.hint import explain
from solver.words.numbers import count_text

from . import analysis_view, render
from .games import advice_view

NOTE_STYLES = {"event": "cyan", "info": "", "prompt": "", "warn": "yellow", "error": "bold red"}
NOTE_MARKS = {"event": "•", "info": " ", "prompt": " ", "warn": "!", "error": "✗"}


# ---------------------------------------------------------------------------------------------
# Drawing


def _cards(values: Iterable[int]) -> str:
    return cards_text(tuple(values))


def board(session: Session) -> Panel:
    """The table: both hands, reserve, party, pile, unseen cards, round, final round, scores, what next."""
    t = session.table
    setup = t.setup
    grid = RichTable.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    hand, wolf = t.last_hands or (t.hand, t.wolf)
    grid.add_row("Wolf", f"{_cards(wolf)}   (total {sum(wolf)})" if wolf else "—")
    mine = "winning hand, " if t.phase == REWARD else "at the end, " if t.over else ""
    grid.add_row("You", f"{_cards(hand)}   ({mine}total {sum(hand)})" if hand else "—")
    g = game_of(setup.game)
    if g.has_reserve:
        grid.add_row("Reserve", _cards(t.reserve))
    if g.has_party:
        grid.add_row("Party", party_text(t.party))
    if g.is_race:
        p, w = t.points
        grid.add_row("Score", f"you {p}, the Wolf {w}   (first to {setup.target})")
    pile = f"{t.pile_size} card{'s' if t.pile_size != 1 else ''}"
    if t.pile_top:
        pile += f", known top (top first): {_cards(t.pile_top)}"
    grid.add_row("Pile", pile)
    unseen = "  ".join(f"{v}×{n}" for v, n in enumerate(t.unseen, start=1) if n)
    grid.add_row("Unseen", f"{unseen or '—'}   ({count_text(sum(t.unseen))})")
    discards = t.discards_in_view
    grid.add_row("Discards", count_text(len(discards)) + (f": {_cards(discards)}" if discards else ""))
    before_deal = "   (to be dealt)" if round_number(t) > t.rounds else ""
    grid.add_row(
        "Round",
        f"{round_number(t)}{before_deal}" + (f"   ({count_text(t.reshuffles, 'reshuffle')})" if t.reshuffles else ""),
    )
    if g.has_final_round:
        grid.add_row("Final round", escape(final_status(session)))
    grid.add_row("Next", escape(waiting_for(t)) if not t.over else f"nothing: the game is {t.result}")
    mode = f"virtual, seed {session.seed}" if session.virtual else "physical"
    title = f"{g.title} · {setup.difficulty} (A..{setup.top}) · {mode}"
    return Panel(grid, title=escape(title), title_align="left", expand=False)


def help_view(topic: str | None) -> RichTable:
    t = RichTable(title="Commands" if topic is None else None, title_justify="left", show_header=False, box=None)
    t.add_column(style="bold")
    t.add_column()
    for word, (usage, what) in HELP.items():
        if topic is None or topic == word:
            t.add_row(escape(usage), escape(what))
    return t


def show(console: Console, reply: Reply) -> None:
    for note in reply.notes:
        style = NOTE_STYLES[note.kind]
        # Soft wrap: the terminal folds long notes, so a file name in one is never cut by a newline.
        console.print(Text(f"{NOTE_MARKS[note.kind]} {note.text}", style=style), soft_wrap=True)
    session = reply.session
    match reply.show:
        case "board":
            console.print(board(session))
        case "summary":
            console.print(board(session))
            console.print(Panel(Text("\n".join(summary_lines(session.game))), title="The game", expand=False))
            if session.game.table.over:
                console.print(Text("type analyse for every decision's cost and the luck of the cards", style="dim"))
        case "analysis":
            if session.analysis is not None:
                console.print(analysis_view.view(session.analysis))
        case "hint":
            h = session.last_hint
            if h is not None and h.result is not None:
                # The best plays only, so the table fits a terminal with the board still above it.
                rows, left_out = hint_rows(h.result, None if reply.whole else HINT_ROWS)
                shown = replace(h.result, moves=rows)
                console.print(render.hint_view(h.position, shown, explain(h.result)))
                if left_out:
                    console.print(Text(f"… and {left_out} more plays: type hint all for the whole table", style="dim"))
        case "advice":
            h = session.last_hint
            if h is not None and h.advice is not None:
                console.print(advice_view(h.advice))
        case "plays":
            s = session.table.round
            if s is not None:
                console.print(render.plays_table(s, legal_plays(s)))
        case "history":
            for line in history_lines(session.game):
                console.print(Text(line), soft_wrap=True)
        case "help":
            console.print(help_view(reply.topic))


PROMPTS = {PLAY: "play", DRAW: "draw", DEAL: "deal", REWARD: "reward", RESHUFFLE: "reshuffle", GAME_OVER: "game over"}


def prompt(session: Session) -> str:
    t = session.table
    word = PROMPTS[t.phase]
    if t.phase == DRAW:
        who, n = t.owed()
        word = "reveal" if who == "reveal" else f"draw {n} for {'you' if who == 'player' else 'the Wolf'}"
    return f"[round {round_number(t)}] {word}> "


# ---------------------------------------------------------------------------------------------
# The loop


Reader = Callable[[str], str | None]  # a prompt → the next line, or None at the end of input


def stream_reader(lines: Iterable[str], console: Console) -> Reader:
    """Lines from a stream (a file, a pipe, a test's list), echoed after the prompt like a terminal."""
    it: Iterator[str] = iter(lines)

    def read(text: str) -> str | None:
        line = next(it, None)
        if line is None:
            return None
        line = line.rstrip("\r\n")
        console.print(Text(text + line, style="dim"))
        return line

    return read


def terminal_reader(console: Console) -> Reader:
    def read(text: str) -> str | None:
        while True:
            try:
                return input(text)
            except EOFError:
                console.print()
                return None
            except KeyboardInterrupt:
                console.print("\n(type quit to leave)")

    return read


def run_session(reader: Reader, console: Console, first: Reply, *, interactive: bool = False) -> Session:
    """Show the first reply, then read and execute lines until quit or the end of input."""
    show(console, first)
    session = first.session
    completer = _Completer(session) if interactive else None
    if completer is not None:
        completer.install()
    while True:
        if completer is not None:
            completer.session = session
        line = reader(prompt(session))
        if line is None:
            _at_end(reader, console, session, interactive)
            return session
        try:
            reply = execute(
                session,
                line,
                thinking=(lambda: console.status("thinking… (Ctrl-C stops)")) if interactive else nullcontext,
            )
        except KeyboardInterrupt:
            console.print(Text("✗ interrupted: nothing changed", style="bold red"))
            continue
        show(console, reply)
        session = reply.session
        if reply.quit:
            return session


def _at_end(reader: Reader, console: Console, session: Session, interactive: bool) -> None:
    """The input ended (Ctrl-D): offer to save what is unsaved, or at least say so."""
    n = session.unsaved()
    if not n:
        return
    declined = False
    if interactive and session.save_path:
        # The file it was loaded from or saved to is offered (found by a review: Enter left the
        # plays made since unsaved, where `save` alone would have written them there).
        said = (reader(f"save the game to {session.save_path}? (Enter: yes; n: no; or another file): ") or "").strip()
        declined = said.lower() in ("n", "no")
        if not declined and _saved(console, session, f"save {said}".strip()):
            return
    if interactive and not declined:
        # Asked again until a save is written (found by a review: a folder that did not exist,
        # and the game was gone), or the player leaves without one.
        while name := (reader("save the game to (Enter: leave without saving): ") or "").strip():
            if _saved(console, session, f"save {name}"):
                return
    console.print(Text(f"! {session.unsaved_words()}", style="yellow"))


def _saved(console: Console, session: Session, line: str) -> bool:
    """`save …` done and shown; whether the game was written."""
    reply = execute(session, line)
    show(console, reply)
    return reply.session.unsaved() == 0


class _Completer:
    """Tab completion of whole lines (plays, rewards, commands) with readline, where it exists."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._matches: list[str] = []

    def install(self) -> None:
        try:
            import readline
        except ImportError:  # Windows without pyreadline, or a Python built without it
            return
        readline.set_completer_delims("")
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
        readline.set_completer(self.complete)

    def complete(self, text: str, state: int) -> str | None:
        if state == 0:
            self._matches = [c for c in completions(self.session) if c.startswith(text.lstrip())]
        return self._matches[state] if state < len(self._matches) else None
