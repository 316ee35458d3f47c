"""What a follow needs beyond an identical hash, found by replaying real histories (issue 21): the
place must be new since the anchored commit, a unique namesake new there is the code however much it
changed, and a trivial body gone among look-alikes is deleted. Real git repositories, the real CLI."""

from __future__ import annotations

TWINS = """\
class Queue:
    def push(self, item):
        if item is None:
            raise ValueError("refusing to queue None")
        self._items.append(item)
        self._wake.notify_all()
        return len(self._items)


class Stack:
    def push(self, item):
        if item is None:
            raise ValueError("refusing to queue None")
        self._items.append(item)
        self._wake.notify_all()
        return len(self._items)
"""


def test_a_deleted_method_is_not_followed_to_a_twin_that_stood_beside_it(repo):
    repo.write("src/containers.py", TWINS)
    repo.commit("containers")
    mid = repo.remember(
        "Queue.push wakes every waiter: consumers filter by item kind.", "src/containers.py::Queue.push"
    )
    repo.write("src/containers.py", "class Queue:\n    pass\n\n\nclass Stack:" + TWINS.split("class Stack:")[1])
    repo.commit("Queue.push removed in a refactor")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")  # never active at Stack.push
    assert [c.split("@")[0] for c in item["anchors"][0]["candidates"]] == ["src/containers.py::Stack.push"]


def test_a_method_moved_to_a_new_file_and_rewritten_is_stale_where_it_went(repo):
    repo.write(
        "src/app.py",
        "class AppContext:\n    def push(self):\n        self._refs += 1\n        _stack.append(self)\n"
        "        signals.pushed.send(self)\n\n\ndef create_app():\n    return App()\n",
    )
    repo.commit("app")
    mid = repo.remember(
        "AppContext.push is re-entrant: the count lets nested pushes pop once.", "src/app.py::AppContext.push"
    )
    repo.write("src/app.py", "def create_app():\n    return App()\n")
    repo.write(
        "src/ctx.py",
        "class AppContext:\n    def push(self):\n        token = _cv.set(self)\n        self._tokens.append(token)\n"
        "        for hook in self.app.before_push:\n            hook(self)\n",
    )
    repo.commit("AppContext moved to ctx.py and push rewritten on contextvars")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    a = item["anchors"][0]
    assert (a["path"], a["symbol"]) == ("src/ctx.py", "AppContext.push") and "+" in a["diff"]


def test_a_deleted_one_line_constant_is_deleted_not_ambiguous_among_look_alikes(repo):
    repo.write("docs/conf.py", "sort_keys = True\nhtml_theme = 'alabaster'\n")
    repo.write("src/flags.py", "gettext_uuid = True\nstrict = True\n")
    repo.commit("conf")
    mid = repo.remember("Keys are sorted so the generated JSON diffs cleanly.", "docs/conf.py::sort_keys")
    repo.write("docs/conf.py", "html_theme = 'alabaster'\n")
    repo.commit("drop sort_keys")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")
