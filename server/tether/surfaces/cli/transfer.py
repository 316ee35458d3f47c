"""Commands that move memories between stores: `export` and `import`."""

from __future__ import annotations

import re
import sys

import orjson

from tether.errors import InvalidInput
from tether.files.output import write_output
from tether.lifecycle.views import envelope
from tether.surfaces.cli.args import Add, repository
from tether.surfaces.cli.output import Result

MAX_IMPORT_BYTES = 256 * 1024 * 1024  # ~80,000 memories; /dev/zero as the file must not fill memory
_EXPORT_HEAD = re.compile(rb'\{\s*"format"\s*:\s*\d+\s*,\s*"memories"\s*:')  # sorted keys: format, then memories


def register(add: Add) -> None:
    s = add("export", "write every memory (closed ones too) as one JSON document")
    s.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    s.set_defaults(handler=export)

    s = add("import", "read memories from an export; existing ids are kept unless --replace")
    s.add_argument("file", help="an export file, or - for standard input")
    s.add_argument("--replace", action="store_true", help="overwrite memories whose id already exists")
    s.set_defaults(handler=import_)


def export(args) -> Result:
    t = repository(args)
    doc = t.export()
    data = orjson.dumps(doc, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
    if args.out:
        path = write_output(args.out, data, lambda head: _EXPORT_HEAD.match(head) is not None, "tether export")
        return Result(
            envelope({"file": str(path), "memories": len(doc["memories"])}, t.freshness()),
            f"exported {len(doc['memories'])} memories to {path}",
        )
    sys.stdout.buffer.write(data)
    return Result(None, "", raw=True)


def import_(args) -> Result:
    t = repository(args)
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
    text = (
        f"imported {counts['imported']}, replaced {counts['replaced']}, skipped {counts['skipped']} "
        f"(already present), refused {counts['refused']}"
    )
    text += "".join(
        f"\n  refused #{r['index']} {(r['id'] or '?')[:8]}: {r['code']}: {r['message']}" for r in counts["refusals"]
    )
    return Result(envelope(counts, t.freshness()), text, 1 if counts["refused"] else 0)
