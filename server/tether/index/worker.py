"""What a sweep does with one file, in whichever process parses it: read, analyze, make rows.

Module functions, not CodeIndex methods: a worker process runs them on a batch of paths and sends
back plain tuples, the cheapest thing to pickle.
"""

from __future__ import annotations

import os
import stat
import time

from tether.files.read import Unreadable, open_regular
from tether.files.stamps import change_stamp

TYPE_CHECKING = False  # not `typing`'s: the prompt hook imports this module (change_stamp)
if TYPE_CHECKING:
    from pathlib import Path

    from tether.anchor.model import FileFacts


def root_prefix(root: str | Path) -> str:
    """The root as a string prefix: `prefix + rel` names the same file as `root / rel` and skips
    pathlib's parsing, which cost a third of a 50k-file sweep."""
    return os.path.join(os.fspath(root), "")


def read_regular(root: str | Path, rel: str) -> tuple[os.stat_result, bytes] | None:
    """Stat and read a regular file that stays inside the root; None if it is gone or not a file."""
    full = root_prefix(root) + rel
    try:  # never blocks on a FIFO, never follows a link swapped in after the listing
        fd, st = open_regular(full)
    except (OSError, Unreadable):
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return st, data


def is_regular(st: os.stat_result) -> bool:
    return stat.S_ISREG(st.st_mode)


def analyze_batch(root: str, groups: list[list[str]]) -> list[tuple]:
    """Rows ready for the index, as plain tuples: they cross a process boundary, and pickling
    thousands of Symbol objects costs more than building the rows where they are parsed.

    `groups`: files of one size and extension each. Within a group, a file whose bytes were
    already analyzed under the same key is not parsed again: vendored trees hold many copies.
    """
    from hashlib import blake2b

    from tether.anchor.extract import analysis_key

    out: list = []
    for group in groups:
        seen: dict = {}
        for rel in group:
            got = read_regular(root, rel)
            if got is None:
                out.append((rel, None, None))
                continue
            st, data = got
            checked = time.time_ns()
            facts: FileFacts | None
            if len(group) == 1:
                facts = safe_analyze(rel, data)
            else:
                key = (analysis_key(rel), blake2b(data, digest_size=16).digest())
                facts = seen.get(key)
                if facts is None:
                    facts = seen[key] = safe_analyze(rel, data)
            out.append(rows_of(rel, st.st_mtime_ns, change_stamp(st), len(data), checked, facts))
    return out


def by_size_and_extension(rels: list[str], sizes: dict[str, int]) -> list[list[str]]:
    """`rels` grouped by size and extension, in order of first appearance: every copy of a file
    is in one group, and nearly every group is a single file."""
    groups: dict[tuple[int, str], list[str]] = {}
    for rel in rels:
        groups.setdefault((sizes.get(rel, -1), os.path.splitext(rel)[1]), []).append(rel)
    return list(groups.values())


def rows_of(rel: str, mtime_ns: int, change: int, size: int, checked: int, facts: FileFacts) -> tuple:
    file_row = (rel, mtime_ns, change, size, checked, facts.hash, facts.language, facts.skipped)
    symbol_rows = [
        (
            rel,
            s.qualname,
            s.discriminator,
            s.kind,
            s.start_line,
            s.end_line,
            s.start_byte,
            s.end_byte,
            s.hash,
            s.entropy,
        )
        for s in facts.symbols
    ]
    return rel, file_row, symbol_rows


def analyze_chunk(job: tuple[str, list[list[str]]]) -> list[tuple]:
    return analyze_batch(*job)


def past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() >= deadline


def safe_analyze(rel: str, data: bytes) -> FileFacts:
    """Extraction never takes the index down: a file that breaks a parser is indexed as a plain file."""
    # imported where it is used: a read of unchanged files (every hook, every check) never parses
    from tether.anchor.extract import analyze, content_hash
    from tether.anchor.model import FileFacts

    try:
        return analyze(rel, data)
    except (RecursionError, MemoryError, ValueError, RuntimeError):
        return FileFacts(None, content_hash(data), len(data), (), "error")
