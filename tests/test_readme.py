"""The README is the newcomer's reference: it must stay true to the code it describes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from tether import errors
from tether.cli import build_parser

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
    assert len(tools) == 6
    missing = [t for t in tools if f"`{t}(" not in README]
    assert not missing, f"MCP tools missing from the README's tool table: {missing}"


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
