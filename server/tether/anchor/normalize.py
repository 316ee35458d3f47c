"""Normalized token streams and hashes: what counts as an edit and what is cosmetic.

The stream keeps node types (with explicit open/close so block structure counts: a statement
dedented out of an `if` is an edit), identifier and literal text, operators and keywords. It drops
comments, docstrings, whitespace, grouping punctuation (not a separator before an empty slot),
quote style and JSX text layout. Changing any of this is a format change: bump the `t1:` prefix.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable

from .languages import PUNCTUATION, Language

TREE_PREFIX = "t1:"
OPEN = b"\x01"
CLOSE = b"\x02"
HOLE = b"\x03"  # stands in for the symbol's own name (and Go receiver), so renames keep the hash
SEP = b"\x1f"

_open_tokens: dict[str, bytes] = {}
_anon_tokens: dict[str, bytes] = {}
_leaf_prefix: dict[str, bytes] = {}


def digest(prefix: str, data: bytes) -> str:
    return prefix + hashlib.blake2b(data, digest_size=16).hexdigest()


# Separators that can stand before an empty slot: `xs[:n]` is not `xs[n:]`, `[, b] = xs` is not
# `[b] = xs`. Only a separator with no operand before it counts, so trailing commas stay cosmetic.
SEPARATORS = frozenset({",", ":"})


_DOC_TYPES = frozenset({"string", "concatenated_string", "expression_statement"})


def _is_docstring(node) -> bool:
    """A string standing alone as the first statement of a def or class body."""
    parent = node.parent
    if parent is None or parent.type != "block":
        return False
    if node.type == "expression_statement" and (
        node.named_child_count != 1 or node.named_children[0].type not in _DOC_TYPES
    ):
        return False
    owner = parent.parent
    if owner is None or owner.type not in ("function_definition", "class_definition"):
        return False
    prev = node.prev_named_sibling
    while prev is not None and prev.type == "comment":
        prev = prev.prev_named_sibling
    return prev is None


def token_stream(root, lang: Language, marks: set[int]) -> tuple[list[bytes], dict[int, tuple[int, int]]]:
    """Normalized tokens of `root`'s subtree and the token span of every node id in `marks`."""
    toks: list[bytes] = []
    spans: dict[int, tuple[int, int]] = {}
    frames: list[tuple[int, bool, int]] = []  # (marked node id or -1, emits close, span start)
    transparent, skip, quote_leaves = lang.transparent, lang.skip, lang.quote_leaves
    bare_fields, docstrings = lang.bare_param_fields, lang.docstrings
    bare_open = [OPEN + n.encode() for n in lang.bare_param_nodes]
    layout_text, comment_holders = lang.layout_text, lang.comment_holders
    string_nodes, aliases = lang.string_nodes, dict(lang.aliases)
    # per depth: no operand since the opening bracket or the last separator (comments aside)
    slots: list[bool] = [True]
    cursor = root.walk()

    def enter(node) -> bool:
        nid = node.id
        mark = nid if nid in marks else -1
        start = len(toks)
        t = node.type
        slot = slots[-1]
        if node.is_named:
            slots[-1] = slot and ("comment" in t or t in skip)
        else:
            slots[-1] = t in PUNCTUATION
            if t not in PUNCTUATION or (slot and t in SEPARATORS):
                tok = _anon_tokens.get(t)
                if tok is None:
                    tok = _anon_tokens[t] = t.encode()
                toks.append(tok)
            frames.append((mark, False, start))
            return False
        if "comment" in t or t in skip or (docstrings and t in _DOC_TYPES and _is_docstring(node)):
            frames.append((mark, False, start))
            return False
        if t in comment_holders and all("comment" in c.type or c.type in PUNCTUATION for c in node.children):
            frames.append((mark, False, start))
            return False
        if t in transparent:
            frames.append((mark, False, start))
            return True
        if t in string_nodes:
            literal = string_tokens(node, lang)
            if literal is not None:
                toks.extend(literal)
                frames.append((mark, False, start))
                return False
        t = aliases.get(t, t)
        if node.child_count == 0:
            # JS `x => x` is `(x) => x` after prettier: a bare parameter reads as a parameter list
            wrap = bool(bare_fields) and cursor.field_name in bare_fields
            if wrap:
                toks.extend(bare_open)
            prefix = _leaf_prefix.get(t)
            if prefix is None:
                prefix = _leaf_prefix[t] = t.encode() + b"="
            text = node.text or b""
            if any(n in t for n in _NUMERIC):
                text = text.lower()  # 0xD800 is 0xd800, 1E5 is 1e5: formatters change the case
            elif t in quote_leaves:
                text = text.strip(b"\"'").lower()
            elif t in layout_text:
                text = jsx_text(text)
                if not text:
                    frames.append((mark, False, start))
                    return False
            toks.append(prefix + text)
            if wrap:
                toks.extend([CLOSE] * len(bare_open))
            frames.append((mark, False, start))
            return False
        tok = _open_tokens.get(t)
        if tok is None:
            tok = _open_tokens[t] = OPEN + t.encode()
        toks.append(tok)
        frames.append((mark, True, start))
        return True

    def leave() -> None:
        mark, close, start = frames.pop()
        if close:
            toks.append(CLOSE)
        if mark != -1:
            spans[mark] = (start, len(toks))

    depth = 0
    descend = enter(cursor.node)
    while True:
        if descend and cursor.goto_first_child():
            depth += 1
            slots.append(True)
            descend = enter(cursor.node)
            continue
        while True:
            leave()
            if depth == 0:
                return toks, spans
            if cursor.goto_next_sibling():
                descend = enter(cursor.node)
                break
            cursor.goto_parent()
            slots.pop()
            depth -= 1


_NUMERIC = ("integer", "float", "number", "int_literal", "imaginary")
_STRING = re.compile(rb'([A-Za-z]*)("""|\'\'\'|"|\'|`)(.*)\2', re.S)
_INTERPOLATED = frozenset({"interpolation", "template_substitution"})


def string_tokens(node, lang: Language) -> list[bytes] | None:
    """A literal as its prefix letters and content, quote style and quote escapes undone.

    Adjacent literals read as one (`"a" "b"` is `"ab"`; formatters join them, f-strings too), and
    interpolations are walked like code between the text runs. None: not a literal shape we know.
    """
    parts = node.named_children if node.type == "concatenated_string" else [node]
    prefix: set[int] = set()
    out: list[bytes] = []
    text = bytearray()
    for part in parts:
        m = _STRING.fullmatch(part.text or b"")
        if m is None:
            return None
        prefix.update(m.group(1).lower().replace(b"u", b""))
        holes = [c for c in part.named_children if c.type in _INTERPOLATED]
        if not holes:
            text += _unquote(m.group(3))
            continue
        for c in part.children:
            if c.type in _INTERPOLATED:
                out.append(b"string=" + bytes(text))
                text.clear()
                out.extend(token_stream(c, lang, set())[0])
            elif c.type not in ("string_start", "string_end") and c.is_named:
                text += _unquote(c.text or b"")
    out.append(b"string=" + bytes(text))
    return [b"\x01string:" + bytes(sorted(prefix)), *out, CLOSE]


def _unquote(raw: bytes) -> bytes:
    return raw.replace(b"\\'", b"'").replace(b'\\"', b'"')


_LINE_BREAK = re.compile(rb"\r\n|\n|\r")


def jsx_text(text: bytes) -> bytes:
    """JSX text as the compiler reads it: line breaks and the indentation around them are layout."""
    lines = _LINE_BREAK.split(text.replace(b"\t", b" "))
    last = max((i for i, line in enumerate(lines) if line.strip(b" ")), default=-1)
    out = []
    for i, line in enumerate(lines):
        if i > 0:
            line = line.lstrip(b" ")
        if i < len(lines) - 1:
            line = line.rstrip(b" ")
        if line:
            out.append(line + (b" " if i != last else b""))
    return b"".join(out)


def symbol_hash(toks: list[bytes], span: tuple[int, int], holes: Iterable[tuple[int, int]]) -> tuple[str, float]:
    """Hash and entropy (bits) of a symbol's tokens, with its own name spans punched out."""
    start, end = span
    part = toks[start:end]
    for hs, he in sorted(holes, reverse=True):
        if start <= hs and he <= end:
            part[hs - start : he - start] = [HOLE]
    return digest(TREE_PREFIX, SEP.join(part)), information_bits(
        t for t in part if t[:1] not in (OPEN, CLOSE, HOLE)
    )


def information_bits(tokens: Iterable[bytes | str]) -> float:
    """Total Shannon information of a token multiset, N x H in bits: how much a body says."""
    counts = Counter(tokens)
    n = sum(counts.values())
    if n == 0:
        return 0.0
    return max(0.0, -sum(c * math.log2(c / n) for c in counts.values()))
