"""Which module may import which (issue 14): read from the source, so a new import that breaks a
layer fails here before it becomes a cycle or a dependency of the checker on what it checks.

Imports under `if TYPE_CHECKING:` are left out: they are for the type checker only and never run.
"""

from __future__ import annotations

import ast
import sys
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


def run_fresh(code: str) -> str:
    """What a fresh interpreter prints after running code (which must succeed)."""
    import subprocess

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


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
# The whole import graph of solver/, cli/ and web/: every import the code runs counts, at the top
# or inside a function (issue 22: the cycles were hidden inside functions)

PACKAGE_DIRS = ("solver", "cli", "web")

# The folders in layers: a module imports only from its own layer and those below it. `train`
# builds shipped data and may import anything; nothing imports it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("solver.core",),
    ("solver.parallel",),
    ("solver.search", "solver.finish"),
    ("solver.words",),
    ("solver.play", "solver.batch", "solver.railway"),
    ("solver", "cli", "web"),  # solver/__init__.py: the package's face, with the faces
    ("solver.train",),
)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for d in PACKAGE_DIRS for p in sorted((ROOT / d).rglob("*.py"))}


def import_graph() -> dict[str, set[str]]:
    """module -> the project modules it imports (a package's own __init__ left out: Python runs it
    on the way to any of its modules, and it only lists what its modules define)."""
    mods = project_modules()
    graph: dict[str, set[str]] = {}
    for here, path in mods.items():
        targets = set()
        for module, name in imports(path, here):
            full = f"{module}.{name}" if name else None
            target = full if full in mods else module if module in mods else None
            if target is not None and target != here and not here.startswith(target + "."):
                targets.add(target)
        graph[here] = targets
    return graph


def layer_of(module: str) -> int:
    best, depth = -1, -1
    for i, layer in enumerate(LAYERS):
        for prefix in layer:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > depth:
                best, depth = i, len(prefix)
    assert best >= 0, f"{module} is in no layer: add its folder to LAYERS"
    return best


def test_the_import_graph_sees_imports_inside_functions() -> None:
    """The control: edges that exist only inside functions are in the graph."""
    graph = import_graph()
    assert "solver.core.position" in graph["solver.core.rules"]  # final_state's late import
    assert "solver.search.hint" in graph["cli.solve"] or any("solver.search" in t for t in graph["cli.solve"])


def test_no_import_cycles_among_solver_cli_and_web() -> None:
    import networkx as nx

    g = nx.DiGraph([(a, b) for a, targets in import_graph().items() for b in targets])
    cycles = [sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1]
    assert cycles == []


def test_every_module_imports_only_its_own_layer_and_those_below() -> None:
    wrong = sorted(f"{a} -> {b}" for a, targets in import_graph().items() for b in targets if layer_of(b) > layer_of(a))
    assert wrong == []


def test_the_layers_the_issue_names() -> None:
    """Checked from the source: web/ never imports cli/; the search imports nothing of the play
    and batch layers; the core nothing above it; nothing but training imports training."""
    graph = import_graph()

    def edges(src: str, dst: str) -> list[str]:
        return sorted(
            f"{a} -> {b}"
            for a, targets in graph.items()
            if a == src or a.startswith(src + ".")
            for b in targets
            if b == dst or b.startswith(dst + ".")
        )

    assert edges("web", "cli") == []
    for above in ("solver.play", "solver.batch", "solver.train"):
        assert edges("solver.search", above) == []
    for above in ("solver.search", "solver.finish", "solver.play", "solver.batch", "solver.railway", "solver.train"):
        assert edges("solver.core", above) == []
    outside = [m for m in graph if not m.startswith("solver.train")]
    assert [f"{m} -> {t}" for m in outside for t in graph[m] if t.startswith("solver.train")] == []


# ---------------------------------------------------------------------------------------------
# The companion package: echoes, parse, prose, session, files, commands, each using only those before it

COMPANION = ROOT / "solver" / "play" / "companion"
COMPANION_ORDER = ["echoes", "parse", "prose", "session", "files", "commands"]


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


@pytest.mark.parametrize(
    "path", sorted(p for p in CLI.glob("*.py") if p.name not in ("main.py", "entry.py")), ids=lambda p: p.name
)
def test_no_cli_module_imports_main(path: Path) -> None:
    assert "cli.main" not in modules_imported(path)


def test_the_installed_entry_is_imported_by_nothing() -> None:
    # cli/entry.py imports cli.main (a Ctrl-C during that import is its whole reason): nothing
    # imports it back, so it makes no cycle.
    assert all("cli.entry" not in modules_imported(p) for p in CLI.glob("*.py"))
    assert {m for m in modules_imported(CLI / "entry.py") if m.startswith(("cli", "solver"))} == {"cli.main"}


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
    order = "hint finish check graph batch generate moves validate schema rules simulate replay report reward analyse analyze play serve railway"
    assert list(group.commands) == order.split()


# ---------------------------------------------------------------------------------------------
# finish: the checker (verify.py) and what it checks (finisher.py, the searches) stay apart

FINISH = ROOT / "solver" / "finish"
# What verify.py runs today: the cards, positions and plays, the rules it replays by, and the
# status words (solver/core/status.py, constants only), and the memory budget. Its brute force is
# its own.
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
    ("solver.search", "memory"),  # the process's memory budget, which its memos stop at: no search
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
    assert run_fresh(code) == "['solver.finish', 'solver.finish.finisher']"


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
# train: what builds and tunes the shipped data (solver/train/) may import every layer; nothing
# outside it imports it, and the modules that read the data import nothing above the search

TRAIN = ROOT / "solver" / "train"
ABOVE_SEARCH = ("solver.play", "solver.batch", "solver.train")


def imports_from(path: Path, packages: tuple[str, ...], here: str | None = None) -> set[str]:
    """The imports of a file (inside functions too) from these packages or their modules, with
    `from solver import play` counted as solver.play."""
    found = set()
    for module, name in imports(path, here):
        full = f"{module}.{name}" if name is not None and module == "solver" else module
        if any(full == p or full.startswith(p + ".") for p in packages):
            found.add(full)
    return found


def test_the_train_import_finder_sees_every_kind(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from solver import train\n"
        "from solver.search import evaluator\n"
        "def f():\n"
        "    import solver.train.evaluator_tables\n"
        "    from solver.train.rollout_weights import tune\n"
        "    from solver.trainer import x\n",
        encoding="utf-8",
    )
    assert imports_from(probe, ("solver.train",), "cli.probe") == {
        "solver.train",
        "solver.train.evaluator_tables",
        "solver.train.rollout_weights",
    }
    # And the train package itself is seen importing the play layer (its reason to be apart).
    assert "solver.play.simulate" in imports_from(TRAIN / "evaluator_tables.py", ABOVE_SEARCH)
    assert "solver.play.simulate" in imports_from(TRAIN / "rollout_weights.py", ABOVE_SEARCH)


def test_nothing_outside_train_imports_it() -> None:
    found = {}
    for path in sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py")):
        if TRAIN not in path.parents:
            used = imports_from(path, ("solver.train",))
            if used:
                found[path.relative_to(ROOT).as_posix()] = sorted(used)
    assert found == {}


@pytest.mark.parametrize("name", ["evaluator.py", "rollout_policy.py", "value_net.py"])
def test_the_shipped_datas_readers_import_nothing_above_the_search(name: str) -> None:
    assert imports_from(SEARCH / name, ABOVE_SEARCH) == set()


def test_reading_the_shipped_data_loads_no_layer_above_the_search() -> None:
    """At run time too, through every module they load (a fresh interpreter)."""

    code = (
        "import sys\n"
        "from solver.search import evaluator, rollout_policy, value_net\n"
        "assert len(evaluator.table()) == 2 * evaluator.LAYOUT['EV_SIZE']\n"
        "assert len(rollout_policy.shipped()) == 6\n"
        "assert value_net.about('vanguard', 'standard') is not None\n"
        "print(sorted(m for m in sys.modules if m.startswith(('solver.play', 'solver.batch', 'solver.train'))))\n"
    )
    assert run_fresh(code) == "[]"


# ---------------------------------------------------------------------------------------------
# parallel: one way to run tasks in parallel, below the play and batch layers that both use it

PARALLEL = ROOT / "solver" / "parallel"
POOLS = ("concurrent.futures", "multiprocessing.pool", "distributed", "dask")


@pytest.mark.parametrize("path", sorted(PARALLEL.glob("*.py")), ids=lambda p: p.name)
def test_parallel_imports_only_the_standard_library_dask_and_itself(path: Path) -> None:
    allowed = set(sys.stdlib_module_names) | {"dask", "distributed", "solver"}
    used = {m for m in modules_imported(path) if m.split(".")[0] not in allowed}
    used |= {m for m in modules_imported(path) if m.startswith("solver.") and not m.startswith("solver.parallel")}
    assert used == set(), sorted(used)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_outside_parallel_starts_a_pool_of_its_own(package: str) -> None:
    found = {
        path.relative_to(ROOT).as_posix(): sorted(m for m in modules_imported(path) if m.startswith(POOLS))
        for path in sorted((ROOT / package).rglob("*.py"))
        if not path.is_relative_to(PARALLEL)
    }
    assert {k: v for k, v in found.items() if v} == {}


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


def test_the_layers_below_the_words_use_none_of_them() -> None:
    """The words read the search's answers, so the search (and the core and the finisher below it)
    never reads the words: its answers are data, worded above it."""
    below = [p for top in ("core", "search", "finish") for p in sorted((ROOT / "solver" / top).rglob("*.py"))]
    assert {m for p in below for m in modules_imported(p) if m.startswith("solver.words")} == set()
    assert imported_from(WORDS / "__init__.py", ("solver", *FACES)) == set()


def test_the_face_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    """The control: a late `from cli import render`, as web/views.py's once was, is caught."""
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from cli import render\n    import cli.main\n", encoding="utf-8")
    assert imported_from(probe, ("cli",), "web.probe") == {"cli", "cli.main"}
    assert imported_from(probe, ("solver",), "web.probe") == set()


# ---------------------------------------------------------------------------------------------
# One name for one thing: no two classes of the project share a name (there were two `Game`s, two
# `Summary`s, two `Job`s and two `Settings`)


def test_no_two_classes_share_a_name() -> None:
    where: dict[str, list[str]] = {}
    for path in sorted(p for d in PACKAGE_DIRS for p in (ROOT / d).rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(path.relative_to(ROOT).as_posix())
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
    assert "Playthrough" in where and "Game" in where  # the control: both kinds of game are seen
