"""What anchor resolution keeps beside the code index between reads, in the same database.

Where a renamed or moved anchor was last found (`follows`), the text an anchor had when it was
seen in place (`snippets`: the "then" side of a later diff), and when a hash was last searched for
everywhere (`searches`), so a deleted anchor does not cost a repository sweep on every read.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from tether.index.db import transaction
from tether.index.worker import change_stamp, root_prefix

TYPE_CHECKING = False  # not `typing`'s: the prompt hook's silent path must not import it
if TYPE_CHECKING:
    from tether.store.model import Anchor


class ResolutionMemo:
    """The code index's side tables for the lifecycle (a base of `CodeIndex`, which sets these)."""

    root: Path
    conn: sqlite3.Connection

    # -- when a hash search needs a sweep -----------------------------------------------------
    def search_stamp(self, rel: str) -> str:
        """What must change before a body missing from `rel` can have moved: the file itself (a
        move cuts it out of there) and git's index (git mv, checkout, stash)."""
        parts = []
        for path in (root_prefix(self.root) + rel, root_prefix(self.root) + ".git/index"):
            try:
                st = os.stat(path, follow_symlinks=False)
                parts.append(f"{st.st_mtime_ns}:{st.st_size}:{change_stamp(st)}")
            except OSError:
                parts.append("-")
        return "|".join(parts)

    def searched(self, anchor_hash: str, stamp: str, ttl: float) -> bool:
        row = self.conn.execute("SELECT stamp, at FROM searches WHERE anchor_hash=?", (anchor_hash,)).fetchone()
        return row is not None and row[0] == stamp and time.time() - row[1] < ttl

    def record_search(self, anchor_hash: str, stamp: str) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO searches(anchor_hash, stamp, at) VALUES(?,?,?)", (anchor_hash, stamp, time.time())
        )

    # -- the text an anchor had, for diffs ------------------------------------------------------
    def snippet(self, hash_: str) -> str | None:
        row = self.conn.execute("SELECT text FROM snippets WHERE hash=?", (hash_,)).fetchone()
        return row[0] if row else None

    def snippets_kept(self, hashes: list[str]) -> list[str]:
        """Which of `hashes` (at most 500: SQLite's variable limit) have their text kept."""
        marks = ",".join("?" * len(hashes))
        return [r[0] for r in self.conn.execute(f"SELECT hash FROM snippets WHERE hash IN ({marks})", hashes)]

    def keep_snippet(self, hash_: str, text: str, replace: bool = False) -> None:
        self.conn.execute(f"INSERT OR {'REPLACE' if replace else 'IGNORE'} INTO snippets VALUES(?, ?)", (hash_, text))

    # -- where a renamed or moved anchor was last found ---------------------------------------
    # Keyed by the anchor itself (its hash and where it was written), never its hash alone: twins
    # with identical bodies (two newtypes, two copied handlers) share a hash, and one's follow must
    # not send the other to the same place.
    def follow(self, a: Anchor) -> list[tuple[str, str | None, str | None]]:
        return list(
            self.conn.execute(
                "SELECT path, symbol, discriminator FROM follows "
                "WHERE anchor_hash=? AND from_path=? AND from_symbol=? AND from_disc=?",
                _follow_key(a),
            )
        )

    def remember_follow(self, a: Anchor, path: str, symbol: str | None, disc: str | None) -> None:
        with transaction(self.conn):
            self.conn.execute(
                "INSERT OR REPLACE INTO follows(anchor_hash, from_path, from_symbol, from_disc, path, symbol, discriminator) "
                "VALUES(?,?,?,?,?,?,?)",
                (*_follow_key(a), path, symbol or "", disc),
            )


def _follow_key(a: Anchor) -> tuple[str, str, str, str]:
    return (a.hash, a.path, a.symbol or "", a.discriminator or "")
