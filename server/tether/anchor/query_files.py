"""The definitions query of a language, read from queries/<name>.scm (package data)."""

from __future__ import annotations

import os
from functools import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tether.anchor.languages import Language

_INCLUDE = "; include: "


@cache
def query_source(lang: Language) -> str:
    """The language's definitions query; a `; include: NAME.scm` line is replaced by that file
    (tree-sitter queries have no includes; JavaScript and TypeScript share their object patterns)."""
    return _query_file(f"{lang.query or lang.name}.scm")


def _query_file(name: str) -> str:
    # beside this module (package data): importlib.resources would cost every process ~9 ms to import
    with open(os.path.join(os.path.dirname(__file__), "queries", name), encoding="utf-8") as f:
        text = f.read()
    return "".join(
        _query_file(line[len(_INCLUDE) :].strip()) if line.startswith(_INCLUDE) else line
        for line in text.splitlines(keepends=True)
    )
