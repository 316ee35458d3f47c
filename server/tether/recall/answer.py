"""Recall: search, re-resolve everything that would be returned, pack it into the budget honestly.

Active memories form the answer; stale or invalidated matches go in a separate `stale` list with
the reason, the diff and the evidence command, never mixed in as current. The budget is a hard cap:
tokens are counted as ceil(characters / 4) of the compact JSON envelope that is returned.
`meta.receipt` prices the answer against the anchored code it replaces (receipts.py).
"""

from __future__ import annotations

from collections.abc import Iterable

import orjson

from tether.errors import InvalidInput
from tether.files.paths import repo_relative
from tether.lifecycle.status import NOT_CURRENT, Status
from tether.lifecycle.views import anchor_view, envelope
from tether.recall.limits import DEFAULT_BUDGET, DEFAULT_LIMIT
from tether.recall.ranking import Candidate, within_floor
from tether.recall.receipts import Pricer
from tether.recall.text import found_verbatim, raw_terms, token_count
from tether.store.memory import KINDS
from tether.store.model import parse_time

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the CLI's start-up
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Protocol

    from tether.index.code_index import CodeIndex
    from tether.lifecycle.resolve import Resolver
    from tether.lifecycle.verdicts import Resolution, Verdict
    from tether.recall.search import MemoryIndex

    # only ever an annotation: defined for mypy alone, so `typing` stays unloaded
    class Repository(Protocol):
        """What an answer is made from (a `tether.service.Tether` is one): the root and working directory
        paths are read against, the code and memory indexes, a resolver, and how fresh they are."""

        root: Path
        cwd: str | None

        @property
        def index(self) -> CodeIndex: ...

        @property
        def memindex(self) -> MemoryIndex: ...

        def resolver(self, with_diff: bool = True, deadline: float | None = None) -> Resolver: ...

        def freshness(self) -> dict: ...


MIN_BUDGET = 200  # the envelope alone takes about 100 tokens
MAX_BUDGET = 100_000
MAX_TASK_CHARS = 8_000
MAX_FILES = 200
MAX_LIMIT = 50
MAX_STALE = 3
FULL_ITEMS = 1  # active items answered with their body; the rest by summary, so an answer stays short
LONG_BODY = 600  # longer bodies are previewed; the whole memory is one `tether show ID` away
PREVIEW_CHARS = 280
MAX_MATCHED = 3


class Query:
    """One recall's question, checked: what `recall` ranks and packs against. A plain class: a
    dataclass is built at import, ~0.6 ms of every recall's start."""

    __slots__ = ("task", "files", "budget", "kinds", "as_of", "as_of_ts", "limit")

    def __init__(
        self,
        task: str,
        files: tuple[str, ...],
        budget: int,
        kinds: tuple[str, ...],
        as_of: str | None,
        as_of_ts: float | None,
        limit: int,
    ) -> None:
        self.task, self.files, self.budget, self.kinds = task, files, budget, kinds
        self.as_of, self.as_of_ts, self.limit = as_of, as_of_ts, limit


def tokens(obj: Any) -> int:
    """The documented token count of an answer: that of its compact JSON."""
    return token_count(orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode("utf-8"))


def validate(
    t: Repository,
    task: Any,
    files: Iterable[str] | None = None,
    budget_tokens: Any = DEFAULT_BUDGET,
    kinds: Iterable[str] | None = None,
    as_of: str | None = None,
    limit: Any = DEFAULT_LIMIT,
) -> Query:
    """Every argument checked once, with stable codes; nothing is searched before this passes."""
    if not isinstance(task, str) or not task.strip():
        raise InvalidInput("task is empty: describe what you are about to do")
    if len(task) > MAX_TASK_CHARS:
        raise InvalidInput(
            f"task is {len(task)} characters; the limit is {MAX_TASK_CHARS}: describe the task, not the code"
        )
    if isinstance(budget_tokens, bool) or not isinstance(budget_tokens, int):
        raise InvalidInput("budget_tokens must be an integer")
    if not MIN_BUDGET <= budget_tokens <= MAX_BUDGET:
        raise InvalidInput(f"budget_tokens must be between {MIN_BUDGET} and {MAX_BUDGET}, got {budget_tokens}")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput(f"limit must be an integer between 1 and {MAX_LIMIT}")
    kinds = tuple(dict.fromkeys(kinds or ()))
    bad = [k for k in kinds if k not in KINDS]
    if bad:
        raise InvalidInput(f"unknown kind {bad[0]!r}; one of: {', '.join(KINDS)}")
    files = list(files or ())
    if len(files) > MAX_FILES:
        raise InvalidInput(f"at most {MAX_FILES} files in play")
    rel = tuple(dict.fromkeys(repo_relative(t.root, f, t.cwd) for f in files))
    ts = None
    if as_of is not None:
        try:
            ts = parse_time(as_of).timestamp()
        except (ValueError, TypeError, AttributeError):
            raise InvalidInput(
                f"as_of {as_of!r} is not an ISO 8601 time (e.g. 2025-01-31 or 2025-01-31T12:00:00Z)"
            ) from None
    return Query(task.strip(), rel, budget_tokens, kinds, as_of, ts, limit)


def matched_terms(task: str, body: str) -> list[str]:
    """Up to three significant task terms found verbatim in the body, in task order."""
    out = []
    for term in raw_terms(task):
        if found_verbatim(term, body):
            out.append(term)
            if len(out) == MAX_MATCHED:
                break
    return out


def recall(
    t: Repository,
    task: Any,
    files: Iterable[str] | None = None,
    budget_tokens: Any = DEFAULT_BUDGET,
    kinds: Iterable[str] | None = None,
    as_of: str | None = None,
    limit: Any = DEFAULT_LIMIT,
    deadline: float | None = None,
) -> dict:
    """The recall envelope: `data.items` (active, best first) and `data.stale`, within the budget.
    `deadline`: when a repository sweep must stop (see `Resolver`)."""
    q = validate(t, task, files, budget_tokens, kinds, as_of, limit)
    index = t.memindex
    index.sync_every_file()  # a memory file rewritten in place leaves the directory's stamp alone
    found = index.search(q.task, q.files, q.kinds, q.as_of_ts, sync=False, semantic=True)
    above = within_floor(found.candidates, semantic=found.semantic)
    omitted = {"budget": 0, "limit": 0, "relevance_floor": max(0, found.matched - len(above))}
    matched = found.matched
    resolver = t.resolver(deadline=deadline)
    active: list[tuple[Candidate, Verdict]] = []
    stale: list[tuple[Candidate, Verdict]] = []
    verdicts: list[Verdict] = []
    # The floor keeps weak active matches out; a stale match is never hidden by it (a belief whose
    # code changed is worth a warning however weakly it matched), up to MAX_STALE of them.
    kept = {c.memory_id for c in above}
    for c in found.candidates:
        weak = c.memory_id not in kept
        if weak and len(stale) >= MAX_STALE:
            continue
        if not weak and (len(active) >= q.limit or len(verdicts) >= q.limit + MAX_STALE):
            omitted["limit"] += 1  # ranked below a full answer: not worth resolving
            continue
        m = index.load(c)
        if m is None or (q.as_of_ts is None and not m.in_force()):
            matched -= 1  # changed or vanished since the index saw it
            if weak:
                omitted["relevance_floor"] -= 1
            continue
        v = resolver.memory(m)
        if weak and v.status == Status.ACTIVE:
            continue  # below the floor, and current: left out (counted as relevance_floor)
        verdicts.append(v)
        if weak:
            omitted["relevance_floor"] -= 1
        bucket, cap = (active, q.limit) if v.status == Status.ACTIVE else (stale, MAX_STALE)
        if len(bucket) < cap:
            bucket.append((c, v))
        else:
            omitted["limit"] += 1
    resolver.flush()
    counts = {s: sum(1 for v in verdicts if v.status == s) for s in NOT_CURRENT}
    return _pack(t, q, active, stale, matched, omitted, counts)


def _pack(t: Repository, q: Query, active: list, stale: list, matched: int, omitted: dict, counts: dict) -> dict:
    """Add items best first in the richest form that fits; what fits in no form is omitted (budget)."""
    data: dict[str, list] = {"items": [], "stale": []}
    freshness = t.freshness()
    pricer = Pricer(t.index)
    for _, v in active:
        pricer.add(v)

    def build(used: int, settled: bool = True) -> dict:
        returned = len(data["items"]) + len(data["stale"])
        reason = next((r for r in ("budget", "limit", "relevance_floor") if omitted[r]), None)
        extra: dict[str, Any] = {"tokens": {"budget": q.budget, "used": used}}
        if q.as_of:
            extra["as_of"] = q.as_of
        extra["receipt"] = pricer.receipt([item["id"] for item in data["items"]], used, settled)
        env = envelope(data, freshness, matched=matched, returned=returned, omitted_reason=reason, **counts, **extra)
        env["meta"]["completeness"]["omitted"] = dict(omitted)
        return env

    def final() -> dict:
        # the count of tokens used is part of what it counts: settle it (its digits change rarely)
        env = build(0)
        for _ in range(4):
            used = tokens(env)
            if env["meta"]["tokens"]["used"] == used:
                break
            env = build(used)
        return env

    # a memory another current one contradicts says so, on both sides: read both before relying on either
    against = t.memindex.contradictions(v.memory.id for _, v in active + stale)
    for key, pairs, forms in (("items", active, _item_forms), ("stale", stale, _stale_forms)):
        for rank, (_, v) in enumerate(pairs):
            marks = {"conflicts": against[v.memory.id]} if v.memory.id in against else {}
            shapes = forms(q, v)
            if key == "items" and rank >= FULL_ITEMS:
                shapes = [_runner_up(shapes[-1])]  # by summary: `tether show ID` has the rest
            for form in (dict(f, **marks) for f in shapes):
                data[key].append(form)
                if (
                    tokens(build(q.budget, settled=False)) <= q.budget
                ):  # `used` will never have more digits than the budget
                    break
                data[key].pop()
            else:
                omitted["budget"] += 1
    env = final()
    while tokens(env) > q.budget and (data["stale"] or data["items"]):
        (data["stale"] or data["items"]).pop()
        omitted["budget"] += 1
        env = final()
    return env


def _brief(a, r: Resolution) -> dict[str, Any]:
    out: dict[str, Any] = {"type": a.type, "path": r.path or a.path}
    if a.type != "file":
        out["symbol"] = r.symbol or a.symbol
        if r.discriminator and a.discriminator:
            out["discriminator"] = r.discriminator
    if r.start_line is not None:
        out["lines"] = [r.start_line, r.end_line]
    if r.followed:
        out["was"] = a.spec()
    return out


def _common(q: Query, v: Verdict) -> dict[str, Any]:
    m = v.memory
    out: dict[str, Any] = {"id": m.id, "kind": m.kind, "source": m.source, "summary": m.summary}
    if q.as_of:
        out["valid_from"] = m.valid_from
        if m.valid_to:
            out["valid_to"] = m.valid_to
    return out


def _repeats(summary: str, body: str) -> bool:
    """The summary is the body's opening (it is derived from the first sentence by default)."""
    return body.startswith(summary.removesuffix("…").rstrip())


def _item_forms(q: Query, v: Verdict) -> list[dict]:
    """Full (long bodies previewed), then summary only. A summary the body opens with is not repeated."""
    m = v.memory
    head = _common(q, v)
    tail: dict[str, Any] = {"anchors": [_brief(a, r) for a, r in v.anchors], "confidence": v.confidence}
    hits = matched_terms(q.task, m.body)
    if hits:
        tail["matched"] = hits
    body = m.body if m.body.strip() != m.summary else None
    forms = []
    if body is not None and len(body) <= LONG_BODY:
        lean = {k: val for k, val in head.items() if k != "summary"} if _repeats(m.summary, body) else head
        forms.append({**lean, "body": body, **tail})
    elif body is not None:
        cut = body[:PREVIEW_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + " …"
        forms.append({**head, "body": cut, "truncated": True, **tail})
    forms.append({**head, **tail, **({"truncated": True} if body is not None else {})})
    return forms


def _runner_up(form: dict) -> dict:
    """A lower-ranked item in brief: where it is anchored, not the lines or the words it matched."""
    anchors = [{k: v for k, v in a.items() if k != "lines"} for a in form["anchors"]]
    return {k: v for k, v in form.items() if k != "matched"} | {"anchors": anchors}


def _stale_forms(q: Query, v: Verdict) -> list[dict]:
    """With reasons, diffs and the evidence command; then without diffs."""
    m = v.memory
    head = {**_common(q, v), "status": v.status, "reason": v.reason}
    evidence = {"evidence": (m.evidence or {}).get("command")} if (m.evidence or {}).get("command") else {}
    hits = matched_terms(q.task, m.body)
    tail: dict[str, Any] = {"confidence": v.confidence, **({"matched": hits} if hits else {})}
    full = [anchor_view(a, r) for a, r in v.anchors]
    for view in full:
        view.pop("type", None)
    bare = [{k: val for k, val in view.items() if k != "diff"} for view in full]
    forms = [{**head, "anchors": full, **evidence, **tail}]
    if bare != full:
        forms.append({**head, "anchors": bare, "diff_omitted": True, **evidence, **tail})
    return forms
