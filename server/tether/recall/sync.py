"""Keeping the memory search index in sync with the memory files, incrementally.

Stdlib only at import, like search.py: the prompt hook syncs the index before it searches.

Sync cost follows what changed. The memories directory's own mtime/ctime move whenever a file is
created, renamed or deleted there (tether's atomic writes, git checkouts and pulls all do that), so
an unchanged stamp skips the per-file scan; an in-place edit that leaves the directory untouched is
caught when a candidate is loaded (`MemoryIndex.load` re-reads the file) and by the next full scan.
"""

from __future__ import annotations

import os
import sqlite3
import stat as _stat
import time

from tether.files.stamps import change_stamp, memory_file_trusted
from tether.index import db
from tether.recall.rows import close_superseded, drop, insert_many, parse, same_bytes, save_stats


def sync_memories(
    conn: sqlite3.Connection, directory: str, full: bool = False, max_bytes: int | None = None
) -> dict[str, int]:
    """Bring the index up to date with the memory files in `directory`; re-parses only files that changed.

    `max_bytes`: parse at most about this much memory text now (a hook after a `git pull` of
    thousands of memory files); the rest waits for the next sync, which picks up where this
    one stopped, and `partial` says so."""
    dst: os.stat_result | None
    try:
        dst = os.stat(directory)
        if os.path.islink(directory) or os.path.islink(os.path.dirname(directory)):
            dst = None  # a committed link would index memories outside the repository
    except OSError:
        dst = None
    row = conn.execute("SELECT value FROM meta WHERE key='mem_dir'").fetchone()
    stamp = f"{dst.st_mtime_ns}:{change_stamp(dst)}" if dst else "missing"
    if not full and row is not None:
        saved, _, scanned = row[0].rpartition("|")
        if saved == stamp and (dst is None or memory_file_trusted(dst, int(scanned))):
            return {"parsed": 0, "removed": 0, "partial": False}
    scan_ns = time.time_ns()
    known = {r[0]: r[1:] for r in conn.execute("SELECT name, mtime_ns, change, size, checked_ns, hash FROM mem_files")}
    changed, present, sizes, racy = [], set(), {}, []
    if dst is not None:
        with os.scandir(directory) as it:
            for e in it:
                if not e.name.endswith(".md") or e.name.startswith("."):
                    continue
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                if not _stat.S_ISREG(st.st_mode):
                    continue
                present.add(e.name)
                k = known.get(e.name)
                sizes[e.name] = st.st_size
                if k and k[0] == st.st_mtime_ns and k[1] == change_stamp(st) and k[2] == st.st_size:
                    if memory_file_trusted(st, k[3]):
                        continue
                    racy.append(e.name)  # the stat says unchanged, but too recently to trust
                else:
                    changed.append(e.name)
    gone = [n for n in known if n not in present]
    # a racy file is read again: the same bytes (a second read right after a pull) renew its row's
    # stamp; other bytes are parsed and indexed anew
    restamp = []
    for name in racy:
        got = same_bytes(directory, name, known[name][4])
        if got is None:
            changed.append(name)
        else:
            st, checked = got
            restamp.append((st.st_mtime_ns, change_stamp(st), st.st_size, checked, name, known[name][4]))
    # files never indexed first: a budgeted sync must not spend itself re-reading the ones it
    # just read, which stay "racy" (possibly rewritten unseen) for a moment after their write
    changed.sort(key=lambda name: (name in known, name))
    partial = False
    if max_bytes is not None:
        from tether.store.memory import MAX_FILE_BYTES

        spent = 0
        for i, name in enumerate(changed):
            spent += sizes[name] if sizes[name] <= MAX_FILE_BYTES else 0  # a file over the cap is not read
            if spent > max_bytes and i:
                changed, partial = changed[:i], True
                break
    parsed = [parse(directory, n) for n in changed]
    with db.transaction(conn):
        # only a row still holding the bytes read (another process may have re-indexed it since)
        conn.executemany(
            "UPDATE mem_files SET mtime_ns=?, change=?, size=?, checked_ns=? WHERE name=? AND hash=?", restamp
        )
        # Concurrent processes scan the same new files: whatever another one indexed, at the very
        # stat we parsed, while we waited for the write lock is left as it is (no duplicate work).
        rows = {r[0]: r[1:] for r in conn.execute("SELECT name, mtime_ns, change, size, checked_ns FROM mem_files")}
        parsed = [item for item in parsed if not _current(rows.get(item[0]), *item[1:3])]
        changed = [item[0] for item in parsed]
        for name in gone + changed:
            if name in rows:  # a file new to the index has no rows to drop
                drop(conn, name)
        insert_many(conn, parsed)
        if gone or changed:
            close_superseded(conn)
            save_stats(conn)
        if not partial:
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('mem_dir', ?)", (f"{stamp}|{scan_ns}",))
    return {"parsed": len(changed), "removed": len(gone), "partial": partial}


def _current(row: tuple | None, st: os.stat_result | None, checked: int) -> bool:
    """Whether a file's `row` (mtime_ns, change, size, checked_ns) was written from the same stat
    by a read no older than ours."""
    if st is None or row is None:
        return False
    return row[:3] == (st.st_mtime_ns, change_stamp(st), st.st_size) and row[3] >= checked
