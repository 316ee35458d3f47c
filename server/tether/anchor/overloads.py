"""Overload stubs: `typing.overload` signatures in Python, bodiless signatures in TypeScript.

A bare name with overloads means the implementation, the one twin that runs; the stubs stay
addressable by their parameter lists. Read from a symbol's text, so binding needs no parse.
"""

from __future__ import annotations

import re

_DECORATOR = re.compile(r"@\s*(?:[A-Za-z_][\w.]*\.)?overload\s*(?:#.*)?$")
_DEF = re.compile(r"(?:async\s+)?def\b")
_TYPED = frozenset({"typescript", "tsx"})


def is_overload_stub(language: str | None, text: str) -> bool:
    """Whether a symbol's text is an overload signature rather than code that runs."""
    if language == "python":
        for line in text.splitlines():
            line = line.strip()
            if _DEF.match(line):
                return False
            if _DECORATOR.match(line):
                return True
        return False
    if language in _TYPED:
        # an implementation has a body and ends with its `}`; a signature ends with its type or `;`
        return not text.rstrip().endswith("}")
    return False


def implementation(language: str | None, twins: list, text_of) -> list:
    """The twins a bare name means: the one that is not an overload stub when the others all are,
    else all of them (still ambiguous)."""
    if language not in _TYPED and language != "python":
        return twins
    real = [s for s in twins if not is_overload_stub(language, text_of(s) or "")]
    return real if len(real) == 1 else twins
