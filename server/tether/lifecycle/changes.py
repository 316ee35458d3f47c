"""What a change touched, asked of git: the files and line ranges between a base commit and the
working tree (tracked edits, staged or not, and untracked files), for `tether affected`.

Everything git prints here comes from file names anyone can commit, so the patch is parsed as a
state machine (a removed line `-- a/x` must not read as a header) and quoted names are unquoted
by git's own rules. Options that a user's git config could turn on (external diff drivers,
textconv, colour, no prefixes, a relative diff) are turned off on the command line.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tether.errors import InvalidInput, NotFound

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's empty tree: the base of a repo with no commit
WHOLE = ((1, 1 << 30),)  # every line: an untracked, binary or deleted file
MAX_REF_CHARS = 256
GIT_TIMEOUT_S = 60
_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ESCAPES = {b"a": 7, b"b": 8, b"t": 9, b"n": 10, b"v": 11, b"f": 12, b"r": 13, b'"': 34, b"\\": 92}


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file the change touched. `old`/`new`: its path at the base and now (None: added, deleted);
    `old_lines`/`new_lines`: the changed line ranges on each side, (first, last), 1-based."""

    old: str | None
    new: str | None
    old_lines: tuple[tuple[int, int], ...] = ()
    new_lines: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Changes:
    base: str  # the commit compared against (the merge-base with `ref`, else HEAD)
    ref: str | None  # what the user named, if anything
    files: tuple[FileChange, ...]

    def by_old(self) -> dict[str, FileChange]:
        return {f.old: f for f in self.files if f.old is not None}

    def by_new(self) -> dict[str, FileChange]:
        return {f.new: f for f in self.files if f.new is not None}


def changes(root: Path, ref: str | None = None) -> Changes:
    """The working tree against HEAD, or against its merge-base with `ref` (a branch's whole change)."""
    if not (root / ".git").exists():
        raise InvalidInput(f"{root} is not a git repository: affected reads the change from git")
    base = _merge_base(root, ref) if ref is not None else (_commit(root, "HEAD") or EMPTY_TREE)
    out = _git(
        root,
        "-c",
        "core.quotePath=true",
        "diff",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--no-relative",
        "--src-prefix=a/",
        "--dst-prefix=b/",
        "-M",
        "-U0",
        base,
        "--",
    )
    files = parse_patch(out)
    seen = {f.new for f in files}
    untracked = _git(root, "ls-files", "-z", "--others", "--exclude-standard").split(b"\0")
    files += [FileChange(None, p, (), WHOLE) for p in (_decode(u) for u in untracked if u) if p not in seen]
    return Changes(base, ref, tuple(files))


def overlaps(first: int | None, last: int | None, ranges: tuple[tuple[int, int], ...]) -> bool:
    """Whether lines first..last meet any of `ranges` (unknown lines: they do, if anything changed)."""
    if first is None or last is None:
        return bool(ranges)
    return any(a <= last and first <= b for a, b in ranges)


def parse_patch(out: bytes) -> list[FileChange]:
    """`git diff -U0` output as FileChanges. Headers are read only between `diff --git` and the
    first hunk; in a hunk, a line starts with +, - or \\ and never with `diff` or `@@`."""
    files: list[FileChange] = []
    cur: dict | None = None

    def done() -> None:
        if cur is not None and (cur["old"] != cur["new"] or cur["old_lines"] or cur["new_lines"] or cur["binary"]):
            whole_old = WHOLE if cur["binary"] or cur["new"] is None else tuple(cur["old_lines"])
            whole_new = WHOLE if cur["binary"] and cur["new"] is not None else tuple(cur["new_lines"])
            files.append(FileChange(cur["old"], cur["new"], whole_old, whole_new))

    in_hunk = False
    for line in out.split(b"\n"):
        if line.startswith(b"diff --git "):
            done()
            cur = {"old": None, "new": None, "old_lines": [], "new_lines": [], "binary": False, "named": False}
            cur["old"] = cur["new"] = _diff_git_path(line)
            in_hunk = False
        elif cur is None:
            continue
        elif line.startswith(b"@@ "):
            in_hunk = True
            m = _HUNK.match(line)
            if m:
                a, b = int(m.group(1)), int(m.group(2) or 1)
                c, d = int(m.group(3)), int(m.group(4) or 1)
                if b:
                    cur["old_lines"].append((a, a + b - 1))
                if d:
                    cur["new_lines"].append((c, c + d - 1))
        elif in_hunk:
            continue
        elif line.startswith(b"--- "):
            cur["old"] = _side(line[4:], b"a/")
        elif line.startswith(b"+++ "):
            cur["new"] = _side(line[4:], b"b/")
        elif line.startswith(b"rename from "):
            cur["old"] = _decode(_unquote(line[12:]))
        elif line.startswith(b"rename to "):
            cur["new"] = _decode(_unquote(line[10:]))
        elif line.startswith(b"new file mode"):
            cur["old"] = None
        elif line.startswith(b"deleted file mode"):
            cur["new"] = None
        elif line.startswith(b"Binary files ") or line == b"GIT binary patch":
            cur["binary"] = True
    done()
    return files


def _side(raw: bytes, prefix: bytes) -> str | None:
    # git ends a name holding a space with a tab (a tab in a name is always quoted, so it is no name's)
    raw = raw[:-1] if raw.endswith(b"\t") else raw
    if raw == b"/dev/null":
        return None
    name = _unquote(raw)
    return _decode(name[len(prefix) :] if name.startswith(prefix) else name)


def _diff_git_path(line: bytes) -> str | None:
    """The path of `diff --git a/P b/P` when both halves agree (a mode change, a new empty file,
    which have no ---/+++ lines); None when it cannot be told (the later headers name it)."""
    rest = line[len(b"diff --git ") :]
    if rest.startswith(b'"'):
        return None
    half = (len(rest) - 1) // 2
    a, b = rest[:half], rest[half + 1 :]
    if a.startswith(b"a/") and b.startswith(b"b/") and a[2:] == b[2:]:
        return _decode(a[2:])
    return None


def _unquote(raw: bytes) -> bytes:
    """git's C-style quoting (`"a\\tb\\303\\251"`) undone; an unquoted name as it is."""
    if not (raw.startswith(b'"') and raw.endswith(b'"') and len(raw) >= 2):
        return raw
    body, out, i = raw[1:-1], bytearray(), 0
    while i < len(body):
        ch = body[i : i + 1]
        if ch == b"\\" and i + 1 < len(body):
            nxt = body[i + 1 : i + 2]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            octal = body[i + 1 : i + 4]
            if re.fullmatch(rb"[0-7]{3}", octal):
                out.append(int(octal, 8) & 0xFF)
                i += 4
                continue
        out += ch
        i += 1
    return bytes(out)


def _decode(name: bytes) -> str:
    return name.decode("utf-8", "surrogateescape")


def _merge_base(root: Path, ref: str) -> str:
    """The merge-base of `ref` and HEAD. `ref` is the user's; it reaches git after
    `--end-of-options` only, never as an option."""
    if not ref or len(ref) > MAX_REF_CHARS or ref.startswith("-") or any(c in ref for c in "\0\n\r"):
        raise InvalidInput(f"--base wants a git revision (a branch, tag or commit), not {ref[:80]!r}")
    commit = _commit(root, ref)
    if commit is None:
        raise NotFound(f"no commit {ref[:80]!r} in this repository (git rev-parse found none)", ref=ref[:80])
    head = _commit(root, "HEAD")
    if head is None:
        raise NotFound("HEAD names no commit yet: commit once before comparing against a base")
    proc = _run(root, "merge-base", commit, head)  # hex names only from here on
    base = proc.stdout.decode().strip()
    if proc.returncode != 0 or not base:
        raise NotFound(f"{ref[:80]!r} and HEAD share no history: there is no merge-base to compare against")
    return base


def _commit(root: Path, rev: str) -> str | None:
    proc = _run(root, "rev-parse", "--verify", "-q", "--end-of-options", f"{rev}^{{commit}}")
    out = proc.stdout.decode("utf-8", "replace").strip()
    return out if proc.returncode == 0 and re.fullmatch(r"[0-9a-f]{40,64}", out) else None


def _git(root: Path, *args: str) -> bytes:
    proc = _run(root, *args)
    if proc.returncode != 0:
        why = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InvalidInput(
            f"git {args[0] if args[0] != '-c' else args[2]} failed: {why[0] if why else proc.returncode}"
        )
    return proc.stdout


def _run(root: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, timeout=GIT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise InvalidInput(f"git {args[0]} took over {GIT_TIMEOUT_S} s; nothing was compared") from None
