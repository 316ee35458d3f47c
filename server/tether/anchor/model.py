"""Pure value types shared by extraction, the index and resolution."""

from __future__ import annotations

from tether.record import Record


class Symbol(Record):
    """One anchorable artifact inside a file: a code symbol, a Markdown section or a config key."""

    __slots__ = (
        *("qualname", "discriminator", "kind", "start_line", "end_line"),
        *("start_byte", "end_byte", "hash", "entropy"),
    )
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

    def __init__(
        self,
        qualname: str,
        discriminator: str | None,
        kind: str,
        start_line: int,
        end_line: int,
        start_byte: int,
        end_byte: int,
        hash: str,
        entropy: float | None,
    ) -> None:
        self._fill(qualname, discriminator, kind, start_line, end_line, start_byte, end_byte, hash, entropy)


class FileFacts(Record):
    """What extraction learned about one file's bytes."""

    __slots__ = ("language", "hash", "size", "symbols", "skipped")
    language: str | None
    hash: str
    size: int
    symbols: tuple[Symbol, ...]
    # Why symbols were not extracted: None, "binary", "too_large", "encoding", "unsupported", "syntax",
    # "generated" (a lock file).
    skipped: str | None

    def __init__(
        self, language: str | None, hash: str, size: int, symbols: tuple[Symbol, ...], skipped: str | None = None
    ) -> None:
        self._fill(language, hash, size, symbols, skipped)
