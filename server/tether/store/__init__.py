"""The store: memory files under `.tether/memories/`, the source of truth. Their format, the
atomic writes and the lock, quarantine, the checks a memory passes before it is written (fields,
secrets), the supersession graph, and import/export.
"""
