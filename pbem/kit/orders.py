"""Standing orders: a player's answers, set in advance, to a game's recurring questions.

A game declares which of its steps accept standing orders and in what words
(`StandingOrder`); the player sets them per game and role (`pbem orders`), and its own
client answers those questions without asking, as long as an order gives a decision
(`decide`). An order that does not fit the situation gives None, and the person is asked.

Orders live in the player's store, never in the log: the opponent sees only the entries
they produce, signed and checked like any other. They decide nothing the rules do not
allow: `decide` returns a decision the step's own choices offer, and the client checks
it exactly as a typed one before signing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from pbem.core.engine import State
from pbem.errors import InvalidOrderError
from pbem.record import Record

NUMBER = "N"  # a form's placeholder for a whole number
_WORD = re.compile(r"^[a-z0-9-]+$")


class Form(Record, fields=("words", "meaning")):
    """One way to write an order's argument (`keep at N`) and what it does.

    A frozen record (pbem.record): a @dataclass costs a `pbem show` the compiling of its
    methods."""

    words: str
    meaning: str

    def __init__(self, words: str, meaning: str) -> None:
        fields = self.__dict__
        fields["words"] = words
        fields["meaning"] = meaning

    def matches(self, argument: str) -> bool:
        pattern, given = self.words.split(), argument.split()
        return len(pattern) == len(given) and all(
            (p == NUMBER and g.isdigit() and len(g) <= 3) or p == g
            for p, g in zip(pattern, given, strict=True)
        )


class StandingOrder(Record, fields=("name", "steps", "question", "forms", "decide")):
    """A question a game lets a player answer in advance.

    `steps` are the step names it answers; `decide(state, role, argument)` is the
    decision it gives on the role's own (`with_secrets`) state, or None when it does not
    apply there (then a person decides). A frozen record (pbem.record)."""

    name: str
    steps: tuple[str, ...]
    question: str  # what it answers, for `pbem orders`: "the defence's support (4.2.1.2)"
    forms: tuple[Form, ...]
    decide: Callable[[State, str, str], Any | None]

    def __init__(
        self,
        name: str,
        steps: tuple[str, ...],
        question: str,
        forms: tuple[Form, ...],
        decide: Callable[[State, str, str], Any | None],
    ) -> None:
        fields = self.__dict__
        fields["name"] = name
        fields["steps"] = steps
        fields["question"] = question
        fields["forms"] = forms
        fields["decide"] = decide

    def read(self, argument: str) -> str:
        """The argument in normal form (lower case, single spaces), or a refusal that
        lists the forms this order accepts."""
        normal = " ".join(argument.lower().split())
        words_ok = normal and all(_WORD.match(w) for w in normal.split())
        if words_ok and any(form.matches(normal) for form in self.forms):
            return normal
        accepted = "; ".join(f"'{f.words}'" for f in self.forms)
        raise InvalidOrderError(
            f"standing order {self.name}: {argument.strip()!r} is not one of {accepted}"
        )


def by_name(*orders: StandingOrder) -> dict[str, StandingOrder]:
    """A game's standing orders by name: the table `StepGame.orders` holds."""
    return {order.name: order for order in orders}


def number_in(argument: str) -> int:
    """The number a form's N stands for in `argument` (the first number)."""
    return next(int(word) for word in argument.split() if word.isdigit())


def answer(
    table: Mapping[str, StandingOrder],
    step: str,
    state: State,
    role: str,
    orders: Mapping[str, str],
) -> tuple[Any, str] | None:
    """The first of `orders` (name -> argument, in name order) that answers `step` now."""
    for name in sorted(orders):
        order = table.get(name)
        if order is None or step not in order.steps:
            continue
        try:
            argument = order.read(orders[name])
        except InvalidOrderError:
            continue  # an order saved by an earlier version and no longer valid: ask
        decision = order.decide(state, role, argument)
        if decision is not None:
            return decision, f"{name}: {argument}"
    return None
