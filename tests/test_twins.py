"""Twins (overloads, accessor pairs, trait impls, Go `init`s) through the real CLI, per language."""

from __future__ import annotations

from dataclasses import dataclass

import orjson
import pytest


@dataclass(frozen=True)
class Twins:
    lang: str
    path: str
    source: str
    name: str  # the qualified name the twins share
    discs: tuple[str, ...]  # their discriminators as `anchor_ambiguous` lists them, in source order
    spaced: tuple[str, int]  # a discriminator typed with other whitespace, and which twin it means
    edit: tuple[str, str, int]  # (old, new, twin): a body edit inside that one twin


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


def twins_fixture(cases: dict[str, Twins]):
    """The `twins` fixture over `cases`: each case's source committed in a fresh repository."""

    @pytest.fixture(params=list(cases.values()), ids=list(cases))
    def twins(request, repo) -> Twins:
        t = request.param
        repo.write(t.path, t.source)
        repo.commit("twins")
        return t

    return twins


twins = twins_fixture({t.lang: t for t in TWINS})


def _forms(t: Twins) -> list[str]:
    return [f"{t.path}::{t.name}@{d}" for d in t.discs]


def test_bare_name_is_refused_with_every_typeable_form(repo, twins):
    t = twins
    proc = repo.run("remember", "Which one?", "--anchor", f"{t.path}::{t.name}", "--json", check=False)
    assert proc.returncode == 2
    err = orjson.loads(proc.stdout)["error"]
    assert (err["code"], err["candidates"]) == ("anchor_ambiguous", _forms(t))
    assert repo.memory_files() == {}


def test_each_typeable_form_anchors_its_own_twin(repo, twins):
    t = twins
    ids = [repo.remember(f"Twin {i} of {t.name}.", form) for i, form in enumerate(_forms(twins))]
    items = repo.check()
    for mid, disc in zip(ids, t.discs):
        item = items[mid]
        a = item["anchors"][0]
        assert (item["status"], a["symbol"], a["discriminator"]) == ("active", t.name, disc)


def test_whitespace_in_discriminator_is_forgiven(repo, twins):
    t = twins
    typed, which = t.spaced
    mid = repo.remember("Typed loosely.", f"{t.path}::{t.name}@{typed}")
    a = repo.check()[mid]["anchors"][0]
    assert (a["status"], a["symbol"], a["discriminator"]) == ("active", t.name, t.discs[which])


def test_editing_one_twin_stales_only_its_memory(repo, twins):
    t = twins
    ids = [repo.remember(f"Twin {i} of {t.name}.", form) for i, form in enumerate(_forms(twins))]
    old, new, edited = t.edit
    repo.replace(t.path, old, new)
    items = repo.check()
    got = [(items[mid]["status"], items[mid]["reason"]) for mid in ids]
    want = [("stale", "body_edited") if i == edited else ("active", None) for i in range(len(ids))]
    assert got == want
    a = items[ids[edited]]["anchors"][0]
    assert (a["symbol"], a["discriminator"]) == (t.name, t.discs[edited])
    assert any(line.startswith("+") and new in line for line in a["diff"].splitlines())
