"""The Game type (solver/core/games.py, issue 14): its fields against the rules (RULES.md §1, §3,
§4, §6), and no decision anywhere else that compares a game's name."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from solver.core import kernel
from solver.core.games import GAMES, LOBO, VANGUARD, Game, game
from solver.core.position import PositionError, parse_position, with_objective
from solver.core.rounds import race_result, round_points
from solver.core.rules import LOST, WON, final_score, initial_state, vector

ROOT = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------------------------------
# No branch on the game's name outside games.py

NAMES = frozenset(GAMES)
SCANNED = ("solver", "cli", "web")
# games.py is where the names belong; railway is another game; the kernel and the search branch on
# the kernel's numeric codes, and engine.py is left to the lead (its two name tests are listed).
LEFT_OUT = ("solver/core/games.py", "solver/railway/", "solver/core/kernel.py", "solver/search/expectimax.py",
            "solver/search/compiled.py")  # fmt: skip
_JS_COMPARE = re.compile(
    r"""(?:[=!]==?\s*["'](?:vanguard|lobo)["'])|(?:["'](?:vanguard|lobo)["']\s*[=!]==?)|(?:\bcase\s+["'](?:vanguard|lobo)["'])"""
)


def _names_a_game(node: ast.AST | None) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_game(e) for e in node.elts)
    return False


def python_branches(source: str) -> list[int]:
    """Lines that decide by a game's name: a comparison with "vanguard" or "lobo" (==, !=, in a
    literal tuple/list/set, "vanguard" in ...), a `case "lobo":`, or a table keyed by the names."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            (isinstance(node, ast.Compare) and any(_names_a_game(x) for x in (node.left, *node.comparators)))
            or (isinstance(node, ast.MatchValue) and _names_a_game(node.value))
            or (isinstance(node, ast.Dict) and any(_names_a_game(k) for k in node.keys))
        ):
            found.append(getattr(node, "lineno", 0))
    return sorted(found)


def script_branches(source: str) -> list[int]:
    """The same in the page's JavaScript and HTML: == / === / != / !== with a name, `case "lobo":`."""
    return [i for i, line in enumerate(source.splitlines(), start=1) if _JS_COMPARE.search(line)]


def branches(path: Path) -> list[int]:
    text = path.read_text(encoding="utf-8")
    return python_branches(text) if path.suffix == ".py" else script_branches(text)


def scanned_files() -> list[Path]:
    out = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix in (".py", ".js", ".html") and not rel.startswith(LEFT_OUT):
                out.append(path)
    return out


def test_the_detector_finds_each_kind_of_branch_and_nothing_else() -> None:
    """The control: each kind of branch is found; defaults, calls, messages and docs are not."""
    flagged = (
        'if pos.game == "vanguard": pass\n'
        'x = 1 if "lobo" != game else 2\n'
        'ok = game in ("vanguard", "lobo")\n'
        'ok = "vanguard" in names\n'
        'TITLES = {"vanguard": "Lobo: The Vanguard"}\n'
        'match game:\n    case "lobo":\n        pass\n'
    )
    assert python_branches(flagged) == [1, 2, 3, 4, 5, 7]
    fine = (
        '"""Both games: vanguard and lobo."""\n'
        'def f(game: str = "vanguard") -> None:\n'
        '    Setup("vanguard", "standard")\n'
        '    raise ValueError("lobo has no final round")\n'
        "ok = game in GAMES\n"
        'raw = {"game": "lobo"}\n'
    )
    assert python_branches(fine) == []
    script = 'if (b.game === "vanguard") {\nx = f.game.value !== \'lobo\';\n<input value="lobo" data-race>\n'
    assert script_branches(script) == [1, 2]


def test_the_scan_covers_the_python_the_script_and_the_page() -> None:
    rel = {p.relative_to(ROOT).as_posix() for p in scanned_files()}
    assert {"solver/core/position.py", "cli/render.py", "web/views.py", "web/static/app.js"} <= rel
    assert "web/static/index.html" in rel
    assert not any(r.startswith("solver/railway/") for r in rel) and "solver/core/games.py" not in rel


def test_no_decision_outside_games_py_compares_a_game_name() -> None:
    found = {p.relative_to(ROOT).as_posix(): lines for p in scanned_files() if (lines := branches(p))}
    assert found == {}, f"ask solver.core.games.game(name) instead: {found}"


# ---------------------------------------------------------------------------------------------
# The fields


def test_the_lookup() -> None:
    assert GAMES == ("vanguard", "lobo")  # vanguard first: the default game
    assert game("vanguard") is VANGUARD and game("lobo") is LOBO
    with pytest.raises(KeyError, match="'railway' is not one of vanguard, lobo"):
        game("railway")
    with pytest.raises(dataclasses.FrozenInstanceError):
        VANGUARD.copies = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("name", "difficulty", "counts"),
    [
        # cards.py's old numbers: COPIES = {"lobo": 5, "vanguard": 4}, one entry per value 1..top.
        ("lobo", "easy", (5,) * 8),
        ("lobo", "standard", (5,) * 9),
        ("lobo", "hard", (5,) * 10),
        ("vanguard", "easy", (4,) * 8),
        ("vanguard", "standard", (4,) * 9),
        ("vanguard", "hard", (4,) * 10),
    ],
)
def test_decks_by_difficulty(name: str, difficulty: str, counts: tuple[int, ...]) -> None:
    g = game(name)
    assert g.deck_counts(difficulty) == counts
    assert g.deck_size(difficulty) == sum(counts)  # RULES.md §1: 40/45/50 and 32/36/40
    assert parse_position({"game": name, "difficulty": difficulty, "player": [], "wolf": [1]}).unseen == (
        counts[0] - 1,
        *counts[1:],
    )


def test_objectives_and_defaults_are_rules_md_section_6() -> None:
    # §6: game is both games'; win, party, score are vanguard's, points is lobo's; the default of
    # a round that is not final is game, of vanguard's final round score (lobo has none).
    assert VANGUARD.objectives == ("game", "win", "party", "score")
    assert LOBO.objectives == ("game", "points")
    assert (VANGUARD.default_objective(False), VANGUARD.default_objective(True)) == ("game", "score")
    assert (LOBO.default_objective(False), LOBO.default_objective(True)) == ("game", "game")
    assert VANGUARD.allows("party") and not VANGUARD.allows("points") and not LOBO.allows("win")


def test_positions_take_their_default_objective_and_refusals_from_the_game() -> None:
    base = {"player": [1, 2], "wolf": [3]}
    assert parse_position({**base, "draw_pile": {"size": 20}}).objective == "game"
    assert parse_position({**base, "final": True}).objective == "score"
    assert parse_position({**base, "game": "lobo"}).objective == "game"
    with pytest.raises(
        PositionError, match=r"^objective: 'points' does not fit vanguard \(its objectives: game, win, party, score\)$"
    ):
        parse_position({**base, "objective": "points"})
    with pytest.raises(PositionError, match=r"^--objective: 'win' does not fit lobo \(its objectives: game, points\)$"):
        with_objective(parse_position({**base, "game": "lobo"}), "win")
    with pytest.raises(PositionError, match=r'^objective: "best" is not one of game, win, party, points, score$'):
        parse_position({**base, "objective": "best"})


def test_what_each_game_has() -> None:
    # RULES.md §3: lobo has no reserve, no party and no final round; it is a race to 100 whose
    # pile is refilled from the discards. §4: vanguard has all of them, and rewards.
    assert (VANGUARD.has_party, VANGUARD.has_reserve, VANGUARD.has_final_round) == (True, True, True)
    assert (VANGUARD.has_sacrifices, VANGUARD.has_rewards, VANGUARD.reshuffles) == (True, True, False)
    assert (LOBO.has_party, LOBO.has_reserve, LOBO.has_final_round) == (False, False, False)
    assert (LOBO.has_sacrifices, LOBO.has_rewards, LOBO.reshuffles) == (False, False, True)
    assert (LOBO.target, LOBO.is_race) == (100, True)
    assert (VANGUARD.target, VANGUARD.is_race) == (None, False)
    assert (VANGUARD.win_probability, LOBO.win_probability) == (True, False)
    assert (VANGUARD.copies, LOBO.copies) == (4, 5)
    assert (VANGUARD.title, LOBO.title) == ("Lobo: The Vanguard", "Lobo")


def test_the_games_capabilities_reach_the_state_vector() -> None:
    assert VANGUARD.ruleset == kernel.FINAL_ROUND | kernel.SACRIFICES | kernel.PARTY_FALLS
    assert LOBO.ruleset == kernel.RACE
    for g in (VANGUARD, LOBO):
        s = initial_state(parse_position({"game": g.name, "player": [1], "wolf": [2]}))
        assert vector(s)[kernel.RULESET] == g.ruleset


def test_the_kernel_compares_no_game_name() -> None:
    """A variant is a Game record: the kernel, the search and the rollouts branch on the ruleset's
    capabilities (kernel.RULESET), never on which game it is."""
    from pathlib import Path

    import solver.core.kernel
    import solver.search.expectimax
    import solver.search.lookahead
    import solver.search.network
    import solver.search.playouts

    searches = (solver.search.expectimax, solver.search.playouts, solver.search.network, solver.search.lookahead)
    for module in (solver.core.kernel, *searches):
        text = Path(module.__file__ or "").read_text(encoding="utf-8")
        for name in ("K.VANGUARD", "K.LOBO", "== VANGUARD", "== LOBO", "!= VANGUARD", "[GAME]", "K.GAME]"):
            assert name not in text, (module.__name__, name)
    assert not hasattr(kernel, "GAME") and not hasattr(kernel, "VANGUARD") and not hasattr(kernel, "LOBO")


def test_how_a_finished_round_scores() -> None:
    lobo = initial_state(parse_position({"game": "lobo", "player": [3, 4], "wolf": [5, 6]}))
    assert round_points(lobo._replace(outcome=WON)) == (7, 0)
    assert round_points(lobo._replace(outcome=LOST)) == (0, 11)
    with pytest.raises(ValueError, match="not over"):
        round_points(lobo)
    final = initial_state(parse_position({"player": [3, 4], "wolf": [5], "party": ["J", "K"], "final": True}))
    assert round_points(final._replace(outcome=WON)) == (0, 0)  # vanguard scores no rounds
    assert final_score(final._replace(wolf=(), outcome=WON)) == 7 + 20  # hand + 10 per member


@pytest.mark.parametrize(
    ("points", "result"),
    [((99, 99), None), ((100, 3), "won"), ((3, 100), "lost"), ((104, 100), "won"), ((0, 0), None)],
)
def test_what_ends_a_race(points: tuple[int, int], result: str | None) -> None:
    assert race_result(points, 100) == result
    assert race_result((10, 0), 10) == "won"  # a Setup's own target


def test_every_field_has_its_docstring() -> None:
    """The fields say what they mean (ast: a string right after each field of the class)."""
    tree = ast.parse((ROOT / "solver" / "core" / "games.py").read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    documented = {
        a.target.id
        for a, after in zip(cls.body, cls.body[1:], strict=False)
        if isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name)
        and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
    }  # fmt: skip
    assert documented == {f.name for f in dataclasses.fields(Game)}


def test_the_play_kinds_are_listed_in_the_kernels_order() -> None:
    """rules.py reads a kernel move's kind by its index in plays.KINDS: one list for a new kind."""
    from solver.core.plays import KINDS, SEARCH_RANK

    codes = (kernel.PERFECT, kernel.SUM, kernel.SPLIT, kernel.OVER, kernel.SACRIFICE, kernel.FOLD)
    assert [KINDS[c] for c in codes] == ["perfect", "sum", "split", "over", "sacrifice", "fold"]
    assert set(SEARCH_RANK) == set(KINDS) and max(SEARCH_RANK, key=SEARCH_RANK.__getitem__) == "fold"


def test_the_kernels_party_is_the_cards_party() -> None:
    """The search's rewards (kernel.can_revive) and rounds.rewards count the same members."""
    from solver.core.cards import MEMBERS
    from solver.core.rounds import rewards

    assert len(MEMBERS) == kernel.PARTY_SIZE
    for party in ((), ("J",), ("J", "Q"), MEMBERS):
        revives = [r for r in rewards((5,), party) if r.kind == "revive"]
        assert bool(revives) == kernel.can_revive(len(party))
