"""Benchmark harness for `make bench`: shared tables, timing and corpus helpers.

Convention: a benchmark is a module in this package exposing

    def run(small: bool = False) -> list[Table]

and listed in `BENCHMARKS` in `__main__.py`. `small=True` must finish in seconds on a tiny corpus
(the pytest smoke test uses it so the harness cannot rot); numbers from it mean nothing.
Targets are reported, never asserted: timing assertions in tests are forbidden (ARCHITECTURE.md, "Tests").
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[2]
TEST_DIRS = frozenset({"test", "tests", "idle_test", "__pycache__"})


@dataclass
class Row:
    metric: str
    value: str
    target: str = ""
    met: bool | None = None  # None: informational, no target


@dataclass
class Table:
    title: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    data: dict = field(default_factory=dict)  # raw numbers for results.json

    def add(self, metric: str, value: str, target: str = "", met: bool | None = None) -> None:
        self.rows.append(Row(metric, value, target, met))

    def markdown(self) -> str:
        mark = {True: "yes", False: "**no**", None: ""}
        lines = [f"### {self.title}", "", "| metric | value | target | met? |", "|---|---|---|---|"]
        lines += [f"| {r.metric} | {r.value} | {r.target} | {mark[r.met]} |" for r in self.rows]
        if self.notes:
            lines.append("")
            lines += [f"- {n}" for n in self.notes]
        return "\n".join(lines)

    def to_json(self) -> dict:
        return asdict(self)


# -- timing -------------------------------------------------------------------------------------
def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def median_of(fn: Callable[[], object], runs: int, warmup: int = 1) -> tuple[float, list[float]]:
    """Median wall time over `runs` after `warmup` discarded runs: the machine is shared and noisy."""
    for _ in range(warmup):
        fn()
    times = [timed(fn) for _ in range(runs)]
    return statistics.median(times), times


# -- corpus -------------------------------------------------------------------------------------
def stdlib_dir() -> Path:
    """The standard library of the venv's base interpreter (the venv itself holds only site-packages)."""
    return Path(sys.base_prefix) / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"


def stdlib_files(include_tests: bool = False, limit: int | None = None) -> list[Path]:
    """Stdlib `.py` files, sorted, without site-packages (third-party) and, by default, without test
    dirs (CPython's test suite is a third of the bytes and full of deliberately odd files). Dirs
    tether never indexes (the stdlib's own `venv/` package) are left out so both sides of a
    comparison see the same files."""
    from tether.index.listing import PRUNED_DIRS

    lib = stdlib_dir()
    out = []
    for p in sorted(lib.rglob("*.py")):
        parts = p.relative_to(lib).parts
        if parts[0] == "site-packages" or PRUNED_DIRS.intersection(parts[:-1]):
            continue
        if not include_tests and TEST_DIRS.intersection(parts[:-1]):
            continue
        if p.is_file() and not p.is_symlink():
            out.append(p)
    if limit is not None:
        # an even spread rather than the first N, so a small corpus still has every kind of file
        step = max(1, len(out) // limit)
        out = out[::step][:limit]
    return out


def copy_corpus(files: list[Path], dest: Path) -> list[str]:
    """Copy files under `dest` keeping their stdlib-relative paths; returns the relative paths."""
    lib = stdlib_dir()
    rels = []
    for p in files:
        rel = p.relative_to(lib).as_posix()
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, target)
        rels.append(rel)
    return rels


# -- repositories and isolation -----------------------------------------------------------------
def git(root: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Bench",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "Bench",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
    }
    return subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True, text=True).stdout


def git_commit_all(root: Path, message: str = "corpus") -> None:
    if not (root / ".git").exists():
        git(root, "init", "-q", "-b", "main")
        git(root, "config", "commit.gpgsign", "false")
        git(root, "config", "gc.auto", "0")  # no background gc skewing the timings
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", message)


def commit_releases(root: Path, name: str, releases: Iterable[tuple[str, Callable[[Path], None]]]) -> Path:
    """One commit (and tag `v<version>`) per release, in order: the tree is emptied but for .git,
    `fill(root)` writes the release's files; a release that changed nothing gets no commit."""
    root.mkdir(parents=True, exist_ok=True)
    for version, fill in releases:
        for p in root.iterdir():
            if p.name != ".git":
                shutil.rmtree(p) if p.is_dir() else p.unlink()
        fill(root)
        if not (root / ".git").exists() or git(root, "status", "--porcelain"):
            git_commit_all(root, f"{name} {version}")
        git(root, "tag", "v" + re.sub(r"[^0-9A-Za-z.+_-]", "_", version))
    return root


def extract_files(archive: Path, root: Path, keep: Callable[[PurePosixPath, int], bool]) -> None:
    """The regular files of a tarball that `keep(path, size)` keeps, paths below its top directory."""
    with tarfile.open(archive) as tar:
        for m in tar:
            rel = PurePosixPath(*PurePosixPath(m.name).parts[1:])
            if m.isfile() and ".." not in rel.parts and keep(rel, m.size):
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_bytes(tar.extractfile(m).read())


@contextmanager
def workdir(name: str) -> Iterator[Path]:
    """A temp dir that is always removed, with TETHER_HOME inside it: benches never touch real caches."""
    tmp = Path(tempfile.mkdtemp(prefix=f"tether-bench-{name}-"))
    old = os.environ.get("TETHER_HOME")
    os.environ["TETHER_HOME"] = str(tmp / "home")
    try:
        yield tmp
    finally:
        if old is None:
            os.environ.pop("TETHER_HOME", None)
        else:
            os.environ["TETHER_HOME"] = old
        shutil.rmtree(tmp, ignore_errors=True)
