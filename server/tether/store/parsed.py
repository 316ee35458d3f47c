"""Parsed memory files, kept in the cache database by their stat and their bytes' hash.

The memory files are the truth and every read re-derives from them; this only spares re-reading
and re-validating a file that did not change. A file is taken from its row when its stat matches
the row's (size, mtime_ns, ctime and inode: files/stamps.py) and is older than the racy window
at the row's check, exactly as the code index trusts a file; otherwise it is read, and a file
whose bytes hash to the row's (a fresh `git pull`, a `touch`) is still not parsed again. Only
files that parse are kept: a quarantined one is read, and refused, on every read.
"""

from __future__ import annotations

import marshal
import os
import sqlite3
import stat
import sys
import time
from collections.abc import Collection
from itertools import starmap

from tether.anchor.content import bytes_hash
from tether.files.stamps import change_stamp, memory_file_trusted
from tether.store import memory as fmt
from tether.store.model import FORMAT, Anchor, Memory

# what the rows were written with: another interpreter, marshal version or file format never reads them
CODEC = f"m{marshal.version}:py{sys.version_info[0]}.{sys.version_info[1]}:f{FORMAT}"


def encode(m: Memory) -> bytes:
    anchors = tuple((a.type, a.path, a.hash, a.size, a.symbol, a.discriminator, a.language) for a in m.anchors)
    return marshal.dumps(
        (
            m.id,
            m.kind,
            m.summary,
            m.body,
            anchors,
            m.recorded_at,
            m.valid_from,
            m.verified_at,
            m.source,
            m.confidence,
            m.evidence,
            m.links,
            m.valid_to,
            m.retired_reason,
            m.commit,
            m.tags,
            m.format,
            m.filename,
        )
    )


def decode(blob: bytes) -> Memory:
    f = marshal.loads(blob)
    return Memory(f[0], f[1], f[2], f[3], tuple(starmap(Anchor, f[4])), *f[5:])


class ParsedCache:
    """One read's view of the `mem_parsed` rows: looked up by name, written back in one go."""

    def __init__(self, conn: sqlite3.Connection, names: Collection[str] | None = None) -> None:
        """`names`: only these files' rows (a read of a few files; the others' rows are kept)."""
        self.conn = conn
        sql = "SELECT name, mtime_ns, change, size, checked_ns, hash, memory FROM mem_parsed WHERE codec=?"
        if names is None:
            rows = conn.execute(sql, (CODEC,)).fetchall()
        else:
            wanted = list(names)
            rows = []
            for i in range(0, len(wanted), 500):
                part = wanted[i : i + 500]
                rows += conn.execute(f"{sql} AND name IN ({','.join('?' * len(part))})", (CODEC, *part)).fetchall()
        self._rows: dict[str, tuple] = {r[0]: r[1:] for r in rows}
        self._put: list[tuple] = []
        self.seen: set[str] = set()

    def unchanged(self, name: str, st: os.stat_result) -> Memory | None:
        """The memory parsed from `name` when its stat says it cannot have changed since."""
        self.seen.add(name)
        row = self._rows.get(name)
        if (
            row is None
            or row[:3] != (st.st_mtime_ns, change_stamp(st), st.st_size)
            or not memory_file_trusted(st, row[3])
        ):
            return None
        return _decoded(row[5])

    def same_bytes(self, name: str, st: os.stat_result, checked: int, data: bytes) -> Memory | None:
        """The memory parsed before from exactly these bytes, its row stamped anew; None if they differ."""
        self.seen.add(name)
        row = self._rows.get(name)
        if row is None or row[4] != bytes_hash(data):
            return None
        m = _decoded(row[5])
        if m is not None:
            self._put.append((name, st.st_mtime_ns, change_stamp(st), st.st_size, checked, row[4], CODEC, row[5]))
        return m

    def keep(self, name: str, st: os.stat_result, checked: int, data: bytes, m: Memory) -> None:
        self.seen.add(name)
        self._put.append(
            (name, st.st_mtime_ns, change_stamp(st), st.st_size, checked, bytes_hash(data), CODEC, encode(m))
        )

    def flush(self) -> None:
        """Write what this read learned, and forget files no longer there (after a full listing)."""
        gone = [n for n in self._rows if n not in self.seen]
        if not self._put and not gone:
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.executemany("DELETE FROM mem_parsed WHERE name=?", [(n,) for n in gone])
            self.conn.executemany("INSERT OR REPLACE INTO mem_parsed VALUES(?,?,?,?,?,?,?,?)", self._put)
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")
        self._put = []


def cached(conn: sqlite3.Connection, name: str, path: str) -> Memory | None:
    """The memory parsed before from the file at `path` (`name` in the memories directory) when its
    stat says it cannot have changed since, as `ParsedCache.unchanged` trusts it; else None."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    row = conn.execute(
        "SELECT mtime_ns, change, size, checked_ns, memory FROM mem_parsed WHERE name=? AND codec=?", (name, CODEC)
    ).fetchone()
    if row is None or not stat.S_ISREG(st.st_mode) or row[:3] != (st.st_mtime_ns, change_stamp(st), st.st_size):
        return None
    return _decoded(row[4]) if memory_file_trusted(st, row[3]) else None


def _decoded(blob: bytes) -> Memory | None:
    try:
        return decode(blob)
    except (ValueError, EOFError, TypeError, IndexError):  # a damaged row: read the file instead
        return None


def read_memory(path: str, name: str, rel: str, entry: os.DirEntry | None, parsed: ParsedCache | None) -> Memory:
    """One memory file, from the parsed cache when its stat or its bytes say it is unchanged."""
    if parsed is None or entry is None:
        return fmt.load_file(path, rel)[1]
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        m = parsed.unchanged(name, st)
        if m is not None:
            return m
    st, data = fmt.read_file(path)  # refuses a link, a FIFO, a file past the cap: quarantined as ever
    checked = time.time_ns()
    m = parsed.same_bytes(name, st, checked, data)
    if m is None:
        m = fmt.loads(data, rel)
        parsed.keep(name, st, checked, data, m)
    return m
