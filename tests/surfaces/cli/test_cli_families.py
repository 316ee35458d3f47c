"""Each CLI command lives with its arguments in one family module; the parser loads only that one."""

from __future__ import annotations

import subprocess
import sys

from tether.surfaces.cli.parser import FAMILIES, registered


def test_families_map_each_command_to_the_module_that_registers_it():
    by_family: dict[str, list[str]] = {}
    for command, family in FAMILIES.items():
        by_family.setdefault(family, []).append(command)
    assert {family: sorted(registered(family)) for family in by_family} == {f: sorted(c) for f, c in by_family.items()}


def test_a_check_loads_neither_the_mcp_server_nor_the_other_families(repo):
    code = (
        "import sys; from tether.surfaces.cli.main import main\n"
        "try:\n    main(['--root', sys.argv[1], 'check', '--json'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('mcp', 'tether.surfaces.'))))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(repo.path)], capture_output=True, text=True, check=True)
    loaded = eval(out.stdout.strip().splitlines()[-1])  # noqa: S307 - our own print of a list of names
    assert not [m for m in loaded if m == "mcp" or m.startswith("mcp.")]
    families = {m.rsplit(".", 1)[1] for m in loaded if m.startswith("tether.surfaces.cli.")} & set(FAMILIES.values())
    assert families == {"reading"}
