"""Anchors written before their language's hash format changed (`t1:` on a Rust or Go symbol
once those hash in format 2).

Most code hashes to the same digest in both formats (a format adds what the old one missed:
Rust attributes, Go repeated constants), so such an anchor is first read with its digest under the
current prefix, and renames and moves are followed as ever. Code the new format reads differently
is checked at the anchor's own place the way it was written: unchanged as format 1 sees it is
active, not a false alarm. Only there, and only for these anchors: new ones see what the new
format sees, and `tether reanchor` moves an old one to it (`--outdated`: all of them at once).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from tether.anchor.disc import disc_matches
from tether.anchor.hash_formats import current
from tether.anchor.model import Symbol
from tether.index.code_index import CodeIndex
from tether.store.model import Anchor

TYPE_CHECKING = False  # not typing's: the prompt hook imports this module (the resolver reads old hashes)
if TYPE_CHECKING:
    from tether.store.files import Store


def outdated(a: Anchor) -> bool:
    return a.hash.startswith("t1:") and current(a.language, a.path) > 1


def in_current_format(a: Anchor) -> Anchor:
    return a.replace(hash=f"t{current(a.language, a.path)}:{a.hash[3:]}")


class OldHashes:
    """Format-1 hashes of the symbols of the files asked about, parsed once per file per reader."""

    def __init__(self, index: CodeIndex) -> None:
        self.index = index
        self._by_path: dict[str, dict[tuple[int, str], str]] = {}

    def unchanged(self, a: Anchor) -> Symbol | None:
        """The symbol at the anchor's place if format 1 hashes it as the anchor holds."""
        if self.index.file(a.path) is None:
            return None
        for c in self.index.symbols(a.path, a.symbol):
            if self._at(a.path, c.start_byte, c.qualname) == a.hash:
                return c
        return None

    def _at(self, path: str, start_byte: int, qualname: str) -> str | None:
        if path not in self._by_path:
            from tether.anchor.extract import analyze  # the parsing machinery, only for an outdated anchor

            data = self.index.read_bytes(path)
            facts = analyze(path, data, hash_format=1) if data is not None else None
            self._by_path[path] = {(s.start_byte, s.qualname): s.hash for s in facts.symbols} if facts else {}
        return self._by_path[path].get((start_byte, qualname))


def rehashed(a: Anchor, read: Callable[[str], tuple[list[Symbol], list[Symbol]] | None]) -> Anchor | None:
    """`a` in its language's current format, if the code at its place is unchanged as its own
    format reads it. `read(path)`: the file's symbols in format 1 and now, from one read of its
    bytes, so no edit can slip in between."""
    both = read(a.path)
    if both is None:
        return None
    then, now = both
    old = [
        s
        for s in then
        if s.qualname == a.symbol and s.hash == a.hash and disc_matches(a.discriminator, s.discriminator)
    ]
    if len(old) != 1:
        return None
    same = [s for s in now if (s.start_byte, s.qualname) == (old[0].start_byte, old[0].qualname)]
    return a.replace(hash=same[0].hash) if len(same) == 1 else None


def upgrade(index: CodeIndex, store: Store) -> dict[str, list[str]]:
    """Every current memory whose anchors hold an older hash format moved to the current one,
    where all those anchors' code is unchanged; the others are left for a review (`check`).
    Verification time is kept: nothing was verified, only re-read."""
    read = _both_formats(index)
    upgraded, left = [], []
    ready: dict[str, tuple[tuple[Anchor, ...], tuple[Anchor, ...]]] = {}  # id -> (anchors as read, rehashed)
    anchors: list[Anchor | None] | tuple[Anchor, ...]  # rehashed (None: could not be), then as written
    for m in store.memories()[0]:
        if not any(outdated(a) for a in m.anchors):
            continue
        anchors = [a if not outdated(a) else rehashed(a, read) for a in m.anchors]
        if any(a is None for a in anchors):
            left.append(m.id)
        else:
            ready[m.id] = (m.anchors, tuple(anchors))  # type: ignore[arg-type]  # no None: the any() above says so
    if ready:
        with store.locked():  # read-modify-write: a concurrent writer's change is never undone
            for m in store.memories()[0]:
                if m.id not in ready:
                    continue
                was, anchors = ready.pop(m.id)
                if m.anchors != was:
                    left.append(m.id)
                    continue
                store.write(m.evolve(anchors=anchors))
                upgraded.append(m.id)
        left += list(ready)  # closed meanwhile
    return {"upgraded": upgraded, "left": left}


def _both_formats(index: CodeIndex) -> Callable[[str], tuple[list[Symbol], list[Symbol]] | None]:
    """A reader of files' symbols in format 1 and in the current format, each file read once."""
    from tether.anchor.extract import analyze

    @cache
    def read(path: str) -> tuple[list[Symbol], list[Symbol]] | None:
        data = index.read_bytes(path)
        if data is None:
            return None
        return list(analyze(path, data, hash_format=1).symbols), list(analyze(path, data).symbols)

    return read
