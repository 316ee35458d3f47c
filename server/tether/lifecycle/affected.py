"""Which memories a change touches, and how each stands after it: `tether affected`, for the pull
request (or the commit) that may stale them.

Each anchor is read on both sides: where it resolves at the base (its stored place, or, when it was
followed there in an earlier commit, the changed file whose base version holds its hash) and where
it resolves now. It is touched when one of those files is in the change and, for a symbol, its
lines there meet a changed hunk; when that file was deleted or renamed; or when it was followed
out of a changed file into another (a function moved across files). The change's own memory files
say the rest: a memory the change adds is `new`, one whose anchors it rewrote over a code change
is `reanchored` (what the old anchors say now is kept, so a reanchor hides no staling), one it
retires or supersedes is `retired`.

A memory already stale at the base, on lines the change did not touch, is not this change's news;
on lines it touched, it is `already_stale`, with the diff from the base, not from the memory's
older commit. Status after the change is what the resolver says of the working tree, as `check`
would.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tether.anchor.disc import twins_named
from tether.anchor.extract import analyze, content_hash, is_binary
from tether.anchor.model import FileFacts, Symbol
from tether.errors import StoreCorrupt
from tether.lifecycle.changes import Changes, overlaps
from tether.lifecycle.diff import compact_diff, git_show
from tether.lifecycle.resolve import Resolver
from tether.lifecycle.status import Status
from tether.lifecycle.verdicts import Resolution, Verdict
from tether.store.memory import loads
from tether.store.model import Anchor, Memory

# what the change did to a memory, worst first: its touched anchors' news, then its file's
EFFECTS = ("deleted", "stale", "reanchored", "retired", "already_stale", "followed", "restored", "new", "active")
BINARY_CHANGED = "binary file changed"
MEMORY_DIR = ".tether/memories/"  # where memory files live, relative to the store's root


@dataclass(frozen=True, slots=True)
class Touched:
    verdict: Verdict
    anchors: tuple[int, ...]  # indexes into verdict.anchors of the anchors the change touched
    effect: str  # one of EFFECTS
    before: str | None = None  # the memory's status at the base (of its touched anchors); None: no memory then
    at_base: tuple[str | None, ...] = ()  # per touched anchor: the file it resolved to at the base
    was: Verdict | None = None  # reanchored: the memory as the base stored it, resolved now


@dataclass(frozen=True, slots=True)
class Affected:
    changes: Changes
    touched: tuple[Touched, ...]

    def counts(self) -> dict[str, int]:
        return {e: sum(1 for t in self.touched if t.effect == e) for e in EFFECTS}


@dataclass(frozen=True, slots=True)
class _AtBase:
    status: Status
    path: str | None = None
    symbol: Symbol | None = None


def affected(
    root: Path, resolver: Resolver, memories: Iterable[Memory], changes: Changes, closed: Iterable[Memory] = ()
) -> Affected:
    """Every memory of `memories` (the current ones) that `changes` touches, and every one of
    `closed` the change retired or superseded, worst news first."""
    base = _Base(root, changes)
    memories = list(memories)
    found = []
    new_ids = set()
    for m in memories:
        if not changes.files:
            break
        stored = base.memory(m)
        if stored is None:
            new_ids.add(m.id)
        t = _touched(m, stored, resolver, base)
        if t is not None:
            found.append(t)
    for m in closed:
        t = _retired(m, resolver, base, new_ids, memories)
        if t is not None:
            found.append(t)
    found.sort(key=lambda t: (EFFECTS.index(t.effect), t.verdict.memory.summary))
    return Affected(changes, tuple(found))


def _touched(m: Memory, stored: Memory | None | bool, resolver: Resolver, base: _Base) -> Touched | None:
    v = resolver.memory(m)
    if stored is None:  # the change adds the memory: all of it is news
        return Touched(v, tuple(range(len(v.anchors))), "new", None)
    if isinstance(stored, Memory) and _anchor_keys(stored) != _anchor_keys(m):
        was = resolver.memory(stored)
        if was.status != Status.ACTIVE:
            old = max((base.resolve(a, r).status for a, r in was.anchors), key=_badness, default=Status.ACTIVE)
            return Touched(v, tuple(range(len(v.anchors))), "reanchored", str(old), (), was)
    hit: list[int] = []
    effects: list[str] = []
    befores: list[Status] = []
    where: list[str | None] = []
    anchors = list(v.anchors)
    for i, (a, r) in enumerate(v.anchors):
        then = base.resolve(a, r)
        if not base.touches(a, r, then):
            continue
        effect, r2 = base.effect(a, r, then)
        anchors[i] = (a, r2)
        hit.append(i)
        effects.append(effect)
        befores.append(then.status)
        where.append(then.path)
    if not hit:
        return None
    effect = min(effects, key=EFFECTS.index)
    worst = max(befores, key=_badness)
    return Touched(v.replace(anchors=tuple(anchors)), tuple(hit), effect, str(worst), tuple(where))


def _retired(m: Memory, resolver: Resolver, base: _Base, new_ids: set[str], current: list[Memory]) -> Touched | None:
    """A memory closed now that was current at the base: its own file says so (retired, or closed
    by a successor), or a memory the change adds supersedes it."""
    stored = base.memory(m)
    by_new = any(m.id in n.links.get("supersedes", ()) for n in current if n.id in new_ids)
    if not by_new and not (isinstance(stored, Memory) and stored.live and not m.live):
        return None
    v = resolver.memory(m)
    return Touched(v, (), "retired", "active", ())


def _here(r: Resolution) -> str | None:
    """Where the anchor is now; None when it is nowhere."""
    return r.path if r.status != Status.INVALIDATED else None


def _anchor_keys(m: Memory) -> tuple[tuple[str, str], ...]:
    return tuple((a.spec(), a.hash) for a in m.anchors)


def _badness(s: Status) -> int:
    return {Status.ACTIVE: 0, Status.STALE: 1}.get(s, 2)


class _Base:
    """The change's base, as far as the change's files tell: the files it touched as they were
    then (analyzed once each), and the memory files it touched as they were then."""

    def __init__(self, root: Path, changes: Changes) -> None:
        self.root, self.changes = root, changes
        self.old, self.new = changes.by_old(), changes.by_new()
        self._files: dict[str, tuple[bytes, FileFacts] | None] = {}
        self._now: dict[str, tuple[bytes, FileFacts] | None] = {}
        self._by_hash: dict[str, list[tuple[str, Symbol | None]]] | None = None

    # -- the memory files -------------------------------------------------------------------
    def memory(self, m: Memory) -> Memory | None | bool:
        """`m` as the base stored it: the same (True) when the change left its file alone, None
        when the change added it, else the base's version (True again if that cannot be read)."""
        name = m.filename or ""
        f = self.new.get(name) or self.old.get(name)
        if f is None or not name.startswith(MEMORY_DIR):
            return True
        if f.old is None:
            return None
        data = self._show(f.old)
        if data is None:
            return None
        try:
            return loads(data, f.old)
        except StoreCorrupt:
            return True

    # -- the code ---------------------------------------------------------------------------
    def _show(self, path: str) -> bytes | None:
        return None if self.changes.unborn else git_show(self.root, self.changes.base, path)

    def file(self, path: str) -> tuple[bytes, FileFacts] | None:
        """`path` at the base: its bytes and what extraction learns of them; None if it was not there."""
        if path not in self._files:
            data = self._show(path)
            self._files[path] = None if data is None else (data, analyze(path, data))
        return self._files[path]

    def now(self, path: str) -> tuple[bytes, FileFacts] | None:
        """`path` in the working tree (the index, for a staged change)."""
        if path not in self._now:
            data: bytes | None
            if self.changes.staged:
                data = git_show(self.root, "", path, index=True)
            else:
                try:
                    data = (self.root / path).read_bytes()
                except OSError:
                    data = None
            self._now[path] = None if data is None else (data, analyze(path, data))
        return self._now[path]

    def _search(self, a: Anchor) -> tuple[str, Symbol | None] | None:
        """Where the anchored hash was at the base among the changed files, if in exactly one place."""
        if self._by_hash is None:
            self._by_hash = {}
            for path in self.old:
                got = self.file(path)
                if got is None:
                    continue
                self._by_hash.setdefault(content_hash(got[0]), []).append((path, None))
                for s in got[1].symbols:
                    self._by_hash.setdefault(s.hash, []).append((path, s))
        hits = [h for h in self._by_hash.get(a.hash, ()) if (h[1] is None) == (a.type == "file")]
        return hits[0] if len(hits) == 1 else None

    def _at(self, a: Anchor, path: str) -> _AtBase | None:
        """The anchor at `path` at the base: active (its hash), stale (its name, another hash), or None."""
        got = self.file(path)
        if got is None:
            return None
        data, facts = got
        if a.type == "file":
            return _AtBase(Status.ACTIVE if content_hash(data) == a.hash else Status.STALE, path)
        same = [s for s in facts.symbols if s.hash == a.hash]
        if same:
            # of identical twins (`Router.route@Ingress`, `@Egress`), the anchor's own
            mine = twins_named(a.discriminator, [s for s in same if s.qualname == a.symbol], lambda s: s.discriminator)
            return _AtBase(Status.ACTIVE, path, (mine or same)[0])
        s = next((s for s in facts.symbols if s.qualname == a.symbol), None)
        return _AtBase(Status.STALE, path, s) if s is not None and path == a.path else None

    def resolve(self, a: Anchor, r: Resolution) -> _AtBase:
        """Where the anchor resolved at the base. A file the change did not touch is the same then
        as now, so only the changed files are read from git."""
        now_path = r.path or a.path
        at = self._at(a, a.path) if a.path in self.old else None
        if at is not None and at.status == Status.ACTIVE:
            return at
        unchanged = now_path not in self.new and a.path not in self.old
        if r.status != Status.INVALIDATED and (unchanged or (r.status == Status.ACTIVE and now_path not in self.new)):
            return _AtBase(r.status, now_path)  # where it is now was not changed: it was the same then
        f = self.new.get(now_path)
        if f is not None and f.old is not None and f.old != a.path:
            moved = self._at(a, f.old)
            if moved is not None and moved.status == Status.ACTIVE:
                return moved
        hit = self._search(a)
        if hit is not None:
            return _AtBase(Status.ACTIVE, hit[0], hit[1])
        return at or _AtBase(Status.INVALIDATED)

    def touches(self, a: Anchor, r: Resolution, then: _AtBase) -> bool:
        here = _here(r)
        now = self.new.get(here) if here is not None else None
        if now is not None:
            if a.type == "file" or now.old != here:
                return True  # a whole file changed; its file added or renamed into place
            if r.start_line is not None and overlaps(r.start_line, r.end_line, now.new_lines):
                return True
        was = self.old.get(then.path) if then.path is not None else None
        if was is None:
            return False
        if a.type == "file" or was.new != then.path or (here is not None and here != then.path):
            return True  # its file changed, deleted or renamed; it moved out of the file
        s = then.symbol
        return s is not None and overlaps(s.start_line, s.end_line, was.old_lines)

    def effect(self, a: Anchor, r: Resolution, then: _AtBase) -> tuple[str, Resolution]:
        """What the change did to one touched anchor, and its resolution with the diff that tells it."""
        if self.changes.staged and then.path in self.old and self.old[then.path].new is None:
            return "deleted", r.replace(diff=None)  # removed from the index (`git rm --cached`)
        if r.status == Status.ACTIVE:
            if then.status != Status.ACTIVE:
                return "restored", r
            renamed = then.symbol is not None and then.symbol.qualname != (r.symbol or a.symbol)
            return ("followed" if renamed or then.path != (r.path or a.path) else "active"), r
        if then.status != Status.ACTIVE:
            return "already_stale", r.replace(diff=self._diff(a, r, then))
        if r.status == Status.INVALIDATED:
            diff = self._diff(a, r, then)
            return ("stale", r.replace(diff=diff)) if diff else ("deleted", r)
        f = self.new.get(r.path or a.path)
        return "stale", r.replace(diff=BINARY_CHANGED) if f is not None and f.binary else r

    def _diff(self, a: Anchor, r: Resolution, then: _AtBase) -> str | None:
        """The anchored code from the base to now, at wherever it lives now: its place, or the file
        its base file became (renamed, edited); None when nothing of it is left to compare."""
        if then.path is None:
            return r.diff
        got = self.file(then.path)
        f = self.old.get(then.path)
        now_path = _here(r) or (f.new if f is not None else then.path)
        now = self.now(now_path) if now_path else None
        if got is None or now is None:
            return None
        if a.type == "file":
            if is_binary(got[0]) or is_binary(now[0]):
                return BINARY_CHANGED
            old_text, new_text = got[0], now[0]
        else:
            s = then.symbol
            name = r.symbol or (s.qualname if s is not None else a.symbol)
            n = next((x for x in now[1].symbols if x.qualname == name), None)
            if s is None or n is None:
                return None
            old_text, new_text = got[0][s.start_byte : s.end_byte], now[0][n.start_byte : n.end_byte]
        if old_text == new_text:
            return None
        return compact_diff(old_text.decode("utf-8", "replace"), new_text.decode("utf-8", "replace"), align=False)
