"""Path safety through the real CLI: nothing outside the root, no credential files, nothing written on refusal."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SOURCE = "def handler(event):\n    return {'ok': True, 'event': event}\n"


@pytest.fixture
def seeded(repo, tmp_path):
    """A repository with one memory, a file outside the root, and the memory files' bytes before the test."""
    repo.write("src/app.py", SOURCE)
    repo.commit("initial")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "leak.py").write_text("def leak():\n    return 'outside the repository'\n")
    mid = repo.remember("The handler echoes the event back.", "src/app.py::handler")
    return repo, outside, mid, repo.memory_files()


def _remember_error(repo, spec: str) -> dict:
    return repo.error("remember", "Something about the code.", "--anchor", spec, exit=2)


@pytest.mark.parametrize(
    "spec",
    [
        "../outside/leak.py",
        "../outside/leak.py::leak",
        "src/../../outside/leak.py",
        "../../../../../../../../etc/hostname",
        "./src/../../outside",
    ],
)
def test_dotdot_escape_is_outside_root(seeded, spec):
    repo, _, _, before = seeded
    assert _remember_error(repo, spec)["code"] == "outside_root"
    assert repo.memory_files() == before


def test_absolute_path_elsewhere_is_outside_root(seeded):
    repo, outside, _, before = seeded
    for spec in (str(outside / "leak.py"), f"{outside / 'leak.py'}::leak", "/etc/hostname", "~/.bashrc"):
        assert _remember_error(repo, spec)["code"] == "outside_root", spec
    assert repo.memory_files() == before


def test_symlinked_directory_escape_is_outside_root(seeded):
    repo, outside, _, before = seeded
    os.symlink(outside, repo.path / "vendor")
    assert _remember_error(repo, "vendor/leak.py::leak")["code"] == "outside_root"
    assert repo.memory_files() == before


def test_symlinked_file_escape_is_outside_root(seeded):
    repo, outside, _, before = seeded
    os.symlink(outside / "leak.py", repo.path / "src" / "leak.py")
    assert _remember_error(repo, "src/leak.py")["code"] == "outside_root"
    os.symlink(outside / "not-yet-there.py", repo.path / "src" / "dangling.py")
    assert _remember_error(repo, "src/dangling.py")["code"] == "outside_root"
    assert repo.memory_files() == before


def test_symlink_loop_is_invalid_input(seeded):
    repo, _, _, before = seeded
    os.symlink("loop-b", repo.path / "loop-a")
    os.symlink("loop-a", repo.path / "loop-b")
    assert _remember_error(repo, "loop-a/x.py")["code"] == "invalid_input"
    assert repo.memory_files() == before


def test_git_and_tether_dirs_are_not_anchorable_even_through_a_link(seeded):
    repo, _, mid, before = seeded
    os.symlink(".git", repo.path / "g")
    for spec in (".git/config", "g/config", f".tether/memories/{next(iter(before))}", "."):
        assert _remember_error(repo, spec)["code"] == "invalid_input", spec
    assert repo.memory_files() == before


def test_absolute_path_through_a_symlinked_parent_of_the_root_is_accepted(seeded, tmp_path):
    repo, _, _, _ = seeded
    alias = tmp_path / "alias"
    os.symlink(repo.path.parent, alias)
    spec = f"{alias / repo.path.name / 'src' / 'app.py'}::handler"
    data = repo.json("remember", "The handler returns a dict.", "--anchor", spec)["data"]
    assert [(a["path"], a["symbol"]) for a in data["anchors"]] == [("src/app.py", "handler")]


def test_absolute_path_inside_the_root_is_accepted(seeded):
    repo, _, _, _ = seeded
    data = repo.json("remember", "The handler returns a dict.", "--anchor", f"{repo.path / 'src/app.py'}::handler")[
        "data"
    ]
    assert data["anchors"][0]["path"] == "src/app.py"


CREDENTIAL_FILES = {
    ".env": "DATABASE_URL=postgres://app:pw@db/app\n",
    "config/.env.production": "STRIPE_KEY=x\n",
    "certs/server.pem": "-----BEGIN CERTIFICATE-----\n",
    "deploy/signing.key": "key material\n",
    "deploy/id_rsa": "ssh key\n",
    "keys/id_ed25519": "ssh key\n",
    ".netrc": "machine example.com login me password pw\n",
    ".pgpass": "db:5432:app:app:pw\n",
    ".npmrc": "//registry.npmjs.org/:_authToken=x\n",
    ".pypirc": "[pypi]\npassword = x\n",
    "gcp/credentials.json": "{}\n",
    "certs/client.p12": "binary",
    "certs/client.pfx": "binary",
    ".aws/credentials": "[default]\n",
}


@pytest.mark.parametrize("path", sorted(CREDENTIAL_FILES))
def test_credential_file_anchor_is_refused(seeded, path):
    repo, _, _, before = seeded
    repo.write(path, CREDENTIAL_FILES[path])
    err = _remember_error(repo, path)
    assert (err["code"], err["reason"], err["path"]) == ("secret_detected", "credential_file", path)
    assert CREDENTIAL_FILES[path].strip() not in err["message"]
    assert repo.memory_files() == before


def test_env_template_is_anchorable(seeded):
    repo, _, _, _ = seeded
    repo.write(".env.example", "DATABASE_URL=\nSTRIPE_KEY=\n")
    data = repo.json("remember", "Every variable the app reads is listed here.", "--anchor", ".env.example")["data"]
    assert data["anchors"][0]["path"] == ".env.example"


def test_reanchor_and_supersede_refuse_escapes_and_leave_files_identical(seeded):
    repo, outside, mid, before = seeded
    assert repo.error("reanchor", mid, "--anchor", "../outside/leak.py", exit=2)["code"] == "outside_root"
    assert (
        repo.error("supersede", mid, "New belief.", "--anchor", str(outside / "leak.py"), exit=2)["code"]
        == "outside_root"
    )
    repo.write(".env", "SECRET=x\n")
    assert repo.error("reanchor", mid, "--anchor", ".env", exit=2)["code"] == "secret_detected"
    assert repo.memory_files() == before


def test_check_path_filter_outside_root_is_refused(seeded):
    repo, _, _, _ = seeded
    assert repo.error("check", "--path", "../outside", exit=2)["code"] == "outside_root"


def _tether(cwd, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tether", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
    )


def test_root_that_is_not_a_directory_is_invalid_input(tmp_path):
    afile = tmp_path / "plain.txt"
    afile.write_text("not a repository\n")
    runs = [
        _tether(tmp_path, "check", "--root", str(afile), "--json"),
        _tether(tmp_path, "check", "--root", str(tmp_path / "missing"), "--json"),
        _tether(tmp_path, "check", "--json", env={"TETHER_ROOT": str(afile)}),
    ]
    for proc in runs:
        assert (proc.returncode, json.loads(proc.stdout)["error"]["code"]) == (2, "invalid_input")


def test_global_root_before_the_command_is_honoured(tmp_path):
    afile = tmp_path / "plain.txt"
    afile.write_text("not a repository\n")
    proc = _tether(tmp_path, "--root", str(afile), "check", "--json")
    assert (proc.returncode, json.loads(proc.stdout).get("error", {}).get("code")) == (2, "invalid_input")
