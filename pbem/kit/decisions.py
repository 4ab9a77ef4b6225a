"""How a game declares its decisions: `@decision` on each type, `decision_types` for the list.

A decision is a value: the parser returns it, the engine and the tests compare and hash it,
a game's decisions without arguments are single instances that every parse returns, and
nothing ever changes one. So every decision type is frozen, and every game
also lists its decision types once (`DECISION_TYPES`: what `GameDefaults.format` accepts as
its own). `@decision` says both where the type is declared, and `decision_types` gives a
module's list back in the order of declaration; a dataclass that is only a part of a
decision (Berlin 1945's `PlanOrder`) stays a plain frozen dataclass, outside the list.

A decision type is made a frozen record (pbem.record), with what @dataclass(frozen=True)
gives (equality and hash by its fields, the same repr, `__match_args__`, defaults,
pickling): a dataclass costs a cold `pbem show` the compiling of its methods, a share of
the whole for a game of twenty decision types. One that extends another class (a plain
dataclass of shared fields) stays a frozen dataclass.

A decision whose canonical text is its fields in fixed words has that text as a template
("retreat {counter} {to:04d}"), in a table by type that `spelled` fills in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, dataclass_transform

from pbem.record import Record

T = TypeVar("T")

# module name -> the decision types declared there, in order
_DECLARED: dict[str, list[type]] = {}


@dataclass_transform(frozen_default=True)
def decision(cls: type[T]) -> type[T]:
    """Declare `cls` a decision type of its module's game: a frozen record, listed."""
    if cls.__bases__ == (object,):
        declared: Any = _record_of(cls)
    else:  # (it extends a dataclass: its fields are that class's too)
        from dataclasses import dataclass

        declared = dataclass(frozen=True)(cls)
    _DECLARED.setdefault(declared.__module__, []).append(declared)
    return declared


def decision_types(module: str) -> tuple[type, ...]:
    """The decision types declared with `@decision` in `module` (a module's `__name__`)."""
    return tuple(_DECLARED.get(module, ()))


def spelled(texts: Mapping[type, str], decision: object) -> str | None:
    """The canonical text of `decision` from a game's table of templates (its fields in
    braces, with their format: "rail {counter} {start:04d} {end:04d}"); None when the table
    has none for its type."""
    text = texts.get(type(decision))
    return None if text is None else text.format_map(vars(decision))


def _record_of(cls: type) -> type:
    """`cls` made again as a frozen record of its annotated fields, in order, with their
    defaults (its methods and class attributes kept)."""
    names = tuple(cls.__dict__.get("__annotations__", {}))
    defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    namespace["__qualname__"] = cls.__qualname__
    namespace["__init__"] = _init_for(cls.__qualname__, names, defaults)
    return type(cls.__name__, (Record,), namespace, fields=names)


def _init_for(
    qualname: str, names: tuple[str, ...], defaults: dict[str, Any]
) -> Callable[..., None]:
    """An __init__ taking `names` as a dataclass's does (positionally or by keyword, the
    defaults after), storing them in field order; no code compiled."""
    known = frozenset(names)
    where = f"{qualname}.__init__()"

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(
                f"{where} takes {len(names) + 1} positional arguments "
                f"but {len(args) + 1} were given"
            )
        given = dict(zip(names, args, strict=False))  # (more names than arguments)
        for name, value in kwargs.items():
            if name not in known:
                raise TypeError(f"{where} got an unexpected keyword argument '{name}'")
            if name in given:
                raise TypeError(f"{where} got multiple values for argument '{name}'")
            given[name] = value
        missing = [name for name in names if name not in given and name not in defaults]
        if missing:
            raise TypeError(f"{where} missing required arguments: {', '.join(missing)}")
        fields = self.__dict__
        for name in names:
            fields[name] = given[name] if name in given else defaults[name]

    return __init__
