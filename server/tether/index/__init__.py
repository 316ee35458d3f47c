"""The code index: every file's symbols and normalized hashes in SQLite, refreshed only where a
file's stat changed; the repository's file list; the cache database; the background index.
"""
