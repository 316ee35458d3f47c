"""CLI handlers for `recall` and `mcp`."""

from __future__ import annotations

import os
import sys

import orjson

from .cli import Result, command


@command("recall")
def recall(args) -> Result:
    from .ledger import record_recall
    from .recall import recall as run
    from .service import Tether

    t = Tether(args.root, os.getcwd())
    env = run(t, args.query, args.file, args.budget, args.kind, args.as_of, args.limit)
    record_recall(t.root, env, None)  # the CLI has no session
    if args.json:
        # compact, exactly what the budget counted
        sys.stdout.buffer.write(orjson.dumps(env) + b"\n")
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
    from .terminal import one_line

    return one_line(_spelled(a))


def _spelled(a: dict) -> str:
    out = a["path"] + (f"::{a['symbol']}" if a.get("symbol") else "")
    if a.get("lines"):
        out += f":{a['lines'][0]}"
    if a.get("was"):
        out += f"  (followed from {a['was']})"
    return out


@command("mcp")
def mcp(args) -> Result:
    from .mcp_server import serve

    serve(args.root)
    return Result(None, "", raw=True)
