"""`tether affected`: the memories a change touches, for a commit or a pull request."""

from __future__ import annotations

from tether.errors import InvalidInput
from tether.lifecycle.views import affected_meta, affected_view, envelope, staleness
from tether.surfaces.cli import ci, render
from tether.surfaces.cli.args import Add, repository
from tether.surfaces.cli.output import Result
from tether.surfaces.cli.terminal import one_line


def register(add: Add) -> None:
    s = add(
        "affected",
        "the memories a change touches (the working tree's, or a branch's against --base), as they stand after it",
    )
    s.add_argument(
        "--base",
        metavar="REF",
        help="compare with the merge-base of REF and HEAD (a pull request's change), "
        "not with HEAD; uncommitted edits count either way",
    )
    s.add_argument(
        "--staged",
        action="store_true",
        help="the change is what is staged (the index against the base), not the working tree: what a commit holds",
    )
    s.add_argument("--format", choices=("text", "markdown"), default="text", help="markdown: a pull-request comment")
    s.set_defaults(handler=affected)


def affected(args) -> Result:
    if args.format != "text" and args.json:
        raise InvalidInput("affected: --json and --format are two outputs: give one")
    t = repository(args, warn=False)  # outside git, the one error changes() raises says it
    found = t.affected(args.base, args.staged)
    verdicts = [x.verdict for x in found.touched]
    env = envelope(affected_view(found), t.freshness(), **staleness(verdicts), **affected_meta(found))
    text = ci.markdown(found) if args.format == "markdown" else _text(found)
    return Result(env, text)  # it reports: exit 0 whatever the change did (`check --strict` is the gate)


def _text(found) -> str:
    c = found.changes
    out = []
    for x in found.touched:
        v = x.verdict
        out.append(f"{x.effect:<13} {v.memory.short_id}  {one_line(v.memory.summary)}")
        if x.effect not in ("stale", "deleted", "followed", "active"):
            out.append("    " + ci.describe(x, one_line, one_line))
        for i, where in zip(x.anchors, x.at_base or (None,) * len(x.anchors)):
            a, r = v.anchors[i]
            at = f"  (at the base: {one_line(where)})" if where and where not in (r.path, a.path) else ""
            out.append(f"    [{r.status}{' ' + r.reason if r.reason else ''}] {render.anchor_line(a, r)}{at}")
            if r.diff:
                out.extend("      " + d for d in r.diff.splitlines())
    counts = ", ".join(f"{n} {e}" for e, n in found.counts().items() if n or e in ci.ALWAYS_COUNTED)
    n = len(found.touched)
    files = f"{len(c.files)} {'staged ' if c.staged else ''}changed {'file' if len(c.files) == 1 else 'files'}"
    out.append(
        f"{n} {'memory' if n == 1 else 'memories'} touched by {files} against {ci.against(c, one_line)}: {counts}"
    )
    return "\n".join(out)
