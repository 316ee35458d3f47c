"""The real MCP server (`python -m tether mcp`) driven through the SDK's stdio client."""

from __future__ import annotations

import asyncio
import time

import orjson
import pytest
from mcptools import call, fail, ids, served

from tether.recall.answer import DEFAULT_BUDGET
from tether.store.model import now_iso
from tether.surfaces.mcp.tools import TOOLS as SERVED_TOOLS

SRC = '''\
import time


def fetch_with_retry(url, attempts=5):
    """Fetch a URL, retrying server errors."""
    for i in range(attempts):
        resp = get(url)
        if resp.status < 500:
            return resp
        time.sleep(2 ** i)
    return resp


class Pool:
    def acquire(self, batch_size=10):
        items = []
        for n in range(batch_size):
            items.append(self.take(n))
        return items
'''

RETRY = "Retries back off exponentially and only on 5xx responses: a 4xx never heals, so retrying it wastes the budget."
TOOLS = {fn.__name__ for fn, _ in SERVED_TOOLS}


@pytest.fixture
def code(repo):
    repo.write("src/http.py", SRC)
    repo.commit("code")
    return repo


def test_lists_every_tool_with_its_input_schema(code, tmp_path):
    async def go():
        async with served(code, tmp_path, explicit_root=True) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == TOOLS
            for t in tools.values():
                assert t.description and len(t.description) > 80
                assert t.input_schema["type"] == "object" and t.input_schema["properties"]
                # results are one text block, so no output schema (the spec ties one to structuredContent)
                assert t.output_schema is None
                for name, prop in t.input_schema["properties"].items():
                    assert prop.get("description"), f"{t.name}.{name} says nothing of what it means"
            assert tools["recall"].input_schema["required"] == ["task"]
            assert set(tools["recall"].input_schema["properties"]) == {
                "task",
                "files",
                "budget_tokens",
                "kinds",
                "as_of",
            }
            assert set(tools["remember"].input_schema["required"]) == {"body", "kind", "anchors"}
            assert tools["recall"].input_schema["properties"]["budget_tokens"]["default"] == DEFAULT_BUDGET
            assert tools["recall"].annotations.read_only_hint is True
            assert len(client.instructions.encode()) < 2048
            for word in ("recall", "remember", "reanchor", "supersede", "retire", "stale"):
                assert word in client.instructions

    asyncio.run(go())


# Every client puts the whole tool list in the model's context on every request (issue 23 item 8).
MAX_DEFINITION_CHARS = 8000


def test_tool_definitions_as_served_fit_in_8000_characters(code, tmp_path):
    async def go():
        async with served(code, tmp_path) as client:
            listed = await client.list_tools()  # as parsed from the wire: dumped back by alias, it is the wire JSON
            return [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in listed.tools]

    tools = asyncio.run(go())
    assert {t["name"] for t in tools} == TOOLS
    keys = ("name", "description", "inputSchema", "outputSchema")
    size = sum(len(orjson.dumps({k: t[k] for k in keys if k in t})) for t in tools)
    assert size < MAX_DEFINITION_CHARS, size


def test_a_result_carries_its_payload_once(code, tmp_path):
    async def go():
        async with served(code, tmp_path) as client:
            return await client.call_tool("check", {})

    res = asyncio.run(go())
    assert not res.is_error and res.structured_content is None
    assert [c.type for c in res.content] == ["text"]
    assert set(orjson.loads(res.content[0].text)) == {"data", "meta"}


def test_remember_recall_edit_stale_reanchor_active(code, tmp_path):
    async def go():
        async with served(code, tmp_path) as client:
            made = await call(
                client,
                "remember",
                body=RETRY,
                kind="gotcha",
                anchors=["src/http.py::fetch_with_retry"],
                evidence="pytest -k retry",
            )
            mid = made["data"]["id"]
            assert made["data"]["conflicts"] == []

            found = await call(client, "recall", task="is it worth retrying 4xx responses?", files=["src/http.py"])
            assert ids(found) == [mid]
            assert found["data"]["items"][0]["matched"] == ["retrying", "4xx", "responses"]

            code.replace("src/http.py", "if resp.status < 500:", "if resp.status < 400:")
            stale = await call(client, "recall", task="is it worth retrying 4xx responses?")
            assert ids(stale) == []
            (item,) = stale["data"]["stale"]
            assert (item["id"], item["status"], item["reason"], item["evidence"]) == (
                mid,
                "stale",
                "body_edited",
                "pytest -k retry",
            )
            assert "+        if resp.status < 400:" in item["anchors"][0]["diff"]

            checked = await call(client, "check")
            assert [(v["id"], v["status"], v["reason"]) for v in checked["data"]] == [(mid, "stale", "body_edited")]
            assert stale["meta"]["staleness"] == checked["meta"]["staleness"] == {"stale": 1, "invalidated": 0}

            again = await call(client, "reanchor", id=mid)
            assert (again["data"]["id"], again["data"]["status"]) == (mid, "active")
            healed = await call(client, "recall", task="is it worth retrying 4xx responses?")
            assert ids(healed) == [mid] and healed["data"]["stale"] == []
            assert (await call(client, "check", ids=[mid]))["meta"]["staleness"] == {"stale": 0, "invalidated": 0}

    asyncio.run(go())
    assert "Traceback" not in (tmp_path / "server-stderr.log").read_text()


def test_supersede_hides_the_old_memory_and_as_of_brings_it_back(code, tmp_path):
    async def go():
        async with served(code, tmp_path) as client:
            old = (
                await call(
                    client,
                    "remember",
                    body="The pool hands out 10 items per batch.",
                    kind="decision",
                    anchors=["src/http.py::Pool.acquire"],
                )
            )["data"]["id"]
            between = now_iso()
            time.sleep(0.05)
            out = await call(
                client, "supersede", id=old, body="The pool hands out 25 items per batch.", reason="more workers"
            )
            new = out["data"]["current"]["id"]
            assert out["data"]["superseded"]["valid_to"] is not None
            assert ids(await call(client, "recall", task="how many items per pool batch")) == [new]
            past = await call(client, "recall", task="how many items per pool batch", as_of=between)
            assert ids(past) == [old]
            retired = await call(client, "retire", id=new, reason="the pool was removed")
            assert retired["data"]["retired_reason"] == "the pool was removed"
            assert ids(await call(client, "recall", task="how many items per pool batch")) == []

    asyncio.run(go())


def test_remember_reports_duplicates_and_conflicts(code, tmp_path):
    async def go():
        async with served(code, tmp_path) as client:
            first = (
                await call(
                    client,
                    "remember",
                    body="The pool hands out 10 items per batch.",
                    kind="fact",
                    anchors=["src/http.py::Pool.acquire"],
                )
            )["data"]["id"]
            err = await fail(
                client,
                "remember",
                body="The pool hands out 10 items per batch!",
                kind="fact",
                anchors=["src/http.py::Pool.acquire"],
            )
            assert (err["code"], err["existing"]) == ("duplicate", first)
            out = await call(
                client,
                "remember",
                body="The pool hands out 50 items per batch.",
                kind="fact",
                anchors=["src/http.py::Pool.acquire"],
            )
            assert [(c["id"], c["reason"]) for c in out["data"]["conflicts"]] == [(first, "number_differs")]
            forced = await call(
                client,
                "remember",
                body="The pool hands out 10 items per batch!",
                kind="fact",
                anchors=["src/http.py::Pool.acquire"],
                force=True,
            )
            assert forced["data"]["id"] != first

    asyncio.run(go())


def test_bad_arguments_are_tool_errors_with_stable_codes_and_the_server_keeps_serving(code, tmp_path):
    async def go():
        async with served(code, tmp_path) as client:
            mid = (
                await call(client, "remember", body=RETRY, kind="gotcha", anchors=["src/http.py::fetch_with_retry"])
            )["data"]["id"]
            before = code.memory_files()
            cases = [
                ("recall", {"task": ""}, "invalid_input"),
                ("recall", {"task": "   "}, "invalid_input"),
                ("recall", {"task": "retry " * 5000}, "invalid_input"),
                ("recall", {"task": "retry", "budget_tokens": 0}, "invalid_input"),
                ("recall", {"task": "retry", "budget_tokens": -100}, "invalid_input"),
                ("recall", {"task": "retry", "kinds": ["rumour"]}, "invalid_input"),
                ("recall", {"task": "retry", "as_of": "the day before yesterday"}, "invalid_input"),
                ("recall", {"task": "retry", "files": ["../../etc/passwd"]}, "outside_root"),
                ("recall", {}, "invalid_input"),
                ("remember", {"body": "x", "kind": "rumour", "anchors": ["src/http.py"]}, "invalid_input"),
                ("remember", {"body": "Outside.", "kind": "fact", "anchors": ["../elsewhere.py::f"]}, "outside_root"),
                (
                    "remember",
                    {"body": "No such thing.", "kind": "fact", "anchors": ["src/http.py::nope"]},
                    "anchor_unresolved",
                ),
                (
                    "remember",
                    {
                        "body": "The deploy token is ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
                        "kind": "fact",
                        "anchors": ["src/http.py"],
                    },
                    "secret_detected",
                ),
                ("remember", {"body": "Anchored to nothing.", "kind": "fact", "anchors": []}, "invalid_input"),
                ("check", {"ids": ["ffffffff-0000"]}, "not_found"),
                ("reanchor", {"id": "ffffffff-0000"}, "not_found"),
                ("supersede", {"id": "ffffffff-0000", "body": "new", "reason": "why"}, "not_found"),
                ("retire", {"id": "ffffffff-0000", "reason": "gone"}, "not_found"),
                ("retire", {"id": mid, "reason": ""}, "invalid_input"),
            ]
            for tool, arguments, code_ in cases:
                err = await fail(client, tool, **arguments)
                assert err["code"] == code_, (tool, arguments, err)
                assert err["message"]
            assert code.memory_files() == before
            assert ids(await call(client, "recall", task="retrying 4xx responses")) == [mid]

    asyncio.run(go())
    assert "Traceback" not in (tmp_path / "server-stderr.log").read_text()


def test_a_lone_string_where_a_list_is_asked_for_is_a_list_of_one(code, tmp_path):
    """Models often send `"anchors": "src/a.py::f"`; a refusal would cost them a turn for nothing.
    The schema still asks for an array, and a list inside a string is not split."""

    async def go():
        async with served(code, tmp_path) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert tools["remember"].input_schema["properties"]["anchors"]["type"] == "array"
            made = await call(
                client, "remember", body=RETRY, kind="gotcha", anchors="src/http.py::fetch_with_retry", tags="http"
            )
            mid = made["data"]["id"]
            assert [a["symbol"] for a in made["data"]["anchors"]] == ["fetch_with_retry"]
            assert made["data"]["tags"] == ["http"]
            found = await call(
                client, "recall", task="is it worth retrying 4xx responses?", files="src/http.py", kinds="gotcha"
            )
            assert ids(found) == [mid]
            assert ids(await call(client, "recall", task="retrying 4xx responses", kinds="decision")) == []
            assert [v["id"] for v in (await call(client, "check", ids=mid, paths="src"))["data"]] == [mid]
            err = await fail(
                client,
                "remember",
                body="Two specs in one string.",
                kind="fact",
                anchors="src/http.py::fetch_with_retry, src/http.py::Pool.acquire",
            )
            assert err["code"] == "invalid_spec"

    asyncio.run(go())


def test_budget_cut_is_reported_with_real_numbers(code, tmp_path):
    async def go():
        async with served(code, tmp_path) as client:
            for sym, n in (("fetch_with_retry", 1), ("Pool.acquire", 2), ("Pool", 3)):
                body = f"Connection pooling note {n}: " + "sockets are reused across requests and kept warm. " * 10
                await call(client, "remember", body=body, kind="fact", anchors=[f"src/http.py::{sym}"], force=True)
            res = await client.call_tool("recall", {"task": "connection pooling sockets reused", "budget_tokens": 250})
            env = orjson.loads(res.content[0].text)
            assert -(-len(res.content[0].text) // 4) <= 250
            c = env["meta"]["completeness"]
            assert (c["matched"], c["omitted_reason"]) == (3, "budget") and c["returned"] < 3

    asyncio.run(go())


def test_affected_names_the_memories_an_uncommitted_edit_touched(code, tmp_path):
    async def go():
        async with served(code, tmp_path) as client:
            retry = await call(
                client, "remember", body=RETRY, kind="decision", anchors=["src/http.py::fetch_with_retry"]
            )
            await call(
                client,
                "remember",
                body="acquire takes batch_size items, one at a time.",
                kind="fact",
                anchors=["src/http.py::Pool.acquire"],
            )
            code.commit("memories")
            before = await call(client, "affected")
            code.replace("src/http.py", "resp.status < 500", "resp.status < 400")
            after = await call(client, "affected")
            bad = await fail(client, "affected", base="no-such-branch")
            option = await fail(client, "affected", base="-x")
            return retry["data"]["id"], before, after, bad, option

    mid, before, after, bad, option = asyncio.run(go())
    assert option["code"] == "invalid_input" and "--base" not in option["message"]  # the tool's argument is `base`
    assert before["data"] == [] and before["meta"]["changed_files"] == 0
    (item,) = after["data"]
    assert (item["id"], item["effect"], item["touched"]) == (mid, "stale", ["src/http.py::fetch_with_retry"])
    assert "resp.status < 400" in item["anchors"][0]["diff"]
    assert bad["code"] == "not_found"
