"""`Record`: the base of tether's frozen value types (a memory, an anchor, a symbol, a verdict).

They were frozen dataclasses, and building the eight of them cost ~5 ms of every process's start
(`dataclass` compiles each method it writes: a `Memory` alone took 1.1 ms), about a tenth of a
`tether check`. A subclass lists its fields in `__slots__` (their order is the positional order)
and writes its `__init__`, which hands every value to `_fill` in that order; this class gives it
what the dataclass gave: equality and hashing by value, a repr, `replace`, pickling, and no
assignment after `__init__`.
"""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every hook
if TYPE_CHECKING:
    from typing import Any, TypeVar

    R = TypeVar("R", bound="Record")


class FrozenInstanceError(AttributeError):
    """An assignment to a Record's field after `__init__` (dataclasses' error of that name; not
    imported from there: the prompt hook's silent path loads neither dataclasses nor inspect)."""


class Record:
    __slots__ = ()
    _get: attrgetter[tuple]  # every field's value, in order (set per subclass)

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        names = cls.__slots__
        if isinstance(names, str) or len(names) < 2:  # attrgetter of one name gives no tuple
            raise TypeError(f"{cls.__name__}: a Record lists two fields or more in __slots__")
        cls._get = attrgetter(*names)

    def _fill(self, *values: object) -> None:
        """Set every field, in the order of `__slots__` (the only assignment a Record takes)."""
        names: tuple[str, ...] = self.__slots__
        for name, value in zip(names, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def values(self) -> tuple:
        """Every field's value, in the order of `__slots__`."""
        return self._get(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._get(self) == self._get(other)

    def __hash__(self) -> int:
        return hash(self._get(self))

    def __repr__(self) -> str:
        pairs = ", ".join(f"{k}={v!r}" for k, v in self.fields().items())
        return f"{self.__class__.__qualname__}({pairs})"

    def __reduce__(self) -> tuple:
        return self.__class__, self._get(self)

    def fields(self) -> dict[str, Any]:
        """Every field by name, values as they are (not copied)."""
        names: tuple[str, ...] = self.__slots__
        return dict(zip(names, self._get(self)))

    def replace(self: R, **changes: Any) -> R:
        """A copy with `changes`; an unknown name is a TypeError, as `dataclasses.replace` has it."""
        return self.__class__(**(self.fields() | changes))
