"""YAML syntax trees to value trees: documents, anchors and aliases, merge keys, tags, block scalars.

Aliases resolve to the anchored node itself (hashes are memoized per node, so a billion-laughs file
costs one pass); a `<<` merge counts in the mapping's value, but only keys written in a mapping are
anchorable there. Tags `!!str`, `!!int`, ... coerce as a loader does; any other tag is part of the
value. Plain YAML 1.2 core scalars: `yes`/`on` are strings, as in tree-sitter's grammar.
"""

from __future__ import annotations

import re

from tether.anchor.config import Entry, Node
from tether.anchor.config_scalars import floating, integer, scalar, unescape

_TAGS = {"str": "str", "int": "int", "float": "float", "bool": "bool", "null": "null", "map": "", "seq": ""}


def _fold(s: str) -> str:
    """YAML flow folding: a line break between text is a space, each blank line a newline."""
    if "\n" not in s:
        return s
    lines = [ln.strip(" \t\r") for ln in s.split("\n")]
    out = lines[0]
    pending = ""
    for ln in lines[1:]:
        if not ln:
            pending += "\n"
            continue
        out += (pending or " ") + ln
        pending = ""
    return out + pending


def yaml_docs(root) -> list[Node]:
    out = []
    for d in root.named_children:
        if d.type != "document":
            continue
        body = [c for c in d.named_children if c.type in ("block_node", "flow_node")]
        if body:
            out.append(_yv(body[0], {})[0])  # anchors are per document
    return out


def _tag_of(text: str) -> str:
    t = text.strip()
    if t.startswith("!<tag:yaml.org,2002:") and t.endswith(">"):
        t = "!!" + t[20:-1]
    return _TAGS.get(t[2:], t) if t.startswith("!!") else t


def _yv(n, anchors: dict[str, Node]) -> tuple[Node, bool]:
    """A YAML node's value, and whether it is an alias (written elsewhere)."""
    if n is not None and n.type == "block_sequence_item":
        n = next((c for c in n.named_children if c.type in ("block_node", "flow_node")), None)
    if n is None:
        return scalar("null", "null"), False
    anchor = tag = None
    body = None
    for c in n.named_children:
        if c.type == "anchor":
            anchor = c.text.decode()[1:]
        elif c.type == "tag":
            tag = _tag_of(c.text.decode())
        elif c.type != "comment":
            body = c
    alias = False
    if body is None:
        node = scalar("str", "") if tag == "str" else scalar("null", "null")
    elif body.type == "alias":
        name = body.text.decode()[1:]
        alias = name in anchors
        node = anchors[name] if alias else scalar("alias", name)
    else:
        node = _ybody(body, tag, anchors)
    if anchor:
        anchors[anchor] = node  # registered after its body: an alias inside it cannot loop
    return node, alias


def _ybody(b, tag: str | None, anchors: dict[str, Node]) -> Node:
    t = b.type
    if t in ("block_mapping", "flow_mapping"):
        node = Node("map", tag or "")
        for p in b.named_children:
            if p.type in ("block_mapping_pair", "flow_pair"):
                k, v = p.child_by_field_name("key"), p.child_by_field_name("value")
            elif p.type == "flow_node":  # `{a, b: 1}`: a key with no value
                k, v = p, None
            else:
                continue
            key = _ykey(k, anchors)
            value, alias = _yv(v, anchors) if v is not None else (scalar("null", "null"), False)
            if key == "<<" and k is not None and k.text.strip() == b"<<":
                srcs = [value] if value.kind == "map" else [e.node for e in value.items]
                node.merges.extend(s for s in srcs if s.kind == "map")
                continue
            node.entries.pop(key, None)
            node.entries[key] = Entry(value, p.start_byte, p.end_byte, alias)
        return node
    if t in ("block_sequence", "flow_sequence"):
        node = Node("list", tag or "")
        for c in b.named_children:
            if c.type == "comment":
                continue
            if c.type == "flow_pair":  # `[a: 1]` is a one-pair mapping inside the sequence
                inner = Node("map")
                k, v = c.child_by_field_name("key"), c.child_by_field_name("value")
                value, alias = _yv(v, anchors) if v is not None else (scalar("null", "null"), False)
                inner.entries[_ykey(k, anchors)] = Entry(value, c.start_byte, c.end_byte, alias)
                value, alias = inner, False
            else:
                value, alias = _yv(c, anchors)
            node.items.append(Entry(value, c.start_byte, c.end_byte, alias))
        return node
    return _yscalar(b, tag)


def _ykey(k, anchors: dict[str, Node]) -> str:
    if k is None:
        return ""
    node, _ = _yv(k, anchors)
    if node.kind == "scalar":
        return node.text
    return " ".join(k.text.decode("utf-8", "replace").split())  # a complex key: its source text


def _yscalar(b, tag: str | None) -> Node:
    t = b.type
    raw = b.text.decode("utf-8", "replace")
    kind = "string_scalar"
    if t == "plain_scalar":
        kind = b.named_children[0].type if b.named_children else kind
        text = _fold(raw)
    elif t == "double_quote_scalar":
        text = unescape(_fold(re.sub(r"\\\r?\n[ \t]*", "", raw[1:-1])))
    elif t == "single_quote_scalar":
        text = _fold(raw[1:-1]).replace("''", "'")
    elif t == "block_scalar":
        text = _block(raw)
    else:
        text = raw
    if tag is None and t == "plain_scalar":
        tag = _PLAIN.get(kind, "str")
    if tag == "int":
        return integer(text)
    if tag == "float":
        return floating(text)
    if tag == "bool":
        return scalar("bool", text.lower())
    if tag == "null":
        return scalar("null", "null")
    return scalar(tag or "str", text)


_PLAIN = {"integer_scalar": "int", "float_scalar": "float", "boolean_scalar": "bool", "null_scalar": "null"}


def _block(raw: str) -> str:
    """`|` and `>` scalars: indentation removed, `>` folded, chomping applied."""
    lines = raw.replace("\r", "").split("\n")
    header = lines[0].split("#", 1)[0].strip()
    body = lines[1:]
    while body and not body[-1].strip():
        body.pop()
    indent = min((len(ln) - len(ln.lstrip(" ")) for ln in body if ln.strip()), default=0)
    body = [ln[indent:] for ln in body]
    if header.startswith(">"):
        out, prev = "", None
        for ln in body:
            if prev is None:
                out = ln
            elif not ln:
                out += "\n"  # a blank line is a line break
            elif not prev:
                out += ln  # text after blank lines: they already broke the line
            elif ln[0] in " \t" or prev[0] in " \t":
                out += "\n" + ln  # more-indented lines keep their breaks
            else:
                out += " " + ln
            prev = ln
    else:
        out = "\n".join(body)
    # strip (`-`) drops the final line break; clip and keep (`+`) end in one (trailing blanks aside)
    return out if "-" in header else out + "\n"
