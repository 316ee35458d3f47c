"""`tether stats` on real repositories: counts from real recalls, hooks and credits; the quadrants."""

from __future__ import annotations

import json
import math
from datetime import date

import pytest
from hooktools import RELATED, billing_repo, context_of, hook_env, payload, run_hook

SESSION = "3e9d2b1a-7c4f-4a8e-b6d5-1f0e2c3b4a59"

GEO = '''import math
import re


def haversine(lat1, lon1, lat2, lon2):
    """Great-circle distance in kilometres between two points given in degrees."""
    r = 6371.0
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


def slugify(title):
    """Lower-case the title and join its words with hyphens."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words)
'''

NET = '''def parse_port(value):
    port = int(value)
    if not 1024 <= port <= 65535:
        raise ValueError(f"port {port} out of range")
    return port


def clamp(x, lo, hi):
    """Limit x to the closed interval [lo, hi]."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
'''

# Each built to land in one quadrant: two are recalled, two never surface; two add what the code
# does not say, two paraphrase it in its own names.
QUADRANT_MEMORIES = {
    "working": (
        "Distances assume a spherical earth on purpose: the ellipsoidal Vincenty formula was forty times "
        "slower for delivery zone matching and its accuracy gain is below GPS noise.",
        "src/geo.py::haversine",
        "decision",
    ),
    "redundant": (
        "slugify lower-cases the title, finds the words made of a-z and 0-9 with re.findall and joins "
        "the words with hyphens.",
        "src/geo.py::slugify",
        "fact",
    ),
    "dormant": (
        "Ports under 1024 are refused because the container runs as an unprivileged user; ops declined "
        "to grant CAP_NET_BIND_SERVICE.",
        "src/net.py::parse_port",
        "decision",
    ),
    "prunable": (
        "clamp limits x to the closed interval: returns lo if x is below lo, hi if x is above hi, otherwise x.",
        "src/net.py::clamp",
        "fact",
    ),
}


def stats(repo) -> dict:
    return repo.json("stats")["data"]


def recall(repo, task: str, *extra: str) -> dict:
    return repo.json("recall", task, *extra)


def served(env: dict) -> list[str]:
    return [i["id"] for key in ("items", "stale") for i in env["data"][key]]


# -- a scripted day: recalls, a push, a credit -------------------------------------------------
def test_recalls_pushes_and_stop_credits_add_up_exactly_in_stats_json(repo, tmp_path):
    ids = billing_repo(repo)
    env = hook_env(tmp_path, repo.path)

    first = recall(repo, "why do invoice totals round each line to cents", "--limit", "1")
    second = recall(repo, "retry backoff cap for the payment gateway", "--limit", "1")
    assert served(first) == [ids["total"]] and served(second) == [ids["backoff"]]

    push = run_hook(
        "UserPromptSubmit",
        payload("user_prompt_submit.json", session=SESSION, repo=str(repo.path), transcript="", prompt=RELATED),
        env,
    )
    injected = context_of(push)
    assert ids["total"][:8] in injected

    edit = payload(
        "post_tool_use_edit.json",
        session=SESSION,
        repo=str(repo.path),
        transcript="",
        file=str(repo.path / "src/retry.py"),
    )
    assert run_hook("PostToolUse", edit, env, matcher_subject="Edit").returncode == 0
    # the edit alone credits nothing (backoff was recalled outside this session); the citation does
    cap = f"Kept the cap (tether:{ids['backoff'][:8]})."
    stop = run_hook("Stop", payload("stop.json", session=SESSION, repo=str(repo.path), transcript="", message=cap), env)
    assert (stop.returncode, stop.stdout) == (0, b"")

    s = stats(repo)
    assert s["memories"]["total"] == 3 and s["memories"]["by_status"] == {"active": 3, "stale": 0, "invalidated": 0}
    assert s["memories"]["by_kind"] == {"decision": 1, "fact": 0, "gotcha": 1, "failed-attempt": 0, "convention": 1}
    u = s["usage"]
    assert (u["recalls"], u["pushes"], u["credits"]) == (2, 1, 1)
    receipts = [first["meta"]["receipt"], second["meta"]["receipt"]]
    assert u["tokens"]["served"] == first["meta"]["tokens"]["used"] + second["meta"]["tokens"]["used"]
    assert u["tokens"]["replaced"] == sum(r["replaced_tokens"] for r in receipts)
    assert u["tokens"]["files"] == 2
    assert u["tokens"]["ratio"] == round(u["tokens"]["replaced"] / u["tokens"]["served"], 2)
    assert u["tokens"]["pushed"] == math.ceil(len(injected) / 4)
    top = {row["id"]: (row["pushes"], row["recalls"], row["credits"]) for row in s["top"]}
    assert top == {ids["total"]: (1, 1, 0), ids["backoff"]: (0, 1, 1)}
    assert [row["id"] for row in s["top"]] == sorted([ids["total"], ids["backoff"]])  # tie on uses: by id
    assert s["daily"]["to"] == date.today().isoformat() and len(s["daily"]["total"]) == 30
    assert (s["daily"]["recalls"][-1], s["daily"]["pushes"][-1], s["daily"]["credits"][-1]) == (2, 1, 1)
    assert sum(s["daily"]["total"]) == 4
    surfaced = {r["id"] for q in ("working", "redundant") for r in s["quadrants"][q]}
    assert surfaced == {ids["total"], ids["backoff"]}


def test_mcp_recalls_are_logged_with_one_session_per_server_process(repo, tmp_path, tether_home):
    import asyncio

    from mcptools import call, served as server

    ids = billing_repo(repo)

    async def go():
        async with server(repo, tmp_path) as client:
            a = await call(client, "recall", task="why do invoice totals round each line to cents")
            b = await call(client, "recall", task="retry backoff cap for the payment gateway")
        async with server(repo, tmp_path) as client:
            c = await call(client, "recall", task="retry backoff cap for the payment gateway")
        return a, b, c

    envs = asyncio.run(go())
    (log,) = tether_home.glob("state/*/usage.jsonl")
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["event"] for e in events] == ["recall"] * 3
    assert [e["ids"] for e in events] == [served(env) for env in envs]
    assert [e["tokens"] for e in events] == [env["meta"]["tokens"]["used"] for env in envs]
    assert [e["replaced"] for e in events] == [env["meta"]["receipt"]["replaced_tokens"] for env in envs]
    sessions = [e["session"] for e in events]
    assert sessions[0] == sessions[1] != sessions[2] and all(sessions)
    assert ids["backoff"] in events[1]["ids"]
    assert stats(repo)["usage"]["recalls"] == 3


def test_mcp_recalls_join_the_claude_code_session(repo, tmp_path, tether_home):
    """Claude Code gives its MCP servers the session id the hooks see: recalls, pushes and credits
    of one session then share it in the usage log."""
    import asyncio

    from mcptools import call, served as server

    billing_repo(repo)

    async def go():
        async with server(repo, tmp_path, session="sess-42") as client:
            await call(client, "recall", task="why do invoice totals round each line to cents")

    asyncio.run(go())
    (log,) = tether_home.glob("state/*/usage.jsonl")
    assert [json.loads(line)["session"] for line in log.read_text().splitlines()] == ["sess-42"]


def test_cli_recalls_are_logged_without_a_session(repo, tether_home):
    billing_repo(repo)
    out = recall(repo, "why do invoice totals round each line to cents")
    repo.run("recall", "why do invoice totals round each line to cents")  # human output is logged too
    (log,) = tether_home.glob("state/*/usage.jsonl")
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["event"], e["session"]) for e in events] == [("recall", None), ("recall", None)]
    assert events[0]["ids"] == served(out) and events[0]["files"] == out["meta"]["receipt"]["files"]


# -- quadrants ---------------------------------------------------------------------------------
@pytest.fixture
def quadrant_repo(repo):
    repo.write("src/geo.py", GEO)
    repo.write("src/net.py", NET)
    repo.commit("code")
    return repo, {q: repo.remember(text, anchor, kind=kind) for q, (text, anchor, kind) in QUADRANT_MEMORIES.items()}


def test_each_quadrant_holds_the_memory_built_for_it(quadrant_repo):
    repo, ids = quadrant_repo
    assert served(recall(repo, "why a spherical earth for delivery zone distances", "--limit", "1")) == [ids["working"]]
    assert served(recall(repo, "how does slugify turn a title into words", "--limit", "1")) == [ids["redundant"]]
    s = stats(repo)
    q = s["quadrants"]
    assert {name: [row["id"] for row in rows] for name, rows in q.items()} == {name: [ids[name]] for name in q}
    said = {name: rows[0]["said"] for name, rows in q.items()}
    threshold = s["restates"]["threshold"]
    assert said["working"] < threshold and said["dormant"] < threshold
    assert said["redundant"] >= threshold and said["prunable"] >= threshold
    assert q["working"][0]["recalls"] == 1 and q["dormant"][0]["uses"] == 0
    # what a memory adds is the terms its code lacks
    assert {"assume", "spherical", "earth"} <= set(q["working"][0]["adds"])
    assert q["prunable"][0]["adds"] == ["otherwise"]  # "limits", "closed", "interval": the docstring says them


def test_a_memory_whose_code_is_gone_adds_something_and_stays_off_the_prunable_list(quadrant_repo):
    repo, ids = quadrant_repo
    repo.write("src/net.py", NET.split("\n\ndef clamp")[0] + "\n")
    s = stats(repo)
    assert [r["id"] for r in s["quadrants"]["prunable"]] == [ids["redundant"]]  # never recalled in this test
    assert ids["prunable"] in [r["id"] for r in s["quadrants"]["dormant"]]
    (gone,) = s["stale"]["memories"]
    assert (gone["id"], gone["status"], gone["reason"]) == (ids["prunable"], "invalidated", "anchor_deleted")
    assert s["stale"]["reasons"] == {"anchor_deleted": 1}


def test_stats_lists_the_stale_backlog_with_reasons_and_where(quadrant_repo):
    repo, ids = quadrant_repo
    repo.replace("src/net.py", "1024 <= port", "1 <= port")
    s = stats(repo)
    assert s["memories"]["by_status"] == {"active": 3, "stale": 1, "invalidated": 0}
    (row,) = s["stale"]["memories"]
    assert (row["id"], row["status"], row["reason"]) == (ids["dormant"], "stale", "body_edited")
    assert row["anchors"] == [
        {"type": "symbol", "path": "src/net.py", "symbol": "parse_port", "status": "stale", "reason": "body_edited"}
    ]
    text = repo.run("stats").stdout
    assert "stale       1 to review (body_edited 1)" in text
    assert f"{ids['dormant'][:8]}  body_edited" in text and "[src/net.py::parse_port]" in text
