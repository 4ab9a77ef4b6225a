"""How a game declares its decisions: `@decision` on each type, `decision_types` for the list.

A decision is a value: the parser returns it, the engine and the tests compare and hash it,
a game's decisions without arguments are single instances that every parse returns, and
nothing ever changes one. So every decision type is a frozen dataclass, and every game
also lists its decision types once (`DECISION_TYPES`: what `GameDefaults.format` accepts as
its own). `@decision` says both where the type is declared, and `decision_types` gives a
module's list back in the order of declaration; a dataclass that is only a part of a
decision (Berlin 1945's `PlanOrder`) stays a plain frozen dataclass, outside the list.

A decision whose canonical text is its fields in fixed words has that text as a template
("retreat {counter} {to:04d}"), in a table by type that `spelled` fills in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

T = TypeVar("T")

# module name -> the decision types declared there, in order
_DECLARED: dict[str, list[type]] = {}


@dataclass_transform(frozen_default=True)
def decision(cls: type[T]) -> type[T]:
    """Declare `cls` a decision type of its module's game: a frozen dataclass, listed."""
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
