"""`tether report`: the page a person opens, checked in the rendered DOM of headless Chromium.

One real repository holds every state a memory can be in (active, followed, stale with a diff,
invalidated, superseded, retired, quarantined) plus a body that tries HTML injection; the report
is written by the real CLI and driven over the DevTools protocol (tests/cdp.py). Screenshots go to
tests/artifacts/; TETHER_UPDATE_SCREENSHOT=1 also refreshes docs/report.png for docs/hooks.md.
"""

from __future__ import annotations

import json
import os
import re
import struct
from pathlib import Path

import pytest
from cdp import Browser, Page, install_chromium
from conftest import ROOT, Repo

ARTIFACTS = ROOT / "tests" / "artifacts"
INJECTION = "</script><img src=x onerror=alert(1)>"

INVOICE = """\
from .tax import round_cents, vat_rate


class Invoice:
    def __init__(self, lines, currency="EUR"):
        self.lines = list(lines)
        self.currency = currency

    def total(self):
        subtotal = sum(line.price * line.quantity for line in self.lines)
        return round_cents(subtotal * (1 + vat_rate(self.currency)))

    def apply_discount(self, percent):
        if not 0 <= percent <= 100:
            raise ValueError("discount must be between 0 and 100")
        for line in self.lines:
            line.price = line.price * (100 - percent) / 100
"""
TAX = """\
RATES = {"EUR": 0.20, "GBP": 0.20, "CHF": 0.081}


def vat_rate(currency):
    return RATES.get(currency, 0.0)


def round_cents(amount):
    cents = int(amount * 100 + 0.5) if amount >= 0 else -int(-amount * 100 + 0.5)
    return cents / 100
"""
AUTH = """\
import hmac


def check_token(token, secret):
    expected = hmac.new(secret, b"api", "sha256").hexdigest()
    return hmac.compare_digest(token, expected)


def user_for(token, users):
    return users.get(token[:8])
"""
ROUTES = """\
def create_invoice(request, gateway):
    payload = request.json()
    invoice = Invoice(payload["lines"], payload.get("currency", "EUR"))
    for attempt in range(3):
        if gateway.submit(invoice):
            return {"status": "created", "total": invoice.total()}
    return {"status": "retry_later"}


def health():
    return {"ok": True, "version": VERSION}
"""
ARCHITECTURE = """\
# Architecture

## Billing
Invoices are computed in `src/billing`, taxes in `tax.py`.

## Webhooks
The payment provider posts JSON to `/hooks/payment`; payloads are stored as received.
"""


class _Repo(Repo):
    """The conftest Repo, for a module-scoped store: its own TETHER_HOME on every CLI run."""

    def __init__(self, path: Path, home: Path) -> None:
        self.home = home
        super().__init__(path)

    def run(self, *args, env=None, **kw):
        return super().run(*args, env={"TETHER_HOME": str(self.home), **(env or {})}, **kw)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A repository with a memory in every state, its usage log, and the report written by the CLI."""
    home = tmp_path_factory.mktemp("report-home")
    repo = _Repo(tmp_path_factory.mktemp("report") / "shop", home)
    for path, text in {
        "src/billing/invoice.py": INVOICE,
        "src/billing/tax.py": TAX,
        "src/api/auth.py": AUTH,
        "src/api/routes.py": ROUTES,
        "docs/ARCHITECTURE.md": ARCHITECTURE,
    }.items():
        repo.write(path, text)
    repo.commit("shop")
    ids = {
        "total": repo.remember(
            "Totals are rounded once, after VAT, never per line: per-line rounding drifted by a cent on long invoices.",
            "src/billing/invoice.py::Invoice.total",
            kind="decision",
        ),
        "vat": repo.remember(
            "Unknown currencies are taxed at 0%, silently.", "src/billing/tax.py::vat_rate", kind="gotcha"
        ),
        "round": repo.remember("Rounding is half away from zero, to the cent.", "src/billing/tax.py::round_cents"),
        "token": repo.remember(
            "Tokens are compared with hmac.compare_digest, never with ==.",
            "src/api/auth.py::check_token",
            kind="convention",
        ),
        "retries": repo.remember("The gateway submission is tried 3 times.", "src/api/routes.py::create_invoice"),
        "health": repo.remember("The health endpoint reports the version.", "src/api/routes.py::health"),
        "webhook": repo.json(
            "remember",
            f"Webhook payloads are untrusted: render them as text.\nA customer name once arrived as {INJECTION}",
            "--anchor",
            "docs/ARCHITECTURE.md#Webhooks",
            "--kind",
            "gotcha",
            "--summary",
            "Webhook payloads are untrusted: render them as text",
        )["data"]["id"],
    }
    ids["retries2"] = repo.json(
        "supersede",
        ids["retries"],
        "The gateway submission is tried 3 times, then the client is told retry_later and backs off.",
        "--reason",
        "behaviour clarified",
    )["data"]["current"]["id"]
    repo.run("retire", ids["health"], "--reason", "the load balancer no longer calls it")
    repo.replace("src/billing/tax.py", "return RATES.get(currency, 0.0)", "return RATES[currency]")
    repo.replace("src/billing/tax.py", "def round_cents(", "def round_half_up(")
    repo.write("src/api/auth.py", AUTH.split("\n\n\n", 1)[0] + "\n\n\n" + AUTH.split("\n\n\n")[2])
    repo.write(".tether/memories/hand-edited--0000dead.md", "---\n{not json\n---\nbody\n")
    _usage(repo, ids)
    # the repository under the home directory, as most are: the page names it `~/shop`
    out = json.loads(repo.run("report", "--json", env={"HOME": str(repo.path.resolve().parent)}).stdout)
    return repo, ids, Path(out["data"]["file"]), out


def _usage(repo: _Repo, ids: dict) -> None:
    """Usage events written by tether's own writer, into this store's state dir."""
    from tether.usage import ledger

    old = os.environ.get("TETHER_HOME")
    os.environ["TETHER_HOME"] = str(repo.home)
    try:
        for event, mids in [
            ("recall", [ids["total"], ids["vat"]]),
            ("recall", [ids["total"]]),
            ("push", [ids["total"]]),
            ("credit", [ids["total"]]),
        ]:
            ledger.record(repo.path.resolve(), event, mids, "session-1")
    finally:
        if old is None:
            del os.environ["TETHER_HOME"]
        else:
            os.environ["TETHER_HOME"] = old


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    exe, why = install_chromium()
    if exe is None:
        pytest.skip(f"headless Chromium is needed for the report's DOM tests: {why}")
    b = Browser(exe, tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


@pytest.fixture
def page(browser, store):
    _, _, path, _ = store
    p = Page(browser, path.as_uri())
    p.wait_for("document.documentElement.dataset.ready === '1'")
    yield p
    p.close()


def visible_ids(page: Page) -> list[str]:
    return page.js(
        "[...document.querySelectorAll('#list > li')].filter(li => !li.hidden)"
        ".map(li => li.dataset.memoryId || li.dataset.status)"
    )


# -- the file ----------------------------------------------------------------------------------


def test_report_defaults_to_the_state_dir_outside_the_repository(store):
    repo, _, path, out = store
    assert path.name == "report.html" and path.is_relative_to(repo.home / "state")
    assert not path.is_relative_to(repo.path)
    assert repo.git("status", "--porcelain", "--ignored", ".tether").count("report") == 0
    assert out["data"]["counts"] == {
        "active": 4,
        "stale": 1,
        "invalidated": 1,
        "quarantined": 1,
        "superseded": 1,
        "retired": 1,
    }


def test_report_is_one_file_with_no_network_and_no_raw_user_markup(store):
    _, ids, path, _ = store
    html = path.read_text("utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html)
    assert "<link" not in html and "@import" not in html and "url(" not in html
    assert re.search(r"script-src 'sha256-[A-Za-z0-9+/=]+'", html)
    assert INJECTION not in html and "<img" not in html
    data = json.loads(
        re.search(r'<script type="application/json" id="tether-data">(.*?)</script>', html, re.DOTALL).group(1)
    )
    assert {i["id"] for i in data["items"] if "id" in i} == set(ids.values())


def test_out_writes_where_asked_and_the_human_line_names_it(store, tmp_path):
    repo, _, _, _ = store
    target = tmp_path / "r.html"
    proc = repo.run("report", "--out", str(target))
    assert target.is_file() and proc.stdout.splitlines()[0] == f"wrote {target}"
    assert proc.stdout.splitlines()[1] == "4 active, 1 stale, 1 invalidated, 1 quarantined; 2 closed"


def test_check_points_to_the_report_when_memories_are_stale(store, repo):
    shop, _, _, _ = store
    checked = shop.run("check", check=False)  # exits 1: the store holds a quarantined file
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[-1] == "1 stale: tether report --open shows each with its diff"
    repo.write("a.py", "def f(x):\n    return x * 41 + 1\n")
    repo.remember("f is affine.", "a.py::f")
    assert "tether report" not in repo.run("check").stdout


# -- the rendered page -------------------------------------------------------------------------


def test_page_renders_the_health_counts(page):
    counts = page.js(
        "Object.fromEntries([...document.querySelectorAll('.count')]"
        ".map(b => [b.dataset.status, +b.querySelector('.n').textContent]))"
    )
    assert counts == {"active": 4, "stale": 1, "invalidated": 1, "quarantined": 1, "superseded": 1, "retired": 1}
    assert (
        page.js("document.getElementById('health-bar').getAttribute('aria-label')")
        == "4 active, 1 stale, 1 invalidated, 1 quarantined"
    )
    assert page.js("document.getElementById('shown').textContent") == "Showing 9 of 9"


def test_page_names_a_repository_under_home_by_a_tilde_path(page, store):
    assert page.js("document.getElementById('meta').textContent").startswith("~/shop · generated ")


def test_a_root_outside_home_is_shown_whole(monkeypatch, tmp_path):
    from tether.surfaces.report import shown_root

    monkeypatch.setenv("HOME", str(tmp_path / "alice"))
    assert shown_root(tmp_path / "alice" / "src" / "shop") == "~/src/shop"
    assert shown_root(tmp_path / "alice2" / "shop") == str(tmp_path / "alice2" / "shop")  # a prefix is not a parent
    assert shown_root(tmp_path / "srv" / "shop") == str(tmp_path / "srv" / "shop")


def test_page_lists_every_memory_and_the_quarantined_file(page, store):
    _, ids, _, _ = store
    listed = page.js(
        "[...document.querySelectorAll('[data-memory-id]')].map(e => [e.dataset.memoryId, e.dataset.status,"
        " e.querySelector('.full-id').textContent])"
    )
    assert sorted(i for i, _, _ in listed) == sorted(ids.values())
    assert all(i == full for i, _, full in listed)
    status = {i: s for i, s, _ in listed}
    assert status == {
        ids["total"]: "active",
        ids["vat"]: "stale",
        ids["round"]: "active",
        ids["token"]: "invalidated",
        ids["retries"]: "superseded",
        ids["retries2"]: "active",
        ids["health"]: "retired",
        ids["webhook"]: "active",
    }
    assert (
        page.js("document.querySelector('[data-status=quarantined] summary').textContent")
        == "quarantined.tether/memories/hand-edited--0000dead.md"
    )
    assert visible_ids(page)[:3] == [ids["vat"], ids["token"], "quarantined"]  # what needs attention first


def test_stale_memory_shows_its_reason_and_the_diff(page, store):
    _, ids, _, _ = store
    li = f"document.getElementById('m-{ids['vat']}')"
    assert page.js(f"{li}.querySelector('details').open") is True
    lines = page.js(f"[...{li}.querySelectorAll('pre.diff span')].map(s => [s.className, s.textContent])")
    assert lines == [
        ["meta", "--- then"],
        ["meta", "+++ now"],
        ["hunk", "@@ -1,2 +1,2 @@"],
        ["ctx", " def vat_rate(currency):"],
        ["del", "-    return RATES.get(currency, 0.0)"],
        ["add", "+    return RATES[currency]"],
    ]
    assert page.js(f"{li}.querySelector('.anchors .reason').textContent") == "body_edited"
    assert page.js(f"{li}.querySelector('.anchors code').textContent") == "src/billing/tax.py::vat_rate:4"


def test_invalidated_followed_superseded_and_usage_are_shown(page, store):
    _, ids, _, _ = store

    def text(mid, sel):
        return page.js(f"document.querySelector('#m-{mid} {sel}').textContent")

    assert text(ids["token"], ".anchors .reason") == "anchor_deleted"
    assert text(ids["round"], ".anchors code") == "src/billing/tax.py::round_half_up:8"
    assert text(ids["round"], ".anchors div") == "followed from src/billing/tax.py::round_cents"
    chain = page.js(f"[...document.querySelectorAll('#m-{ids['retries']} ol.chain li')].map(li => li.textContent)")
    assert chain == [
        f"{ids['retries'][:8]}  The gateway submission is tried 3 times. (superseded: behaviour clarified, this one)",
        (
            f"{ids['retries2'][:8]}  The gateway submission is tried 3 times, then the client is told "
            "retry_later and backs off. (current)"
        ),
    ]
    assert text(ids["total"], ".usage").startswith(
        "recalled 2× · pushed into a prompt 1× · credited as used 1× · last "
    )
    assert text(ids["vat"], ".usage").startswith("recalled 1× · last ")
    assert text(ids["round"], ".usage") == "no recorded use on this machine"


def test_injected_markup_in_a_body_is_shown_as_text(page, store):
    _, ids, _, _ = store
    page.js(f"document.querySelector('#m-{ids['webhook']} details').open = true")
    body = page.js(f"document.querySelector('#m-{ids['webhook']} .body').innerText")
    assert body == f"Webhook payloads are untrusted: render them as text.\nA customer name once arrived as {INJECTION}"
    assert page.js("document.querySelectorAll('img').length") == 0
    assert page.events("Page.javascriptDialogOpening") == []
    assert page.events("Runtime.exceptionThrown") == []
    assert [e for e in page.events("Log.entryAdded") if e["params"]["entry"]["level"] == "error"] == []


def test_clicks_keys_and_selects_filter_the_list(page, store):
    _, ids, _, _ = store
    page.click("#count-stale")  # a real mouse click on the "stale" count
    assert visible_ids(page) == [ids["vat"]]
    assert page.js("document.getElementById('f-status').value") == "stale"
    assert page.js("document.getElementById('shown').textContent") == "Showing 1 of 9 (filtered)"
    page.click("#count-stale")  # again: off
    assert len(visible_ids(page)) == 9

    page.click(".node[data-path='src/api/auth.py']")  # the map filters by path
    assert visible_ids(page) == [ids["token"]]
    page.click(".node[data-path='src/api']")
    assert visible_ids(page) == [ids["token"], ids["retries2"], ids["retries"], ids["health"]]

    page.js("const s = document.getElementById('f-kind'); s.value = 'fact'; s.dispatchEvent(new Event('change'))")
    assert visible_ids(page) == [ids["retries2"], ids["retries"], ids["health"]]
    page.click("#f-text")
    page.type("backs off")
    assert visible_ids(page) == [ids["retries2"]]

    page.key("Tab", "Tab", 9)  # from the text filter, the keyboard reaches the reset button
    assert page.js("document.activeElement.id") == "f-reset"
    page.key("Enter", "Enter", 13, "\r")
    assert page.wait_for("document.getElementById('shown').textContent === 'Showing 9 of 9'")
    page.key("Tab", "Tab", 9)  # the next stop is the first memory, and Enter folds it
    assert page.js("document.activeElement.closest('li').dataset.memoryId") == ids["vat"]
    assert page.js("document.activeElement.parentElement.open") is True
    page.key("Enter", "Enter", 13, "\r")
    assert page.js("document.activeElement.parentElement.open") is False


def test_screenshots_in_light_and_dark(page, store):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.color_scheme(scheme)
        bg = page.js("getComputedStyle(document.body).backgroundColor")
        assert bg == ("rgb(255, 255, 255)" if scheme == "light" else "rgb(13, 17, 23)")
        shot = ARTIFACTS / f"report-{scheme}.png"
        page.screenshot(shot, {"x": 0, "y": 0, "width": 1280, "height": 900})
        assert _png_size(shot) == (1280, 900)
    if os.environ.get("TETHER_UPDATE_SCREENSHOT") == "1":
        page.color_scheme("light")
        page.screenshot(ROOT / "docs" / "report.png", {"x": 0, "y": 0, "width": 1280, "height": 820})


def _png_size(path: Path) -> tuple[int, int]:
    return struct.unpack(">II", path.read_bytes()[16:24])


# -- the map, as data --------------------------------------------------------------------------


def test_map_counts_distinct_memories_and_folds_single_child_directories():
    from tether.surfaces.report import tree

    items = [
        {"id": "a", "status": "active", "paths": ["src/app/core/x.py", "src/app/core/y.py"]},
        {"id": "b", "status": "stale", "paths": ["src/app/core/x.py"]},
        {"id": "c", "status": "invalidated", "paths": ["README.md"]},
    ]
    t = tree(items)
    assert (t["total"], t["counts"], t["worst"]) == (3, {"active": 1, "stale": 1, "invalidated": 1}, "invalidated")
    (src, readme) = t["children"]
    assert (src["name"], src["path"], src["total"], src["worst"]) == ("src/app/core", "src/app/core", 2, "stale")
    assert [(c["name"], c["total"], c["worst"]) for c in src["children"]] == [
        ("x.py", 2, "stale"),
        ("y.py", 1, "active"),
    ]
    assert (readme["name"], readme["dir"], readme["worst"]) == ("README.md", False, "invalidated")


def test_the_page_explains_every_lifecycle_reason():
    from where import PACKAGE

    from tether.lifecycle.status import Reason

    template = (PACKAGE / "surfaces" / "report" / "template.html").read_text(encoding="utf-8")
    table = template.split("const REASONS = {", 1)[1].split("};", 1)[0]
    assert [r.value for r in Reason if f"{r.value}:" not in table] == []
