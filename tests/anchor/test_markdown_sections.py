"""Markdown sections and table rows, through the real CLI."""

from __future__ import annotations

import pytest

# -- Markdown sections and table rows ----------------------------------------------------------
GUIDE = """---
title: Guide
# front matter is not a heading
---
# Guide

Intro for new contributors.

## Setup

Install the toolchain first.

### Linux

Run `apt install build-essential libssl-dev pkg-config` and then
`make setup` to fetch the vendored dependencies into third_party.

```sh
# a comment in a code block is not a heading
make setup
```

### macOS

Run `brew install openssl pkg-config` then `make setup`.

## Limits

| Setting | Default | Why |
|---|---|---|
| `timeout_s` | 30 | Upstream gateway cuts at 35 s |
| retries | 3 | Idempotent calls only |
"""


@pytest.fixture
def guide(repo):
    repo.write("docs/guide.md", GUIDE)
    repo.commit()
    return repo


def test_section_edit_is_stale_with_a_diff_and_siblings_do_not_touch_it(guide):
    mid = guide.remember("Linux builds need the OpenSSL headers.", "docs/guide.md#Linux")
    assert guide.check()[mid]["anchors"][0]["symbol"] == "Guide/Setup/Linux"
    guide.replace("docs/guide.md", "Run `brew install", "Run `brew install --quiet")
    guide.replace("docs/guide.md", "| 3 |", "| 5 |")
    guide.replace("docs/guide.md", "Intro for new", "Intro for all new")
    assert guide.check()[mid]["status"] == "active"
    guide.replace("docs/guide.md", "libssl-dev", "libssl3-dev")
    item = guide.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], a["reason"]) == ("stale", "body_edited")
    assert any(ln.startswith("+") and "libssl3-dev" in ln for ln in a["diff"].splitlines())


def test_parent_section_covers_its_subsections(guide):
    mid = guide.remember("Setup is two commands on every platform.", "docs/guide.md#Setup")
    guide.replace("docs/guide.md", "| 30 |", "| 45 |")  # another section
    assert guide.check()[mid]["status"] == "active"
    guide.replace("docs/guide.md", "then `make setup`.", "then `make bootstrap`.")  # a subsection
    item = guide.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert "make bootstrap" in item["anchors"][0]["diff"]


def test_reflow_heading_style_comments_and_table_alignment_stay_active(guide):
    sec = guide.remember("Linux builds need the OpenSSL headers.", "docs/guide.md#Setup/Linux")
    row = guide.remember("The 30 s timeout sits under the gateway's 35 s.", "docs/guide.md#Limits/timeout_s")
    whole = guide.remember("Limits are tuned for the gateway.", "docs/guide.md#Limits")
    text = GUIDE.replace("and then\n`make setup`", "and then `make setup`")  # reflowed
    text = text.replace("## Limits\n", "Limits\n------\n<!-- reviewed 2024 -->\n")  # setext, comment
    text = text.replace(
        "| `timeout_s` | 30 | Upstream gateway cuts at 35 s |", "|`timeout_s`|30|Upstream gateway cuts at 35 s|"
    )
    text = text.replace("|---|---|---|", "| :--- | --- | --- |".replace(":", ""))
    guide.write("docs/guide.md", text)
    got = guide.check()
    assert [got[m]["status"] for m in (sec, row, whole)] == ["active", "active", "active"]


def test_renamed_heading_is_followed_when_the_content_is_unique(guide):
    mid = guide.remember("Linux builds need the OpenSSL headers.", "docs/guide.md#Setup/Linux")
    guide.replace("docs/guide.md", "### Linux", "### Debian and Ubuntu")
    item = guide.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], a["symbol"], a["was"]) == (
        "active",
        "Guide/Setup/Debian and Ubuntu",
        "docs/guide.md#Guide/Setup/Linux",
    )


def test_table_row_goes_stale_with_its_row_only(guide):
    mid = guide.remember("The 30 s timeout sits under the gateway's 35 s.", "docs/guide.md#Limits/timeout_s")
    assert guide.check()[mid]["anchors"][0]["symbol"] == "Guide/Limits/timeout_s"
    guide.replace("docs/guide.md", "| retries | 3 |", "| retries | 4 |")
    guide.replace("docs/guide.md", "Install the toolchain", "Install the whole toolchain")
    assert guide.check()[mid]["status"] == "active"
    guide.replace("docs/guide.md", "| 30 |", "| 40 |")
    item = guide.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], a["reason"]) == ("stale", "body_edited")
    assert any(ln.startswith("+") and "40" in ln for ln in a["diff"].splitlines())


def test_section_spec_forms_users_type(repo):
    repo.write(
        "README.md",
        "# Tool\n\n## Installing on Linux\n\nUse the package.\n\n"
        "## Input/Output\n\nStreams.\n\n## `tether check` output\n\nJSON lines.\n",
    )
    repo.commit()
    for spec, symbol in [
        ("README.md#Tool/Installing on Linux", "Tool/Installing on Linux"),
        ("README.md#installing on linux", "Tool/Installing on Linux"),
        ("README.md#installing-on-linux", "Tool/Installing on Linux"),  # copied from a GitHub link
        ("README.md#Input/Output", "Tool/Input\\/Output"),
        ("README.md#Input\\/Output", "Tool/Input\\/Output"),
        ("README.md#tether check output", "Tool/tether check output"),
    ]:
        data = repo.json("remember", f"note on {spec}", "--anchor", spec, "--force")["data"]
        assert data["anchors"][0]["symbol"] == symbol, spec


def test_headings_in_code_and_front_matter_are_not_sections(guide):
    for spec in (
        "docs/guide.md#a comment in a code block is not a heading",
        "docs/guide.md#front matter is not a heading",
        "docs/guide.md#Nope",
    ):
        err = guide.error("remember", "x", "--anchor", spec)
        assert (err["code"], err["reason"]) == ("anchor_unresolved", "section_missing"), spec
