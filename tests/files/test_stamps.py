"""The racy window every cache of file contents applies: how long after a file's last change its
stat can say "unchanged" (files/stamps.py). Memory files get their filesystem's own window; code
files keep 2 s everywhere (a write through mmap can change a file without a new stamp)."""

from __future__ import annotations

import os
import types

import pytest

from tether.files.stamps import FINE_RACY_NS, RACY_NS, memory_file_trusted, trusted

MS = 1_000_000


def _stat(mtime_ns: int, ctime_ns: int) -> os.stat_result:
    return types.SimpleNamespace(st_mtime_ns=mtime_ns, st_ctime_ns=ctime_ns)  # type: ignore[return-value]


@pytest.fixture
def written(tmp_path):
    path = tmp_path / "a.md"
    path.write_text("one")
    st = os.stat(path)
    if st.st_ctime_ns % 1_000_000_000 == 0:
        pytest.skip("this filesystem stamps whole seconds")
    return path, st


def test_a_fine_filesystem_trusts_a_memory_file_once_its_window_has_passed(written):
    _, st = written
    assert not memory_file_trusted(st, st.st_ctime_ns + 10 * MS)  # another write in the same tick would not show
    assert not memory_file_trusted(st, st.st_ctime_ns + FINE_RACY_NS)
    assert memory_file_trusted(st, st.st_ctime_ns + FINE_RACY_NS + MS)
    assert FINE_RACY_NS <= 100 * MS < RACY_NS


def test_a_code_file_keeps_the_two_second_window_on_any_filesystem(written):
    _, st = written
    assert not trusted(st, st.st_ctime_ns + FINE_RACY_NS + MS)
    assert not trusted(st, st.st_ctime_ns + RACY_NS)
    assert trusted(st, st.st_ctime_ns + RACY_NS + MS)


def test_a_whole_second_mtime_set_by_a_tool_keeps_the_fine_window(written):
    """`touch -d`, tar and rsync set whole-second mtimes; the ctime the kernel wrote still says
    how finely this filesystem stamps."""
    path, _ = written
    os.utime(path, ns=(1_600_000_000 * 10**9, 1_600_000_000 * 10**9))
    st = os.stat(path)
    assert st.st_mtime_ns % 10**9 == 0
    assert memory_file_trusted(st, st.st_ctime_ns + FINE_RACY_NS + MS)
    assert not memory_file_trusted(st, st.st_ctime_ns + 50 * MS)


def test_a_coarse_filesystem_is_trusted_only_after_two_seconds():
    second = 1_700_000_000 * 10**9  # ext3, HFS+ and FAT stamp whole seconds (FAT in 2 s steps)
    st = _stat(second, second)
    for check in (trusted, memory_file_trusted):
        assert not check(st, second + 500 * MS)
        assert not check(st, second + RACY_NS)
        assert check(st, second + RACY_NS + MS)
    assert RACY_NS >= 2_000 * MS


def test_the_later_of_mtime_and_ctime_counts():
    old, now = 1_600_000_000_123_000_000, 1_700_000_000_456_000_000
    assert not memory_file_trusted(_stat(old, now), now + 50 * MS)  # a chmod or a rename just now: not yet
    assert not memory_file_trusted(_stat(now, old), now + 50 * MS)  # an mtime ahead of the ctime (a clock set back)
    assert memory_file_trusted(_stat(old, now), now + FINE_RACY_NS + MS)
    assert not trusted(_stat(old, now), now + FINE_RACY_NS + MS)
