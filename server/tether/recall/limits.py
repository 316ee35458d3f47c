"""A recall's default budget and length: in a module of their own, so a signature can name them
without loading the answer's packing (recall/answer.py)."""

DEFAULT_BUDGET = 1200  # tokens
DEFAULT_LIMIT = 5  # active memories
