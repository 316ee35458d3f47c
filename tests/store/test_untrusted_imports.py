"""`tether import`: an export from elsewhere passes every gate `remember` has, record by record."""

from __future__ import annotations

import json
import uuid

import orjson
import pytest

SRC = "def fee(amount):\n    return round(amount * 0.029 + 0.30, 2)\n"
AWS = "AKIA" + "Q7RBXZ3N5MWPLKTY"  # the shape of an access key id, made up


@pytest.fixture
def source(repo):
    repo.write("src/fees.py", SRC)
    repo.commit("fees")
    repo.remember("Card fees are 2.9% plus 30 cents.", "src/fees.py::fee")
    return repo


def _template(repo) -> dict:
    return json.loads(repo.run("export").stdout)["memories"][0]


def _import(repo, tmp_path, records: list[dict], *flags: str):
    f = tmp_path / f"import-{uuid.uuid4().hex[:6]}.json"
    f.write_text(json.dumps({"format": 1, "memories": records}))
    proc = repo.run("import", str(f), "--json", *flags, check=False)
    return proc, orjson.loads(proc.stdout)


BAD = {
    "secret in the body": ({"body": f"The key is {AWS}."}, "secret_detected"),
    "secret in a tag": ({"tags": [f"key {AWS}"]}, "secret_detected"),
    "secret in the evidence": ({"evidence": {"command": f"aws --key {AWS} s3 ls"}}, "secret_detected"),
    "secret in the summary": ({"summary": f"uses {AWS}"}, "secret_detected"),
    "an .env anchor": (
        {"anchors": [{"type": "file", "path": "deploy/prod.env", "hash": "c1:00", "size": 1}]},
        "invalid_input",
    ),
    "a .git/config anchor": (
        {"anchors": [{"type": "file", "path": "vendor/lib/.GIT/config", "hash": "c1:00", "size": 1}]},
        "invalid_input",
    ),
    "a path leaving the root": (
        {"anchors": [{"type": "file", "path": "../x.py", "hash": "c1:00", "size": 1}]},
        "invalid_input",
    ),
    "a body over the limit": ({"body": "x " * 9000}, "invalid_input"),
    "a summary over the limit": ({"summary": "s" * 400}, "invalid_input"),
    "a date in the future": ({"valid_from": "2999-01-01T00:00:00Z"}, "invalid_input"),
    "an unknown source": ({"source": "oracle"}, "invalid_input"),
    "a newer format": ({"format": 99}, "invalid_input"),
    "a commit that is an option": ({"commit": "--output=/tmp/x"}, "invalid_input"),
    "too many tags": ({"tags": [f"t{i}" for i in range(30)]}, "invalid_input"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_record_is_refused_by_name_and_the_clean_one_lands(source, tmp_path, case):
    other = source.__class__(tmp_path / "other")
    other.write("src/fees.py", SRC)
    base = _template(source)
    change, code = BAD[case]
    bad = {**base, "id": str(uuid.uuid4()), **change}
    good = {**base, "id": str(uuid.uuid4()), "body": "Fees are charged per transaction, never per day."}
    proc, env = _import(other, tmp_path, [bad, good])
    data = env["data"]
    assert proc.returncode == 1 and (data["imported"], data["refused"]) == (1, 1), data
    (refusal,) = data["refusals"]
    assert refusal["index"] == 1 and refusal["id"] == bad["id"] and refusal["code"] == code, refusal
    assert AWS not in proc.stdout + proc.stderr
    files = other.memory_files()
    assert len(files) == 1 and good["id"].encode() in next(iter(files.values()))


def test_duplicate_ids_in_one_import_are_refused_and_the_count_is_what_was_written(source, tmp_path):
    other = source.__class__(tmp_path / "other")
    other.write("src/fees.py", SRC)
    base = _template(source)
    same = str(uuid.uuid4())
    records = [
        {**base, "id": same, "summary": "one"},
        {**base, "id": same, "summary": "two"},
        {**base, "id": same.upper(), "summary": "three"},
        {**base, "id": str(uuid.uuid4())},
    ]
    proc, env = _import(other, tmp_path, records)
    data = env["data"]
    assert (data["imported"], data["refused"]) == (2, 2)
    assert [r["index"] for r in data["refusals"]] == [2, 3] and "appears twice" in data["refusals"][0]["message"]
    assert len(other.memory_files()) == 2 and other.json("check")["meta"]["quarantined"] == []
    assert len(other.json("check")["data"]) == 2


def test_an_imported_confidence_is_clamped(source, tmp_path):
    other = source.__class__(tmp_path / "other")
    other.write("src/fees.py", SRC)
    base = _template(source)
    _import(other, tmp_path, [{**base, "confidence": 1e308}])
    (item,) = other.json("check")["data"]
    assert item["confidence"] == pytest.approx(0.8)


def test_an_export_document_of_another_format_is_refused_whole(source, tmp_path):
    f = tmp_path / "x.json"
    f.write_text(json.dumps({"format": 7, "memories": [_template(source)]}))
    assert source.error("import", str(f))["code"] == "invalid_input"


def test_an_import_from_dev_zero_is_refused_not_read_forever(source):
    proc = source.run("import", "/dev/zero", "--json", check=False)
    assert proc.returncode == 2 and orjson.loads(proc.stdout)["error"]["code"] == "invalid_input"
