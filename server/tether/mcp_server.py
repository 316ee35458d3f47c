"""The MCP server: the six tools of DESIGN §6 over stdio, a thin adapter over the library.

Tether errors become tool errors (isError) whose text is `{"error": {"code", "message", ...}}`;
the server keeps serving. Nothing but the protocol is written to stdout; logs go to stderr.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import sys
import threading
import time
import uuid
from typing import Annotated, Any, Callable, Literal

import orjson
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BeforeValidator, Field, ValidationError

from . import __version__, db, mcp_models as M
from .background import finish
from .errors import InternalError, InvalidInput, TetherError, UnknownTool, from_os_error, from_sqlite_error
from .ledger import record_recall
from .memory import KINDS
from .paths import find_root
from .recall import DEFAULT_BUDGET, MAX_BUDGET, MAX_TASK_CHARS, MIN_BUDGET, recall as run_recall
from .service import Tether
from .settings import env_float
from .views import envelope, memory_view, quarantine_view, staleness, verdict_view

log = logging.getLogger("tether.mcp")


def _one_as_list(value: Any) -> Any:
    """A lone string where a list is asked for is a list of one: clients and models often send
    `"anchors": "src/a.py::f"`, and refusing it costs the agent a turn for nothing."""
    return [value] if isinstance(value, str) else value


OneOrMany = BeforeValidator(_one_as_list)
Kind = Literal[KINDS]  # type: ignore[valid-type]  # the schema's enum comes from the one list of kinds
Id = Annotated[str, Field(description="memory id (a unique prefix of 8+ characters works)", min_length=1, max_length=64)]
Specs = Annotated[list[Annotated[str, Field(max_length=1000)]], Field(
    description="anchors, repo-relative: `path/file.py::Class.method` (symbol; add `@(params)` to pick one of "
                "several overloads), `path/file.py` (whole file), `docs/x.md#Heading`, `conf.yaml#db.pool_size`",
    max_length=20), OneOrMany]

DEFAULT_SWEEP_S = 30.0  # per read tool call (recall, check): see Tools.deadline
INSTRUCTIONS = """\
tether is this repository's memory: what earlier sessions learned, each memory anchored to the code \
it is about and re-verified against the working tree on every read.

1. Before you read or change code for a task, call `recall` with the task in your own words and the \
files you expect to touch. `items` are current: their anchors matched the code just now. `stale` \
lists matches whose code has changed (with the reason and a diff) or vanished: do not rely on them \
until you have checked the code.
2. When you learn something a later session would need, call `remember`: a decision and why, a \
gotcha, an approach that failed and why, a convention, a verified fact. One point per memory, a few \
sentences, anchored to the exact symbol it is about (`src/a.py::Class.method`), or a file, a \
Markdown section or a config key. Never store secrets, nor what the code already says plainly.
3. A stale memory: if its meaning still holds for the new code, `reanchor` it; if the belief \
changed, `supersede` it with the corrected text; if its subject is gone or it no longer holds, \
`retire` it with a reason.
4. `check` re-verifies memories by id or path: status, reason, what changed, and the command that \
re-verifies each.

Every result is {data, meta}: meta.completeness says what was left out and why; errors carry a \
stable code in error.code (e.g. anchor_unresolved lists near names, anchor_ambiguous lists the forms \
to type, duplicate names the existing memory).
"""


class _Server(MCPServer):
    async def call_tool(self, name: str, arguments: dict[str, Any], context=None):  # type: ignore[override]
        if name not in {t.name for t in await self.list_tools()}:
            return _error(UnknownTool(f"no tool named {name[:80]!r}; the tools are: "
                                      + ", ".join(t.name for t in await self.list_tools()), tool=name[:80]))
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as e:
            if isinstance(e.__cause__, ValidationError):
                # The arguments broke the input schema: same stable code as any other bad input.
                problems = [f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in e.__cause__.errors()]
                return _error(InvalidInput("invalid arguments: " + "; ".join(problems), fields=[
                    ".".join(str(p) for p in err["loc"]) for err in e.__cause__.errors()]))
            raise


def _text(obj: Any) -> list[TextContent]:
    return [TextContent(type="text", text=orjson.dumps(obj).decode())]


def _error(e: TetherError) -> CallToolResult:
    return CallToolResult(content=_text({"error": e.to_dict()}), is_error=True)


def _ok(env: dict) -> CallToolResult:
    return CallToolResult(content=_text(env), structured_content=env)


class Tools:
    """The six tools over one long-lived Tether; calls are serialized (one SQLite connection)."""

    def __init__(self, root: str | None = None) -> None:
        start = os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
        # paths in tool arguments are relative to the repository root, whatever the cwd
        self.t = Tether(find_root(root, start), cwd=None)
        self._lock = threading.Lock()
        # the usage log's session for recalls: Claude Code's own, so recalls join the hooks' push and
        # credit events of the same session; else one per server process
        self.session = os.environ.get("CLAUDE_CODE_SESSION_ID") or str(uuid.uuid4())
        self.sweep_s = env_float("TETHER_MCP_SWEEP_S", DEFAULT_SWEEP_S, minimum=0.0)

    def deadline(self) -> float:
        """When a read tool's repository sweep stops: clients give up on a call after about a
        minute, and a first index of a large repository takes longer. What was parsed is kept."""
        return time.monotonic() + self.sweep_s

    def call(self, fn: Callable[[], dict]) -> CallToolResult:
        with self._lock:
            try:
                try:
                    result = _ok(fn())
                except sqlite3.DatabaseError as e:  # pages overwritten with garbage: rebuild, once
                    if not db.is_corrupt(e):
                        raise
                    self.t.close()
                    db.discard_opened(str(e))
                    result = _ok(fn())
                finish(self.t.root, self.t.index)  # the rest of the index is built while the agent works
                return result
            except TetherError as e:
                return _error(e)
            except OSError as e:
                return _error(from_os_error(e))
            except Exception as e:  # a bug, not bad input: the server keeps serving
                known = from_sqlite_error(e, db.opened()) if isinstance(e, sqlite3.Error) else None
                if known is not None:
                    return _error(known)
                log.exception("tether tool failed")
                return _error(InternalError(f"internal error {type(e).__name__}: {e}"))

    def register(self, server: MCPServer) -> None:
        t = self.t
        ro = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
        rw = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)

        @server.tool(annotations=ro, description=(
            "Recall what is known about this repository before you read or change code: decisions, gotchas, "
            "failed attempts, conventions and facts anchored to the code, re-verified against the working tree "
            "now. Call it at the start of every task and before editing a file. Returns the few memories that "
            "matter within budget_tokens; matches whose code changed come back apart in `stale`, with the "
            "reason and a diff, never as current."))
        def recall(
            task: Annotated[str, Field(description="what you are about to do, in your own words", max_length=MAX_TASK_CHARS)],
            files: Annotated[list[str] | None, Field(description="repo-relative files in play (boosts memories anchored there)", max_length=200), OneOrMany] = None,
            budget_tokens: Annotated[int, Field(description="hard cap on the answer: ceil(characters/4) of the returned JSON", ge=MIN_BUDGET, le=MAX_BUDGET)] = DEFAULT_BUDGET,
            kinds: Annotated[list[Kind] | None, Field(description="only these kinds"), OneOrMany] = None,
            as_of: Annotated[str | None, Field(description="ISO 8601 time: what was believed then (superseded and retired memories included)")] = None,
        ) -> Annotated[CallToolResult, M.RecallResult]:
            def go() -> dict:
                env = run_recall(t, task, files, budget_tokens, kinds, as_of, deadline=self.deadline())
                record_recall(t.root, env, self.session)
                return env
            return self.call(go)

        @server.tool(annotations=rw, description=(
            "Remember something a later session would need, anchored to the code it is about: a decision and "
            "why, a gotcha, an approach that failed and why, a convention, a verified fact. One point per "
            "memory. Refuses anchors it cannot resolve (with the names it can), ambiguous anchors (with the "
            "forms to type), secrets, and near-duplicates of a current memory (`duplicate`, naming it: "
            "supersede that one instead). Reports current memories it may contradict in `conflicts`."))
        def remember(
            body: Annotated[str, Field(description="the memory, in Markdown: a few self-contained sentences", max_length=16_000)],
            kind: Annotated[Kind, Field(description="decision | fact | gotcha | failed-attempt | convention")],
            anchors: Specs,
            evidence: Annotated[str | None, Field(description="a command that re-verifies this memory", max_length=1000)] = None,
            summary: Annotated[str | None, Field(description="one line (default: the first sentence of body)", max_length=300)] = None,
            tags: Annotated[list[str] | None, Field(description="free-form tags", max_length=20), OneOrMany] = None,
            force: Annotated[bool, Field(description="store even if a near-duplicate exists")] = False,
        ) -> Annotated[CallToolResult, M.RememberResult]:
            def go() -> dict:
                m = t.remember(body, anchors, kind=kind, summary=summary, evidence=evidence, tags=tags or (), force=force)
                conflicts = [c.to_dict() for c in t.conflicts]
                return envelope(dict(memory_view(m), conflicts=conflicts), t.freshness())
            return self.call(go)

        @server.tool(annotations=ro, description=(
            "Check memories against the code as it is now: status (active, stale, invalidated), the reason, "
            "a diff of what changed and the command that re-verifies each. Use it on the ids `recall` flagged "
            "stale, or on paths you just changed; with no arguments it checks every current memory. Reason "
            "`search_incomplete`: the repository was still being indexed when the call's time ran out; call again."))
        def check(
            paths: Annotated[list[str] | None, Field(description="only memories anchored under these repo-relative paths", max_length=200), OneOrMany] = None,
            ids: Annotated[list[Id] | None, Field(description="only these memory ids", max_length=200), OneOrMany] = None,
        ) -> Annotated[CallToolResult, M.CheckResult]:
            def go() -> dict:
                checked = t.check(ids or (), paths or (), deadline=self.deadline())
                verdicts = list(checked.verdicts)
                return envelope([verdict_view(v) for v in verdicts], t.freshness(), **staleness(verdicts),
                                quarantined=[quarantine_view(q) for q in checked.quarantined],
                                link_problems=[p.to_dict() for p in checked.link_problems])
            return self.call(go)

        @server.tool(annotations=rw, description=(
            "Re-bind a stale memory to the code as it is now, when its meaning survived the edit (the "
            "memory still holds for the new code). Without anchors each one is re-bound where it resolves "
            "now; pass anchors when the code moved somewhere tether cannot follow."))
        def reanchor(
            id: Id,
            anchors: Annotated[list[str] | None, Field(description="new anchors (default: where each is now)", max_length=20), OneOrMany] = None,
        ) -> Annotated[CallToolResult, M.ReanchorResult]:
            def go() -> dict:
                m = t.reanchor(id, anchors or ())
                v = t.verdict(m.id)
                return envelope(verdict_view(v, body=True), t.freshness(), **staleness([v]))
            return self.call(go)

        @server.tool(annotations=rw, description=(
            "Replace a memory whose belief changed with a corrected version: the new memory becomes current "
            "and the old one is closed and kept as history (recall with as_of still finds it). Use it when a "
            "stale memory is no longer true as written, or a current one turned out wrong."))
        def supersede(
            id: Id,
            body: Annotated[str, Field(description="the corrected memory, in Markdown", max_length=16_000)],
            reason: Annotated[str, Field(description="why the belief changed", min_length=1, max_length=300)],
        ) -> Annotated[CallToolResult, M.SupersedeResult]:
            def go() -> dict:
                old, new = t.supersede(id, body, reason)
                return envelope({"superseded": memory_view(old), "current": memory_view(new)}, t.freshness())
            return self.call(go)

        @server.tool(annotations=rw, description=(
            "Retire a memory whose subject is gone or which no longer holds, with the reason. It stops being "
            "recalled as current and is kept as history. Use supersede instead when there is a corrected "
            "version to record."))
        def retire(
            id: Id,
            reason: Annotated[str, Field(description="why it no longer holds", min_length=1, max_length=300)],
        ) -> Annotated[CallToolResult, M.RetireResult]:
            return self.call(lambda: envelope(memory_view(t.retire(id, reason)), t.freshness()))


def build(root: str | None = None) -> MCPServer:
    server = _Server("tether", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING")
    Tools(root).register(server)
    return server


def serve(root: str | None = None) -> None:
    """Serve over stdio until the client hangs up."""
    import anyio

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="tether-mcp %(levelname)s %(message)s")
    anyio.run(_serve_stdio, build(root))


async def _serve_stdio(server: MCPServer) -> None:
    """MCPServer.run("stdio"), with a line that is not JSON-RPC answered by the standard error
    reply instead of dropped (the SDK only logs it, and the client waits for an answer forever)."""
    from mcp.server.stdio import stdio_server

    low = server._lowlevel_server
    async with stdio_server(stdin=_BoundedLines(sys.stdin.buffer)) as (read_stream, write_stream):
        await low.run(_Replying(read_stream, write_stream), write_stream, low.create_initialization_options())


MAX_LINE_BYTES = 16 << 20  # one JSON-RPC message; tool arguments are capped far below this


class _BoundedLines:
    """stdin as lines of at most MAX_LINE_BYTES: the SDK reads a line whole, whatever its size, so
    one 200 MB line would sit in memory several times over. A longer line is read past and passed
    on as an empty JSON object, which draws the -32600 reply (`_Replying`)."""

    def __init__(self, raw) -> None:
        self._raw = raw

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        import anyio

        line = await anyio.to_thread.run_sync(self._readline)
        if line is None:
            raise StopAsyncIteration
        return line

    def _readline(self) -> str | None:
        line = self._raw.readline(MAX_LINE_BYTES + 1)
        if not line:
            return None
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while True:  # read past the rest of it, a bounded chunk at a time
                rest = self._raw.readline(1 << 20)
                if not rest or rest.endswith(b"\n"):
                    break
            return "{}\n"
        return line.decode("utf-8", "replace")


class _Replying:
    """The transport's read stream, answering what is not a JSON-RPC message: -32700 (not JSON)
    or -32600 (JSON, but not a request), with a null id, as JSON-RPC 2.0 asks."""

    def __init__(self, inner, write) -> None:
        self._inner, self._write = inner, write

    @property
    def last_context(self):
        return self._inner.last_context

    async def receive(self):
        from mcp.shared.message import SessionMessage
        from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            not_json = isinstance(item, ValidationError) and any(e.get("type") == "json_invalid" for e in item.errors())
            code, text = (PARSE_ERROR, "Parse error") if not_json else (INVALID_REQUEST, "Invalid Request")
            reply = JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=code, message=text))
            await self._write.send(SessionMessage(reply))

    def __aiter__(self):
        return self

    async def __anext__(self):
        import anyio

        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self):
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc):
        return await self._inner.__aexit__(*exc)

    def close(self) -> None:
        self._inner.close()

    async def aclose(self) -> None:
        await self._inner.aclose()
