"""Each language's hash format where it moved past 1 (its hashes are `t<N>:`), readable without
loading the language registry: the prompt hook's resolver asks it of every anchor it reads.
`Language.hash_format` says the same (a test holds them equal)."""

from __future__ import annotations

CURRENT = {"rust": 2, "go": 2}


def current(language: str | None) -> int:
    return CURRENT.get(language or "", 1)
