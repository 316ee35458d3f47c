"""`tether report`: one self-contained HTML page of what the repository remembers and how healthy it is.

The page is a per-machine artifact (it carries this machine's usage counts), so by default it is
written to the state dir, outside the repository, where it can never be committed by accident.
The data is embedded as JSON and rendered by the template's own small script; every string from a
memory reaches the page through `textContent`, never as markup.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from collections import Counter
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Any

from tether import __version__
from tether.files.output import write_output
from tether.files.paths import state_dir
from tether.lifecycle.status import LIVE, Status
from tether.lifecycle.verdicts import Verdict
from tether.lifecycle.views import anchor_view, quarantine_view
from tether.store.links import superseded as superseded_ids
from tether.store.memory import KINDS
from tether.store.model import Memory
from tether.usage import events as usage, ledger

FILENAME = "report.html"
# worst first: the order of the list and of the colour a map node takes
SEVERITY = (Status.INVALIDATED, Status.STALE, Status.ACTIVE)
ORDER = {
    s: i
    for i, s in enumerate((Status.STALE, Status.INVALIDATED, "quarantined", Status.ACTIVE, "superseded", "retired"))
}
DATA_MARK = "/*TETHER-REPORT-DATA*/"
CSP_MARK = "'tether-script-hash'"
GENERATOR = '<meta name="generator" content="tether report">'


def default_path(root: Path) -> Path:
    return state_dir(root) / FILENAME


def write(t, out: str | Path | None = None) -> tuple[Path, dict]:
    """Gather, render and write the report atomically; returns where it went and the data."""
    data = gather(t)
    path = write_output(out or default_path(t.root), render(data).encode("utf-8"), is_report, "tether report", FILENAME)
    return path, data


def is_report(head: bytes) -> bool:
    """An earlier report, by its first bytes: the generator tag (older reports: their title)."""
    return GENERATOR.encode() in head or (
        head.startswith(b"<!doctype html>") and b"<title>tether report</title>" in head
    )


def gather(t) -> dict[str, Any]:
    """Everything the page shows, as plain JSON-able data."""
    mems, bad = t.memories(include_closed=True)
    superseded = superseded_ids(mems)
    live = [m for m in mems if m.live and m.id not in superseded]
    closed = [m for m in mems if not (m.live and m.id not in superseded)]
    verdicts: list[Verdict] = []
    r = t.resolver(with_diff=True)
    verdicts += r.memories(live)
    r.flush()
    if closed:  # history: where its anchors are now, without diffs nobody acts on
        r = t.resolver(with_diff=False)
        verdicts += r.memories(closed)
        r.flush()
    usage, usage_note = usage_counts(t.root, [m.id for m in mems])
    chains = supersession_chains(mems)
    items = []
    for v in verdicts:
        m = v.memory
        status: str = v.status  # a Status, or the word for a closed memory
        if not (m.live and m.id not in superseded):
            status = "superseded" if m.id in superseded or m.links.get("superseded_by") else "retired"
        items.append(memory_item(v, status, chains.get(m.id, []), usage.get(m.id, {})))
    items += [dict(quarantine_view(q), status="quarantined") for q in bad]
    items.sort(key=lambda i: (ORDER.get(i["status"], 9), i.get("paths", [i.get("file", "")])[:1], i.get("id", "")))
    counts = Counter(i["status"] for i in items)
    return {
        "repo": t.root.name,
        "root": shown_root(t.root),
        "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "version": __version__,
        "counts": {s: counts.get(s, 0) for s in (*LIVE, "quarantined", "superseded", "retired")},
        "kinds": sorted(set(KINDS) | {i["kind"] for i in items if "kind" in i}, key=_kind_order),
        "items": items,
        "tree": tree([i for i in items if i["status"] in LIVE]),
        "usage_note": usage_note,
    }


def shown_root(root: Path) -> str:
    """The repository's path as the page shows it: `~/...` under the home directory, so a report
    passed around (attached to a review, pasted in a chat) does not carry the user's name."""
    path = str(root)
    for home in {os.path.expanduser("~"), os.path.realpath(os.path.expanduser("~"))}:
        home = home.rstrip(os.sep)
        if home and home != "~" and (path == home or path.startswith(home + os.sep)):
            return "~" + path[len(home) :]
    return path


def memory_item(v: Verdict, status: str, chain: list[dict], usage: dict[str, float]) -> dict[str, Any]:
    m = v.memory
    anchors = [anchor_view(a, r) for a, r in v.anchors]
    for view, (a, _) in zip(anchors, v.anchors):
        view["stored"] = a.spec()
    return {
        "id": m.id,
        "status": status,
        "reason": v.reason if status in LIVE else m.retired_reason,
        "kind": m.kind,
        "summary": m.summary,
        "body": m.body,
        "confidence": v.confidence,
        "source": m.source,
        "tags": list(m.tags),
        "recorded_at": m.recorded_at,
        "verified_at": m.verified_at,
        "valid_to": m.valid_to,
        "evidence": (m.evidence or {}).get("command"),
        "file": m.filename,
        "anchors": anchors,
        "paths": list(dict.fromkeys(x["path"] for x in anchors)),
        "chain": chain,
        "usage": usage,
    }


def usage_counts(root: Path, ids: list[str]) -> tuple[dict[str, dict[str, float]], str | None]:
    """Events per memory on this machine: the ledger's running totals (which include logs already
    folded away), else the raw usage log. Read defensively: both formats are growing, and a
    damaged or unfamiliar ledger costs the page its usage counts, never the page."""
    raw: dict | None = {}  # None: a ledger without memories, refused below
    try:
        raw = ledger.load(root).get("memories")
        if not isinstance(raw, dict):
            raise TypeError("ledger memories is not a mapping")
    except Exception:  # noqa: BLE001 - no ledger, or one this reader does not know
        try:
            raw = {}
            for e in usage.read(root):
                event, refs = getattr(e, "event", None), getattr(e, "ids", ())
                if isinstance(event, str) and isinstance(refs, (list, tuple)):
                    for ref in refs:
                        if isinstance(ref, str):
                            raw.setdefault(ref, {})[event] = raw.get(ref, {}).get(event, 0) + 1
        except Exception as e:  # noqa: BLE001
            return {}, f"usage log unreadable ({type(e).__name__})"
    full = set(ids)
    out: dict[str, dict[str, float]] = {}
    for ref, counts in raw.items():
        if not isinstance(ref, str) or not isinstance(counts, dict):
            continue
        if ref not in full and len(ref) >= 8:  # a short id, as an agent may cite one
            hits = [i for i in full if i.startswith(ref)]
            ref = hits[0] if len(hits) == 1 else ref
        if ref not in full:
            continue
        mine = out.setdefault(ref, {})
        for event, n in counts.items():
            if isinstance(event, str) and isinstance(n, (int, float)) and not isinstance(n, bool):
                mine[event] = max(mine[event], n) if event == "last" and event in mine else mine.get(event, 0) + n
    return out, None


def supersession_chains(mems: list[Memory]) -> dict[str, list[dict]]:
    """For every memory in a chain of more than one version: the chain, oldest first."""
    by_id = {m.id: m for m in mems}
    before: dict[str, str] = {}
    for m in mems:
        for old in m.links.get("supersedes", []):
            before.setdefault(m.id, old)
        for new in m.links.get("superseded_by", []):
            before.setdefault(new, m.id)
    after = {old: new for new, old in before.items()}
    out: dict[str, list[dict]] = {}
    for m in mems:
        if m.id in out or (m.id not in before and m.id not in after):
            continue
        first, seen = m.id, {m.id}
        while before.get(first) in by_id and before[first] not in seen:
            first = before[first]
            seen.add(first)
        chain, cur, seen = [first], first, {first}
        while after.get(cur) in by_id and after[cur] not in seen:
            cur = after[cur]
            chain.append(cur)
            seen.add(cur)
        view = [
            {
                "id": i,
                "summary": by_id[i].summary,
                "live": by_id[i].live,
                "valid_from": by_id[i].valid_from,
                "retired_reason": by_id[i].retired_reason,
            }
            for i in chain
        ]
        for i in chain:
            out.setdefault(i, view)
    return out


def tree(items: list[dict]) -> dict[str, Any]:
    """Directories and files holding live memories: distinct memories per node and per status.

    A directory with a single child directory and no files is folded into it (`src/app/core`),
    which keeps deep layouts to a few legible rows.
    """
    root: dict[str, Any] = {"name": "", "path": "", "dir": True, "ids": {}, "children": {}}
    for item in items:
        for path in item["paths"]:
            node = root
            node["ids"][item["id"]] = item["status"]
            parts = path.split("/")
            for depth, part in enumerate(parts):
                is_dir = depth < len(parts) - 1
                key = part + ("/" if is_dir else "")
                node = node["children"].setdefault(
                    key, {"name": part, "path": "/".join(parts[: depth + 1]), "dir": is_dir, "ids": {}, "children": {}}
                )
                node["ids"][item["id"]] = item["status"]
    return _finish(root)


def _finish(node: dict) -> dict[str, Any]:
    while node["dir"] and node["path"] and len(node["children"]) == 1:
        (child,) = node["children"].values()
        if not child["dir"]:
            break
        node = dict(child, name=f"{node['name']}/{child['name']}")
    statuses = Counter(node["ids"].values())
    children = sorted(node["children"].values(), key=lambda c: (not c["dir"], _natural(c["name"])))
    return {
        "name": node["name"],
        "path": node["path"],
        "dir": node["dir"],
        "total": len(node["ids"]),
        "counts": {s: statuses.get(s, 0) for s in LIVE},
        "worst": next((s for s in SEVERITY if statuses.get(s)), Status.ACTIVE),
        "children": [_finish(c) for c in children],
    }


def render(data: dict[str, Any]) -> str:
    """The template with the data embedded, and a CSP that lets only the template's own script run."""
    html = resources.files(__package__).joinpath("template.html").read_text("utf-8")
    script = re.search(r"<script>(.*?)</script>", html, re.DOTALL)
    assert script is not None, "the report template has no inline script"
    digest = base64.b64encode(hashlib.sha256(script.group(1).encode("utf-8")).digest()).decode()
    html = html.replace(CSP_MARK, f"'sha256-{digest}'", 1)
    return html.replace(DATA_MARK, embed(data), 1)


def embed(data: Any) -> str:
    """JSON that cannot close its <script> element or open a comment: <, > and & as escapes.
    ASCII only, so even a lone surrogate in a quarantined file's name survives the trip."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _natural(name: str) -> list:
    """mod2 before mod10."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", name.lower()) if p]


def _kind_order(kind: str) -> tuple[int, str]:
    return (KINDS.index(kind) if kind in KINDS else len(KINDS), kind)
