"""The reading half of `Tether` (tether/service/__init__.py): opening the caches, and check, recall,
affected, a verdict, a history. Every read re-derives status from the files; nothing here writes a memory."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path

from tether.errors import NotFound
from tether.files.paths import cache_dir, find_root, repo_relative
from tether.index import db
from tether.index.code_index import CodeIndex
from tether.lifecycle.resolve import Resolver
from tether.lifecycle.verdicts import LinkProblem, Verdict
from tether.recall.limits import DEFAULT_BUDGET, DEFAULT_LIMIT
from tether.service.listing import Listed, listing
from tether.store import links
from tether.store.files import Quarantined, Store
from tether.store.model import Memory

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the CLI's start-up
if TYPE_CHECKING:
    from typing import Any

    from tether.lifecycle.affected import Affected
    from tether.recall.overlap import Overlap
    from tether.recall.search import MemoryIndex


class Checked:
    """What `check` found: every verdict, the files that would not parse, the broken links, and how
    each closed memory named by id was closed. A plain slotted class, not a frozen dataclass:
    building one of those at import costs ~0.5 ms of every CLI start."""

    __slots__ = ("verdicts", "quarantined", "link_problems", "closed")

    def __init__(
        self,
        verdicts: tuple[Verdict, ...],
        quarantined: tuple[Quarantined, ...],
        link_problems: tuple[LinkProblem, ...] = (),
        closed: dict[str, tuple[str, list[str]]] | None = None,
    ) -> None:
        self.verdicts, self.quarantined, self.link_problems = verdicts, quarantined, link_problems
        self.closed = {} if closed is None else closed

    def __eq__(self, other: object) -> bool:
        if type(other) is not Checked:
            return NotImplemented
        return (self.verdicts, self.quarantined, self.link_problems, self.closed) == (
            other.verdicts,
            other.quarantined,
            other.link_problems,
            other.closed,
        )

    # unhashable, as the dataclass was in effect (`closed` is a dict)
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Checked(verdicts={self.verdicts!r}, quarantined={self.quarantined!r}, "
            f"link_problems={self.link_problems!r}, closed={self.closed!r})"
        )


class Reads:
    """What every surface reads through `Tether`; the writes are in `Tether` itself."""

    def __init__(self, root: str | Path | None = None, cwd: str | None = None) -> None:
        self.root = find_root(root, cwd)
        self.cwd = cwd
        self.store = Store(self.root, lambda: self.index.conn)  # parsed files kept in the cache
        self._index: CodeIndex | None = None
        self._memindex: MemoryIndex | None = None
        self.conflicts: list[Overlap] = []  # what the last `remember` may contradict, found before it wrote
        self.anchor_changes: list[tuple[str, str, str | None]] = []  # the last `reanchor`'s, see merge_anchors
        self.warnings: list[str] = []  # what the last `remember` stored but a reader should know

    # -- plumbing -----------------------------------------------------------------------------
    @property
    def index(self) -> CodeIndex:
        if self._index is None:
            conn = db.connect(cache_dir(self.root) / "cache.sqlite")
            self._index = CodeIndex(self.root, conn)
        return self._index

    @property
    def memindex(self) -> MemoryIndex:
        """The memory full-text index, in the same cache database as the code index."""
        if self._memindex is None:
            # the search (the lexicon, the word splitting's patterns): recall and writes, never check or ls
            from tether.recall.search import MemoryIndex

            self._memindex = MemoryIndex(self.root, self.index.conn)
        return self._memindex

    def close(self) -> None:
        self._memindex = None
        if self._index is not None:
            self._index.conn.close()
            self._index = None

    def resolver(self, with_diff: bool = True, deadline: float | None = None) -> Resolver:
        return Resolver(self.index, with_diff, deadline)

    def freshness(self) -> dict:
        """`indexed_at`: when the files behind this answer were last compared with the working tree
        (now, for anchors this call resolved; else the last full sweep). It follows writes, so a
        damaged cache found here is discarded (the next call rebuilds it), never an error."""
        try:
            at = self.index.checked_at or self.index.indexed_at()
        except sqlite3.DatabaseError as e:
            if not db.is_corrupt(e):
                raise
            self.close()
            db.discard_opened(str(e))
            return {"indexed_at": None, "dirty": 0, "swept": False}
        stamp = None
        if at is not None:
            stamp = datetime.fromtimestamp(at, timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
        return {"indexed_at": stamp, "dirty": self.index.dirty, "swept": self.index.swept}

    def memories(self, include_closed: bool = False) -> tuple[list[Memory], list[Quarantined]]:
        """Parsed memories (live only by default) and quarantined files.

        A memory named in a live memory's `supersedes` is closed even if a crash interrupted
        the write that closes it: the successor is the truth.
        """
        return self.store.memories(include_closed)

    # -- reading ------------------------------------------------------------------------------
    def listing(
        self, include_closed: bool = False, deadline: float | None = None
    ) -> tuple[list[Listed], list[Quarantined]]:
        """Every live memory (closed ones too with `include_closed`) as
        `ls` and SessionStart show it, without diffs, in file order, and the quarantined files;
        what an unchanged store decided before is not resolved again (service/listing.py)."""
        return listing(self.store, self.index, self.resolver, include_closed, deadline)

    def check(
        self, ids: Iterable[str] = (), paths: Iterable[str] = (), with_diff: bool = True, deadline: float | None = None
    ) -> Checked:
        """Every live memory (or those named, or anchored under `paths`) as it resolves now.
        `deadline`: see `Resolver`; an anchor that needed the rest of the sweep is `search_incomplete`."""
        everything, bad = self.store.load()
        problems = tuple(self.link_problems(everything))
        mems = links.current(everything)
        ids, paths = list(ids), [repo_relative(self.root, p, self.cwd) for p in paths]
        closed: dict[str, tuple[str, list[str]]] = {}
        if ids:  # a closed memory named is answered too, as closed
            wanted = [self._named(i, mems, everything, closed) for i in ids]
            mems = [m for m in everything if m.id in wanted]
        if paths:
            mems = [m for m in mems if any(_under(a.path, p) for a in m.anchors for p in paths)]
        r = self.resolver(with_diff, deadline)
        verdicts = tuple(r.memories(mems))
        r.flush()
        if ids or paths:
            shown = {v.memory.id for v in verdicts}
            problems = tuple(p for p in problems if p.memory_id in shown)
        return Checked(verdicts, tuple(bad), problems, closed)

    def _named(self, ref: str, mems: list[Memory], everything: list[Memory], closed: dict) -> str:
        try:
            return self.store.get(ref, mems).id
        except NotFound:
            m = self.store.get(ref, everything)  # not_found when no memory has it
            how = links.closed_as(m, everything)
            if how is None:  # in force later: not checked yet
                raise
            closed[m.id] = how
            return m.id

    def link_problems(self, mems: list[Memory] | None = None) -> list[LinkProblem]:
        """Supersede cycles and links to ids that name no memory, over every memory (closed too)."""
        mems = self.store.load()[0] if mems is None else mems
        graph = {m.id: m.links for m in mems}
        return [LinkProblem(*p) for p in links.problems(graph)]

    def recall(
        self,
        task: Any,
        files: Iterable[str] | None = None,
        budget_tokens: Any = DEFAULT_BUDGET,
        kinds: Iterable[str] | None = None,
        as_of: str | None = None,
        limit: Any = DEFAULT_LIMIT,
        deadline: float | None = None,
    ) -> dict:
        """The recall envelope for a task (recall/answer.py): active memories best first, stale
        matches apart, within the token budget."""
        from tether.recall import answer  # packing an answer: only recall loads it, never check or ls

        return answer.recall(self, task, files, budget_tokens, kinds, as_of, limit, deadline)

    def affected(self, base: str | None = None, staged: bool = False) -> Affected:
        """The memories a change touches: the working tree (or the index, `staged`) against HEAD,
        or against its merge-base with `base` (a branch's change), each as it resolves now
        (lifecycle/affected.py)."""
        from tether.lifecycle.affected import affected  # only this command asks git for a diff
        from tether.lifecycle.changes import changes

        change = changes(self.root, base, staged)  # first: outside git, the one error, before any index
        everything = self.store.load()[0]
        current = links.current(everything)
        ids = {m.id for m in current}
        r = self.resolver()
        found = affected(self.root, r, current, change, [m for m in everything if m.id not in ids])
        r.flush()
        return found

    def verdict(self, ref: str, include_closed: bool = True) -> Verdict:
        return self._verdict(ref, self.memories(include_closed)[0])

    def shown(self, ref: str) -> tuple[Verdict, tuple[str, list[str]] | None]:
        """A memory as `show` gives it: its verdict, and what closed it (`links.closed_as`), if anything
        did; the store is read once for both."""
        everything = self.memories(include_closed=True)[0]
        v = self._verdict(ref, everything)
        return v, links.closed_as(v.memory, everything)

    def _verdict(self, ref: str, mems: list[Memory]) -> Verdict:
        m = self.store.get(ref, mems)
        r = self.resolver()
        v = r.memory(m)
        r.flush()
        return v

    def history(self, ref: str) -> list[Memory]:
        """The supersession chain through `ref`, oldest first."""
        mems, _ = self.memories(include_closed=True)
        return links.chain(self.store.get(ref, mems), mems)


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix.rstrip("/") + "/")
