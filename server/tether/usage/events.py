"""The per-machine usage log: recalls, push-recall injections and citation credits, append-only JSONL.

One line per event in `state_dir(root)/usage.jsonl`, never committed. Lines are small and written
with a single O_APPEND write, so concurrent hooks and the MCP server never interleave them. The
reader skips lines it cannot parse: a torn or hand-edited line loses one event, not the log.

Format (compact JSON, one object a line; absent keys mean "not applicable"):
    {"ts": 1717171717.123, "event": "recall" | "push" | "credit", "ids": [memory ids],
     "session": str | null,      # hook: Claude Code's session id; MCP: one id per server process; CLI: null
     "tokens": int,              # recall: tokens served (meta.tokens.used); push: tokens injected
     "replaced": int, "files": int,  # recall: the receipt (receipts.py): tokens and files it replaced
     "prompt_id": str}           # hooks: the prompt the event belongs to
Bounded growth: once the log passes MAX_BYTES, the writer that notices (`ledger.record`) folds it
into running totals (`usage-summary.json`) and starts a fresh log, so totals survive and the state
dir stays under a few MB. Appenders hold a shared lock on `usage.lock`, the folder an exclusive
one, so no event is lost to the switch (no locking where fcntl is missing: a rare lost event).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tether.files.paths import state_dir
from tether.files.read import Unreadable, open_regular
from tether.files.write import append_jsonl

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; see the module docstring
    fcntl = None  # type: ignore[assignment]

EVENTS = ("credit", "push", "recall")
SURFACING = ("push", "recall")  # the events that put a memory in front of the agent
FILENAME = "usage.jsonl"
LOCKNAME = "usage.lock"
MAX_BYTES = 4 << 20  # about 15,000 recalls: folding it takes tens of milliseconds, once in that many


class UsageEvent:
    """One line of the usage log: a recall, a push or a credit. A plain class: a dataclass is built
    at import, ~0.6 ms of every recall's and every hook's start."""

    __slots__ = ("ts", "event", "ids", "session", "tokens", "prompt_id", "replaced", "files")

    def __init__(
        self,
        ts: float,
        event: str,
        ids: tuple[str, ...],
        session: str | None = None,
        tokens: int | None = None,
        prompt_id: str | None = None,
        replaced: int | None = None,
        files: int | None = None,
    ) -> None:
        self.ts, self.event, self.ids, self.session = ts, event, ids, session
        self.tokens, self.prompt_id, self.replaced, self.files = tokens, prompt_id, replaced, files

    def __repr__(self) -> str:
        return "UsageEvent(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__) + ")"


def log_path(root: Path) -> Path:
    return state_dir(root) / FILENAME


def append(
    root: Path,
    event: str,
    ids: Iterable[str],
    session: str | None = None,
    tokens: int | None = None,
    prompt_id: str | None = None,
    replaced: int | None = None,
    files: int | None = None,
) -> tuple[UsageEvent, int]:
    """Append one event and return it with the log's size after it; raises OSError if the state
    dir cannot be written (callers decide). `ledger.record` is what callers use: it also folds."""
    if event not in EVENTS:
        raise ValueError(f"unknown usage event {event!r}")
    e = UsageEvent(round(time.time(), 3), event, tuple(dict.fromkeys(ids)), session, tokens, prompt_id, replaced, files)
    line = {"ts": e.ts, "event": e.event, "ids": list(e.ids), "session": e.session}
    for key in ("tokens", "prompt_id", "replaced", "files"):
        if getattr(e, key) is not None:
            line[key] = getattr(e, key)
    with locked(root):
        size = append_jsonl(log_path(root), line)
    return e, size


@contextmanager
def locked(root: Path, exclusive: bool = False, wait: bool = True) -> Iterator[bool]:
    """Hold `usage.lock` (shared: appenders and readers; exclusive: the folder). Yields False when
    `wait` is off and another holder has it."""
    path = state_dir(root) / LOCKNAME
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield True  # no state dir to lock: a reader reads what exists, a writer fails on its own write
        return
    try:
        if fcntl is None:
            yield True
            return
        mode = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | (0 if wait else fcntl.LOCK_NB)
        try:
            fcntl.flock(fd, mode)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)  # closing releases the lock


def read(root: Path) -> list[UsageEvent]:
    return list(iter_events(log_path(root)))


def surfaced(root: Path, same: Callable[[str], bool]) -> set[str]:
    """Every memory id a push or a recall showed the agent in the session `same(logged id)` names
    (callers key sessions their own way: the hooks hash odd ids)."""
    return {i for e in read(root) if e.event in SURFACING and e.session and same(e.session) for i in e.ids}


def iter_events(path: Path) -> Iterator[UsageEvent]:
    try:  # a FIFO or a link put there must not hang or redirect the reader
        fd = open_regular(path)[0]
    except (OSError, Unreadable):  # missing, no state dir at all, or not a regular file: nothing logged
        return
    with open(fd, encoding="utf-8", errors="replace") as f:
        for line in f:
            e = _parse(line)
            if e is not None:
                yield e


MAX_TS = 253402300799.0  # 9999-12-31: a time past it (or NaN, or infinite) is a damaged line


def _parse(line: str) -> UsageEvent | None:
    try:
        d = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(d, dict) or d.get("event") not in EVENTS or not isinstance(d.get("ids"), list):
        return None
    ts, tokens = d.get("ts"), d.get("tokens")
    if isinstance(ts, bool) or not isinstance(ts, (int, float)) or not 0 <= ts <= MAX_TS:
        return None  # NaN fails both comparisons
    return UsageEvent(
        float(ts),
        d["event"],
        tuple(i for i in d["ids"] if isinstance(i, str)),
        d.get("session") if isinstance(d.get("session"), str) else None,
        _int(tokens),
        d.get("prompt_id") if isinstance(d.get("prompt_id"), str) else None,
        _int(d.get("replaced")),
        _int(d.get("files")),
    )


def _int(v: object) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 53 else None
