"""Renames that reach into the body: a recursive function renamed with its own calls, a class
renamed with its constructor and every `new Account(...)`, a method whose class was renamed.
And renames or moves made together with an edit, which are stale where they went, not deleted.

The hash leaves the symbol's own name out, but not other spellings of it inside the body, and it
must not: `def get(self): return self._cache.get(k)` renamed to `fetch` keeps its `.get`. So a
rename like that changes the hash, and the lifecycle would call the anchor deleted. This module
checks the one hypothesis that explains it exactly: take a candidate whose qualified name differs
from the anchor's in one segment, spell that segment back the old way inside the candidate's
text, parse the file again, and compare with the stored hash. Equal means renamed, nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePosixPath

from tether.anchor.model import Symbol
from tether.index.code_index import CodeIndex
from tether.lifecycle.diff import alike, file_from_git, names_at
from tether.store.model import Anchor

# Each check is a parse of the whole file; a deleted anchor in a file of a hundred functions
# must not cost a hundred. The cheap filters below leave very few, and at most this many are parsed.
MAX_PARSES = 8
# When the anchored file is gone too (Java: the class `Account` lives in `Account.java`), the
# renamed file is looked for among this many files of the same directory and extension.
MAX_SIBLINGS = 64
_CONFIG_KINDS = frozenset({"markdown", "rst", "json", "yaml", "toml"})
# Namesakes elsewhere asked of git when an anchor moved and was edited: each costs a `git show`.
MAX_ELSEWHERE = 4
# A rename made with an edit has no exact test, so it takes a close likeness (the moved-and-edited
# path asks 0.6 of a namesake; a new name is weaker evidence than the same one).
RENAMED_AND_EDITED = 0.75
# A method and a function are one kind here: taking a method out of its class is a move.
_CALLABLE = {"method": "function"}


def renamed_throughout(
    index: CodeIndex, a: Anchor, resembles: Callable[[str | None], bool], commit: str | None = None
) -> tuple[str, Symbol] | None:
    """Where the anchor went if it was renamed in its body as well as its name; None otherwise.

    The name is spelled back in code only, never in strings or comments: `extension =
    require('./extension')` is not `constants = require('./constants')` renamed. And, asked of
    git when the memory has a commit, the new name must be new to its file since then: a
    neighbour that was already there (`height` beside a deleted `width`) is not a rename."""
    from tether.anchor.extract import kind_of, literal_spans  # the parsing machinery, only once an anchor is missing

    if a.type != "symbol" or not a.symbol or kind_of(a.path) in _CONFIG_KINDS:
        return None
    old = a.symbol.split(".")
    paths = [a.path] if index.file(a.path) is not None else _siblings(index, a.path)
    checks = 0
    found: list[tuple[str, Symbol]] = []
    for path in paths:
        data = None
        for s in index.symbols(path):
            pair = _one_segment_renamed(old, s.qualname.split("."))
            if pair is None:
                continue
            was, now = pair
            if data is None:
                data = index.read_bytes(path)
                if data is None:
                    break
            body = data[s.start_byte : s.end_byte]
            spelled = list(_word(now).finditer(body))
            # the name must be spelled inside the body, or the hash would have matched already
            if len(spelled) < (2 if now == s.qualname.split(".")[-1] else 1):
                continue
            if not resembles(body.decode("utf-8", "replace")):
                continue
            if checks == MAX_PARSES:
                return None
            checks += 1
            literals = literal_spans(path, data, s.start_byte, s.end_byte)
            own = _own_receivers(body, s.qualname.split(".") + old)
            in_code = [
                m
                for m in spelled
                if not any(x <= s.start_byte + m.start() < y for x, y in literals)
                and not _foreign_member(body, m.start(), own)
            ]
            respelled = bytearray(data[: s.start_byte])
            pos = 0
            for m in in_code:
                respelled += body[pos : m.start()] + was.encode()
                pos = m.end()
            respelled += body[pos:] + data[s.end_byte :]
            if _hash_at(path, bytes(respelled), s) == a.hash:
                found.append((path, s))
    if commit is not None:
        found = [(p, s) for p, s in found if s.qualname not in names_at(index.root, commit, p)]
    return found[0] if len(found) == 1 else None


def _one_segment_renamed(old: list[str], new: list[str]) -> tuple[str, str] | None:
    """(old segment, new segment) if the qualified names differ in exactly one segment."""
    if len(old) != len(new):
        return None
    diffs = [(o, n) for o, n in zip(old, new) if o != n]
    return diffs[0] if len(diffs) == 1 else None


# Receivers through which a body reaches its own symbol: `self.get(k)` renamed with `get` is part
# of the rename, `api.get(k)` is another object's member and stays spelled as it is.
_SELF_RECEIVERS = frozenset({b"self", b"this", b"cls", b"Self", b"static", b"$this", b"__MODULE__"})
_ACCESSOR = re.compile(rb"(?:(?:\?\.|\.|->|::)\s*|(?<=[\w$]):)$")  # Lua's `self:get`, never a block's colon
_RECEIVER = re.compile(rb"[\w$@]+$")
_GO_RECEIVER = re.compile(rb"\s*func\s*\(\s*(\w+)")


def _own_receivers(body: bytes, segments: list[str]) -> frozenset[bytes]:
    """The names a member access on the symbol's own object or type may start with: the usual
    self-references, the qualified name's segments (`Account.open`), a Go method's receiver."""
    go = _GO_RECEIVER.match(body)
    return _SELF_RECEIVERS | {seg.encode() for seg in segments} | ({go.group(1)} if go else set())


def _foreign_member(body: bytes, at: int, own: frozenset[bytes]) -> bool:
    """Is the name at `at` a member of some other object (`api.get`, `conn->close`)?"""
    before = body[max(0, at - 80) : at]
    accessor = _ACCESSOR.search(before)
    if accessor is None:
        return False
    receiver = _RECEIVER.search(before[: accessor.start()].rstrip())
    return receiver is None or receiver.group(0) not in own


def _word(name: str) -> re.Pattern[bytes]:
    return re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")


def _hash_at(path: str, data: bytes, s: Symbol) -> str | None:
    """The hash of the symbol starting where `s` starts, in `data` parsed as `path`."""
    from tether.anchor.extract import analyze

    for t in analyze(path, data).symbols:
        if t.start_byte == s.start_byte and t.kind == s.kind:
            return t.hash
    return None


def _siblings(index: CodeIndex, path: str) -> list[str]:
    p = PurePosixPath(path)
    same = [r for r in index.files_in(str(p.parent) if str(p.parent) != "." else "", p.suffix) if r != path]
    return [r for r in same[:MAX_SIBLINGS] if index.file(r) is not None]  # brought up to date


def _named_like(index: CodeIndex, a: Anchor, old: list[str]) -> list[tuple[str, Symbol]]:
    """`renamed_and_edited`'s candidates, as the index has them now (see there)."""
    candidates: list[tuple[str, Symbol]] = []
    for home in _homes(index, a.path):
        candidates += [(home, s) for s in index.symbols(home) if _one_segment_renamed(old, s.qualname.split("."))]
    candidates += [(p, s) for p, s in index.find_named(a.symbol) if p != a.path][:MAX_ELSEWHERE]  # type: ignore[arg-type]
    if len(old) > 1:  # a method taken out of its class, into a function here or elsewhere
        candidates += index.find_named(old[-1])[:MAX_ELSEWHERE]
    return list({(p, s.qualname, s.start_byte): (p, s) for p, s in candidates}.values())


def renamed_and_edited(
    index: CodeIndex, a: Anchor, old_text: str | None, commit: str | None
) -> tuple[str, Symbol] | None:
    """A symbol renamed, or moved to another file, or both, and edited in one go: stale where it went.

    The candidates are the names that are new since the anchor was written: in its own file, a
    name differing in one segment (renamed); elsewhere, the same qualified name (moved); a
    method's own name alone, here or elsewhere (taken out of its class into a function); when its
    file is gone, a name differing in one segment in the one file of that base name (the file
    moved, `git mv` + rename + edit, as a refactor does in one commit), or else in the files of
    its directory and extension (Java's `Account.java` renamed with its class). "New" is
    asked of git at the commit that holds the anchored code: a name already there then is a
    neighbour, never the anchor. Of those, exactly one must be close to the anchored text. Without
    git history for the anchored code there is no such evidence, and no answer. Git is asked only
    once some candidate is close, so a deleted anchor costs a few cheap comparisons per read."""
    from tether.anchor.extract import kind_of

    if a.type != "symbol" or not a.symbol or old_text is None or kind_of(a.path) in _CONFIG_KINDS:
        return None
    old = a.symbol.split(".")
    candidates = _named_like(index, a, old)
    before = index.dirty
    live = {p for p in {p for p, _ in candidates} if index.file(p) is not None}
    if index.dirty != before:  # a candidate's file changed since it was indexed: its names and offsets anew
        candidates = _named_like(index, a, old)
        live = {p for p in {p for p, _ in candidates} if index.file(p) is not None}
    close = [(p, s) for p, s in candidates if p in live and alike(old_text, _source(index, p, s), RENAMED_AND_EDITED)]
    if not close:
        return None
    then = file_from_git(index.root, commit, a.path, a.hash, True)
    if then is None:
        return None
    _, old_symbols, rev = then
    kinds = {_CALLABLE.get(s.kind, s.kind) for s in old_symbols if s.hash == a.hash}
    had = {s.qualname for s in old_symbols}
    # elsewhere, the name must be new in that file too (a renamed one also new to the anchor's file)
    new = [
        (p, s)
        for p, s in close
        if _CALLABLE.get(s.kind, s.kind) in kinds
        and (s.qualname == a.symbol or s.qualname not in had)
        and (p == a.path or s.qualname not in names_at(index.root, rev, p))
    ]
    return new[0] if len(new) == 1 else None


def _homes(index: CodeIndex, path: str) -> list[str]:
    """Where a renamed symbol may be: its file; if that is gone, the one file elsewhere with its
    base name (moved); else its siblings (renamed with the symbol it is named after)."""
    if index.file(path) is not None:
        return [path]
    found = [r.path for r in index.find_basename(PurePosixPath(path).name) if r.path != path]
    if len(found) == 1 and index.file(found[0]) is not None:
        return found
    return _siblings(index, path)


def _source(index: CodeIndex, path: str, s: Symbol) -> str | None:
    return index.read_text(path, s.start_byte, s.end_byte)
