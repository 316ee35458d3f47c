"""Recall: the memory search index (SQLite FTS5), ranking and the relevance floor, packing an
answer into a token budget, receipts, and the write-time overlap checks that use the same index.
"""
