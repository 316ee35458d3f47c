"""What a rename may not be taken from: found by replaying real JavaScript histories (ws, eslint,
webpack) against an independent parser. A deleted symbol was reported active at a neighbour whose
name, spelled back, also rewrote a string (`require('./extension')`), or at a neighbour that had
been there all along (`height` beside a deleted `width`)."""

from __future__ import annotations

import pytest

REQUIRES = """'use strict';
const constants = require('./constants');
const Limiter = require('./limiter');

function send(socket, data) {
  return constants.frame(Limiter.wrap(socket), data);
}
module.exports = send;
"""


def test_a_name_in_a_string_is_not_the_symbol_renamed(repo):
    repo.write("lib/websocket.js", REQUIRES)
    repo.commit()
    mid = repo.remember(
        "constants is loaded eagerly: the framing table must exist before the first send.",
        "lib/websocket.js::constants",
    )
    # ws 6: the module's constants destructured, and a new neighbour loading another module
    repo.write(
        "lib/websocket.js",
        REQUIRES.replace(
            "const constants = require('./constants');",
            "const extension = require('./extension');\nconst { frame } = require('./constants');",
        ).replace("constants.frame(", "frame("),
    )
    repo.commit("destructure constants")
    item = repo.check()[mid]
    assert item["status"] != "active", item


BOX = """class Box {
  width() {
    return this.dims.width * this.scale + this.border;
  }

  height() {
    return this.dims.height * this.scale + this.border;
  }
}
"""


def test_a_neighbour_that_was_always_there_is_not_the_symbol_renamed(repo):
    repo.write("src/box.js", BOX)
    repo.commit()
    mid = repo.remember("width includes the border on both sides since the layout rewrite.", "src/box.js::Box.width")
    repo.write("src/box.js", BOX[: BOX.index("  width()")] + BOX[BOX.index("  height()") :])
    repo.commit("drop width")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")


@pytest.mark.parametrize(
    "path, before, after",
    [
        (
            "lib/walk.py",
            "def walk(node, seen):\n    for child in node.children:\n        walk(child, seen)\n    seen.add(node)\n",
            "def visit(node, seen):\n    for child in node.children:\n        visit(child, seen)\n    seen.add(node)\n",
        ),
        (
            "src/vec.js",
            "function scale(v, k) {\n  // scale each part\n  return v.length ? [scale(v[0], k), ...v.slice(1)] : v * k;\n}\n",
            "function resize(v, k) {\n  // scale each part\n  return v.length ? [resize(v[0], k), ...v.slice(1)] : v * k;\n}\n",
        ),
        # the code around them is no literal: a C++ template, a Scala object's template_body
        (
            "src/walk.hpp",
            "template <typename T>\nT walk(T n) {\n  return n > 0 ? walk(n - 1) + n : n;\n}\n",
            "template <typename T>\nT visit(T n) {\n  return n > 0 ? visit(n - 1) + n : n;\n}\n",
        ),
        (
            "src/Walk.scala",
            "object Tree {\n  def walk(n: Int): Int = if (n > 0) walk(n - 1) + n else 0\n}\n",
            "object Tree {\n  def visit(n: Int): Int = if (n > 0) visit(n - 1) + n else 0\n}\n",
        ),
    ],
    ids=["python", "javascript-comment-untouched", "cpp-template", "scala-object"],
)
def test_a_recursive_function_renamed_throughout_is_still_followed(repo, path, before, after):
    repo.write(path, before)
    repo.commit()
    name = next(w for w in ("walk", "scale") if f"{w}(" in before)
    new = next(w for w in ("visit", "resize") if f"{w}(" in after)
    qual = f"Tree.{name}" if path.endswith(".scala") else name
    mid = repo.remember("Recursion depth is bounded by the tree depth, never by input size.", f"{path}::{qual}")
    repo.write(path, after)
    repo.commit("rename")
    item = repo.check()[mid]
    assert (item["status"], item["anchors"][0]["symbol"]) == ("active", qual.replace(name, new))


@pytest.mark.parametrize(
    "path, before, after",
    [
        (
            "lib/client.py",
            "def get(key, default=None):\n    return api.get(key, default) or fallback.lookup(key)\n",
            "def fetch(key, default=None):\n    return api.fetch(key, default) or fallback.lookup(key)\n",
        ),
        (
            "src/client.ts",
            "export const get = (key: string) => api.get(key) ?? fallback.lookup(key);\n",
            "export const fetch = (key: string) => api.fetch(key) ?? fallback.lookup(key);\n",
        ),
        (
            "src/client.go",
            "package client\n\nfunc Get(key string) string {\n\treturn api.Get(key) + fallback.Lookup(key)\n}\n",
            "package client\n\nfunc Fetch(key string) string {\n\treturn api.Fetch(key) + fallback.Lookup(key)\n}\n",
        ),
    ],
    ids=["python", "typescript", "go"],
)
def test_a_rename_that_also_changes_which_member_of_another_object_is_called_is_not_served_active(
    repo, path, before, after
):
    # `get` -> `fetch` and `api.get` -> `api.fetch`: the second is another object's member, so
    # the code now calls something else. Spelling `fetch` back as `get` everywhere would hide that.
    repo.write(path, before)
    repo.commit()
    old = "Get" if path.endswith(".go") else "get"
    mid = repo.remember("Reads go through the API first; the fallback only serves cold keys.", f"{path}::{old}")
    repo.write(path, after)
    repo.commit("rename")
    assert repo.check()[mid]["status"] != "active"


@pytest.mark.parametrize(
    "path, before, after, qual",
    [
        (
            "lib/tree.py",
            "class Tree:\n    def walk(self, node):\n        for child in node.children:\n            self.walk(child)\n        return node\n",
            "class Tree:\n    def visit(self, node):\n        for child in node.children:\n            self.visit(child)\n        return node\n",
            "Tree.walk",
        ),
        (
            "src/tree.go",
            "package tree\n\nfunc (t *Tree) Walk(n *Node) int {\n\tsum := n.Value\n\tfor _, c := range n.Children {\n\t\tsum += t.Walk(c)\n\t}\n\treturn sum\n}\n",
            "package tree\n\nfunc (t *Tree) Visit(n *Node) int {\n\tsum := n.Value\n\tfor _, c := range n.Children {\n\t\tsum += t.Visit(c)\n\t}\n\treturn sum\n}\n",
            "Tree.Walk",
        ),
        (
            "src/tree.lua",
            "local Tree = {}\nfunction Tree:walk(node)\n  local sum = node.value\n  for _, c in ipairs(node.children) do sum = sum + self:walk(c) end\n  return sum\nend\nreturn Tree\n",
            "local Tree = {}\nfunction Tree:visit(node)\n  local sum = node.value\n  for _, c in ipairs(node.children) do sum = sum + self:visit(c) end\n  return sum\nend\nreturn Tree\n",
            "Tree.walk",
        ),
    ],
    ids=["python-self", "go-receiver", "lua-colon"],
)
def test_a_method_renamed_with_its_calls_through_its_own_receiver_is_followed(repo, path, before, after, qual):
    repo.write(path, before)
    repo.commit()
    mid = repo.remember("Recursion depth is bounded by the tree depth, never by input size.", f"{path}::{qual}")
    repo.write(path, after)
    repo.commit("rename")
    item = repo.check()[mid]
    new = qual.replace("walk", "visit").replace("Walk", "Visit")
    assert (item["status"], item["anchors"][0]["symbol"]) == ("active", new)


SCANNER = """import os


class Scanner:
    def scan(self, paths):
        batch = []
        for p in paths:
            batch.append(os.path.abspath(p))
            if len(batch) >= 50:
                yield batch
                batch = []
        if batch:
            yield batch

    def close(self):
        self.closed = True
"""
SCAN_FUNCTION = """

def scan(paths):
    batch = []
    for p in paths:
        batch.append(os.path.abspath(p))
        if len(batch) >= 64:
            yield batch
            batch = []
    if batch:
        yield batch
"""
UTIL = "import os\n\n\ndef helper():\n    return os.sep\n"


def _without_scan(src: str) -> str:
    return src[: src.index("    def scan(")] + src[src.index("    def close(") :]


@pytest.mark.parametrize("target", ["src/util.py", "src/scanner.py"], ids=["to another file", "in its file"])
def test_a_method_taken_out_of_its_class_and_edited_is_stale_where_it_went(repo, target):
    repo.write("src/scanner.py", SCANNER)
    repo.write("src/util.py", UTIL)
    repo.commit()
    mid = repo.remember(
        "Batch size is 50: shared hosts kill requests that run over 30 s.", "src/scanner.py::Scanner.scan"
    )
    repo.write("src/scanner.py", _without_scan(SCANNER))
    repo.write(target, repo.read(target) + SCAN_FUNCTION)
    repo.commit("scan is a function now")
    item = repo.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], item["reason"], a["path"], a["symbol"]) == ("stale", "body_edited", target, "scan")
    # the diff is the edits, not every line dedented out of the class
    changed = [line for line in a["diff"].splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert changed == [
        "-def scan(self, paths):",
        "+def scan(paths):",
        "-        if len(batch) >= 50:",
        "+        if len(batch) >= 64:",
    ]


def test_a_function_of_that_name_that_was_there_all_along_is_not_taken_for_it(repo):
    repo.write("src/scanner.py", SCANNER)
    repo.write("src/util.py", UTIL + SCAN_FUNCTION)
    repo.commit()
    mid = repo.remember(
        "Batch size is 50: shared hosts kill requests that run over 30 s.", "src/scanner.py::Scanner.scan"
    )
    repo.write("src/scanner.py", _without_scan(SCANNER))
    repo.commit("drop the method")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")
