"""The difficulty report end to end: tables in report.md and valid PNG plots of the right size."""

from __future__ import annotations

import json
import struct
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app
from solver.report import PLOT_SIZE

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the IHDR chunk, after checking the signature and the chunk's CRC."""
    import zlib

    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    body = data[16 : 16 + length]
    (crc,) = struct.unpack(">I", data[16 + length : 20 + length])
    assert zlib.crc32(kind + body) == crc, f"{path}: bad IHDR checksum"
    assert data.rstrip(b"\x00").endswith(b"IEND\xaeB`\x82"), f"{path}: no IEND chunk"
    width, height = struct.unpack(">II", body[:8])
    return width, height


def test_report_runs_end_to_end_and_writes_its_plots(tmp_path: Path) -> None:
    out = tmp_path / "report"
    r = CliRunner().invoke(app, ["report", "--games", "4", "--samples", "2", "-o", str(out), "-j", "2", "--json"])
    assert r.exit_code == 0, r.output
    numbers = json.loads(r.stdout)
    assert len(numbers["results"]) == 2 * 3 * 3  # games × difficulties × policies
    assert {x["policy"] for x in numbers["results"]} == {"best", "greedy", "random"}
    md = (out / "report.md").read_text()
    for words in ("## vanguard", "## lobo", "| standard | best |", "win_rates.png", "party_survival.png", "Wilson"):
        assert words in md
    pngs = sorted(out.glob("*.png"))
    assert {p.name for p in pngs} == {"win_rates.png", "scores.png", "party_survival.png"}
    for p in pngs:
        assert png_size(p) == PLOT_SIZE
    assert not list(out.glob("*.part*"))
