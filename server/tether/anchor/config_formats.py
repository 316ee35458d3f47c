"""JSON, YAML and TOML syntax trees (tree-sitter, so Python 3.10 needs no tomllib) to value trees.

YAML lives in config_yaml.py; the scalar helpers here serve all three.

Scalars are reduced to what a loader would see: strings unescaped and folded, numbers and
booleans in one spelling, so rewriting `'a'` as `"a"` or `0x10` as `16` is not an edit.
"""

from __future__ import annotations

import json
import re

from tether.anchor.config import Entry, Node
from tether.anchor.config_scalars import floating, integer, scalar, unescape
from tether.anchor.config_yaml import yaml_docs
from tether.anchor.grammars import parser


class Malformed(Exception):
    """The file does not parse as its format: key anchors are refused, the file anchor still works."""


# tree-sitter-yaml's scanner writes its indentation stack past a 1 KiB buffer beyond ~250 levels
# and the process dies with no exception to catch (tree-sitter-grammars/tree-sitter-yaml#48): a
# deeper document is refused before it reaches the parser.
MAX_YAML_DEPTH = 200


def parse(kind: str, data: bytes) -> list[Node]:
    """The documents of a config file (several only for a YAML stream), or raise Malformed."""
    if kind == "yaml" and yaml_depth(data) > MAX_YAML_DEPTH:
        raise Malformed(f"yaml nested deeper than {MAX_YAML_DEPTH} levels")
    tree = parser(kind).parse(data)
    root = tree.root_node
    if root.has_error and not (kind == "json" and _only_trailing_commas(root, data)):
        raise Malformed(f"{kind} syntax error")
    if kind == "yaml":
        return yaml_docs(root)
    return _json_doc(root) if kind == "json" else _toml_doc(root)


def yaml_depth(data: bytes) -> int:
    """An upper bound on the block levels the YAML scanner keeps open at once: a deeper indent, a
    sequence under a key at the same indent, and each compact `- ` / `? ` on a line (`- - k: v`
    opens three) count one."""
    stack: list[tuple[int, bool]] = []  # (column, is a sequence)
    deepest = 0
    for line in data.split(b"\n"):
        rest = line.lstrip(b" ")
        if not rest.strip() or rest.startswith(b"#"):
            continue
        col = len(line) - len(rest)
        opened: list[tuple[int, bool]] = []
        while rest[:1] in (b"-", b"?") and rest[1:2] in (b" ", b"\t", b"\r", b""):
            opened.append((col, True))
            after = rest[1:].lstrip(b" \t\r")
            col += len(rest) - len(after)
            rest = after
        if rest.strip():
            opened.append((col, False))
        first = opened[0]
        while stack and (stack[-1][0] > first[0] or stack[-1][0] == first[0] and (stack[-1][1] or not first[1])):
            stack.pop()
        stack.extend(opened)
        deepest = max(deepest, len(stack))
    return deepest


def first_error(kind: str, data: bytes) -> int | None:
    """The 1-based line of the first syntax error, for a refusal that says where to look."""
    if kind == "yaml" and yaml_depth(data) > MAX_YAML_DEPTH:
        return None  # never handed to the parser (see MAX_YAML_DEPTH)
    n, err = parser(kind).parse(data).root_node, None
    while True:
        bad = [c for c in n.children if c.has_error or c.is_missing or c.type == "ERROR"]
        if not bad:
            break
        n = bad[0]
        if n.is_missing or n.type == "ERROR":
            err = n  # the innermost error on the first path to one
    if err is None:
        return None  # the whole file is one ERROR node: no line would be honest
    kids = err.named_children
    if kids and kids[0].child_count and not kids[0].has_error and kids[0].type != "ERROR":
        # the parser wrapped good content it could not place: the fault is where that content stops
        return err.end_point[0] + (1 if err.end_point[1] else 0)
    return err.start_point[0] + 1


# -- JSON ---------------------------------------------------------------------------------------
def _only_trailing_commas(root, data: bytes) -> bool:
    """JSONC files (tsconfig, VS Code settings) allow trailing commas; nothing else is forgiven."""
    stack = [root]
    while stack:
        n = stack.pop()
        if n.is_missing:
            rest = data[n.start_byte :].lstrip()
            if rest[:1] not in (b"]", b"}"):
                return False
        elif n.type == "ERROR":
            if n.text.strip() != b",":
                return False
        elif n.has_error:
            stack.extend(n.children)
    return True


def _json_doc(root) -> list[Node]:
    values = [c for c in root.named_children if c.type not in ("comment", "ERROR") and not c.is_missing]
    return [_json(values[0])] if values else []


def _json_str(n) -> str:
    try:
        return json.loads(n.text.decode("utf-8", "surrogatepass"))
    except ValueError:
        return n.text.decode("utf-8", "replace")[1:-1]


def _json(n) -> Node:
    t = n.type
    if t == "object":
        node = Node("map")
        for p in n.named_children:
            if p.type == "pair":
                key, value = p.child_by_field_name("key"), p.child_by_field_name("value")
                k = _json_str(key)
                node.entries.pop(k, None)  # a repeated key: the last one is the value
                node.entries[k] = Entry(_json(value), p.start_byte, p.end_byte)
        return node
    if t == "array":
        node = Node("list")
        for c in n.named_children:
            if c.type not in ("comment", "ERROR") and not c.is_missing:
                node.items.append(Entry(_json(c), c.start_byte, c.end_byte))
        return node
    if t == "string":
        return scalar("str", _json_str(n))
    if t == "number":
        text = n.text.decode()
        return integer(text) if re.fullmatch(r"-?\d+", text) else floating(text)
    if t in ("true", "false"):
        return scalar("bool", t)
    return scalar("null", "null")


# -- TOML ---------------------------------------------------------------------------------------
def _toml_doc(root) -> list[Node]:
    top = Entry(Node("map"))
    current = top
    for c in root.named_children:
        if c.type == "pair":
            _toml_pair(current, c)
        elif c.type in ("table", "table_array_element"):
            keys = _toml_key(c.named_children[0])
            if c.type == "table":
                current = _descend(top, keys, c.start_byte, c.end_byte)
            else:
                parent = _descend(top, keys[:-1], c.start_byte, c.end_byte)
                e = parent.node.entries.get(keys[-1])
                if e is None or e.node.kind != "list":
                    e = parent.node.entries[keys[-1]] = Entry(Node("list"))
                e.widen(c.start_byte, c.end_byte)
                current = Entry(Node("map"), c.start_byte, c.end_byte)
                e.node.items.append(current)
            for p in c.named_children[1:]:
                if p.type == "pair":
                    _toml_pair(current, p)
    return [top.node]


def _descend(at: Entry, keys: list[str], start: int, end: int) -> Entry:
    """The entry at `keys` below `at`, created as a table if missing; every step spans the source."""
    for k in keys:
        e = at.node.entries.get(k)
        if e is None:
            e = at.node.entries[k] = Entry(Node("map"))
        e.widen(start, end)
        at = e.node.items[-1] if e.node.kind == "list" and e.node.items else e
    return at


def _toml_pair(table: Entry, p) -> None:
    kids = [c for c in p.named_children if c.type != "comment"]
    keys = _toml_key(kids[0])
    parent = _descend(table, keys[:-1], p.start_byte, p.end_byte)
    parent.node.entries.pop(keys[-1], None)
    parent.node.entries[keys[-1]] = Entry(_toml_value(kids[1]), p.start_byte, p.end_byte)


def _toml_key(n) -> list[str]:
    if n.type == "dotted_key":
        return [k for c in n.named_children for k in _toml_key(c)]
    text = n.text.decode("utf-8", "replace")
    if n.type == "quoted_key":
        return [unescape(text[1:-1]) if text.startswith('"') else text[1:-1]]
    return [text]


def _toml_value(n) -> Node:
    t = n.type
    text = n.text.decode("utf-8", "replace")
    if t == "string":
        for q in ('"""', "'''", '"', "'"):
            if text.startswith(q) and text.endswith(q) and len(text) >= 2 * len(q):
                body = text[len(q) : -len(q)]
                if len(q) == 3:
                    body = re.sub(r"^\r?\n", "", body)
                if q == '"""':
                    body = re.sub(r"\\[ \t]*\r?\n\s*", "", body)
                return scalar("str", unescape(body) if q[0] == '"' else body)
        return scalar("str", text)
    if t == "integer":
        return integer(text)
    if t == "float":
        return floating(text)
    if t == "boolean":
        return scalar("bool", text)
    if t in ("offset_date_time", "local_date_time", "local_date", "local_time"):
        return scalar("datetime", re.sub(r"(?<=\d)[ t](?=\d)", "T", text).upper())
    if t == "array":
        node = Node("list")
        for c in n.named_children:
            if c.type != "comment":
                node.items.append(Entry(_toml_value(c), c.start_byte, c.end_byte))
        return node
    if t == "inline_table":
        e = Entry(Node("map"))
        for p in n.named_children:
            if p.type == "pair":
                _toml_pair(e, p)
        return e.node
    return scalar("str", text)
