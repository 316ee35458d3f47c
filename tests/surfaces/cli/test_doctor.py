"""`tether doctor` on a store of 100 memories: it checks what matters here, without paying for the rest.

Issue 23, item 11: doctor took 4 s on 100 memories. The profile put nearly all of it in compiling
the definition query of every one of the 27 languages (zig's alone most of a second), whether or
not anything was anchored in them. Doctor now loads every grammar (cheap: a missing or mismatched
grammar still shows) and compiles the queries of the languages the store anchors only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tether.service import Tether

N = 100

# Runs the real CLI in a fresh interpreter, counting the tree-sitter queries it compiles.
COUNT_QUERIES = """
import json, sys
import tree_sitter
compiled = []
Query = tree_sitter.Query
def counting(language, source):
    compiled.append(source)
    return Query(language, source)
tree_sitter.Query = counting
from tether.surfaces.cli.main import main
code = main(sys.argv[1:])
print(json.dumps({"exit": code, "queries": len(compiled)}), file=sys.stderr)
"""


def store_of_100(repo) -> None:
    for f in range(10):
        repo.write(
            f"src/mod{f}.py",
            "".join(f"def func_{f}_{i}(x):\n    y = x * {i} + {f}\n    return y - {i}\n\n" for i in range(10)),
        )
    repo.write(
        "web/app.ts", "export function total(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, 0);\n}\n"
    )
    repo.commit("code")
    t = Tether(repo.path)
    for n in range(N - 1):
        f, i = divmod(n, 10)
        t.remember(f"func_{f}_{i} scales by {i} and offsets by {f}", [f"src/mod{f}.py::func_{f}_{i}"])
    t.remember("total sums the amounts", ["web/app.ts::total"])
    repo.commit("memories")


def doctor_counting(repo) -> tuple[dict, int]:
    proc = subprocess.run(
        [sys.executable, "-c", COUNT_QUERIES, "--root", str(repo.path), "doctor", "--json"],
        capture_output=True,
        text=True,
        cwd=repo.path,
        env=dict(os.environ),
    )
    counted = json.loads(proc.stderr.strip().splitlines()[-1])
    assert counted["exit"] == 0, proc.stdout + proc.stderr
    findings = {f["check"]: f for f in json.loads(proc.stdout)["data"]}
    return findings, counted["queries"]


def test_doctor_on_100_memories_compiles_the_queries_of_the_anchored_languages_only(repo):
    store_of_100(repo)
    findings, queries = doctor_counting(repo)
    assert all(f["ok"] for f in findings.values()), findings
    assert findings["store"]["detail"] == "100 memories in .tether/memories"
    grammars = findings["grammars"]["detail"]
    assert grammars.startswith("27 languages: python, javascript, typescript")  # every grammar still loads
    assert grammars.endswith("queries checked for the anchored: python, typescript")
    assert queries == 2  # not 27, and not one per memory


def test_a_store_with_no_memories_compiles_no_query_but_still_loads_every_grammar(repo):
    repo.write("a.py", "def f():\n    return 1\n")
    repo.commit("code")
    findings, queries = doctor_counting(repo)
    assert queries == 0
    assert findings["grammars"]["ok"] and findings["grammars"]["detail"].startswith("27 languages: ")


def test_a_query_that_does_not_compile_for_an_anchored_language_is_still_reported(repo, monkeypatch):
    from tether.surfaces.cli import doctor

    repo.write("a.py", "def f(x):\n    return x * 2 + 1\n")
    repo.commit("code")
    Tether(repo.path).remember("f doubles then adds one", ["a.py::f"])

    def broken(lang):
        raise RuntimeError(f"query for {lang.name} does not match its grammar")

    monkeypatch.setattr(doctor, "query", broken)
    (grammars,) = [f for f in doctor.diagnose(Tether(repo.path)) if f.check == "grammars"]
    assert (grammars.ok, grammars.detail) == (False, "unavailable: python (RuntimeError)")
