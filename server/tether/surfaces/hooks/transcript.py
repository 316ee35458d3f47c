"""The current turn from a Claude Code transcript (JSONL), read backwards to the last user prompt.

Stop carries no list of tools used or files edited (ARCHITECTURE.md, "The hooks"), so this is the fallback
source: every `tool_use` of the turn (deduplicated by id: one assistant message can be spread
over several lines) with the text of its result, and the assistant's text. Line types tether does not know are ignored; a
transcript that is missing or unreadable is an empty turn.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from tether.files.read import Unreadable, open_regular

BLOCK = 64 * 1024
MAX_BYTES = 16 * 1024 * 1024  # a turn longer than this is scanned only this far back


@dataclass(frozen=True, slots=True)
class ToolUse:
    """One tool call of the turn, as the transcript records it."""

    id: str
    name: str
    input: dict
    result: str | None = None  # the tool_result's text, when the transcript holds it


@dataclass(frozen=True, slots=True)
class Turn:
    """The last turn of a transcript: its tool calls and the assistant's texts."""

    tool_uses: tuple[ToolUse, ...] = ()  # oldest first
    texts: tuple[str, ...] = ()  # the assistant's text blocks, oldest first


def last_turn(path: str | None) -> Turn:
    if not path:
        return Turn()
    uses: dict[str, ToolUse] = {}
    results: dict[str, str] = {}
    texts: list[str] = []
    try:
        for line in _lines_backwards(path):
            try:
                d = json.loads(line)
            except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
                continue
            if not isinstance(d, dict):
                continue
            if _is_user_prompt(d):
                break
            if d.get("type") == "user":
                results.update(_tool_results(d))
                continue
            if d.get("type") != "assistant":
                continue
            content = (d.get("message") or {}).get("content") if isinstance(d.get("message"), dict) else None
            for block in reversed(content if isinstance(content, list) else []):
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                    if block["id"] not in uses:
                        inp = block.get("input")
                        uses[block["id"]] = ToolUse(
                            block["id"], str(block.get("name", "")), inp if isinstance(inp, dict) else {}
                        )
                elif block.get("type") == "text" and isinstance(block.get("text"), str):
                    texts.append(block["text"])
    except OSError:
        return Turn()
    done = [u if u.id not in results else ToolUse(u.id, u.name, u.input, results[u.id]) for u in uses.values()]
    return Turn(tuple(reversed(done)), tuple(reversed(texts)))


def _tool_results(d: dict) -> dict[str, str]:
    """tool_use id -> the text of its result, from a user line carrying results back to the model."""
    msg = d.get("message")
    content = msg.get("content") if isinstance(msg, dict) else None
    out = {}
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict) or block.get("type") != "tool_result":
            continue
        body = block.get("content")
        if isinstance(body, list):
            body = "".join(b["text"] for b in body if isinstance(b, dict) and isinstance(b.get("text"), str))
        if isinstance(block.get("tool_use_id"), str) and isinstance(body, str):
            out[block["tool_use_id"]] = body
    return out


def _is_user_prompt(d: dict) -> bool:
    """A user line that a person typed, not one carrying tool results back to the model."""
    if d.get("type") != "user" or d.get("isMeta") or d.get("isSidechain"):
        return False
    msg = d.get("message")
    content = msg.get("content") if isinstance(msg, dict) else None
    if isinstance(content, str):
        return True
    if isinstance(content, list):
        kinds = {b.get("type") for b in content if isinstance(b, dict)}
        return "tool_result" not in kinds and bool(kinds & {"text", "image"})
    return False


def _lines_backwards(path: str):
    """Complete lines from the end of the file, last first, reading at most MAX_BYTES."""
    try:  # the path comes from the payload: a FIFO or a device there must not hang or flood the hook
        fd = open_regular(path)[0]
    except Unreadable as e:
        raise OSError(e.message) from None
    with os.fdopen(fd, "rb") as f:
        f.seek(0, os.SEEK_END)
        pos = f.tell()
        read = 0
        tail = b""
        while pos > 0 and read < MAX_BYTES:
            step = min(BLOCK, pos)
            pos -= step
            read += step
            f.seek(pos)
            chunk = f.read(step) + tail
            lines = chunk.split(b"\n")
            tail = lines.pop(0)  # may be partial: finished by the next (earlier) block
            for line in reversed(lines):
                if line.strip():
                    yield line
        if pos == 0 and tail.strip():
            yield tail
