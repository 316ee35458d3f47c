"""A memory's file: JSON front matter between `---` lines, then a Markdown body (the values it
holds are store/model.py's)."""

from __future__ import annotations

import re

from tether.errors import StoreCorrupt
from tether.files.private import private_path
from tether.files.read import Unreadable, read_regular_file
from tether.store.confidence import BASE_CONFIDENCE, SOURCES
from tether.store.model import FORMAT, Anchor, Memory, parse_time
from tether.store.sentences import first_sentence

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every hook
if TYPE_CHECKING:
    import os
    from typing import Any

KINDS = ("decision", "fact", "gotcha", "failed-attempt", "convention")
ANCHOR_TYPES = ("symbol", "file", "section", "key")
LINK_TYPES = ("supersedes", "superseded_by", "contradicts", "supports")
FENCE = "---"
# A memory holds at most 16,000 characters of body (validate.MAX_BODY_CHARS), at most 64 KB in
# UTF-8, plus its front matter: a file past this was not written by tether and is not parsed.
MAX_FILE_BYTES = 256 * 1024


def new_id() -> str:
    import uuid  # only writes need it; it imports `platform`, a cost on every hook that reads

    return str(uuid.uuid4())


def dumps(memory: Memory) -> bytes:
    """The file's bytes: orjson front matter (indent 2, sorted keys) fenced by `---`, then the body."""
    import orjson  # writes and parses only: a push served from the parsed-file cache never loads it (nor uuid)

    head = orjson.dumps(memory.front_matter(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
    body = memory.body.rstrip("\n")
    return b"---\n" + head + b"\n---\n" + body.encode("utf-8") + b"\n"


def load_file(path: str, filename: str | None = None) -> tuple[os.stat_result, Memory]:
    """(stat, memory) of one memory file. Anything but a regular file of at most MAX_FILE_BYTES
    (a FIFO, a device, a link, a directory named `x.md`, a 50 MB body) is StoreCorrupt: quarantined
    without being read. OSError for a file that vanished or is denied."""
    st, data = read_file(path)
    return st, loads(data, filename)


def read_file(path: str) -> tuple[os.stat_result, bytes]:
    """(stat, bytes) of a memory file, refused as `load_file` refuses it, not yet parsed."""
    try:
        return read_regular_file(path, MAX_FILE_BYTES)
    except Unreadable as e:
        raise StoreCorrupt(e.message, reason=e.reason) from None


# both sides of a conflict block git left in the file (a body may well hold a `=======` line)
_CONFLICT_START = re.compile(r"^<{7}(?:[ \t]|$)", re.MULTILINE)
_CONFLICT_END = re.compile(r"^>{7}(?:[ \t]|$)", re.MULTILINE)
_CODE_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def _conflicted(text: str) -> bool:
    """True when git left a conflict block in the file: a `<<<<<<<` line outside the body's fenced
    code, and a `>>>>>>>` line after it. Markers quoted in a fenced block of the body (a memory
    about resolving merges) are its text; in the front matter, or in the body's prose, they are a
    merge that was never resolved. Indented code never matches: git writes its markers at the
    start of the line."""
    if "<<<<<<<" not in text or not (_CONFLICT_START.search(text) and _CONFLICT_END.search(text)):
        return False
    head_end = text.find("\n" + FENCE + "\n", len(FENCE)) if text.startswith(FENCE + "\n") else 0
    offset, fence, seen_start = 0, None, False
    for line in text.split("\n"):
        in_body = head_end >= 0 and offset > head_end
        offset += len(line) + 1
        m = _CODE_FENCE.match(line) if in_body else None
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
                fence = None
            elif _CONFLICT_END.match(line) and seen_start:
                return True  # a conflict opened in prose and closed inside a fence one side added
            continue
        if m:
            fence = m.group(1)
            continue
        if _CONFLICT_START.match(line):
            seen_start = True
        elif _CONFLICT_END.match(line) and seen_start:
            return True
    return False


def loads(data: bytes, filename: str | None = None) -> Memory:
    """Parse a memory file; any defect raises StoreCorrupt naming it (the file is then quarantined)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise StoreCorrupt(f"not UTF-8 at byte {e.start}") from None
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    if _conflicted(text):
        raise StoreCorrupt("git merge-conflict markers (<<<<<<< ... >>>>>>>)", reason="merge_conflict")
    if not text.startswith(FENCE + "\n"):
        raise StoreCorrupt("missing front matter: the file must start with a '---' line")
    end = text.find("\n" + FENCE + "\n", len(FENCE))
    if end == -1:
        if text.endswith("\n" + FENCE):
            end = len(text) - len(FENCE) - 1
        else:
            raise StoreCorrupt("front matter is not closed by a '---' line")
    head, body = text[len(FENCE) + 1 : end], text[end + len(FENCE) + 2 :]
    import orjson  # as in dumps

    try:
        meta = orjson.loads(head)
    except orjson.JSONDecodeError as e:
        raise StoreCorrupt(f"front matter is not valid JSON: {e}") from None
    return from_front_matter(meta, body.rstrip("\n"), filename)


def _need(meta: dict, key: str, kind: type | tuple[type, ...], optional: bool = False) -> Any:
    value = meta.get(key)
    if value.__class__ is kind:  # the common case, first (never a bool for a number: bool is its own class)
        return value
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind in (int, float, (int, float)):
        raise StoreCorrupt(f"front matter field {key!r} is missing or has the wrong type")
    return value


def from_front_matter(meta: Any, body: str, filename: str | None = None) -> Memory:
    if not isinstance(meta, dict):
        raise StoreCorrupt("front matter must be a JSON object")
    kind = _need(meta, "kind", str)
    if kind not in KINDS:
        raise StoreCorrupt(f"unknown kind {kind!r}")
    anchors = []
    version = _need(meta, "format", int, optional=True) or FORMAT
    if version > FORMAT:
        raise StoreCorrupt(f"written by a newer tether (format {version}; this one reads {FORMAT}): upgrade tether")
    if not _need(meta, "anchors", list):
        raise StoreCorrupt("a memory needs at least one anchor")
    for raw in _need(meta, "anchors", list):
        if not isinstance(raw, dict):
            raise StoreCorrupt("each anchor must be a JSON object")
        a_type = _need(raw, "type", str)
        if a_type not in ANCHOR_TYPES:
            raise StoreCorrupt(f"unknown anchor type {a_type!r}")
        anchors.append(
            Anchor(
                a_type,
                _need(raw, "path", str),
                _need(raw, "hash", str),
                _need(raw, "size", int, optional=True) or 0,
                _need(raw, "symbol", str, optional=True),
                _need(raw, "discriminator", str, optional=True),
                _need(raw, "language", str, optional=True),
            )
        )
        if a_type != "file" and not anchors[-1].symbol:
            raise StoreCorrupt(f"a {a_type} anchor needs a 'symbol'")
        if anchors[-1].path not in _FINE_PATHS:
            _check_path(anchors[-1].path)
    links = _need(meta, "links", dict, optional=True) or {}
    for k, v in links.items():
        if k not in LINK_TYPES or not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise StoreCorrupt(f"malformed link {k!r}")
    tags = _need(meta, "tags", list, optional=True) or []
    if not all(isinstance(t, str) for t in tags):
        raise StoreCorrupt("tags must be strings")
    evidence = _need(meta, "evidence", dict, optional=True)
    if evidence is not None and not all(isinstance(v, str) for v in evidence.values()):
        raise StoreCorrupt("evidence values must be strings")
    source = _need(meta, "source", str, optional=True) or "explicit"
    if source not in SOURCES:
        raise StoreCorrupt(f"unknown source {source!r}")
    recorded = _need(meta, "recorded_at", str)
    times = {k: _need(meta, k, str, optional=True) for k in ("valid_from", "valid_to", "verified_at")}
    for k, v in (("recorded_at", recorded), *times.items()):
        if v is not None and v not in _FINE_TIMES:
            try:
                parse_time(v)
            except ValueError:
                raise StoreCorrupt(f"{k} is not an ISO 8601 time") from None
            _remember(_FINE_TIMES, v)
    mid = _need(meta, "id", str)
    if not re.fullmatch(r"[0-9a-fA-F-]{8,64}", mid):
        raise StoreCorrupt("id must be a uuid")
    commit = _need(meta, "commit", str, optional=True)
    if commit is not None and not is_object_name(commit):
        # it reaches `git show` as a revision: a value such as `--output=PATH` would be an option
        raise StoreCorrupt("commit must be a git object name (4 to 64 hex digits) or null")
    return Memory(
        id=mid,
        kind=kind,
        summary=_need(meta, "summary", str),
        body=body,
        anchors=tuple(anchors),
        recorded_at=recorded,
        valid_from=times["valid_from"] or recorded,
        verified_at=times["verified_at"] or recorded,
        source=source,
        confidence=base_confidence(_need(meta, "confidence", (int, float), optional=True), _earned(source, evidence)),
        evidence=evidence,
        links={k: list(v) for k, v in links.items()},
        valid_to=times["valid_to"],
        retired_reason=_need(meta, "retired_reason", str, optional=True),
        commit=commit,
        tags=tuple(tags),
        format=version,
        filename=filename,
    )


def _earned(source: str, evidence: dict | None) -> str:
    """`verified` is earned by a command that re-verifies the memory: a file claiming it without
    one is trusted as the writer's word (`explicit`)."""
    command = (evidence or {}).get("command")
    return source if source != "verified" or (command and command.strip()) else "explicit"


def base_confidence(stored: float | None, source: str) -> float:
    """The stored base, clamped to [0, the source's base]: confidence is derived, so a file saying
    5.0 or 1e308 cannot make a memory more certain than its source allows (a lower one is kept:
    someone chose to trust it less)."""
    top = BASE_CONFIDENCE[source]
    if stored is None:
        return top
    return min(max(float(stored), 0.0), top)


def is_object_name(text: str) -> bool:
    """A hex git object name, full or abbreviated: the only revisions tether reads from a file."""
    return re.fullmatch(r"[0-9a-fA-F]{4,64}", text) is not None


# Anchor paths and times already found valid, by their spelling: a pull's thousands of memories
# share a few of each, and checking them again was a third of parsing a file. Bounded.
_FINE_PATHS: set[str] = set()
_FINE_TIMES: set[str] = set()
_FINE_MAX = 20_000


def _remember(fine: set[str], value: str) -> None:
    if len(fine) >= _FINE_MAX:
        fine.clear()
    fine.add(value)


def _check_path(path: str) -> None:
    if not _repo_path(path):  # a hand-edited or hostile file must not make us read outside the repo
        raise StoreCorrupt("anchor path must be relative to the repository root, without '..'")
    why = private_path(path)
    if why:  # its diff would print the file: a teammate's commit must not show you your own .env
        raise StoreCorrupt(f"anchor {path} is {why}: such files are never anchored", reason="private_anchor")
    _remember(_FINE_PATHS, path)


def _repo_path(path: str) -> bool:
    return bool(path) and "\0" not in path and not path.startswith("/") and ".." not in path.split("/")


def slug(text: str, limit: int = 48) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    out = ""
    for w in words:
        if len(out) + len(w) + 1 > limit:
            break
        out = f"{out}-{w}" if out else w
    return out or "memory"


def summarize(body: str, limit: int = 120) -> str:
    """A one-line summary from the body: its first sentence or line (`store/sentences.py` says
    where a sentence ends: not at `e.g.`), cut at a word boundary."""
    first = first_sentence(body.strip().split("\n", 1)[0].strip().lstrip("#").strip())
    if len(first) <= limit:
        return first
    cut = first[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"
