"""End-to-end tests: tether inside the real Claude Code, against a scripted model (`make e2e`)."""
