"""Receipts: each recall priced against the reads it replaced, computed from the anchored code.

The counterfactual is mechanical: an agent without the memory reads the code it is anchored to.
For every active memory served, that is the source of each anchored symbol, section or key (the
whole file for a file anchor), plus FILE_OVERHEAD tokens for each distinct file opened. Spans
that overlap (two memories on one symbol, a method inside an anchored class) count once, and each
file's overhead once per recall. Tokens are ceil(characters / 4), the counter recall budgets with.
Stale and invalidated memories replace nothing: the agent has to read the code anyway.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

from tether.lifecycle.status import Status
from tether.recall.text import token_count

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the CLI's start-up
if TYPE_CHECKING:
    from tether.index.code_index import CodeIndex
    from tether.lifecycle.verdicts import Verdict

# The cost of opening one file, beyond its text: the JSON of a Read tool call as the model sees it,
# {"type":"tool_use","id":"toolu_01…","name":"Read","input":{"file_path":"/home/dev/project/src/pkg/module.py"}},
# and of the tool_result wrapper around the text, about 200 characters together: 50 tokens. It
# leaves out Read's line-number prefix on every line and any search to find the file, so the
# counterfactual is a floor, not an estimate.
FILE_OVERHEAD = 50


class Span:
    """Anchored code as it is now: a byte range of a file (None, None: the whole file). A plain
    class: a dataclass is built at import, ~0.6 ms of every recall's start."""

    __slots__ = ("path", "start", "end")

    def __init__(self, path: str, start: int | None, end: int | None) -> None:
        self.path, self.start, self.end = path, start, end

    def __repr__(self) -> str:
        return f"Span({self.path!r}, {self.start!r}, {self.end!r})"


def spans(index: CodeIndex, v: Verdict) -> list[Span]:
    """Where each anchor of a memory resolves now; anchors with no code now are left out."""
    out = []
    for a, r in v.anchors:
        path = r.path or a.path
        if r.status == Status.INVALIDATED:
            continue
        if a.type == "file":
            out.append(Span(path, None, None))
            continue
        syms = index.symbols(path, r.symbol or a.symbol)
        # the matching body when active; when edited, the symbol where the resolver found it
        pick = next((s for s in syms if s.hash == a.hash), None) or next(
            (s for s in syms if s.start_line == r.start_line), None
        )
        if pick is not None:
            out.append(Span(path, pick.start_byte, pick.end_byte))
    return out


class Pricer:
    """Prices recalls against one index; file texts are read once per pricer."""

    def __init__(self, index: CodeIndex) -> None:
        self.index = index
        self._bytes: dict[str, bytes | None] = {}
        self._spans: dict[str, list[Span]] = {}
        self._tokens: dict[tuple[str, int, int], int] = {}  # recall prices each packing attempt

    def add(self, v: Verdict) -> None:
        """Make an active memory priceable by id (only active ones replace reads)."""
        if v.status == Status.ACTIVE:
            self._spans[v.memory.id] = spans(self.index, v)

    def replaced(self, ids: Iterable[str]) -> tuple[int, int]:
        """(tokens, files) a reader would spend on the anchored code of these memories."""
        by_file: dict[str, list[tuple[int, int]]] = {}
        for mid in dict.fromkeys(ids):
            for s in self._spans.get(mid, ()):
                data = self.data(s.path)
                if data is None:
                    continue
                by_file.setdefault(s.path, []).append((s.start or 0, len(data) if s.end is None else s.end))
        total = 0
        for path, ranges in by_file.items():
            data = self.data(path) or b""
            for a, b in merge(ranges):
                if (path, a, b) not in self._tokens:
                    self._tokens[path, a, b] = code_tokens(data[a:b])
                total += self._tokens[path, a, b]
            total += FILE_OVERHEAD
        return total, len(by_file)

    def receipt(self, ids: Iterable[str], served: int, settled: bool = True) -> dict:
        """The receipt of one response. Unsettled (still packing), the ratio takes the most digits
        it could have, so the budget check never undercounts the final text."""
        replaced, files = self.replaced(ids)
        if not settled:
            ratio = replaced + 0.25
        else:
            # one decimal: with two, the ratio's length could change with `served` and keep recall's
            # self-counting token total from settling (195 -> "3.32", 196 -> "3.3", and back)
            ratio = round(replaced / served, 1) if served else 0.0
        return {"served_tokens": served, "replaced_tokens": replaced, "files": files, "ratio": ratio}

    def sources(self, v: Verdict) -> list[tuple[str, str]]:
        """(path, text) of each anchor of a memory as it is now, stale ones included."""
        out = []
        for s in spans(self.index, v):
            data = self.data(s.path)
            if data is not None:
                out.append((s.path, data[s.start or 0 : s.end].decode("utf-8", "replace")))
        return out

    def data(self, path: str) -> bytes | None:
        """The file's bytes as they are now (symbol byte ranges index into these)."""
        if path not in self._bytes:
            self._bytes[path] = read_bytes(self.index, path)
        return self._bytes[path]


def read_bytes(index: CodeIndex, rel: str) -> bytes | None:
    """A regular file inside the root, as the index reads it; None if it is not one."""
    if not index.contained(rel):
        return None
    full = os.path.join(index.root, rel)
    try:
        if not stat.S_ISREG(os.stat(full, follow_symlinks=False).st_mode):
            return None
        with open(full, "rb") as f:
            return f.read()
    except OSError:
        return None


def code_tokens(data: bytes) -> int:
    """ceil(characters / 4) of a UTF-8 slice (a slice cut inside a character counts what remains)."""
    return token_count(data.decode("utf-8", "replace"))


def merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping byte ranges joined, so nested or repeated anchors are read once."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out
