"""Where the plugin and its venv are, whether the venv is ready, and how to run in it.

Shared by launcher.py (the way in), venv_build.py (the build) and mcp_bridge.py (MCP while it
builds), and below all three: it imports none of them. Stdlib only, and only os and sys up front:
every hook process imports it before it knows where to go.
"""

import os
import sys

MIN_PYTHON = (3, 10)
READY = "venv.ready"  # the switch: written last, once a venv is complete
FAILURES = "hook-failures.jsonl"


# -- where things are -----------------------------------------------------------------------------
def plugin_root():
    env = os.environ.get("CLAUDE_PLUGIN_ROOT", "")
    if env and os.path.isfile(os.path.join(env, "pyproject.toml")):
        return os.path.abspath(env)
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def data_dir():
    """Mirrors tether.files.locate.plugin_data_dir (platformdirs' user_data_dir, computed with the stdlib)."""
    env = os.environ.get("CLAUDE_PLUGIN_DATA", "")
    if env:
        return env
    home = os.environ.get("TETHER_HOME", "")
    if home:
        return os.path.join(home, "data")
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
        return os.path.join(base, "tether", "tether")
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Application Support/tether")
    base = os.environ.get("XDG_DATA_HOME", "").strip() or os.path.expanduser("~/.local/share")
    return os.path.join(base, "tether")


def venv_python(venv):
    if os.name == "nt":
        return os.path.join(venv, "Scripts", "python.exe")
    return os.path.join(venv, "bin", "python")


def pyproject_crc(root):
    """A cheap fingerprint of pyproject.toml for the per-hook check (the venv key uses SHA-256)."""
    import zlib

    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        return "%08x" % (zlib.crc32(f.read()) & 0xFFFFFFFF)


# -- is a venv ready ------------------------------------------------------------------------------
def read_ready(data):
    """The `venv.ready` record as a dict (`site` is a list), or None."""
    try:
        with open(os.path.join(data, READY), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, ValueError):
        return None
    info = {"site": []}
    for line in lines:
        key, sep, value = line.partition("=")
        if not sep:
            continue
        if key == "site":
            info["site"].append(value)
        else:
            info[key] = value
    return info if info.get("python") and info.get("version") else None


def ready(root, data):
    """(info, None) for a usable venv, else (None, why not). Cheap: no subprocess."""
    override = os.environ.get("TETHER_VENV", "")
    if override:
        return _override(override)
    info = read_ready(data)
    if info is None:
        return None, "the venv is not installed yet (or venv.ready is damaged)"
    try:
        current = pyproject_crc(root)
    except OSError as e:
        return None, "cannot read pyproject.toml: %s" % e
    if info.get("crc") != current:
        return None, "pyproject.toml changed since the venv was built"
    if not os.path.exists(info["python"]):
        return None, "the venv's python is gone (was its base interpreter removed?)"
    return info, None


def _override(venv):
    """TETHER_VENV: use this venv as it is (development, tests); no stamp, no install."""
    py = venv_python(venv)
    if not os.path.exists(py):
        return None, "TETHER_VENV=%s has no python" % venv
    version = ""
    try:
        with open(os.path.join(venv, "pyvenv.cfg"), encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition("=")
                if key.strip() in ("version", "version_info"):
                    version = ".".join(value.strip().split(".")[:2])
    except OSError:
        pass
    if os.name == "nt":
        site = [os.path.join(venv, "Lib", "site-packages")]
    else:
        site = [os.path.join(venv, "lib", "python%s" % version, "site-packages")]
    return {"python": py, "venv": venv, "version": version, "impl": "cpython", "abiflags": "", "site": site}, None


# -- running in it ---------------------------------------------------------------------------------
def same_interpreter(info):
    """Can this process import the venv's compiled packages? Same implementation, version, ABI."""
    return (
        info.get("version") == "%d.%d" % sys.version_info[:2]
        and info.get("impl", "cpython") == sys.implementation.name
        and info.get("abiflags", "") == getattr(sys, "abiflags", "")
    )


def log_failure(event, kind, message):
    """Append to the plugin-level hook-failure log (the repository may not even be known here)."""
    try:
        import json
        import time

        path = os.path.join(data_dir(), FAILURES)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        entry = {
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "event": event,
            "error": kind,
            "message": " ".join(message.split())[:500],
            "session": None,
        }
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, (json.dumps(entry) + "\n").encode("utf-8"))
        finally:
            os.close(fd)
    except Exception:
        pass


def exec_(python, args, env):
    if os.name == "nt":  # no real exec on Windows: run it and pass the exit code on
        import subprocess

        sys.exit(subprocess.run([python] + list(args), env=env).returncode)
    os.execve(python, [python] + list(args), env)


def tether_command(info, args):
    """(python, args, env) that run `python -m tether ARGS...` in the venv `info` describes."""
    path = os.environ.get("PYTHONPATH", "")
    server = os.path.join(plugin_root(), "server")
    env = dict(os.environ, PYTHONPATH=server + (os.pathsep + path if path else ""))
    if env.pop("PYTHONDONTWRITEBYTECODE", ""):
        # as for the hooks (launcher.run_hook): no bytecode beside the plugin's sources, but not
        # none at all either, which would recompile tether on every command (~0.2 s of `doctor`)
        env.setdefault("PYTHONPYCACHEPREFIX", os.path.join(data_dir(), "pycache"))
    return info["python"], ["-m", "tether"] + list(args), env
