"""Files that hold credentials: never anchored, since an anchor keeps snippets of the text.

Apart from the secret gate's rules so that binding an anchor (every `check`, every hook) does not
pay for compiling them.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

_CREDENTIAL_NAMES = {
    ".netrc", "_netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", ".dockercfg", ".htpasswd",
    ".vault-token", "credentials.json", "credentials.db", "terraform.tfstate", "terraform.tfstate.backup",
}
_CREDENTIAL_SUFFIXES = (".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".kdbx", ".tfvars")
_CREDENTIAL_PATHS = (".aws/credentials", ".docker/config.json", ".kube/config", ".ssh/")
_TEMPLATE_SUFFIXES = (".example", ".sample", ".template", ".dist")  # committed by design, no values


def credential_file(rel: str) -> str | None:
    """Why a repo-relative path is a credential file, or None."""
    p = PurePosixPath(rel)
    name = p.name.lower()
    if name == ".env" or (name.startswith(".env.") and not name.endswith(_TEMPLATE_SUFFIXES)):
        return "an environment file (.env)"
    if re.match(r"id_(?:rsa|dsa|ecdsa|ed25519)(?!.*\.pub$)", name):
        return "an SSH private key"
    if name in _CREDENTIAL_NAMES or re.fullmatch(r"client_secrets?[\w.\-]*\.json", name):
        return f"a credentials file ({name})"
    if name.endswith(_CREDENTIAL_SUFFIXES):
        return f"a key or certificate store (*{p.suffix.lower()})"
    low = "/" + rel.lower()
    if any(f"/{c}" in low and (c.endswith("/") or low.endswith("/" + c)) for c in _CREDENTIAL_PATHS):
        return "a credentials file"
    return None
