"""Files: where tether's own files live (the root, cache, state and plugin dirs) and how files that
others control are read and written: regular files only, never blocking, never without a bound,
never replacing what is not tether's. Standard library only; the prompt hook imports it.
"""
