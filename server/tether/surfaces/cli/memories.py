"""Commands that write memories: `remember`, `reanchor`, `supersede`, `retire`."""

from __future__ import annotations

from tether.errors import InvalidInput
from tether.lifecycle.views import envelope, memory_view
from tether.store.memory import KINDS
from tether.surfaces.cli.args import Add, repository, text_argument
from tether.surfaces.cli.output import Result

SPEC_HELP = "path::Symbol[@disc], path, doc.md#Heading or conf.yaml#key (repeatable)"


def register(add: Add) -> None:
    s = add("remember", "store a memory anchored to code")
    s.add_argument("text", help="what to remember (Markdown), or - to read it from standard input")
    s.add_argument("--anchor", "-a", action="append", default=[], metavar="SPEC", required=True, help=SPEC_HELP)
    s.add_argument("--kind", "-k", default="fact", help=" | ".join(KINDS))
    s.add_argument("--summary", help="one-line summary (default: the first sentence)")
    s.add_argument("--evidence", metavar="CMD", help="the command that verifies this memory")
    s.add_argument("--tag", action="append", default=[], help="a tag (repeatable)")
    s.add_argument(
        "--verified", action="store_true", help="verified by the --evidence command (higher base confidence)"
    )
    s.add_argument("--force", action="store_true", help="store even if a near-duplicate exists")
    s.set_defaults(handler=remember)

    s = add("reanchor", "re-bind a memory to the current code (the meaning survived the edit)")
    s.add_argument("id", nargs="?")
    s.add_argument(
        "--anchor", "-a", action="append", default=[], metavar="SPEC", help="new anchors (default: where each is now)"
    )
    s.add_argument(
        "--outdated",
        action="store_true",
        help="instead: move every memory whose anchors hold an older "
        "hash format, and whose code is unchanged, to the current one",
    )
    s.set_defaults(handler=reanchor)

    s = add("supersede", "replace a memory with a new version; the old one is kept as history")
    s.add_argument("id")
    s.add_argument("text", help="the new version (Markdown), or - to read it from standard input")
    s.add_argument("--reason", help="why the belief changed")
    s.add_argument("--kind", "-k")
    s.add_argument("--anchor", "-a", action="append", default=[], metavar="SPEC", help=SPEC_HELP)
    s.set_defaults(handler=supersede)

    s = add("retire", "close a memory whose subject is gone or no longer holds")
    s.add_argument("id")
    s.add_argument("--reason", required=True)
    s.set_defaults(handler=retire)


def remember(args) -> Result:
    t = repository(args)
    m = t.remember(
        text_argument(args.text),
        args.anchor,
        kind=args.kind,
        summary=args.summary,
        evidence=args.evidence,
        tags=args.tag,
        source="verified" if args.verified else "explicit",
        force=args.force,
    )
    anchors = ", ".join(a.spec() for a in m.anchors)
    text = f"remembered {m.short_id} ({m.kind}) -> {anchors}"
    text += _noted(t)
    data = dict(memory_view(m), **t.notes())
    return Result(envelope(data, t.freshness()), text)


def reanchor(args) -> Result:
    t = repository(args)
    if args.outdated:
        if args.id or args.anchor:
            raise InvalidInput("--outdated moves every outdated memory: give it no id and no --anchor")
        done = t.upgrade_formats()
        human = f"moved {len(done['upgraded'])} memories to the current hash format"
        if done["left"]:
            human += f"; {len(done['left'])} left as they are, their code changed: review them with `tether check`"
        return Result(envelope(done, t.freshness()), human)
    if not args.id:
        raise InvalidInput("reanchor needs a memory id (or --outdated)")
    m = t.reanchor(args.id, args.anchor)
    lines = [f"reanchored {m.short_id}"]
    for what, was, now in t.anchor_changes:
        lines.append(f"  {what:<8} {was}" + (f" -> {now}" if what == "rebound" and now != was else ""))
    data = dict(memory_view(m), changes=[{"change": w, "was": a, "now": b} for w, a, b in t.anchor_changes])
    return Result(envelope(data, t.freshness()), "\n".join(lines))


def supersede(args) -> Result:
    t = repository(args)
    old, new = t.supersede(args.id, text_argument(args.text), args.reason, args.kind, args.anchor)
    data = {"superseded": memory_view(old), "current": memory_view(new), **t.notes()}
    text = f"superseded {old.short_id} by {new.short_id}" + _noted(t)
    return Result(envelope(data, t.freshness()), text)


def retire(args) -> Result:
    t = repository(args)
    m = t.retire(args.id, args.reason)
    return Result(envelope(memory_view(m), t.freshness()), f"retired {m.short_id}: {m.retired_reason}")


def _noted(t) -> str:
    """The lines that follow a write: what it may contradict, and what to know about its anchors."""
    lines = [f"\n  possible conflict ({c.reason}): {c.memory.short_id}  {c.memory.summary}" for c in t.conflicts]
    return "".join(lines + [f"\n  warning: {w}" for w in t.warnings])
