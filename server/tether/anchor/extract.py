"""From a file's bytes to the facts the index keeps: content hash, language, symbols."""

from __future__ import annotations

from .languages import language_for
from .markdown import extract_sections
from .model import FileFacts
from .normalize import digest, information_bits
from .symbols import disambiguate, extract_symbols

CONTENT_PREFIX = "c1:"
MAX_PARSE_BYTES = 1_000_000
MARKDOWN_EXTENSIONS = (".md", ".markdown", ".mdx")


def content_hash(data: bytes) -> str:
    """Whole-file hash; line endings normalized so a checkout with autocrlf is not an edit."""
    return digest(CONTENT_PREFIX, data.replace(b"\r\n", b"\n"))


def is_binary(data: bytes) -> bool:
    return b"\0" in data[:8192]


def kind_of(path: str) -> str | None:
    """The parser a path gets: a language name, "markdown", or None (file anchors only)."""
    if path.lower().endswith(MARKDOWN_EXTENSIONS):
        return "markdown"
    lang = language_for(path)
    return lang.name if lang else None


def analyze(path: str, data: bytes) -> FileFacts:
    """Hash the file and extract its symbols when it is text, small enough, and parseable."""
    h = content_hash(data)
    bits = file_entropy(data)
    kind = kind_of(path)
    if kind is None:
        return FileFacts(None, h, len(data), (), bits, "unsupported")
    if is_binary(data):
        return FileFacts(kind, h, len(data), (), bits, "binary")
    if len(data) > MAX_PARSE_BYTES:
        return FileFacts(kind, h, len(data), (), bits, "too_large")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return FileFacts(kind, h, len(data), (), bits, "encoding")
    if kind == "markdown":
        symbols = disambiguate(extract_sections(text))
    else:
        lang = language_for(path)
        assert lang is not None
        symbols = extract_symbols(lang, data)
    return FileFacts(kind, h, len(data), tuple(symbols), bits)


def analyze_path(abspath: str, relpath: str) -> FileFacts:
    with open(abspath, "rb") as f:
        data = f.read()
    return analyze(relpath, data)


def file_entropy(data: bytes) -> float:
    """Information in a whole file, for the low-entropy gate on following moved files."""
    if is_binary(data):
        return float(min(len(data), 4096) * 8)
    return round(information_bits(data[:65536].split()), 1)

