"""The anchor lifecycle: a stored anchor and the code index give a status, a reason, where the code
is now and what changed (resolve, rename, diff); binding a typed spec to code; hash formats;
the plain-data views every surface sends.
"""
