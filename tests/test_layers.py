"""Which module may import which (issue 14): read from the source, so a new import that breaks a
layer fails here before it becomes a cycle or a dependency of the checker on what it checks.

Imports under `if TYPE_CHECKING:` are left out: they are for the type checker only and never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def imports(path: Path, here: str | None = None) -> set[tuple[str, str | None]]:
    """(module, name) for every import the file runs, at the top or inside a function; name None
    for `import module`. Relative imports are made absolute (`here`: the file's module name)."""
    here = here or module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[tuple[str, str | None]] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update((a.name, None) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            found.update((base, a.name) for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def modules_imported(path: Path) -> set[str]:
    """The modules a file imports from, with `from package import module` counted as the module."""
    out = set()
    for module, name in imports(path):
        out.add(module)
        if name is not None and (ROOT / module.replace(".", "/") / f"{name}.py").exists():
            out.add(f"{module}.{name}")
    return out


def test_the_collector_sees_relative_late_and_skips_type_checking_imports(tmp_path: Path) -> None:
    """The control: the collector itself, on a file with each kind of import."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import render\n"
        "from .main import app\n"
        "if TYPE_CHECKING:\n"
        "    from solver.search.hint import HintResult\n"
        "def f():\n"
        "    import solver.finish.verify\n",
        encoding="utf-8",
    )
    found = imports(probe, "cli.probe")
    assert ("cli", "render") in found and ("cli.main", "app") in found
    assert ("solver.finish.verify", None) in found
    assert not any(m.startswith("solver.search") for m, _ in found)


# ---------------------------------------------------------------------------------------------
# The companion package: parse, prose, session, files, commands, each using only those before it

COMPANION = ROOT / "solver" / "play" / "companion"
COMPANION_ORDER = ["parse", "prose", "session", "files", "commands"]


@pytest.mark.parametrize("name", COMPANION_ORDER)
def test_companion_modules_import_only_the_ones_before_them(name: str) -> None:
    allowed = {f"solver.play.companion.{m}" for m in COMPANION_ORDER[: COMPANION_ORDER.index(name)]}
    used = {m for m in modules_imported(COMPANION / f"{name}.py") if m.startswith("solver.play.companion")}
    assert used <= allowed, f"{name}.py imports {sorted(used - allowed)}"


def test_companion_package_still_exports_what_its_users_import() -> None:
    import solver.play.companion as companion

    for user in (ROOT / "cli" / "play.py", ROOT / "tests" / "test_companion.py", ROOT / "tests" / "test_play_cli.py"):
        for module, name in imports(user):
            if module == "solver.play.companion":
                assert name in companion.__all__ and hasattr(companion, name), (user.name, name)


# ---------------------------------------------------------------------------------------------
# cli/: main builds the app from the command modules; none of them imports main

CLI = ROOT / "cli"


@pytest.mark.parametrize("path", sorted(p for p in CLI.glob("*.py") if p.name != "main.py"), ids=lambda p: p.name)
def test_no_cli_module_imports_main(path: Path) -> None:
    assert "cli.main" not in modules_imported(path)


def test_cli_common_imports_no_command_module() -> None:
    assert {m for m in modules_imported(CLI / "common.py") if m.startswith("cli")} == set()


def test_the_command_words_are_the_registered_commands() -> None:
    """dispatch's words (the "not a command" list) are read from the app: the same as Click's."""
    import typer.main

    from cli.main import COMMANDS, app

    group = typer.main.get_command(app)
    assert isinstance(group, typer.main.TyperGroup)
    assert set(group.commands) == COMMANDS
    assert {"hint", "batch", "moves", "simulate", "play", "railway"} <= COMMANDS
    assert "lobo" not in COMMANDS  # a railway subcommand, not a word of its own
    # --help lists them in the order they were always listed: the modules' order in main.
    order = "hint finish check graph batch generate moves validate schema rules simulate replay report reward play serve railway"
    assert list(group.commands) == order.split()


# ---------------------------------------------------------------------------------------------
# finish: the checker (verify.py) and what it checks (finisher.py, the searches) stay apart

FINISH = ROOT / "solver" / "finish"
# What verify.py runs today: the cards, positions and plays, the rules it replays by, and the
# status words (solver/core/status.py, constants only). Its brute force is its own.
VERIFY_MAY_USE = {
    ("solver.core.plays", "Play"),
    ("solver.core.plays", "make_play"),
    ("solver.core.position", "Position"),
    *(
        ("solver.core.rules", name)
        for name in (
            "WON",
            "State",
            "apply",
            "apply_outcome",
            "chance_outcomes",
            "final_score",
            "initial_state",
            "legal_plays",
            "why_illegal",
        )
    ),
}


def test_verify_imports_no_more_of_the_solver_than_it_did() -> None:
    used = {(m, n) for m, n in imports(FINISH / "verify.py") if m.startswith("solver")}
    used = {(m, n) for m, n in used if m != "solver.core.status"}
    assert used <= VERIFY_MAY_USE, sorted(used - VERIFY_MAY_USE)


def test_the_finisher_does_not_import_its_checker() -> None:
    assert "solver.finish.verify" not in modules_imported(FINISH / "finisher.py")
    assert ("solver.finish", "verify") not in imports(FINISH / "finisher.py")


def test_solving_and_judging_a_finish_never_loads_the_checker() -> None:
    """At run time too, through every module the finisher loads (a fresh interpreter)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from solver.core.plays import parse_plays\n"
        "from solver.core.position import parse_position\n"
        "from solver.core.rules import initial_state\n"
        "from solver.finish.finisher import judge_finish, solve_finish\n"
        "s = initial_state(parse_position({'player': [9, 4, 5, 7], 'wolf': [9, 7], 'final': True}))\n"
        "assert solve_finish(s).status == 'win'\n"
        "j = judge_finish(s, tuple(parse_plays('9=9, 7=7')))\n"
        "assert j.legal and j.clears, j\n"
        "assert not judge_finish(s, tuple(parse_plays('9=4+4'))).legal\n"
        "print(sorted(m for m in sys.modules if m.startswith('solver.finish')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['solver.finish', 'solver.finish.finisher']"


# ---------------------------------------------------------------------------------------------
# search: the estimates' rollouts are the search layer's own, shared with the greedy policy

SEARCH = ROOT / "solver" / "search"


def test_estimate_imports_nothing_from_the_play_layer() -> None:
    assert not {m for m in modules_imported(SEARCH / "estimate.py") if m.startswith("solver.play")}
    assert not {m for m in modules_imported(SEARCH / "rollout.py") if not m.startswith(("solver.core", "__future__"))}


def test_the_greedy_policy_and_the_rollouts_play_one_rule() -> None:
    # The rule is the kernel's (kernel.greedy, kernel.play_out): rollout.py's Python face and the
    # estimates' bulk rollouts (playouts.py) call it, and nothing else chooses a greedy play.
    from solver.play import policies
    from solver.search import rollout

    assert policies.rollout is rollout.rollout and policies.greedy_play is rollout.greedy_play
    for module in ("rollout.py", "playouts.py"):
        assert "play_out(" in (SEARCH / module).read_text()
    assert "kernel.greedy(" in (SEARCH / "rollout.py").read_text()
    assert policies.GREEDY_RULE.startswith(rollout.GREEDY_PLAY_RULE + " Reward: ")


# ---------------------------------------------------------------------------------------------
# A module's private names (a leading underscore) are its own: another module that needs one asks
# for it to be made public (web/ used cli.render's and solver.batch.workers' once)

PACKAGES = ("solver", "cli", "web")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_names_used(path: Path, here: str | None = None) -> list[str]:
    """Private names of other project modules that the file imports (`from m import _x`) or reads
    off a module it imported (`from pkg import m` / `import pkg.m as m`, then `m._x`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: dict[str, str] = {}
    used = [f"{m}.{n}" for m, n in imports(path, here) if m.split(".")[0] in PACKAGES and n and _private(n)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update((a.asname, a.name) for a in node.names if a.asname and a.name.split(".")[0] in PACKAGES)
    for module, name in imports(path, here):
        if name and module.split(".")[0] in PACKAGES and (ROOT / module.replace(".", "/") / f"{name}.py").exists():
            modules[name] = f"{module}.{name}"
    used += [
        f"{modules[node.value.id]}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        and node.value.id in modules and _private(node.attr)
    ]  # fmt: skip
    return sorted(used)


def test_the_private_name_finder_sees_both_kinds(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from cli import render\n"
        "import solver.batch.workers as w\n"
        "from solver.core.cover import counts as _counts\n"
        "from solver.search.hint import _final_round\n"
        "render._value_texts('win', [])\n"
        "w._end_with_parent(None)\n"
        "render.value_texts('win', [])\n",
        encoding="utf-8",
    )
    assert private_names_used(probe, "web.probe") == [
        "cli.render._value_texts",
        "solver.batch.workers._end_with_parent",
        "solver.search.hint._final_round",
    ]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_uses_another_modules_private_names(package: str) -> None:
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        here = module_name(path)
        theirs = [u for u in private_names_used(path) if not u.startswith(f"{here}.")]
        if theirs:
            found[path.relative_to(ROOT).as_posix()] = theirs
    assert found == {}


# ---------------------------------------------------------------------------------------------
# The words both faces show (issue 22): solver/words/ has them, so web/ reads nothing of cli/, and
# the words read nothing of either face

WEB = ROOT / "web"
WORDS = ROOT / "solver" / "words"
FACES = ("cli", "web")


def imported_from(path: Path, packages: tuple[str, ...], here: str | None = None) -> set[str]:
    """The modules of these packages that the file imports from (inside functions too)."""
    return {m for m, _ in imports(path, here) if m.split(".")[0] in packages}


@pytest.mark.parametrize("path", sorted(WEB.rglob("*.py")), ids=lambda p: p.relative_to(WEB).as_posix())
def test_no_web_module_imports_the_cli(path: Path) -> None:
    assert imported_from(path, ("cli",)) == set()


@pytest.mark.parametrize("path", sorted(WORDS.rglob("*.py")), ids=lambda p: p.relative_to(WORDS).as_posix())
def test_the_words_import_neither_face(path: Path) -> None:
    assert imported_from(path, FACES) == set()


def test_the_layers_below_the_words_use_only_their_numbers() -> None:
    """The search's own sentences (hint.explain) take numbers.py, which imports nothing of the
    project: the rest of solver/words/ imports the search, and a cycle would follow."""
    below = [p for top in ("core", "search", "finish", "play") for p in sorted((ROOT / "solver" / top).rglob("*.py"))]
    used = {m for p in below for m in modules_imported(p) if m.startswith("solver.words")}
    assert used <= {"solver.words.numbers"}, sorted(used)
    assert imported_from(WORDS / "numbers.py", ("solver", *FACES)) == set()
    assert imported_from(WORDS / "__init__.py", ("solver", *FACES)) == set()


def test_the_face_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    """The control: a late `from cli import render`, as web/views.py's once was, is caught."""
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from cli import render\n    import cli.main\n", encoding="utf-8")
    assert imported_from(probe, ("cli",), "web.probe") == {"cli", "cli.main"}
    assert imported_from(probe, ("solver",), "web.probe") == set()
