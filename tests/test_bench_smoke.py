"""`make bench` must not rot: every benchmark runs end to end on a tiny corpus. Never timed here."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `tests.bench` is imported from the repository root, as `make bench` does

from tests.bench import copy_corpus, git_commit_all, stdlib_files, workdir
from tests.bench.__main__ import BENCHMARKS


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_runs_small(name):
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench", name, "--small"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "| metric | value | target | met? |" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_unknown_benchmark_is_refused():
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench", "no_such_bench", "--small"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2 and "unknown benchmark" in proc.stderr


def test_memoized_cache_fill_equals_a_real_sweep():
    """check_scaling fills its big caches with extraction memoized per stdlib file: the rows must be
    exactly those a real sweep writes, or the sweep variant would measure a different index."""
    from tests.bench.check_scaling import RACY_S, _build, _prefill
    from tether.anchor.extract import analyze
    from tether.index import db
    from tether.index.code_index import CodeIndex

    with workdir("smoke") as tmp:
        src = tmp / "src"
        rels = copy_corpus(stdlib_files(limit=12), src)
        facts = {r: analyze(r, (src / r).read_bytes()) for r in rels}
        root = tmp / "repo"
        _build(root, src, rels, 30)
        git_commit_all(root)
        time.sleep(RACY_S)
        _prefill(root, facts, tmp / "memo.sqlite")
        real = db.connect(tmp / "real.sqlite")
        CodeIndex(root, real).sweep(workers=1)
        memo = db.connect(tmp / "memo.sqlite")

        def rows(conn, sql):
            return sorted(conn.execute(sql).fetchall())

        files = "SELECT path, size, hash, language, skipped FROM files"
        symbols = (
            "SELECT path, qualname, discriminator, kind, start_line, end_line, start_byte, end_byte, hash, "
            "entropy FROM symbols"
        )
        for sql in (files, symbols):
            assert rows(memo, sql) == rows(real, sql)
        assert rows(real, "SELECT count(*) FROM symbols")[0][0] > 100
        real.close()
        memo.close()
