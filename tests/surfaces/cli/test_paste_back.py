"""Every locator `ls`, `check` and `recall` print, with its line, pastes back into `--anchor`."""

from __future__ import annotations

import json

CODE = "def refund(amount):\n    return -abs(amount) + len(str(amount)) * 0\n"
RST = "Guide\n=====\n\nIntro.\n\nSetup\n-----\n\nRun the installer, then restart the daemon twice.\n"
YAML = "db:\n  pool: 10\n  host: db.internal\n"


def test_printed_locators_with_their_line_paste_back_into_remember_and_reanchor(repo):
    repo.write("billing.py", "\n" * 5 + CODE)
    repo.write("guide.rst", RST)
    repo.write("c.yaml", YAML)
    repo.commit("code")
    for spec in ("billing.py::refund", "guide.rst#Guide/Setup", "c.yaml#db.pool"):
        repo.remember(f"A fact about {spec} that matters for refunds.", spec)
    printed = [ln.strip() for ln in repo.run("ls").stdout.splitlines() if ln.startswith(" ")]
    printed += [ln.strip() for ln in repo.run("check").stdout.splitlines() if ln.startswith("    ")]
    printed += [ln.strip() for ln in repo.run("recall", "installer daemon").stdout.splitlines() if ln.startswith(" ")]
    assert {"billing.py::refund:6", "guide.rst#Guide/Setup:6", "c.yaml#db.pool:2"} <= set(printed), printed
    for spec in sorted(set(printed)):
        mid = repo.remember(f"Pasted back from the listing: {spec} keeps its meaning.", spec)
        (anchor,) = repo.json("show", mid)["data"]["anchors"]
        assert (
            anchor["path"] + {"symbol": "::", "section": "#", "key": "#"}[anchor["type"]] + anchor["symbol"]
            == (spec.rsplit(":", 1)[0])
        )
        proc = repo.run("reanchor", mid, "--anchor", spec, "--json", check=False)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_line_suffix_is_dropped_only_when_the_spec_as_typed_names_nothing(repo):
    repo.write("guide.md", "# Step:2\n\nRun it twice before the deploy goes out.\n\n# Step\n\nOnce.\n")
    repo.commit("doc")
    mid = repo.remember("The second step runs twice before deploys.", "guide.md#Step:2")
    (anchor,) = repo.json("show", mid)["data"]["anchors"]
    assert anchor["symbol"] == "Step:2"
    proc = repo.run("remember", "x is y for the billing code.", "--anchor", "guide.md#Nope:3", "--json", check=False)
    err = json.loads(proc.stdout)["error"]
    assert err["code"] == "anchor_unresolved" and "Nope:3" in err["message"]
