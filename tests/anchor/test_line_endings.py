"""Windows line endings: a checkout's CRLF or LF is no edit, and anchors in CRLF files read the
right bytes."""

from __future__ import annotations

WARN = '''\
def warn(path, seen):
    print(f"""mismatch for {path}:
one api per path, and {len(seen)} already registered""")
    return False


def register(path, api, seen):
    if path in seen:
        return warn(path, seen)
    seen[path] = api
    return True
'''


def _crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode()


def test_line_endings_alone_never_stale_a_memory_even_in_a_multi_line_string(repo):
    repo.write("app/routes.py", _crlf(WARN))
    repo.write("app/old.py", "def gone(a):\n    return a * 2 + 1\n")
    repo.commit()
    mid = repo.remember("The warning text is matched by the ops dashboard; keep it verbatim.", "app/routes.py::warn")
    repo.remember("Doubling is legacy.", "app/old.py::gone")
    # LF now (an editor, or `core.autocrlf`), and a deleted neighbour makes the check sweep the repository
    repo.write("app/routes.py", WARN)
    repo.write("app/old.py", "other = 1\n")
    assert repo.check()[mid]["status"] == "active"
    repo.write("app/routes.py", _crlf(WARN))
    assert repo.check()[mid]["status"] == "active"


def test_an_edit_in_a_crlf_file_is_stale_with_the_anchored_lines_read_whole(repo):
    repo.write("app/routes.py", _crlf(WARN))
    repo.commit()
    mid = repo.remember("Registering twice is refused, not overwritten.", "app/routes.py::register")
    repo.write("app/routes.py", _crlf(WARN.replace("    seen[path] = api\n", "    seen[path] = api.strip()\n")))
    item = repo.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], item["reason"], a["lines"]) == ("stale", "body_edited", [7, 11])
    assert "+    seen[path] = api.strip()" in a["diff"]
    # the last line is read to its end: offsets in a CRLF file count the CRs
    assert a["diff"].endswith("\n     return True") and "\r" not in a["diff"]
