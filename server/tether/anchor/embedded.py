"""The language of a Vue or Svelte file's `<script>` block, which is parsed as a file of its own."""

from __future__ import annotations

SCRIPT_LANGUAGES = {
    "ts": "typescript",
    "typescript": "typescript",
    "tsx": "tsx",
    "js": "javascript",
    "jsx": "javascript",
}


def script_language(block) -> str | None:
    """The language of a Vue/Svelte `<script>` block from its `lang` attribute: JavaScript if none."""
    tag = block.prev_named_sibling
    for attr in tag.named_children if tag is not None and tag.type == "start_tag" else ():
        if attr.named_child_count == 2 and attr.named_children[0].text == b"lang":
            value = (attr.named_children[1].text or b"").strip(b"\"'").decode("utf-8", "replace")
            return SCRIPT_LANGUAGES.get(value.lower())  # `lang="coffee"`: not parsed
    return "javascript"
