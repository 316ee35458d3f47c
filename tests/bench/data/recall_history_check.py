"""Verify recall_history.json against the real sdists it was written from.

Stdlib only. For each project in the data file it downloads (once) the pinned sdist
with ``python -m pip download --no-deps --no-binary :all: name==version`` into a
cache directory (default ``$XDG_CACHE_HOME/tether-bench/recall/``, i.e. ``~/.cache/...``), extracts it, and checks
every memory anchor ``<path inside the sdist root>::<Qualified.name>``:

* the file exists under the sdist's top directory;
* the first name part is a ``def``/``class`` in that file (module level, possibly
  inside ``if``/``try``/``with`` blocks), and each further part is a ``def``/``class``
  directly inside the previous class (``A.b`` means class ``A`` containing ``def b``).

It also checks the shape of the data (ids, kinds, splits, references). Exit status is
non-zero if anything fails.

Usage: python recall_history_check.py [--data PATH] [--cache DIR] [--offline]
"""

from __future__ import annotations

import argparse
import ast
import glob
import json
import os
import re
import subprocess
import sys
import tarfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.join(HERE, "recall_history.json")
DEFAULT_CACHE = os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
    "tether-bench",
    "recall",
)

KINDS = {"decision", "fact", "gotcha", "failed-attempt", "convention"}
SPLITS = {"train", "held_out"}
REQUIRED = ("id", "project", "kind", "anchor", "body", "summary", "history_source", "task", "split")
_BLOCKS = (ast.If, ast.Try, ast.With, ast.For, ast.While)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def find_sdist(cache: str, name: str, version: str, sdist: str | None) -> str | None:
    if sdist and os.path.isfile(os.path.join(cache, sdist)):
        return os.path.join(cache, sdist)
    norm = re.sub(r"[-_.]+", "[-_.]", name)
    for pattern in (f"{name}-{version}.tar.gz", f"{name}-{version}.zip"):
        hits = glob.glob(os.path.join(cache, pattern))
        if hits:
            return hits[0]
    for path in glob.glob(os.path.join(cache, "*")):
        base = os.path.basename(path)
        if re.fullmatch(rf"(?i){norm}-{re.escape(version)}\.(tar\.gz|zip)", base):
            return path
    return None


def download(cache: str, name: str, version: str) -> None:
    os.makedirs(cache, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--no-binary",
        ":all:",
        f"{name}=={version}",
        "-d",
        cache,
    ]
    print("  downloading:", " ".join(cmd[3:]), flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def extract(archive: str, dest_root: str) -> str:
    """Extract once; return the sdist's top directory."""
    base = os.path.basename(archive)
    stem = base[: -len(".tar.gz")] if base.endswith(".tar.gz") else os.path.splitext(base)[0]
    dest = os.path.join(dest_root, stem)
    marker = os.path.join(dest, ".extracted")
    if not os.path.exists(marker):
        os.makedirs(dest, exist_ok=True)
        if archive.endswith(".zip"):
            with zipfile.ZipFile(archive) as zf:
                for member in zf.namelist():
                    target = os.path.realpath(os.path.join(dest, member))
                    if not target.startswith(os.path.realpath(dest) + os.sep):
                        raise RuntimeError(f"unsafe path in {archive}: {member}")
                zf.extractall(dest)
        else:
            with tarfile.open(archive) as tf:
                if hasattr(tarfile, "data_filter"):
                    tf.extractall(dest, filter="data")
                else:  # pragma: no cover - old Pythons
                    for member in tf.getmembers():
                        target = os.path.realpath(os.path.join(dest, member.name))
                        if not target.startswith(os.path.realpath(dest) + os.sep):
                            raise RuntimeError(f"unsafe path in {archive}: {member.name}")
                    tf.extractall(dest)
        open(marker, "w").close()
    tops = [d for d in os.listdir(dest) if os.path.isdir(os.path.join(dest, d))]
    if len(tops) != 1:
        raise RuntimeError(f"{archive}: expected one top directory, found {tops}")
    return os.path.join(dest, tops[0])


def _children(node: ast.AST, name: str) -> list[ast.AST]:
    """defs/classes called ``name`` directly in node's body (looking through if/try/with)."""
    found = []
    stack = list(getattr(node, "body", []))
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, _DEFS):
            if stmt.name == name:
                found.append(stmt)
        elif isinstance(stmt, _BLOCKS):
            for field in ("body", "orelse", "finalbody"):
                stack.extend(getattr(stmt, field, []) or [])
            for handler in getattr(stmt, "handlers", []) or []:
                stack.extend(handler.body)
    return found


def resolve_ast(source: str, parts: list[str]) -> bool:
    tree = ast.parse(source)
    frontier: list[ast.AST] = [tree]
    for i, part in enumerate(parts):
        nxt = []
        for node in frontier:
            if i > 0 and not isinstance(node, ast.ClassDef):
                continue
            nxt.extend(_children(node, part))
        if not nxt:
            return False
        frontier = nxt
    return True


def resolve_regex(source: str, parts: list[str]) -> bool:
    """Fallback when the file does not parse: indentation-based scan."""
    lines = source.splitlines()
    start, indent = 0, -1
    for part in parts:
        pat = re.compile(rf"^(\s*)(?:async\s+)?(?:def|class)\s+{re.escape(part)}\b")
        hit = None
        for j in range(start, len(lines)):
            line = lines[j]
            if indent >= 0 and line.strip() and (len(line) - len(line.lstrip())) <= indent and j > start:
                break
            m = pat.match(line)
            if m and len(m.group(1)) > indent:
                hit = (j, len(m.group(1)))
                break
        if hit is None:
            return False
        start, indent = hit[0] + 1, hit[1]
    return True


def check_anchor(root: str, anchor: str) -> str | None:
    if "::" not in anchor:
        return "anchor has no '::'"
    rel, qual = anchor.split("::", 1)
    path = os.path.join(root, *rel.split("/"))
    if not os.path.isfile(path):
        return f"file not found: {rel}"
    parts = qual.split(".")
    if not all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p) for p in parts):
        return f"bad qualified name: {qual}"
    with open(path, encoding="utf-8", errors="replace") as f:
        source = f.read()
    try:
        ok = resolve_ast(source, parts)
    except SyntaxError:
        ok = resolve_regex(source, parts)
    return None if ok else f"no def/class chain {qual} in {rel}"


def check_shape(data: dict) -> list[str]:
    errors = []
    projects = data.get("projects", {})
    memories = data.get("memories", [])
    ids = set()
    for m in memories:
        missing = [k for k in REQUIRED if not m.get(k)]
        if missing:
            errors.append(f"{m.get('id', '?')}: missing {missing}")
            continue
        if m["id"] in ids:
            errors.append(f"{m['id']}: duplicate id")
        ids.add(m["id"])
        if m["project"] not in projects:
            errors.append(f"{m['id']}: unknown project {m['project']}")
        if not m["id"].startswith(m["project"] + "-"):
            errors.append(f"{m['id']}: id does not start with project name")
        if m["kind"] not in KINDS:
            errors.append(f"{m['id']}: bad kind {m['kind']}")
        if m["split"] not in SPLITS:
            errors.append(f"{m['id']}: bad split {m['split']}")
        else:
            num = int(m["id"].rsplit("-", 1)[1])
            want = "held_out" if num % 3 == 0 else "train"
            if m["split"] != want:
                errors.append(f"{m['id']}: split {m['split']} breaks the every-third-id rule")
    for r in data.get("related_prompts", []):
        if r.get("memory") not in ids or not r.get("prompt"):
            errors.append(f"related prompt with bad memory reference: {r}")
    for vid in data.get("vague_tasks", []):
        if vid not in ids:
            errors.append(f"vague_tasks names unknown memory {vid}")
    if not data.get("unrelated_prompts"):
        errors.append("no unrelated_prompts")
    return errors


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--cache", default=DEFAULT_CACHE)
    ap.add_argument("--offline", action="store_true", help="fail instead of downloading")
    args = ap.parse_args(argv)

    t0 = time.monotonic()
    with open(args.data, encoding="utf-8") as f:
        data = json.load(f)
    failures = check_shape(data)

    roots = {}
    for name, info in data["projects"].items():
        version = info["version"]
        archive = find_sdist(args.cache, name, version, info.get("sdist"))
        if archive is None:
            if args.offline:
                failures.append(f"{name}=={version}: sdist not cached and --offline given")
                continue
            download(args.cache, name, version)
            archive = find_sdist(args.cache, name, version, info.get("sdist"))
            if archive is None:
                failures.append(f"{name}=={version}: pip download produced no sdist")
                continue
        roots[name] = extract(archive, os.path.join(args.cache, "extracted"))
        print(f"  {name}=={version}: {os.path.basename(archive)}", flush=True)

    checked = 0
    for m in data["memories"]:
        root = roots.get(m.get("project"))
        if root is None:
            continue
        err = check_anchor(root, m["anchor"])
        checked += 1
        if err:
            failures.append(f"{m['id']}: {err}")

    elapsed = time.monotonic() - t0
    for line in failures:
        print("FAIL", line)
    n = len(data["memories"])
    print(f"{checked}/{n} anchors checked, {len(failures)} problem(s), {elapsed:.1f}s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
