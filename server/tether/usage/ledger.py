"""The ledger: the usage log folded into running totals, per-memory use and per-day activity.

Totals are the fold of every event ever logged on this machine: the folded summary
(`usage-summary.json`, written when the log is compacted) plus the live log. The summary is plain
JSON so a person can read it; a damaged one counts as empty (per-machine state, never the truth
about memories). Days are local calendar days, kept for KEEP_DAYS.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from pathlib import Path

from tether.files.paths import state_dir
from tether.files.read import Unreadable, read_regular_file
from tether.files.write import replace_json
from tether.usage import events as usage

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the CLI's start-up
if TYPE_CHECKING:
    from typing import Any

SUMMARY = "usage-summary.json"
FOLDING = ".folding"  # a log being folded; its name is recorded in the summary once it counts
KEEP_DAYS = 400
KEEP_FOLDED = 16


def empty() -> dict[str, Any]:
    return {
        "format": 1,
        "events": {e: 0 for e in usage.EVENTS},
        "tokens": {"served": 0, "replaced": 0, "files": 0, "pushed": 0},
        "memories": {},  # id -> {"recall", "push", "credit": counts, "last": ts}
        "days": {},  # "YYYY-MM-DD" -> {"recall", "push", "credit": counts}
        "folded": [],  # names of compacted logs already counted (a crash mid-fold never counts twice)
    }


def day(ts: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(ts))


def fold(summary: dict[str, Any], events: Iterable[usage.UsageEvent]) -> dict[str, Any]:
    """Add `events` to `summary` in place; returns it."""
    tokens, mems, days = summary["tokens"], summary["memories"], summary["days"]
    for e in events:
        summary["events"][e.event] = summary["events"].get(e.event, 0) + 1
        if e.event == "recall":
            tokens["served"] += e.tokens or 0
            tokens["replaced"] += e.replaced or 0
            tokens["files"] += e.files or 0
        elif e.event == "push":
            tokens["pushed"] += e.tokens or 0
        d = days.setdefault(day(e.ts), {})
        d[e.event] = d.get(e.event, 0) + 1
        for mid in e.ids:
            m = mems.setdefault(mid, {})
            m[e.event] = m.get(e.event, 0) + 1
            m["last"] = max(m.get("last", 0.0), e.ts)
    return summary


def load(root: Path) -> dict[str, Any]:
    """Every event ever logged on this machine, folded: the summary plus what is not in it yet."""
    base = state_dir(root)
    with usage.locked(root):  # a compaction never runs half under a reader
        summary = _read_summary(base)
        folded = set(summary["folded"])
        for leftover in sorted(base.glob(usage.FILENAME + ".*" + FOLDING)):
            if leftover.name not in folded:  # a fold that crashed before counting it
                fold(summary, usage.iter_events(leftover))
        fold(summary, usage.iter_events(usage.log_path(root)))
    return summary


def compact(root: Path) -> bool:
    """Fold the live log into the summary and start a fresh one; False if another process is at it.

    The exclusive lock waits out in-flight appends, so the renamed log is complete; appends that
    come after the rename create the new log. The summary names each folded file before the file
    is removed, so a crash at any point neither loses nor double-counts an event.
    """
    base = state_dir(root)
    with usage.locked(root, exclusive=True, wait=False) as got:
        if not got:
            return False
        log = usage.log_path(root)
        if not log.exists():
            return True
        folding = log.with_name(f"{usage.FILENAME}.{time.time_ns()}{FOLDING}")
        os.replace(log, folding)
        summary = _read_summary(base)
        counted = set(summary["folded"])
        for f in sorted(base.glob(usage.FILENAME + ".*" + FOLDING)):
            if f.name not in counted:
                fold(summary, usage.iter_events(f))
                summary["folded"].append(f.name)
        summary["folded"] = summary["folded"][-KEEP_FOLDED:]
        cutoff = day(time.time() - KEEP_DAYS * 86400)
        summary["days"] = {d: c for d, c in summary["days"].items() if d >= cutoff}
        _write_summary(base, summary)
        for f in base.glob(usage.FILENAME + ".*" + FOLDING):
            if f.name in summary["folded"]:
                f.unlink(missing_ok=True)
    return True


MAX_SUMMARY_BYTES = 64 << 20


def _read_summary(base: Path) -> dict[str, Any]:
    """The folded totals; any part of the wrong shape counts as empty (per-machine state: a
    damaged summary costs statistics, never a command)."""
    out = empty()
    try:
        d = json.loads(read_regular_file(base / SUMMARY, MAX_SUMMARY_BYTES)[1])
    except (OSError, Unreadable, ValueError, RecursionError):
        return out
    if not isinstance(d, dict) or d.get("format") != 1:
        return out
    for key in ("events", "tokens"):
        if isinstance(d.get(key), dict):
            out[key].update({k: v for k, v in d[key].items() if k in out[key] and _count(v)})
    for key in ("memories", "days"):
        if isinstance(d.get(key), dict):
            out[key] = {k: _counts(v) for k, v in d[key].items() if isinstance(k, str) and isinstance(v, dict)}
    if isinstance(d.get("folded"), list):
        out["folded"] = [f for f in d["folded"] if isinstance(f, str)]
    return out


def _count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 53


def _counts(d: dict) -> dict[str, Any]:
    """Per-memory or per-day counts, and `last` (a time): whatever is not one is dropped."""
    out: dict[str, Any] = {k: v for k, v in d.items() if k in usage.EVENTS and _count(v)}
    last = d.get("last")
    if isinstance(last, (int, float)) and not isinstance(last, bool) and 0 <= last <= usage.MAX_TS:
        out["last"] = float(last)
    return out


def _write_summary(base: Path, summary: dict[str, Any]) -> None:
    replace_json(base / SUMMARY, summary, sort_keys=True)


def record(
    root: Path,
    event: str,
    ids: Iterable[str],
    session: str | None = None,
    tokens: int | None = None,
    prompt_id: str | None = None,
    replaced: int | None = None,
    files: int | None = None,
) -> usage.UsageEvent:
    """Log one event (`events.append`); past MAX_BYTES, fold the log into the totals. Raises OSError
    if the state dir cannot be written (callers decide)."""
    e, size = usage.append(root, event, ids, session, tokens, prompt_id, replaced, files)
    if size > usage.MAX_BYTES:
        try:
            compact(root)
        except OSError:
            pass  # the event is written; folding is retried by the next writer
    return e


def record_recall(root: Path, env: dict, session: str | None) -> None:
    """Log one recall response (ids served, tokens served, its receipt); never fails the recall."""
    data, meta = env.get("data") or {}, env.get("meta") or {}
    ids = [i["id"] for key in ("items", "stale") for i in data.get(key, ())]
    receipt = meta.get("receipt") or {}
    try:
        record(
            root,
            "recall",
            ids,
            session,
            tokens=(meta.get("tokens") or {}).get("used"),
            replaced=receipt.get("replaced_tokens"),
            files=receipt.get("files"),
        )
    except OSError:
        pass  # an unwritable state dir costs the statistics, not the answer
