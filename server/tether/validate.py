"""What a memory's own fields must be before anything is written: one-line errors, nothing stored."""

from __future__ import annotations

from collections.abc import Iterable

from .errors import InvalidInput
from .memory import KINDS, summarize

MAX_BODY_CHARS = 16_000
MAX_SUMMARY_CHARS = 300
MAX_TAGS = 20


def encodable(value: str, what: str) -> str:
    """Text that cannot be written as UTF-8 (lone surrogates) is refused before anything is stored."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidInput(f"{what} contains text that is not valid Unicode at character {e.start}") from None
    return value


def check_body(body: str) -> str:
    if not isinstance(body, str) or not body.strip():
        raise InvalidInput("memory text is empty")
    if len(body) > MAX_BODY_CHARS:
        raise InvalidInput(f"memory text is {len(body)} characters; the limit is {MAX_BODY_CHARS}: keep one memory to one point",
                           field="body", limit=MAX_BODY_CHARS, size=len(body))
    return encodable(body.replace("\r\n", "\n").strip(), "memory text")


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise InvalidInput(f"unknown kind {kind!r}; one of: {', '.join(KINDS)}")
    return kind


def check_summary(summary: str | None, body: str) -> str:
    summary = encodable(" ".join((summary or "").split()), "summary") or summarize(body)
    if len(summary) > MAX_SUMMARY_CHARS:
        raise InvalidInput(f"summary is longer than {MAX_SUMMARY_CHARS} characters")
    return summary


def check_tags(tags: Iterable[str]) -> tuple[str, ...]:
    out = tuple(dict.fromkeys(encodable(t.strip(), "tag") for t in tags if isinstance(t, str) and t.strip()))
    if len(out) > MAX_TAGS or any(len(t) > 64 for t in out):
        raise InvalidInput(f"at most {MAX_TAGS} tags of at most 64 characters")
    return out
