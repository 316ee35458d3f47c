"""The hooks' view of the recall engine's memory index: scores for push-recall, anchored paths, ids.

`candidates` is the one adapter between push-recall and a scorer: prompt -> [(memory id, score)],
best first. It uses `tether.recall.search.MemoryIndex.search` (BM25F x term coverage x kind x base
confidence; the engine's `score`), which is absolute in the sense the floor needs: a memory's
score does not depend on the other candidates of the same prompt. The floor in push.py is
calibrated to that scale; a change of ranking formula in search.py means re-calibrating it.

The few lookups the engine has no method for (anchored paths, id prefixes) read its tables here,
in one place.
"""

from __future__ import annotations

import os
import posixpath
import re

from tether.recall.search import open_index

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (or pathlib) on every prompt
if TYPE_CHECKING:
    from pathlib import Path

# The absolute score a clear winner must reach to be pushed (override: TETHER_PUSH_FLOOR).
# Calibrated by tests/bench/push_floor.py on 110 related and 120 unrelated prompts against 100
# memories: the targets (>= 90% of pushes right, <= 1 unrelated push in 40) are first met at 3.35
# on the calibration half; 4.0 sits above the highest unrelated score seen (3.81), and gives 96%
# right pushes, 0/120 unrelated pushes, 70% of related prompts served. Silence is cheaper than a
# wrong push. Re-run the bench after any change to the ranking in search.py.
DEFAULT_FLOOR = 4.0
MAX_PROMPT_CHARS = 4000  # a pasted log is not a question about a memory: score its start only
# Memory text a hook parses into the search index per run, at most (~2,000 typical 1 KB memory files,
# about a second): after a `git pull` of 10,000 memories each prompt indexes its share, none times out.
SYNC_BYTES = 2 * 1024 * 1024
# Memories given their code field per hook search (a CLI's or the MCP server's gives 500): after a
# pull of 10,000, each prompt pays ~10 ms of the catch-up, not ~50 (recall/rows.py, fill_code).
FILL = 100

# Something path-like as typed in a prompt: has a slash or a dotted extension.
_PATHISH = re.compile(r"[\w@~.+-]*(?:/[\w@.+-]+)+/?|[\w@+-][\w@.+-]*\.[A-Za-z0-9]{1,8}\b")


class PushIndex:
    """Live (current) memories as the hooks need them; opened per hook run, closed after."""

    def __init__(self, root: str | Path) -> None:
        self.root = root
        self.index = open_index(root)
        self.index.sync(max_bytes=SYNC_BYTES)
        self.files: dict[str, str] = {}  # memory id -> repo-relative memory file, for candidates seen

    def close(self) -> None:
        self.index.close()

    @property
    def conn(self):
        return self.index.conn

    def size(self) -> int:
        return self.conn.execute("SELECT count(*) FROM mems WHERE closed_ts IS NULL").fetchone()[0]

    def candidates(self, prompt: str) -> list[tuple[str, float]]:
        """THE SCORER ADAPTER: the recall engine's ranking score for the prompt, best first."""
        found = self.index.search(prompt[:MAX_PROMPT_CHARS], sync=False, expand=False, fill=FILL)  # its own words only
        out = []
        for c in found.candidates:
            if c.closed_at is None and c.text > 0:  # a match on text, never only on a file in play
                self.files.setdefault(c.memory_id, c.filename)
                out.append((c.memory_id, push_score(c)))
        out.sort(key=lambda x: (-x[1], x[0]))
        return out

    def agrees(self, prompt: str, memory_id: str) -> bool:
        """Whether recall's full ranking (the lexicon's alternates and the anchored code's words
        included) also puts `memory_id` first among current text matches: a push both agree on."""
        found = self.index.search(prompt[:MAX_PROMPT_CHARS], sync=False, fill=FILL)
        top = next((c for c in found.candidates if c.closed_at is None and c.text > 0), None)
        return top is not None and top.memory_id == memory_id

    def anchored(self) -> dict[str, list[str]]:
        """Anchored path -> ids of current memories anchored there."""
        out: dict[str, list[str]] = {}
        for path, mid, name in self.conn.execute(
            "SELECT p.path, m.id, m.name FROM mem_paths p JOIN mems m ON m.rid = p.rid "
            "WHERE m.closed_ts IS NULL ORDER BY m.name"
        ):
            out.setdefault(path, []).append(mid)
            self.files.setdefault(mid, f".tether/memories/{name}")
        return out

    def on_paths(self, paths: list[str]) -> list[str]:
        """Ids of current memories with an anchor on any of `paths`."""
        anchored = self.anchored()
        return list(dict.fromkeys(i for p in paths for i in anchored.get(p, ())))

    def by_prefix(self) -> dict[str, list[str]]:
        """8-character id prefix -> full ids of current memories."""
        out: dict[str, list[str]] = {}
        for (mid,) in self.conn.execute("SELECT id FROM mems WHERE closed_ts IS NULL"):
            out.setdefault(mid[:8].lower(), []).append(mid)
        return out

    def read(self, memory_id: str):
        """The memory parsed from its file now; None if it is gone or the file changed hands."""
        rel = self.files.get(memory_id)
        if rel is None:
            return None
        m = self.index.read(rel)
        return m if m is not None and m.id == memory_id else None


def push_score(c) -> float:
    """BM25 of the text x the share of the prompt's term weight the memory covers (both from search.py).

    Either alone misleads a push: BM25 rewards one common word repeated in a long memory (an
    unrelated "dark mode toggle" prompt matching `mode` scores like a real question), and coverage
    alone is high for a one-word prompt. Their product stays low unless the memory is about much of
    what the prompt asks. Rounded so the floor comparisons are stable.
    """
    return round(c.text * c.coverage, 4)


def named_files(
    anchored: dict[str, list[str]], prompt: str, root: str | Path, cwd: str | None = None
) -> dict[str, list[str]]:
    """Anchored files the prompt names: a path read against the prompt's `cwd` (as the user typed it
    there), else against the root, else a unique path suffix such as `invoice.py` (under `cwd` first).
    A path outside the repository (`../x.ts`, `/etc/x.conf`) names nothing."""
    out: dict[str, list[str]] = {}
    root_s = os.path.realpath(os.fspath(root)).rstrip("/") + "/"
    here = ""
    if cwd:
        real = os.path.realpath(cwd).rstrip("/") + "/"
        here = real[len(root_s) :].rstrip("/") if real.startswith(root_s) else ""
    for token in _PATHISH.findall(prompt[:MAX_PROMPT_CHARS]):
        if token.endswith(".") and not token.endswith(".."):
            token = token.rstrip(".")  # the end of a sentence, not of the path
        if token.startswith("/"):
            rel = os.path.realpath(token)
            if not rel.startswith(root_s):
                continue  # an absolute path outside the repository
            tries = [rel[len(root_s) :]]
        else:
            tries = [posixpath.normpath(posixpath.join(here, token)), posixpath.normpath(token)] if here else []
            tries = tries or [posixpath.normpath(token)]
        tries = [t for t in dict.fromkeys(tries) if t != "." and t != ".." and not t.startswith("../")]
        if not tries:
            continue  # escapes the repository
        hit = next((t for t in tries if t in anchored), None)
        if hit is None:
            suffix = "/" + tries[-1].removeprefix("./")
            hits = [p for p in anchored if p.endswith(suffix) or p == tries[-1]]
            under = [p for p in hits if here and p.startswith(here + "/")]
            hits = under if len(under) == 1 else hits
            hit = hits[0] if len(hits) == 1 else None  # an ambiguous suffix names nothing for sure: no bypass
        if hit is not None:
            out.setdefault(hit, anchored[hit])
    return out


def without_paths(prompt: str) -> str:
    """The prompt with what looks like a path blanked: its other words say which memory it asks about."""
    return _PATHISH.sub(" ", prompt[:MAX_PROMPT_CHARS])


def mentions_path(prompt: str) -> bool:
    """Cheap pre-check, so prompts without anything path-like never load the anchored paths."""
    return _PATHISH.search(prompt[:MAX_PROMPT_CHARS]) is not None
