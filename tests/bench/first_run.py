"""The plugin's first-run venv build, with uv and with pip (issue 23, item 4; docs/first-run.md).

Each build is the real `hooks/launcher.py ensure` into an empty plugin data dir, from this checkout,
with the machine's pip configuration and warm wheel caches (a machine's first build ever also
downloads). Timed to the switch (`venv.ready` written: the MCP server starts on it from then on, as
launcher.jsonl's install-done records) and to the process's exit (bytecode compiled). Target: with
uv, the venv is ready within 10 s of the session's start, so the first tool call can be served
then (the real Claude Code run that times that call is tests/e2e/test_first_run.py).

    python -m tests.bench first_run
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.bench import ROOT, Table, workdir

TARGET_S = 10.0


def run(small: bool = False) -> list[Table]:
    table = Table("first-run venv build (launcher.py ensure, empty plugin data dir, warm caches)")
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    with workdir("first-run") as tmp:
        plugin = _light_plugin(tmp) if small else ROOT
        for installer in ("uv", "pip"):
            if installer == "uv" and uv is None:
                table.add("uv", "uv not found (it is in the [test] extras)")
                continue
            ready, total = _build(tmp / f"data-{installer}", plugin, installer, uv)
            target = installer == "uv" and not small
            table.add(
                f"{installer}: to the switch (venv.ready)",
                f"{ready:.1f} s",
                f"< {TARGET_S:.0f} s" if target else "",
                (ready < TARGET_S) if target else None,
            )
            table.add(f"{installer}: whole build, bytecode compiled", f"{total:.1f} s")
            table.data[installer] = {"ready": ready, "total": total}
    table.notes.append("before issue 23 item 4: python -m venv + pip install <plugin>, 31 s here (2 cores)")
    return [table]


def _build(data: Path, plugin: Path, installer: str, uv: str | None) -> tuple[float, float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "TETHER_"))}
    env.update(CLAUDE_PLUGIN_ROOT=str(plugin), CLAUDE_PLUGIN_DATA=str(data))
    if installer == "uv" and uv is not None:
        env["PATH"] = f"{Path(uv).parent}{os.pathsep}{env.get('PATH', '')}"
    else:
        env["TETHER_INSTALLER"] = "pip"
    started = time.time()
    proc = subprocess.run(
        [sys.executable, str(plugin / "hooks" / "launcher.py"), "ensure"], env=env, capture_output=True, text=True
    )
    total = time.time() - started
    if proc.returncode != 0:
        raise RuntimeError(f"the {installer} build failed: {proc.stderr[-2000:]}")
    done = [json.loads(line) for line in (data / "launcher.jsonl").read_text().splitlines()][-1]
    if done.get("installer") != installer:
        raise RuntimeError(f"asked for {installer}, built with {done.get('installer')}")
    return float(done["seconds"]), total


def _light_plugin(tmp: Path) -> Path:
    """The plugin with only two small dependencies, for --small (as tests/plugin/test_launcher.py)."""
    dst = tmp / "plugin"
    for d in ("hooks", "server"):
        shutil.copytree(ROOT / d, dst / d, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    text = (ROOT / "pyproject.toml").read_text()
    text = re.sub(r"(?ms)^dependencies = \[.*?^\]", 'dependencies = ["orjson>=3.10", "platformdirs>=4"]', text)
    (dst / "pyproject.toml").write_text(text)
    return dst
