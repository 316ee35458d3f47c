#!/usr/bin/env python3
"""tether's launcher: the plugin's Python venv, created on first use, and the way into it.

Stdlib only, and plain enough syntax for an old python3 to run it far enough to find a newer one.

    launcher.py [--data DIR] COMMAND   DIR: the plugin data dir, when CLAUDE_PLUGIN_DATA is not set

    launcher.py mcp            exec `python -m tether mcp` in the venv; while there is none, answer
                               MCP at once (mcp_bridge.py), build it, then hand over to the real server
    launcher.py cli ARGS...    ensure the venv, then exec `python -m tether ARGS...`
    launcher.py hook EVENT     what hooks/*.py do: run one hook, fail open
    launcher.py ensure         create or refresh the venv now (what a background install runs)
    launcher.py status         print the venv's state as JSON

The venv lives under ${CLAUDE_PLUGIN_DATA} (fallback: TETHER_HOME/data, then the platform's user
data dir), one directory per (pyproject.toml hash, Python version); `venv.ready` names the ready
one. It is built under a file lock (venv_build.py), so the MCP server and a hook starting at the
same moment never build it twice or see it half-built. The code always runs from the plugin's own
`server/` (first on sys.path): the venv supplies the dependencies, so editing the plugin needs no
reinstall, while a pyproject.toml change does. Hooks never wait for an install: they start one in
the background, exit 0 silently, and log why in hook-failures.jsonl (shown by `tether doctor`).

This module is on every hook's path, so it imports only os and sys up front; `venv.ready` is plain
`key=value` lines for the same reason (no json, no hashlib before the hook knows where to go).
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
    """Mirrors tether.paths.plugin_data_dir (platformdirs' user_data_dir, computed with the stdlib)."""
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


# -- hooks ----------------------------------------------------------------------------------------
def run_hook(event):
    """Run one hook and exit 0, always; in this process when the venv's Python matches this one."""
    try:
        root, data = plugin_root(), data_dir()
        info, why = ready(root, data)
        if info is None:
            import venv_build

            started = venv_build.start_background_install(data)
            log_failure(event, "VenvNotReady", why + ("; installing it in the background" if started else ""))
            sys.exit(0)
        if same_interpreter(info):
            if sys.dont_write_bytecode:
                # PYTHONDONTWRITEBYTECODE would make every hook recompile tether (~35 ms): keep the
                # bytecode in the plugin's data dir instead, never beside anyone's sources.
                sys.pycache_prefix = os.path.join(data, "pycache")
                sys.dont_write_bytecode = False
            here = os.path.dirname(os.path.abspath(__file__))
            site = list(info["site"])
            sys.path[:] = [os.path.join(root, "server")] + site + [p for p in sys.path if p != here and p not in site]
            from tether.hooks import main

            sys.exit(main(event))
        if os.environ.get("TETHER_LAUNCHER_HOPPED"):
            raise RuntimeError("the venv's python does not match its own record; rebuild it: launcher.py ensure")
        env = dict(os.environ, TETHER_LAUNCHER_HOPPED="1")
        exec_(info["python"], ["-S", os.path.abspath(__file__), "hook", event], env)
    except SystemExit:
        raise
    except BaseException as e:  # fail open: nothing on stdout, exit 0, the reason in the log
        log_failure(event, type(e).__name__, str(e))
        sys.exit(0)


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
        entry = {"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "event": event, "error": kind,
                 "message": " ".join(message.split())[:500], "session": None}
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


# -- the MCP server and the CLI -------------------------------------------------------------------
def tether_command(info, args):
    """(python, args, env) that run `python -m tether ARGS...` in the venv `info` describes."""
    path = os.environ.get("PYTHONPATH", "")
    server = os.path.join(plugin_root(), "server")
    return info["python"], ["-m", "tether"] + list(args), dict(os.environ, PYTHONPATH=server + (os.pathsep + path if path else ""))


def run_tether(args):
    import venv_build

    info = venv_build.ensure(plugin_root(), data_dir(), say=lambda msg: print(msg, file=sys.stderr, flush=True))
    exec_(*tether_command(info, args))


def run_mcp(args):
    """The MCP server: exec'd straight when the venv is ready (the usual case, nothing in between).

    Otherwise the first install (22-60 s) would outlast the 30 s Claude Code gives a server to
    answer `initialize`, and it never reconnects: the tools would be missing for the whole session.
    So mcp_bridge answers the handshake itself at once, builds the venv in the background, and hands
    the connection over to the real server when it is ready.
    """
    info, _ = ready(plugin_root(), data_dir())
    if info is not None:
        exec_(*tether_command(info, ["mcp"] + list(args)))
    import mcp_bridge

    sys.exit(mcp_bridge.serve(["mcp"] + list(args)))


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--data"] and len(argv) > 1:
        # slash commands pass ${CLAUDE_PLUGIN_DATA} this way: their Bash runs without the plugin's env
        if argv[1]:
            os.environ["CLAUDE_PLUGIN_DATA"] = argv[1]
        argv = argv[2:]
    cmd = argv[0] if argv else "status"
    if cmd == "hook" and len(argv) == 2:
        run_hook(argv[1])
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import venv_build

    try:
        if cmd == "mcp":
            run_mcp(argv[1:])
        elif cmd == "cli":
            run_tether(argv[1:])
        elif cmd == "ensure":
            info = venv_build.ensure(plugin_root(), data_dir(), say=lambda msg: print(msg, file=sys.stderr, flush=True))
            print(info.get("venv") or info["python"])
        elif cmd == "status":
            import json

            info, why = ready(plugin_root(), data_dir())
            print(json.dumps({"ready": info is not None, "why": why, "data": data_dir(), "venv": info}, indent=1))
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except venv_build.LauncherError as e:
        print("tether: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
