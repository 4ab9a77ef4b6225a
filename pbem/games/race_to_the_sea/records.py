"""Frozen records made from annotated classes without @dataclass (pbem.record).

Making a frozen dataclass compiles its methods with exec, about half a millisecond each:
Race to the Sea declares 37 decision types and a few result types, which was a tenth of
a cold `pbem show` of the game. `frozen_record` gives a class what @dataclass(frozen=True)
gave it (its annotated fields in order, the class's values as defaults, equality and hash
by fields of the same class, the dataclass repr, assignment refused) as a pbem.record
`Record`. tests/games/race_to_the_sea/test_rts_fast_paths.py holds them to dataclasses.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar, dataclass_transform

from pbem.record import Record

T = TypeVar("T")


class FrozenRecord(Record):
    """The base of `frozen_record`'s classes: the fields are the class's annotations,
    in order, with the class's values as defaults."""

    _defaults: ClassVar[dict[str, Any]] = {}
    _required: ClassVar[int] = 0  # the fields before the first with a default
    _tail: ClassVar[tuple[Any, ...]] = ()  # the defaults of the fields after those

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        given = len(args)
        if not kwargs and self._required <= given <= len(fields):  # (the usual call)
            if given < len(fields):
                args += self._tail[given - self._required :]
            self.__dict__.update(zip(fields, args, strict=True))
            return
        if given > len(fields):
            raise TypeError(f"{type(self).__name__}() takes {len(fields)} arguments, {given} given")
        values = dict(zip(fields, args, strict=False))
        for name, value in kwargs.items():
            if name not in fields or name in values:
                raise TypeError(f"{type(self).__name__}() got an unexpected or repeated {name!r}")
            values[name] = value
        for name in fields:
            if name not in values:
                if name not in self._defaults:
                    raise TypeError(f"{type(self).__name__}() is missing {name!r}")
                values[name] = self._defaults[name]
        self.__dict__.update({name: values[name] for name in fields})  # (in field order)

    # Its fields are the whole of its __dict__, in order: compared and hashed as the
    # dataclass did (a tuple of the fields), without a tuple made field by field.
    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.__dict__ == other.__dict__
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self.__dict__.values()))


@dataclass_transform(frozen_default=True)
def frozen_record(cls: type[T]) -> type[T]:
    """`cls` as a frozen record (what @dataclass(frozen=True) makes of it)."""
    names = tuple(cls.__dict__.get("__annotations__", {}))
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    defaults = {name: namespace[name] for name in names if name in namespace}
    required = next((i for i, name in enumerate(names) if name in defaults), len(names))
    if any(name not in defaults for name in names[required:]):
        raise TypeError(f"{cls.__name__}: a field without a default follows one with a default")
    namespace["_defaults"] = defaults
    namespace["_required"] = required
    namespace["_tail"] = tuple(defaults[name] for name in names[required:])
    made: type[T] = type(cls.__name__, (FrozenRecord,), namespace, fields=names)
    return made
