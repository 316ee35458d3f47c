"""Recall quality: hit@1, hit@3 and tokens per answer on memories about the standard library.

The store (tests/bench/data/recall_tasks.json) is 100 memories about real stdlib code, several per
file and several on one topic (timeouts, rotation, copying, quoting), and 110 tasks phrased the way
a developer asks an agent. Every task runs twice: with no files in play, and with its `files`.
Baseline: plain BM25 (FTS5 defaults over the raw text, no identifier splitting, no stemming, no
stop-words) with the same x2 same-file boost, returning its top 5 as naive systems do.

    python -m tests.bench.recall_quality          # or through `make bench`
"""

from __future__ import annotations

import math
import re
import sqlite3
import statistics
from pathlib import Path

import orjson

from tests.bench import Table, copy_corpus, git_commit_all, stdlib_dir, workdir

DATA = Path(__file__).with_name("data") / "recall_tasks.json"
BASELINE_TOP = 5


def load(small: bool = False) -> dict:
    doc = orjson.loads(DATA.read_bytes())
    if small:
        keep = {m["key"] for m in doc["memories"][:20]}
        doc["memories"] = [m for m in doc["memories"] if m["key"] in keep]
        doc["tasks"] = [t for t in doc["tasks"] if t["expect"] in keep]
    return doc


def names_identifier(task: str, anchor: str) -> bool:
    """Does the task name the anchored symbol (any dotted part) or its file's stem?"""
    path, _, symbol = anchor.partition("::")
    names = [p for p in symbol.split(".") if p] + [Path(path).stem]
    names = [n for n in names if n != "__init__"]
    return any(re.search(r"(?<![\w])" + re.escape(n) + r"(?![\w])", task, re.IGNORECASE) for n in names)


def build_store(root: Path, memories: list[dict]):
    """A git repo holding the anchored stdlib files, and the memories written through the library."""
    from tether.service import Tether

    files = sorted({m["anchor"].split("::")[0] for m in memories})
    copy_corpus([stdlib_dir() / f for f in files], root)
    git_commit_all(root)
    t = Tether(root)
    ids = {}
    for m in memories:
        ids[t.remember(m["body"], [m["anchor"]], kind=m["kind"]).id] = m["key"]
    return t, ids


def evaluate(t, ids: dict[str, str], tasks: list[dict], with_files: bool) -> dict:
    from tether.recall.answer import recall

    hit1 = hit3 = 0
    tokens, sizes = [], []
    for task in tasks:
        env = recall(t, task["task"], task["files"] if with_files else [])
        got = [ids.get(item["id"]) for item in env["data"]["items"]]
        hit1 += bool(got) and got[0] == task["expect"]
        hit3 += task["expect"] in got[:3]
        tokens.append(math.ceil(len(orjson.dumps(env)) / 4))
        sizes.append(len(got))
    n = len(tasks)
    return {
        "hit1": hit1 / n,
        "hit3": hit3 / n,
        "tokens": statistics.mean(tokens),
        "items": statistics.mean(sizes),
        "tokens_p95": sorted(tokens)[int(0.95 * (n - 1))],
    }


def baseline(memories: list[dict], tasks: list[dict], with_files: bool) -> dict:
    """Plain BM25 + file boost: what a generic full-text memory store does."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE m USING fts5(text)")
    for i, m in enumerate(memories):
        path, _, symbol = m["anchor"].partition("::")
        db.execute("INSERT INTO m(rowid, text) VALUES(?, ?)", (i, f"{m['body']} {path} {symbol}"))
    hit1 = hit3 = 0
    tokens = []
    for task in tasks:
        words = re.findall(r"\w+", task["task"])
        if not words:
            continue
        rows = db.execute(
            "SELECT rowid, -bm25(m) FROM m WHERE m MATCH ?", (" OR ".join(f'"{w}"' for w in words),)
        ).fetchall()
        files = set(task["files"]) if with_files else set()
        ranked = sorted(rows, key=lambda r: -r[1] * (2.0 if memories[r[0]]["anchor"].split("::")[0] in files else 1.0))
        got = [memories[r[0]]["key"] for r in ranked[:BASELINE_TOP]]
        hit1 += bool(got) and got[0] == task["expect"]
        hit3 += task["expect"] in got[:3]
        answer = [
            {
                "id": "00000000-0000-0000-0000-000000000000",
                "kind": memories[r[0]]["kind"],
                "body": memories[r[0]]["body"],
                "anchor": memories[r[0]]["anchor"],
            }
            for r in ranked[:BASELINE_TOP]
        ]
        tokens.append(math.ceil(len(orjson.dumps(answer)) / 4))
    n = len(tasks)
    return {"hit1": hit1 / n, "hit3": hit3 / n, "tokens": statistics.mean(tokens)}


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def run(small: bool = False) -> list[Table]:
    doc = load(small)
    memories, tasks = doc["memories"], doc["tasks"]
    anchors = {m["key"]: m["anchor"] for m in memories}
    plain = [t for t in tasks if not names_identifier(t["task"], anchors[t["expect"]])]
    with workdir("recall-quality") as tmp:
        t, ids = build_store(tmp / "repo", memories)
        try:
            none = evaluate(t, ids, tasks, with_files=False)
            files = evaluate(t, ids, tasks, with_files=True)
            plain_none = evaluate(t, ids, plain, with_files=False)
        finally:
            t.close()
    base_none, base_files = baseline(memories, tasks, False), baseline(memories, tasks, True)
    table = Table(f"Recall quality ({len(memories)} memories on stdlib code, {len(tasks)} tasks)")
    table.add("hit@3, no files in play", pct(none["hit3"]), ">= 90%", none["hit3"] >= 0.90)
    table.add("hit@3, files in play", pct(files["hit3"]), ">= 98%", files["hit3"] >= 0.98)
    table.add("hit@1, no files / files", f"{pct(none['hit1'])} / {pct(files['hit1'])}")
    table.add(
        "mean tokens per answer, no files / files",
        f"{none['tokens']:.0f} / {files['tokens']:.0f}",
        "<= 400",
        max(none["tokens"], files["tokens"]) <= 400,
    )
    table.add("p95 tokens per answer, no files / files", f"{none['tokens_p95']} / {files['tokens_p95']}")
    table.add("mean memories per answer, no files / files", f"{none['items']:.2f} / {files['items']:.2f}")
    table.add(f"hit@3, no files, {len(plain)} tasks naming no identifier of the anchor", pct(plain_none["hit3"]))
    table.add(
        "baseline BM25 + file boost: hit@1 / hit@3, no files", f"{pct(base_none['hit1'])} / {pct(base_none['hit3'])}"
    )
    table.add(
        "baseline BM25 + file boost: hit@1 / hit@3, files", f"{pct(base_files['hit1'])} / {pct(base_files['hit3'])}"
    )
    table.add(f"baseline tokens per answer (top {BASELINE_TOP})", f"{base_none['tokens']:.0f}")
    table.notes.append("tokens = ceil(characters / 4) of the compact JSON envelope returned, meta included")
    table.notes.append(f"{len(plain)} of {len(tasks)} tasks name neither the anchored symbol nor its file")
    table.data = {
        "none": none,
        "files": files,
        "plain_none": plain_none,
        "baseline_none": base_none,
        "baseline_files": base_files,
        "tasks": len(tasks),
        "memories": len(memories),
        "plain_tasks": len(plain),
    }
    return [table]


def main() -> None:
    for table in run():
        print(table.markdown() + "\n")


if __name__ == "__main__":
    main()
