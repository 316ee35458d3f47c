"""The cache database: one SQLite file per repository, WAL, safe for concurrent processes."""

from __future__ import annotations

import _weakref  # the C module behind weakref: no import cost on the prompt hook's path
import os
import sqlite3
import sys
import time

SCHEMA_VERSION = "25"  # 25: accents folded by recall/text.py, not by FTS5 (whose folding the terms' counts missed); 24: verdicts kept for a listing (service/listing.py); 23: memory vectors (vkey, vec_text); 22: memory files' hashes in the search index; 21: parsed memory files; 20: ECMAScript hash format 2; 19: the anchored code as a memory search field; 18: reStructuredText sections; 17: mem_contradicts; 16: Python hash format 2 (15: follows keyed by the anchor; 14: JS default-exported and nested object members, module functions; 13: object literals prefix; 12: Scala braces; 11: JS parens, CommonJS; 10: raw literals)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(
  path TEXT PRIMARY KEY, mtime_ns INTEGER, change INTEGER, size INTEGER, checked_ns INTEGER,
  hash TEXT, language TEXT, skipped TEXT);
CREATE INDEX IF NOT EXISTS files_hash ON files(hash);
CREATE TABLE IF NOT EXISTS symbols(
  path TEXT, qualname TEXT, discriminator TEXT, kind TEXT, start_line INTEGER, end_line INTEGER,
  start_byte INTEGER, end_byte INTEGER, hash TEXT, entropy REAL);
CREATE INDEX IF NOT EXISTS symbols_path ON symbols(path, qualname);
CREATE INDEX IF NOT EXISTS symbols_hash ON symbols(hash);
CREATE TABLE IF NOT EXISTS snippets(hash TEXT PRIMARY KEY, text TEXT);
CREATE TABLE IF NOT EXISTS searches(anchor_hash TEXT PRIMARY KEY, stamp TEXT, at REAL);
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(qualname);
CREATE TABLE IF NOT EXISTS follows(
  anchor_hash TEXT, from_path TEXT, from_symbol TEXT, from_disc TEXT, path TEXT, symbol TEXT, discriminator TEXT,
  PRIMARY KEY(anchor_hash, from_path, from_symbol, from_disc));
CREATE TABLE IF NOT EXISTS mem_parsed(
  name TEXT PRIMARY KEY, mtime_ns INTEGER, change INTEGER, size INTEGER, checked_ns INTEGER, hash BLOB, codec TEXT,
  memory BLOB);
CREATE TABLE IF NOT EXISTS mem_files(
  name TEXT PRIMARY KEY, mtime_ns INTEGER, change INTEGER, size INTEGER, checked_ns INTEGER, rid INTEGER, error TEXT,
  hash BLOB);
CREATE TABLE IF NOT EXISTS mems(
  rid INTEGER PRIMARY KEY, id TEXT, name TEXT, kind TEXT, summary TEXT, confidence REAL, verified_ts REAL,
  valid_from_ts REAL, valid_to_ts REAL, closed_ts REAL, paths TEXT, dl REAL, tf TEXT, ctf TEXT, hashes TEXT, code_pending INTEGER,
  vkey TEXT);
CREATE TABLE IF NOT EXISTS vec_text(key TEXT PRIMARY KEY, text TEXT);
CREATE TABLE IF NOT EXISTS verdicts_kept(name TEXT PRIMARY KEY, codec TEXT, value BLOB);
CREATE INDEX IF NOT EXISTS mems_id ON mems(id);
CREATE INDEX IF NOT EXISTS mems_closed ON mems(closed_ts);
CREATE INDEX IF NOT EXISTS mems_code_pending ON mems(code_pending);
CREATE TABLE IF NOT EXISTS mem_paths(path TEXT, dir TEXT, rid INTEGER);
CREATE INDEX IF NOT EXISTS mem_paths_path ON mem_paths(path);
CREATE INDEX IF NOT EXISTS mem_paths_dir ON mem_paths(dir);
CREATE INDEX IF NOT EXISTS mem_paths_rid ON mem_paths(rid);
CREATE TABLE IF NOT EXISTS mem_links(rid INTEGER, target TEXT);
CREATE INDEX IF NOT EXISTS mem_links_target ON mem_links(target);
CREATE INDEX IF NOT EXISTS mem_links_rid ON mem_links(rid);
CREATE TABLE IF NOT EXISTS mem_contradicts(rid INTEGER, target TEXT);
CREATE INDEX IF NOT EXISTS mem_contradicts_target ON mem_contradicts(target);
CREATE INDEX IF NOT EXISTS mem_contradicts_rid ON mem_contradicts(rid);
CREATE VIRTUAL TABLE IF NOT EXISTS mem_fts USING fts5(
  summary, body, tags, paths, symbols, code, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE IF NOT EXISTS mem_vocab USING fts5vocab(mem_fts, 'row');
"""


REBUILT_NOTE = "rebuilt.json"  # beside the cache: when and why it was last rebuilt, for `tether doctor`
_opened: set[str] = set()  # caches this process connected to: what `discard_opened` deletes
_live: list[_weakref.ref] = []  # this process's open connections, for close_all


class _Connection(sqlite3.Connection):
    """sqlite3's connection, which (unlike the C type itself) takes weak references: close_all finds it."""


def close_all() -> None:
    """Close every cache connection this process still has open, before a process exits without
    its interpreter's teardown (the CLI's and the hooks' quick exit): closing the last connection
    checkpoints the WAL into the database, which the next process would otherwise have to recover."""
    for ref in _live:
        conn = ref()
        if conn is not None:
            try:
                conn.close()
            except sqlite3.Error:
                pass
    _live.clear()


def connect(path: str | os.PathLike) -> sqlite3.Connection:
    """Open (creating or rebuilding) the cache. A cache from another schema version is discarded."""
    os.makedirs(os.path.dirname(os.fspath(path)), exist_ok=True)
    _opened.add(os.fspath(path))
    try:
        return _open(path)
    except sqlite3.DatabaseError as e:
        if not is_corrupt(e):
            raise  # "database is locked" is another process at work, not damage: never delete its cache
        discard(path, str(e))
        return _open(path)


def is_corrupt(e: BaseException) -> bool:
    """Damage (SQLITE_CORRUPT, SQLITE_NOTADB), as opposed to a lock, a full disk or a bug."""
    if not isinstance(e, sqlite3.DatabaseError):
        return False
    code = getattr(e, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return code & 0xFF in (11, 26)
    text = str(e).lower()
    return "malformed" in text or "not a database" in text or "corrupt" in text


def discard(path: str | os.PathLike, why: str) -> None:
    """Delete a damaged cache (it loses nothing: it is rebuilt from the working tree and the
    memory files) and leave a note of it beside, which `tether doctor` reports."""
    base = os.fspath(path)
    for suffix in ("", "-wal", "-shm"):
        try:
            os.unlink(base + suffix)
        except FileNotFoundError:
            pass
    note = os.path.join(os.path.dirname(base), REBUILT_NOTE)
    try:
        with open(note, "w", encoding="utf-8") as f:
            import json  # a rebuild is rare: not on every command's path

            json.dump({"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "why": why[:300]}, f)
    except OSError:
        pass


def opened() -> list[str]:
    """The caches this process connected to."""
    return sorted(_opened)


def discard_opened(why: str) -> int:
    """Discard every cache this process opened: pages overwritten with garbage surface only when a
    query reads them, long after `connect`. The caller then runs its operation again, once."""
    for path in sorted(_opened):
        discard(path, why)
    n = len(_opened)
    _opened.clear()
    return n


def _open(path: str | os.PathLike) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False, factory=_Connection)
    _live[:] = [r for r in _live if r() is not None] + [_weakref.ref(conn)]
    conn.execute("PRAGMA busy_timeout=30000")
    _into_wal(conn)
    conn.execute("PRAGMA synchronous=NORMAL")
    row = None
    try:
        row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    except sqlite3.OperationalError:
        pass
    if row is None or row[0] != SCHEMA_VERSION:
        with transaction(conn):
            if row is not None:
                for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
                    if not name.startswith("sqlite_"):
                        conn.execute(f'DROP TABLE IF EXISTS "{name}"')
            for stmt in SCHEMA.split(";"):
                if stmt.strip():
                    conn.execute(stmt)
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('schema', ?)", (SCHEMA_VERSION,))
    _same_grammars(conn)
    return conn


# What the code index derived from a parse: new grammars can parse, and so hash, a symbol
# differently, and rows from older ones would keep their hashes until each file changed (a warm
# answer unlike a cold one). The memory index, its vectors and the snippets (code text by its
# hash) do not depend on them and stay.
PARSED_TABLES = ("files", "symbols", "searches", "follows", "verdicts_kept")
_GRAMMARS: list[str] = []


def _same_grammars(conn: sqlite3.Connection) -> None:
    """Empty the code index's tables when the installed grammars are not the ones it was built with."""
    if not _GRAMMARS:
        _GRAMMARS.append(grammars())
    row = conn.execute("SELECT value FROM meta WHERE key='grammars'").fetchone()
    if row is not None and row[0] == _GRAMMARS[0]:
        return
    with transaction(conn):
        row = conn.execute("SELECT value FROM meta WHERE key='grammars'").fetchone()
        if row is not None and row[0] == _GRAMMARS[0]:
            return  # another process emptied them meanwhile
        for table in PARSED_TABLES:
            conn.execute(f"DELETE FROM {table}")
        conn.execute("DELETE FROM meta WHERE key='indexed_at'")
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('grammars', ?)", (_GRAMMARS[0],))


def grammars() -> str:
    """The tree-sitter distributions beside tree_sitter_language_pack (the pack, the core and the
    grammars it depends on), by their dist-info names, which hold their versions: read from the
    directory, since importing the pack costs far more than the hooks can spend."""
    for entry in sys.path:
        place = entry or "."
        if os.path.isdir(os.path.join(place, "tree_sitter_language_pack")):
            try:
                names = os.listdir(place)
            except OSError:
                continue
            found = sorted(
                n[: -len(".dist-info")] for n in names if n.startswith("tree_sitter") and n.endswith(".dist-info")
            )
            return "+".join(found) or "unversioned"
    return "none"


def _into_wal(conn: sqlite3.Connection, patience_s: float = 30.0) -> None:
    """Switch a new cache to WAL. The switch needs the only lock on the file, and SQLite answers
    "locked" at once, without waiting, when a neighbour holds a read lock: several processes
    opening a new cache together (hooks, the MCP server, a CLI) meet exactly that. Another one
    may switch it meanwhile; otherwise try again until the patience is spent."""
    deadline = time.monotonic() + patience_s
    delay = 0.005
    while conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        try:
            conn.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)


class transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on error: writers queue instead of failing."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
