#!/usr/bin/env python3
"""tether's launcher: the plugin's Python venv, created on first use, and the way into it.

Stdlib only, and plain enough syntax for an old python3 to run it far enough to find a newer one.

    launcher.py [--data DIR] COMMAND   DIR: the plugin data dir, when CLAUDE_PLUGIN_DATA is not set

    launcher.py mcp            `python -m tether mcp` in the venv, behind mcp_bridge.py, which answers
                               `initialize` at once (and everything, while it builds a missing venv)
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
the background and exit 0 silently. That is the normal first run, not a failure: only a venv that
nothing can build (its install failed, or TETHER_NO_AUTO_INSTALL) goes to hook-failures.jsonl,
where `tether doctor` shows it.

This module is on every hook's path, so it imports only os and sys up front; `venv.ready` is plain
`key=value` lines for the same reason (no json, no hashlib before the hook knows where to go).
"""

import os
import sys

from plugin_env import data_dir, exec_, log_failure, plugin_root, ready, same_interpreter, tether_command


# -- hooks ----------------------------------------------------------------------------------------
def run_hook(event):
    """Run one hook and exit 0, always; in this process when the venv's Python matches this one."""
    try:
        root, data = plugin_root(), data_dir()
        info, why = ready(root, data)
        if info is None:
            import venv_build

            # A first build (or a rebuild after an update) is no failure: the hook just sits this
            # one out. Only a venv that nothing is building, or whose build failed, is logged.
            state, reason = venv_build.start_background_install(data)
            if state == "failed":
                log_failure(event, "VenvInstallFailed", "%s; %s" % (why, reason))
            elif state == "disabled":
                log_failure(event, "VenvNotReady", "%s; %s" % (why, reason))
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
            import gc

            # A hook's process is short: as for tether's CLI (cli/main.py `entry`), the collector's
            # passes over import-time objects free nothing, and the interpreter's teardown is skipped.
            gc.set_threshold(20000, 10, 10)
            from tether.surfaces.hooks import main

            code = main(event)  # it has written and flushed its output, closed its caches, and never raises
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
            os._exit(code)
        if os.environ.get("TETHER_LAUNCHER_HOPPED"):
            raise RuntimeError("the venv's python does not match its own record; rebuild it: launcher.py ensure")
        env = dict(os.environ, TETHER_LAUNCHER_HOPPED="1")
        exec_(info["python"], ["-S", os.path.abspath(__file__), "hook", event], env)
    except SystemExit:
        raise
    except BaseException as e:  # fail open: nothing on stdout, exit 0, the reason in the log
        log_failure(event, type(e).__name__, str(e))
        sys.exit(0)


# -- the MCP server and the CLI -------------------------------------------------------------------
def run_tether(args):
    import venv_build

    info = venv_build.ensure(plugin_root(), data_dir(), say=lambda msg: print(msg, file=sys.stderr, flush=True))
    exec_(*tether_command(info, args))


def run_mcp(args):
    """The MCP server, behind mcp_bridge, which answers `initialize` at once from mcp_tools.json.

    With the venv ready, the real server starts at the same moment and takes the connection over
    once the handshake is answered: the real one needs 0.6-1.5 s to import the MCP SDK first.
    Without it, the first install (3-15 s on a warm cache, a minute on a cold one) could outlast
    the 30 s Claude Code gives a server to answer `initialize`, and it never reconnects: so the
    bridge also builds the venv in the background and hands over when it is ready.
    """
    info, _ = ready(plugin_root(), data_dir())
    import mcp_bridge

    sys.exit(mcp_bridge.serve(["mcp"] + list(args), info))


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
