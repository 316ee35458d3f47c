"""What a stale anchor's diff shows: the edit the hash saw, ahead of comment and docstring rewording."""

from __future__ import annotations

import orjson

DOC = "\n".join(f"    line {i} of what this function promises, worded once" for i in range(25))
CODE = f'''import os


def environ_keys():
    """Keys of the environment.

{DOC}
    """
    # the keys, sorted so the output is stable
    keys = sorted(os.environ)
    return [k.lower() for k in keys]
'''


def test_code_edit_leads_and_docstring_rewording_folds(repo):
    repo.write("app.py", CODE)
    repo.commit()
    repo.remember("environ_keys returns the keys sorted", "app.py::environ_keys")
    edited = CODE.replace("worded once", "worded twice").replace("sorted so the output", "so the output")
    repo.write("app.py", edited.replace("sorted(os.environ)", "list(os.environ)"))
    item = repo.only()
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    diff = item["anchors"][0]["diff"].splitlines()
    assert "-    keys = sorted(os.environ)" in diff and "+    keys = list(os.environ)" in diff
    assert not any("worded" in line for line in diff)  # the docstring hunk is a count, not lines
    assert diff[-1] == "... 1 change (50 lines) only in comments or docstrings, not shown"
    text = repo.run("check").stdout
    assert "+    keys = list(os.environ)" in text and "more diff lines" not in text


TS = """export function retry(times: number): number {
  // first attempt, then the retries
  let left = times;
  // each retry waits twice as long
  return left * 2;
}
"""


def test_comment_rewording_folds_in_typescript_too(repo):
    repo.write("retry.ts", TS)
    repo.commit()
    repo.remember("retry doubles the wait", "retry.ts::retry")
    edited = TS.replace("first attempt, then", "one attempt and").replace("left * 2", "left * 3")
    repo.write("retry.ts", edited)
    diff = repo.only()["anchors"][0]["diff"].splitlines()
    assert "+  return left * 3;" in diff and not any("one attempt" in line for line in diff)
    assert diff[-1] == "... 1 change (2 lines) only in comments or docstrings, not shown"


FN = 'def f(x):\n    """Adds one."""\n    return x + 1\n'


def test_reanchor_moves_the_baseline_to_the_code_rebound(repo, tmp_path):
    repo.write("a.py", FN)
    repo.commit("one")
    mid = repo.remember("f adds one", "a.py::f")
    repo.write("a.py", FN.replace("x + 1", "x + 2"))
    repo.commit("two")
    two = repo.git("rev-parse", "HEAD").strip()
    repo.run("reanchor", mid)
    assert f'"commit": "{two}"' in next(iter(repo.memory_files().values())).decode()
    repo.write("a.py", FN.replace("x + 1", "x + 3"))
    repo.commit("three")
    repo.write("a.py", FN.replace("x + 1", "x + 4"))
    # a teammate's clone has no snippet cache: the diff is read from git at the memory's commit
    proc = repo.run("check", "--json", env={"TETHER_HOME": str(tmp_path / "elsewhere")})
    diff = orjson.loads(proc.stdout)["data"][0]["anchors"][0]["diff"].splitlines()
    assert "-    return x + 2" in diff and "+    return x + 4" in diff


def test_reanchor_keeps_the_wording_it_rebound(repo):
    """A hash ignores docstrings: the text kept for it must be the one re-bound, not an older one."""
    repo.write("a.py", FN)
    repo.commit()
    mid = repo.remember("f adds one", "a.py::f")
    repo.write("a.py", FN.replace("Adds one.", "Increments by one.").replace("x + 1", "x + 2"))
    assert repo.only()["status"] == "stale"
    repo.replace("a.py", "x + 2", "x + 1")  # the same code under the new docstring: active again
    repo.run("reanchor", mid)
    repo.replace("a.py", "x + 1", "x + 5")
    diff = repo.only()["anchors"][0]["diff"]
    assert "Adds one" not in diff and "+    return x + 5" in diff
