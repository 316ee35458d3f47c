"""The whole-file hash (`c1:`), apart from the extraction machinery: an index refreshing a file
whose stat changed but whose bytes did not (a `touch`, a checkout) needs only this."""

from __future__ import annotations

try:  # the C module behind hashlib.blake2b, without hashlib's OpenSSL load (ms per process)
    from _blake2 import blake2b
except ImportError:  # an interpreter built without it
    from hashlib import blake2b

CONTENT_PREFIX = "c1:"


def content_hash(data: bytes) -> str:
    """Whole-file hash; line endings normalized so a checkout with autocrlf is not an edit."""
    return CONTENT_PREFIX + blake2b(data.replace(b"\r\n", b"\n"), digest_size=16).hexdigest()


def bytes_hash(data: bytes) -> bytes:
    """The bytes exactly as they are (no normalizing): whether a file is the one read before."""
    return blake2b(data, digest_size=16).digest()
