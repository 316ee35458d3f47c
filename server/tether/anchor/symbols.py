"""Code symbols with tree-sitter: qualified names, discriminators, normalized hashes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from .languages import Language, query_source
from .model import Symbol
from .normalize import symbol_hash, token_stream

_WS = re.compile(r"\s+")
_TRAILING_COMMA = re.compile(r",\s*([)\]>])")
_INNER_SPACE = re.compile(r"(?<=[(\[])\s+|\s+(?=[)\]])")
_AROUND_PUNCT = re.compile(r"\s*([^\w\s])\s*")
MAX_DEPTH_WALK = 10_000


def spell(text: str) -> str:
    """A discriminator as the source spells it, whitespace collapsed: what users type."""
    # a formatter wrapping a long parameter list adds a trailing comma and line breaks: not a new spelling
    return _INNER_SPACE.sub("", _TRAILING_COMMA.sub(r"\1", _WS.sub(" ", text))).strip()


def canonical(text: str | None) -> str | None:
    """The comparison form of a discriminator: whitespace forgiven entirely around punctuation."""
    if text is None:
        return None
    return _AROUND_PUNCT.sub(r"\1", spell(text)).replace("'", '"')


@cache
def _parser(grammar: str):
    from tree_sitter_language_pack import get_parser

    return get_parser(grammar)


@cache
def _query(lang: Language):
    from tree_sitter import Query
    from tree_sitter_language_pack import get_language

    return Query(get_language(lang.grammar), query_source(lang))


@dataclass(slots=True)
class _Def:
    node: object
    root: object  # the hashed node: the definition or its wrapper (decorators)
    kind: str
    name: str
    holes: list[int]  # node ids left out of the hash: name, receiver
    params: str | None
    receiver: str | None
    keywords: tuple[str, ...]


def _text(node) -> str:
    return node.text.decode("utf-8", "replace")


def _collect(lang: Language, tree) -> tuple[dict[int, _Def], dict[int, tuple[str, str | None]]]:
    from tree_sitter import QueryCursor

    defs: dict[int, tuple[int, _Def]] = {}
    scopes: dict[int, tuple[int, str, str | None]] = {}
    for pattern, caps in QueryCursor(_query(lang)).matches(tree.root_node):
        if "scope" in caps:
            # matches do not arrive in pattern order: the first pattern wins, as for definitions
            scope = caps["scope"][0]
            if scope.id in scopes and scopes[scope.id][0] <= pattern:
                continue
            name = caps.get("scope.name")
            trait = caps.get("scope.trait")
            scopes[scope.id] = (pattern, _text(name[0]) if name else "", spell(_text(trait[0])) if trait else None)
            continue
        key = next((k for k in caps if k.startswith("definition.")), None)
        if key is None or "name" not in caps:
            continue
        node = caps[key][0]
        if node.id in defs and defs[node.id][0] <= pattern:
            continue
        name_node = caps["name"][0]
        root = node
        while root.parent is not None and root.parent.type in lang.wrappers:
            root = root.parent
        holes = [name_node.id]
        receiver = None
        if "receiver" in caps:
            receiver = _text(caps["receiver"][0])
            holes.append(caps["receiver"][0].id)
        keywords: tuple[str, ...] = ()
        if lang.disc_keywords:
            keywords = tuple(
                c.type
                for c in node.children
                if not c.is_named and c.type in lang.disc_keywords and c.start_byte < name_node.start_byte
            )
        params = spell(_text(caps["params"][0])) if "params" in caps else None
        d = _Def(node, root, key.split(".", 1)[1], _text(name_node), holes, params, receiver, keywords)
        defs[node.id] = (pattern, d)
    # a wrapper shared by several definitions (`const a = 1, b = 2`, Go `const ( ... )`) is none's
    shared: dict[int, int] = {}
    for _, d in defs.values():
        shared[d.root.id] = shared.get(d.root.id, 0) + 1
    for _, d in defs.values():
        if shared[d.root.id] > 1:
            d.root = d.node
    return {k: v for k, (_, v) in defs.items()}, {k: (n, t) for k, (_, n, t) in scopes.items()}


def _discriminator(lang: Language, d: _Def, trait: str | None, in_scope: bool) -> str | None:
    if in_scope:
        return trait if trait is not None else lang.scope_default_disc
    if d.params is None:
        return " ".join(d.keywords) or None  # JS `static x = 1` beside an instance field `x`
    return " ".join((*d.keywords, d.params)) if d.keywords else d.params


def extract_symbols(lang: Language, source: bytes) -> list[Symbol]:
    """Every symbol in `source`, in source order, twins told apart by discriminator."""
    tree = _parser(lang.grammar).parse(source)
    defs, scopes = _collect(lang, tree)
    if not defs:
        return []
    roots = {d.root.id: d for d in defs.values()}
    prepared = []
    top_roots = []
    for d in defs.values():
        prefix: list[str] = []
        trait: str | None = None
        in_scope = False
        enclosing_kind: str | None = None
        nested = False
        node = d.root.parent
        while node is not None:
            nid = node.id
            if nid in defs:
                outer = defs[nid]
                prefix.append(outer.name)
                enclosing_kind = enclosing_kind or outer.kind
            elif nid in scopes:
                sname, strait = scopes[nid]
                if sname:
                    prefix.append(sname)
                if not in_scope:
                    in_scope, trait = True, strait
                enclosing_kind = enclosing_kind or "impl"
            if nid in roots:
                nested = True
            node = node.parent
        prefix.reverse()
        if d.receiver:
            prefix.append(d.receiver)
            enclosing_kind = enclosing_kind or "struct"
        kind = d.kind
        if kind == "function" and enclosing_kind in lang.class_kinds:
            kind = "method"
        qualname = ".".join((*prefix, d.name))
        prepared.append((d, qualname, kind, _discriminator(lang, d, trait, in_scope)))
        if not nested:
            top_roots.append(d.root)
    marks = {d.root.id for d in defs.values()} | {h for d in defs.values() for h in d.holes}
    toks: list[bytes] = []
    spans: dict[int, tuple[int, int]] = {}
    for root in top_roots:
        offset = len(toks)
        t, s = token_stream(root, lang, marks)
        toks.extend(t)
        spans.update({k: (a + offset, b + offset) for k, (a, b) in s.items()})
    out = []
    for d, qualname, kind, disc in prepared:
        span = spans.get(d.root.id)
        if span is None:
            continue
        h, bits = symbol_hash(toks, span, [spans[h] for h in d.holes if h in spans])
        r = d.root
        out.append(
            Symbol(qualname, disc, kind, r.start_point[0] + 1, r.end_point[0] + 1, r.start_byte, r.end_byte, h, round(bits, 1))
        )
    out.sort(key=lambda s: (s.start_byte, -s.end_byte))
    return disambiguate(out)


def disambiguate(symbols: list[Symbol]) -> list[Symbol]:
    """Twins whose discriminators still collide get an ordinal (`#1`, `#2`) in source order."""
    groups: dict[tuple[str, str | None], list[int]] = {}
    for i, s in enumerate(symbols):
        groups.setdefault((s.qualname, canonical(s.discriminator)), []).append(i)
    result = list(symbols)
    for idxs in groups.values():
        if len(idxs) < 2:
            continue
        for n, i in enumerate(idxs, 1):
            s = symbols[i]
            disc = f"{s.discriminator}#{n}" if s.discriminator else f"#{n}"
            result[i] = Symbol(s.qualname, disc, s.kind, s.start_line, s.end_line, s.start_byte, s.end_byte, s.hash, s.entropy)
    return result
