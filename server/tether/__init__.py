"""tether: memory for AI coding agents that goes stale when the code does."""

__version__ = "0.1.0"
