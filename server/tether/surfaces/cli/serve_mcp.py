"""`tether mcp`: serve the MCP tools over stdio (Claude Code and any other MCP client)."""

from __future__ import annotations

from tether.surfaces.cli.args import Add
from tether.surfaces.cli.output import Result


def register(add: Add) -> None:
    add("mcp", "serve the MCP tools over stdio (for Claude Code and other MCP clients)").set_defaults(handler=mcp)


def mcp(args) -> Result:
    from tether.surfaces.mcp.server import serve  # the MCP SDK: ~1 s to import, for `tether --help` too

    serve(args.root)
    return Result(None, "", raw=True)
