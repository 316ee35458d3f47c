"""The README is the newcomer's reference: it must stay true to the code it describes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from tether import errors
from tether.lifecycle.status import Reason, Status
from tether.surfaces.cli.main import build_parser
from tether.surfaces.mcp.tools import TOOLS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _subcommands() -> list[str]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return sorted(sub.choices)


@pytest.mark.parametrize("command", _subcommands())
def test_every_cli_command_is_documented(command):
    assert re.search(rf"`tether {re.escape(command)}\b", README), f"`tether {command}` is not in the README"


def test_every_mcp_tool_is_documented():
    tools = [t["name"] for t in orjson.loads((ROOT / "hooks" / "mcp_tools.json").read_bytes())["tools"]]
    assert tools == [fn.__name__ for fn, _ in TOOLS]  # the snapshot the launcher serves is the server's list
    missing = [t for t in tools if f"`{t}(" not in README]
    assert not missing, f"MCP tools missing from the README's tool table: {missing}"


def _lifecycle_table() -> str:
    return README.split("| code change | memory becomes |", 1)[1].split("\n\n", 1)[0]


def test_every_lifecycle_reason_has_a_row_in_the_readme_table():
    table = _lifecycle_table()
    missing = [r.value for r in Reason if f"`{r.value}`" not in table]
    assert not missing, f"reasons with no row in the README's lifecycle table: {missing}"
    assert all(s.value in table for s in Status)


def test_the_readme_lifecycle_table_names_only_real_reasons():
    named = set(re.findall(r"`([a-z]+(?:_[a-z]+)+)`", _lifecycle_table()))
    assert named and named <= {r.value for r in Reason}, f"not a Reason: {sorted(named - {r.value for r in Reason})}"


def test_every_error_code_is_documented():
    codes = {c.code for c in vars(errors).values() if isinstance(c, type) and issubclass(c, errors.TetherError)}
    codes.discard("error")  # the abstract base
    missing = sorted(c for c in codes if f"`{c}`" not in README)
    assert not missing, f"error codes missing from the README: {missing}"


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
