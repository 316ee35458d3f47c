"""When a file's stat says it is unchanged: the signature every cache of file contents (the code
index, the memory index, parsed memories) compares, and how old a stamp must be to trust it."""

from __future__ import annotations

import os

RACY_NS = 2_000_000_000  # coarse filesystems stamp mtimes in up to 2 s steps: trust a stamp once older


def change_stamp(st: os.stat_result) -> int:
    """ctime and inode: unlike mtime, no tool can set them back, so a same-size rewrite that
    restores the mtime (rsync -t, touch -r) is still seen as a change."""
    return (st.st_ctime_ns * 1_000_003 + st.st_ino) & 0x7FFFFFFFFFFFFFFF


def trusted(st: os.stat_result, checked_ns: int) -> bool:
    """Whether a row written from this stat at `checked_ns` can be trusted without reading the
    file again: nothing can have changed it within the timestamp granularity since."""
    return max(st.st_mtime_ns, st.st_ctime_ns) < checked_ns - RACY_NS
