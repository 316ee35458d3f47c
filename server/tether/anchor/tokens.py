"""The marker bytes of a normalized token stream (normalize.py), shared with the literal reader."""

OPEN = b"\x01"
CLOSE = b"\x02"
HOLE = b"\x03"  # stands in for the symbol's own name (and Go receiver), so renames keep the hash
IMPLIED = b"\x04"  # starts a token a definition takes from outside its own node (anchor/implied.py)
SEP = b"\x1f"
