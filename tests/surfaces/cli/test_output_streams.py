"""Where the CLI's output goes when its streams misbehave: a reader that leaves mid-answer, a
closed stdout, a full disk. Each gets one line and the documented exit code, never a traceback
(the CLI exits without the interpreter's teardown, so nothing may be left to a final flush)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

import pytest

SRC = "def scan(rows):\n    return [r for r in rows if r]\n"


@pytest.fixture
def stocked(repo):
    """A repository whose `ls --json` is larger than a pipe's 64 KB buffer."""
    repo.write("src/a.py", SRC)
    repo.commit("a")
    for n in range(160):
        repo.run(
            "remember",
            f"Rows are scanned in batches of {n} because hosts cut long requests {n}.",
            "--anchor",
            "src/a.py::scan",
            "--force",
        )
    return repo


def sh(repo, tail: str) -> subprocess.CompletedProcess:
    """`tether --root REPO ARGS` under sh, with the redirections in `tail` (after its arguments)."""
    cmd = f"{shlex.quote(sys.executable)} -m tether --root {shlex.quote(str(repo.path))} {tail}"
    return subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, cwd=repo.path, timeout=300)


def test_a_reader_that_leaves_mid_answer_gets_exit_141_not_0(stocked):
    assert len(stocked.run("ls", "--json").stdout) > 65_536  # more than a Linux pipe holds
    # the reader takes one byte and leaves while the rest is still being written (bash: PIPESTATUS)
    proc = subprocess.run(
        [
            "bash",
            "-c",
            f"{shlex.quote(sys.executable)} -m tether --root {shlex.quote(str(stocked.path))} "
            "ls --json | head -c1 >/dev/null; echo ${PIPESTATUS[0]}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.stdout.strip() == "141" and "Traceback" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("args", ["check", "ls --json", "recall 'batches of rows' --json", "recall 'batches of rows'"])
def test_a_closed_stdout_is_one_line_and_exit_2(stocked, args):
    proc = sh(stocked, args + " >&-")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: error[") and "standard output is closed" in lines[0]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", ["ls --json", "ls", "--version", "recall 'batches of rows' --json"])
def test_a_full_disk_is_disk_full_and_exit_2(stocked, args):
    proc = sh(stocked, f"{args} > /dev/full")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: error[disk_full]"), proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_an_error_that_cannot_be_written_still_exits_2(stocked):
    assert sh(stocked, "show zzzz 2>/dev/full").returncode == 2


def test_the_hook_command_exits_0_with_stdout_closed(stocked):
    proc = sh(stocked, "hook UserPromptSubmit >&- <<'EOF'\n{}\nEOF")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr


def test_version_and_help_do_not_load_the_mcp_sdk(stocked):
    probe = (
        "import sys; sys.argv = ['tether', sys.argv[1]]\n"
        "from tether.surfaces.cli.main import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')), file=sys.stderr)"
    )
    for flag in ("--version", "--help"):
        proc = subprocess.run([sys.executable, "-c", probe, flag], capture_output=True, text=True, timeout=120)
        assert proc.stderr.strip().splitlines()[-1] == "[]", (flag, proc.stderr)
        assert proc.stdout.startswith("tether 0.") if flag == "--version" else "usage: tether" in proc.stdout


def test_main_called_in_process_writes_to_a_replaced_stdout(stocked, monkeypatch):
    """A library caller (or a test) that swaps sys.stdout for a StringIO still gets the answer."""
    import io

    from tether.surfaces.cli.main import main

    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["--root", str(stocked.path), "ls"]) == 0
    assert out.getvalue().count("active") == 160
