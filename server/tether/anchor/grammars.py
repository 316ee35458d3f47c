"""The tree-sitter parsers and definition queries, one of each per grammar, built on first use.

tree-sitter and its grammars load here and nowhere else, when a file is first parsed: a `check`
whose anchored files are unchanged, and every prompt hook, never pay for them.
"""

from __future__ import annotations

from functools import cache

from tether.anchor.languages import Language
from tether.anchor.query_files import query_source


@cache
def parser(grammar: str):
    from tree_sitter_language_pack import get_parser  # the grammars: only when something is parsed

    return get_parser(grammar)  # type: ignore[arg-type]  # a registry name (str), not the pack's Literal of names


@cache
def query(lang: Language):
    from tree_sitter import Query  # as above
    from tree_sitter_language_pack import get_language

    return Query(get_language(lang.grammar), query_source(lang))  # type: ignore[arg-type]  # as in parser()


def matches(q, node) -> list:
    """`q`'s matches under `node`: (pattern index, {capture: [nodes]}), as tree-sitter gives them."""
    from tree_sitter import QueryCursor  # as above

    return QueryCursor(q).matches(node)
