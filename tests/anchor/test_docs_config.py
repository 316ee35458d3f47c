"""Config keys (JSON, YAML, TOML) through the real CLI; below it, key and section hashing."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings, strategies as st

URL = "postgres://app@db.internal:5432/app"
SLASHED = URL.replace("/", "\\/")  # JSON may escape a slash


@dataclass(frozen=True)
class Conf:
    path: str
    source: str
    cosmetic: str  # reformatted, reordered, commented, requoted: the same values
    url_key: tuple[str, str]  # how the `url` key is spelled, and renamed to `dsn`
    pool_key: tuple[str, str]


CONFS = {
    "json": Conf(
        "config/service.json",
        f'{{\n  "name": "billing",\n  "database": {{\n    "url": "{URL}",\n    "pool_size": 20\n  }},\n'
        '  "scripts": {\n    "build": "tsc -p tsconfig.build.json"\n  }\n}\n',
        '{"scripts":{"build":"tsc -p tsconfig.build.json"},'
        f'"database":{{"pool_size":20,"url":"{SLASHED}"}},"name":"billing"}}\n',
        ('"url":', '"dsn":'),
        ('"pool_size":', '"max_connections":'),
    ),
    "yaml": Conf(
        "config/service.yaml",
        f"# Service configuration\nname: billing\ndatabase:\n  url: {URL}\n  pool_size: 20\n"
        "scripts:\n  build: tsc -p tsconfig.build.json\n",
        'scripts: {build: "tsc -p tsconfig.build.json"}  # flow style\ndatabase:\n'
        f"    # pooled through pgbouncer\n    pool_size: 20\n    url: '{URL}'\nname: \"billing\"\n",
        ("  url:", "  dsn:"),
        ("  pool_size:", "  max_connections:"),
    ),
    "toml": Conf(
        "config/service.toml",
        f'# Service configuration\nname = "billing"\n\n[database]\nurl = "{URL}"\npool_size = 20\n\n'
        '[scripts]\nbuild = "tsc -p tsconfig.build.json"\n',
        "name = 'billing'\nscripts.build = \"tsc -p tsconfig.build.json\"\n\n[database]\n"
        f"# pooled through pgbouncer\npool_size = 20   # one per worker\nurl = '{URL}'\n",
        ("url =", "dsn ="),
        ("pool_size =", "max_connections ="),
    ),
}


@pytest.fixture(params=sorted(CONFS))
def conf(request) -> Conf:
    return CONFS[request.param]


@pytest.fixture
def configured(repo, conf):
    repo.write(conf.path, conf.source)
    repo.commit("initial")
    return repo, conf


def _remember_url(repo, conf) -> str:
    return repo.remember("The DSN goes through pgbouncer on 5432, never the primary.", f"{conf.path}#database.url")


# -- config keys: the lifecycle table, per format -----------------------------------------------
def test_value_edit_is_stale_with_a_diff_of_the_value(configured):
    repo, conf = configured
    _remember_url(repo, conf)
    repo.replace(conf.path, "5432", "6432")
    item = repo.only()
    a = item["anchors"][0]
    assert (item["status"], a["reason"], a["symbol"]) == ("stale", "body_edited", "database.url")
    lines = a["diff"].splitlines()
    assert any(ln.startswith("-") and "5432" in ln for ln in lines)
    assert any(ln.startswith("+") and "6432" in ln for ln in lines)
    assert not any("pool_size" in ln or "scripts" in ln for ln in lines)  # the value, not the file


def test_sibling_key_edits_stay_active(configured):
    repo, conf = configured
    _remember_url(repo, conf)
    repo.replace(conf.path, "20", "25")
    repo.replace(conf.path, "tsc -p tsconfig.build.json", "tsc -b")
    assert repo.only()["status"] == "active"


def test_reformat_reorder_comments_and_quoting_stay_active(configured):
    repo, conf = configured
    _remember_url(repo, conf)
    repo.remember("Pool settings are sized for 5 services x 20.", f"{conf.path}#database")
    repo.write(conf.path, conf.cosmetic)
    assert [i["status"] for i in repo.check().values()] == ["active", "active"]


def test_subtree_anchor_goes_stale_on_a_child_edit_only(configured):
    repo, conf = configured
    repo.remember("100 DB connections across 5 services: 20 each.", f"{conf.path}#database")
    repo.replace(conf.path, "tsc -p tsconfig.build.json", "tsc -b")
    assert repo.only()["status"] == "active"
    repo.replace(conf.path, "20", "25")
    item = repo.only()
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert "+" in item["anchors"][0]["diff"] and "25" in item["anchors"][0]["diff"]


def test_renamed_key_path_is_followed_when_the_value_is_unique(configured):
    repo, conf = configured
    _remember_url(repo, conf)
    repo.replace(conf.path, *conf.url_key)
    item = repo.only()
    a = item["anchors"][0]
    assert (item["status"], a["symbol"], a["was"]) == ("active", "database.dsn", f"{conf.path}#database.url")


def test_renamed_small_scalar_is_low_entropy_never_re_pointed(configured):
    repo, conf = configured
    repo.remember("Pool size is 20 because the DB has 100 connections across 5 services.", f"{conf.path}#pool_size")
    repo.replace(conf.path, *conf.pool_key)
    item = repo.only()
    a = item["anchors"][0]
    assert (item["status"], item["reason"], a["symbol"]) == ("stale", "low_entropy", "database.pool_size")
    assert a["candidates"] == [f"{conf.path}#database.max_connections"]


def test_deleted_key_invalidates_and_its_return_heals(configured):
    repo, conf = configured
    _remember_url(repo, conf)
    text = repo.read(conf.path)
    repo.write(conf.path, "".join(ln for ln in text.splitlines(True) if URL not in ln))
    item = repo.only()
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")
    repo.write(conf.path, text)
    assert repo.only()["status"] == "active"


def test_key_anchor_moved_to_another_config_file_is_followed(configured):
    repo, conf = configured
    _remember_url(repo, conf)
    text = repo.read(conf.path)
    repo.write(conf.path, "".join(ln for ln in text.splitlines(True) if URL not in ln))
    repo.write("config/db.yaml", f"primary:\n  dsn: {URL}\n")
    a = repo.only()["anchors"][0]
    assert (a["status"], a["path"], a["symbol"]) == ("active", "config/db.yaml", "primary.dsn")


# -- config keys: what users type --------------------------------------------------------------
def test_real_world_files_and_spec_forms(repo):
    repo.write("package.json", '{"name": "web", "scripts": {"build": "vite build --mode production"}}\n')
    repo.write(
        "tsconfig.json",
        '{\n  // editor-only comments are allowed here\n  "compilerOptions": {\n'
        '    "strict": true,\n    "paths": {"@/*": ["src/*"],},\n  },\n}\n',
    )
    repo.write(
        "pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-q -n auto"\n\n[tool.black]\nline-length = 100\n'
    )
    repo.write(".vscode/settings.json", '{"editor.formatOnSave": true, "files.exclude": {"**/.git": true}}\n')
    repo.write("servers.yaml", "servers:\n  - host: a.internal\n  - host: b.internal\n")
    repo.commit()
    for spec, symbol in [
        ("package.json#scripts.build", "scripts.build"),
        ("package.json#build", "scripts.build"),
        ("tsconfig.json#compilerOptions.strict", "compilerOptions.strict"),
        ('tsconfig.json#compilerOptions.paths."@/*"', "compilerOptions.paths.@/*"),
        ("pyproject.toml#tool.pytest.ini_options", "tool.pytest.ini_options"),
        ('.vscode/settings.json#"editor.formatOnSave"', '"editor.formatOnSave"'),
        (".vscode/settings.json#editor\\.formatOnSave", '"editor.formatOnSave"'),
        ('.vscode/settings.json#"files.exclude"["**/.git"]', '"files.exclude"."**/.git"'),
        ("servers.yaml#servers.1", "servers.1"),
        ("servers.yaml#servers[0].host", "servers.0.host"),
    ]:
        data = repo.json("remember", f"note on {spec}", "--anchor", spec, "--force")["data"]
        assert data["anchors"][0]["symbol"] == symbol, spec
    repo.replace("pyproject.toml", "line-length = 100", "line-length = 88")
    repo.replace("tsconfig.json", '"@/*"', '"~/*"')
    stale = {(a["path"], a["symbol"]) for i in repo.check().values() if i["status"] != "active" for a in i["anchors"]}
    assert stale == {("tsconfig.json", "compilerOptions.paths.@/*")}


def test_array_elements_named_by_name_survive_an_insert(repo):
    flow = (
        "jobs:\n  test:\n    steps:\n      - uses: actions/checkout@v4\n"
        "      - name: Run tests\n        run: pytest -n auto --dist loadgroup tests/\n"
    )
    repo.write(".github/workflows/ci.yml", flow)
    repo.commit()
    mid = repo.remember(
        "Tests run in load groups: DB tests share a worker.", ".github/workflows/ci.yml#jobs.test.steps.Run tests"
    )
    repo.replace(
        ".github/workflows/ci.yml",
        "      - name: Run tests",
        "      - uses: actions/setup-python@v5\n      - name: Run tests",
    )
    assert repo.check()[mid]["status"] == "active"
    repo.replace(".github/workflows/ci.yml", "loadgroup", "loadfile")
    assert (repo.check()[mid]["status"], repo.check()[mid]["reason"]) == ("stale", "body_edited")


def test_multi_document_yaml_tells_documents_apart(repo):
    repo.write(
        "k8s/app.yaml",
        "kind: Deployment\nspec:\n  replicas: 3\n---\nkind: Service\nspec:\n  port: 8443\n"
        "  selector: {app: billing-api, tier: backend-payments}\n",
    )
    repo.commit()
    err = repo.error("remember", "x", "--anchor", "k8s/app.yaml#spec")
    assert err["code"] == "anchor_ambiguous"
    assert sorted(err["candidates"]) == ["k8s/app.yaml#spec@#1", "k8s/app.yaml#spec@#2"]
    mid = repo.remember("The service port is 8443 for mTLS.", "k8s/app.yaml#spec@#2")
    only = repo.remember("Selector matches the payments tier.", "k8s/app.yaml#spec.selector")
    repo.replace("k8s/app.yaml", "replicas: 3", "replicas: 5")
    assert {repo.check()[m]["status"] for m in (mid, only)} == {"active"}
    repo.replace("k8s/app.yaml", "8443", "9443")
    assert repo.check()[mid]["status"] == "stale"


def test_yaml_anchors_and_merge_keys_count_in_the_effective_value(repo):
    repo.write(
        "deploy.yaml",
        "defaults: &defaults\n  pool: 5\n  timeout: 30\n"
        "production:\n  <<: *defaults\n  host: db-primary.prod.internal.example.com\n",
    )
    repo.commit()
    whole = repo.remember("Production inherits the defaults.", "deploy.yaml#production")
    host = repo.remember("Production points at the primary.", "deploy.yaml#production.host")
    repo.replace("deploy.yaml", "pool: 5", "pool: 8")
    got = repo.check()
    assert (got[whole]["status"], got[host]["status"]) == ("stale", "active")


# -- config keys: bad input --------------------------------------------------------------------
def test_missing_key_is_refused_listing_near_keys(configured):
    repo, conf = configured
    err = repo.error("remember", "x", "--anchor", f"{conf.path}#database.pool")
    assert (err["code"], err["reason"]) == ("anchor_unresolved", "key_missing")
    assert "database.pool_size" in err["near"] and "database.url" in err["near"]
    err = repo.error("remember", "x", "--anchor", f"{conf.path}#missing.key")
    assert err["code"] == "anchor_unresolved"
    assert {"database", "name", "scripts"} <= set(err["near"])
    assert repo.memory_files() == {}


@pytest.mark.parametrize(
    "path, text, line",
    [
        ("broken.yaml", "name: billing\ndatabase:\n  url: [unclosed\n  pool: : :\n", 3),
        ("broken.json", '{"name": "billing",\n "pool": 20\n "url": "x"}\n', 2),
        ("broken.toml", 'name = "billing"\n[database\npool = 20\n', 2),
    ],
)
def test_malformed_file_refuses_keys_but_not_the_whole_file(repo, path, text, line):
    repo.write(path, text)
    repo.commit()
    err = repo.error("remember", "x", "--anchor", f"{path}#name")
    assert err["code"] == "malformed_file"
    assert f"(line {line})" in err["message"]  # where to look
    assert repo.memory_files() == {}
    repo.remember("Kept broken on purpose: the parser error test reads it.", path)
    assert repo.only()["status"] == "active"


def test_anchored_file_that_stops_parsing_is_stale_until_fixed(configured):
    repo, conf = configured
    _remember_url(repo, conf)
    good = repo.read(conf.path)
    repo.write(conf.path, good.replace("20", "20 ]] :: {", 1))
    item = repo.only()
    assert (item["status"], item["reason"]) == ("stale", "file_unparsable")
    repo.write(conf.path, good)
    assert repo.only()["status"] == "active"


def test_lock_files_are_whole_file_only(repo):
    repo.write("package-lock.json", '{"name": "web", "lockfileVersion": 3}\n')
    repo.commit()
    err = repo.error("remember", "x", "--anchor", "package-lock.json#name")
    assert err["code"] == "unsupported_language" and "manifest" in err["message"]
    repo.remember("Regenerate with npm 10.", "package-lock.json")


# -- normalization, below the CLI ----------------------------------------------------------------
def _hashes(path: str, text: str) -> dict[str, str]:
    from tether.anchor.extract import analyze

    facts = analyze(path, text.encode())
    assert facts.skipped is None, facts.skipped
    return {s.qualname: s.hash for s in facts.symbols}


@pytest.mark.parametrize(
    "path, a, b",
    [
        ("c.yaml", "k: |\n  one\n  two\n", "k: |\n      one\n      two\n"),
        ("c.yaml", "k: plain text\n  folded\n", "k: 'plain text folded'\n"),
        ("c.yaml", "k: [1, 2]\n", "k:\n  - 1\n  - 2\n"),
        ("c.yaml", "k: !!str 20\n", "k: '20'\n"),
        ("c.yaml", 'k: "tab\\there"\n', 'k: "tab\there"\n'),
        ("c.toml", "k = 1_000\n", "k = 1000\n"),
        ("c.toml", "k = 0x10\n", "k = 16\n"),
        ("c.toml", 'k = """\nab"""\n', "k = 'ab'\n"),
        ("c.toml", "k = 1979-05-27 07:32:00z\n", "k = 1979-05-27T07:32:00Z\n"),
        ("c.toml", "[k]\nx = 1\n", "k = {x = 1}\n"),
        ("c.json", '{"k": "\\u0041"}', '{"k": "A"}'),
        ("c.json", '{"k": 1.0}', '{"k": 1.00}'),
        ("c.json", '{"k": {"a": 1, "b": 2}}', '{"k": {"b": 2, "a": 1,}}'),
    ],
)
def test_same_value_hashes_the_same(path, a, b):
    assert _hashes(path, a)["k"] == _hashes(path, b)["k"]


@pytest.mark.parametrize(
    "path, a, b",
    [
        ("c.yaml", "k: 20\n", "k: '20'\n"),
        ("c.yaml", "k: |\n  a\n  b\n", "k: >\n  a\n  b\n"),
        ("c.json", '{"k": [1, 2]}', '{"k": [2, 1]}'),
        ("c.toml", "k = 1\n", "k = 1.0\n"),
    ],
)
def test_a_different_value_or_type_hashes_differently(path, a, b):
    assert _hashes(path, a)["k"] != _hashes(path, b)["k"]


def test_alias_bomb_costs_one_pass():
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 12)]
    keys = _hashes("bomb.yaml", "\n".join(lines) + "\n")  # 9**11 leaves if expanded
    assert "l11" in keys and "l11.0" in keys and "l11.0.0" not in keys  # an alias is not walked into


def test_markdown_structure_is_what_renders():
    text = (
        "Title\n=====\n\n```\ncode\n```\n---\n\nTwo line\nheading\n---------\n\ntext\n\n"
        "~~~\n# inside tildes\n~~~\n\n## Next ##\n"
    )
    assert list(_hashes("r.md", text)) == ["Title", "Title/Two line heading", "Title/Next"]


# -- never a crash, and every printed name reads back -------------------------------------------
_pieces = st.sampled_from(
    [
        "a",
        "b: 1",
        "- x",
        "[t]",
        "k = 2",
        '{"k": [1,',
        "}",
        "]",
        "#",
        "# H",
        "===",
        "---",
        "~~~~",
        "``c``",
        "| a | b |",
        "|---|---|",
        "```",
        "&a",
        "*a",
        "<<: *a",
        "? k",
        '"q\\"',
        "'s''",
        "\t",
        " ",
        "\n",
        "\\",
        "|",
        ">-",
        "!!str",
        "\u00e9",
        "1_0",
        "0x1F",
        ".inf",
        "~",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_pieces, max_size=40).map("".join), st.sampled_from(["x.md", "x.rst", "x.json", "x.yaml", "x.toml"]))
def test_any_text_is_symbols_with_sound_ranges_or_a_syntax_skip(text, path):
    from tether.anchor.extract import analyze

    data = text.encode()
    facts = analyze(path, data)
    assert facts.skipped in (None, "syntax")
    for s in facts.symbols:
        assert 0 <= s.start_byte <= s.end_byte <= len(data) and 1 <= s.start_line <= s.end_line
        assert s.qualname and s.hash[:3] in ("k1:", "m2:", "r1:", "s1:")


@given(st.lists(st.text(max_size=8), min_size=1, max_size=4))
def test_a_quoted_key_path_splits_back_into_its_segments(segs):
    from tether.anchor.config import quote, split_path

    assert split_path(".".join(quote(s) for s in segs)) == segs
