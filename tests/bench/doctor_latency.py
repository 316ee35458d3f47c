"""`tether doctor` and `tether status` wall time, whole process, on a store of 100 memories (target: doctor < 1 s).

Issue 23, item 11: doctor took 4 s there, nearly all of it compiling the definition queries of all
27 languages; it now compiles only those of the anchored languages (tests/surfaces/cli/test_doctor.py
holds the count). 100 Python functions in 10 files, one memory on each, committed.

    python -m tests.bench doctor_latency
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.bench import Table, git_commit_all, median_of, workdir
from tether.service import Tether

MEMORIES = 100
TARGET_S = 1.0


def run(small: bool = False) -> list[Table]:
    n, runs = (10, 1) if small else (MEMORIES, 5)
    table = Table(f"doctor and status on a store of {n} memories (whole process)")
    with workdir("doctor") as tmp:
        root = tmp / "repo"
        _store(root, n)
        for cmd, target in (("doctor", TARGET_S), ("status", None)):
            secs, times = median_of(lambda c=cmd: _cli(root, c), runs)
            table.add(
                f"`tether {cmd}`, median of {runs}",
                f"{secs:.2f} s",
                f"< {target:.0f} s" if target else "",
                (secs < target) if target else None,
            )
            table.data[cmd] = times
    table.notes.append("a fresh interpreter each run, bytecode cached: what `/tether:doctor` or a shell pays")
    return [table]


def _store(root: Path, n: int) -> None:
    root.mkdir(parents=True)
    for f in range(10):
        (root / f"mod{f}.py").write_text(
            "".join(f"def func_{f}_{i}(x):\n    y = x * {i} + {f}\n    return y - {i}\n\n" for i in range(10))
        )
    git_commit_all(root, "code")
    t = Tether(root)
    for k in range(n):
        f, i = divmod(k % 100, 10)
        t.remember(f"func_{f}_{i} scales by {i} and offsets by {f}", [f"mod{f}.py::func_{f}_{i}"])
    git_commit_all(root, "memories")
    _cli(root, "doctor")  # the cache built and the bytecode written once, before timing


def _cli(root: Path, cmd: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "tether", "--root", str(root), cmd], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"tether {cmd} exited {proc.returncode}: {proc.stdout}{proc.stderr}")
