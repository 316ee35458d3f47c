"""A directory that is neither a git repository nor a tether store: reads warn, writes refuse,
and `tether init` is the one explicit way to keep memories there."""

from __future__ import annotations

import subprocess
import sys

import orjson

WARNING = "tether: warning[not_a_repository]:"


def tether(cwd, *args: str) -> subprocess.CompletedProcess:
    """The CLI run in `cwd`, no --root: the root is found (or not) from the working directory."""
    return subprocess.run([sys.executable, "-m", "tether", *args], cwd=cwd, capture_output=True, text=True)


def plain(tmp_path):
    d = tmp_path / "Downloads"
    d.mkdir()
    (d / "tool.py").write_text("def run(x):\n    return x * 41 + len(str(x))\n", encoding="utf-8")
    return d


def test_remember_and_import_refuse_and_make_no_store(tmp_path, repo):
    d = plain(tmp_path)
    proc = tether(d, "remember", "run scales x", "--anchor", "tool.py::run", "--json")
    assert proc.returncode == 2
    err = orjson.loads(proc.stdout)["error"]
    assert err["code"] == "not_a_repository" and "tether init" in err["message"]
    assert not (d / ".tether").exists()
    repo.write("tool.py", (d / "tool.py").read_text())
    repo.remember("run scales x by forty-one", "tool.py::run")
    (d / "export.json").write_text(repo.run("export").stdout)
    proc = tether(d, "import", "export.json")
    assert proc.returncode == 2 and "error[not_a_repository]" in proc.stderr
    assert not (d / ".tether").exists()


def test_reads_warn_with_the_code_and_keep_stdout_clean(tmp_path):
    d = plain(tmp_path)
    proc = tether(d, "check", "--json")
    assert proc.returncode == 0 and proc.stderr.startswith(WARNING)
    assert orjson.loads(proc.stdout)["data"] == []
    assert tether(d, "status").stderr.startswith(WARNING)


def test_init_makes_a_store_there_and_the_warning_stops(tmp_path):
    d = plain(tmp_path)
    out = orjson.loads(tether(d, "init", "--json").stdout)["data"]
    assert out["created"] is True and (d / ".tether" / "memories").is_dir()
    proc = tether(d, "remember", "run scales x by forty-one", "--anchor", "tool.py::run", "--json")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert tether(d, "check").stderr == ""
    assert orjson.loads(tether(d, "init", "--json").stdout)["data"]["created"] is False


def test_a_git_repository_needs_no_init(repo):
    repo.write("tool.py", "def run(x):\n    return x * 41 + len(str(x))\n")
    proc = repo.run("remember", "run scales x by forty-one", "--anchor", "tool.py::run")
    assert proc.stderr == "" and len(repo.memory_files()) == 1


def test_init_refuses_in_a_directory_a_repository_holds_and_names_it(repo, tmp_path):
    repo.write("src/pkg/tool.py", "def run(x):\n    return x * 41 + len(str(x))\n")
    repo.commit("code")
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    (bare / "hooks").mkdir(exist_ok=True)
    places = [repo.path / "src", repo.path / "src" / "pkg", repo.path / ".git", repo.path / ".git" / "refs"]
    repo.remember("run scales x by forty-one", "src/pkg/tool.py::run")
    places += [repo.path / ".tether", bare, bare / "hooks"]
    for d in places:
        proc = tether(d, "--root", str(d), "init", "--json")
        err = orjson.loads(proc.stdout)["error"]
        assert proc.returncode == 2 and err["code"] == "inside_repository", (d, err)
        named = bare if d in (bare, bare / "hooks") else repo.path
        assert err["repository"] == str(named.resolve()) and str(named.resolve()) in err["message"]
    assert not (repo.path / "src" / ".tether").exists() and not (repo.path / ".git" / ".tether").exists()
    assert not (bare / ".tether").exists() and not (repo.path / ".tether" / ".tether").exists()
    proc = tether(repo.path, "init", "--json")  # the repository's own root is where a store belongs
    assert proc.returncode == 0 and orjson.loads(proc.stdout)["data"]["created"] is False


def test_a_read_rooted_in_a_subdirectory_names_the_enclosing_repository(repo):
    repo.write("src/tool.py", "def run(x):\n    return x * 41 + len(str(x))\n")
    repo.remember("run scales x by forty-one", "src/tool.py::run")
    proc = tether(repo.path, "--root", str(repo.path / "src"), "ls")
    assert proc.stderr.startswith(WARNING) and "neither a git repository" not in proc.stderr
    assert f"is inside the repository {repo.path.resolve()}, not its root" in proc.stderr
    proc = tether(repo.path, "--root", str(repo.path / "src"), "remember", "x", "--anchor", "tool.py::run")
    assert proc.returncode == 2 and "error[not_a_repository]" in proc.stderr and str(repo.path.resolve()) in proc.stderr


def test_session_start_outside_a_repository_says_so_and_not_to_remember(tmp_path):
    from hooktools import context_of, hook_env, payload, run_hook

    d = plain(tmp_path)
    data = payload("session_start_startup.json", session="s-1", repo=str(d), transcript="")
    line = context_of(run_hook("SessionStart", data, hook_env(tmp_path, d), matcher_subject="startup"))
    assert "is not a git repository" in line and "tether init" in line and "Store decisions" not in line
    tether(d, "init")
    line = context_of(run_hook("SessionStart", data, hook_env(tmp_path, d), matcher_subject="startup"))
    assert "is not a git repository" not in line
