"""The library: one object per repository that every adapter (CLI, MCP, hooks) drives."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from tether.errors import Conflict, Duplicate, InvalidInput, NotFound
from tether.files.paths import cache_dir, find_root, repo_relative
from tether.index import db
from tether.index.code_index import CodeIndex
from tether.lifecycle.diff import head_commit
from tether.lifecycle.formats import upgrade
from tether.lifecycle.rebind import current_specs, merge_anchors
from tether.lifecycle.resolve import LOW_ENTROPY_BITS, MAX_SNIPPET, Resolver
from tether.lifecycle.verdicts import LinkProblem, Verdict
from tether.recall.limits import DEFAULT_BUDGET, DEFAULT_LIMIT
from tether.recall.search import MemoryIndex
from tether.store import links
from tether.store.confidence import BASE_CONFIDENCE, SOURCES
from tether.store.files import Quarantined, Store
from tether.store.memory import Anchor, Memory, new_id, now_iso, parse_time
from tether.store.validate import (
    MAX_SUMMARY_CHARS,
    check_body,
    check_evidence,
    check_kind,
    check_reason,
    check_summary,
    check_tags,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the CLI's start-up
if TYPE_CHECKING:
    from typing import Any

    from tether.lifecycle.affected import Affected
    from tether.recall.overlap import Overlap


@dataclass(frozen=True, slots=True)
class Checked:
    """What `check` found: every verdict, the files that would not parse, the broken links.
    (A docstring keeps `dataclasses` from asking `inspect` for one: tether/lazy.py.)"""

    verdicts: tuple[Verdict, ...]
    quarantined: tuple[Quarantined, ...]
    link_problems: tuple[LinkProblem, ...] = ()
    closed: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # named closed memories: how


class Tether:
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
        verdicts = tuple(r.memory(m) for m in mems)
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
        m = self.store.get(ref, self.memories(include_closed)[0])
        r = self.resolver()
        v = r.memory(m)
        r.flush()
        return v

    def history(self, ref: str) -> list[Memory]:
        """The supersession chain through `ref`, oldest first."""
        mems, _ = self.memories(include_closed=True)
        return links.chain(self.store.get(ref, mems), mems)

    # -- writing ------------------------------------------------------------------------------
    def bind_all(self, specs: Iterable[str]) -> list[tuple[Anchor, str]]:
        # placing anchors: the extraction machinery (every language's queries, the config parsers)
        # loads only for a write, never for check, ls or recall
        from tether.lifecycle.binding import bind_all

        return bind_all(self.index, self.root, specs, self.cwd)

    def remember(
        self,
        body: str,
        anchors: Iterable[str],
        kind: str = "fact",
        summary: str | None = None,
        evidence: str | None = None,
        tags: Iterable[str] = (),
        source: str = "explicit",
        force: bool = False,
        ignore: Iterable[str] = (),
        links: dict[str, list[str]] | None = None,
    ) -> Memory:
        """Store a memory. A near-duplicate of a current memory on the same anchor is refused unless
        `force`; memories in `ignore` are not compared (a supersession replaces its predecessor)."""
        self.store.writable()  # before placing anchors: outside a repository, a sweep of whatever is there
        body = check_body(body)
        kind = check_kind(kind)
        if source not in SOURCES:
            raise InvalidInput(f"unknown source {source!r}; one of: {', '.join(SOURCES)}")
        given_summary = summary
        summary = check_summary(summary, body)
        tags = check_tags(tags)
        evidence = check_evidence(evidence)
        if source == "verified" and evidence is None:
            raise InvalidInput(
                "a verified memory needs the command that verified it (--evidence CMD); nothing was stored"
            )
        self.refuse_secrets(
            body=body,
            summary=given_summary and summary,
            evidence=evidence,
            **{f"tag {i}": t for i, t in enumerate(tags, 1)},
        )
        bound = self.bind_all(anchors)
        now = now_iso()
        m = Memory(
            id=new_id(),
            kind=kind,
            summary=summary,
            body=body,
            anchors=tuple(a for a, _ in bound),
            recorded_at=now,
            valid_from=now,
            verified_at=now,
            source=source,
            confidence=BASE_CONFIDENCE[source],
            evidence={"command": evidence} if evidence else None,
            commit=head_commit(self.root),
            tags=tags,
            links=dict(links or {}),
        )
        # Checked on the index outside the lock, then under it against files written since the
        # snapshot only: writers hold the lock for milliseconds, and a fact told twice at once is stored once.
        before = self.store.snapshot()
        from tether.recall.overlap import anchor_keys, assess, where_now  # writes only

        keys_of = where_now(self.resolver(with_diff=False))  # a followed rename is where it went
        duplicate, self.conflicts = self.overlaps(m, ignore, keys_of)
        with self.store.locked():
            if duplicate is None:
                skip = {m.id, *ignore}
                duplicate = assess(m, [x for x in self.store.changed_since(before) if x.id not in skip], keys_of)[0]
            if duplicate is not None and not force:
                old = duplicate.memory
                raise Duplicate(
                    f"a memory on the same anchor already says this ({old.short_id}: {old.summary}); "
                    "reanchor or supersede it, or pass force to store both",
                    existing=old.id,
                    similarity=round(duplicate.similarity, 2),
                )
            # recorded with the memory, so every reader (and recall) sees both sides: only a conflict on
            # a shared anchor, the strong case; the others are reported to the writer and not kept
            shared = [c.memory.id for c in self.conflicts if keys_of(c.memory) & anchor_keys(m)]
            if shared:
                said = list(m.links.get("contradicts", []))
                said += [i for i in shared if i not in said]
                m = m.evolve(links={**m.links, "contradicts": said})
            written = self.store.write(m)
        self._keep_snippets(bound)
        r = self.resolver(with_diff=False)
        self.warnings = [
            f"{a.spec()} says too little to be followed if it moves or is renamed (under "
            f"{LOW_ENTROPY_BITS:.0f} bits): it will then read stale low_entropy until you reanchor it"
            for a in written.anchors
            if r.too_trivial_to_follow(a)
        ]
        return written

    def notes(self) -> dict[str, list]:
        """What the last `remember` (or `supersede`) found beside what it wrote, for every surface."""
        return {"conflicts": [c.to_dict() for c in self.conflicts], "warnings": list(self.warnings)}

    def overlaps(self, m: Memory, ignore: Iterable[str] = (), keys_of=None) -> tuple[Overlap | None, list[Overlap]]:
        """The current memory `m` would duplicate (same anchor), and those it may contradict."""
        from tether.recall.overlap import anchor_keys, assess, neighbours  # writes only

        self.memindex.sync()
        return assess(m, neighbours(self.memindex, m, ignore), keys_of or anchor_keys)

    def reanchor(self, ref: str, anchors: Iterable[str] = ()) -> Memory:
        """Re-bind a memory to the code now (the meaning survived the edit); with `anchors`, only those
        named (`merge_anchors`). Once none is kept as it was, diffs read git at HEAD now (`commit`)."""
        # placing anchors may sweep the repository: before the lock, redone only if re-anchored meanwhile
        anchors = list(anchors)
        pre = self._live(ref)
        bound = self.bind_all(anchors or current_specs(self.resolver(with_diff=False), pre))
        with self.store.locked():  # read-modify-write: must not reopen a memory retired meanwhile
            m = self._live(ref)
            if m.anchors != pre.anchors and not anchors:
                bound = self.bind_all(current_specs(self.resolver(with_diff=False), m))
            new = [a for a, _ in bound]
            if anchors:
                now = self.resolver(with_diff=False).memory(m).anchors
                new, self.anchor_changes = merge_anchors(now, new)
            else:
                self.anchor_changes = [("rebound", a.spec(), b.spec()) for a, b in zip(m.anchors, new)]
            commit = head_commit(self.root) if all(c[0] == "rebound" for c in self.anchor_changes) else m.commit
            written = self.store.write(m.evolve(anchors=tuple(new), verified_at=now_iso(), commit=commit))
        self._keep_snippets(bound, replace=True)  # the text as re-bound is the new "then"
        return written

    def supersede(
        self,
        ref: str,
        body: str,
        reason: str | None = None,
        kind: str | None = None,
        anchors: Iterable[str] = (),
        summary: str | None = None,
    ) -> tuple[Memory, Memory]:
        """A new version of a belief; the old one is closed and linked both ways, never deleted."""
        reason = check_reason(reason)
        self.refuse_secrets(reason=reason)
        # the slow parts (placing anchors, a cold search index) before the lock: others wait milliseconds
        pre = self._live(ref)
        specs = list(anchors) or current_specs(self.resolver(with_diff=False), pre)
        self.memindex.sync()
        with self.store.locked():  # two agents superseding one memory at once: one wins, one conflicts
            old = self._live(ref)
            if old.anchors != pre.anchors and not anchors:
                specs = current_specs(self.resolver(with_diff=False), old)
            # The successor is born with its `supersedes` link, so a crash before the old memory is
            # closed below still leaves a consistent store: memories() treats the old one as closed.
            new = self.remember(
                body,
                specs,
                kind or old.kind,
                summary,
                (old.evidence or {}).get("command"),
                old.tags,
                ignore=[old.id],
                links={"supersedes": [old.id]},
            )
            closed = old.evolve(
                valid_to=new.valid_from,
                links={**old.links, "superseded_by": [new.id]},
                retired_reason=f"superseded: {reason}" if reason else "superseded",
            )
            return self.store.write(closed), new

    def retire(self, ref: str, reason: str) -> Memory:
        if not reason or not reason.strip():
            raise InvalidInput("retire needs a reason")
        reason = check_reason(reason.strip())  # type: ignore[assignment]  # a str: check_reason returns None only for None
        self.refuse_secrets(reason=reason)
        with self.store.locked():
            m = self._live(ref)
            return self.store.write(m.evolve(valid_to=now_iso(), retired_reason=reason.strip()[:MAX_SUMMARY_CHARS]))

    def export(self) -> dict:
        """Every memory (closed ones too) as one portable JSON document."""
        from tether.store import transfer  # export and import only

        return transfer.export(self.store)

    def import_(self, doc: object, replace: bool = False) -> dict:
        """Write memories from an export, each record through remember's gates (store/transfer.py)."""
        from tether.store import transfer  # as above

        return transfer.import_(self.store, doc, replace, self.refuse_secrets)

    def upgrade_formats(self) -> dict[str, list[str]]:
        """`reanchor --outdated`: every memory in an older hash format whose code is unchanged."""
        return upgrade(self.index, self.store)

    def reindex(self) -> dict:
        return self.index.sweep()

    # -- helpers ------------------------------------------------------------------------------
    def refuse_secrets(self, **fields: str | None) -> None:
        """Raise SecretDetected naming the first credential-looking span of `fields`, never its text."""
        from tether.store.secrets import refuse  # writes only: compiling the rules costs ~40 ms

        refuse(self.root, **fields)

    def _live(self, ref: str) -> Memory:
        """A current memory by id; a closed one (perhaps by a concurrent writer) is a Conflict."""
        mems, _ = self.memories()
        try:
            return self.store.get(ref, mems)
        except NotFound:
            closed = self.store.get(ref, self.memories(include_closed=True)[0])  # not_found if truly absent
            how = "superseded" if closed.links.get("superseded_by") or closed.live else "retired"
            raise Conflict(
                f"memory {closed.short_id} is already closed ({how}): nothing was changed", id=closed.id
            ) from None

    def _keep_snippets(self, bound: list[tuple[Anchor, str]], replace: bool = False) -> None:
        """Keep the anchored text for later diffs (`replace`: a hash ignores comments, so what is kept for
        it may be an older wording). After a write: a damaged cache is discarded, never an error."""
        try:
            with db.transaction(self.index.conn):
                for a, text in bound:
                    if text and len(text) <= MAX_SNIPPET:
                        self.index.keep_snippet(a.hash, text, replace)
        except sqlite3.DatabaseError as e:
            if not db.is_corrupt(e):
                raise
            self.close()
            db.discard_opened(str(e))


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix.rstrip("/") + "/")


__all__ = ["Tether", "Checked", "parse_time"]
