"""Commands that read memories as they resolve now: `check`, `ls`, `show`, `history`."""

from __future__ import annotations

from tether.errors import InvalidInput
from tether.lifecycle.status import Status
from tether.lifecycle.views import envelope, memory_view, quarantine_view, staleness, verdict_view
from tether.store.links import superseded as superseded_ids
from tether.surfaces.cli import render
from tether.surfaces.cli.args import Add, repository
from tether.surfaces.cli.output import Result, to_json


def register(add: Add) -> None:
    s = add("check", "re-resolve every live memory: active, stale (with reason and diff) or invalidated")
    s.add_argument("ids", nargs="*", help="only these memory ids")
    s.add_argument("--path", action="append", default=[], help="only memories anchored under this path")
    s.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 if any memory is stale, invalidated or quarantined, or a link is broken",
    )
    s.add_argument(
        "--format",
        choices=("text", "github", "sarif"),
        default="text",
        help="github: workflow commands, a warning at each stale anchor (an error under --strict); "
        "sarif: SARIF 2.1.0 for code scanning",
    )
    s.add_argument(
        "--problems", action="store_true", help="show only what is not active, grouped by status (long stores, CI logs)"
    )
    s.set_defaults(handler=check)

    s = add("ls", "list memories with their status")
    s.add_argument("--all", action="store_true", help="include superseded and retired memories")
    s.add_argument("--kind", help="only this kind")
    s.set_defaults(handler=ls)

    s = add("show", "one memory in full, anchors as they resolve now")
    s.add_argument("id")
    s.set_defaults(handler=show)

    s = add("history", "the supersession chain of a memory")
    s.add_argument("id")
    s.set_defaults(handler=history)


def check(args) -> Result:
    t = repository(args)
    checked = t.check(args.ids, args.path)
    shut = [v for v in checked.verdicts if v.memory.id in checked.closed]  # named, and closed: said so
    verdicts = [v for v in checked.verdicts if v.memory.id not in checked.closed]
    counts = staleness(verdicts)
    bad = list(checked.quarantined)
    links = list(checked.link_problems)
    # a quarantined file is a memory no one can read: always a failure; the rest fails under --strict
    code = 1 if bad or (args.strict and (counts["stale"] or counts["invalidated"] or links)) else 0
    shown = [v for v in verdicts if v.status != Status.ACTIVE] if args.problems else verdicts
    data = [verdict_view(v) for v in shown] + [verdict_view(v, closed=checked.closed[v.memory.id]) for v in shut]
    env = envelope(
        data,
        t.freshness(),
        **counts,
        matched=len(verdicts),
        omitted_reason="active" if len(shown) < len(verdicts) else None,
        quarantined=[quarantine_view(q) for q in bad],
        link_problems=[p.to_dict() for p in links],
    )
    if args.format != "text" and args.json:
        raise InvalidInput("check: --json and --format are two outputs: give one")
    if args.format in ("github", "sarif"):
        # CI output only: git (subprocess) and the SARIF shapes load for it, never for `check --json`
        from tether.lifecycle.changes import repo_prefix
        from tether.surfaces.cli import ci

        prefix = repo_prefix(t.root) or ""  # CI names files from the repository's top, tether from the store's
        if args.format == "sarif":
            return Result(env, to_json(ci.sarif(verdicts, bad, args.strict, prefix)).decode(), code)
        out = ci.github(verdicts, bad, links, args.strict, prefix)
        if args.path and not verdicts:  # a typo'd path passes the gate: say that nothing was under it
            under = ", ".join(args.path)
            out = ci.command("notice", f"no memories under {under}") + "\n" + out
        return Result(env, out, code)
    # the text only when it is printed: for 10,000 memories it costs more than the JSON
    if args.json:
        return Result(env, "", code)
    text = render.check_report(verdicts, bad, links, args.problems)
    return Result(
        env, "\n".join([*(render.verdict_block(v, closed=checked.closed[v.memory.id]) for v in shut), text]), code
    )


def ls(args) -> Result:
    t = repository(args)
    listed, bad = t.listing(include_closed=args.all)
    # a supersede cut short by a crash leaves the old file open; its successor's link closes it
    superseded = superseded_ids(listed)
    if args.kind:
        listed = [m for m in listed if m.kind == args.kind]
    rows, data = [], []
    for m in listed:
        live = m.live and m.id not in superseded
        status = m.status if live else ("superseded" if m.links.get("superseded_by") or m.live else "retired")
        if not args.json:  # the text only when it is printed
            anchors = ", ".join(render.viewed_anchor_line(a) for a in m.view["anchors"])
            rows.append(f"{status:<11} {m.short_id}  {m.kind:<14} {m.summary}\n{'':<13}{anchors}")
        # a closed memory's status is what closed it: its anchors still say how its code stands
        data.append(dict(m.view, status=status, live=live))
    text = "\n".join(rows) if rows or args.json else "no memories yet: tether remember TEXT --anchor path::Symbol"
    return Result(
        envelope(data, t.freshness(), **staleness(listed), quarantined=[quarantine_view(q) for q in bad]), text
    )


def show(args) -> Result:
    t = repository(args)
    v, closed = t.shown(args.id)
    data = dict(verdict_view(v, True, closed), memory=memory_view(v.memory), in_force=v.memory.in_force())
    counts = staleness([] if closed else [v])
    return Result(envelope(data, t.freshness(), **counts), render.memory_detail(v, closed))


def history(args) -> Result:
    t = repository(args)
    chain = t.history(args.id)
    return Result(envelope([memory_view(m) for m in chain], t.freshness()), render.history_lines(chain))
