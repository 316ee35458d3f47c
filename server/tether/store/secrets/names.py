"""Credential names for the secret gate: does `name = value` say the value is a credential?

`secret_name` splits a variable or field name into words and weighs them: a password word, a key
or token word, a qualifier before `key`; a trailing word that names metadata (`_url`, `_length`)
or a word that says the value is not secret (`public`, `csrf`) clears it. Stdlib only.
"""

from __future__ import annotations

import re

_STRONG = ("password", "passwd", "passphrase", "passcode", "secret", "pwd")
_KEYISH = (
    "token",
    "apikey",
    "credential",
    "credentials",
    "creds",
    "auth",
    "authkey",
    "privatekey",
    "accesskey",
    "secretkey",
    "signingkey",
    "encryptionkey",
    "masterkey",
    "clientsecret",
    "accountkey",
    "sas",
    "apitoken",
)
_KEY_QUALIFIERS = {
    "api",
    "access",
    "secret",
    "private",
    "signing",
    "encryption",
    "master",
    "account",
    "client",
    "auth",
    "app",
    "service",
    "license",
    "consumer",
    "hmac",
    "jwt",
    "session",
    "storage",
    "shared",
    "admin",
    "root",
    "deploy",
    "bot",
    "integration",
    "webhook",
    "write",
    "read",
    "ingest",
    "sdk",
    "server",
    "global",
    "live",
    "prod",
    "cloud",
    "iam",
    "user",
    "dev",
}
_META = {
    "id",
    "ids",
    "uuid",
    "guid",
    "name",
    "names",
    "type",
    "types",
    "kind",
    "length",
    "len",
    "size",
    "count",
    "num",
    "number",
    "min",
    "max",
    "limit",
    "url",
    "uri",
    "urls",
    "endpoint",
    "endpoints",
    "host",
    "path",
    "file",
    "filename",
    "files",
    "dir",
    "location",
    "format",
    "prefix",
    "suffix",
    "pattern",
    "regex",
    "field",
    "fields",
    "label",
    "header",
    "param",
    "params",
    "version",
    "ttl",
    "expiry",
    "expires",
    "expiration",
    "timeout",
    "lifetime",
    "policy",
    "rotation",
    "enabled",
    "required",
    "mode",
    "provider",
    "source",
    "manager",
    "ref",
    "env",
    "var",
    "variable",
    "hint",
    "hash",
    "hashed",
    "digest",
    "checksum",
    "fingerprint",
    "sha",
    "md5",
    "alias",
    "index",
    "column",
    "placeholder",
    "description",
    "help",
    "text",
    "message",
    "template",
    "generator",
    "validator",
    "strength",
    "complexity",
    "schema",
    "scope",
    "scopes",
    "algorithm",
    "alg",
    "encoding",
    "method",
    "spec",
    "handler",
    "callback",
    "selector",
    "store",
    "vault",
    "reset",
    "changed",
    "confirmation",
    "confirm",
    "hashing",
    "salt",
    "rounds",
    "cost",
    "flag",
    "option",
}
_NOT_SECRET = {
    "public",
    "publishable",
    "pub",
    "csrf",
    "xsrf",
    "authenticity",
    "nonce",
    "page",
    "next",
    "cursor",
    "pagination",
    "continuation",
    "sync",
    "resume",
    "tokenizer",
    "author",
    "authors",
    "authority",
    "authentication",
    "oauth",
    "bypass",
    "compass",
    "passenger",
    "passport",
    "passive",
    "keyword",
    "keywords",
    "keyboard",
    "monkey",
    "turkey",
    "donkey",
    "keying",
    "tokenize",
    "tokenized",
}
_SPLIT_NAME = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def name_words(name: str) -> list[str]:
    return [w.lower() for part in re.split(r"[^A-Za-z0-9]+", name) for w in _SPLIT_NAME.findall(part)]


def _word_kind(w: str) -> int:
    """2: a password word, 1: a key/token word, 0: neither."""
    if w in _NOT_SECRET:
        return 0
    if w in ("secrets", "tokens", "passwords", "keys"):
        return 0  # a container of them (`keyVaultToStoreSecrets`, `max_tokens`), not one
    if (
        w in _STRONG
        or "password" in w
        or "passwd" in w
        or w.endswith(("pass", "secret", "pwd"))
        or w.startswith("secret")
    ):
        return 2
    if w in _KEYISH or "apikey" in w or w.endswith(("token", "apikey", "secretkey", "privatekey", "accesskey")):
        return 1
    return 0


def secret_name(name: str) -> int:
    """How strongly a variable/field name says its value is a credential: 2 password, 1 key/token, 0 not."""
    words = name_words(name.split(".")[-1] if "." in name and not name.endswith(".") else name)
    if not words or any(w in _NOT_SECRET for w in words):
        return 0
    kinds = [_word_kind(w) for w in words]
    if not any(kinds):
        # `api_key`, `AccessKey`, `CLIENT_SECRET_KEY`: a qualifier followed by `key`
        pairs = [i for i in range(1, len(words)) if words[i] in ("key", "keys") and words[i - 1] in _KEY_QUALIFIERS]
        if not pairs:
            return 0
        last = pairs[-1]
        kinds = [0] * len(words)
        kinds[last] = 1
    strongest = max(range(len(words)), key=lambda i: (kinds[i], i))
    tail = [w for w in words[strongest + 1 :] if not w.isdigit()]
    if tail and tail[-1] in _META:
        return 0  # password_min_length, secret_name, token_url, private_key_id
    return max(kinds)
