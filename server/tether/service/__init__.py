"""The library: one object per repository that every adapter (CLI, MCP, hooks) drives. Its reads are
`Reads` (service/reading.py); the writes (remember, reanchor, supersede, retire, import) are here."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from tether.errors import Conflict, Duplicate, InvalidInput, NotFound, TetherError
from tether.index import db
from tether.lifecycle.diff import head_commit
from tether.lifecycle.formats import upgrade
from tether.lifecycle.lookups import MAX_SNIPPET
from tether.lifecycle.rebind import current_specs, merge_anchors
from tether.lifecycle.resolve import LOW_ENTROPY_BITS
from tether.service.reading import Checked, Reads
from tether.store.confidence import BASE_CONFIDENCE, SOURCES
from tether.store.memory import new_id
from tether.store.model import Anchor, Memory, now_iso, parse_time
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
    from tether.recall.overlap import Overlap


class Tether(Reads):
    """One repository's memories: read (`Reads`), written, imported and exported."""

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
        self._embed()
        return written

    def _embed(self) -> None:
        """Give a memory just written its vector now (semantic recall, when its model is there), so
        the next recall need not wait for it; never a reason for a write to fail."""
        try:
            self.memindex.embed_written()
        except (OSError, sqlite3.DatabaseError, TetherError) as e:
            from tether.files import failure_log

            failure_log.record("semantic", e, self.root)

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


__all__ = ["Tether", "Checked", "parse_time"]
