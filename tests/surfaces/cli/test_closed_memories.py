"""`show` and `check` of a memory that is no longer current: say how it was closed, never "active"
or "no memory with id"."""

from __future__ import annotations

FETCH = "def fetch(url, retries=3, timeout=30):\n    for attempt in range(retries):\n        return get(url, timeout)\n"


def superseded(repo) -> tuple[str, str]:
    repo.write("http.py", FETCH)
    repo.commit("http")
    old = repo.remember("The fetch timeout is 30 seconds because the load balancer idles out at 60", "http.py::fetch")
    new = repo.json(
        "supersede", old, "The fetch timeout is 45 seconds because the load balancer idles out at 90", "--reason", "LB"
    )["data"]["current"]["id"]
    return old, new


def test_show_of_a_superseded_memory_says_superseded_and_by_which(repo):
    """Red team, round 21: `show OLD` printed `active` and its JSON `"status": "active"`."""
    old, new = superseded(repo)
    assert repo.run("show", old).stdout.startswith(f"superseded  {old[:8]}")
    data = repo.json("show", old)["data"]
    assert (data["status"], data["superseded_by"], data["retired_reason"]) == ("superseded", [new], "superseded: LB")
    assert repo.json("show", new)["data"]["status"] == "active"


def test_show_of_a_retired_memory_says_retired_and_why(repo):
    repo.write("http.py", FETCH)
    repo.commit("http")
    mid = repo.remember("fetch is only called from the sync worker", "http.py::fetch")
    repo.run("retire", mid, "--reason", "the worker is gone")
    assert repo.run("show", mid).stdout.startswith(f"retired     {mid[:8]}")
    data = repo.json("show", mid)["data"]
    assert (data["status"], data["retired_reason"]) == ("retired", "the worker is gone")


def test_check_of_a_closed_memory_answers_about_it(repo):
    """Red team, round 21: `check OLD` said `error[not_found]: no memory with id ...`."""
    old, new = superseded(repo)
    out = repo.json("check", old)
    assert [(i["id"], i["status"], i["superseded_by"]) for i in out["data"]] == [(old, "superseded", [new])]
    assert out["meta"]["staleness"] == {"stale": 0, "invalidated": 0}
    assert repo.run("check", old, "--strict").stdout.startswith(f"superseded  {old[:8]}")
    assert repo.error("check", "0123abcd")["code"] == "not_found"  # an id no memory has still is
