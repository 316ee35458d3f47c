"""Symbol extraction per language, straight from `analyze`: names, kinds, discriminators, hashes."""

from __future__ import annotations

import pytest
from symbol_matrix import matrix, one, symbols

SOURCES = {
    "python": (
        "cache.py",
        """\
LIMIT = 10


class Cache:
    size = 3

    @property
    def ttl(self):
        return self._ttl

    @ttl.setter
    def ttl(self, value):
        self._ttl = value

    class Entry:
        def touch(self, now):
            self.at = now


def evict(cache, *, keep=1):
    def older(entry):
        return entry.at < cache.cutoff
    return [e for e in cache.entries if not older(e)][:keep]
""",
    ),
    "javascript": (
        "cache.js",
        """\
export const LIMIT = 10;
let counter = 0;

export class Cache {
  static size = 3;
  #entries = new Map();

  get ttl() { return this._ttl; }
  set ttl(value) { this._ttl = value; }

  static create(options) { return new Cache(options); }
  evict(keep = 1) { return [...this.#entries].slice(0, keep); }
  onChange = (entry) => this.emit("change", entry);
}

export const makeKey = (scope, id) => `${scope}:${id}`;
function* walk(tree) { yield* tree.children; }
const handlers = { save(doc) { return doc; }, load: async (id) => fetch(id) };
""",
    ),
    "typescript": (
        "cache.ts",
        """\
export const LIMIT: number = 10;

export interface Store { get(key: string): string | undefined; size: number; }
export type Key = string | number;
export enum Mode { Lru, Fifo }

export abstract class Cache<T> implements Store {
  static create(): Cache<string> { return new LruCache(); }
  create(): Cache<T> { return this; }
  get(key: string): string | undefined;
  get(key: number): string | undefined;
  get(key: Key): string | undefined { return this.map.get(String(key)); }
  abstract evict(count: number): void;
  size = 0;
}

export namespace Codec {
  export function encode(value: unknown): string { return JSON.stringify(value); }
}
export function parse(text: string): Key;
export function parse(text: string, radix: number): Key;
export function parse(text: string, radix?: number): Key { return radix ? parseInt(text, radix) : text; }
""",
    ),
    "tsx": (
        "Table.tsx",
        """\
import { useState } from "react";

export const Row = ({ entry }: { entry: Entry }) => <li className="row">{entry.key}</li>;

export function Table({ rows }: Props) {
  const [open, setOpen] = useState(false);
  return <ul onClick={() => setOpen(!open)}>{rows.map((r) => <Row entry={r} />)}</ul>;
}
""",
    ),
    "go": (
        "cache.go",
        """\
package cache

const Limit = 10

var (
	hits   = 0
	misses = 0
)

type Cache[K comparable, V any] struct {
	items map[K]V
}

type Store interface {
	Get(key string) (string, bool)
}

type Key = string

func New[K comparable, V any]() *Cache[K, V] { return &Cache[K, V]{items: map[K]V{}} }

func (c *Cache[K, V]) Get(key K) (V, bool) { v, ok := c.items[key]; return v, ok }

func (c Cache[K, V]) Len() int { return len(c.items) }

func (s *stats) Record(hit bool) { if hit { hits++ } else { misses++ } }

func init() { register("lru") }

func init() { register("fifo") }
""",
    ),
    "rust": (
        "cache.rs",
        """\
use std::fmt;

pub const LIMIT: usize = 10;
static HITS: AtomicUsize = AtomicUsize::new(0);

pub struct Cache<K, V> { items: HashMap<K, V> }
pub enum Policy { Lru, Fifo }
pub type Key = String;

pub trait Store {
    fn get(&self, key: &str) -> Option<String>;
    fn len(&self) -> usize { 0 }
}

impl<K, V> Cache<K, V> {
    pub fn new() -> Self { Cache { items: HashMap::new() } }
    fn fmt(&self) -> String { format!("{}", self.items.len()) }
}

impl<K, V> fmt::Display for Cache<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "cache") }
}

impl<K, V> fmt::Debug for Cache<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "Cache({})", self.items.len()) }
}

impl From<String> for Policy {
    fn from(s: String) -> Self { if s == "lru" { Policy::Lru } else { Policy::Fifo } }
}

mod tests {
    fn builds() { let _ = Cache::<u8, u8>::new(); }
}
""",
    ),
    "java": (
        "Cache.java",
        """\
package cache;

public class Cache<K, V> {
    public static final int LIMIT = 10;
    private int hits = 0;

    public Cache() { this(LIMIT); }
    public Cache(int capacity) { this.capacity = capacity; }

    public V get(K key) { return items.get(key); }
    public V get(K key, V fallback) { V v = get(key); return v == null ? fallback : v; }

    static class Entry {
        void touch(long now) { at = now; }

        enum State { FRESH, STALE; boolean usable() { return this == FRESH; } }
    }

    interface Listener { void evicted(Object key); }

    record Stats(int hits, int misses) {
        double ratio() { return hits / (double) (hits + misses); }
    }
}
""",
    ),
}

EXPECTED = {
    "python": [
        ("LIMIT", "constant", None),
        ("Cache", "class", None),
        ("Cache.size", "attribute", None),
        ("Cache.ttl", "method", "(self)"),
        ("Cache.ttl", "method", "(self, value)"),
        ("Cache.Entry", "class", None),
        ("Cache.Entry.touch", "method", "(self, now)"),
        ("evict", "function", "(cache, *, keep=1)"),
        ("evict.older", "function", "(entry)"),
    ],
    "javascript": [
        ("LIMIT", "constant", None),
        ("Cache", "class", None),
        ("Cache.size", "attribute", "static"),
        ("Cache.#entries", "attribute", None),
        ("Cache.ttl", "method", "get ()"),
        ("Cache.ttl", "method", "set (value)"),
        ("Cache.create", "method", "static (options)"),
        ("Cache.evict", "method", "(keep = 1)"),
        ("Cache.onChange", "method", "(entry)"),
        ("makeKey", "function", "(scope, id)"),
        ("walk", "function", "* (tree)"),
        ("handlers", "constant", None),
        ("handlers.save", "function", "(doc)"),
        ("handlers.load", "function", "(id)"),
    ],
    "typescript": [
        ("LIMIT", "constant", None),
        ("Store", "interface", None),
        ("Store.get", "method", "(key: string)"),
        ("Store.size", "attribute", None),
        ("Key", "type", None),
        ("Mode", "enum", None),
        ("Cache", "class", None),
        ("Cache.create", "method", "static ()"),
        ("Cache.create", "method", "()"),
        ("Cache.get", "method", "(key: string)"),
        ("Cache.get", "method", "(key: number)"),
        ("Cache.get", "method", "(key: Key)"),
        ("Cache.evict", "method", "(count: number)"),
        ("Cache.size", "attribute", None),
        ("Codec", "module", None),
        ("Codec.encode", "function", "(value: unknown)"),
        ("parse", "function", "(text: string)"),
        ("parse", "function", "(text: string, radix: number)"),
        ("parse", "function", "(text: string, radix?: number)"),
    ],
    # an inline object type in a parameter declares no symbols
    "tsx": [
        ("Row", "function", "({ entry }: { entry: Entry })"),
        ("Table", "function", "({ rows }: Props)"),
    ],
    "go": [
        ("Limit", "constant", None),
        ("hits", "variable", None),
        ("misses", "variable", None),
        ("Cache", "struct", None),
        ("Store", "interface", None),
        ("Store.Get", "method", "(key string)"),
        ("Key", "type", None),
        ("New", "function", "()"),
        ("Cache.Get", "method", "(key K)"),
        ("Cache.Len", "method", "()"),
        ("stats.Record", "method", "(hit bool)"),
        ("init", "function", "()#1"),
        ("init", "function", "()#2"),
    ],
    "rust": [
        ("LIMIT", "constant", None),
        ("HITS", "static", None),
        ("Cache", "struct", None),
        ("Policy", "enum", None),
        ("Key", "type", None),
        ("Store", "trait", None),
        ("Store.get", "method", "(&self, key: &str)"),
        ("Store.len", "method", "(&self)"),
        ("Cache.new", "method", "impl"),
        ("Cache.fmt", "method", "impl"),
        ("Cache.fmt", "method", "fmt::Display"),
        ("Cache.fmt", "method", "fmt::Debug"),
        ("Policy.from", "method", "From<String>"),
        ("tests", "module", None),
        ("tests.builds", "function", "()"),
    ],
    "java": [
        ("Cache", "class", None),
        ("Cache.LIMIT", "constant", None),
        ("Cache.hits", "field", None),
        ("Cache.Cache", "constructor", "()"),
        ("Cache.Cache", "constructor", "(int capacity)"),
        ("Cache.get", "method", "(K key)"),
        ("Cache.get", "method", "(K key, V fallback)"),
        ("Cache.Entry", "class", None),
        ("Cache.Entry.touch", "method", "(long now)"),
        ("Cache.Entry.State", "enum", None),
        ("Cache.Entry.State.usable", "method", "()"),
        ("Cache.Listener", "interface", None),
        ("Cache.Listener.evicted", "method", "(Object key)"),
        ("Cache.Stats", "record", None),
        ("Cache.Stats.ratio", "method", "()"),
    ],
}

# (symbol, rename (old, new), its name after, body edit (old, new)): one per language
CHANGES = {
    "python": (
        "Cache.Entry.touch",
        ("def touch(", "def poke("),
        "Cache.Entry.poke",
        ("self.at = now", "self.at = now + 1"),
    ),
    "javascript": ("Cache.evict", ("  evict(keep", "  trim(keep"), "Cache.trim", ("slice(0, keep)", "slice(1, keep)")),
    "typescript": (
        "Codec.encode",
        ("function encode(", "function dump("),
        "Codec.dump",
        ("stringify(value)", "stringify(value, null, 2)"),
    ),
    "tsx": ("Row", ("const Row =", "const EntryRow ="), "EntryRow", ('className="row"', 'className="entry"')),
    "go": ("Cache.Get", (") Get(key K)", ") Lookup(key K)"), "Cache.Lookup", ("return v, ok", "return v, !ok")),
    "rust": (
        "Cache.new",
        ("pub fn new()", "pub fn empty()"),
        "Cache.empty",
        ("HashMap::new()", "HashMap::with_capacity(8)"),
    ),
    "java": (
        "Cache.Entry.State.usable",
        ("boolean usable()", "boolean live()"),
        "Cache.Entry.State.live",
        ("this == FRESH", "this != STALE"),
    ),
}


def test_go_receiver_type_is_a_prefix_not_part_of_the_hash():
    path, source = SOURCES["go"]
    before = one(path, source, "Cache.Get")
    moved = source.replace("func (c *Cache[K, V]) Get(", "func (c *LRU[K, V]) Get(")
    assert one(path, moved, "LRU.Get").hash == before.hash
    by_value = source.replace("func (c *Cache[K, V]) Get(", "func (c Cache[K, V]) Get(")
    assert one(path, by_value, "Cache.Get").hash != before.hash


def test_rust_impl_of_an_unnamed_type_keeps_the_trait():
    src = "trait Store { fn get(&self) -> u8; }\nimpl Store for (u8, u8) { fn get(&self) -> u8 { self.0 } }\n"
    got = [(s.qualname, s.kind, s.discriminator) for s in symbols("pair.rs", src)]
    assert got == [("Store", "trait", None), ("Store.get", "method", "(&self)"), ("get", "method", "Store")]


def test_a_declaration_of_several_names_gives_each_its_own_span():
    src = "export const a = 1, b = 2;\nexport const c = 3;\n"
    spans = {s.qualname: src.encode()[s.start_byte : s.end_byte].decode() for s in symbols("k.js", src)}
    assert spans == {"a": "a = 1", "b": "b = 2", "c": "export const c = 3;"}
    go = "package k\n\nconst (\n\tA = 1\n\tB = 2\n)\n\nconst C = 3\n"
    spans = {s.qualname: go.encode()[s.start_byte : s.end_byte].decode() for s in symbols("k.go", go)}
    assert spans == {"A": "A = 1", "B": "B = 2", "C": "const C = 3"}


@pytest.mark.parametrize(
    "path, before, after",
    [
        ("s.py", "def f(xs, n):\n    return xs[:n]\n", "def f(xs, n):\n    return xs[n:]\n"),
        ("s.py", "def f(xs):\n    return xs[::2]\n", "def f(xs):\n    return xs[:2]\n"),
        (
            "s.go",
            "package s\n\nfunc f(xs []int, n int) []int { return xs[:n] }\n",
            "package s\n\nfunc f(xs []int, n int) []int { return xs[n:] }\n",
        ),
        (
            "s.js",
            "function f(pair) { const [, second] = pair; return second; }\n",
            "function f(pair) { const [second] = pair; return second; }\n",
        ),
        (
            "s.jsx",
            "function f(x) {\n  return <p>{x}\n    bye</p>;\n}\n",
            "function f(x) {\n  return <p>{x} bye</p>;\n}\n",
        ),
    ],
    ids=["slice start or end", "slice step", "go slice", "array hole", "jsx space after newline"],
)
def test_an_empty_slot_or_a_meaningful_space_is_an_edit(path, before, after):
    assert one(path, before, "f").hash != one(path, after, "f").hash


@pytest.mark.parametrize(
    "path, before, after",
    [
        ("s.py", "def f(xs, n):\n    return xs[1:n]\n", "def f(xs, n):\n    return xs[1:n:]\n"),
        (
            "s.go",
            "package s\n\nfunc f() []int { return []int{1, 2} }\n",
            "package s\n\nfunc f() []int {\n\treturn []int{\n\t\t1,\n\t\t2,\n\t}\n}\n",
        ),
        (
            "s.jsx",
            "function f(x) {\n  return <p>hello {x} and bye</p>;\n}\n",
            "function f(x) {\n  return (\n    <p>\n      hello {x} and\n      bye\n    </p>\n  );\n}\n",
        ),
        (
            "s.tsx",
            "function f(x: T) {\n  return <p>{x}</p>;\n}\n",
            "function f(x: T) {\n  return <p>{/* shown */}{x}</p>;\n}\n",
        ),
        ("s.ts", "const f = (x) => x + 1;\n", "const f = x => x + 1;\n"),
    ],
    ids=["trailing slice colon", "go trailing comma", "jsx reflow", "jsx comment", "bare arrow parameter"],
)
def test_layout_is_not_an_edit(path, before, after):
    assert one(path, before, "f").hash == one(path, after, "f").hash


test_qualified_names_kinds_and_discriminators, test_rename_keeps_the_hash_and_a_body_edit_changes_it = matrix(
    SOURCES.__getitem__, EXPECTED, CHANGES
)
