"""Symbol extraction for C, C++, C#, Ruby, PHP, Kotlin, Swift, Scala and Lua, straight from `analyze`.

Sources are real files in tests/fixtures/symbols/; every name, kind and discriminator is asserted.
"""

from __future__ import annotations

import pytest
import where
from symbol_matrix import matrix, one, symbols

from tether.anchor.languages import language_for

FIXTURES = where.FIXTURES / "symbols"
FILES = {
    "c": "cache.c",
    "cpp": "cache.cpp",
    "csharp": "Cache.cs",
    "ruby": "cache.rb",
    "php": "Cache.php",
    "kotlin": "Cache.kt",
    "swift": "Cache.swift",
    "scala": "Cache.scala",
    "lua": "cache.lua",
}

EXPECTED = {
    # a typedef'd struct is named by its typedef; a prototype (`cache_size`) is not a symbol
    "c": [
        ("RETRIES", "macro", None),
        ("MAX", "macro", "(a, b)"),
        ("kTimeout", "constant", None),
        ("hits", "variable", None),
        ("misses", "variable", None),
        ("cache_t", "struct", None),
        ("point_t", "struct", None),
        ("hash_fn", "type", None),
        ("entry", "struct", None),
        ("policy", "enum", None),
        ("hash", "function", "(const char *key)"),
        ("cache_keys", "function", "(cache_t *c)"),
    ],
    # the out-of-line `Cache<K, V>::get` joins its class; an anonymous namespace prefixes nothing
    "cpp": [
        ("store.kLimit", "constant", None),
        ("store.Cache", "class", None),
        ("store.Cache.Cache", "method", "()"),
        ("store.Cache.Cache", "method", "(int capacity)"),
        ("store.Cache.get", "method", "(const K& key, V fallback) const"),
        ("store.Cache.operator==", "method", "(const Cache& other) const"),
        ("store.Cache.Entry", "struct", None),
        ("store.Cache.get", "method", "(const K& key) const"),
        ("store.detail.mix", "function", "(int h)"),
        ("store.detail.spread", "method", "(int h)"),
        ("local_helper", "function", "()"),
        ("Key", "type", None),
        ("Policy", "enum", None),
    ],
    "csharp": [
        ("Cache", "class", None),
        ("Cache.Limit", "constant", None),
        ("Cache._hits", "field", None),
        ("Cache.Cache", "constructor", "()"),
        ("Cache.Cache", "constructor", "(int capacity)"),
        ("Cache.Cache", "destructor", "~ ()"),
        ("Cache.Capacity", "property", None),
        ("Cache.this", "property", "[TKey key]"),
        ("Cache.Get", "method", "(TKey key)"),
        ("Cache.Get", "method", "(TKey key, TValue fallback)"),
        ("Cache.Get", "method", "<T>(TKey key)"),
        ("Cache.IDisposable.Dispose", "method", "()"),
        ("Cache.+", "operator", "(Cache<TKey, TValue> a, Cache<TKey, TValue> b)"),
        ("Cache.Entry", "record", None),
        ("IStore", "interface", None),
        ("IStore.Get", "method", "(string key)"),
        ("Policy", "enum", None),
        ("Stats", "struct", None),
        ("Evicted", "type", "(object key)"),
    ],
    "ruby": [
        ("Store", "module", None),
        ("Store.LIMIT", "constant", None),
        ("Store.Cache", "class", None),
        ("Store.Cache.create", "method", "self."),
        ("Store.Cache.default", "method", "<<self."),
        ("Store.Cache.initialize", "method", "#"),
        ("Store.Cache.[]", "method", "#"),
        ("Store.Cache.get", "method", "#"),
        ("Store.Cache.evict!", "method", "#"),
        ("Store.Cache.Entry", "class", None),
        ("Store.Cache.Entry.touch", "method", "#"),
        ("helper", "function", None),
    ],
    "php": [
        ("LIMIT", "constant", None),
        ("make_key", "function", "(string $scope, int $id)"),
        ("Cache", "class", None),
        ("Cache.POLICY", "constant", None),
        ("Cache.$hits", "property", None),
        ("Cache.__construct", "method", "(private int $capacity = LIMIT)"),
        ("Cache.create", "method", "(array $options = [])"),
        ("Cache.get", "method", "(string $key, mixed $fallback = null)"),
        ("Store", "interface", None),
        ("Store.get", "method", "(string $key, mixed $fallback = null)"),
        ("Evicts", "trait", None),
        ("Evicts.evict", "method", "(int $count)"),
        ("Policy", "enum", None),
        ("Policy.label", "method", "()"),
    ],
    # a companion object names nothing; an extension is named through its receiver type
    "kotlin": [
        ("LIMIT", "property", None),
        ("Cache", "class", None),
        ("Cache.items", "property", None),
        ("Cache.size", "property", None),
        ("Cache.constructor", "constructor", "()"),
        ("Cache.get", "method", "(key: K)"),
        ("Cache.get", "method", "(key: K, fallback: V)"),
        ("Cache.empty", "method", "()"),
        ("Cache.Stats", "object", None),
        ("Cache.Stats.reset", "method", "()"),
        ("String.cacheKey", "function", "()"),
        ("Cache.orEmpty", "function", "()"),
        ("Store", "interface", None),
        ("Store.get", "method", "(key: String)"),
        ("Policy", "enum", None),
        ("Policy.next", "method", "()"),
        ("Key", "type", None),
        ("Registry", "object", None),
        ("Registry.caches", "property", None),
    ],
    # an extension adds to its type, as a Rust impl does
    "swift": [
        ("limit", "constant", None),
        ("Cache", "class", None),
        ("Cache.items", "property", None),
        ("Cache.count", "property", None),
        ("Cache.init", "constructor", "(capacity: Int = limit)"),
        ("Cache.init", "constructor", "(json: Data)"),
        ("Cache.deinit", "destructor", None),
        ("Cache.value", "method", "(_ key: String)"),
        ("Cache.value", "method", "(_ key: String, default fallback: Value)"),
        ("Cache.subscript", "subscript", "(key: String)"),
        ("Cache.description", "property", None),
        ("Cache.evict", "method", "(_ count: Int)"),
        ("Array.total", "method", "()"),
        ("Entry", "struct", None),
        ("Entry.at", "property", None),
        ("Policy", "enum", None),
        ("Policy.next", "method", "()"),
        ("Store", "interface", None),
        ("Store.value", "method", "(_ key: String)"),
        ("Store.count", "property", None),
        ("Key", "type", None),
        ("makeKey", "function", "(_ scope: String, id: Int)"),
    ],
    "scala": [
        ("Cache", "object", "object"),
        ("Cache.Limit", "attribute", None),
        ("Cache.apply", "method", "[K, V]()"),
        ("Cache", "class", "class"),
        ("Cache.items", "attribute", None),
        ("Cache.get", "method", "(key: K)"),
        ("Cache.get", "method", "(key: K, fallback: V)"),
        ("Cache.size", "method", None),
        ("Store", "trait", "trait"),
        ("Store.get", "method", "(key: String)"),
        ("Entry", "class", "class"),
        ("Policy", "enum", None),
        ("Key", "type", None),
        ("String.scoped", "method", "(scope: String)"),
    ],
    "lua": [
        ("Cache", "table", None),
        ("hash", "function", "(key)"),
        ("Cache.new", "function", "(capacity)"),
        ("Cache.get", "method", "(key, fallback)"),
        ("Cache.on_evict", "function", "(key)"),
        ("codec", "table", None),
        ("codec.encode", "function", "(value)"),
        ("codec.decode", "function", "(text)"),
    ],
}

# (symbol, rename (old, new), its name after, body edit (old, new)): one per language
CHANGES = {
    "c": ("hash", ("static int hash(", "static int djb2("), "djb2", ("h * 31", "h * 33")),
    "cpp": (
        "store.detail.spread",
        ("int store::detail::spread(", "int store::detail::fold("),
        "store.detail.fold",
        ("h >> 16", "h >> 15"),
    ),
    "csharp": (
        "Cache.IDisposable.Dispose",
        ("IDisposable.Dispose()", "IDisposable.Close()"),
        "Cache.IDisposable.Close",
        ("{ }\n\n    public static", "{ _hits = 0; }\n\n    public static"),
    ),
    "ruby": (
        "Store.Cache.Entry.touch",
        ("def touch(", "def poke("),
        "Store.Cache.Entry.poke",
        ("@at = now", "@at = now + 1"),
    ),
    "php": (
        "make_key",
        ("function make_key(", "function cache_key("),
        "cache_key",
        ('"{$scope}:{$id}"', '"{$scope}/{$id}"'),
    ),
    "kotlin": (
        "String.cacheKey",
        ("fun String.cacheKey()", "fun String.toKey()"),
        "String.toKey",
        ('"k:$this"', '"key:$this"'),
    ),
    "swift": ("Array.total", ("func total()", "func sum()"), "Array.sum", ("reduce(0, +)", "reduce(0, -)")),
    "scala": ("String.scoped", ("def scoped(", "def within("), "String.within", ('s"$scope:$key"', 's"$scope/$key"')),
    "lua": (
        "Cache.get",
        ("function Cache:get(", "function Cache:lookup("),
        "Cache.lookup",
        ("or fallback", "and fallback"),
    ),
}


def _source(lang: str) -> tuple[str, str]:
    name = FILES[lang]
    return name, (FIXTURES / name).read_text("utf-8")


@pytest.mark.parametrize(
    "path, lang",
    [
        ("a.c", "c"),
        ("a.h", "cpp"),
        ("a.cc", "cpp"),
        ("a.cpp", "cpp"),
        ("a.cxx", "cpp"),
        ("a.hpp", "cpp"),
        ("a.hh", "cpp"),
        ("a.hxx", "cpp"),
        ("A.cs", "csharp"),
        ("a.rb", "ruby"),
        ("Rakefile", "ruby"),
        ("Gemfile", "ruby"),
        ("a.php", "php"),
        ("A.kt", "kotlin"),
        ("build.gradle.kts", "kotlin"),
        ("A.swift", "swift"),
        ("A.scala", "scala"),
        ("a.sc", "scala"),
        ("a.lua", "lua"),
    ],
)
def test_extensions_and_file_names(path, lang):
    assert language_for(path).name == lang


def test_a_c_header_parses_as_cpp_with_its_csymbols():
    src = (
        '#ifndef CACHE_H\n#define CACHE_H\n#ifdef __cplusplus\nextern "C" {\n#endif\n'
        "typedef struct { int size; } cache_t;\nstatic inline int cache_empty(const cache_t *c) { return c->size == 0; }\n"
        "#ifdef __cplusplus\n}\n#endif\n#endif\n"
    )
    got = [(s.qualname, s.kind) for s in symbols("cache.h", src)]
    assert got == [("CACHE_H", "macro"), ("cache_t", "struct"), ("cache_empty", "function")]


@pytest.mark.parametrize(
    "spelled, qualname",
    [
        ("Stack<T>::push", "Stack.push"),
        ("Map<K, std::string>::get", "Map.get"),
        ("a::b::C::operator<", "a.b.C.operator<"),
        ("C::operator <=>", "C.operator<=>"),
        ("::global", "global"),
    ],
)
def test_cpp_out_of_line_names_split_outside_template_arguments(spelled, qualname):
    assert [s.qualname for s in symbols("a.cpp", f"void {spelled}(int x) {{ f(x); }}\n")] == [qualname]


def test_cpp_moving_a_body_out_of_its_class_keeps_the_hash():
    inline = "class Buf {\n public:\n  int at(int i) const { return data_[i] * 2; }\n};\n"
    out_of_line = (
        "class Buf {\n public:\n  int at(int i) const;\n};\n\nint Buf::at(int i) const {\n  return data_[i] * 2;\n}\n"
    )
    assert one("b.cpp", inline, "Buf.at").hash == one("b.cpp", out_of_line, "Buf.at").hash


@pytest.mark.parametrize(
    "path, before, after, same",
    [
        ("s.rb", "def f\n  'abc'\nend\n", 'def f\n  "abc"\nend\n', True),
        ("s.rb", "def f\n  'a\\n'\nend\n", 'def f\n  "a\\n"\nend\n', False),
        ("s.rb", "def f\n  '#{x}'\nend\n", 'def f\n  "#{x}"\nend\n', False),
        ("s.php", "<?php function f() { return 'abc'; }\n", '<?php function f() { return "abc"; }\n', True),
        ("s.php", "<?php function f($x) { return '$x'; }\n", '<?php function f($x) { return "$x"; }\n', False),
        ("s.lua", "function f() return 'abc' end\n", 'function f() return "abc" end\n', True),
        # a raw literal takes no escapes: `r"a\"b"` holds a backslash that `r'a"b'` does not
        ("s.py", 'def f():\n    return r"a\\"b"\n', "def f():\n    return r'a\"b'\n", False),
        ("s.py", 'def f():\n    return r"a\\"b"\n', "def f():\n    return r'a\\\"b'\n", True),
        ("s.py", 'def f():\n    return "a\\"b"\n', "def f():\n    return 'a\"b'\n", True),
        ("s.dart", "String f() => r'a\\'';\n", 'String f() => r"a\'";\n', False),
        ("s.kt", 'fun f() = """a\\nb"""\n', 'fun f() = "a\\nb"\n', False),
        ("s.kt", 'fun f() = """a"b"""\n', 'fun f() = "a\\"b"\n', True),
        ("s.scala", 'def f = """a\\nb"""\n', 'def f = "a\\nb"\n', False),
    ],
    ids=[
        "ruby plain",
        "ruby escape",
        "ruby interpolation",
        "php plain",
        "php variable",
        "lua",
        "python raw escaped quote",
        "python raw quote style",
        "python escaped quote",
        "dart raw escaped quote",
        "kotlin raw backslash",
        "kotlin raw quote",
        "scala raw backslash",
    ],
)
def test_quote_style_is_cosmetic_only_where_it_changes_nothing(path, before, after, same):
    assert (one(path, before, "f").hash == one(path, after, "f").hash) is same


_PY = "def f(x):\n    %s\n"


@pytest.mark.parametrize(
    "before, after, same",
    [
        # black and ruff format write escapes' hex digits in lowercase, `\N{...}` names in uppercase
        ('return "\\xAB\\u00E9\\U0001F600\\N{bullet}"', 'return "\\xab\\u00e9\\U0001f600\\N{BULLET}"', True),
        ('return b"\\xFF" + f"\\xAB{x}"', 'return b"\\xff" + f"\\xab{x}"', True),
        ('return "\\U0001F600"', 'return "\\u0001f600"', False),  # the escape's letter is its length
        ('return b"\\u00E9"', 'return b"\\u00e9"', False),  # no escape in bytes: six characters as written
        ('return r"\\xAB"', 'return r"\\xab"', False),  # no escape in a raw string
        ('return "\\\\xAB"', 'return "\\\\xab"', False),  # a backslash, then text
        # ruff's F541 fix: an f-string without placeholders is the plain string
        ('return f"plain"', 'return "plain"', True),
        ('return f"{{x}}"', 'return "{x}"', True),
        ('return f"{{x}}"', 'return "{{x}}"', False),
        ('return f"{x}"', 'return "{x}"', False),
        # ruff's PIE790 fix: a `pass` beside another statement does nothing; a lone one is the block
        ('"""Doc."""\n    pass', '"""Doc."""', True),
        ("y = x\n    pass\n    return y", "y = x\n    return y", True),
        ("if x:\n        pass\n    return 1", "return 1", False),
        ("pass", '"""Doc."""', False),
    ],
    ids=[
        "str escapes",
        "bytes and f-string escapes",
        "U is not u",
        "bytes u",
        "raw",
        "escaped backslash",
        "f without placeholders",
        "f with escaped braces",
        "escaped braces are text",
        "placeholder",
        "pass after docstring",
        "pass among statements",
        "lone pass in a block",
        "lone pass",
    ],
)
def test_python_literals_and_pass_as_linters_and_formatters_rewrite_them(before, after, same):
    assert (one("s.py", _PY % before, "f").hash == one("s.py", _PY % after, "f").hash) is same


def test_swift_parentheses_around_one_value_are_grouping_and_around_two_a_tuple():
    f = "func f(x: Int, y: Int) -> Int {\n  %s\n}\n"
    base = one("s.swift", f % "return (x + 1) * 2", "f").hash
    assert one("s.swift", f % "return ((x + 1)) * 2", "f").hash == base
    assert one("s.swift", f % "return x + 1 * 2", "f").hash != base
    pair = one("s.swift", f % "return [(x, y)].count", "f").hash
    assert one("s.swift", f % "return [x, y].count", "f").hash != pair


def test_lua_moving_to_another_table_keeps_the_hash_and_dropping_self_does_not():
    src = "function Cache:get(key)\n  return self.items[key] or self.fallback\nend\n"
    before = one("c.lua", src, "Cache.get").hash
    assert one("c.lua", src.replace("Cache:get", "Store:get"), "Store.get").hash == before
    assert one("c.lua", src.replace("Cache:get", "Cache.get"), "Cache.get").hash != before


def test_kotlin_extension_receiver_is_a_prefix_not_part_of_the_hash():
    src = 'fun String.shout(): String = uppercase() + "!"\n'
    before = one("s.kt", src, "String.shout").hash
    assert one("s.kt", src.replace("fun String.", "fun CharSequence."), "CharSequence.shout").hash == before
    assert one("s.kt", src.replace('"!"', '"?"'), "String.shout").hash != before


@pytest.mark.parametrize(
    "path, symbol, before, after",
    [
        ("s.scala", "f", 'def f(a: Int, b: Int) = s"$a:$b"\n', 'def f(a: Int, b: Int) = s"$a/$b"\n'),
        ("s.kt", "f", "fun f() = 'c'\n", "fun f() = 'd'\n"),
        ("s.cs", "A.F", 'class A { string F(int x) => $"{x:N2}"; }\n', 'class A { string F(int x) => $"{x:N3}"; }\n'),
        ("s.rb", "A.f", "class A\n  private def f = 1\nend\n", "class A\n  public def f = 1\nend\n"),
    ],
    ids=["scala text between interpolations", "kotlin char literal", "csharp format clause", "ruby visibility"],
)
def test_text_the_grammar_keeps_in_no_node_still_counts(path, symbol, before, after):
    assert one(path, before, symbol).hash != one(path, after, symbol).hash


test_qualified_names_kinds_and_discriminators, test_rename_keeps_the_hash_and_a_body_edit_changes_it = matrix(
    _source, EXPECTED, CHANGES
)


@pytest.mark.parametrize("path", ["p.js", "p.ts"])
@pytest.mark.parametrize(
    "before, after, same",
    [
        ("return (a + 1) * 2;", "return ((a + 1)) * 2;", True),
        ("return (a.b).c;", "return a.b.c;", True),
        # found by a probe against node: the parentheses end the optional chain (a TypeError for null a)
        ("return a?.b.c;", "return (a?.b).c;", False),
        ("return a?.b();", "return (a?.b)();", False),
        # not a directive once parenthesized: the function leaves strict mode
        ("'use strict'; x = 1;", "('use strict'); x = 1;", False),
    ],
    ids=["grouping", "member", "optional-member", "optional-call", "directive"],
)
def test_javascript_parentheses_count_only_where_they_change_meaning(path, before, after, same):
    f = "function f(a) { %s }\n"
    assert (one(path, f % before, "f").hash == one(path, f % after, "f").hash) is same
