"""What a change touched, asked of git: the files and line ranges between a base commit and the
working tree (tracked edits, staged or not, and untracked files git does not ignore), or the index
alone (`staged`), for `tether affected`.

A store may sit in a subdirectory of its repository (a monorepo's package): git names files from
the repository's top, anchors from the store's root, so paths outside the store's directory are
left out and the rest have the directory's prefix (`git rev-parse --show-prefix`) taken off.

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
    binary: bool = False


@dataclass(frozen=True, slots=True)
class Changes:
    """What one change touched: the files, against which commit, and how it was asked (a docstring
    of its own also keeps `dataclasses` from loading `inspect` on the CLI's read path)."""

    base: str  # the commit compared against (the merge-base with `ref`, else HEAD)
    ref: str | None  # what the user named, if anything
    files: tuple[FileChange, ...]
    prefix: str = ""  # the store's directory in its repository ("" at the top; else ending in "/")
    staged: bool = False  # the index against the base, not the working tree

    @property
    def unborn(self) -> bool:
        """The repository has no commit yet: the base is git's empty tree."""
        return self.base == EMPTY_TREE

    def by_old(self) -> dict[str, FileChange]:
        return {f.old: f for f in self.files if f.old is not None}

    def by_new(self) -> dict[str, FileChange]:
        return {f.new: f for f in self.files if f.new is not None}


def changes(root: Path, ref: str | None = None, staged: bool = False) -> Changes:
    """The working tree (or the index, `staged`) against HEAD, or against its merge-base with `ref`
    (a branch's whole change)."""
    prefix = repo_prefix(root)
    if prefix is None:
        raise InvalidInput(f"{root} is not in a git repository: affected reads the change from git")
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
        *(("--cached",) if staged else ()),
        base,
        "--",
    )
    files = [f for f in (_inside(f, prefix) for f in parse_patch(out)) if f is not None]
    if not staged:  # what the index does not hold is no part of a staged change
        seen = {f.new for f in files}
        untracked = _git(root, "ls-files", "-z", "--full-name", "--others", "--exclude-standard").split(b"\0")
        for u in untracked:
            p = _decode(u)
            if u and p.startswith(prefix) and p[len(prefix) :] not in seen:
                files.append(FileChange(None, p[len(prefix) :], (), WHOLE))
    return Changes(base, ref, tuple(files), prefix, staged)


def repo_prefix(root: Path) -> str | None:
    """`root`'s directory inside its git repository, as git spells it (`pkg/`, "" at the top), or
    None when `root` is in no git work tree."""
    try:
        proc = _run(root, "rev-parse", "--show-prefix")
    except (InvalidInput, OSError):  # git took too long, or is not installed
        return None
    if proc.returncode != 0:
        return None
    return proc.stdout.decode("utf-8", "surrogateescape").strip("\n")


def _inside(f: FileChange, prefix: str) -> FileChange | None:
    """`f` with paths relative to the store's directory; a side outside it is no file of the store
    (a move out of the directory reads as a deletion); None when neither side is inside."""
    if not prefix:
        return f
    old = f.old[len(prefix) :] if f.old is not None and f.old.startswith(prefix) else None
    new = f.new[len(prefix) :] if f.new is not None and f.new.startswith(prefix) else None
    if old is None and new is None:
        return None
    return FileChange(
        old,
        new,
        f.old_lines if old is not None else (),
        WHOLE if old is None and new is not None else f.new_lines,
        f.binary,
    )


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
            files.append(FileChange(cur["old"], cur["new"], whole_old, whole_new, cur["binary"]))

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
        raise InvalidInput(f"the base wants a git revision (a branch, tag or commit), not {ref[:80]!r}")
    commit = _commit(root, ref)
    if commit is None:
        raise NotFound(f"no commit {ref[:80]!r} in this repository (git rev-parse found none)", ref=ref[:80])
    head = _commit(root, "HEAD")
    if head is None:
        raise NotFound("HEAD names no commit yet: commit once before comparing against a base")
    proc = _run(root, "merge-base", commit, head)  # hex names only from here on
    base = proc.stdout.decode().strip()
    if proc.returncode != 0 or not base:
        if _run(root, "rev-parse", "--is-shallow-repository").stdout.strip() == b"true":
            raise NotFound(
                f"no merge-base of {ref[:80]!r} and HEAD in this shallow clone: fetch the whole history "
                "(`git fetch --unshallow`; in GitHub Actions, actions/checkout with `fetch-depth: 0`)",
                ref=ref[:80],
            )
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
