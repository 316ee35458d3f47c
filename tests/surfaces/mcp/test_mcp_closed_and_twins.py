"""The MCP tools on what the CLI fixed in red team round 21: `supersede` without a reason,
`reanchor` of one twin, `check` of a closed memory."""

from __future__ import annotations

import asyncio

from mcptools import call, served

from tests.surfaces.cli.test_reanchor_twins import EGRESS, INGRESS, ROUTER, stored_discriminators

FETCH = "def fetch(url, retries=3, timeout=30):\n    for attempt in range(retries):\n        return get(url, timeout)\n"


def test_supersede_needs_no_reason_and_check_of_the_old_one_says_superseded(repo, tmp_path):
    """The CLI took no reason; the tool refused one missing (`Field required`). And `check` of the
    closed memory answered not_found."""
    repo.write("http.py", FETCH)
    repo.commit("http")

    async def go():
        async with served(repo, tmp_path) as client:
            old = (
                await call(client, "remember", body="fetch waits 30 seconds", kind="fact", anchors=["http.py::fetch"])
            )["data"]["id"]
            out = await call(client, "supersede", id=old, body="fetch waits 45 seconds")
            new = out["data"]["current"]["id"]
            assert out["data"]["superseded"]["retired_reason"] == "superseded"
            checked = await call(client, "check", ids=[old])
            assert [(i["status"], i["superseded_by"]) for i in checked["data"]] == [("superseded", [new])]

    asyncio.run(go())


def test_reanchor_of_one_twin_keeps_the_other(repo, tmp_path):
    repo.write("src/router.rs", ROUTER)
    repo.commit("router")
    mid = repo.remember("Both directions must use the same rotation so replies hash to one bucket", INGRESS, EGRESS)
    repo.replace("src/router.rs", "rotate_left(7)", "rotate_left(9)")

    async def go():
        async with served(repo, tmp_path) as client:
            out = await call(client, "reanchor", id=mid, anchors=[EGRESS])
            assert [(c["change"], c["was"]) for c in out["data"]["changes"]] == [
                ("kept", INGRESS),
                ("rebound", EGRESS),
            ]

    asyncio.run(go())
    assert stored_discriminators(repo) == ["Ingress", "Egress"]
