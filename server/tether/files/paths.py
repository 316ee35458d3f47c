"""Where things live: the repository root, safe repo-relative paths, cache and state dirs."""

from __future__ import annotations

import os
from pathlib import Path

from tether.errors import InvalidInput, OutsideRoot
from tether.files.locate import (
    cache_dir as _cache_dir,
    find_root as _find_root,
    plugin_data_dir as _plugin_data_dir,
    state_dir as _state_dir,
)
from tether.files.private import PRIVATE_DIRS


def find_root(explicit: str | os.PathLike | None = None, start: str | os.PathLike | None = None) -> Path:
    """`--root`, then TETHER_ROOT, then the nearest ancestor of `start` holding .tether/ or .git/."""
    return Path(_find_root(explicit, start))


def repo_relative(root: Path, path: str, cwd: str | None = None) -> str:
    """A user-typed path as a POSIX path relative to `root`; refuses anything that leaves the root.

    Relative paths are read against the root, or against the working directory when that is
    inside the root and the file is there. Symlinks are followed before the check, so a link
    pointing outside the repository is refused like `../`. Existence is the caller's concern.
    """
    if "\0" in path:
        raise InvalidInput("path contains a NUL byte")
    try:
        p = Path(path).expanduser()
    except RuntimeError:  # `~name` of an unknown user: take it literally
        p = Path(path)
    if p.is_absolute():
        candidates = [p]
    else:
        candidates = [root / p]
        if cwd:
            c = Path(cwd).resolve()
            if c != root and _inside(c, root):
                candidates.insert(0, c / p)
    chosen = Path(os.path.normpath(next((c for c in candidates if _exists(c)), candidates[-1])))
    if not _inside(chosen, root):
        # the root is stored resolved; an absolute path may reach it through a symlinked ancestor
        # (/tmp vs /private/tmp). Resolve only the parent so a symlinked file keeps its own name.
        chosen = _real(chosen.parent, path) / chosen.name
    real = _real(chosen, path)
    if not _inside(chosen, root) or not _inside(real, root):
        raise OutsideRoot(f"{path!r} is outside the repository root {str(root)!r}")
    rel = chosen.relative_to(root).as_posix()
    real_rel = real.relative_to(root).as_posix()
    if rel == "." or real_rel == ".":
        raise InvalidInput(f"{path!r} is not an anchorable file")
    for name in (rel, real_rel):
        parts = name.split("/")
        if any(p.casefold() in PRIVATE_DIRS for p in parts):
            raise InvalidInput(f"{path!r} is inside .git/ or .tether/, which are never anchored")
    return rel


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except OSError:
        return False


def _exists(p: Path) -> bool:
    try:
        return p.exists()
    except OSError:  # a name too long for the filesystem, a permission wall: not there for us
        return False


def _real(p: Path, typed: str) -> Path:
    """The path with every symlink followed (also dangling ones, so a link to outside is seen)."""
    try:
        return p.resolve()
    except (RuntimeError, OSError):
        raise InvalidInput(f"{typed!r} cannot be resolved (a symlink loop?)") from None


def _inside(p: Path, root: Path) -> bool:
    return p == root or root in p.parents


def cache_dir(root: Path) -> Path:
    return Path(_cache_dir(root))


def state_dir(root: str | Path) -> Path:
    return Path(_state_dir(root))


def plugin_data_dir() -> Path:
    return Path(_plugin_data_dir())


def hook_failure_logs(root: str | Path | None) -> list[Path]:
    """Where failed hooks are recorded for `tether doctor`: the repository's state dir, then the plugin's."""
    logs = [state_dir(root) / "hook-failures.jsonl"] if root is not None else []
    return logs + [plugin_data_dir() / "hook-failures.jsonl"]
