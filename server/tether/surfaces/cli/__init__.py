"""The `tether` command: one module per command family, each with its arguments and handler."""
