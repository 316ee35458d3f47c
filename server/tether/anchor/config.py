"""Config keys (JSON, YAML, TOML): every key path is a symbol, hashed on its value subtree.

Key paths are dotted: `database.pool_size`, `tool.pytest.ini_options`. A key holding a dot, a
quote or edge whitespace is written quoted, TOML style: `"editor.formatOnSave"`; users may also
type `a\\.b` or `a["b.c"]`. Array elements go by position (`servers.0`, also typed `servers[0]`),
except an element that is a mapping with a `name` (else `id`) string unique among its siblings,
which goes by that name (`jobs.test.steps.Run tests`): inserting a step then shifts no locator,
and a shifted locator would read as an edit of the wrong element.

The hash is a Merkle digest of the parsed value, so formatting, comments, quoting style, number
spelling (`1_000`, `0x10`) and key order inside a mapping never count; array order and types do
(`"20"` is not `20`). A key's own name is left out, so a renamed key path is followed when its
value is unique and says enough; a named array element leaves its name field out the same way.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import re
from bisect import bisect_right
from collections import Counter, deque

from tether.anchor.model import Symbol
from tether.anchor.normalize import digest

KEY_PREFIX = "k1:"
CONFIG_KINDS = {".json": "json", ".jsonc": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml"}
NAME_FIELDS = ("name", "id")
# A data file can hold hundreds of thousands of keys; the shallowest are kept, which are the ones
# people write memories about, and the index stays small and quick to build.
MAX_KEYS = 10_000
FLAT_CAP = 1024
# Generated lock files: a memory belongs on the manifest they come from; parsing them is all cost.
LOCK_FILES = frozenset({"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml"})


class Node:
    """One parsed value: a mapping, a list or a scalar (typed by `tag`)."""

    __slots__ = ("_digest", "_flat", "entries", "items", "kind", "merges", "tag", "text")

    def __init__(self, kind: str, tag: str = "", text: str = "") -> None:
        self.kind = kind  # map | list | scalar
        self.tag = tag  # scalar type (str, int, float, bool, null, datetime) or an explicit YAML tag
        self.text = text  # a scalar's canonical text
        self.entries: dict[str, Entry] = {}
        self.items: list[Entry] = []
        self.merges: list[Node] = []  # YAML `<<` sources; explicit keys and earlier sources win
        self._digest: bytes | None = None
        self._flat: str | None = None

    def effective(self) -> dict[str, Node]:
        """The mapping as a loader sees it, merge keys applied."""
        out: dict[str, Node] = {}
        for src in reversed(self.merges):
            out.update(src.effective())
        out.update((k, e.node) for k, e in self.entries.items())
        return out

    def digest(self, skip: str | None = None) -> bytes:
        """Merkle digest: memoized per node, so YAML aliases cost nothing (no billion laughs)."""
        if skip is None and self._digest is not None:
            return self._digest
        h = hashlib.blake2b(digest_size=16)
        h.update(self.kind[0].encode() + self.tag.encode() + b"\0")
        if self.kind == "scalar":
            h.update(self.text.encode("utf-8", "surrogatepass"))
        elif self.kind == "list":
            for e in self.items:
                h.update(e.node.digest())
        else:
            for k, v in sorted(self.effective().items()):
                if k != skip:
                    kb = k.encode("utf-8", "surrogatepass")
                    h.update(len(kb).to_bytes(4, "big") + kb + v.digest())
        d = h.digest()
        if skip is None:
            self._digest = d
        return d

    def flat(self, skip: str | None = None) -> str:
        """Every key and scalar below, run together: what the entropy floor measures.

        Capped, so an alias-heavy file stays linear; information far past the floor adds nothing.
        """
        if skip is None and self._flat is not None:
            return self._flat
        if self.kind == "scalar":
            out = self.text
        elif self.kind == "list":
            out = "".join(e.node.flat() for e in self.items)
        else:
            out = "".join(k + v.flat() for k, v in self.effective().items() if k != skip)
        out = out[:FLAT_CAP]
        if skip is None:
            self._flat = out
        return out


class Entry:
    """A key or element where it is written: its value and the byte span of `key: value`."""

    __slots__ = ("alias", "end", "node", "start")

    def __init__(self, node: Node, start: int = -1, end: int = -1, alias: bool = False) -> None:
        self.node = node
        self.start, self.end = start, end
        self.alias = alias  # the value is written elsewhere (a YAML alias): its keys are not here

    def widen(self, start: int, end: int) -> None:
        self.start = start if self.start < 0 else min(self.start, start)
        self.end = max(self.end, end)


def bits(chars: Counter) -> float:
    """Information in a value: order-0 Shannon N x H over its characters, halved.

    Word tokens undercount config values: `postgres://db:5432/app` is one token yet clearly unique.
    Letter frequencies overcount them (about 4 bits a character, where real text says 1 to 2), so
    the count is halved: the 40-bit floor then lets through values of some 25 varied characters,
    while `20`, `true`, `info` or `jest --coverage` are coincidences waiting to happen and stay
    under it (a renamed `pool_size: 20` is reported low_entropy with its candidate, never re-pointed).
    """
    n = sum(chars.values())
    if n == 0:
        return 0.0
    return max(0.0, (n * math.log2(n) - sum(c * math.log2(c) for c in chars.values())) / 2)


_BARE = re.compile(r"""[^."'\[\]\\\s](?:[^."\[\]\\]*[^."'\[\]\\\s])?""")


def quote(seg: str) -> str:
    """A path segment as typed: bare when it can be, else TOML-style double-quoted."""
    if _BARE.fullmatch(seg):
        return seg
    return '"' + seg.replace("\\", "\\\\").replace('"', '\\"') + '"'


def split_path(text: str) -> list[str] | None:
    """Segments of a typed key path (`a.b`, `a."b.c"`, `a\\.b`, `a[0]`, `a["b"]`); None if malformed."""
    segs: list[str] = []
    i, n = 0, len(text)
    while True:
        if i < n and text[i] in "\"'":
            q, j, buf = text[i], i + 1, []
            while j < n and text[j] != q:
                if text[j] == "\\" and j + 1 < n:
                    j += 1
                buf.append(text[j])
                j += 1
            if j >= n:
                return None
            segs.append("".join(buf))
            i = j + 1
        else:
            buf = []
            while i < n and text[i] not in ".[":
                if text[i] == "\\" and i + 1 < n:
                    i += 1
                buf.append(text[i])
                i += 1
            if buf or i >= n or text[i] == ".":
                segs.append("".join(buf).strip())
        while i < n and text[i] == "[":
            j = text.find("]", i)
            if j < 0:
                return None
            segs.append(text[i + 1 : j].strip().strip("\"'"))
            i = j + 1
        if i >= n:
            return segs
        if text[i] != ".":
            return None
        i += 1


def extract_keys(roots: list[Node], data: bytes, offset: int = 0) -> list[Symbol]:
    """Every key path of the parsed documents, shallowest first up to MAX_KEYS; `@#N` per YAML document."""
    starts = [0] + [m.end() for m in re.finditer(b"\n", data)]
    out: list[Symbol] = []
    multi = len(roots) > 1
    queue = deque(("", root, f"#{n}" if multi else None) for n, root in enumerate(roots, 1))
    while queue and len(out) < MAX_KEYS:
        prefix, node, disc = queue.popleft()
        kids: list[tuple[str, Entry, str | None]]  # (segment, entry, field its name came from)
        if node.kind == "map":
            kids = [(quote(k), e, None) for k, e in node.entries.items()]
        else:
            names = _element_names(node)
            kids = [
                (quote(names[i][0]), e, names[i][1]) if i in names else (str(i), e, None)
                for i, e in enumerate(node.items)
            ]
        for seg, e, skip in kids[: MAX_KEYS - len(out)]:
            name = prefix + seg
            h = digest(KEY_PREFIX, e.node.digest(skip))
            info = round(bits(Counter(e.node.flat(skip))), 1)
            start, end = e.start + offset, e.end + offset
            line0, line1 = bisect_right(starts, start), bisect_right(starts, max(start, end - 1))
            out.append(Symbol(name, disc, "key", line0, line1, start, end, h, info))
            if not e.alias and e.node.kind != "scalar":
                queue.append((name + ".", e.node, disc))
    # (qualname, document) pairs are unique by construction: no ordinals are ever needed
    out.sort(key=lambda s: s.start_byte)
    return out


def _element_names(node: Node) -> dict[int, tuple[str, str]]:
    """Index -> (name, field) for elements named by a unique, non-numeric `name`/`id` string."""
    got: dict[int, tuple[str, str]] = {}
    for i, e in enumerate(node.items):
        if e.alias or e.node.kind != "map":
            continue
        for field in NAME_FIELDS:
            v = e.node.entries.get(field)
            if v is not None and v.node.kind == "scalar" and v.node.tag == "str":
                if v.node.text.strip() and not v.node.text.isdigit():
                    got[i] = (v.node.text, field)
                break
    counts = Counter(name for name, _ in got.values())
    return {i: nf for i, nf in got.items() if counts[nf[0]] == 1}


def match_keys(symbols: list[Symbol], name: str) -> list[Symbol]:
    """Exact path first, then the same segments however quoted, then a unique tail, then any case."""
    exact = [s for s in symbols if s.qualname == name]
    if exact:
        return exact
    want = split_path(name)
    if not want:
        return []
    segs = [(s, split_path(s.qualname) or [s.qualname]) for s in symbols]
    for fold in (False, True):
        w = [x.casefold() for x in want] if fold else want
        norm = [(s, [x.casefold() for x in sg] if fold else sg) for s, sg in segs]
        full = [s for s, sg in norm if sg == w]
        if full:
            return full
        tail = [s for s, sg in norm if len(sg) > len(w) and sg[-len(w) :] == w]
        if tail:
            return tail
    return []


def near_keys(symbols: list[Symbol], name: str, limit: int = 8) -> list[str]:
    """Keys a mistyped path probably meant: look-alikes, then the keys under its longest real prefix."""
    names = sorted({s.qualname for s in symbols})
    out = difflib.get_close_matches(name, names, n=5, cutoff=0.5)
    want = split_path(name) or [name]
    segs = {q: split_path(q) or [q] for q in names}
    for k in range(len(want) - 1, -1, -1):
        kids = [q for q, sg in segs.items() if len(sg) == k + 1 and sg[:k] == want[:k]]
        if kids:
            out += [q for q in kids if q not in out]
            break
    return out[:limit]
