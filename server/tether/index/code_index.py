"""The code index: files and symbols with their hashes, refreshed incrementally by (mtime, size).

Cost follows what is asked: `file()` stats one file; `sweep()` lists the repository and re-reads
only what changed. A row is trusted only when the file's mtime is safely older than the moment
it was checked, so an edit landing within the filesystem's timestamp granularity is never missed.
Changed files are parsed by parallel.py; the tables the lifecycle keeps beside these are memo.py's.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from tether.anchor.content import content_hash
from tether.anchor.model import FileFacts, Symbol
from tether.files.stamps import trusted
from tether.index.db import transaction
from tether.index.listing import list_files
from tether.index.memo import ResolutionMemo
from tether.index.parallel import analyze_many
from tether.index.worker import (
    change_stamp,
    is_regular,
    read_regular,
    root_prefix,
    rows_of,
    safe_analyze,
)

BULK_FILES = 500  # a first sweep of at least this many files builds the lookup indexes afterwards
# Looked up by hash (follow a move) and by name (follow a rename); random keys, so keeping them
# sorted row by row costs a cold sweep's writer more than building them once at the end.
LOOKUP_INDEXES = {"symbols_hash": "symbols(hash)", "symbols_name": "symbols(qualname)"}


class FileRow:
    """One indexed file as the code index last saw it. A plain slotted class, not a frozen
    dataclass: building one of those at import costs ~0.5 ms of every CLI start."""

    __slots__ = ("path", "mtime_ns", "size", "hash", "language", "skipped")

    def __init__(
        self, path: str, mtime_ns: int, size: int, hash: str, language: str | None, skipped: str | None
    ) -> None:
        self.path, self.mtime_ns, self.size, self.hash = path, mtime_ns, size, hash
        self.language, self.skipped = language, skipped

    def _fields(self) -> tuple:
        return (self.path, self.mtime_ns, self.size, self.hash, self.language, self.skipped)

    def __eq__(self, other: object) -> bool:
        return self._fields() == other._fields() if type(other) is FileRow else NotImplemented

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        names = ("path", "mtime_ns", "size", "hash", "language", "skipped")
        return "FileRow(" + ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields())) + ")"


def _fresh(row_mtime: int, row_size: int, row_change: int, row_checked: int, st: os.stat_result) -> bool:
    """True when the indexed row can be trusted without reading the file again."""
    return (
        row_mtime == st.st_mtime_ns
        and row_size == st.st_size
        and row_change == change_stamp(st)
        and trusted(st, row_checked)
    )


class CodeIndex(ResolutionMemo):
    """Files and symbols of one repository's working tree, in its cache database."""

    def __init__(self, root: Path, conn: sqlite3.Connection) -> None:
        self.root = root
        self.conn = conn
        self.dirty = 0  # files re-read by this process because they changed
        self._dirs_inside: dict[str, bool] = {}
        self.swept = False
        self.cut_short = False  # this process's last sweep stopped at its deadline: the index is partial
        self.checked_at: float | None = None  # when this process last checked a file against the tree

    # -- single files -------------------------------------------------------------------------
    def contained(self, rel: str) -> bool:
        """Whether `rel`'s directory really is inside the root: a committed symlinked directory
        (`vendor -> ../elsewhere`) must not let a hand-edited anchor read files outside it."""
        parent = rel.rpartition("/")[0]
        ok = self._dirs_inside.get(parent)
        if ok is None:
            real = os.path.realpath(os.path.join(self.root, parent))
            root = str(self.root)
            ok = self._dirs_inside[parent] = real == root or real.startswith(root + os.sep)
        return ok

    def file(self, rel: str) -> FileRow | None:
        """The file's current row, re-reading it first if it changed; None if it is gone."""
        if not self.contained(rel):
            return None
        self.checked_at = time.time()
        row = self.conn.execute(
            "SELECT path, mtime_ns, size, hash, language, skipped, checked_ns, change FROM files WHERE path=?",
            (rel,),
        ).fetchone()
        try:
            st = os.stat(root_prefix(self.root) + rel, follow_symlinks=False)
        except OSError:
            st = None
        if st is None or not is_regular(st):
            if row is not None:
                with transaction(self.conn):
                    self._forget(rel)
            return None
        if row is not None and _fresh(row[1], row[2], row[7], row[6], st):
            return FileRow(*row[:6])
        got = read_regular(self.root, rel)
        if got is None:
            return None
        st, data = got
        checked = time.time_ns()
        if row is not None and row[3] == content_hash(data):
            self.conn.execute(
                "UPDATE files SET mtime_ns=?, change=?, size=?, checked_ns=? WHERE path=?",
                (st.st_mtime_ns, change_stamp(st), len(data), checked, rel),
            )
            return FileRow(rel, st.st_mtime_ns, len(data), row[3], row[4], row[5])
        self.dirty += 1
        facts = safe_analyze(rel, data)
        with transaction(self.conn):
            self._store(rel, st.st_mtime_ns, change_stamp(st), len(data), checked, facts)
        return FileRow(rel, st.st_mtime_ns, len(data), facts.hash, facts.language, facts.skipped)

    def symbols(self, rel: str, qualname: str | None = None) -> list[Symbol]:
        """Symbols of a file as indexed (call `file()` first to refresh), optionally one name only."""
        sql = "SELECT qualname, discriminator, kind, start_line, end_line, start_byte, end_byte, hash, entropy FROM symbols WHERE path=?"
        args: tuple = (rel,)
        if qualname is not None:
            sql += " AND qualname=?"
            args = (rel, qualname)
        return [Symbol(*r) for r in self.conn.execute(sql + " ORDER BY start_byte", args)]

    # -- whole repository ---------------------------------------------------------------------
    def sweep(self, workers: int | None = None, deadline: float | None = None) -> dict[str, int | list[str]]:
        """Bring the whole index up to date with the working tree; parse changed files on all cores.

        `deadline` (a `time.monotonic()` instant): stop parsing then, keep what was parsed, and say
        `complete: 0`. A hook cannot wait for a first index of a large repository; the next sweep
        parses only what is still missing."""
        files, misnamed = list_files(self.root)
        known = {
            r[0]: (r[1], r[2], r[3], r[4])
            for r in self.conn.execute("SELECT path, mtime_ns, size, change, checked_ns FROM files")
        }
        changed: list[str] = []
        sizes: dict[str, int] = {}
        present: set[str] = set()
        prefix = root_prefix(self.root)
        for rel in files:
            try:
                st = os.stat(prefix + rel, follow_symlinks=False)
            except OSError:
                continue
            if not is_regular(st):
                continue
            present.add(rel)
            prev = known.get(rel)
            if prev and _fresh(*prev, st):
                continue
            changed.append(rel)
            sizes[rel] = st.st_size
        vanished = [p for p in known if p not in present]
        bulk = not known and len(changed) >= BULK_FILES
        self._lookup_indexes(build=not bulk)
        parsed = 0
        try:
            # each batch is written as it comes back, in its own short transaction: the writes overlap
            # the parsing still running, and other processes' writers never wait for a whole sweep
            for batch in analyze_many(self.root, changed, workers, sizes, deadline):
                with transaction(self.conn):
                    for rel, file_row, symbol_rows in batch:
                        if file_row is None:
                            self._forget(rel)
                        else:
                            self._store_rows(rel, file_row, symbol_rows)
                parsed += len(batch)
        finally:
            if bulk:
                self._lookup_indexes(build=True)
        complete = parsed == len(changed)
        with transaction(self.conn):
            for rel in vanished:
                self._forget(rel)
            if complete:  # "indexed at" names the last sweep that saw every file
                self.conn.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES('indexed_at', ?)", (str(time.time()),)
                )
        self.swept = complete
        self.cut_short = not complete
        self.dirty += parsed
        out: dict[str, int | list[str]] = {
            "files": len(present),
            "parsed": parsed,
            "removed": len(vanished),
            "complete": int(complete),
        }
        if misnamed:
            out["skipped_names"] = misnamed[:20]
            out["skipped_names_count"] = len(misnamed)
        return out

    def _lookup_indexes(self, build: bool) -> None:
        """Create the lookup indexes if missing (also after a sweep that was killed), or drop them
        for a bulk load. Lookups stay correct without them, only slower, meanwhile."""
        have = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        todo = [name for name in LOOKUP_INDEXES if (name in have) != build]
        if not todo:
            return  # the usual case: a read, no write lock
        with transaction(self.conn):
            for name in todo:
                on = LOOKUP_INDEXES[name]
                self.conn.execute(
                    f"CREATE INDEX IF NOT EXISTS {name} ON {on}" if build else f"DROP INDEX IF EXISTS {name}"
                )

    def indexed_at(self) -> float | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key='indexed_at'").fetchone()
        return float(row[0]) if row else None

    def find_symbols(self, hash_: str) -> list[tuple[str, Symbol]]:
        rows = self.conn.execute(
            "SELECT path, qualname, discriminator, kind, start_line, end_line, start_byte, end_byte, hash, entropy "
            "FROM symbols WHERE hash=? ORDER BY path, start_byte",
            (hash_,),
        )
        return [(r[0], Symbol(*r[1:])) for r in rows]

    def find_named(self, qualname: str) -> list[tuple[str, Symbol]]:
        rows = self.conn.execute(
            "SELECT path, qualname, discriminator, kind, start_line, end_line, start_byte, end_byte, hash, entropy "
            "FROM symbols WHERE qualname=? ORDER BY path, start_byte",
            (qualname,),
        )
        return [(r[0], Symbol(*r[1:])) for r in rows]

    def find_basename(self, name: str) -> list[FileRow]:
        rows = self.conn.execute(
            "SELECT path, mtime_ns, size, hash, language, skipped FROM files "
            "WHERE path=? OR path LIKE ? ESCAPE '\\' ORDER BY path",
            (name, "%/" + name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")),
        )
        return [FileRow(*r) for r in rows]

    def files_in(self, directory: str, suffix: str) -> list[str]:
        """Indexed files directly in `directory` ("" for the root) whose names end with `suffix`."""
        prefix = directory + "/" if directory else ""
        esc = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        rows = self.conn.execute("SELECT path FROM files WHERE path LIKE ? ESCAPE '\\' ORDER BY path", (esc + "%",))
        return [r[0] for r in rows if "/" not in r[0][len(prefix) :] and r[0].endswith(suffix)]

    def find_files(self, hash_: str) -> list[FileRow]:
        rows = self.conn.execute(
            "SELECT path, mtime_ns, size, hash, language, skipped FROM files WHERE hash=? ORDER BY path",
            (hash_,),
        )
        return [FileRow(*r) for r in rows]

    # -- source text, for diffs ---------------------------------------------------------------
    def read_bytes(self, rel: str) -> bytes | None:
        """The file's bytes now, if it is a regular file inside the root."""
        got = read_regular(self.root, rel) if self.contained(rel) else None
        return None if got is None else got[1]

    def read_text(self, rel: str, start: int | None = None, end: int | None = None) -> str | None:
        data = self.read_bytes(rel)
        return None if data is None else data[start:end].decode("utf-8", "replace")

    # -- internals ----------------------------------------------------------------------------
    def _forget(self, rel: str) -> None:
        self.conn.execute("DELETE FROM files WHERE path=?", (rel,))
        self.conn.execute("DELETE FROM symbols WHERE path=?", (rel,))

    def _store(self, rel: str, mtime_ns: int, change: int, size: int, checked: int, facts: FileFacts) -> None:
        self._store_rows(*rows_of(rel, mtime_ns, change, size, checked, facts))

    def _store_rows(self, rel: str, file_row: tuple, symbol_rows: list[tuple]) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO files(path, mtime_ns, change, size, checked_ns, hash, language, skipped) "
            "VALUES(?,?,?,?,?,?,?,?)",
            file_row,
        )
        self.conn.execute("DELETE FROM symbols WHERE path=?", (rel,))
        self.conn.executemany(
            "INSERT INTO symbols(path, qualname, discriminator, kind, start_line, end_line, start_byte, end_byte, hash, entropy) "
            "VALUES(?,?,?,?,?,?,?,?,?,?)",
            symbol_rows,
        )
