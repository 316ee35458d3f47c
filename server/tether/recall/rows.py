"""How one memory file becomes rows of the memory search index (and leaves them again).

Stdlib only at import, like search.py: the prompt hook syncs the index before it searches.
"""

from __future__ import annotations

import json
import os
import posixpath
import sqlite3
import time

from tether.errors import StoreCorrupt
from tether.files.locate import short_hash
from tether.index.worker import change_stamp
from tether.recall.text import code_terms, terms
from tether.store.links import closed_by_successor

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from tether.store.model import Memory

# BM25F column weights: summary, body, tags, paths, symbols, and the anchored code's own words (its
# names split, signature, docstring, the names it calls), which bridge a question's vocabulary to the
# memory's when the two share few words. Calibrated on tests/bench/recall_history.py's training part.
WEIGHTS = (3.0, 1.0, 2.0, 1.5, 2.0, 0.5)
COLUMNS = "summary, body, tags, paths, symbols, code"
VECTOR_MODEL = "all-MiniLM-L6-v2"  # semantic.MODEL_ID, spelled here: this module must not load numpy


def _ts(text: str | None) -> float | None:
    if not text:
        return None
    got = _TS.get(text, _TS)
    if got is _TS:
        from tether.store.model import parse_time

        try:
            got = parse_time(text).timestamp()
        except ValueError:
            got = None
        if len(_TS) >= 10_000:
            _TS.clear()
        _TS[text] = got
    return got


_TS: dict = {}  # times by their spelling: a pull's memories share a few (a memory's three are often one)


def parse(directory: str, name: str) -> tuple[str, os.stat_result | None, int, Memory | None, str | None, bytes | None]:
    """One memory file read for the index: (name, stat, when read, the memory or None, why it was
    refused, its bytes' hash: what a later read within the racy window compares, `same_bytes`)."""
    from tether.anchor.content import bytes_hash
    from tether.store.memory import loads, read_file

    path = os.path.join(directory, name)
    checked = time.time_ns()
    try:
        st, data = read_file(path)
    except OSError as e:
        return name, None, checked, None, f"unreadable: {e.strerror}", None
    except StoreCorrupt as e:
        try:
            st = os.stat(path, follow_symlinks=False)
        except OSError:
            return name, None, checked, None, e.message, None
        return name, st, checked, None, e.message, None
    try:
        return name, st, checked, loads(data, f".tether/memories/{name}"), None, bytes_hash(data)
    except StoreCorrupt as e:
        return name, st, checked, None, e.message, bytes_hash(data)


def same_bytes(directory: str, name: str, digest: bytes | None) -> tuple[os.stat_result, int] | None:
    """(stat, when read) of a file whose stat matched its row too recently to trust, read again: if
    its bytes still hash to `digest`, it is indexed as it stands and only its row's stamp is renewed."""
    from tether.anchor.content import bytes_hash
    from tether.store.memory import read_file

    checked = time.time_ns()
    try:
        st, data = read_file(os.path.join(directory, name))
    except (OSError, StoreCorrupt):
        return None
    return (st, checked) if digest is not None and bytes_hash(data) == digest else None


def drop(conn: sqlite3.Connection, name: str) -> None:
    got = conn.execute("SELECT rid FROM mem_files WHERE name=?", (name,)).fetchone()
    conn.execute("DELETE FROM mem_files WHERE name=?", (name,))
    if got and got[0] is not None:
        rid = got[0]
        conn.execute(  # its text, unless another memory says the same
            "DELETE FROM vec_text WHERE key IN (SELECT vkey FROM mems WHERE rid=?) "
            "AND NOT EXISTS (SELECT 1 FROM mems o WHERE o.vkey = vec_text.key AND o.rid != ?)",
            (rid, rid),
        )
        for table in ("mems", "mem_paths", "mem_links", "mem_contradicts"):
            conn.execute(f"DELETE FROM {table} WHERE rid=?", (rid,))
        conn.execute("DELETE FROM mem_fts WHERE rowid=?", (rid,))


def insert_many(conn: sqlite3.Connection, items: list[tuple], fields: dict | None = None) -> None:
    """Index memory files, each `(name, stat, when read, memory or None, why refused, bytes' hash)`
    as `parse` returns it, after their old rows were dropped. `fields`: code fields already made
    in this batch, by anchor hashes (many memories share an anchor: its code is split once).

    A statement per table for the whole batch (a pull brings thousands): each memory's rid is the
    one a row-by-row insert would have been given, max(rid) + 1, so what follows is the same."""
    fields = {} if fields is None else fields
    items = [item for item in items if item[1] is not None]  # vanished: the next sync sees it gone
    parsed = [item[3] for item in items if item[3] is not None]
    encode = _fast_json() if parsed else _json

    hashes_of = [list(dict.fromkeys(a.hash for a in m.anchors if a.hash)) for m in parsed]
    # the batch's anchored texts, asked at once
    texts = _snippets(conn, {h for hs in hashes_of if tuple(hs) not in fields for h in hs})
    rid = conn.execute("SELECT max(rid) FROM mems").fetchone()[0] or 0
    mems, fts, vecs, paths_rows, links, contradicts, files = [], [], [], [], [], [], []
    at = iter(zip(parsed, hashes_of))
    for name, st, checked, m, error, digest in items:
        got = None
        if m is not None:
            m, hashes = next(at)
            rid = got = rid + 1
            paths = list(dict.fromkeys(a.path for a in m.anchors))
            key = tuple(hashes)
            if key not in fields:
                fields[key] = _code(texts, hashes)
            code, missing = fields[key]
            cols = (
                terms(m.summary),
                terms(m.body),
                terms(" ".join(m.tags)),
                terms(" ".join(paths), path=True),
                terms(" ".join(a.symbol or "" for a in m.anchors)),
                code,
            )
            text = vector_text(m.summary, m.body)
            vkey = vector_key(text)
            dl, tf, ctf = _weighed(cols, encode)
            mems.append(
                (
                    rid,
                    m.id,
                    name,
                    m.kind,
                    m.summary,
                    m.confidence,
                    _ts(m.verified_at) or 0.0,
                    _ts(m.valid_from) or 0.0,
                    _ts(m.valid_to),
                    encode(paths),
                    dl,
                    tf,
                    ctf,
                    encode(hashes),
                    int(missing),
                    vkey,
                )
            )
            fts.append((rid, *(" ".join(c) for c in cols)))
            vecs.append((vkey, text))
            paths_rows += [(p, parent_dir(p), rid) for p in paths]
            links += [(rid, t) for t in m.links.get("supersedes", [])]
            contradicts += [(rid, t) for t in m.links.get("contradicts", [])]
        files.append((name, st.st_mtime_ns, change_stamp(st), st.st_size, checked, got, error, digest))
    conn.executemany(
        "INSERT INTO mems(rid, id, name, kind, summary, confidence, verified_ts, valid_from_ts, valid_to_ts, paths, "
        "dl, tf, ctf, hashes, code_pending, vkey) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        mems,
    )
    if conn.executemany("INSERT OR IGNORE INTO vec_text(key, text) VALUES(?,?)", vecs).rowcount > 0:
        conn.execute("DELETE FROM meta WHERE key='vec_complete'")  # a new text: the next recall embeds it first
    conn.executemany(f"INSERT INTO mem_fts(rowid, {COLUMNS}) VALUES(?,?,?,?,?,?,?)", fts)
    conn.executemany("INSERT INTO mem_paths(path, dir, rid) VALUES(?,?,?)", paths_rows)
    conn.executemany("INSERT INTO mem_links(rid, target) VALUES(?,?)", links)
    conn.executemany("INSERT INTO mem_contradicts(rid, target) VALUES(?,?)", contradicts)
    conn.executemany(
        "INSERT OR REPLACE INTO mem_files(name, mtime_ns, change, size, checked_ns, rid, error, hash) "
        "VALUES(?,?,?,?,?,?,?,?)",
        files,
    )


def vector_text(summary: str, body: str) -> str:
    """What a memory's vector is of: its summary, then its body."""
    return f"{summary}\n{body}"


def vector_key(text: str) -> str:
    """The vector store's key for `text`: the model's name and the text, hashed (semantic/vectors.py)."""
    return short_hash(f"{VECTOR_MODEL}\n{text}".encode("utf-8", "surrogatepass"), 16)


def _index_text(conn: sqlite3.Connection, rid: int, cols: tuple[list[str], ...]) -> None:
    conn.execute(f"INSERT INTO mem_fts(rowid, {COLUMNS}) VALUES(?,?,?,?,?,?,?)", (rid, *(" ".join(c) for c in cols)))
    conn.execute("UPDATE mems SET dl=?, tf=?, ctf=? WHERE rid=?", (*_weighed(cols), rid))


def _weighed(cols: tuple[list[str], ...], encode=None) -> tuple[float, str, str]:
    """(weighted length, term weights, code term weights) of a memory's fields, the last two as JSON
    (`encode`: the JSON encoder, `_json` by default)."""
    tf: dict[str, float] = {}
    for w, col in zip(WEIGHTS[:-1], cols[:-1]):
        for term in col:
            tf[term] = tf.get(term, 0.0) + w
    # The code field apart (ctf): push-recall, which must be sure, scores the memory's own words only.
    # It does not lengthen the memory either: a long function is not a less relevant memory.
    ctf = {term: WEIGHTS[-1] for term in cols[-1]}
    dl = sum(w * len(c) for w, c in zip(WEIGHTS[:-1], cols[:-1]))
    encode = encode or _json
    return dl, encode(tf), encode(ctf)


def _code(texts: dict[str, str], hashes: list[str]) -> tuple[list[str], bool]:
    """The code field from the anchored text the cache keeps (`texts`: snippets by hash), and
    whether some anchor's text is not there yet (a memory pulled before anything resolved its anchors)."""
    return code_terms([texts[h] for h in hashes if h in texts]), any(h not in texts for h in hashes)


def _snippets(conn: sqlite3.Connection, hashes: set[str]) -> dict[str, str]:
    """The kept text of each of `hashes` that has some, asked 500 at a time."""
    wanted = list(hashes)
    out: dict[str, str] = {}
    for i in range(0, len(wanted), 500):
        chunk = wanted[i : i + 500]
        marks = ",".join("?" * len(chunk))
        out.update(conn.execute(f"SELECT hash, text FROM snippets WHERE hash IN ({marks})", chunk).fetchall())
    return out


FILL_BATCH = 500  # memories given their code field per search, at most


def code_due(conn: sqlite3.Connection) -> int | None:
    """The snippet cache's newest row when memories wait for their code field and the cache has
    gained snippets since the last look; else None. Read-only: a search asks it every time."""
    if conn.execute("SELECT 1 FROM mems WHERE code_pending=1 LIMIT 1").fetchone() is None:
        return None
    newest = conn.execute("SELECT max(rowid) FROM snippets").fetchone()[0] or 0
    seen = conn.execute("SELECT value FROM meta WHERE key='code_seen'").fetchone()
    return None if seen is not None and int(seen[0]) >= newest else newest


def fill_code(conn: sqlite3.Connection, batch: int | None = None) -> int:
    """Give memories indexed before their anchored text was cached their code field (see code_due).
    `batch`: at most this many (default FILL_BATCH). Returns how many memories were re-indexed."""
    done, batch = 0, FILL_BATCH if batch is None else batch
    newest = code_due(conn) if batch > 0 else None
    if newest is None:
        return 0
    got = conn.execute("SELECT value FROM meta WHERE key='code_cursor'").fetchone()
    cursor = int(got[0]) if got else 0
    # a batch per search, from where the last one stopped: a hook after a pull of 10,000 memories
    # must not re-index them all inside its budget
    pending = conn.execute(
        "SELECT rid, hashes FROM mems WHERE code_pending=1 AND rid > ? ORDER BY rid LIMIT ?", (cursor, batch)
    ).fetchall()
    anchored = [(rid, tuple(json.loads(hashes_json or "[]"))) for rid, hashes_json in pending]
    texts = _snippets(conn, {h for _, hashes in anchored for h in hashes})
    fields: dict[tuple[str, ...], tuple[list[str], bool]] = {}  # memories on the same anchors share one
    for rid, hashes in anchored:
        if hashes not in fields:
            fields[hashes] = _code(texts, list(hashes))
        code, missing = fields[hashes]
        if not code:
            if not missing:
                conn.execute("UPDATE mems SET code_pending=0 WHERE rid=?", (rid,))
            continue
        row = conn.execute("SELECT summary, body, tags, paths, symbols FROM mem_fts WHERE rowid=?", (rid,)).fetchone()
        if row is None:
            continue
        conn.execute("DELETE FROM mem_fts WHERE rowid=?", (rid,))
        _index_text(conn, rid, (*(col.split() for col in row), code))
        conn.execute("UPDATE mems SET code_pending=? WHERE rid=?", (int(missing), rid))
        done += 1
    if len(pending) < batch:  # the whole list seen: wait for new snippets before looking again
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('code_seen', ?)", (str(newest),))
        cursor = 0
    else:
        cursor = pending[-1][0]
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('code_cursor', ?)", (str(cursor),))
    if done:
        save_stats(conn)
    return done


def save_stats(conn: sqlite3.Connection) -> None:
    """The memory count and mean weighted length BM25F normalizes by, as of now."""
    count, avgdl = conn.execute("SELECT count(*), avg(dl) FROM mems").fetchone()
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('mem_stats', ?)", (f"{count} {avgdl or 1.0}",))


def close_superseded(conn: sqlite3.Connection) -> None:
    """closed_ts: valid_to, else the valid_from of the live successor that closes it (as in
    Tether.memories: the successor is the truth, and a supersede cycle closes nothing)."""
    rows = conn.execute("SELECT rid, id, valid_from_ts, valid_to_ts, closed_ts FROM mems").fetchall()
    graph: dict[str, list[str]] = {}
    for rid, target in conn.execute("SELECT l.rid, l.target FROM mem_links l"):
        graph.setdefault(rid, []).append(target)
    by_rid = {row[0]: row[1] for row in rows}
    started = {row[1]: row[2] for row in rows}
    edges = {by_rid[rid]: targets for rid, targets in graph.items() if rid in by_rid}
    closer = closed_by_successor(edges, {row[1] for row in rows if row[3] is None})
    changes = []
    for rid, mid, _, end, was in rows:
        now = end if end is not None else (started[closer[mid]] if mid in closer else None)
        if now != was:
            changes.append((now, rid))
    conn.executemany("UPDATE mems SET closed_ts=? WHERE rid=?", changes)


def parent_dir(path: str) -> str:
    """A repo-relative path's directory, "." at the top (as PurePosixPath(path).parent spells it)."""
    return posixpath.dirname(path) or "."


def _fast_json():
    """orjson, as `_json` spells it (compact, non-ASCII kept) for the values indexed here, ~5x faster.
    Only where files were just parsed: orjson is loaded already (the prompt hook's silent path never is)."""
    import orjson

    def encode(value) -> str:
        return orjson.dumps(value).decode()

    return encode


# json.dumps with arguments builds an encoder per call: one, made once, spells the same
_json = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
