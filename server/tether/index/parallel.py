"""Parsing many changed files for a sweep: in this process, or on a pool of worker processes.

A pool pays off only for many files; its chunks come back in completion order and are written as
they come, and a deadline stops it with what is back kept (worker.py reads and analyzes each file).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from tether.index.worker import analyze_batch, analyze_chunk, by_size_and_extension, past

PARALLEL_THRESHOLD = 64  # below this many changed files a process pool costs more than it saves
SERIAL_BATCH = 500  # files per write transaction when parsing in this process
# files per worker task at most: a sweep cut short keeps the tasks already back, so in a large
# repository each hook's share of a first index is kept for the next one
MAX_CHUNK_FILES = 64


def analyze_many(
    root: Path, rels: list[str], workers: int | None, sizes: dict[str, int], deadline: float | None = None
) -> Iterator[list[tuple]]:
    """Batches of `analyze_batch` rows, in completion order; none after the deadline."""
    workers = workers or os.cpu_count() or 1
    groups = by_size_and_extension(rels, sizes)
    if len(rels) < PARALLEL_THRESHOLD or workers < 2:
        batch: list[tuple] = []
        for group in groups:
            if past(deadline):
                break
            batch += analyze_batch(str(root), [group])
            if len(batch) >= SERIAL_BATCH:
                yield batch
                batch = []
        if batch:
            yield batch
        return
    if past(deadline):
        return
    # Groups dealt round-robin, so each chunk gets a similar mix of big and small files; small
    # enough chunks that the last one to finish leaves little of the machine idle. A group too
    # big for one chunk's share (thousands of same-size generated files) is dealt in pieces.
    n = max(workers * 8, -(-len(rels) // MAX_CHUNK_FILES))
    share = max(PARALLEL_THRESHOLD, len(rels) // n)
    pieces = [g[i : i + share] for g in groups for i in range(0, len(g), share)]
    chunks: list[list[list[str]]] = [[] for _ in range(n)]
    for i, piece in enumerate(pieces):
        chunks[i % n].append(piece)
    chunks = [c for c in chunks if c]
    # imported here: multiprocessing costs ~20 ms to import, and the prompt hook never sweeps
    import multiprocessing

    # asked without fixing it (an embedding application may still choose); the first listed is the default
    method = multiprocessing.get_start_method(allow_none=True) or multiprocessing.get_all_start_methods()[0]
    threads = sys.modules.get("threading")  # not imported: no thread was started through it
    if method == "fork" and threads is not None and threads.active_count() > 1:
        # forking a process with threads (the MCP server's transport) can copy a lock held by
        # another thread into the child, which then waits on it forever: start clean children
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    if method == "fork":
        from tether.anchor.extract import warm

        warm(rels)  # once here, not once per worker: forked workers inherit compiled queries
    # multiprocessing's Pool, not concurrent.futures: a sweep cut short (the deadline, a hook's
    # alarm, an error writing) must stop its workers now, and only Pool can terminate them
    pool = multiprocessing.get_context(method).Pool(min(workers, len(chunks)))
    try:
        results = pool.imap_unordered(analyze_chunk, [(str(root), c) for c in chunks])
        for _ in chunks:
            try:
                yield results.next(None if deadline is None else max(0.0, deadline - time.monotonic()))
            except multiprocessing.TimeoutError:
                return
    finally:
        pool.terminate()  # every chunk is back on the normal path: only idle workers are stopped
        pool.join()
