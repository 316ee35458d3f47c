"""Language registry: which grammar parses a file and the few rules that tune extraction.

Adding a language is a query file in `queries/<name>.scm` plus one `Language` entry here.
Query capture names (see queries/README.md):
  @definition.<kind>  the node hashed as the symbol     @name      its name (out of the hash)
  @params             parameter list: the discriminator @receiver  Go-style receiver type: a qualname prefix
  @scope              a container that is not itself a symbol (Rust impl): prefixes names inside
  @scope.name         the container's name               @scope.trait  trait/interface it implements
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

# Anonymous tokens that carry no meaning once the tree's shape is known: grouping, separators,
# quotes. Dropping them makes trailing commas, semicolon style and quote style cosmetic.
PUNCTUATION = frozenset(
    {",", ";", "(", ")", "[", "]", "{", "}", '"', "'", "`", ":", "\\", "\n", "\r\n", ""}
)


@dataclass(frozen=True)
class Language:
    name: str
    grammar: str
    extensions: tuple[str, ...]
    filenames: tuple[str, ...] = ()
    # Node types emitted as their children only (grouping that the tree shape already encodes).
    transparent: frozenset[str] = frozenset({"parenthesized_expression"})
    # Node types left out of the hash entirely, beyond comments.
    skip: frozenset[str] = frozenset()
    # Wrapper node types whose whole source belongs to the definition inside (decorators).
    wrappers: frozenset[str] = frozenset()
    # Python-style docstrings: a leading string statement in a body is documentation.
    docstrings: bool = False
    # Keywords before the name that tell twins apart (JS `static`, `get`, `set`).
    disc_keywords: frozenset[str] = frozenset()
    # Discriminator for definitions inside an @scope that names no trait (Rust inherent impl).
    scope_default_disc: str | None = None
    # Leaf node types whose text is quote-decorated: keep only the prefix letters (Python f/r/b).
    quote_leaves: frozenset[str] = frozenset()
    # String literals hashed as their content alone, so quote style and quote escapes are cosmetic
    # (formatters flip both). A literal with interpolations is walked like code instead.
    string_nodes: frozenset[str] = frozenset(
        {"string", "string_literal", "interpreted_string_literal", "concatenated_string"}
    )
    # Node types that mean the same thing spelled two ways (`a, b = x` and `(a, b) = x`).
    aliases: tuple[tuple[str, str], ...] = ()
    # Leaf node types whose line breaks and indentation are layout, not text (JSX text).
    layout_text: frozenset[str] = frozenset()
    # Node types that vanish when they hold only comments (JSX `{/* note */}`).
    comment_holders: frozenset[str] = frozenset()
    # Wrap a single bare parameter (JS `x => x`) as if it were a parameter list (`(x) => x`).
    bare_param_fields: frozenset[str] = frozenset()
    # What that bare parameter reads as, outermost first (TypeScript adds `required_parameter`).
    bare_param_nodes: tuple[str, ...] = ("formal_parameters",)
    # The query file's name in queries/, when another language's serves (TSX uses TypeScript's).
    query: str | None = None
    # Kinds that make a nested function a method.
    class_kinds: frozenset[str] = field(
        default=frozenset({"class", "struct", "interface", "enum", "trait", "impl", "object", "module"})
    )


_JS_COMMON = dict(
    disc_keywords=frozenset({"static", "get", "set", "async", "*"}),
    bare_param_fields=frozenset({"parameter"}),
    wrappers=frozenset({"export_statement", "lexical_declaration", "variable_declaration"}),
    layout_text=frozenset({"jsx_text"}),
    comment_holders=frozenset({"jsx_expression"}),
)
# `(A)[]` is `A[]`; a namespace is not a class, so functions in it stay functions.
_TS_COMMON = dict(
    _JS_COMMON,
    transparent=frozenset({"parenthesized_expression", "parenthesized_type"}),
    class_kinds=frozenset({"class", "interface", "enum", "type"}),
    bare_param_nodes=("formal_parameters", "required_parameter"),
)

LANGUAGES: tuple[Language, ...] = (
    Language(
        "python",
        "python",
        (".py", ".pyi"),
        wrappers=frozenset({"decorated_definition"}),
        docstrings=True,
        skip=frozenset({"line_continuation"}),
        quote_leaves=frozenset({"string_start", "string_end"}),
        aliases=(("tuple_pattern", "pattern_list"), ("tuple", "expression_list")),
    ),
    Language("javascript", "javascript", (".js", ".mjs", ".cjs", ".jsx"), **_JS_COMMON),
    Language("typescript", "typescript", (".ts", ".mts", ".cts"), **_TS_COMMON),
    Language("tsx", "tsx", (".tsx",), query="typescript", **_TS_COMMON),
    Language(
        "go",
        "go",
        (".go",),
        wrappers=frozenset({"type_declaration", "const_declaration", "var_declaration", "var_spec_list"}),
        transparent=frozenset({"parenthesized_expression", "parenthesized_type"}),
    ),
    Language(
        "rust",
        "rust",
        (".rs",),
        scope_default_disc="impl",
        # a function in a `mod` is still a function
        class_kinds=frozenset({"struct", "enum", "trait", "impl"}),
    ),
    Language(
        "java",
        "java",
        (".java",),
        wrappers=frozenset({"field_declaration", "constant_declaration"}),
        class_kinds=frozenset({"class", "interface", "enum", "record"}),
    ),
)

_BY_EXT = {ext: lang for lang in LANGUAGES for ext in lang.extensions}
_BY_NAME = {lang.name: lang for lang in LANGUAGES}
_BY_FILENAME = {fn: lang for lang in LANGUAGES for fn in lang.filenames}


def language_for(path: str) -> Language | None:
    """The language that parses `path`, by file name then extension; None if none does."""
    base = os.path.basename(path)
    if base in _BY_FILENAME:
        return _BY_FILENAME[base]
    return _BY_EXT.get(os.path.splitext(base)[1].lower())


def language_named(name: str) -> Language | None:
    return _BY_NAME.get(name)


@cache
def query_source(lang: Language) -> str:
    return resources.files("tether.anchor").joinpath(f"queries/{lang.query or lang.name}.scm").read_text("utf-8")
