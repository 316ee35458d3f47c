"""Recall latency in process at 1,000 and 10,000 memories, and one MCP round trip.

Memories are anchored to real symbols of a stdlib corpus; their bodies are the symbol's name and
two sentences drawn from the corpus's own comments and docstrings (real technical English, so the
vocabulary has a natural long tail). Queries take a few words of one memory plus common developer
words, half with a file in play. Timed on a store unchanged for longer than the racy-timestamp
window (steady state); the cold sync that parses every memory file once is reported separately.

    python -m tests.bench.recall_latency          # or through `make bench`
"""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import sys
import time
from pathlib import Path

from tests.bench import Table, copy_corpus, git_commit_all, ms, stdlib_files, workdir

# common developer words mixed into every query, so queries also carry frequent, weak terms
VOCAB = """cache retry timeout buffer encoding parse header thread lock queue error exception slow memory
path file directory format string test fail crash config default value return call change""".split()
KINDS = ("decision", "fact", "gotcha", "failed-attempt", "convention")
RACY_WAIT = 2.2  # seconds: the memory index trusts its directory stamp only once it is older than 2 s


def sentences(root: Path) -> list[str]:
    """Sentences from the corpus's comments and docstrings: the prose memories are written in."""
    out = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text("utf-8", "replace")
        prose = re.findall(r"^\s*#\s?(.+)$", text, re.M) + re.findall(r'"""(.*?)"""', text, re.S)
        for chunk in prose:
            for sentence in re.split(r"(?<=[.!?])\s+", " ".join(chunk.split())):
                if 40 <= len(sentence) <= 200 and sentence[0].isalpha():
                    out.append(sentence)
    return out


def write_memories(root: Path, t, n: int, start: int, rng: random.Random, prose: list[str]) -> list:
    """`n` memory files anchored to random indexed symbols, written directly (no fsync per file),
    with the anchored code kept as remember() keeps it (for diffs)."""
    from tether.index.db import transaction
    from tether.store.memory import dumps, slug
    from tether.store.model import Anchor, Memory, now_iso

    rows = t.index.conn.execute(
        "SELECT s.path, s.qualname, s.hash, s.end_byte - s.start_byte, f.language FROM symbols s JOIN files f ON f.path = s.path "
        "WHERE s.end_byte - s.start_byte >= 200 AND s.kind IN ('function', 'method', 'class') "
        "AND (SELECT count(*) FROM symbols o WHERE o.path = s.path AND o.qualname = s.qualname) = 1 "
        "ORDER BY s.path, s.start_byte"  # the same memories whatever order the sweep wrote rows in
    ).fetchall()
    out = []
    d = root / ".tether" / "memories"
    d.mkdir(parents=True, exist_ok=True)
    now = now_iso()
    for i in range(start, start + n):
        path, qualname, hash_, size, lang = rng.choice(rows)
        body = f"{qualname}: {rng.choice(prose)} {rng.choice(prose)}"
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
    with transaction(t.index.conn):
        for m in out:
            a = m.anchors[0]
            row = t.index.conn.execute(
                "SELECT start_byte, end_byte FROM symbols WHERE path=? AND qualname=?", (a.path, a.symbol)
            ).fetchone()
            t.index.keep_snippet(a.hash, t.index.read_text(a.path, row[0], row[1]) or "")
    return out


def queries(memories: list, rng: random.Random, n: int = 200) -> list[tuple[str, list[str]]]:
    out = []
    for k in range(n):
        m = rng.choice(memories)
        words = [w for w in re.findall(r"[A-Za-z]{4,}", m.body)] or ["code"]
        picked = rng.sample(words, min(3, len(words)))
        task = f"why does {' '.join(picked)} {rng.choice(VOCAB)} when I {rng.choice(VOCAB)} the {rng.choice(VOCAB)}"
        out.append((task, [m.anchors[0].path] if k % 2 else []))
    return out


def percentiles(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def measure(t, qs: list[tuple[str, list[str]]]) -> dict[str, tuple[float, float]]:
    from tether.recall.answer import recall

    for task, files in qs[:20]:  # warm the code index rows and the page cache
        recall(t, task, files)
    search, full = [], []
    for task, files in qs:
        s = time.perf_counter()
        t.memindex.search(task, files)
        search.append(time.perf_counter() - s)
        s = time.perf_counter()
        recall(t, task, files)
        full.append(time.perf_counter() - s)
    return {"search": percentiles(search), "recall": percentiles(full)}


async def mcp_round_trip(root: Path, task: str, runs: int = 30) -> tuple[float, float]:
    import os

    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "tether", "--root", str(root), "mcp"],
        env={"TETHER_HOME": os.environ["TETHER_HOME"]},
    )
    with open(os.devnull, "w") as devnull:
        async with Client(stdio_client(params, errlog=devnull)) as client:
            for _ in range(3):
                await client.call_tool("recall", {"task": task})
            times = []
            for _ in range(runs):
                s = time.perf_counter()
                res = await client.call_tool("recall", {"task": task})
                times.append(time.perf_counter() - s)
                assert not res.is_error
    return percentiles(times)


def run(small: bool = False) -> list[Table]:
    from tether.service import Tether

    sizes = (100, 300) if small else (1_000, 10_000)
    rng = random.Random(7)
    table = Table("Recall latency (in process, steady state)")
    with workdir("recall-latency") as tmp:
        root = tmp / "repo"
        copy_corpus(stdlib_files(limit=60 if small else 300), root)
        git_commit_all(root)
        t = Tether(root)
        t.reindex()
        prose = sentences(root)
        memories: list = []
        mcp = None
        for size in sizes:
            memories += write_memories(root, t, size - len(memories), len(memories), rng, prose)
            cold = time.perf_counter()
            t.memindex.sync()
            cold = time.perf_counter() - cold
            time.sleep(RACY_WAIT)
            t.memindex.sync()  # settle the directory stamp now that it is old enough to trust
            embed = time.perf_counter()
            embedded = t.memindex.fill_vectors()  # semantic recall's steady state, as `tether index` leaves it
            embed = time.perf_counter() - embed
            got = measure(t, queries(memories, rng, 60 if small else 200))
            (p50, p95), (s50, s95) = got["recall"], got["search"]
            table.add(f"recall p50 / p95 at {size:,} memories", f"{ms(p50)} / {ms(p95)}", "p50 <= 10 ms", p50 <= 0.010)
            table.add(f"search only (hook path) p50 / p95 at {size:,}", f"{ms(s50)} / {ms(s95)}")
            table.add(f"first sync of {size - (sizes[0] if size != sizes[0] else 0):,} new memory files", ms(cold))
            if embedded:
                table.add(f"embedding {embedded:,} new memories for semantic recall (once, `tether index`)", ms(embed))
            table.data[str(size)] = {"recall": got["recall"], "search": got["search"], "cold_sync": cold}
            if mcp is None:
                mcp = asyncio.run(mcp_round_trip(root, queries(memories, rng, 1)[0][0], 10 if small else 30))
                table.add(
                    f"MCP round trip, one recall over stdio ({size:,} memories) p50 / p95",
                    f"{ms(mcp[0])} / {ms(mcp[1])}",
                )
                table.data["mcp"] = mcp
        t.close()
    table.notes.append(
        "recall = search + re-resolving every returned anchor + budget packing; search = the keyword "
        "ranking a prompt hook would call (MemoryIndex.search)"
    )
    return [table]


def main() -> None:
    for table in run():
        print(table.markdown() + "\n")


if __name__ == "__main__":
    main()
