"""What a memory or an anchor is now, and why: the lifecycle's whole vocabulary.

Both are str enums, so JSON, SQLite and comparisons with the stored words see plain strings;
`str()` and f-strings print the value, never `Status.STALE`. Adding a reason: ARCHITECTURE.md,
"The lifecycle", lists every place it must reach.
"""

from __future__ import annotations

from enum import Enum


class _Word(str, Enum):
    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class Status(_Word):
    """Derived on every read, never stored."""

    ACTIVE = "active"  # the anchored code is as it was (or followed to where it went)
    STALE = "stale"  # the code changed, or where it went is not certain: never served as current
    INVALIDATED = "invalidated"  # every anchor is gone; kept as history, heals if the code returns


class Reason(_Word):
    """Why an anchor or a memory is not active."""

    BODY_EDITED = "body_edited"  # the symbol's normalized hash differs
    FILE_EDITED = "file_edited"  # a file anchor's content hash differs
    FILE_UNPARSABLE = "file_unparsable"  # the anchored file cannot be read now: mid-edit, or past the parse cap
    ANCHOR_DELETED = "anchor_deleted"  # the symbol or file is nowhere in the repository
    ANCHOR_LOST = "anchor_lost"  # some anchors of a multi-anchor memory are gone, not all
    AMBIGUOUS_ANCHOR = "ambiguous_anchor"  # the body moved and several places hold it
    LOW_ENTROPY = "low_entropy"  # the body moved but is too trivial to follow safely
    SEARCH_INCOMPLETE = "search_incomplete"  # a sweep ran out of time before finding it


LIVE = (Status.ACTIVE, Status.STALE, Status.INVALIDATED)
NOT_CURRENT = (Status.STALE, Status.INVALIDATED)
