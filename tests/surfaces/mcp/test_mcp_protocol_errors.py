"""The MCP server on the wire, fed what a broken or hostile client sends: it answers, and keeps serving."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from mcptools import PipeLines

SRC = "def fee(amount):\n    return round(amount * 0.029 + 0.30, 2)\n"


class Wire:
    """The server as a subprocess, spoken to line by line (no SDK client: it never sends garbage)."""

    def __init__(self, root) -> None:
        self.p = subprocess.Popen(
            [sys.executable, "-m", "tether", "--root", str(root), "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines = PipeLines(self.p.stdout)

    def send(self, message) -> None:
        line = message if isinstance(message, (str, bytes)) else json.dumps(message)
        self.p.stdin.write((line if isinstance(line, bytes) else line.encode()) + b"\n")
        self.p.stdin.flush()

    def receive(self, timeout: float = 30) -> dict:
        return json.loads(self.lines.next(timeout))

    def call(self, n: int, method: str, params: dict | None = None) -> dict:
        self.send({"jsonrpc": "2.0", "id": n, "method": method, "params": params or {}})
        return self.receive()

    def close(self) -> None:
        self.p.stdin.close()
        self.p.wait(timeout=30)


@pytest.fixture
def wire(repo):
    repo.write("src/fees.py", SRC)
    repo.commit("fees")
    w = Wire(repo.path)
    w.call(
        1,
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
    )
    w.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    yield w
    w.close()


def test_an_unknown_tool_answers_the_error_envelope_with_a_stable_code(wire):
    got = wire.call(2, "tools/call", {"name": "delete_everything", "arguments": {}})
    assert got["result"]["isError"] is True
    err = json.loads(got["result"]["content"][0]["text"])["error"]
    assert err["code"] == "unknown_tool" and "recall" in err["message"]


@pytest.mark.parametrize(
    "line,code",
    [("{not json", -32700), (b"\xff\xfe garbage", -32700), ('{"hello": "world"}', -32600), ("[1, 2, 3]", -32600)],
)
def test_a_line_that_is_not_json_rpc_gets_the_standard_error_and_the_server_stays_up(wire, line, code):
    wire.send(line)
    got = wire.receive()
    assert got == {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": got["error"]["message"]}}
    tools = wire.call(3, "tools/list")["result"]["tools"]
    assert {"recall", "remember", "check"} <= {t["name"] for t in tools}


def test_a_line_past_the_size_cap_is_refused_without_being_held_whole(wire):
    big = {
        "jsonrpc": "2.0",
        "id": 9,
        "method": "tools/call",
        "params": {"name": "recall", "arguments": {"task": "a" * (20 << 20)}},
    }
    wire.send(big)
    got = wire.receive(timeout=60)
    assert got["id"] is None and got["error"]["code"] == -32600
    assert wire.call(10, "tools/list")["result"]["tools"]
