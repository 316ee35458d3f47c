"""Rust outer attributes: siblings before an item in tree-sitter-rust, so outside its node.

`#[cfg(feature = "x")]`, `#[derive(Serialize)]`, `#[serde(rename = "id")]`, `#[pyo3(signature =
(...))]`, `#[repr(C)]`, `#[no_mangle]` change what an item is or whether it exists; an edit to them
is an edit to the item. Hints to the compiler or to linters (`#[inline]`, `#[allow(...)]`,
`#[must_use]`, `#[doc]`, `#[clippy::...]`, `#[rustfmt::skip]`) change neither: adding one is
not an edit, as a comment is not.
"""

from __future__ import annotations

from .languages import Language
from .normalize import IMPLIED, token_stream

_HINTS = frozenset({
    "inline", "cold", "track_caller", "must_use", "deprecated", "doc",
    "allow", "warn", "deny", "forbid", "expect",
})
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
    if attr is None or attr.type != "attribute" or not attr.named_child_count:
        return False
    path = attr.named_children[0]
    name = source[path.start_byte : path.end_byte].decode("utf-8", "replace").replace(" ", "")
    return name in _HINTS or name.startswith(_HINT_TOOLS)
