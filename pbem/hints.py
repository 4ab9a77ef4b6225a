"""The names of `typing` that pbem's modules use outside their annotations, without
importing typing: a ground module.

Every module here writes `from __future__ import annotations`, so its annotations are
strings Python never evaluates; only a few typing names are read when a module runs (a
base class, a type alias, a decorator, a call). Importing typing for them is about a
fourteenth of a genesis's `pbem verify` (bench/startup.py). mypy reads typing's own
names (the block below); when a module runs, each is the least that does what these
modules ask of it:

* `Any`: `object` (a type alias such as `State = dict[str, Any]` only needs a type);
* `Protocol`, `Generic`: a plain base class (`Generic[T]` is the class itself); nothing
  checks an instance against a protocol;
* `TypeVar(name)`: the name;
* `overload`: the function itself (each overload is replaced by the next definition of
  the name, the implementation last, as it is with typing's);
* `cast(type, value)`: the value.

tests/core/test_hints.py checks that a genesis's `pbem verify` imports no typing, and
that these stand-ins do what the modules need.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any as Any
    from typing import Generic as Generic
    from typing import Protocol as Protocol
    from typing import TypeVar as TypeVar
    from typing import cast as cast
    from typing import overload as overload
else:
    Any = object

    class Protocol:
        """A protocol class's base, as a plain class."""

        __slots__ = ()

    class Generic:
        """A generic class's base, as a plain class: Generic[T] is Generic."""

        __slots__ = ()

        def __class_getitem__(cls, _parameters):
            return cls

    def TypeVar(name, *_constraints, **_options):  # noqa: N802
        return name

    def overload(function):
        return function

    def cast(_kind, value):
        return value
