"""The secret gate against a corpus it was not written from, and the shapes of issue 20.

tests/data/secret_corpus.json holds the peers' own rule tests (gitleaks, detect-secrets) re-typed as
data, issue-20 shapes and memory prose (see tests/bench/secret_gate.py for the bench and the split).
The part the rules were tuned on must meet the targets, the held-aside third its measured floor;
failures are printed redacted (first 4 characters and the length), never whole. The issue shapes are built at run time from a seeded RNG, so no
credential-shaped literal lives in this file.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
from pathlib import Path

import pytest
from where import DATA

from tether.store.secrets import RULES, scan

CORPUS = DATA / "secret_corpus.json"
CASES = json.loads(CORPUS.read_text("utf-8"))["cases"]
TARGET_REFUSED = 0.95
TARGET_FP = 0.03


def scanned(case: dict) -> str:
    return case.get("context") or case["text"]


def redact(text: str) -> str:
    return f"{text[:4]!r}… ({len(text)} chars)"


def _listing(rows: list[dict]) -> str:
    return "\n".join(f"  {c['kind']} — {c['source']} — {redact(scanned(c))}" for c in rows)


def test_corpus_is_split_by_a_hash_of_each_text():
    for c in CASES:
        held = hashlib.sha256(c["text"].encode("utf-8")).digest()[0] < 86
        assert c["split"] == ("held_out" if held else "train"), redact(c["text"])
    assert {c["split"] for c in CASES} == {"train", "held_out"}


def test_every_relabel_says_why():
    for c in CASES:
        if "relabelled" in c:
            assert isinstance(c["relabelled"], str) and len(c["relabelled"]) > 10, redact(c["text"])


# The held-aside third was measured once the rules were frozen (tests/bench/secret_gate.py says
# how): 92.8% refused, 7.9% false positives. Its floor guards against regressions; the targets are
# held on the part the rules were tuned on, and docs/benchmarks.md reports both.
HELD_OUT_FLOOR = {"refused": 0.925, "fp": 0.08}


@pytest.mark.parametrize("split", ["train", "held_out"])
def test_corpus_refusals_and_false_positives(split):
    verdicts = [(c, bool(scan(scanned(c)))) for c in CASES if c["split"] == split]
    positives = [c for c, v in verdicts if c["secret"]]
    missed = [c for c, v in verdicts if c["secret"] and not v]
    negatives = [c for c, v in verdicts if not c["secret"]]
    false = [c for c, v in verdicts if not c["secret"] and v]
    refused = 1 - len(missed) / len(positives)
    fp = len(false) / len(negatives)
    print(
        f"\nsecret corpus ({split}): refused {refused:.1%} of {len(positives)} positives, "
        f"false positives {fp:.1%} of {len(negatives)} negatives"
    )
    want_refused, want_fp = (
        (TARGET_REFUSED, TARGET_FP) if split == "train" else (HELD_OUT_FLOOR["refused"], HELD_OUT_FLOOR["fp"])
    )
    shown = _listing(missed) if split == "train" else f"{len(missed)} missed"
    assert refused >= want_refused, f"refused {refused:.1%} < {want_refused:.1%}; missed:\n{shown}"
    shown = _listing(false) if split == "train" else f"{len(false)} false positives"
    assert fp <= want_fp, f"false positives {fp:.1%} > {want_fp:.1%}:\n{shown}"


def test_findings_carry_positions_only():
    for c in CASES:
        text = scanned(c)
        for f in scan(text):
            secret = text[f.start : f.end]
            assert f.rule in RULES and 1 <= f.line and 1 <= f.column and f.start < f.end
            assert secret not in f.description and secret not in repr(f), f"{f.rule} echoes {redact(secret)}"


# -- through the real CLI: a refused corpus secret appears nowhere --------------------------------


def _cli_picks() -> list[dict]:
    """One refused positive for each of a few different rules (short ones: they go on a command line)."""
    picks: dict[str, dict] = {}
    for c in CASES:
        text = scanned(c)
        if not c["secret"] or len(text) > 400 or "\x00" in text:
            continue
        found = scan(text)
        if found and found[0].rule not in picks and len(text[found[0].start : found[0].end]) >= 8:
            picks[found[0].rule] = c
    order = [
        "aws_access_key",
        "github_token",
        "slack_token",
        "curl_credentials",
        "password_assignment",
        "huggingface_token",
        "azure_client_secret",
        "high_entropy",
        "jwt",
        "private_key",
    ]
    return [picks[r] for r in order if r in picks]


CLI_PICKS = _cli_picks()


def _tree_bytes(root: Path) -> bytes:
    out = b""
    for p in sorted(root.rglob("*")) if root.exists() else []:
        if p.is_file() and not p.is_symlink():
            out += p.read_bytes()
    return out


@pytest.mark.parametrize("case", CLI_PICKS, ids=[scan(scanned(c))[0].rule for c in CLI_PICKS])
def test_cli_remember_refuses_a_corpus_secret_and_echoes_nothing(repo, tether_home, case):
    repo.write("src/app.py", "def handler(event):\n    return event\n")
    repo.commit("initial")
    text = scanned(case)
    secrets = [text[f.start : f.end] for f in scan(text)]
    proc = repo.run("remember", text, "--anchor", "src/app.py::handler", "--json", check=False)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["error"]["code"] == "secret_detected"
    assert repo.memory_files() == {}
    stored = _tree_bytes(repo.path / ".tether") + _tree_bytes(Path(tether_home))
    for s in secrets:
        for leak in {s, s[:16], s[-16:]} if len(s) >= 16 else {s}:
            assert leak not in proc.stdout and leak not in proc.stderr, f"output echoes {redact(s)}"
            assert leak.encode() not in stored, f"the store or cache holds {redact(s)}"


def test_cli_picks_cover_several_rules():
    assert len(CLI_PICKS) >= 6


# -- the shapes of issue 20: misses that must be refused, false positives that must pass -----------

RNG = random.Random(20250120)
B62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


def rnd(chars: str, n: int) -> str:
    return "".join(RNG.choice(chars) for _ in range(n))


def b64(s: str) -> str:
    return base64.b64encode(s.encode()).decode()


def _refused() -> list[tuple[str, str]]:
    pw = "Kx7" + rnd(B62, 6)
    return [
        ("curl -u user:pass", f"curl -u deploy:{pw} https://artifacts.example.com/api/upload"),
        ("curl --user quoted", f"curl -s --user 'api:{pw}!' https://api.example.com/v3/messages"),
        ("DB_PASS short", "DB_PASS=" + rnd(string.ascii_lowercase, 5) + "2"),
        ("SMTP_PASSWORD short", "SMTP_PASSWORD=Tig" + rnd(string.ascii_lowercase, 2) + "7"),
        ("PGPASSWORD", f"PGPASSWORD={pw} psql -h db.internal -U app"),
        ("mysql -p", f"mysql -uroot -p{pw} shop < dump.sql"),
        ("redis-cli -a", f"redis-cli -h cache.internal -a {pw} ping"),
        ("netrc", f"machine api.example.com login deploy password {pw}"),
        ("netrc multi-line", f"machine git.example.com\n  login ci\n  password {pw}"),
        ("hugging face letters only", "huggingface-cli login --token hf_" + rnd(string.ascii_letters, 34)),
        ("npmrc _authToken", "//registry.npmjs.org/:_authToken=npm_" + rnd(B62, 36)),
        ("npmrc legacy uuid", "//registry.npmjs.org/:_authToken=" + "-".join(rnd(HEX, n) for n in (8, 4, 4, 4, 12))),
        (
            "azure client secret with ~ and .",
            "client_secret: " + rnd(B62, 2) + ".8Q~" + rnd(B62, 10) + "~" + rnd(B62, 10) + "." + rnd(B62, 12),
        ),
        ("rails secret_key_base", "secret_key_base: " + rnd(HEX, 128)),
        ("datadog 32 hex", "DD_API_KEY=" + rnd(HEX, 32)),
        ("twilio 32 hex", "TWILIO_AUTH_TOKEN=" + rnd(HEX, 32)),
        ("mailchimp 32 hex", "MAILCHIMP_API_KEY=" + rnd(HEX, 32) + "-us6"),
        ("64-hex private key", "PRIVATE_KEY=0x" + rnd(HEX, 64)),
        ("docker auth base64 user:pass", json.dumps({"auths": {"ghcr.io": {"auth": b64("deploy-bot:" + pw)}}})),
        (
            "base64 of AKIA:secret",
            "aws_b64: " + b64("AKIA" + rnd(string.ascii_uppercase + "234567", 16) + ":" + rnd(B62 + "+/", 40)),
        ),
        (
            "kubernetes Secret data",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: " + b64(pw + "!x") + "\n",
        ),
        ("key split by backslash-newline", "export GITHUB_TOKEN=ghp_" + (t := rnd(B62, 36))[:18] + "\\\n" + t[18:]),
        (
            "jwt without signature",
            ".".join(
                base64.urlsafe_b64encode(json.dumps(d).encode()).decode().rstrip("=")
                for d in ({"alg": "HS256", "typ": "JWT"}, {"sub": str(RNG.randrange(10**9))})
            ),
        ),
    ]


def _passed() -> list[tuple[str, str]]:
    ssh_body = base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 " + RNG.randbytes(32)).decode()
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + RNG.randbytes(300)).decode()
    return [
        ("glpat placeholder", "GITLAB_TOKEN=glpat-XXXXXXXXXXXXXXXXXXXX"),
        ("xoxb placeholder", "SLACK_BOT_TOKEN=xoxb-xxxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx"),
        ("sk_test placeholder", "STRIPE_SECRET_KEY=sk_test_XXXXXXXXXXXXXXXXXXXXXXXX"),
        ("AWS documented example", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE"),
        ("ssh public key", f"ssh-ed25519 {ssh_body} dev@laptop"),
        ("go.sum digest", "golang.org/x/sys v0.21.0/go.mod h1:" + base64.b64encode(RNG.randbytes(32)).decode()),
        ("stripe publishable live", "pk_live_" + rnd(B62, 99)),
        ("stripe publishable test", "STRIPE_PUBLISHABLE_KEY=pk_test_" + rnd(B62, 24)),
        ("url query id", "https://dashboard.example.com/runs?id=" + rnd(B62, 20) + "&tab=logs"),
        (
            "data uri wrapped at 76",
            "data:image/png;base64," + "\n".join(png[i : i + 76] for i in range(0, len(png), 76)),
        ),
        ("empty assignments across lines", "GITHUB_API_KEY=\nDYNATRACE_API_KEY=\n"),
        ("env reference", 'password = os.environ["DB_PASSWORD"]'),
        ("template slot", 'curl -u "${USERNAME}:${PASSWORD}" https://api.example.com'),
        (
            "pem public certificate",
            "-----BEGIN CERTIFICATE-----\n"
            + "\n".join(base64.b64encode(RNG.randbytes(48)).decode() for _ in range(4))
            + "\n-----END CERTIFICATE-----",
        ),
    ]


@pytest.mark.parametrize("text", [t for _, t in _refused()], ids=[n for n, _ in _refused()])
def test_issue_shapes_are_refused(text):
    assert scan(text), "missed"


@pytest.mark.parametrize("text", [t for _, t in _passed()], ids=[n for n, _ in _passed()])
def test_issue_shapes_that_are_not_secrets_pass(text):
    assert [f.rule for f in scan(text)] == []


def test_a_key_split_across_lines_is_reported_where_it_starts():
    token = "ghp_" + rnd(B62, 36)
    text = f"step 1\nexport GITHUB_TOKEN={token[:20]}\\\n{token[20:]} && make release"
    [f] = scan(text)
    assert (f.rule, f.line, f.column) == ("github_token", 2, 21)
    assert text[f.start : f.end].replace("\\\n", "") == token


def test_adversarial_inputs_of_memory_size_finish():  # no timing assertion (targets live in `make bench`): it just has to end
    for text in ("key" * 5000, "password= " * 1500, "curl -x " * 2000, "a:" * 8000, "=" * 16000, "x_" * 8000):
        scan(text)
