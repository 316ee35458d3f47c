"""Binding an anchor spec to the code as it is now: refuse loudly, list typeable forms."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable
from pathlib import Path

from tether.anchor.config import match_keys, near_keys
from tether.anchor.disc import canonical
from tether.anchor.extract import CONFIG_KIND_NAMES, DOC_KINDS
from tether.anchor.locator import locator
from tether.anchor.markdown import match_sections
from tether.anchor.model import Symbol
from tether.anchor.overloads import implementation
from tether.anchor.spec import AnchorSpec, parse_spec
from tether.errors import (
    AnchorAmbiguous,
    AnchorUnresolved,
    BinaryFile,
    FileTooLarge,
    InvalidEncoding,
    InvalidInput,
    MalformedFile,
    SecretDetected,
    UnsupportedLanguage,
)
from tether.files.paths import repo_relative
from tether.files.private import credential_file
from tether.index.code_index import CodeIndex
from tether.store.model import Anchor
from tether.store.validate import MAX_ANCHORS, MAX_SPEC_CHARS

_SKIPPED = {
    "binary": (BinaryFile, "is a binary file: anchor the whole file instead ({path})"),
    "too_large": (FileTooLarge, "is larger than 1 MB and is not parsed: anchor the whole file instead ({path})"),
    "encoding": (InvalidEncoding, "is not valid UTF-8 and is not parsed: anchor the whole file instead ({path})"),
    "syntax": (MalformedFile, "does not parse{where}: fix it to anchor its keys, or anchor the whole file ({path})"),
    "generated": (
        UnsupportedLanguage,
        "is a generated lock file: anchor the manifest it comes from, or the whole file ({path})",
    ),
    "error": (UnsupportedLanguage, "could not be parsed: anchor the whole file instead ({path})"),
}


def _syntax_error_at(index: CodeIndex, rel: str) -> str:
    """` as YAML (line 3)`: where a config file first stops parsing, for the refusal message."""
    from tether.anchor.config_formats import first_error
    from tether.anchor.extract import kind_of

    kind = kind_of(rel) or ""
    text = index.read_text(rel)
    line = first_error(kind, text.encode("utf-8")) if text is not None else None
    return f" as {kind.upper()}" + (f" (line {line})" if line else "")


FEW_NAMES = 12  # a refusal lists every name of a file that has at most this many


def near_names(wanted: str, names: Iterable[str], limit: int = 5) -> list[str]:
    """The names a mistyped one probably meant, best first: the same name in another case (or as
    the tail of a qualified name), then look-alikes, case ignored."""
    names = sorted(set(names))
    low = wanted.lower()
    same = [n for n in names if n.lower() == low or n.lower().rsplit(".", 1)[-1] == low.rsplit(".", 1)[-1]]
    lowered: dict[str, list[str]] = {}
    for n in names:
        lowered.setdefault(n.lower(), []).append(n)
    alike = [n for m in difflib.get_close_matches(low, list(lowered), n=limit, cutoff=0.5) for n in lowered[m]]
    return list(dict.fromkeys(same + alike))[:limit]


def typeable(spec_type: str, path: str, s: Symbol, twins: bool) -> str:
    return locator(spec_type, path, s.qualname, (s.discriminator or "") if twins else None)


def bind_all(index: CodeIndex, root: Path, specs: Iterable[str], cwd: str | None = None) -> list[tuple[Anchor, str]]:
    """Each typed spec bound now (`bind`), in order, once each: a memory's anchors."""
    specs = list(specs)
    if not specs:
        raise InvalidInput("at least one anchor is required: a memory is anchored to the code it describes")
    if len(specs) > MAX_ANCHORS or any(len(s) > MAX_SPEC_CHARS for s in specs):
        raise InvalidInput(f"at most {MAX_ANCHORS} anchors of at most {MAX_SPEC_CHARS} characters each")
    unique: dict[tuple, tuple[Anchor, str]] = {}
    for a, text in (_bind_pasted(index, root, s, cwd) for s in specs):
        unique.setdefault((a.type, a.path, a.symbol, a.discriminator), (a, text))
    return list(unique.values())


_LINE_SUFFIX = re.compile(r":[0-9]+$")


def _bind_pasted(index: CodeIndex, root: Path, text: str, cwd: str | None) -> tuple[Anchor, str]:
    """`bind`, also for a locator pasted as `ls`/`check`/`recall` print it, with its line
    (`a.py::f:953`, `doc.rst#A/B:45`): the suffix is dropped only when the spec as typed names
    nothing and the spec without it names something (a heading `Step:2` stays itself)."""
    try:
        return bind(index, root, parse_spec(text), cwd)
    except AnchorUnresolved as e:
        bare = _LINE_SUFFIX.sub("", text.strip())
        if bare == text.strip():
            raise
        unresolved = e
    try:
        return bind(index, root, parse_spec(bare), cwd)
    except AnchorUnresolved:
        raise unresolved from None


def bind(index: CodeIndex, root: Path, spec: AnchorSpec, cwd: str | None = None) -> tuple[Anchor, str]:
    """The anchor for `spec` now, and the text it covers (kept for later diffs)."""
    rel = repo_relative(root, spec.path, cwd)
    why = credential_file(rel)
    if why:  # an anchor keeps a snippet of its text in the cache and diffs show it: never a credential file
        raise SecretDetected(
            f"{rel} is {why}: credential files cannot be anchored; nothing was stored",
            reason="credential_file",
            path=rel,
        )
    row = index.file(rel)
    if row is None:
        full = root / rel
        if full.is_symlink():
            target = Path(os.path.realpath(full)).relative_to(root).as_posix()
            raise InvalidInput(f"{rel} is a symbolic link: anchor the file it points to ({target})", path=rel)
        if full.exists() and not full.is_file():
            raise InvalidInput(f"{rel} is not a regular file", path=rel)
        raise AnchorUnresolved(f"{spec}: file {rel!r} does not exist", reason="file_missing", path=rel)
    if spec.type == "file":
        text = index.read_text(rel) if row.skipped != "binary" else None
        return Anchor("file", rel, row.hash, row.size, language=row.language), text or ""
    if row.skipped in _SKIPPED:
        err, msg = _SKIPPED[row.skipped]
        where = _syntax_error_at(index, rel) if row.skipped == "syntax" else ""
        raise err(f"{rel} " + msg.format(path=rel, where=where), path=rel)
    _check_kind(spec, rel, row.language)
    symbols = index.symbols(rel)
    spec = _at_in_name(spec, rel, symbols, row.language)
    named = _by_name(symbols, spec.name or "", row.language)
    if not named:
        what = {"key": "key", "section": "section or table row"}.get(spec.type, "symbol")
        names = {s.qualname for s in symbols}
        if spec.type == "key":
            best = near_keys(symbols, spec.name or "")
        else:
            best = near_names(spec.name or "", names)
        rest = sorted(names - set(best)) if len(names) <= FEW_NAMES else []
        hint = f"; did you mean {', '.join(best)}?" if best else ""
        if rest:
            hint += f" It also has {', '.join(rest)}." if best else f"; it has {', '.join(rest)}"
        elif not names:
            hint += f"; it has no {what} tether can anchor"
        raise AnchorUnresolved(
            f"{spec}: no {what} {spec.name!r} in {rel}{hint}",
            reason=f"{what.split()[0]}_missing",
            path=rel,
            near=best + rest,
        )
    if spec.discriminator is not None:
        chosen = [s for s in named if _disc_equal(spec.discriminator, s.discriminator)]
        if not chosen:
            forms = [typeable(spec.type, rel, s, True) for s in named]
            raise AnchorUnresolved(
                f"{spec}: no twin with discriminator {spec.discriminator!r}; one of: {', '.join(forms)}",
                reason="discriminator_missing",
                candidates=forms,
            )
        named = chosen
    names = {s.qualname for s in named}
    if len(named) > 1 and len(names) == 1 and spec.discriminator is None:
        named = implementation(row.language, named, lambda s: index.read_text(rel, s.start_byte, s.end_byte))
    if len(named) > 1:
        twins = len(names) == 1
        forms = [typeable(spec.type, rel, s, twins or _has_twin(symbols, s)) for s in named]
        raise AnchorAmbiguous(f"{spec} matches {len(named)} symbols: {', '.join(forms)}", candidates=forms)
    s = named[0]
    has_twin = _has_twin(symbols, s)
    text = index.read_text(rel, s.start_byte, s.end_byte) or ""
    # a discriminator is stored only where twins make it necessary; resolution treats it as a tie-break
    disc = s.discriminator if has_twin else None
    return Anchor(spec.type, rel, s.hash, s.end_byte - s.start_byte, s.qualname, disc, row.language), text


def _at_in_name(spec: AnchorSpec, rel: str, symbols: list[Symbol], kind: str | None) -> AnchorSpec:
    """A spec whose `@` is part of a name (Bash allows `function deploy@prod`): the symbol spelled
    so, unless the `@` also reads as a discriminator naming a twin (`deploy@` beside `deploy`):
    then it could mean either, and is refused rather than guessed."""
    if spec.type != "symbol" or spec.discriminator is None:
        return spec
    whole = f"{spec.name}@{spec.discriminator}"
    literal = [s for s in symbols if s.qualname == whole]
    if not literal:
        return spec
    twins = [s for s in _by_name(symbols, spec.name or "", kind) if _disc_equal(spec.discriminator, s.discriminator)]
    if twins:
        forms = [typeable(spec.type, rel, s, _has_twin(symbols, s)) for s in twins]
        raise AnchorAmbiguous(
            f"{spec} names both the symbol {whole!r} and {', '.join(forms)}: rename one to anchor it",
            candidates=[locator(spec.type, rel, whole, None), *forms],
        )
    return AnchorSpec(spec.type, spec.path, whole)


def _check_kind(spec: AnchorSpec, rel: str, kind: str | None) -> None:
    """Refuse a spec whose form does not fit the file: `#` needs Markdown or config, `::` code."""
    if spec.type == "key" and kind not in CONFIG_KIND_NAMES:
        msg = f"config key anchors are for JSON, YAML and TOML files, not {rel}: anchor the whole file"
    elif spec.type == "section" and kind not in DOC_KINDS:
        msg = f"section anchors are for Markdown and reStructuredText files, not {rel}: anchor the whole file"
    elif spec.type == "symbol" and kind in CONFIG_KIND_NAMES | DOC_KINDS:
        form = "#Heading/Sub" if kind in DOC_KINDS else "#key.path"
        msg = f"{rel} has no code symbols: anchor a part of it as {rel}{form}, or the whole file"
    elif spec.type == "symbol" and kind is None:
        msg = f"no symbol support for {rel!r} (unknown language): anchor the whole file instead"
    else:
        return
    raise UnsupportedLanguage(msg, path=rel)


def _has_twin(symbols: list[Symbol], s: Symbol) -> bool:
    return sum(1 for o in symbols if o.qualname == s.qualname) > 1


def _disc_equal(typed: str, stored: str | None) -> bool:
    if typed == "":
        return stored is None
    return canonical(typed) == canonical(stored)


def _by_name(symbols: list[Symbol], name: str, kind: str | None) -> list[Symbol]:
    """Exact qualified name first; then a unique-by-suffix match (`bar` for `Foo.bar`)."""
    if kind in DOC_KINDS:
        return match_sections(symbols, name)
    if kind in CONFIG_KIND_NAMES:
        return match_keys(symbols, name)
    for typed in dict.fromkeys((name, _dotted(name))):
        exact = [s for s in symbols if s.qualname == typed]
        if exact:
            return exact
        tail = [s for s in symbols if s.qualname.endswith("." + typed)]
        if tail:
            return tail
    return []


_SCOPE_SEPARATOR = re.compile(r"::|(?<=\w)[#:](?=\w)|->")


def _dotted(name: str) -> str:
    """How other languages spell a member, read as tether's dots: C++/PHP/Rust `A::b`, Ruby `A#b`,
    Lua `M:f`, PHP `$this->x` is not a name but `A->b` is read the same way."""
    return _SCOPE_SEPARATOR.sub(".", name)
