"""Symbols by (file, name), many at once: what a resolver asks of the index for a whole store's
anchors in a few queries instead of one per anchor (10,000 memories are 10,000 lookups)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from tether.anchor.model import Symbol

BATCH = 400  # (path, name) pairs per query: two variables each, far under SQLite's limit

_COLUMNS = "s.path, s.qualname, discriminator, kind, start_line, end_line, start_byte, end_byte, hash, entropy"


def named_symbols(conn: sqlite3.Connection, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], list[Symbol]]:
    """Each (path, qualname) pair's symbols as `CodeIndex.symbols(path, qualname)` gives them (in
    file order), an empty list for a pair with none."""
    wanted = list(dict.fromkeys(pairs))
    found: dict[tuple[str, str], list[Symbol]] = {p: [] for p in wanted}
    for i in range(0, len(wanted), BATCH):
        chunk = wanted[i : i + BATCH]
        values = ",".join("(?,?)" for _ in chunk)
        rows = conn.execute(
            # CROSS JOIN: the pairs drive, each one a lookup in symbols_path (an IN list scans the table)
            f"SELECT {_COLUMNS} FROM (VALUES {values}) v CROSS JOIN symbols s "
            "ON s.path = v.column1 AND s.qualname = v.column2 ORDER BY s.start_byte",
            [x for pair in chunk for x in pair],
        )
        for r in rows:
            found[(r[0], r[1])].append(Symbol(*r[1:]))
    return found
