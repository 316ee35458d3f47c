"""Every definitions query can be compiled, freed and compiled again. py-tree-sitter 0.26 corrupts
its heap freeing a query that has a `#set!` beside an `#eq?` in one pattern: the next compile
crashes the process (a segfault, not an exception), so this runs in a child process."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

from tether.anchor.languages import LANGUAGES

CHILD = """
import gc, sys
from tree_sitter import Query
from tree_sitter_language_pack import get_language
from tether.anchor.languages import LANGUAGES
from tether.anchor.query_files import query_source
for lang in LANGUAGES:
    for _ in range(3):
        q = Query(get_language(lang.grammar), query_source(lang))
        del q
        gc.collect()
    print(lang.name, flush=True)
"""


def test_every_query_compiles_and_frees_again_and_again():
    proc = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(ROOT / "server"), "PATH": ""},
    )
    done = proc.stdout.split()
    assert (proc.returncode, done) == (0, [lang.name for lang in LANGUAGES]), (
        f"crashed after {done[-1:] or 'none'} (exit {proc.returncode}): {proc.stderr[-300:]}"
    )
