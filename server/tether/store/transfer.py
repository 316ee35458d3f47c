"""Moving memories between stores: an export of every memory, and an import that holds each record
to the gates `remember` holds a new memory to.

An export arrives from elsewhere (another clone, a teammate, a script), so every field is hostile
input: a bad record is refused on its own, named with its reason, and the clean ones land; the
counts returned are what was written.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

from tether.errors import InvalidInput, StoreCorrupt, TetherError
from tether.store.files import Store
from tether.store.links import CLOCK_SKEW_S
from tether.store.memory import from_front_matter
from tether.store.model import FORMAT, Memory, parse_time
from tether.store.validate import (
    MAX_ANCHORS,
    MAX_SPEC_CHARS,
    MAX_SUMMARY_CHARS,
    check_body,
    check_evidence,
    check_summary,
    check_tags,
)


def export(store: Store) -> dict:
    """Every memory (closed ones too) as one portable JSON document."""
    mems, _ = store.load()
    return {"format": FORMAT, "memories": [dict(m.front_matter(), body=m.body) for m in mems]}


def import_(store: Store, doc: object, replace: bool, refuse_secrets: Callable[..., None]) -> dict:
    """Write memories from an export: every record passes the gates a new memory passes, and a
    bad record is refused on its own (the clean ones land). Existing ids are kept unless
    `replace`. Returns the counts, which are what was written, and each refusal with its reason."""
    if not isinstance(doc, dict) or not isinstance(doc.get("memories"), list):
        raise InvalidInput('not a tether export: expected {"format": 1, "memories": [...]}')
    if doc.get("format", FORMAT) != FORMAT:
        raise InvalidInput(f"export format {doc.get('format')!r} is not one this tether reads ({FORMAT})")
    incoming: list[Memory] = []
    refused: list[dict] = []
    seen: set[str] = set()
    for n, raw in enumerate(doc["memories"], 1):
        mid = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
        try:
            if not isinstance(raw, dict) or not isinstance(raw.get("body"), str):
                raise InvalidInput("no body")
            try:
                m = from_front_matter({k: v for k, v in raw.items() if k != "body"}, raw["body"])
            except StoreCorrupt as e:
                raise InvalidInput(e.message) from None
            if m.id.lower() in seen:
                raise InvalidInput(f"id {m.id} appears twice in this import")
            seen.add(m.id.lower())
            incoming.append(_admit(m, refuse_secrets))
        except TetherError as e:
            refused.append({"index": n, "id": mid, **e.to_dict()})
    counts: dict = {"imported": 0, "replaced": 0, "skipped": 0, "refused": len(refused)}
    with store.locked():  # two imports of one export must not write each id twice
        existing = {m.id.lower(): m for m in store.load()[0]}
        for m in incoming:
            old = existing.get(m.id.lower())
            if old is not None and not replace:
                counts["skipped"] += 1
                continue
            counts["replaced" if old is not None else "imported"] += 1
            store.write(m.evolve(filename=old.filename if old is not None else None))
    counts["refusals"] = refused
    return counts


def _admit(m: Memory, refuse_secrets: Callable[..., None]) -> Memory:
    """An imported memory through remember's gates (its confidence is clamped and its anchor
    paths checked when it is read)."""
    body = check_body(m.body)
    summary = check_summary(m.summary, body)
    tags = check_tags(m.tags)
    if check_evidence((m.evidence or {}).get("command")) is None and m.source == "verified":
        raise InvalidInput("a verified memory needs the command that verified it (evidence.command)")
    if m.retired_reason is not None and len(m.retired_reason) > 2 * MAX_SUMMARY_CHARS:
        raise InvalidInput(f"retired_reason is longer than {2 * MAX_SUMMARY_CHARS} characters")
    if len(m.anchors) > MAX_ANCHORS:
        raise InvalidInput(f"{len(m.anchors)} anchors; the limit is {MAX_ANCHORS}")
    for a in m.anchors:  # credential files and .git/ are refused as the record is read
        if len(a.spec()) > MAX_SPEC_CHARS:
            raise InvalidInput(f"an anchor is over {MAX_SPEC_CHARS} characters")
    soon = datetime.now(timezone.utc).timestamp() + CLOCK_SKEW_S
    for name in ("recorded_at", "valid_from", "verified_at"):
        if parse_time(getattr(m, name)).timestamp() > soon:
            raise InvalidInput(f"{name} {getattr(m, name)} lies in the future")
    refuse_secrets(
        body=body,
        summary=summary,
        evidence=(m.evidence or {}).get("command"),
        reason=m.retired_reason,
        **{f"tag {i}": t for i, t in enumerate(tags, 1)},
    )
    return m.evolve(body=body, summary=summary, tags=tags)
