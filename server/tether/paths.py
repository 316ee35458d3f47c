"""Where things live: the repository root, safe repo-relative paths, cache and state dirs."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import InvalidInput, OutsideRoot

MARKERS = (".tether", ".git")


def find_root(explicit: str | os.PathLike | None = None, start: str | os.PathLike | None = None) -> Path:
    """`--root`, then TETHER_ROOT, then the nearest ancestor of `start` holding .tether/ or .git/."""
    chosen = explicit or os.environ.get("TETHER_ROOT")
    if chosen:
        root = Path(chosen)
        try:
            root = root.expanduser()
        except RuntimeError:  # `~nosuchuser`: take it literally, and fail below if it is no directory
            pass
        if not _is_dir(root):
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
    tops = {rel.split("/", 1)[0], real.relative_to(root).as_posix().split("/", 1)[0]}
    if rel == "." or tops & {".", ".git", ".tether"}:
        raise InvalidInput(f"{path!r} is not an anchorable file")
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


def repo_key(root: Path) -> str:
    """A per-repository directory name: readable base name plus a hash of the real path."""
    try:  # the C module hashlib wraps: importing hashlib loads OpenSSL, a cost on every hook
        from _blake2 import blake2b
    except ImportError:
        from hashlib import blake2b
    digest = blake2b(str(root.resolve()).encode(), digest_size=6).hexdigest()
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


def plugin_data_dir() -> Path:
    """The Claude Code plugin's data dir (venv, launcher logs); mirrored by hooks/launcher.py."""
    data = os.environ.get("CLAUDE_PLUGIN_DATA")
    if data:
        return Path(data)
    home = os.environ.get("TETHER_HOME")
    if home:
        return Path(home) / "data"
    import platformdirs

    return Path(platformdirs.user_data_dir("tether"))


def hook_failure_logs(root: Path | None) -> list[Path]:
    """Where failed hooks are recorded for `tether doctor`: the repository's state dir, then the plugin's."""
    logs = [state_dir(root) / "hook-failures.jsonl"] if root is not None else []
    return logs + [plugin_data_dir() / "hook-failures.jsonl"]
