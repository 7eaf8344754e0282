from __future__ import annotations

import os
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

import hypothesis
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
# pytest keeps the test modules it rewrote (for its assert messages) only where Python may write
# bytecode; under PYTHONDONTWRITEBYTECODE (containers often set it) each worker rewrote all of
# them again on every run, some 6 s of each run's start on this machine.
sys.dont_write_bytecode = False

# The property tests' examples are seeded like every other random test here: the same cases (and
# the same time) on every run, never a case found once and lost.
hypothesis.settings.register_profile("seeded", derandomize=True)
hypothesis.settings.load_profile("seeded")

# A copy of ../shared/examples (the contract's worked answers), so the suite needs nothing outside the repo.
EXAMPLES = ROOT / "tests" / "examples"


def examples(kind: str) -> list[Path]:
    found = sorted((EXAMPLES / kind).glob("*.json"))
    assert found, f"no examples of kind {kind} in {EXAMPLES}"
    return found


def state(**raw: Any) -> Any:
    """The initial state of a position given as keyword arguments (FORMAT.md keys)."""
    from solver.core.position import parse_position
    from solver.core.rules import initial_state

    return initial_state(parse_position(raw))


def play_texts(s: Any) -> set[str]:
    from solver.core.rules import legal_plays

    return {str(p) for p in legal_plays(s)}


def sample_sizes(everyday: int, full: int) -> pytest.MarkDecorator:
    """Parametrize a random test by its sample size `n`: `everyday` cases (hundreds) in the default
    run, `full` cases (the project's standard: thousands) under the `slow` marker (`pytest -m
    slow`). The test seeds its generator the same way for both, so the everyday sample is the first
    `everyday` cases of the full one: the slow run checks everything the default run does, and more."""
    return pytest.mark.parametrize("n", [everyday, pytest.param(full, marks=pytest.mark.slow)])


def engine_sample_sizes(everyday: int, full: int, plain_full: int, plain_everyday: bool = True) -> pytest.MarkDecorator:
    """sample_sizes for a test of both searches, by `engine` and `n`: the compiled one (what a player
    gets) at `everyday` and `full` cases; the plain Python one (the same source, some 20 times slower
    a state) at `everyday` (under `slow` unless plain_everyday) and `plain_full` under `slow`. The
    two agree value for value on thousands of positions (tests/test_compiled.py), so the plain
    search's large sample is a share of the compiled's, and the slow run stays a few times the
    default run (.ci/run budgets it so)."""
    slow = pytest.mark.slow
    return pytest.mark.parametrize(
        ("engine", "n"),
        [
            pytest.param("compiled", everyday),
            pytest.param("python", everyday, marks=() if plain_everyday else slow),
            pytest.param("compiled", full, marks=slow),
            pytest.param("python", plain_full, marks=slow),
        ],
    )


# -- running in parallel (pytest-xdist; addopts in pyproject.toml asks for `-n auto`) ----------------


@pytest.hookimpl(optionalhook=True)
@pytest.fixture(autouse=True, scope="session")
def _one_click_command_per_app() -> Generator[None, None, None]:
    """Typer's CliRunner builds the whole Click command tree again on every invoke (some 50 ms for
    this app's 48 commands, 15 s of the suite); the installed script builds it once a process, and
    so do the tests: one tree per app, reused by every invoke."""
    import typer.testing

    build = typer.testing._get_command
    built: dict[int, Any] = {}

    def cached(app: Any) -> Any:
        if id(app) not in built:
            built[id(app)] = (app, build(app))  # the app kept alive, so its id is never reused
        return built[id(app)][1]

    typer.testing._get_command = cached  # type: ignore[assignment]
    yield
    typer.testing._get_command = build  # type: ignore[assignment]


@pytest.fixture
def quick_clairvoyant(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clairvoyant policy on a small budget a decision, for tests of a report's or a summary's
    plumbing, not its strength (its full budget is most of a minute a game; its own tests are
    tests/test_clairvoyant.py)."""
    from solver.play import simulate
    from solver.play.clairvoyant import ClairvoyantPolicy

    made = simulate.make_policy
    monkeypatch.setattr(
        simulate,
        "make_policy",
        lambda name, *args: ClairvoyantPolicy(budget=200) if name == "clairvoyant" else made(name, *args),
    )


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """One worker per core this process may use for the whole suite, but none (the tests run in
    this process) when the command line names the tests to run: a few tests never pay back the
    workers' start (each imports ortools, numba and the project), and targeted runs on a shared
    machine should take one core. `-n 2` still forces workers; PYTEST_XDIST_AUTO_NUM_WORKERS
    overrides both (xdist's own hook reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        return 0
    # The CPUs this process may run on (a container's share), not the host's: psutil's count,
    # which xdist would use, can be much larger than what the run gets.
    from solver.parallel.workers import usable_cores

    return usable_cores()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser's test (over a minute, in one piece) first: xdist hands the tests out in this
    order, and started last it would keep one core busy alone at the end of the run."""
    items.sort(key=lambda item: item.path.name != "test_web_browser.py")  # (a stable sort)


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session: pytest.Session) -> Generator[None, object, object]:
    """Before handing out tests to workers, load the compiled search once here (compiling and
    caching it beside solver/search/compiled.py on a fresh checkout, about a minute), while the workers are
    still starting and collecting. Otherwise every worker, and every process a test starts
    (batch -j 2, the console entry point), compiles the same code at once on the first test that
    needs it. Numba writes its cache files atomically, so concurrent compiles would be safe, only
    wasted work. Without workers nothing is loaded here: a run of a few tests may not need it."""
    config = session.config
    if config.getoption("tx", None) and not hasattr(config, "workerinput"):
        try:
            from solver.search.compiled import warm_up

            warm_up()
        except Exception:  # numba missing or broken: the tests that use it say so themselves
            pass
    return (yield)
