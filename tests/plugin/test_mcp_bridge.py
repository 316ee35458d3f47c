"""`launcher.py mcp` answers MCP at once on first use, while the venv is built, then hands over.

Claude Code gives an MCP server 30 s to answer `initialize` and never reconnects; a first install
takes longer. hooks/mcp_bridge.py answers from hooks/mcp_tools.json meanwhile. These tests run
the real launcher as a subprocess with an empty plugin data dir; to make the "not ready yet"
window deterministic they hold the install lock (the build waits for it), then let it go.

One test really builds the venv with pip (from this checkout, with the configured index and wheel
cache): about a minute. It stays in the suite: it is the only proof that the handover works.
"""

from __future__ import annotations

import fcntl
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import anyio
import orjson
import pytest
from hooktools import ROOT
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import ToolListChangedNotification

from tether.surfaces.mcp.snapshot import SNAPSHOT, render, snapshot

LAUNCHER = ROOT / "hooks" / "launcher.py"
TOOLS = {"recall", "remember", "check", "affected", "reanchor", "supersede", "retire"}
SETTING_UP = "tether is finishing its first-time setup"


def error_of(text: str) -> dict:
    """The bridge's tool errors are the real server's shape: `{"error": {"code", "message", ...}}`."""
    return json.loads(text)["error"]


def building(text: str) -> bool:
    return error_of(text)["code"] == "venv_building"


def test_the_bridge_snapshot_is_what_the_real_server_answers():
    fresh = snapshot()
    assert json.loads(SNAPSHOT.read_text(encoding="utf-8")) == fresh, (
        "hooks/mcp_tools.json is out of date: run `.venv/bin/python -m tether.surfaces.mcp.snapshot`"
    )
    assert {t["name"] for t in fresh["tools"]} == TOOLS
    assert SNAPSHOT.read_text(encoding="utf-8") == render(fresh)  # as the generator writes it: no hand edits


def launcher_env(tmp_path: Path, data: Path, **extra: str) -> dict:
    """The environment Claude Code gives the server: no TETHER_VENV shortcut, an empty plugin data dir."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "TETHER_"))}
    env.update(CLAUDE_PLUGIN_ROOT=str(ROOT), CLAUDE_PLUGIN_DATA=str(data), TETHER_HOME=str(tmp_path / "tether-home"))
    env.update(extra)
    return env


@contextmanager
def install_lock(data: Path):
    """Hold the launcher's install lock: the build the bridge starts waits until we let go."""
    data.mkdir(parents=True, exist_ok=True)
    with open(data / "install.lock", "a+") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        held = [True]

        def release() -> None:
            if held[0]:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)
                held[0] = False

        try:
            yield release
        finally:
            release()


class RawClient:
    """Newline-delimited JSON-RPC with the launcher, by hand: the exact wire, no SDK in between."""

    def __init__(self, env: dict, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(LAUNCHER), "mcp"],
            env=env,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(
            target=lambda: [self.lines.put(json.loads(ln)) for ln in self.proc.stdout], daemon=True
        ).start()

    def send(self, msg: dict | str) -> None:
        self.proc.stdin.write((msg if isinstance(msg, str) else json.dumps(msg)).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, id_: int, method: str, params: dict | None = None) -> None:
        self.send({"jsonrpc": "2.0", "id": id_, "method": method, **({"params": params} if params is not None else {})})

    def next(self, timeout: float = 30) -> dict:
        return self.lines.get(timeout=timeout)

    def ask(self, id_: int, method: str, params: dict | None = None, timeout: float = 30) -> dict:
        self.request(id_, method, params)
        answer = self.next(timeout)
        assert answer.get("id") == id_, answer
        return answer


def init_params(version: str) -> dict:
    return {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}


def test_with_a_ready_venv_initialize_is_answered_at_once_then_the_real_server_takes_over(tmp_path):
    env = launcher_env(tmp_path, tmp_path / "plugin-data", TETHER_VENV=sys.prefix)  # the test venv, ready as it is
    (tmp_path / ".git").mkdir()
    c = RawClient(env, tmp_path)
    started = time.monotonic()
    init = c.ask(1, "initialize", init_params("2025-06-18"))["result"]
    answered = time.monotonic() - started
    snap = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    # the real server's own answer (listChanged false: nothing will be re-announced), before it could import
    assert init == dict(snap["initialize"], protocolVersion="2025-06-18")
    assert init["capabilities"]["tools"] == {"listChanged": False}
    children = Path(f"/proc/{c.proc.pid}/task/{c.proc.pid}/children").read_text().split()
    assert len(children) == 1, children  # the real server started beside the answer, not after it
    c.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    listed = c.ask(2, "tools/list", timeout=60)["result"]["tools"]  # now the real server's
    assert Path(f"/proc/{children[0]}/cmdline").read_bytes().split(b"\0")[1:4] == [b"-m", b"tether", b"mcp"]
    assert {t["name"] for t in listed} == TOOLS
    called = c.ask(3, "tools/call", {"name": "recall", "arguments": {"task": "what is cached here"}}, timeout=60)
    assert "isError" not in called["result"] or not called["result"]["isError"], called
    assert c.lines.empty()  # the replayed initialize's answer was dropped, and no list_changed was sent
    c.proc.stdin.close()
    assert c.proc.wait(timeout=30) == 0
    assert not Path(f"/proc/{children[0]}").exists() or b"zombie" in Path(f"/proc/{children[0]}/status").read_bytes()
    data = tmp_path / "plugin-data"  # nothing built, nothing logged (bytecode only, under PYTHONDONTWRITEBYTECODE)
    assert not data.exists() or [p.name for p in data.iterdir()] == ["pycache"]
    print(f"initialize answered in {answered * 1000:.0f} ms")


def test_before_the_venv_exists_the_launcher_speaks_mcp_itself_and_a_failed_build_says_why(tmp_path):
    data = tmp_path / "plugin-data"
    snap = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    # pip refuses the option at once: a quick, real build failure (after a real `python -m venv`)
    env = launcher_env(tmp_path, data, TETHER_MCP_CALL_WAIT="1", TETHER_PIP_ARGS="--no-such-option")
    with install_lock(data) as release:
        c = RawClient(env, tmp_path)
        # the SDK's `auto` mode probes the 2026 discover first; "method not found" makes it fall back
        assert c.ask(0, "server/discover", {})["error"]["code"] == -32601
        init = c.ask(1, "initialize", init_params("2025-03-26"))["result"]
        assert init["protocolVersion"] == "2025-03-26"  # a version the SDK speaks is echoed
        assert init["capabilities"]["tools"] == {"listChanged": True}
        assert (init["serverInfo"], init["instructions"]) == (
            snap["initialize"]["serverInfo"],
            snap["initialize"]["instructions"],
        )
        assert (
            c.ask(2, "initialize", init_params("1999-01-01"))["result"]["protocolVersion"]
            == snap["protocolVersions"][-1]
        )
        c.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert c.ask(3, "ping")["result"] == {}
        assert c.ask(4, "tools/list")["result"] == {"tools": snap["tools"]}
        assert c.ask(5, "resources/list")["result"] == {"resources": []}
        assert c.ask(6, "sampling/whatever")["error"]["code"] == -32601
        c.send("not json")
        assert c.next()["error"]["code"] == -32700

        # a call is held for the build (here 1 s), then told to come back; a cancelled one gets no answer
        call = {"name": "recall", "arguments": {"task": "anything"}}
        c.request(7, "tools/call", call)
        c.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}})
        answer = c.ask(8, "tools/call", call)
        assert answer["result"]["isError"] is True
        err = error_of(answer["result"]["content"][0]["text"])
        assert (err["code"], err["retryable"]) == ("venv_building", True)
        assert err["message"].startswith(SETTING_UP) and " s left); call this tool again shortly." in err["message"]
        assert err["elapsed_s"] >= 1 and err["eta_s"] >= 5  # held 1 s, twice; no build has finished here yet
        assert not (data / "venvs").exists()  # the build is waiting for the lock

        release()
        deadline, n = time.monotonic() + 300, 100
        while True:
            n += 1
            text = c.ask(n, "tools/call", call)["result"]["content"][0]["text"]
            if not building(text) or time.monotonic() > deadline:
                break
        err = error_of(text)
        assert (err["code"], err["retryable"]) == ("venv_install_failed", False)
        text = err["message"]
        assert text.startswith("tether's tools cannot run: installing its Python environment failed (")
        assert "pip install exited 2" in text, text
        assert str(data / "install.log") in text
        assert "no such option: --no-such-option" in (data / "install.log").read_text()
        assert c.ask(n + 1, "tools/list")["result"] == {"tools": snap["tools"]}  # still serving

    c.proc.stdin.close()
    assert c.proc.wait(timeout=30) == 0
    assert c.lines.empty()  # nothing for the cancelled call
    (failure,) = [json.loads(line) for line in (data / "hook-failures.jsonl").read_text().splitlines()]
    assert (failure["event"], failure["error"]) == ("mcp", "VenvInstallFailed")  # where `tether doctor` looks
    assert "pip install exited 2" in failure["message"] and "install.log" in failure["message"]


def test_first_start_answers_at_once_then_hands_over_to_the_real_server(repo, tmp_path):
    """SLOW (a real pip install, about a minute): the whole first start, through the SDK's stdio client."""
    repo.write("src/app.py", "def main():\n    return 1\n")
    repo.commit("code")
    data = tmp_path / "plugin-data"
    env = launcher_env(tmp_path, data, CLAUDE_PROJECT_DIR=str(repo.path), TETHER_MCP_CALL_WAIT="2")
    params = StdioServerParameters(command=sys.executable, args=[str(LAUNCHER), "mcp"], env=env, cwd=str(repo.path))
    changed = anyio.Event()

    async def on_message(message) -> None:
        if isinstance(message, ToolListChangedNotification):
            changed.set()

    async def go() -> None:
        with install_lock(data) as release, open(tmp_path / "server-stderr.log", "w") as errlog:
            # Each request, `initialize` included, times out after 20 s: the handshake would only
            # fail that if it waited for pip (no request below waits longer for a good reason).
            async with Client(
                stdio_client(params, errlog=errlog), message_handler=on_message, read_timeout_seconds=20
            ) as client:
                assert client.protocol_version in json.loads(SNAPSHOT.read_text())["protocolVersions"]
                assert {t.name for t in (await client.list_tools()).tools} == TOOLS

                early = await client.call_tool("recall", {"task": "how main works"})
                assert early.is_error and building(early.content[0].text), early.content[0].text

                release()
                with anyio.fail_after(900):
                    while not (data / "venv.ready").exists():
                        await anyio.sleep(0.2)
                    # the build is done: this call is held until the handover (or goes straight through)
                    res = await client.call_tool("recall", {"task": "how main works", "files": ["src/app.py"]})
                    await changed.wait()  # the bridge re-announced the tools, as the real server has them
                assert not res.is_error, res.content[0].text
                env_ = orjson.loads(res.content[0].text)  # an envelope: only the real server writes these
                assert res.structured_content is None and set(env_) == {"data", "meta"}
                assert env_["data"]["items"] == [] and env_["data"]["stale"] == []

                tools = {t.name: t for t in (await client.list_tools()).tools}  # now the real server's list
                assert set(tools) == TOOLS and tools["recall"].input_schema["required"] == ["task"]
                made = await client.call_tool(
                    "remember",
                    {
                        "body": "main returns 1 so the exit code says success.",
                        "kind": "fact",
                        "anchors": ["src/app.py::main"],
                    },
                )
                assert not made.is_error, made.content[0].text

    anyio.run(go)
    history = [json.loads(line)["action"] for line in (data / "launcher.jsonl").read_text().splitlines()]
    assert history == ["install-start", "install-done"]
    said = (tmp_path / "server-stderr.log").read_text()
    assert "first start: installing" in said and "handing the connection over" in said, said
    assert not (data / "hook-failures.jsonl").exists()


@pytest.mark.parametrize(
    "bad",
    [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},  # no protocolVersion
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": None},
        {"id": 1, "method": "initialize", "params": init_params("2025-06-18")},  # no "jsonrpc"
    ],
)
def test_an_initialize_the_real_server_would_refuse_is_refused_at_once_and_a_good_one_follows(tmp_path, bad):
    env = launcher_env(tmp_path, tmp_path / "plugin-data", TETHER_VENV=sys.prefix)
    c = RawClient(env, tmp_path)
    c.send(bad)
    refused = c.next()
    assert "error" in refused and refused["error"]["code"] in (-32600, -32602), refused
    assert c.ask(2, "initialize", init_params("2025-06-18"))["result"]["serverInfo"]["name"] == "tether"
    c.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert c.ask(3, "ping", timeout=60)["result"] == {}
    assert c.lines.empty()  # nothing stray from the real server: it saw only the good initialize
    c.proc.stdin.close()
    assert c.proc.wait(timeout=30) == 0


def test_ctrl_c_ends_the_server_quietly(tmp_path):
    env = launcher_env(tmp_path, tmp_path / "plugin-data", TETHER_VENV=sys.prefix)
    c = RawClient(env, tmp_path)
    c.ask(1, "initialize", init_params("2025-06-18"))
    c.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    c.ask(2, "ping", timeout=60)  # the real server is up
    c.proc.send_signal(signal.SIGINT)
    assert c.proc.wait(timeout=30) == 130
    assert "Traceback" not in c.proc.stderr.read().decode()


def test_a_client_that_vanishes_mid_answer_is_no_internal_error(repo):
    """The real server, its stdout's reader gone: the session ends, nothing is reported as a bug."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tether", "--root", str(repo.path), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.close()  # the reader leaves before the first answer
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init_params("2025-06-18")}
    proc.stdin.write((json.dumps(hello) + "\n").encode())
    proc.stdin.flush()
    time.sleep(3)  # it answers into the closed pipe
    proc.stdin.close()
    proc.wait(timeout=60)
    err = proc.stderr.read().decode()
    assert "internal" not in err and "Traceback" not in err, err
