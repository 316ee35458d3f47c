"""Literal and leaf text as the normalized hash reads it: quote style, escapes, prefixes, JSX text.

The walk in normalize.py sends string literals and text-bearing leaves here; what counts as the
same literal is a format decision like the rest of normalization (see normalize.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tether.anchor.languages import Language
from tether.anchor.tokens import CLOSE


def leaf_text(lang: Language, t: str, text: bytes) -> bytes | None:
    """A leaf's text as hashed, for the kinds whose text is not kept as is; None: layout only."""
    if any(n in t for n in NUMERIC):
        return text.lower()  # 0xD800 is 0xd800, 1E5 is 1e5: formatters change the case
    if t in lang.quote_leaves:
        return text.strip(b"\"'").lower()
    if lang.caseless and t.startswith(lang.caseless) and text[:1] not in b"\"'`[":
        return text.lower()  # SQL `select` is `SELECT`; a quoted name keeps its case
    if t in lang.layout_text:
        return jsx_text(text) or None
    return text


NUMERIC = ("integer", "float", "number", "int_literal", "imaginary")
_STRING = re.compile(rb'([A-Za-z]*)("""|\'\'\'|"|\'|`)(.*)\2', re.S)
_RAW_SENSITIVE = re.compile(rb"[\\$]|#\{")
_INTERPOLATED = frozenset({"interpolation", "template_substitution"})
# What starts an interpolation in every grammar tether reads: Python/C# `{x}`, Ruby/Elixir `#{x}`
# and `#@x`, Scala/Dart/PHP `$x` and `${x}`, Swift `\(x)`
_OPENS_HOLE = re.compile(rb"[{$#@\\]")
_VERBATIM = ord("R")  # beside the (lowercased) prefix letters: a verbatim-quoted literal with a backslash


def string_tokens(node, lang: Language, walk: Callable[[object, Language], list[bytes]]) -> list[bytes] | None:
    """A literal as its prefix letters and content, quote style and quote escapes undone.

    Adjacent literals read as one (`"a" "b"` is `"ab"`; formatters join them, f-strings too), and
    interpolations are walked like code between the text runs, by `walk(node, lang)` (the
    normalizer's own walk, handed in: it is the one calling this). None: not a literal shape we know.
    """
    parts = node.named_children if node.type == "concatenated_string" else [node]
    prefix: set[int] = set()
    out: list[bytes] = []
    text = bytearray()
    for part in parts:
        m = _STRING.fullmatch(part.text or b"")
        if m is None:
            return None
        letters, quote, body = m.group(1).lower(), m.group(2), m.group(3)
        if lang.literal_values and b"f" in letters and not _BRACES.search(body.replace(b"{{", b"").replace(b"}}", b"")):
            # no placeholder in it, whatever the grammar made of it: the plain string it equals
            letters, body = letters.replace(b"f", b""), body.replace(b"{{", b"{").replace(b"}}", b"}")
        prefix.update(letters.replace(b"u", b""))
        if lang.raw_quote is not None and _RAW_SENSITIVE.search(body):
            prefix.update(quote[:1])  # here the quote decides what `\n`, `$x`, `#{x}` mean
        # a raw literal takes no escapes: `r"\""` is a backslash and a quote, `"\""` a quote alone
        verbatim = b"r" in letters or quote in lang.verbatim_quotes
        if quote in lang.verbatim_quotes and b"\\" in body:
            prefix.add(_VERBATIM)
        unquote: Callable[[bytes], bytes]
        if verbatim:
            unquote = bytes
        elif lang.literal_values and b"\\" in body:
            unquote = _unquote_bytes_value if b"b" in letters else _unquote_value
        else:
            unquote = _unquote
        # most literals cannot hold an interpolation: none of the characters that open one is in them
        holes = [c for c in part.named_children if c.type in _INTERPOLATED] if _OPENS_HOLE.search(body) else ()
        if not holes:
            text += unquote(body)
            continue
        raw, base = part.text or b"", part.start_byte
        pos, end = m.start(3), m.end(3)
        for c in part.children:
            # text no child covers (Dart keeps none of it in nodes); empty where children tile it
            text += unquote(raw[pos : min(c.start_byte - base, end)])
            pos = max(pos, c.end_byte - base)
            if c.type in _INTERPOLATED:
                out.append(b"string=" + bytes(text))
                text.clear()
                out.extend(walk(c, lang))
            elif c.type not in ("string_start", "string_end") and c.is_named:
                text += unquote(c.text or b"")
        text += unquote(raw[pos:end])
    out.append(b"string=" + bytes(text))
    return [b"\x01string:" + bytes(sorted(prefix)), *out, CLOSE]


def _unquote(raw: bytes) -> bytes:
    return raw.replace(b"\\'", b"'").replace(b'\\"', b'"')


_BRACES = re.compile(rb"[{}]")
# One escape at a time from the left, so `\\xAB` (a backslash, then text) is never read as `\xAB`.
_ESCAPES = re.compile(rb"\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|N\{[^}\\]*\}|.)", re.S)
_BYTES_ESCAPES = re.compile(rb"\\(?:x[0-9A-Fa-f]{2}|.)", re.S)  # `\u`, `\N` are no escapes in bytes


def _escape_case(m: re.Match) -> bytes:
    r"""`\xAB` is `\xab` and `\N{bullet}` is `\N{BULLET}`: the case black and ruff format write.
    Only the digits and the name: `\U0001F600` is not `\u0001f600`."""
    e = m.group()
    kind = e[1:2]
    if kind == b"N":
        return e[:2] + e[2:].upper()
    return e[:2] + e[2:].lower() if kind in (b"x", b"u", b"U") and len(e) > 2 else e


def _unquote_value(raw: bytes) -> bytes:
    return _unquote(_ESCAPES.sub(_escape_case, raw))


def _unquote_bytes_value(raw: bytes) -> bytes:
    return _unquote(_BYTES_ESCAPES.sub(_escape_case, raw))


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
