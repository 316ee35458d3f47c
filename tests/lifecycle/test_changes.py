"""What git says a change touched, parsed from real `git diff` output: names anyone can commit."""

from __future__ import annotations

from tether.lifecycle.changes import WHOLE, changes, overlaps


def test_quoted_names_renames_and_header_lookalike_lines(repo):
    odd = 'src/ré "q"\tx.py'
    repo.write(odd, "a = 1\n-- a/fake\nb = 2\n")
    repo.write("src/old.py", "".join(f"line{i} = {i}\n" for i in range(40)))
    repo.write("src/gone.py", "x = 1\n")
    repo.commit("base")
    repo.write(odd, "a = 1\nb = 3\n")  # removes a line that reads `--- a/fake` in the patch
    repo.git("mv", "src/old.py", "src/new.py")
    repo.replace("src/new.py", "line20 = 20", "line20 = 21")
    (repo.path / "src/gone.py").unlink()
    repo.write("src/untracked.py", "y = 2\n")
    found = {(f.old, f.new): f for f in changes(repo.path).files}
    assert set(found) == {
        (odd, odd),
        ("src/old.py", "src/new.py"),
        ("src/gone.py", None),
        (None, "src/untracked.py"),
    }
    assert found[(odd, odd)].old_lines == ((2, 3),) and found[(odd, odd)].new_lines == ((2, 2),)
    assert found[("src/old.py", "src/new.py")].new_lines == ((21, 21),)
    assert found[("src/gone.py", None)].old_lines == WHOLE
    assert found[(None, "src/untracked.py")].new_lines == WHOLE


def test_overlaps():
    assert overlaps(3, 5, ((5, 9),)) and not overlaps(3, 4, ((5, 9),))
    assert overlaps(None, None, ((1, 1),)) and not overlaps(None, None, ())
