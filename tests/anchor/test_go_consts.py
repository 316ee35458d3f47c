"""Go constants that repeat the expression above them (`iota` enums): their value is what they
repeat and where they stand, so that is what their anchor is checked against."""

from __future__ import annotations

import pytest

LEVELS = """\
package log

type Level int

const (
	Debug Level = iota
	Info
	Warn
	Error
)
"""


@pytest.mark.parametrize(
    "edit",
    [
        ("\tDebug Level = iota\n\tInfo\n", "\tDebug Level = iota\n\tTrace\n\tInfo\n"),  # Warn's iota shifts
        ("\tDebug Level = iota\n", "\tDebug Level = iota + 1\n"),  # what Warn repeats changes
        ("\tDebug Level = iota\n", "\tDebug Severity = iota\n"),  # its type changes
    ],
    ids=["iota-shifted", "repeated-expression-edited", "repeated-type-changed"],
)
def test_a_repeated_constant_goes_stale_when_its_value_changes_and_heals_on_revert(repo, edit):
    repo.write("log/level.go", LEVELS)
    repo.commit()
    mid = repo.remember(
        "Warn is persisted as its integer in audit rows: its value must never move.", "log/level.go::Warn"
    )
    repo.replace("log/level.go", *edit)
    assert (repo.check()[mid]["status"], repo.check()[mid]["reason"]) == ("stale", "body_edited")
    repo.write("log/level.go", LEVELS)
    assert repo.check()[mid]["status"] == "active"


def test_edits_that_leave_a_repeated_constant_value_alone_keep_it_fresh(repo):
    repo.write("log/level.go", LEVELS)
    repo.commit()
    warn = repo.remember(
        "Warn is persisted as its integer in audit rows: its value must never move.", "log/level.go::Warn"
    )
    # a constant added after it, a comment, the constant above renamed: its value is unchanged
    repo.write(
        "log/level.go",
        LEVELS.replace("\tError\n", "\tError\n\tFatal\n")
        .replace("\tWarn\n", "\t// Warn pages nobody.\n\tWarn\n")
        .replace("\tInfo\n", "\tNotice\n"),
    )
    assert repo.check()[warn]["status"] == "active"
    # renamed itself: too little code to follow by its hash alone, so the new name is offered
    repo.replace("log/level.go", "\tWarn\n", "\tWarning\n")
    item = repo.check()[warn]
    assert (item["status"], item["reason"], item["anchors"][0]["candidates"]) == (
        "stale",
        "low_entropy",
        ["log/level.go::Warning"],
    )
