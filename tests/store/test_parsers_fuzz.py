"""Property tests: the memory-file and anchor-spec parsers return a value or a typed error, never crash."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import orjson
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from tether.anchor.spec import AnchorSpec, parse_spec
from tether.errors import InvalidSpec, StoreCorrupt
from tether.files.private import private_path
from tether.store.memory import ANCHOR_TYPES, BASE_CONFIDENCE, KINDS, LINK_TYPES, SOURCES, dumps, loads
from tether.store.model import Anchor, Memory
from tether.store.secrets import parse_allowlist, scan

FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- memory files ---------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
FIELDS = [
    "id",
    "kind",
    "summary",
    "anchors",
    "evidence",
    "source",
    "confidence",
    "links",
    "valid_from",
    "valid_to",
    "recorded_at",
    "verified_at",
    "retired_reason",
    "commit",
    "tags",
    "format",
]
times = st.datetimes(
    min_value=datetime(1970, 1, 2), max_value=datetime(9999, 1, 1), timezones=st.just(timezone.utc)
).map(lambda d: d.isoformat(timespec="milliseconds").replace("+00:00", "Z"))
# a field gets either a plausible value or junk, so the parser's checks past the first are reached too
plausible = {
    "id": st.uuids().map(str),
    "kind": st.sampled_from(KINDS),
    "source": st.sampled_from(SOURCES),
    "recorded_at": times,
    "valid_from": times,
    "valid_to": st.none() | times,
    "verified_at": times,
    "tags": st.lists(st.text(max_size=8), max_size=3),
    "format": st.just(1),
    "anchors": st.lists(
        st.fixed_dictionaries(
            {"type": st.sampled_from(ANCHOR_TYPES), "path": st.text(max_size=10), "hash": st.text(max_size=10)},
            optional={
                "size": json_values,
                "symbol": json_values,
                "discriminator": json_values,
                "language": json_values,
            },
        ),
        max_size=3,
    ),
    "links": st.dictionaries(
        st.sampled_from(LINK_TYPES), st.lists(st.text(max_size=5), max_size=2) | json_values, max_size=2
    ),
}
front_matter = st.fixed_dictionaries(
    {}, optional={f: (plausible[f] | json_values) if f in plausible else json_values for f in FIELDS}
)


def _file(meta: object, body: str, crlf: bool) -> bytes:
    text = "---\n" + orjson.dumps(meta, option=orjson.OPT_INDENT_2).decode() + "\n---\n" + body
    return (text.replace("\n", "\r\n") if crlf else text).encode("utf-8", "surrogatepass")


@FUZZ
@given(st.binary(max_size=2000))
def test_loads_arbitrary_bytes_is_a_memory_or_store_corrupt(data):
    _loads_or_corrupt(data)


@FUZZ
@given(st.text(max_size=300))
def test_loads_arbitrary_text_after_a_fence_is_a_memory_or_store_corrupt(text):
    _loads_or_corrupt(("---\n" + text).encode("utf-8", "surrogatepass"))


@FUZZ
@given(front_matter | json_values, st.text(max_size=200), st.booleans())
def test_loads_any_json_front_matter_is_a_memory_or_store_corrupt(meta, body, crlf):
    _loads_or_corrupt(_file(meta, body, crlf))


def _loads_or_corrupt(data: bytes) -> None:
    try:
        m = loads(data, "x.md")
    except StoreCorrupt:
        return
    assert isinstance(m, Memory)


# canonical bodies: what the service stores (stripped; a CRLF pair is folded to LF on read, see below)
bodies = st.text(min_size=1, max_size=400).map(lambda t: t.replace("\r\n", "\n").strip()).filter(bool)
symbols = st.text(min_size=1, max_size=30).filter(lambda s: s.strip())
paths = (
    st.lists(
        st.text(min_size=1, max_size=12).filter(lambda p: "/" not in p and "\0" not in p and p != ".."),
        min_size=1,
        max_size=4,
    )
    .map("/".join)
    .filter(lambda p: not private_path(p))  # credential files and .git/: refused as the file is read
)


@st.composite
def anchors(draw) -> Anchor:
    kind = draw(st.sampled_from(ANCHOR_TYPES))
    return Anchor(
        kind,
        draw(paths),
        "t1:" + draw(st.text("0123456789abcdef", min_size=32, max_size=32)),
        draw(st.integers(0, 10**9)),
        None if kind == "file" else draw(symbols),
        draw(st.none() | st.text(max_size=20)) if kind != "file" else None,
        draw(st.none() | st.sampled_from(["python", "go"])),
    )


@st.composite
def memories(draw) -> Memory:
    recorded = draw(times)
    source = draw(st.sampled_from(SOURCES))
    evidence = draw(st.none() | st.fixed_dictionaries({"command": st.text(max_size=60)}))
    earned = source if (evidence or {}).get("command", "").strip() else "explicit"  # verified needs a command
    return Memory(
        id=str(draw(st.uuids())),
        kind=draw(st.sampled_from(KINDS)),
        summary=draw(st.text(max_size=120)),
        body=draw(bodies),
        anchors=tuple(draw(st.lists(anchors(), min_size=1, max_size=4))),
        recorded_at=recorded,
        valid_from=draw(times),
        verified_at=draw(times),
        source=source,
        confidence=draw(st.floats(0, BASE_CONFIDENCE[earned])),
        evidence=evidence,
        links=draw(st.dictionaries(st.sampled_from(LINK_TYPES), st.lists(st.uuids().map(str), min_size=1, max_size=3))),
        valid_to=draw(st.none() | times),
        retired_reason=draw(st.none() | st.text(max_size=60)),
        commit=draw(st.none() | st.text("0123456789abcdef", min_size=40, max_size=40)),
        tags=tuple(draw(st.lists(st.text(max_size=20), max_size=5))),
    )


@FUZZ
@given(memories())
def test_dumps_then_loads_round_trips_exactly(m):
    back = loads(dumps(m), "f.md")
    assert back == m.evolve(filename="f.md")
    assert dumps(back) == dumps(m)


@FUZZ
@given(memories(), st.booleans(), st.booleans())
def test_git_line_endings_and_bom_do_not_change_the_memory(m, crlf, bom):
    data = dumps(m)
    if crlf:
        data = data.replace(b"\n", b"\r\n")
    if bom:
        data = b"\xef\xbb\xbf" + data
    assert loads(data) == m


def test_fixed_examples_of_defects_are_store_corrupt():
    good = dumps(
        Memory(
            str(uuid.uuid4()),
            "fact",
            "s",
            "b",
            (Anchor("file", "a.py", "c1:0", 1),),
            "2024-01-01",
            "2024-01-01",
            "2024-01-01",
        )
    )
    for data in (
        b"",
        b"---",
        b"---\n",
        b"---\n{}\n---\n",
        b"---\n[]\n---\n",
        b"\xff\xfe---\n",
        good.replace(b'"fact"', b'"fact2"'),
        good.replace(b'"2024-01-01"', b'"2024-13-01"', 1),
        good.replace(b'"size": 1', b'"size": true'),
        good.replace(b'"confidence": 0.8', b'"confidence": "high"'),
        good[:-20],
        good.replace(b'"a.py"', b'"../../etc/passwd"'),
        good.replace(b'"a.py"', b'"/etc/passwd"'),
        good.replace(b'"a.py"', b'""'),
        good.replace(b'"evidence": null', b'"evidence": {"command": 1}'),
    ):
        try:
            loads(data)
        except StoreCorrupt:
            continue
        raise AssertionError(f"accepted a defective file: {data[:60]!r}")


@st.composite
def mutated_front_matter(draw) -> dict:
    """A valid memory's front matter with a few fields (top level or in an anchor) deleted or replaced by junk."""
    meta = draw(memories()).front_matter()
    for _ in range(draw(st.integers(1, 3))):
        target = meta
        held = meta.get("anchors")
        if draw(st.booleans()) and isinstance(held, list) and held:
            target = held[draw(st.integers(0, len(held) - 1))]
        if not isinstance(target, dict) or not target:
            break
        key = draw(st.sampled_from(sorted(target)))
        if draw(st.booleans()):
            del target[key]
        else:
            target[key] = draw(json_values)
    return meta


@FUZZ
@given(mutated_front_matter(), bodies)
def test_loads_a_damaged_valid_memory_is_a_memory_or_store_corrupt(meta, body):
    _loads_or_corrupt(_file(meta, body, False))


# -- anchor specs -----------------------------------------------------------------------------

spec_alphabet = st.sampled_from(
    [
        ":",
        "::",
        "@",
        "#",
        "@#1",
        "/",
        ".",
        " ",
        "\t",
        "\n",
        "\0",
        "a.py",
        "doc.md",
        "c.yaml",
        "Foo",
        "bar",
        "(int x)",
        "é",
        "\u200b",
        "..",
        "~",
    ]
)
spec_like = st.lists(spec_alphabet | st.text(max_size=5), max_size=8).map("".join)


@FUZZ
@given(st.text(max_size=200) | spec_like)
def test_parse_spec_is_a_spec_or_invalid_spec(text):
    try:
        spec = parse_spec(text)
    except InvalidSpec:
        return
    assert isinstance(spec, AnchorSpec) and spec.type in ANCHOR_TYPES and spec.path.strip() == spec.path and spec.path
    assert (spec.name is None) == (spec.type == "file")


@FUZZ
@given(st.one_of(st.none(), st.integers(), st.binary(max_size=10), st.lists(st.text(max_size=3), max_size=2)))
def test_parse_spec_of_a_non_string_is_invalid_spec(value):
    try:
        parse_spec(value)
    except InvalidSpec:
        return
    raise AssertionError("accepted a non-string spec")


@FUZZ
@given(st.text(max_size=200) | spec_like)
def test_a_parsed_spec_prints_back_to_the_same_spec(text):
    try:
        spec = parse_spec(text)
    except InvalidSpec:
        return
    assume(":" not in spec.path and "#" not in spec.path)  # `a:` + `::b` or `x.md#A::B` cannot be told apart
    assert parse_spec(str(spec)) == spec


# -- the secret gate never crashes either -----------------------------------------------------


@FUZZ
@given(st.text(max_size=600), st.text(max_size=200))
def test_scan_and_allowlist_take_any_text(text, allow):
    for f in scan(text, parse_allowlist(allow)):
        assert 0 <= f.start < f.end <= len(text) and f.line >= 1 and f.column >= 1
