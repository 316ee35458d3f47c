"""One error hierarchy with stable codes; the CLI, MCP and hooks each translate it once."""

from __future__ import annotations


class TetherError(Exception):
    """Base error: `code` is stable and documented, `message` is one line for humans."""

    code = "error"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message.replace("\n", " ")
        self.details = details

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, **self.details}


class InvalidInput(TetherError):
    code = "invalid_input"


class InvalidSpec(TetherError):
    code = "invalid_spec"


class NotFound(TetherError):
    code = "not_found"


class OutsideRoot(TetherError):
    code = "outside_root"


class UnsupportedLanguage(TetherError):
    code = "unsupported_language"


class BinaryFile(TetherError):
    code = "binary_file"


class FileTooLarge(TetherError):
    code = "file_too_large"


class InvalidEncoding(TetherError):
    code = "invalid_encoding"


class MalformedFile(TetherError):
    """A config file that does not parse: its keys cannot be anchored until it does."""

    code = "malformed_file"


class AnchorUnresolved(TetherError):
    code = "anchor_unresolved"


class AnchorAmbiguous(TetherError):
    code = "anchor_ambiguous"


class Duplicate(TetherError):
    code = "duplicate"


class SecretDetected(TetherError):
    code = "secret_detected"


class StoreCorrupt(TetherError):
    code = "store_corrupt"


class Conflict(TetherError):
    """A write lost a race or targets a closed memory."""

    code = "conflict"


class InternalError(TetherError):
    """A bug in tether, not in the input."""

    code = "internal"
