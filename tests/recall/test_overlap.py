"""Write-time overlap through the real CLI: what a red team found about duplicates and conflicts."""

from __future__ import annotations

import pytest

CODE = "def encode(x):\n    y = x * 3\n    z = y - 7\n    return z + x * 11\n"
LONG = (
    "Percent-encoding uses %20 for a space, never +, since 0.18 (issue #2074). Servers that expect + must "
    "be given the form encoded by the caller; the default stays RFC 3986."
)


def seeded(repo) -> str:
    repo.write("enc.py", CODE)
    repo.commit("enc")
    return repo.remember(LONG, "enc.py::encode")


def test_a_memory_that_restates_part_of_one_on_the_same_anchor_is_a_duplicate(repo):
    first = seeded(repo)
    err = repo.error(
        "remember",
        "Percent-encoding uses %20 for a space, never +, since 0.18 (issue #2074).",
        "--anchor",
        "enc.py::encode",
    )
    assert err["code"] == "duplicate" and err["existing"] == first


def test_stating_fewer_of_the_same_numbers_is_no_conflict_and_a_different_number_is(repo):
    seeded(repo)
    fewer = repo.json(
        "remember",
        "Spaces are encoded as %20 since version 0.18 for every form field sent.",
        "--anchor",
        "enc.py::encode",
    )["data"]
    assert fewer["conflicts"] == []  # 3986 is simply not mentioned: not a contradiction
    other = repo.json(
        "remember",
        "Spaces are encoded as %20 since version 0.19 for every form field sent.",
        "--anchor",
        "enc.py::encode",
    )["data"]
    assert [c["reason"] for c in other["conflicts"]] == ["number_differs"]


def test_the_same_claim_with_another_symbol_is_a_conflict_not_a_duplicate(repo):
    """'+' against '%20' in otherwise identical claims on one anchor: both stored, the second flagged as
    conflicting with the first, and recall marks both sides."""
    repo.write("enc.py", CODE)
    repo.commit("enc")
    plus = repo.remember("encode writes a space in a query string as + for every form field.", "enc.py::encode")
    out = repo.json(
        "remember", "encode writes a space in a query string as %20 for every form field.", "--anchor", "enc.py::encode"
    )["data"]
    assert [(c["id"], c["reason"]) for c in out["conflicts"]] == [(plus, "symbol_differs")]
    items = {
        i["id"]: i for i in repo.json("recall", "how does encode write a space in a query string")["data"]["items"]
    }
    assert (items[plus]["conflicts"], items[out["id"]]["conflicts"]) == ([out["id"]], [plus])


def test_a_restatement_with_the_same_symbols_is_still_a_duplicate(repo):
    """The symbol check needs each side to state one the other lacks: the same `+` reworded is a duplicate."""
    repo.write("enc.py", CODE)
    repo.commit("enc")
    first = repo.remember("encode writes a space in a query string as + for every form field.", "enc.py::encode")
    err = repo.error(
        "remember", "encode writes a space in a query string as + for every form field", "--anchor", "enc.py::encode"
    )
    assert err["code"] == "duplicate" and err["existing"] == first


FETCH = (
    "def fetch(url, retries=3, timeout=30):\n    for attempt in range(retries):\n        try:\n"
    "            return session.get(url, timeout=timeout)\n        except TimeoutError:\n"
    "            time.sleep(2 ** attempt)\n"
)


@pytest.mark.parametrize(
    ("first", "second", "reason"),
    [
        (
            "Retry backoff base is three seconds and doubles after each failed attempt.",
            "Retry backoff base is five seconds and doubles after each failed attempt.",
            "number_differs",
        ),
        (
            "The timeout of fetch is 30 seconds for every request it sends.",
            "The timeout of fetch is 30 ms for every request it sends.",
            "negation_differs",
        ),
        (
            "The proxy allows redirects from fetch to other hosts.",
            "The proxy denies redirects from fetch to other hosts.",
            "negation_differs",
        ),
        (
            "fetch is safe to call from multiple threads at once.",
            "fetch is unsafe to call from multiple threads at once.",
            "negation_differs",
        ),
    ],
)
def test_a_contradiction_in_words_is_a_conflict_on_both_sides_not_a_duplicate(repo, first, second, reason):
    """Red team, round 21: number words (three / five), units (30 seconds / 30 ms), an inflected
    opposite (allows / denies) and an un- prefix (safe / unsafe) were refused as `duplicate`."""
    repo.write("http.py", FETCH)
    repo.commit("http")
    old = repo.remember(first, "http.py::fetch")
    new = repo.json("remember", second, "--anchor", "http.py::fetch")["data"]
    assert [(c["id"], c["reason"]) for c in new["conflicts"]] == [(old, reason)]
    items = {i["id"]: i for i in repo.json("recall", first)["data"]["items"]}
    assert (items[old]["conflicts"], items[new["id"]]["conflicts"]) == ([new["id"]], [old])


def test_a_spelled_number_restated_in_digits_is_still_a_duplicate(repo):
    repo.write("http.py", FETCH)
    repo.commit("http")
    old = repo.remember("Retry backoff base is three seconds and doubles after each failed attempt.", "http.py::fetch")
    err = repo.error(
        "remember", "Retry backoff base is 3 seconds, doubling after each failed attempt.", "--anchor", "http.py::fetch"
    )
    assert err["code"] == "duplicate" and err["existing"] == old
