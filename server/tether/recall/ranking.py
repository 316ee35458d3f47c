"""Ranking: BM25F over a memory's weighted fields x term coverage x files in play x kind x base
confidence, and the superseded matches that stand for their current tip.

On the prompt hook's path, as search.py is: stdlib only, named tuples, no typing at run time.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import namedtuple
from collections.abc import Iterable

from tether.recall.lexicon import ALT_WEIGHT
from tether.recall.rows import WEIGHTS, parent_dir
from tether.store.confidence import BASE_CONFIDENCE_TOP, aged

MAX_CHAIN = 50  # supersessions followed from an old belief to its current tip
K1, B = 1.2, 0.75
SAME_FILE, SAME_DIR = 2.5, 1.3
# A memory in a file in play starts from this share of the query's best text match, so what is known
# about the file being touched reaches the answer even when the task's words are not the memory's.
FILE_PRIOR = 0.4  # x SAME_FILE = 1: in the file in play, as good as the best match elsewhere
# Gotchas and failed attempts are what an agent most needs before it edits: a mild preference.
KIND_WEIGHT = {"gotcha": 1.15, "failed-attempt": 1.1, "decision": 1.05, "convention": 1.0, "fact": 1.0}
COVERAGE_BASE = 0.5  # text x (this + coverage): a memory about more of the question ranks higher
FLOOR_RATIO = 0.45  # an answer keeps what scores at least this share of the best match
TOP_BASE = BASE_CONFIDENCE_TOP  # the best a source can give: the prior's scale
# With semantic recall, the text score is (1 - SEM_WEIGHT) x the words' score (as a share of the
# best) + SEM_WEIGHT x the cosine of task and memory. Calibrated on the recall bench's training part.
SEM_WEIGHT = 0.7
# Below this cosine the model's similarity is noise (an unrelated question's nearest memory scored up
# to 0.39 on the recall bench, a right one from 0.24): it neither joins the pool nor tells two
# memories apart (both memories of a file in play, asked "what should I know here", stay level).
SEM_MIN_COSINE = 0.3
SEM_FLOOR_RATIO = 0.65  # the floor when the cosines are blended in: they lift every score, the weak ones too


# Named tuples, not dataclasses: this module is on the prompt hook's path (see the module doc).
class Candidate(namedtuple("Candidate", "memory_id filename kind summary score text coverage near paths closed_at")):
    """One memory that matched, before its anchors are resolved.

    memory_id, kind, summary: str; filename: repo-relative path of the memory file;
    score: ranking score (text x coverage x files in play x kind x confidence);
    text: BM25 of the text alone (0 when only the files in play matched);
    coverage: 0..1, the IDF-weighted share of the query's terms this memory contains (absolute);
    near: "file" or "dir" when an anchor is in or beside a file in play, else None;
    paths: tuple of anchored paths; closed_at: epoch seconds when superseded or retired, None while current.
    """

    __slots__ = ()


class Search(namedtuple("Search", "candidates matched terms semantic", defaults=(False,))):
    """candidates: best first; matched: every memory that matched the text or sits in a file in play;
    terms: the query terms searched; semantic: the model's cosines were blended in (SEM_WEIGHT)."""

    __slots__ = ()


def decayed(base: float, verified_ts: float, now: float | None = None) -> float:
    return aged(base, ((now or time.time()) - verified_ts) / 86400)


def _meaningful(cosine: float) -> float:
    return cosine if cosine >= SEM_MIN_COSINE else 0.0


def within_floor(
    candidates: Iterable[Candidate], ratio: float | None = None, semantic: bool = False
) -> list[Candidate]:
    """The candidates scoring at least `ratio` (FLOOR_RATIO, SEM_FLOOR_RATIO for a semantic search) of
    the best one (input is best first)."""
    ratio = (SEM_FLOOR_RATIO if semantic else FLOOR_RATIO) if ratio is None else ratio
    out: list[Candidate] = []
    for c in candidates:
        if out and c.score < ratio * out[0].score:
            break
        out.append(c)
    return out


def tips(conn: sqlite3.Connection, match: str, kinds: Iterable[str] | None, pool: int) -> dict[int, int]:
    """Current tip rid -> the superseded memory whose text matched, for superseded matches."""
    if not conn.execute("SELECT 1 FROM mem_links LIMIT 1").fetchone():
        return {}
    kinds = list(kinds or ())
    kind_sql = f" AND m.kind IN ({','.join('?' * len(kinds))})" if kinds else ""
    weights = ", ".join(str(w) for w in WEIGHTS)
    old = conn.execute(
        "SELECT m.rid, m.id FROM mem_fts JOIN mems m ON m.rid = mem_fts.rowid WHERE mem_fts MATCH ? "
        f"AND m.closed_ts IS NOT NULL AND m.id IN (SELECT target FROM mem_links){kind_sql} "
        f"ORDER BY bm25(mem_fts, {weights}) LIMIT ?",
        (match, *kinds, pool),
    ).fetchall()
    out: dict[int, int] = {}
    for rid, mid in old:
        seen, frontier = {mid}, [mid]
        while frontier and len(seen) < MAX_CHAIN:
            succ = conn.execute(
                "SELECT m.rid, m.id, m.closed_ts FROM mem_links l JOIN mems m ON m.rid = l.rid WHERE l.target = ?",
                (frontier.pop(),),
            ).fetchall()
            live = [r for r in succ if r[2] is None]
            if live:
                out.setdefault(live[0][0], rid)  # the first (best-matching) old belief speaks for it
                break
            frontier += [r[1] for r in succ if r[1] not in seen]
            seen.update(r[1] for r in succ)
    return out


def rank(
    conn: sqlite3.Connection,
    avgdl: float,
    rids: dict[int, None],
    idf: dict[str, float],
    unseen: float,
    near: dict[int, str],
    dirs: set[str],
    via: dict[int, int] | None = None,
    alts: dict[str, tuple[float, tuple[tuple[str, float], ...]]] | None = None,
    code: bool = True,
    sem: dict[int, float] | None = None,
) -> tuple[Candidate, ...]:
    """`alts`: query term -> (its idf, its lexicon alternates with theirs); an alternate stands in for
    a term the memory lacks, at ALT_WEIGHT of an exact match, in the score and in coverage.
    `code`: the anchored code's words count too (the code field).
    `sem`: rid -> the task's cosine with the memory (semantic recall), blended in by SEM_WEIGHT."""
    total_idf = sum(idf.values()) + unseen
    alts = alts or {}
    now = time.time()
    via = via or {}

    def fields(tf_json: str | None, ctf_json: str | None) -> dict[str, float]:
        tf = json.loads(tf_json) if tf_json else {}
        if code and ctf_json:
            for t, w in json.loads(ctf_json).items():
                tf[t] = tf.get(t, 0.0) + w
        return tf

    terms_of = {}  # rid -> (dl, tf) of a superseded memory whose words speak for its tip
    if via:
        for rid, dl, tf_json, ctf_json in conn.execute(
            f"SELECT rid, dl, tf, ctf FROM mems WHERE rid IN ({','.join('?' * len(via))})", tuple(set(via.values()))
        ):
            terms_of[rid] = (dl, fields(tf_json, ctf_json))

    def match(dl: float | None, tf: dict) -> tuple[float, float]:
        norm = K1 * (1 - B + B * (dl or 0.0) / avgdl)
        text = covered = 0.0
        for t, w in idf.items():
            f = tf.get(t)
            if f:
                text += w * f * (K1 + 1) / (f + norm)
                covered += w
        for t, (w, others) in alts.items():
            if t in tf:
                continue
            best = max((aw * tf[a] * (K1 + 1) / (tf[a] + norm) for a, aw in others if a in tf), default=0.0)
            if best:
                text += ALT_WEIGHT * best
                covered += ALT_WEIGHT * w
        return text, (covered / total_idf if total_idf else 0.0)

    scored = []
    for rid, mid, name, kind, summary, conf, vts, closed, paths, dl, tf_json, ctf_json in conn.execute(
        "SELECT rid, id, name, kind, summary, confidence, verified_ts, closed_ts, paths, dl, tf, ctf FROM mems "
        f"WHERE rid IN ({','.join('?' * len(rids))})",
        tuple(rids),
    ):
        text, cov = match(dl, fields(tf_json, ctf_json))
        if rid in via and via[rid] in terms_of:
            text, cov = max((text, cov), match(*terms_of[via[rid]]))
        prior = KIND_WEIGHT.get(kind, 1.0) * (0.5 + 0.5 * min(1.0, decayed(conf, vts, now) / TOP_BASE))
        paths = tuple(json.loads(paths))
        where_ = near.get(rid) or ("dir" if dirs and any(parent_dir(p) in dirs for p in paths) else None)
        scored.append(
            (text * (COVERAGE_BASE + cov), prior, mid, name, kind, summary, text, cov, where_, paths, closed, rid)
        )
    top = max((s[0] for s in scored), default=0.0) or 1.0
    if sem:
        words_top = top
        scored = [
            ((1 - SEM_WEIGHT) * s[0] / words_top + SEM_WEIGHT * _meaningful(sem.get(s[-1], 0.0)), *s[1:])
            for s in scored
        ]
        top = max((s[0] for s in scored), default=0.0) or 1.0
    out = []
    for base, prior, mid, name, kind, summary, text, cov, where_, paths, closed, _rid in scored:
        if where_ == "file":
            base = (base + FILE_PRIOR * top) * SAME_FILE
        elif where_ == "dir":
            base *= SAME_DIR
        out.append(
            Candidate(
                mid,
                f".tether/memories/{name}",
                kind,
                summary,
                round(base * prior, 6),
                round(text, 6),
                round(cov, 4),
                where_,
                paths,
                closed,
            )
        )
    out.sort(key=lambda c: (-c.score, c.memory_id))
    seen: set[str] = set()
    return tuple(c for c in out if not (c.memory_id in seen or seen.add(c.memory_id)))  # type: ignore[func-returns-value]  # duplicate ids: first file wins (add() is None, falsy)
