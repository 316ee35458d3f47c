"""What semantic recall adds to a recall, in process and in a new process.

The per-recall cost is the task's embedding plus its cosine with every memory's vector; embedding a
memory is paid once (at `remember`, or by `tether index` after a pull). Tasks are the recall_history
bench's 132 developer tasks (real questions, 20-60 words); vectors for 1,000 / 10,000 / 30,000
memories are the model's vectors of those memories' texts, repeated (the cosine's cost depends on
the count, not the text). A new process pays numpy's import and the model's load once.

    python -m tests.bench semantic_cost
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import orjson

from tests.bench import Table, ms

DATA = Path(__file__).with_name("data") / "recall_history.json"
TARGET_S = 0.010  # issue 22: at most 10 ms more per recall, in process


def percentiles(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, int(len(xs) * 0.95))]


def run(small: bool = False) -> list[Table]:
    from tether.recall import semantic

    table = Table("Semantic recall: what it adds per recall")
    if semantic.encoder() is None:
        table.add("not measured", f"the model is not installed ({semantic.status()})")
        return [table]
    import numpy as np

    from tether.recall.semantic import vectors

    memories = orjson.loads(DATA.read_bytes())["memories"][: 20 if small else None]
    model = semantic.encoder()
    assert model is not None
    tasks = [m["task"] for m in memories]
    for t in tasks[:5]:
        vectors.query(t)  # warm
    encode = []
    for t in tasks:
        s = time.perf_counter()
        vectors.query(t)
        encode.append(time.perf_counter() - s)
    p50, p95 = percentiles(encode)
    table.add(f"embedding the task, p50 / p95 ({len(tasks)} real tasks)", f"{ms(p50)} / {ms(p95)}")
    docs = model.encode([f"{m['summary']}\n{m['body']}" for m in memories])
    q = vectors.query(tasks[0])
    assert q is not None
    for n in (1_000, 10_000) if small else (1_000, 10_000, 30_000):
        matrix = np.resize(docs.astype(np.float16), (n, docs.shape[1])).astype(np.float32)
        times = []
        for _ in range(50):
            s = time.perf_counter()
            sims = matrix @ q
            {i: float(x) for i, x in enumerate(sims)}  # as vectors.cosines hands them on
            times.append(time.perf_counter() - s)
        c50, _ = percentiles(times)
        table.add(
            f"task embedding + cosine with {n:,} memories, p50",
            ms(p50 + c50),
            "<= 10 ms in process",
            p50 + c50 <= TARGET_S,
        )
    s = time.perf_counter()
    docs_t = model.encode([f"{m['summary']}\n{m['body']}" for m in memories])
    per = (time.perf_counter() - s) / len(memories)
    table.add("embedding one memory (once, at remember or `tether index`), mean", ms(per))
    assert docs_t.shape == docs.shape
    code = (
        "import time; s = time.perf_counter(); from tether.recall import semantic; m = semantic.encoder(); "
        "m.encode(['warm']); print(time.perf_counter() - s)"
    )
    loads = []
    for _ in range(3 if small else 5):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        loads.append(float(out.stdout.strip()))
    table.add("a new process: numpy import + model load + first pass, median", ms(statistics.median(loads)))
    table.notes.append(
        "the prompt hook never pays any of it; a CLI `recall` pays the new-process row once, the MCP server once per session"
    )
    return [table]


if __name__ == "__main__":
    for t in run():
        print(t.markdown())
