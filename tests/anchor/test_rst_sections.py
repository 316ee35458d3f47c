"""reStructuredText sections, through the real CLI, as Markdown's: named by title path, stale on
an edit of what they say, active through reflow and a change of adornment style."""

from __future__ import annotations

CONFIG = """=============
Configuration
=============

Flask reads its configuration from the application object.

Configuration Basics
--------------------

The config is a subclass of a dictionary and can be modified just like any
dictionary, through ``app.config``.

Builtin Values
~~~~~~~~~~~~~~

``DEBUG`` defaults to False; do not enable it in production.

.. code-block:: text

   Not a Title
   ===========

Instance Folders
----------------

Paths are relative to the instance folder.
"""


def test_a_section_is_anchored_by_title_and_goes_stale_on_an_edit(repo):
    repo.write("docs/config.rst", CONFIG)
    repo.commit()
    mid = repo.remember("The config is a dict subclass.", "docs/config.rst#Configuration Basics")
    item = repo.check()[mid]
    assert item["anchors"][0]["symbol"] == "Configuration/Configuration Basics"
    assert item["anchors"][0]["lines"] == [7, 22]  # the subsection is inside, the sibling is not
    repo.replace("docs/config.rst", "relative to the instance", "relative to the configured instance")
    assert repo.check()[mid]["status"] == "active"
    repo.replace("docs/config.rst", "defaults to False", "defaults to True")  # in its subsection
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert "+``DEBUG`` defaults to True; do not enable it in production." in item["anchors"][0]["diff"]


def test_reflow_and_another_adornment_style_stay_active(repo):
    repo.write("docs/config.rst", CONFIG)
    repo.commit()
    mid = repo.remember("Builtin values: DEBUG is off.", "docs/config.rst#Configuration Basics/Builtin Values")
    text = CONFIG.replace("just like any\ndictionary", "just like any dictionary")
    text = text.replace("Builtin Values\n~~~~~~~~~~~~~~", "Builtin Values\n^^^^^^^^^^^^^^^^^^^^")  # longer is fine
    repo.write("docs/config.rst", text)
    assert repo.check()[mid]["status"] == "active"


def test_text_that_only_looks_like_titles_names_none(repo):
    repo.write("docs/config.rst", CONFIG)
    repo.commit()
    err = repo.error("remember", "not a title", "--anchor", "docs/config.rst#Not a Title")
    assert err["code"] == "anchor_unresolved" and "Configuration/Instance Folders" in err["near"]


def test_a_hostile_file_is_read_in_linear_time(repo):
    """Untrusted text: adornments and titles by the hundred thousand, every one a candidate."""
    lines = []
    for i in range(40_000):
        lines += ["", f"t{i}", "=" * (i % 7 + 2), "-" * 3]
    repo.write("docs/big.rst", "\n".join(lines))
    repo.run("index")
    assert repo.error("remember", "x", "--anchor", "docs/big.rst#nothing")["code"] == "anchor_unresolved"
    mid = repo.remember("a late title", "docs/big.rst#t39995")  # underlined by 6: its length
    assert repo.check()[mid]["anchors"][0]["symbol"] == "t39995"
