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
    mid = repo.remember("constants is loaded eagerly: the framing table must exist before the first send.",
                        "lib/websocket.js::constants")
    # ws 6: the module's constants destructured, and a new neighbour loading another module
    repo.write("lib/websocket.js", REQUIRES.replace(
        "const constants = require('./constants');",
        "const extension = require('./extension');\nconst { frame } = require('./constants');",
    ).replace("constants.frame(", "frame("))
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
    repo.write("src/box.js", BOX[: BOX.index("  width()")] + BOX[BOX.index("  height()"):])
    repo.commit("drop width")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")


@pytest.mark.parametrize("path, before, after", [
    ("lib/walk.py",
     "def walk(node, seen):\n    for child in node.children:\n        walk(child, seen)\n    seen.add(node)\n",
     "def visit(node, seen):\n    for child in node.children:\n        visit(child, seen)\n    seen.add(node)\n"),
    ("src/vec.js",
     "function scale(v, k) {\n  // scale each part\n  return v.length ? [scale(v[0], k), ...v.slice(1)] : v * k;\n}\n",
     "function resize(v, k) {\n  // scale each part\n  return v.length ? [resize(v[0], k), ...v.slice(1)] : v * k;\n}\n"),
    # the code around them is no literal: a C++ template, a Scala object's template_body
    ("src/walk.hpp",
     "template <typename T>\nT walk(T n) {\n  return n > 0 ? walk(n - 1) + n : n;\n}\n",
     "template <typename T>\nT visit(T n) {\n  return n > 0 ? visit(n - 1) + n : n;\n}\n"),
    ("src/Walk.scala",
     "object Tree {\n  def walk(n: Int): Int = if (n > 0) walk(n - 1) + n else 0\n}\n",
     "object Tree {\n  def visit(n: Int): Int = if (n > 0) visit(n - 1) + n else 0\n}\n"),
], ids=["python", "javascript-comment-untouched", "cpp-template", "scala-object"])
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
