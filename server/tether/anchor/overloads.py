"""Overload stubs: `typing.overload` signatures in Python, bodiless signatures in TypeScript.

A bare name with overloads means the implementation, the one twin that runs; the stubs stay
addressable by their parameter lists. Read from a symbol's text, so binding needs no parse.
"""

from __future__ import annotations

import re

_DECORATOR = re.compile(r"@\s*(?:[A-Za-z_][\w.]*\.)?overload\s*(?:#.*)?$")
_NAMED = re.compile(r"@\s*([A-Za-z_]\w*)\s*(?:#.*)?$")
_DEF = re.compile(r"(?:async\s+)?def\b")
_TYPED = frozenset({"typescript", "tsx"})
STUB_LANGUAGES = _TYPED | {"python"}
# `from typing import overload as ovl` (typing_extensions too, in a parenthesized list as well)
_ALIAS = re.compile(r"^[ \t]*from[ \t]+typing(?:_extensions)?[ \t]+import[ \t]+\(?([^)\n]*)", re.MULTILINE)


def overload_aliases(file_text: str | None) -> frozenset[str]:
    """The names a Python file imports `typing.overload` as, besides `overload`."""
    out = set()
    for m in _ALIAS.finditer(file_text or ""):
        for part in m.group(1).split(","):
            name, _, alias = part.strip().partition(" as ")
            if name.strip() == "overload" and alias.strip().isidentifier():
                out.add(alias.strip())
    return frozenset(out)


def is_overload_stub(language: str | None, text: str, aliases: frozenset[str] = frozenset()) -> bool:
    """Whether a symbol's text is an overload signature rather than code that runs. `aliases`:
    what the file imports `overload` as (`overload_aliases`)."""
    if language == "python":
        for line in text.splitlines():
            line = line.strip()
            if _DEF.match(line):
                return False
            if _DECORATOR.match(line):
                return True
            m = _NAMED.match(line)
            if m and m.group(1) in aliases:
                return True
        return False
    if language in _TYPED:
        # an implementation has a body and ends with its `}`; a signature ends with its type or `;`
        return not text.rstrip().endswith("}")
    return False


def implementation(language: str | None, twins: list, text_of, aliases: frozenset[str] = frozenset()) -> list:
    """The twins a bare name means: the one that is not an overload stub when the others all are,
    else all of them (still ambiguous)."""
    if language not in _TYPED and language != "python":
        return twins
    real = [s for s in twins if not is_overload_stub(language, text_of(s) or "", aliases)]
    return real if len(real) == 1 else twins
