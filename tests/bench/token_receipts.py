"""Token receipts: tokens recall serves vs the code an agent would read instead, on the standard library.

The store is tests/bench/data/recall_tasks.json: 100 memories anchored to symbols across 40-odd
real stdlib files (copied into a temp git repo) and 110 tasks phrased the way a developer asks,
each naming the memory a good answer contains. Every task is recalled once with no files in play
(the default budget of 1200 tokens). Served: meta.tokens.used, ceil(characters / 4) of the whole
JSON envelope, meta included. Three counterfactuals, all from the anchored code as it is:
  receipt     what `meta.receipt` reports: the anchored source of every active memory served, plus
              receipts.FILE_OVERHEAD per distinct file (the product's own, mechanical number)
  needed      only the expected memory's anchored source plus one file open, and only when it was
              served: irrelevant memories in an answer replace nothing, a miss replaces nothing
  whole file  the expected memory's file plus one open, when served: what Read returns (its
              first 2000 lines, without the line-number prefixes it adds)
The restatement table checks restates.THRESHOLD on tests/bench/data/restates.json.

    python -m tests.bench token_receipts          # or through `make bench`
"""

from __future__ import annotations

import statistics
from pathlib import Path

import orjson

from tests.bench import Table, copy_corpus, git_commit_all, stdlib_dir, workdir
from tests.bench.recall_quality import build_store, load

RESTATES = Path(__file__).with_name("data") / "restates.json"
READ_LINES = 2000  # Read's default line limit: a longer file is not returned whole


def measure(t, ids: dict[str, str], tasks: list[dict]) -> dict:
    from tether.recall.answer import recall
    from tether.recall.receipts import FILE_OVERHEAD, Pricer, code_tokens

    key_of = ids  # memory id -> key
    id_of = {k: i for i, k in ids.items()}
    served = receipt = needed = whole = hits = 0
    per_task = []
    for task in tasks:
        env = recall(t, task["task"], [])
        used = env["meta"]["tokens"]["used"]
        served += used
        receipt += env["meta"]["receipt"]["replaced_tokens"]
        got = [key_of.get(item["id"]) for item in env["data"]["items"]]
        if task["expect"] in got:
            hits += 1
            v = t.verdict(id_of[task["expect"]])
            pricer = Pricer(t.index)
            pricer.add(v)
            own = pricer.replaced([v.memory.id])[0]
            paths = {r.path or a.path for a, r in v.anchors}
            needed += own
            whole += sum(code_tokens(read_default(pricer.data(p) or b"")) + FILE_OVERHEAD for p in paths)
            per_task.append(own / used)
        else:
            per_task.append(0.0)
    n = len(tasks)
    return {
        "tasks": n,
        "hits": hits,
        "needed_per_hit": needed / max(1, hits),
        "served": served,
        "receipt": receipt,
        "needed": needed,
        "whole": whole,
        "served_mean": served / n,
        "median_task_ratio": statistics.median(per_task),
    }


def read_default(data: bytes) -> bytes:
    """What Claude Code's Read returns without an offset: the first READ_LINES lines."""
    return b"".join(data.splitlines(keepends=True)[:READ_LINES])


def calibrate() -> dict[str, list[float]]:
    """restates.said of each hand-labelled memory on its anchored stdlib code, by class."""
    from tether.recall import restates
    from tether.recall.receipts import Pricer
    from tether.service import Tether

    doc = orjson.loads(RESTATES.read_bytes())
    with workdir("restates") as tmp:
        root = tmp / "repo"
        copy_corpus([stdlib_dir() / f for f in sorted({m["anchor"].split("::")[0] for m in doc["memories"]})], root)
        git_commit_all(root)
        t = Tether(root)
        out: dict[str, list[float]] = {}
        try:
            for m in doc["memories"]:
                mem = t.remember(m["body"], [m["anchor"]], kind=m["kind"], force=True)
                sources = Pricer(t.index).sources(t.resolver().memory(mem))
                code = restates.code_terms([s for _, s in sources], [p for p, _ in sources])
                out.setdefault(m["class"], []).append(restates.said(restates.memory_text(mem.body, mem.summary), code))
        finally:
            t.close()
    return out


def bench_said(t, ids: dict[str, str]) -> list[float]:
    """restates.said of the recall benchmark's memories (documentation-style, not labelled)."""
    from tether.recall import restates
    from tether.recall.receipts import Pricer

    out = []
    for mid in ids:
        v = t.verdict(mid)
        sources = Pricer(t.index).sources(v)
        code = restates.code_terms([s for _, s in sources], [p for p, _ in sources])
        out.append(restates.said(restates.memory_text(v.memory.body, v.memory.summary), code))
    return out


def x(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b else "n/a"


def run(small: bool = False) -> list[Table]:
    from tether.recall import restates
    from tether.recall.receipts import FILE_OVERHEAD

    doc = load(small)
    memories, tasks = doc["memories"], doc["tasks"]
    with workdir("token-receipts") as tmp:
        t, ids = build_store(tmp / "repo", memories)
        try:
            r = measure(t, ids, tasks)
            said = bench_said(t, ids)
            files = len({m["anchor"].split("::")[0] for m in memories})
        finally:
            t.close()
    table = Table(
        f"Token receipts ({len(memories)} memories on {files} stdlib files, {len(tasks)} tasks, no files in play)"
    )
    table.add("tokens served per recall (mean, envelope included)", f"{r['served_mean']:.0f}")
    table.add("receipt: anchored code of every active memory served / served", x(r["receipt"], r["served"]))
    table.add(
        "needed: the expected memory's anchored code, when served / served",
        x(r["needed"], r["served"]),
        "> 1x",
        r["needed"] > r["served"],
    )
    table.add("whole file: the expected memory's file, when served / served", x(r["whole"], r["served"]))
    table.add("tokens of the expected memory's anchored code + one open, per hit (mean)", f"{r['needed_per_hit']:.0f}")
    table.add("median per-task ratio (needed / served; a miss counts 0)", f"{r['median_task_ratio']:.2f}x")
    table.add("tasks whose expected memory was served", f"{r['hits']} of {r['tasks']}")
    table.notes.append(
        f"tokens = ceil(characters / 4); a file open costs {FILE_OVERHEAD} tokens (receipts.FILE_OVERHEAD)"
    )
    table.notes.append(
        "served counts every recall, misses included; `needed` and `whole file` count only the memory "
        "the task needs, so answers padded with other memories do not raise them"
    )
    table.data = dict(r, file_overhead=FILE_OVERHEAD)

    cal = calibrate()
    th = restates.THRESHOLD
    ct = Table(f"Restatement threshold ({sum(len(v) for v in cal.values())} hand-labelled memories on stdlib code)")
    for cls in ("restates", "mixed", "adds"):
        xs = sorted(cal.get(cls, []))
        if xs:
            ct.add(f"said, {cls}: min / median / max", f"{xs[0]:.2f} / {statistics.median(xs):.2f} / {xs[-1]:.2f}")
    right = sum(1 for v in cal.get("restates", []) if v >= th) + sum(
        1 for c in ("mixed", "adds") for v in cal.get(c, []) if v < th
    )
    total = sum(len(v) for v in cal.values())
    ct.add(f"classified right at threshold {th}", f"{right} of {total}", "all", right == total)
    ct.add(
        f"recall-benchmark memories judged already said by the code (>= {th})",
        f"{sum(1 for v in said if v >= th)} of {len(said)}",
    )
    ct.notes.append("said = share of a memory's significant terms (text.terms) found in its anchored source's terms")
    ct.data = {"classes": cal, "threshold": th, "bench_said": said}
    return [table, ct]


def main() -> None:
    for table in run():
        print(table.markdown() + "\n")


if __name__ == "__main__":
    main()
