"""Nocetta's Stop-hook crediting, re-typed against tether's real hooks: UserPromptSubmit, PostToolUse and Stop
run as hooks/hooks.json spells them, with real Claude Code payloads and transcripts, in a real git repository.
A credit is what lands in the per-machine usage log.

Peer: test/recall/recall.test.ts › runStopHook (four cases; an independent reader found them, an earlier port
said there were none) and src/recall/stop-hook.ts for the rest of its contract. Nocetta acks a memory a recall
surfaced (its recall log; it does not count its own injections) AND anchored to a file the turn edited.
tether's rule is a superset, and its own where the docstring says "tether:": a push of this session also
surfaces, and a citation by id (or `used_ids`) credits without an edit. Never by fuzzy text; the hook never
prints anything.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys

import pytest
from hooktools import RELATED, billing_repo, hook_env, payload, run_hook

SESSION = "4c2a9e7b-1d3f-4a5b-9c8d-7e6f5a4b3c21"
BACKOFF = "why is the retry backoff capped at 30 seconds for the payment gateway connections?"


@pytest.fixture(scope="module")
def billing_template(tmp_path_factory):
    """hooktools.billing_repo built once per module (three memories on two files, committed), copied per test."""
    from conftest import Repo

    base = tmp_path_factory.mktemp("billing-template")
    saved = os.environ.get("TETHER_HOME")
    os.environ["TETHER_HOME"] = str(base / "home")
    try:
        r = Repo(base / "repo")
        ids = billing_repo(r)
    finally:
        if saved is None:
            os.environ.pop("TETHER_HOME", None)
        else:
            os.environ["TETHER_HOME"] = saved
    return r.path, ids


@pytest.fixture
def billing(repo, billing_template):
    src, ids = billing_template
    shutil.rmtree(repo.path)
    shutil.copytree(src, repo.path, symlinks=True)
    return dict(ids)


@pytest.fixture
def env(repo, tmp_path):
    return hook_env(tmp_path, repo.path)


def credits(tether_home) -> list[list[str]]:
    out = []
    for log in tether_home.glob("state/*/usage.jsonl"):
        for line in log.read_text().splitlines():
            e = json.loads(line)
            if e["event"] == "credit":
                out.append(sorted(e["ids"]))
    return out


def push(repo, env, text: str) -> bytes:
    data = payload("user_prompt_submit.json", session=SESSION, repo=str(repo.path), transcript="", prompt=text)
    proc = run_hook("UserPromptSubmit", data, env)
    assert proc.returncode == 0
    return proc.stdout


def edit(repo, env, file: str, cwd=None):
    data = payload("post_tool_use_edit.json", session=SESSION, repo=str(cwd or repo.path), transcript="", file=file)
    proc = run_hook("PostToolUse", data, env, matcher_subject="Edit")
    assert (proc.returncode, proc.stdout) == (0, b"")


def stop(repo, env, message: str = "Done.", transcript: str = ""):
    data = payload("stop.json", session=SESSION, repo=str(repo.path), transcript=transcript, message=message)
    proc = run_hook("Stop", data, env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")  # citation only: it never prints


def transcript(tmp_path, repo, *assistant_blocks: dict) -> str:
    """A Claude Code transcript whose last turn is one typed prompt, then the given assistant content blocks."""

    def line(kind: str, uuid: str, message: dict) -> str:
        return json.dumps(
            {
                "parentUuid": None,
                "isSidechain": False,
                "userType": "external",
                "cwd": str(repo.path),
                "sessionId": SESSION,
                "version": "2.1.332",
                "type": kind,
                "uuid": uuid,
                "timestamp": "2026-11-30T10:00:00.000Z",
                "message": message,
            }
        )

    lines = [line("user", "u-1", {"role": "user", "content": "Look at the retry code"})]
    for n, block in enumerate(assistant_blocks):
        lines.append(
            line(
                "assistant",
                f"a-{n}",
                {
                    "id": f"msg_{n}",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-sonnet-4-5",
                    "content": [block],
                },
            )
        )
    path = tmp_path / "transcript.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


# -- surfaced ∩ edited --------------------------------------------------------------------------
def test_a_surfaced_memory_on_an_edited_file_is_credited(repo, billing, env, tether_home):
    """nocetta test/recall/recall.test.ts › runStopHook › acks a surfaced memory whose anchored file was edited this turn: a memory surfaced AND anchored to a file the agent
    edited this turn was load-bearing for that edit: record an ack (the edited path arrives absolute)"""
    assert billing["backoff"][:8].encode() in push(repo, env, BACKOFF)
    edit(repo, env, str(repo.path / "src/retry.py"))
    stop(repo, env)
    assert credits(tether_home) == [[billing["backoff"]]]


def test_an_edited_files_memory_the_session_never_surfaced_is_not_credited(repo, billing, env, tether_home):
    """nocetta test/recall/recall.test.ts › runStopHook › credits nothing when the memory was never surfaced: only surfaced ∩ edited is evidence of use; an
    edit alone is not (nothing surfaced: acked [])"""
    edit(repo, env, str(repo.path / "src/retry.py"))
    stop(repo, env)
    assert credits(tether_home) == []


def test_of_two_memories_on_the_edited_file_only_the_surfaced_one_is_credited(repo, billing, env, tether_home):
    """nocetta test/recall/recall.test.ts › runStopHook › credits nothing when the edited file has no surfaced memory (src/recall/stop-hook.ts: nodes().filter(surfaced.has(id) && anchored to an edited file)):
    the unsurfaced neighbour on the same file is not credited"""
    assert billing["total"][:8].encode() in push(repo, env, RELATED)
    edit(repo, env, str(repo.path / "src/billing.py"))
    stop(repo, env)
    assert credits(tether_home) == [[billing["total"]]]


def test_a_memory_surfaced_by_an_mcp_recall_of_the_session_is_credited_when_its_file_is_edited(
    repo, billing, env, tether_home, tmp_path
):
    """nocetta src/recall/stop-hook.ts › surfacedIds › every id a recall returned (the recall log) counts as surfaced (tether: a push too),
    not only pushes"""
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def recall():
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "tether", "mcp"],
            cwd=str(tmp_path),
            env={
                "TETHER_HOME": os.environ["TETHER_HOME"],
                "CLAUDE_PROJECT_DIR": str(repo.path),
                "CLAUDE_CODE_SESSION_ID": SESSION,
            },
        )
        with open(tmp_path / "mcp-stderr.log", "w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                res = await client.call_tool("recall", {"task": "retry backoff cap for the payment gateway"})
                return [i["id"] for i in json.loads(res.content[0].text)["data"]["items"]]

    assert billing["backoff"] in asyncio.run(recall())
    edit(repo, env, str(repo.path / "src/retry.py"))
    stop(repo, env)
    assert credits(tether_home) == [[billing["backoff"]]]


def test_a_surfaced_memory_whose_file_was_not_edited_is_not_credited(repo, billing, env, tether_home):
    """nocetta src/recall/stop-hook.ts › runStopHook › an answer that merely shares vocabulary with a memory is not
    evidence it was used (surfaced, not edited, not cited: no ack)"""
    assert billing["backoff"][:8].encode() in push(repo, env, BACKOFF)
    stop(repo, env, message="The retry backoff is capped at thirty seconds for the payment gateway.")
    assert credits(tether_home) == []


def test_a_memory_cited_by_id_is_credited(repo, billing, env, tether_home):
    """tether: a citation — the agent names the memory it used (not a Nocetta case: Nocetta acks only surfaced ∩ edited) — an ack
    without any edit"""
    stop(repo, env, message=f"I kept the 30 s cap, as tether:{billing['backoff'][:8]} says.")
    assert credits(tether_home) == [[billing["backoff"]]]


def test_a_memory_acknowledged_through_used_ids_is_credited(repo, billing, env, tether_home, tmp_path):
    """tether: `used_ids` on a later tool call acknowledges the memories the agent used (not a Nocetta case)"""
    t = transcript(
        tmp_path,
        repo,
        {
            "type": "tool_use",
            "id": "toolu_1",
            "name": "mcp__plugin_tether_tether__recall",
            "input": {"task": "retry budget", "used_ids": [billing["backoff"]]},
        },
        {"type": "text", "text": "Done."},
    )
    stop(repo, env, transcript=t)
    assert credits(tether_home) == [[billing["backoff"]]]


def test_a_turn_that_edited_nothing_and_cited_nothing_credits_nothing(repo, billing, env, tether_home):
    """nocetta test/recall/recall.test.ts › runStopHook › no-ops on a turn that edited nothing: acked [] (and nothing is written)"""
    push(repo, env, BACKOFF)
    stop(repo, env, message="Here is an explanation, with a hash deadbeef and no memory in it.")
    assert credits(tether_home) == []


def test_a_cwd_relative_edited_path_is_read_against_the_payloads_cwd(repo, billing, env, tether_home):
    """nocetta src/recall/stop-hook.ts › editedFilesOf › tool_input.file_path may be absolute or cwd-relative: resolved
    against the payload's cwd to the repo-relative path the anchors use"""
    assert billing["total"][:8].encode() in push(repo, env, RELATED)
    edit(repo, env, "billing.py", cwd=repo.path / "src")
    stop(repo, env)
    (ids,) = credits(tether_home)
    assert billing["total"] in ids


def test_reading_a_file_is_not_editing_it(repo, billing, env, tether_home, tmp_path):
    """nocetta src/recall/stop-hook.ts › EDIT_TOOLS: only the tools whose input names a file the agent changed (Edit,
    Write, MultiEdit) count; a Read of the anchored file does not"""
    assert billing["backoff"][:8].encode() in push(repo, env, BACKOFF)
    t = transcript(
        tmp_path,
        repo,
        {"type": "tool_use", "id": "toolu_r", "name": "Read", "input": {"file_path": str(repo.path / "src/retry.py")}},
        {"type": "text", "text": "The cap is there."},
    )
    stop(repo, env, transcript=t)
    assert credits(tether_home) == []


def test_a_write_recorded_only_in_the_transcript_counts_as_an_edit(repo, billing, env, tether_home, tmp_path):
    """nocetta src/recall/stop-hook.ts › EDIT_TOOLS: Write and MultiEdit name a changed file as Edit does (the turn's
    tool calls, here read from the transcript)"""
    assert billing["backoff"][:8].encode() in push(repo, env, BACKOFF)
    t = transcript(
        tmp_path,
        repo,
        {
            "type": "tool_use",
            "id": "toolu_w",
            "name": "Write",
            "input": {"file_path": str(repo.path / "src/retry.py"), "content": "x = 1\n"},
        },
        {"type": "text", "text": "Rewrote it."},
    )
    stop(repo, env, transcript=t)
    assert credits(tether_home) == [[billing["backoff"]]]
