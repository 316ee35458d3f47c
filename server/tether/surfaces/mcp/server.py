"""The MCP server: the tools of tools.py over stdio, one Session (a Tether) in the lifespan context.

Tether errors become tool errors (isError) whose text is `{"error": {"code", "message", ...}}`,
arguments that break a tool's schema are `invalid_input`, an unknown tool is `unknown_tool`; the
server keeps serving. Nothing but the protocol is written to stdout; logs go to stderr.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from tether import __version__
from tether.errors import InvalidInput, UnknownTool
from tether.surfaces.mcp.session import Session, error
from tether.surfaces.mcp.tools import TOOLS, description
from tether.surfaces.mcp.transport import serve_stdio

INSTRUCTIONS = """\
tether is this repository's memory: what earlier sessions learned, each memory anchored to the code \
it is about and re-verified against the working tree on every read. Memories are files under \
`.tether/memories/`, committed with the code: the team shares them through git.

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
re-verifies each. Before you commit, call `affected`: the memories your change touched, and what it \
did to each; settle the stale ones (3.) in the same commit.

Every result is {data, meta}: meta.completeness says what was left out and why; errors carry a \
stable code in error.code (e.g. anchor_unresolved lists near names, anchor_ambiguous lists the forms \
to type, duplicate names the existing memory).
"""


def _untitled(schema: Any) -> Any:
    """A JSON schema without pydantic's titles: they repeat each property's name, and every client
    puts the tool list in the model's context (issue 23: definitions under 8,000 characters)."""
    if isinstance(schema, dict):
        return {k: _untitled(v) for k, v in schema.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(schema, list):
        return [_untitled(v) for v in schema]
    return schema


class _Server(MCPServer):
    async def list_tools(self):
        tools = await super().list_tools()
        return [t.model_copy(update={"input_schema": _untitled(t.input_schema)}) for t in tools]

    async def call_tool(self, name: str, arguments: dict[str, Any], context=None):
        names = [t.name for t in await self.list_tools()]
        if name not in names:
            return error(
                UnknownTool(f"no tool named {name[:80]!r}; the tools are: " + ", ".join(names), tool=name[:80])
            )
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as e:
            if isinstance(e.__cause__, ValidationError):
                # The arguments broke the input schema: same stable code as any other bad input.
                errs = e.__cause__.errors()
                problems = [f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in errs]
                return error(
                    InvalidInput(
                        "invalid arguments: " + "; ".join(problems),
                        fields=[".".join(str(p) for p in err["loc"]) for err in errs],
                    )
                )
            raise


def build(root: str | None = None) -> MCPServer:
    @asynccontextmanager
    async def lifespan(server: MCPServer) -> AsyncIterator[Session]:
        session = Session(root)
        try:
            yield session
        finally:
            session.close()

    server = _Server("tether", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING", lifespan=lifespan)
    for fn, hints in TOOLS:
        server.add_tool(fn, description=description(fn), annotations=hints)
    return server


def serve(root: str | None = None) -> None:
    """Serve over stdio until the client hangs up."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="tether-mcp %(levelname)s %(message)s")
    try:
        anyio.run(serve_stdio, build(root))
    except BaseException as e:
        if not _client_gone(e):
            raise


def _client_gone(e: BaseException) -> bool:
    """The client closed its end (stdout's reader gone, maybe mid-answer): the session is over, not a bug.
    anyio wraps it in exception groups, one level per task group."""
    inner = getattr(e, "exceptions", None)
    if inner is not None:
        return bool(inner) and all(_client_gone(x) for x in inner)
    return isinstance(e, (BrokenPipeError, ConnectionResetError))
