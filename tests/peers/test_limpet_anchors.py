"""limpet's anchor golden corpus, re-typed against tether: symbol and file anchors through reformat,
rename, move, edit, delete, duplication and restore; the low-entropy guard on every grammar.

Peer: github.com/KSym04/limpet, tests/anchor_golden.rs, tests/entropy_calibration.rs,
tests/index_langs.rs. Each test names the peer test it comes from. The real CLI, a real git
repository in a temp dir (the `repo` fixture of tests/conftest.py).
"""

from __future__ import annotations

import re

from .limpet_support import SCORE, SCORE_FACT, state, stored_anchors, verdict


def _score(repo) -> str:
    repo.write("score.py", SCORE)
    repo.commit("score")
    return repo.remember(SCORE_FACT, "score.py::compute_health_score")


def test_untouched_code_and_a_reformat_stay_active(repo):
    """limpet tests/anchor_golden.rs::untouched_code_stays_active and ::reformat_and_comments_stay_active —
    nothing changed: active; blank lines, a comment and spacing added: still active, same place."""
    mid = _score(repo)
    item = repo.only()
    assert (item["id"], item["status"], item["reason"], item["confidence"]) == (mid, "active", None, 0.8)
    assert (item["anchors"][0]["symbol"], item["anchors"][0]["lines"]) == ("compute_health_score", [2, 5])

    repo.write(
        "score.py",
        "\ndef compute_health_score(issues):\n    # criticals hurt the most\n"
        '    critical = sum(1 for i in issues if i.level == "critical")\n\n'
        "    total = len(issues)\n    return 100 - critical * 10 - (total - critical) * 2\n",
    )
    item = repo.only()
    assert (item["status"], item["reason"], item["confidence"]) == ("active", None, 0.8)
    assert item["anchors"][0]["lines"] == [2, 7]


def test_a_rename_is_followed(repo):
    """limpet tests/anchor_golden.rs::rename_is_followed — a pure rename keeps the memory active and the
    anchor points at the new name (`was` names the old locator); nothing is invalidated."""
    mid = _score(repo)
    repo.write("score.py", SCORE.replace("compute_health_score", "calculate_health_score"))
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("active", None)
    assert (a["path"], a["symbol"], a["was"]) == (
        "score.py",
        "calculate_health_score",
        "score.py::compute_health_score",
    )
    assert repo.json("check")["meta"]["staleness"] == {"stale": 0, "invalidated": 0}


def test_a_file_move_is_followed(repo):
    """limpet tests/anchor_golden.rs::file_move_is_followed — the function's file deleted and the same code
    written to lib/scoring.py: active, the anchor now names lib/scoring.py."""
    mid = _score(repo)
    (repo.path / "score.py").unlink()
    repo.write("lib/scoring.py", SCORE)
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("active", None)
    assert (a["path"], a["symbol"], a["was"]) == (
        "lib/scoring.py",
        "compute_health_score",
        "score.py::compute_health_score",
    )


def test_deleting_the_symbol_invalidates(repo):
    """limpet tests/anchor_golden.rs::deletion_invalidates — the file now holds only an unrelated function:
    invalidated `anchor_deleted`, confidence 0, the anchor still names what the memory described."""
    mid = _score(repo)
    repo.write("score.py", "def unrelated():\n    return 0\n")
    item = repo.check()[mid]
    assert (item["status"], item["reason"], item["confidence"]) == ("invalidated", "anchor_deleted", 0.0)
    assert (item["anchors"][0]["path"], item["anchors"][0]["symbol"]) == ("score.py", "compute_health_score")
    assert repo.run("check", "--strict", check=False).returncode == 1


def test_duplicate_bodies_are_ambiguous_never_guessed(repo):
    """limpet tests/anchor_golden.rs::duplicate_bodies_go_ambiguous_not_guessed — the original disappears
    and two identical copies appear under new names: stale `ambiguous_anchor`, both listed, nothing
    re-pointed."""
    mid = _score(repo)
    repo.write(
        "score.py",
        SCORE.replace("compute_health_score", "score_a") + SCORE.replace("compute_health_score", "score_b"),
    )
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("stale", "ambiguous_anchor")
    assert (a["path"], a["symbol"]) == ("score.py", "compute_health_score")
    assert a["candidates"] == ["score.py::score_a@(issues)", "score.py::score_b@(issues)"]


def test_file_anchor_is_active_then_stale_on_edit_then_invalidated_on_delete(repo):
    """limpet tests/anchor_golden.rs::file_anchor_goes_stale_on_edit_and_invalidated_on_delete — a file of no
    known language: untouched active, edited stale `file_edited`, deleted invalidated `anchor_deleted`."""
    repo.write("interior.twig", "{% block hero %}old{% endblock %}\n")
    repo.commit("template")
    mid = repo.remember("hero block height is locked to 480px by the design system", "interior.twig")
    assert verdict(repo, mid) == ("active", None)
    repo.write("interior.twig", "{% block hero %}new{% endblock %}\n")
    assert verdict(repo, mid) == ("stale", "file_edited")
    (repo.path / "interior.twig").unlink()
    assert verdict(repo, mid) == ("invalidated", "anchor_deleted")


def test_one_dead_anchor_degrades_a_multi_anchor_memory_instead_of_killing_it(repo):
    """limpet tests/anchor_golden.rs::one_dead_anchor_degrades_multi_anchor_memory_instead_of_killing_it —
    one of two anchors deleted: stale `anchor_lost` (the live one still active); both gone: invalidated
    `anchor_deleted`."""
    repo.write("score.py", SCORE)
    repo.write("interior.twig", "{% block hero %}{% endblock %}\n")
    repo.commit("both")
    mid = repo.remember("health score is rendered by the hero block", "score.py::compute_health_score", "interior.twig")
    (repo.path / "interior.twig").unlink()
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "anchor_lost")
    assert [(a["path"], a["status"], a["reason"]) for a in item["anchors"]] == [
        ("score.py", "active", None),
        ("interior.twig", "invalidated", "anchor_deleted"),
    ]
    repo.write("score.py", "def unrelated():\n    return 0\n")
    assert verdict(repo, mid) == ("invalidated", "anchor_deleted")


def test_a_transient_deletion_heals_when_the_code_comes_back(repo):
    """limpet tests/anchor_golden.rs::transient_deletion_heals_after_restore — the file vanishes (branch switch,
    stash, rebase): invalidated; it comes back: active, confidence whole again."""
    mid = _score(repo)
    (repo.path / "score.py").unlink()
    assert verdict(repo, mid) == ("invalidated", "anchor_deleted")
    repo.git("checkout", "--", "score.py")
    item = repo.check()[mid]
    assert (item["status"], item["reason"], item["confidence"]) == ("active", None, 0.8)


def test_cpp_rename_of_the_peer_body_is_low_entropy(repo):
    """limpet tests/anchor_golden.rs::cpp_rename_is_followed — DIFFERENCE: `return a * 10 + 7` carries less
    than 40 bits, so tether never re-points it on a rename: stale `low_entropy`, the new name listed."""
    repo.write("engine.cpp", "int compute_score(int a) {\n    return a * 10 + 7;\n}\n")
    repo.commit("engine")
    mid = repo.remember("score multiplies by ten and adds seven", "engine.cpp::compute_score")
    repo.write("engine.cpp", "int calc_score(int a) {\n    return a * 10 + 7;\n}\n")
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("stale", "low_entropy")
    assert (a["symbol"], a["candidates"]) == ("compute_score", ["engine.cpp::calc_score@(int a)"])


def test_cpp_rename_of_a_substantial_body_is_followed(repo):
    """limpet tests/anchor_golden.rs::cpp_rename_is_followed — the shared half: a C++ name lives in the
    declarator, out of the hash, so renaming a function with a real body follows it."""
    body = "int {}(int a) {{\n    int t = 0;\n    for (int i = 0; i < a; ++i) {{\n        t += i * 10 + 7;\n    }}\n    return t;\n}}\n"
    repo.write("engine.cpp", body.format("compute_score"))
    repo.commit("engine")
    mid = repo.remember("score sums i * 10 + 7 below a", "engine.cpp::compute_score")
    repo.write("engine.cpp", body.format("calc_score"))
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("active", None)
    assert (a["symbol"], a["was"]) == ("calc_score", "engine.cpp::compute_score")


def test_file_anchors_follow_a_move(repo):
    """limpet tests/anchor_golden.rs::file_anchor_follows_a_move and ::real_file_move_still_follows — a
    substantial file moved to another directory: active, the anchor names the new path."""
    repo.write(
        "hero.twig",
        "{% block hero %}This is a substantial hero block with meaningful content that exceeds the low-entropy threshold{% endblock %}\n",
    )
    repo.write(
        "docs.md",
        "# Real Documentation\n\n"
        + "This is a substantial file with enough content to exceed the low-entropy threshold. " * 4
        + "\n",
    )
    repo.commit("files")
    hero = repo.remember("hero height is design locked", "hero.twig")
    docs = repo.remember("real documentation lives here", "docs.md")
    repo.move("hero.twig", "views/hero.twig")
    repo.move("docs.md", "archives/docs.md")
    items = repo.check()
    assert [
        (items[m]["status"], items[m]["anchors"][0]["path"], items[m]["anchors"][0]["was"]) for m in (hero, docs)
    ] == [
        ("active", "views/hero.twig", "hero.twig"),
        ("active", "archives/docs.md", "docs.md"),
    ]


def test_a_tiny_file_move_is_low_entropy(repo):
    """limpet tests/anchor_golden.rs::tiny_file_move_is_refused_as_low_entropy — `# stub` moved and renamed:
    stale `low_entropy`, the anchor still at the old path, the new one listed."""
    repo.write("tiny.md", "# stub\n")
    repo.commit("stub")
    mid = repo.remember("stub documentation", "tiny.md")
    repo.move("tiny.md", "docs/renamed.md")
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("stale", "low_entropy")
    assert (a["path"], a["candidates"]) == ("tiny.md", ["docs/renamed.md"])


PER_LANGUAGE = {  # limpet tests/anchor_golden.rs::hash_properties_hold_per_language: original, cosmetic, real edit
    "h.py": (
        "def f(a):\n    return a + 1\n",
        "def f(a):\n\n    return a + 1  # comment\n",
        "def f(a):\n    return a + 2\n",
    ),
    "h.js": (
        "function f(a) { return a + 1; }\n",
        "function f(a) {\n  // c\n  return a + 1;\n}\n",
        "function f(a) { return a + 2; }\n",
    ),
    "h.ts": (
        "function f(a: number) { return a + 1; }\n",
        "function f(a: number) {\n  return a + 1; // c\n}\n",
        "function f(a: number) { return a + 2; }\n",
    ),
    "h.php": (
        "<?php\nfunction f($a) { return $a + 1; }\n",
        "<?php\nfunction f($a) {\n  // c\n  return $a + 1;\n}\n",
        "<?php\nfunction f($a) { return $a + 2; }\n",
    ),
    "h.rs": (
        "fn f(a: u32) -> u32 { a + 1 }\n",
        "fn f(a: u32) -> u32 {\n    // c\n    a + 1\n}\n",
        "fn f(a: u32) -> u32 { a + 2 }\n",
    ),
    "h.cpp": (
        "int f(int a) { return a + 1; }\n",
        "int f(int a) {\n    // c\n    return a + 1;\n}\n",
        "int f(int a) { return a + 2; }\n",
    ),
}


def test_cosmetic_edits_keep_and_real_edits_stale_in_every_language(repo):
    """limpet tests/anchor_golden.rs::hash_properties_hold_per_language — Python, JavaScript, TypeScript, PHP,
    Rust, C++ (one memory, an anchor in each): a comment or reformat leaves every anchor active, `+ 1` to
    `+ 2` makes every one stale `body_edited`."""
    for path, (original, _, _) in PER_LANGUAGE.items():
        repo.write(path, original)
    repo.commit("six languages")
    mid = repo.remember("f adds one, in every language", *[f"{p}::f" for p in PER_LANGUAGE])
    for path, (_, cosmetic, _) in PER_LANGUAGE.items():
        repo.write(path, cosmetic)
    item = repo.check()[mid]
    assert item["status"] == "active"
    assert [(a["path"], a["status"]) for a in item["anchors"]] == [(p, "active") for p in PER_LANGUAGE]
    for path, (_, _, edited) in PER_LANGUAGE.items():
        repo.write(path, edited)
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert [(a["path"], a["status"], a["reason"]) for a in item["anchors"]] == [
        (p, "stale", "body_edited") for p in PER_LANGUAGE
    ]


def test_identical_bodies_under_different_names_hash_alike(repo):
    """limpet tests/anchor_golden.rs::body_hashes_carry_normalization_length — two functions with one body:
    the memories on them store the same hash (limpet's buffer length is internal; tether's size counts
    the source bytes, name included)."""
    repo.write("twins.py", "def alpha():\n    return compute(1)\n\ndef beta():\n    return compute(1)\n")
    repo.commit("twins")
    a = stored_anchors(repo, repo.remember("alpha computes one", "twins.py::alpha"))[0]
    b = stored_anchors(repo, repo.remember("beta computes one too", "twins.py::beta"))[0]
    assert a["hash"].startswith("t2:") and a["hash"] == b["hash"]
    assert a["size"] > 0 and b["size"] > 0


def _trivial_twin(repo) -> str:
    repo.write("a.py", "def orig():\n    pass\n")
    repo.write("b.py", "def twin():\n    pass\n")
    repo.commit("placeholders")
    return repo.remember("orig is a placeholder awaiting implementation", "a.py::orig")


def test_a_trivial_unique_twin_is_refused_as_low_entropy(repo):
    """limpet tests/anchor_golden.rs::trivial_unique_twin_is_refused_as_low_entropy — `orig` (a bare `pass`)
    vanishes and the only body-hash match is the `pass` of b.py::twin: stale `low_entropy`, never
    re-pointed at the twin."""
    mid = _trivial_twin(repo)
    repo.write("a.py", "def unrelated():\n    return 1\n")
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("stale", "low_entropy")
    assert (a["path"], a["symbol"], a.get("was"), a["candidates"]) == ("a.py", "orig", None, ["b.py::twin@()"])


def test_a_low_entropy_refusal_heals_when_the_original_returns(repo):
    """limpet tests/anchor_golden.rs::low_entropy_refusal_heals_when_the_original_returns — after the
    refusal, `orig` comes back as it was: active at a.py::orig, the anchor never touched."""
    mid = _trivial_twin(repo)
    repo.write("a.py", "def unrelated():\n    return 1\n")
    assert verdict(repo, mid) == ("stale", "low_entropy")
    repo.write("a.py", "def orig():\n    pass\n")
    item = repo.check()[mid]
    assert (item["status"], item["confidence"]) == ("active", 0.8)
    a = item["anchors"][0]
    assert (a["path"], a["symbol"], a.get("was")) == ("a.py", "orig", None)


# limpet tests/entropy_calibration.rs fixtures(): (file, trivial body, real body, trivial symbol, real symbol)
GRAMMARS = [
    (
        "py",
        "def t():\n    pass\n",
        "def r(x):\n    y = x + 1\n    if y > 2:\n        return y * 3\n    return y\n",
        "t",
        "r",
    ),
    (
        "js",
        "function t() {}\n",
        "function r(x) {\n  const y = x + 1;\n  if (y > 2) { return y * 3; }\n  return y;\n}\n",
        "t",
        "r",
    ),
    (
        "ts",
        "function t(): void {}\n",
        "function r(x: number): number {\n  const y = x + 1;\n  if (y > 2) { return y * 3; }\n  return y;\n}\n",
        "t",
        "r",
    ),
    (
        "php",
        "<?php\nfunction t() {}\n",
        "<?php\nfunction r($x) {\n  $y = $x + 1;\n  if ($y > 2) { return $y * 3; }\n  return $y;\n}\n",
        "t",
        "r",
    ),
    (
        "rs",
        "fn t() {}\n",
        "fn r(x: i64) -> i64 {\n    let y = x + 1;\n    if y > 2 { return y * 3; }\n    y\n}\n",
        "t",
        "r",
    ),
    (
        "cpp",
        "void t() {}\n",
        "int r(int x) {\n    int y = x + 1;\n    if (y > 2) { return y * 3; }\n    return y;\n}\n",
        "t",
        "r",
    ),
    (
        "go",
        "package p\n\nfunc t() {}\n",
        "package p\n\nfunc r(x int) int {\n\ty := x + 1\n\tif y > 2 {\n\t\treturn y * 3\n\t}\n\treturn y\n}\n",
        "t",
        "r",
    ),
    (
        "java",
        "class C { void t() {} }\n",
        "class C { int r(int x) {\n  int y = x + 1;\n  if (y > 2) { return y * 3; }\n  return y;\n} }\n",
        "C.t",
        "C.r",
    ),
    ("rb", "def t\nend\n", "def r(x)\n  y = x + 1\n  if y > 2\n    return y * 3\n  end\n  y\nend\n", "t", "r"),
    (
        "cs",
        "class C { void T() {} }\n",
        "class C { int R(int x) {\n  var y = x + 1;\n  if (y > 2) { return y * 3; }\n  return y;\n} }\n",
        "C.T",
        "C.R",
    ),
    (
        "sh",
        "t() { :; }\n",
        'r() {\n  local y=$(($1 + 1))\n  if [ "$y" -gt 2 ]; then echo $((y * 3)); return; fi\n  echo "$y"\n}\n',
        "t",
        "r",
    ),
]


def _rename(src: str, qualified: str) -> tuple[str, str]:
    *outer, name = qualified.split(".")
    return re.sub(rf"\b{name}\b", name + "_renamed", src, count=1), ".".join([*outer, name + "_renamed"])


def test_the_entropy_floor_separates_trivial_from_real_bodies_in_every_grammar(repo):
    """limpet tests/entropy_calibration.rs::thresholds_separate_trivial_from_real_on_every_grammar — in all
    eleven of limpet's grammars, renaming an empty body is refused (`low_entropy`, not re-pointed) and
    renaming a real body is followed (one memory holds the eleven trivial anchors, one the real ones;
    `check` gives each anchor its own verdict)."""
    for ext, trivial, real, _, _ in GRAMMARS:
        repo.write(f"trivial/t.{ext}", trivial)
        repo.write(f"real/r.{ext}", real)
    repo.commit("fixtures")
    placeholders = repo.remember(
        "placeholders awaiting implementation", *[f"trivial/t.{g[0]}::{g[3]}" for g in GRAMMARS]
    )
    real_bodies = repo.remember(
        "the real bodies triple y once it clears 2", *[f"real/r.{g[0]}::{g[4]}" for g in GRAMMARS]
    )
    renamed = []
    for ext, trivial, real, t_sym, r_sym in GRAMMARS:
        repo.write(f"trivial/t.{ext}", _rename(trivial, t_sym)[0])
        text, new_name = _rename(real, r_sym)
        repo.write(f"real/r.{ext}", text)
        renamed.append(new_name)
    items = repo.check()
    assert [(a["status"], a["reason"], a["symbol"]) for a in items[placeholders]["anchors"]] == [
        ("stale", "low_entropy", g[3]) for g in GRAMMARS
    ]
    assert [(a["status"], a["symbol"], a["was"]) for a in items[real_bodies]["anchors"]] == [
        ("active", new, f"real/r.{g[0]}::{g[4]}") for g, new in zip(GRAMMARS, renamed)
    ]
    assert (items[real_bodies]["status"], items[placeholders]["status"]) == ("active", "stale")


def test_the_file_floor_separates_trivial_from_real_content(repo):
    """limpet tests/entropy_calibration.rs::file_threshold_separates_trivial_from_real_content — an empty file
    and a lone import line moved elsewhere are `low_entropy`; the shortest real fixture source (Ruby)
    moved is followed."""
    repo.write("a/empty.txt", "")
    repo.write("a/only_import.js", 'import { helper } from "./util";\n')
    repo.write("a/r.rb", GRAMMARS[8][2])
    repo.commit("files")
    ids = [repo.remember(f"{p} note", p) for p in ("a/empty.txt", "a/only_import.js", "a/r.rb")]
    for name in ("empty.txt", "only_import.js", "r.rb"):
        repo.move(f"a/{name}", f"b/{name}")
    items = repo.check()
    assert [(items[m]["status"], items[m]["reason"], items[m]["anchors"][0]["path"]) for m in ids] == [
        ("stale", "low_entropy", "a/empty.txt"),
        ("stale", "low_entropy", "a/only_import.js"),
        ("active", None, "b/r.rb"),
    ]


EXTRACTION = {  # limpet tests/index_langs.rs: a function, a class and its method, in five languages
    "q.php": (
        "<?php\nuse App\\Services\\Mailer;\n\nfunction top_level($x) {\n    helper_call($x);\n    return $x + 1;\n}\n\n"
        "class ScanQueue {\n    public function push($item) {\n        $this->validate($item);\n    }\n}\n",
        "top_level",
    ),
    "q.js": (
        "import { helper } from './helper.js';\n\nfunction topLevel(x) {\n    helper(x);\n    return x + 1;\n}\n\n"
        "class ScanQueue {\n    push(item) {\n        this.validate(item);\n    }\n}\n",
        "topLevel",
    ),
    "q.ts": (
        "import { helper } from './helper';\n\nfunction topLevel(x: number): number {\n    helper(x);\n    return x + 1;\n}\n\n"
        "class ScanQueue {\n    push(item: string): void {\n        this.validate(item);\n    }\n}\n",
        "topLevel",
    ),
    "q.py": (
        "import os\nfrom app.services import mailer\n\ndef top_level(x):\n    helper_call(x)\n    return x + 1\n\n"
        "class ScanQueue:\n    def push(self, item):\n        self.validate(item)\n",
        "top_level",
    ),
    "q.rs": (
        "use std::collections::HashMap;\n\nfn top_level(x: u32) -> u32 {\n    helper_call(x);\n    x + 1\n}\n\n"
        "struct ScanQueue;\n\nimpl ScanQueue {\n    fn push(&self, item: String) {\n        self.validate(item);\n    }\n}\n",
        "top_level",
    ),
}


def test_functions_classes_and_methods_are_anchorable_in_five_languages(repo):
    """limpet tests/index_langs.rs::php_extraction, ::js_extraction, ::ts_extraction, ::py_extraction,
    ::rust_extraction — the function, the class and the method of each fixture can be anchored and
    resolve active where they are (imports and call edges are limpet's index, not anchors: not ported)."""
    for path, (src, _) in EXTRACTION.items():
        repo.write(path, src)
    repo.commit("five languages")
    ids = {
        path: repo.remember(f"the scan queue of {path}", *[f"{path}::{s}" for s in (fn, "ScanQueue", "ScanQueue.push")])
        for path, (_, fn) in EXTRACTION.items()
    }
    items = repo.check()
    got = {path: [(a["status"], a["symbol"]) for a in items[m]["anchors"]] for path, m in ids.items()}
    assert got == {
        path: [("active", fn), ("active", "ScanQueue"), ("active", "ScanQueue.push")]
        for path, (_, fn) in EXTRACTION.items()
    }
    # the method's lines are the method's, not the class's
    assert [items[ids[p]]["anchors"][2]["lines"][0] > items[ids[p]]["anchors"][1]["lines"][0] for p in ids] == [
        True
    ] * 5


def test_an_unreadable_file_is_isolated(repo):
    """limpet tests/index_langs.rs::broken_file_is_isolated — a .py file of invalid bytes beside a good one:
    the repository still indexes, the good function anchors and stays active, the bad file is refused by
    name."""
    repo.write("good.py", "def ok():\n    return 1\n")
    repo.write("bad.py", bytes([0xFF, 0xFE, 0x00, 0x80]))
    repo.commit("good and bad")
    assert repo.run("index").returncode == 0
    mid = repo.remember("ok returns one", "good.py::ok")
    assert verdict(repo, mid) == ("active", None)
    err = repo.error("remember", "bad is bad", "--anchor", "bad.py::x")
    assert err["code"] == "binary_file" and "bad.py" in err["message"]
