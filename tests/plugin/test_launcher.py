"""The launcher builds the plugin's venv once, under a lock, and rebuilds it when pyproject.toml changes.

Slow-ish on purpose: these tests really create venvs and pip-install into them (from the local
checkout, with whatever index and wheel cache pip is configured with), about a minute in all.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hooktools import RELATED, ROOT, billing_repo, context_of, failures, hook_env, payload, run_hook

LAUNCHER = ROOT / "hooks" / "launcher.py"


def plugin_env_module():
    """hooks/plugin_env.py, where the launcher, the build and the bridge learn where things are."""
    spec = importlib.util.spec_from_file_location("tether_plugin_env_under_test", LAUNCHER.parent / "plugin_env.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def history(data: Path) -> list[dict]:
    log = data / "launcher.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def launcher_env(tmp_path: Path, data: Path, **extra) -> dict:
    env = hook_env(tmp_path, None, CLAUDE_PLUGIN_DATA=str(data), TETHER_VENV=None, **extra)
    return {k: v for k, v in env.items() if v is not None}


def wait_for_install(data: Path, timeout: float = 600) -> None:
    """Until no install holds the lock (a hook's background install runs detached)."""
    import fcntl

    deadline = time.monotonic() + timeout
    lock = data / "install.lock"
    while time.monotonic() < deadline:
        if lock.exists():
            with open(lock, "a+") as f:
                try:
                    fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    fcntl.flock(f.fileno(), fcntl.LOCK_UN)
                    return
                except OSError:
                    pass
        time.sleep(0.5)
    raise AssertionError("the install never finished")


@pytest.mark.parametrize(
    "env",
    [
        {"CLAUDE_PLUGIN_DATA": "/x/plugin-data", "TETHER_HOME": "/y"},
        {"TETHER_HOME": "/y"},
        {"XDG_DATA_HOME": "/z/share"},
    ],
)
def test_the_launcher_and_the_package_agree_on_the_plugin_data_dir(monkeypatch, env):
    from tether.files.paths import plugin_data_dir

    for k in ("CLAUDE_PLUGIN_DATA", "TETHER_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(k, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert Path(plugin_env_module().data_dir()) == plugin_data_dir()


def test_concurrent_first_starts_build_one_venv_from_the_checkout(repo, tmp_path, tether_home):
    """The MCP server's `ensure`, a slash command's `ensure` and a hook all start at once."""
    billing = billing_repo(repo)
    data = tmp_path / "plugin-data"
    env = launcher_env(tmp_path, data)
    hook_env_ = dict(env, CLAUDE_PROJECT_DIR=str(repo.path))
    hook_env_.pop("TETHER_NO_AUTO_INSTALL")  # the hook may start a background install, as in real life
    starts = [
        subprocess.Popen(
            [sys.executable, str(LAUNCHER), "ensure"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(2)
    ]
    first_prompt = run_hook("UserPromptSubmit", _prompt(repo), hook_env_)
    outs = [p.communicate(timeout=900) for p in starts]
    assert [p.returncode for p in starts] == [0, 0], outs
    wait_for_install(data)
    assert (first_prompt.returncode, first_prompt.stdout) == (0, b"")  # never waits for the install

    actions = [h["action"] for h in history(data)]
    assert actions == ["install-start", "install-done"]
    (venv,) = (data / "venvs").iterdir()
    assert outs[0][0].decode().strip() == outs[1][0].decode().strip() == str(venv)
    ready = plugin_env_module().read_ready(str(data))
    assert ready["venv"] == str(venv) and ready["version"] == "%d.%d" % sys.version_info[:2]

    # the hooks now run in the plugin's own venv
    proc = run_hook("UserPromptSubmit", _prompt(repo), dict(hook_env_, TETHER_NO_AUTO_INSTALL="1"))
    assert billing["total"][:8] in context_of(proc)
    # and the CLI through the launcher, for slash commands
    cli = subprocess.run([sys.executable, str(LAUNCHER), "cli", "--version"], env=env, capture_output=True, text=True)
    assert (cli.returncode, cli.stdout.strip()) == (0, "tether 0.1.0"), cli.stderr
    assert subprocess.run([sys.executable, str(LAUNCHER), "ensure"], env=env, capture_output=True).returncode == 0
    assert [h["action"] for h in history(data)] == ["install-start", "install-done"]  # nothing rebuilt


def _prompt(repo) -> bytes:
    return payload(
        "user_prompt_submit.json", session="launcher-test", repo=str(repo.path), transcript="", prompt=RELATED
    )


def light_plugin(tmp_path: Path) -> Path:
    """A copy of the plugin with only the hooks' dependencies: a quicker install, to rebuild twice."""
    dst = tmp_path / "plugin"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    for d in ("hooks", "server"):
        shutil.copytree(ROOT / d, dst / d, ignore=ignore)
    for f in ("README.md", "LICENSE"):
        shutil.copy(ROOT / f, dst / f)
    text = (ROOT / "pyproject.toml").read_text()
    text = re.sub(r"(?ms)^dependencies = \[.*?^\]", 'dependencies = ["orjson>=3.10", "platformdirs>=4"]', text)
    (dst / "pyproject.toml").write_text(text)
    return dst


def test_a_changed_pyproject_triggers_a_reinstall(tmp_path, tether_home):
    plugin, data = light_plugin(tmp_path), tmp_path / "plugin-data"
    env = launcher_env(tmp_path, data, CLAUDE_PLUGIN_ROOT=str(tmp_path / "plugin"))
    launcher = [sys.executable, str(plugin / "hooks" / "launcher.py")]
    assert subprocess.run(launcher + ["ensure"], env=env, capture_output=True).returncode == 0
    first = plugin_env_module().read_ready(str(data))

    pyproject = plugin / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('version = "0.1.0"', 'version = "0.1.1"'))
    status = json.loads(subprocess.run(launcher + ["status"], env=env, capture_output=True, text=True).stdout)
    assert status["ready"] is False and "pyproject.toml changed" in status["why"]
    proc = subprocess.run(
        ["sh", "-c", f'python3 -S "{plugin}/hooks/stop.py"'], input=b"{}", env=env, capture_output=True
    )
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert "pyproject.toml changed" in failures(tether_home, data)[-1]["message"]

    assert subprocess.run(launcher + ["ensure"], env=env, capture_output=True).returncode == 0
    second = plugin_env_module().read_ready(str(data))
    assert second["key"] != first["key"] and second["sha256"] != first["sha256"]
    assert [h["action"] for h in history(data)] == ["install-start", "install-done"] * 2
    assert sorted(p.name for p in (data / "venvs").iterdir()) == sorted([first["key"], second["key"]])  # previous kept


def test_a_venv_record_for_another_interpreter_is_refused_not_looped(tmp_path, tether_home):
    data = tmp_path / "plugin-data"
    data.mkdir()
    crc = plugin_env_module().pyproject_crc(str(ROOT))
    (data / "venv.ready").write_text(
        f"python={sys.executable}\nversion=%d.%d\nimpl=cpython\nabiflags=x\ncrc={crc}\n" % sys.version_info[:2]
    )
    env = launcher_env(tmp_path, data)
    proc = subprocess.run(
        ["sh", "-c", f'python3 -S "{ROOT}/hooks/pre_compact.py"'], input=b"{}", env=env, capture_output=True
    )
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert "does not match" in failures(tether_home, data)[-1]["message"]


@pytest.mark.parametrize("how", ["TETHER_VENV", "venv.python", "PATH"])
def test_run_sh_starts_hooks_with_the_venv_python_not_a_path_shim(tmp_path, tether_home, how):
    shim_dir, marker = tmp_path / "shims", tmp_path / "shim-was-used"
    shim_dir.mkdir()
    shim = shim_dir / "python3"
    shim.write_text(f'#!/bin/sh\ntouch "{marker}"\nexec "{sys.executable}" "$@"\n')
    shim.chmod(0o755)
    data = tmp_path / "plugin-data"
    data.mkdir()
    env = launcher_env(tmp_path, data, PATH=f"{shim_dir}{os.pathsep}{os.environ['PATH']}")
    if how == "TETHER_VENV":
        env["TETHER_VENV"] = sys.prefix
    elif how == "venv.python":
        (data / "venv.python").write_text(sys.executable + "\n")
    proc = subprocess.run(
        ["sh", str(ROOT / "hooks" / "run.sh"), "pre_compact"], input=b"{}", env=env, capture_output=True
    )
    assert (proc.returncode, proc.stdout) == (0, b""), proc.stderr
    assert marker.exists() == (how == "PATH")


def test_slash_commands_can_name_the_data_dir_when_the_env_does_not(tmp_path):
    env = launcher_env(tmp_path, tmp_path / "unused")
    env.pop("CLAUDE_PLUGIN_DATA")
    given = tmp_path / "from-the-command"
    proc = subprocess.run(
        [sys.executable, str(LAUNCHER), "--data", str(given), "status"], env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["data"] == str(given)
