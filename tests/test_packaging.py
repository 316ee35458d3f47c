"""What a non-editable install (pip install ., pipx, uv tool install) carries: every data file the code reads."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the package data is the same on 3.10

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "server" / "tether"


def test_every_data_file_of_the_package_is_in_its_package_data():
    """A reader found `tether report` failing after `pip install .`: its template was not shipped."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["tether"]
    data = [
        p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert data, "the package has data files (queries, the report template)"
    missing = [f for f in data if not any(fnmatch.fnmatchcase(f, g) for g in globs)]
    assert not missing, f"not shipped by a non-editable install: {missing}"
