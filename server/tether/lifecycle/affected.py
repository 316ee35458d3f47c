"""Which memories a change touches, and how each stands after it: `tether affected`, for the pull
request (or the commit) that may stale them.

An anchor is touched when its file is in the change and, for a symbol, its lines then (at the
base, asked of git) or now (in the working tree) meet a changed hunk; when its file was deleted;
or when it was followed out of a changed file into another (a function moved across files). A
memory already stale at the base, on lines the change did not touch, is not this change's news.
Status after the change is what the resolver says of the working tree, as `check` would.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tether.anchor.extract import analyze
from tether.anchor.model import Symbol
from tether.lifecycle.changes import Changes, FileChange, overlaps
from tether.lifecycle.diff import git_show
from tether.lifecycle.resolve import Resolver
from tether.lifecycle.status import Status
from tether.lifecycle.verdicts import Resolution, Verdict
from tether.store.memory import Anchor, Memory

# what the change did to a memory, worst first: its touched anchors' news
EFFECTS = ("deleted", "stale", "followed", "active")


@dataclass(frozen=True, slots=True)
class Touched:
    verdict: Verdict
    anchors: tuple[int, ...]  # indexes into verdict.anchors of the anchors the change touched
    effect: str  # one of EFFECTS


@dataclass(frozen=True, slots=True)
class Affected:
    changes: Changes
    touched: tuple[Touched, ...]

    def counts(self) -> dict[str, int]:
        return {e: sum(1 for t in self.touched if t.effect == e) for e in EFFECTS}


def affected(root: Path, resolver: Resolver, memories: Iterable[Memory], changes: Changes) -> Affected:
    """Every memory of `memories` that `changes` touches, worst news first."""
    old, new = changes.by_old(), changes.by_new()
    then = _BaseSymbols(root, changes.base)
    found = []
    for m in memories:
        if not old and not new:
            break
        v = resolver.memory(m)
        hit = tuple(i for i, (a, r) in enumerate(v.anchors) if _touches(a, r, old, new, then))
        if hit:
            found.append(Touched(v, hit, _effect(v, hit)))
    found.sort(key=lambda t: (EFFECTS.index(t.effect), t.verdict.memory.summary))
    return Affected(changes, tuple(found))


def _touches(a: Anchor, r: Resolution, old: dict[str, FileChange], new: dict[str, FileChange], then) -> bool:
    now_path = r.path or a.path
    was, now = old.get(a.path), new.get(now_path)
    if was is None and now is None:
        return False
    if a.type == "file" or (was is not None and (now_path != a.path or was.new is None)):
        return True  # a whole file changed; moved out of a changed file; its file deleted or renamed
    if now is not None and r.start_line is not None and overlaps(r.start_line, r.end_line, now.new_lines):
        return True
    if was is None:
        return False
    s = then.find(a)
    return s is not None and overlaps(s.start_line, s.end_line, was.old_lines)


def _effect(v: Verdict, hit: tuple[int, ...]) -> str:
    results = [v.anchors[i][1] for i in hit]
    if any(r.status == Status.INVALIDATED for r in results):
        return "deleted"
    if any(r.status == Status.STALE for r in results):
        return "stale"
    return "followed" if any(r.followed for r in results) else "active"


class _BaseSymbols:
    """The symbols each file had at the base commit, analyzed once per file."""

    def __init__(self, root: Path, base: str) -> None:
        self.root, self.base = root, base
        self._files: dict[str, tuple[Symbol, ...]] = {}

    def find(self, a: Anchor) -> Symbol | None:
        """The anchored symbol as it was at the base: by its hash, else by its name."""
        if a.path not in self._files:
            data = git_show(self.root, self.base, a.path)
            self._files[a.path] = () if data is None else analyze(a.path, data).symbols
        symbols = self._files[a.path]
        return next((s for s in symbols if s.hash == a.hash), None) or next(
            (s for s in symbols if s.qualname == a.symbol), None
        )
