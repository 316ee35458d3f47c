"""The prompt hook's resting state stays light: what a silent prompt loads, as Python reports it.

Every prompt starts a process, so the hook's latency target (ARCHITECTURE.md, "Start-up budget"; measured by `make bench`)
is mostly what it imports. This pins the modules the silent path must never load again: each
one was measured at 5-20 ms per prompt. A push may load them; silence may not.
"""

from __future__ import annotations

import time

import pytest
from hooktools import billing_repo, hook_env, payload, run_hook
from where import PACKAGE

HEAVY = ("dataclasses", "inspect", "pathlib", "orjson", "platformdirs", "typing", "uuid", "tree_sitter", "difflib")


def _imported(proc) -> set[str]:
    """Module names from `-X importtime` lines (`import time: self | cumulative | name`)."""
    names = set()
    for line in proc.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


@pytest.fixture
def quiet_env(repo, tmp_path, monkeypatch):
    billing_repo(repo)
    time.sleep(2.2)  # the memory index trusts files older than 2 s; a younger one is re-read each time
    env = hook_env(tmp_path, repo.path, PYTHONPROFILEIMPORTTIME="1")
    # as inside Claude Code: caches in the platform's user dirs, CLAUDE_PLUGIN_DATA set
    env.pop("TETHER_HOME", None)
    for kind in ("CACHE", "STATE", "DATA"):
        env[f"XDG_{kind}_HOME"] = str(tmp_path / f"xdg-{kind.lower()}")
    return env


def _prompt(repo, text: str, session: str = "s-imports") -> bytes:
    return payload("user_prompt_submit.json", session=session, transcript="", repo=str(repo.path), prompt=text)


def test_a_silent_prompt_loads_none_of_the_heavy_modules(repo, quiet_env):
    first = run_hook("UserPromptSubmit", _prompt(repo, "add a dark mode toggle to the settings page"), quiet_env)
    assert first.returncode == 0 and first.stdout == b""
    assert "sqlite3" in _imported(first)  # the trace is real: the memory index was opened
    again = run_hook("UserPromptSubmit", _prompt(repo, "write release notes for the next version"), quiet_env)
    loaded = _imported(again)
    assert again.returncode == 0 and again.stdout == b""
    assert "sqlite3" in loaded and "tether.recall.search" in loaded
    assert sorted(m for m in HEAVY if m in loaded) == []


def test_a_push_loads_the_resolver_but_never_inspect(repo, quiet_env):
    quiet_env["TETHER_PUSH_FLOOR"] = "0.01"
    question = "why does the invoice total round the way it does"
    run_hook("UserPromptSubmit", _prompt(repo, question, "s-warm"), quiet_env)  # a first run builds the code index
    proc = run_hook("UserPromptSubmit", _prompt(repo, question, "s-push"), quiet_env)
    assert proc.returncode == 0 and b"additionalContext" in proc.stdout
    loaded = _imported(proc)
    assert {"pathlib", "orjson", "dataclasses", "tether.lifecycle.resolve"} <= loaded  # the trace sees the resolver
    assert "inspect" not in loaded  # deferred: dataclasses never asks for it here


# Every import inside a function in the package, and why it is there: each one defers a cost the
# prompt hook (a process per prompt) or the CLI's start-up must not pay before it knows it needs it.
# A new function-level import fails test_every_function_level_import_is_listed until it is named here.
LAZY_IMPORTS = {
    "anchor/grammars.py: tree_sitter_language_pack": "the grammars load only when a file is parsed",
    "anchor/grammars.py: tree_sitter": "tree-sitter loads only when a file is parsed",
    "files/locate.py: _blake2": "hashlib loads OpenSSL (ms per hook); only the repo key and vector keys need blake2b",
    "files/locate.py: hashlib": "fallback where CPython lacks _blake2",
    "files/locate.py: platformdirs": "only when TETHER_HOME/CLAUDE_PLUGIN_DATA do not say where",
    "files/write.py: json": "orjson, not json, is the CLI's: a read that writes no state file never loads json",
    "index/db.py: json": "only a rebuilt cache writes its note",
    "surfaces/cli/main.py: gc": "only the console script's entry tunes the collector",
    "surfaces/cli/run.py: tether.surfaces.cli.parser": "argparse: not for the plainest read commands (quick.py)",
    "surfaces/cli/main.py: tether.surfaces.cli.run": "the command's imports come after the collector is tuned",
    "surfaces/cli/main.py: tether.index.db": "with tether.surfaces.cli.run: after the collector is tuned",
    "surfaces/cli/serve_mcp.py: tether.surfaces.mcp.server": "the MCP SDK (~1 s): `tether --help` lists `mcp` without it",
    "index/background.py: subprocess": "only when a background index is started",
    "index/parallel.py: tether.anchor.extract": "the queries are compiled before a forked sweep only",
    "index/parallel.py: multiprocessing": "only a sweep of many changed files starts a pool",
    "index/listing.py: subprocess": "only a sweep lists files through git",
    "index/worker.py: hashlib": "only a batch of changed files is hashed",
    "index/worker.py: tether.anchor.extract": "parsing loads tree-sitter: not for an unchanged file",
    "index/worker.py: tether.anchor.model": "dataclasses: only a parse builds FileFacts",
    "lifecycle/binding.py: tether.anchor.config_formats": "only a refused binding names the syntax error",
    "lifecycle/binding.py: tether.anchor.extract": "only a refused binding names the file's kind",
    "lifecycle/diff.py: difflib": "only a stale anchor gets a diff",
    "lifecycle/diff.py: subprocess": "only a diff or a rename asks git",
    "lifecycle/diff.py: tether.anchor.extract": "the past revision is parsed only for a diff or rename",
    "lifecycle/formats.py: tether.anchor.extract": "only an old hash format is re-hashed",
    "lifecycle/rename.py: tether.anchor.extract": "only a lost anchor looks for a rename",
    "lifecycle/resolve.py: difflib": "only a moved-and-edited anchor is compared",
    "recall/rows.py: tether.anchor.content": "the bytes' hash: only a memory file read again is hashed",
    "recall/rows.py: tether.store.memory": "orjson and dataclasses: only a changed memory file is parsed",
    "recall/rows.py: tether.store.model": "a memory's times: only a changed memory file is indexed",
    "recall/rows.py: orjson": "the index's JSON, fast, only when memory files were just parsed (orjson is loaded then)",
    "recall/search.py: tether.store.memory": "orjson and dataclasses: only a changed memory file is parsed",
    "recall/text.py: unicodedata": "only a word outside ASCII has accents to fold",
    "recall/semantic/__init__.py: importlib.util": "only when semantic recall is wanted: ~0.5 ms of a lexical recall's start",
    "recall/sync.py: tether.store.memory": "orjson and dataclasses: only a budgeted sync reads the file size cap",
    "service/reading.py: tether.lifecycle.affected": "only `affected` asks git for a diff and parses the base",
    "service/reading.py: tether.lifecycle.changes": "with tether.lifecycle.affected: only `affected`",
    "service/reading.py: tether.recall": "the answer's packing (orjson, receipts): only recall, never check or ls",
    "service/reading.py: tether.recall.search": "the memory search (lexicon, word patterns): recall and writes, not check or ls",
    "service/__init__.py: tether.store.secrets": "75 compiled rules: only a write scans for secrets",
    "service/__init__.py: tether.lifecycle.binding": "placing anchors loads every language and config parser: writes only",
    "service/__init__.py: tether.recall.overlap": "the duplicate and contradiction checks: writes only",
    "service/__init__.py: tether.store": "the export format: export and import only",
    "surfaces/cli/reading.py: tether.lifecycle.changes": "only `check --format github|sarif` asks git for the prefix",
    "surfaces/cli/reading.py: tether.surfaces.cli": "the CI formats (ci.py) load only for `check --format github|sarif`",
    "lifecycle/entropy.py: tether.anchor.extract": "a push resolves from the index; only a follow parses",
    "recall/search.py: tether.recall.semantic": "the embedding model (numpy): recall only, never the prompt hook",
    "recall/search.py: tether.files": "the failure log: only when the vector store cannot be used",
    "recall/semantic/__init__.py: tether.recall.semantic.minilm": "numpy and the weights: only when a recall embeds",
    "service/__init__.py: tether.files": "the failure log: only when a write could not embed its memory",
    "store/files.py: fcntl": "POSIX only: where it is missing, writes stay atomic unlocked",
    "store/files.py: subprocess": "only a sweep of leftover temp files asks git what it tracks",
    "store/validate.py: shlex": "only a write with evidence splits a command line",
    "store/memory.py: orjson": "only a memory file parsed or written needs it: a push from the parsed cache does not",
    "recall/search.py: tether.store.parsed": "a push reads its memory from the parsed-file cache, unparsed",
    "store/memory.py: uuid": "uuid is heavy at start-up: only a new memory needs an id",
    "store/untracked.py: subprocess": "only status and SessionStart ask git which memory files it tracks",
    "surfaces/hooks/handlers.py: tether.surfaces.hooks": "each event loads only its own helpers",
    "surfaces/hooks/handlers.py: tether.surfaces.hooks.scoring": "only the prompt and Stop events score",
    "surfaces/hooks/handlers.py: tether.usage": "only a push or a Stop writes the usage log",
    "surfaces/hooks/edits.py: tether.anchor.extract": "only an edit placed in a file parses it, at Stop",
    "surfaces/hooks/handlers.py: tether.service": "only SessionStart's status line opens the service",
    "surfaces/hooks/handlers.py: tether.store.untracked": "only SessionStart's status line asks git",
    "surfaces/hooks/handlers.py: tether.index.background": "only when a background index must finish",
    "surfaces/hooks/handlers.py: tether.files.paths": "only events that name files resolve them",
    "surfaces/hooks/handlers.py: tether.errors": "with tether.files.paths: only events that name files",
    "surfaces/hooks/handlers.py: json": "only a push prints JSON and only Stop reads a recall's result; silence neither",
    "surfaces/hooks/handlers.py: tether.settings": "only a push reads the floor override",
    "surfaces/hooks/handlers.py: pathlib": "only a push that names files builds paths",
    "surfaces/hooks/handlers.py: tether.index.code_index": "only a push resolves anchors",
    "surfaces/hooks/handlers.py: tether.lifecycle.resolve": "only a push resolves anchors",
    "lazy.py: inspect": "only when a handler's signature must be read (a failure report)",
    "lazy.py: platform": "the stand-in loads the real module only if asked more than uuid's one call",
    "lazy.py: urllib.parse": "the stand-in loads the real module only when a path becomes a URI, or asked more",
    "surfaces/hooks/payload.py: hashlib": "only a payload without a session id is keyed by hash",
    "surfaces/hooks/runner.py: pathlib": "the runner's common path uses os.path",
    "surfaces/hooks/runner.py: tether.files": "the failure log loads only when a handler failed",
    "surfaces/hooks/runner.py: tether.index.db": "only a failure checks for a corrupt cache",
}


def _function_level_imports() -> set[str]:
    import ast

    package = PACKAGE
    found = set()
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.ImportFrom):
                        found.add(f"{path.relative_to(package).as_posix()}: {sub.module}")
                    elif isinstance(sub, ast.Import):
                        found.update(f"{path.relative_to(package).as_posix()}: {a.name}" for a in sub.names)
    return found


def test_every_function_level_import_is_listed_with_its_reason():
    found = _function_level_imports()
    assert sorted(found - set(LAZY_IMPORTS)) == [], "a new function-level import: hoist it, or name its reason here"
    assert sorted(set(LAZY_IMPORTS) - found) == [], "listed but gone: drop it from LAZY_IMPORTS"
