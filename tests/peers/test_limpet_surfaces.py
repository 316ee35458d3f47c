"""limpet's protocol and page scenarios, re-typed against tether's MCP server and `tether report`.

Peer: github.com/KSym04/limpet, tests/mcp_integration.rs, tests/ui_html.rs. The MCP server is the real
`python -m tether mcp`, driven over stdio through the MCP SDK's client (as tests/surfaces/mcp/test_mcp.py does) and,
for malformed input the SDK will not send, as a raw JSON-RPC line protocol. limpet's `ui` page is
tether's self-contained `report` page.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from contextlib import asynccontextmanager

import orjson
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcptools import PipeLines

FEED = "def build_feed(products):\n    return [serialize(p) for p in products]\n"


def _server_env(repo) -> dict:
    env = {"TETHER_HOME": os.environ["TETHER_HOME"], "CLAUDE_PROJECT_DIR": str(repo.path)}
    for k in ("PATH", "HOME", "PYTHONPATH"):
        if k in os.environ:
            env[k] = os.environ[k]
    return env


@asynccontextmanager
async def served(repo, tmp_path):
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "tether", "mcp"], env=_server_env(repo), cwd=str(tmp_path)
    )
    with open(tmp_path / "server-stderr.log", "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            yield client


async def _call(client, tool: str, **arguments) -> tuple[bool, dict]:
    res = await client.call_tool(tool, arguments)
    return res.is_error, orjson.loads(res.content[0].text)


def test_a_full_protocol_session(repo, tmp_path):
    """limpet tests/mcp_integration.rs::full_protocol_session — over MCP: exactly seven tools; remember
    anchored to the indexed symbol; recall finds it (completeness matched 1, returned 1, staleness
    counted); a path traversal in anchors is a tool error (`outside_root`), not a crash, and the server
    keeps serving. (limpet's `map`, `verify_queue` and `admin` tools have no counterpart; `affected` has.)"""
    repo.write("feed.py", FEED)
    repo.commit("feed")

    async def go():
        async with served(repo, tmp_path) as client:
            assert {t.name for t in (await client.list_tools()).tools} == {
                "recall",
                "remember",
                "check",
                "reanchor",
                "supersede",
                "retire",
                "affected",
            }
            err, made = await _call(
                client,
                "remember",
                body="build_feed silently drops products without prices, by design",
                kind="gotcha",
                anchors=["feed.py::build_feed"],
            )
            assert not err and made["data"]["anchors"][0]["symbol"] == "build_feed"
            err, found = await _call(client, "recall", task="why are some products missing from the feed")
            assert not err
            assert [i["id"] for i in found["data"]["items"]] == [made["data"]["id"]]
            assert "drops products" in found["data"]["items"][0]["summary"]
            c = found["meta"]["completeness"]
            assert (c["matched"], c["returned"]) == (1, 1)
            assert found["meta"]["staleness"] == {"stale": 0, "invalidated": 0}
            assert isinstance(found["meta"]["freshness"]["indexed_at"], str)
            err, evil = await _call(client, "remember", body="evil", kind="fact", anchors=["../../etc/passwd"])
            assert err and evil["error"]["code"] == "outside_root"
            err, checked = await _call(client, "check")
            assert not err and [v["status"] for v in checked["data"]] == ["active"]

    asyncio.run(go())
    assert "Traceback" not in (tmp_path / "server-stderr.log").read_text()


class _Raw:
    """The server as a raw newline-delimited JSON-RPC peer, for input no SDK client would send."""

    def __init__(self, repo) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tether", "--root", str(repo.path), "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=_server_env(repo),
        )
        self.lines = PipeLines(self.proc.stdout)
        self.send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "limpet-port", "version": "1"},
                },
            }
        )
        assert self.recv()["result"]["serverInfo"]["name"] == "tether"
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg) -> None:
        self.proc.stdin.write((msg if isinstance(msg, str) else json.dumps(msg)) + "\n")
        self.proc.stdin.flush()

    def recv(self, timeout: float = 20.0) -> dict:
        """The next message, or an AssertionError after `timeout` s: a silent server never hangs the test."""
        line = self.lines.next(timeout)
        assert line, "the server closed its output"
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def test_malformed_input_gets_a_parse_error_and_the_server_keeps_serving(repo):
    """limpet tests/mcp_integration.rs::full_protocol_session (the resilience half) — a line that is not
    JSON is answered with JSON-RPC -32700 (id null), an unknown method with -32601, and a ping after both
    still answers: the server survives malformed input."""
    repo.write("feed.py", FEED)
    repo.commit("feed")
    raw = _Raw(repo)
    try:
        raw.send("{this is not json")
        raw.send({"jsonrpc": "2.0", "id": 7, "method": "nope/nope"})
        raw.send({"jsonrpc": "2.0", "id": 8, "method": "ping"})
        answers = [raw.recv()]
        while answers[-1].get("id") != 8:
            answers.append(raw.recv())
        assert [(a.get("id"), a.get("error", {}).get("code")) for a in answers] == [
            (None, -32700),
            (7, -32601),
            (8, None),
        ]
        assert answers[-1] == {"jsonrpc": "2.0", "id": 8, "result": {}}
    finally:
        raw.close()


def test_the_report_is_one_self_contained_page(repo, tmp_path):
    """limpet tests/ui_html.rs::ui_page_is_one_file_with_no_external_references and
    ::ui_layout_is_deterministic_no_math_random — `tether report` writes one HTML file that loads nothing
    from anywhere (no script or stylesheet URL, no CSS import, no http(s) reference), and draws the same
    page twice from the same store (nothing random in it)."""
    repo.write("feed.py", FEED)
    repo.commit("feed")
    repo.remember("build_feed silently drops products without prices, by design", "feed.py::build_feed")
    pages = []
    for n in (1, 2):
        out = tmp_path / f"report{n}.html"
        repo.run("report", "--out", str(out))
        pages.append(out.read_text())
    html = pages[0]
    assert "<html" in html.lower() and "build_feed silently drops products" in html
    assert not re.search(r"<script[^>]*\bsrc=", html) and not re.search(r"<link[^>]*stylesheet", html)
    assert "@import" not in html and "url(http" not in html
    assert re.findall(r"https?://", html) == []
    assert "Math.random" not in html

    def stable(page: str) -> str:
        return re.sub(r'"generated_at":\s*"[^"]*"', "", re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+Z?", "T", page))

    assert stable(pages[0]) == stable(pages[1])
