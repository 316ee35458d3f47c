"""Parsed memory files kept in the cache (store/parsed.py): a read of an unchanged file is rebuilt
from its row, and exactly as right as a parse. Any edit is seen, whatever it does to the mtime;
a file whose bytes are the same is not parsed again; a bad file is refused on every read."""

from __future__ import annotations

import os
import time

import pytest

from tether.service import Tether
from tether.store import memory as fmt, parsed
from tether.store.model import Anchor, Memory

SRC = "def fee(amount):\n    return round(amount * 0.029 + 0.30, 2)\n\n\ndef tax(amount):\n    return amount * 0.2\n"


def _full_memory() -> Memory:
    return Memory(
        id="0f0e0d0c-0000-4000-8000-000000000001",
        kind="gotcha",
        summary="Fees round half-even",
        body="Fees round half-even.\n\nSee the memo.",
        anchors=(
            Anchor("symbol", "src/fees.py", "t2:abc", 40, "fee", "2", "python"),
            Anchor("file", "config.yaml", "c1:def", 12),
        ),
        recorded_at="2026-01-01T00:00:00.000Z",
        valid_from="2026-01-01T00:00:00.000Z",
        verified_at="2026-01-02T00:00:00.000Z",
        source="verified",
        confidence=0.95,
        evidence={"command": "pytest -k fee"},
        links={"supports": ["0f0e0d0c-0000-4000-8000-000000000002"]},
        valid_to="2026-02-01T00:00:00.000Z",
        retired_reason="superseded",
        commit="abcdef12",
        tags=("billing", "money"),
        format=1,
        filename=".tether/memories/fees--0f0e0d0c.md",
    )


def test_a_row_holds_every_field_of_a_memory():
    m = _full_memory()
    assert parsed.decode(parsed.encode(m)) == m
    for name in Memory.__slots__:  # a field added to Memory must be added to the row
        assert getattr(parsed.decode(parsed.encode(m)), name) == getattr(m, name), name
    assert len(Memory.__slots__) == 18 and len(Anchor.__slots__) == 7


@pytest.fixture
def store(repo):
    repo.write("src/fees.py", SRC)
    repo.commit("fees")
    repo.remember("Card fees are 2.9% plus 30 cents.", "src/fees.py::fee")
    repo.remember("Tax is a flat 20%.", "src/fees.py::tax")
    time.sleep(2.2)  # older than the racy window: rows written from now on are trusted
    return repo


def _load(repo):
    t = Tether(repo.path)
    try:
        return t.store.load()
    finally:
        t.close()


def _parses(monkeypatch) -> list[str]:
    calls: list[str] = []
    real = fmt.loads

    def counting(data, filename=None):
        calls.append(filename)
        return real(data, filename)

    monkeypatch.setattr(fmt, "loads", counting)
    return calls


def test_an_unchanged_store_is_read_from_its_rows(store, monkeypatch):
    first, _ = _load(store)
    calls = _parses(monkeypatch)
    again, bad = _load(store)
    assert calls == [] and bad == []
    assert again == first  # every field, every anchor, the file names


def test_an_edit_is_seen_even_with_the_size_and_mtime_put_back(store, monkeypatch):
    _load(store)
    (path,) = [p for p in (store.path / ".tether" / "memories").iterdir() if "tax" in p.name]
    st = path.stat()
    data = path.read_bytes()
    edited = data.replace(b"flat 20%", b"flat 21%")
    assert len(edited) == len(data)
    path.write_bytes(edited)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # rsync -t, touch -r: only ctime tells
    calls = _parses(monkeypatch)
    mems, _ = _load(store)
    assert [m.body for m in mems if "Tax" in m.body] == ["Tax is a flat 21%."]
    assert calls == [f".tether/memories/{path.name}"]  # that one file, parsed again


def test_the_same_bytes_rewritten_are_not_parsed_again(store, monkeypatch):
    first, _ = _load(store)
    for p in (store.path / ".tether" / "memories").iterdir():
        p.write_bytes(p.read_bytes())  # a checkout, a `git pull` rewriting them: new stat, same text
    calls = _parses(monkeypatch)
    assert _load(store)[0] == first and calls == []


def test_a_bad_file_is_refused_on_every_read(store):
    d = store.path / ".tether" / "memories"
    (d / "broken--00000000.md").write_text("---\n{not json\n---\nbody\n")
    time.sleep(2.2)
    for _ in range(2):
        mems, bad = _load(store)
        assert len(mems) == 2
        assert [(q.filename, q.reason) for q in bad] == [(".tether/memories/broken--00000000.md", "malformed")]


def test_a_deleted_file_is_gone_and_its_row_forgotten(store):
    _load(store)
    (path,) = [p for p in (store.path / ".tether" / "memories").iterdir() if "tax" in p.name]
    path.unlink()
    mems, _ = _load(store)
    assert [m.summary for m in mems] == ["Card fees are 2.9% plus 30 cents."]
    t = Tether(store.path)
    try:
        names = [r[0] for r in t.index.conn.execute("SELECT name FROM mem_parsed")]
    finally:
        t.close()
    assert names == [p.name for p in (store.path / ".tether" / "memories").iterdir()]
