"""What the lifecycle answers: one anchor's `Resolution`, one memory's `Verdict`, and the two rules
that join them (a memory dies only when every anchor dies; confidence is derived, never stored)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from tether.lifecycle.status import Reason, Status
from tether.store.confidence import STALE_PENALTY, aged
from tether.store.memory import Anchor, Memory, parse_time


@dataclass(frozen=True, slots=True)
class Resolution:
    """One anchor as it resolves now."""

    status: Status
    reason: Reason | None = None
    path: str | None = None
    symbol: str | None = None
    discriminator: str | None = None
    start_line: int | None = None
    end_line: int | None = None
    followed: bool = False
    candidates: tuple[str, ...] = ()
    diff: str | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """One memory as it stands now."""

    memory: Memory
    status: Status
    reason: Reason | None
    anchors: tuple[tuple[Anchor, Resolution], ...]
    confidence: float
    notes: tuple[str, ...] = field(default=())


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


@dataclass(frozen=True, slots=True)
class LinkProblem:
    """A broken link between memory files: `supersede_cycle`, `one_sided_link` or `missing_link`."""

    memory_id: str
    problem: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.memory_id, "problem": self.problem, "message": self.message}
