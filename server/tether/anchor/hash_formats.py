"""Each language's hash format where it moved past 1 (its hashes are `t<N>:`): `Language.hash_format`
reads it here, and so does the prompt hook's resolver, of every anchor, without loading the registry."""

from __future__ import annotations

CURRENT = {"rust": 2, "go": 2, "python": 2}
# for an anchor stored without its language (memory files may omit it): by its file's extension
EXTENSIONS = {".rs": "rust", ".go": "go", ".py": "python", ".pyi": "python"}


def current(language: str | None, path: str = "") -> int:
    if language is None:
        language = EXTENSIONS.get(path[path.rfind(".") :] if "." in path.rpartition("/")[2] else "")
    return CURRENT.get(language or "", 1)
