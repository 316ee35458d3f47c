"""The stdio transport around the SDK's: a line that is not JSON-RPC is answered (the SDK only logs
it, and the client waits for an answer forever), and no line is held in memory past a cap."""

from __future__ import annotations

import sys

import anyio
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

MAX_LINE_BYTES = 16 << 20  # one JSON-RPC message; tool arguments are capped far below this


class BoundedLines:
    """stdin as lines of at most MAX_LINE_BYTES: the SDK reads a line whole, whatever its size, so
    one 200 MB line would sit in memory several times over. A longer line is read past and passed
    on as an empty JSON object, which draws the -32600 reply (`Replying`)."""

    def __init__(self, raw) -> None:
        self._raw = raw

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
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


class Replying:
    """The transport's read stream, answering what is not a JSON-RPC message: -32700 (not JSON)
    or -32600 (JSON, but not a request), with a null id, as JSON-RPC 2.0 asks."""

    def __init__(self, inner, write) -> None:
        self._inner, self._write = inner, write

    @property
    def last_context(self):
        return self._inner.last_context

    async def receive(self):
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


async def serve_stdio(server) -> None:
    """`MCPServer.run("stdio")`, through BoundedLines and Replying."""

    low = server._lowlevel_server
    async with stdio_server(stdin=BoundedLines(sys.stdin.buffer)) as (read_stream, write_stream):  # type: ignore[arg-type]  # duck-typed: the SDK only iterates its lines
        await low.run(Replying(read_stream, write_stream), write_stream, low.create_initialization_options())
