"""What the MCP tools share for the server's lifetime (the lifespan context): one Tether, calls
serialized over its one SQLite connection, the usage log's session, and the per-call sweep budget.
Every tool call goes through `run`, which translates errors once."""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson
from mcp.types import CallToolResult, TextContent

from tether.errors import InternalError, TetherError, from_os_error, from_sqlite_error
from tether.files.paths import find_root
from tether.index import db
from tether.index.background import finish
from tether.service import Tether
from tether.settings import env_float

if TYPE_CHECKING:
    from mcp.types import ContentBlock

log = logging.getLogger("tether.mcp")
DEFAULT_SWEEP_S = 30.0  # per read tool call (recall, check): see Session.deadline


class Session:
    def __init__(self, root: str | None = None) -> None:
        start = os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
        # paths in tool arguments are relative to the repository root, whatever the cwd
        self.t = Tether(find_root(root, start), cwd=None)
        self._lock = threading.Lock()
        # the usage log's session for recalls: Claude Code's own, so recalls join the hooks' push and
        # credit events of the same session; else one per server process
        self.id = os.environ.get("CLAUDE_CODE_SESSION_ID") or str(uuid.uuid4())
        self.sweep_s = env_float("TETHER_MCP_SWEEP_S", DEFAULT_SWEEP_S, minimum=0.0)

    def deadline(self) -> float:
        """When a read tool's repository sweep stops: clients give up on a call after about a
        minute, and a first index of a large repository takes longer. What was parsed is kept."""
        return time.monotonic() + self.sweep_s

    def run(self, fn: Callable[[Tether], dict]) -> CallToolResult:
        """`fn(tether)`'s envelope as the tool's result, or its error as an error result; the server
        keeps serving whatever happens. A damaged cache is rebuilt and the call made once more."""
        with self._lock:
            try:
                try:
                    result = ok(fn(self.t))
                except sqlite3.DatabaseError as e:  # pages overwritten with garbage: rebuild, once
                    if not db.is_corrupt(e):
                        raise
                    self.t.close()
                    db.discard_opened(str(e))
                    result = ok(fn(self.t))
                finish(self.t.root, self.t.index)  # the rest of the index is built while the agent works
                return result
            except TetherError as e:
                return error(e)
            except OSError as e:
                return error(from_os_error(e))
            except Exception as e:  # a bug, not bad input: the server keeps serving
                known = from_sqlite_error(e, db.opened()) if isinstance(e, sqlite3.Error) else None
                if known is not None:
                    return error(known)
                log.exception("tether tool failed")
                return error(InternalError(f"internal error {type(e).__name__}: {e}"))

    def close(self) -> None:
        self.t.close()


def _text(obj: Any) -> list[ContentBlock]:
    return [TextContent(type="text", text=orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode())]


def error(e: TetherError) -> CallToolResult:
    """Tether errors are tool errors (isError) whose text is `{"error": {"code", "message", ...}}`."""
    return CallToolResult(content=_text({"error": e.to_dict()}), is_error=True)


def ok(env: dict) -> CallToolResult:
    return CallToolResult(content=_text(env))
