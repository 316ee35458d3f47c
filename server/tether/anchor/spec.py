"""Anchor specs as users type them: `a.py::Cls.meth@(int x)`, `a.py`, `doc.md#Setup`, `c.yaml#db.pool`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tether.anchor.config import CONFIG_KINDS
from tether.anchor.extract import DOC_KINDS, kind_of
from tether.anchor.locator import locator
from tether.errors import InvalidSpec

CONFIG_EXTENSIONS = tuple(CONFIG_KINDS)
_ORDINAL = re.compile(r"@(#\d+)$")


@dataclass(frozen=True, slots=True)
class AnchorSpec:
    type: str  # symbol | file | section | key
    path: str
    name: str | None = None
    # None: not given. "": given empty (`name@`), meaning the twin without a discriminator.
    discriminator: str | None = None

    def __str__(self) -> str:
        return locator(self.type, self.path, self.name, self.discriminator)


def parse_spec(text: str) -> AnchorSpec:
    """Parse one anchor spec or raise InvalidSpec naming what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidSpec("empty anchor spec; expected path, path::Symbol, doc.md#Heading or conf.yaml#key")
    raw = text.strip()
    if "\n" in raw or "\0" in raw:
        raise InvalidSpec("anchor spec must be one line")
    if "::" in raw and not ("#" in raw and raw.index("#") < raw.index("::")):  # `doc.md#A::b` is a heading
        path, _, name = raw.partition("::")
        disc = None
        if "@" in name:
            name, _, disc = name.partition("@")
            disc = disc.strip()
        name = name.strip()
        if not name or any(c.isspace() for c in name):
            raise InvalidSpec(f"malformed symbol in anchor spec {raw!r}: expected path::Name or path::Class.method")
        return AnchorSpec("symbol", _path(path, raw), name, disc)
    if "#" in raw:
        path, _, name = raw.partition("#")
        path = _path(path, raw)
        disc = None
        m = _ORDINAL.search(name)
        if m:
            name, disc = name[: m.start()], m.group(1)
        name = name.strip()
        if not name:
            raise InvalidSpec(f"malformed anchor spec {raw!r}: nothing after '#'")
        if kind_of(path) in DOC_KINDS:
            return AnchorSpec("section", path, name, disc)
        if path.lower().endswith(CONFIG_EXTENSIONS):
            return AnchorSpec("key", path, name, disc)
        raise InvalidSpec(
            f"'#' anchors name a Markdown or reStructuredText section or a config key, and {path!r} is none of these"
        )
    return AnchorSpec("file", _path(raw, raw))


def _path(path: str, raw: str) -> str:
    path = path.strip()
    if not path:
        raise InvalidSpec(f"malformed anchor spec {raw!r}: no file path")
    return path
