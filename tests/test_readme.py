"""The README is the newcomer's page and docs/ the reference: both must stay true to the code.

README.md: what tether is, the installs, the two commands, the lifecycle transcript, pointers.
docs/cli.md, mcp.md, format.md, ...: the reference the tests below hold against the code.
"""

from __future__ import annotations

import ast
import glob
import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from tether import errors
from tether.lifecycle.status import Reason, Status
from tether.store.files import QUARANTINE_FIXES
from tether.surfaces.cli.parser import build_parser
from tether.surfaces.mcp.server import INSTRUCTIONS
from tether.surfaces.mcp.tools import TOOLS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
CLI = (DOCS / "cli.md").read_text(encoding="utf-8")
MCP = (DOCS / "mcp.md").read_text(encoding="utf-8")
FORMAT = (DOCS / "format.md").read_text(encoding="utf-8")
BENCHMARKS = (DOCS / "benchmarks.md").read_text(encoding="utf-8")

README_MAX_LINES = 400
SHARED_OPTIONS = {"--help", "--root", "--json"}  # every command takes them: docs/cli.md says so once
# Every Markdown page a reader is sent to: their links and the paths they name must exist.
PAGES = ["README.md", "ARCHITECTURE.md", "tests/peers/DIFFERENCES.md"] + sorted(
    p.relative_to(ROOT).as_posix() for p in DOCS.glob("*.md")
)


def _subparsers():
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return sub.choices


def _section(text: str, heading: str) -> str:
    """The body of one `## heading` section, up to the next heading of its level or above."""
    body = text.split(f"\n{heading}\n", 1)[1]
    return re.split(r"\n#{1,%d} " % heading.count("#"), body, maxsplit=1)[0]


def _table(text: str, header: str) -> str:
    return text.split(header, 1)[1].split("\n\n", 1)[0]


# -- the README -------------------------------------------------------------------------------


def test_the_readme_is_a_newcomers_page():
    lines = README.count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; the reference belongs in docs/"


def test_the_readme_links_every_docs_page():
    missing = [p for p in PAGES if p.startswith("docs/") and f"]({p})" not in README]
    assert not missing, f"docs pages the README's 'Where to read more' does not link: {missing}"


def test_the_readme_names_the_package_and_command_pyproject_declares():
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    name = re.search(r'(?m)^name = "([^"]+)"', project).group(1)
    script = re.search(r"(?ms)^\[project\.scripts\]\n(\S+) = ", project).group(1)
    install = _section(README, "## Install the CLI alone (for CI)")
    assert f"`{name}`" in install and f"`{script}`" in install


def _normalized(text: str) -> list[str]:
    text = re.sub(r"\b[0-9a-f]{8}\b", "<id>", text)
    return [line.rstrip() for line in text.strip().splitlines()]


def test_the_lifecycle_transcript_is_what_make_demo_prints():
    """The README says its transcript is `make demo`, unedited: ids aside, it must be."""
    section = README.split("## The anchor lifecycle, real output", 1)[1]
    transcript = re.search(r"```console\n(.*?)```", section, re.S).group(1)
    out = subprocess.run([sys.executable, "-m", "tether", "demo"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert _normalized(transcript) == _normalized(out.stdout)


# -- docs/cli.md --------------------------------------------------------------------------------


@pytest.mark.parametrize("command", sorted(_subparsers()))
def test_every_cli_command_is_documented_with_its_options(command):
    assert re.search(rf"`tether {re.escape(command)}\b", CLI), f"`tether {command}` is not in docs/cli.md"
    # the first cell of each command-table row that names the command: its synopsis
    synopses = " ".join(
        line.split(" | ", 1)[0]
        for line in CLI.splitlines()
        if line.startswith("| `tether ") and f"`tether {command}" in line
    )
    parser = _subparsers()[command]
    options = {o for a in parser._actions for o in a.option_strings if o.startswith("--")} - SHARED_OPTIONS
    missing = sorted(o for o in options if not re.search(rf"{re.escape(o)}\b", synopses))
    assert not missing, f"`tether {command}` options missing from its row in docs/cli.md: {missing}"


def test_every_error_code_is_documented():
    codes = {c.code for c in vars(errors).values() if isinstance(c, type) and issubclass(c, errors.TetherError)}
    codes.discard("error")  # the abstract base
    codes |= set(errors._OS_CODES.values())  # what the operating system refused, by errno
    table = _section(CLI, "## Error codes")
    missing = sorted(c for c in codes if f"`{c}`" not in table)
    assert not missing, f"error codes missing from docs/cli.md's error table: {missing}"


# -- docs/mcp.md --------------------------------------------------------------------------------


def _snapshot_tools() -> list[dict]:
    return orjson.loads((ROOT / "hooks" / "mcp_tools.json").read_bytes())["tools"]


def test_every_mcp_tool_is_documented():
    tools = [t["name"] for t in _snapshot_tools()]
    assert tools == [fn.__name__ for fn, _ in TOOLS]  # the snapshot the launcher serves is the server's list
    missing = [t for t in tools if f"`{t}(" not in MCP]
    assert not missing, f"MCP tools missing from docs/mcp.md's tool table: {missing}"


@pytest.mark.parametrize("tool", _snapshot_tools(), ids=lambda t: t["name"])
def test_each_mcp_tool_is_documented_with_the_servers_arguments(tool):
    """`name(a, b?, c=default)`: the arguments in the server's order; `?` or `=` exactly where optional."""
    written = re.search(rf"`{tool['name']}\(([^)`]*)\)`", MCP).group(1)
    args = [a.strip() for a in written.split(",") if a.strip()]
    schema = tool["inputSchema"]
    required = set(schema.get("required", []))
    assert [re.split(r"[?=]", a)[0] for a in args] == list(schema["properties"])
    for arg in args:
        name = re.split(r"[?=]", arg)[0]
        assert (name in required) == (arg == name), f"{tool['name']}: `{arg}` (required: {name in required})"
        if "=" in arg:
            assert arg.split("=", 1)[1] == str(schema["properties"][name].get("default")), arg


def test_the_mcp_instructions_are_the_servers():
    written = re.search(r"## The instructions\n.*?```text\n(.*?)```", MCP, re.S).group(1)
    assert written.split() == INSTRUCTIONS.split()


# -- docs/format.md -----------------------------------------------------------------------------


def _lifecycle_table() -> str:
    return _table(FORMAT, "| code change | memory becomes |")


def test_every_lifecycle_reason_has_a_row_in_the_lifecycle_table():
    table = _lifecycle_table()
    missing = [r.value for r in Reason if f"`{r.value}`" not in table]
    assert not missing, f"reasons with no row in docs/format.md's lifecycle table: {missing}"
    assert all(s.value in table for s in Status)


def test_the_lifecycle_table_names_only_real_reasons():
    named = set(re.findall(r"`([a-z]+(?:_[a-z]+)+)`", _lifecycle_table()))
    assert named and named <= {r.value for r in Reason}, f"not a Reason: {sorted(named - {r.value for r in Reason})}"


def test_every_quarantine_reason_has_a_row_with_its_fix():
    rows = {
        m.group(1): line
        for line in _table(FORMAT, "| reason | what it is | what fixes it |").splitlines()
        if (m := re.match(r"\| `([a-z_]+)` \|", line))
    }
    assert set(rows) == set(QUARANTINE_FIXES), "docs/format.md's quarantine table must name exactly the reasons"
    for reason, fix in QUARANTINE_FIXES.items():
        assert rows[reason].rstrip(" |").endswith(fix), f"{reason}: the fix is not the one `tether doctor` prints"


# -- docs/benchmarks.md -------------------------------------------------------------------------


def test_every_benchmark_make_bench_runs_has_a_row():
    tree = ast.parse((ROOT / "tests" / "bench" / "__main__.py").read_text(encoding="utf-8"))
    (names,) = [
        ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "BENCHMARKS"
    ]
    table = _table(BENCHMARKS, "| `make bench` module | measures |")
    missing = [n for n in names if f"| `{n}` |" not in table]
    assert not missing, f"benchmarks with no row in docs/benchmarks.md: {missing}"


# -- every page -------------------------------------------------------------------------------

_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _slugs(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"(?m)^#{1,6} (.+)$", _without_fences(markdown))
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def _without_fences(markdown: str) -> str:
    return re.sub(r"(?ms)^(`{3,}).*?^\1\s*$", "", markdown)


@pytest.mark.parametrize("page", PAGES)
def test_every_relative_link_points_at_a_file_in_the_repository(page):
    source = ROOT / page
    text = _without_fences(source.read_text(encoding="utf-8"))
    broken = []
    for target in _LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        dest = (source.parent / path).resolve() if path else source
        if not (dest == ROOT or ROOT in dest.parents) or not dest.exists():
            broken.append(target)
        elif fragment and dest.suffix == ".md" and fragment not in _slugs(dest.read_text(encoding="utf-8")):
            broken.append(target)
    assert not broken, f"{page}: links to nothing in the repository: {broken}"


# A path under one of the repository's own folders, as prose names it (anchor specs such as
# `docs/ops.md#Deploy` are examples of a user's repository, and so is everything in a code block).
_OWN_PATH = re.compile(
    r"(?<![\w/.-])((?:tests|server|hooks|docs|commands|\.ci|\.claude-plugin)/[\w./*-]*)(?![\w./#:-])"
)


@pytest.mark.parametrize("page", PAGES)
def test_every_path_a_page_names_is_in_the_repository(page):
    generated = set((ROOT / ".gitignore").read_text(encoding="utf-8").split())  # what the tests and bench make
    text = _without_fences((ROOT / page).read_text(encoding="utf-8"))
    named = {m.rstrip(".") for m in _OWN_PATH.findall(text)}
    missing = sorted(p for p in named if p not in generated and not glob.glob(str(ROOT / p)))
    assert not missing, f"{page} names files the repository does not contain: {missing}"


def _tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / p for p in out.decode().split("\0") if p]


def test_the_repository_stands_alone():
    """No file points at design notes or a shared folder outside the repository."""
    outside = ["DESIGN" + ".md", "CLAUDE_CODE" + ".md", ".." + "/shared"]  # spelled apart: this file is tracked too
    found = []
    for path in _tracked():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        found += [f"{path.relative_to(ROOT)}: {needle}" for needle in outside if needle in text]
    assert not found, found


def test_no_install_command_fetches_the_other_projects_package():
    """`tether-memory` on PyPI is another project: what a reader copies must install this one."""
    copied = [_fenced((ROOT / p).read_text(encoding="utf-8")) for p in PAGES]
    for yml in [*DOCS.glob("*.yml"), ROOT / ".pre-commit-hooks.yaml"]:
        copied.append(re.sub(r"(?m)#.*$", "", yml.read_text(encoding="utf-8")))
    bad = [line for text in copied for line in text.splitlines() if re.search(r"install\s+['\"]?tether-memory\b", line)]
    assert not bad, bad


def _fenced(markdown: str) -> str:
    return "\n".join(m.group(2) for m in re.finditer(r"(?ms)^(`{3,}).*?\n(.*?)^\1\s*$", markdown))
