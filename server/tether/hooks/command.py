"""CLI commands for the plugin: `tether hook EVENT` (the hook scripts' handlers, on stdin; exits 0)
and `tether status` (what /tether:status shows: counts, push-recall, the venv, hook failures)."""

from __future__ import annotations

import json
import os

from ..cli import Result, command
from ..safe_read import read_state_file


@command("hook")
def hook(args) -> Result:
    from .runner import main

    if args.root:
        os.environ["TETHER_ROOT"] = args.root
    main(args.event)
    return Result(None, "", 0, raw=True)


@command("status")
def status(args) -> Result:
    from ..paths import plugin_data_dir
    from ..service import Tether
    from ..views import envelope, staleness
    from . import failures
    from .handlers import floor
    from .runner import push_off

    t = Tether(args.root, os.getcwd())
    checked = t.check(with_diff=False)
    counts = staleness(checked.verdicts)
    n = len(checked.verdicts)
    active = n - counts["stale"] - counts["invalidated"]
    venv = _venv(plugin_data_dir())
    recent = failures.read(t.root, limit=5)
    data = {
        "root": str(t.root),
        "memories": n,
        "active": active,
        **counts,
        "quarantined": len(checked.quarantined),
        "push_recall": {"on": not push_off(), "floor": floor()},
        "venv": venv,
        "hook_failures": recent,
    }
    lines = [
        f"tether status for {t.root}",
        f"memories:      {n} ({active} active, {counts['stale']} stale, {counts['invalidated']} invalidated), "
        f"{len(checked.quarantined)} quarantined",
        "push-recall:   " + ("off (TETHER_PUSH_OFF)" if push_off() else f"on (floor {floor():g})"),
        "plugin venv:   " + (f"ready ({venv['venv']})" if venv.get("ready") else f"not ready ({venv.get('why')})"),
    ]
    if recent:
        last = recent[-1]
        lines.append(f"hook failures: {len(recent)} recent, latest {last.get('at')} {last.get('event')}: "
                     f"{last.get('error')} {last.get('message', '')}".rstrip())
    else:
        lines.append("hook failures: none recorded")
    return Result(envelope(data, t.freshness(), **counts), "\n".join(lines))


def _venv(data) -> dict:
    """The launcher's pointer file (hooks/launcher.py writes it once a venv is complete)."""
    try:
        info = json.loads(read_state_file(data / "venv.json") or b"")
    except ValueError:
        return {"ready": False, "why": f"no venv recorded in {data}"}
    if not isinstance(info, dict):
        return {"ready": False, "why": "venv.json is damaged"}
    ok = isinstance(info.get("python"), str) and os.path.exists(info["python"])
    return {"ready": ok, "venv": info.get("venv"), "why": None if ok else "the venv's python is gone"}
