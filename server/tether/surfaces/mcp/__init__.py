"""The MCP server: the tools as module-level functions over the Tether in the lifespan context."""
