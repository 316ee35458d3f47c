"""`tether recall`: what is known about a task, and its terminal rendering."""

from __future__ import annotations

import orjson

from tether.anchor.locator import locator
from tether.recall.answer import DEFAULT_BUDGET, DEFAULT_LIMIT
from tether.surfaces.cli.args import Add, repository
from tether.surfaces.cli.output import Result, write_out
from tether.surfaces.cli.terminal import one_line
from tether.usage.ledger import record_recall


def register(add: Add) -> None:
    s = add("recall", "what is known about a task: ranked active memories; stale matches listed apart")
    s.add_argument("query", help="the task, in your own words")
    s.add_argument("--file", "-f", action="append", default=[], metavar="F", help="a file in play (repeatable)")
    s.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        metavar="N",
        help="token cap, counted as ceil(chars/4) of the JSON",
    )
    s.add_argument("--as-of", metavar="T", help="what was believed at this ISO 8601 time")
    s.add_argument("--kind", "-k", action="append", default=[], help="only this kind (repeatable)")
    s.add_argument("--limit", type=int, default=DEFAULT_LIMIT, metavar="N", help="at most N active memories")
    s.set_defaults(handler=recall)


def recall(args) -> Result:
    t = repository(args)
    env = t.recall(args.query, args.file, args.budget, args.kind, args.as_of, args.limit)
    record_recall(t.root, env, None)  # the CLI has no session
    if args.json:
        # compact, exactly what the budget counted
        write_out(orjson.dumps(env, option=orjson.OPT_NON_STR_KEYS) + b"\n")
        return Result(env, "", raw=True)
    return Result(env, render(env))


def render(env: dict) -> str:
    """Short human output: status, id, kind and summary first; where; why stale."""
    lines = []
    for item in env["data"]["items"]:
        body = item.get("body") or ""
        summary = item.get("summary") or body.split("\n", 1)[0]
        lines.append(f"active      {item['id'][:8]}  {item['kind']:<14} {summary}")
        lines.extend(f"            {_where(a)}" for a in item["anchors"])
        if body and body != summary:
            lines.extend(f"            | {line}" for line in body.splitlines())
        if item.get("matched"):
            lines.append(f"            matched: {', '.join(item['matched'])}")
    for item in env["data"]["stale"]:
        lines.append(f"{item['status']:<11} {item['id'][:8]}  {item['kind']:<14} {item['summary']}  ({item['reason']})")
        for a in item["anchors"]:
            lines.append(f"            [{a['status']}{' ' + a['reason'] if a.get('reason') else ''}] {_where(a)}")
            lines.extend(f"              {d}" for d in (a.get("diff") or "").splitlines())
        if item.get("evidence"):
            lines.append(f"            re-verify with: {item['evidence']}")
    c = env["meta"]["completeness"]
    tail = f"{c['returned']} of {c['matched']} matching memories"
    if c["omitted_reason"]:
        tail += f" (omitted: {', '.join(f'{n} {k}' for k, n in c['omitted'].items() if n)})"
    if not lines:
        return "nothing known about this yet" + ("" if not c["matched"] else f"; {tail}")
    return "\n".join(lines + [tail])


def _where(a: dict) -> str:
    return one_line(_spelled(a))


def _spelled(a: dict) -> str:
    out = locator(a.get("type", "symbol"), a["path"], a.get("symbol"), a.get("discriminator"))
    if a.get("lines"):
        out += f":{a['lines'][0]}"
    if a.get("was"):
        out += f"  (followed from {a['was']})"
    return out
