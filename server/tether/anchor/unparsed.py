"""Definitions the parser closed early. When a grammar meets syntax it does not know inside a
definition, it makes up the closing token (a MISSING node) and leaves the rest of the definition
as an ERROR after it: that rest is still the definition as written, and is hashed with it."""

from __future__ import annotations


def unparsed_after(node) -> list:
    """The ERROR nodes right after a definition the parser closed early, when it did: its subtree
    holds a MISSING token. tree-sitter-typescript closes an interface at a call signature on its
    own line (`<T>(v: T): V<T>`), and the rest of the interface follows it as an ERROR."""
    if not _has_missing(node):
        return []
    out = []
    while (
        node.next_sibling is None
        and node.parent is not None
        and node.parent.type != "ERROR"
        and node.parent.end_byte == node.end_byte
    ):
        node = node.parent  # the ERROR follows the outermost node the definition ends with
    sib = node.next_sibling
    while sib is not None and sib.type == "ERROR":
        out.append(sib)
        sib = sib.next_sibling
    return out


def leaves(node, source: bytes) -> list[bytes]:
    """The text of every token under an ERROR but comments, structure left out: how the parser
    recovers shifts with any edit nearby (a comment), the tokens do not."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if "comment" in n.type:
            continue
        if n.child_count == 0:
            out.append(source[n.start_byte : n.end_byte])
        else:
            stack.extend(reversed(n.children))
    return out


def _has_missing(node) -> bool:
    stack = [node]  # not recursive: a long `a + b + ...` nests deeper than Python's stack
    while stack:
        n = stack.pop()
        if n.is_missing:
            return True
        stack.extend(c for c in n.children if c.has_error or c.is_missing)
    return False
