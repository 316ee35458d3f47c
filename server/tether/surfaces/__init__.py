"""The surfaces: the CLI, the MCP server, the Claude Code hooks and the HTML report. Each translates
the library's errors once and adds nothing the library does not know.
"""
