"""Plain-data views of core objects, shared by the CLI's --json and the MCP tools."""

from __future__ import annotations

from tether.lifecycle.status import Status
from tether.lifecycle.verdicts import Resolution, Verdict
from tether.store.files import Quarantined
from tether.store.model import Anchor, Memory

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the CLI's start-up
if TYPE_CHECKING:
    from typing import Any, TypedDict

    class Staleness(TypedDict):  # staleness(): `**` into envelope's keywords of the same names
        stale: int
        invalidated: int


def envelope(
    data: Any,
    freshness: dict,
    *,
    matched: int | None = None,
    returned: int | None = None,
    omitted_reason: str | None = None,
    stale: int = 0,
    invalidated: int = 0,
    **extra: Any,
) -> dict:
    """Every response's shape: the data plus how fresh, how complete and how stale it is."""
    if returned is None:
        returned = len(data) if isinstance(data, list) else 1
    if matched is None:
        matched = returned
    meta = {
        "freshness": freshness,
        "completeness": {"matched": matched, "returned": returned, "omitted_reason": omitted_reason},
        "staleness": {"stale": stale, "invalidated": invalidated},
    }
    meta.update(extra)
    return {"data": data, "meta": meta}


def staleness(verdicts) -> Staleness:
    return {
        "stale": sum(1 for v in verdicts if v.status == Status.STALE),
        "invalidated": sum(1 for v in verdicts if v.status == Status.INVALIDATED),
    }


def anchor_view(a: Anchor, r: Resolution) -> dict[str, Any]:
    """An anchor as it resolves now; `was` names the stored locator when it has been followed."""
    out: dict[str, Any] = {
        "type": a.type,
        "path": r.path or a.path,
        "symbol": r.symbol if a.type != "file" else None,
        "status": r.status,
        "reason": r.reason,
    }
    if r.discriminator and a.discriminator and a.type != "file":
        out["discriminator"] = r.discriminator
    if r.start_line is not None:
        out["lines"] = [r.start_line, r.end_line]
    if r.followed:
        out["was"] = a.spec()
    if r.candidates:
        out["candidates"] = list(r.candidates)
    if r.diff:
        out["diff"] = r.diff
    return out


def memory_view(m: Memory, body: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": m.id,
        "kind": m.kind,
        "summary": m.summary,
        "anchors": [dict(a.to_dict(), spec=a.spec()) for a in m.anchors],
        "source": m.source,
        "recorded_at": m.recorded_at,
        "valid_from": m.valid_from,
        "valid_to": m.valid_to,
        "tags": list(m.tags),
        "file": m.filename,
    }
    if body:
        out["body"] = m.body
    if m.evidence:
        out["evidence"] = m.evidence
    if m.links:
        out["links"] = m.links
    if m.retired_reason:
        out["retired_reason"] = m.retired_reason
    return out


def verdict_view(v: Verdict, body: bool = False, closed: tuple[str, list[str]] | None = None) -> dict[str, Any]:
    """A memory as it resolves now; `closed` (`links.closed_as`): its status is what closed it, and
    its anchors still say how its code stands."""
    m = v.memory
    out: dict[str, Any] = {
        "id": m.id,
        "status": v.status,
        "reason": v.reason,
        "kind": m.kind,
        "summary": m.summary,
        "confidence": v.confidence,
        "anchors": [anchor_view(a, r) for a, r in v.anchors],
    }
    if body:
        out["body"] = m.body
    if m.evidence and v.status != Status.ACTIVE:
        out["evidence"] = m.evidence
    if not m.live:
        out["valid_to"] = m.valid_to
    if closed:
        out["status"], out["reason"] = closed[0], None
        if closed[0] == "superseded":
            out["superseded_by"] = closed[1]
        out["retired_reason"] = m.retired_reason
    return out


def quarantine_view(q: Quarantined) -> dict[str, str]:
    return {"file": q.filename, "error": q.error, "reason": q.reason, "fix": q.fix}


def affected_view(found) -> list[dict[str, Any]]:
    """`affected`'s data: each touched memory as `check` shows it, with what the change did to it
    (`effect`) and the stored specs of the anchors it touched."""
    return [
        dict(
            verdict_view(t.verdict),
            effect=t.effect,
            touched=[t.verdict.anchors[i][0].spec() for i in t.anchors],
            before=t.before,
            at_base=list(t.at_base),
            **({"was": verdict_view(t.was)["anchors"]} if t.was is not None else {}),
        )
        for t in found.touched
    ]


def affected_meta(found) -> dict[str, Any]:
    """What `affected` compared: the base commit, the ref named (if any), how many files changed,
    and the count of each effect."""
    c = found.changes
    return {
        "base": None if c.unborn else c.base,
        "ref": c.ref,
        "staged": c.staged,
        "prefix": c.prefix,
        "changed_files": len(c.files),
        "effects": found.counts(),
    }
