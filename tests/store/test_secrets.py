"""The secret gate: a corpus of generated (fake, random) secrets is refused, realistic non-secrets pass.

Secrets are built at run time from a seeded RNG so no credential-shaped literal lives in the repo.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid

import pytest

from tether.store import secrets
from tether.store.secrets import credential_file, parse_allowlist, scan

RNG = random.Random(20240601)
B62 = string.ascii_letters + string.digits
B64 = B62 + "+/"
B64URL = B62 + "-_"
HEX = "0123456789abcdef"


def rnd(chars: str, n: int) -> str:
    return "".join(RNG.choice(chars) for _ in range(n))


def key40(seed: int) -> str:
    """A fixed random key for tests that run alone (the shared RNG's draws depend on test order)."""
    r = random.Random(seed)
    return "".join(r.choice(B62) for _ in range(40))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def pem(label: str, lines: int = 6) -> str:
    body = "\n".join(rnd(B64, 64) for _ in range(lines))
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"


def jwt() -> str:
    head = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = {"sub": str(RNG.randrange(10**6)), "name": "Dev", "iat": 1717200000 + RNG.randrange(10**5)}
    return f"{head}.{b64url(json.dumps(claims).encode())}.{rnd(B64URL, 43)}"


# (expected rule, memory text with the secret inside, the secret itself)
def _secret_corpus() -> list[tuple[str, str, str]]:
    c: list[tuple[str, str, str]] = []

    def add(rule: str, template: str, secret: str) -> None:
        c.append((rule, template.format(s=secret), secret))

    add("private_key", "The deploy job signs with this key:\n{s}\nRotate it yearly.", pem("RSA PRIVATE KEY"))
    add("private_key", "CI ssh key (do not lose):\n{s}", pem("OPENSSH PRIVATE KEY"))
    add("private_key", 'Service account JSON has "private_key": "{s}"', pem("PRIVATE KEY").replace("\n", "\\n"))
    add("private_key", "Release signing subkey:\n{s}", pem("PGP PRIVATE KEY BLOCK"))
    add("private_key", "The staging TLS key is\n{s}\nand the cert is in the wiki.", pem("EC PRIVATE KEY", 3))
    add(
        "aws_access_key",
        "Uploads use the IAM user with access key {s} in us-east-1.",
        "AKIA" + rnd(string.ascii_uppercase + string.digits, 16),
    )
    add(
        "aws_access_key",
        "The temporary STS credentials start with {s}, valid 1h.",
        "ASIA" + rnd(string.ascii_uppercase + string.digits, 16),
    )
    add("aws_secret_key", "Set aws_secret_access_key = {s} in ~/.aws/credentials for the backup job.", rnd(B64, 40))
    add("aws_secret_key", "export AWS_SECRET_ACCESS_KEY={s} before running make deploy", rnd(B64, 40))
    add("github_token", "The release workflow pushes tags using {s} (classic PAT, repo scope).", "ghp_" + rnd(B62, 36))
    add("github_token", "OAuth app token for the bot: {s}", "gho_" + rnd(B62, 36))
    add("github_token", "Actions installation token seen in logs: {s}", "ghs_" + rnd(B62, 36))
    add("github_token", "Fine-grained token for the mirror: {s}", "github_pat_" + rnd(B62, 22) + "_" + rnd(B62, 59))
    add("gitlab_token", "GitLab CI pulls the submodule with {s}.", "glpat-" + rnd(B64URL, 20))
    add(
        "slack_token",
        "Alerts post as the bot user, token {s}.",
        f"xoxb-{RNG.randrange(10**11, 10**12)}-{RNG.randrange(10**12, 10**13)}-{rnd(B62, 24)}",
    )
    add(
        "slack_token",
        "Old user token still used by the digest script: {s}",
        f"xoxp-{RNG.randrange(10**11, 10**12)}-{RNG.randrange(10**11, 10**12)}-{rnd(B62, 32)}",
    )
    add(
        "slack_webhook",
        "Deploy notifications go to {s} (channel #deploys).",
        f"https://hooks.slack.com/services/T{rnd(string.ascii_uppercase + string.digits, 8)}/B{rnd(string.ascii_uppercase + string.digits, 10)}/{rnd(B62, 24)}",
    )
    add("stripe_key", "Billing uses {s} in production; never log it.", "sk_live_" + rnd(B62, 24))
    add("stripe_key", "The refund worker has a restricted key {s}.", "rk_live_" + rnd(B62, 24))
    add("stripe_key", "Tests hit Stripe test mode with {s}.", "sk_test_" + rnd(B62, 24))
    add("stripe_key", "Webhook signatures are verified with {s}.", "whsec_" + rnd(B62, 32))
    add("google_api_key", "Maps autocomplete calls use key={s} from the frontend.", "AIza" + rnd(B64URL, 35))
    add("google_oauth_secret", "Google login client secret: {s}", "GOCSPX-" + rnd(B64URL, 28))
    add("openai_key", "Embeddings are computed with OPENAI key {s}.", "sk-proj-" + rnd(B64URL, 48))
    add("openai_key", "The legacy summarizer still uses {s}.", "sk-" + rnd(B62, 48))
    add("anthropic_key", "The eval harness reads {s} from the shell.", "sk-ant-api03-" + rnd(B64URL, 93) + "AA")
    add("jwt", "curl -H 'Authorization: Bearer {s}' http://localhost:8000/api/me", jwt())
    add("jwt", "This admin session token never expires: {s}", jwt())
    add("url_credentials", "Reports read from postgres://reporting:{s}@db.internal:5432/analytics.", rnd(B62, 16))
    add("url_credentials", "Celery broker is redis://:{s}@cache.internal:6379/0 in prod.", rnd(B62, 20))
    add("url_credentials", "Atlas: mongodb+srv://app:{s}@cluster0.abcde.mongodb.net/main", "Pa55-" + rnd(B62, 10))
    add(
        "url_credentials",
        "The mirror clones https://deploy-bot:{s}@git.example.com/infra/ops.git nightly.",
        rnd(B62, 20),
    )
    add("password_prose", "For the demo box the admin password is {s} until Friday.", "Tr0ub4dor&3x")
    add("password_prose", "The passphrase for the signing key was {s}.", "hunter" + rnd("0123456789", 4))
    add("password_assignment", 'In settings.py: DATABASES["default"]["PASSWORD"] = "{s}" (local only).', "Tr0ub4dor&3x")
    add("password_assignment", "The .env for staging has DB_PASSWORD={s}", "Sup3rS3cret!")
    add("password_assignment", 'The fixture config is {{"username": "admin", "password": "{s}"}}', "hunter22")
    add("password_assignment", "docker-compose sets api_key: {s} for the stub server.", "k3y-" + rnd(B62, 12))
    add("password_assignment", "OAuth client: client_secret = '{s}'", "cs-" + rnd(B62, 10))
    add(
        "password_assignment",
        'Django SECRET_KEY = "{s}" is committed in settings/dev.py',
        "django-insecure-" + rnd(B62 + "!@#%^&*", 40),
    )
    add("password_assignment", 'class Config:\n    password: str = "{s}"', "correct.Horse7")
    add(
        "basic_auth",
        "The legacy API wants Authorization: Basic {s}",
        base64.b64encode(f"svc-report:{rnd(B62, 12)}".encode()).decode(),
    )
    add("bearer_token", "Internal gateway requests carry Bearer {s}.", rnd(B62, 40))
    add("high_entropy", "The HMAC signing key for webhooks is {s} and lives in vault.", rnd(B62, 40))
    add("high_entropy", "Encryption key (base64, 32 bytes): {s}", base64.b64encode(RNG.randbytes(32)).decode())
    add("npm_token", "Publishing uses {s} from the org account.", "npm_" + rnd(B62, 36))
    add("pypi_token", "twine uploads with {s}", "pypi-AgEIcHlwaS5vcmc" + rnd(B64URL, 60))
    # provider prefixes (the vendors' documented shapes)
    UPPER_DIGITS, LOWER_DIGITS = string.ascii_uppercase + string.digits, string.ascii_lowercase + string.digits
    add("huggingface_token", "Model downloads use {s} from the CI secrets.", "hf_" + rnd(string.ascii_letters, 34))
    add(
        "azure_client_secret",
        "The app registration's client secret is {s} (expires in 2026).",
        rnd(B62, 3) + str(RNG.randrange(10)) + "Q~" + rnd(B62 + "_~.-", 31) + rnd(B62, 1),
    )
    add(
        "age_secret_key",
        "Backups are encrypted to the key {s}.",
        "AGE-SECRET-KEY-1" + rnd("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
    )
    add(
        "onepassword_key",
        "The vault's secret key is {s}.",
        "A3-" + "-".join(rnd(UPPER_DIGITS, n) for n in (6, 11, 5, 5, 5)),
    )
    add("adobe_client_secret", "The Adobe I/O integration secret: {s}", "p8e-" + rnd(B62, 32))
    add("alibaba_access_key", "OSS uploads sign with {s}.", "LTAI" + rnd(B62, 20))
    add("artifactory_token", "Artifactory pulls use {s}.", "AKCp" + rnd(B62, 69))
    add("atlassian_token", "The Jira bot authenticates with {s}.", "ATATT3" + rnd(B64URL, 186))
    add("clojars_token", "lein deploy reads {s}.", "CLOJARS_" + rnd(LOWER_DIGITS, 60))
    add("cloudflare_key", "The origin certificate job uses {s}.", "v1.0-" + rnd(HEX, 24) + "-" + rnd(HEX, 146))
    add("databricks_token", "Notebook jobs run with {s}.", "dapi" + rnd(HEX, 32))
    add("digitalocean_token", "doctl is configured with {s}.", "dop_v1_" + rnd(HEX, 64))
    add("doppler_token", "Doppler service token: {s}", "dp.st." + rnd(B62, 43))
    add("dynatrace_token", "Metrics ingest with {s}.", "dt0c01." + rnd(UPPER_DIGITS, 24) + "." + rnd(B62, 64))
    add("easypost_key", "Shipping labels are bought with {s}.", "EZAK" + rnd(B62, 54))
    add("facebook_token", "The page bot posts with {s}.", "EAAC" + rnd(B62, 120))
    add("flyio_token", "fly deploy runs with {s}.", "fo1_" + rnd(B64URL, 43))
    add("grafana_token", "Dashboards are provisioned with {s}.", "glsa_" + rnd(B62, 32) + "_" + rnd(HEX, 8))
    add("groq_key", "The summarizer calls Groq with {s}.", "gsk_" + rnd(B62, 52))
    add("heroku_key", "Review apps are created with {s}.", "HRKU-AA" + rnd(B64URL, 58))
    add("linear_key", "The triage script uses {s}.", "lin_api_" + rnd(B62, 40))
    add("mailchimp_key", "The newsletter sync uses {s}.", rnd(HEX, 32) + "-us14")
    add("mailgun_key", "Transactional mail goes out with {s}.", "key-" + rnd(HEX, 32))
    add("mapbox_secret_token", "Tilesets are uploaded with {s}.", "sk.eyJ" + rnd(B64URL, 60) + "." + rnd(B64URL, 22))
    add("newrelic_key", "NerdGraph queries use {s}.", "NRAK-" + rnd(UPPER_DIGITS, 27))
    add("notion_token", "The docs sync integration uses {s}.", "ntn_" + rnd(string.digits, 11) + rnd(B62, 35))
    add("openshift_token", "oc login --token {s} was pasted in the runbook.", "sha256~" + rnd(B64URL, 43))
    add("perplexity_key", "Research mode calls {s}.", "pplx-" + rnd(B62, 48))
    add("planetscale_token", "Schema deploys use {s}.", "pscale_tkn_" + rnd(B62, 43))
    add("postman_key", "The collection runner uses {s}.", "PMAK-" + rnd(HEX, 24) + "-" + rnd(HEX, 34))
    add("prefect_key", "Flows register with {s}.", "pnu_" + rnd(B62, 36))
    add("pulumi_token", "pulumi up in CI uses {s}.", "pul-" + rnd(HEX, 40))
    add("readme_key", "The API docs are pushed with {s}.", "rdme_" + rnd(LOWER_DIGITS, 70))
    add("rubygems_key", "gem push uses {s}.", "rubygems_" + rnd(HEX, 48))
    add("scalingo_token", "Scalingo deploys use {s}.", "tk-us-" + rnd(B64URL, 48))
    add("sendgrid_key", "Password-reset mail is sent with {s}.", "SG." + rnd(B64URL, 22) + "." + rnd(B64URL, 43))
    add("sendinblue_key", "Campaigns are sent with {s}.", "xkeysib-" + rnd(HEX, 64) + "-" + rnd(B62, 16))
    add("sentry_token", "Release uploads use {s}.", "sntryu_" + rnd(HEX, 64))
    add("shopify_token", "The storefront sync uses {s}.", "shpat_" + rnd(HEX, 32))
    add("sourcegraph_token", "Batch changes run with {s}.", "sgp_" + rnd(HEX, 40))
    add("square_token", "Refunds go through Square with {s}.", "sq0atp-" + rnd(B64URL, 22))
    add("telegram_bot_token", "The alert bot token is {s}.", f"{RNG.randrange(10**8, 10**10)}:AA" + rnd(B64URL, 33))
    add("terraform_token", "terraform login stored {s}.", rnd(B62, 14) + ".atlasv1." + rnd(B64URL, 67))
    add("twilio_key", "SMS alerts use the API key {s}.", "SK" + rnd(HEX, 32))
    add("vault_token", "The migration ran with VAULT_ADDR set and {s}.", "hvs." + rnd(B64URL, 95))
    # named by context, commands and config files
    add("vendor_key", "The DNS script reads cloudflare = {s} from its config.", rnd(HEX, 37))
    add("auth_header", 'curl -H "X-API-Key: {s}" https://api.example.com/v1/items', rnd(B62, 32))
    add("curl_credentials", "Upload with curl -u deploy:{s} https://artifacts.example.com/upload", "Kx7" + rnd(B62, 9))
    add("command_password", "Restore with mysql -uroot -p{s} shop < dump.sql", "S3" + rnd(B62, 10))
    add("netrc_password", "The runner's .netrc says: machine api.example.com login deploy password {s}", rnd(B62, 14))
    add("npmrc_auth", "The .npmrc has //registry.npmjs.org/:_authToken={s}", str(uuid.UUID(int=RNG.getrandbits(128))))
    add(
        "kubernetes_secret",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: {s}\n",
        base64.b64encode(rnd(B62, 18).encode()).decode(),
    )
    add(
        "encoded_credentials",
        "The Jenkins credential blob is {s} (base64).",
        base64.b64encode(f"deploy-bot:{rnd(B62, 14)}".encode()).decode(),
    )
    add(
        "password_element",
        "web.config: <configuration><dbPassword>{s}</dbPassword></configuration>",
        "Pw" + rnd(B62, 12),
    )
    return c


def _non_secret_corpus() -> list[str]:
    sha = lambda: rnd(HEX, 40)  # noqa: E731
    code = b"def retry(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n        except IOError:\n            pass\n"
    cfg = json.dumps({"name": "tether", "version": "0.1.0", "features": ["recall", "check"]}).encode()
    sri = base64.b64encode(hashlib.sha512(b"left-pad").digest()).decode()
    return [
        f"The regression came in with commit {sha()}; revert it if the retry test flakes again.",
        f"Fixed in {sha()[:7]} and backported as {sha()[:12]}.",
        f"Bisect: good {sha()}, bad {sha()}.",
        f"The wheel's digest is sha256:{hashlib.sha256(b'wheel').hexdigest()} (pinned in requirements.lock).",
        f"Normalized hash t1:{rnd(HEX, 32)} is what the anchor stores; c1:{rnd(HEX, 32)} is the file hash.",
        f"Memory {uuid.uuid4()} supersedes {uuid.uuid4()}.",
        f"Tenant ids are UUIDv4 like {uuid.uuid4()}; never sequential.",
        f"The retry helper was inlined as base64 in the fixture: {base64.b64encode(code).decode()}",
        f"config.json base64-encoded for the k8s ConfigMap: {base64.b64encode(cfg).decode()}",
        "getUserAccountSettingsByOrganizationId must stay O(1): it runs on every request.",
        "test_recall_budget_packing_v2_handles_10k_memories is slow on CI; keep it under bench.",
        "TETHER_PUSH_FLOOR_CALIBRATION_V2 replaced the old constant in hooks.",
        "Pin aws-sdk-client-s3-v3-presigner to 3.420 until the checksum bug is fixed.",
        f"See https://github.com/acme/payments/blob/{sha()}/src/retry.py#L10-L42 for the original.",
        "The dev server listens on http://localhost:8080/api/v2/users?page=2&per_page=50.",
        "Compose uses postgres://${DB_USER}:${DB_PASSWORD}@db:5432/app from the environment.",
        "The password reset flow sends a one-time token by email; it expires after 15 minutes.",
        'Passwords come from the environment: password = os.environ["DB_PASSWORD"].',
        "Stripe is configured via api_key = settings.STRIPE_API_KEY in billing/client.py.",
        "def login(user: str, password: str) -> bool checks the hash with argon2.",
        "Budgets: max_tokens: 4096 and token_count = 1200 per recall.",
        "Constructing the client with password=None falls back to the keyring.",
        'The README example uses api_key = "<your-api-key>" and token: "YOUR_API_KEY".',
        'Logs mask secrets as password = "********" before shipping.',
        'Tokenization uses tokenizer = "cl100k_base" to count the budget.',
        'The smoke test runs curl -H "Authorization: Bearer $TOKEN" https://api.example.com/health.',
        "Hooks live in server/tether/anchor/queries/python.scm and hooks/user_prompt_submit.py.",
        f'package-lock pins left-pad with "integrity": "sha512-{sri}".',
        f"Image is ghcr.io/acme/api@sha256:{hashlib.sha256(b'img').hexdigest()}.",
        f"pip install --require-hashes with --hash=sha256:{hashlib.sha256(b'pkg').hexdigest()}",
        "The loader expects a PEM file starting with `-----BEGIN PRIVATE KEY-----`; PKCS#1 is rejected.",
        "AWS access key ids start with AKIA (long-lived) or ASIA (STS); the audit script flags both.",
        "GitHub classic tokens start with ghp_ and fine-grained ones with github_pat_.",
        "Timestamps are ISO 8601 like 2024-05-01T12:34:56.789Z, always UTC.",
        "com.example.payments.gateway.StripeWebhookSignatureVerifier rejects stale events.",
        "Go code imports github.com/aws/aws-sdk-go-v2/service/s3 and github.com/jackc/pgx/v5.",
        "parseHTTP2FrameHeaderV3 and Sha256DigestOfNormalizedAst are hot paths.",
        "The design doc is https://docs.google.com/document/d/1aBcD3fGh7IjKlMnOp9QrStUvWxYz0123456789/edit.",
        "Secret: rotate quarterly. Token: see docs/auth.md. API key: configured via environment variable.",
        'The vault path is secret = "prod/db/password" and the key file private_key = "keys/deploy.pem".',
        "version 1.2.3-beta.4+build.5678 broke the lockfile; use 1.2.2.",
        "i18nLocaleResolverForUTF8Strings and k8sPodDisruptionBudgetV1beta1 are generated names.",
        "The secret_name tag and password_min_length = 12 are enforced in accounts/policy.py.",
        "In YAML: password: ${POSTGRES_PASSWORD} and secret: true.",
        "k8s: secretName: db-credentials, secret: db-credentials, token: ${{ secrets.GITHUB_TOKEN }}.",
        "The favicon is inlined as data:image/png;base64,"
        + base64.b64encode(bytes(RNG.randrange(256) for _ in range(48))).decode(),
    ]


SECRETS = _secret_corpus()
NON_SECRETS = _non_secret_corpus()


def test_corpus_sizes():
    assert len(SECRETS) >= 40 and len(NON_SECRETS) >= 40
    kinds = {rule for rule, _, _ in SECRETS}
    assert kinds == set(secrets.RULES), f"rules without a corpus case: {set(secrets.RULES) - kinds}"


@pytest.mark.parametrize("rule,text,secret", SECRETS, ids=[f"{i:02d}-{r}" for i, (r, _, _) in enumerate(SECRETS)])
def test_every_generated_secret_is_found_by_its_rule(rule, text, secret):
    found = scan(text)
    assert found, f"missed {rule}"
    f = found[0]
    assert f.rule == rule
    assert text[f.start : f.end] in secret or secret in text[f.start : f.end]
    assert (f.line, f.column) == _position(text, f.start)


def test_no_false_positives_on_realistic_non_secrets(record_property):
    flagged = [(text, [(f.rule, text[f.start : f.end]) for f in scan(text)]) for text in NON_SECRETS]
    flagged = [x for x in flagged if x[1]]
    record_property("false_positives", len(flagged))
    print(f"\nsecret gate: {len(SECRETS)} secrets, {len(NON_SECRETS)} non-secrets, false positives: {len(flagged)}")
    assert flagged == []


def _position(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset].split("\n")
    return len(before), len(before[-1]) + 1


def test_position_is_line_and_column_of_the_secret():
    token = "ghp_" + rnd(B62, 36)
    text = f"line one\nline two\n  key {token} end"
    [f] = scan(text)
    assert (f.rule, f.line, f.column) == ("github_token", 3, 7)


def test_allowlisted_exact_string_passes_and_others_still_refused():
    allowed, other = key40(1), key40(2)
    allow = parse_allowlist(
        f"# fixture key from the docs\nsha256:{hashlib.sha256(allowed.encode()).hexdigest()}  # ok\n"
    )
    assert scan(f"The doc example key is {allowed}.", allow) == []
    assert [f.rule for f in scan(f"The doc example key is {other}.", allow)] == ["high_entropy"]


def test_allowlisted_rule_is_off_and_generic_rules_do_not_reflag_it():
    text = f"Sample token from the test suite: {jwt()}"
    assert [f.rule for f in scan(text)] == ["jwt"]
    assert scan(text, parse_allowlist("jwt\n")) == []


def test_allowlist_reports_entries_that_mean_nothing():
    allow = parse_allowlist("high_entropy\nno_such_rule\nsha256:abc\n\n# comment\n")
    assert allow.rules == {"high_entropy"}
    assert [n for n, _ in allow.invalid] == [2, 3]


@pytest.mark.parametrize(
    "path,expected",
    [
        (".env", True),
        ("config/.env.production", True),
        (".env.example", False),
        ("certs/server.pem", True),
        ("deploy/prod.key", True),
        ("home/.ssh/id_rsa", True),
        ("id_ed25519", True),
        ("keys/id_ed25519.pub", False),
        (".netrc", True),
        (".pgpass", True),
        (".npmrc", True),
        (".pypirc", True),
        ("gcp/credentials.json", True),
        ("certs/client.p12", True),
        ("win/cert.pfx", True),
        (".aws/credentials", True),
        ("src/keyboard.py", False),
        ("docs/env.md", False),
        ("src/credentials.py", False),
        ("src/monkey.keys.ts", False),
    ],
)
def test_credential_files_are_recognised(path, expected):
    assert (credential_file(path) is not None) == expected


# -- through the real CLI -----------------------------------------------------------------------

CLI_CASES = [SECRETS[i] for i in (0, 5, 9, 17, 22, 26, 28, 32, 40)]


@pytest.fixture
def code_repo(repo):
    repo.write("src/app.py", "def handler(event):\n    return {'ok': True, 'event': event}\n")
    repo.commit("initial")
    return repo


@pytest.mark.parametrize("rule,text,secret", CLI_CASES, ids=[r for r, _, _ in CLI_CASES])
def test_cli_refuses_secret_and_stores_nothing(code_repo, rule, text, secret):
    proc = code_repo.run("remember", text, "--anchor", "src/app.py::handler", "--json", check=False)
    assert proc.returncode == 2
    err = json.loads(proc.stdout)["error"]
    assert err["code"] == "secret_detected"
    assert f"(rule {rule})" in err["message"] and "nothing was stored" in err["message"]
    for leak in (secret, secret[:16], secret[-16:]):
        assert leak not in proc.stdout and leak not in proc.stderr
    assert code_repo.memory_files() == {}


@pytest.mark.parametrize("field", ["summary", "evidence", "tag"])
def test_cli_refuses_secret_in_summary_evidence_and_tags(code_repo, field):
    token = "glpat-" + rnd(B64URL, 20)
    value = {
        "summary": f"uses {token}",
        "evidence": f"curl -H 'PRIVATE-TOKEN: {token}' https://gitlab.example.com",
        "tag": token,
    }[field]
    proc = code_repo.run(
        "remember",
        "The handler echoes the event.",
        "--anchor",
        "src/app.py::handler",
        f"--{field}",
        value,
        "--json",
        check=False,
    )
    err = json.loads(proc.stdout)["error"]
    assert (proc.returncode, err["code"], err["field"]) == (2, "secret_detected", field)
    assert token not in proc.stdout + proc.stderr
    assert code_repo.memory_files() == {}


def test_cli_human_message_names_rule_and_position(code_repo):
    token = "ghp_" + rnd(B62, 36)
    proc = code_repo.run(
        "remember", f"Release flow.\n\nPushes with {token}.", "--anchor", "src/app.py::handler", check=False
    )
    assert proc.returncode == 2
    assert "body line 3 col 13 looks like a GitHub token (rule github_token); nothing was stored" in proc.stderr
    assert token not in proc.stdout + proc.stderr


def test_cli_supersede_refuses_secret_and_keeps_the_old_memory(code_repo):
    mid = code_repo.remember("The handler echoes the event.", "src/app.py::handler")
    before = code_repo.memory_files()
    token = "xoxb-" + rnd(string.digits, 12) + "-" + rnd(B62, 24)
    proc = code_repo.run("supersede", mid, f"It now posts to Slack with {token}.", "--json", check=False)
    assert (proc.returncode, json.loads(proc.stdout)["error"]["code"]) == (2, "secret_detected")
    assert code_repo.memory_files() == before


def test_cli_accepts_non_secrets(code_repo):
    for text in NON_SECRETS[:6]:
        code_repo.remember(text, "src/app.py::handler")
    assert len(code_repo.memory_files()) == 6


def test_cli_import_refuses_an_export_carrying_a_secret(code_repo, tmp_path):
    mid = code_repo.remember("The handler echoes the event.", "src/app.py::handler")
    doc = json.loads(code_repo.run("export").stdout)
    token = "sk_live_" + rnd(B62, 24)
    doc["memories"][0].update(id=str(uuid.uuid4()), body=f"Billing key is {token}.")
    (tmp_path / "export.json").write_text(json.dumps(doc))
    before = code_repo.memory_files()
    proc = code_repo.run("import", str(tmp_path / "export.json"), "--json", check=False)
    err = json.loads(proc.stdout)["data"]["refusals"][0]
    assert (proc.returncode, err["code"], err["rule"]) == (1, "secret_detected", "stripe_key")
    assert token not in proc.stdout + proc.stderr and code_repo.memory_files() == before and mid


def test_cli_allowlist_lets_an_exact_string_through(code_repo):
    token = key40(3)
    text = f"The public test vector key is {token}."
    assert code_repo.run("remember", text, "--anchor", "src/app.py::handler", check=False).returncode == 2
    code_repo.write(
        ".tether/allowlist", f"# test vector from RFC\nsha256:{hashlib.sha256(token.encode()).hexdigest()}\n"
    )
    mid = code_repo.remember(text, "src/app.py::handler")
    assert token in code_repo.json("show", mid)["data"]["memory"]["body"]
