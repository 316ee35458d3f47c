"""Normalized token streams and hashes: what counts as an edit and what is cosmetic.

The stream keeps node types (with explicit open/close so block structure counts: a statement
dedented out of an `if` is an edit), identifier and literal text, operators and keywords. It drops
comments, docstrings, whitespace, grouping punctuation (not a separator before an empty slot),
quote style and JSX text layout. Changing any of this is a format change: raise the language's
format in hash_formats.py (its hashes are then `t<N>:`; format 1 is `t1:`).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Collection, Container, Iterable, Sequence
from functools import cache

from tether.anchor.languages import Language
from tether.anchor.literals import NUMERIC, leaf_text, string_tokens
from tether.anchor.tokens import CLOSE, HOLE, OPEN, SEP

TREE_PREFIX = "t1:"


def digest(prefix: str, data: bytes) -> str:
    return prefix + hashlib.blake2b(data, digest_size=16).hexdigest()


# Separators that can stand before an empty slot: `xs[:n]` is not `xs[n:]`, `[, b] = xs` is not
# `[b] = xs`. Only a separator with no operand before it counts, so trailing commas stay cosmetic.
SEPARATORS = frozenset({",", ":"})


_DOC_TYPES = frozenset({"string", "concatenated_string", "expression_statement"})
_DOC_OWNERS = ("function_definition", "class_definition")


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
    if owner is None or owner.type not in _DOC_OWNERS:
        return False
    prev = node.prev_named_sibling
    while prev is not None and prev.type == "comment":
        prev = prev.prev_named_sibling
    return prev is None


# -- the walk ----------------------------------------------------------------------------------------
# The walk is the cold index's hot loop: millions of nodes per repository. What it does with a node
# depends almost only on the node's kind, and a kind id (`node.kind_id`, the public grammar symbol)
# always names one type, named or anonymous (checked over 10M nodes of every grammar). So the rules
# are worked out once per kind, from the type's name, in `_Kind`, instead of per node from
# `node.type` strings. A rule that needs the node itself (its parent, children, text) goes in
# `_special` and its types are marked `_SPECIAL`; the walk sends only those nodes there.
_ANON, _DROP, _TRANSPARENT, _NAMED, _LEAF, _SPECIAL = range(6)


class _Kind:
    """How the walk treats every node of one kind in one language."""

    __slots__ = ("alias", "code", "generic", "kept", "name", "plain", "prefix", "sep", "token")

    def __init__(self, lang: Language, name: str, named: bool) -> None:
        self.name = name
        if not named:  # anonymous: a keyword or operator, or punctuation (a separator may count)
            self.code = _ANON
            self.token = None if name in lang.punctuation else name.encode()
            self.sep = name.encode() if name in lang.punctuation and name in SEPARATORS else None
            # the parents in which this punctuation is meaning (Rust `[0; n]`), else falsy
            self.kept = lang.kept_semicolons if name == ";" else None
            return
        alias = self.alias = dict(lang.aliases).get(name, name)
        self.token = OPEN + alias.encode()
        self.prefix = alias.encode() + b"="
        self.plain = not (
            any(n in alias for n in NUMERIC)
            or alias in lang.quote_leaves
            or (lang.caseless and alias.startswith(lang.caseless))
            or alias in lang.layout_text
        )
        self.generic = _LEAF if alias in lang.opaque else _NAMED  # _NAMED: a leaf if it has no children
        if "comment" in name or name in lang.skip:
            self.code = _DROP
        elif (
            (lang.docstrings and name in _DOC_TYPES)
            or name in lang.comment_holders
            or name in lang.transparent_single
            or name in lang.string_nodes
            or (lang.meaningful_parens and name == "parenthesized_expression")
            or name in lang.noop_statements
        ):
            self.code = _SPECIAL
        elif name in lang.transparent:
            self.code = _TRANSPARENT
        else:
            self.code = self.generic


@cache
def _kinds(lang: Language) -> dict[int, _Kind]:
    return {}  # filled as kinds are met: a grammar has hundreds, a file uses a few dozen


def _walk_hole(node, lang: Language) -> list[bytes]:
    """An interpolation inside a string literal, walked as code (literals.py calls back here)."""
    return token_stream(node, lang, ())[0]


def token_stream(
    root,
    lang: Language,
    marks: Collection[int],
    toks: list[bytes] | None = None,
    spans: dict[int, tuple[int, int]] | None = None,
    source: bytes | None = None,
    mark_kinds: Collection[int] | None = None,
) -> tuple[list[bytes], dict[int, tuple[int, int]]]:
    """Normalized tokens of `root`'s subtree and the token span of every node id in `marks`.

    Appended to `toks` and `spans` when given (spans count from the start of `toks`); `source` is
    the text the tree was parsed from, else the root's own text is sliced. `mark_kinds`, the kind
    ids of the marked nodes, spares asking every other node for its id.
    """
    if source is None:
        return token_streams((root,), lang, marks, toks, spans, root.text or b"", mark_kinds, root.start_byte)
    return token_streams((root,), lang, marks, toks, spans, source, mark_kinds)


def token_streams(
    roots: Sequence,
    lang: Language,
    marks: Collection[int],
    toks: list[bytes] | None,
    spans: dict[int, tuple[int, int]] | None,
    source: bytes,
    mark_kinds: Container[int] | None = None,
    base: int = 0,
) -> tuple[list[bytes], dict[int, tuple[int, int]]]:
    """`token_stream` of several subtrees of one tree in a row, one walk set up for all: a C
    header holds thousands of one-line definitions. `source[i - base]` is the tree's byte i."""
    kinds = _kinds(lang)
    src = source  # leaf text sliced from the source: `node.text` costs a memoryview per leaf
    bare_fields = lang.bare_param_fields
    bare_open, bare_close = _bare(lang)
    toks = [] if toks is None else toks
    append = toks.append
    spans = {} if spans is None else spans
    # the nodes the walk is inside, outermost first: (type, emits a close, marked id or -1, span start)
    frames: list[tuple[str, bool, int, int]] = []
    # no operand yet since the opening bracket or the last separator, at this depth (comments aside);
    # a named node that is not a comment always ends the slot, so a level left behind has none open
    slot = True
    if not marks:
        mark_kinds = ()
    elif mark_kinds is None:
        mark_kinds = _ANY
    if not roots:
        return toks, spans
    cursor = roots[0].walk()
    more = iter(roots[1:])
    # bound once: a method lookup per node is measurable at millions of nodes
    first_child, next_sibling, up = cursor.goto_first_child, cursor.goto_next_sibling, cursor.goto_parent
    while True:
        node = cursor.node
        kid = node.kind_id
        try:
            k = kinds[kid]
        except KeyError:
            k = kinds[kid] = _Kind(lang, node.type, node.is_named)
        if kid in mark_kinds and node.id in marks:
            mark, start = node.id, len(toks)
        else:
            mark = start = -1  # a span start is only read for a marked node
        code = k.code
        if code == _ANON:
            if k.token is not None:
                append(k.token)
                slot = False
            elif k.kept and frames and frames[-1][0] in k.kept:
                append(b";")
                slot = False
            else:
                if slot and k.sep is not None:
                    append(k.sep)
                slot = True
        elif code != _DROP:
            slot = False
            if code == _SPECIAL:
                code = _special(node, k, lang, frames, toks)
            if code == _NAMED:
                if first_child():
                    frames.append((k.name, True, mark, start))
                    append(k.token)  # type: ignore[arg-type]  # a named kind's token is always bytes; no assert in this hot loop
                    slot = True
                    continue
                code = _LEAF
            if code == _LEAF:
                # JS `x => x` is `(x) => x` after prettier: a bare parameter reads as a parameter list
                wrap = bare_fields and cursor.field_name in bare_fields
                if wrap:
                    toks.extend(bare_open)
                text: bytes | None  # None: leaf_text says layout only
                text = src[node.start_byte - base : node.end_byte - base]
                if not k.plain:
                    text = leaf_text(lang, k.alias, text)
                if text is not None:
                    append(k.prefix + text)
                    if wrap:
                        toks.extend(bare_close)
            elif code == _TRANSPARENT and first_child():
                frames.append((k.name, False, mark, start))
                slot = True
                continue
        if mark != -1:
            spans[mark] = (start, len(toks))
        while not next_sibling():
            if not frames:
                nxt = next(more, None)
                if nxt is None:
                    return toks, spans
                cursor.reset(nxt)  # the next subtree, as if walked on its own
                slot = True
                break
            up()
            _, close, mark, start = frames.pop()
            if close:
                append(CLOSE)
            if mark != -1:
                spans[mark] = (start, len(toks))
            slot = False


@cache
def _bare(lang: Language) -> tuple[list[bytes], list[bytes]]:
    # a bare `x => ...` is `(x) => ...`: the wrappers a parenthesized one would emit (a single-operand
    # wrapper that is transparent emits nothing there, so nothing here either)
    opened = [OPEN + n.encode() for n in lang.bare_param_nodes if n not in lang.transparent_single]
    return opened, [CLOSE] * len(opened)


class _Everything:
    def __contains__(self, item: object) -> bool:
        return True


_ANY = _Everything()


def _special(node, k: _Kind, lang: Language, frames: list, toks: list[bytes]) -> int:
    """The rules that look at the node, not only its kind: what it is, or _DROP once emitted."""
    t = k.name
    if lang.docstrings and t in _DOC_TYPES and _docstring(node, frames):
        return _DROP
    if t in lang.comment_holders and all("comment" in c.type or c.type in lang.punctuation for c in node.children):
        return _DROP
    if lang.meaningful_parens and t == "parenthesized_expression" and _meaningful_parens(node, frames):
        return _NAMED
    if t in lang.transparent or (t in lang.transparent_single and _one_operand(node)):
        return _TRANSPARENT
    if t in lang.noop_statements and _beside_others(node):
        return _DROP
    if t in lang.string_nodes:
        literal = string_tokens(node, lang, _walk_hole)
        if literal is not None:
            toks.extend(literal)
            return _DROP
    return k.generic


def _beside_others(node) -> bool:
    """A statement with another beside it in its block (a docstring counts, a comment does not):
    a `pass` there does nothing, and linters' fixes remove it (ruff PIE790). A lone `pass` stays:
    it is what `except E: pass` says."""
    for step in ("prev_named_sibling", "next_named_sibling"):
        other = getattr(node, step)
        while other is not None and "comment" in other.type:
            other = getattr(other, step)
        if other is not None:
            return True
    return False


def _one_operand(node) -> bool:
    """One named child, comments aside: a comment inside `{ x }` must not make it a block."""
    if node.named_child_count == 1:
        return True
    return sum(1 for c in node.named_children if "comment" not in c.type) == 1


_STATEMENT_PARENS = frozenset({"if_statement", "while_statement", "do_statement", "switch_statement", "with_statement"})


def _meaningful_parens(node, frames: list) -> bool:
    """JavaScript parentheses that change meaning: around an optional chain (a `?.` anywhere in
    them, which keeps a few redundant ones too), or around a string standing as a statement.
    The parentheses an `if (...)` or `while (...)` must have stay grouping: they never come or go."""
    if frames and frames[-1][0] in _STATEMENT_PARENS:
        return False
    if b"?." in (node.text or b""):
        return True
    return (
        bool(frames)
        and frames[-1][0] == "expression_statement"
        and node.named_child_count == 1
        and node.named_children[0].type == "string"
    )


def _docstring(node, frames: list) -> bool:
    """`_is_docstring`, most candidates refused from the frames: `node.parent` is a walk down from
    the tree's root in tree-sitter >= 0.22, and every Python expression statement is a candidate."""
    if frames and frames[-1][0] != "block":
        return False
    if len(frames) > 1 and frames[-2][0] not in _DOC_OWNERS:
        return False
    return _is_docstring(node)


def symbol_tokens(toks: list[bytes], span: tuple[int, int], holes: Iterable[tuple[int, int]]) -> list[bytes]:
    """A symbol's tokens, with its own name spans punched out."""
    start, end = span
    part = toks[start:end]
    for hs, he in sorted(holes, reverse=True):
        if start <= hs and he <= end:
            part[hs - start : he - start] = [HOLE]
    return part


def tokens_hash(part: list[bytes], hash_format: int = 1) -> str:
    return digest(TREE_PREFIX if hash_format == 1 else f"t{hash_format}:", SEP.join(part))


def tokens_bits(part: list[bytes]) -> float:
    """Information (bits) in a symbol's tokens, its structure left out: what the low-entropy gate
    measures. Counted in C, the structure's counts dropped in first-seen order, so the float sum
    is always taken in the same order."""
    counts = Counter(part)
    return _bits([c for t, c in counts.items() if t[:1] not in _STRUCTURE])


_STRUCTURE = frozenset({OPEN, CLOSE, HOLE})


def information_bits(tokens: Iterable[bytes | str]) -> float:
    """Total Shannon information of a token multiset, N x H in bits: how much a body says."""
    return _bits(list(Counter(tokens).values()))


def _bits(counts: list[int]) -> float:
    n = sum(counts)
    if n == 0:
        return 0.0
    return max(0.0, -sum([c * math.log2(c / n) for c in counts]))  # a list: no generator frames
