"""What a memory's own fields must be before anything is written: one-line errors, nothing stored."""

from __future__ import annotations

from collections.abc import Iterable

from tether.errors import InvalidInput
from tether.store.memory import KINDS, summarize

MAX_BODY_CHARS = 16_000
MAX_SUMMARY_CHARS = 300
MAX_TAGS = 20
MAX_ANCHORS = 20
MAX_SPEC_CHARS = 1000
MAX_EVIDENCE_CHARS = 1000


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
        raise InvalidInput(
            f"memory text is {len(body)} characters; the limit is {MAX_BODY_CHARS}: keep one memory to one point",
            field="body",
            limit=MAX_BODY_CHARS,
            size=len(body),
        )
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


def check_evidence(command: str | None) -> str | None:
    """The command that re-verifies a memory, stripped; None if blank, as a shell would read it
    (`""` or `' '` runs nothing: no evidence)."""
    if command is None or not command.strip():
        return None
    try:
        import shlex  # only a write with evidence splits a command line

        words = shlex.split(command)
    except ValueError:
        words = [command]  # unbalanced quotes: the shell's error is the user's to see when it runs
    if not any(w.strip() for w in words):
        return None
    if len(command) > MAX_EVIDENCE_CHARS:
        raise InvalidInput(f"the evidence command is longer than {MAX_EVIDENCE_CHARS} characters")
    return encodable(command.strip(), "evidence")


def check_reason(reason: str | None) -> str | None:
    """Why a memory was superseded or retired: one line's worth, checked before the secret gate
    reads it (the gate's cost grows with the text)."""
    if reason is None:
        return None
    if not reason.strip():
        raise InvalidInput("the reason is blank: say why in one line, or give no reason")
    reason = reason.strip()
    if len(reason) > MAX_SUMMARY_CHARS:
        raise InvalidInput(f"the reason is longer than {MAX_SUMMARY_CHARS} characters: say why in one line")
    return encodable(reason, "reason")
