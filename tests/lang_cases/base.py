"""The shape of a language case: one program and the whole-file variants the lifecycle needs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LangCase:
    name: str
    path: str  # where `source` lives
    other_path: str  # a second file in the same language, for moves
    symbol: str  # the anchored symbol, as a spec names it
    source: str
    cosmetic: str  # reformatted, comments and blank lines changed: same meaning
    edited: str  # one real change inside the symbol's body
    edited_line: str  # a line the diff must show as added
    renamed: str  # the symbol under a new name, body unchanged
    new_symbol: str  # its qualified name after the rename
    without: str  # the file with the symbol deleted
    moved_to: str  # `other_path`'s content holding the symbol after a move
    moved_symbol: str  # its qualified name there
    duplicated: str  # symbol renamed away and two identical copies under other names
    trivial: str  # the file with a trivial symbol `trivial_symbol` (low entropy body)
    trivial_symbol: str
    trivial_renamed: str  # that trivial symbol renamed
    # Cosmetic-vs-real pairs on the anchored symbol: each must keep or break the hash.
    real_edits: tuple[tuple[str, str], ...]  # (label, full file) that must go stale
    cosmetic_edits: tuple[tuple[str, str], ...]  # (label, full file) that must stay active


def cut(text: str, start: str, end: str) -> str:
    """`text` without the part from `start` up to (not including) `end`: a deleted symbol."""
    i = text.index(start)
    return text[:i] + text[text.index(end, i) :]
