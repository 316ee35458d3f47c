"""Discriminators as users type them and as they are compared: apart from extraction, so that
resolving an anchor (every hook, every `check`) does not import the parsing machinery."""

from __future__ import annotations

import re
from functools import lru_cache

_WS = re.compile(r"\s+")
_TRAILING_COMMA = re.compile(r",\s*([)\]>])")
_INNER_SPACE = re.compile(r"(?<=[(\[])\s+|\s+(?=[)\]])")
_AROUND_PUNCT = re.compile(r"\s*([^\w\s])\s*")


# Pure and hot (every definition, every twin check) with few distinct inputs: `(self)`, `()`...
@lru_cache(maxsize=4096)
def spell(text: str) -> str:
    """A discriminator as the source spells it, whitespace collapsed: what users type."""
    # a formatter wrapping a long parameter list adds a trailing comma and line breaks: not a new spelling
    return _INNER_SPACE.sub("", _TRAILING_COMMA.sub(r"\1", _WS.sub(" ", text))).strip()


@lru_cache(maxsize=4096)
def canonical(text: str | None) -> str | None:
    """The comparison form of a discriminator: whitespace forgiven entirely around punctuation."""
    if text is None:
        return None
    return _AROUND_PUNCT.sub(r"\1", spell(text)).replace("'", '"')


def disc_matches(stored: str | None, current: str | None) -> bool:
    if stored is None:
        return True
    if stored == "":
        return current is None
    a, b = canonical(stored), canonical(current)
    if a == b:
        return True
    # an ordinal (`#2`) told identical signatures apart; it may have come or gone since
    return a is not None and b is not None and a.split("#", 1)[0] == b.split("#", 1)[0]


def twins_named(disc: str | None, items: list, disc_of) -> list:
    """The items whose discriminator names the anchor's twin: exactly (ordinal included) if any
    does, else loosely."""
    exact = [x for x in items if disc and canonical(disc_of(x)) == canonical(disc)]
    return exact or [x for x in items if disc_matches(disc, disc_of(x))]
