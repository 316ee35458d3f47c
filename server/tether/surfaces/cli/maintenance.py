"""Commands that look after a repository's tether: `status`, `doctor`, `init`, `index`, `report`, `demo`."""

from __future__ import annotations

import json
import os
import sqlite3
import webbrowser

try:
    import fcntl
except ImportError:  # Windows: whether an install is running is not known there
    fcntl = None  # type: ignore[assignment]

from tether.files import failure_log
from tether.files.paths import plugin_data_dir
from tether.files.read import read_state_file
from tether.lifecycle.views import envelope, staleness
from tether.store.untracked import untracked_memories, untracked_note
from tether.surfaces import report as html_report
from tether.surfaces.cli import demo as lifecycle_demo, doctor as diagnosis
from tether.surfaces.cli.args import Add, repository
from tether.surfaces.cli.output import Result
from tether.surfaces.hooks.handlers import floor
from tether.surfaces.hooks.runner import push_off


def register(add: Add) -> None:
    add(
        "status", "how many memories, how many stale or quarantined; push-recall, plugin venv, hook failures"
    ).set_defaults(handler=status)
    add(
        "doctor", "check Python, grammars, cache, store, secret allowlist and hook failures; say what to fix"
    ).set_defaults(handler=doctor)
    add("init", "keep memories in this directory though it is no git repository (makes .tether/)").set_defaults(
        handler=init
    )
    add("index", "index the whole repository now (normally incremental and on demand)").set_defaults(handler=index)
    s = add(
        "report", "write one self-contained HTML page: store health, a map of the repository, every memory and its diff"
    )
    s.add_argument(
        "--out",
        metavar="PATH",
        help="where to write it (default: report.html in this repository's "
        "per-machine state dir, outside the repository, so it is never committed)",
    )
    s.add_argument("--open", action="store_true", help="open it in the default browser")
    s.set_defaults(handler=report)
    s = add("demo", "run the anchor lifecycle on a throwaway git repository and print the real output")
    s.add_argument("--keep", action="store_true", help="keep the demo repository")
    s.set_defaults(handler=demo)


def status(args) -> Result:
    """What /tether:status shows: counts, push-recall, the plugin's venv, recent hook failures."""
    t = repository(args)
    checked = t.check(with_diff=False)
    counts = staleness(checked.verdicts)
    n = len(checked.verdicts)
    active = n - counts["stale"] - counts["invalidated"]
    venv = _venv(plugin_data_dir())
    recent = failure_log.read(t.root, limit=5)
    untracked = untracked_memories(t.root)
    data = {
        "root": str(t.root),
        "memories": n,
        "active": active,
        **counts,
        "quarantined": len(checked.quarantined),
        "push_recall": {"on": not push_off(), "floor": floor()},
        "venv": venv,
        "hook_failures": recent,
        "untracked": untracked or [],
    }
    lines = [
        f"tether status for {t.root}",
        f"memories:      {n} ({active} active, {counts['stale']} stale, {counts['invalidated']} invalidated), "
        f"{len(checked.quarantined)} quarantined",
        "push-recall:   " + ("off (TETHER_PUSH_OFF)" if push_off() else f"on (floor {floor():g})"),
        "plugin venv:   " + _venv_line(venv),
    ]
    note = untracked_note(untracked)
    if note:
        lines.append(f"untracked:     {note}")
    if recent:
        last = recent[-1]
        lines.append(
            f"hook failures: {len(recent)} recent, latest {last.get('at')} {last.get('event')}: "
            f"{last.get('error')} {last.get('message', '')}".rstrip()
        )
    else:
        lines.append("hook failures: none recorded")
    return Result(envelope(data, t.freshness(), **counts), "\n".join(lines))


def _venv_line(venv: dict) -> str:
    if venv.get("ready"):
        return f"ready ({venv['venv']})"
    if not os.environ.get("CLAUDE_PLUGIN_DATA"):
        # from a shell the plugin's data dir is unknown: its venv is Claude Code's to build, no problem here
        return "not known from a shell (Claude Code builds it in the plugin's data dir at first use)"
    if venv.get("building"):
        return f"building ({venv.get('why')}): the first session's tools wait for it, nothing failed"
    return f"not ready ({venv.get('why')})"


def _venv(data) -> dict:
    """The launcher's pointer file (hooks/launcher.py writes it once a venv is complete)."""
    try:
        info = json.loads(read_state_file(data / "venv.json") or b"")
    except ValueError:
        return {"ready": False, "why": f"no venv recorded in {data}", **_venv_state(data)}
    if not isinstance(info, dict):
        return {"ready": False, "why": "venv.json is damaged"}
    ok = isinstance(info.get("python"), str) and os.path.exists(info["python"])
    return {"ready": ok, "venv": info.get("venv"), "why": None if ok else "the venv's python is gone"}


def _venv_state(data) -> dict:
    """Not ready yet: being built (a first run, not a problem), or its last build failed (one)."""
    if _install_running(data):
        return {"ready": False, "building": True, "why": f"being built now (log: {data / 'install.log'})"}
    try:
        failed = json.loads(read_state_file(data / "install-failed.json") or b"")
        return {"ready": False, "failed": True, "why": f"its install failed: {failed.get('error')}"}
    except (ValueError, AttributeError):
        return {}


def _install_running(data) -> bool:
    """Whether hooks/venv_build.py holds its install lock (fcntl: POSIX; elsewhere unknown, so no)."""
    if fcntl is None:
        return False
    try:
        with open(data / "install.lock", "rb") as f:
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return True
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)
    except OSError:
        pass
    return False


def doctor(args) -> Result:
    t = repository(args)
    findings = diagnosis.diagnose(t)
    code = 0 if all(f.ok for f in findings) else 1
    try:  # doctor must work where the cache cannot: it is what says why
        fresh = t.freshness()
    except (OSError, sqlite3.Error):
        fresh = {"indexed_at": None, "dirty": 0, "swept": False}
    return Result(envelope([f.view() for f in findings], fresh), diagnosis.render(findings), code)


def init(args) -> Result:
    """The one explicit way to a store outside git: `remember` never makes `.tether/` unasked there."""
    t = repository(args)
    had = t.store.dir.is_dir()
    t.store.ensure(init=True)
    text = f"{'a tether store already is' if had else 'made a tether store'} in {t.store.dir}"
    return Result(envelope({"root": str(t.root), "created": not had}, t.freshness()), text)


def index(args) -> Result:
    t = repository(args)
    stats = t.reindex()
    stats["embedded"] = t.memindex.fill_vectors()  # semantic recall's vectors, all of them (none without the model)
    text = f"indexed {stats['files']} files ({stats['parsed']} parsed, {stats['removed']} removed)"
    if stats["embedded"]:
        text += f"; embedded {stats['embedded']} memories for semantic recall"
    if stats.get("skipped_names_count"):
        n = stats["skipped_names_count"]
        text += (
            f"\nskipped {n} file{'s' if n != 1 else ''} whose name is not UTF-8 (cannot be anchored): "
            + ", ".join(stats["skipped_names"][:5])
            + (" ..." if n > 5 else "")
        )
    return Result(envelope(stats, t.freshness()), text)


def report(args) -> Result:
    t = repository(args)
    path, data = html_report.write(t, args.out)
    c = data["counts"]
    text = (
        f"wrote {path}\n{c['active']} active, {c['stale']} stale, {c['invalidated']} invalidated, "
        f"{c['quarantined']} quarantined; {c['superseded'] + c['retired']} closed"
    )
    if args.open and not webbrowser.open(path.as_uri()):
        text += "\nno browser found: open the file above in any browser"
    return Result(
        envelope({"file": str(path), "counts": c}, t.freshness(), stale=c["stale"], invalidated=c["invalidated"]), text
    )


def demo(args) -> Result:
    return Result(None, "", lifecycle_demo.run(keep=args.keep), raw=True)
