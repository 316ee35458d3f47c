"""The secret gate's rules for credentials that carry their own mark: provider tokens, key blocks, JWTs.

Provider prefixes are the ones the vendors document (gitleaks' rule list maps them); the random
part after a prefix must not be a placeholder (x's, repeats, abc/123 runs, "example"). Listed
first in the table (rules.py): the most specific rules claim their spans before the generic ones.
"""

from __future__ import annotations

import re
from typing import Callable

from tether.store.secrets.checks import decode_b64, fake, looks_random
from tether.store.secrets.rule import Rule

_B = r"(?<![A-Za-z0-9_\-])"  # token start: not inside a longer word
_E = r"(?![A-Za-z0-9_\-])"


def _after(prefix: str) -> Callable[[str], bool]:
    """Valid when what follows the literal prefix (a regex) is not a placeholder."""
    strip = re.compile(prefix)
    return lambda t: not fake(strip.sub("", t, count=1))


def _token(desc: str, prefix: str, body: str, keywords: tuple[str, ...], *, check: str | None = None) -> Rule:
    """A provider token: a literal prefix and a random body, at word boundaries; `check` strips what
    is not the random part (default: the prefix) before the placeholder test."""
    return Rule(desc, re.compile(f"{_B}(?:{prefix}){body}{_E}"), 0, _after(check or f"^(?:{prefix})"), keywords)


def _slack_valid(t: str) -> bool:
    # the ids before the last part are often typed (1234, 5111111); the random part must be real
    parts = re.split(r"-", t.split("-", 1)[1] if "-" in t else t)
    return any(len(p) >= 8 and re.search(r"[A-Za-z]", p) and not fake(p) for p in parts) and not t.endswith("-")


def _jwt_valid(t: str) -> bool:
    """The header decodes to a JSON object naming alg/typ/kid/enc (a garbled value is tolerated)."""
    head = decode_b64(t.split(".", 1)[0])
    return bool(head) and head.startswith(b'{"') and any(k in head for k in (b'"alg"', b'"typ"', b'"kid"', b'"enc"'))  # type: ignore[union-attr, operator]  # bytes here: bool(head) does not narrow for mypy


TOKEN_RULES: dict[str, Rule] = {
    "private_key": Rule(
        "a private key",
        re.compile(
            r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:\s|\\n|[A-Za-z\-]+:[^\n]*)*"
            r"[A-Za-z0-9+/=]{16,}(?:[\s\S]{0,20000}?-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)?"
            r"|PuTTY-User-Key-File-\d:[^\n]*(?:\n[^\n]*){0,12}?\nPrivate-Lines:[ \t]*\d+\n[A-Za-z0-9+/=\n]{16,}"
        ),
        0,
        lambda t: len(re.sub(r"\\n|-----[^-]*-----|[^A-Za-z0-9+/=]", "", t)) >= 32,
        ("private key", "private-lines"),
    ),
    "jwt": Rule(
        "a JSON Web Token",
        re.compile(_B + r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}(?:\.[A-Za-z0-9_\-]*)?"),
        0,
        _jwt_valid,
        ("eyj",),
    ),
    "aws_access_key": _token(
        "an AWS access key id",
        r"AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9]",
        r"[A-Z0-9]{16}",
        ("akia", "asia", "abia", "acca", "a3t"),
    ),
    "aws_secret_key": Rule(
        "an AWS secret access key",
        re.compile(r"(?i)aws.{0,20}?(?:secret|sk).{0,20}?[\s:=\"'>]([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"),
        1,
        lambda v: not fake(v),
        ("aws",),
    ),
    "github_token": _token(
        "a GitHub token",
        r"ghp_|gho_|ghu_|ghs_|ghr_|github_pat_",
        r"[A-Za-z0-9_]{36,255}",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    "gitlab_token": Rule(
        "a GitLab token",
        re.compile(
            _B + r"(?:gl(?:pat|ptt|dt|rt|cbt|soat|ft|ffct|imt|agent|oas)-[A-Za-z0-9_\-]{20,}(?:\.[a-z0-9]{9})?"
            r"|GR1348941[\w\-]{20}|_gitlab_session=[0-9a-z]{32})"
        ),
        0,
        _after(r"^(?:gl[a-z]+-|GR1348941|_gitlab_session=)"),
        ("gl", "gr1348941", "_gitlab_session"),
    ),
    "slack_token": Rule(
        "a Slack token",
        re.compile(_B + r"(?:xox[abposre]|xapp|xoxe\.xox[bp])-[A-Za-z0-9\-]{10,}"),
        0,
        _slack_valid,
        ("xox", "xapp"),
    ),
    "slack_webhook": Rule(
        "a Slack webhook URL",
        re.compile(r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{20,}"),
        0,
        lambda t: not fake(t.rstrip("/").rsplit("/", 1)[-1]),
        ("hooks.slack",),
    ),
    "stripe_key": _token(
        "a Stripe secret key", r"(?:sk|rk)_(?:live|test|prod)_|whsec_", r"[A-Za-z0-9]{10,99}", ("sk_", "rk_", "whsec_")
    ),
    "google_api_key": _token("a Google API key", r"AIza", r"[0-9A-Za-z_\-]{35}", ("aiza",)),
    "google_oauth_secret": _token("a Google OAuth client secret", r"GOCSPX-", r"[A-Za-z0-9_\-]{20,}", ("gocspx",)),
    "anthropic_key": _token("an Anthropic API key", r"sk-ant-", r"[A-Za-z0-9_\-]{20,}", ("sk-ant",)),
    "openai_key": Rule(
        "an OpenAI-style API key",
        re.compile(_B + r"sk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_\-]{20,})"),
        0,
        lambda t: looks_random(re.sub(r"^sk-(?:proj-|svcacct-|admin-)?", "", t)) or "T3BlbkFJ" in t,
        ("sk-",),
    ),
    "npm_token": _token("an npm token", r"npm_", r"[A-Za-z0-9]{36}", ("npm_",)),
    "pypi_token": _token("a PyPI token", r"pypi-AgE", r"[A-Za-z0-9_\-]{50,}", ("pypi-",)),
    "huggingface_token": _token("a Hugging Face token", r"hf_|api_org_", r"[A-Za-z]{34}", ("hf_", "api_org_")),
    "azure_client_secret": Rule(
        "an Azure AD client secret",
        re.compile(r"(?<![A-Za-z0-9_~.\-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}(?![A-Za-z0-9_~.\-])"),
        0,
        lambda t: not fake(t[6:]),
        ("q~",),
    ),
    "age_secret_key": _token(
        "an age encryption secret key",
        r"AGE-SECRET-KEY-1",
        r"[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        ("age-secret-key",),
    ),
    "onepassword_key": Rule(
        "a 1Password secret key or service-account token",
        re.compile(
            _B + r"(?:A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}"
            r"|ops_eyJ[A-Za-z0-9+/]{250,}={0,3})" + _E
        ),
        0,
        _after(r"^(?:A3-|ops_eyJ)"),
        ("a3-", "ops_eyj"),
    ),
    "adobe_client_secret": _token("an Adobe client secret", r"p8e-", r"[A-Za-z0-9]{32}", ("p8e-",)),
    "alibaba_access_key": _token("an Alibaba Cloud AccessKey id", r"LTAI", r"[A-Za-z0-9]{20}", ("ltai",)),
    "artifactory_token": _token(
        "a JFrog Artifactory API key or reference token", r"AKCp|cmVmd", r"[A-Za-z0-9]{59,69}", ("akcp", "cmvmd")
    ),
    "atlassian_token": _token("an Atlassian API token", r"ATATT3", r"[A-Za-z0-9_\-=]{186}", ("atatt3",)),
    "clojars_token": _token("a Clojars deploy token", r"CLOJARS_", r"[A-Za-z0-9]{60}", ("clojars_",)),
    "cloudflare_key": _token("a Cloudflare Origin CA key", r"v1\.0-", r"[a-f0-9]{24}-[a-f0-9]{146}", ("v1.0-",)),
    "databricks_token": _token("a Databricks API token", r"dapi", r"[a-f0-9]{32}(?:-\d)?", ("dapi",)),
    "digitalocean_token": _token("a DigitalOcean token", r"do[opr]_v1_", r"[a-f0-9]{64}", ("_v1_",)),
    "doppler_token": _token("a Doppler token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.", r"[A-Za-z0-9]{40,44}", ("dp.",)),
    "dynatrace_token": _token("a Dynatrace API token", r"dt0c01\.", r"[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}", ("dt0c01",)),
    "easypost_key": _token("an EasyPost API key", r"EZ[AT]K", r"[A-Za-z0-9]{54}", ("ezak", "eztk")),
    "facebook_token": _token("a Facebook page access token", r"EAA[MC]", r"[A-Za-z0-9]{100,}", ("eaa",)),
    "flyio_token": _token("a Fly.io token", r"fo1_|fm1[ar]_|fm2_", r"[\w\-+/]{43,}={0,3}", ("fo1_", "fm1", "fm2_")),
    "grafana_token": _token(
        "a Grafana API key or token",
        r"eyJrIjoi|glc_|glsa_",
        r"[A-Za-z0-9+/_]{32,400}={0,3}",
        ("eyjrijoi", "glc_", "glsa_"),
    ),
    "groq_key": _token("a Groq API key", r"gsk_", r"[A-Za-z0-9]{52}", ("gsk_",)),
    "heroku_key": _token("a Heroku API key", r"HRKU-AA", r"[0-9A-Za-z_\-]{58}", ("hrku-",)),
    "linear_key": _token("a Linear API key", r"lin_api_", r"[A-Za-z0-9]{40}", ("lin_api_",)),
    "mailchimp_key": _token("a Mailchimp API key", r"", r"[a-f0-9]{32}-us\d{1,2}", ("-us",), check=r"-us\d+$"),
    "mailgun_key": _token("a Mailgun API key", r"key-", r"[a-f0-9]{32}", ("key-",)),
    "mapbox_secret_token": _token(
        "a Mapbox secret token", r"sk\.eyJ", r"[A-Za-z0-9_\-]{50,}\.[A-Za-z0-9_\-]{20,}", ("sk.eyj",)
    ),
    "newrelic_key": _token(
        "a New Relic key", r"NRAK-|NRII-|NRJS-", r"[A-Za-z0-9\-]{19,32}", ("nrak-", "nrii-", "nrjs-")
    ),
    "notion_token": _token("a Notion integration token", r"ntn_", r"\d{11}[A-Za-z0-9]{35}", ("ntn_",)),
    "openshift_token": _token("an OpenShift user token", r"sha256~", r"[\w\-]{43}", ("sha256~",)),
    "perplexity_key": _token("a Perplexity API key", r"pplx-", r"[A-Za-z0-9]{48}", ("pplx-",)),
    "planetscale_token": _token(
        "a PlanetScale token or password", r"pscale_(?:tkn|oauth|pw)_", r"[\w=.\-]{32,64}", ("pscale_",)
    ),
    "postman_key": _token("a Postman API key", r"PMAK-", r"[a-fA-F0-9]{24}-[a-fA-F0-9]{34}", ("pmak-",)),
    "prefect_key": _token("a Prefect API key", r"pnu_", r"[A-Za-z0-9]{36}", ("pnu_",)),
    "pulumi_token": _token("a Pulumi access token", r"pul-", r"[a-f0-9]{40}", ("pul-",)),
    "readme_key": _token("a ReadMe API key", r"rdme_", r"[a-z0-9]{70}", ("rdme_",)),
    "rubygems_key": _token("a RubyGems API key", r"rubygems_", r"[a-f0-9]{48}", ("rubygems_",)),
    "scalingo_token": _token("a Scalingo API token", r"tk-us-", r"[\w\-]{48}", ("tk-us-",)),
    "sendgrid_key": _token("a SendGrid API key", r"SG\.", r"[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}", ("sg.",)),
    "sendinblue_key": _token(
        "a Sendinblue (Brevo) API key", r"xkeysib-", r"[a-f0-9]{64}-[A-Za-z0-9]{16}", ("xkeysib-",)
    ),
    "sentry_token": _token("a Sentry token", r"sntryu_|sntrys_eyJ", r"[A-Za-z0-9+/=_]{43,}", ("sntry",)),
    "shopify_token": _token(
        "a Shopify access token or shared secret", r"shp(?:at|ca|pa|ss)_", r"[a-fA-F0-9]{32}", ("shp",)
    ),
    "sourcegraph_token": _token(
        "a Sourcegraph access token", r"sgp_(?:[a-fA-F0-9]{16}_|local_)?", r"[a-fA-F0-9]{40}", ("sgp_",)
    ),
    "square_token": _token(
        "a Square access token or secret", r"EAAA|sq0atp-|sq0csp-", r"[\w\-]{22,60}", ("eaaa", "sq0atp-", "sq0csp-")
    ),
    "telegram_bot_token": _token("a Telegram bot token", r"\d{5,16}:A", r"[A-Za-z0-9_\-]{34}", (":a",), check=r"^\d+:"),
    "terraform_token": _token(
        "a Terraform Cloud / HashiCorp API token",
        r"[A-Za-z0-9]{14}\.atlasv1\.",
        r"[A-Za-z0-9\-_=]{60,70}",
        ("atlasv1",),
    ),
    "twilio_key": _token("a Twilio API key", r"SK", r"[0-9a-fA-F]{32}", ("sk",)),
    "vault_token": _token(
        "a HashiCorp Vault token", r"hvs\.[\w\-]{90,120}|hvb\.[\w\-]{138,300}", "", ("hvs.", "hvb."), check=r"^hv[sb]\."
    ),
}
