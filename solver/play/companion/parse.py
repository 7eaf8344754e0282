"""The companion's command language: one typed line as a `Command`, and the cards, counts and
seconds typed in it. Nothing here knows a session; a line that means nothing is a CompanionError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from solver.core.cards import CardError, parse_member, parse_value
from solver.core.plays import PlayError, parse_play
from solver.core.rounds import Reward
from solver.play.driver import Deal, Draw, Move, Reshuffle, Setup, Step, Take

# game: ranked by the game values the hint uses; the others play continuations out (reward.py).
REWARD_POLICIES = ("game", "greedy", "best", "random")


class CompanionError(ValueError):
    """A line that cannot be done, or a save file that cannot be read: one sentence saying why."""


WORDS = (
    "deal", "draw", "reveal", "reshuffle", "reserve", "revive", "fold", "hint", "why", "reward", "plays",
    "undo", "status", "history", "analyse", "save", "export", "help", "quit", "exit",
)  # fmt: skip


SPELLINGS = {"analyze": "analyse"}  # other spellings of a command word


@dataclass(frozen=True)
class Command:
    word: str  # "step", one of WORDS, or "" for an empty line
    step: Step | None = None
    args: tuple[str, ...] = ()

    @property
    def said(self) -> str:
        """The word a step was typed with: a draw and a reveal are one kind of step, told apart by it."""
        return self.args[0] if self.word == "step" and self.args else ""


def _an(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _cards(text: str, top: int, difficulty: str, where: str) -> tuple[int, ...]:
    out = []
    # "—" is how an empty side is shown (step_text, history): typed back, it means no card.
    for token in (t for t in re.split(r"[\s,]+", text.strip()) if t and t not in ("-", "—")):
        try:
            v = parse_value(token)
        except CardError as e:
            raise CompanionError(f"{where}: {e}") from None
        if v > top:
            raise CompanionError(f"{where}: there is no {v} in {_an(difficulty)} deck (A..{top})")
        out.append(v)
    return tuple(out)


STEP_WORDS = ("deal", "draw", "reveal", "reshuffle", "reserve", "revive")  # the words parse_command steps by


def meant_as_step(line: str) -> bool:
    """Whether a line (one parse_command could not read) was meant as a step of the game: a word
    of a step, a fold, or a play's notation."""
    text = line.strip()
    word = text.partition(" ")[0].lower()
    return word in STEP_WORDS or _a_play(word, text)


def _a_play(word: str, text: str) -> bool:
    """A fold, or a play in its notation (4+2=6, 9>6)."""
    return word == "fold" or "=" in text or ">" in text


def parse_command(line: str, setup: Setup) -> Command:
    """One typed line as a command; CompanionError for a line that means nothing."""
    text = line.strip()
    if not text or text.startswith("#"):
        return Command("")
    word, _, rest = text.partition(" ")
    word, rest = word.lower(), rest.strip()
    top, diff = setup.top, setup.difficulty
    if word == "deal":
        if rest.count("/") != 1:
            raise CompanionError("write the deal as your cards / the Wolf's cards, e.g. deal 3 7 9 A / 6 2 2 8")
        mine, wolf = rest.split("/")
        return Command(
            "step", Deal(tuple(sorted(_cards(mine, top, diff, "deal"))), tuple(sorted(_cards(wolf, top, diff, "deal"))))
        )
    if word in ("draw", "reveal"):
        cards = _cards(rest, top, diff, word)
        if not cards:
            raise CompanionError(f"{word}: name the card(s), e.g. {word} 5")
        return Command("step", Draw(cards), args=(word,))
    if word == "reshuffle":
        return Command("step", Reshuffle())
    if word == "reserve":
        cards = _cards(rest, top, diff, "reserve")
        if len(cards) != 1:
            raise CompanionError("reserve: name one card of the winning hand, e.g. reserve 5")
        return Command("step", Take(Reward("reserve", value=cards[0])))
    if word == "revive":
        try:
            member = parse_member(rest)
        except CardError as e:
            raise CompanionError(f"revive: {e}") from None
        return Command("step", Take(Reward("revive", member=member)))
    word = SPELLINGS.get(word, word)
    if word in ("save", "export") and rest:
        # The rest of the line is the file's name, spaces and all (found by a review: "save my
        # game.json" saved to "my"), quotes around it taken off as a shell would.
        name = rest[1:-1] if len(rest) >= 2 and rest[0] == rest[-1] and rest[0] in "\"'" else rest
        if not name.strip():
            raise CompanionError(f"{word}: an empty name names no file, e.g. {word} game.json")
        return Command(word, args=(name,))
    if word in WORDS and word != "fold":
        return Command("exit" if word == "quit" else word, args=tuple(rest.split()))
    if _a_play(word, text):
        try:
            play = parse_play(text)
        except PlayError as e:
            raise CompanionError(str(e)) from None
        beyond = [v for v in (*play.hand, *play.reserve, *play.wolf) if v > top]
        if beyond:  # said as a deal or a draw says it, not "you hold no 10"
            raise CompanionError(f"{text}: there is no {beyond[0]} in {_an(diff)} deck (A..{top})")
        return Command("step", Move(play))
    raise CompanionError(f"unknown command {word!r}: type a play (e.g. 4+2=6), or help")


def count_arg(args: tuple[str, ...], word: str) -> int:
    if not args:
        return 1
    if len(args) == 1 and args[0].isdigit() and int(args[0]) >= 1:
        return int(args[0])
    raise CompanionError(f"{word}: give a number of steps, e.g. {word} 2")


def seconds_arg(args: tuple[str, ...], default: float, word: str = "hint") -> float:
    if not args:
        return default
    try:
        seconds = float(args[0])
    except ValueError:
        seconds = 0.0
    if len(args) > 1 or not 0 < seconds <= 3600:
        also = " (or hint all for every play)" if word == "hint" else " a decision"
        raise CompanionError(f"{word}: give the seconds it may take, e.g. {word} 30{also}")
    return seconds


def reward_args(args: tuple[str, ...], policy: str, samples: int) -> tuple[str, int]:
    """reward's arguments, in any order: a policy and a sample count, each defaulting to the given one."""
    for a in args:
        if a.lower() in REWARD_POLICIES:
            policy = a.lower()
        elif a.isdigit() and int(a) >= 2:
            samples = int(a)
        else:
            raise CompanionError(
                f"reward: {a!r} is neither a policy ({', '.join(REWARD_POLICIES)}) nor a sample count ≥ 2"
            )
    return policy, samples
