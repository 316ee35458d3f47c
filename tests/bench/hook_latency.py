"""UserPromptSubmit (push-recall) hook latency, whole process, with 1,000 memories.

Runs the real hook script the way Claude Code does (hooks/hooks.json's command through `sh -c`,
a JSON payload on stdin), in a steady state (memory index synced and trusted, code index warm),
over a mix of prompts: unrelated ones (the resting state: silence) and related ones (a memory is
resolved and pushed; each in a fresh session so dedup never short-cuts it). Also timed: the same
script started by the interpreter directly, without the shell and any PATH shim (pyenv's shims
alone cost tens of milliseconds), and a bare `python3 -S -c pass` for the floor under it all.

    python -m tests.bench hook_latency
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from tests.bench import ROOT, Table, copy_corpus, git_commit_all, ms, stdlib_files, workdir

TARGET_P50, TARGET_P95 = 0.060, 0.120
PUSH_SHARE = 0.6  # issue 26: the targets hold on a mix where 60% of prompts push
RACY_WAIT = 2.2  # seconds: the memory index trusts its directory stamp only once it is older than 2 s
KINDS = ("decision", "fact", "gotcha", "failed-attempt", "convention")
VOCAB = """cache retry timeout buffer encoding decode parse header socket thread lock queue worker batch
stream chunk flush rotate fallback exception deadlock race leak rename permission escape quote unicode
precision rounding locale timezone clock heap merge ratio regex glob archive compress checksum seed
proxy certificate handshake redirect cookie session token""".split()
UNRELATED = [
    "add a dark mode toggle to the settings page",
    "write release notes for the next version",
    "bump the copyright year in the license header",
    "why is the CI badge red on the landing page",
    "rename the marketing site's hero banner",
    "set up a pre-commit config with black and ruff",
    "translate the onboarding emails to German",
    "make the sidebar collapsible on mobile",
]


def percentiles(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def hook_command() -> str:
    (group,) = json.loads((ROOT / "hooks" / "hooks.json").read_text())["hooks"]["UserPromptSubmit"]
    return group["hooks"][0]["command"].replace("${CLAUDE_PLUGIN_ROOT}", str(ROOT))


def real_python3() -> str:
    """The interpreter `python3` resolves to, behind any shim: what the launcher runs in."""
    return subprocess.run(
        ["python3", "-c", "import sys; print(sys.executable)"], capture_output=True, text=True
    ).stdout.strip()


CPU: list[float] = []  # user+sys seconds of each timed run: steadier than wall time on a shared machine


PUSHED: list[bool] = []  # whether each timed run pushed a memory (printed context)


def time_runs(argv: list[str], payloads: list[bytes], env: dict, cwd: Path) -> tuple[list[float], int]:
    import resource

    times, pushes = [], 0
    for data in payloads:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        s = time.perf_counter()
        proc = subprocess.run(argv, input=data, capture_output=True, env=env, cwd=cwd)
        times.append(time.perf_counter() - s)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        assert proc.returncode == 0 and not proc.stderr, proc.stderr
        pushes += bool(proc.stdout.strip())
        PUSHED.append(bool(proc.stdout.strip()))
    return times, pushes


def mix(times: list[float], pushed: list[bool], share: float = PUSH_SHARE) -> tuple[list[float], int, int]:
    """The largest sample of `times` in which `share` of the prompts pushed (issue 26's mix): all
    runs of the scarcer kind, in order, and as many of the other as the share asks."""
    push = [t for t, p in zip(times, pushed) if p]
    silent = [t for t, p in zip(times, pushed) if not p]
    n = int(min(len(push) / share, len(silent) / (1 - share)))
    k = round(n * share)
    return push[:k] + silent[: n - k], k, n - k


def write_memories(root: Path, t, n: int, rng: random.Random, start: int = 0) -> list:
    """`n` memory files anchored to real, uniquely named symbols of the corpus, written directly
    (ids numbered from `start`, so batches written one after another never share one)."""
    from tether.recall.text import words
    from tether.store.memory import dumps, slug
    from tether.store.model import Anchor, Memory, now_iso

    rows = t.index.conn.execute(
        "SELECT s.path, s.qualname, s.hash, s.end_byte - s.start_byte, f.language FROM symbols s "
        "JOIN files f ON f.path = s.path WHERE s.kind IN ('function', 'method', 'class') "
        "AND (SELECT count(*) FROM symbols o WHERE o.path = s.path AND o.qualname = s.qualname) = 1 "
        "ORDER BY s.path, s.start_byte"  # the same memories whatever order the sweep wrote rows in
    ).fetchall()
    d = root / ".tether" / "memories"
    d.mkdir(parents=True, exist_ok=True)
    now, out = now_iso(), []
    for i in range(start, start + n):
        path, qualname, hash_, size, lang = rng.choice(rows)
        own = [w for w in words(qualname) if len(w) > 2] or ["code"]
        body = (
            f"{qualname} "
            + " ".join(rng.choice(own + VOCAB) for _ in range(8))
            + ". "
            + " ".join(rng.choice(VOCAB) for _ in range(12))
            + "."
        )
        m = Memory(
            id=f"{i:08x}-0000-4000-8000-{rng.getrandbits(48):012x}",
            kind=rng.choice(KINDS),
            summary=body.split(". ")[0][:120],
            body=body,
            anchors=(Anchor("symbol", path, hash_, size, qualname, None, lang),),
            recorded_at=now,
            valid_from=now,
            verified_at=now,
        )
        (d / f"{slug(m.summary)}--{m.short_id}.md").write_bytes(dumps(m))
        out.append(m)
    return out


@contextmanager
def platform_dirs(tmp: Path):
    """Caches and state where a user's are (platformdirs, under XDG_* pointed into `tmp`), not
    TETHER_HOME: the hook then walks the path it walks in real use, platform-dir lookup included."""
    keys = ("TETHER_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME")
    old = {k: os.environ.get(k) for k in keys}
    os.environ.pop("TETHER_HOME", None)
    for k in keys[1:]:
        os.environ[k] = str(tmp / k.lower())
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run(small: bool = False) -> list[Table]:
    from tether.service import Tether

    n_mem, runs = (100, 12) if small else (1_000, 60)
    rng = random.Random(11)
    table = Table(f"UserPromptSubmit hook, whole process ({n_mem:,} memories)")
    with workdir("hook-latency") as tmp, platform_dirs(tmp):
        root = tmp / "repo"
        copy_corpus(stdlib_files(limit=60 if small else 300), root)
        git_commit_all(root)
        t = Tether(root)
        t.reindex()
        memories = write_memories(root, t, n_mem, rng)
        time.sleep(RACY_WAIT)  # memory files older than the racy window, as a session finds them
        t.memindex.sync()
        t.check(with_diff=False)  # what SessionStart does first in every session (it fills the parsed-file cache)
        t.close()
        time.sleep(RACY_WAIT)  # let the memory dir's stamp age past the racy window, as in a real session
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TETHER_PUSH", "CLAUDE_"))}
        env.update(
            CLAUDE_PLUGIN_ROOT=str(ROOT),
            CLAUDE_PLUGIN_DATA=str(tmp / "data"),
            CLAUDE_PROJECT_DIR=str(root),
            TETHER_VENV=sys.prefix,
            TETHER_NO_AUTO_INSTALL="1",
        )

        def prompt(text: str, session: str) -> bytes:
            return json.dumps(
                {
                    "session_id": session,
                    "transcript_path": "",
                    "cwd": str(root),
                    "hook_event_name": "UserPromptSubmit",
                    "prompt": text,
                }
            ).encode()

        related = []
        for k in range(runs):
            m = rng.choice(memories)
            words = m.body.replace(".", "").split()
            related.append(prompt(f"why does {' '.join(words[:6])} behave like that here?", f"rel-{k}"))
        # issue 26's mix, 60% of prompts pushing, is drawn from these runs by what each did (`mix`):
        # not every related prompt pushes
        unrelated = [prompt(UNRELATED[k % len(UNRELATED)] + f" (take {k})", "quiet") for k in range(runs * 2 // 3)]
        shell = ["sh", "-c", hook_command()]
        direct = [real_python3(), "-S", str(ROOT / "hooks" / "user_prompt_submit.py")]
        time_runs(shell, unrelated[:5] + related[:3], env, root)  # warm the page cache and the code index
        # after the warm-up, new session ids for the related prompts (dedup must not short-cut them)
        related = [p.replace(b'"rel-', b'"rel2-') for p in related]
        CPU.clear()
        PUSHED.clear()
        quiet_t, quiet_pushes = time_runs(shell, unrelated, env, root)
        push_t, pushes = time_runs(shell, related, env, root)
        cpu50, cpu95 = percentiles(CPU)
        quiet_cpu, push_cpu = statistics.median(CPU[: len(quiet_t)]), statistics.median(CPU[len(quiet_t) :])
        mixed, n_push, n_silent = mix(quiet_t + push_t, PUSHED)
        p50, p95 = percentiles(mixed)
        table.add(
            f"all prompts p50 / p95 ({n_push} pushing and {n_silent} silent runs: {PUSH_SHARE:.0%} push; "
            "as hooks.json runs it)",
            f"{ms(p50)} / {ms(p95)}",
            "p50 <= 60 ms, p95 <= 120 ms",
            p50 <= TARGET_P50 and p95 <= TARGET_P95,
        )
        q50, q95 = percentiles(quiet_t)
        table.add(
            f"unrelated prompts (silence: {len(quiet_t) - quiet_pushes}/{len(quiet_t)}) p50 / p95",
            f"{ms(q50)} / {ms(q95)}",
        )
        r50, r95 = percentiles(push_t)
        table.add(f"related prompts (pushed: {pushes}/{len(push_t)}) p50 / p95", f"{ms(r50)} / {ms(r95)}")
        table.add("a push as x a silent prompt (p50)", f"{r50 / q50:.2f}x", "<= 2x", r50 / q50 <= 2.0)
        table.add("CPU time per hook process (user + sys) p50 / p95", f"{ms(cpu50)} / {ms(cpu95)}")
        table.add(
            "CPU p50: silent / push, and a push as x a silent prompt (CPU: steadier on a loaded machine)",
            f"{ms(quiet_cpu)} / {ms(push_cpu)}: {push_cpu / quiet_cpu:.2f}x",
            "<= 2x",
            push_cpu / quiet_cpu <= 2.0,
        )
        d_t, _ = time_runs(direct, unrelated[: runs // 2] + related[: runs // 2], env, root)
        d50, d95 = percentiles(d_t)
        table.add(
            "same prompts, interpreter started directly (no shell, no PATH shim) p50 / p95", f"{ms(d50)} / {ms(d95)}"
        )
        bare, _ = time_runs([real_python3(), "-S", "-c", "pass"], [b""] * runs, env, root)
        b50, b95 = percentiles(bare)
        table.add("floor: bare `python3 -S -c pass` p50 / p95", f"{ms(b50)} / {ms(b95)}")
        table.add("all prompts p50 / p95 as x the bare p50", f"{p50 / b50:.1f}x / {p95 / b50:.1f}x")
        table.data = {
            "all": (p50, p95),
            "quiet": (q50, q95),
            "push": (r50, r95),
            "direct": (d50, d95),
            "bare": (b50, b95),
            "cpu": (cpu50, cpu95),
            "cpu_quiet_push": (quiet_cpu, push_cpu),
            "pushes": pushes,
            "quiet_pushes": quiet_pushes,
            "memories": n_mem,
            "runs": runs,
        }
    shim = shutil.which("python3") or "?"
    table.notes.append(
        f"`python3` on PATH here is {shim} -> {real_python3()}; a shim (pyenv, asdf) adds its own "
        "start-up to every hook: the direct row shows the hook without it"
    )
    table.notes.append(
        "steady state: memory index synced and older than the racy window, code index warm, a "
        "SessionStart's check done (as at the start of every session); the "
        "floor (TETHER_PUSH_FLOOR) is the calibrated default (push_floor); caches and state in "
        "the platform's user dirs, CLAUDE_PLUGIN_DATA set, as inside Claude Code"
    )
    return [table]


def main() -> None:
    for table in run():
        print(table.markdown() + "\n")


if __name__ == "__main__":
    main()
