"""Nocetta's store scenarios (test/store/*.test.ts, test/safety/*.test.ts, test/capture/capture.test.ts ›
createNode, test/facade/facade.test.ts and root.test.ts, the `ls`/usage/bin half of test/cli/cli.test.ts),
re-typed against tether's real CLI in a real git repository: memory files are the truth, a bad file is
quarantined and never deleted, secrets never get in, and the root is found the way git finds a repository.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FOO = """\
export function foo(): number {
  return 1;
}

export function bar(): string {
  return "bar";
}
"""

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


@pytest.fixture
def foo(repo):
    repo.write("src/foo.ts", FOO)
    repo.commit("foo")
    return repo


def front_matter(repo, mid: str) -> tuple[str, dict, str]:
    (name,) = [n for n in repo.memory_files() if n.endswith(f"--{mid[:8]}.md")]
    head, body = repo.read(f".tether/memories/{name}").split("\n---\n", 1)
    return name, json.loads(head.removeprefix("---\n")), body


def quarantined(repo) -> list[dict]:
    return repo.json("check", check=False)["meta"]["quarantined"]


def tether(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """The CLI with no --root: the root is discovered from the working directory."""
    return subprocess.run(
        [sys.executable, "-m", "tether", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )


def root_from(cwd: Path, *args: str, env: dict | None = None) -> str:
    proc = tether(*args, "status", "--json", cwd=cwd, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]["root"]


# -- test/capture/capture.test.ts › createNode ----------------------------------------------------
def test_a_new_memory_gets_a_uuid_an_open_window_and_one_moment_for_its_times(foo):
    """nocetta test/capture/capture.test.ts › createNode › fills every unset field with the store-wide defaults,
    version stamped 1; › round-trips version through serialize/parse with no frontmatter special-casing"""
    mid = foo.remember("a fact about foo", "src/foo.ts::foo")
    _, meta, _ = front_matter(foo, mid)
    assert UUID.match(meta["id"])
    assert (meta["valid_to"], meta["links"], meta["tags"], meta["format"]) == (None, {}, [], 1)
    assert meta["valid_from"] == meta["recorded_at"] == meta["verified_at"]


@pytest.mark.parametrize(
    "body, summary",
    [
        ("foo returns 1. Some more detail follows here.", "foo returns 1."),
        ("foo returns 1\nsome more detail follows here", "foo returns 1"),
    ],
    ids=["first sentence", "first line"],
)
def test_the_summary_is_derived_from_the_body_when_none_is_given(foo, body, summary):
    """nocetta test/capture/capture.test.ts › createNode › derives a fallback summary from the body's first sentence
    when none is given; › ... from the first line when the body has no sentence-ending punctuation;
    test/retrieval/pipeline.test.ts › applyBudget › falls back to the body's first line as the preview label"""
    out = foo.json("remember", body, "--anchor", "src/foo.ts::foo")["data"]
    assert out["summary"] == summary
    assert foo.json("show", out["id"])["data"]["memory"]["body"] == body


def test_a_derived_summary_is_capped_near_120_characters_with_an_ellipsis(foo):
    """nocetta test/capture/capture.test.ts › createNode › caps the derived summary to ~120 chars with an ellipsis
    marker"""
    out = foo.json("remember", "a" * 150 + ".", "--anchor", "src/foo.ts::foo")["data"]
    assert len(out["summary"]) <= 120 and out["summary"].endswith("…")


def test_an_explicit_summary_wins_and_round_trips(foo):
    """nocetta test/capture/capture.test.ts › createNode › lets an explicit summary win over the derived fallback;
    › round-trips summary through serialize/parse alongside the other optional fields"""
    mid = foo.json("remember", "foo returns 1. detail.", "--summary", "foo returns one", "--anchor", "src/foo.ts::foo")[
        "data"
    ]["id"]
    _, meta, body = front_matter(foo, mid)
    assert (meta["summary"], body) == ("foo returns one", "foo returns 1. detail.\n")
    found = foo.json("recall", "what does foo return", "--file", "src/foo.ts")["data"]["items"]
    assert [(i["id"], i["summary"]) for i in found] == [(mid, "foo returns one")]


# -- test/store/store.test.ts ---------------------------------------------------------------------
def test_the_whole_store_is_rebuilt_from_the_files_alone(foo, tether_home):
    """nocetta test/store/store.test.ts › file store › reconstructs the full graph + reverse index from files alone"""
    a = foo.remember("foo returns 1", "src/foo.ts::foo")
    c = foo.remember("foo and bar are related: both feed the summary row.", "src/foo.ts::foo", "src/foo.ts::bar")
    before = foo.check()
    by_file = foo.json("recall", "what should I know", "--file", "src/foo.ts")["data"]["items"]
    shutil.rmtree(tether_home)
    assert foo.check() == before
    again = foo.json("recall", "what should I know", "--file", "src/foo.ts")["data"]["items"]
    assert sorted(i["id"] for i in again) == sorted(i["id"] for i in by_file) == sorted([a, c])


def test_a_multiline_body_round_trips_exactly(foo):
    """nocetta test/store/store.test.ts › file store › round-trips null fields, edges, and multiline bodies exactly"""
    body = "line one\nline two\n\nline four (blank line above)"
    mid = foo.remember(body, "src/foo.ts::foo")
    assert foo.json("show", mid)["data"]["memory"]["body"] == body
    _, meta, text = front_matter(foo, mid)
    assert text == body + "\n" and meta["evidence"] is None and meta["retired_reason"] is None


def test_a_repository_without_a_store_has_no_memories(repo):
    """nocetta test/store/store.test.ts › file store › returns an empty graph and index when the directory does not
    exist"""
    repo.write("src/foo.ts", FOO)
    repo.commit("foo")
    out = repo.json("check")
    assert out["data"] == [] and out["meta"]["quarantined"] == []
    assert not (repo.path / ".tether" / "memories").exists() or not list((repo.path / ".tether" / "memories").iterdir())


def test_memory_files_are_named_slug_then_id8_and_identity_lives_in_the_front_matter(foo):
    """nocetta test/store/store.test.ts › file store › names files <slug>--<id8>.md — readable in ls/git log, unique,
    traceable to the id"""
    mid = foo.remember("Every memory write routes through writeNode", "src/foo.ts::foo")
    assert list(foo.memory_files()) == [f"every-memory-write-routes-through-writenode--{mid[:8]}.md"]
    d = foo.path / ".tether" / "memories"
    (d / f"every-memory-write-routes-through-writenode--{mid[:8]}.md").rename(d / "renamed-by-hand.md")
    assert list(foo.check()) == [mid]


def test_a_body_without_latin_words_gets_a_stable_fallback_name(foo):
    """nocetta test/store/store.test.ts › file store › falls back to a stable name when the body yields no slug
    (non-latin text)"""
    mid = foo.remember("记忆系统存储代码事实", "src/foo.ts::foo")
    assert list(foo.memory_files()) == [f"memory--{mid[:8]}.md"]


# -- test/store/validate.test.ts, facade.test.ts › quarantine -------------------------------------
def test_a_well_formed_store_reads_with_no_issues(foo):
    """nocetta test/store/validate.test.ts › validated reads with quarantine › reads a well-formed store with zero
    issues and nodes identical to input"""
    ids = [foo.remember("sorted after a", "src/foo.ts::foo"), foo.remember("a note on bar", "src/foo.ts::bar")]
    out = foo.json("check", check=False)
    assert out["meta"]["quarantined"] == [] and sorted(i["id"] for i in out["data"]) == sorted(ids)


CORRUPTIONS = {
    "truncated": (lambda s: s[: s.index("\n---\n", 4) + 1], "not closed"),
    "invalid front matter": (lambda s: s.replace('"kind": "fact"', '"kind": [unclosed'), "not valid JSON"),
    "unknown kind": (lambda s: s.replace('"kind": "fact"', '"kind": "rumour"'), "unknown kind 'rumour'"),
    "missing id": (lambda s: re.sub(r'  "id": "[^"]*",\n', "", s), "'id'"),
    "non-ISO valid_from": (lambda s: re.sub(r'"valid_from": "[^"]*"', '"valid_from": "yesterday"', s), "valid_from"),
    "anchor without hash": (lambda s: re.sub(r'\s*"hash": "[^"]*",', "", s), "'hash'"),
    "string format": (lambda s: s.replace('"format": 1', '"format": "1"'), "'format'"),
}


def test_a_corrupt_memory_file_is_quarantined_with_a_readable_reason_and_the_rest_still_reads(foo):
    """nocetta test/store/validate.test.ts › quarantines <a truncated file | invalid YAML | an unknown kind | a missing
    id | a non-ISO validFrom | a malformed anchor (missing hash) | a string version> with a readable reason; the good
    nodes still read (seven of Nocetta's nine corruptions; authority and edge types are not tether fields)"""
    good = foo.remember("an untouched claim about foo", "src/foo.ts::foo")
    template = foo.remember("a claim about bar to corrupt", "src/foo.ts::bar")
    name, _, _ = front_matter(foo, template)
    text = foo.read(f".tether/memories/{name}")
    (foo.path / ".tether/memories" / name).unlink()
    files = {}
    for n, (case, (corrupt, _)) in enumerate(sorted(CORRUPTIONS.items())):
        files[case] = f".tether/memories/broken{n}--abc12{n}.md"
        foo.write(files[case], corrupt(text))
    out = foo.json("check", check=False)
    assert [i["id"] for i in out["data"]] == [good]
    errors = {q["file"]: q["error"] for q in out["meta"]["quarantined"]}
    assert sorted(errors) == sorted(files.values())
    for case, (_, reason) in CORRUPTIONS.items():
        assert reason in errors[files[case]], (case, errors[files[case]])


def test_yaml_front_matter_written_by_hand_is_quarantined_not_read(foo):
    """nocetta test/store/validate.test.ts › treats hand-edited files as first-class: unquoted YAML timestamps
    normalize to strings. tether differs (DIFFERENCES.md): its front matter is JSON, so a YAML one is quarantined —
    reported with the fix, never deleted."""
    text = "---\nid: hand-edited\nkind: fact\nvalid_from: 2026-09-08T17:30:00.000Z\n---\n\na hand-written memory\n"
    foo.write(".tether/memories/hand-edited--00000000.md", text)
    (q,) = quarantined(foo)
    assert q["file"] == ".tether/memories/hand-edited--00000000.md" and "JSON" in q["fix"]
    assert foo.read(".tether/memories/hand-edited--00000000.md") == text


def test_several_bad_files_are_one_issue_each_in_file_name_order(foo):
    """nocetta test/store/validate.test.ts › reports several bad files, one issue each, sorted by file name"""
    foo.write(".tether/memories/zzz--bad.md", "not frontmatter at all\n")
    foo.write(".tether/memories/aaa--bad.md", '---\n{"kind": "decision"}\n---\nbody\n')
    out = foo.json("check", check=False)
    assert out["data"] == []
    assert [q["file"] for q in out["meta"]["quarantined"]] == [
        ".tether/memories/aaa--bad.md",
        ".tether/memories/zzz--bad.md",
    ]


def test_a_quarantined_file_is_never_deleted_or_moved_and_a_fix_clears_it(foo):
    """nocetta test/store/validate.test.ts › never deletes or moves a quarantined file — a human may be mid-edit;
    test/facade/facade.test.ts › a hand-corrupted file quarantines: good nodes still serve, issues name exactly the bad
    file, and a fix + reload clears it"""
    good = foo.remember("a healthy claim", "src/foo.ts::foo")
    repaired = foo.remember("fixed by hand", "src/foo.ts::bar")
    name, _, _ = front_matter(foo, repaired)
    fine = foo.read(f".tether/memories/{name}")
    foo.write(f".tether/memories/{name}", "not frontmatter at all\n")
    assert list(foo.check(quarantined=True)) == [good]
    assert [q["file"] for q in quarantined(foo)] == [f".tether/memories/{name}"]
    assert foo.json("recall", "healthy claim fixed by hand", "--file", "src/foo.ts")["data"]["items"][0]["id"] == good
    assert foo.read(f".tether/memories/{name}") == "not frontmatter at all\n"
    foo.write(f".tether/memories/{name}", fine)
    assert quarantined(foo) == [] and sorted(foo.check()) == sorted([good, repaired])


def test_a_memory_written_behind_a_running_servers_back_is_served_at_once(foo, tmp_path):
    """nocetta test/facade/facade.test.ts › reload picks up externally written nodes — reads are explicit, there are no
    watchers (stale until told). tether differs (DIFFERENCES.md): every read re-reads the store, so the long-lived MCP
    server serves a memory another process wrote without being told."""
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def go():
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "tether", "mcp"],
            cwd=str(tmp_path),
            env={"TETHER_HOME": os.environ["TETHER_HOME"], "CLAUDE_PROJECT_DIR": str(foo.path)},
        )
        with open(tmp_path / "mcp-stderr.log", "w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                first = await client.call_tool("check", {})
                mid = foo.remember("written behind the server's back", "src/foo.ts::foo")
                second = await client.call_tool("check", {})
                return (
                    json.loads(first.content[0].text)["data"],
                    [i["id"] for i in json.loads(second.content[0].text)["data"]],
                    mid,
                )

    first, second, mid = asyncio.run(go())
    assert first == [] and second == [mid]


# -- test/safety/never-leak.test.ts ---------------------------------------------------------------
# Nocetta's shapes; where its literal fixture is an abc/123 run or an elided key, a machine-made value of the
# same shape (the abc/123 literals are below, held as a difference)
SECRETS = {
    "private key block": (
        "here's our deploy key:\n-----BEGIN RSA PRIVATE KEY-----\n"
        "MIIEpAIBAAKCAQEAjYs2DwXPS60m2lXp0N4+TgkWObjjT+gMbphgvfYjwWJ53iLyLIJro4Af\n"
        "7sdguzEQ6LdSb6gnUP+xXOi6Y9YcmHDJOp8t5UdcCbwc8zMa8ZC88WUNv8drUoDV\n-----END RSA PRIVATE KEY-----"
    ),
    ".env-style assignment": "the fix was:\nDATABASE_PASSWORD=hunter2superlong\n",
    "AWS access key id": "rotate AKIA2E0A8F3B244C9986 immediately",
    "credentialed URL": "remote is https://svc-bot:Qm7v2XpL9kTz@github.com/org/repo.git",
    "netrc-style line": "machine api.example.com login svc password sup3rSecretValue",
    "high-entropy token": "found in the logs: Q7mK2pL9vT4xR8wZ1nB6cF3dH5jY0sU2eG",
    "base64 with a slash": "leaked token: q8Zt/Lw3Vn0yRk5Hs2Jd7Pf1Xm9Cb4Ga6Ue=",
}
NOCETTA_RUNS = {
    "AWS access key id": "rotate AKIAABCDEFGHIJKLMNOP immediately",
    "credentialed URL": "remote is https://svc-bot:abc123def456@github.com/org/repo.git",
    "base64 with a slash": "leaked token: aB3dE/fGh9Ij0kLm1nOp2qRs3tUv4wXy5zA6bC7dE8f=",
}
PROSE = {
    "ordinary claim": "calculateTotal sums the items array.",
    "slash-joined terms": "the pipeline is envelope/egress/draft/flush/arbiter and the verbs are url/method/host/path/command/to/subject",
    "a path": "the renderer lives in packages/governance/result-view/src/present",
    "a bare UUID": "session 40be0fa5-c38b-4445-8f27-7757670e40a3 handled the flush",
}


@pytest.fixture
def leak(repo):
    repo.write("src/foo.ts", FOO)
    repo.write("config/.env", "X=1\n")
    repo.commit("foo")
    return repo


@pytest.mark.parametrize("case", sorted(SECRETS))
def test_a_secret_is_refused_and_nothing_is_written(leak, case):
    """nocetta test/safety/never-leak.test.ts › never-leak write gate › refuses a private key block and does not write
    the file; › refuses .env-style KEY=value assignments; › refuses an AWS access key id; › refuses a credentialed URL
    (git-credentials shape); › refuses a netrc-style credential line; › refuses a high-entropy token shape even without a
    known-vendor prefix; › still catches a base64 secret that happens to contain a slash; test/capture/capture.test.ts › remember › never-leak still gates at
    the choke-point: a secret body throws NeverLeakError and nothing is written"""
    err = leak.error("remember", SECRETS[case], "--anchor", "src/foo.ts")
    assert err["code"] == "secret_detected"
    assert leak.memory_files() == {}


@pytest.mark.parametrize("case", sorted(NOCETTA_RUNS))
def test_a_value_made_of_abc_123_runs_reads_as_a_placeholder_and_is_stored(leak, case):
    """nocetta test/safety/never-leak.test.ts › refuses an AWS access key id (`AKIAABCDEFGHIJKLMNOP`); › refuses a
    credentialed URL (`svc-bot:abc123def456`); › still catches a base64 secret that happens to contain a slash
    (`aB3dE/fGh9Ij0kLm...`). tether differs on purpose (DIFFERENCES.md): a value made mostly of abc/123 runs is read as
    typed by a person, a placeholder, and stored; the same shapes with machine-made values are refused (above)."""
    mid = leak.remember(NOCETTA_RUNS[case], "src/foo.ts")
    assert list(leak.check()) == [mid]


def test_ordinary_technical_prose_is_stored(leak):
    """nocetta test/safety/never-leak.test.ts › never-leak write gate › allows an ordinary claim to be written; › allows
    slash-joined term lists and paths; › allows a bare UUID mentioned in prose"""
    ids = [leak.remember(text, "src/foo.ts") for text in PROSE.values()]
    assert sorted(leak.check()) == sorted(ids)


def test_a_credential_file_cannot_be_anchored_whatever_the_body_says(leak):
    """nocetta test/safety/never-leak.test.ts › never-leak write gate › refuses anchoring to a known credential file by
    basename, regardless of body content"""
    err = leak.error("remember", "totally normal claim", "--anchor", "config/.env")
    assert err["code"] == "secret_detected" and "config/.env" in err["message"]
    assert leak.memory_files() == {}


# -- test/safety/portability.test.ts --------------------------------------------------------------
def test_the_current_view_survives_tarring_wiping_and_restoring_the_store(foo, tether_home, tmp_path):
    """nocetta test/safety/portability.test.ts › files-sufficient portability proof › reconstructs identical live
    'current' state after tarring, wiping, and re-extracting — no index survives"""
    claim = foo.remember("calculateTotal returns the invoice total.", "src/foo.ts::foo")
    old = foo.remember("an earlier, now-superseded claim about bar", "src/foo.ts::bar")
    new = foo.json("supersede", old, "the current claim about bar and its lower-case name")["data"]["current"]["id"]
    before_check = foo.check()
    before_all = sorted(i["id"] for i in foo.json("ls", "--all")["data"])
    tar = tmp_path / "store.tar"
    subprocess.run(["tar", "-cf", str(tar), "-C", str(foo.path), ".tether"], check=True)
    shutil.rmtree(foo.path / ".tether")
    shutil.rmtree(tether_home)
    assert foo.check() == {}
    subprocess.run(["tar", "-xf", str(tar), "-C", str(foo.path)], check=True)
    assert foo.check() == before_check and sorted(before_check) == sorted([claim, new])
    assert sorted(i["id"] for i in foo.json("ls", "--all")["data"]) == before_all


# -- test/facade/root.test.ts ---------------------------------------------------------------------
def test_the_root_is_the_nearest_ancestor_holding_a_store(tmp_path):
    """nocetta test/facade/root.test.ts › resolveRoot › walks up to the nearest ancestor holding .nocetta/ (here
    .tether/)"""
    (tmp_path / "proj" / ".tether").mkdir(parents=True)
    (tmp_path / "proj" / "deeply" / "nested" / "src").mkdir(parents=True)
    assert root_from(tmp_path / "proj" / "deeply" / "nested" / "src") == str(tmp_path / "proj")


def test_without_a_store_the_nearest_git_repository_is_the_root(repo):
    """nocetta test/facade/root.test.ts › resolveRoot › falls back to the nearest .git/ as the project boundary — a
    first write creates the store there"""
    repo.write("packages/app/src/foo.ts", FOO)
    repo.commit("app")
    cwd = repo.path / "packages" / "app" / "src"
    assert root_from(cwd) == str(repo.path)
    proc = tether("remember", "foo returns 1", "--anchor", "foo.ts::foo", "--json", cwd=cwd)
    assert proc.returncode == 0, proc.stdout
    assert json.loads(proc.stdout)["data"]["anchors"][0]["path"] == "packages/app/src/foo.ts"
    assert (repo.path / ".tether" / "memories").is_dir()


def test_a_subprojects_store_beats_the_outer_repository_and_a_sibling_still_gets_the_outer_one(repo):
    """nocetta test/facade/root.test.ts › resolveRoot › the nearest level wins: a subproject's .nocetta beats an outer
    repo's .git; test/facade/root.test.ts › at the same level an existing store beats a git marker"""
    (repo.path / "subproject" / ".tether").mkdir(parents=True)
    (repo.path / "subproject" / "src").mkdir()
    (repo.path / "other" / "src").mkdir(parents=True)
    (repo.path / ".tether").mkdir()
    assert root_from(repo.path / "subproject" / "src") == str(repo.path / "subproject")
    assert root_from(repo.path / "other" / "src") == str(repo.path)
    assert root_from(repo.path) == str(repo.path)


def test_with_no_marker_anywhere_the_working_directory_is_the_root(tmp_path):
    """nocetta test/facade/root.test.ts › resolveRoot › no markers anywhere: the starting directory itself — writes land
    in cwd, honestly"""
    cwd = tmp_path / "plain" / "dir"
    cwd.mkdir(parents=True)
    assert root_from(cwd) == str(cwd)


def test_an_explicit_root_wins_over_discovery_read_against_the_working_directory(tmp_path):
    """nocetta test/facade/root.test.ts › resolveRoot › an explicit root wins over discovery, resolved against the
    starting directory (--root, and TETHER_ROOT as NOCETTA_ROOT)"""
    (tmp_path / "proj" / ".tether").mkdir(parents=True)
    (tmp_path / "proj" / "elsewhere").mkdir()
    assert root_from(tmp_path / "proj", "--root", "elsewhere") == str(tmp_path / "proj" / "elsewhere")
    assert root_from(tmp_path / "proj" / ".tether", "--root", str(tmp_path / "proj")) == str(tmp_path / "proj")
    env = {"TETHER_ROOT": str(tmp_path / "proj" / "elsewhere")}
    assert root_from(tmp_path / "proj", env=env) == str(tmp_path / "proj" / "elsewhere")


# -- test/cli/cli.test.ts › ls, usage, bin ----------------------------------------------------------
def test_ls_kind_lists_only_that_kind(foo):
    """nocetta test/cli/cli.test.ts › ls --kind filters to the requested kind"""
    foo.remember("a claim about foo returning one", "src/foo.ts::foo", kind="fact")
    value = foo.remember("we ship on fridays, decided after the release retro", "src/foo.ts::bar", kind="decision")
    listed = foo.json("ls", "--kind", "decision")["data"]
    assert [(i["id"], i["kind"]) for i in listed] == [(value, "decision")]
    text = foo.run("ls", "--kind", "decision").stdout
    assert value[:8] in text and "returning one" not in text


def test_an_unknown_command_fails_with_usage_and_help_succeeds(tmp_path):
    """nocetta test/cli/cli.test.ts › unknown command exits 1 with usage; no command too; --help exits 0 with it"""
    bogus = tether("bogus", cwd=tmp_path)
    assert bogus.returncode != 0 and "bogus" in bogus.stderr and "remember" in bogus.stderr
    bare = tether(cwd=tmp_path)
    assert bare.returncode != 0 and "usage: tether" in bare.stdout + bare.stderr
    helped = tether("--help", cwd=tmp_path)
    assert helped.returncode == 0 and helped.stdout.startswith("usage: tether")


def test_the_installed_command_runs_through_a_symlink(foo, tmp_path):
    """nocetta test/cli/cli.test.ts › bin entrypoint (symlink regression) › runs when invoked through a package-manager
    bin symlink — never a silent exit 0"""
    script = Path(sys.prefix) / "bin" / "tether"
    if not script.exists():
        pytest.skip("no `tether` console script in this environment")
    foo.remember("foo returns the number one", "src/foo.ts::foo")
    link = tmp_path / "bin" / "tether"
    link.parent.mkdir()
    link.symlink_to(script)
    proc = subprocess.run([str(link), "check", "--root", str(foo.path)], capture_output=True, text=True)
    assert proc.returncode == 0 and "1 memory: 1 active" in proc.stdout
