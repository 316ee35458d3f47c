"""Memory vectors: one per memory text, in `vectors.sqlite` beside the cache, keyed by a hash of
the model and the text (so a rebuilt cache, another branch or a re-indexed file finds its vector
again), and a process-wide copy for the MCP server, which answers many recalls.

Every current memory's text is in `vec_text` (the cache); `fill` embeds those without a vector,
within a time budget per recall or all at once (`tether index`). Recall blends the cosines in only
while every memory has its vector (`complete`): a half-embedded store would rank the embedded half
above the rest, so until then recall is lexical, and the same question gets the same answer. The
flag is kept against the vector store's own generation, so a deleted or rebuilt store is refilled.
"""

from __future__ import annotations

import os
import sqlite3
import time

import numpy as np

from tether.index import db
from tether.recall.semantic import encoder

VEC_DB = "vectors.sqlite"
DIM = 384
QUERY_TOKENS = 64  # a task is searched on its first words: the cost of a query grows with its length
FILL_CHUNK = 4  # texts per forward pass: the budget is checked between passes
_vectors: dict[str, np.ndarray] = {}  # key -> vector, kept for the process (384 x 2 bytes each)
_matrix: list = []  # [(rows, matrix)]: the last search's vectors, stacked, while the same memories stand
_MAX_KEPT = 200_000


def attach(conn: sqlite3.Connection) -> bool:
    """Attach the vector store beside the cache database as `vec`; False for an in-memory cache."""
    dbs = {row[1]: row[2] for row in conn.execute("PRAGMA database_list")}
    if "vec" in dbs:
        return True
    main = dbs.get("main")
    if not main:
        return False
    path = os.path.join(os.path.dirname(main), VEC_DB)
    try:
        _open(conn, path)
    except sqlite3.DatabaseError as e:
        if not db.is_corrupt(e):
            raise  # busy or unwritable: this recall goes without, the store stays
        db.discard(path, str(e))  # damaged: it is a cache, start it again
        _open(conn, path)
    return True


def _open(conn: sqlite3.Connection, path: str) -> None:
    try:
        conn.execute("ATTACH DATABASE ? AS vec", (path,))
        conn.execute("CREATE TABLE IF NOT EXISTS vec.vecs(key TEXT PRIMARY KEY, vec BLOB)")
        conn.execute("CREATE TABLE IF NOT EXISTS vec.meta(key TEXT PRIMARY KEY, value TEXT)")
        conn.execute("INSERT OR IGNORE INTO vec.meta(key, value) VALUES('generation', ?)", (os.urandom(8).hex(),))
    except sqlite3.DatabaseError:
        if "vec" in {row[1] for row in conn.execute("PRAGMA database_list")}:
            conn.execute("DETACH DATABASE vec")
        raise


_WAITING = "SELECT t.key, t.text FROM vec_text t WHERE NOT EXISTS (SELECT 1 FROM vec.vecs v WHERE v.key = t.key)"


def pending(conn: sqlite3.Connection) -> int:
    """Memory texts still waiting for their vector (the store attached)."""
    return conn.execute(f"SELECT count(*) FROM ({_WAITING})").fetchone()[0]


def complete(conn: sqlite3.Connection) -> bool:
    """Whether every current memory had its vector at the last fill, in this vector store."""
    mine = conn.execute("SELECT value FROM meta WHERE key='vec_complete'").fetchone()
    gen = conn.execute("SELECT value FROM vec.meta WHERE key='generation'").fetchone()
    return mine is not None and gen is not None and mine[0] == gen[0]


def fill(conn: sqlite3.Connection, budget_s: float | None) -> int:
    """Embed waiting memory texts until `budget_s` is spent (None: all of them), shortest first.
    Returns how many; marks the store complete when none is left."""
    model = encoder()
    if model is None or not attach(conn) or complete(conn):
        return 0
    done, start = 0, time.monotonic()
    while True:
        rows = conn.execute(f"{_WAITING} ORDER BY length(t.text), t.key LIMIT ?", (FILL_CHUNK,)).fetchall()
        if not rows:
            with db.transaction(conn):
                # asked again under the write lock: a memory another process adds meanwhile
                # (its text written, the flag cleared, in one transaction) is never marked embedded
                if conn.execute(f"{_WAITING} LIMIT 1").fetchone() is None:
                    gen = conn.execute("SELECT value FROM vec.meta WHERE key='generation'").fetchone()[0]
                    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('vec_complete', ?)", (gen,))
            break
        if budget_s is not None and time.monotonic() - start >= budget_s:
            break
        vecs = model.encode([text for _, text in rows])
        with db.transaction(conn):
            conn.executemany(
                "INSERT OR REPLACE INTO vec.vecs(key, vec) VALUES(?,?)",
                [(k, v.astype(np.float16).tobytes()) for (k, _), v in zip(rows, vecs)],
            )
        done += len(rows)
    return done


def query(task: str) -> np.ndarray | None:
    model = encoder()
    return None if model is None else model.encode([task], max_tokens=QUERY_TOKENS)[0]


def cosines(conn: sqlite3.Connection, q: np.ndarray, where: str, args: tuple) -> dict[int, float]:
    """rid -> cosine with `q`, for every memory under the filters that has a vector."""
    rows = conn.execute(f"SELECT m.rid, m.vkey FROM mems m WHERE m.vkey IS NOT NULL AND {where}", args).fetchall()
    if _matrix and _matrix[0][0] == rows:
        have, matrix = _matrix[0][1], _matrix[0][2]
        return {rid: float(s) for rid, s in zip(have, matrix @ q)}
    missing = [k for _, k in rows if k not in _vectors]
    if len(_vectors) + len(missing) > _MAX_KEPT:
        _vectors.clear()
        missing = [k for _, k in rows]
    for i in range(0, len(missing), 500):
        chunk = missing[i : i + 500]
        marks = ",".join("?" * len(chunk))
        for k, blob in conn.execute(f"SELECT key, vec FROM vec.vecs WHERE key IN ({marks})", chunk):
            if len(blob) == DIM * 2:
                _vectors[k] = np.frombuffer(blob, dtype=np.float16)
    have = [rid for rid, k in rows if k in _vectors]
    if not have:
        return {}
    matrix = np.stack([_vectors[k] for _, k in rows if k in _vectors]).astype(np.float32)
    if len(have) == len(rows):  # complete: worth keeping for the next search
        _matrix[:] = [(rows, have, matrix)]
    return {rid: float(s) for rid, s in zip(have, matrix @ q)}
