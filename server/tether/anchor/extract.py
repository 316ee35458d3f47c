"""From a file's bytes to the facts the index keeps: content hash, language, symbols."""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import replace
from functools import cache

from tether.anchor.config import CONFIG_KINDS, LOCK_FILES, extract_keys
from tether.anchor.config_formats import Malformed, parse
from tether.anchor.content import content_hash
from tether.anchor.grammars import matches, parser, query
from tether.anchor.languages import Language, language_for, language_for_script, language_named
from tether.anchor.markdown import extract_sections
from tether.anchor.model import FileFacts, Symbol
from tether.anchor.normalize import information_bits, token_stream
from tether.anchor.rst import RST_EXTENSIONS, extract_rst_sections
from tether.anchor.symbols import disambiguate, extract_symbols

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from tree_sitter import Node

CONFIG_KIND_NAMES = frozenset(CONFIG_KINDS.values())
MAX_PARSE_BYTES = 1_000_000
MARKDOWN_EXTENSIONS = (".md", ".markdown", ".mdx")
DOC_KINDS = frozenset({"markdown", "rst"})  # prose files whose sections are anchored by title path


def is_binary(data: bytes) -> bool:
    return b"\0" in data[:8192]


def kind_of(path: str) -> str | None:
    """The parser a path gets: a language name, "markdown", "rst", "json"/"yaml"/"toml", or None (file only)."""
    low = path.lower()
    if low.endswith(MARKDOWN_EXTENSIONS):
        return "markdown"
    if low.endswith(RST_EXTENSIONS):
        return "rst"
    conf = CONFIG_KINDS.get(os.path.splitext(low)[1])
    if conf:
        return conf
    lang = language_for(path)
    return lang.name if lang else None


def analysis_key(path: str) -> tuple:
    """All of a path that `analyze` reads: two files with equal bytes and equal keys have equal facts
    (vendored trees hold many copies: node's OpenSSL headers, one per target, 50 times over). The
    kind names the language too: for code it is the language `analyze` parses the path with."""
    return kind_of(path), os.path.basename(path) in LOCK_FILES


def analyze(path: str, data: bytes, entropy: bool = False, hash_format: int | None = None) -> FileFacts:
    """Hash the file and extract its symbols when it is text, small enough, and parseable.

    `entropy`: measure code symbols' information too (sections and keys always have theirs).
    `hash_format=1`: hash code as format 1 did (anchors written before their language's change).

    Symbols are hashed as the content hash reads the file, with CRLF line endings as LF: a
    checkout's line endings are no edit, and a multi-line string must not hash them in (else the
    index, which keeps a file whose content hash holds, and a re-parse would disagree). Their
    offsets are the file's own.
    """
    if b"\r\n" not in data:
        return _analyze(path, data, entropy, hash_format)
    facts = _analyze(path, data.replace(b"\r\n", b"\n"), entropy, hash_format)
    return facts.replace(size=len(data), symbols=tuple(_at_crlf_offsets(facts.symbols, data)))


def _at_crlf_offsets(symbols: Iterable[Symbol], data: bytes) -> Iterable[Symbol]:
    """Symbols found in `data` with CRLF read as LF, at offsets into `data` itself."""
    lfs: list[int]
    lfs, at = [], data.find(b"\r\n")
    while at != -1:
        lfs.append(at - len(lfs))  # where this line's LF sits once the CRs before it are gone
        at = data.find(b"\r\n", at + 2)
    for s in symbols:
        yield s.replace(
            start_byte=s.start_byte + bisect_left(lfs, s.start_byte),
            end_byte=s.end_byte + bisect_left(lfs, s.end_byte),
        )


def _analyze(path: str, data: bytes, entropy: bool, hash_format: int | None) -> FileFacts:
    h = content_hash(data)
    kind = kind_of(path)
    script = language_for_script(data) if kind is None and data[:2] == b"#!" else None
    if script is not None:
        kind = script.name  # an extensionless script (`bin/deploy`) read by its `#!` line
    if kind is None:
        return FileFacts(None, h, len(data), (), "unsupported")
    if is_binary(data):
        return FileFacts(kind, h, len(data), (), "binary")
    if len(data) > MAX_PARSE_BYTES:
        return FileFacts(kind, h, len(data), (), "too_large")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return FileFacts(kind, h, len(data), (), "encoding")
    if kind == "markdown":
        symbols = disambiguate(extract_sections(text))
    elif kind == "rst":
        symbols = disambiguate(extract_rst_sections(text))
    elif kind in CONFIG_KIND_NAMES:
        if os.path.basename(path) in LOCK_FILES:
            return FileFacts(kind, h, len(data), (), "generated")
        bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        try:
            roots = parse(kind, data[bom:])
        except Malformed:
            # key anchors are refused with `malformed_file`; the whole-file anchor still works
            return FileFacts(kind, h, len(data), (), "syntax")
        symbols = extract_keys(roots, data, bom)
    else:
        lang = language_for(path) or script
        assert lang is not None
        if hash_format == 1:
            lang = _format1(lang)
        symbols = embedded_symbols(lang, data, entropy) if lang.embedded else extract_symbols(lang, data, entropy)
    return FileFacts(kind, h, len(data), tuple(symbols))


@cache
def _format1(lang: Language) -> Language:
    """The language as hash format 1 read it: what anchors written before a format change hold."""
    if lang.hash_format == 1:
        return lang
    return replace(
        lang,
        format1=True,
        kept_semicolons=frozenset(),
        implied=None,
        noop_statements=frozenset(),
        literal_values=False,
        transparent_single=frozenset(),  # only TypeScript's is format 2 (no format-2 language had one before)
    )


def embedded_symbols(host: Language, data: bytes, entropy: bool = False) -> list[Symbol]:
    """Symbols of the code blocks a host file embeds (Vue/Svelte `<script>`), at host offsets.

    Each block is extracted as a file of its own language, so a function hashes the same in a
    `.vue` script as in a `.ts` file: moving it between them is followed.
    """
    out: list[Symbol] = []
    for block, inner in _blocks(host, data):
        rows, offset = block.start_point[0], block.start_byte
        if host.format1:
            inner = _format1(inner)  # an anchor written before the script language's format moved on
        for s in extract_symbols(inner, data[block.start_byte : block.end_byte], entropy):
            out.append(
                s.replace(
                    start_line=s.start_line + rows,
                    end_line=s.end_line + rows,
                    start_byte=s.start_byte + offset,
                    end_byte=s.end_byte + offset,
                )
            )
    out.sort(key=lambda s: (s.start_byte, -s.end_byte))
    return disambiguate(out)


def _blocks(host: Language, data: bytes) -> Iterable[tuple[Node, Language]]:
    """The code blocks a host file embeds, each with the language that parses it."""
    assert host.embedded is not None
    tree = parser(host.grammar).parse(data)
    for _, caps in matches(query(host), tree.root_node):
        for block in caps.get("embedded", ()):
            inner = language_named(host.embedded(block) or "")
            if inner is not None:  # else a language we do not parse (`lang="coffee"`): file-level only
                yield block, inner


# Node types whose text is data, not code: a word in them is not a name (`require('./extension')`).
# By word, since every grammar spells them its own way (`template_string`, `encapsed_string`,
# `line_comment`); characters by name, since C++ `template_*` and Scala's `template_body` are code.
_LITERAL_WORDS = ("string", "comment", "regex", "heredoc")
_CHARACTERS = frozenset({"char", "char_literal", "character", "character_literal", "rune_literal", "charlist"})


def _literal(node_type: str) -> bool:
    return node_type in _CHARACTERS or any(w in node_type for w in _LITERAL_WORDS)


def literal_spans(path: str, data: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """Byte spans of the string, comment and other literal nodes within data[start:end], at file
    offsets; all of it when no parser reads that part of the file."""
    lang = language_for(path) or language_for_script(data)
    base = 0
    if lang is not None and lang.embedded:
        host, lang = lang, None
        for block, inner in _blocks(host, data):
            if block.start_byte <= start and end <= block.end_byte:
                lang, base, data = inner, block.start_byte, data[block.start_byte : block.end_byte]
                break
    if lang is None:
        return [(start, end)]
    spans: list[tuple[int, int]] = []
    cursor = parser(lang.grammar).parse(data).walk()
    while True:
        node = cursor.node
        a, b = node.start_byte + base, node.end_byte + base
        inside = a < end and b > start
        if inside and _literal(node.type):
            spans.append((a, b))
        elif inside and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return spans


def code_tokens(path: str, text: str) -> list[bytes] | None:
    """The normalized tokens of a piece of code parsed on its own, as `path`'s language reads it
    (what the hash sees: no comments, docstrings or layout); None when no parser reads it."""
    lang = language_for(path)
    if lang is None or lang.embedded:
        return None
    data = text.encode("utf-8", "replace")
    return token_stream(parser(lang.grammar).parse(data).root_node, lang, (), source=data)[0]


def warm(paths: Iterable[str]) -> None:
    """Load the parser and compile the definitions query of every language among `paths`, so
    processes forked afterwards inherit them: compiling a query costs 5-340 ms (C++ ~120 ms), and
    each worker of a sweep would otherwise pay it again."""
    seen: set[str] = set()
    for path in paths:
        lang = language_for(path)
        if lang is not None and lang.name not in seen:
            seen.add(lang.name)
            parser(lang.grammar)
            query(lang)


def file_entropy(data: bytes) -> float:
    """Information in a whole file, for the low-entropy gate on following a moved file: asked of
    that one file when it is followed, never at indexing (every file would pay for a rare read)."""
    if is_binary(data):
        return float(min(len(data), 4096) * 8)
    return round(information_bits(data[:65536].split()), 1)
