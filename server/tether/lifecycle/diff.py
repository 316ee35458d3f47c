"""What changed: the anchored code then (snippet cache, else git) against now, as a compact diff."""

from __future__ import annotations

from pathlib import Path

from tether.store.memory import is_object_name

MAX_DIFF_LINES = 40


MAX_CHANGES_WEIGHED = 24  # past this many changes all are shown: weighing one is a parse


# difflib is imported where it is used: a push hook that finds its memory active never diffs.
def compact_diff(old: str, new: str, align: bool = True, path: str | None = None) -> str:
    """A unified diff of then and now, cut at MAX_DIFF_LINES. `align`: the texts are symbols, whose
    first line starts at the symbol's column (a whole file is compared as it is).

    With the symbol's `path`, the hunks that changed what the hash reads come first and the ones
    that only touch comments or docstrings fold into one line: a reworded docstring must not push
    the code edit that made the memory stale past the cut."""
    import difflib

    a, b = _aligned(old.splitlines(), new.splitlines()) if align else (old.splitlines(), new.splitlines())
    lines = list(difflib.unified_diff(a, b, "then", "now", n=1, lineterm=""))
    if lines and align and path is not None:
        lines = _code_first(lines, a, b, path)
    if len(lines) > MAX_DIFF_LINES:
        rest = len(lines) - MAX_DIFF_LINES
        lines = lines[:MAX_DIFF_LINES] + [f"... {rest} more diff lines"]
    return "\n".join(lines)


def _code_first(lines: list[str], a: list[str], b: list[str], path: str) -> list[str]:
    """The diff of the changes the hash saw, the comment- and docstring-only ones folded into a
    count. A change is cosmetic when applying it alone to the old text leaves the normalized
    tokens as they were; the code changes are then diffed against the old text on their own."""
    import difflib

    from tether.anchor.extract import code_tokens

    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    changes = [op for op in ops if op[0] != "equal"]
    if not 1 < len(changes) <= MAX_CHANGES_WEIGHED:
        return lines
    before = code_tokens(path, "\n".join(a))
    if before is None:
        return lines
    cosmetic = {
        op for op in changes if code_tokens(path, "\n".join(a[: op[1]] + b[op[3] : op[4]] + a[op[2] :])) == before
    }
    if not cosmetic or len(cosmetic) == len(changes):
        return lines
    seen = [x for op in ops for x in (a[op[1] : op[2]] if op[0] == "equal" or op in cosmetic else b[op[3] : op[4]])]
    folded = sum(i2 - i1 + j2 - j1 for _, i1, i2, j1, j2 in cosmetic)
    noun = "change" if len(cosmetic) == 1 else "changes"
    note = f"... {len(cosmetic)} {noun} ({folded} lines) only in comments or docstrings, not shown"
    return [*difflib.unified_diff(a, seen, "then", "now", n=1, lineterm=""), note]


def _aligned(a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    """Both sides' lines after the first (a symbol's text starts at its own column) at one
    indentation: a method taken out of its class reads as its edits, not as every line changed."""
    da, db = _indent(a[1:]), _indent(b[1:])
    if da > db:
        a = a[:1] + [line[da - db :] if line.strip() else line for line in a[1:]]
    elif db > da:
        b = b[:1] + [line[db - da :] if line.strip() else line for line in b[1:]]
    return a, b


def _indent(lines: list[str]) -> int:
    return min((len(line) - len(line.lstrip(" \t")) for line in lines if line.strip()), default=0)


def alike(then: str | None, now: str | None, threshold: float) -> bool:
    """Whether two texts are at least `threshold` alike (difflib's ratio); the cheap upper bounds
    are asked first, so most non-matches cost no full comparison."""
    if then is None or now is None:
        return False
    import difflib

    m = difflib.SequenceMatcher(None, then, now, autojunk=False)
    return m.real_quick_ratio() >= threshold and m.quick_ratio() >= threshold and m.ratio() >= threshold


def in_git(root: Path) -> bool:
    """Whether `root` is in a git work tree: `.git` there or in a parent (a store in a subdirectory)."""
    return any((d / ".git").exists() for d in (root, *root.parents))


def git_show(root: Path, rev: str, path: str, index: bool = False) -> bytes | None:
    """`path` as committed at `rev` (as staged, `index`), or None (no such revision or path, or
    git failed).

    `rev` comes from a memory file anyone can commit: only HEAD or a hex object name is asked,
    after `--end-of-options`, so no value can reach git as an option."""
    import subprocess  # like the parsing machinery, only when git is asked

    if index:
        rev = ""  # `:path` is the index's
    elif rev != "HEAD" and not is_object_name(rev):
        return None
    # `./`: relative to `root`, which may be a subdirectory of the repository (a monorepo's package)
    cmd = ["git", "cat-file", "blob", "--end-of-options", f"{rev}:./{path}"]
    try:
        return subprocess.run(cmd, cwd=root, capture_output=True, timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None


def text_from_git(root: Path, commit: str | None, path: str, hash_: str, symbol: str | None) -> str | None:
    """The anchored text as it was at `commit` (then HEAD), if git still has it with that hash."""
    found = file_from_git(root, commit, path, hash_, symbol is not None)
    if found is None:
        return None
    data, symbols, _ = found
    if symbol is None:
        return data.decode("utf-8", "replace")
    s = next(s for s in symbols if s.hash == hash_)
    return data[s.start_byte : s.end_byte].decode("utf-8", "replace")


def file_from_git(root: Path, commit: str | None, path: str, hash_: str, is_symbol: bool):
    """(bytes, symbols, revision) of `path` at the first of `commit`, HEAD that holds the anchored hash."""
    if not in_git(root):
        return None
    from tether.anchor.extract import analyze, content_hash

    for rev in dict.fromkeys(r for r in (commit, "HEAD") if r):
        data = git_show(root, rev, path)
        if data is None:
            continue
        if not is_symbol:
            if content_hash(data) == hash_:
                return data, (), rev
            continue
        symbols = analyze(path, data).symbols
        if any(s.hash == hash_ for s in symbols):
            return data, symbols, rev
    return None


# a commit's file never changes: its slots (qualified name, discriminator, hash) kept per process
_SLOTS_AT: dict[tuple[str, str, str], tuple[tuple[str, str | None, str], ...]] = {}
MAX_NAMES_AT = 512


def slots_at(root: Path, rev: str, path: str) -> tuple[tuple[str, str | None, str], ...]:
    """(qualified name, discriminator, hash) of each symbol `path` had at `rev`; empty if it did not
    exist then (or git could not say: that answer is not kept, so a passing failure is asked again).
    One check asks it of the same file and commit for each lost anchor, and a long-lived MCP server
    for every call."""
    key = (str(root), rev, path)
    if key in _SLOTS_AT:
        return _SLOTS_AT[key]
    data = git_show(root, rev, path)
    if data is None:
        return ()
    from tether.anchor.extract import analyze

    slots = tuple((s.qualname, s.discriminator, s.hash) for s in analyze(path, data).symbols)
    if len(_SLOTS_AT) >= MAX_NAMES_AT:
        _SLOTS_AT.clear()
    _SLOTS_AT[key] = slots
    return slots


def names_at(root: Path, rev: str, path: str) -> frozenset[str]:
    """Qualified names `path` had at `rev` (see `slots_at`)."""
    return frozenset(q for q, _, _ in slots_at(root, rev, path))


def head_commit(root: Path) -> str | None:
    """The commit HEAD names, or None outside git (a memory records it: later diffs read it)."""
    if not in_git(root):
        return None
    import subprocess

    try:
        out = subprocess.run(
            ["git", "rev-parse", "--verify", "-q", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None
