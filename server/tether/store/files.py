"""The memory store: one file per memory under `.tether/memories/`, the source of truth.

Writes are atomic (temp file + os.replace). A file that fails to parse is quarantined: reported,
skipped by recall, never deleted or rewritten.
"""

from __future__ import annotations

import _thread
import os
import re
import time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from pathlib import Path

from tether.errors import Conflict, InsideRepository, InvalidInput, NotARepository, NotFound, StoreCorrupt
from tether.files.locate import enclosing_repository, not_a_repository_root
from tether.files.read import Unreadable, read_regular_file
from tether.files.write import TEMP_PREFIX, atomic_write
from tether.record import Record
from tether.store import memory as fmt
from tether.store.links import current
from tether.store.model import Memory
from tether.store.parsed import ParsedCache, read_memory

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

LOCK_TIMEOUT_S = 30.0
GITIGNORE = "# maintained by tether: per-machine files never belong in git\n*.tmp\n.tmp-*\nlocal/\n"


# Why a file is quarantined, and what fixes it.
QUARANTINE_FIXES = {
    "malformed": "fix the front matter by hand (a JSON object between --- lines) or delete the file",
    "not_regular": "remove it: a memory file is a regular file that tether wrote",
    "too_large": "remove it or cut it down: a memory holds at most 16,000 characters",
    "unreadable": "make it readable (check its permissions)",
    "duplicate_id": "two files carry one id: delete the copy, or give it a new uuid",
    "linked_store": "replace the symbolic link with a directory of memory files",
    "private_anchor": "remove the file or that anchor: credential files and .git/ are never anchored",
    "not_memory": "move it out of .tether/memories/: only memory files (*.md) belong there",
    "merge_conflict": "resolve the merge: keep one version between the <<<<<<< and >>>>>>> lines and delete "
    "the markers (`git checkout --ours FILE` or `--theirs FILE` takes one side whole), then `git add FILE`",
}


def not_a_repository(root: Path) -> str:
    enclosing = enclosing_repository(root)
    if enclosing:
        return not_a_repository_root(root, *enclosing)
    return (
        f"{root} is neither a git repository nor a tether store (no .git/ or .tether/): "
        "run tether in a repository, or `tether init` to keep memories here without git"
    )


class Quarantined(Record):
    """A file in the store that is not read as a memory: its name, why, and a reason code."""

    __slots__ = ("filename", "error", "reason")
    filename: str
    error: str
    reason: str  # a key of QUARANTINE_FIXES

    def __init__(self, filename: str, error: str, reason: str = "malformed") -> None:
        self._fill(filename, error, reason)

    @property
    def fix(self) -> str:
        return QUARANTINE_FIXES.get(self.reason, QUARANTINE_FIXES["malformed"])


class Store:
    def __init__(self, root: Path, cache: Callable[[], sqlite3.Connection] | None = None) -> None:
        """`cache`: the cache database to keep parsed files in (store/parsed.py), opened on first read."""
        self.root = root
        self._cache = cache
        self.base = root / ".tether"
        self.dir = self.base / "memories"
        self._mutex = _thread.RLock()  # threading's RLock itself: importing threading was ~0.6 ms of a start
        self._lock_fd: int | None = None
        self._depth = 0

    def linked(self) -> str | None:
        """The store directory that is a symbolic link, if one is: a link committed as `.tether`
        would send every write and read outside the repository."""
        for d in (self.base, self.dir):
            if d.is_symlink():
                return d.relative_to(self.root).as_posix()
        return None

    def unmarked(self) -> bool:
        """Neither a git repository nor a tether store: a command run in a plain directory (a home,
        a download folder), where `.tether/` must not appear unasked."""
        return not (self.base.exists() or self.base.is_symlink() or (self.root / ".git").exists())

    def writable(self) -> None:
        """Refuse a write that would make `.tether/` where neither git nor a store is."""
        if self.unmarked():
            raise NotARepository(not_a_repository(self.root) + "; nothing was stored", root=str(self.root))

    def ensure(self, init: bool = False) -> None:
        """The store directory, made if missing; outside a repository only when asked (`init`)."""
        if not init:
            self.writable()
        elif (enclosing := enclosing_repository(self.root)) is not None:
            raise InsideRepository(
                not_a_repository_root(self.root, *enclosing) + "; no store was made", repository=enclosing[0]
            )
        link = self.linked()
        if link:
            raise StoreCorrupt(
                f"{link} is a symbolic link: tether reads and writes memories only inside the "
                "repository; replace it with a directory"
            )
        self.dir.mkdir(parents=True, exist_ok=True)
        ignore = self.base / ".gitignore"
        try:  # a FIFO or a link committed in its place is replaced, never read or written through
            current = read_regular_file(ignore, len(GITIGNORE))[1]
        except (OSError, Unreadable):
            current = None
        if current != GITIGNORE.encode():
            atomic_write(ignore, GITIGNORE.encode())

    def files(self) -> list[Path]:
        """Every entry of the memories directory but hidden ones (editors' and tether's own temp
        files): a memory file, or something that will be quarantined as not one."""
        return [self.dir / name for name, _ in self.entries()]

    def entries(self) -> list[tuple[str, os.DirEntry | None]]:
        """`files()` as (name, directory entry), in the same order (names compare as paths do)."""
        if self.linked():
            return []
        try:
            with os.scandir(self.dir) as it:
                entries = [(e.name, e) for e in it if not e.name.startswith(".")]
        except FileNotFoundError:
            return []
        return sorted(entries, key=lambda e: os.path.normcase(e[0]))

    def load(self, only: Collection[str] | None = None) -> tuple[list[Memory], list[Quarantined]]:
        """Every memory that parses, and every file that does not; `only`: of these file names."""
        memories: list[Memory] = []
        bad: list[Quarantined] = []
        link = self.linked()
        if link:
            bad.append(
                Quarantined(link, "a symbolic link: memories are read only inside the repository", "linked_store")
            )
        found: list[tuple[str, Memory]] = []
        parsed = ParsedCache(self._cache(), only) if self._cache is not None else None
        prefix = os.path.join(str(self.dir), "")
        wanted = None if only is None else set(only)
        for name, entry in self.entries():
            if wanted is not None and name not in wanted:
                continue
            rel = ".tether/memories/" + name
            if not name.endswith(".md"):
                bad.append(Quarantined(rel, "not a memory file: memory files end in .md", "not_memory"))
                continue
            try:
                m = read_memory(prefix + name, name, rel, entry, parsed)
            except StoreCorrupt as e:
                bad.append(Quarantined(rel, e.message, str(e.details.get("reason", "malformed"))))
                continue
            except OSError as e:
                bad.append(Quarantined(rel, f"unreadable: {e.strerror}", "unreadable"))
                continue
            found.append((rel, m))
        if parsed is not None:
            parsed.flush()
        # Two files, one id: the one named as tether names it (`...--<id prefix>.md`) is the memory,
        # the other the copy, whichever sorts first; ids are hex, so `1D62CEDD-...` is `1d62cedd-...`.
        ids = [m.id.lower() for _, m in found]
        if len(set(ids)) == len(ids):  # the usual case, no id twice: nothing to sort out
            return [m for _, m in found], bad
        keeper: dict[str, str] = {}
        for rel, m in sorted(found, key=lambda p: (not p[0].lower().endswith(f"--{p[1].id[:8].lower()}.md"), p[0])):
            keeper.setdefault(m.id.lower(), rel)
        for rel, m in found:
            if keeper[m.id.lower()] != rel:
                bad.append(Quarantined(rel, f"duplicate id {m.id} (also in {keeper[m.id.lower()]})", "duplicate_id"))
            else:
                memories.append(m)
        return memories, bad

    def memories(self, include_closed: bool = False) -> tuple[list[Memory], list[Quarantined]]:
        """Parsed memories (current only by default: live, and closed by no live successor, even
        if a crash cut short the write that closes it), and quarantined files."""
        mems, bad = self.load()
        return (mems if include_closed else current(mems)), bad

    def write(self, m: Memory) -> Memory:
        """Write (or overwrite in place) one memory atomically; returns it with its filename."""
        self.ensure()
        rel = m.filename
        if rel is None:
            rel = f".tether/memories/{fmt.slug(m.summary)}--{m.short_id}.md"
            if (self.root / rel).exists():  # same slug, same 8 hex digits: the full id keeps both
                rel = f".tether/memories/{fmt.slug(m.summary)}--{m.id}.md"
        data = fmt.dumps(m)
        try:  # what is written must read back: a file the reader would quarantine is never stored
            fmt.loads(data, rel)
        except StoreCorrupt as e:
            fix = (
                " (put them in a fenced code block: ``` lines before and after)"
                if e.details.get("reason") == "merge_conflict"
                else ""
            )
            raise InvalidInput(f"the memory would not read back, so it was not written: {e.message}{fix}") from None
        atomic_write(self.root / rel, data)
        return m.evolve(filename=rel)

    def snapshot(self) -> dict[str, tuple[int, int, int]]:
        """Name -> (inode, size, mtime) of every memory file: every tether write renames a fresh
        temp file into place, so a new inode marks a write even within one timestamp tick."""
        out = {}
        try:
            with os.scandir(self.dir) as it:
                for e in it:
                    if e.name.endswith(".md") and not e.name.startswith("."):
                        try:
                            st = e.stat(follow_symlinks=False)
                        except OSError:
                            continue
                        out[e.name] = (st.st_ino, st.st_size, st.st_mtime_ns)
        except FileNotFoundError:
            pass
        return out

    def changed_since(self, before: dict[str, tuple[int, int, int]]) -> list[Memory]:
        """The memories in files created or rewritten since `before` (unparseable ones left out)."""
        out = []
        for name, sig in self.snapshot().items():
            if before.get(name) != sig:
                try:
                    out.append(fmt.load_file(str(self.dir / name), f".tether/memories/{name}")[1])
                except (OSError, StoreCorrupt):
                    continue
        return out

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store's write lock: a read-check-write (the duplicate check, supersede, retire)
        must not interleave with another process's, or eight agents storing the same fact store
        it eight times. Re-entrant within a process; the kernel drops it if the holder dies."""
        with self._mutex:
            if self._depth == 0:
                self.ensure()
                self._lock_fd = _lock_dir(self.dir)
                _sweep_temp(self.root, self.dir)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0 and self._lock_fd is not None:
                    os.close(self._lock_fd)  # closing the descriptor releases the flock
                    self._lock_fd = None

    def get(self, ref: str, memories: list[Memory] | None = None) -> Memory:
        """A memory by full id or unique id prefix (at least 4 characters)."""
        ref = (ref or "").strip().lower()
        if not ref:
            raise InvalidInput("a memory id is required: the full id, or a prefix of at least 4 characters")
        if len(ref) < 4:
            raise InvalidInput(f"memory id {ref!r} is too short: give at least 4 characters of the id")
        pool = memories if memories is not None else self.load()[0]
        hits = [m for m in pool if m.id.lower() == ref] or [m for m in pool if m.id.lower().startswith(ref)]
        if not hits:
            for q in self.load()[1]:
                if any(i.lower().startswith(ref) for i in self._quarantined_ids(q)):
                    raise NotFound(
                        f"memory {ref!r} is quarantined ({q.reason}): {q.filename}: {q.error}; fix: {q.fix}",
                        quarantined=q.filename,
                        reason=q.reason,
                    )
            raise NotFound(f"no memory with id {ref!r}")
        if len(hits) > 1:
            raise InvalidInput(f"id prefix {ref!r} is ambiguous", candidates=[m.id for m in hits])
        return hits[0]

    def _quarantined_ids(self, q: Quarantined) -> list[str]:
        """The ids a quarantined file names: in its name (`slug--1a2b3c4d.md`) and, for a regular
        file within the size cap, in its text (`"id": "..."`, both sides of a conflict)."""
        ids = _NAMED_ID.findall(q.filename)
        try:
            data = read_regular_file(self.root / q.filename, fmt.MAX_FILE_BYTES)[1]
        except (OSError, Unreadable):
            return ids
        return ids + _ID_FIELD.findall(data.decode("utf-8", "replace"))


_NAMED_ID = re.compile(r"--([0-9a-fA-F-]{8,64})\.md$")
_ID_FIELD = re.compile(r'"id"\s*:\s*"([0-9a-fA-F-]{8,64})"')


def _lock_dir(path: Path) -> int | None:
    """An exclusive flock on the memories directory itself (no lock file to commit or clean up).
    None where advisory locks do not exist or the filesystem refuses them on a directory (Windows,
    some NFS mounts): writes stay atomic there, only the duplicate check may race."""
    try:
        import fcntl
    except ImportError:
        return None
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    deadline = time.monotonic() + LOCK_TIMEOUT_S
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                raise Conflict(
                    f"another tether process has held the memory store's write lock for "
                    f"{LOCK_TIMEOUT_S:.0f} s; nothing was stored, try again"
                ) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.02)  # short polls: a write holds the lock for milliseconds
        except OSError:
            os.close(fd)
            return None


TEMP_MAX_AGE_S = 3600.0


_TEMP_NAME = re.compile(re.escape(TEMP_PREFIX) + r"[a-z0-9_]{8}")  # what atomic_write names (and mkstemp did)


def _sweep_temp(root: Path, directory: Path) -> None:
    """Temp files a killed writer left behind (never memories: those are renamed into place whole),
    swept by writers only. An hour old means no live writer owns them; a name of that shape that
    git tracks is someone's file, and stays."""
    try:
        old = [
            p
            for p in directory.iterdir()
            if _TEMP_NAME.fullmatch(p.name)
            and p.is_file()
            and not p.is_symlink()
            and time.time() - p.stat().st_mtime > TEMP_MAX_AGE_S
        ]
    except OSError:
        return
    if not old:
        return
    tracked = _tracked(root, [p.relative_to(root).as_posix() for p in old])
    for p in old:
        if p.relative_to(root).as_posix() not in tracked:
            try:
                p.unlink()
            except OSError:
                pass


def _tracked(root: Path, rels: list[str]) -> set[str]:
    """Which of `rels` git tracks (all of them, if git cannot say: then nothing is deleted)."""
    import subprocess

    if not (root / ".git").exists():
        return set()
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--", *(f":(literal){r}" for r in rels)],
            cwd=root,
            capture_output=True,
            timeout=10,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return set(rels)
    return {os.fsdecode(x) for x in out.split(b"\0") if x}
