"""Reliability figures for docs/benchmarks.md: concurrent writers, SIGKILLed writers, hostile input, secrets.

The same scenarios as tests/store/test_concurrency.py, test_crash.py and tests/surfaces/cli/test_hostile.py (shared code in
tests/stress.py), run once at full size and reported as counts: what was written, what was lost,
what crashed. Counts, not timings, are the point; wall times are informational.

    python -m tests.bench reliability
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson

from tests.bench import Table, workdir
from tests.stress import INDEX_PEAK_PROBE, SHARED_TAG, cli, make_repo, race, run_crashes, run_writers

MB = 1024 * 1024


def run(small: bool = False) -> list[Table]:
    with workdir("reliability") as tmp:
        return [_concurrency(tmp, small), _crashes(tmp, small), _hostile(tmp, small)]


def _json(proc: subprocess.CompletedProcess) -> dict:
    if proc.returncode != 0:
        raise RuntimeError(f"tether exited {proc.returncode}: {proc.stdout[-800:]} {proc.stderr[-800:]}")
    return orjson.loads(proc.stdout)


def _count(n: int, want: int, what: str = "") -> tuple[str, str, bool]:
    return f"{n:,}{what}", f"{want:,}", n == want


# -- concurrency --------------------------------------------------------------------------------
def _concurrency(tmp: Path, small: bool) -> Table:
    writers, per = (2, 5) if small else (8, 100)
    total = writers * per
    root = tmp / "concurrent"
    make_repo(root, writers, per)
    out = run_writers(root, writers, per)
    files = sorted((root / ".tether" / "memories").glob("*.md"))
    from tether.store import memory

    parsed = 0
    for p in files:
        try:
            memory.loads(p.read_bytes(), p.name)
        except memory.StoreCorrupt:
            continue  # counted, not raised: the table reports it
        parsed += 1
    checked = len(_json(cli(root, "check", "--json"))["data"])
    matched = _json(cli(root, "recall", SHARED_TAG, "--budget", "100000", "--json"))["meta"]["completeness"]["matched"]
    lapses = sum(1 for e in out.errors if "recall_lag" in e)

    t = Table(f"Reliability: {writers} processes writing {per} memories each, at once, on one repository")
    t.add("writes acknowledged", *_count(len(set(out.acked)), total))
    t.add("memory files afterwards", *_count(len(files), total))
    t.add("files that parse", *_count(parsed, total))
    t.add("`tether check --json` lists", *_count(checked, total))
    t.add("`tether recall` matched (a term in all of them)", *_count(matched, total))
    t.add("writer errors (refusals, lock or busy errors)", *_count(len(out.errors) - lapses, 0))
    t.add("recalls between writes that missed the writer's own memories", *_count(lapses, 0))
    runs = ", ".join(f"{n} `{c}`" for c, n in sorted(out.cli_runs.items()))
    t.add(f"CLI runs alongside ({runs or 'none'}) that failed or went backwards", *_count(len(out.cli_failures), 0))
    t.add("wall time (2 shared cores)", f"{out.seconds:.0f} s")
    racers = 3 if small else 8
    stored, refused = _race(root.parent / "race", "remember", racers)
    t.add(f"{racers} processes remembering the same fact at once: stored", *_count(stored, 1))
    t.add("... refused as `duplicate`", *_count(refused, racers - 1))
    won, conflicts = _race(root.parent / "race", "supersede", racers)
    t.add(f"{racers} processes superseding one memory at once: successors", *_count(won, 1))
    t.add("... refused as `conflict`", *_count(conflicts, racers - 1))
    t.notes.append(
        "Writers are library driver processes (tests/stress.py), one Tether each, like MCP servers; "
        "`check`, `index` and `recall` run through the real CLI."
    )
    return t


def _race(root: Path, op: str, racers: int) -> tuple[int, int]:
    if not root.exists():
        make_repo(root, 1, 10)
    target = "src/mod0.py::fn_0_0"
    if op == "supersede":
        target = _json(cli(root, "ls", "--json"))["data"][0]["id"]
    lines = race(root, op, target, racers)
    refusal = "ERR duplicate" if op == "remember" else "ERR conflict"
    return sum(line.startswith("ACK") for line in lines), sum(line.startswith(refusal) for line in lines)


# -- crashes --------------------------------------------------------------------------------------
def _crashes(tmp: Path, small: bool) -> Table:
    rounds = 6 if small else 60
    root = tmp / "crash"
    make_repo(root, 2, 20)
    out = run_crashes(root, rounds, seed=7)
    from tether.files.paths import cache_dir
    from tether.service import Tether

    tt = Tether(root)
    live = {m.id for m in tt.memories()[0]}
    tt.close()
    shutil.rmtree(cache_dir(root))
    rebuilt = {i["id"] for i in _json(cli(root, "check", "--json"))["data"]}

    t = Table(f"Reliability: a writer SIGKILLed {rounds} times")
    t.add(
        "rounds: parent's SIGKILL after a random 0-1.5 s / the driver's own right before an os.replace",
        f"{out.external} / {out.targeted}",
    )
    landed = ", ".join(f"{op} {n}" for op, n in sorted(out.in_flight.items(), key=lambda x: -x[1]))
    t.add("operation in flight when the kill landed", landed or "none")
    t.add(
        "operations completed (acknowledged) across the rounds",
        ", ".join(f"{op} {n}" for op, n in sorted(out.acked.items())),
    )
    lost = [v for v in out.violations if "missing" in v or "did not hold" in v]
    t.add("acknowledged writes lost (memory missing, close undone)", *_count(len(lost), 0))
    corrupt = [v for v in out.violations if "corrupt" in v]
    t.add("partial or corrupt memory files (every `.md` parses)", *_count(len(corrupt), 0))
    t.add("temp files left by kills (dot-named, never read as memories)", f"{out.temp_files}")
    t.add(
        "supersedes cut between writing the new memory and closing the old one",
        f"{len(out.interrupted)}, all read as closed",
    )
    other = [v for v in out.violations if v not in lost and v not in corrupt]
    t.add("rounds where check, the search index and the store disagreed or the cache failed", *_count(len(other), 0))
    t.add(
        "cache deleted and rebuilt: `check` lists the same memories",
        "yes" if rebuilt == live else "**no**",
        "yes",
        rebuilt == live,
    )
    t.add("wall time", f"{out.seconds:.0f} s")
    t.notes.append(
        "Verified after every round (tests/stress.py `verify`): every acknowledged id present and "
        "parsing, acknowledged closes closed, `check` and the search index agree with the store."
    )
    return t


# -- hostile input and secrets ------------------------------------------------------------------
def _hostile(tmp: Path, small: bool) -> Table:
    from tests.stress import nested_files

    t = Table("Reliability: hostile and odd input, secrets")
    root = tmp / "hostile"
    make_repo(root, 1, 2)
    size = (5 if small else 50) * MB
    line = b"value = compute(1, 2, 3)  # generated padding, generated padding\n"
    (root / "huge.py").write_bytes(b"def head():\n    return 1\n\n" + line * (size // len(line)))
    for rel, text in nested_files().items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", INDEX_PEAK_PROBE, str(root)], capture_output=True, text=True, timeout=900, check=False
    )
    took = time.perf_counter() - started
    peak = int(proc.stderr.strip().splitlines()[-1]) / 1024
    ok = proc.returncode == 0 and "Traceback" not in proc.stderr
    t.add(
        f"index a {size // MB} MB file + {len(nested_files())} deeply nested files (5,000 levels; YAML 300): crashes",
        *_count(0 if ok else 1, 0),
    )
    t.add("... peak memory / wall time", f"{peak:.0f} MB / {took:.1f} s")
    refused = orjson.loads(cli(root, "remember", "x", "--anchor", "huge.py::head", "--json").stdout)
    t.add(
        "symbol anchor on the huge file",
        refused.get("error", {}).get("code", "accepted"),
        "file_too_large",
        refused.get("error", {}).get("code") == "file_too_large",
    )
    body = subprocess.run(
        [
            sys.executable,
            "-m",
            "tether",
            "--root",
            str(root),
            "remember",
            "-",
            "--anchor",
            "src/mod0.py::fn_0_0",
            "--json",
        ],
        input=b"x" * MB,
        capture_output=True,
        check=False,
    )
    err = orjson.loads(body.stdout).get("error", {})
    t.add(
        "1 MB memory body",
        f"`{err.get('code')}`, limit {err.get('limit')} characters",
        "refused",
        err.get("code") == "invalid_input",
    )

    n, gone = (2_000, 400) if small else (50_000, 10_000)
    swept, count, secs = _vanishing(tmp / "many", n, gone)
    t.add(f"{n:,}-file repo, {gone:,} deleted during the cold sweep: sweep exit code", *_count(swept, 0))
    t.add("... the next sweep counts", *_count(count, n - gone, " files"))
    t.add("... cold sweep wall time", f"{secs:.0f} s")

    from tests.store.test_secrets import NON_SECRETS, SECRETS
    from tether.store.secrets import scan

    caught = sum(1 for _, text, _ in SECRETS if scan(text))
    t.add(
        f"secret gate: generated secrets refused ({len({r for r, _, _ in SECRETS})} rules)",
        *_count(caught, len(SECRETS)),
    )
    false = sum(1 for text in NON_SECRETS if scan(text))
    t.add(f"secret gate: false positives on {len(NON_SECRETS)} realistic non-secrets", *_count(false, 0))
    return t


def _vanishing(root: Path, n: int, gone: int) -> tuple[int, int, float]:
    per_dir = 100
    for i in range(n):
        d = root / f"pkg{i // per_dir:03}"
        if i % per_dir == 0:
            d.mkdir(parents=True)
        (d / f"m{i % per_dir}.py").write_text(f"def f{i}(x):\n    return x * {i} + {i % 7}\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    doomed = [root / f"pkg{i // per_dir:03}" / f"m{i % per_dir}.py" for i in range(0, 2 * gone, 2)]

    def delete() -> None:
        for p in doomed:
            p.unlink()
            time.sleep(0.002)

    started = time.perf_counter()
    sweep = subprocess.Popen(
        [sys.executable, "-m", "tether", "--root", str(root), "index", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(0.5)
    th = threading.Thread(target=delete)
    th.start()
    sweep.communicate(timeout=1800)
    secs = time.perf_counter() - started
    th.join()
    count = _json(cli(root, "index", "--json"))["data"]["files"]
    return sweep.returncode, count, secs
