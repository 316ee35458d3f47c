"""Recall across vocabulary, on memories written from three real projects' history.

The data (tests/bench/data/recall_history.json, see its `about`) is 132 memories written by a
helper session from the changelogs of urllib3 2.2.1, marshmallow 3.21.1 and werkzeug 3.0.1, each
anchored to the function it explains, with one developer task per memory that avoids the code's
identifiers and the memory's words. It was written before the ranking it measures was changed.
Every third memory of each project is held aside: the ranking was tuned on the training part
only, and the held-aside figures are the ones to trust. 30 more tasks by a reader who saw only the
memories (data/recall_history_extra.json) are the independent check.

One store per project, as teams keep them: the project's sdist committed to a git repository and
its memories written through the library. Measured per task:
- cold: the task alone (no files in play); working: the task with the anchored file in play;
- tokens: ceil(characters / 4) of the whole JSON answer;
- push: the prompt hook's decision (floor, dominance and the named-file bypass, a fresh session
  per prompt) on each task and on the chat-style `related_prompts` (right = the expected memory),
  and on `unrelated_prompts` about other codebases, asked of every store (any push is wrong).

Needs the three sdists from PyPI (cached under ~/.cache/tether-bench/recall, shared with
data/recall_history_check.py); without them the table says so.

    python -m tests.bench recall_history
    TETHER_BENCH_TRAIN_ONLY=1 python -m tests.bench recall_history   # while tuning: no held-aside rows
"""

from __future__ import annotations

import math
import os
import statistics
import tarfile
from pathlib import Path, PurePosixPath

import orjson

from tests.bench import Table, git_commit_all, workdir

DATA = Path(__file__).with_name("data") / "recall_history.json"
EXTRA = Path(__file__).with_name("data") / "recall_history_extra.json"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tether-bench" / "recall"
MAX_FILE = 512 * 1024


def sdist(name: str, version: str) -> Path | None:
    """The project's sdist in the cache, downloaded once from PyPI; None when it cannot be had."""
    from tests.bench.data import recall_history_check as check

    found = check.find_sdist(str(CACHE), name, version, None)
    if found is None:
        try:
            check.download(str(CACHE), name, version)
        except Exception:  # noqa: BLE001 - offline: the table says so
            return None
        found = check.find_sdist(str(CACHE), name, version, None)
    return Path(found) if found else None


def extract(archive: Path, root: Path) -> None:
    """The sdist's text files below its top directory (tests included: a real checkout has them)."""
    with tarfile.open(archive) as tar:
        for m in tar:
            rel = PurePosixPath(*PurePosixPath(m.name).parts[1:])
            if not m.isfile() or not rel.parts or ".." in rel.parts or m.size > MAX_FILE:
                continue
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(tar.extractfile(m).read())  # type: ignore[union-attr]


def build(root: Path, archive: Path, memories: list[dict]):
    from tether.errors import AnchorAmbiguous
    from tether.service import Tether

    extract(archive, root)
    git_commit_all(root, archive.name)
    t = Tether(root)
    ids = {}
    for m in memories:
        try:
            written = t.remember(m["body"], [m["anchor"]], kind=m["kind"], summary=m["summary"])
        except AnchorAmbiguous as e:  # typing.overload stubs: the implementation is the last one
            last = e.details["candidates"][-1]  # type: ignore[index]
            written = t.remember(m["body"], [last], kind=m["kind"], summary=m["summary"])
        ids[written.id] = m["id"]
    t.memindex.fill_vectors()  # the steady state: every memory embedded (`tether index` does the same)
    return t, ids


def answer_stats(t, ids: dict[str, str], tasks: list[tuple[str, str, list[str]]]) -> list[dict]:
    """Per task: the rank of the expected memory (None: not returned) and the answer's tokens."""
    from tether.recall.answer import recall

    out = []
    for expect, text, files in tasks:
        env = recall(t, text, files)
        got = [ids.get(item["id"]) for item in env["data"]["items"]]
        rank = got.index(expect) + 1 if expect in got else None
        out.append({"expect": expect, "rank": rank, "tokens": math.ceil(len(orjson.dumps(env)) / 4)})
    return out


def pushes(root: Path, ids: dict[str, str], prompts: list[str]) -> list[str | None]:
    """What the prompt hook would push for each prompt in a fresh session: a memory key or None."""
    from tether.surfaces.hooks.handlers import floor as push_floor
    from tether.surfaces.hooks.push import decide
    from tether.surfaces.hooks.scoring import PushIndex, mentions_path, named_files, without_paths
    from tether.surfaces.hooks.session import SessionState

    ix = PushIndex(root)
    try:
        floor = push_floor()
        out = []
        for p in prompts:
            named = named_files(ix.anchored(), p, root) if mentions_path(p) else {}
            in_file = dict(ix.candidates(without_paths(p))) if named else None
            d = decide(
                ix.candidates(p),
                SessionState(),
                floor,
                lambda _id: True,
                named,
                lambda i, p=p: ix.agrees(p, i),
                in_file,
            )
            out.append(ids.get(d.memory_id) if d.memory_id else None)
        return out
    finally:
        ix.close()


def summarize(rows: list[dict]) -> dict:
    n = len(rows) or 1
    return {
        "n": len(rows),
        "hit1": sum(r["rank"] == 1 for r in rows) / n,
        "hit3": sum(r["rank"] is not None and r["rank"] <= 3 for r in rows) / n,
        "tokens": statistics.mean(r["tokens"] for r in rows) if rows else 0.0,
    }


def push_summary(got: list[str | None], expect: list[str]) -> dict:
    pushed = [(g, e) for g, e in zip(got, expect) if g is not None]
    right = sum(g == e for g, e in pushed)
    return {
        "n": len(expect),
        "pushed": len(pushed),
        "right": right,
        "precision": right / len(pushed) if pushed else 1.0,
        "coverage": right / len(expect) if expect else 0.0,
    }


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def run(small: bool = False) -> list[Table]:
    doc = orjson.loads(DATA.read_bytes())
    extra = orjson.loads(EXTRA.read_bytes())["tasks"]
    train_only = os.environ.get("TETHER_BENCH_TRAIN_ONLY") == "1"
    memories = doc["memories"]
    if small:
        memories = [m for m in memories if m["project"] == "marshmallow"][:12]
    projects = {name: p for name, p in doc["projects"].items() if any(m["project"] == name for m in memories)}
    archives = {name: sdist(name, p["version"]) for name, p in projects.items()}
    title = f"Recall across vocabulary ({len(memories)} memories from the history of {', '.join(projects)})"
    if any(a is None for a in archives.values()):
        table = Table(title)
        table.add("not measured", "the sdists are neither cached nor downloadable (offline)")
        return [table]
    split = {m["id"]: m["split"] for m in memories}
    related = {r["memory"]: r["prompt"] for r in doc["related_prompts"]}
    rows: dict[str, list[dict]] = {"cold": [], "working": [], "extra": []}
    push_got: dict[str, list] = {"task": [], "related": []}
    push_expect: dict[str, list] = {"task": [], "related": []}
    push_split: dict[str, list] = {"task": [], "related": []}
    unrelated_pushed = unrelated_asked = 0
    with workdir("recall-history") as tmp:
        for name in projects:
            mine = [m for m in memories if m["project"] == name]
            root = tmp / name
            t, ids = build(root, archives[name], mine)  # type: ignore[arg-type]
            try:
                anchor_file = {m["id"]: m["anchor"].split("::")[0] for m in mine}
                rows["cold"] += answer_stats(t, ids, [(m["id"], m["task"], []) for m in mine])
                rows["working"] += answer_stats(t, ids, [(m["id"], m["task"], [anchor_file[m["id"]]]) for m in mine])
                rows["extra"] += answer_stats(
                    t, ids, [(x["memory"], x["task"], []) for x in extra if x["memory"] in ids.values()]
                )
            finally:
                t.close()
            for kind, items in (
                ("task", [(m["id"], m["task"]) for m in mine]),
                ("related", [(k, related[k]) for k in anchor_file if k in related]),
            ):
                push_got[kind] += pushes(root, ids, [p for _, p in items])
                push_expect[kind] += [k for k, _ in items]
                push_split[kind] += [split[k] for k, _ in items]
            unrelated = doc["unrelated_prompts"][: 8 if small else None]
            unrelated_pushed += sum(g is not None for g in pushes(root, ids, unrelated))
            unrelated_asked += len(unrelated)
    table = Table(title)
    parts = ("train",) if train_only else ("train", "held_out")
    for part in parts:
        cold = summarize([r for r in rows["cold"] if split[r["expect"]] == part])
        working = summarize([r for r in rows["working"] if split[r["expect"]] == part])
        label = "training part" if part == "train" else "HELD-ASIDE part"
        table.add(
            f"{label} ({cold['n']} tasks): cold hit@1 / hit@3",
            f"{pct(cold['hit1'])} / {pct(cold['hit3'])}",
            "hit@3 >= 90%",
            cold["hit3"] >= 0.90,
        )
        table.add(
            f"{label}: working (file in play) hit@1 / hit@3",
            f"{pct(working['hit1'])} / {pct(working['hit3'])}",
            "hit@3 >= 98%",
            working["hit3"] >= 0.98,
        )
        table.add(
            f"{label}: mean tokens per answer, cold / working",
            f"{cold['tokens']:.0f} / {working['tokens']:.0f}",
            "<= 400",
            max(cold["tokens"], working["tokens"]) <= 400,
        )
        for kind, what in (("task", "the tasks"), ("related", "chat-style related prompts")):
            got = [g for g, s in zip(push_got[kind], push_split[kind]) if s == part]
            exp = [e for e, s in zip(push_expect[kind], push_split[kind]) if s == part]
            p = push_summary(got, exp)
            table.add(
                f"{label}: push on {what} ({p['n']}): precision / right memory pushed",
                f"{pct(p['precision'])} ({p['right']}/{p['pushed']}) / {pct(p['coverage'])}",
                "precision >= 90%",
                p["precision"] >= 0.90,
            )
    rate = unrelated_pushed / unrelated_asked if unrelated_asked else 0.0
    table.add(
        f"unrelated prompts pushed ({unrelated_asked // len(projects)} prompts x {len(projects)} stores)",
        f"{unrelated_pushed}/{unrelated_asked}",
        "<= 1 in 40",
        rate <= 1 / 40,
    )
    if not train_only:
        ex = summarize(rows["extra"])
        table.add(
            f"independent reader's {ex['n']} tasks: cold hit@1 / hit@3",
            f"{pct(ex['hit1'])} / {pct(ex['hit3'])}",
            "hit@3 >= 90%",
            ex["hit3"] >= 0.90,
        )
    table.notes.append(
        "memories and tasks written by a helper session from the projects' changelogs, before the ranking was "
        "changed; the reader's tasks by another who saw only the memories"
    )
    table.notes.append("tokens = ceil(characters / 4) of the compact JSON envelope returned, meta included")
    table.data = {"rows": rows, "push": push_got, "unrelated_pushed": unrelated_pushed}
    return [table]


if __name__ == "__main__":
    for t in run():
        print(t.markdown())
