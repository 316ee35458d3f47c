"""Write-time overlap after an anchor was followed: memories are compared where their anchors are now."""

from __future__ import annotations

FETCH = (
    "def fetch(url, retries=3, timeout=30):\n    for attempt in range(retries):\n        try:\n"
    "            return session.get(url, timeout=timeout)\n        except TimeoutError:\n"
    "            time.sleep(2 ** attempt)\n"
)
FIRST = "The fetch timeout is 30 seconds because the load balancer idles out at 60"


def renamed(repo) -> str:
    repo.write("http.py", FETCH)
    repo.commit("http")
    old = repo.remember(FIRST, "http.py::fetch")
    repo.replace("http.py", "def fetch(", "def fetch_url(")
    item = repo.check()[old]
    assert (item["status"], item["anchors"][0]["symbol"]) == ("active", "fetch_url")  # followed
    return old


def test_a_copy_on_the_new_name_of_a_followed_rename_is_a_duplicate(repo):
    """Red team, round 21: after `fetch` was renamed `fetch_url` (the anchor followed), a reworded
    copy anchored to `http.py::fetch_url` was stored: anchors were compared by the stored locator."""
    old = renamed(repo)
    err = repo.error(
        "remember",
        "The fetch timeout is 30 seconds, because the load balancer idles out at 60.",
        "--anchor",
        "http.py::fetch_url",
    )
    assert err["code"] == "duplicate" and err["existing"] == old


def test_a_conflict_on_the_new_name_of_a_followed_rename_is_recorded_on_both_sides(repo):
    """Red team, round 21: the same rename; a "60 seconds" variant printed `possible conflict` but
    recorded no `links.contradicts`, so recall marked neither side."""
    old = renamed(repo)
    new = repo.json(
        "remember",
        "The fetch timeout is 60 seconds because the load balancer idles out at 90",
        "--anchor",
        "http.py::fetch_url",
    )["data"]
    assert [(c["id"], c["reason"]) for c in new["conflicts"]] == [(old, "number_differs")]
    assert new["links"] == {"contradicts": [old]}
    items = {i["id"]: i for i in repo.json("recall", "fetch timeout load balancer")["data"]["items"]}
    assert (items[old]["conflicts"], items[new["id"]]["conflicts"]) == ([new["id"]], [old])
