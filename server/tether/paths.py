"""Where things live: the repository root, safe repo-relative paths, cache and state dirs."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .errors import InvalidInput, OutsideRoot

MARKERS = (".tether", ".git")


def find_root(explicit: str | os.PathLike | None = None, start: str | os.PathLike | None = None) -> Path:
    """`--root`, then TETHER_ROOT, then the nearest ancestor of `start` holding .tether/ or .git/."""
    chosen = explicit or os.environ.get("TETHER_ROOT")
    if chosen:
        root = Path(chosen).expanduser()
        if not root.is_dir():
            raise InvalidInput(f"root {str(root)!r} is not a directory")
        return root.resolve()
    here = Path(start or os.getcwd()).resolve()
    for candidate in (here, *here.parents):
        if any((candidate / m).exists() for m in MARKERS):
            return candidate
    return here


def repo_relative(root: Path, path: str, cwd: str | None = None) -> str:
    """A user-typed path as a POSIX path relative to `root`; refuses anything that leaves the root.

    Relative paths are read against the root, or against the working directory when that is
    inside the root and the file is there. Symlinks are followed before the check, so a link
    pointing outside the repository is refused like `../`. Existence is the caller's concern.
    """
    if "\0" in path:
        raise InvalidInput("path contains a NUL byte")
    p = Path(path).expanduser()
    if p.is_absolute():
        candidates = [p]
    else:
        candidates = [root / p]
        if cwd:
            c = Path(cwd).resolve()
            if c != root and _inside(c, root):
                candidates.insert(0, c / p)
    chosen = Path(os.path.normpath(next((c for c in candidates if c.exists()), candidates[-1])))
    if not _inside(chosen, root) or (chosen.exists() and not _inside(chosen.resolve(), root)):
        raise OutsideRoot(f"{path!r} is outside the repository root {str(root)!r}")
    rel = chosen.relative_to(root).as_posix()
    if rel == "." or rel.split("/", 1)[0] in (".git", ".tether"):
        raise InvalidInput(f"{path!r} is not an anchorable file")
    return rel


def _inside(p: Path, root: Path) -> bool:
    return p == root or root in p.parents


def repo_key(root: Path) -> str:
    """A per-repository directory name: readable base name plus a hash of the real path."""
    digest = hashlib.blake2b(str(root.resolve()).encode(), digest_size=6).hexdigest()
    base = "".join(c if c.isalnum() or c in "-_." else "_" for c in root.name)[:40] or "root"
    return f"{base}-{digest}"


def cache_dir(root: Path) -> Path:
    """Rebuildable caches (code index, memory search index). TETHER_HOME overrides."""
    home = os.environ.get("TETHER_HOME")
    if home:
        return Path(home) / "cache" / repo_key(root)
    import platformdirs

    return Path(platformdirs.user_cache_dir("tether")) / repo_key(root)


def state_dir(root: Path) -> Path:
    """Per-machine state (usage log, hook sessions, ledger). TETHER_HOME overrides."""
    home = os.environ.get("TETHER_HOME")
    if home:
        return Path(home) / "state" / repo_key(root)
    import platformdirs

    return Path(platformdirs.user_state_dir("tether")) / repo_key(root)
