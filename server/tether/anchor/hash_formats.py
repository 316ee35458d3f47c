"""Each language's hash format where it moved past 1 (its hashes are `t<N>:`): `Language.hash_format`
reads it here, and so does the prompt hook's resolver, of every anchor, without loading the registry."""

from __future__ import annotations

# ECMAScript 2: a TypeScript parameter with no type or default is its name, as in JavaScript, so an
# identical body hashes alike in .js and .ts (JavaScript moved to 2 with it: same stream, same prefix).
# Vue and Svelte follow their scripts' language (a function hashes alike in a `.vue` script and a `.ts` file).
CURRENT = {
    "rust": 2,
    "go": 2,
    "python": 2,
    **dict.fromkeys(("javascript", "typescript", "tsx", "vue", "svelte"), 2),
}
# for an anchor stored without its language (memory files may omit it): by its file's extension
EXTENSIONS = {
    ".rs": "rust",
    ".go": "go",
    ".py": "python",
    ".pyi": "python",
    **dict.fromkeys((".js", ".mjs", ".cjs", ".jsx"), "javascript"),
    **dict.fromkeys((".ts", ".mts", ".cts"), "typescript"),
    ".tsx": "tsx",
    ".vue": "vue",
    ".svelte": "svelte",
}


def current(language: str | None, path: str = "") -> int:
    if language is None:
        language = EXTENSIONS.get(path[path.rfind(".") :] if "." in path.rpartition("/")[2] else "")
    return CURRENT.get(language or "", 1)
