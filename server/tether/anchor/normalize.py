"""Normalized token streams and hashes: what counts as an edit and what is cosmetic.

The stream keeps node types (with explicit open/close so block structure counts: a statement
dedented out of an `if` is an edit), identifier and literal text, operators and keywords. It drops
comments, docstrings, whitespace, grouping punctuation and quote style. Changing any of this is a
format change: bump the `t1:` prefix.
"""

from __future__ import annotations

import hashlib
import math
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
    cursor = root.walk()

    def enter(node) -> bool:
        nid = node.id
        mark = nid if nid in marks else -1
        start = len(toks)
        t = node.type
        if not node.is_named:
            if t not in PUNCTUATION:
                tok = _anon_tokens.get(t)
                if tok is None:
                    tok = _anon_tokens[t] = t.encode()
                toks.append(tok)
            frames.append((mark, False, start))
            return False
        if "comment" in t or t in skip or (docstrings and t in _DOC_TYPES and _is_docstring(node)):
            frames.append((mark, False, start))
            return False
        if t in transparent:
            frames.append((mark, False, start))
            return True
        if node.child_count == 0:
            # JS `x => x` is `(x) => x` after prettier: a bare parameter reads as a parameter list
            wrap = bool(bare_fields) and cursor.field_name in bare_fields
            if wrap:
                toks.append(b"\x01formal_parameters")
            prefix = _leaf_prefix.get(t)
            if prefix is None:
                prefix = _leaf_prefix[t] = t.encode() + b"="
            text = node.text or b""
            if t in quote_leaves:
                text = text.strip(b"\"'").lower()
            toks.append(prefix + text)
            if wrap:
                toks.append(CLOSE)
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
            depth -= 1


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
