"""Code symbols with tree-sitter: qualified names, discriminators, normalized hashes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from tether.anchor.disc import canonical, spell
from tether.anchor.grammars import matches, parser, query
from tether.anchor.implied import HOOKS
from tether.anchor.languages import Language
from tether.anchor.model import Symbol
from tether.anchor.normalize import symbol_tokens, token_streams, tokens_bits, tokens_hash
from tether.anchor.tokens import IMPLIED
from tether.anchor.unparsed import leaves, unparsed_after

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from tree_sitter import Node

_AROUND_PUNCT = re.compile(r"\s*([^\w\s])\s*")
MAX_DEPTH_WALK = 10_000


@cache
def _fixed_discs(lang: Language) -> tuple[str | None, ...]:
    """Per pattern, a discriminator the query sets (`(#set! discriminator "self.")`, Ruby)."""
    q = query(lang)
    return tuple((q.pattern_settings(i) or {}).get("discriminator") for i in range(q.pattern_count))


@dataclass(slots=True)
class _Def:
    node: Node
    root: Node  # the hashed node: the definition or its wrapper (decorators)
    kind: str
    name: str
    holes: list[int]  # node ids left out of the hash: name, receiver
    params: str | None
    receiver: str | None
    keywords: tuple[str, ...]
    parts: list  # nodes hashed after `root`, in order: a Dart body beside its signature (@body)
    above: tuple = ()  # the ancestors of `root`, outermost first
    hole_kinds: tuple[int, ...] = ()  # kind ids of the hole nodes
    prefixes: bool = True  # its name prefixes the definitions inside it (not when captured @unprefixed)


def ancestors(tree, nodes: list) -> dict[int, tuple]:
    """Each node's ancestors (outermost first), from one walk down the tree that enters only the
    nodes holding one of them. `node.parent` would do, but tree-sitter finds a parent by walking
    down from the root past every earlier sibling: quadratic in a file of many definitions."""
    targets = sorted({n.id: n for n in nodes}.values(), key=lambda n: (n.start_byte, -n.end_byte))
    out: dict[int, tuple] = {}
    if not targets:
        return out
    cursor = tree.walk()
    path: list = []  # the nodes the cursor is inside, outermost first
    i = 0  # the next target not found yet: targets are met in this order (preorder)
    node = cursor.node
    while True:
        while i < len(targets) and targets[i].id == node.id:
            out[node.id] = tuple(path)
            i += 1
        if i == len(targets):
            break
        nxt = targets[i].start_byte
        if node.start_byte <= nxt < node.end_byte and cursor.goto_first_child():
            path.append(node)  # a target lies within: go in
        else:
            while not cursor.goto_next_sibling():
                if not path:
                    break
                cursor.goto_parent()
                path.pop()
            else:
                node = cursor.node
                continue
            break
        node = cursor.node
    for n in targets[i:]:  # not met (a target the tree does not hold as expected): ask tree-sitter
        chain, p = [], n.parent
        while p is not None:
            chain.append(p)
            p = p.parent
        out[n.id] = tuple(reversed(chain))
    return out


def _text(node) -> str:
    return node.text.decode("utf-8", "replace")


def _collect(lang: Language, tree, source: bytes) -> tuple[dict[int, _Def], dict[int, tuple[str, str | None]]]:
    defs: dict[int, tuple[int, _Def]] = {}
    scopes: dict[int, tuple[int, str, str | None]] = {}
    # A match that captured its container `@within` defines something only if another pattern
    # captured that container `@defines` (JavaScript: the members of objects that define an API,
    # written once for every kind of such object instead of once per kind).
    defining: set[int] = set()
    within: list[tuple[int, dict]] = []
    for pattern, caps in matches(query(lang), tree.root_node):
        if "defines" in caps:
            defining.update(n.id for n in caps["defines"])
        elif "scope" in caps:
            # matches do not arrive in pattern order: the first pattern wins, as for definitions
            scope = caps["scope"][0]
            if scope.id in scopes and scopes[scope.id][0] <= pattern:
                continue
            name = caps.get("scope.name")
            trait = caps.get("scope.trait")
            sname = _path(lang, _text(name[0])) if name else ""
            scopes[scope.id] = (pattern, sname, spell(_text(trait[0])) if trait else None)
        elif "within" in caps:
            within.append((pattern, caps))
        else:
            _add_def(lang, pattern, caps, source, defs)
    for pattern, caps in within:
        if caps["within"][0].id in defining:
            _add_def(lang, pattern, caps, source, defs)
    ancestry = ancestors(tree, [d.node for _, d in defs.values()])
    for _, d in defs.values():
        up = ancestry.get(d.node.id, ())
        i = len(up)
        while i and up[i - 1].type in lang.wrappers:
            i -= 1
        if i < len(up):
            d.root = up[i]
        d.above = up[:i]
    # a wrapper shared by several definitions (`const a = 1, b = 2`, Go `const ( ... )`) is none's
    shared: dict[int, int] = {}
    for _, d in defs.values():
        shared[d.root.id] = shared.get(d.root.id, 0) + 1
    for _, d in defs.values():
        if shared[d.root.id] > 1:
            d.root = d.node
            d.above = ancestry.get(d.node.id, ())
    return {k: v for k, (_, v) in defs.items()}, {k: (n, t) for k, (_, n, t) in scopes.items()}


def _add_def(lang: Language, pattern: int, caps: dict, source: bytes, defs: dict[int, tuple[int, _Def]]) -> None:
    """The definition a match captured, unless an earlier pattern defined that node already."""
    key = next((k for k in caps if k.startswith("definition.")), None)
    if key is None or "name" not in caps:
        return
    node = caps[key][0]
    if node.id in defs and defs[node.id][0] <= pattern:
        return
    name_node = caps["name"][0]
    root = node  # widened to its wrappers by `_collect`, once every definition's ancestors are known
    holes, hole_kinds = [name_node.id], [name_node.kind_id]
    receiver = None
    if "receiver" in caps:
        receiver = _path(lang, _text(caps["receiver"][0]))
        holes.append(caps["receiver"][0].id)
        hole_kinds.append(caps["receiver"][0].kind_id)
    keywords: tuple[str, ...] = ()
    if lang.disc_keywords:
        keywords = tuple(
            c.type
            for c in node.children
            if not c.is_named and c.type in lang.disc_keywords and c.start_byte < name_node.start_byte
        )
    params = _params(caps["params"], source) if "params" in caps else _fixed_discs(lang)[pattern]
    if lang.arity and "params" in caps:
        params = f"/{_arity(caps['params'][0])}"
    parts = [caps["body"][0]] if "body" in caps else []
    d = _Def(
        node,
        root,
        key.split(".", 1)[1],
        _path(lang, _text(name_node)),
        holes,
        params,
        receiver,
        keywords,
        parts,
        hole_kinds=tuple(hole_kinds),
        prefixes="unprefixed" not in caps,
    )
    defs[node.id] = (pattern, d)


def _arity(params) -> int:
    return sum(1 for c in params.named_children if "comment" not in c.type)


def _merge_clauses(prepared: list) -> list:
    """Consecutive sibling definitions with one name and discriminator are one symbol.

    Elixir clauses (with their `@spec`), Haskell equations (with their signature): each clause is
    not a symbol of its own, and editing any of them edits the function.
    """
    out: list = []
    last: dict[int, int] = {}  # parent node id -> index in `out` of the last definition under it
    for group, qualname, kind, disc in sorted(prepared, key=lambda p: p[0][0].root.start_byte):
        above = group[0].above
        pid = above[-1].id if above else -1
        i = last.get(pid)
        if i is not None and out[i][1] == qualname and canonical(out[i][3]) == canonical(disc):
            out[i][0].extend(group)
            continue
        last[pid] = len(out)
        out.append((group, qualname, kind, disc))
    return out


def _params(nodes: list, source: bytes) -> str:
    """The parameter list as spelled; several captures (`[T](x: A)(y: B)`, Swift's bare
    parentheses) span from the first to the last."""
    if len(nodes) == 1:
        return spell(_text(nodes[0]))
    start, end = min(n.start_byte for n in nodes), max(n.end_byte for n in nodes)
    return spell(source[start:end].decode("utf-8", "replace"))


_TEMPLATE_ARGS = re.compile(r"<[^<>]*>")


def _path(lang: Language, text: str) -> str:
    """A name spelled as a path (`ns::Stack<T>::push`, Ruby `Billing::Invoice`) as dotted segments."""
    if not lang.path_separators or text.isidentifier():
        return text  # an identifier has no separator, space or punctuation to normalize
    text = _AROUND_PUNCT.sub(r"\1", spell(text))  # `operator ==` is `operator==`
    if not any(s in text for s in lang.path_separators):
        return text  # most names: the scan below would find one segment, kept as spelled
    segs: list[str] = []
    depth = start = i = 0
    while i < len(text):
        c = text[i]
        if c in "<>":  # `Map<K, std::string>::get` splits outside template arguments only
            depth = depth + 1 if c == "<" else max(0, depth - 1)
        elif depth == 0:
            sep = next((s for s in lang.path_separators if text.startswith(s, i)), None)
            if sep is not None:
                segs.append(text[start:i])
                i = start = i + len(sep)
                continue
        i += 1
    out = []
    for seg in segs:  # template arguments belong to a type, not its name: `Stack<T>::push` is `Stack.push`
        while "<" in seg and (bare := _TEMPLATE_ARGS.sub("", seg)) != seg:
            seg = bare
        if seg:
            out.append(seg)
    out.append(text[start:])  # the last segment keeps its spelling: `operator<`, `operator<=>`
    return ".".join(out)


def _discriminator(lang: Language, d: _Def, trait: str | None, in_scope: bool) -> str | None:
    if in_scope and (trait is not None or lang.scope_default_disc is not None):
        return trait if trait is not None else lang.scope_default_disc
    if d.params is None:
        return " ".join(d.keywords) or None  # JS `static x = 1` beside an instance field `x`
    return " ".join((*d.keywords, d.params)) if d.keywords else d.params


def extract_symbols(lang: Language, source: bytes, entropy: bool = False) -> list[Symbol]:
    """Every symbol in `source`, in source order, twins told apart by discriminator.

    `entropy`: also measure each symbol's information (else None). Only the low-entropy gate
    reads it, for the one symbol about to be followed; the index does not pay for it per symbol.
    """
    tree = parser(lang.grammar).parse(source)
    defs, scopes = _collect(lang, tree, source)
    if not defs:
        return []
    broken = tree.root_node.has_error
    hash_format = lang.hash_format
    roots = {d.root.id: d for d in defs.values()}
    roots.update({p.id: d for d in defs.values() for p in d.parts})
    prepared = []
    top_roots = []
    for d in defs.values():
        prefix: list[str] = []
        trait: str | None = None
        in_scope = False
        enclosing_kind: str | None = None
        nested = False
        for node in reversed(d.above):
            nid = node.id
            if nid in defs and defs[nid].prefixes:
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
        prefix.reverse()
        if d.receiver:
            prefix.append(d.receiver)
            enclosing_kind = enclosing_kind or "struct"
        kind = d.kind
        if kind == "function" and enclosing_kind in lang.class_kinds:
            kind = "method"
        qualname = ".".join((*prefix, d.name))
        prepared.append(([d], qualname, kind, _discriminator(lang, d, trait, in_scope)))
        if not nested:
            top_roots.append(d.root)
            top_roots.extend(d.parts)
    if lang.merge_clauses:
        prepared = _merge_clauses(prepared)
    marks = set(roots) | {h for d in defs.values() for h in d.holes}
    mark_kinds = {n.kind_id for d in defs.values() for n in (d.root, *d.parts)}
    mark_kinds.update(k for d in defs.values() for k in d.hole_kinds)
    toks: list[bytes] = []
    spans: dict[int, tuple[int, int]] = {}
    token_streams(top_roots, lang, marks, toks, spans, source, mark_kinds)
    out = []
    for group, qualname, kind, disc in prepared:
        d = group[0]
        span = spans.get(d.root.id)
        if span is None:
            continue
        if len(group) == 1 and not d.parts:
            part = symbol_tokens(toks, span, [spans[h] for h in d.holes if h in spans])
        else:
            part = _joined(group, toks, spans)
        if lang.implied is not None:
            part += HOOKS[lang.implied](d.node, lang, source)
        r, e = d.root, (group[-1].parts or [group[-1].root])[-1]
        if broken and e.has_error:
            # the grammar gave up inside it (a `}` it made up): the rest of its source is the
            # ERROR after it, part of it as written, so an edit there is an edit to it
            for tail in unparsed_after(e):
                part += [IMPLIED + b"unparsed", *leaves(tail, source)]
                e = tail
        bits = round(tokens_bits(part), 1) if entropy else None
        out.append(
            Symbol(
                qualname,
                disc,
                kind,
                r.start_point[0] + 1,
                _last_line(e),
                r.start_byte,
                e.end_byte,
                tokens_hash(part, hash_format),
                bits,
            )
        )
    out.sort(key=lambda s: (s.start_byte, -s.end_byte))
    return disambiguate(out)


def _joined(group: list, toks: list[bytes], spans: dict[int, tuple[int, int]]) -> list[bytes]:
    """Several nodes' tokens in order (clauses, a signature and its body), names punched out: hashed as one."""
    joined: list[bytes] = []
    holes: list[tuple[int, int]] = []
    for d in group:
        for node in (d.root, *d.parts):
            a, b = spans[node.id]
            shift = len(joined) - a
            joined.extend(toks[a:b])
            holes += [
                (spans[h][0] + shift, spans[h][1] + shift) for h in d.holes if h in spans and a <= spans[h][0] < b
            ]
    return symbol_tokens(joined, (0, len(joined)), holes)


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
            result[i] = Symbol(
                s.qualname, disc, s.kind, s.start_line, s.end_line, s.start_byte, s.end_byte, s.hash, s.entropy
            )
    return result


def _last_line(node) -> int:
    """1-based line of a node's last character: a node that ends with its newline (Ruby `end\n`,
    Bash heredocs) ends at column 0 of the next row, which is not part of it."""
    row, col = node.end_point
    return max(node.start_point[0] + 1, row + (1 if col else 0))
