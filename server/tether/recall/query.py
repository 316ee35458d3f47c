"""How a task becomes a search of the memory index: its terms, the filters, the files in play.

Stdlib only at import, like search.py: the prompt hook searches on every prompt.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable

from tether.recall.lexicon import alternates, phrase_terms
from tether.recall.text import terms, unique
from tether.store.links import CLOCK_SKEW_S

CURRENT = "m.closed_ts IS NULL AND m.valid_from_ts <= ?"  # a future valid_from is not current yet
MAX_TERMS = 24  # a long prompt is searched on its rarest terms


def query_terms(
    conn: sqlite3.Connection, task: str, expand: bool = True
) -> tuple[list[str], dict[str, int], int, dict[str, list[str]]]:
    """The task's terms (at most MAX_TERMS, rarest kept; phrases add the term they stand for),
    their lexicon alternates, the document frequencies of both, and N."""
    q = unique(terms(task) + phrase_terms(task))
    if not q:
        return [], {}, 0, {}
    alt = {t: [a for a in alternates(t) if a not in q] for t in q} if expand else {}
    wanted = unique(q + [a for alts in alt.values() for a in alts])
    n = stats(conn)[0]
    marks = ",".join("?" * len(wanted))
    df = dict(conn.execute(f"SELECT term, doc FROM mem_vocab WHERE term IN ({marks})", wanted).fetchall())
    if len(q) > MAX_TERMS:
        # terms no memory contains are kept (they lower coverage), then the rarest known ones
        q = sorted(q, key=lambda t: (df.get(t, 0), q.index(t)))[:MAX_TERMS]
    return q, df, n, {t: [a for a in alt[t] if df.get(a)] for t in q if any(df.get(a) for a in alt.get(t, ()))}


def stats(conn: sqlite3.Connection) -> tuple[int, float]:
    """Number of indexed memories and their mean weighted length, as of the last sync."""
    row = conn.execute("SELECT value FROM meta WHERE key='mem_stats'").fetchone()
    if row is None:
        return 0, 1.0
    count, avgdl = row[0].split()
    return int(count), float(avgdl)


def filters(kinds: Iterable[str] | None, as_of: float | None) -> tuple[str, tuple]:
    args: tuple
    if as_of is None:
        where, args = CURRENT, (time.time() + CLOCK_SKEW_S,)
    else:
        where, args = "m.valid_from_ts <= ? AND (m.closed_ts IS NULL OR m.closed_ts > ?)", (as_of, as_of)
    kinds = list(kinds or ())
    if kinds:
        where += f" AND m.kind IN ({','.join('?' * len(kinds))})"
        args = (*args, *kinds)
    return where, args


def rel_files(root: str, files: Iterable[str]) -> list[str]:
    out = []
    for f in files:
        p = str(f).replace(os.sep, "/")
        if os.path.isabs(p):
            try:
                p = os.path.relpath(p, root).replace(os.sep, "/")
            except ValueError:
                continue
        rel = os.path.normpath(p).replace(os.sep, "/")
        if rel != "." and not rel.startswith("../") and rel != "..":
            out.append(rel)
    return list(dict.fromkeys(out))


def fts_match(terms_: list[str]) -> str:
    return " OR ".join(f'"{t}"' for t in terms_)
