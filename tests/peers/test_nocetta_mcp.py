"""Nocetta's MCP server scenarios (test/mcp/server.test.ts), re-typed against tether's real MCP server:
`python -m tether mcp` started over stdio the way a client starts it, driven by the MCP SDK's client, on a
real git repository.

Nocetta's six tools map onto tether's: memory_search → recall, memory_remember → remember, memory_worklist →
check, memory_repair reanchor/retire → reanchor/retire, memory_supersede → supersede, memory_as_of → recall
with as_of.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from contextlib import asynccontextmanager

import orjson
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

FOO = """\
export function foo(): number {
  return 1;
}
"""
FOO_EDITED = FOO.replace("return 1;", "return 42;")
# Nocetta's six, mapped as above, and `affected` (issue 25), which Nocetta has no counterpart of
TOOLS = {"recall", "remember", "check", "affected", "reanchor", "supersede", "retire"}


@pytest.fixture
def foo(repo):
    repo.write("src/foo.ts", FOO)
    repo.commit("foo")
    return repo


@asynccontextmanager
async def served(repo, tmp_path):
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "tether", "mcp"],
        cwd=str(tmp_path),
        env={"TETHER_HOME": os.environ["TETHER_HOME"], "CLAUDE_PROJECT_DIR": str(repo.path)},
    )
    with open(tmp_path / "mcp-stderr.log", "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            yield client


def run(repo, tmp_path, script):
    """Run `script(client)` against a fresh server on `repo`; returns what it returns."""

    async def go():
        async with served(repo, tmp_path) as client:
            return await script(client)

    return asyncio.run(go())


async def ok(client, tool: str, **arguments) -> dict:
    res = await client.call_tool(tool, arguments)
    assert not res.is_error, res.content[0].text
    return orjson.loads(res.content[0].text)


async def refused(client, tool: str, **arguments) -> tuple[dict, str]:
    res = await client.call_tool(tool, arguments)
    assert res.is_error
    text = res.content[0].text
    return orjson.loads(text)["error"], text


def ids(env: dict, key: str = "items") -> list[str]:
    return [i["id"] for i in env["data"][key]]


@pytest.fixture(scope="module")
def handshake(tmp_path_factory):
    """One server's instructions and tools/list (the same for every repository), fetched once for this module."""
    from conftest import Repo

    base = tmp_path_factory.mktemp("mcp-handshake")
    saved = os.environ.get("TETHER_HOME")
    os.environ["TETHER_HOME"] = str(base / "home")
    try:
        r = Repo(base / "repo")
        r.write("src/foo.ts", FOO)
        r.commit("foo")

        async def script(client):
            return client.instructions, (await client.list_tools()).tools

        return run(r, base, script)
    finally:
        if saved is None:
            os.environ.pop("TETHER_HOME", None)
        else:
            os.environ["TETHER_HOME"] = saved


def test_exactly_the_tools_each_with_a_description(handshake):
    """nocetta test/mcp/server.test.ts › tools/list returns exactly the six tools, each with a non-empty description"""
    _, tools = handshake
    assert {t.name for t in tools} == TOOLS
    assert all(t.description and t.description.strip() for t in tools)


def test_the_instructions_carry_the_workflow_verbs_and_the_guardrail(handshake):
    """nocetta test/mcp/server.test.ts › the initialize response carries the workflow contract: the loop verbs, the
    store path, the guardrail (verbs and guardrail here; the store path below)"""
    text, _ = handshake
    for verb in ("recall", "remember", "check", "supersede"):
        assert f"`{verb}`" in text
    assert "never store secrets" in text.lower()


def test_the_instructions_name_the_store(handshake):
    """nocetta test/mcp/server.test.ts › the initialize response carries the workflow contract: the loop verbs, the
    store path, the guardrail (the store path: memories are files under .tether/memories/, committed with the code)"""
    text, _ = handshake
    assert ".tether/memories/" in text


def test_the_instructions_never_restate_a_tool_description(handshake):
    """nocetta test/mcp/server.test.ts › instructions carry the when-and-why, never a tool description's schema wording
    verbatim"""
    text, tools = handshake
    described = 0
    for t in tools:
        for name, prop in t.input_schema["properties"].items():
            desc = prop.get("description", "")
            described += bool(desc)
            for clause in re.split(r"[.;:()]\s*", desc):
                assert len(clause) < 30 or clause not in text, (t.name, name, clause)
    assert described >= 6  # the mechanics do live in the schema


def test_remember_resolves_the_anchor_and_a_recall_on_its_file_finds_it(foo, tmp_path):
    """nocetta test/mcp/server.test.ts › memory_remember resolves the anchor; the shaped result carries id and anchor;
    a files_in_play search finds it (the written file's repo-relative path too; tether adds no staging note)"""

    async def script(client):
        made = await ok(client, "remember", body="foo returns the number one", kind="fact", anchors=["src/foo.ts::foo"])
        found = await ok(client, "recall", task="what does this file do", files=["src/foo.ts"])
        return made, found

    made, found = run(foo, tmp_path, script)
    data = made["data"]
    assert [a["spec"] for a in data["anchors"]] == ["src/foo.ts::foo"]
    assert re.fullmatch(r"\.tether/memories/.*\.md", data["file"]) and (foo.path / data["file"]).is_file()
    assert ids(found) == [data["id"]]


def test_an_explicit_summary_comes_back_on_recall(foo, tmp_path):
    """nocetta test/mcp/server.test.ts › memory_remember accepts an explicit summary and surfaces it on recall"""

    async def script(client):
        await ok(
            client,
            "remember",
            body="foo returns the number one",
            summary="foo returns 1",
            kind="fact",
            anchors=["src/foo.ts::foo"],
        )
        return await ok(client, "recall", task="what does foo return", files=["src/foo.ts"])

    (item,) = run(foo, tmp_path, script)["data"]["items"]
    assert item["summary"] == "foo returns 1"


def test_a_secret_is_a_tool_error_and_nothing_is_written(foo, tmp_path):
    """nocetta test/mcp/server.test.ts › a secret body comes back as an isError result carrying the never-leak refusal,
    and nothing is written"""

    async def script(client):
        err, text = await refused(
            client,
            "remember",
            body="the deploy token is ghp_2mEqQQNosSKG6Ccs1F42tJJL9b1uzWOP2rOv",
            kind="fact",
            anchors=["src/foo.ts"],
        )
        found = await ok(client, "recall", task="deploy token")
        return err, text, found

    err, text, found = run(foo, tmp_path, script)
    assert err["code"] == "secret_detected" and "ghp_2mEq" not in text
    assert foo.memory_files() == {} and ids(found) == []


def test_recall_results_carry_id_kind_anchor_and_summary_but_never_a_hash_or_a_validity_window(foo, tmp_path):
    """nocetta test/mcp/server.test.ts › memory_search shapes each line with id/kind/authority/anchor/body — and never a
    hash (and current results carry no validity window)"""

    async def script(client):
        await ok(client, "remember", body="foo returns the number one", kind="fact", anchors=["src/foo.ts::foo"])
        res = await client.call_tool("recall", {"task": "foo returns", "files": ["src/foo.ts"]})
        return res.content[0].text

    text = run(foo, tmp_path, script)
    (item,) = orjson.loads(text)["data"]["items"]
    assert {"id", "kind", "anchors", "summary"} <= set(item)
    assert [(a["path"], a["symbol"]) for a in item["anchors"]] == [("src/foo.ts", "foo")]
    assert "hash" not in text and "valid_from" not in text and "valid_to" not in text


def test_a_recall_with_nothing_to_search_is_refused(foo, tmp_path):
    """nocetta test/mcp/server.test.ts › memory_search with neither files_in_play nor keyword refuses instead of
    returning an empty page"""

    async def script(client):
        empty, _ = await refused(client, "recall", task="   ", files=["src/foo.ts"])
        missing, text = await refused(client, "recall")
        return empty, missing, text

    empty, missing, text = run(foo, tmp_path, script)
    assert empty["code"] == missing["code"] == "invalid_input" and "task" in text


def test_check_lists_the_drifted_memory_with_its_reason_and_where_and_the_instructions_say_what_to_do(foo, tmp_path):
    """nocetta test/mcp/server.test.ts › memory_worklist lists the drifted node with its reason verbatim, its
    artifactPath, and the repair pointer (tether's pointer is in the instructions, not the result: DIFFERENCES.md)"""

    async def script(client):
        await ok(client, "remember", body="foo returns the number one", kind="fact", anchors=["src/foo.ts::foo"])
        foo.write("src/foo.ts", FOO_EDITED)
        return await ok(client, "check"), client.instructions

    checked, instructions = run(foo, tmp_path, script)
    (item,) = checked["data"]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert item["anchors"][0]["path"] == "src/foo.ts" and "+  return 42;" in item["anchors"][0]["diff"]
    assert checked["meta"]["quarantined"] == []
    assert "stale" in instructions and "`reanchor`" in instructions


def test_reanchor_clears_the_drift_without_changing_the_belief(foo, tmp_path):
    """nocetta test/mcp/server.test.ts › memory_repair reanchor clears the worklist without changing the belief"""

    async def script(client):
        mid = (
            await ok(client, "remember", body="foo returns the number one", kind="fact", anchors=["src/foo.ts::foo"])
        )["data"]["id"]
        foo.write("src/foo.ts", FOO_EDITED)
        assert (await ok(client, "check"))["data"][0]["status"] == "stale"
        again = await ok(client, "reanchor", id=mid)
        return mid, again, await ok(client, "check")

    mid, again, checked = run(foo, tmp_path, script)
    assert (again["data"]["id"], again["data"]["status"]) == (mid, "active")
    assert [(i["id"], i["status"]) for i in checked["data"]] == [(mid, "active")]
    assert foo.json("show", mid)["data"]["memory"]["body"] == "foo returns the number one"


def test_retire_takes_the_memory_out_of_recall(foo, tmp_path):
    """nocetta test/mcp/server.test.ts › memory_repair retire removes the node from current recall"""

    async def script(client):
        mid = (
            await ok(client, "remember", body="foo returns the number one", kind="fact", anchors=["src/foo.ts::foo"])
        )["data"]["id"]
        retired = await ok(client, "retire", id=mid, reason="foo is gone; the claim has no subject")
        return mid, retired, await ok(client, "recall", task="what does foo return", files=["src/foo.ts"])

    mid, retired, found = run(foo, tmp_path, script)
    assert (retired["data"]["id"], retired["data"]["retired_reason"]) == (mid, "foo is gone; the claim has no subject")
    assert ids(found) == [] and ids(found, "stale") == []


def test_supersede_serves_the_new_belief_and_as_of_the_old_time_serves_the_old(foo, tmp_path):
    """nocetta test/mcp/server.test.ts › memory_supersede: search resolves to the new belief, and memory_as_of at the
    old txnTime still returns the old (with its validity window, closure included)"""

    async def script(client):
        v1 = (await ok(client, "remember", body="foo returns one", kind="fact", anchors=["src/foo.ts::foo"]))["data"]
        await asyncio.sleep(0.02)
        out = await ok(client, "supersede", id=v1["id"], body="foo now returns 42", reason="changed")
        now = await ok(client, "recall", task="what does foo return", files=["src/foo.ts"])
        then = await ok(client, "recall", task="what does foo return", files=["src/foo.ts"], as_of=v1["valid_from"])
        return v1, out, now, then

    v1, out, now, then = run(foo, tmp_path, script)
    tip = out["data"]["current"]["id"]
    assert tip != v1["id"] and ids(now) == [tip]
    (old,) = then["data"]["items"]
    assert old["id"] == v1["id"]
    assert (old["valid_from"], old["valid_to"]) == (v1["valid_from"], out["data"]["superseded"]["valid_to"])


def test_an_unknown_symbol_is_an_honest_tool_error(foo, tmp_path):
    """nocetta test/mcp/server.test.ts › honest refusals surface as isError text: memory_remember with an unknown symbol
    name"""

    async def script(client):
        return await refused(
            client,
            "remember",
            body="a claim about a symbol that isn't there",
            kind="fact",
            anchors=["src/foo.ts::nope"],
        )

    err, text = run(foo, tmp_path, script)
    assert err["code"] == "anchor_unresolved" and "'nope'" in err["message"]
    assert foo.memory_files() == {}
