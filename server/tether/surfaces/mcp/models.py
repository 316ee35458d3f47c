"""Output schemas of the MCP tools: the envelope `{data, meta}` with each tool's data typed.

Permissive on purpose (extra fields allowed): the schema documents the shape for clients and the
model; the views in views.py/recall.py stay the single source of what is actually sent.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tether.lifecycle.status import Status


def _lean(schema: dict[str, Any]) -> None:
    # titles repeat the field names: clients may put schemas in the model's context, keep them short
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", json_schema_extra=_lean)


class Freshness(_Open):
    indexed_at: str | None = Field(None, description="when the code index last swept the whole repository")
    dirty: int = Field(0, description="files re-read during this call because they changed")
    swept: bool = Field(False, description="whether this call swept the whole repository")


class Completeness(_Open):
    matched: int = Field(description="memories that matched")
    returned: int = Field(description="memories returned")
    omitted_reason: Literal["budget", "relevance_floor", "limit"] | None = Field(
        None,
        description="why matches were left out: budget (raise budget_tokens), limit, or relevance_floor (weak matches)",
    )
    omitted: dict[str, int] | None = Field(None, description="omitted matches per reason")


class Staleness(_Open):
    stale: int = Field(description="memories among those considered whose code changed")
    invalidated: int = Field(description="memories among those considered whose code is gone")


class Meta(_Open):
    freshness: Freshness
    completeness: Completeness
    staleness: Staleness


class AnchorNow(_Open):
    path: str = Field(description="file the anchor resolves to now")
    symbol: str | None = Field(None, description="symbol, section or key, as named now")
    lines: list[int] | None = Field(None, description="[first, last] line now")
    was: str | None = Field(None, description="the stored anchor, when it was followed through a rename or move")
    status: str | None = None
    reason: str | None = None
    diff: str | None = Field(None, description="what changed: the anchored code then vs now")


class RecallItem(_Open):
    id: str
    kind: str
    source: Literal["explicit", "verified"] = Field(description="verified: a command re-checked it")
    summary: str | None = Field(None, description="absent when the body opens with it")
    body: str | None = Field(None, description="absent when it only repeats the summary")
    truncated: bool | None = Field(None, description="the body is a preview or was left out to fit the budget")
    anchors: list[AnchorNow]
    confidence: float
    matched: list[str] | None = Field(None, description="task terms found verbatim in the body")
    conflicts: list[str] | None = Field(None, description="ids of current memories this one may contradict")


class StaleItem(RecallItem):
    status: Literal[Status.STALE, Status.INVALIDATED]
    reason: str | None
    evidence: str | None = Field(None, description="the command that re-verifies this memory")


class RecallData(_Open):
    items: list[RecallItem] = Field(description="current memories, best first: anchors verified just now")
    stale: list[StaleItem] = Field(description="matches whose code changed or vanished: verify before relying on them")


class RecallResult(_Open):
    data: RecallData
    meta: Meta


class MemoryData(_Open):
    id: str
    kind: str
    summary: str
    body: str | None = None
    anchors: list[dict[str, Any]]
    valid_from: str | None = None
    valid_to: str | None = None


class Conflict(_Open):
    id: str
    summary: str
    reason: str = Field(description="number_differs, negation_differs or order_differs")
    similarity: float


class RememberData(MemoryData):
    conflicts: list[Conflict] = Field(description="current memories on the same topic that this one may contradict")
    warnings: list[str] = Field(
        default_factory=list, description="stored, but worth knowing (an anchor too trivial to follow)"
    )


class RememberResult(_Open):
    data: RememberData
    meta: Meta


class Verdict(_Open):
    id: str
    status: Literal[Status.ACTIVE, Status.STALE, Status.INVALIDATED]
    reason: str | None
    kind: str
    summary: str
    confidence: float
    anchors: list[AnchorNow]
    evidence: dict[str, Any] | None = None


class CheckResult(_Open):
    data: list[Verdict]
    meta: Meta


class ReanchorResult(_Open):
    data: Verdict
    meta: Meta


class SupersedeData(_Open):
    superseded: MemoryData
    current: MemoryData


class SupersedeResult(_Open):
    data: SupersedeData
    meta: Meta


class RetireResult(_Open):
    data: MemoryData
    meta: Meta
