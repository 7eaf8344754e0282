"""The compiled search: the rules kernel (solver/core/kernel.py), the expectimax
(solver/search/expectimax.py), the bulk rollouts (solver/search/playouts.py), the value network
(solver/search/network.py) and the lookahead over it (solver/search/lookahead.py) compiled by
numba, from the same source files the plain-Python search runs.

Each file is loaded a second time as a module of its own, with `__lobo_jit__` set to numba's
decorator (and the compiled kernel and hash table in place of the plain ones), so its functions
call each other compiled. The machine code is cached beside the sources (compiled the first
time, with a notice after 2 s; bench/README.md has the times). numba's cache knows only a
function's own file, so a search compiled against an older kernel would be loaded as it was: the
cache is stamped with a digest of every source that goes into it and cleared when they change.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path
from types import ModuleType
from typing import Any

import numba
import numba.extending
import numpy as np
from numba.core import cgutils
from numba.np import arrayobj

from solver.core import kernel as plain_kernel
from solver.parallel.workers import usable_cores
from solver.search import hashtable, machine_code
from solver.search.machine_code import SOURCES, STAMP

# The sources the machine code is made from, in machine_code.SOURCES's order.
KERNEL, EXPECTIMAX, _, _, PLAYOUTS, NETWORK, LOOKAHEAD = SOURCES


def _jit(heap: bool = False, **options: Any) -> Any:
    """numba's decorator as the sources use it. A function that makes no array on the heap (none,
    or only stack() ones) is compiled without numba's reference counts: with them every array a
    function is given costs two atomic operations a call (measured: bench/README.md, session 15).
    Such a function must not call one that returns a heap array (that array would never be freed);
    one that makes heap arrays says heap=True (numba refuses to compile it otherwise). Without
    the interpreter's lock: two threads may search at once (engine.py's shared-table search)."""
    return _njit(cache=True, _nrt=heap, nogil=True, **options)


@numba.njit(cache=True)
def _ints(n: int) -> np.ndarray:  # pragma: no cover - compiled
    return np.zeros(n, np.int64)


@numba.njit(cache=True)
def _floats(n: int) -> np.ndarray:  # pragma: no cover - compiled
    return np.zeros(n, np.float64)


@numba.njit(cache=True)
def _scratch(n: int) -> np.ndarray:  # pragma: no cover - compiled
    return np.empty(n, np.int64)


_njit: Any = numba.njit  # with numba's options its stubs do not list
_cg: Any = cgutils
_make_array: Any = arrayobj.make_array
_populate_array: Any = arrayobj.populate_array


def _on_stack(dtype: Any, zeroed: bool) -> Any:
    """An array of a constant size in the calling function's stack frame: no allocation, no
    reference count (its meminfo is null), gone when that function returns, so it must never be
    returned or kept. The search's nodes take their small buffers so: a heap array costs its
    making, freeing and the atomic counts of its references."""

    @numba.extending.intrinsic
    def on_stack(typingctx: Any, n: Any) -> Any:
        if not isinstance(n, numba.types.IntegerLiteral):
            return None  # a constant size only: the frame's size is fixed when it is compiled
        size = n.literal_value
        arr = numba.types.Array(dtype, 1, "C")

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            item = context.get_abi_sizeof(context.get_value_type(dtype))
            data = _cg.alloca_once(builder, context.get_value_type(dtype), size=size)
            if zeroed:
                _cg.memset(builder, data, context.get_constant(numba.types.intp, item * size), 0)
            out = _make_array(arr)(context, builder)
            intp = numba.types.intp
            _populate_array(
                out,
                data=data,
                shape=[context.get_constant(intp, size)],
                strides=[context.get_constant(intp, item)],
                itemsize=context.get_constant(intp, item),
                meminfo=None,
            )
            return out._getvalue()

        return arr(n), codegen

    return on_stack


_stack = _on_stack(numba.types.int64, True)
_stack_scratch = _on_stack(numba.types.int64, False)
_stack_floats = _on_stack(numba.types.float64, False)


def _fresh_cache() -> None:
    """Clear numba's cache of these sources when any of them changed since it was written."""
    digest = machine_code.digest()
    for folder in machine_code.folders():
        stamp = folder / STAMP
        try:
            if stamp.read_text() == digest:
                continue
        except OSError:
            pass
        try:
            folder.mkdir(exist_ok=True)
            for p in SOURCES:
                for old in folder.glob(f"{p.stem}.*.nb[ic]"):
                    old.unlink(missing_ok=True)
            stamp.write_text(digest)
        except OSError:  # a read-only install: numba then compiles in memory, as it can
            pass


def _load(name: str, path: Path, inject: dict[str, Any]) -> ModuleType:
    spec = spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    module.__dict__.update(inject)
    sys.modules[name] = module  # numba resolves a compiled function's globals through its module
    spec.loader.exec_module(module)
    return module


_fresh_cache()
kernel = _load(
    "solver.core._kernel_compiled",
    KERNEL,
    {"__lobo_jit__": _jit, "__lobo_ints__": _ints, "__lobo_floats__": _floats,
     "__lobo_binomial__": np.array(plain_kernel.BINOMIAL, np.float64), "__lobo_zero__": np.int64(0),
     "__lobo_rank4__": np.array(plain_kernel.RANK4, np.int64),
     "__lobo_one__": np.int64(1), "__lobo_scratch__": _scratch, "__lobo_stack__": _stack,
     "__lobo_stack_scratch__": _stack_scratch, "__lobo_stack_floats__": _stack_floats},
)  # fmt: skip
expectimax = _load(
    "solver.search._expectimax_compiled",
    EXPECTIMAX,
    {"__lobo_jit__": _jit, "__lobo_kernel__": kernel, "__lobo_tables__": hashtable},
)
playouts = _load(
    "solver.search._playouts_compiled",
    PLAYOUTS,
    {"__lobo_jit__": _jit, "__lobo_kernel__": kernel, "__lobo_search__": expectimax},
)
network = _load("solver.search._network_compiled", NETWORK, {"__lobo_jit__": _jit, "__lobo_kernel__": kernel})
lookahead = _load(
    "solver.search._lookahead_compiled",
    LOOKAHEAD,
    {"__lobo_jit__": _jit, "__lobo_kernel__": kernel, "__lobo_search__": expectimax, "__lobo_network__": network},
)

_warm = False


@contextmanager
def loading(what: str) -> Iterator[None]:
    """Ctrl-C held while machine code loads (the first call of `what` in this process), then
    raised: llvmlite's cache callback would swallow it (a ctypes callback cannot raise) and the
    run would go on as if nothing was pressed. Only the main thread takes signals."""
    if what in _loaded or threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    try:
        before = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    except ValueError:  # pragma: no cover - not the main interpreter
        yield
        return
    try:
        yield
        _loaded.add(what)
    finally:
        signal.signal(signal.SIGINT, before)
        if caught and callable(before):
            before(signal.SIGINT, None)  # Python's own handler: KeyboardInterrupt, now
        elif caught and before == signal.SIG_DFL:
            raise KeyboardInterrupt


_loaded: set[str] = set()


_warming = threading.Lock()  # one load at a time: a hint may wait on the companion's own warm-up


def warm_up(notice: bool = True) -> None:
    """Load the machine code (compiled once per installation; a first compile takes about a minute, so
    a run that waits on it says so after 2 s, unless `notice` is off: a warm-up in the background
    while a player types). Once compiled, only what the exact search calls is loaded here: the
    rollouts and the lookahead load at their first call (some 0.02 s each), as an answer the
    search finishes never makes."""
    global _warm
    if _warm:
        return
    timer = threading.Timer(
        2.0,
        lambda: logging.getLogger("lobo_hint").warning(
            "lobo-hint: compiling the search for this machine (first run only: up to a minute or two)"
        ),
    )
    timer.daemon = True
    if notice:
        timer.start()
    try:
        with _warming:
            if _warm:
                return
            everything = not machine_code.ready()  # a first compile: all of it, under the one notice
            # Held while the machine code loads from its cache (some 0.3 s), not through a first
            # compile (about a minute): Ctrl-C must stop that at once.
            with loading("search") if not everything else nullcontext():
                if everything:
                    _first_compile()
                else:
                    _calls(search=True, rest=False)
            _warm = True
    finally:
        timer.cancel()


def compile_rest() -> None:
    """The rollouts' and the lookahead's machine code, compiled and cached (a second process's
    share of a first compile: `_first_compile`)."""
    _calls(search=False, rest=True)


def _first_compile() -> None:
    """Everything compiled, on two cores where there are two: the rollouts and the lookahead in a
    second process (about 40 s alone) while this one compiles the exact search (about 60 s; one
    after the other they take 75: bench/README.md, session 44). Their shared kernel functions
    are compiled twice, which costs less than waiting. Whatever the other process has not
    cached by then, this one compiles itself."""
    helper = None
    if usable_cores() > 1 and machine_code.stamped():
        command, env = helper_command()
        try:
            helper = subprocess.Popen(
                command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        except OSError:  # no second process: all of it here
            helper = None
    try:
        _calls(search=True, rest=False)
        if helper is not None:
            with suppress(subprocess.TimeoutExpired):
                helper.wait(HELPER_WAIT)
    finally:
        if helper is not None and helper.poll() is None:
            helper.kill()  # Ctrl-C, or it hangs: this process compiles what it has not cached
            helper.wait()
    _calls(search=True, rest=True)


def helper_command() -> tuple[list[str], dict[str, str]]:
    """The second process of a first compile: its command line and environment (this very
    `solver` first on its path, wherever it is started from)."""
    path = os.pathsep.join(filter(None, (str(_PACKAGE_HOME), os.environ.get("PYTHONPATH"))))
    command = [sys.executable, "-c", "from solver.search.compiled import compile_rest; compile_rest()"]
    return command, {**os.environ, "PYTHONPATH": path}


HELPER_WAIT = 300.0  # seconds: a first compile's second process is given up after this long
_PACKAGE_HOME = Path(__file__).resolve().parents[2]  # the folder `solver` is imported from


def _calls(*, search: bool, rest: bool) -> None:
    """The entry points, once each, on a toy state: those of the exact search (`search`), those of
    the rollouts and the lookahead (`rest`). Each call loads its machine code, compiling it first
    if it is not cached."""
    st = np.zeros(kernel.STATE, np.int64)
    st[kernel.HAND + 1] = st[kernel.WOLF] = st[kernel.UNSEEN] = st[kernel.PILE] = 1
    st[kernel.PARTY] = 7
    st[kernel.TOPV] = 9
    par = np.zeros(expectimax.PARAMS, np.int64)
    par[expectimax.P_WORDS] = kernel.KEY_WORDS
    par[expectimax.P_ROOT_ACTIVE] = 3
    fpar = np.array([0.0, 1.0])
    tk, tv = hashtable.new_table(64, kernel.KEY_WORDS)
    mk, mv = hashtable.new_table(64, 2)
    dk, dv = hashtable.new_table(64, 3)
    ev = np.zeros(2 * expectimax.EV_SIZE, np.float64)  # the values, then their errors
    ctr = np.zeros(expectimax.COUNTERS, np.int64)
    ih, fh = np.zeros(expectimax.ARENA_WORDS, np.int64), np.zeros(expectimax.ARENA_WORDS // 2, np.float64)
    ctr[expectimax.LIMIT] = 100
    if search:
        for code in (expectimax.WIN, expectimax.PARTY, expectimax.POINTS, expectimax.GAME):
            par[expectimax.P_OBJECTIVE] = code
            expectimax.search(
                st, 0.0, 1.0, par, fpar, tk, tv, mk, mv, dk, dv, ev, ctr, ih, fh, np.full(1, -1, np.int64)
            )
        expectimax.cheap(st, par, fpar, tk, tv, mk, mv, dk, dv, ev, ctr)
        expectimax.bounds(st, par, fpar, tk, tv, mk, mv, dk, dv, ev, ctr)
        expectimax.terminal(st, par, mk, mv, dk, dv, ev, ctr)
        expectimax.final_value(st, par, mk, mv, ctr)
        hashtable.grown(tk, tv)
    if rest:
        values = np.zeros(1, np.float64)
        playouts.rollouts(
            st.copy(), 1, np.ones(1, np.int64), 1, 1, par, mk, mv, dk, dv, ev, ctr, values, values.copy(), 0,
            np.array(kernel.GREEDY_WEIGHTS, np.float64),
        )  # fmt: skip
        net = np.zeros(network.size(network.FEATURES, 2, 2, network.HEADS), np.float64)
        net[: network.HEADER] = (network.FEATURES, 2, 2, network.HEADS)
        seen = np.zeros(lookahead.SEEN, np.int64)
        par[expectimax.P_OBJECTIVE] = expectimax.GAME
        lookahead.values(st.copy(), 1, 1, network.GAME_HEAD, par, mk, mv, dk, dv, ev, ctr, net, values, seen)
