"""What the machine throws at tether: file names that are not UTF-8, a cache dir it cannot write, a
full or read-only disk, a name too long, a reader that closes the pipe. Each is a stable code in
one line, never `internal` or a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

SRC = "def fee(amount):\n    return round(amount * 0.029 + 0.30, 2)\n"


def _tether(cwd: Path, *args: str, env: dict | None = None, preexec=None, user: bool = False):
    cmd = [sys.executable, "-m", "tether", *args]
    if user:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=120, env={**os.environ, **(env or {})})


def _one_line_error(proc, code: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    err = proc.stderr.decode()
    assert "Traceback" not in err and err.count("\n") == 1 and f"error[{code}]" in err, err


def test_file_names_that_are_not_utf8_are_skipped_with_a_reason(repo):
    repo.write("src/fees.py", SRC)
    repo.commit("fees")
    (repo.path / os.fsdecode(b"src/caf\xe9.py")).write_text("def latin1_name():\n    return 1\n")
    (repo.path / os.fsdecode(b"d\xfe")).mkdir()
    (repo.path / os.fsdecode(b"d\xfe/x.py")).write_text("def h():\n    return 2\n")
    mid = repo.remember("Card fees are 2.9% plus 30 cents.", "src/fees.py::fee")
    out = repo.run("index")
    assert "skipped 2 files whose name is not UTF-8" in out.stdout and "caf\\xe9.py" in out.stdout
    data = repo.json("index")["data"]
    assert data["skipped_names_count"] == 2 and "src/caf\\xe9.py" in data["skipped_names"]
    repo.move("src/fees.py", "lib/fees.py")  # a sweep follows the move past the odd names
    (item,) = repo.json("check")["data"]
    assert item["id"] == mid and item["status"] == "active" and item["anchors"][0]["path"] == "lib/fees.py"


def test_an_argument_that_is_not_utf8_is_refused_in_one_line(repo):
    repo.write("src/fees.py", SRC)
    repo.commit("fees")
    proc = _tether(repo.path, "remember", "x", "--anchor", os.fsdecode(b"src/\xff.py::f"))
    _one_line_error(proc, "invalid_input")


def test_a_repository_whose_path_is_not_utf8_works(tmp_path):
    root = tmp_path / os.fsdecode(b"r\xff")
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / "fees.py").write_text(SRC)
    assert _tether(root, "remember", "Fees round to cents.", "--anchor", "fees.py::fee").returncode == 0
    proc = _tether(root, "check", "--json")
    assert proc.returncode == 0 and orjson.loads(proc.stdout)["data"][0]["status"] == "active"
    assert _tether(root, "status", "--json").returncode == 0


def test_a_name_too_long_is_a_stable_code(repo, tmp_path):
    repo.write("src/fees.py", SRC)
    repo.commit("fees")
    long = "a" * 300 + ".py"
    _one_line_error(_tether(repo.path, "remember", "x", "--anchor", f"src/{long}::f"), "name_too_long")
    _one_line_error(_tether(repo.path, "report", "--out", str(tmp_path / long)), "name_too_long")


needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("setpriv"),
    reason="needs root and setpriv to run the CLI as an unprivileged user",
)


@needs_root
def test_an_unwritable_cache_dir_is_permission_denied_and_doctor_still_reports(tmp_path):
    base = tmp_path / "world"  # pytest's tmp dirs are 0700: the other user needs its own tree
    base.mkdir()
    base.chmod(0o755)
    tmp_path.chmod(0o755)
    for p in tmp_path.parents:
        if p == Path("/tmp"):
            break
        p.chmod(p.stat().st_mode | 0o005)
    root = base / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / "fees.py").write_text(SRC)
    home = base / "home"
    home.mkdir()  # owned by root: the other user cannot create its cache there
    os.chown(root, 65534, 65534)
    os.chown(root / "fees.py", 65534, 65534)
    env = {"TETHER_HOME": str(home), "HOME": str(base)}
    proc = _tether(root, "remember", "Fees round to cents.", "--anchor", "fees.py::fee", env=env, user=True)
    _one_line_error(proc, "permission_denied")
    assert not (root / ".tether" / "memories").exists() or not list((root / ".tether" / "memories").iterdir())
    doctor = _tether(root, "doctor", env=env, user=True)
    assert doctor.returncode == 1 and b"Traceback" not in doctor.stderr, doctor.stderr
    assert b"cache" in doctor.stdout and b"FIX" in doctor.stdout


def _mount_tmpfs(path: Path, size: str) -> None:
    path.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.decode().strip()}")


@pytest.fixture
def mounted(tmp_path):
    made = []

    def mount(name: str, size: str = "1m") -> Path:
        p = tmp_path / name
        _mount_tmpfs(p, size)
        made.append(p)
        return p

    yield mount
    for p in made:
        subprocess.run(["umount", "-l", str(p)], capture_output=True)


@needs_root
def test_a_full_disk_is_disk_full(repo, mounted):
    repo.write("src/fees.py", SRC)
    repo.commit("fees")
    home = mounted("home", "512k")
    (home / "filler").write_bytes(b"\0" * (512 * 1024 - 4096 * 2))
    proc = _tether(repo.path, "--root", str(repo.path), "check", env={"TETHER_HOME": str(home)})
    if proc.returncode == 0:
        pytest.skip("the tiny tmpfs still had room for the cache")
    _one_line_error(proc, "disk_full")


@needs_root
def test_a_read_only_cache_dir_is_read_only(repo, mounted):
    repo.write("src/fees.py", SRC)
    repo.commit("fees")
    home = mounted("home")
    subprocess.run(["mount", "-o", "remount,ro", str(home)], check=True)
    proc = _tether(repo.path, "--root", str(repo.path), "check", env={"TETHER_HOME": str(home)})
    _one_line_error(proc, "read_only")


def _piped(repo, args: list[str], reader: str):
    cmd = f"{sys.executable} -m tether --root {repo.path} {' '.join(args)} | {reader}"
    return subprocess.run(["bash", "-c", cmd + '; echo "exit=${PIPESTATUS[0]}" >&2'], capture_output=True, timeout=120)


def test_a_reader_that_closes_the_pipe_ends_it_quietly(repo):
    repo.write("src/fees.py", SRC)
    repo.commit("fees")
    body = "Card fees are 2.9% plus 30 cents. " + "More context on fees. " * 400
    for n in range(12):  # enough output to fill a pipe's buffer
        repo.run("remember", f"{n}: {body}", "--anchor", "src/fees.py::fee", "--force")
    for args, reader in (
        (["ls"], "head -1"),
        (["check"], "true"),
        (["check", "--json"], "head -c 10"),
        (["export"], "true"),
    ):
        proc = _piped(repo, args, reader)
        err = proc.stderr.decode()
        assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, (args, err)
        assert err.strip().splitlines()[-1] in ("exit=0", "exit=141"), (args, err)


def test_bare_tether_prints_usage_and_exits_non_zero(tmp_path):
    proc = _tether(tmp_path)
    assert proc.returncode == 2 and b"usage: tether" in proc.stderr and b"Traceback" not in proc.stderr
