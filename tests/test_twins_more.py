"""Twins in C, C++, C#, Ruby, PHP, Kotlin, Swift and Scala, through the real CLI.

Lua has no twins (a table field has one function); C and PHP have no overloads, but a function
defined once per preprocessor branch or per `namespace {}` block is a pair told apart by ordinal.
"""

from __future__ import annotations

# The same four behaviours as test_twins.py, collected here over these languages' cases: pytest
# resolves their `twins` fixture in this module.
from test_twins import (  # noqa: F401
    Twins,
    test_bare_name_is_refused_with_every_typeable_form,
    test_each_typeable_form_anchors_its_own_twin,
    test_editing_one_twin_stales_only_its_memory,
    test_whitespace_in_discriminator_is_forgiven,
    twins_fixture,
)

TWINS = {
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
        ("i >= size_) throw std::out_of_range(\"Buffer::at const\")", "i > size_) throw std::out_of_range(\"Buffer::at const\")", 1),
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
        ("new Cache(Map.empty)", "new Cache(Map(\"\" -> 0))", 1),
    ),
}


twins = twins_fixture(TWINS)
