"""Real code, real tools: the standard library run through real formatters and refactors.

Fixtures written here can flatter the normalizer; code written by others, reformatted by the
formatters people actually use, cannot. Every anchored symbol must stay active.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tether.anchor.extract import analyze
from tether.service import Tether

STDLIB = Path(sysconfig.get_paths()["stdlib"])
MODULES = [
    "json/decoder.py", "csv.py", "argparse.py", "shutil.py", "textwrap.py", "logging/__init__.py",
    "http/client.py", "email/utils.py", "dataclasses.py", "difflib.py", "fractions.py", "heapq.py",
]


def _formatter(name: str) -> list[str]:
    exe = Path(sys.executable).parent / name
    if not exe.exists():
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return [str(exe)]


@pytest.fixture
def stdlib_repo(repo):
    for rel in MODULES:
        dst = repo.path / "lib" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(STDLIB / rel, dst)
    repo.commit("vendored stdlib modules")
    t = Tether(repo.path)
    count = 0
    for rel in MODULES:
        path = f"lib/{rel}"
        symbols = analyze(path, (repo.path / path).read_bytes()).symbols
        twins = {s.qualname for s in symbols if sum(1 for o in symbols if o.qualname == s.qualname) > 1}
        for s in symbols:
            if s.kind in ("function", "method", "class") and s.qualname not in twins:
                t.remember(f"{s.qualname} in {rel} is load-bearing.", [f"{path}::{s.qualname}"])
                count += 1
    t.close()
    assert count > 500
    return repo, count


@pytest.mark.parametrize("tool", [["ruff", "format", "--line-length", "100"], ["black", "-q", "--line-length", "88"]])
def test_real_formatter_keeps_every_anchor_active(stdlib_repo, tool):
    repo, count = stdlib_repo
    proc = subprocess.run(_formatter(tool[0]) + tool[1:] + ["lib"], cwd=repo.path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert repo.git("status", "--porcelain"), "the formatter changed nothing: the test proves nothing"
    items = repo.check()
    stale = {i["anchors"][0]["symbol"]: i["reason"] for i in items.values() if i["status"] != "active"}
    assert len(items) == count
    assert stale == {}
