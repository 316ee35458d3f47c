"""Real histories, judged by an oracle tether does not share: zero false-fresh verdicts, ever.

Six pure-Python projects, one commit per release (sdists from PyPI, so the history is what their
authors shipped: the move to a `src/` layout, black's first run, a module split into a package,
years of edits). For each pair of consecutive releases, every def and class of the files the
release changed is anchored at the older one, the newer one is checked out, and every verdict is
judged by Python's own `ast` (docstrings and the symbol's own name left out):

- active (in place or followed): the code it points at must be the anchored code, else FALSE FRESH;
- stale: code at the place it names that `ast` calls unchanged is counted as "stale, ast equal";
- deleted: a unique `ast`-identical def anywhere in the new tree counts as a missed follow.

Then the older release is checked out again, and every memory must be active (healed).

    python -m tests.bench history

Needs PyPI for the sdists (cached under ~/.cache/tether-bench); without it, this checkout's own
history is replayed instead. `--small`: two commits of standard-library code, moved and reformatted.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tarfile
from collections import Counter
from pathlib import Path

from tests.bench import ROOT, Table, git, git_commit_all, stdlib_dir, workdir
from tests.bench.replay import Plan, replay

RELEASES = {
    "click": ["7.0", "7.1.2", "8.0.0", "8.1.3", "8.1.7", "8.2.1"],
    "requests": ["2.22.0", "2.25.1", "2.28.2", "2.31.0", "2.32.3"],
    "packaging": ["20.9", "21.3", "22.0", "23.2", "24.1"],
    "attrs": ["19.3.0", "21.4.0", "22.2.0", "23.1.0", "24.2.0"],
    "jinja2": ["2.10.3", "2.11.3", "3.0.0", "3.1.2", "3.1.4"],
    "itsdangerous": ["0.24", "1.1.0", "2.0.0", "2.1.2", "2.2.0"],
}
PER_PAIR = 150  # memories anchored per release pair, in file order: enough to meet every kind of change
SDISTS = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "tether-bench" / "sdists"
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def run(small: bool = False) -> list[Table]:
    with workdir("history") as tmp:
        if small:
            return [_replay("stdlib, moved and reformatted (smoke)", _small_history(tmp / "small"), 60)]
        tables = []
        for name, versions in RELEASES.items():
            repo = _release_history(tmp / name, name, versions)
            if repo is not None:
                tables.append(_replay(f"{name} {versions[0]} .. {versions[-1]}", repo, PER_PAIR))
        if not tables:
            own = tmp / "own"
            subprocess.run(["git", "clone", "-q", str(ROOT), str(own)], check=True)
            tables.append(_replay("this checkout's own history (PyPI unreachable)", own, PER_PAIR))
        return tables


# -- histories ----------------------------------------------------------------------------------
def _release_history(root: Path, name: str, versions: list[str]) -> Path | None:
    """A repository with one commit per release, or None if an sdist cannot be had."""
    archives = [_sdist(name, v) for v in versions]
    if any(a is None for a in archives):
        return None
    root.mkdir(parents=True)
    for archive in archives:
        for p in root.iterdir():
            if p.name != ".git":
                shutil.rmtree(p) if p.is_dir() else p.unlink()
        with tarfile.open(archive) as tar:
            top = tar.getnames()[0].split("/")[0]
            tar.extractall(root.parent / "x", **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
        for p in (root.parent / "x" / top).iterdir():
            if not p.name.endswith(".egg-info") and p.name != "PKG-INFO":
                shutil.move(str(p), root / p.name)
        shutil.rmtree(root.parent / "x")
        git_commit_all(root, archive.name)
    return root


def _sdist(name: str, version: str) -> Path | None:
    def cached() -> list[Path]:  # spelled as the project spells itself: Click-7.0, Jinja2-3.0.0
        return [p for p in SDISTS.glob("*.tar.gz") if p.name.lower() == f"{name}-{version}.tar.gz".lower()]

    if not cached():
        SDISTS.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
                str(SDISTS),
                f"{name}=={version}",
            ],
            capture_output=True,
            timeout=300,
            check=False,
        )
    found = cached()
    return found[0] if found else None


def _small_history(root: Path) -> Path:
    """Standard-library modules, then the same moved into a package and reformatted by black."""
    lib = root / "lib"
    lib.mkdir(parents=True)
    for mod in ("heapq.py", "textwrap.py"):
        shutil.copyfile(stdlib_dir() / mod, lib / mod)
    git_commit_all(root, "stdlib")
    git(root, "mv", "lib", "pkg")
    black = Path(sys.executable).parent / "black"
    if black.exists():
        subprocess.run([str(black), "-q", "pkg"], cwd=root, check=False)
    (root / "pkg" / "heapq.py").write_text((root / "pkg" / "heapq.py").read_text().replace("heap[0]", "heap[-1]"))
    git_commit_all(root, "moved, reformatted, edited")
    return root


# -- the oracle ---------------------------------------------------------------------------------
class _Normalized(ast.NodeTransformer):
    """Docstrings out (what tether leaves out too); `u"x"` is `"x"`. And two things Python itself
    compiles alike: a `pass` beside other statements, and an f-string with no placeholder (`f"x"`
    is `"x"`); escapes need nothing, `ast` holds their values."""

    def generic_visit(self, node):
        node = super().generic_visit(node)
        for name in ("body", "orelse", "finalbody"):
            stmts = getattr(node, name, None)
            if isinstance(stmts, list) and len(stmts) > 1 and any(isinstance(s, ast.Pass) for s in stmts):
                setattr(node, name, [s for s in stmts if not isinstance(s, ast.Pass)] or [ast.Pass()])
        return node

    def visit_JoinedStr(self, node):
        self.generic_visit(node)
        if all(isinstance(v, ast.Constant) for v in node.values):
            return ast.Constant(value="".join(v.value for v in node.values))
        return node

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        body = node.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            body = body[1:]
        node.body = body or [ast.Pass()]
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Constant(self, node):
        node.kind = None
        return node


def _print(node) -> str:
    node = _Normalized().visit(node)
    node.name = "_"
    return ast.dump(node, include_attributes=False)


def fingerprint(source: bytes, name: str, first: int, last: int) -> str | None:
    """The def or class called `name` that lies within lines first..last, as `ast` reads it."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, DEFS) and node.name == name:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if first <= start <= last and node.end_lineno <= last:
                return _print(node)
    return None


def every_fingerprint(root: Path) -> Counter:
    out: Counter = Counter()
    for p in root.rglob("*.py"):
        if ".git" in p.parts or ".tether" in p.parts:
            continue
        try:
            tree = ast.parse(p.read_bytes())
        except (SyntaxError, ValueError):
            continue
        out.update(_print(n) for n in ast.walk(tree) if isinstance(n, DEFS))
    return out


class AstOracle:
    """Python's own parser as the judge."""

    name = "ast"

    def fingerprints(self, path: Path, queries: list[tuple[str, int, int]]) -> list[str | None]:
        source = path.read_bytes()
        return [fingerprint(source, name, first, last) for name, first, last in queries]

    def everywhere(self, repo: Path) -> Counter:
        return every_fingerprint(repo)

    def reset(self) -> None:
        pass


def _replay(title: str, repo: Path, per_pair: int) -> Table:
    return replay(
        f"Real history: {title}",
        repo,
        AstOracle(),
        Plan(re.compile(r"\.py$"), ("function", "method", "class"), per_pair, per_pair),
    )
