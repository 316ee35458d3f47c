"""Nocetta's anchoring scenarios (test/anchor/*.test.ts, test/capture/capture.test.ts), re-typed
against tether's real CLI in a real git repository: what can be anchored, what is refused, and what
an edit, a comment, a move or a rename does to an anchor.

Written from Nocetta's test names and fixtures as facts about behaviour; where tether deliberately
differs the test holds tether's behaviour and tests/peers/DIFFERENCES.md says why.
"""

from __future__ import annotations

import orjson
import pytest

# -- fixtures as Nocetta writes them (its TypeScript, Markdown, Python, Go and GDScript sources) ----
TS_FIXTURE = """\
export function greet(name: string): string {
  return "hi " + name;
}

class Widget {
  render(): string {
    return "widget";
  }
}

export const DEFAULT_SIZE = 42;

const internalOnly = "a file-local const is a symbol too";

function inner(): void {
  const nested = "never a symbol: nothing inside a function body is";
  void nested;
}

let mutable = "let is never a symbol";
void mutable;
"""

FOO = """\
export function foo(): number {
  const base = computeTheBaseline(41, "units");
  return base + 1;
}
"""

MOVE_BEFORE = """\
class Foo {
  bar(): string {
    return "bar" + this.suffix(3, "x") + String(this.count);
  }
}

class Baz {
}
"""

MOVE_AFTER = """\
class Foo {
}

class Baz {
  bar(): string {
    return "bar" + this.suffix(3, "x") + String(this.count);
  }
}
"""

MAGE = """\
# Overview

Some intro text.

# Elminster

Elminster is a powerful archmage who lives in Shadowdale.

# Mystra

Mystra is the goddess of magic.
"""

JS_SOURCE = """\
function greet(name) {
  const greeting = "hi " + name + ", welcome back to the shop";
  return greeting.trim() + " (" + String(name.length) + ")";
}

const EXPORTED_LIMIT = 10;
"""

TWO_FUNCTIONS = """\
export function foo(): number {
  return 1;
}

export function bar(): string {
  return "bar";
}
"""

OVERLOADS = """\
export function foo(): number {
  return 1;
}

export function foo(s: string): string {
  return s;
}
"""


def refused(repo, spec: str, code: str, text: str = "a memory about code that is not there as named") -> dict:
    """`remember` refuses `spec` with `code`, and the store is exactly as it was."""
    before = repo.memory_files()
    err = repo.error("remember", text, "--anchor", spec)
    assert err["code"] == code, err
    assert repo.memory_files() == before
    return err


def memory_file(repo, mid: str) -> dict:
    """The front matter of one memory's file."""
    (data,) = [v for k, v in repo.memory_files().items() if k.endswith(f"--{mid[:8]}.md")]
    head = data.decode().split("\n---\n", 1)[0].removeprefix("---\n")
    return orjson.loads(head)


@pytest.fixture
def ts(repo):
    repo.write("src/fixture.ts", TS_FIXTURE)
    repo.write("src/foo.ts", FOO)
    repo.commit("fixture")
    return repo


# -- test/anchor/locate.test.ts -----------------------------------------------------------------
def test_functions_classes_methods_and_top_level_consts_are_symbols_nested_and_let_are_not(ts):
    """nocetta test/anchor/locate.test.ts › extractSymbols › enumerates functions, classes, methods, and
    top-level consts (exported or not) with stable paths; nested and `let` declarations are never symbols."""
    for name in ("greet", "Widget", "Widget.render", "DEFAULT_SIZE", "internalOnly", "inner"):
        out = ts.json(
            "remember",
            f"{name} carries a decision recorded for the fixture file",
            "--anchor",
            f"src/fixture.ts::{name}",
        )
        assert [a["spec"] for a in out["data"]["anchors"]] == [f"src/fixture.ts::{name}"]
    for name in ("nested", "mutable"):
        assert refused(ts, f"src/fixture.ts::{name}", "anchor_unresolved")["reason"] == "symbol_missing"
    assert all(item["status"] == "active" for item in ts.check().values())


def test_inserting_lines_above_a_symbol_keeps_its_memory_active(ts):
    """nocetta test/anchor/locate.test.ts › locate › (a) inserting lines above a symbol does not change its hash"""
    mid = ts.remember("foo adds one to the computed baseline for the billing export.", "src/foo.ts::foo")
    ts.write("src/foo.ts", "// a new leading comment\nconst unrelated = 1;\n\n" + FOO)
    item = ts.check()[mid]
    assert item["status"] == "active"
    assert item["anchors"][0]["lines"] == [4, 7]  # found where it is now


def test_editing_the_symbol_body_makes_its_memory_stale(ts):
    """nocetta test/anchor/locate.test.ts › locate › (b) editing the symbol body changes the hash;
    test/anchor/content.test.ts › locateAnchor dispatcher › routes .ts artifacts to the code locator"""
    mid = ts.remember("foo adds one to the computed baseline for the billing export.", "src/foo.ts::foo")
    ts.replace("src/foo.ts", "return base + 1;", "return base + 2;")
    item = ts.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert "+  return base + 2;" in item["anchors"][0]["diff"]


def test_renaming_the_symbol_is_followed_not_reported_missing(ts):
    """nocetta test/anchor/locate.test.ts › locate › (c) renaming the symbol is reported as not-found (honest miss).
    tether differs on purpose (DIFFERENCES.md): the body is found by its hash and the anchor follows the rename."""
    mid = ts.remember("foo adds one to the computed baseline for the billing export.", "src/foo.ts::foo")
    ts.replace("src/foo.ts", "function foo()", "function fooRenamed()")
    item = ts.check()[mid]
    assert (item["status"], item["anchors"][0]["symbol"]) == ("active", "fooRenamed")
    assert "followed from src/foo.ts::foo" in ts.run("check").stdout


def test_a_method_moved_to_another_class_is_followed_to_its_new_path(repo):
    """nocetta test/anchor/locate.test.ts › locate › (d) moving a method between classes updates its path"""
    repo.write("src/fixture.ts", MOVE_BEFORE)
    repo.commit("classes")
    mid = repo.remember("bar builds its label from the suffix helper and the live count.", "src/fixture.ts::Foo.bar")
    repo.write("src/fixture.ts", MOVE_AFTER)
    item = repo.check()[mid]
    assert (item["status"], item["anchors"][0]["symbol"]) == ("active", "Baz.bar")


def test_a_comment_added_inside_the_body_keeps_the_memory_active(ts):
    """nocetta test/anchor/locate.test.ts › locate › comment-only edits inside a symbol body do not change its hash"""
    mid = ts.remember("foo adds one to the computed baseline for the billing export.", "src/foo.ts::foo")
    ts.replace("src/foo.ts", "  return base + 1;", "  // now with a comment\n  return base + 1;")
    assert ts.check()[mid]["status"] == "active"


# -- test/anchor/content.test.ts ----------------------------------------------------------------
@pytest.fixture
def lore(repo):
    repo.write("lore/mage.md", MAGE)
    repo.commit("lore")
    return repo


def test_a_markdown_file_anchors_by_heading(lore):
    """nocetta test/anchor/content.test.ts › extractContentSpans › splits a markdown file into heading-delimited spans;
    › locateAnchor dispatcher › routes .md artifacts to the content locator"""
    specs = []
    for heading in ("Overview", "Elminster", "Mystra"):
        out = lore.json(
            "remember",
            f"The {heading} section is what the campaign notes cite for it.",
            "--anchor",
            f"lore/mage.md#{heading}",
        )
        specs += [a["spec"] for a in out["data"]["anchors"]]
    assert specs == ["lore/mage.md#Overview", "lore/mage.md#Elminster", "lore/mage.md#Mystra"]
    assert {i["status"] for i in lore.check().values()} == {"active"}


def test_a_section_stays_active_when_unrelated_content_is_inserted_elsewhere(lore):
    """nocetta test/anchor/content.test.ts › locateContent › does not dirty a span when unrelated content is
    inserted elsewhere in the file"""
    mid = lore.remember("Elminster lives in Shadowdale, which the quest log depends on.", "lore/mage.md#Elminster")
    lore.write("lore/mage.md", "# A brand new section\n\nSomething unrelated.\n\n" + MAGE)
    assert lore.check()[mid]["status"] == "active"


def test_a_section_goes_stale_when_its_own_body_is_edited(lore):
    """nocetta test/anchor/content.test.ts › locateContent › dirties a span when its own body is edited"""
    mid = lore.remember("Elminster lives in Shadowdale, which the quest log depends on.", "lore/mage.md#Elminster")
    other = lore.remember("Mystra is the goddess of magic in every edition of the notes.", "lore/mage.md#Mystra")
    lore.replace("lore/mage.md", "lives in Shadowdale", "lives in Waterdeep now")
    checked = lore.check()
    assert checked[mid]["status"] == "stale"
    assert checked[other]["status"] == "active"


def test_a_renamed_heading_is_never_served_as_current(lore):
    """nocetta test/anchor/content.test.ts › locateContent › reports a renamed heading as not-found (honest miss).
    tether calls it stale (not re-pointed: a short section) and names the renamed heading as a candidate."""
    mid = lore.remember("Elminster lives in Shadowdale, which the quest log depends on.", "lore/mage.md#Elminster")
    lore.replace("lore/mage.md", "# Elminster", "# Elminster Aumar")
    item = lore.check()[mid]
    assert item["status"] != "active"
    found = lore.json("recall", "where does Elminster live, Shadowdale?")["data"]
    assert mid not in [i["id"] for i in found["items"]]


def test_dot_markdown_files_anchor_like_dot_md(repo):
    """nocetta test/anchor/content.test.ts › locateAnchor dispatcher › routes .markdown artifacts to the content
    locator — the alias behaves identically"""
    repo.write("lore/mage.markdown", MAGE)
    repo.commit("lore")
    mid = repo.remember("Mystra is the goddess of magic in every edition of the notes.", "lore/mage.markdown#Mystra")
    assert repo.check()[mid]["status"] == "active"
    repo.replace("lore/mage.markdown", "goddess of magic", "goddess of all magic")
    assert repo.check()[mid]["status"] == "stale"


# -- test/anchor/locate-any.test.ts -------------------------------------------------------------
def test_symbols_anchor_in_more_languages_than_nocettas_closed_registry(repo):
    """nocetta test/anchor/locate-any.test.ts › the anchor extension registry › is closed: exactly the eleven code
    and two content extensions, no implicit default. tether differs on purpose (DIFFERENCES.md): 26 languages
    anchor symbols (Rust here), every other text file anchors whole."""
    repo.write("src/model.rs", "pub struct Model {\n    pub id: u64,\n    pub name: String,\n}\n")
    repo.write("Dockerfile", "FROM python:3.12-slim\nRUN pip install tether\n")
    repo.commit("code")
    repo.remember("Model ids are u64 because the upstream export overflows i32.", "src/model.rs::Model")
    repo.remember("The image is slim on purpose: the CI cache limit is 2 GB.", "Dockerfile")
    assert {i["status"] for i in repo.check().values()} == {"active"}


def test_a_symbol_in_an_unsupported_language_is_refused_naming_the_file(repo):
    """nocetta test/anchor/locate-any.test.ts › the anchor extension registry › refuses an unsupported extension
    honestly, naming it — never a wrong-strategy parse"""
    repo.write("src/model.zz", "fn main() {}\n")
    repo.commit("code")
    err = refused(repo, "src/model.zz::main", "unsupported_language")
    assert "src/model.zz" in err["message"]


def test_a_symbol_in_an_extensionless_file_is_refused_naming_the_path(repo):
    """nocetta test/anchor/locate-any.test.ts › the anchor extension registry › refuses an extensionless artifact,
    naming the path in place of the extension it lacks"""
    repo.write("Dockerfile", "FROM python:3.12-slim\n")
    repo.commit("code")
    err = refused(repo, "Dockerfile::base", "unsupported_language")
    assert "'Dockerfile'" in err["message"]


def test_plain_javascript_functions_anchor_and_stay_active(repo):
    """nocetta test/anchor/locate-any.test.ts › JS riding the TypeScript grammar › extracts functions from plain .js
    with a real locator and hash, and relocates through the dispatcher"""
    repo.write("src/greet.js", JS_SOURCE)
    repo.write("src/greet.mjs", JS_SOURCE)
    repo.commit("js")
    for file in ("src/greet.js", "src/greet.mjs"):
        out = repo.json(
            "remember", f"greet in {file} appends the name length for the support desk.", "--anchor", f"{file}::greet"
        )
        (anchor,) = out["data"]["anchors"]
        assert anchor["spec"] == f"{file}::greet" and anchor["hash"]
    assert {i["status"] for i in repo.check().values()} == {"active"}


def test_identical_bodies_in_js_and_ts_hash_alike(repo):
    """nocetta test/anchor/locate-any.test.ts › JS riding the TypeScript grammar › hashes identical JS bodies
    identically across the aliased extensions — one grammar, one hash format"""
    repo.write("src/greet.js", JS_SOURCE)
    repo.write("src/greet.ts", JS_SOURCE)
    repo.commit("js and ts")
    js = repo.json(
        "remember", "greet (js) appends the name length for the support desk.", "--anchor", "src/greet.js::greet"
    )
    ts = repo.json(
        "remember", "greet (ts) appends the name length for the support desk.", "--anchor", "src/greet.ts::greet"
    )
    assert js["data"]["anchors"][0]["hash"] == ts["data"]["anchors"][0]["hash"]


def test_renaming_a_js_file_to_ts_keeps_its_memory_active(repo):
    """nocetta test/anchor/locate-any.test.ts › JS riding the TypeScript grammar › hashes identical JS bodies
    identically across the aliased extensions — so a .js file renamed to .ts changes nothing anchored in it"""
    repo.write("src/greet.js", JS_SOURCE)
    repo.commit("js")
    mid = repo.remember("greet appends the name length because the support desk sorts by it.", "src/greet.js::greet")
    repo.git("mv", "src/greet.js", "src/greet.ts")
    item = repo.check()[mid]
    assert (item["status"], item["anchors"][0]["path"]) == ("active", "src/greet.ts")


# -- test/anchor/resolve.test.ts ----------------------------------------------------------------
def test_a_heading_anchor_on_a_code_file_is_refused(ts):
    """nocetta test/anchor/resolve.test.ts › resolveAnchor routing refusals › refuses a strategy that contradicts the
    registry — heading on a code source cannot mis-parse (also: refuses a .py heading target the same way)"""
    refused(ts, "src/foo.ts#foo", "invalid_spec")


def test_a_symbol_anchor_on_a_markdown_document_is_refused(lore):
    """nocetta test/anchor/resolve.test.ts › resolveAnchor routing refusals › refuses a strategy that contradicts
    the registry the other way — symbolName on a markdown document"""
    err = refused(lore, "lore/mage.md::Elminster", "unsupported_language")
    assert "lore/mage.md#" in err["message"]  # says how to anchor a part of it instead


def test_a_heading_resolves_whatever_its_case_and_surrounding_whitespace(lore):
    """nocetta test/anchor/resolve.test.ts › heading matching tolerates whitespace and case › resolves a heading that
    differs only in surrounding whitespace and case"""
    out = lore.json(
        "remember",
        "Elminster lives in Shadowdale, which the quest log depends on.",
        "--anchor",
        "lore/mage.md#  elminster  ",
    )
    assert [a["spec"] for a in out["data"]["anchors"]] == ["lore/mage.md#Elminster"]


def test_a_heading_that_matches_nothing_is_refused_with_near_names(lore):
    """nocetta test/anchor/resolve.test.ts › heading matching tolerates whitespace and case › still refuses honestly,
    listing candidates, when nothing matches even normalized: the near one first, then the file's other headings."""
    assert "Elminster" in refused(lore, "lore/mage.md#Tiamat", "anchor_unresolved")["near"]
    err = refused(lore, "lore/mage.md#Elminstr", "anchor_unresolved")
    assert err["near"][0] == "Elminster" and "did you mean Elminster" in err["message"]


def test_symbol_names_are_case_exact(repo):
    """nocetta test/anchor/resolve.test.ts › heading matching tolerates whitespace and case › does not extend the
    tolerance to symbol names — code identifiers stay byte-exact"""
    repo.write("src/foo.ts", TWO_FUNCTIONS)
    repo.commit("foo")
    err = refused(repo, "src/foo.ts::FOO", "anchor_unresolved")
    assert err["reason"] == "symbol_missing" and "'FOO'" in err["message"]


def test_a_symbol_typed_in_the_wrong_case_names_the_real_one(repo):
    """nocetta test/anchor/resolve.test.ts › heading matching tolerates whitespace and case › does not extend the
    tolerance to symbol names — refused with `available symbols: foo`; tether promises near names"""
    repo.write("src/foo.ts", TWO_FUNCTIONS)
    repo.commit("foo")
    err = refused(repo, "src/foo.ts::FOO", "anchor_unresolved")
    assert "foo" in err["near"]


# -- test/anchor/python.test.ts, go.test.ts, gdscript.test.ts -----------------------------------
SHOP_PY = """\
MAX_LEVEL = 5
rates = []  # mutable, not a stable anchor subject


def income_breakdown(gold):
    return {"gold": gold, "bonus": gold // 10, "source": "shop"}


@staticmethod
def decorated_helper():
    return 1


class Shop:
    BASE_COST = 100

    def do_rebrand(self):
        return self.BASE_COST * 3 + len(self.name)

    @property
    def total(self):
        return 0
"""

SHOP_GO = """\
package shop

const MaxLevel = 5

const (
\tRareDrop  = 1
\tEpicDrop  = 2
)

var mutable = 0

type Shop struct {
\tGold int
}

type Priced interface {
\tCost() int
}

func IncomeBreakdown(gold int) int {
\treturn gold*3 + len("shop") - MaxLevel
}

func (s Shop) DoRebrand() int {
\treturn s.Gold*2 + RareDrop
}

func (s *Shop) AddGold(n int) {
\ts.Gold += n
}
"""

SHOP_GD = """\
class_name Shop
extends Node

const RARITIES = ["common", "rare", "epic"]

var gold := 0

func income_breakdown() -> Dictionary:
\treturn {"gold": gold, "bonus": gold / 10, "source": "shop"}

func max_level_for(kind: String) -> int:
\treturn 5

class Upgrade:
\tconst COST := 100
\tfunc do_rebrand() -> void:
\t\tgold -= COST
"""

# per language: file, source, symbols as tether names them, the function used for the lifecycle,
# its body edit, its comment, a method by bare name and its qualified name, the mutable variable
LANGS = {
    "python": dict(
        path="src/shop.py",
        src=SHOP_PY,
        symbols=[
            "income_breakdown",
            "decorated_helper",
            "MAX_LEVEL",
            "Shop",
            "Shop.do_rebrand",
            "Shop.total",
            "Shop.BASE_COST",
        ],
        fn="income_breakdown",
        edit=('"bonus": gold // 10', '"bonus": 0'),
        comment=('    return {"gold"', '    # breakdown by source\n    return {"gold"'),
        bare=("do_rebrand", "Shop.do_rebrand"),
        var="rates",
        var_edit=("rates = []", "rates = [0.2]"),
        typo=("income_breakdwn", "income_breakdown"),
    ),
    "go": dict(
        path="src/shop.go",
        src=SHOP_GO,
        symbols=[
            "IncomeBreakdown",
            "Shop",
            "Priced",
            "MaxLevel",
            "RareDrop",
            "EpicDrop",
            "Shop.DoRebrand",
            "Shop.AddGold",
        ],
        fn="IncomeBreakdown",
        edit=("gold*3", "gold*4"),
        comment=("\treturn gold*3", "\t// gold as-is\n\treturn gold*3"),
        bare=("DoRebrand", "Shop.DoRebrand"),
        var="mutable",
        var_edit=("var mutable = 0", "var mutable = 7"),
        typo=("IncomeBreakdwn", "IncomeBreakdown"),
    ),
    "gdscript": dict(
        path="src/shop.gd",
        src=SHOP_GD,
        symbols=[
            "Shop.income_breakdown",
            "Shop.max_level_for",
            "Shop.RARITIES",
            "Shop.Upgrade",
            "Shop.Upgrade.do_rebrand",
            "Shop.Upgrade.COST",
        ],
        fn="income_breakdown",
        edit=('"bonus": gold / 10', '"bonus": 0'),
        comment=('\treturn {"gold"', '\t# breakdown by source\n\treturn {"gold"'),
        bare=("do_rebrand", "Shop.Upgrade.do_rebrand"),
        var="gold",
        var_edit=("var gold := 0", "var gold := 50"),
        typo=("income_breakdwn", "Shop.income_breakdown"),
    ),
}
PEER_FILE = {"python": "python.test.ts", "go": "go.test.ts", "gdscript": "gdscript.test.ts"}


@pytest.fixture(params=sorted(LANGS))
def lang(request, repo):
    case = LANGS[request.param]
    repo.write(case["path"], case["src"])
    repo.commit(request.param)
    return repo, case


def test_functions_classes_methods_and_constants_anchor_in_each_language(lang):
    """nocetta test/anchor/python.test.ts › extracts functions, classes with methods, and ALL_CAPS constants;
    go.test.ts › extracts functions, types, methods grouped by receiver, and consts; gdscript.test.ts › extracts
    top-level functions, consts, the file class, and inner classes with methods. (tether names GDScript members
    under their `class_name`, and anchors the file class as the file: DIFFERENCES.md.)"""
    repo, case = lang
    for i, name in enumerate(case["symbols"]):
        out = repo.json(
            "remember",
            f"Memory {i} about {name}: the balance sheet depends on it.",
            "--anchor",
            f"{case['path']}::{name}",
        )
        assert [a["spec"] for a in out["data"]["anchors"]] == [f"{case['path']}::{name}"]
    assert {i["status"] for i in repo.check().values()} == {"active"}


def test_an_unchanged_or_commented_symbol_stays_active_and_a_body_edit_goes_stale_in_each_language(lang):
    """nocetta test/anchor/{python,go,gdscript}.test.ts › relocates an unchanged symbol through the dispatcher with the
    hash intact; › ignores comment-only edits — a comment added inside a body does not change its hash; › detects a
    body edit as staleness: same locator, changed hash"""
    repo, case = lang
    mid = repo.remember(
        "The breakdown feeds the shop's income panel; keep the bonus split.", f"{case['path']}::{case['fn']}"
    )
    repo.write("README.md", "unrelated\n")
    assert repo.check()[mid]["status"] == "active"
    repo.replace(case["path"], *case["comment"])
    assert repo.check()[mid]["status"] == "active"
    repo.replace(case["path"], *case["edit"])
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")


def test_a_bare_method_name_resolves_and_an_unknown_name_is_refused_with_near_candidates_in_each_language(lang):
    """nocetta test/anchor/{python,go,gdscript}.test.ts › resolveAnchor anchors a method end to end, in the code
    strategy (the bare method name resolves to its class or receiver); › refuses an unknown symbol, naming the
    available candidates (tether names the near ones: DIFFERENCES.md)"""
    repo, case = lang
    bare, qualified = case["bare"]
    out = repo.json("remember", "Rebranding charges the base cost on purpose.", "--anchor", f"{case['path']}::{bare}")
    assert [a["spec"] for a in out["data"]["anchors"]] == [f"{case['path']}::{qualified}"]
    refused(repo, f"{case['path']}::nonexistent", "anchor_unresolved")
    typo, near = case["typo"]
    assert near in refused(repo, f"{case['path']}::{typo}", "anchor_unresolved")["near"]


def test_a_mutable_variable_anchors_and_its_edit_goes_stale_in_each_language(lang):
    """nocetta test/anchor/python.test.ts (lowercase module variable), go.test.ts (package `var`), gdscript.test.ts
    (`var`) › mutable variables are never indexed. tether differs on purpose (DIFFERENCES.md): they anchor, and a
    memory on one goes stale when the value is edited."""
    repo, case = lang
    out = repo.json(
        "remember",
        "The starting value is tuned for the tutorial economy.",
        "--anchor",
        f"{case['path']}::{case['var']}",
    )
    mid = out["data"]["id"]
    assert repo.check()[mid]["status"] == "active"
    repo.replace(case["path"], *case["var_edit"])
    assert repo.check()[mid]["status"] == "stale"


# -- test/capture/capture.test.ts › remember ----------------------------------------------------
def test_remember_resolves_the_anchor_from_the_real_source_and_persists_it(repo):
    """nocetta test/capture/capture.test.ts › remember › resolves a code anchor from the artifact's real source and
    persists through writeNode (files are truth: the memory round-trips from its file alone);
    test/facade/facade.test.ts › remember resolves the anchor from the real fixture file, persists under
    .nocetta/memory (here .tether/memories/), and needs no manual reload"""
    repo.write("src/foo.ts", TWO_FUNCTIONS)
    repo.commit("foo")
    out = repo.json("remember", "foo returns 1", "--anchor", "src/foo.ts::foo")["data"]
    (anchor,) = out["anchors"]
    assert (anchor["path"], anchor["symbol"], anchor["language"]) == ("src/foo.ts", "foo", "typescript")
    assert out["valid_from"] == out["recorded_at"] and out["valid_to"] is None
    front = memory_file(repo, out["id"])
    assert front["anchors"][0]["hash"] == anchor["hash"] and front["id"] == out["id"]
    assert (repo.path / out["file"]).is_file()
    shown = repo.json("show", out["id"][:8])["data"]
    assert shown["body"] == "foo returns 1"


def test_a_non_exported_top_level_const_anchors(repo):
    """nocetta test/capture/capture.test.ts › remember › resolves a code anchor to a non-exported top-level const"""
    repo.write(
        "src/internal.ts",
        "const INTERNAL_LIMIT = 10;\n\nexport function useIt(): number {\n  return INTERNAL_LIMIT;\n}\n",
    )
    repo.commit("internal")
    out = repo.json(
        "remember", "INTERNAL_LIMIT caps the internal batch size", "--anchor", "src/internal.ts::INTERNAL_LIMIT"
    )
    assert [a["spec"] for a in out["data"]["anchors"]] == ["src/internal.ts::INTERNAL_LIMIT"]


def test_the_commit_a_memory_was_written_at_is_recorded_from_git(repo):
    """nocetta test/capture/capture.test.ts › remember › stores an optional commit field, round-tripped through the
    choke-point. tether differs on purpose (DIFFERENCES.md): the commit is HEAD when written, never an argument."""
    repo.write("src/foo.ts", TWO_FUNCTIONS)
    repo.commit("foo")
    mid = repo.remember("foo returns 1", "src/foo.ts::foo")
    assert memory_file(repo, mid)["commit"] == repo.git("rev-parse", "HEAD").strip()


def test_a_heading_anchor_on_a_markdown_file_persists(lore):
    """nocetta test/capture/capture.test.ts › remember › resolves a heading anchor: .md artifacts route to the
    content-span extractor"""
    out = lore.json("remember", "Elminster lives in Shadowdale", "--anchor", "lore/mage.md#Elminster")["data"]
    (anchor,) = out["anchors"]
    assert (anchor["type"], anchor["path"], anchor["symbol"]) == ("section", "lore/mage.md", "Elminster")
    assert (lore.path / out["file"]).is_file()


def test_an_unknown_symbol_is_refused_and_nothing_is_written(repo):
    """nocetta test/capture/capture.test.ts › remember › refuses an unknown symbol name, listing the available ones —
    nothing written (the near one first: `baz` is near `bar`; then the rest of a small file's names)"""
    repo.write("src/foo.ts", TWO_FUNCTIONS)
    repo.commit("foo")
    err = refused(repo, "src/foo.ts::baz", "anchor_unresolved")
    assert err["near"] == ["bar", "foo"] and repo.memory_files() == {}


def test_an_ambiguous_symbol_is_refused_listing_every_candidate(repo):
    """nocetta test/capture/capture.test.ts › remember › refuses an ambiguous symbol name, listing every candidate
    locator"""
    repo.write("src/ambig.ts", OVERLOADS)
    repo.commit("ambig")
    err = refused(repo, "src/ambig.ts::foo", "anchor_ambiguous")
    assert err["candidates"] == ["src/ambig.ts::foo@()", "src/ambig.ts::foo@(s: string)"]
    # each candidate is a form that can be typed back
    for spec in err["candidates"]:
        repo.json("remember", f"The overload {spec} is what the CLI calls.", "--anchor", spec)
    assert len(repo.memory_files()) == 2


def test_an_anchor_on_a_file_that_cannot_be_read_is_refused(repo):
    """nocetta test/capture/capture.test.ts › remember › refuses when the artifact source cannot be read"""
    repo.write("README.md", "x\n")
    repo.commit("init")
    err = refused(repo, "src/gone.ts::foo", "anchor_unresolved")
    assert err["reason"] == "file_missing" and "src/gone.ts" in err["message"]


def test_malformed_requests_are_rejected_before_anything_is_written(repo):
    """nocetta test/capture/capture.test.ts › remember › rejects malformed requests before any resolution or write
    (an empty body; a symbol without a file). tether differs on two (DIFFERENCES.md): a bare path anchors the whole
    file instead of "anchors nothing", and a memory with no anchor at all is refused."""
    repo.write("src/foo.ts", TWO_FUNCTIONS)
    repo.commit("foo")
    assert repo.error("remember", "  \n  ", "--anchor", "src/foo.ts::foo")["code"] == "invalid_input"
    assert repo.error("remember", "x", "--anchor", "::foo")["code"] == "invalid_spec"
    assert repo.error("remember", "an unanchored thought about the project")["code"] == "invalid_input"
    assert repo.memory_files() == {}
    out = repo.json("remember", "The foo module is the public surface.", "--anchor", "src/foo.ts")
    assert out["data"]["anchors"][0]["type"] == "file"


def test_editing_the_anchored_symbol_makes_it_stale_but_editing_its_neighbour_does_not(repo):
    """nocetta test/capture/capture.test.ts › remember › captures a live claim: editing the anchored symbol dirties it,
    editing elsewhere does not"""
    repo.write("src/foo.ts", TWO_FUNCTIONS)
    repo.commit("foo")
    mid = repo.remember("foo returns 1", "src/foo.ts::foo")
    repo.replace("src/foo.ts", 'return "bar";', 'return "BAR";')
    assert repo.check()[mid]["status"] == "active"
    repo.git("checkout", "--", "src/foo.ts")
    repo.replace("src/foo.ts", "return 1;", "return 42;")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
