"""`report --out` and `export --out`: a new regular file, or an earlier output of their own, nothing else."""

from __future__ import annotations

import os
import stat

import orjson
import pytest

SRC = "def fee(amount):\n    return round(amount * 0.029 + 0.30, 2)\n"


@pytest.fixture
def store(repo):
    repo.write("src/fees.py", SRC)
    repo.write("README.md", "# fees\n")
    repo.commit("fees")
    repo.remember("Card fees are 2.9% plus 30 cents.", "src/fees.py::fee")
    return repo


@pytest.mark.parametrize("command,marker", [("report", b"tether report"), ("export", b'"memories"')])
def test_a_new_file_is_written_and_an_earlier_output_replaced(store, tmp_path, command, marker):
    out = tmp_path / f"out-{command}"
    first = store.json(command, "--out", str(out))["data"]
    assert first["file"] == str(out) and marker in out.read_bytes()
    inode = out.stat().st_ino
    store.json(command, "--out", str(out))  # replacing its own earlier output is fine
    assert marker in out.read_bytes() and out.stat().st_ino != inode  # renamed into place whole


@pytest.mark.parametrize("command", ["report", "export"])
def test_a_tracked_file_is_never_replaced(store, command):
    before = store.read("README.md")
    err = store.error(command, "--out", str(store.path / "README.md"))
    assert err["code"] == "output_refused" and "tracked by git" in err["message"]
    assert store.read("README.md") == before


def test_a_tracked_earlier_report_is_not_replaced_either(store):
    store.json("report", "--out", str(store.path / "report.html"))
    store.commit("someone committed the report")
    assert store.error("report", "--out", str(store.path / "report.html"))["code"] == "output_refused"


@pytest.mark.parametrize("command", ["report", "export"])
def test_nothing_under_dot_git_is_written(store, command):
    for target in (".git/config", ".git/hooks/post-checkout", ".git"):
        before = sorted(p.name for p in (store.path / ".git").iterdir())
        err = store.error(command, "--out", str(store.path / target))
        assert err["code"] == "output_refused" and ".git" in err["message"], target
        assert sorted(p.name for p in (store.path / ".git").iterdir()) == before


@pytest.mark.parametrize("command", ["report", "export"])
def test_a_symlink_is_not_written_through_and_its_target_is_untouched(store, tmp_path, command):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    link = tmp_path / "link.html"
    link.symlink_to(victim)
    err = store.error(command, "--out", str(link))
    assert err["code"] == "output_refused" and "symbolic link" in err["message"]
    assert victim.read_text() == "keep me" and link.is_symlink()


def test_a_device_or_fifo_is_never_replaced(store, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert "a FIFO" in store.error("report", "--out", str(fifo))["message"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    err = store.error("report", "--out", "/dev/null")
    assert err["code"] == "output_refused" and "character device" in err["message"]
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_an_unrelated_existing_file_is_refused(store, tmp_path):
    notes = tmp_path / "notes.html"
    notes.write_text("<html>my notes</html>")
    err = store.error("report", "--out", str(notes))
    assert err["code"] == "output_refused" and "not an earlier tether report" in err["message"]
    assert notes.read_text() == "<html>my notes</html>"
    data = tmp_path / "data.json"
    data.write_text('{"a": 1}')
    assert store.error("export", "--out", str(data))["code"] == "output_refused"


def test_a_directory_takes_the_default_name(store, tmp_path):
    got = store.json("report", "--out", str(tmp_path))["data"]["file"]
    assert got == str(tmp_path / "report.html") and (tmp_path / "report.html").exists()


def test_the_default_report_path_is_outside_the_repository(store):
    got = store.json("report")["data"]["file"]
    assert not got.startswith(str(store.path))
    assert orjson.loads(store.run("report", "--json").stdout)["data"]["file"] == got  # replaced in place
