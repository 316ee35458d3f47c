"""A memory and its anchors as values, and the times their fields hold (store/memory.py reads and
writes them as files)."""

from __future__ import annotations

import time
from datetime import datetime, timezone

from tether.anchor.locator import locator
from tether.record import Record
from tether.store.confidence import BASE_CONFIDENCE
from tether.store.links import CLOCK_SKEW_S

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every hook
if TYPE_CHECKING:
    from typing import Any

FORMAT = 1  # the memory file format's version, written in every file


class Anchor(Record):
    """Where a memory is tied to the code, and the normalized hash it had there."""

    __slots__ = ("type", "path", "hash", "size", "symbol", "discriminator", "language")
    type: str
    path: str
    hash: str
    size: int
    symbol: str | None
    discriminator: str | None
    language: str | None

    def __init__(
        self,
        type: str,
        path: str,
        hash: str,
        size: int,
        symbol: str | None = None,
        discriminator: str | None = None,
        language: str | None = None,
    ) -> None:
        self._fill(type, path, hash, size, symbol, discriminator, language)

    def spec(self) -> str:
        return locator(self.type, self.path, self.symbol, self.discriminator or None)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.fields().items() if v is not None}


class Memory(Record):
    """One memory as stored: front matter fields plus the Markdown body."""

    __slots__ = (
        *("id", "kind", "summary", "body", "anchors", "recorded_at", "valid_from", "verified_at", "source"),
        *("confidence", "evidence", "links", "valid_to", "retired_reason", "commit", "tags", "format", "filename"),
    )
    id: str
    kind: str
    summary: str
    body: str
    anchors: tuple[Anchor, ...]
    recorded_at: str
    valid_from: str
    verified_at: str
    source: str
    confidence: float
    evidence: dict[str, str] | None
    links: dict[str, list[str]]
    valid_to: str | None
    retired_reason: str | None
    commit: str | None
    tags: tuple[str, ...]
    format: int
    filename: str | None  # where it was read from; not part of the file

    def __init__(
        self,
        id: str,
        kind: str,
        summary: str,
        body: str,
        anchors: tuple[Anchor, ...],
        recorded_at: str,
        valid_from: str,
        verified_at: str,
        source: str = "explicit",
        confidence: float = BASE_CONFIDENCE["explicit"],
        evidence: dict[str, str] | None = None,
        links: dict[str, list[str]] | None = None,
        valid_to: str | None = None,
        retired_reason: str | None = None,
        commit: str | None = None,
        tags: tuple[str, ...] = (),
        format: int = FORMAT,
        filename: str | None = None,
    ) -> None:
        self._fill(
            id,
            kind,
            summary,
            body,
            anchors,
            recorded_at,
            valid_from,
            verified_at,
            source,
            confidence,
            evidence,
            {} if links is None else links,
            valid_to,
            retired_reason,
            commit,
            tags,
            format,
            filename,
        )

    @property
    def live(self) -> bool:
        return self.valid_to is None

    def in_force(self, now: float | None = None) -> bool:
        """Live, and already valid: a `valid_from` ahead of the clock (by more than another machine's
        skew) is a belief not held yet, never served as current."""
        if not self.live:
            return False
        now = time.time() if now is None else now
        try:
            return parse_time(self.valid_from).timestamp() <= now + CLOCK_SKEW_S
        except ValueError:
            return True  # unparsable times are refused when the file is read

    @property
    def short_id(self) -> str:
        return self.id[:8]

    def front_matter(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "summary": self.summary,
            "anchors": [a.to_dict() for a in self.anchors],
            "evidence": self.evidence,
            "source": self.source,
            "confidence": self.confidence,
            "links": {k: list(v) for k, v in sorted(self.links.items()) if v},
            "valid_from": self.valid_from,
            "valid_to": self.valid_to,
            "recorded_at": self.recorded_at,
            "verified_at": self.verified_at,
            "retired_reason": self.retired_reason,
            "commit": self.commit,
            "tags": list(self.tags),
            "format": self.format,
        }

    def evolve(self, **changes: Any) -> Memory:
        return self.replace(**changes)


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_time(text: str) -> datetime:
    """ISO 8601 (a bare date, or with time; `Z` or offset; naive means UTC)."""
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    dt = datetime.fromisoformat(value)
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)
