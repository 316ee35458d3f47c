"""Rust outer attributes: siblings before an item in tree-sitter-rust, so outside its node.

`#[cfg(feature = "x")]`, `#[derive(Serialize)]`, `#[serde(rename = "id")]`, `#[pyo3(signature =
(...))]`, `#[repr(C)]`, `#[no_mangle]` change what an item is or whether it exists; an edit to them
is an edit to the item. Hints to the compiler or to linters (`#[inline]`, `#[allow(...)]`,
`#[must_use]`, `#[doc]`, `#[clippy::...]`, `#[rustfmt::skip]`, a `#[cfg_attr(..)]` adding only
hints) change neither: adding one is not an edit, as a comment is not.
"""

from __future__ import annotations

import re

from tether.anchor.languages import Language
from tether.anchor.normalize import token_stream
from tether.anchor.tokens import IMPLIED

_HINTS = frozenset(
    {
        "inline",
        "cold",
        "optimize",
        "must_use",
        "deprecated",
        "doc",
        "coverage",
        "no_coverage",
        "allow",
        "warn",
        "deny",
        "forbid",
        "expect",
    }
)
_HINT_TOOLS = ("clippy::", "rustfmt::")


def outer_attributes(item, lang: Language, source: bytes) -> list[bytes]:
    """The tokens of the attributes written before `item` that are not hints, in source order."""
    found = []
    node = item.prev_named_sibling
    while node is not None and (node.type == "attribute_item" or "comment" in node.type):
        if node.type == "attribute_item" and not _hint(node, source):
            found.append(node)
        node = node.prev_named_sibling
    out: list[bytes] = []
    for attr in reversed(found):
        out.append(IMPLIED + b"attribute")
        out += token_stream(attr, lang, ())[0]
    return out


def _hint(attr_item, source: bytes) -> bool:
    attr = attr_item.named_children[0] if attr_item.named_child_count else None
    if attr is None or attr.type != "attribute":
        return False
    return _hint_text(source[attr.start_byte : attr.end_byte].decode("utf-8", "replace"))


def _hint_text(text: str) -> bool:
    """Whether an attribute's text (`inline(always)`, `cfg_attr(test, allow(x))`) is a hint;
    `cfg_attr` is one when every attribute it adds is."""
    path = re.split(r"[(=\s]", text.strip(), maxsplit=1)[0].replace(" ", "")
    if path == "cfg_attr":
        args = _top_level_commas(text[text.find("(") + 1 : text.rfind(")")])
        return len(args) > 1 and all(_hint_text(a) for a in args[1:] if a.strip())
    return path in _HINTS or path.startswith(_HINT_TOOLS)


def _top_level_commas(text: str) -> list[str]:
    parts, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(text):
        if ch == '"' and (i == 0 or text[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and ch in "([{":
            depth += 1
        elif not quoted and ch in ")]}":
            depth -= 1
        elif not quoted and depth == 0 and ch == ",":
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]
