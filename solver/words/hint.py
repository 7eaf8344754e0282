"""A hint in words: the value column's title and cells, the 95% interval, the win chance, the
bounds, and the note on what the estimates are. The CLI's hint table (cli/render.py) and the web
page's (web/views.py) are made by these functions, so they say the same."""

from __future__ import annotations

from collections.abc import Sequence

from solver.core.games import game
from solver.core.status import FinishStatus, HintStatus
from solver.search import bias
from solver.search.estimate import EVALUATED, LOOKAHEAD, LOOKAHEAD_PLIES, NETWORK_ALONE, ROLLOUTS, TUNED_ROLLOUTS
from solver.search.hint import MIDPOINT, WIN_BY, HintResult, MoveResult
from solver.words.numbers import as_fraction, number_text, signed_text

VALUE_TITLES = {
    "game": "Chance to win the game",
    "win": "Win probability",
    "party": "Party members (−lost)",
    "points": "Points (you − Wolf)",
    "score": "Score of the best finish",
}

# A hint's status in words (the web page shows them plain, the terminal in colour).
STATUS_WORDS: dict[str, str] = {
    HintStatus.OPEN: "open",
    HintStatus.PROVEN_WON: "proven won",
    HintStatus.PROVEN_LOST: "proven lost",
}


def _estimate_note(m: MoveResult) -> str:
    if m.samples is None:
        return ""
    return " mid" if m.method == MIDPOINT else " est."


def _methods(m: MoveResult) -> list[str]:
    """The methods of a row's estimate: one, or the value's and the win probability's (WIN_BY)."""
    return [] if m.method is None else m.method.split(WIN_BY)


AS_ADVISED = "what the play is worth when every later choice follows lobo-hint's advice"


def _looked_ahead() -> str:
    """The lookahead's depth in a player's words (a ply is a draw or a play)."""
    if LOOKAHEAD_PLIES == 2:
        return "every draw that can follow the play and every play after that"
    return f"every draw and every play of the next {LOOKAHEAD_PLIES} steps"


def estimates_note(moves: Sequence[MoveResult], *, sources: bool = True) -> str:
    """What `est.` and `mid` in the table mean: the methods, their deals and what they measure;
    `sources`: with the source file of each method (the terminal's readers can open it, a phone's not)."""

    def src(path: str) -> str:
        return f" ({path})" if sources else ""

    said = {  # the rollouts, and who plays them
        bias.method(TUNED_ROLLOUTS): ("rollouts", " by the rollout policy tuned for the game"),
        bias.method(ROLLOUTS): ("greedy rollouts", ""),
    }
    parts = []
    for method, (what, by) in said.items():
        n = sorted({m.samples or 0 for m in moves if method in _methods(m)})
        if n:
            deals = f"{n[0]}" if len(n) == 1 else f"{n[0]}–{n[-1]}"
            unmeasured = any(method in _methods(m) and m.measured == 0 for m in moves)
            parts.append(
                f"est.: {deals} {what} a play{by}, corrected by how far such rollouts were measured from exact values (they mostly fall short)"
                f"{src('solver/search/bias.py')}; the 95% interval is for {AS_ADVISED}"
                + (
                    " (where no such correction was measured, as under rulings other than the defaults, it is the bounds the search proved)"
                    if unmeasured
                    else ""
                )
            )
    if any(bias.method(LOOKAHEAD) in _methods(m) for m in moves):
        parts.append(
            f"est.: lobo-hint looks at {_looked_ahead()}, then values the positions reached with a network "
            f"trained on its own games{src('solver/search/value_net.py')}, corrected by how far such values were measured "
            "from exact ones; the 95% "
            f"interval is for {AS_ADVISED}"
        )
    if any(NETWORK_ALONE in _methods(m) for m in moves):
        parts.append(
            "est.: the value network alone at the play's child, where the clock ran out before the lookahead "
            "reached the play; its 95% interval is the bounds the search proved"
        )
    if any(EVALUATED in _methods(m) for m in moves):
        parts.append(
            "est.: searched to the end of the round, the rounds after it valued by the evaluator's tables"
            f"{src('solver/search/evaluator.py')}; the 95% interval is their sampling error"
        )
    if any(m.method == MIDPOINT for m in moves):
        parts.append("mid: the middle of the bounds the search proved, nothing sampled")
    if any(m.bounds is not None for m in moves):
        parts.append(
            "Bounds: the least and the most the search proved a play is worth before its budget ran out"
            " (exact: searched to the end"
            + ("; searched: to the round's end, the rounds after it estimated" if _searched(moves) else "")
            + ")"
        )
    return ". ".join(parts) + ("." if parts else "")


def _searched(moves: Sequence[MoveResult]) -> bool:
    """Whether the Bounds column says "searched" somewhere (hint_columns)."""
    return any(m.bounds is None and _unbounded_text(m) == "searched" for m in moves)


def _unbounded_text(m: MoveResult) -> str:
    """The Bounds cell of a play the search finished: "exact", or "searched" where it searched to
    the round's end and the rounds after are estimated."""
    return "searched" if m.value_estimated() else "exact"


def mark_text(m: MoveResult, best: MoveResult | None) -> str:
    """A play's mark beside the best play's: "best", "= best" (both exact and equal: found by a
    review, exact ties were "≈ best", which reads as maybe worse), "≈ best" (cannot be told apart:
    `tied`), or nothing."""
    if best is None:
        return ""
    if m is best or m.play == best.play:
        return "best"
    if not m.tied:
        return ""
    mine, theirs = m.known_range(), best.known_range()  # None: a lost line
    if mine is None or theirs is None:
        equal = mine is None and theirs is None
    else:
        equal = max(mine[1] - mine[0], theirs[1] - theirs[0], abs(mine[0] - theirs[0])) <= 1e-9
    return "= best" if equal else "≈ best"


def ties_note(moves: Sequence[MoveResult], best: MoveResult | None) -> str:
    """What "≈ best" means, where one is shown (found by a review: the page never said)."""
    if not any(mark_text(m, best) == "≈ best" for m in moves):
        return ""
    return "≈ best: cannot be told apart from the best play: their ranges (95% intervals or bounds) overlap."


def blunder_note(result: HintResult, moves: Sequence[MoveResult]) -> str:
    """What "blunder" means, where a play shown is one beside no best: under `game` a round given
    up may still be as good for the game; in a final round (found by a review) or under the
    round's own objectives it is not."""
    if not any(m.blunder and not m.tied and m.play != result.best for m in moves):
        return ""
    return "A blunder gives up a round won for certain" + (
        " (it may still be as good for the game)." if result.objective == "game" else "."
    )


def value_texts(objective: str, moves: Sequence[MoveResult]) -> list[str]:
    """The value column, one rule for the whole table: under `win` every exact value shows its
    fraction when every one has a small one, else none does; under the other objectives every
    value is a whole number or every value has four decimals."""
    exact = [m.value for m in moves if m.value is not None and m.bounds is None]
    chance = objective in ("win", "game")  # a probability: shown in per cent
    fractions = chance and all(as_fraction(v) is not None for v in exact)
    whole = all(float(m.value).is_integer() for m in moves if m.value is not None and m.bounds is None) and all(
        m.bounds is None for m in moves
    )
    texts = []
    for m in moves:
        v = m.value
        if v is None:
            texts.append("lost")
            continue
        if chance:
            text = f"{number_text(100 * v, '6.2f')}%"
            if fractions and m.bounds is None and m.samples is None and 0 < v < 1:  # 0/1 and 1/1 say nothing
                text += f"  ({as_fraction(v)})"
        elif objective == "score":
            text = number_text(v, "g")
        else:
            text = signed_text(v, "+.0f" if whole else "+.4f")
        texts.append(text + (_estimate_note(m) if m.value_estimated() else ""))
    return texts


def interval_text(objective: str, iv: tuple[float, float] | None) -> str:
    if iv is None:
        return ""
    if objective in ("win", "game"):
        return f"{number_text(100 * iv[0], '.1f')}–{number_text(100 * iv[1], '.1f')}%"
    if objective == "score":  # a final round's play left open by the clock: 0 stands for a loss
        return f"{'lost' if iv[0] <= 0 else number_text(iv[0], 'g')} to {number_text(iv[1], 'g')}"
    return f"[{signed_text(iv[0], '+.2f')}, {signed_text(iv[1], '+.2f')}]"


def reward_texts(
    first: bool,
    exact: bool,
    best_exact: bool,
    win_rate: float,
    interval: tuple[float, float],
    difference: float,
    difference_interval: tuple[float, float],
) -> tuple[str, str, str]:
    """A reward's chance, its 95% interval and its difference to the best (paired), as both faces
    write them: an exact value has no interval (found by a review: the page wrote "66.6–66.6%"
    and "-12.3 pts [-12.3, -12.3]" where the terminal wrote "exact" and "-12.3 pts"). The
    difference has no interval where this reward's value and the best's both are exact."""
    lo, hi = interval
    dlo, dhi = difference_interval
    vs = (
        "—" if first
        else f"{100 * difference:+.1f} pts" if exact and best_exact
        else f"{100 * difference:+.1f} pts [{100 * dlo:+.1f}, {100 * dhi:+.1f}]"
    )  # fmt: skip
    return f"{100 * win_rate:.1f}%", "exact" if exact else f"{100 * lo:.1f}–{100 * hi:.1f}%", vs


def win_text(m: MoveResult) -> str:
    if m.win_probability is None:
        return "—"
    text = f"{number_text(100 * m.win_probability, '.1f')}%"
    if m.win_interval is not None:
        text += " mid" if m.method == MIDPOINT else " est."  # the network's estimates sample no deal
    return text


def shown_objective(result: HintResult) -> str:
    """What the value column of a hint shows: its objective, or a final round's score."""
    objective = result.objective
    if result.finish is not None and objective not in ("party", "game"):
        objective = "score"
    if objective == "score" and result.finish is None:
        objective = "win"  # `score` outside a final round is valued by the win probability (the answer's note)
    return objective


def hint_columns(game_name: str, result: HintResult, moves: Sequence[MoveResult]) -> tuple[list[str], list[list[str]]]:
    """The hint table without its Play and mark columns, one rule for every face (the CLI's
    table, the web page's): the titles, and each move's cells."""
    objective = shown_objective(result)
    sampled = any(m.samples is not None and m.interval is not None for m in result.moves)
    show_win = (game(game_name).win_probability or objective == "game") and objective != "win"
    columns = [VALUE_TITLES[objective]]
    if sampled:
        columns.append("95% interval")
    if show_win:
        columns.append("Round won" if objective == "game" else "Win")
    # Bounds only where a budget cut a play's search short: a round searched to its end whose later
    # rounds are estimated has none, and a column of "exact" beside estimates would mislead.
    bounded = any(m.bounds is not None for m in moves)
    if bounded:
        columns.append("Bounds")
    rows = []
    for m, value_text in zip(moves, value_texts(objective, moves), strict=True):
        cells = [value_text]
        if sampled:
            # (an exact value beside a win probability estimated apart has no interval of its own)
            shown = m.interval is not None and m.value_estimated()
            cells.append(interval_text(objective, m.interval) if shown else "")
        if show_win:
            cells.append(win_text(m))
        if bounded:
            # Bounds as the values are written.
            cells.append(_unbounded_text(m) if m.bounds is None else interval_text(objective, m.bounds))
        rows.append(cells)
    return columns, rows


def cut_short(result: HintResult) -> bool:
    """Whether a budget (not the rounds after this one, which are estimated) made the answer inexact."""
    return bool(result.stats.get("stopped")) or any(m.bounds is not None for m in result.moves)


BUDGETS = {"time": "the time limit", "states": "the state budget", "memory": "the memory budget"}


def why_not_exact(result: HintResult) -> str:
    if cut_short(result):
        # Which one (found by a review: --max-memory below what the program itself holds stopped
        # every search at once, and "the budget ran out" did not say which to raise).
        return f"{BUDGETS.get(str(result.stats.get('stopped')), 'the budget')} ran out"
    return "the rounds after this one are valued by estimates"


def explain(result: HintResult) -> str:
    """One line on why the best play is best."""
    if result.best is None:
        return ""
    moves = [m for m in result.moves if m.play != result.best]
    if result.finish is not None:
        f = result.finish
        if f.status == FinishStatus.LOST:
            return "no finish exists: " + (f.proof.reason if f.proof else "the Wolf cannot be cleared")
        if f.status != FinishStatus.WIN:  # (found by a review: a round the clock left open was said lost)
            return f"no finish found before {why_not_exact(result)}: ranked by bounds"
        plays = ", ".join(map(str, f.plays))
        if not f.exact:
            return f"starts the best finish found ({plays}), scoring {f.score}; a better one may exist"
        return f"starts the best finish ({plays}), scoring {f.score}"
    best = next(m for m in result.moves if m.play == result.best)
    if result.status == HintStatus.PROVEN_LOST:
        alone = len(result.moves) == 1  # (found by a review: "loses least" of one play)
        return "the round cannot be won whatever comes" + (
            "; the only play"
            if alone
            else "; this play loses least"
            if result.objective not in ("win", "score")
            else ""
        )

    # Nothing left to chance (the pile known: a whole line), a value is no average (found by a review).
    average = "" if result.line is not None else " on average"

    def said(m: MoveResult) -> str:
        if m.value is None:
            return "loses"
        if result.objective in ("win", "score"):  # `score` outside a final round: the win probability
            return f"wins {number_text(100 * m.value, '.1f')}%"
        if result.objective == "game":
            return f"wins the game {number_text(100 * m.value, '.1f')}%"
        if result.objective == "party":
            return f"costs {number_text(-m.value, '.2f')} party members{average}"
        return f"scores {number_text(m.value, '+.2f' if average else '+g')}{average}"

    def named(m: MoveResult) -> str:
        # An Over says how many cards the Wolf draws, on each play it is said of (found by a
        # review: said once, after two Overs, it read as either's).
        if m.play.kind != "over":
            return str(m.play)
        n = m.play.mine[0] - m.play.wolf[0]
        return f"{m.play} (the Wolf draws {n} card{'' if n == 1 else 's'})"

    line = f"{named(best)} {said(best)}"
    if best.method == MIDPOINT and best.bounds is not None:
        # Found by a review: "wins the game 50.2%" was the middle of bounds 0.3-100%. A state budget
        # with no deals estimates nothing: the best play is the one whose worst case is best.
        objective = shown_objective(result)
        line = (
            f"{named(best)} has the best worst case: {interval_text(objective, best.bounds)} "
            "(the state budget ran out and nothing was estimated: --samples N estimates the open plays)"
        )
    elif not result.exact and best.value_estimated():  # (a play the search finished is exact, whatever the rest)
        line += (
            " (estimate: the search was cut short)"
            if cut_short(result)
            else " (estimate: the rounds after this one are estimated)"
        )
    rival = next((m for m in moves if m.play.kind != "fold"), None)
    if rival is not None:
        tie = rival.tied
        alike = "is as good" if result.exact else "cannot be told apart from it"
        line += f"; {rival.play if tie else named(rival)} {alike if tie else said(rival)}"
    return line


__all__ = [
    "VALUE_TITLES",
    "blunder_note",
    "estimates_note",
    "explain",
    "hint_columns",
    "interval_text",
    "mark_text",
    "reward_texts",
    "shown_objective",
    "ties_note",
    "value_texts",
    "win_text",
]
