"""The independent judge of tests/bench/history_rust.py: a Rust definition read as its own tokens.

tether anchors with tree-sitter, and no other Rust parser is to be had offline, so this is a lexer
and an item locator of the bench's own (no tree, no grammar, no code shared with tether):

- the lexer knows line and nested block comments (doc comments too: documentation, left out as
  tether and the `ast` oracle leave docstrings out), strings with escapes, raw strings `r#"..."#`,
  byte and C strings, chars against lifetimes and labels, numbers with suffixes, and Rust's
  operators by maximal munch, so `a && b` is never `a & &b`;
- the locator finds items where an item can stand (at the start, or after `;`, `{`, `}` or an
  attribute): `fn`, `struct`, `enum`, `union`, `trait`, `type`, `const`, `static`, `mod`,
  `macro_rules!`, with their outer attributes, visibility and qualifiers (`pub(crate) const unsafe
  extern "C" fn`), inside `impl`, `trait`, `extern` and `mod` blocks and function bodies alike, and
  ends each by bracket matching: the body's `}` or the `;` at depth 0. Macro invocations are token
  trees it does not look into, as tree-sitter does not.

A fingerprint is the sha1 of the item's tokens, comments, whitespace and trailing commas dropped
(those that change nothing: not the one of `(a,)`, nor any in a macro call) and its own name token
as "_" (a rename is tether's to follow, not an edit), with its outer attributes folded in:
tether's span starts after them, but `#[derive(..)]`, `#[cfg(..)]`, `#[repr(..)]` and
`#[pyo3(signature = ..)]` change the program, as a decorator does in Python (where tether hashes
it). Hints to the compiler and the linters (`#[inline]`, `#[cold]`, `#[allow(..)]`, a
`#[cfg_attr(.., ..)]` of hints only) change no behaviour and are left out. The `impl` or `trait` a
method sits in is left out too, as the ast and acorn oracles leave a method's class out: it is in
tether's name and discriminator, and a method moved between impls is a move tether may follow. So
a change of an impl's generics, where-clause or attributes alone is judged by neither side.

Tokens are stricter than tether's tree in one known place: redundant parentheses, `(a << 10) | b`
against `a << 10 | b`, differ here (telling them apart needs Rust's precedence table, and a
mistake there would call two programs equal); such a verdict is a false alarm of this oracle.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

_LEX = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<comment>//[^\n]*)
    | (?P<block>/\*)
    | (?P<raw>(?:br|cr|r)(?P<hashes>\#*)")
    | (?P<string>[bc]?"(?:[^"\\]|\\.)*")
    | (?P<char>b?'(?:[^'\\\n]|\\(?:u\{[0-9a-fA-F_]*\}|x[0-9a-fA-F]{2}|.))')
    | (?P<lifetime>'(?:r\#)?[^\W\d]\w*)
    | (?P<ident>(?:r\#)?[^\W\d]\w*)
    | (?P<number>\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?[\d_]+)?\w*)
    | (?P<punct>>>=|<<=|\.\.\.|\.\.=|::|->|=>|==|!=|<=|>=|&&|\|\||[-+*/%^&|]=|<<|>>|\.\.|.)
    """,
    re.VERBOSE | re.DOTALL,
)
_BLOCK = re.compile(r"/\*|\*/")
_OPEN = {"(": ")", "[": "]", "{": "}"}
_KEYWORDS = frozenset(
    "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod "
    "move mut pub ref return self Self static struct super trait true type unsafe use where while".split()
)
_QUALIFIERS = frozenset({"default", "async", "unsafe", "auto", "safe"})  # before an item keyword
_NAMED = frozenset({"fn", "struct", "enum", "union", "trait", "type", "mod", "const", "static"})
_AFTER_ITEM = frozenset({";", "{", "}", "]"})  # an item can start after these (`]`: an attribute's end)
_HINTS = frozenset(
    {
        "inline",
        "cold",
        "optimize",
        "allow",
        "warn",
        "deny",
        "forbid",
        "expect",
        "must_use",
        "deprecated",
        "doc",
        "coverage",
        "no_coverage",
        "rustfmt::skip",
    }
)


@dataclass(frozen=True)
class Token:
    text: str
    kind: str  # "ident", "lifetime", "literal" or "punct"
    line: int
    end_line: int


def tokens(src: str) -> list[Token]:
    """Rust's tokens without comments and whitespace; ValueError on an unterminated comment or string."""
    newlines = [m.start() for m in re.finditer("\n", src)]

    def line(pos: int) -> int:
        return bisect.bisect_right(newlines, pos) + 1

    out: list[Token] = []
    pos = 0
    while pos < len(src):
        m = _LEX.match(src, pos)
        kind = m.lastgroup
        end = m.end()
        if kind == "block":  # nested: `/* a /* b */ c */` is one comment
            depth = 0
            for b in _BLOCK.finditer(src, pos):
                depth += 1 if b.group() == "/*" else -1
                if depth == 0:
                    end = b.end()
                    break
            else:
                raise ValueError(f"unterminated block comment at line {line(pos)}")
        elif kind == "raw":
            close = src.find('"' + m.group("hashes"), end)
            if close < 0:
                raise ValueError(f"unterminated raw string at line {line(pos)}")
            end = close + 1 + len(m.group("hashes"))
        elif kind == "punct" and m.group() == '"':
            raise ValueError(f"unterminated string at line {line(pos)}")
        if kind not in ("space", "comment", "block"):
            kind = {"raw": "literal", "string": "literal", "char": "literal", "number": "literal"}.get(kind, kind)
            out.append(Token(src[pos:end], kind, line(pos), line(end - 1)))
        pos = end
    return out


def _matching(toks: list[Token]) -> dict[int, int]:
    """The index of each opening bracket's closing one; ValueError if they do not pair up."""
    close: dict[int, int] = {}
    stack: list[int] = []
    for i, t in enumerate(toks):
        if t.kind != "punct":
            continue
        if t.text in _OPEN:
            stack.append(i)
        elif t.text in (")", "]", "}"):
            if not stack or _OPEN[toks[stack[-1]].text] != t.text:
                raise ValueError(f"unbalanced {t.text!r} at line {t.line}")
            close[stack.pop()] = i
    if stack:
        raise ValueError(f"unclosed {toks[stack[-1]].text!r} at line {toks[stack[-1]].line}")
    return close


@dataclass
class Definition:
    name: str
    line: int  # where tether's span starts: after the attributes, at `pub` or the first keyword
    end_line: int
    span: int  # tokens, to pick the outermost of two same-named candidates
    attributes: list[list[str]] = field(repr=False)  # the outer ones that are not hints
    words: list[str] = field(repr=False)  # the item's tokens, its name as "_"

    def fingerprint(self) -> str:
        return hashlib.sha1(json.dumps([self.attributes, self.words]).encode()).hexdigest()


def definitions(toks: list[Token]) -> list[Definition]:
    """Every item the file defines, nested ones included, in source order."""
    close = _matching(toks)
    out: list[Definition] = []
    i = 0
    while i < len(toks):
        if i == 0 or toks[i - 1].text in _AFTER_ITEM:
            found = _item(toks, close, i)
            if found is not None:
                d, i = found
                out.append(d)
                continue
        if _is_macro_call(toks, i):  # a token tree: tree-sitter sees no items in it either
            i = close[i + 2] + 1
            continue
        i += 1
    return out


def _is_macro_call(toks: list[Token], i: int) -> bool:
    return (
        toks[i].kind == "ident"
        and toks[i].text not in _KEYWORDS
        and i + 2 < len(toks)
        and toks[i + 1].text == "!"
        and toks[i + 2].text in _OPEN
    )


def _item(toks: list[Token], close: dict[int, int], i: int) -> tuple[Definition, int] | None:
    """The item starting at token i, and where the scan goes on (inside it, for nested items)."""
    n = len(toks)

    def text(k: int) -> str:
        return toks[k].text if k < n else ""

    def ident(k: int) -> bool:
        return k < n and toks[k].kind == "ident"

    j = i
    attributes = []
    while text(j) == "#" and text(j + 1) == "[":  # outer attributes
        attribute = [t.text for t in toks[j : close[j + 1] + 1]]
        if not _is_hint(attribute[2:-1]):
            attributes.append(attribute)
        j = close[j + 1] + 1
    start = j
    if text(j) == "pub":  # `pub`, `pub(crate)`, `pub(in path)`
        j = close[j + 1] + 1 if text(j + 1) == "(" else j + 1
    while True:  # qualifiers: `default`, `async`, `unsafe`, `const fn`, `extern "C" fn`
        if text(j) in _QUALIFIERS and ident(j + 1):
            j += 1
        elif text(j) == "const" and text(j + 1) in ("fn", "unsafe", "async", "extern"):
            j += 1
        elif text(j) == "extern" and j + 1 < n and toks[j + 1].kind == "literal" and text(j + 2) in ("fn", "unsafe"):
            j += 2
        elif text(j) == "extern" and text(j + 1) == "fn":
            j += 1
        else:
            break
    kw = text(j)
    if kw == "macro_rules" and text(j + 1) == "!" and ident(j + 2) and text(j + 3) in _OPEN:
        name_at, end = j + 2, close[j + 3]
        if text(j + 3) != "{" and text(end + 1) == ";":
            end += 1
        resume = end + 1  # the rules are token trees
    elif kw in _NAMED:
        name_at = j + 2 if kw == "static" and text(j + 1) == "mut" else j + 1
        if not ident(name_at) or text(name_at) in _KEYWORDS:
            return None  # `fn(u8)` as a type, `const {` blocks, `unsafe {` ...
        if kw in ("const", "static") and text(name_at + 1) != ":":
            return None
        if kw == "union" and text(name_at + 1) not in ("{", "<", "where"):
            return None  # `union` is a keyword only here
        end = _end(toks, close, name_at + 1, to_semicolon=kw in ("const", "static", "type"))
        if end is None:
            return None
        resume = name_at + 1
    else:
        return None
    cosmetic = set() if kw == "macro_rules" else _trailing_commas(toks, close, start, end)
    words = [t.text if k != name_at else "_" for k, t in enumerate(toks[start : end + 1], start) if k not in cosmetic]
    return Definition(
        toks[name_at].text, toks[start].line, toks[end].end_line, end + 1 - start, attributes, words
    ), resume


def _trailing_commas(toks: list[Token], close: dict[int, int], start: int, end: int) -> set[int]:
    """The commas in toks[start..end] that change nothing: before `]` or `}`, or before the `)` of a
    list that has another comma (`(a,)` is a tuple, `(a)` is not); never in a macro call's token
    tree, which the macro may match either way."""
    macros = [(k + 2, close[k + 2]) for k in range(start, end) if _is_macro_call(toks, k)]
    opener = {c: o for o, c in close.items() if start <= o <= end}
    out = set()
    for k in range(start, end):
        c = k + 1
        if toks[k].text != "," or c not in opener or any(a < k < b for a, b in macros):
            continue
        if toks[c].text != ")" or _commas(toks, close, opener[c]) > 1:
            out.add(k)
    return out


def _commas(toks: list[Token], close: dict[int, int], o: int) -> int:
    """How many commas the group opened at o holds at its own depth."""
    n, k = 0, o + 1
    while k < close[o]:
        n += toks[k].text == ","
        k = close[k] + 1 if k in close else k + 1
    return n


def _is_hint(words: list[str]) -> bool:
    """Whether an attribute (its words between `#[` and `]`) only steers the compiler or a linter."""
    path = "".join(itertools.takewhile(lambda w: w not in ("(", "="), words))
    if path == "cfg_attr":  # `cfg_attr(predicate, attr, ...)`: a hint if every attr it adds is one
        return all(_is_hint(a) for a in _split_commas(words[2:-1])[1:])
    return path in _HINTS or path.startswith("clippy::")


def _split_commas(words: list[str]) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    depth = 0
    for w in words:
        depth += (w in _OPEN) - (w in (")", "]", "}"))
        if w == "," and depth == 0:
            parts.append([])
        else:
            parts[-1].append(w)
    return [p for p in parts if p]


def _end(toks: list[Token], close: dict[int, int], k: int, to_semicolon: bool) -> int | None:
    """The item's last token: the `;` at depth 0, or (unless `to_semicolon`) its body's `}`."""
    while k < len(toks):
        t = toks[k].text
        if t == "{" and not to_semicolon:
            return close[k]
        if t in _OPEN:
            k = close[k] + 1
        elif t == ";":
            return k
        elif t == "}":  # the enclosing block ends first: not an item after all
            return None
        else:
            k += 1
    return None


class RustOracle:
    """The judge `replay` asks: files are read once per checkout."""

    name = "rust-tokens"

    def __init__(self) -> None:
        self.cache: dict[Path, list[Definition]] = {}

    def defs(self, path: Path) -> list[Definition]:
        if path not in self.cache:
            try:
                self.cache[path] = definitions(tokens(path.read_bytes().decode("utf-8", "replace")))
            except ValueError:  # not Rust it can read: it judges nothing there
                self.cache[path] = []
        return self.cache[path]

    def fingerprints(self, path: Path, queries: list[tuple[str, int, int]]) -> list[str | None]:
        """The outermost definition called NAME that starts within first..last and ends by last."""
        defs = self.defs(path)
        out = []
        for name, first, last in queries:
            found = [d for d in defs if d.name == name and first <= d.line <= last and d.end_line <= last]
            out.append(max(found, key=lambda d: d.span).fingerprint() if found else None)
        return out

    def everywhere(self, repo: Path) -> Counter:
        counts: Counter = Counter()
        for p in sorted(repo.rglob("*.rs")):
            if not {".git", ".tether"}.intersection(p.relative_to(repo).parts):
                counts.update(d.fingerprint() for d in self.defs(p))
        return counts

    def reset(self) -> None:
        self.cache.clear()
