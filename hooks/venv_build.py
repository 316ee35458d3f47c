"""Building tether's venv for the launcher: pick a Python, lock, create, pip install, switch. Stdlib only.

A build goes into its own directory, venvs/<pyproject sha256[:16]>-<interpreter tag>, and becomes
the ready one only when `venv.ready` (and `venv.json`, for people and `tether status`) is replaced
atomically at the end: a crash or a kill mid-install leaves the previous venv in charge and a
directory the next build wipes. The previous venv is kept (a running MCP server may use it);
older ones are removed.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

import venv_installers
from plugin_env import MIN_PYTHON, READY, data_dir, plugin_root, pyproject_crc, ready, venv_python

LOCK = "install.lock"
POINTER_JSON = "venv.json"
PYTHON = "venv.python"
INSTALL_LOG = "install.log"
HISTORY = "launcher.jsonl"
FAILED = "install-failed.json"
RETRY_AFTER = 600  # seconds before a hook starts another background install after one failed
LOCK_WAIT = 1800  # seconds `mcp`, `cli` and `ensure` wait for another process's install


class LauncherError(Exception):
    pass


# -- choosing a Python ----------------------------------------------------------------------------
def find_python():
    """This interpreter if new enough, else the newest python3.x >= 3.10 on PATH."""
    if sys.version_info[:2] >= MIN_PYTHON:
        return sys.executable
    names = ["python3.%d" % m for m in range(14, MIN_PYTHON[1] - 1, -1)] + ["python3", "python"]
    for name in names:
        path = shutil.which(name)
        if path and _version_of(path) >= MIN_PYTHON:
            return path
    raise LauncherError("no Python >= %d.%d found on PATH (tether needs one)" % MIN_PYTHON)


def _version_of(python):
    try:
        out = subprocess.run(
            [python, "-c", "import sys; print('%d %d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=20,
        ).stdout.split()
        return (int(out[0]), int(out[1]))
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return (0, 0)


# -- the lock -------------------------------------------------------------------------------------
class FileLock:
    """An exclusive lock on a file: fcntl on POSIX, msvcrt on Windows. Released when the process dies."""

    def __init__(self, path):
        self.path = path
        self.f = None

    def acquire(self, timeout):
        """True once held; False if another process still holds it after `timeout` seconds."""
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self.f = open(self.path, "a+")
        deadline = time.monotonic() + timeout
        while not self._try():
            if time.monotonic() >= deadline:
                self.f.close()
                self.f = None
                return False
            time.sleep(0.2)
        return True

    def _try(self):
        try:
            if os.name == "nt":
                import msvcrt

                self.f.seek(0)
                msvcrt.locking(self.f.fileno(), msvcrt.LK_NBLCK, 1)
            else:
                import fcntl

                fcntl.flock(self.f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            return False

    def release(self):
        if self.f is not None:
            if os.name != "nt":
                import fcntl

                fcntl.flock(self.f.fileno(), fcntl.LOCK_UN)
            self.f.close()
            self.f = None


# -- building -------------------------------------------------------------------------------------
def ensure(root=None, data=None, wait=LOCK_WAIT, say=None):
    """The ready venv's record, building it first if needed (under the lock). Raises LauncherError."""
    root, data = root or plugin_root(), data or data_dir()
    info, _ = ready(root, data)
    if info is not None:
        return info
    lock = FileLock(os.path.join(data, LOCK))
    if not lock.acquire(wait):
        raise LauncherError("another tether install has held %s for over %ds" % (lock.path, wait))
    try:
        info, _ = ready(root, data)  # someone else may have finished while we waited
        return info if info is not None else _install(root, data, say or (lambda msg: None))
    finally:
        lock.release()


def _install(root, data, say):
    python = find_python()
    probe = _run_json([python, "-c", _PROBE])
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    tag = "%s%s%s" % (
        {"cpython": "cp"}.get(probe["impl"], probe["impl"]),
        probe["version"].replace(".", ""),
        probe["abiflags"],
    )
    key = "%s-%s" % (digest[:16], tag)
    venvs = os.path.join(data, "venvs")
    venv = os.path.join(venvs, key)
    log_path = os.path.join(data, INSTALL_LOG)
    uv = venv_installers.uv_binary()
    _history(data, {"action": "install-start", "key": key, "python": python, "root": root, "uv": uv})
    say("tether: installing its Python environment into %s (first run; log: %s)" % (venv, log_path))
    started = time.time()
    try:
        with open(log_path, "a", encoding="utf-8") as log:
            log.write("\n=== %s install %s from %s with %s\n" % (time.strftime("%Y-%m-%d %H:%M:%S"), key, root, python))
            log.flush()
            installer, py, site = _fill(root, data, python, probe, venv, uv, log)
    except Exception as e:
        _history(data, {"action": "install-failed", "key": key, "error": str(e)})
        _write(os.path.join(data, FAILED), json.dumps({"at": time.time(), "key": key, "error": str(e)}))
        raise LauncherError("installing the venv failed: %s (see %s)" % (e, log_path)) from e
    info = {
        "key": key,
        "venv": venv,
        "python": py,
        "crc": pyproject_crc(root),
        "sha256": digest,
        "version": probe["version"],
        "impl": probe["impl"],
        "abiflags": probe["abiflags"],
        "root": root,
        "installer": installer,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    lines = ["%s=%s" % (k, v) for k, v in info.items()] + ["site=%s" % s for s in site]
    _write(os.path.join(venv, "tether-stamp.txt"), "\n".join(lines) + "\n")
    _write(os.path.join(data, POINTER_JSON), json.dumps(dict(info, site=site), indent=1))
    _write(os.path.join(data, READY), "\n".join(lines) + "\n")  # the switch: atomic, and only now
    _write(os.path.join(data, PYTHON), py + "\n")  # for hooks/run.sh: start hooks with it, no PATH shim
    try:
        os.unlink(os.path.join(data, FAILED))
    except OSError:
        pass
    _prune(venvs, keep=key)
    seconds = round(time.time() - started, 1)
    _history(data, {"action": "install-done", "key": key, "seconds": seconds, "installer": installer})
    say("tether: environment ready")
    _model(python, probe, py, uv if installer == "uv" else None, log_path)
    _compile(py, site, log_path)
    return dict(info, site=site)


def _model(python, probe, py, uv, log_path):
    """The embedding model semantic recall runs (optional), once the venv is in use: a failure
    leaves recall lexical and the build a success; `tether doctor` says which. The next session's
    MCP server is the first to load it."""
    extra = os.environ.get("TETHER_PIP_ARGS", "").split()
    try:
        with open(log_path, "a", encoding="utf-8") as log:
            step = venv_installers.model_step(python, probe.get("pip") or (0, 0), py, uv, extra)
            if step is not None:
                _step(step[0], log, 900, env=step[1], label="the embedding model")
    except (LauncherError, OSError, subprocess.SubprocessError) as e:
        try:
            with open(log_path, "a", encoding="utf-8") as log:
                log.write("=== the embedding model was not installed: %s (recall stays lexical)\n" % e)
        except OSError:
            pass


def _compile(py, site, log_path):
    """Bytecode for everything installed (neither installer compiled it), once the venv is in use.

    After the switch, at a low priority: the MCP server that starts on the new venv at that moment
    gets the CPU first (it compiles what it imports itself); the rest is ready for the next start.
    A file that does not compile, or no compiling at all, is no reason for the build to fail.
    """
    low = {"preexec_fn": lambda: os.nice(10)} if hasattr(os, "nice") else {}
    try:
        with open(log_path, "a", encoding="utf-8") as log:
            subprocess.run(
                venv_installers.compile_step(py, site),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=600,
                **low,
            )
    except (OSError, subprocess.SubprocessError):
        pass


def _fill(root, data, python, probe, venv, uv, log):
    """Create `venv` and install the dependencies: uv when there is one (pip if it fails), else pip.

    (installer, venv python, site dirs). Only the dependencies: the code runs from the plugin's server/.
    """
    py = venv_python(venv)
    deps = venv_installers.project_dependencies(root)
    extra = os.environ.get("TETHER_PIP_ARGS", "").split()
    installer = None
    if uv is not None:
        steps, prepare = venv_installers.uv_steps(uv, python, venv, py, deps, extra)
        try:
            _steps(steps, log, data, prepare)
            installer = "uv"
        except (LauncherError, OSError, subprocess.SubprocessError) as e:
            log.write("=== uv failed (%s): installing with pip instead\n" % e)
            log.flush()
    if installer is None:
        _steps(venv_installers.pip_steps(python, probe.get("pip") or (0, 0), venv, py, deps, extra), log, data)
        installer = "pip"
    site = _run_json([py, "-c", _SITE])
    _step(
        [py, "-S", "-c", "import sys; sys.path[:0] = sys.argv[1:]; import tether.surfaces.hooks"]
        + [os.path.join(root, "server")]
        + site,
        log,
        120,
    )
    return installer, py, site


def _steps(steps, log, data, prepare=None):
    """Run (label, command) steps in order; `prepare(i, command)` may complete one and give its env."""
    venv = steps[0][1][-1]
    if os.path.exists(venv):
        shutil.rmtree(venv)  # half-built by a crash or a failed uv: never trusted, venv.ready comes last
    for i, (label, cmd) in enumerate(steps):
        cmd, env = prepare(i, cmd) if prepare else (cmd, None)
        _step(cmd, log, 1800, cwd=data, env=env, label=label)


_PROBE = (
    "import json, sys\n"
    "try:\n    import importlib.metadata as m; pip = [int(p) for p in m.version('pip').split('.')[:2]]\n"
    "except Exception:\n    pip = None\n"
    "print(json.dumps({'version': '%d.%d' % sys.version_info[:2], "
    "'impl': sys.implementation.name, 'abiflags': getattr(sys, 'abiflags', ''), 'pip': pip}))"
)
_SITE = (
    "import json, sysconfig; p = sysconfig.get_paths(); "
    "print(json.dumps(list(dict.fromkeys([p['purelib'], p['platlib']]))))"
)


def _step(cmd, log, timeout, cwd=None, env=None, label=None):
    log.write("$ %s\n" % " ".join(cmd))
    log.flush()
    proc = subprocess.run(
        cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, timeout=timeout, cwd=cwd, env=env
    )
    if proc.returncode != 0:
        raise LauncherError("%s exited %d" % (label or " ".join(cmd[:4]), proc.returncode))


def _run_json(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise LauncherError("%s failed: %s" % (cmd[0], out.stderr.strip()[-300:]))
    return json.loads(out.stdout)


def _prune(venvs, keep):
    """Drop older venvs; the previous one stays, as a running MCP server may still be using it."""
    try:
        others = sorted(
            (e for e in os.scandir(venvs) if e.is_dir() and e.name != keep), key=lambda e: e.stat().st_mtime
        )
    except OSError:
        return
    for e in others[:-1]:
        shutil.rmtree(e.path, ignore_errors=True)


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def _history(data, entry):
    entry = dict(entry, at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), pid=os.getpid())
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, HISTORY), "a", encoding="utf-8") as f:
        f.write(json.dumps(entry) + "\n")


# -- from a hook: never wait ----------------------------------------------------------------------
def start_background_install(data):
    """Start `launcher.py ensure` detached unless one is running or one failed recently.

    What became of the venv, for the hook to say: "started" or "running" (a normal first build or
    a rebuild after pyproject.toml changed: nothing failed), else why none runs, "failed" (the
    last install failed under RETRY_AFTER seconds ago; its error) or "disabled" (TETHER_NO_AUTO_INSTALL).
    """
    if os.environ.get("TETHER_NO_AUTO_INSTALL", "") not in ("", "0"):
        return "disabled", "TETHER_NO_AUTO_INSTALL is set, so nothing installs it: run `launcher.py ensure`"
    try:
        with open(os.path.join(data, FAILED), encoding="utf-8") as f:
            failed = json.load(f)
        if time.time() - float(failed.get("at", 0)) < RETRY_AFTER:
            return "failed", "the last install failed: %s (log: %s)" % (
                failed.get("error"),
                os.path.join(data, INSTALL_LOG),
            )
    except (OSError, ValueError, AttributeError, TypeError):
        pass
    lock = FileLock(os.path.join(data, LOCK))
    if not lock.acquire(0):
        return "running", None  # someone is installing right now
    lock.release()
    launcher = os.path.join(os.path.dirname(os.path.abspath(__file__)), "launcher.py")
    with open(os.path.join(data, INSTALL_LOG), "a", encoding="utf-8") as log:
        detach = {"start_new_session": True} if os.name != "nt" else {"creationflags": 0x00000008}  # DETACHED_PROCESS
        subprocess.Popen(
            [sys.executable, launcher, "ensure"],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            close_fds=True,
            **detach,
        )
    return "started", None
