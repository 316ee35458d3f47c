"""Paths that are never anchored: credential files, and git's and tether's own directories.

An anchor keeps snippets of its text in the cache, and `check`, `report` and the MCP tools show
its diff, so a memory anchored to `.env` or `.git/config` would print their secrets to whoever
reads it. Typed anchors are refused here, and a memory file that arrives through git with such an
anchor is quarantined. Apart from the secret gate's rules, and stdlib `re` and `posixpath` only,
so that reading a memory (every `check`, every hook) does not pay for compiling those.
"""

from __future__ import annotations

import posixpath
import re

# Directories whose files are never anchored, at any depth and in any letter case: a nested
# clone's `.git/config` holds its remote's token as well, and `.GIT` is `.git` on macOS.
PRIVATE_DIRS = frozenset({".git", ".tether"})

_CREDENTIAL_NAMES = {
    ".netrc",
    "_netrc",
    ".pgpass",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    ".dockercfg",
    ".htpasswd",
    ".vault-token",
    "credentials.json",
    "credentials.db",
    "terraform.tfstate",
    "terraform.tfstate.backup",
    ".envrc",
    ".my.cnf",
    "kubeconfig",
    "wp-config.php",
    "secrets.yml",
    "secrets.yaml",
    "secrets.toml",
    "secrets.json",
    ".boto",
    ".s3cfg",
    "master.key",
}
_CREDENTIAL_SUFFIXES = (".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".kdbx", ".tfvars", ".env")
_CREDENTIAL_PATHS = (".aws/credentials", ".docker/config.json", ".kube/config", ".ssh/", ".gnupg/")
_TEMPLATE_SUFFIXES = (".example", ".sample", ".template", ".dist")  # committed by design, no values
_SERVICE_ACCOUNT = re.compile(r"(?:client_secrets?|service[_\-]?account)[\w.\-]*\.json")


def private_path(rel: str) -> str | None:
    """Why a repo-relative path may not be anchored, or None."""
    parts = rel.split("/")
    hidden = next((p for p in parts[:-1] if p.casefold() in PRIVATE_DIRS), None)
    if hidden is not None or parts[-1].casefold() in PRIVATE_DIRS:
        return f"inside {hidden or parts[-1]}/, which is git's or tether's own"
    return credential_file(rel)


def credential_file(rel: str) -> str | None:
    """Why a repo-relative path is a credential file, or None."""
    name = posixpath.basename(rel).lower()
    if name.endswith(_TEMPLATE_SUFFIXES):
        return None
    if name == ".env" or name.startswith(".env.") or name.endswith(".env"):
        return "an environment file (.env)"
    if re.match(r"id_(?:rsa|dsa|ecdsa|ed25519)(?!.*\.pub$)", name):
        return "an SSH private key"
    if name in _CREDENTIAL_NAMES or _SERVICE_ACCOUNT.fullmatch(name):
        return f"a credentials file ({name})"
    if name.endswith(_CREDENTIAL_SUFFIXES):
        return f"a key or certificate store (*{posixpath.splitext(name)[1]})"
    low = "/" + rel.lower()
    if any(f"/{c}" in low and (c.endswith("/") or low.endswith("/" + c)) for c in _CREDENTIAL_PATHS):
        return "a credentials file"
    return None
