"""When a file's stat says it is unchanged: the signature every cache of file contents (the code
index, the memory index, parsed memories, kept listings) compares, and how old a stamp must be to
trust it."""

from __future__ import annotations

import os

# How long after a file's last change its stat can be trusted to say "unchanged": two writes within
# one tick of the filesystem's clock can leave the same stat. A filesystem that stamps whole
# seconds (ext3, HFS+; FAT in 2 s steps) needs 2 s; one that stamps finer (ext4, xfs, btrfs, tmpfs,
# APFS, NTFS) ticks with the kernel's coarse clock, at most 10 ms, and 100 ms leaves a margin.
# Code files keep 2 s everywhere: a program writing through mmap changes a file with no new stamp
# while the page it writes stays dirty (ext4 stamps only a page's first write), and the longer
# window narrows that blind spot, which no stat-keyed cache (git's neither) closes.
RACY_NS = 2_000_000_000
FINE_RACY_NS = 100_000_000


def change_stamp(st: os.stat_result) -> int:
    """ctime and inode: unlike mtime, no tool can set them back, so a same-size rewrite that
    restores the mtime (rsync -t, touch -r) is still seen as a change."""
    return (st.st_ctime_ns * 1_000_003 + st.st_ino) & 0x7FFFFFFFFFFFFFFF


def trusted(st: os.stat_result, checked_ns: int) -> bool:
    """Whether a row written from this stat at `checked_ns` can be trusted without reading the
    file again: nothing can have changed it within the timestamp granularity since."""
    return max(st.st_mtime_ns, st.st_ctime_ns) < checked_ns - RACY_NS


def memory_file_trusted(st: os.stat_result, checked_ns: int) -> bool:
    """`trusted`, for a memory file (written whole, by tether, git or an editor): its window is the
    filesystem's own, told by its ctime. No tool sets a ctime (`touch -d` and rsync set mtimes), so
    a fraction of a second in it is the filesystem's stamp; a ctime on a whole second (a coarse
    filesystem, or one chance in 10^9) gets the coarse window. The recall right after a `git pull`
    then finds the pulled files settled."""
    window = FINE_RACY_NS if st.st_ctime_ns % 1_000_000_000 else RACY_NS
    return max(st.st_mtime_ns, st.st_ctime_ns) < checked_ns - window
