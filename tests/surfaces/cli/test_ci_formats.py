"""`check --format github|sarif`, and the pre-commit hooks, on real repositories."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys

import jsonschema
import orjson
import pytest
import yaml
from where import DATA, ROOT

from tether.lifecycle.status import Reason
from tether.surfaces.cli import ci

SRC = '''\
def fetch_with_retry(url, attempts=5):
    """Fetch a URL, retrying server errors."""
    for i in range(attempts):
        resp = get(url)
        if resp.status < 500:
            return resp
        time.sleep(2 ** i)
    return resp


def parse_header(line):
    name, _, value = line.partition(":")
    return name.strip().lower(), value.strip()
'''
SARIF_SCHEMA = orjson.loads((DATA / "sarif-schema-2.1.0.json").read_bytes())


@pytest.fixture
def stale(repo):
    """Two memories: one left stale by an edit, one invalidated by a deletion, in a file with a space."""
    repo.write("src/net io.py", SRC)
    repo.commit("code")
    hostile = "Retries only 5xx, 100% of the time, then ::error title=x::injected"
    ids = {
        "retry": repo.remember(hostile, "src/net io.py::fetch_with_retry"),
        "header": repo.remember("Header names are folded to lower case for lookups.", "src/net io.py::parse_header"),
    }
    repo.commit("memories")
    repo.replace("src/net io.py", "resp.status < 500", "resp.status < 400")
    text = repo.read("src/net io.py")
    repo.write("src/net io.py", text[: text.index("def parse_header")].rstrip() + "\n")
    return repo, ids


def test_github_format_puts_an_escaped_warning_at_each_anchored_line(stale):
    repo, ids = stale
    proc = repo.run("check", "--format", "github", check=False)
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    commands = [line for line in lines if line.startswith("::")]
    assert len(commands) == 2 and all(line.startswith("::warning ") for line in commands)
    retry = next(line for line in commands if ids["retry"][:8] in line)
    assert retry.startswith("::warning file=src/net io.py,line=1,title=tether%3A memory stale (body_edited)::")
    # the memory's text is the message: % escaped, and its own `::error` starts no command
    assert "::Retries only 5xx, 100%25 of the time, then ::error title=x::injected (tether memory" in retry
    header = next(line for line in commands if ids["header"][:8] in line)
    assert "title=tether%3A memory invalidated (anchor_deleted)" in header
    strict = repo.run("check", "--format", "github", "--strict", check=False)
    assert strict.returncode == 1
    assert [line.split(" ", 1)[0] for line in strict.stdout.splitlines() if line.startswith("::")] == ["::error"] * 2


def test_the_workflow_command_escapes_follow_githubs_rules():
    assert ci.command("warning", "a%b\r\nc", "x,y:z.py", 3, "t: 1,2") == (
        "::warning file=x%2Cy%3Az.py,line=3,title=t%3A 1%2C2::a%25b%0D%0Ac"
    )


def test_sarif_is_valid_2_1_0_with_a_result_per_anchor(stale):
    repo, ids = stale
    proc = repo.run("check", "--format", "sarif", check=False)
    assert proc.returncode == 0
    log = orjson.loads(proc.stdout)
    jsonschema.validate(log, SARIF_SCHEMA)  # the official 2.1.0 schema, shipped as test data
    (run,) = log["runs"]
    assert log["version"] == "2.1.0" and run["tool"]["driver"]["name"] == "tether"
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    results = {r["ruleId"]: r for r in run["results"]}
    assert sorted(rules) == sorted(results) == ["anchor_deleted", "body_edited"]
    edited = results["body_edited"]
    assert edited["level"] == "warning" and rules[edited["ruleIndex"]] == "body_edited"
    assert edited["message"]["text"].startswith("Retries only 5xx, 100% of the time,")
    loc = edited["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "src/net%20io.py"  # repo-relative, a URI reference
    assert loc["region"]["startLine"] == 1 and loc["region"]["endLine"] == 8
    deleted = results["anchor_deleted"]["locations"][0]["physicalLocation"]
    assert deleted["region"]["startLine"] >= 1
    strict = repo.run("check", "--format", "sarif", "--strict", check=False)
    assert strict.returncode == 1
    log = orjson.loads(strict.stdout)
    jsonschema.validate(log, SARIF_SCHEMA)
    assert {r["level"] for r in log["runs"][0]["results"]} == {"error"}


def test_a_clean_store_is_an_empty_valid_sarif_run(repo):
    repo.write("src/a.py", SRC)
    repo.commit("code")
    repo.remember("Retries back off exponentially and only on 5xx.", "src/a.py::fetch_with_retry")
    log = orjson.loads(repo.run("check", "--format", "sarif", "--strict").stdout)
    jsonschema.validate(log, SARIF_SCHEMA)
    assert log["runs"][0]["results"] == []


def test_every_reason_has_a_sarif_rule_description():
    assert {r for r in Reason} <= set(ci.REASONS)


def test_json_and_format_together_are_refused(repo):
    repo.write("src/a.py", SRC)
    repo.commit("code")
    assert repo.error("check", "--format", "sarif", exit=2)["code"] == "invalid_input"


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_pre_commit_runs_the_shipped_hooks(stale, tmp_path):
    """The hooks of .pre-commit-hooks.yaml, run by the real pre-commit. A remote hook would have
    pre-commit pip-install tether from its repository, which needs the network: the same hooks
    run as `repo: local`, `language: system`, with `tether` as this interpreter's module."""
    repo, ids = stale
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["tether-check", "tether-affected"]
    assert hooks[1]["entry"] == "tether affected --staged"  # the commit's change: the index, not the working tree
    tether = f"{shlex.quote(sys.executable)} -m tether"
    local = [dict(h, language="system", entry=h["entry"].replace("tether", tether, 1)) for h in hooks]
    (repo.path / ".pre-commit-config.yaml").write_text(
        orjson.dumps({"repos": [{"repo": "local", "hooks": local}]}).decode()
    )
    repo.git("add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "TETHER_ROOT": str(repo.path)}
    pre_commit = [sys.executable, "-m", "pre_commit", "run", "--color", "never"]
    proc = subprocess.run(pre_commit, cwd=repo.path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # the gate fails: a memory is stale
    assert "tether check --strict" in proc.stdout and "Failed" in proc.stdout
    assert "tether affected" in proc.stdout and ids["retry"][:8] in proc.stdout
    # settle both memories: the gate passes, and affected still reports (it never fails a commit)
    repo.run("reanchor", ids["retry"])
    repo.run("retire", ids["header"], "--reason", "parse_header was removed")
    repo.git("add", "-A")
    proc = subprocess.run(pre_commit, cwd=repo.path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("Passed") == 2


def test_the_shipped_workflow_runs_real_commands():
    """docs/tether.yml's tether lines parse with the real CLI's parser (a renamed flag fails here)."""
    from tether.surfaces.cli.parser import build_parser

    workflow = yaml.safe_load((ROOT / "docs" / "tether.yml").read_text())
    runs = [s["run"] for s in workflow["jobs"]["memories"]["steps"] if "run" in s]
    lines = [line.strip() for run in runs for line in run.splitlines() if line.strip().startswith("tether ")]
    assert len(lines) == 3
    for line in lines:
        argv = shlex.split(line.split(">")[0].replace('"$BASE"', "origin/main"))[1:]
        assert build_parser().parse_args(argv).command in ("check", "affected")


def test_one_memory_checked_is_singular_and_a_path_with_none_says_so(repo):
    repo.write("src/a.py", SRC)
    repo.commit("code")
    repo.remember("Retries only server errors.", "src/a.py::fetch_with_retry")
    out = repo.run("check", "--format", "github").stdout
    assert "tether: 1 memory checked," in out
    out = repo.run("check", "--path", "typo", "--format", "github").stdout
    assert out.splitlines()[0] == "::notice::no memories under typo"


def test_the_comment_stays_under_githubs_limit():
    """254 stale memories once made a 106,331-character comment; GitHub refuses one over 65,536."""
    from tether.lifecycle.affected import Affected, Touched
    from tether.lifecycle.changes import Changes
    from tether.lifecycle.status import Status
    from tether.lifecycle.verdicts import Resolution, Verdict
    from tether.store.model import Anchor, Memory

    a = Anchor("symbol", "src/a.py", "t2:x", 10, "f")
    diff = "\n".join(f"-    old line {i}\n+    new line {i}" for i in range(10))
    r = Resolution(Status.STALE, Reason.BODY_EDITED, "src/a.py", "f", start_line=1, end_line=20, diff=diff)
    touched = []
    for i in range(254):
        m = Memory(f"{i:08d}-0000", "fact", f"memory {i} " + "x" * 200, "body", (a,), "2025", "2025", "2025")
        touched.append(Touched(Verdict(m, Status.STALE, Reason.BODY_EDITED, ((a, r),), 0.5), (0,), "stale"))
    found = Affected(Changes("0" * 40, "main", ()), tuple(touched))
    out = ci.markdown(found)
    assert len(out) <= ci.MAX_COMMENT_CHARS
    shown = out.count("- **stale**")
    assert 0 < shown < 254 and f"... and {254 - shown} more (run `tether affected` locally)" in out
    assert out.rstrip().endswith("if it is gone.")  # the summary and the advice survive the cut


def test_the_shipped_workflow_survives_a_failed_step_forks_and_others_comments():
    """Its outputs stay out of the checkout (else `affected` counts them as changed files); a
    quarantined memory file (exit 1 without --strict) skips no later step; a fork's pull request,
    whose token is read-only, neither uploads nor comments; only tether's own comment is edited."""
    workflow = yaml.safe_load((ROOT / "docs" / "tether.yml").read_text())
    steps = {s.get("name") or s.get("uses"): s for s in workflow["jobs"]["memories"]["steps"]}
    text = (ROOT / "docs" / "tether.yml").read_text()
    assert "> tether.sarif" not in text and "> affected.md" not in text and "$RUNNER_TEMP/tether.sarif" in text
    assert "--edit-last" not in text and "<!-- tether-affected -->" in text
    fork = "github.event.pull_request.head.repo.full_name == github.repository"
    upload, comment = (
        steps["github/codeql-action/upload-sarif@v3"],
        steps["Comment the memories this pull request affects"],
    )
    assert fork in upload["if"] and fork in comment["if"]
    assert all(
        s["if"].startswith("always()") for s in (upload, comment, steps["The gate (annotations at each stale anchor)"])
    )
    assert steps["SARIF for code scanning"]["continue-on-error"] is True
