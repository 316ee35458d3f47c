"""The memory store: one file per memory under `.tether/memories/`, the source of truth.

Writes are atomic (temp file + os.replace). A file that fails to parse is quarantined: reported,
skipped by recall, never deleted or rewritten.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import memory as fmt
from .errors import InvalidInput, NotFound, StoreCorrupt
from .memory import Memory

GITIGNORE = "# maintained by tether: per-machine files never belong in git\n*.tmp\n.tmp-*\nlocal/\n"


@dataclass(frozen=True, slots=True)
class Quarantined:
    filename: str
    error: str


class Store:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.base = root / ".tether"
        self.dir = self.base / "memories"

    def ensure(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        ignore = self.base / ".gitignore"
        if not ignore.exists() or ignore.read_text("utf-8", "replace") != GITIGNORE:
            _atomic_write(ignore, GITIGNORE.encode())

    def files(self) -> list[Path]:
        try:
            return sorted(p for p in self.dir.iterdir() if p.suffix == ".md" and not p.name.startswith("."))
        except FileNotFoundError:
            return []

    def load(self) -> tuple[list[Memory], list[Quarantined]]:
        """Every memory that parses, and every file that does not."""
        memories: list[Memory] = []
        bad: list[Quarantined] = []
        seen: dict[str, str] = {}
        for path in self.files():
            rel = path.relative_to(self.root).as_posix()
            try:
                m = fmt.loads(path.read_bytes(), rel)
            except StoreCorrupt as e:
                bad.append(Quarantined(rel, e.message))
                continue
            except OSError as e:
                bad.append(Quarantined(rel, f"unreadable: {e.strerror}"))
                continue
            if m.id in seen:
                bad.append(Quarantined(rel, f"duplicate id {m.id} (also in {seen[m.id]})"))
                continue
            seen[m.id] = rel
            memories.append(m)
        return memories, bad

    def write(self, m: Memory) -> Memory:
        """Write (or overwrite in place) one memory atomically; returns it with its filename."""
        self.ensure()
        rel = m.filename or f".tether/memories/{fmt.slug(m.summary)}--{m.short_id}.md"
        _atomic_write(self.root / rel, fmt.dumps(m))
        return m.evolve(filename=rel)

    def get(self, ref: str, memories: list[Memory] | None = None) -> Memory:
        """A memory by full id or unique id prefix (at least 4 characters)."""
        ref = (ref or "").strip().lower()
        if len(ref) < 4:
            raise InvalidInput("a memory id (or a prefix of at least 4 characters) is required")
        pool = memories if memories is not None else self.load()[0]
        hits = [m for m in pool if m.id.lower() == ref] or [m for m in pool if m.id.lower().startswith(ref)]
        if not hits:
            raise NotFound(f"no memory with id {ref!r}")
        if len(hits) > 1:
            raise InvalidInput(f"id prefix {ref!r} is ambiguous", candidates=[m.id for m in hits])
        return hits[0]


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
