"""Human output for the CLI: short, aligned, status first, where each anchor is now."""

from __future__ import annotations

from tether.anchor.locator import locator
from tether.lifecycle.status import LIVE, Status
from tether.lifecycle.verdicts import Verdict
from tether.store.files import Quarantined
from tether.store.model import Memory
from tether.surfaces.cli.terminal import one_line

STATUS_WIDTH = 11


def anchor_line(a, r) -> str:
    return one_line(_anchor_line(a, r))


def viewed_anchor_line(view: dict) -> str:
    """`anchor_line` from an anchor's view (lifecycle/views.py `anchor_view`), as `ls` keeps it."""
    where = locator(view["type"], view["path"], view["symbol"], view.get("discriminator"))
    if view.get("lines") and view["lines"][0]:
        where += f":{view['lines'][0]}"
    note = f"  (followed from {view['was']})" if view.get("was") else ""
    if view.get("candidates"):
        note += f"  candidates: {', '.join(view['candidates'])}"
    return one_line(f"{where}{note}")


def _anchor_line(a, r) -> str:
    disc = r.discriminator if r.discriminator and a.discriminator else None
    where = locator(a.type, r.path or a.path, r.symbol or a.symbol, disc)
    if r.start_line:
        where += f":{r.start_line}"
    note = ""
    if r.followed:
        note = f"  (followed from {a.spec()})"
    if r.candidates:
        note += f"  candidates: {', '.join(r.candidates)}"
    return f"{where}{note}"


def verdict_block(v: Verdict, diff: bool = True, closed: tuple[str, list[str]] | None = None) -> str:
    """`closed` (`links.closed_as`): the status is what closed it, then its successors or reason."""
    m = v.memory
    reason = f" {v.reason}" if v.reason and not closed else ""
    status = closed[0] if closed else v.status
    lines = [f"{status:<{STATUS_WIDTH}} {m.short_id}  {m.kind:<14} {v.confidence:.2f}  {m.summary}"]
    if closed:
        lines[0] += f"  (by {', '.join(i[:8] for i in closed[1])})" if closed[1] else ""
        lines.append(f"    {one_line(m.retired_reason or closed[0])}; anchors as they stand now:")
    detail = []
    for a, r in v.anchors:
        tag = (
            ""
            if r.status == v.status and len(v.anchors) == 1 and not r.reason
            else f"[{r.status}{' ' + r.reason if r.reason else ''}] "
        )
        detail.append(f"    {tag}{anchor_line(a, r)}")
        if diff and r.diff:
            detail.extend("      " + d for d in r.diff.splitlines())
    if reason:
        lines[0] += f"  ({v.reason})"
    if m.evidence and v.status != Status.ACTIVE:
        detail.append(f"    re-verify with: {m.evidence.get('command')}")
    if v.status != Status.ACTIVE and m.filename:
        detail.append(f"    memory file: {one_line(m.filename)}")
    return "\n".join(lines + detail)


def check_report(verdicts: list[Verdict], quarantined: list[Quarantined], link_problems=(), problems=False) -> str:
    """Every memory as it resolves now, then what cannot be read, then the counts. `problems`: only
    what is not active, each status under its own heading (worst first)."""
    if problems:
        out = []
        for s in (Status.INVALIDATED, Status.STALE):
            group = [verdict_block(v) for v in verdicts if v.status == s]
            if group:
                out += [f"== {len(group)} {s} ==", *group]
    else:
        out = [verdict_block(v) for v in verdicts]
    if problems and quarantined:
        out.append(f"== {len(quarantined)} quarantined ==")
    for q in quarantined:
        out.append(f"{'quarantined':<{STATUS_WIDTH}} {one_line(q.filename)}: {one_line(q.error)}")
        out.append(f"{'':<{STATUS_WIDTH}} fix: {q.fix}")
    for p in link_problems:
        out.append(f"{'bad link':<{STATUS_WIDTH}} {p.memory_id[:8]}  {p.problem}: {p.message}")
    counts: dict[str, int] = {
        s: sum(1 for v in verdicts if v.status == s) for s in LIVE
    }  # str keys: Status is a str enum
    out.append(
        f"{len(verdicts)} {'memory' if len(verdicts) == 1 else 'memories'}: {counts['active']} active, {counts['stale']} stale, "
        f"{counts['invalidated']} invalidated, {len(quarantined)} quarantined"
    )
    if counts["stale"]:
        out.append(f"{counts['stale']} stale: tether report --open shows each with its diff")
    return "\n".join(out)


def memory_detail(v: Verdict, closed: tuple[str, list[str]] | None = None) -> str:
    m = v.memory
    lines = [
        verdict_block(v, closed=closed),
        "",
        m.body,
        "",
        f"id:          {m.id}",
        f"confidence:  {v.confidence}  (source {m.source})",
        f"recorded:    {m.recorded_at}" + (f"  commit {m.commit[:12]}" if m.commit else ""),
    ]
    if not m.live:
        lines.append(f"closed:      {m.valid_to}  {m.retired_reason or ''}".rstrip())
    elif not m.in_force():
        lines.append(f"valid from:  {m.valid_from}  (not in force yet: recall, ls and check leave it out)")
    for k, ids in m.links.items():
        lines.append(f"{k + ':':<13}{', '.join(i[:8] for i in ids)}")
    if m.tags:
        lines.append(f"tags:        {', '.join(m.tags)}")
    lines.append(f"file:        {m.filename}")
    return "\n".join(lines)


def history_lines(chain: list[Memory]) -> str:
    out = []
    for m in chain:
        state = "current" if m.live else f"closed {m.valid_to}"
        out.append(f"{m.short_id}  {m.valid_from}  {state:<32} {m.summary}")
        if m.retired_reason:
            out.append(f"          {m.retired_reason}")
    return "\n".join(out)
