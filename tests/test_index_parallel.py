"""A first index made on every core is the index one core makes: the same files, symbols and
hashes, whichever worker parsed which file (workers inherit the parsers and queries the sweep
loaded before forking them)."""

from __future__ import annotations

import subprocess

from tests.lang_cases import CASES
from tether import db
from tether.index import PARALLEL_THRESHOLD, CodeIndex

FILES = "SELECT path, size, hash, language, skipped FROM files ORDER BY path"
SYMBOLS = ("SELECT path, qualname, discriminator, kind, start_line, end_line, start_byte, end_byte, hash, entropy "
           "FROM symbols ORDER BY path, start_byte, qualname")


def _repo(root):
    """Every language's sample in several copies, plus docs and config: past the pool's threshold."""
    n = 0
    for copy in range(3):
        for case in CASES.values():
            for variant in ("source", "moved_to"):
                path = root / f"c{copy}" / variant / case.path
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(getattr(case, variant))
                n += 1
        (root / f"c{copy}" / "README.md").write_text("# Setup\n\nRun it.\n\n## Linux\n\napt install it\n")
        (root / f"c{copy}" / "package.json").write_text('{"scripts": {"build": "tsc -p ."}, "version": "1.0.%d"}\n' % copy)
        n += 2
    assert n > PARALLEL_THRESHOLD
    subprocess.run(["git", "init", "-q", str(root)], check=True)


def _rows(cache, workers, root):
    conn = db.connect(cache)
    try:
        CodeIndex(root, conn).sweep(workers=workers)
        return conn.execute(FILES).fetchall(), conn.execute(SYMBOLS).fetchall()
    finally:
        conn.close()


def test_a_parallel_first_index_equals_a_serial_one(tmp_path):
    root = tmp_path / "repo"
    _repo(root)
    files, symbols = _rows(tmp_path / "serial.sqlite", 1, root)
    assert (files, symbols) == _rows(tmp_path / "parallel.sqlite", 2, root)
    assert {r[3] for r in files} >= {"python", "cpp", "ruby", "zig", "markdown", "json"}
    assert len(symbols) > 10 * len(CASES)
    # code keeps no entropy in the index (measured when a symbol is followed); sections and keys do
    code = {r[9] for r in symbols if r[0].endswith(".py")}
    docs = {r[9] for r in symbols if r[0].endswith(".md")}
    assert code == {None} and None not in docs
