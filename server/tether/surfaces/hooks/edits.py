"""Which lines a turn's edits touched, and whether a memory's anchors are among them (Stop's credit).

An edit of `MethodView.__init_subclass__` is no use of the `View.as_view` memory in the same file:
a memory is credited for an edit only where the edited lines meet one of its anchors. The lines
come from the turn's Edit and MultiEdit calls, as the transcript holds them or else as the
PostToolUse log does: each `new_string` is looked up in the file as it is after the turn. A string
the file holds at several places (not a `replace_all`) places its edit nowhere: no memory is
credited for it rather than every one it might be. Where nothing can be told (a Write, a deletion,
a string the file no longer holds, a file too large or unreadable), the whole file counts. Everything read here is untrusted: bounded, and never an error.
"""

from __future__ import annotations

import os

from tether.anchor.disc import disc_matches
from tether.files.read import Unreadable, read_regular_file

MAX_FILE_BYTES = 1_000_000  # as the parser's cap: a larger file is not parsed, its anchors not placed
MAX_STRINGS = 64  # edited strings looked up per file; past that the whole file counts
MAX_HITS = 16  # occurrences of one string counted (a `replace_all` of a common word)

Ranges = list  # [(first line, last line)], 1-based, inclusive


def edited_ranges(uses, rel_of) -> dict:
    """Repo-relative path -> the line ranges the turn's edits left there, or None (the whole file).
    `uses`: the turn's tool uses; `rel_of(path)`: the repo-relative path, or None outside the root."""
    found: dict[str, tuple[str, list[tuple[str, bool]] | None]] = {}
    for u in uses:
        raw = u.input.get("file_path")
        if u.name not in ("Edit", "MultiEdit", "Write") or not isinstance(raw, str) or not raw:
            continue
        rel = rel_of(raw)
        if rel is None:
            continue
        strings = _new_strings(u)
        path, have = found.get(rel, (raw, []))
        found[rel] = (path, None if strings is None or have is None else have + strings)
    return {rel: _lines(path, strings) for rel, (path, strings) in found.items()}


class LoggedUse:
    """An edit the PostToolUse log knows of, shaped as the transcript's tool use."""

    __slots__ = ("id", "name", "input")

    def __init__(self, id: str, name: str, input: dict) -> None:
        self.id, self.name, self.input = id, name, input


def logged_uses(entries: list[dict], root: str, known: set) -> list[LoggedUse]:
    """The logged edits of files the transcript holds no edit of (no transcript, or one that does
    not say), each with the strings it left: placed by the same line logic as the transcript's.
    `known`: the repo-relative paths the transcript's edits name."""
    out = []
    for e in entries:
        if e["path"] in known:
            continue
        path = os.path.join(root, e["path"])
        strings = e.get("strings")
        pairs = [x for x in strings if _pair(x)] if isinstance(strings, list) else []
        if not pairs or len(pairs) != len(strings or ()):
            out.append(LoggedUse(str(e.get("tool_use_id")), "Write", {"file_path": path}))
            continue
        edits = [{"new_string": s, "replace_all": ra} for s, ra in pairs]
        out.append(LoggedUse(str(e.get("tool_use_id")), "MultiEdit", {"file_path": path, "edits": edits}))
    return out


def _pair(x) -> bool:
    return isinstance(x, list) and len(x) == 2 and isinstance(x[0], str) and isinstance(x[1], bool)


def _new_strings(u) -> list[tuple[str, bool]] | None:
    """(the text, replace_all) each edit left, or None when an edit's place cannot be found by it."""
    if u.name == "Edit":
        edits = [u.input]
    elif u.name == "MultiEdit" and isinstance(u.input.get("edits"), list):
        edits = u.input["edits"]
    else:
        return None  # a Write replaces the whole file
    out = []
    for e in edits:
        new = e.get("new_string") if isinstance(e, dict) else None
        if not isinstance(new, str) or not new.strip():
            return None  # a deletion leaves nothing to find
        out.append((new, e.get("replace_all") is True))
    return out


def _read(path: str) -> str | None:
    try:
        return read_regular_file(path, MAX_FILE_BYTES)[1].decode("utf-8")
    except (OSError, Unreadable, UnicodeDecodeError, ValueError):
        return None


def _lines(path: str, strings: list[tuple[str, bool]] | None) -> Ranges | None:
    if strings is None or len(strings) > MAX_STRINGS:
        return None
    text = _read(path)
    if text is None:
        return None
    out = []
    for s, every in strings:
        at, hits = text.find(s), 0
        if at == -1:
            return None  # edited again since, or never as written: the whole file
        if not every and text.find(s, at + 1) != -1:
            # one place was edited, and the file holds the text at several: which one cannot be
            # told from the file, so none is credited (a wrong credit inflates `stats`)
            continue
        while at != -1 and hits < MAX_HITS:
            first = text.count("\n", 0, at) + 1
            out.append((first, first + s.rstrip("\n").count("\n")))
            at, hits = text.find(s, at + len(s)), hits + 1
    return out


def touched(memory, edited: set, ranges: dict, root: str, parsed: dict) -> bool:
    """Whether the turn's edits met one of the memory's anchors: an anchor on an edited file whose
    lines the edits meet, or whose place cannot be told (a whole-file anchor, an edit placed
    nowhere, a symbol not found by its name: renamed by the edit, it may be what was edited).
    `parsed`: the symbols of files already analyzed, shared between memories."""
    for a in memory.anchors:
        if a.path not in edited:
            continue
        lines = ranges.get(a.path)
        if lines is None or a.type == "file" or not a.symbol:
            return True
        if a.path not in parsed:
            parsed[a.path] = _symbols(os.path.join(root, a.path), a.path)
        symbols = parsed[a.path]
        hits = [s for s in symbols or () if s.qualname == a.symbol and disc_matches(a.discriminator, s.discriminator)]
        if not hits or any(
            a0 <= max(s.end_line for s in hits) and min(s.start_line for s in hits) <= b0 for a0, b0 in lines
        ):
            return True
    return False


def _symbols(full: str, rel: str):
    text = _read(full)
    if text is None:
        return None
    from tether.anchor.extract import analyze  # tree-sitter: only for an edit placed in a file

    return analyze(rel, text.encode("utf-8")).symbols
