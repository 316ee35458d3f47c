"""The per-machine usage log: recalls, push-recall injections and citation credits, append-only JSONL.

One line per event in `state_dir(root)/usage.jsonl`, never committed. Lines are small and written
with a single O_APPEND write, so concurrent hooks and the MCP server never interleave them. The
reader skips lines it cannot parse: a torn or hand-edited line loses one event, not the log.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from .paths import state_dir

EVENTS = ("credit", "push", "recall")
FILENAME = "usage.jsonl"


@dataclass(frozen=True, slots=True)
class UsageEvent:
    ts: float
    event: str
    ids: tuple[str, ...]
    session: str | None = None
    tokens: int | None = None
    prompt_id: str | None = None


def log_path(root: Path) -> Path:
    return state_dir(root) / FILENAME


def record(
    root: Path,
    event: str,
    ids: Iterable[str],
    session: str | None = None,
    tokens: int | None = None,
    prompt_id: str | None = None,
) -> UsageEvent:
    """Append one event; raises OSError if the state dir cannot be written (callers decide)."""
    if event not in EVENTS:
        raise ValueError(f"unknown usage event {event!r}")
    e = UsageEvent(round(time.time(), 3), event, tuple(dict.fromkeys(ids)), session, tokens, prompt_id)
    line = {"ts": e.ts, "event": e.event, "ids": list(e.ids), "session": e.session}
    if tokens is not None:
        line["tokens"] = tokens
    if prompt_id is not None:
        line["prompt_id"] = prompt_id
    append_jsonl(log_path(root), line)
    return e


def read(root: Path) -> list[UsageEvent]:
    return list(iter_events(log_path(root)))


def iter_events(path: Path) -> Iterator[UsageEvent]:
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return
    with f:
        for line in f:
            e = _parse(line)
            if e is not None:
                yield e


def _parse(line: str) -> UsageEvent | None:
    try:
        d = json.loads(line)
    except ValueError:
        return None
    if not isinstance(d, dict) or d.get("event") not in EVENTS or not isinstance(d.get("ids"), list):
        return None
    ts, tokens = d.get("ts"), d.get("tokens")
    return UsageEvent(
        float(ts) if isinstance(ts, (int, float)) else 0.0,
        d["event"],
        tuple(i for i in d["ids"] if isinstance(i, str)),
        d.get("session") if isinstance(d.get("session"), str) else None,
        tokens if isinstance(tokens, int) and not isinstance(tokens, bool) else None,
        d.get("prompt_id") if isinstance(d.get("prompt_id"), str) else None,
    )


def append_jsonl(path: Path, obj: dict) -> None:
    """One line, one write(2) with O_APPEND: safe against concurrent appenders on one machine."""
    data = (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
