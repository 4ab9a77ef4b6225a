"""Records: the protocol's small value types, with what @dataclass gives them, without it.

Why not @dataclass: importing `dataclasses` imports `inspect` (with ast, dis, tokenize),
and making each dataclass compiles its methods with exec: together about ten
milliseconds, a quarter of a whole `pbem verify` of a move file (bench/startup.py), for
types the rules never need to see built. A record class names its fields in order
(`fields=`), and writes its own `__init__`, which stores the fields straight into the
instance's __dict__ (three times faster than a frozen dataclass's __init__: an Action
and an RNG record are made for every entry of a log). This base gives the rest, as
@dataclass(frozen=True) does: equality and hash on the compared fields (same class
only), the same repr, `__match_args__`, assignment and deletion refused, and `replace`.
`MutableRecord` is @dataclass without frozen: equality and repr, no hash.

Instances keep their fields in __dict__, as dataclass instances do, so copy, deepcopy
and pickle work unchanged (they set __dict__ directly, never through __setattr__).
"""

from __future__ import annotations

from _thread import get_ident

# (mypy reads the block below; Python never runs it: typing is a tenth of a fast start)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar
    from typing import NamedTuple as NamedTuple

_IN_REPR: set[tuple[int, int]] = set()  # (id of the record, thread) whose repr is being made


class FrozenInstanceError(AttributeError):
    """An assignment to a field of a frozen record (dataclasses' FrozenInstanceError)."""


class _Base:
    _fields: ClassVar[tuple[str, ...]] = ()
    _compared: ClassVar[tuple[str, ...]] = ()
    _shown: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(
        cls,
        fields: tuple[str, ...] = (),
        hidden: tuple[str, ...] = (),
        uncompared: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> None:
        """`fields` in the order of __init__; `hidden`: not in the repr; `uncompared`: not
        in equality nor hash (as field(repr=False) and field(compare=False))."""
        super().__init_subclass__(**kwargs)
        cls._fields = fields
        cls._shown = tuple(name for name in fields if name not in hidden)
        cls._compared = tuple(name for name in fields if name not in uncompared)
        type.__setattr__(
            cls, "__match_args__", fields
        )  # (positional patterns: case Prompt(role, _))

    def _values(self) -> tuple[Any, ...]:
        return tuple([self.__dict__[name] for name in self._compared])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __repr__(self) -> str:
        # As dataclasses' repr: the class's qualified name, each shown field with repr,
        # and "..." for a record met again while its own repr is being made.
        key = (id(self), get_ident())
        if key in _IN_REPR:
            return "..."
        _IN_REPR.add(key)
        try:
            shown = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self._shown)
        finally:
            _IN_REPR.discard(key)
        return f"{self.__class__.__qualname__}({shown})"

    def replace(self, **changes: Any) -> Any:
        """A copy with some fields changed (dataclasses.replace)."""
        values = {name: self.__dict__[name] for name in self._fields}
        values.update(changes)
        return self.__class__(**values)


class Record(_Base):
    """A frozen record (@dataclass(frozen=True))."""

    def __hash__(self) -> int:
        return hash(self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


class MutableRecord(_Base):
    """A record whose fields may be assigned (@dataclass): equal by value, unhashable."""

    __hash__ = None  # type: ignore[assignment]


# --- NamedTuple: typing.NamedTuple's class syntax, without its type check ---------------------
# typing.NamedTuple checks each field's annotation, and with `from __future__ import
# annotations` every annotation is a string it compiles (typing.ForwardRef): the first
# compile() of a process sets up the compiler's syntax tree types, about a twentieth of a
# genesis's `pbem verify`. This makes the same class (collections.namedtuple's, its
# defaults, docstring and methods from the class body, the annotations kept as written);
# mypy reads it as typing's (the block at the top). tests/core/test_record.py compares the
# two.

if not TYPE_CHECKING:
    import collections

    # What a class body may not set, and what it sets that is not copied (as typing's).
    _PROHIBITED = frozenset(
        {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults"}
        | {"_make", "_replace", "_asdict", "_source"}
    )
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})

    class _NamedTupleMeta(type):
        def __new__(cls, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> type:
            if bases != (_NamedTuple,):
                raise TypeError("a NamedTuple class derives from NamedTuple alone")
            types = ns.get("__annotations__", {})
            defaults = []
            for name in types:
                if name in ns:
                    defaults.append(ns[name])
                elif defaults:
                    raise TypeError(
                        f"Non-default namedtuple field {name} cannot follow default field"
                        f"{'s' if len(defaults) > 1 else ''} {', '.join(types)}"
                    )
            made = collections.namedtuple(
                typename, list(types), defaults=defaults, module=ns["__module__"]
            )
            made.__annotations__ = made.__new__.__annotations__ = dict(types)
            for key, value in ns.items():
                if key in _PROHIBITED:
                    raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
                if key not in _SPECIAL and key not in made._fields:
                    setattr(made, key, value)
            return made

    _NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})

    def NamedTuple(typename: str, fields: Any = None, /, **kwargs: Any) -> type:  # noqa: N802
        """Only the class syntax is for records (`class Name(NamedTuple): ...`)."""
        raise TypeError("pbem.record.NamedTuple: use the class syntax")

    NamedTuple.__mro_entries__ = lambda bases: (_NamedTuple,)
