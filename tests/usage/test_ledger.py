"""The usage log stays bounded without losing a count; the restatement threshold; the stats surfaces."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from hooktools import ROOT, billing_repo, hook_env

from tether.recall import restates
from tether.surfaces.cli.stats import sparkline
from tether.usage import events as usage, ledger

sys.path.insert(0, str(ROOT))  # tests.bench, as `make bench` imports it
from tests.bench import copy_corpus, git_commit_all, stdlib_dir

CALIBRATION = ROOT / "tests" / "bench" / "data" / "restates.json"


def _events(n: int, start: int = 0) -> list[dict]:
    return [
        {
            "event": ("recall", "push", "credit")[i % 3],
            "ids": [f"m{i % 7}"],
            "tokens": 10 + i % 5,
            "replaced": 100 if i % 3 == 0 else None,
            "files": 1 if i % 3 == 0 else None,
        }
        for i in range(start, start + n)
    ]


def _expected(events: list[dict]) -> tuple[dict, dict]:
    counts = {e: sum(1 for x in events if x["event"] == e) for e in usage.EVENTS}
    tokens = {
        "served": sum(x["tokens"] for x in events if x["event"] == "recall"),
        "replaced": sum(x["replaced"] or 0 for x in events),
        "files": sum(x["files"] or 0 for x in events),
        "pushed": sum(x["tokens"] for x in events if x["event"] == "push"),
    }
    return counts, tokens


def _record(root: Path, e: dict) -> None:
    ledger.record(root, e["event"], e["ids"], "s", tokens=e["tokens"], replaced=e["replaced"], files=e["files"])


def test_compaction_keeps_every_count_and_bounds_the_log(tmp_path, monkeypatch):
    monkeypatch.setattr(usage, "MAX_BYTES", 2_000)
    root = tmp_path / "repo"
    root.mkdir()
    events = _events(300)
    for e in events:
        _record(root, e)
    log = usage.log_path(root)
    assert log.stat().st_size <= 2_000 + 200
    assert (log.parent / ledger.SUMMARY).exists()
    assert not list(log.parent.glob("*" + ledger.FOLDING))
    s = ledger.load(root)
    counts, tokens = _expected(events)
    assert s["events"] == counts and s["tokens"] == tokens
    assert {mid: sum(v for k, v in use.items() if k != "last") for mid, use in s["memories"].items()} == {
        f"m{k}": sum(1 for i in range(300) if i % 7 == k) for k in range(7)
    }


def test_a_fold_interrupted_before_or_after_counting_neither_loses_nor_doubles(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    events = _events(30)
    for e in events[:10]:
        _record(root, e)
    assert ledger.compact(root)
    base = usage.log_path(root).parent
    # crashed after renaming, before counting: the leftover still counts, once
    for e in events[10:20]:
        _record(root, e)
    usage.log_path(root).rename(base / f"{usage.FILENAME}.1{ledger.FOLDING}")
    for e in events[20:]:
        _record(root, e)
    assert ledger.load(root)["events"] == _expected(events)[0]
    # crashed after counting, before removing: the summary names it, so it is not counted again
    assert ledger.compact(root)
    summary = json.loads((base / ledger.SUMMARY).read_text())
    lines = "".join(json.dumps({"ts": 1.0, "event": e["event"], "ids": e["ids"]}) + "\n" for e in events[10:20])
    (base / f"{usage.FILENAME}.1{ledger.FOLDING}").write_text(lines)
    summary["folded"].append(f"{usage.FILENAME}.1{ledger.FOLDING}")
    (base / ledger.SUMMARY).write_text(json.dumps(summary))
    assert ledger.load(root)["events"] == _expected(events)[0]


def test_concurrent_writers_lose_no_event_across_compactions(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path; from tether.usage import events as usage, ledger; "
        "usage.MAX_BYTES = 3000; root = Path(sys.argv[2]); "
        "[ledger.record(root, 'recall', ['m%d' % (i % 5)], sys.argv[3], tokens=7, replaced=70, files=1) for i in range(150)]"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, str(ROOT / "server"), str(root), f"w{w}"]) for w in range(4)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0]
    s = ledger.load(root)
    assert s["events"]["recall"] == 600
    assert s["tokens"] == {"served": 4200, "replaced": 42000, "files": 600, "pushed": 0}
    assert (usage.log_path(root).parent / ledger.SUMMARY).exists()


def test_a_damaged_summary_or_log_line_costs_only_itself(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    _record(root, _events(1)[0])
    base = usage.log_path(root).parent
    (base / ledger.SUMMARY).write_text("{not json")
    with open(usage.log_path(root), "a") as f:
        f.write('{"ts": 1, "event": "recall", "ids": [tru\n')
    _record(root, _events(1)[0])
    assert ledger.load(root)["events"]["recall"] == 2


# -- the restatement threshold, on real code ---------------------------------------------------
@pytest.fixture(scope="module")
def calibration(tmp_path_factory):
    """Each hand-labelled memory's share of terms found in its anchored stdlib code, by class."""
    import os

    from tether.recall.receipts import Pricer
    from tether.service import Tether

    doc = orjson.loads(CALIBRATION.read_bytes())
    tmp = tmp_path_factory.mktemp("calibration")
    old = os.environ.get("TETHER_HOME")
    os.environ["TETHER_HOME"] = str(tmp / "home")
    try:
        root = tmp / "repo"
        copy_corpus([stdlib_dir() / f for f in sorted({m["anchor"].split("::")[0] for m in doc["memories"]})], root)
        git_commit_all(root)
        t = Tether(root)
        out = {}
        for m in doc["memories"]:
            mem = t.remember(m["body"], [m["anchor"]], kind=m["kind"], force=True)
            sources = Pricer(t.index).sources(t.resolver().memory(mem))
            code = restates.code_terms([s for _, s in sources], [p for p, _ in sources])
            out[m["key"]] = (m["class"], restates.said(restates.memory_text(mem.body, mem.summary), code))
        t.close()
    finally:
        if old is None:
            os.environ.pop("TETHER_HOME", None)
        else:
            os.environ["TETHER_HOME"] = old
    return out


def test_paraphrases_of_the_code_score_at_or_above_the_threshold(calibration):
    scores = {k: s for k, (c, s) in calibration.items() if c == "restates"}
    assert len(scores) == 8 and min(scores.values()) >= restates.THRESHOLD, scores


def test_memories_that_add_to_the_code_score_below_it_even_when_they_restate_part(calibration):
    scores = {k: s for k, (c, s) in calibration.items() if c in ("adds", "mixed")}
    assert len(scores) == 12 and max(scores.values()) < restates.THRESHOLD, scores


def test_said_is_the_share_of_memory_terms_found_in_the_code():
    code = restates.code_terms(
        ["def fetch_with_retry(url):\n    # retries 5xx only\n    return get(url)"], ["src/http.py"]
    )
    # the memory's terms: retry, fetch, gateway, timeout; the code has the first two -> 2 of 4
    assert restates.said("Retry the fetch on gateway timeout", code) == 0.5
    assert restates.said("anything", set()) == 0.0 and restates.missing("Retry the gateway", code) == ["gateway"]


# -- the surfaces ------------------------------------------------------------------------------
def test_the_stats_slash_command_runs_through_the_plugin_launcher(repo, tmp_path):
    billing_repo(repo)
    repo.run("recall", "why do invoice totals round each line to cents")
    line = next(x for x in (ROOT / "commands" / "stats.md").read_text().splitlines() if x.startswith("!`"))
    cmd = (
        line[2:-1].replace("${CLAUDE_PLUGIN_ROOT}", str(ROOT)).replace("${CLAUDE_PLUGIN_DATA}", str(tmp_path / "data"))
    )
    proc = subprocess.run(
        ["sh", "-c", cmd], cwd=repo.path, env=hook_env(tmp_path, repo.path), capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"tether stats for {repo.path.resolve()}")
    assert "memories    3: 3 active, 0 stale, 0 invalidated; 0 quarantined" in proc.stdout
    assert "recall      1 recall served" in proc.stdout and "quadrants" in proc.stdout


def test_stats_json_is_an_envelope_and_bad_arguments_are_refused(repo):
    billing_repo(repo)
    env = repo.json("stats", "--days", "7", "--top", "1")
    assert set(env) == {"data", "meta"} and len(env["data"]["daily"]["total"]) == 7
    assert env["meta"]["staleness"] == {"stale": 0, "invalidated": 0}
    assert repo.json("stats", "--days", "0", check=False)["error"]["code"] == "invalid_input"


def test_sparkline_scales_to_the_peak_and_marks_empty_days():
    assert sparkline([0, 1, 2, 4, 8]) == "·▁▂▄█"
    assert sparkline([0, 0]) == "··" and sparkline([3]) == "█"


def test_recall_and_stats_work_with_an_unwritable_state_dir(repo, tether_home):
    billing_repo(repo)
    (tether_home / "state").write_text("a file where the state directory should be")
    out = repo.json("recall", "why do invoice totals round each line to cents")
    assert out["data"]["items"] and out["meta"]["receipt"]["replaced_tokens"] > 0
    s = repo.json("stats")["data"]
    assert (s["usage"]["recalls"], s["memories"]["total"]) == (0, 3)
