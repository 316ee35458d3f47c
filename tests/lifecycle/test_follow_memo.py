"""Where a moved anchor was followed to is remembered (index/memo.py `follows`), so a later read
finds it without a search. What is remembered must never outlive what it stood for: a copy of the
body made since makes the anchor ambiguous, as a first read says; and undoing an edit made with
the move reads active at once. Both found by a red team comparing warm reads with a cold cache."""

from __future__ import annotations

ALPHA = "def alpha(x):\n    total = 0\n    for i in range(x):\n        total += i * 3\n    return total\n"
BETA = "def beta(y):\n    return [y * k + 11 for k in range(10)]\n"


def _moved(repo) -> str:
    repo.write("src/a.py", ALPHA + "\n\n" + BETA)
    repo.commit("init")
    mid = repo.remember("alpha sums multiples of three; the report divides by three later.", "src/a.py::alpha")
    repo.commit("memory")
    repo.write("src/a.py", BETA)
    repo.write("src/c.py", ALPHA)
    first = repo.check()[mid]
    assert (first["status"], first["anchors"][0]["path"]) == ("active", "src/c.py")  # followed, remembered
    return mid


def test_a_copy_of_a_followed_body_in_its_new_file_makes_it_ambiguous(repo):
    mid = _moved(repo)
    repo.write("src/c.py", ALPHA + "\n\n" + ALPHA.replace("def alpha", "def alpha_copy"))
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "ambiguous_anchor")
    assert sorted(item["anchors"][0]["candidates"]) == ["src/c.py::alpha@(x)", "src/c.py::alpha_copy@(x)"]


def test_a_copy_in_a_new_file_makes_it_ambiguous_once_the_repository_is_indexed(repo):
    mid = _moved(repo)
    repo.write("src/d.py", ALPHA)
    repo.run("index")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "ambiguous_anchor")
    assert sorted(item["anchors"][0]["candidates"]) == ["src/c.py::alpha@(x)", "src/d.py::alpha@(x)"]
    (repo.path / "src/d.py").unlink()
    assert repo.check()[mid]["status"] == "active"  # the copy gone: followed again


def test_undoing_an_edit_made_with_a_move_is_active_on_the_first_read(repo):
    repo.write("src/a.py", ALPHA + "\n\n" + BETA)
    repo.commit("init")
    one = repo.remember("alpha sums multiples of three; the report divides by three later.", "src/a.py::alpha")
    two = repo.run(
        "remember", "alpha's loop is the hot path of the nightly report.", "--anchor", "src/a.py::alpha", "--force"
    )
    repo.commit("memories")
    repo.write("src/a.py", BETA)
    repo.write("src/c.py", ALPHA.replace("i * 3", "i * 5"))
    assert {i["status"] for i in repo.check().values()} == {"stale"}  # moved and edited: stale where it went
    repo.write("src/c.py", ALPHA)  # the edit undone: a pure move
    items = repo.check()
    assert {(i["status"], i["anchors"][0]["path"]) for i in items.values()} == {("active", "src/c.py")}
    assert one in items and len(items) == 2 and two.returncode == 0
