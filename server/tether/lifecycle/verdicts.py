"""What the lifecycle answers: one anchor's `Resolution`, one memory's `Verdict`, and the two rules
that join them (a memory dies only when every anchor dies; confidence is derived, never stored)."""

from __future__ import annotations

from datetime import datetime, timezone

from tether.lifecycle.status import Reason, Status
from tether.record import Record
from tether.store.confidence import STALE_PENALTY, aged
from tether.store.model import Anchor, Memory, parse_time


class Resolution(Record):
    """One anchor as it resolves now."""

    __slots__ = (
        *("status", "reason", "path", "symbol", "discriminator"),
        *("start_line", "end_line", "followed", "candidates", "diff"),
    )
    status: Status
    reason: Reason | None
    path: str | None
    symbol: str | None
    discriminator: str | None
    start_line: int | None
    end_line: int | None
    followed: bool
    candidates: tuple[str, ...]
    diff: str | None

    def __init__(
        self,
        status: Status,
        reason: Reason | None = None,
        path: str | None = None,
        symbol: str | None = None,
        discriminator: str | None = None,
        start_line: int | None = None,
        end_line: int | None = None,
        followed: bool = False,
        candidates: tuple[str, ...] = (),
        diff: str | None = None,
    ) -> None:
        self._fill(status, reason, path, symbol, discriminator, start_line, end_line, followed, candidates, diff)


class Verdict(Record):
    """One memory as it stands now."""

    __slots__ = ("memory", "status", "reason", "anchors", "confidence", "notes")
    memory: Memory
    status: Status
    reason: Reason | None
    anchors: tuple[tuple[Anchor, Resolution], ...]
    confidence: float
    notes: tuple[str, ...]

    def __init__(
        self,
        memory: Memory,
        status: Status,
        reason: Reason | None,
        anchors: tuple[tuple[Anchor, Resolution], ...],
        confidence: float,
        notes: tuple[str, ...] = (),
    ) -> None:
        self._fill(memory, status, reason, anchors, confidence, notes)


def confidence(m: Memory, status: Status, now: datetime | None = None) -> float:
    """Base x stale penalty x age decay. Nothing is stored, so healing restores it fully."""
    when = (now or datetime.now(timezone.utc)).timestamp()
    return scored(m.confidence, parse_time(m.verified_at).timestamp(), status, when)


def scored(base: float, verified_ts: float, status: str, now_ts: float) -> float:
    """`confidence` from the memory's fields alone (a kept listing has no `Memory`: service/listing.py)."""
    if status == Status.INVALIDATED:
        return 0.0
    value = aged(base, (now_ts - verified_ts) / 86400)
    if status == Status.STALE:
        value *= STALE_PENALTY
    return round(value, 3)


def combine(results: list[Resolution]) -> tuple[Status, Reason | None]:
    """A memory dies only when every anchor dies; losing some leaves it stale `anchor_lost`."""
    if not results or all(r.status == Status.ACTIVE for r in results):
        return Status.ACTIVE, None
    if all(r.status == Status.INVALIDATED for r in results):
        return Status.INVALIDATED, results[0].reason
    if any(r.status == Status.INVALIDATED for r in results):
        return Status.STALE, Reason.ANCHOR_LOST
    return Status.STALE, next(r.reason for r in results if r.status == Status.STALE)


class LinkProblem(Record):
    """A broken link between memory files: `supersede_cycle`, `one_sided_link` or `missing_link`."""

    __slots__ = ("memory_id", "problem", "message")
    memory_id: str
    problem: str
    message: str

    def __init__(self, memory_id: str, problem: str, message: str) -> None:
        self._fill(memory_id, problem, message)

    def to_dict(self) -> dict[str, str]:
        return {"id": self.memory_id, "problem": self.problem, "message": self.message}
