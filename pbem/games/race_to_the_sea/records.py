"""Frozen records made from annotated classes without @dataclass (pbem.record).

Making a frozen dataclass compiles its methods with exec, about half a millisecond each:
Race to the Sea declares 37 decision types and a few result types, which was a tenth of
a cold `pbem show` of the game. `frozen_record` gives a class what @dataclass(frozen=True)
gave it (its annotated fields in order, the class's values as defaults, equality and hash
by fields of the same class, the dataclass repr, assignment refused) as a pbem.record
`Record`, and compiles a class's __init__ (the one @dataclass writes) only when the third
record of that class is made: an import compiles none, and a bot that makes thousands of
moves' checks and decisions a game makes each as fast as a dataclass does.
tests/games/race_to_the_sea/test_rts_fast_paths.py holds them to dataclasses.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar, dataclass_transform

from pbem.record import Record

T = TypeVar("T")

# How many records of a class are made field by field before its __init__ is compiled:
# two, as decisions.SIMPLE makes two Absorb records at import.
BOUND = 2


class FrozenRecord(Record):
    """The base of `frozen_record`'s classes: the fields are the class's annotations,
    in order, with the class's values as defaults."""

    _defaults: ClassVar[dict[str, Any]] = {}
    _required: ClassVar[int] = 0  # the fields before the first with a default

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # The class is made once, as written (a decorator that made it again from its
        # namespace made each of Race to the Sea's 43 records twice at import).
        names = tuple(cls.__dict__.get("__annotations__", {}))
        defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
        required = next((i for i, name in enumerate(names) if name in defaults), len(names))
        if any(name not in defaults for name in names[required:]):
            raise TypeError(f"{cls.__name__}: a field without a default follows one with a default")
        cls._defaults = defaults
        cls._required = required
        super().__init_subclass__(fields=names, **kwargs)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """The first BOUND records made of a class are made here, field by field; the
        next compiles the class's own __init__ (as @dataclass does for every class it
        makes, here only for the classes made more often: an import that makes a record
        or two of a few classes, decisions.SIMPLE, compiles none, and the first compile()
        of a process is dear: it sets up the compiler's syntax tree types) and makes the
        record with it."""
        cls = type(self)
        made = cls.__dict__.get("_bound", 0)
        if made >= BOUND or not _bind(self, cls, args, kwargs):
            type.__setattr__(cls, "__init__", _compiled_init(cls))
            cls.__init__(self, *args, **kwargs)  # (a call it refuses raises as @dataclass's)
        else:
            type.__setattr__(cls, "_bound", made + 1)

    # Its fields are the whole of its __dict__, in order: compared and hashed as the
    # dataclass did (a tuple of the fields), without a tuple made field by field.
    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.__dict__ == other.__dict__
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self.__dict__.values()))


def _bind(record: FrozenRecord, cls: type[FrozenRecord], args: Any, kwargs: Any) -> bool:
    """Store the fields of `record` from a call's arguments as the compiled __init__ does;
    False, storing nothing, for a call it would refuse (too many arguments, an unknown,
    repeated or missing one)."""
    fields, defaults = cls._fields, cls._defaults
    if len(args) > len(fields):
        return False
    values = dict(zip(fields, args, strict=False))  # (fewer args than fields: defaults)
    for name, value in kwargs.items():
        if name not in fields or name in values:
            return False
        values[name] = value
    if any(name not in values and name not in defaults for name in fields):
        return False
    store = record.__dict__
    for name in fields:
        store[name] = values[name] if name in values else defaults[name]
    return True


def _compiled_init(cls: type[FrozenRecord]) -> Any:
    """`cls.__init__` as @dataclass writes it: the fields as parameters, in order, the
    defaults after, each stored straight into the instance's __dict__."""
    fields, required = cls._fields, cls._required
    params = [name if i < required else f"{name}=_d[{name!r}]" for i, name in enumerate(fields)]
    body = "".join(f"    _s[{name!r}] = {name}\n" for name in fields) or "    pass\n"
    source = f"def __init__(self, {', '.join(params)}):\n    _s = self.__dict__\n{body}"
    namespace: dict[str, Any] = {"_d": cls._defaults}
    exec(compile(source, f"<{cls.__qualname__}.__init__>", "exec"), namespace)
    made = namespace["__init__"]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    return made


@dataclass_transform(frozen_default=True)
def frozen_record(cls: type[T]) -> type[T]:
    """`cls` as a frozen record (what @dataclass(frozen=True) makes of it). A class
    declared `class Name(FrozenRecord)` is one already (FrozenRecord.__init_subclass__),
    as this game's are: made once. Another is made again, from its namespace."""
    if issubclass(cls, FrozenRecord):
        return cls
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    made: type[T] = type(cls.__name__, (FrozenRecord,), namespace)
    return made
