"""A hook's stdin, normalized: tolerant of missing and extra fields, garbage is a typed error.

Claude Code's payload shapes change between versions (ARCHITECTURE.md, "The hooks"); only the fields tether
reads are kept, each checked for type, so a handler never meets a surprise.
"""

from __future__ import annotations

import json  # not orjson: importing orjson loads dataclasses, uuid and datetime, ~20 ms per prompt
import os
import re
from collections import namedtuple

from tether.errors import InvalidInput

EVENTS = ("SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "PreCompact")
EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")
MAX_STDIN = 8 * 1024 * 1024  # a prompt can be long; a payload bigger than this is not one we act on
_SAFE_SESSION = re.compile(r"[A-Za-z0-9_-]{1,128}")


_FIELDS = (
    "event",  # str: the script's own event
    "session_id",  # str: safe as a file name (session_key)
    "cwd",
    "transcript_path",
    "prompt",
    "prompt_id",
    "source",  # SessionStart: startup | resume | clear | compact
    "trigger",  # PreCompact: manual | auto
    "tool_name",
    "tool_use_id",
    "file_paths",  # tuple[str, ...]: PostToolUse on an edit tool, the files it wrote
    "last_assistant_message",
    "stop_hook_active",  # bool
    "edit_strings",  # tuple[(new_string, replace_all), ...] | None: an Edit's or MultiEdit's text, else None
)


TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing on every prompt
if TYPE_CHECKING:
    from typing import NamedTuple

    class _HookInputBase(NamedTuple):  # the fields of _FIELDS, typed: mypy cannot read a computed namedtuple
        event: str
        session_id: str
        cwd: str | None = None
        transcript_path: str | None = None
        prompt: str | None = None
        prompt_id: str | None = None
        source: str | None = None
        trigger: str | None = None
        tool_name: str | None = None
        tool_use_id: str | None = None
        file_paths: tuple[str, ...] = ()
        last_assistant_message: str | None = None
        stop_hook_active: bool = False
        edit_strings: tuple[tuple[str, bool], ...] | None = None

else:
    _HookInputBase = namedtuple("HookInput", _FIELDS, defaults=(None,) * 8 + ((), None, False, None))


class HookInput(_HookInputBase):
    """The payload as a frozen record; every field but the first two is a `str | None` unless noted.

    A named tuple rather than a frozen dataclass: `dataclasses` imports `inspect` and compiles each
    class's methods at import, ~20 ms on every prompt for a record this hook builds once.
    """

    __slots__ = ()


def parse(raw: bytes | str, event: str) -> HookInput:
    """The payload for `event` (the script's own event wins over `hook_event_name`)."""
    if event not in EVENTS:
        raise InvalidInput(f"unknown hook event {event!r}; one of: {', '.join(EVENTS)}")
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "replace")
    if len(raw) > MAX_STDIN:
        raise InvalidInput(f"hook payload is {len(raw)} bytes; the limit is {MAX_STDIN}")
    try:
        d = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError) as e:  # JSONDecodeError, bad UTF-8, absurd nesting
        raise InvalidInput(f"hook payload is not JSON: {e}") from None
    if not isinstance(d, dict):
        raise InvalidInput("hook payload must be a JSON object")
    tool = _str(d, "tool_name")
    return HookInput(
        event=event,
        session_id=session_key(_str(d, "session_id") or os.environ.get("CLAUDE_CODE_SESSION_ID")),
        cwd=_str(d, "cwd"),
        transcript_path=_str(d, "transcript_path"),
        prompt=_str(d, "prompt"),
        prompt_id=_str(d, "prompt_id"),
        source=_str(d, "source"),
        trigger=_str(d, "trigger"),
        tool_name=tool,
        tool_use_id=_str(d, "tool_use_id"),
        file_paths=_edited_paths(d) if tool in EDIT_TOOLS else (),
        last_assistant_message=_str(d, "last_assistant_message"),
        stop_hook_active=d.get("stop_hook_active") is True,
        edit_strings=_edit_strings(d, tool),
    )


def session_key(session_id: str | None) -> str:
    """A session id safe to use as a file name; anything odd is hashed rather than trusted."""
    if not session_id:
        return "default"
    if _SAFE_SESSION.fullmatch(session_id):
        return session_id
    import hashlib

    return "h-" + hashlib.blake2b(session_id.encode("utf-8", "replace"), digest_size=12).hexdigest()


def _str(d: dict, key: str) -> str | None:
    v = d.get(key)
    return v if isinstance(v, str) and v else None


MAX_EDIT_STRINGS = 64  # an edit's strings kept for Stop to place; past that, the whole file counts
MAX_EDIT_STRING_CHARS = 16_000


def _edit_strings(d: dict, tool: str | None) -> tuple[tuple[str, bool], ...] | None:
    """What an Edit or MultiEdit left in the file (`new_string`, `replace_all`), for Stop to find
    the lines it touched; None for a Write, a deletion, anything odd or too large: the whole file."""
    tin = d.get("tool_input")
    if tool not in ("Edit", "MultiEdit") or not isinstance(tin, dict):
        return None
    edits = [tin] if tool == "Edit" else tin.get("edits")
    if not isinstance(edits, list) or not edits or len(edits) > MAX_EDIT_STRINGS:
        return None
    out = []
    for e in edits:
        new = e.get("new_string") if isinstance(e, dict) else None
        if not isinstance(new, str) or not new.strip() or len(new) > MAX_EDIT_STRING_CHARS:
            return None
        out.append((new, e.get("replace_all") is True))
    return tuple(out)


def _edited_paths(d: dict) -> tuple[str, ...]:
    """`tool_input.file_path` (absolute, as Claude Code sends it), `notebook_path`, else `tool_response.filePath`."""
    out: list[str] = []
    tin = d.get("tool_input")
    if isinstance(tin, dict):
        for key in ("file_path", "notebook_path"):
            if isinstance(tin.get(key), str) and tin[key]:
                out.append(tin[key])
        edits = tin.get("edits")
        for edit in edits if isinstance(edits, list) else ():
            if isinstance(edit, dict) and isinstance(edit.get("file_path"), str):
                out.append(edit["file_path"])
    resp = d.get("tool_response")
    if not out and isinstance(resp, dict) and isinstance(resp.get("filePath"), str) and resp["filePath"]:
        out.append(resp["filePath"])
    return tuple(dict.fromkeys(out))
