"""`check` and `affected` in CI's own formats: GitHub workflow commands, SARIF 2.1.0, and a
pull-request comment in Markdown.

Memory text comes from files anyone can commit: every value here is kept on one line and escaped
for the format it lands in, so a summary cannot start a workflow command of its own, break out of
a SARIF string, or inject Markdown, HTML or @-mentions into a comment.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from tether import __version__
from tether.lifecycle.status import Reason, Status
from tether.lifecycle.verdicts import Verdict
from tether.store.files import Quarantined
from tether.surfaces.cli.render import anchor_line

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
QUARANTINED = "quarantined"  # a rule of its own: a memory file no one can read
# one sentence per reason: the SARIF rule's description, also what the report says of it
REASONS = {
    Reason.BODY_EDITED: "The anchored code was edited since the memory was written.",
    Reason.FILE_EDITED: "The anchored file was edited since the memory was written.",
    Reason.FILE_UNPARSABLE: "The anchored file cannot be read now (mid-edit, or too large to parse).",
    Reason.ANCHOR_DELETED: "The anchored code is gone from the repository.",
    Reason.ANCHOR_LOST: "Some of the memory's anchors are gone, others remain.",
    Reason.AMBIGUOUS_ANCHOR: "The anchored code moved and now exists in several places.",
    Reason.LOW_ENTROPY: "The anchored code moved or was renamed, but is too trivial to follow safely.",
    Reason.SEARCH_INCOMPLETE: "The search for where the anchored code went ran out of time.",
    QUARANTINED: "A memory file that does not parse: no one can read it until it is fixed.",
}
HINT = (
    "if it still holds: tether reanchor {id}; if the belief changed: tether supersede {id}; if gone: tether retire {id}"
)


def problems(verdicts: list[Verdict]):
    """(verdict, anchor, resolution) for every anchor that is not active, of memories that are not."""
    for v in verdicts:
        if v.status != Status.ACTIVE:
            for a, r in v.anchors:
                if r.status != Status.ACTIVE:
                    yield v, a, r


def _message(v: Verdict, a, r) -> str:
    m = v.memory
    return (
        f"{m.summary} (tether memory {m.short_id} on {a.spec()}: {r.status} {r.reason}; {HINT.format(id=m.short_id)})"
    )


# -- GitHub workflow commands -------------------------------------------------------------------
def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, file: str | None = None, line: int | None = None, title: str = "") -> str:
    """One workflow command: `::warning file=F,line=N,title=T::message`, every part escaped."""
    props = [f"file={_prop(file)}"] if file else []
    if file and line:
        props.append(f"line={line}")
    if title:
        props.append(f"title={_prop(title)}")
    return f"::{level} {','.join(props)}::{_data(message)}" if props else f"::{level}::{_data(message)}"


def github(
    verdicts: list[Verdict], quarantined: list[Quarantined], link_problems, strict: bool, prefix: str = ""
) -> str:
    """A warning at each stale or invalidated anchor's line (an error under --strict). `prefix`: the
    store's directory in its repository; GitHub names files from the repository's top."""
    level = "error" if strict else "warning"
    out = [
        command(
            level,
            _message(v, a, r),
            prefix + (r.path or a.path),
            r.start_line or 1,
            f"tether: memory {r.status} ({r.reason})",
        )
        for v, a, r in problems(verdicts)
    ]
    out += [
        command("error", f"{q.error} ({q.fix})", prefix + q.filename, 1, "tether: quarantined memory file")
        for q in quarantined
    ]
    out += [command(level, p.message, title=f"tether: {p.problem}") for p in link_problems]
    bad = sum(1 for v in verdicts if v.status != Status.ACTIVE)
    n = len(verdicts)
    out.append(
        f"tether: {n} {'memory' if n == 1 else 'memories'} checked, {bad} not active, {len(quarantined)} quarantined"
    )
    return "\n".join(out)


# -- SARIF 2.1.0 --------------------------------------------------------------------------------
def sarif(verdicts: list[Verdict], quarantined: list[Quarantined], strict: bool, prefix: str = "") -> dict:
    """One run, one result per stale or invalidated anchor at its file and line; rule ids are the
    reasons, the message the memory's summary. Quarantined memory files are errors. URIs are from
    the repository's top (`prefix`: the store's directory in it), as code scanning reads them."""
    level = "error" if strict else "warning"
    results: list[dict] = []
    rules: list[str] = []

    def result(rule: str, lvl: str, text: str, path: str, first: int | None, last: int | None, key: str) -> None:
        if rule not in rules:
            rules.append(rule)
        region = {"startLine": max(first or 1, 1)}
        if last and first and last >= first:
            region["endLine"] = last
        uri = quote(prefix + path, safe="/")
        location = {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"}, "region": region}
        results.append(
            {
                "ruleId": rule,
                "ruleIndex": rules.index(rule),
                "level": lvl,
                "message": {"text": text},
                "locations": [{"physicalLocation": location}],
                "partialFingerprints": {"tetherAnchor/v1": key},
            }
        )

    for v, a, r in problems(verdicts):
        key = f"{v.memory.id}:{a.spec()}"
        result(str(r.reason), level, _message(v, a, r), r.path or a.path, r.start_line, r.end_line, key)
    for q in quarantined:
        result(QUARANTINED, "error", f"{q.error} ({q.fix})", q.filename, 1, None, q.filename)
    driver = {
        "name": "tether",
        "version": __version__,
        "rules": [
            {
                "id": rule,
                "shortDescription": {"text": REASONS.get(rule, rule)},
                "defaultConfiguration": {"level": level},
            }
            for rule in rules
        ],
    }
    run = {
        "tool": {"driver": driver},
        "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the repository root"}}},
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [dict(run, results=results)]}


# -- Markdown (a pull-request comment) ----------------------------------------------------------
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#!|~])")  # the text never starts a line: no - + >


def md_text(text: str) -> str:
    """Untrusted text as inert Markdown on one line: no markup, no HTML, no mention."""
    text = " ".join(text.split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", text).replace("@", "`@`")


def md_code(text: str) -> str:
    """A code span that no backtick in `text` can close early."""
    text = " ".join(text.split())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_fence(body: str, lang: str = "") -> str:
    fence = "`" * max(3, max((len(run) for run in re.findall(r"`+", body)), default=0) + 1)
    return f"{fence}{lang}\n{body}\n{fence}"


EFFECT_WORDS = {
    "stale": "stale: the change edited the code it describes",
    "deleted": "deleted: the code it describes is gone",
    "followed": "followed: the code moved, the memory went with it",
    "active": "still active: the change touched its lines, not what they mean",
    "new": "new in this change",
    "already_stale": "already stale at the base: the diff is the change's own, from the base to now",
}
ALWAYS_COUNTED = ("deleted", "stale", "followed", "active")  # the text summary names these even at 0
MAX_COMMENT_CHARS = 60_000  # GitHub refuses a comment over 65,536 characters


def describe(t, code=md_code, text=md_text) -> str:
    """What the change did to a touched memory, in a sentence; `code`/`text` make untrusted parts
    inert for the output they land in."""
    if t.effect == "reanchored" and t.was is not None:
        bad = [(a, r) for a, r in t.was.anchors if r.status != Status.ACTIVE]
        where = ", ".join(code(a.spec()) for a, _ in bad) or code(t.was.memory.short_id)
        return f"re-anchored in this change (was {t.was.status} at {where}): check that it still holds for the new code"
    if t.effect == "retired":
        m = t.verdict.memory
        if m.retired_reason:
            return f"retired in this change: {text(m.retired_reason)}"
        after = m.links.get("superseded_by") or []
        return "superseded in this change" + (f" by {', '.join(code(i[:8]) for i in after)}" if after else "")
    if t.effect == "restored":
        return f"restored: {t.before} at the base, the change made it hold again"
    return EFFECT_WORDS[t.effect]


def against(c, code=md_code) -> str:
    """What the change was compared with, for people."""
    if c.ref:
        return f"{code(c.ref)} (merge-base {code(c.base[:12])})"
    if c.unborn:
        return "no commit (the repository has no commits yet)"
    return f"HEAD ({code(c.base[:12])})"


def markdown(found, limit: int = MAX_COMMENT_CHARS) -> str:
    """`affected` as a pull-request comment: what each touched memory says, what happened to it,
    the diff, and what to do; at most `limit` characters (the rest is counted, not shown)."""
    c, touched = found.changes, found.touched
    head = f"### tether: {len(touched)} {'memory' if len(touched) == 1 else 'memories'} this change affects"
    files = f"{len(c.files)} {'staged ' if c.staged else ''}changed {'file' if len(c.files) == 1 else 'files'}"
    out = [head, "", f"Compared with {against(c)}: {files}."]
    if not touched:
        out += ["", "No memory is anchored to the changed lines."]
        return "\n".join(out)
    counts = found.counts()
    tail = ["", ", ".join(f"{n} {e}" for e, n in counts.items() if n) + "."]
    if counts["stale"] or counts["deleted"] or counts["reanchored"] or counts["already_stale"]:
        tail.append(
            "For each stale or deleted memory: `tether reanchor ID` if it still holds, "
            "`tether supersede ID TEXT` if the belief changed, `tether retire ID --reason R` if it is gone."
        )
    size = sum(len(x) + 1 for x in out + tail) + 80  # the room the "... and N more" line takes
    for n, t in enumerate(touched):
        block = _md_block(t)
        cost = sum(len(x) + 1 for x in block)
        if size + cost > limit:
            out += ["", f"... and {len(touched) - n} more (run `tether affected` locally)"]
            break
        out += block
        size += cost
    return "\n".join(out + tail)


def _md_block(t) -> list[str]:
    v, m = t.verdict, t.verdict.memory
    out = ["", f"- **{t.effect}** {md_code(m.short_id)} {md_text(m.summary)}", f"  {describe(t)}"]
    for i, where in zip(t.anchors, t.at_base or (None,) * len(t.anchors)):
        a, r = v.anchors[i]
        reason = f" {md_code(str(r.reason))}" if r.reason else ""
        at = f" (at the base: {md_code(where)})" if where and where not in (r.path, a.path) else ""
        out.append(f"  - {md_code(anchor_line(a, r))} {r.status}{reason}{at}")
        if r.diff:
            diff = md_fence(r.diff, "diff").replace("\n", "\n    ")
            out += ["", "    <details><summary>what changed</summary>", "", f"    {diff}", "", "    </details>", ""]
    return out
