"""Which files belong to the repository: git's view when there is one, a pruned walk otherwise."""

from __future__ import annotations

import os
from pathlib import Path

from tether.files.private import private_path

# Never indexed, wherever they appear: VCS data, tether itself, dependency and build caches.
PRUNED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".tether",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".gradle",
        ".idea",
        "bower_components",
        ".next",
        ".cache",
    }
)


def is_git_repo(root: Path) -> bool:
    return (root / ".git").exists()


def list_files(root: Path) -> tuple[list[str], list[str]]:
    """Repo-relative POSIX paths of every candidate file, honouring .gitignore where git is present;
    and, apart, the names that are not UTF-8 (shown with their odd bytes as `\xff`), which are
    skipped: an anchor is a JSON string and the index is SQLite text, both UTF-8 only. Credential
    files and nested `.git/` directories are not candidates at all."""
    listed = _git_files(root) if is_git_repo(root) else None
    files = [p for p in listed if not _pruned(p)] if listed is not None else _walk(root)
    files = [p for p in files if not private_path(p)]  # never indexed, so nothing is ever followed there
    good = [p for p in files if _utf8(p)]
    if len(good) == len(files):
        return files, []
    return good, [
        p.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace") for p in files if not _utf8(p)
    ]


def _utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # os.fsdecode keeps undecodable bytes as lone surrogates
        return False
    return True


def _pruned(rel: str) -> bool:
    parts = rel.split("/")
    return any(part in PRUNED_DIRS for part in parts[:-1])


def _git_files(root: Path) -> list[str] | None:
    import subprocess  # ~10 ms to import; a read of anchored files never lists the repository

    try:
        out = subprocess.run(
            ["git", "-c", "core.quotepath=off", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root,
            capture_output=True,
            timeout=60,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    seen: set[str] = set()
    files = []
    for raw in out.split(b"\0"):
        if raw:
            rel = os.fsdecode(raw)
            if rel not in seen:
                seen.add(rel)
                files.append(rel)
    return files


def _walk(root: Path) -> list[str]:
    files: list[str] = []
    base = str(root)
    for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
        dirnames[:] = [
            d for d in dirnames if d not in PRUNED_DIRS and not os.path.exists(os.path.join(dirpath, d, "pyvenv.cfg"))
        ]
        rel_dir = os.path.relpath(dirpath, base)
        for name in filenames:
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            files.append(rel.replace(os.sep, "/"))
    return files
