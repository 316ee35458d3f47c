"""quick.py reads the plainest forms of `check`, `ls` and `recall` without argparse: its namespace must be the
one argparse gives, and everything else must be left to argparse (which words the errors)."""

from __future__ import annotations

import itertools

import pytest

from tether.surfaces.cli import quick
from tether.surfaces.cli.parser import FAMILIES, build_parser


def _forms(command: str) -> list[list[str]]:
    flags = list(quick.QUICK[command][3])
    # a command's positional argument, wherever it may stand after the command; odd values included
    tasks = [[]] if quick.QUICK[command][4] is None else [["why x"], ["recall"], [""], ["a --json b"], ["check"]]
    forms = []
    for n in range(len(flags) + 1):
        for chosen in itertools.permutations(flags, n):
            for before, after in (
                ([], []),
                (["--json"], []),
                ([], ["--json"]),
                (["--root", "/a"], ["--json"]),
                (["--json", "--root", "/a"], ["--root", "/b", "--json"]),
                ([], ["--root", "/b"]),
                (["--root", "check"], []),
            ):
                for task in tasks:
                    forms.append([*before, command, *task, *chosen, *after])
                    forms.append([*before, command, *chosen, *after, *task])
    return [*forms, [command, *tasks[0], *flags, *flags]]


@pytest.mark.parametrize("command", sorted(quick.QUICK))
def test_quick_reads_as_argparse_does(command):
    assert quick.QUICK[command][0] == FAMILIES[command]
    for argv in _forms(command):
        got = quick.parse(argv, quick.command_of(argv))
        assert got is not None, argv
        assert vars(got) == vars(build_parser([command]).parse_args(argv)), argv


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--js"],
        ["check", "-h"],
        ["check", "--help"],
        ["check", "abcd"],
        ["check", "--json", "abcd"],
        ["check", "--root"],
        ["check", "--root", "--json"],
        ["check", "--root=/a"],
        ["--strict", "check"],
        ["check", "--format", "github"],
        ["check", "--path", "src"],
        ["check", "--"],
        ["check", "--all"],
        ["ls", "--strict"],
        ["ls", "--kind", "fact"],
        ["ls", "ls"],
        ["--version", "check"],
        ["recall"],
        ["recall", "--json"],
        ["recall", "a", "b"],
        ["recall", "-x"],
        ["recall", "--", "x"],
        ["recall", "x", "--file", "a.py"],
        ["recall", "--budget", "50", "x"],
        ["recall", "x", "--limit=2"],
        ["recall", "x", "-k", "fact"],
        ["recall", "x", "--as-of", "2025-01-01"],
        ["recall", "x", "--jso"],
        ["x", "recall"],
        ["status"],
        [],
    ],
)
def test_anything_else_is_left_to_argparse(argv):
    assert quick.parse(argv, quick.command_of(argv)) is None
