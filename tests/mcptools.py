"""The real MCP server (`python -m tether mcp`) as a client starts it, and calls to it."""

from __future__ import annotations

import os
import select
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path

import orjson
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client


@asynccontextmanager
async def served(repo, tmp_path: Path, explicit_root: bool = False, session: str | None = None):
    """A server process started the way a client starts it; its stderr goes to a file."""
    env = {"TETHER_HOME": os.environ["TETHER_HOME"]}
    if session:
        env["CLAUDE_CODE_SESSION_ID"] = session
    args = ["-m", "tether", "mcp"]
    if explicit_root:
        args = ["-m", "tether", "--root", str(repo.path), "mcp"]
    else:
        env["CLAUDE_PROJECT_DIR"] = str(repo.path)
    params = StdioServerParameters(command=sys.executable, args=args, env=env, cwd=str(tmp_path))
    with open(tmp_path / "server-stderr.log", "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            yield client


async def call(client, tool: str, **arguments) -> dict:
    """A successful call's envelope: one text block, the payload sent once (no structured copy)."""
    res = await client.call_tool(tool, arguments)
    assert not res.is_error, res.content[0].text
    assert len(res.content) == 1 and res.structured_content is None
    env = orjson.loads(res.content[0].text)
    assert set(env) == {"data", "meta"}
    return env


async def fail(client, tool: str, **arguments) -> dict:
    """A failed call's error object: a tool error, never a crash."""
    res = await client.call_tool(tool, arguments)
    assert res.is_error
    return orjson.loads(res.content[0].text)["error"]


def ids(env: dict, key: str = "items") -> list[str]:
    return [item["id"] for item in env["data"][key]]


class PipeLines:
    """A server's stdout as lines, each awaited at most `timeout` seconds. Lines are split here from
    raw reads: a buffered reader's readline takes every answer already in the pipe, and a select()
    on the pipe then waits for one that arrived long ago (a test that hung only under load)."""

    def __init__(self, pipe) -> None:
        self.fd = pipe.fileno()
        self.held = b""

    def next(self, timeout: float) -> bytes:
        """The next line without its newline; b"" once the server closed its output."""
        end = time.monotonic() + timeout
        while b"\n" not in self.held:
            left = end - time.monotonic()
            assert left > 0 and select.select([self.fd], [], [], left)[0], (
                f"no answer from the server within {timeout} s"
            )
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                return b""
            self.held += chunk
        line, _, self.held = self.held.partition(b"\n")
        return line
