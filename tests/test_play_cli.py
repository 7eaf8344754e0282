"""`lobo-hint play` through its real command loop: whole scripted games, physical entry, save and
resume, refused save files, and one run under a real terminal (a pty)."""

from __future__ import annotations

import io
import json
import os
import re
import select
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cli.main import app, dispatch
from cli.table_view import board, prompt, run_session, stream_reader
from solver.core.rules import WON
from solver.play.companion import HINT_ROWS, Reply, Session, Settings, export_json, load_file, start
from solver.play.driver import GAME_OVER, Deal, Draw, Move, Setup, Table, Take
from solver.play.policies import GreedyPolicy
from solver.play.simulate import GameRecord, play_game
from solver.words.board import cards_text, party_text

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=100, highlight=False, color_system=None), out


def greedy_game(game: str, difficulty: str, want: str, seeds: range = range(1, 400)) -> GameRecord:
    """The first seed whose game the greedy policy ends in `want` (won or lost)."""
    setup = Setup(game, difficulty)
    for seed in seeds:
        rec = play_game(setup, GreedyPolicy(), seed, 0)
        if rec.result == want:
            return rec
    raise AssertionError(f"no {want} {game} game among seeds {seeds}")  # pragma: no cover


def typed(step: object, *, physical: bool) -> str | None:
    """What a user types for a step; None for the deck's own steps in a virtual game."""
    match step:
        case Move(play):
            return str(play)
        case Take(reward):
            return str(reward)
        case Deal(player, wolf) if physical:
            return f"deal {' '.join(map(str, player))} / {' '.join(map(str, wolf))}"
        case Draw(cards) if physical:
            return "draw " + " ".join(map(str, cards))
    return "reshuffle" if physical else None


def script(rec: GameRecord, *, physical: bool = False) -> list[str]:
    return [line for s in rec.steps if (line := typed(s, physical=physical)) is not None]


def drive(setup: Setup, seed: int | None, lines: list[str]) -> tuple[Session, str]:
    out_console, out = console()
    first = start(setup, seed, Settings(hint_seconds=2.0, reward_samples=10))
    session = run_session(stream_reader(lines, out_console), out_console, first)
    return session, out.getvalue()


def expected_score(tables: tuple[Table, ...]) -> tuple[str, int | None, tuple[int, int]]:
    """The result and score from the rules alone, walking the tables (not the companion's words):
    vanguard: the winning hand plus 10 a face-up member; lobo: the points of every round."""
    end = tables[-1]
    if end.setup.game == "vanguard":
        s = end.round
        assert s is not None
        if end.result == "won":
            assert s.final and s.outcome == WON
            return "won", sum(s.hand) + 10 * len(s.party), (0, 0)
        return "lost", None, (0, 0)
    you = wolf = 0
    for before, after in pairwise(tables):
        if before.phase in ("play", "draw") and after.phase not in ("play", "draw"):
            s = after.round
            assert s is not None
            if s.outcome == WON:
                you += sum(s.hand)
            else:
                wolf += sum(s.wolf)
    return ("won" if you >= 100 else "lost"), you, (you, wolf)


# ---------------------------------------------------------------------------------------------
# Whole virtual games through the loop


@pytest.mark.parametrize(
    ("game", "difficulty", "want"),
    [
        ("vanguard", "standard", "won"),
        ("vanguard", "standard", "lost"),
        ("lobo", "easy", "won"),
        ("lobo", "standard", "lost"),
    ],
)
def test_whole_virtual_game(game: str, difficulty: str, want: str) -> None:
    rec = greedy_game(game, difficulty, want, range(1, 1200) if game == "lobo" and want == "won" else range(1, 400))
    lines = script(rec)
    session, text = drive(rec.setup, rec.seed, [*lines, "status", "quit"])
    t = session.table
    assert t.phase == GAME_OVER and session.game.steps == rec.steps
    result, score, points = expected_score(session.game.tables)
    assert (t.result, t.score) == (result, score) == (rec.result, rec.score) == (want, score)
    if game == "lobo":
        assert t.points == points == rec.points
        assert f"game {want}: you {points[0]}, the Wolf {points[1]} (first to 100)" in text
    elif want == "won":
        assert f"game won: score {score} = hand" in text
    else:
        assert "game lost" in text
    assert "✗" not in text  # no line of the script was refused
    # The last round's hands stay on the table at the end (a review: "—" beside the score).
    assert t.round is not None and t.last_hands == (t.round.hand, t.round.wolf)
    if t.round.hand:
        assert f"{cards_text(t.round.hand)}   (at the end, total {sum(t.round.hand)})" in text
    assert "The game" in text and " played: " in text  # the summary


def test_hint_why_and_reward_in_the_loop() -> None:
    rec = greedy_game("vanguard", "standard", "won")
    lines = script(rec)
    take = next(i for i, s in enumerate(lines) if s.startswith(("reserve", "revive")))
    # reward advice where a reward is due, and a hint with its explanation in the final round
    lines = [*lines[:take], "reward", "why", *lines[take:-1], "hint 3", "why", lines[-1], "quit"]
    session, text = drive(rec.setup, rec.seed, lines)
    assert session.table.result == "won"
    assert "Rewards by chance to win the game" in text
    assert "Best play:" in text and "starts the best finish" in text


# ---------------------------------------------------------------------------------------------
# A physical game: every card typed, with mistakes on the way


def test_physical_game_with_mistakes_through_the_loop() -> None:
    rec = greedy_game("vanguard", "standard", "won")
    lines = script(rec, physical=True)
    assert lines[0].startswith("deal ")
    deal = rec.steps[0]
    assert isinstance(deal, Deal)
    mistakes = {
        0: ["draw 5", "4+2=6"],  # out of phase: the table waits for the deal
        1: ["5=5" if 5 not in deal.player else "8=8", "9+=3", f"K={deal.wolf[0]}", "deal 1 2 3 4 / 5 6 7 8"],
    }
    script_lines: list[str] = []
    for i, line in enumerate(lines):
        script_lines += mistakes.get(i, [])
        script_lines.append(line)
    # Four copies of a 10 do not exist in a standard deck, nor five of anything.
    script_lines.insert(0, "deal 10 1 1 1 / 1 1 2 2")
    script_lines.insert(0, "deal 1 1 1 1 / 1 2 2 2")
    session, text = drive(rec.setup, None, [*script_lines, "quit"])
    assert (session.table.result, session.table.score) == (rec.result, rec.score)
    assert session.game.steps == rec.steps  # the mistakes left no trace
    errors = [line for line in text.splitlines() if line.startswith("✗")]
    assert len(errors) == sum(len(m) for m in mistakes.values()) + 2
    for words in ("no 1 can come from the pile", "no 10 in a standard deck", "not time for a draw", "not time for a play",
                  "cannot read play", "only allowed in the final round", "not time for a deal"):  # fmt: skip
        assert words in text, words


def test_lobo_physical_game_through_the_loop() -> None:
    rec = greedy_game("lobo", "standard", "lost")
    session, text = drive(rec.setup, None, [*script(rec, physical=True), "quit"])
    assert (session.table.result, session.table.points) == (rec.result, rec.points)
    assert "shuffle the discards into the pile, then type reshuffle" in text
    assert "✗" not in text


# ---------------------------------------------------------------------------------------------
# Save, load, continue


@pytest.mark.parametrize("physical", [False, True])
def test_save_load_continue_ends_as_an_uninterrupted_game(tmp_path: Path, physical: bool) -> None:
    rec = greedy_game("vanguard", "standard", "won")
    lines = script(rec, physical=physical)
    seed = None if physical else rec.seed
    whole, _ = drive(rec.setup, seed, [*lines, "quit"])
    path = tmp_path / "game.json"
    half = len(lines) // 2
    first, text = drive(rec.setup, seed, [*lines[:half], f"save {path}", "quit"])
    assert f"saved to {path}" in text and not first.table.over
    resumed = load_file(path)
    assert resumed.game == first.game
    out_console, _ = console()
    end = run_session(stream_reader([*lines[half:], "quit"], out_console), out_console, Reply(resumed, show="board"))
    assert end.game == whole.game and end.table == whole.table
    # The same through the command line: lobo-hint play --load FILE, the rest on stdin.
    r = runner.invoke(app, ["play", "--load", str(path)], input="\n".join(lines[half:]) + "\nquit\n")
    assert r.exit_code == 0, r.output
    assert f"resumed {path}" in r.stdout and f"game won: score {rec.score}" in r.stdout


def _segment(text: str, command: str) -> str:
    """What the loop printed for one command: from its echoed prompt line to the next prompt."""
    after = text.split(f"> {command}\n", 1)[1]
    return after.split("\n[round ", 1)[0]


SEED3_FINAL = ["9=2+7", "9=2+7", "8=3+5", "6=6", "reserve 3", "6=2+4", "1=1", "3+4=7", "fold"]


def test_a_final_round_hint_fits_a_terminal_and_hint_all_shows_every_play() -> None:
    # The final round of seed 3 begins with 20 legal plays.
    _, text = drive(Setup("vanguard", "standard"), 3, [*SEED3_FINAL, "hint", "hint all", "quit", "quit"])
    hint = _segment(text, "hint")
    rows = [line for line in hint.splitlines() if line.startswith("│ ")]
    assert len(rows) == HINT_ROWS and "3+3r=6" in rows[0] and "best" in rows[0] and "≈ best" not in rows[0]
    assert "… and 14 more plays: type hint all for the whole table" in hint
    # Best play, reason, finish, the table's 3 header lines and its bottom, the count line: under the
    # board (12 lines) and the prompt, in a 40-line terminal.
    assert len(hint.strip("\n").splitlines()) <= 16
    whole = _segment(text, "hint all")
    assert len([line for line in whole.splitlines() if line.startswith("│ ")]) == 20 and "more plays" not in whole


def test_the_first_prompt_names_round_1() -> None:
    first = start(Setup("vanguard", "standard"), None)
    assert prompt(first.session) == "[round 1] deal> "
    _, text = drive(Setup("vanguard", "standard"), None, ["status", "quit"])
    assert "[round 0]" not in text and "[round 1] deal> status" in text
    assert re.search(r"Round +1 +\(to be dealt\)", text)
    # Between rounds of a physical game, the prompt and the board name the round to be dealt, as the
    # history will once it is dealt.
    rec = greedy_game("vanguard", "standard", "won")
    lines = script(rec, physical=True)
    take = next(i for i, line in enumerate(lines) if line.startswith(("reserve", "revive")))
    session, text = drive(rec.setup, None, [*lines[: take + 1], "quit", "quit"])
    assert prompt(session) == "[round 2] deal> " and "[round 2] deal> quit" in text


def test_quit_at_game_over_with_unsaved_steps_asks_and_eof_says_so(tmp_path: Path) -> None:
    rec = greedy_game("vanguard", "standard", "won")
    lines = script(rec)
    session, text = drive(rec.setup, rec.seed, [*lines, "quit"])  # one quit, then the input ends
    assert session.table.phase == GAME_OVER
    n = session.unsaved()
    assert f"{n} steps are not saved" in text and "left with" not in text
    assert f"! {n} steps are not saved" in text  # the end of input (Ctrl-D) says so too
    _, text = drive(rec.setup, rec.seed, [*lines, "quit", "quit"])
    assert f"left with {n} unsaved steps" in text
    # At a terminal, Ctrl-D at game over offers to save, as it does mid-game.
    path = tmp_path / "over.json"
    script_lines: list[str | None] = [*lines, None, str(path)]

    def reader(_prompt: str) -> str | None:
        return script_lines.pop(0)

    out_console, out = console()
    run_session(reader, out_console, start(rec.setup, rec.seed), interactive=True)
    assert f"saved to {path}" in out.getvalue() and load_file(path).table.phase == GAME_OVER


def test_face_down_members_are_named_alike_in_every_view(tmp_path: Path) -> None:
    session, text = drive(Setup("vanguard", "standard"), 3, [*SEED3_FINAL, "status", "history", "quit", "quit"])
    assert session.table.party == ("Q", "K")
    status = _segment(text, "status")
    assert "Party        Q K face up, J face down" in status
    assert "round 2: lost (J face down)" in _segment(text, "history")
    assert "J turned face down" in text
    # The position as `lobo-hint POSITION.json` shows it (with the hint) says it the same way.
    path = tmp_path / "final.json"
    path.write_text(json.dumps(export_json(session)), encoding="utf-8")
    r = runner.invoke(app, ["hint", str(path), "--time-limit", "5"])
    assert r.exit_code == 0, r.output
    assert "Q K face up, J face down" in r.stdout
    for old in ("J down", "active)", "(2 face up)"):  # the notations this replaced
        assert old not in text and old not in r.stdout, old
    assert party_text(("J", "Q", "K")) == "J Q K face up"
    assert party_text(()) == "J Q K face down"
    out_console, out = console()
    out_console.print(board(session))
    assert "Q K face up, J face down" in out.getvalue()


def test_quit_with_unsaved_steps_asks_again_and_eof_says_so(tmp_path: Path) -> None:
    rec = greedy_game("vanguard", "standard", "won")
    lines = script(rec)
    _, text = drive(rec.setup, rec.seed, [lines[0], "quit", "quit"])
    assert "1 step is not saved" in text and "left with 1 unsaved step" in text
    _, text = drive(rec.setup, rec.seed, [lines[0]])  # the input just ends (Ctrl-D)
    assert "! 1 step is not saved" in text


# ---------------------------------------------------------------------------------------------
# The command line: options and refused save files


def test_play_is_a_command() -> None:
    assert dispatch(["play", "--virtual"]) == ["play", "--virtual"]
    r = runner.invoke(app, ["play", "--help"])
    assert r.exit_code == 0 and "Example: lobo-hint play --virtual --seed 3" in r.stdout


def test_virtual_game_on_stdin() -> None:
    r = runner.invoke(app, ["play", "--virtual", "--seed", "3", "--game", "vanguard"], input="help\nstatus\nquit\n")
    assert r.exit_code == 0, r.output
    for words in (
        "virtual game: the program shuffles (seed 3)",
        "You",
        "Wolf",
        "Party",
        "J Q K face up",
        "Unseen",
        "Final round",
    ):
        assert words in r.stdout, words


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--seed", "3"], "--seed: only a virtual game has a seed"),
        (["--game", "chess"], "--game: 'chess'"),
        (["--difficulty", "brutal"], "--difficulty: 'brutal'"),
        (["--target", "50"], "--target: only lobo"),
        (["--game", "lobo", "--target", "0"], "--target: the target score must be from 1"),
        (["--time-limit", "0"], "--time-limit"),
        (["--load", "x.json", "--virtual"], "--load: the saved game keeps its own settings"),
        (["--load", "no-such-file.json"], "no-such-file.json: cannot read"),
    ],
)
def test_bad_options_exit_2(args: list[str], words: str) -> None:
    r = runner.invoke(app, ["play", *args], input="quit\n")
    assert r.exit_code == 2 and words in r.stderr and r.stdout == "", (r.stdout, r.stderr)


def _save_text(tmp_path: Path) -> str:
    rec = greedy_game("vanguard", "standard", "won")
    path = tmp_path / "g.json"
    drive(rec.setup, rec.seed, [*script(rec)[:4], f"save {path}", "quit"])
    return path.read_text(encoding="utf-8")


def test_truncated_or_nonsense_save_files_exit_2(tmp_path: Path) -> None:
    good = _save_text(tmp_path)
    raw = json.loads(good)
    raw["steps"][1]["play"] = "9=9+9"
    bad_cases = {
        "truncated": good[: len(good) // 2],
        "one byte short": good[:-3],
        "nonsense": "all work and no play makes jack a dull boy",
        "edited": json.dumps(raw),
        "not a game": json.dumps({"player": [1], "wolf": [2]}),
        "binary": "\x00\x01\x02",
    }
    for name, text in bad_cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        r = runner.invoke(app, ["play", "--load", str(path)], input="quit\n")
        lines = r.stderr.strip().splitlines()
        assert r.exit_code == 2 and r.stdout == "", (name, r.stdout)
        assert len(lines) == 1 and lines[0].startswith(f"lobo-hint: error: {path}: "), (name, r.stderr)
        assert "Traceback" not in r.stderr


# ---------------------------------------------------------------------------------------------
# A real terminal


ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")


def _read_until(fd: int, proc: subprocess.Popen[bytes], wanted: list[str], seen: bytearray, deadline: float) -> str:
    """Read the pty until every wanted text is on the screen, the process ends, or time runs out."""
    while time.monotonic() < deadline:
        text = ANSI.sub("", seen.decode("utf-8", "replace"))
        if all(w in text for w in wanted):
            return text
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the child closed its side
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    return ANSI.sub("", seen.decode("utf-8", "replace"))


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_under_a_real_terminal() -> None:
    master, slave = os.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": "40", "PYTHONUNBUFFERED": "1"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-c", "from cli.main import main; main()", "play", "--virtual", "--seed", "1"],
        stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    seen = bytearray()
    try:
        deadline = time.monotonic() + 60
        screen = _read_until(master, proc, ["You", "Wolf", "Party", "face up", "play>"], seen, deadline)
        assert "Lobo: The Vanguard" in screen and "virtual, seed 1" in screen, screen
        for words in ("You", "Wolf", "Party", "J Q K face up", "Unseen", "Pile", "Final round"):
            assert words in screen, (words, screen)
        # An analysis asked at once, while the engine still loads beside the prompt: its workers
        # are forked once the loading is done (found by a review: forked amid its imports, they
        # hung for good).
        os.write(master, b"7=7\nanalyse 0.2\n")
        screen = _read_until(master, proc, ["lost by decisions"], seen, time.monotonic() + 90)
        assert "lost by decisions" in screen, screen[-2000:]
        # Tab completion, where readline exists: "hel" + Tab completes to help.
        try:
            import readline  # noqa: F401

            os.write(master, b"hel\t\n")
            screen = _read_until(master, proc, ["this list, or one command"], seen, time.monotonic() + 20)
            assert "this list, or one command" in screen, screen
        except ImportError:  # pragma: no cover
            pass
        os.write(master, b"quit\nquit\n")
        proc.wait(timeout=20)
        assert proc.returncode == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        os.close(master)


def test_a_game_with_a_ruling_given_on_the_command_line() -> None:
    # Found by a review: play had no way to a top-card-visible game, so `reveal` was out of reach.
    r = runner.invoke(
        app, ["play", "--rule", "top_card_visible=true"], input="deal 1 2 3 4 / 5 6 7 8\nreveal 9\nstatus\nquit\nquit\n"
    )
    assert r.exit_code == 0, r.output
    assert "reveal>" in r.stdout and "top card" in r.stdout.lower()
    bad_rules = (
        ("top_card_visible=maybe", "must be true or false"),
        ("colour=red", "unknown key 'colour'"),
        ("top_card_visible", "is not NAME=VALUE"),
        ("hand_size=-1", "must be at least 1, not -1"),  # a review: it said "not a string"
    )
    for bad, said in bad_rules:
        r = runner.invoke(app, ["play", "--rule", bad], input="quit\n")
        assert r.exit_code == 2 and "--rule: " in r.stderr and said in r.stderr, r.stderr
    # Found by a review: lobo took vanguard's final-round rulings and played on as if they were in force.
    for ruling in ("final_threshold=5", "reserve_scores=true"):
        r = runner.invoke(app, ["play", "--game", "lobo", "--rule", ruling], input="quit\n")
        assert r.exit_code == 2 and "lobo has no final round" in r.stderr, r.stderr
        name = ruling.partition("=")[0]
        assert f"--rule {name}:" in r.stderr
    r = runner.invoke(app, ["play", "--game", "lobo", "--rule", "final_threshold=8"], input="quit\n")
    assert r.exit_code == 0, r.output  # its default changes nothing


def test_ctrl_d_offers_the_file_the_game_came_from(tmp_path: Path) -> None:
    """Found by a review: after --load, Ctrl-D asked for a file name, and Enter left unsaved."""
    from cli.table_view import _at_end
    from solver.play.companion import execute

    saved = tmp_path / "g.json"
    s = start(Setup("vanguard", "standard"), 3).session
    s = execute(s, "9=2+7").session
    s = execute(s, f"save {saved}").session
    s = execute(s, "undo").session  # one step since the save: unsaved
    assert s.unsaved()
    asked: list[str] = []
    quiet = Console(file=io.StringIO())
    _at_end(lambda prompt: asked.append(prompt) or "", quiet, s, interactive=True)
    assert asked == [f"save the game to {saved}? (Enter: yes; n: no; or another file): "]
    assert len(json.loads(saved.read_text())["steps"]) == len(s.game.steps)  # the undo saved
    before = saved.read_text()
    _at_end(lambda prompt: "n", quiet, s, interactive=True)  # no: the file as it was
    assert saved.read_text() == before
    # A review: a save that could not be written quit at once, and the game was lost. Asked again.
    answers = iter([str(tmp_path / "nowhere" / "x.json"), str(tmp_path / "y.json")])
    asked.clear()
    fresh = execute(start(Setup("vanguard", "standard"), 3).session, "9=2+7").session
    _at_end(lambda prompt: asked.append(prompt) or next(answers), quiet, fresh, interactive=True)
    assert len(asked) == 2 and asked[1] == "save the game to (Enter: leave without saving): "
    assert json.loads((tmp_path / "y.json").read_text())["steps"]
