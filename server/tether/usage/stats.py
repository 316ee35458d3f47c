"""`tether stats`: what the store holds, what gets used, what it saves, which memories earn their keep.

Quadrants of the live memories, by two questions. Surfaced: recalled (served in a recall, stale
ones too), pushed or credited at least once on this machine. Said: the anchored code already says
it (restates.py). working = surfaced and adds something; redundant = surfaced but said; dormant =
never surfaced and adds something (kept: it may be needed one day); prunable = never surfaced and
said, the only set safe to prune.
"""

from __future__ import annotations

import time
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from tether.lifecycle.status import LIVE, Status
from tether.recall import restates
from tether.recall.receipts import Pricer
from tether.store.memory import KINDS
from tether.usage import ledger

if TYPE_CHECKING:
    from pathlib import Path

    from tether.index.code_index import CodeIndex
    from tether.lifecycle.resolve import Resolver
    from tether.lifecycle.verdicts import Verdict
    from tether.store.files import Quarantined
    from tether.store.model import Memory


class Repository(Protocol):
    """What the report reads (a `tether.service.Tether` is one)."""

    root: Path

    @property
    def index(self) -> CodeIndex: ...

    def memories(self, include_closed: bool = False) -> tuple[list[Memory], list[Quarantined]]: ...

    def resolver(self, with_diff: bool = True, deadline: float | None = None) -> Resolver: ...


QUADRANTS = ("working", "redundant", "dormant", "prunable")
TOP = 10
DAYS = 30


def report(t: Repository, days: int = DAYS, top: int = TOP, now: float | None = None) -> dict[str, Any]:
    mems, bad = t.memories()
    r = t.resolver(with_diff=False)
    verdicts = r.memories(mems)
    r.flush()
    summary = ledger.load(t.root)
    pricer = Pricer(t.index)
    rows = [_row(v, summary["memories"].get(v.memory.id, {}), pricer) for v in verdicts]
    quadrants: dict[str, list] = {q: [] for q in QUADRANTS}
    for row in sorted(rows, key=lambda x: (-x["uses"], -x["said"], x["id"])):
        quadrants[row.pop("quadrant")].append(row)
    events, tokens = summary["events"], summary["tokens"]
    used = sorted((x for x in rows if x["uses"]), key=lambda x: (-x["uses"], -x["recalls"], x["id"]))
    stale = [v for v in verdicts if v.status != Status.ACTIVE]
    return {
        "memories": {
            "total": len(verdicts),
            "by_kind": {k: sum(1 for v in verdicts if v.memory.kind == k) for k in KINDS},
            "by_status": {s: sum(1 for v in verdicts if v.status == s) for s in LIVE},
            "quarantined": len(bad),
        },
        "stale": {
            "reasons": _count(v.reason or "unknown" for v in stale),
            "memories": [_stale_view(v) for v in sorted(stale, key=lambda v: (v.status, v.reason or "", v.memory.id))],
        },
        "usage": {
            "recalls": events.get("recall", 0),
            "pushes": events.get("push", 0),
            "credits": events.get("credit", 0),
            "tokens": {
                "served": tokens["served"],
                "replaced": tokens["replaced"],
                "files": tokens["files"],
                "ratio": round(tokens["replaced"] / tokens["served"], 2) if tokens["served"] else None,
                "pushed": tokens["pushed"],
            },
        },
        "top": [
            {k: x[k] for k in ("id", "kind", "summary", "pushes", "recalls", "credits", "uses")} for x in used[:top]
        ],
        "quadrants": quadrants,
        "restates": {
            "measure": "share of the memory's significant terms found in the terms of its anchored code",
            "threshold": restates.THRESHOLD,
        },
        "daily": _daily(summary["days"], days, time.time() if now is None else now),
    }


def _row(v: Verdict, use: dict, pricer: Pricer) -> dict[str, Any]:
    m = v.memory
    sources = pricer.sources(v)
    code = restates.code_terms((text for _, text in sources), {p for p, _ in sources})
    text = restates.memory_text(m.body, m.summary)
    share = restates.said(text, code)
    counts = {"pushes": use.get("push", 0), "recalls": use.get("recall", 0), "credits": use.get("credit", 0)}
    uses = sum(counts.values())
    said = restates.redundant(share)
    quadrant = ("redundant" if said else "working") if uses else ("prunable" if said else "dormant")
    return {
        "id": m.id,
        "kind": m.kind,
        "summary": m.summary,
        "status": v.status,
        **counts,
        "uses": uses,
        "said": share,
        "adds": restates.missing(text, code),
        "quadrant": quadrant,
    }


def _stale_view(v: Verdict) -> dict[str, Any]:
    m = v.memory
    anchors = [
        {
            "type": a.type,
            "path": r.path or a.path,
            "symbol": (r.symbol or a.symbol) if a.type != "file" else None,
            "status": r.status,
            "reason": r.reason,
        }
        for a, r in v.anchors
    ]
    return {
        "id": m.id,
        "kind": m.kind,
        "summary": m.summary,
        "status": v.status,
        "reason": v.reason,
        "anchors": anchors,
    }


def _count(values) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def _daily(days_seen: dict[str, dict], days: int, now: float) -> dict[str, Any]:
    """Events per local day for the last `days` days, oldest first (today last)."""
    today = date.fromtimestamp(now)  # local, as ledger.day
    labels = [(today - timedelta(days=days - 1 - i)).isoformat() for i in range(days)]
    per = {e: [days_seen.get(d, {}).get(e, 0) for d in labels] for e in ("recall", "push", "credit")}
    return {
        "from": labels[0],
        "to": labels[-1],
        "recalls": per["recall"],
        "pushes": per["push"],
        "credits": per["credit"],
        "total": [sum(x) for x in zip(*per.values())],
    }
