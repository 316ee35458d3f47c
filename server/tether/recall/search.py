"""The memory search index: SQLite FTS5 over every memory file, searched and read back.

Light on purpose so the prompt hook can import it and answer in milliseconds: stdlib only at import
(the memory file format is loaded only to parse a file; no dataclasses, orjson, typing or
tree-sitter), and never mcp. Status is not known here: candidates are ranked on text,
the files in play, kind and base confidence; `recall` re-resolves whatever it returns. Keeping the
index in sync with the files is sync.py; turning a task into terms and filters is query.py.
"""

from __future__ import annotations

import math
import os
import sqlite3
import time
from collections.abc import Iterable

from tether.errors import StoreCorrupt
from tether.files.locate import cache_dir
from tether.index import db
from tether.recall.query import CURRENT, filters, fts_match, query_terms, rel_files, stats
from tether.recall.ranking import SEM_MIN_COSINE, Candidate, Search, rank, tips
from tether.recall.rows import WEIGHTS, code_due, fill_code, parent_dir
from tether.recall.sync import sync_memories
from tether.recall.text import unique
from tether.settings import env_float

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from pathlib import Path

    from tether.store.model import Memory

POOL = 50  # text matches re-scored per query: ten times what an answer holds
MATCH_DOCS = 1_500  # the pool is drawn on the rarest terms whose postings add up to at most this
MAX_SEARCH_CHARS = 20_000  # hooks pass whole prompts: cut, never refuse
# Semantic recall (recall/semantic/): the memories nearest the task in meaning join the pool, at
# most SEM_POOL of them, and only from ranking.SEM_MIN_COSINE up.
SEM_POOL = 10
SEM_MIN_WORDS = 4  # a question in words; an identifier or two is the words' job (the model reads it as noise)
# memories embedded per recall, at most this long: a pull of thousands waits for `tether index`
FILL_BUDGET_S = env_float("TETHER_EMBED_BUDGET_S", 0.25, minimum=0.0)
# A recall stats every memory file (~7 ms a thousand) rather than trusting the directory's stamp,
# which a file rewritten in place (an editor, `cp -p`) leaves as it was; recalls within this long
# of one that did share its look (the MCP server answering a burst).
EVERY_FILE_S = 1.0


class MemoryIndex:
    """Full-text index of `.tether/memories/*.md` in the repository's cache database."""

    def __init__(self, root: str | Path, conn: sqlite3.Connection | None = None) -> None:
        self.root = os.fspath(root)  # a str: pathlib is not loaded on a silent prompt
        self.dir = os.path.join(self.root, ".tether", "memories")
        self._own = conn is None
        self.conn = conn if conn is not None else db.connect(os.path.join(cache_dir(self.root), "cache.sqlite"))
        # the full-text index of 10,000 memories is ~20 MB: SQLite's default 2 MB page cache thrashes
        self.conn.execute("PRAGMA cache_size=-32000")
        self._every_file_at = -EVERY_FILE_S  # when this process last statted every memory file

    def close(self) -> None:
        if self._own:
            self.conn.close()

    # -- sync ---------------------------------------------------------------------------------
    def sync(self, full: bool = False, max_bytes: int | None = None) -> dict[str, int]:
        """Bring the index up to date with the memory files; re-parses only files that changed
        (sync.py). `max_bytes`: parse at most about this much memory text now; `partial` says so."""
        return sync_memories(self.conn, self.dir, full, max_bytes)

    def sync_every_file(self) -> dict[str, int]:
        """`sync`, looking at every memory file's stat, not the directory's alone (EVERY_FILE_S):
        what an asked recall does. The prompt hook keeps the directory's shortcut."""
        now = time.monotonic()
        if now - self._every_file_at < EVERY_FILE_S:
            return self.sync()
        done = self.sync(full=True)
        self._every_file_at = now
        return done

    # -- search -------------------------------------------------------------------------------
    def search(
        self,
        task: str,
        files: Iterable[str] = (),
        kinds: Iterable[str] | None = None,
        as_of: float | None = None,
        pool: int = POOL,
        sync: bool = True,
        expand: bool = True,
        fill: int | None = None,
        semantic: bool = False,
    ) -> Search:
        """Rank memories for a task: BM25F x term coverage x files in play x kind x base confidence.
        `expand`: let the lexicon's alternates and the anchored code's words match too (push-recall,
        which must be sure, does not). `fill`: memories given their code field first, at most (rows.FILL_BATCH).
        `semantic`: blend in the embedding model's cosines (recall only: the prompt hook never loads the model)."""
        if sync:
            self.sync()
        if code_due(self.conn) is not None:
            with db.transaction(self.conn):
                fill_code(self.conn, fill)
        files = rel_files(self.root, files)
        where, args = filters(kinds, as_of)
        q, df, n, alt = query_terms(self.conn, task[:MAX_SEARCH_CHARS], expand)

        def idf_of(t: str) -> float:
            return math.log(1 + (n - df.get(t, 0) + 0.5) / (df.get(t, 0) + 0.5))

        idf = {t: idf_of(t) for t in q if df.get(t)}
        unseen = sum(idf_of(t) for t in q if not df.get(t))
        alts = {t: (idf_of(t), tuple((a, idf_of(a)) for a in alt[t])) for t in alt}
        known = sorted(idf, key=lambda t: (df[t], q.index(t)))  # rarest first
        rids: dict[int, None] = {}
        matched = 0
        if known:
            # The pool is drawn on the rarest terms covering at most MATCH_DOCS memories: ranking a
            # union of very common terms costs more than it can change, and they still score below.
            use: list[str]
            use, total = [], 0
            for t in known:
                if use and total + df[t] > MATCH_DOCS:
                    break
                use.append(t)
                total += df[t]
            rids = dict.fromkeys(self._best(fts_match(use), where, args, pool))
            matched = len(rids)
            if matched >= pool or len(use) < len(known):
                matched = self._count(fts_match(known), where, args)
        spare = unique([a for t in q for a, _ in alts.get(t, ((), ()))[1]])
        if spare:
            # a question in other words: memories matching only the lexicon's alternates join the pool
            for rid in self._best(fts_match(spare), where, args, pool // 2):
                if rid not in rids:
                    rids[rid] = None
                    matched += 1
        # the old belief's words find its successor: a superseded match stands for its current tip
        via = tips(self.conn, fts_match(use), kinds, pool) if known and as_of is None else {}
        for tip in via:
            if tip not in rids:
                rids[tip] = None
                matched += 1
        asked = task[:MAX_SEARCH_CHARS]
        sem = (
            self._semantic(asked, where, args)
            if semantic and len(asked.split(None, SEM_MIN_WORDS)) >= SEM_MIN_WORDS
            else {}
        )
        for rid, cos in sorted(sem.items(), key=lambda x: -x[1])[:SEM_POOL]:
            if cos >= SEM_MIN_COSINE and rid not in rids:
                rids[rid] = None
                matched += 1
        near: dict[int, str] = {}
        if files:
            marks = ",".join("?" * len(files))
            for (rid,) in self.conn.execute(
                f"SELECT p.rid FROM mem_paths p JOIN mems m ON m.rid = p.rid WHERE p.path IN ({marks}) AND {where}",
                (*files, *args),
            ):
                near[rid] = "file"
                if rid not in rids:
                    rids[rid] = None
                    matched += 1  # a memory in a file in play matches even without a word in common
        if not rids:
            return Search((), 0, tuple(q))
        dirs = {parent_dir(f) for f in files}
        if not any(sem.get(rid, 0.0) >= SEM_MIN_COSINE for rid in rids):
            sem = {}  # no memory in the pool is near in meaning: a lexical answer, with the lexical floor
        ranked = rank(self.conn, stats(self.conn)[1], rids, idf, unseen, near, dirs, via, alts, code=expand, sem=sem)
        return Search(ranked, matched, tuple(q), bool(sem))

    def _semantic(self, task: str, where: str, args: tuple) -> dict[int, float]:
        """rid -> the task's cosine with each memory's vector; {} when the model is not there."""
        from tether.recall.semantic import encoder

        if encoder() is None:  # switched off, not installed or unreadable
            return {}
        from tether.recall.semantic import vectors  # numpy: only a recall that uses the model

        try:
            if not vectors.attach(self.conn):
                return {}
            vectors.fill(self.conn, FILL_BUDGET_S)
            if not vectors.complete(self.conn):
                return {}  # some memories wait for their vectors (`tether index`): words alone, for all alike
            q = vectors.query(task)
            return {} if q is None else vectors.cosines(self.conn, q, where, args)
        except sqlite3.DatabaseError as e:  # the vector store busy, unwritable or damaged twice: words alone
            from tether.files import failure_log

            failure_log.record("semantic", e, self.root)
            return {}

    def _empty(self) -> bool:
        """No memory text at all: numpy and the model stay unloaded (`tether index` of a new repository)."""
        self.sync()
        return self.conn.execute("SELECT 1 FROM vec_text LIMIT 1").fetchone() is None

    def vectors_pending(self) -> int | None:
        """Memories waiting for their vector; None when the model is not there."""
        from tether.recall.semantic import encoder

        if encoder() is None:  # switched off, not installed or unreadable
            return None
        from tether.recall.semantic import vectors

        self.sync()
        return vectors.pending(self.conn) if vectors.attach(self.conn) else None

    def embed_written(self) -> int:
        """Embed what a write just added, within a recall's budget (FILL_BUDGET_S)."""
        return self.fill_vectors(FILL_BUDGET_S)

    def fill_vectors(self, budget_s: float | None = None) -> int:
        """Embed the memories still waiting for a vector (all of them by default); how many were."""
        from tether.recall.semantic import encoder, wanted

        if not wanted() or self._empty() or encoder() is None:  # the empty check before the model loads
            return 0
        from tether.recall.semantic import vectors

        return vectors.fill(self.conn, budget_s) if vectors.attach(self.conn) else 0

    def _best(self, match: str, where: str, args: tuple, limit: int) -> list[int]:
        """The rids of the `limit` memories matching `match` under the filters, best BM25F first."""
        weights = ", ".join(str(w) for w in WEIGHTS)
        return [
            r[0]
            for r in self.conn.execute(
                f"SELECT m.rid FROM mem_fts JOIN mems m ON m.rid = mem_fts.rowid "
                f"WHERE mem_fts MATCH ? AND {where} ORDER BY bm25(mem_fts, {weights}) LIMIT ?",
                (match, *args, limit),
            )
        ]

    def _count(self, match: str, where: str, args: tuple) -> int:
        """Memories matching `match` under the filters; the join is skipped when it cannot filter."""
        if (
            where == CURRENT
            and not self.conn.execute(
                "SELECT 1 FROM mems WHERE closed_ts IS NOT NULL OR valid_from_ts > ? LIMIT 1", args[:1]
            ).fetchone()
        ):
            return self.conn.execute("SELECT count(*) FROM mem_fts WHERE mem_fts MATCH ?", (match,)).fetchone()[0]
        return self.conn.execute(
            f"SELECT count(*) FROM mem_fts JOIN mems m ON m.rid = mem_fts.rowid WHERE mem_fts MATCH ? AND {where}",
            (match, *args),
        ).fetchone()[0]

    # -- loading ------------------------------------------------------------------------------
    def contradictions(self, ids: Iterable[str]) -> dict[str, list[str]]:
        """For each of `ids`: the current memories it contradicts or that contradict it (`links.contradicts`,
        recorded by whichever of the two was written second)."""
        ids = list(dict.fromkeys(ids))
        if not ids or not self.conn.execute("SELECT 1 FROM mem_contradicts LIMIT 1").fetchone():
            return {}
        marks = ",".join("?" * len(ids))
        pairs = self.conn.execute(
            "SELECT a.id, c.target FROM mem_contradicts c JOIN mems a ON a.rid = c.rid "
            f"WHERE (a.id IN ({marks}) OR c.target IN ({marks})) AND a.closed_ts IS NULL "
            "AND EXISTS (SELECT 1 FROM mems b WHERE b.id = c.target AND b.closed_ts IS NULL)",
            (*ids, *ids),
        ).fetchall()
        out: dict[str, list[str]] = {}
        for src, dst in pairs:
            for one, other in ((src, dst), (dst, src)):
                if one in ids and other not in out.setdefault(one, []):
                    out[one].append(other)
        return out

    def load(self, c: Candidate) -> Memory | None:
        """The memory behind a candidate, read from its file now; None if it is gone or changed hands."""
        m = self.read(c.filename)
        return m if m is not None and m.id == c.memory_id else None

    def read(self, filename: str) -> Memory | None:
        """A memory file (repo-relative name) as it is now, from the parsed-file cache when its stat
        says it is unchanged (store/parsed.py), else parsed; None if it is gone or unreadable."""
        from tether.store.memory import load_file
        from tether.store.parsed import cached

        path = os.path.join(self.root, filename)
        m = cached(self.conn, os.path.basename(path), path) if os.path.dirname(path) == self.dir else None
        if m is not None:
            return m
        try:
            return load_file(path, filename)[1]
        except (OSError, StoreCorrupt):
            return None

    def on_paths(self, paths: Iterable[str]) -> list[str]:
        """Filenames of current memories with an anchor on any of `paths`."""
        paths = list(dict.fromkeys(paths))
        if not paths:
            return []
        marks = ",".join("?" * len(paths))
        rows = self.conn.execute(
            f"SELECT DISTINCT m.name FROM mem_paths p JOIN mems m ON m.rid = p.rid "
            f"WHERE p.path IN ({marks}) AND m.closed_ts IS NULL ORDER BY m.name",
            paths,
        )
        return [f".tether/memories/{r[0]}" for r in rows]


def open_index(root: str | Path) -> MemoryIndex:
    """An index on the repository's cache database, for callers without a Tether (the hooks)."""
    return MemoryIndex(root)
