"""Language registry: which grammar parses a file and the few rules that tune extraction.

Adding a language is a query file in `queries/<name>.scm` plus one `Language` entry here.
Query capture names (see queries/README.md):
  @definition.<kind>  the node hashed as the symbol     @name      its name (out of the hash)
  @params             parameter list: the discriminator @receiver  Go-style receiver type: a qualname prefix
  @scope              a container that is not itself a symbol (Rust impl): prefixes names inside
  @scope.name         the container's name               @scope.trait  trait/interface it implements
  @body               a sibling hashed with the definition @embedded  another language's code block (Vue <script>)
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tether.anchor.embedded import script_language
from tether.anchor.hash_formats import current

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import Any

# Anonymous tokens that carry no meaning once the tree's shape is known: grouping, separators,
# quotes. Dropping them makes trailing commas, semicolon style and quote style cosmetic.
PUNCTUATION = frozenset({",", ";", "(", ")", "[", "]", "{", "}", '"', "'", "`", ":", "\\", "\n", "\r\n", ""})


# eq=False: one instance per language (the registry below), so identity is equality, and the
# `@cache`s keyed on a language hash a pointer, not every field, on every file and string literal
@dataclass(frozen=True, eq=False)
class Language:
    name: str
    grammar: str
    extensions: tuple[str, ...]
    filenames: tuple[str, ...] = ()
    # Node types emitted as their children only (grouping that the tree shape already encodes).
    transparent: frozenset[str] = frozenset({"parenthesized_expression"})
    # Node types that are grouping only around one expression: Swift `(x)` is `x`, `(a, b)` a tuple.
    transparent_single: frozenset[str] = frozenset()
    # Parentheses that are more than grouping in JavaScript: `(a?.b).c` ends the optional chain
    # (it throws where `a?.b.c` gives undefined), and `('use strict');` is not a directive.
    meaningful_parens: bool = False
    # Node types hashed as one leaf of their source text: the grammar keeps part of that text in
    # no node (Kotlin `'c'`, a C# `{x:N2}` format), so walking their children would lose it.
    opaque: frozenset[str] = frozenset()
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
    # Separators of a name spelled as a path (C++ `ns::Foo::bar`, Ruby `Foo::Bar`, a Lua receiver
    # `M.sub`): the captured name is split there into qualified-name segments (still one hole).
    path_separators: tuple[str, ...] = ()
    # The quote whose literals are raw, no escapes and no interpolation (Ruby and PHP `'`): a literal
    # holding `\`, `$` or `#{` keeps its quote in the hash, since there quote style changes meaning.
    raw_quote: str | None = None
    # Quotes whose literals take no escapes at all (Kotlin and Scala `"""`): their text is hashed as
    # written, and one holding `\` is marked, since there `"""\n"""` is a backslash and `"\n"` a newline.
    verbatim_quotes: frozenset[bytes] = frozenset()
    # Discriminator is the arity `/N` (the @params node's named children), as Elixir spells `fun/2`.
    arity: bool = False
    # Consecutive sibling definitions of one name and discriminator are one symbol, hashed together
    # in order: Elixir clauses and Haskell equations (with their `@spec` / type signature).
    merge_clauses: bool = False
    # Anonymous tokens dropped as layout, when a language has more than the common ones (OCaml `|`
    # before a first match case, `;;`).
    punctuation: frozenset[str] = PUNCTUATION
    # Prefixes of leaf node types whose text case means nothing (`keyword_` is every SQL keyword;
    # `identifier`, unquoted names). A leaf starting with a quote keeps its case: `"Name"` is not `"name"`.
    caseless: tuple[str, ...] = ()
    # Hosts of another language's code (Vue/Svelte `<script>`): given a block the query captured as
    # @embedded, the name of the language that parses it. Symbols come from that language, with
    # offsets and lines shifted into the host file.
    embedded: Callable[[object], str | None] | None = None
    # Interpreters whose `#!` line makes an extensionless file this language (`#!/usr/bin/env bash`;
    # a version after the name is the same language: `python3.12`).
    interpreters: tuple[str, ...] = ()
    # Read as hash format 1 did (extract.py `_format1`): anchors written before its format moved on.
    format1: bool = False
    # Node types whose own `;` is meaning, not layout: Rust `vec![0; n]` is not `vec![0, n]`.
    kept_semicolons: frozenset[str] = frozenset()
    # Tokens a definition's value depends on outside its own node (anchor/implied.py names them).
    implied: str | None = None
    # Statements that do nothing (Python `pass`): dropped where another statement stands beside
    # them, as linters' fixes drop them; a lone one is what its block says.
    noop_statements: frozenset[str] = frozenset()
    # Python string literals hashed nearer their value, as black and ruff rewrite them: the hex
    # digits of `\xAB`, `\uABCD`, `\U...` in either case, `\N{name}` in either case (bytes: `\x`
    # only), and an f-string without placeholders as the plain string it is (ruff F541).
    literal_values: bool = False

    @property
    def hash_format(self) -> int:
        """`t<N>:` prefixes its hashes: raised (in hash_formats.py) when its normalization changes."""
        return 1 if self.format1 else current(self.name)


_JS_COMMON: dict[str, Any] = dict(  # keyword arguments of Language, of several types
    meaningful_parens=True,
    # a class's functions are methods, and so are a receiver's (`Foo.prototype.run`); an object
    # literal's (`api.save`) stay functions, as in a module-level `const api`
    class_kinds=frozenset({"class", "struct"}),
    disc_keywords=frozenset({"static", "get", "set", "async", "*"}),
    bare_param_fields=frozenset({"parameter"}),
    wrappers=frozenset({"export_statement", "lexical_declaration", "variable_declaration"}),
    layout_text=frozenset({"jsx_text"}),
    comment_holders=frozenset({"jsx_expression"}),
)
# `(A)[]` is `A[]`; a namespace is not a class, so functions in it stay functions.
_TS_COMMON: dict[str, Any] = dict(
    _JS_COMMON,
    transparent=frozenset({"parenthesized_expression", "parenthesized_type"}),
    transparent_single=frozenset({"required_parameter"}),  # format 2: `(name)` as JavaScript has it
    class_kinds=frozenset({"class", "interface", "enum", "type"}),
    bare_param_nodes=("formal_parameters", "required_parameter"),
)

LANGUAGES: tuple[Language, ...] = (
    Language(
        "python",
        "python",
        (".py", ".pyi"),
        interpreters=("python",),
        wrappers=frozenset({"decorated_definition"}),
        docstrings=True,
        skip=frozenset({"line_continuation"}),
        quote_leaves=frozenset({"string_start", "string_end"}),
        aliases=(("tuple_pattern", "pattern_list"), ("tuple", "expression_list")),
        noop_statements=frozenset({"pass_statement"}),  # format 2
        literal_values=True,  # format 2
    ),
    Language(
        "javascript", "javascript", (".js", ".mjs", ".cjs", ".jsx"), interpreters=("node", "nodejs"), **_JS_COMMON
    ),
    Language("typescript", "typescript", (".ts", ".mts", ".cts"), **_TS_COMMON),
    Language("tsx", "tsx", (".tsx",), query="typescript", **_TS_COMMON),
    Language(
        "go",
        "go",
        (".go",),
        wrappers=frozenset({"type_declaration", "const_declaration", "var_declaration", "var_spec_list"}),
        transparent=frozenset({"parenthesized_expression", "parenthesized_type"}),
        implied="go_consts",  # format 2: a constant that repeats the expression above it hashes it
    ),
    Language(
        "rust",
        "rust",
        (".rs",),
        scope_default_disc="impl",
        # format 2: outer attributes but hints; `;` in macros and `[x; n]`
        kept_semicolons=frozenset({"token_tree", "array_expression"}),
        implied="rust_attributes",
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
    # --- Bash, Elixir, Dart, Zig, Haskell, OCaml, GDScript, SQL, Vue/Svelte -----------------------
    # `function f {` is `f() {`: the keyword is spelling only.
    Language(
        "bash",
        "bash",
        (".sh", ".bash"),
        filenames=(".bashrc", ".bash_profile", ".bash_aliases", ".bash_logout"),
        interpreters=("bash", "sh", "dash"),
        punctuation=PUNCTUATION | {"function"},
    ),
    # Functions are functions even in a module; `fun/2` and its clauses: see queries/elixir.scm.
    Language(
        "elixir",
        "elixir",
        (".ex", ".exs"),
        interpreters=("elixir",),
        arity=True,
        merge_clauses=True,
        transparent=frozenset({"block"}),  # `(a + b)`: the grouping is in the tree already
        class_kinds=frozenset(),
    ),
    # `$x` is `${x}` in a string.
    Language(
        "dart",
        "dart",
        (".dart",),
        wrappers=frozenset(
            {"method_signature", "declaration", "initialized_identifier_list", "static_final_declaration_list"}
        ),
        disc_keywords=frozenset({"get", "set"}),
        aliases=(("identifier_dollar_escaped", "identifier"),),
        class_kinds=frozenset({"class", "mixin", "extension", "enum"}),
    ),
    # This grammar's string node keeps its text out of child nodes: hash it as a literal. It wraps
    # every operand in ErrorUnionExpr > SuffixExpr, so `(x)` is two wrappers more than `x`.
    Language(
        "zig",
        "zig",
        (".zig",),
        string_nodes=frozenset({"STRINGLITERALSINGLE"}),
        transparent=frozenset({"GroupedExpr"}),
        transparent_single=frozenset({"ErrorUnionExpr", "SuffixExpr"}),
    ),
    # Equations and signature are one function; `(f x)` grouping is in the tree already; Haddock
    # comments (`-- |`) are comments.
    Language(
        "haskell",
        "haskell",
        (".hs",),
        merge_clauses=True,
        transparent=frozenset({"parens"}),
        skip=frozenset({"haddock"}),
        class_kinds=frozenset({"class", "impl"}),
    ),
    # ocamlformat adds or drops the `|` before a first case and turns `( )` into `begin end`.
    Language(
        "ocaml",
        "ocaml",
        (".ml",),
        wrappers=frozenset(
            {"value_definition", "type_definition", "module_definition", "class_definition", "class_type_definition"}
        ),
        punctuation=PUNCTUATION | {"|", ";;", "begin", "end"},
        class_kinds=frozenset({"class"}),
    ),
    Language(
        "ocaml_interface",
        "ocaml_interface",
        (".mli",),
        wrappers=frozenset({"type_definition", "module_definition", "class_definition", "class_type_definition"}),
        punctuation=PUNCTUATION | {"|", ";;", "begin", "end"},
        class_kinds=frozenset({"class"}),
    ),
    # A script is a class: its functions are methods.
    Language("gdscript", "gdscript", (".gd",), class_kinds=frozenset({"class", "impl"})),
    # `SELECT` is `select`, `Invoices` is `invoices` (unquoted names fold); `/* */` is "marginalia".
    Language("sql", "sql", (".sql",), caseless=("keyword_", "identifier"), skip=frozenset({"marginalia"})),
    Language("vue", "vue", (".vue",), embedded=script_language),
    Language("svelte", "svelte", (".svelte",), embedded=script_language),
    # --- end of Bash ... Vue/Svelte ------------------------------------------------------------------
    # -- C family, Ruby, PHP, Kotlin, Swift, Scala, Lua (queries/<name>.scm tells their story) --
    # A typedef or `template <...>` wraps what it declares; a declaration wraps its one variable.
    Language("c", "c", (".c",), wrappers=frozenset({"type_definition", "declaration"})),
    # `.h` is C++: C headers are written to compile as C++ (`extern "C"`), C++ headers break C.
    Language(
        "cpp",
        "cpp",
        (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".h", ".ipp", ".tpp"),
        wrappers=frozenset({"type_definition", "declaration", "template_declaration"}),
        path_separators=("::",),
        # a function in a namespace is still a function
        class_kinds=frozenset({"class", "struct", "union"}),
    ),
    Language(
        "ruby",
        "ruby",
        (".rb", ".rake", ".gemspec", ".ru"),
        interpreters=("ruby",),
        filenames=("Rakefile", "Gemfile", "Guardfile", "Capfile", "Vagrantfile", "Brewfile", "Podfile", "Fastfile"),
        transparent=frozenset({"parenthesized_statements"}),
        wrappers=frozenset({"argument_list", "call"}),
        path_separators=("::",),
        raw_quote="'",
        # `{ |x| ... }` and `do |x| ... end` are one block (RuboCop swaps them by line count); where a
        # block binds is the tree's shape. `do`, `then`, `end` only close what the tree already closes.
        aliases=(("do_block", "block"), ("block_body", "body_statement")),
        punctuation=PUNCTUATION | {"do", "then", "end"},
    ),
    Language(
        "csharp",
        "csharp",
        (".cs",),
        wrappers=frozenset({"field_declaration", "variable_declaration"}),
        disc_keywords=frozenset({"~"}),
        opaque=frozenset({"interpolation_format_clause"}),
        class_kinds=frozenset({"class", "struct", "interface", "enum", "record"}),
    ),
    Language(
        "php",
        "php",
        (".php", ".phtml"),
        interpreters=("php",),
        wrappers=frozenset({"const_declaration", "property_declaration"}),
        # "..." is a literal as much as '...': quote style is cosmetic unless `\`/`$` make it count
        string_nodes=frozenset({"string", "encapsed_string"}),
        raw_quote="'",
        # `array(1, 2)` is `[1, 2]` and `list($a, $b)` is `[$a, $b]` (php-cs-fixer rewrites both)
        punctuation=PUNCTUATION | {"array", "list"},
        class_kinds=frozenset({"class", "interface", "trait", "enum"}),
    ),
    # an extension function (`fun String.shout()`) is a function, though named through its receiver
    Language(
        "kotlin",
        "kotlin",
        (".kt", ".kts"),
        opaque=frozenset({"character_literal"}),
        class_kinds=frozenset({"class", "interface", "enum", "object", "impl"}),
        verbatim_quotes=frozenset({b'"""'}),
    ),
    Language("swift", "swift", (".swift",), transparent_single=frozenset({"tuple_expression"})),
    Language(
        "scala",
        "scala",
        (".scala", ".sc"),
        disc_keywords=frozenset({"class", "object", "trait"}),
        # the grammar keeps no node for the text between interpolations: read it as a literal
        string_nodes=frozenset({"string", "interpolated_string"}),
        verbatim_quotes=frozenset({b'"""'}),
        # Scala 3's optional braces (scalafmt and `-rewrite -indent` convert both ways): an
        # indented block is a braced one, and a block around one expression is that expression
        aliases=(("indented_block", "block"), ("indented_cases", "case_block")),
        transparent_single=frozenset({"block", "indented_block"}),
    ),
    # `local x = function` is one definition with its `local`; a `;` is a separator, never a statement
    Language(
        "lua",
        "lua",
        (".lua",),
        interpreters=("lua", "luajit"),
        path_separators=(".",),
        wrappers=frozenset({"variable_declaration"}),
        skip=frozenset({"empty_statement"}),
        class_kinds=frozenset(),
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


_BY_INTERPRETER = {i: lang for lang in LANGUAGES for i in lang.interpreters}
_SHEBANG = re.compile(rb"#![ \t]*\S*/(?:env[ \t]+(?:-\S+[ \t]+)*)?([\w.+-]+)")


def language_for_script(data: bytes) -> Language | None:
    """The language a `#!` line names (`#!/bin/bash`, `#!/usr/bin/env -S bash -e`,
    `#!/usr/bin/python3.12`: a version is no other language); None if none."""
    m = _SHEBANG.match(data)
    if m is None:
        return None
    name = m.group(1).decode("ascii", "replace")
    return _BY_INTERPRETER.get(name) or _BY_INTERPRETER.get(name.rstrip("0123456789."))


def language_named(name: str) -> Language | None:
    return _BY_NAME.get(name)
