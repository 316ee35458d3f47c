"""A `git pull` of a thousand memory files: the first recall after it, which indexes them all at once,
answers as a recall does once the store has settled (a fresh clone of the same commit, its files
older than the racy window)."""

from __future__ import annotations

import random
import shutil
import subprocess
import time
from pathlib import Path

import orjson

from tests.bench.hook_latency import write_memories
from tests.conftest import Repo
from tests.recall.test_recall import OTHER, SRC
from tether.service import Tether
from tether.store.memory import dumps

QUERIES = ("zeppelin mooring", "quokka burrow", "wombat tunnel", "cache decode timeout", "retry fetch pool batch")
RACY_WAIT = 2.2  # files/stamps.py RACY_NS, and a little


def _clone(src: Path, dst: Path) -> Repo:
    subprocess.run(["git", "clone", "-q", str(src), str(dst)], check=True, capture_output=True)
    return Repo(dst)  # init again is harmless: it keeps the clone's history and origin


def _write(root: Path, m) -> str:
    name = f"{m.kind}--{m.short_id}.md"
    (root / ".tether" / "memories" / name).write_bytes(dumps(m))
    return name


def _recalls(repo: Repo) -> list[dict]:
    out = []
    for q in QUERIES:
        data = orjson.loads(repo.run("recall", q, "--json").stdout)["data"]
        out.append(data)
    return out


def test_first_recall_after_a_pull_of_a_thousand_files_answers_as_a_settled_store(tmp_path):
    up = Repo(tmp_path / "up")
    up.write("src/http.py", SRC)
    up.write("src/billing/invoice.py", OTHER)
    up.commit("code")
    t = Tether(up.path)
    t.reindex()
    # every function is anchored before the pull, so its code is known to both clones alike
    old = write_memories(up.path, t, 60, random.Random(1))
    shutil.rmtree(up.path / ".tether" / "memories")
    (up.path / ".tether" / "memories").mkdir()
    said = ("zeppelin mooring mast", "quokka burrow", "wombat burrow")
    old = [m.replace(summary=s, body=f"{s}: {m.body}") for m, s in zip(old, said)] + old[3:]
    names = [_write(up.path, m) for m in old]
    up.commit("memories")

    work = _clone(up.path, tmp_path / "work")
    work.check()  # the clone indexed, its memories resolved, before the pull

    new = write_memories(up.path, t, 1_000, random.Random(2), start=1_000)
    t.close()
    # the pull also supersedes one memory, deletes one, rewrites one, and brings a broken file
    successor = new[0].replace(
        summary="zeppelin mooring moved",
        body="zeppelin mooring moved to the east mast",
        links={"supersedes": [old[0].id]},
    )
    for p in (up.path / ".tether" / "memories").glob(f"*--{new[0].short_id}.md"):
        p.unlink()
    _write(up.path, successor)
    (up.path / ".tether" / "memories" / names[1]).unlink()
    _write(up.path, old[2].replace(summary="wombat tunnel", body="wombat tunnel under the fence"))
    up.write(".tether/memories/broken--0badf00d.md", "---\n{not json\n---\nzeppelin mooring quokka wombat\n")
    up.commit("a thousand memories")

    work.git("pull", "-q", "--no-rebase")
    pulled = _recalls(work)  # within seconds of the pull: the files are new to the index

    settled = _clone(up.path, tmp_path / "settled")
    time.sleep(RACY_WAIT)
    settled.check(quarantined=True)
    assert _recalls(settled) == pulled

    ids = [[item["id"] for item in data["items"]] for data in pulled]
    assert successor.id in ids[0] and old[0].id not in ids[0]  # the superseded one is never current
    assert old[1].id not in ids[1]  # deleted by the pull
    assert old[2].id in ids[2]  # rewritten by the pull: found by its new words
    assert pulled[3]["items"], "the pulled memories are found"
