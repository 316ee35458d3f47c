"""Usage: the per-machine log of recalls, pushes and credits, its folded ledger, and `tether stats`."""
