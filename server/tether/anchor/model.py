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
        put = object.__setattr__
        put(self, "qualname", qualname)
        put(self, "discriminator", discriminator)
        put(self, "kind", kind)
        put(self, "start_line", start_line)
        put(self, "end_line", end_line)
        put(self, "start_byte", start_byte)
        put(self, "end_byte", end_byte)
        put(self, "hash", hash)
        put(self, "entropy", entropy)


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
        put = object.__setattr__
        put(self, "language", language)
        put(self, "hash", hash)
        put(self, "size", size)
        put(self, "symbols", symbols)
        put(self, "skipped", skipped)
