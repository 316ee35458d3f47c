"""Pure value types shared by extraction, the index and resolution."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Symbol:
    """One anchorable artifact inside a file: a code symbol, a Markdown section or a config key."""

    qualname: str
    discriminator: str | None
    kind: str
    start_line: int
    end_line: int
    start_byte: int
    end_byte: int
    hash: str
    # information in bits, for the low-entropy gate; None for a code symbol until asked of it
    # (`analyze(..., entropy=True)`): measuring every symbol at indexing would cost the index ~7%
    entropy: float | None


@dataclass(frozen=True, slots=True)
class FileFacts:
    """What extraction learned about one file's bytes."""

    language: str | None
    hash: str
    size: int
    symbols: tuple[Symbol, ...]
    # Why symbols were not extracted: None, "binary", "too_large", "encoding", "unsupported", "syntax",
    # "generated" (a lock file).
    skipped: str | None = None
