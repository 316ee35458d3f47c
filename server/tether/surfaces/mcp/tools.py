"""The MCP tools, as module-level functions over the Session in the server's lifespan context.

Each function's docstring is its description: what the model reads to choose the tool (Claude Code
defers plugin tools behind its tool search, which sees names and descriptions), so it says what the
tool is for and when to call it. The arguments' schemas come from their annotations.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import BeforeValidator, Field

from tether.lifecycle.views import (
    affected_meta,
    affected_view,
    envelope,
    memory_view,
    quarantine_view,
    staleness,
    verdict_view,
)
from tether.recall.answer import DEFAULT_BUDGET, MAX_BUDGET, MAX_FILES, MAX_TASK_CHARS, MIN_BUDGET
from tether.store.memory import KINDS
from tether.store.validate import (
    MAX_ANCHORS,
    MAX_BODY_CHARS,
    MAX_EVIDENCE_CHARS,
    MAX_SPEC_CHARS,
    MAX_SUMMARY_CHARS,
    MAX_TAGS,
)
from tether.surfaces.mcp.session import Session
from tether.usage.ledger import record_recall


def _one_as_list(value: Any) -> Any:
    """A lone string where a list is asked for is a list of one: clients and models often send
    `"anchors": "src/a.py::f"`, and refusing it costs the agent a turn for nothing."""
    return [value] if isinstance(value, str) else value


OneOrMany = BeforeValidator(_one_as_list)
Kind = Literal[KINDS]  # type: ignore[valid-type]  # the schema's enum comes from the one list of kinds
Id = Annotated[
    str, Field(description="memory id (a unique prefix of 8+ characters works)", min_length=1, max_length=64)
]
Specs = Annotated[
    list[Annotated[str, Field(max_length=MAX_SPEC_CHARS)]],
    Field(
        description="anchors, repo-relative: `path/file.py::Class.method` (symbol; add `@(params)` to pick one of "
        "several overloads), `path/file.py` (whole file), `docs/x.md#Heading`, `conf.yaml#db.pool_size`",
        max_length=MAX_ANCHORS,
    ),
    OneOrMany,
]
Paths = Annotated[
    list[str] | None,
    Field(description="only memories anchored under these repo-relative paths", max_length=MAX_FILES),
    OneOrMany,
]

MAX_IDS = 200
READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)


def _session(ctx: Context) -> Session:
    return cast(
        Session, ctx.request_context.lifespan_context
    )  # the server's lifespan yields a Session; Context is not typed by it here


def recall(
    ctx: Context,
    task: Annotated[str, Field(description="what you are about to do, in your own words", max_length=MAX_TASK_CHARS)],
    files: Annotated[
        list[str] | None,
        Field(description="repo-relative files in play (boosts memories anchored there)", max_length=MAX_FILES),
        OneOrMany,
    ] = None,
    budget_tokens: Annotated[
        int,
        Field(
            description="hard cap on the answer: ceil(characters/4) of the returned JSON", ge=MIN_BUDGET, le=MAX_BUDGET
        ),
    ] = DEFAULT_BUDGET,
    kinds: Annotated[list[Kind] | None, Field(description="only these kinds"), OneOrMany] = None,
    as_of: Annotated[
        str | None,
        Field(description="ISO 8601 time: what was believed then (superseded and retired memories included)"),
    ] = None,
) -> CallToolResult:
    """Recall what is known about this repository before you read or change code: decisions, gotchas,
    failed attempts, conventions and facts anchored to the code, re-verified against the working tree
    now. Call it at the start of every task and before editing a file. Returns the few memories that
    matter within budget_tokens; matches whose code changed come back apart in `stale`, with the
    reason and a diff, never as current."""
    s = _session(ctx)

    def go(t) -> dict:
        env = t.recall(task, files, budget_tokens, kinds, as_of, deadline=s.deadline())
        record_recall(t.root, env, s.id)
        return env

    return s.run(go)


def remember(
    ctx: Context,
    body: Annotated[
        str, Field(description="the memory, in Markdown: a few self-contained sentences", max_length=MAX_BODY_CHARS)
    ],
    kind: Annotated[Kind, Field(description=" | ".join(KINDS))],
    anchors: Specs,
    evidence: Annotated[
        str | None, Field(description="a command that re-verifies this memory", max_length=MAX_EVIDENCE_CHARS)
    ] = None,
    summary: Annotated[
        str | None, Field(description="one line (default: the first sentence of body)", max_length=MAX_SUMMARY_CHARS)
    ] = None,
    tags: Annotated[list[str] | None, Field(description="free-form tags", max_length=MAX_TAGS), OneOrMany] = None,
    force: Annotated[bool, Field(description="store even if a near-duplicate exists")] = False,
) -> CallToolResult:
    """Remember something a later session would need, anchored to the code it is about: a decision and
    why, a gotcha, an approach that failed and why, a convention, a verified fact. One point per
    memory. Refuses anchors it cannot resolve (with the names it can), ambiguous anchors (with the
    forms to type), secrets, and near-duplicates of a current memory (`duplicate`, naming it:
    supersede that one instead). Reports current memories it may contradict in `conflicts`."""

    def go(t) -> dict:
        m = t.remember(body, anchors, kind=kind, summary=summary, evidence=evidence, tags=tags or (), force=force)
        data = dict(memory_view(m), **t.notes())
        return envelope(data, t.freshness())

    return _session(ctx).run(go)


def check(
    ctx: Context,
    paths: Paths = None,
    ids: Annotated[list[Id] | None, Field(description="only these memory ids", max_length=MAX_IDS), OneOrMany] = None,
) -> CallToolResult:
    """Check memories against the code as it is now: status (active, stale, invalidated), the reason,
    a diff of what changed and the command that re-verifies each. Use it on the ids `recall` flagged
    stale, or on paths you just changed; with no arguments it checks every current memory. Reason
    `search_incomplete`: the repository was still being indexed when the call's time ran out; call again."""
    s = _session(ctx)

    def go(t) -> dict:
        checked = t.check(ids or (), paths or (), deadline=s.deadline())
        verdicts = list(checked.verdicts)
        return envelope(
            [verdict_view(v, closed=checked.closed.get(v.memory.id)) for v in verdicts],  # a closed one named: said so
            t.freshness(),
            **staleness([v for v in verdicts if v.memory.id not in checked.closed]),
            quarantined=[quarantine_view(q) for q in checked.quarantined],
            link_problems=[p.to_dict() for p in checked.link_problems],
        )

    return s.run(go)


def affected(
    ctx: Context,
    base: Annotated[
        str | None,
        Field(
            description="a branch, tag or commit: compare with its merge-base with HEAD (a pull request's "
            "change); default: the uncommitted change against HEAD",
            max_length=256,
        ),
    ] = None,
) -> CallToolResult:
    """The memories a change touches, as they stand after it: call it before you commit (or open a
    pull request) to see which memories your edits made stale, deleted or moved. Each item is a
    memory as `check` shows it, with `effect` (deleted, stale, reanchored, retired, already_stale,
    followed, restored, new, active), `touched`, and `before` (its status at the base)."""

    def go(t) -> dict:
        found = t.affected(base)
        verdicts = [x.verdict for x in found.touched]
        return envelope(affected_view(found), t.freshness(), **staleness(verdicts), **affected_meta(found))

    return _session(ctx).run(go)


def reanchor(
    ctx: Context,
    id: Id,
    anchors: Annotated[
        list[str] | None,
        Field(description="new anchors (default: where each is now)", max_length=MAX_ANCHORS),
        OneOrMany,
    ] = None,
) -> CallToolResult:
    """Re-bind a stale memory to the code as it is now, when its meaning survived the edit (the
    memory still holds for the new code). Without anchors each one is re-bound where it resolves
    now; pass anchors when the code moved somewhere tether cannot follow: each replaces the anchor it
    names (same file, or same symbol), the others are kept; `changes` says which."""

    def go(t) -> dict:
        m = t.reanchor(id, anchors or ())
        v = t.verdict(m.id)
        changes = [{"change": w, "was": a, "now": b} for w, a, b in t.anchor_changes]
        return envelope(dict(verdict_view(v, body=True), changes=changes), t.freshness(), **staleness([v]))

    return _session(ctx).run(go)


def supersede(
    ctx: Context,
    id: Id,
    body: Annotated[str, Field(description="the corrected memory, in Markdown", max_length=MAX_BODY_CHARS)],
    reason: Annotated[
        str | None, Field(description="why the belief changed (optional)", min_length=1, max_length=MAX_SUMMARY_CHARS)
    ] = None,
) -> CallToolResult:
    """Replace a memory whose belief changed with a corrected version: the new memory becomes current
    and the old one is closed and kept as history (recall with as_of still finds it). Use it when a
    stale memory is no longer true as written, or a current one turned out wrong."""

    def go(t) -> dict:
        old, new = t.supersede(id, body, reason)
        data = {"superseded": memory_view(old), "current": memory_view(new), **t.notes()}
        return envelope(data, t.freshness())

    return _session(ctx).run(go)


def retire(
    ctx: Context,
    id: Id,
    reason: Annotated[str, Field(description="why it no longer holds", min_length=1, max_length=MAX_SUMMARY_CHARS)],
) -> CallToolResult:
    """Retire a memory whose subject is gone or which no longer holds, with the reason. It stops being
    recalled as current and is kept as history. Use supersede instead when there is a corrected
    version to record."""
    return _session(ctx).run(lambda t: envelope(memory_view(t.retire(id, reason)), t.freshness()))


# Every tool the server offers, in the order `tools/list` gives them, with its annotations.
TOOLS = (
    (recall, READ),
    (remember, WRITE),
    (check, READ),
    (affected, READ),
    (reanchor, WRITE),
    (supersede, WRITE),
    (retire, WRITE),
)


def description(fn) -> str:
    """A tool's docstring as one line: the description the model reads."""
    return " ".join((fn.__doc__ or "").split())
