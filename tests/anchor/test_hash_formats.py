"""Memories written before their language's hash format changed. The fixture's memory files were
written by tether, on the code beside them, while their language hashed in format 1 (`t1:`): the
Rust and Go ones at 7631558, the Python ones at cfe8eb3."""

from __future__ import annotations

import shutil

from where import FIXTURES

FIXTURE = FIXTURES / "format1"
ROUNDING = "d0cbd495-b550-45ff-bb2c-84bd6290226f"  # src/order.rs::OrderLine.total_cents
CAMEL = "8beddf16-f5c4-4146-934c-6b7b0af3931d"  # src/order.rs::OrderLine
PARSE = "e4dda5b6-903a-46aa-b5a1-108579afc763"  # src/level.go::Parse
FRAME = "a1219712-d487-4e3d-914a-441fe60cb03a"  # src/codec.py::Codec.frame (format 2 reads it differently)
RESET = "a7162b01-b853-431e-9e6f-67613323af5e"  # src/codec.py::Codec.reset (format 2 reads it differently)
DELAYS = "cf332532-da1f-4917-8bfe-5ffc6f0c58bc"  # src/codec.py::retry_delays (alike in both formats)
EVERY = ("OrderLine", "OrderLine.total_cents", "Parse", "Warn", "Codec.frame", "Codec.reset", "retry_delays")


def _old_memories(repo):
    shutil.copytree(FIXTURE / "src", repo.path / "src")
    repo.commit()
    shutil.copytree(FIXTURE / "memories", repo.path / ".tether" / "memories")


def test_format_1_memories_on_unchanged_code_stay_active(repo):
    _old_memories(repo)
    items = repo.check()
    assert len(items) == len(EVERY)
    assert {i["anchors"][0]["symbol"]: i["status"] for i in items.values()} == dict.fromkeys(EVERY, "active")
    assert all(b'"hash": "t1:' in data for data in repo.memory_files().values())  # checking rewrites nothing


def test_format_1_memories_go_stale_on_an_edit_and_reanchor_into_the_new_format(repo):
    _old_memories(repo)
    repo.replace(
        "src/order.rs", "self.unit_cents * u64::from(self.quantity)", "self.unit_cents * u64::from(self.quantity) * 2"
    )
    repo.replace("src/level.go", 'case "warn":', 'case "warn", "warning":')
    items = repo.check()
    assert (items[ROUNDING]["status"], items[ROUNDING]["reason"]) == ("stale", "body_edited")
    assert (items[PARSE]["status"], items[PARSE]["reason"]) == ("stale", "body_edited")
    assert items[CAMEL]["status"] == "active"
    # re-bound, the memory holds a format-2 hash, which sees an edited outer attribute
    repo.run("reanchor", CAMEL)
    assert repo.check()[CAMEL]["status"] == "active"
    repo.replace("src/order.rs", '#[serde(rename_all = "camelCase")]', '#[serde(rename_all = "snake_case")]')
    assert (repo.check()[CAMEL]["status"], repo.check()[CAMEL]["reason"]) == ("stale", "body_edited")


def test_a_format_1_memory_on_code_both_formats_hash_alike_still_follows_a_move(repo):
    _old_memories(repo)
    repo.move("src/level.go", "internal/logging/level.go")
    repo.commit("move")
    item = repo.check()[PARSE]
    assert (item["status"], item["anchors"][0]["path"], item["anchors"][0]["symbol"]) == (
        "active",
        "internal/logging/level.go",
        "Parse",
    )


def test_a_format_1_python_memory_goes_stale_on_an_edit_and_reanchored_it_reads_lint_fixes_as_format_2(repo):
    _old_memories(repo)
    repo.replace("src/codec.py", 'return b"\\xFE" + payload', 'return b"\\xFD" + payload')
    repo.replace(
        "src/codec.py",
        '        """Drop what is buffered."""\n        pass\n',
        '        """Drop what is buffered."""\n        self.buf = b""\n',
    )
    items = repo.check()
    assert [(items[m]["status"], items[m]["reason"]) for m in (FRAME, RESET)] == [("stale", "body_edited")] * 2
    assert items[DELAYS]["status"] == "active"
    repo.replace("src/codec.py", 'return b"\\xFD" + payload', 'return b"\\xFE" + payload')
    repo.run("reanchor", FRAME)
    assert b'"hash": "t2:' in next(d for n, d in repo.memory_files().items() if n.endswith("a1219712.md"))
    # what black and `ruff check --fix` write: the escape case, no `f` without placeholders
    repo.replace("src/codec.py", 'return b"\\xFE" + payload + b"\\xFF"', 'return b"\\xfe" + payload + b"\\xff"')
    repo.replace("src/codec.py", 'ValueError(f"payload', 'ValueError("payload')
    assert repo.check()[FRAME]["status"] == "active"
    repo.replace("src/codec.py", 'return b"\\xfe" + payload', 'return b"\\xfd" + payload')
    assert (repo.check()[FRAME]["status"], repo.check()[FRAME]["reason"]) == ("stale", "body_edited")


def test_a_format_1_python_memory_on_code_both_formats_hash_alike_follows_a_rename(repo):
    _old_memories(repo)
    repo.replace("src/codec.py", "def retry_delays(", "def backoff_delays(")
    repo.commit("rename")
    item = repo.check()[DELAYS]
    assert (item["status"], item["anchors"][0]["symbol"]) == ("active", "backoff_delays")


def test_reanchor_outdated_moves_every_unchanged_memory_to_the_current_format_and_leaves_edited_ones(repo):
    _old_memories(repo)
    repo.replace("src/level.go", 'case "warn":', 'case "warn", "warning":')
    store = next(f for f in repo.json("doctor")["data"] if f["check"] == "store")
    assert f"{len(EVERY)} with anchors in an older hash format" in store["detail"]
    assert store["fix"] == "tether reanchor --outdated"
    before = repo.memory_files()
    done = repo.json("reanchor", "--outdated")["data"]
    assert done["left"] == [PARSE] and len(done["upgraded"]) == len(EVERY) - 1
    after = repo.memory_files()
    for name, data in after.items():
        if name.endswith(PARSE[:8] + ".md"):
            assert data == before[name]  # its code changed: left for a review, byte for byte
            continue
        assert b'"hash": "t1:' in before[name] and b'"hash": "t1:' not in data and b'"hash": "t2:' in data
        verified = [line for line in data.splitlines() if b'"verified_at"' in line]
        assert verified == [line for line in before[name].splitlines() if b'"verified_at"' in line]
    items = repo.check()
    assert {i["anchors"][0]["symbol"]: i["status"] for i in items.values()} == {
        **dict.fromkeys(EVERY, "active"),
        "Parse": "stale",
    }
    # now format 2 reads them: an attribute edit is an edit, a lint fix is not
    repo.replace("src/order.rs", '#[serde(rename_all = "camelCase")]', '#[serde(rename_all = "snake_case")]')
    repo.replace("src/codec.py", 'ValueError(f"payload', 'ValueError("payload')
    items = repo.check()
    assert (items[CAMEL]["status"], items[FRAME]["status"]) == ("stale", "active")
    assert repo.json("reanchor", "--outdated")["data"] == {"upgraded": [], "left": [PARSE]}
    assert "1 with anchors in an older hash format" in repo.run("doctor").stdout
    assert repo.error("reanchor", PARSE, "--outdated")["code"] == "invalid_input"


def test_the_resolvers_extension_table_names_every_file_of_a_language_past_format_1():
    from tether.anchor.hash_formats import CURRENT, EXTENSIONS
    from tether.anchor.languages import LANGUAGES, language_for

    assert {ext: language_for(f"x{ext}").name for ext in EXTENSIONS} == EXTENSIONS
    assert set(EXTENSIONS.values()) == set(CURRENT)
    assert {ext for lang in LANGUAGES if lang.hash_format > 1 for ext in lang.extensions} == set(EXTENSIONS)


def test_a_format_1_memory_stored_without_its_language_is_still_read_as_format_1(repo):
    _old_memories(repo)
    memories = repo.path / ".tether" / "memories"
    for p in memories.glob("*.md"):
        p.write_text("".join(line for line in p.read_text().splitlines(keepends=True) if '"language":' not in line))
    items = repo.check()
    assert {i["anchors"][0]["symbol"]: i["status"] for i in items.values()} == dict.fromkeys(EVERY, "active")
