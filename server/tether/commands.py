"""CLI command handlers: call the library, build the envelope and the human text."""

from __future__ import annotations

import os
import sqlite3

from . import render
from .cli import Result, command
from .errors import InvalidInput
from .links import superseded as superseded_ids
from .service import Tether
from .views import envelope, memory_view, quarantine_view, staleness, verdict_view


def _open(args) -> Tether:
    return Tether(args.root, os.getcwd())


_stdin: list[bytes] = []


def _text(value: str) -> str:
    """The text argument, or standard input for `-` (a long body does not fit in an argument:
    Linux caps one at 128 KiB). Reading stops just past the limit: the refusal needs no more."""
    if value != "-":
        return value
    import sys

    from .validate import MAX_BODY_CHARS

    cap = MAX_BODY_CHARS * 4  # the most bytes MAX_BODY_CHARS characters take in UTF-8
    if _stdin:  # read once: a command run again on a rebuilt cache finds the same text
        data = _stdin[0]
    else:
        data = sys.stdin.buffer.read(cap + 1)
        _stdin.append(data)
    if len(data) > cap:
        raise InvalidInput(f"memory text on standard input is over {cap} bytes; the limit is {MAX_BODY_CHARS} "
                           "characters: keep one memory to one point", field="body", limit=MAX_BODY_CHARS)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidInput(f"memory text on standard input is not UTF-8 at byte {e.start}") from None


@command("remember")
def remember(args) -> Result:
    t = _open(args)
    m = t.remember(
        _text(args.text), args.anchor, kind=args.kind, summary=args.summary, evidence=args.evidence,
        tags=args.tag, source="verified" if args.verified else "explicit", force=args.force,
    )
    conflicts = t.conflicts
    anchors = ", ".join(a.spec() for a in m.anchors)
    text = f"remembered {m.short_id} ({m.kind}) -> {anchors}"
    text += "".join(f"\n  possible conflict ({c.reason}): {c.memory.short_id}  {c.memory.summary}" for c in conflicts)
    data = dict(memory_view(m), conflicts=[c.to_dict() for c in conflicts])
    return Result(envelope(data, t.freshness()), text)


@command("check")
def check(args) -> Result:
    t = _open(args)
    checked = t.check(args.ids, args.path)
    verdicts = list(checked.verdicts)
    counts = staleness(verdicts)
    bad = list(checked.quarantined)
    links = list(checked.link_problems)
    code = 1 if args.strict and (counts["stale"] or counts["invalidated"] or bad or links) else 0
    data = [verdict_view(v) for v in verdicts]
    env = envelope(data, t.freshness(), **counts, quarantined=[quarantine_view(q) for q in bad],
                   link_problems=[p.to_dict() for p in links])
    return Result(env, render.check_report(verdicts, bad, links), code)


@command("ls")
def ls(args) -> Result:
    t = _open(args)
    mems, bad = t.memories(include_closed=args.all)
    # a supersede cut short by a crash leaves the old file open; its successor's link closes it
    superseded = superseded_ids(mems)
    if args.kind:
        mems = [m for m in mems if m.kind == args.kind]
    r = t.resolver(with_diff=False)
    verdicts = [r.memory(m) for m in mems]
    r.flush()
    rows = []
    for v in verdicts:
        m = v.memory
        live = m.live and m.id not in superseded
        status = v.status if live else ("superseded" if m.links.get("superseded_by") or m.live else "retired")
        anchors = ", ".join(render.anchor_line(a, res) for a, res in v.anchors)
        rows.append(f"{status:<11} {m.short_id}  {m.kind:<14} {m.summary}\n{'':<13}{anchors}")
    text = "\n".join(rows) if rows else "no memories yet: tether remember TEXT --anchor path::Symbol"
    data = [dict(verdict_view(v), live=v.memory.live and v.memory.id not in superseded) for v in verdicts]
    return Result(envelope(data, t.freshness(), **staleness(verdicts), quarantined=[quarantine_view(q) for q in bad]), text)


@command("show")
def show(args) -> Result:
    t = _open(args)
    v = t.verdict(args.id)
    data = dict(verdict_view(v, body=True), memory=memory_view(v.memory))
    return Result(envelope(data, t.freshness(), **staleness([v])), render.memory_detail(v))


@command("history")
def history(args) -> Result:
    t = _open(args)
    chain = t.history(args.id)
    return Result(envelope([memory_view(m) for m in chain], t.freshness()), render.history_lines(chain))


@command("reanchor")
def reanchor(args) -> Result:
    t = _open(args)
    if args.outdated:
        if args.id or args.anchor:
            raise InvalidInput("--outdated moves every outdated memory: give it no id and no --anchor")
        from .formats import upgrade

        done = upgrade(t)
        human = f"moved {len(done['upgraded'])} memories to the current hash format"
        if done["left"]:
            human += f"; {len(done['left'])} left as they are, their code changed: review them with `tether check`"
        return Result(envelope(done, t.freshness()), human)
    if not args.id:
        raise InvalidInput("reanchor needs a memory id (or --outdated)")
    m = t.reanchor(args.id, args.anchor)
    anchors = ", ".join(a.spec() for a in m.anchors)
    return Result(envelope(memory_view(m), t.freshness()), f"reanchored {m.short_id} -> {anchors}")


@command("supersede")
def supersede(args) -> Result:
    t = _open(args)
    old, new = t.supersede(args.id, _text(args.text), args.reason, args.kind, args.anchor)
    data = {"superseded": memory_view(old), "current": memory_view(new)}
    return Result(envelope(data, t.freshness()), f"superseded {old.short_id} by {new.short_id}")


@command("retire")
def retire(args) -> Result:
    t = _open(args)
    m = t.retire(args.id, args.reason)
    return Result(envelope(memory_view(m), t.freshness()), f"retired {m.short_id}: {m.retired_reason}")


@command("index")
def index(args) -> Result:
    t = _open(args)
    stats = t.reindex()
    text = f"indexed {stats['files']} files ({stats['parsed']} parsed, {stats['removed']} removed)"
    if stats.get("skipped_names_count"):
        n = stats["skipped_names_count"]
        text += (f"\nskipped {n} file{'s' if n != 1 else ''} whose name is not UTF-8 (cannot be anchored): "
                 + ", ".join(stats["skipped_names"][:5]) + (" ..." if n > 5 else ""))
    return Result(envelope(stats, t.freshness()), text)


@command("doctor")
def doctor(args) -> Result:
    from . import doctor as dr

    t = _open(args)
    findings = dr.diagnose(t)
    code = 0 if all(f.ok for f in findings) else 1
    try:  # doctor must work where the cache cannot: it is what says why
        fresh = t.freshness()
    except (OSError, sqlite3.Error):
        fresh = {"indexed_at": None, "dirty": 0, "swept": False}
    return Result(envelope([f.view() for f in findings], fresh), dr.render(findings), code)


@command("export")
def export(args) -> Result:
    import orjson

    t = _open(args)
    doc = t.export()
    data = orjson.dumps(doc, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
    if args.out:
        from .output_file import write_output

        path = write_output(args.out, data, _is_export, "tether export")
        return Result(envelope({"file": str(path), "memories": len(doc["memories"])}, t.freshness()),
                      f"exported {len(doc['memories'])} memories to {path}")
    import sys

    sys.stdout.buffer.write(data)
    return Result(None, "", raw=True)


def _is_export(head: bytes) -> bool:
    """An earlier export, by its first bytes (sorted keys put `format` first, then `memories`)."""
    import re

    return re.match(rb'\{\s*"format"\s*:\s*\d+\s*,\s*"memories"\s*:', head) is not None


MAX_IMPORT_BYTES = 256 * 1024 * 1024  # ~80,000 memories; /dev/zero as the file must not fill memory


@command("import")
def import_(args) -> Result:
    import sys

    import orjson

    t = _open(args)
    try:
        if args.file == "-":
            raw = sys.stdin.buffer.read(MAX_IMPORT_BYTES + 1)
        else:
            with open(args.file, "rb") as f:  # a FIFO is fine here: `tether import <(...)` is one
                raw = f.read(MAX_IMPORT_BYTES + 1)
    except OSError as e:
        raise InvalidInput(f"cannot read {args.file}: {e.strerror}") from None
    if len(raw) > MAX_IMPORT_BYTES:
        raise InvalidInput(f"{args.file} is over {MAX_IMPORT_BYTES} bytes: not an export tether writes")
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise InvalidInput(f"{args.file} is not JSON: {e}") from None
    counts = t.import_(doc, replace=args.replace)
    text = (f"imported {counts['imported']}, replaced {counts['replaced']}, skipped {counts['skipped']} "
            f"(already present), refused {counts['refused']}")
    text += "".join(f"\n  refused #{r['index']} {(r['id'] or '?')[:8]}: {r['code']}: {r['message']}"
                    for r in counts["refusals"])
    return Result(envelope(counts, t.freshness()), text, 1 if counts["refused"] else 0)


@command("report")
def report(args) -> Result:
    from . import report as rp

    t = _open(args)
    path, data = rp.write(t, args.out)
    c = data["counts"]
    text = (f"wrote {path}\n{c['active']} active, {c['stale']} stale, {c['invalidated']} invalidated, "
            f"{c['quarantined']} quarantined; {c['superseded'] + c['retired']} closed")
    if args.open:
        import webbrowser

        if not webbrowser.open(path.as_uri()):
            text += "\nno browser found: open the file above in any browser"
    return Result(envelope({"file": str(path), "counts": c}, t.freshness(), stale=c["stale"],
                           invalidated=c["invalidated"]), text)


@command("demo")
def demo(args) -> Result:
    from .demo import run

    return Result(None, "", run(keep=args.keep), raw=True)
