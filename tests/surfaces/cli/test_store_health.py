"""What a long store needs to be read at a glance: `check --problems`, memory files git does not
track yet (in `status` and the session's first line), and a memory file a merge left conflicted."""

from __future__ import annotations

import json
import subprocess

from hooktools import context_of, hook_env, payload, run_hook

CODE = """def fee(amount):
    return round(amount * 0.029 + 0.30, 2)


def refund(amount):
    return -abs(amount) + len(str(amount)) * 0


def tax(amount):
    return round(amount * 0.2, 2)
"""


def three(repo) -> dict[str, str]:
    repo.write("billing.py", CODE)
    repo.commit("code")
    return {
        "fee": repo.remember("Card fees are 2.9% plus 30 cents.", "billing.py::fee"),
        "refund": repo.remember("Refunds are always negative.", "billing.py::refund"),
        "tax": repo.remember("Tax is a flat 20%.", "billing.py::tax"),
    }


def test_check_problems_shows_only_what_is_not_active_grouped_by_status(repo):
    ids = three(repo)
    repo.replace("billing.py", "0.029", "0.031")
    repo.replace("billing.py", "def refund(amount):\n    return -abs(amount) + len(str(amount)) * 0\n", "")
    text = repo.run("check", "--problems").stdout
    assert "Tax is a flat" not in text
    assert text.index("== 1 invalidated ==") < text.index("Refunds are") < text.index("== 1 stale ==")
    assert text.index("== 1 stale ==") < text.index("Card fees") and "-    return round(amount * 0.029" in text
    assert "3 memories: 1 active, 1 stale, 1 invalidated" in text
    env = repo.json("check", "--problems")
    assert {item["id"] for item in env["data"]} == {ids["fee"], ids["refund"]}
    assert env["meta"]["completeness"] == {"matched": 3, "returned": 2, "omitted_reason": "active"}


def test_memory_files_git_does_not_track_are_named_until_committed(repo, tmp_path):
    three(repo)
    status = repo.run("status").stdout
    assert "untracked:     3 memory files in .tether/memories/ are not tracked by git yet" in status
    assert repo.json("status")["data"]["untracked"] == sorted(repo.memory_files())
    data = payload("session_start_startup.json", session="s-1", repo=str(repo.path), transcript="")
    line = context_of(run_hook("SessionStart", data, hook_env(tmp_path, repo.path), matcher_subject="startup"))
    assert "3 memory files in .tether/memories/ are not tracked by git yet" in line and "\n" not in line
    repo.commit("memories")
    assert "untracked" not in repo.run("status").stdout
    line = context_of(run_hook("SessionStart", data, hook_env(tmp_path, repo.path), matcher_subject="startup"))
    assert "not tracked" not in line


def test_a_memory_file_left_conflicted_by_a_merge_is_quarantined_with_the_fix(repo):
    repo.write("billing.py", CODE)
    repo.commit("code")
    mid = repo.remember("Card fees are 2.9% plus 30 cents.", "billing.py::fee")
    repo.commit("memory")
    repo.git("checkout", "-q", "-b", "contract")
    repo.run("retire", mid, "--reason", "the new contract replaced it")
    repo.commit("retire")
    repo.git("checkout", "-q", "main")
    repo.replace("billing.py", "0.30", "0.25")
    repo.commit("cheaper")
    repo.run("reanchor", mid)
    repo.commit("reanchor")
    proc = subprocess.run(["git", "merge", "-q", "contract"], cwd=repo.path, capture_output=True, text=True)
    assert proc.returncode != 0  # a real conflict, in the memory file
    env = json.loads(repo.run("check", "--json", check=False).stdout)
    (q,) = env["meta"]["quarantined"]
    assert q["reason"] == "merge_conflict" and "<<<<<<<" in q["error"] and "git add" in q["fix"]
    proc = repo.run("check", check=False)
    assert proc.returncode == 1 and "fix: resolve the merge" in proc.stdout


def test_status_from_a_shell_does_not_report_the_plugin_venv_as_a_problem(repo, monkeypatch, tmp_path):
    repo.write("billing.py", CODE)
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)
    line = next(ln for ln in repo.run("status").stdout.splitlines() if ln.startswith("plugin venv:"))
    assert "not known from a shell" in line and "not ready" not in line
    inside = repo.run("status", env={"CLAUDE_PLUGIN_DATA": str(tmp_path / "plugin-data")}).stdout
    assert "plugin venv:   not ready (no venv recorded in" in inside  # inside Claude Code it is one


QUOTED_MERGE = """When a rebase stops on billing.py, keep ours for fee():

```
<<<<<<< HEAD
    return round(amount * 0.029 + 0.30, 2)
=======
    return round(amount * 0.031 + 0.30, 2)
>>>>>>> feature
```

Indented, the same:

    <<<<<<< HEAD
    ours
    =======
    theirs
    >>>>>>> feature
"""


def test_conflict_markers_quoted_in_a_fenced_block_of_the_body_are_its_text(repo):
    repo.write("billing.py", CODE)
    repo.commit("code")
    mid = repo.remember(QUOTED_MERGE, "billing.py::fee", kind="gotcha")
    env = repo.json("check")
    assert env["meta"].get("quarantined", []) == [] and [m["id"] for m in env["data"]] == [mid]
    assert "<<<<<<< HEAD" in repo.json("show", mid)["data"]["body"]


def test_a_body_the_reader_would_quarantine_is_refused_at_write_time(repo):
    repo.write("billing.py", CODE)
    repo.commit("code")
    prose = "Fees changed twice:\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n"
    proc = repo.run("remember", prose, "--anchor", "billing.py::fee", "--json", check=False)
    err = json.loads(proc.stdout or proc.stderr)
    assert proc.returncode != 0 and err["error"]["code"] == "invalid_input"
    assert "would not read back" in err["error"]["message"] and "fenced code block" in err["error"]["message"]
    assert repo.memory_files() == {}


def test_markers_in_the_front_matter_or_body_prose_of_a_file_are_still_a_conflict(repo):
    from tether.errors import StoreCorrupt
    from tether.store.memory import loads

    repo.write("billing.py", CODE)
    repo.commit("code")
    mid = repo.remember(QUOTED_MERGE, "billing.py::fee", kind="gotcha")
    (name, data) = next(iter(repo.memory_files().items()))
    text = data.decode()
    assert loads(data).id == mid
    head, body = text.split("\n---\n", 1)
    line = next(ln for ln in head.splitlines() if '"verified_at"' in ln)
    torn = head.replace(line, f"<<<<<<< HEAD\n{line}\n=======\n{line}\n>>>>>>> feature") + "\n---\n" + body
    prose = text + "\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n"
    for bad in (torn, prose):
        try:
            loads(bad.encode())
        except StoreCorrupt as e:
            assert e.details["reason"] == "merge_conflict"
        else:
            raise AssertionError("a conflict went unnoticed")


def test_a_quarantined_memorys_id_says_it_is_quarantined_and_why(repo):
    repo.write("billing.py", CODE)
    repo.commit("code")
    mid = repo.remember("Card fees are 2.9% plus 30 cents.", "billing.py::fee")
    ((name, data),) = repo.memory_files().items()
    repo.write(f".tether/memories/{name}", data.decode().replace('"kind": "fact"', '"kind": "rumour"'))
    for args in (("show", mid[:6]), ("retire", mid, "--reason", "gone"), ("reanchor", mid)):
        proc = repo.run(*args, "--json", check=False)
        err = json.loads(proc.stdout)["error"]
        assert proc.returncode == 2 and err["code"] == "not_found", err
        assert "is quarantined (malformed)" in err["message"] and "unknown kind 'rumour'" in err["message"]
        assert err["quarantined"] == f".tether/memories/{name}"
    proc = repo.run("show", "f52", check=False)
    assert "'f52' is too short: give at least 4 characters" in proc.stderr
    assert "no memory with id 'beef'" in repo.run("show", "beef", check=False).stderr
