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
    "json/decoder.py",
    "csv.py",
    "argparse.py",
    "shutil.py",
    "textwrap.py",
    "logging/__init__.py",
    "http/client.py",
    "email/utils.py",
    "dataclasses.py",
    "difflib.py",
    "fractions.py",
    "heapq.py",
]


def _formatter(name: str) -> list[str]:
    exe = Path(sys.executable).parent / name
    if not exe.exists():
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return [str(exe)]


def _anchor_every_symbol(repo, modules: list[str]) -> int:
    t = Tether(repo.path)
    count = 0
    for rel in modules:
        path = f"lib/{rel}"
        symbols = analyze(path, (repo.path / path).read_bytes()).symbols
        twins = {s.qualname for s in symbols if sum(1 for o in symbols if o.qualname == s.qualname) > 1}
        for s in symbols:
            if s.kind in ("function", "method", "class") and s.qualname not in twins:
                t.remember(f"{s.qualname} in {rel} is load-bearing.", [f"{path}::{s.qualname}"])
                count += 1
    t.close()
    return count


def _vendor(repo, modules: list[str]) -> None:
    for rel in modules:
        dst = repo.path / "lib" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(STDLIB / rel, dst)
    repo.commit("vendored stdlib modules")


@pytest.fixture
def stdlib_repo(repo):
    _vendor(repo, MODULES)
    count = _anchor_every_symbol(repo, MODULES)
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


# Modules with what `ruff check --fix` rewrites by default or on request (F541, PIE790) and escapes
# in uppercase hex, which black and ruff format write in lowercase.
LINTED = [
    "tarfile.py",
    "html/__init__.py",
    "tomllib/_parser.py",
    "email/_encoded_words.py",
    "imghdr.py",
    "distutils/errors.py",
]


@pytest.mark.parametrize("formatter", [["ruff", "format"], ["black", "-q"]])
def test_lint_fixes_and_escape_case_keep_every_anchor_active(repo, formatter):
    """An f-string without placeholders is the plain string ruff turns it into (F541), a `pass`
    beside other statements does nothing (PIE790), and `\\xAB` is `\\xab`: no memory goes stale."""
    _vendor(repo, LINTED)
    count = _anchor_every_symbol(repo, LINTED)
    fix = subprocess.run(
        _formatter("ruff") + ["check", "--no-cache", "--isolated", "--select", "F541,PIE790", "--fix", "lib"],
        cwd=repo.path,
        capture_output=True,
        text=True,
    )
    assert fix.returncode == 0, fix.stdout + fix.stderr
    proc = subprocess.run(
        _formatter(formatter[0]) + formatter[1:] + ["lib"], cwd=repo.path, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    removed = [
        line for line in repo.git("diff", "-U0").splitlines() if line.startswith("-") and not line.startswith("---")
    ]
    assert any(line.strip() == "-pass" or line.endswith(" pass") for line in removed)
    assert any('f"' in line and "{" not in line for line in removed)  # an f-string without placeholders
    assert any("\\xA" in line or "\\xB" in line or "\\xF" in line for line in removed)
    items = repo.check()
    stale = {i["anchors"][0]["symbol"]: i["reason"] for i in items.values() if i["status"] != "active"}
    assert len(items) == count
    assert stale == {}
