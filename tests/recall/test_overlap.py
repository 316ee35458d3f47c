"""Write-time overlap through the real CLI: what a red team found about duplicates and conflicts."""

from __future__ import annotations

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
