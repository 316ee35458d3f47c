"""What a read command loads, as Python reports it: `check`, `ls` and `recall` on an unchanged
repository answer from the index, so they never load tree-sitter, the extraction machinery,
`typing` or `inspect` (ARCHITECTURE.md, "The hooks, and the start-up budget"; the time itself is
measured by `make bench`, never here). And the same commands still see a real edit."""

from __future__ import annotations

import subprocess
import sys
import time

import orjson
import pytest

SRC = """\
class Billing:
    def charge(self, cents, currency="EUR"):
        if cents <= 0:
            raise ValueError("amount must be positive")
        fee = max(30, cents * 29 // 1000)
        return self.gateway.capture(cents + fee, currency)

    def refund(self, cents):
        return self.gateway.refund(cents)
"""

# loaded by a parse (tree-sitter, the languages and their queries, the config parsers) or by
# nothing a read needs; each costs the CLI's start-up milliseconds
HEAVY = (
    "tree_sitter",
    "tree_sitter_language_pack",
    "tether.anchor.extract",
    "tether.anchor.languages",
    "tether.anchor.symbols",
    "tether.anchor.config",
    "tether.lifecycle.binding",
    "typing",
    "inspect",
    "difflib",
    "platform",  # orjson loads uuid, which asks platform one thing: tether/lazy.py answers it
    "urllib.parse",  # and pathlib imports one function of it, for as_uri() (tether/lazy.py)
    "ipaddress",
)


def _loaded(proc) -> set[str]:
    """Module names from `-X importtime` lines (`import time: self | cumulative | name`)."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in proc.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


@pytest.fixture
def billing(repo):
    repo.write("src/billing.py", SRC)
    repo.commit("billing")
    repo.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    repo.remember("Refunds go back through the gateway, never by hand.", "src/billing.py::Billing.refund")
    time.sleep(2.2)  # rows are trusted once the file is older than the racy window (files/stamps.py: 2 s at most)
    repo.run("check")  # the index now holds the file as it stands
    return repo


@pytest.mark.parametrize(
    "args",
    [("check", "--json"), ("ls", "--json"), ("recall", "how are fees charged", "--json"), ("check",)],
)
def test_a_read_on_an_unchanged_repository_loads_no_parser(billing, args):
    """Lexical recall (TETHER_SEMANTIC=off, or no model installed) keeps the same diet as check."""
    proc = billing.run(*args, env={"PYTHONPROFILEIMPORTTIME": "1", "TETHER_SEMANTIC": "off"})
    loaded = _loaded(proc)
    assert "sqlite3" in loaded and "tether.lifecycle.resolve" in loaded  # the trace is real
    assert sorted(m for m in HEAVY if m in loaded) == []
    if args[0] != "recall":  # read by quick.py, not argparse (with gettext and locale)
        assert "argparse" not in loaded


def test_platform_stood_in_for_orjson_leaves_the_real_modules_behind():
    """After the CLI's output module loads orjson, `platform`, uuid and orjson are the real things."""
    code = (
        "import tether.surfaces.cli.output, sys; assert 'platform' not in sys.modules\n"
        "import orjson, os, platform, uuid\n"
        "assert platform.system() == os.uname().sysname and platform.machine() == os.uname().machine\n"
        "assert uuid._LINUX == (os.uname().sysname == 'Linux') and uuid.platform.machine() == platform.machine()\n"
        "u = uuid.uuid4(); assert orjson.dumps([u]) == f'[\"{u}\"]'.encode()\n"
    )
    _passes(code)


def test_the_url_parser_stood_in_for_pathlib_loads_when_a_path_becomes_a_uri():
    code = (
        "import sys, tether.surfaces.cli.run, pathlib; assert 'urllib.parse' not in sys.modules\n"
        "assert pathlib.Path('/tmp/a b').as_uri() == 'file:///tmp/a%20b'\n"
        "import urllib.parse; assert urllib.parse.quote('a b') == 'a%20b'\n"
        "from urllib.parse import urlsplit; assert urlsplit('http://h/p').netloc == 'h'\n"
    )
    _passes(code)


def _passes(code: str) -> None:
    """`code`'s asserts hold in a new interpreter (the stand-ins act only while nothing is loaded)."""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_semantic_recall_loads_numpy_for_the_model_and_still_no_parser(billing):
    """With the model, recall adds numpy (which brings typing, inspect, platform and urllib), never a parser."""
    from tether.recall import semantic

    if semantic.model_dir() is None:
        pytest.skip("the model wheel is not installed (make test installs it)")
    proc = billing.run(
        "recall", "how are the fees charged on a payment", "--json", env={"PYTHONPROFILEIMPORTTIME": "1"}
    )
    loaded = _loaded(proc)
    assert "numpy" in loaded and "tether.recall.semantic.minilm" in loaded
    parsers = set(HEAVY) - {"typing", "inspect", "platform", "urllib.parse", "ipaddress"}
    assert sorted(m for m in parsers if m in loaded) == []


def test_the_same_check_still_reads_an_edit_as_stale(billing):
    billing.replace("src/billing.py", "cents * 29 // 1000", "cents * 31 // 1000")
    proc = billing.run("check", "--json", env={"PYTHONPROFILEIMPORTTIME": "1"})
    items = {i["summary"]: i for i in orjson.loads(proc.stdout)["data"]}
    assert (
        items["Fees are 2.9% with a 30 cent floor."]["status"],
        items["Fees are 2.9% with a 30 cent floor."]["reason"],
    ) == (
        "stale",
        "body_edited",
    )
    assert items["Refunds go back through the gateway, never by hand."]["status"] == "active"
    assert "tree_sitter" in _loaded(proc)  # the changed file was parsed again: that is what found the edit
    # and the next check, the file unchanged since, answers from the index again
    time.sleep(2.2)
    again = billing.run("check", "--json", env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert [(i["status"], i["reason"]) for i in orjson.loads(again.stdout)["data"]] == [
        (i["status"], i["reason"]) for i in orjson.loads(proc.stdout)["data"]
    ]
    assert "tree_sitter" not in _loaded(again)
