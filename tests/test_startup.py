"""Start-up (issue 13): which heavy libraries a command loads, not how long it takes.

Each command runs in a fresh interpreter that reports, at exit, the heavy top-level packages
found in sys.modules. The quick commands and the mid-round hint must load none of them; the
controls (a final-round hint, a graph) show that the report does see them when they load.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MIDROUND = str(ROOT / "puzzles" / "examples" / "midround.json")
FINAL = str(ROOT / "puzzles" / "examples" / "final.json")
HEAVY = ("ortools", "pandas", "matplotlib", "networkx", "numba", "dask", "distributed", "numpy")
MARK = "HEAVY-MODULES:"

# Runs `body` with an exit hook that prints the heavy packages loaded by then (SystemExit
# included: Typer ends every command with one).
PROBE = """
import atexit, json, sys
def _report():
    loaded = sorted({name.split(".")[0] for name in sys.modules} & set(HEAVY))
    print(MARK + json.dumps(loaded), file=sys.stderr)
atexit.register(_report)
"""


def loaded_by(body: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    code = f"HEAVY = {HEAVY!r}\nMARK = {MARK!r}\n{PROBE}\n{body}"
    env = {k: v for k, v in os.environ.items() if k != "LOBO_HINT_ENGINE"}  # the default engine choice
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False
    )
    marks = [line for line in done.stderr.splitlines() if line.startswith(MARK)]
    assert len(marks) == 1, done.stderr
    return done, json.loads(marks[0][len(MARK) :])


def run_cli(*argv: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    return loaded_by(f"sys.argv = ['lobo-hint', *{list(argv)!r}]\nfrom cli.main import main\nmain()")


QUICK = [
    ["--help"],
    ["--version"],
    ["validate", MIDROUND],
    ["moves", MIDROUND],
    ["moves", MIDROUND, "--json"],
    ["rules"],
    ["rules", "--position", MIDROUND],
    ["schema"],
    [MIDROUND],  # the hint: the pile is small, so the pure-Python search answers, without the finisher
    [MIDROUND, "--json"],
    ["hint", MIDROUND, "--json"],
]


@pytest.mark.parametrize("argv", QUICK, ids=[" ".join(Path(a).name for a in argv) for argv in QUICK])
def test_quick_commands_load_no_heavy_library(argv: list[str]) -> None:
    done, heavy = run_cli(*argv)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert heavy == [], f"{' '.join(argv)} loaded {heavy}"


def test_help_still_lists_every_command() -> None:
    done, _ = run_cli("--help")
    for word in ("hint", "finish", "batch", "simulate", "report", "play", "railway", "graph", "generate"):
        assert word in done.stdout


def test_bad_input_loads_no_heavy_library() -> None:
    done, heavy = run_cli("validate", str(ROOT / "no-such-position.json"))
    assert done.returncode == 2 and done.stderr.startswith("lobo-hint: error:")
    assert heavy == []


def test_final_round_hint_loads_the_finisher() -> None:
    """The control: the probe sees ortools when the CP-SAT finisher really runs."""
    done, heavy = run_cli(FINAL, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "proven_won"
    assert "ortools" in heavy


def test_graph_loads_networkx_only_for_the_graph(tmp_path: Path) -> None:
    out = tmp_path / "tree.json"
    done, heavy = run_cli("graph", MIDROUND, "--depth", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert out.exists() and "networkx" in heavy
    assert "ortools" not in heavy and "matplotlib" not in heavy


def test_rules_engine_imports_alone() -> None:
    done, heavy = loaded_by("import solver.core.position, solver.core.rules")
    assert done.returncode == 0, done.stderr
    assert heavy == []


def test_library_api_still_exports_the_search_and_the_finisher() -> None:
    """`from solver import hint` is the function, also after the module solver.search.hint was
    imported, and loads without any heavy library."""
    done, heavy = loaded_by(
        "import solver.search.hint\n"
        "import solver\n"
        "from solver import Finish, HintResult, hint, load_position, solve_finish\n"
        "assert callable(hint) and hint.__module__ == 'solver.search.hint', hint\n"
        "assert solver.hint is hint and solver.solve_finish is solve_finish\n"
        "assert Finish.__module__ == 'solver.finish.finisher' and HintResult.__module__ == 'solver.search.hint'\n"
        f"print(hint(load_position({MIDROUND!r})).best)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert heavy == []


def test_unknown_name_is_still_an_attribute_error() -> None:
    import solver

    with pytest.raises(AttributeError, match="no_such_name"):
        _ = solver.no_such_name  # type: ignore[attr-defined]
