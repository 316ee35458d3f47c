"""Reliability scenarios shared by the tests and `make bench`: real processes, real files, real SIGKILL.

Run as a script this module is the *driver* a scenario starts several of:

    python tests/stress.py writer ROOT WID COUNT     # COUNT remembers through the library, recalling between
    python tests/stress.py crasher ROOT SEED [OP:N] # random writes until killed (SIGKILL by the parent or,
                                                    # with OP:N, by itself before the Nth os.replace in OP)

Drivers use the library in a loop rather than one CLI process per write: 800 interpreter starts cost
minutes on two shared cores and exercise nothing the library loop does not (the CLI is a thin adapter;
the tests still run `check`, `index` and `recall` through the real CLI alongside the drivers). A long
lived process holding one connection is also what an MCP server is.

Every acknowledged write is printed (`ACK op id...`) and flushed *after* the call returned, so what the
parent reads from the pipe after a kill is exactly what a client was told had been stored.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

SHARED_TAG = "zebraquartz"  # in every memory the concurrency scenario writes: one query matches all
CREWS = (
    "crewalpha",
    "crewbravo",
    "crewcharlie",
    "crewdelta",
    "crewecho",
    "crewfoxtrot",
    "crewgolf",
    "crewhotel",
    "crewindia",
    "crewjuliet",
    "crewkilo",
    "crewlima",
)
MODULES = 10  # source files the writers share, so they race on the same index rows
SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
HERE = Path(__file__).resolve()
SIDE_PAUSE_S = 1.0  # between the CLI check/index runs beside the writers: overlap, not a CPU hog


def word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(4))


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def make_repo(root: Path, writers: int, per_writer: int, commit: bool = True) -> None:
    """A git repository whose MODULES files hold one distinct function per memory to be written."""
    (root / "src").mkdir(parents=True, exist_ok=True)
    for k in range(MODULES):
        lines = []
        for w in range(writers):
            for i in range(k, per_writer, MODULES):
                lines.append(
                    f"def fn_{w}_{i}(x):\n    y = x * {w * 1000 + i + 7}\n    return y - {i} + len(str(y))\n\n"
                )
        (root / "src" / f"mod{k}.py").write_text("".join(lines), encoding="utf-8")
    if commit:
        git(root, "init", "-q", "-b", "main")
        git(root, "-c", "user.email=s@example.com", "-c", "user.name=S", "add", "-A")
        git(
            root,
            "-c",
            "user.email=s@example.com",
            "-c",
            "user.name=S",
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-q",
            "-m",
            "corpus",
        )


def driver(*args: str, env: dict | None = None, stdout=subprocess.PIPE) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(HERE), *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )


# `tether --root ROOT index --json` in this process, then its own peak resident memory in KB on
# stderr's last line. VmHWM, not ru_maxrss: Linux copies the parent's high-water mark into a child's
# ru_maxrss at exec (vfork shares the mm), so under a large pytest process it read the parent's size.
INDEX_PEAK_PROBE = (
    "import resource, sys; sys.argv = ['tether', '--root', sys.argv[1], 'index', '--json']\n"
    "from tether.surfaces.cli.main import main\nmain()\nsys.stdout.flush()\n"
    "try:\n    hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1]\n"
    "except (OSError, IndexError):\n    hwm = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "print(hwm, file=sys.stderr)"
)


def cli(root: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tether", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# -- the writer driver ------------------------------------------------------------------------------
def writer_main(root: str, wid: int, count: int) -> int:
    from tether.errors import TetherError
    from tether.recall.answer import recall
    from tether.service import Tether

    rng = random.Random(wid)
    crew = CREWS[wid]
    t = Tether(root)
    errors = 0
    for i in range(count):
        body = f"{crew} {' '.join(word(rng) for _ in range(5))} {SHARED_TAG}."
        try:
            m = t.remember(body, [f"src/mod{i % MODULES}.py::fn_{wid}_{i}"], kind="fact", tags=[SHARED_TAG, crew])
            print(f"ACK remember {m.id}", flush=True)
            # read-your-writes: every memory this writer stored so far, none of another writer's
            env = recall(t, crew, budget_tokens=2000, limit=5)
            seen = env["meta"]["completeness"]["matched"]
            if seen != i + 1:
                errors += 1
                print(f"ERR recall_lag recall saw {seen} of this writer's {i + 1} memories", flush=True)
        except TetherError as e:
            errors += 1
            print(f"ERR {e.code} {e.message}", flush=True)
    t.close()
    return 1 if errors else 0


def racer_main(root: str, op: str, target: str, go: str) -> int:
    """Wait for the starting gun (a file appearing), then all racers do the same write at once."""
    from tether.errors import TetherError
    from tether.service import Tether

    t = Tether(root)
    t.memories()
    t.index.file(target.split("::")[0])  # warm: the race is on the write, not on opening the cache
    print("READY", flush=True)
    while not os.path.exists(go):
        time.sleep(0.001)
    try:
        if op == "remember":
            m = t.remember("The retry loop gives up after 5 attempts.", [target])
            print(f"ACK remember {m.id}", flush=True)
        else:
            old, new = t.supersede(target, "The retry loop now gives up after 7 attempts.", reason="raised")
            print(f"ACK supersede {old.id} {new.id}", flush=True)
    except TetherError as e:
        print(f"ERR {e.code} {e.message}", flush=True)
    return 0


def race(root: Path, op: str, target: str, racers: int = 8) -> list[str]:
    """`racers` processes, each warmed up and waiting on a starting gun, then the same write at once."""
    go = root.parent / f"go-{op}-{time.time_ns()}"
    procs = [driver("racer", str(root), op, target, str(go)) for _ in range(racers)]
    for p in procs:
        p.stdout.readline()  # READY
    go.touch()
    lines = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=120)
        lines += stdout.splitlines() or [f"ERR exit {p.returncode}: {stderr[-500:]}"]
    return lines


# -- the crash driver -------------------------------------------------------------------------------
OPS = ("remember", "remember", "supersede", "supersede", "retire", "reanchor", "sweep", "recall")


def crasher_main(root: str, seed: int, kill: str | None) -> int:
    """Random remember / supersede / retire / reanchor / sweep / recall until killed.

    `kill` = "OP:N" makes the process SIGKILL itself right before the Nth os.replace inside an OP
    operation ("any" for every op): a completed temp file not yet renamed, or a supersede whose new
    memory is written and whose old one is not yet closed (supersede:2)."""
    from tether.errors import TetherError
    from tether.recall.answer import recall
    from tether.service import Tether

    current = [""]
    if kill:
        target, _, nth = kill.partition(":")
        real_replace, calls = os.replace, [0]

        def replace(src, dst):
            if target in ("any", current[0]):
                calls[0] += 1
                if calls[0] == int(nth):
                    os.kill(os.getpid(), signal.SIGKILL)
            real_replace(src, dst)

        os.replace = replace
    rng = random.Random(seed)
    t = Tether(root)
    files = sorted(p.name for p in (Path(root) / "src").glob("*.py"))
    ops = (target,) if kill and target != "any" else OPS
    while True:
        op = rng.choice(ops)
        live = t.memories()[0]
        if op in ("supersede", "retire", "reanchor") and not live:
            op = "remember"
        current[0] = op
        print(f"BEGIN {op}", flush=True)
        try:
            if op == "remember":
                f = rng.choice(files)
                t.index.file(f"src/{f}")
                fn = rng.choice([s.qualname for s in t.index.symbols(f"src/{f}")] or ["fn_0_0"])
                m = t.remember(f"{word(rng)} {word(rng)} {word(rng)} {word(rng)}.", [f"src/{f}::{fn}"], force=True)
                print(f"ACK remember {m.id}", flush=True)
            elif op == "supersede":
                old = rng.choice(live)
                closed, new = t.supersede(old.id, f"{word(rng)} {word(rng)} {word(rng)} now.", reason="changed")
                print(f"ACK supersede {closed.id} {new.id}", flush=True)
            elif op == "retire":
                m = t.retire(rng.choice(live).id, "gone")
                print(f"ACK retire {m.id}", flush=True)
            elif op == "reanchor":
                m = t.reanchor(rng.choice(live).id)
                print(f"ACK reanchor {m.id}", flush=True)
            elif op == "sweep":  # edit a few files (comments: anchors stay active) so the sweep writes the cache
                for f in rng.sample(files, 3):
                    p, tmp = Path(root) / "src" / f, Path(root) / "src" / f".{f}.edit"
                    tmp.write_text(p.read_text("utf-8") + f"\n# {word(rng)}\n", encoding="utf-8")
                    os.rename(tmp, p)  # whole edits only: a source file cut by the kill would be a test artefact
                t.index.sweep(workers=1)  # no process pool: a killed parent must not orphan workers
                print("ACK sweep -", flush=True)
            else:
                recall(t, word(rng), budget_tokens=1000)
                print("ACK recall -", flush=True)
        except TetherError as e:
            print(f"ERR {e.code} {e.message}", flush=True)


# -- scenarios --------------------------------------------------------------------------------------
@dataclass
class Outcome:
    acked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cli_runs: dict[str, int] = field(default_factory=dict)
    cli_failures: list[str] = field(default_factory=list)
    check_counts: list[int] = field(default_factory=list)
    seconds: float = 0.0


def run_writers(root: Path, writers: int, per_writer: int, side_runs: bool = True) -> Outcome:
    """`writers` driver processes at once, plus `check`/`index` CLI runs in a loop until they finish."""
    out = Outcome()
    started = time.perf_counter()
    procs = [driver("writer", str(root), str(w), str(per_writer)) for w in range(writers)]
    done = threading.Event()

    def side(cmd: str) -> None:
        import orjson

        seen = 0
        while not done.wait(SIDE_PAUSE_S):
            proc = cli(root, cmd, "--json")
            out.cli_runs[cmd] = out.cli_runs.get(cmd, 0) + 1
            if proc.returncode != 0:
                out.cli_failures.append(f"{cmd} exited {proc.returncode}: {proc.stdout[-500:]} {proc.stderr[-500:]}")
            elif cmd == "check":
                count = len(orjson.loads(proc.stdout)["data"])
                out.check_counts.append(count)
                if count < seen:  # memories are only ever added here: a later check must see at least as many
                    out.cli_failures.append(f"check saw {count} memories after an earlier check saw {seen}")
                seen = count

    threads = [threading.Thread(target=side, args=(c,)) for c in (("check", "check", "index") if side_runs else ())]
    for th in threads:
        th.start()
    try:
        for p in procs:
            stdout, stderr = p.communicate(timeout=900)
            for line in stdout.splitlines():
                if line.startswith("ACK "):
                    out.acked.append(line.split()[2])
                elif line.strip():
                    out.errors.append(line)
            if p.returncode != 0 and not any(line.startswith("ERR") for line in stdout.splitlines()):
                out.errors.append(f"writer exited {p.returncode}: {stderr[-2000:]}")
    finally:
        done.set()
        for th in threads:
            th.join()
        for p in procs:
            if p.poll() is None:
                p.kill()
    out.seconds = time.perf_counter() - started
    return out


SELF_KILLS = ("supersede:2", "supersede:1", "remember:1", "retire:1", "reanchor:1", "any:1", "any:3", "any:5")


@dataclass
class Crashes:
    rounds: int = 0
    external: int = 0  # killed by the parent after a random delay
    targeted: int = 0  # killed itself right before a chosen os.replace
    in_flight: dict[str, int] = field(default_factory=dict)  # the operation running when the kill landed
    acked: dict[str, int] = field(default_factory=dict)
    present: set[str] = field(default_factory=set)  # acknowledged as written: must exist and parse
    closed: set[str] = field(default_factory=set)  # acknowledged as superseded or retired
    interrupted: set[str] = field(default_factory=set)  # successors whose predecessor's file was never closed
    temp_files: int = 0  # completed-or-partial temp files left by kills (never read as memories)
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0


def run_crashes(root: Path, rounds: int, seed: int = 0, targeted_every: int = 3) -> Crashes:
    """`rounds` crash drivers one after another, each SIGKILLed mid-work; the store verified after each."""
    rng = random.Random(seed)
    out = Crashes()
    started = time.perf_counter()
    for r in range(rounds):
        kill = SELF_KILLS[(r // targeted_every) % len(SELF_KILLS)] if r % targeted_every == targeted_every - 1 else None
        p = driver("crasher", str(root), str(seed * 1000 + r), *([kill] if kill else []))
        lines = [p.stdout.readline()]  # the first BEGIN: the driver is working, not still importing
        if kill:
            try:
                p.wait(timeout=120)
            except subprocess.TimeoutExpired:
                p.kill()
                out.violations.append(f"round {r}: kill point {kill} never reached")
            out.targeted += 1
        else:
            time.sleep(rng.uniform(0.0, 1.5))
            p.send_signal(signal.SIGKILL)
            out.external += 1
        p.wait()
        lines += p.stdout.read().splitlines()
        err = p.stderr.read()
        p.stdout.close()
        p.stderr.close()
        if p.returncode != -signal.SIGKILL:
            out.violations.append(f"round {r}: driver ended with {p.returncode}, not SIGKILL: {err[-1500:]}")
        _tally(out, lines)
        out.violations += [f"round {r}: {v}" for v in verify(root, out)]
        out.rounds += 1
    out.temp_files = sum(1 for p in (root / ".tether" / "memories").iterdir() if p.name.startswith(".tmp-"))
    out.seconds = time.perf_counter() - started
    return out


def _tally(out: Crashes, lines: list[str]) -> None:
    last = None
    for line in lines:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "BEGIN":
            last = parts[1]
        elif parts[0] == "ACK":
            last = None
            op, ids = parts[1], parts[2:]
            out.acked[op] = out.acked.get(op, 0) + 1
            if op in ("remember", "reanchor"):
                out.present.add(ids[0])
            elif op == "supersede":
                out.present.update(ids)
                out.closed.add(ids[0])
            elif op == "retire":
                out.present.add(ids[0])
                out.closed.add(ids[0])
        elif parts[0] == "ERR":
            last = None
    if last:
        out.in_flight[last] = out.in_flight.get(last, 0) + 1


def verify(root: Path, out: Crashes) -> list[str]:
    """Everything acknowledged is there and parses; closed stays closed; every surface agrees."""
    from tether.service import Tether

    bad = []
    t = Tether(root)
    try:
        every, quarantined = t.memories(include_closed=True)
        bad += [f"corrupt memory file {q.filename}: {q.error}" for q in quarantined]
        ids = {m.id for m in every}
        bad += [f"acknowledged memory {i} is missing" for i in sorted(out.present - ids)]
        live = {m.id for m in t.memories()[0]}
        bad += [f"acknowledged close of {i} did not hold" for i in sorted(out.closed & live)]
        by_id = {m.id: m for m in every}
        out.interrupted |= {
            m.id for m in every if m.live for o in m.links.get("supersedes", []) if o in by_id and by_id[o].live
        }
        checked = {v.memory.id for v in t.check(with_diff=False).verdicts}  # the cache is usable
        if checked != live:
            bad.append(f"check lists {len(checked)} memories, the store has {len(live)} live")
        t.memindex.sync()
        indexed = {r[0] for r in t.memindex.conn.execute("SELECT id FROM mems WHERE closed_ts IS NULL")}
        if indexed != live:
            bad.append(f"search index has {len(indexed ^ live)} current memories the store disagrees on")
    finally:
        t.close()
    return bad


if __name__ == "__main__":
    mode, rest = sys.argv[1], sys.argv[2:]
    if mode == "writer":
        sys.exit(writer_main(rest[0], int(rest[1]), int(rest[2])))
    if mode == "racer":
        sys.exit(racer_main(*rest))
    if mode == "crasher":
        sys.exit(crasher_main(rest[0], int(rest[1]), rest[2] if len(rest) > 2 else None))
    sys.exit(f"unknown mode {mode!r}")


# -- hostile inputs (test_hostile.py and the reliability bench) --------------------------------
DEPTH = 5000


def nested_files() -> dict[str, str]:
    d = DEPTH
    return {
        "deep/brackets.py": "def f():\n    return " + "[" * d + "]" * d + "\n\n\ndef ok():\n    return 2\n",
        "deep/calls.py": "def g():\n    return " + "h(" * d + "1" + ")" * d + "\n",
        # 5,000 nested ifs need 12.5 MB of indentation: skipped as too large, never parsed
        "deep/ifs.py": "def deep(a):\n"
        + "".join(" " * (i + 1) + f"if a > {i}:\n" for i in range(d))
        + " " * (d + 1)
        + "return a\n",
        # 1,000 levels fit: tree-sitter gives up on the nesting (an error tree), the rest is indexed
        "deep/ifs1000.py": "def deep(a):\n"
        + "".join(" " * (i + 1) + f"if a > {i}:\n" for i in range(1000))
        + " " * 1001
        + "return a\n\n\ndef ok():\n    return 2\n",
        "deep/ifs.js": "function deep(a) { "
        + "if (a) { " * d
        + "return a; "
        + "} " * d
        + "}\nfunction ok() { return 2; }\n",
        "deep/arrays.js": "const x = " + "[" * d + "]" * d + ";\nfunction ok() { return 2; }\n",
        "deep/arrows.ts": "export const f = " + "() => " * d + "1;\nexport function ok(): number { return 2; }\n",
        "deep/data.json": "[" * d + "]" * d + "\n",
        "deep/data.toml": "a = " + "[" * d + "]" * d + "\n",
        # past ~250 levels tree-sitter-yaml writes out of bounds and kills the process: refused first
        "deep/nested.yaml": "".join(" " * i + f"k{i}:\n" for i in range(300)) + " " * 300 + "v: 1\n",
        "deep/compact.yaml": "- " * 300 + "x\n",
        "deep/quotes.md": "".join("> " * i + f"# Level {i}\n\ntext\n\n" for i in range(1, 200)),
    }
