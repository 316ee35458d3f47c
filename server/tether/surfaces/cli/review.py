"""`tether affected`: the memories a change touches, for a commit or a pull request."""

from __future__ import annotations

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
    s.add_argument("--format", choices=("text", "markdown"), default="text", help="markdown: a pull-request comment")
    s.set_defaults(handler=affected)


def affected(args) -> Result:
    t = repository(args)
    found = t.affected(args.base)
    verdicts = [x.verdict for x in found.touched]
    env = envelope(affected_view(found), t.freshness(), **staleness(verdicts), **affected_meta(found))
    text = ci.markdown(found) if args.format == "markdown" else _text(found)
    return Result(env, text)  # it reports: exit 0 whatever the change did (`check --strict` is the gate)


def _text(found) -> str:
    c = found.changes
    against = f"{one_line(c.ref)} (merge-base {c.base[:12]})" if c.ref else f"HEAD ({c.base[:12]})"
    out = []
    for x in found.touched:
        v = x.verdict
        out.append(f"{x.effect:<9} {v.memory.short_id}  {one_line(v.memory.summary)}")
        for i in x.anchors:
            a, r = v.anchors[i]
            out.append(f"    [{r.status}{' ' + r.reason if r.reason else ''}] {render.anchor_line(a, r)}")
            if r.diff:
                out.extend("      " + d for d in r.diff.splitlines())
    counts = ", ".join(f"{n} {e}" for e, n in found.counts().items())
    n = len(found.touched)
    files = f"{len(c.files)} changed {'file' if len(c.files) == 1 else 'files'}"
    out.append(f"{n} {'memory' if n == 1 else 'memories'} touched by {files} against {against}: {counts}")
    return "\n".join(out)
