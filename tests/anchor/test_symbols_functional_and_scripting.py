"""Symbol extraction for Bash, Elixir, Dart, Zig, Haskell, OCaml, GDScript, SQL, Vue and Svelte.

Sources are real files in tests/fixtures/symbols/; every name, kind and discriminator is asserted,
then what each language's normalization keeps (an edit) and forgives (layout, spelling).
"""

from __future__ import annotations

import pytest
import where
from symbol_matrix import matrix, one, symbols

from tether.anchor.extract import analyze

FIXTURES = where.FIXTURES / "symbols"
FILES = {
    "bash": "cache.sh",
    "elixir": "cache.ex",
    "dart": "cache.dart",
    "zig": "cache.zig",
    "haskell": "Cache.hs",
    "ocaml": "cache.ml",
    "ocaml_interface": "cache.mli",
    "gdscript": "cache.gd",
    "sql": "schema.sql",
    "vue": "Cache.vue",
    "svelte": "Cache.svelte",
}

EXPECTED = {
    # both spellings of a function; `readonly` at top level is a constant, one per name
    "bash": [
        ("CACHE_DIR", "constant", None),
        ("LIMIT", "constant", None),
        ("TTL", "constant", None),
        ("cache_key", "function", None),
        ("cache_get", "function", None),
        ("cache_put", "function", None),
        ("cache_put.evict", "function", None),
    ],
    # arity tells functions apart; `get/2` is its `@spec` and clause; reserved attributes are not
    # constants; a protocol implementation is `Protocol.fun@Type`
    "elixir": [
        ("Store.Cache", "module", None),
        ("Store.Cache.limit", "attribute", None),
        ("Store.Cache.key", "type", None),
        ("Store.Cache.evicted", "callback", "/1"),
        ("Store.Cache.new", "function", "/1"),
        ("Store.Cache.get", "function", "/2"),
        ("Store.Cache.get", "function", "/3"),
        ("Store.Cache.expired?", "function", "/2"),
        ("Store.Cache.cached", "macro", "/2"),
        ("Store.Cache.is_key", "guard", "/1"),
        ("Store.Cache.size", "function", "/0"),
        ("Store.Cache.Entry", "module", None),
        ("Store.Cache.Entry.touch", "function", "/2"),
        ("String.Chars.to_string", "function", "Store.Cache"),
    ],
    # a named constructor is `Class.name`, the unnamed one `Class.Class`; `get`/`set` pair up
    "dart": [
        ("limit", "constant", None),
        ("defaultPolicy", "constant", None),
        ("Loader", "type", None),
        ("Policy", "enum", None),
        ("Evicting", "mixin", None),
        ("Evicting.evict", "method", "(K key)"),
        ("Store", "class", None),
        ("Store.get", "method", "(String key)"),
        ("Cache", "class", None),
        ("Cache.maxSize", "constant", None),
        ("Cache.minSize", "constant", None),
        ("Cache._items", "field", None),
        ("Cache.hits", "field", None),
        ("Cache.Cache", "constructor", "()"),
        ("Cache.withItems", "constructor", "(Map<String, V> items)"),
        ("Cache.empty", "constructor", "()"),
        ("Cache.fromJson", "constructor", "(Map<String, dynamic> json)"),
        ("Cache.get", "method", "(String key)"),
        ("Cache.size", "method", "get"),
        ("Cache.size", "method", "set (int value)"),
        ("Cache.==", "method", "(Object other)"),
        ("CacheLoading", "extension", None),
        ("CacheLoading.load", "method", "(String key, Loader<V> loader)"),
        ("checksum", "function", "(String s)"),
    ],
    # a generic type is a function returning a struct: its members nest under the function
    "zig": [
        ("std", "constant", None),
        ("limit", "constant", None),
        ("hits", "variable", None),
        ("Policy", "enum", None),
        ("Value", "union", None),
        ("CacheError", "error_set", None),
        ("Cache", "function", "(comptime V: type)"),
        ("Cache.Self", "constant", None),
        ("Cache.get", "function", "(self: *Self, key: []const u8)"),
        ("Entry", "struct", None),
        ("Entry.touch", "method", "(self: *Entry, now: i64)"),
        ("hash", "function", "(key: []const u8)"),
    ],
    # signature and equations are one symbol; instance methods are `Class.method@Type`
    "haskell": [
        ("limit", "function", None),
        ("Cache", "data", None),
        ("Key", "newtype", None),
        ("Policy", "type", None),
        ("Store", "class", None),
        ("Store.fetch", "method", None),
        ("Store.size", "method", None),
        ("Store.fetch", "method", "(Cache String String)"),
        ("Store.size", "method", "(Cache String String)"),
        ("Show.show", "method", "Key"),
        ("lookupOr", "function", None),
        ("evict", "function", None),
        ("<+>", "function", None),
    ],
    "ocaml": [
        ("limit", "value", None),
        ("policy", "type", None),
        ("entry", "type", None),
        ("Full", "exception", None),
        ("now", "function", None),
        ("evict", "function", None),
        ("<+>", "function", None),
        ("find", "function", None),
        ("Lru", "module", None),
        ("Lru.t", "type", None),
        ("Lru.create", "function", None),
        ("Lru.touch", "function", None),
        ("STORE", "module_type", None),
        ("STORE.t", "type", None),
        ("STORE.get", "value", None),
        ("Make", "module", None),
        ("Make.get_or", "function", None),
        ("counter", "class", None),
        ("counter.hits", "attribute", None),
        ("counter.hit", "method", None),
    ],
    "ocaml_interface": [
        ("policy", "type", None),
        ("limit", "value", None),
        ("find", "value", None),
        ("<+>", "value", None),
        ("Lru", "module", None),
        ("Lru.t", "type", None),
        ("Lru.create", "value", None),
    ],
    # `class_name Cache` names the script: its members are `Cache.member`
    "gdscript": [
        ("Cache.evicted", "signal", None),
        ("Cache.LIMIT", "constant", None),
        ("Cache.Policy", "enum", None),
        ("Cache.policy", "variable", None),
        ("Cache._items", "variable", None),
        ("Cache.get_or", "method", None),
        ("Cache.create", "method", None),
        ("Cache.Entry", "class", None),
        ("Cache.Entry.at", "variable", None),
        ("Cache.Entry.touch", "method", None),
    ],
    "sql": [
        ("cache.entries", "table", None),
        ("entries_expiry_idx", "index", None),
        ("cache.live_entries", "view", None),
        ("cache.sizes", "view", None),
        ("cache.get", "function", "(k TEXT)"),
        ("cache.get", "function", "(k TEXT, fallback JSONB)"),
        ("entries_touch", "trigger", None),
        ("cache.policy", "type", None),
        ("cache.hits_seq", "sequence", None),
    ],
    # both script blocks, as TypeScript
    "vue": [
        ("LIMIT", "constant", None),
        ("props", "constant", None),
        ("hits", "constant", None),
        ("items", "constant", None),
        ("lookup", "function", "(key: string)"),
    ],
    # `context="module"` and the instance script, as JavaScript; `lang="coffee"` is not parsed
    "svelte": [
        ("LIMIT", "constant", None),
        ("lookup", "function", "(key)"),
        ("Entry", "class", None),
        ("Entry.constructor", "method", "(key)"),
    ],
}

# (symbol, rename (old, new), its name after, body edit (old, new)): one per language
CHANGES = {
    "bash": (
        "cache_get",
        ("function cache_get {", "function cache_read {"),
        "cache_read",
        ('cat "$path"', 'head "$path"'),
    ),
    "elixir": (
        "Store.Cache.expired?",
        ("defp expired?(", "defp stale?("),
        "Store.Cache.stale?",
        ("do: false", "do: nil"),
    ),
    "dart": ("Cache.get", ("V? get(String key) {", "V? lookup(String key) {"), "Cache.lookup", ("hits++", "hits--")),
    "zig": ("Entry.touch", ("pub fn touch(", "pub fn poke("), "Entry.poke", ("self.at = now", "self.at = now + 1")),
    "haskell": ("lookupOr", ("lookupOr ", "findOr "), "findOr", ("Nothing -> def", 'Nothing -> error "missing"')),
    "ocaml": ("Make.get_or", ("let get_or s", "let find_or s"), "Make.find_or", ("| None -> default", "| None -> k")),
    "ocaml_interface": ("find", ("val find :", "val lookup :"), "lookup", ("'b option", "'b")),
    "gdscript": (
        "Cache.get_or",
        ("func get_or(", "func lookup("),
        "Cache.lookup",
        ("_items.get(key, default)", "_items.get(key)"),
    ),
    "sql": (
        "cache.live_entries",
        ("VIEW cache.live_entries", "VIEW cache.fresh_entries"),
        "cache.fresh_entries",
        ("expires_at > now()", "expires_at >= now()"),
    ),
    "vue": ("lookup", ("function lookup(", "function find("), "find", ("hits.value++", "hits.value += 2")),
    "svelte": ("lookup", ("const lookup =", "const find ="), "find", ("hits += 1", "hits += 2")),
}


def _source(lang: str) -> tuple[str, str]:
    name = FILES[lang]
    return name, (FIXTURES / name).read_text(encoding="utf-8")


ELIXIR = """\
defmodule M do
  @spec f(integer()) :: integer()
  def f(0), do: 1
  def f(n) when n > 0, do: n * 2
end
"""


def test_elixir_clauses_and_their_spec_are_one_symbol_in_order():
    s = one("m.ex", ELIXIR, "M.f")
    assert (s.discriminator, s.start_line, s.end_line) == ("/1", 2, 4)
    reordered = ELIXIR.replace(
        "  def f(0), do: 1\n  def f(n) when n > 0, do: n * 2\n", "  def f(n) when n > 0, do: n * 2\n  def f(0), do: 1\n"
    )
    for variant in (
        reordered,
        ELIXIR.replace("do: n * 2", "do: n * 3"),
        ELIXIR.replace("@spec f(integer()) :: integer()", "@spec f(integer()) :: pos_integer()"),
        ELIXIR.replace("  def f(n)", "  def f(-1), do: 0\n  def f(n)"),
    ):
        assert one("m.ex", variant, "M.f").hash != s.hash
    # clauses split by another function are two symbols, told apart by ordinal
    split = ELIXIR.replace("  def f(n)", "  def g, do: 0\n  def f(n)")
    assert [x.discriminator for x in symbols("m.ex", split) if x.qualname == "M.f"] == ["/1#1", "/1#2"]


HASKELL = """\
step :: Int -> IO Int
step n = do
  when (n > 3) $ do
    log n
    pause n
  pure (n + 1)
"""


def test_haskell_signature_is_part_of_the_function_and_layout_nesting_counts():
    s = one("s.hs", HASKELL, "step")
    assert (s.start_line, s.end_line) == (1, 6)
    assert one("s.hs", HASKELL.replace("IO Int", "IO Integer"), "step").hash != s.hash
    assert one("s.hs", HASKELL.replace("    pause n\n", "  pause n\n"), "step").hash != s.hash
    braces = HASKELL.replace("$ do\n    log n\n    pause n\n", "$ do { log n; pause n }\n")
    assert one("s.hs", braces, "step").hash == s.hash


GDSCRIPT = "func f(x):\n\tif x > 0:\n\t\tprint(x)\n\t\treturn x\n\treturn 0\n"


def test_gdscript_indentation_is_structure_and_its_width_is_not():
    s = one("f.gd", GDSCRIPT, "f")
    assert one("f.gd", GDSCRIPT.replace("\t\treturn x\n", "\treturn x\n"), "f").hash != s.hash
    assert one("f.gd", GDSCRIPT.replace("\t", "    "), "f").hash == s.hash


@pytest.mark.parametrize(
    "path, before, after",
    [
        ("d.dart", "String f(String a) => 'x $a y';\n", 'String f(String a) => "x ${a} y";\n'),
        ("b.sh", "f() {\n  echo hi\n}\n", "function f {\n  echo hi; }\n"),
        (
            "q.sql",
            "CREATE VIEW f AS SELECT a FROM t WHERE b > 1;\n",
            "create view f as\n  select A /* a */ from T\n  where (b > 1);\n",
        ),
        (
            "m.ml",
            "let f x = match x with\n  | Some y -> y\n  | None -> 0\n",
            "let f x = begin match x with Some y -> y | None -> 0 end\n",
        ),
        ("z.zig", "fn f(a: u8) u8 {\n    return (a + 1);\n}\n", "fn f(a: u8) u8 {\n    return a + 1;\n}\n"),
        # Scala 3 optional braces, as scalafmt and `scalac -rewrite -indent` convert them
        ("s.scala", "def f(x: Int) = {\n  val y = x + 1\n  y * 2\n}\n", "def f(x: Int) =\n  val y = x + 1\n  y * 2\n"),
        ("s.scala", "def f(x: Int) = {\n  // doubled\n  x * 2\n}\n", "def f(x: Int) = x * 2\n"),
        ("s.scala", "def f(x: Int) = x match {\n  case 1 => 2\n}\n", "def f(x: Int) = x match\n  case 1 => 2\n"),
        (
            "s.swift",
            "func f(x: Int) -> Int {\n  return (x /* as is */)\n}\n",
            "func f(x: Int) -> Int {\n  return x\n}\n",
        ),
    ],
    ids=[
        "dart interpolation braces",
        "bash function keyword",
        "sql case and comments",
        "ocaml bars and begin",
        "zig parentheses",
        "scala indented block",
        "scala braces around one expression",
        "scala indented cases",
        "swift comment in parentheses",
    ],
)
def test_spelling_is_not_an_edit(path, before, after):
    assert one(path, before, "f").hash == one(path, after, "f").hash


@pytest.mark.parametrize(
    "path, before, after, name",
    [
        ("d.dart", "String f(String a) => 'x $a y';\n", "String f(String a) => 'x $a z';\n", "f"),
        ("b.sh", 'f() {\n  echo "$x"\n}\n', "f() {\n  echo '$x'\n}\n", "f"),
        ("q.sql", 'CREATE VIEW f AS SELECT "A" FROM t;\n', 'CREATE VIEW f AS SELECT "a" FROM t;\n', "f"),
        ("e.ex", "defmodule M do\n  def f(x), do: 'ab'\nend\n", 'defmodule M do\n  def f(x), do: "ab"\nend\n', "M.f"),
    ],
    ids=["dart text between interpolations", "bash quoting", "sql quoted name case", "elixir charlist is not a string"],
)
def test_meaningful_spelling_is_an_edit(path, before, after, name):
    assert one(path, before, name).hash != one(path, after, name).hash


def test_script_blocks_are_anchored_at_their_place_in_the_component():
    path, source = _source("vue")
    s = one(path, source, "lookup")
    text = source.encode()[s.start_byte : s.end_byte].decode()
    assert text.startswith("function lookup(key: string)") and text.endswith("}")
    assert source.splitlines()[s.start_line - 1] == "function lookup(key: string): string | undefined {"
    # the same function in a TypeScript file hashes the same: moving it out is followed
    assert one("lookup.ts", text + "\n", "lookup").hash == s.hash
    # markup above the script shifts the symbol but is not its edit
    shifted = source.replace("<template>\n", "<template>\n  <h1>Cache</h1>\n")
    moved = one(path, shifted, "lookup")
    assert (moved.hash, moved.start_line) == (s.hash, s.start_line + 1)


def test_script_language_follows_the_lang_attribute():
    ts = "<script lang='ts'>\nfunction f(x: number) { return x + 1 }\n</script>\n"
    js = "<script>\nfunction f(x) { return x + 1 }\n</script>\n"
    assert one("a.svelte", ts, "f").discriminator == "(x: number)"
    assert one("a.vue", js, "f").hash == one("a.js", "function f(x) { return x + 1 }\n", "f").hash
    assert symbols("a.vue", '<script lang="coffee">\nf = (x) -> x + 1\n</script>\n') == []
    assert symbols("a.vue", "<template><p>hi</p></template>\n") == []


@pytest.mark.parametrize("first", ["#!/bin/bash", "#!/usr/bin/env bash", "#! /bin/sh", "#!/usr/bin/env -S bash -e"])
def test_an_extensionless_script_is_read_by_its_shebang(first):
    facts = analyze("bin/release", f"{first}\nrelease() {{\n  git push --tags\n}}\n".encode())
    assert (facts.language, [s.qualname for s in facts.symbols]) == ("bash", ["release"])


@pytest.mark.parametrize(
    "first, body, language, name",
    [
        ("#!/usr/bin/env python3", "def rollout(hosts):\n    return sorted(hosts)\n", "python", "rollout"),
        ("#!/usr/bin/python3.12", "def rollout(hosts):\n    return sorted(hosts)\n", "python", "rollout"),
        ("#!/usr/bin/env ruby", "def rollout(hosts)\n  hosts.sort\nend\n", "ruby", "rollout"),
        ("#!/usr/bin/env node", "function rollout(hosts) {\n  return hosts.sort();\n}\n", "javascript", "rollout"),
        (
            "#!/usr/bin/env -S node --no-warnings",
            "function rollout(hosts) {\n  return hosts.sort();\n}\n",
            "javascript",
            "rollout",
        ),
        ("#!/usr/bin/env php", "<?php\nfunction rollout($hosts) {\n  return $hosts;\n}\n", "php", "rollout"),
        ("#!/usr/bin/env lua", "function rollout(hosts)\n  return hosts\nend\n", "lua", "rollout"),
        ("#!/bin/dash", "rollout() {\n  echo go\n}\n", "bash", "rollout"),
    ],
)
def test_bin_scripts_of_every_interpreter_tether_reads_have_symbols(first, body, language, name):
    facts = analyze("bin/deploy", f"{first}\n{body}".encode())
    assert (facts.language, [s.qualname for s in facts.symbols]) == (language, [name])


def test_a_script_for_another_interpreter_stays_file_level():
    facts = analyze("bin/report", b"#!/usr/bin/env perl\nprint 1;\n")
    assert (facts.language, facts.skipped, facts.symbols) == (None, "unsupported", ())


test_qualified_names_kinds_and_discriminators, test_rename_keeps_the_hash_and_a_body_edit_changes_it = matrix(
    _source, EXPECTED, CHANGES
)
