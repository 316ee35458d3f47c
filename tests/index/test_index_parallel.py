"""A first index made on every core is the index one core makes, and the index of each file
analyzed on its own: the same files, symbols and hashes, whichever worker parsed which file
(workers inherit the parsers and queries the sweep loaded before forking them), and whether or
not a file is a copy of another (copies are parsed once)."""

from __future__ import annotations

import subprocess

from lang_cases import CASES

from tether.anchor.extract import analyze
from tether.index import db
from tether.index.code_index import CodeIndex
from tether.index.parallel import PARALLEL_THRESHOLD

FILES = "SELECT path, size, hash, language, skipped FROM files ORDER BY path"
SYMBOLS = (
    "SELECT path, qualname, discriminator, kind, start_line, end_line, start_byte, end_byte, hash, entropy "
    "FROM symbols ORDER BY path, start_byte, qualname"
)


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
        (root / f"c{copy}" / "package.json").write_text(
            '{"scripts": {"build": "tsc -p ."}, "version": "1.0.%d"}\n' % copy
        )
        n += 2
    # equal bytes that are not the same file to tether: a lock file is not read for keys; a file
    # with Windows line ends is not a copy (its symbols sit at other offsets)
    lock = '{"name": "app", "lockfileVersion": 3, "packages": {"": {"version": "1.0.0"}}}\n'
    (root / "c0" / "package-lock.json").write_text(lock)
    (root / "c0" / "manifest.json").write_text(lock)
    py = CASES["python"]
    (root / "c1" / "crlf" / py.path).parent.mkdir(parents=True)
    (root / "c1" / "crlf" / py.path).write_bytes(py.source.replace("\n", "\r\n").encode())
    n += 3
    assert n > PARALLEL_THRESHOLD
    subprocess.run(["git", "init", "-q", str(root)], check=True)


def _rows(cache, workers, root):
    conn = db.connect(cache)
    try:
        CodeIndex(root, conn).sweep(workers=workers)
        return conn.execute(FILES).fetchall(), conn.execute(SYMBOLS).fetchall()
    finally:
        conn.close()


def _each_on_its_own(root, rels):
    """The rows of every file analyzed alone, with no sweep, no copies recognized."""
    files, symbols = [], []
    for rel in rels:
        data = (root / rel).read_bytes()
        f = analyze(rel, data)
        files.append((rel, len(data), f.hash, f.language, f.skipped))
        symbols += [
            (
                rel,
                s.qualname,
                s.discriminator,
                s.kind,
                s.start_line,
                s.end_line,
                s.start_byte,
                s.end_byte,
                s.hash,
                s.entropy,
            )
            for s in f.symbols
        ]
    return files, sorted(symbols, key=lambda r: (r[0], r[6], r[1]))


def test_a_parallel_first_index_equals_a_serial_one(tmp_path):
    root = tmp_path / "repo"
    _repo(root)
    files, symbols = _rows(tmp_path / "serial.sqlite", 1, root)
    assert (files, symbols) == _rows(tmp_path / "parallel.sqlite", 2, root)
    assert (files, symbols) == _each_on_its_own(root, [r[0] for r in files])
    assert {r[3] for r in files} >= {"python", "cpp", "ruby", "zig", "markdown", "json"}
    assert len(symbols) > 10 * len(CASES)
    # code keeps no entropy in the index (measured when a symbol is followed); sections and keys do
    code = {r[9] for r in symbols if r[0].endswith(".py")}
    docs = {r[9] for r in symbols if r[0].endswith(".md")}
    assert code == {None} and None not in docs
