"""Fixtures for the end-to-end tests: the pinned Claude Code, the plugin's venv built once, the first session.

Only the model is scripted: Claude Code is the real one from the npm registry, tether is this
checkout loaded as a plugin (its hooks, its launcher, its MCP server), the repository is a real
git repository. Skipped, saying why, where npx is missing, unless TETHER_E2E_REQUIRED is set
(`make e2e` sets it: there a missing npx is an error, not a skip).
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from .claude_code import SETTING_UP, TOOL_PREFIX, WAIT, find_claude, which_npx
from .e2e_world import make_world
from .scripted_model import ScriptedModel, text, tool_use


@pytest.fixture(scope="session")
def claude_exe() -> Path:
    npx = which_npx()
    if npx is None:
        if os.environ.get("TETHER_E2E_REQUIRED", "") not in ("", "0"):
            pytest.fail("npx is not installed: the end-to-end tests need it to fetch Claude Code")
        pytest.skip("e2e: npx is not installed, so the real Claude Code cannot run here (make e2e requires it)")
    return find_claude(npx)


@pytest.fixture(scope="session")
def plugin_data(tmp_path_factory) -> Path:
    """The plugin's data dir shared by every session of the test run: its venv is built once."""
    return tmp_path_factory.mktemp("plugin-data")


@pytest.fixture(scope="session")
def first_use(claude_exe, plugin_data, tmp_path_factory):
    """The first Claude Code session on this machine: the plugin data dir is empty when it starts.

    Every other e2e fixture depends on it, so the venv is built here, by the plugin itself, once.
    """
    before = sorted(p.name for p in plugin_data.iterdir())
    with ScriptedModel(PatientRecall()) as model:
        world = make_world(tmp_path_factory.mktemp("first-use"), claude_exe, plugin_data, model)
        started = time.time()
        with install_held(plugin_data, BUILD_DELAY):
            session = world.run("FIRST USE: what does tether know about invoice totals?", allowed=FIRST_USE_TOOLS)
    return world, session, before, started


# pip may build the venv in under 30 s on a warm cache; held this long first, the build ends
# well past Claude Code's 30 s connect timeout on any machine, as it does on a cold one
BUILD_DELAY = 35


@contextmanager
def install_held(data: Path, seconds: float):
    """Hold the launcher's install lock for `seconds` (the plugin's build waits for it), then let go."""
    f = open(data / "install.lock", "a+")
    fcntl.flock(f.fileno(), fcntl.LOCK_EX)
    timer = threading.Timer(seconds, f.close)  # closing the file releases the lock
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        f.close()


RECALL = TOOL_PREFIX + "recall"
FIRST_USE_TOOLS = [RECALL, WAIT]


class PatientRecall:
    """What a real model does on first use: call recall; while tether is still setting up, call again.

    Claude Code 2.1.332 gives an MCP server 30 s to connect and does not wait for it before the
    first request; Claude Code's own default connect timeout is in force here (no MCP_TIMEOUT),
    so this is what a user gets. The launcher answers the handshake at once while pip builds the
    venv (hooks/mcp_bridge.py) and holds a call up to 25 s for the build; a call that comes too
    early is told "tether is finishing its first-time setup ... call this tool again shortly".
    A call to a server that is still connecting would come back "still connecting" with advice to
    call WaitForMcpServers: handled too, so a regression shows up as an assertion, not a hang.
    """

    MAX_TRIES = 20

    def __call__(self, req):
        if not req.is_agent:
            return None
        results = req.new_results()
        tries = sum(1 for b in req.raw_calls() if b["name"] in (RECALL, WAIT))
        if not req.raw_calls():
            return [tool_use(RECALL, {"task": "how invoice totals are rounded", "files": ["src/billing.py"]})]
        if not results:  # a system note after the answer: nothing new to act on
            return [text("Nothing recorded yet.")]
        said = results[-1]
        called = req.call_named(said["tool_use_id"])
        content = str(said.get("content"))
        if called == RECALL and said.get("is_error") and tries < self.MAX_TRIES:
            if "still connecting" in content:
                return [tool_use(WAIT, {})]
            if SETTING_UP in content:
                return [tool_use(RECALL, {"task": "how invoice totals are rounded", "files": ["src/billing.py"]})]
        if called == WAIT:
            return [tool_use(RECALL, {"task": "how invoice totals are rounded", "files": ["src/billing.py"]})]
        return [text("Nothing recorded yet.")]


TIMINGS: list[str] = []  # first-run timings the e2e tests measured, printed at the end of the run


def pytest_terminal_summary(terminalreporter) -> None:
    if TIMINGS:
        terminalreporter.section("tether first run (measured, not asserted)")
        for line in TIMINGS:
            terminalreporter.write_line(line)
