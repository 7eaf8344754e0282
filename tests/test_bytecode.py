"""cli/bytecode.py: a command keeps the bytecode of the project's modules that Python, told not
to write bytecode, left without it; and only theirs, once, and nothing when Python writes it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import json, sys
sys.dont_write_bytecode = {dont!r}
sys.path.insert(0, {where!r})
from cli.bytecode import keep_bytecode, missing
import ours.inner, theirs
root = __import__("pathlib").Path({where!r})
before = [s for s, _ in missing(("ours", "theirs"), root)]
first = keep_bytecode(("ours",), root)
second = keep_bytecode(("ours",), root)
print(json.dumps([sorted(before), first, second]))
"""


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "ours").mkdir()
    (tmp_path / "ours" / "__init__.py").write_text("")
    (tmp_path / "ours" / "inner.py").write_text("VALUE = 1\n")
    (tmp_path / "theirs.py").write_text("VALUE = 2\n")
    return tmp_path


def _run(where: Path, dont: bool) -> list[object]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(dont=dont, where=str(where))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out: list[object] = json.loads(done.stdout)
    return out


def _bytecode(where: Path) -> list[str]:
    return sorted(p.relative_to(where).as_posix() for p in where.rglob("*.pyc"))


def test_told_not_to_write_bytecode_a_command_writes_its_own_packages_once(tmp_path: Path) -> None:
    where = _tree(tmp_path)
    before, first, second = _run(where, dont=True)
    assert before == sorted(str(where / p) for p in ("ours/__init__.py", "ours/inner.py", "theirs.py"))
    assert (first, second) == (2, 0)  # the package named, not the other module; nothing twice
    tag = sys.implementation.cache_tag
    assert _bytecode(where) == [f"ours/__pycache__/__init__.{tag}.pyc", f"ours/__pycache__/inner.{tag}.pyc"]
    # The next start finds every module of the package compiled.
    assert _run(where, dont=True)[0] == [str(where / "theirs.py")]


def test_where_python_writes_bytecode_itself_nothing_more_is_written(tmp_path: Path) -> None:
    where = _tree(tmp_path)
    _, first, second = _run(where, dont=False)
    assert (first, second) == (0, 0)


def test_a_folder_that_cannot_be_written_keeps_nothing_and_fails_nothing(tmp_path: Path) -> None:
    where = _tree(tmp_path)
    (where / "ours" / "__pycache__").write_text("not a folder")  # no bytecode can be written under it
    before, first, second = _run(where, dont=True)
    assert len(before) == 3 and (first, second) == (0, 0)
