"""Write hooks/mcp_tools.json: the real MCP server's answers to `initialize` and `tools/list`.

hooks/mcp_bridge.py answers with them while the plugin's venv is first being built, so Claude Code
sees the same tools before and after the handover. A test fails when the file differs from what the
server says now: after changing a tool, its description or the instructions, regenerate it with

    .venv/bin/python -m tether.surfaces.mcp.snapshot

(a development tool: it writes into the checkout the package runs from).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

ROOT = Path(__file__).resolve().parents[4]  # the checkout: server/tether/surfaces/mcp/snapshot.py
SNAPSHOT = ROOT / "hooks" / "mcp_tools.json"


def snapshot() -> dict:
    """Ask a real `python -m tether mcp` over stdio, with raw JSON-RPC lines: the wire shapes, as they are."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TETHER_HOME=str(Path(tmp) / "home"), PYTHONPATH=str(ROOT / "server"))
        proc = subprocess.Popen(
            [sys.executable, "-m", "tether", "--root", tmp, "mcp"],
            cwd=tmp,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdin is not None and proc.stdout is not None  # both opened as PIPE
        try:

            def ask(id_: int, method: str, params: dict | None = None) -> dict:
                msg = {"jsonrpc": "2.0", "id": id_, "method": method, **({"params": params} if params else {})}
                assert proc.stdin is not None and proc.stdout is not None  # as above: mypy does not carry it in here
                proc.stdin.write(json.dumps(msg).encode() + b"\n")
                proc.stdin.flush()
                answer = json.loads(proc.stdout.readline())
                assert answer.get("id") == id_ and "result" in answer, answer
                return answer["result"]

            init = ask(
                1,
                "initialize",
                {
                    "protocolVersion": LATEST_HANDSHAKE_VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "tether-snapshot", "version": "1"},
                },
            )
            proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
            tools = ask(2, "tools/list")
        finally:
            proc.stdin.close()
            proc.wait(timeout=30)
    assert set(tools) == {"tools"}, sorted(tools)  # one page: the bridge has no cursor to give
    init.pop("protocolVersion")
    return {"protocolVersions": list(HANDSHAKE_PROTOCOL_VERSIONS), "initialize": init, "tools": tools["tools"]}


def render(snap: dict) -> str:
    return json.dumps(snap, indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    SNAPSHOT.write_text(render(snapshot()), encoding="utf-8")
    print(f"wrote {SNAPSHOT.relative_to(ROOT)}: {len(json.loads(SNAPSHOT.read_text())['tools'])} tools")
