"""Where things are, as plain strings: the repository root, its cache and state dirs, the plugin's.

No pathlib here (its import is ~5 ms, a tenth of a silent prompt hook); `tether.files.paths` wraps these
in Path for everyone else.
"""

from __future__ import annotations

import os
import sys

from tether.errors import InvalidInput
from tether.files.read import read_state_file
from tether.files.write import replace_text

MARKERS = (".tether", ".git")


def find_root(explicit: str | os.PathLike | None = None, start: str | os.PathLike | None = None) -> str:
    """`--root`, then TETHER_ROOT, then the nearest ancestor of `start` holding .tether/ or .git/."""
    chosen = explicit or os.environ.get("TETHER_ROOT")
    if chosen:
        root = os.path.expanduser(os.fspath(chosen))  # `~nosuchuser` stays literal
        try:
            is_dir = os.path.isdir(root)
        except (OSError, ValueError):
            is_dir = False
        if not is_dir:
            raise InvalidInput(f"root {root!r} is not a directory")
        return os.path.realpath(root)
    here = os.path.realpath(os.fspath(start or os.getcwd()))
    candidate = here
    while True:
        if any(os.path.exists(os.path.join(candidate, m)) for m in MARKERS):
            return candidate
        parent = os.path.dirname(candidate)
        if parent == candidate:
            return here
        candidate = parent


def enclosing_repository(root: str | os.PathLike) -> tuple[str, str] | None:
    """The repository (or store) `root` lies in without being its root, and how: `inside` (a
    subdirectory of a work tree, or of a directory `tether init` made a store), `git_dir` (in its
    `.git/`), `store_dir` (in its `.tether/`), `bare` (in a bare repository, which has no work tree
    to anchor). None for a root that is one, and for a directory in none."""
    candidate = os.path.realpath(os.fspath(root))
    first = True
    while True:
        name = os.path.basename(candidate)
        if name == ".git":
            return os.path.dirname(candidate), "git_dir"
        if name == ".tether":
            return os.path.dirname(candidate), "store_dir"
        if _git_dir(candidate):
            return candidate, "bare"
        if any(os.path.exists(os.path.join(candidate, m)) for m in MARKERS):
            return None if first else (candidate, "inside")
        first = False
        parent = os.path.dirname(candidate)
        if parent == candidate:
            return None
        candidate = parent


def _git_dir(path: str) -> bool:
    """A git directory (a bare repository), as git itself recognizes one: HEAD, objects/, refs/."""
    join = os.path.join
    return (
        os.path.isfile(join(path, "HEAD"))
        and os.path.isdir(join(path, "objects"))
        and os.path.isdir(join(path, "refs"))
    )


def not_a_repository_root(root: str | os.PathLike, repo: str, how: str) -> str:
    """Why `root` is not where memories live, naming the repository it is in."""
    where = {
        "inside": f"is inside the repository {repo}, not its root",
        "git_dir": f"is inside the .git/ directory of the repository {repo}",
        "store_dir": f"is inside the .tether/ directory of {repo}",
        "bare": f"is inside the bare git repository {repo}, which has no work tree to anchor memories to",
    }[how]
    fix = "clone it and run tether in the clone" if how == "bare" else f"run tether in {repo} (or drop --root)"
    return f"{os.fspath(root)} {where}: its memories live at the repository's root; {fix}"


def short_hash(data: bytes, size: int) -> str:
    """blake2b of `data`, `size` bytes, in hex: without importing hashlib, which loads OpenSSL (a
    cost on every hook), where CPython has its own blake2 module."""
    try:
        from _blake2 import blake2b
    except ImportError:
        from hashlib import blake2b
    return blake2b(data, digest_size=size).hexdigest()


def repo_key(root: str | os.PathLike) -> str:
    """A per-repository directory name: readable base name plus a hash of the real path."""
    real = os.path.realpath(os.fspath(root))
    digest = short_hash(os.fsencode(real), 6)  # any bytes a path may hold
    name = os.path.basename(os.path.normpath(os.fspath(root)))  # as Path(root).name: `a/b/.` is `b`
    base = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:40] or "root"
    return f"{base}-{digest}"


def _home() -> str | None:
    """TETHER_HOME, made absolute: a relative one must not put caches wherever a command runs."""
    home = os.environ.get("TETHER_HOME")
    return os.path.abspath(home) if home else None


def cache_dir(root: str | os.PathLike) -> str:
    """Rebuildable caches (code index, memory search index). TETHER_HOME overrides."""
    home = _home()
    base = os.path.join(home, "cache") if home else user_dir("cache")
    return os.path.join(base, repo_key(root))


def state_dir(root: str | os.PathLike) -> str:
    """Per-machine state (usage log, hook sessions, ledger). TETHER_HOME overrides."""
    home = _home()
    base = os.path.join(home, "state") if home else user_dir("state")
    return os.path.join(base, repo_key(root))


def plugin_data_dir() -> str:
    """The Claude Code plugin's data dir (venv, launcher logs); mirrored by hooks/launcher.py."""
    data = os.environ.get("CLAUDE_PLUGIN_DATA")
    if data:
        return data
    home = _home()
    return os.path.join(home, "data") if home else user_dir("data")


# What platformdirs' answers depend on, besides the platform: the memo is keyed on these.
_DIR_ENV = ("HOME", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "ANDROID_DATA", "ANDROID_ROOT")
DIRS_MEMO = "platform-dirs.txt"  # the key (a repr: one line), then `kind<TAB>path` lines


def user_dir(kind: str) -> str:
    """platformdirs' user cache / state / data dir for tether, memoized.

    Importing platformdirs costs ~15 ms (it loads tempfile, shutil, random), more than a silent
    prompt hook's whole work, and a tenth of a CLI `check`. So its answers are kept under a key of
    everything they depend on (platform, HOME, XDG_*, ...): a changed environment asks platformdirs
    again. They are kept in the plugin's data dir inside Claude Code (CLAUDE_PLUGIN_DATA is always
    set), else in the virtual environment tether runs from (a venv is its user's own; a system
    Python's prefix is not written to: there platformdirs is asked every time).
    """
    memo_dir = os.environ.get("CLAUDE_PLUGIN_DATA") or (sys.prefix if sys.prefix != sys.base_prefix else None)
    key = repr((sys.platform, sorted((k, v) for k, v in os.environ.items() if k in _DIR_ENV or k.startswith("XDG_"))))
    memo = os.path.join(memo_dir, DIRS_MEMO) if memo_dir else None
    if memo:
        try:
            # plain lines, not JSON: a read that finds the memo imports nothing (json costs ~1 ms)
            lines = (read_state_file(memo) or b"").decode("utf-8").split("\n")
            saved = dict(line.split("\t", 1) for line in lines[1:] if "\t" in line)
            if lines[0] == key and saved.get(kind):
                return saved[kind]
        except (OSError, ValueError):
            pass
    import platformdirs

    dirs = {
        "cache": platformdirs.user_cache_dir("tether"),
        "state": platformdirs.user_state_dir("tether"),
        "data": platformdirs.user_data_dir("tether"),
    }
    text = "\n".join([key] + [f"{k}\t{v}" for k, v in dirs.items()]) + "\n"
    if memo and text.count("\n") == 4 and text.count("\t") == 3:  # repr() escapes the key's own
        assert memo_dir is not None  # memo is set only when memo_dir is
        try:
            os.makedirs(memo_dir, exist_ok=True)
            replace_text(memo, text)
        except OSError:
            pass  # a read-only data dir or venv: platformdirs is simply asked every time
    return dirs[kind]
