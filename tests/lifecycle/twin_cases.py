"""Twin cases per language: a source with several definitions of one name, their discriminators.

Overloads, accessor pairs, trait impls, Go `init`s; then C_FAMILY_AND_JVM (C, C++, C#, Ruby, PHP, Kotlin,
Swift, Scala) and FUNCTIONAL_AND_SCRIPTING (Elixir, Haskell, Dart, SQL, OCaml, Bash).

Lua has no twins (a table field has one function); C and PHP have no overloads, but a function
defined once per preprocessor branch or per `namespace {}` block is a pair told apart by ordinal.

Elixir functions are told apart by arity (`fetch/1`, `fetch/2`) and protocol implementations by
their `for:` type; Haskell instance methods by the instance type as spelled; Dart accessor pairs by
`get`/`set`; SQL overloads by argument list. OCaml shadowing and Bash per-branch definitions have
no spelling to tell them apart: ordinals. Zig and GDScript have no overloading; Vue and Svelte
twins are JavaScript's and TypeScript's.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Twins:
    lang: str
    path: str
    source: str
    name: str  # the qualified name the twins share
    discs: tuple[str, ...]  # their discriminators as `anchor_ambiguous` lists them, in source order
    spaced: tuple[str, int]  # a discriminator typed with other whitespace, and which twin it means
    edit: tuple[str, str, int]  # (old, new, twin): a body edit inside that one twin
    implementation: int | None = None  # the twin a bare name means: the one that is no overload signature


TWINS = (
    Twins(
        "python",
        "src/cache.py",
        """\
class Cache:
    def __init__(self, ttl):
        self._ttl = ttl

    @property
    def ttl(self):
        return self._ttl

    @ttl.setter
    def ttl(self, value):
        if value <= 0:
            raise ValueError("ttl must be positive")
        self._ttl = value
""",
        "Cache.ttl",
        ("(self)", "(self, value)"),
        ("(self,value)", 1),
        ("if value <= 0:", "if value < 0:", 1),
    ),
    Twins(
        "java",
        "src/main/java/cache/Cache.java",
        """\
package cache;

public class Cache<K, V> {
    private final Map<K, V> items = new HashMap<>();

    public V get(K key) {
        return items.get(key);
    }

    public V get(K key, V fallback) {
        V value = items.get(key);
        return value == null ? fallback : value;
    }
}
""",
        "Cache.get",
        ("(K key)", "(K key, V fallback)"),
        ("(K key,V fallback)", 1),
        ("return items.get(key);", "return items.remove(key);", 0),
    ),
    Twins(
        "typescript",
        "src/parse.ts",
        """\
export function parse(text: string): number;
export function parse(text: string, radix: number): number;
export function parse(text: string, radix?: number): number {
  const value = parseInt(text, radix ?? 10);
  if (Number.isNaN(value)) throw new Error(`not a number: ${text}`);
  return value;
}
""",
        "parse",
        ("(text: string)", "(text: string, radix: number)", "(text: string, radix?: number)"),
        ("( text:string,radix:number )", 1),
        ("radix ?? 10", "radix ?? 16", 2),
        implementation=2,
    ),
    Twins(
        "tsx",
        "src/Cache.tsx",
        """\
export class Cache {
  static create(): Cache {
    return new Cache(new Map());
  }

  create(): Cache {
    return new Cache(new Map(this.items));
  }

  render() {
    return <p className="cache">{this.items.size} items</p>;
  }
}
""",
        "Cache.create",
        ("static ()", "()"),
        ("static()", 0),
        ("new Map(this.items)", "new Map()", 1),
    ),
    Twins(
        "javascript",
        "src/cache.js",
        """\
export class Cache {
  get ttl() {
    return this._ttl;
  }

  set ttl(value) {
    if (value <= 0) throw new RangeError("ttl must be positive");
    this._ttl = value;
  }
}
""",
        "Cache.ttl",
        ("get ()", "set (value)"),
        ("set(value)", 1),
        ("value <= 0", "value < 0", 1),
    ),
    Twins(
        "rust",
        "src/cache.rs",
        """\
use std::fmt;

pub struct Cache { items: Vec<String> }

impl Cache {
    pub fn fmt(&self) -> String { self.items.join(", ") }
}

impl fmt::Display for Cache {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "{} items", self.items.len()) }
}

impl fmt::Debug for Cache {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "Cache({:?})", self.items) }
}
""",
        "Cache.fmt",
        ("impl", "fmt::Display", "fmt::Debug"),
        ("fmt :: Debug", 2),
        ('"Cache({:?})"', '"Cache{:?}"', 2),
    ),
    Twins(
        "go",
        "cache/register.go",
        """\
package cache

func init() {
	register("lru", NewLRU)
}

func init() {
	register("fifo", NewFIFO)
}
""",
        "init",
        ("()#1", "()#2"),
        ("( )#2", 1),
        ('register("fifo", NewFIFO)', 'register("fifo", NewQueue)', 1),
    ),
)


C_FAMILY_AND_JVM = {
    "c-preprocessor": Twins(
        "c",
        "src/clock.c",
        """\
#include "clock.h"

#ifdef _WIN32
static int sleep_ms(int ms) {
    Sleep((DWORD)ms);
    return 0;
}
#else
static int sleep_ms(int ms) {
    return usleep((useconds_t)ms * 1000);
}
#endif
""",
        "sleep_ms",
        ("(int ms)#1", "(int ms)#2"),
        ("( int ms )#2", 1),
        ("(useconds_t)ms * 1000", "(useconds_t)ms * 1000u", 1),
    ),
    "cpp-const-overloads": Twins(
        "cpp",
        "src/buffer.cpp",
        """\
#include "buffer.h"

namespace io {

char& Buffer::at(std::size_t i) {
    if (i >= size_) throw std::out_of_range("Buffer::at");
    return data_[i];
}

const char& Buffer::at(std::size_t i) const {
    if (i >= size_) throw std::out_of_range("Buffer::at const");
    return data_[i];
}

char& Buffer::at(std::size_t row, std::size_t col) {
    return at(row * width_ + col);
}

}  // namespace io
""",
        "io.Buffer.at",
        ("(std::size_t i)", "(std::size_t i) const", "(std::size_t row, std::size_t col)"),
        ("(std::size_t i)const", 1),
        (
            'i >= size_) throw std::out_of_range("Buffer::at const")',
            'i > size_) throw std::out_of_range("Buffer::at const")',
            1,
        ),
    ),
    "csharp-generic-arity": Twins(
        "csharp",
        "src/Cache.cs",
        """\
public sealed class Cache
{
    private readonly Dictionary<string, object> _items = new();

    public object? Get(string key) => _items.TryGetValue(key, out var value) ? value : null;

    public T? Get<T>(string key) where T : class => Get(key) as T;

    public object Get(string key, object fallback) => Get(key) ?? fallback;
}
""",
        "Cache.Get",
        ("(string key)", "<T>(string key)", "(string key, object fallback)"),
        ("< T > ( string key )", 1),
        ("Get(key) as T", "Get(key.Trim()) as T", 1),
    ),
    "ruby-receivers": Twins(
        "ruby",
        "app/models/invoice.rb",
        """\
class Invoice < ApplicationRecord
  def self.total(invoices)
    invoices.sum { |invoice| invoice.total }
  end

  def total
    line_items.sum(&:amount) * (1 + tax_rate)
  end

  class << self
    def open
      where(paid_at: nil)
    end
  end

  def open
    update!(paid_at: nil)
  end
end
""",
        "Invoice.total",
        ("self.", "#"),
        ("self .", 0),
        ("(1 + tax_rate)", "(1 - tax_rate)", 1),
    ),
    "ruby-singleton-class": Twins(
        "ruby",
        "app/models/invoice.rb",
        """\
class Invoice < ApplicationRecord
  class << self
    def open
      where(paid_at: nil)
    end
  end

  def open
    update!(paid_at: nil)
  end
end
""",
        "Invoice.open",
        ("<<self.", "#"),
        ("<< self.", 0),
        ("where(paid_at: nil)", "where.not(paid_at: nil)", 0),
    ),
    "ruby-reopened-class": Twins(
        "ruby",
        "lib/core_ext/invoice.rb",
        """\
class Invoice
  def overdue?
    due_on < Date.current && paid_at.nil?
  end
end

class Invoice
  def overdue?
    due_on < Date.current - 3 && paid_at.nil?
  end
end
""",
        "Invoice.overdue?",
        ("##1", "##2"),
        ("# #2", 1),
        ("Date.current - 3", "Date.current - 5", 1),
    ),
    "php-namespace-blocks": Twins(
        "php",
        "src/helpers.php",
        """\
<?php

namespace App\\Legacy {
    function money(int $cents): string { return sprintf('%d.%02d', intdiv($cents, 100), $cents % 100); }
}

namespace App\\Money {
    function money(int $cents): string { return number_format($cents / 100, 2); }
}
""",
        "money",
        ("(int $cents)#1", "(int $cents)#2"),
        ("(int $cents) #2", 1),
        ("number_format($cents / 100, 2)", "number_format($cents / 100, 3)", 1),
    ),
    "csharp-partial-class": Twins(
        "csharp",
        "src/Invoice.cs",
        """\
public partial class Invoice
{
    public decimal Total => Lines.Sum(l => l.Amount);
}

public partial class Invoice
{
    public bool IsOverdue => DueOn < DateOnly.FromDateTime(DateTime.Today) && PaidAt is null;
}
""",
        "Invoice",
        ("#1", "#2"),
        (" #2 ", 1),
        ("PaidAt is null", "PaidAt is not null", 1),
    ),
    "kotlin-overloads": Twins(
        "kotlin",
        "src/main/kotlin/cache/Cache.kt",
        """\
class Cache<K, V>(private val items: MutableMap<K, V> = mutableMapOf()) {
    fun get(key: K): V? = items[key]

    fun get(key: K, fallback: V): V = items[key] ?: fallback
}

fun Cache<String, Int>.total(): Int = 0
""",
        "Cache.get",
        ("(key: K)", "(key: K, fallback: V)"),
        ("(key:K,fallback:V)", 1),
        ("items[key] ?: fallback", "items.getOrDefault(key, fallback)", 1),
    ),
    "swift-labels": Twins(
        "swift",
        "Sources/Cache/Cache.swift",
        """\
final class Cache<Value> {
    private var items: [String: Value] = [:]

    func value(_ key: String) -> Value? {
        items[key]
    }
}

extension Cache {
    func value(_ key: String, default fallback: Value) -> Value {
        items[key] ?? fallback
    }
}
""",
        "Cache.value",
        ("(_ key: String)", "(_ key: String, default fallback: Value)"),
        ("(_ key:String, default fallback:Value)", 1),
        ("items[key] ?? fallback", "items[key.lowercased()] ?? fallback", 1),
    ),
    "scala-overloads": Twins(
        "scala",
        "src/main/scala/cache/Cache.scala",
        """\
class Cache[K, V](items: Map[K, V]) {
  def get(key: K): Option[V] = items.get(key)

  def get(key: K, fallback: V): V = items.getOrElse(key, fallback)

  def get[T](key: K)(implicit decode: V => T): Option[T] = items.get(key).map(decode)
}
""",
        "Cache.get",
        ("(key: K)", "(key: K, fallback: V)", "[T](key: K)(implicit decode: V => T)"),
        ("[T] (key: K) (implicit decode: V => T)", 2),
        ("items.get(key).map(decode)", "items.get(key).flatMap(v => Option(decode(v)))", 2),
    ),
    "scala-companion": Twins(
        "scala",
        "src/main/scala/cache/Cache.scala",
        """\
class Cache(items: Map[String, Int]) {
  def size: Int = items.size
}

object Cache {
  def empty: Cache = new Cache(Map.empty)
}
""",
        "Cache",
        ("class", "object"),
        (" object ", 1),
        ("new Cache(Map.empty)", 'new Cache(Map("" -> 0))', 1),
    ),
}


FUNCTIONAL_AND_SCRIPTING = {
    "elixir-arity": Twins(
        "elixir",
        "lib/my_app/client.ex",
        """\
defmodule MyApp.Client do
  @default_timeout 30_000

  def fetch(url), do: fetch(url, @default_timeout)

  @spec fetch(String.t(), timeout()) :: {:ok, binary()} | {:error, term()}
  def fetch(url, timeout) when is_binary(url) do
    case HTTPClient.get(url, receive_timeout: timeout) do
      {:ok, %{status: 200, body: body}} -> {:ok, body}
      {:ok, %{status: status}} -> {:error, {:http, status}}
      error -> error
    end
  end

  def fetch(_url, _timeout), do: {:error, :bad_url}
end
""",
        "MyApp.Client.fetch",
        ("/1", "/2"),
        ("/ 2", 1),
        ("{:error, {:http, status}}", "{:error, {:status, status}}", 1),
    ),
    "elixir-protocol": Twins(
        "elixir",
        "lib/my_app/size.ex",
        """\
defprotocol MyApp.Size do
  def size(data)
end

defimpl MyApp.Size, for: Map do
  def size(map), do: map_size(map)
end

defimpl MyApp.Size, for: List do
  def size(list), do: length(list)
end
""",
        "MyApp.Size.size",
        ("/1", "Map", "List"),
        (" List ", 2),
        ("length(list)", "Enum.count(list)", 2),
    ),
    "haskell-instances": Twins(
        "haskell",
        "src/Render/Instances.hs",
        """\
module Render.Instances where

import Render (Render (..))

instance Render Bool where
  render True = "yes"
  render False = "no"

instance Render (Maybe a) where
  render Nothing = "-"
  render (Just _) = "some"
""",
        "Render.render",
        ("Bool", "(Maybe a)"),
        ("( Maybe a )", 1),
        ('render Nothing = "-"', 'render Nothing = "none"', 1),
    ),
    "dart-accessors": Twins(
        "dart",
        "lib/src/cache.dart",
        """\
class Cache {
  Duration _ttl = const Duration(minutes: 5);

  Duration get ttl => _ttl;

  set ttl(Duration value) {
    if (value.isNegative) throw ArgumentError.value(value, 'ttl');
    _ttl = value;
  }
}
""",
        "Cache.ttl",
        ("get", "set (Duration value)"),
        ("set(Duration value)", 1),
        ("value.isNegative", "value == Duration.zero", 1),
    ),
    "sql-overloads": Twins(
        "sql",
        "db/functions.sql",
        """\
CREATE FUNCTION billing.total_due(cust BIGINT) RETURNS BIGINT LANGUAGE sql AS $$
    SELECT COALESCE(SUM(amount_cents), 0) FROM billing.invoices WHERE customer_id = cust;
$$;

CREATE FUNCTION billing.total_due(cust BIGINT, since DATE) RETURNS BIGINT LANGUAGE sql AS $$
    SELECT COALESCE(SUM(amount_cents), 0) FROM billing.invoices
    WHERE customer_id = cust AND issued_on >= since;
$$;
""",
        "billing.total_due",
        ("(cust BIGINT)", "(cust BIGINT, since DATE)"),
        ("( cust BIGINT,since DATE )", 1),
        ("issued_on >= since", "issued_on > since", 1),
    ),
    "ocaml-shadowing": Twins(
        "ocaml",
        "lib/routes.ml",
        """\
let handlers = [ ("/health", Health.handle); ("/metrics", Metrics.handle) ]

let handlers = ("/admin", Admin.handle) :: handlers
""",
        "handlers",
        ("#1", "#2"),
        (" #2", 1),
        ('("/admin", Admin.handle)', '("/admin", Admin.guarded)', 1),
    ),
    "bash-branches": Twins(
        "bash",
        "scripts/lib/checksum.sh",
        """\
if [[ "$OSTYPE" == darwin* ]]; then
  sha() {
    shasum -a 256 "$1" | cut -d' ' -f1
  }
else
  sha() {
    sha256sum "$1" | cut -d' ' -f1
  }
fi
""",
        "sha",
        ("#1", "#2"),
        ("#2 ", 1),
        ('sha256sum "$1"', 'sha256sum --binary "$1"', 1),
    ),
}


ALL = {t.lang: t for t in TWINS} | C_FAMILY_AND_JVM | FUNCTIONAL_AND_SCRIPTING
