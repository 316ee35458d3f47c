"""The very first session (issue 23, item 4), in Claude Code's default deferred tool-search mode.

An empty plugin data dir, nothing held back: Claude Code starts, the plugin's MCP server (the
launcher's bridge) and its SessionStart hook both find no venv and the build starts at once. The
model does what a real one does in this mode: the tether tools are listed only by name, so it
loads recall's schema with ToolSearch, then calls it; a call the bridge could not serve yet is
answered `venv_building` (retryable) and the model calls again.

Asserted: the tools really are deferred; every answer is either the real server's envelope or a
retryable `venv_building`; with uv on PATH the very first call is served; nothing is logged as a
hook failure and `tether doctor` says so. Measured (printed at the end of the run, never asserted:
tests/bench/first_run.py holds the targets): the build's seconds, and the time from Claude Code's
start to the first successful tool result.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from .claude_code import TOOL_PREFIX
from .conftest import TIMINGS
from .e2e_world import make_world
from .scripted_model import ScriptedModel, text, tool_use

RECALL = TOOL_PREFIX + "recall"
SEARCH = "ToolSearch"  # Claude Code's own: loads a deferred tool's schema
ARGS = {"task": "how invoice totals are rounded", "files": ["src/billing.py"]}


class FirstCall:
    """ToolSearch for recall's schema (unless it is already offered), recall; again while tether builds."""

    MAX_TRIES = 20

    def __call__(self, req):
        if not req.is_agent:
            return None
        if not req.raw_calls():
            return (
                [tool_use(RECALL, ARGS)] if RECALL in req.tools else [tool_use(SEARCH, {"query": "select:" + RECALL})]
            )
        results = req.new_results()
        if not results:
            return [text("Nothing recorded yet.")]
        said = results[-1]
        called = req.call_named(said["tool_use_id"])
        tries = sum(1 for b in req.raw_calls() if b["name"] == RECALL)
        if called == SEARCH or (called == RECALL and said.get("is_error") and tries < self.MAX_TRIES):
            return [tool_use(RECALL, ARGS)]
        return [text("Nothing recorded yet.")]


def uv_on_path(tmp: Path) -> str:
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    assert uv, "uv is in the [test] extras: pip install -e '.[test]'"
    bin_ = tmp / "uv-bin"
    bin_.mkdir()
    (bin_ / "uv").symlink_to(uv)
    return f"{bin_}{os.pathsep}{os.environ.get('PATH', '')}"


@pytest.mark.parametrize("installer", ["uv", "pip"])
def test_the_first_session_in_deferred_tool_search_mode_gets_a_real_answer(claude_exe, tmp_path, installer):
    data = tmp_path / "plugin-data"
    data.mkdir()
    with ScriptedModel(FirstCall()) as model:
        world = make_world(tmp_path / "first", claude_exe, data, model)
        world.claude.extra_env["ENABLE_TOOL_SEARCH"] = None  # Claude Code's default: MCP tools deferred
        if installer == "uv":
            world.claude.extra_env["PATH"] = uv_on_path(tmp_path)
        else:
            world.claude.extra_env["TETHER_INSTALLER"] = "pip"
        session = world.run("FIRST USE: what does tether know about invoice totals?", allowed=[RECALL, SEARCH])

    first = model.agent_requests()[0]
    assert RECALL not in first.tools and SEARCH in first.tools, first.tools  # deferred ...
    assert RECALL in first.all_text()  # ... and named to the model, to load with ToolSearch

    calls = [b for r in model.requests for b in r.reply if b.get("type") == "tool_use" and b["name"] == RECALL]
    results = [model.result_of(c) for c in calls]
    for r in results[:-1]:
        err = json.loads(r["text"])["error"]
        assert r["is_error"] and (err["code"], err["retryable"]) == ("venv_building", True), r
    last = results[-1]
    assert not last["is_error"], last["text"]
    env = json.loads(last["text"])
    assert set(env) == {"data", "meta"} and env["data"]["items"] == []  # the real server's envelope
    if installer == "uv":
        assert len(calls) == 1, results  # the build is done before the bridge stops holding the call

    history = [json.loads(line) for line in (data / "launcher.jsonl").read_text().splitlines()]
    assert [(h["action"], h.get("installer")) for h in history] == [
        ("install-start", None),
        ("install-done", installer),
    ]
    assert world.hook_failures() == []
    doctor = world.cli("doctor", check=False)
    assert "no hook failures recorded" in doctor.stdout, doctor.stdout

    served = next(
        r for r in model.requests if any(res.get("tool_use_id") == calls[-1]["id"] for res in r.new_results())
    )
    asked = next(r for r in model.requests if any(b.get("id") == calls[0]["id"] for b in r.reply))
    TIMINGS.append(
        f"{installer}: venv built in {history[-1]['seconds']:.1f} s; first recall asked "
        f"{asked.at - session.started:.1f} s after Claude Code started, first successful result "
        f"{served.at - session.started:.1f} s after it ({len(calls)} call{'s' if len(calls) > 1 else ''})"
    )
