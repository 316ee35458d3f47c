"""Every memory of a store as it resolves now, for `ls` and SessionStart, with what the last
listing decided kept in the cache so an unchanged store is not resolved again.

Status is derived on every read; this keeps a derivation, never a status of its own. A memory's
kept facts stand while its file's stat is the one they were read from. Its kept verdict stands
while, besides, every file it was decided from has the stat it had then, and it is kept only when
it was decided by the anchored files alone (`Resolver.decided_here`): a verdict that searched the
repository (a followed or deleted anchor) or asked git about twins is resolved again on every
listing, as before. A stat is kept only once it is older than the racy window at the time the
listing began (files/stamps.py), so an edit within the same timestamp cannot hide behind it. The
code that decides verdicts is part of the key: a tether upgrade starts afresh. Confidence and
`in_force` depend on the clock and are worked out on every listing.
"""

from __future__ import annotations

import marshal
import os
import stat
import time
import zlib
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from tether.files.stamps import memory_file_trusted, trusted
from tether.index.db import transaction
from tether.index.worker import root_prefix
from tether.lifecycle.verdicts import Verdict, scored
from tether.lifecycle.views import verdict_view
from tether.store import links
from tether.store.files import Quarantined
from tether.store.model import Memory, parse_time
from tether.store.parsed import CODEC as PARSED_CODEC

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tether.index.code_index import CodeIndex
    from tether.lifecycle.resolve import Resolver
    from tether.store.files import Store

    Resolvers = Callable[..., Resolver]  # `Reads.resolver`

KEY = "store"  # the one row of `verdicts_kept`
NO_LINKS: Mapping[str, list[str]] = MappingProxyType({})  # most memories link nothing: one shared, read-only


class Listed:
    """One memory as a listing shows it: what `links` asks of a memory (`id`, `live`, `links`,
    `in_force`), and, once resolved, its status and its `verdict_view` (confidence as of now)."""

    __slots__ = (
        *("name", "stamp", "id", "kind", "summary", "live", "links", "starts", "verified", "base"),
        *("status", "reason", "view", "deps", "resolved"),
    )

    def __init__(self, name: str, stamp: int | None, facts: tuple) -> None:
        self.name, self.stamp = name, stamp
        self.id, self.kind, self.summary, self.live, links_, self.starts, self.verified, self.base = facts
        self.links: Mapping[str, list[str]] = links_ or NO_LINKS
        self.status: str | None = None
        self.reason: str | None = None
        self.view: dict = {}
        self.deps: tuple[str, ...] | None = None  # the files its verdict was decided from, when it may be kept
        self.resolved = False  # resolved by this listing, not taken from the kept one

    @property
    def short_id(self) -> str:
        return self.id[:8]

    def in_force(self, now: float | None = None) -> bool:
        """`Memory.in_force` from the kept start time (None: unparsable, refused at read)."""
        if not self.live:
            return False
        return self.starts is None or self.starts <= (time.time() if now is None else now) + links.CLOCK_SKEW_S

    def facts(self) -> tuple:
        links_ = dict(self.links) or None
        return (self.id, self.kind, self.summary, self.live, links_, self.starts, self.verified, self.base)


def _stamp(st: os.stat_result) -> int:
    """mtime, ctime, inode and size in one exact number, 64 bits each (a time before 1970 as its
    two's complement): one object to keep and compare per file, where a tuple was five."""
    return (
        (st.st_mtime_ns & _BITS) << 192
        | (st.st_ctime_ns & _BITS) << 128
        | (st.st_ino & _BITS) << 64
        | st.st_size & _BITS
    )


_BITS = (1 << 64) - 1


def _by_name(mems: Iterable[Memory]) -> dict[str, Memory]:
    """Memories by their file's name in the memories directory, as a listing keys them."""
    return {os.path.basename(m.filename or ""): m for m in mems}


def facts_of(m: Memory) -> tuple:
    try:
        starts: float | None = parse_time(m.valid_from).timestamp()
    except ValueError:
        starts = None
    verified = parse_time(m.verified_at).timestamp()
    return (m.id, m.kind, m.summary, m.live, m.links or None, starts, verified, m.confidence)


def listing(
    store: Store, index: CodeIndex, resolver: Resolvers, include_closed: bool = False, deadline: float | None = None
) -> tuple[list[Listed], list[Quarantined]]:
    """The store's memories in file order (live ones, or all with `include_closed`), each
    resolved, and the files quarantined. Falls back to resolving every memory from
    its parsed file when two files carry one id (the store's own rule picks the copy)."""
    began = time.time_ns()
    if store.linked():
        mems, bad = store.load()
        return _fresh(resolver, mems, include_closed, deadline), bad
    paths, kept = _kept(index)
    entries = store.entries()
    rows: list[Listed] = []
    stamps: dict[str, int | None] = {}  # of the files read now: kept only once settled
    for name, entry in entries:
        try:
            st = entry.stat(follow_symlinks=False) if entry is not None and name.endswith(".md") else None
        except OSError:
            st = None
        stamp = _stamp(st) if st is not None and stat.S_ISREG(st.st_mode) else None
        hit = kept.get(name)
        if hit is not None and stamp is not None and hit[0] == stamp:
            rows.append(Listed(name, stamp, hit[1]))
        else:
            stamps[name] = stamp if st is not None and stamp is not None and memory_file_trusted(st, began) else None
    read: dict[str, Memory] = {}
    mems, bad = store.load(stamps) if stamps else ([], [])  # new or changed files, and whatever is no memory
    if stamps:
        read = _by_name(mems)
        rows += [Listed(n, stamps[n], facts_of(m)) for n, m in read.items()]
        order = {name: i for i, (name, _) in enumerate(entries)}
        rows.sort(key=lambda r: order[r.name])
    if len({r.id.lower() for r in rows}) != len(rows):
        everything, bad = store.load()
        return _fresh(resolver, everything, include_closed, deadline), bad
    shown = rows if include_closed else links.current(rows)
    files = _Files(index)
    moved = {p for p, s in paths.items() if files.stamp(p) != s}
    _resolve(store, resolver, shown, kept, moved, read, files, began, deadline)
    if shown:
        index.checked_at = time.time()  # the anchored files were compared with the tree now
    now = time.time()
    for r in shown:
        r.view["confidence"] = scored(r.base, r.verified, r.status, now)  # type: ignore[arg-type]
    if stamps or moved or len(rows) != len(kept) or any(r.resolved for r in shown):  # else: nothing new
        _keep(index, paths, kept, rows, moved, files)
    return shown, bad


class _Files:
    """The anchored files' stamps, each taken once (`None`: gone, not a regular file, or reached
    through a directory that leaves the repository), and whether each is settled."""

    def __init__(self, index: CodeIndex) -> None:
        self.index = index
        self.prefix = root_prefix(index.root)
        self.seen: dict[str, tuple[int | None, bool]] = {}  # path -> (stamp, settled)

    def stamp(self, path: str, began: int = 0) -> int | None:
        if path not in self.seen:
            try:
                st: os.stat_result | None = os.stat(self.prefix + path, follow_symlinks=False)
            except OSError:
                st = None
            if st is None or not stat.S_ISREG(st.st_mode) or not self.index.contained(path):
                self.seen[path] = (None, False)
            else:
                self.seen[path] = (_stamp(st), trusted(st, began))
        return self.seen[path][0]

    def settled(self, path: str) -> bool:
        return self.seen[path][1]


def _resolve(
    store: Store,
    resolver: Resolvers,
    shown: list[Listed],
    kept: dict,
    moved: set[str],
    read: dict[str, Memory],
    files: _Files,
    began: int,
    deadline: float | None,
) -> None:
    """Give each shown memory its verdict: the kept one while none of its files `moved`, else
    resolved now (`read`: the memories parsed already by this listing)."""
    stale: list[Listed] = []
    for r in shown:
        hit = kept.get(r.name)
        verdict = hit[2] if hit is not None and hit[0] == r.stamp else None
        if verdict is not None and (not moved or moved.isdisjoint(verdict[3])):
            r.status, r.reason, r.view, r.deps = verdict[0], verdict[1], dict(verdict[2]), verdict[3]
        else:
            stale.append(r)
    if not stale:
        return
    unread = [r.name for r in stale if r.name not in read]
    if unread:
        read = read | _by_name(store.load(unread)[0])
    r_ = resolver(with_diff=False, deadline=deadline)
    verdicts = r_.memories(read[r.name] for r in stale if r.name in read)
    r_.flush()
    done = {os.path.basename(v.memory.filename or ""): v for v in verdicts}
    files.seen.clear()  # resolving may have waited on files: their stamps are taken again, after it
    for r in stale:
        v = done.get(r.name)
        if v is None:  # changed since this listing began, and no longer parses: its next read says so
            continue
        r.status, r.reason, r.view, r.resolved = v.status, v.reason, verdict_view(v), True
        if r.stamp is None or not all(r_.decided_here(a, res) for a, res in v.anchors):
            continue
        deps = tuple(dict.fromkeys(a.path for a, _ in v.anchors))
        if all(files.stamp(p, began) is not None and files.settled(p) for p in deps):
            r.deps = deps


def _fresh(resolver: Resolvers, mems: list[Memory], include_closed: bool, deadline: float | None) -> list[Listed]:
    """Every memory resolved from its parsed file, nothing kept (a store the listing cannot key)."""
    shown = mems if include_closed else links.current(mems)
    r = resolver(with_diff=False, deadline=deadline)
    verdicts = r.memories(shown)
    r.flush()
    return [_listed(v) for v in verdicts]


def _listed(v: Verdict) -> Listed:
    r = Listed(os.path.basename(v.memory.filename or ""), None, facts_of(v.memory))
    r.status, r.reason, r.view = v.status, v.reason, verdict_view(v)
    return r


# -- the kept row -------------------------------------------------------------------------------
def _codec() -> str:
    """What a kept listing was derived with: the parsed files' codec and the code that decides
    verdicts (each module's size and mtime), so an upgrade of tether never reads an older one.
    Worked out once per process: a listing asks it to read and again to keep."""
    if not _CODEC:
        _CODEC.append(_derived_with())
    return _CODEC[0]


_CODEC: list[str] = []


def _derived_with() -> str:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sums = []
    for part in ("anchor", "anchor/queries", "index", "lifecycle", "service", "store"):
        try:
            with os.scandir(os.path.join(here, part)) as it:
                sums += sorted((f"{part}/{e.name}", e.stat().st_size, e.stat().st_mtime_ns) for e in it if e.is_file())
        except OSError:
            continue
    return f"{PARSED_CODEC}:{zlib.crc32(repr(sums).encode()):08x}"


def _kept(index: CodeIndex) -> tuple[dict[str, int], dict[str, tuple]]:
    """What the last listing kept: each anchored file's stamp then, and name -> (stamp, facts,
    verdict or None); empty when none is kept, or it was kept by other code."""
    try:
        row = index.conn.execute("SELECT codec, value FROM verdicts_kept WHERE name=?", (KEY,)).fetchone()
        if row is None or row[0] != _codec():
            return {}, {}
        paths, kept = marshal.loads(row[1])
        if isinstance(paths, dict) and isinstance(kept, dict):
            return paths, kept
    except (ValueError, EOFError, TypeError):  # a damaged row: list afresh, and keep anew
        pass
    return {}, {}


def _keep(
    index: CodeIndex, paths: dict[str, int], kept: dict, rows: Iterable[Listed], moved: set[str], files: _Files
) -> None:
    """Keep what this listing learned, if anything: every settled file's facts, and the verdicts
    that may stand (`Listed.deps`) with their files' stamps. A verdict not asked this time (a closed
    memory) is kept as it was, unless one of its files has another stamp now."""
    for path, (stamp, _) in files.seen.items():
        if paths.get(path) != stamp:
            moved.add(path)  # stamped anew by this listing: what was kept on the old stamp goes
    now_paths: dict[str, int] = {}
    now: dict[str, tuple] = {}
    for r in rows:
        if r.stamp is None:
            continue
        old = kept.get(r.name)
        verdict: tuple | None = None
        if r.resolved and r.deps is not None:
            verdict = (str(r.status), _word(r.reason), _plain(dict(r.view, confidence=0.0)), r.deps)
        elif not r.resolved and old is not None and old[0] == r.stamp and old[2] is not None:
            verdict = old[2] if moved.isdisjoint(old[2][3]) else None
        if verdict is not None:
            for p in verdict[3]:
                now_paths[p] = files.seen[p][0] if p in moved else paths[p]  # type: ignore[assignment]
        now[r.name] = (r.stamp, r.facts(), verdict)
    if now == kept and now_paths == paths:
        return
    blob = marshal.dumps((now_paths, now))
    with transaction(index.conn):
        index.conn.execute("INSERT OR REPLACE INTO verdicts_kept VALUES(?,?,?)", (KEY, _codec(), blob))


def _word(value) -> str | None:
    return None if value is None else str(value)


def _plain(value):
    """A view as marshal keeps it: the lifecycle's str enums as plain strings."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str) and type(value) is not str:
        return str(value)
    return value
