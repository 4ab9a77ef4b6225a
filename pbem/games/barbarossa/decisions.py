"""Barbarossa decisions: small frozen dataclasses and their text syntax.

Canonical forms (what `format_decision` writes; `parse_decision` reads them back,
case-insensitive, with extra spaces and a few aliases allowed):

    roll event               campaign phase: mark the timeline, prepare the pool, roll the event die
    boost event 2            spend 2 black cubes: +2 on the event die (also `boost event +2`;
                             rules 1.1 take one black cube at most on the event die)
    reroll event             spend 1 blue cube: re-roll the event die (also `re-roll event`)
    accept                   apply the event and roll the dice pool
    reroll 3                 spend 1 blue cube: re-roll die 3 (also `re-roll 3`)
    boost 2 1                spend 1 black cube: +1 on die 2 (also `boost 2 +1`, `boost 2`)
    claim 1                  take the blue cube of die 1's natural six
    supply 4                 allocate die 4 to the supply tracker (also `resupply 4`)
    attack minsk with 3      allocate die 3 to attack Minsk (also `attack min 3`)
    end                      end the German phase (also `end phase`, `done`)

Dice are numbered 1..n in pool order. City names may be abbreviated to any
unique prefix of the city's id or name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from pbem.errors import InvalidOrderError
from pbem.kit.decisions import decision, decision_types, spelled


@decision
class RollEvent:
    """Campaign phase: prepare the pool, mark the timeline, roll on the event chart."""


@decision
class BoostEvent:
    """Spend black cubes to add +1 each to the event die."""

    cubes: int


@decision
class RerollEvent:
    """Spend a blue cube to re-roll the event die."""


@decision
class Accept:
    """Apply the event die's result and roll the dice pool."""


@decision
class Reroll:
    """Spend a blue cube to re-roll one unallocated die."""

    die: int


@decision
class Boost:
    """Concentration of Panzers: spend black cubes to add +1 each to one die."""

    die: int
    cubes: int


@decision
class Claim:
    """Take the blue cube earned by a white die's natural six."""

    die: int


@decision
class Supply:
    """Allocate a die to the supply tracker (re-supplying)."""

    die: int


@decision
class Attack:
    """Allocate a die to attack an unlocked city."""

    city: str
    die: int


@decision
class End:
    """End the German phase; unused dice are lost."""


Decision = (
    RollEvent | BoostEvent | RerollEvent | Accept | Reroll | Boost | Claim | Supply | Attack | End
)
DECISION_TYPES = decision_types(__name__)

# The canonical text of each decision, with its fields in braces (`format_decision` fills
# them in): the one place that spells each decision.
TEXTS: dict[type, str] = {
    RollEvent: "roll event",
    BoostEvent: "boost event {cubes}",
    RerollEvent: "reroll event",
    Accept: "accept",
    Reroll: "reroll {die}",
    Boost: "boost {die} {cubes}",
    Claim: "claim {die}",
    Supply: "supply {die}",
    Attack: "attack {city} with {die}",
    End: "end",
}


def _placeholders(text: str) -> str:
    """A decision's text with `<field>` for each of its fields, as prompts and refusals show it."""
    return text.replace("{", "<").replace("}", ">")


# The form of each decision, for prompts and refusals ("expected 'boost <die> <cubes>'").
FORMS: dict[type, str] = {kind: f"'{_placeholders(text)}'" for kind, text in TEXTS.items()}
SYNTAX = ", ".join(_placeholders(text) for text in TEXTS.values())


def format_decision(decision: Decision) -> str:
    """The canonical text of a decision."""
    text = spelled(TEXTS, decision)
    if text is None:
        raise TypeError(f"not a Barbarossa decision: {decision!r}")
    return text


def _number(token: str, text: str, what: str, expected: str) -> int:
    token = token.lstrip("+")
    if not token.isdigit() or not token.isascii():
        raise InvalidOrderError(f"cannot read {text!r}: {what} must be a number ({expected})")
    try:
        value = int(token)
    except ValueError:  # past Python's digit limit for int()
        raise InvalidOrderError(
            f"cannot read {text!r}: {what} has {len(token)} digits ({expected})"
        ) from None
    if value < 1:
        raise InvalidOrderError(f"cannot read {text!r}: {what} must be 1 or more ({expected})")
    return value


def resolve_city(prefix: str, cities: Iterable[tuple[str, str]], text: str) -> str:
    """The id of the one city whose id or name starts with `prefix` (case-insensitive)."""
    prefix = prefix.strip().lower()
    pairs = list(cities)
    exact = [cid for cid, name in pairs if prefix in (cid, name.lower())]
    if exact:
        return exact[0]
    matches = [
        cid for cid, name in pairs if cid.startswith(prefix) or name.lower().startswith(prefix)
    ]
    if len(matches) == 1:
        return matches[0]
    known = ", ".join(cid for cid, _ in pairs)
    if not matches:
        raise InvalidOrderError(
            f"cannot read {text!r}: no city called {prefix!r} (cities: {known})"
        )
    raise InvalidOrderError(
        f"cannot read {text!r}: {prefix!r} could be {', '.join(matches)}; type more of the name"
    )


_ATTACK = re.compile(r"^attack (?P<city>.+?)(?: with)? (?P<die>\+?\w+)$")


class _Read:
    """The cities as the parser is given them, noting whether it read them."""

    def __init__(self, cities: Iterable[tuple[str, str]]) -> None:
        self.cities = cities
        self.read = False

    def __iter__(self) -> Iterator[tuple[str, str]]:
        self.read = True
        return iter(self.cities)


# text -> its decision, for the texts whose parse never read the cities (all but `attack`):
# a decision is an immutable value, so the next parse of the same text gives it again. A
# refusal is never kept (it is raised again each time).
_PLAIN: dict[str, Decision] = {}
_PLAIN_LIMIT = 4096


def parse_decision(text: str, cities: Iterable[tuple[str, str]]) -> Decision:
    """Parse the human syntax; `cities` are the (id, name) pairs of the map (read only for
    a decision that names a city)."""
    if type(text) is not str:
        return parse_text(text, cities)
    found = _PLAIN.get(text)
    if found is not None:
        return found
    read = _Read(cities)
    decision = parse_text(text, read)
    if not read.read:
        if len(_PLAIN) >= _PLAIN_LIMIT:
            _PLAIN.clear()
        _PLAIN[text] = decision
    return decision


def parse_text(text: str, cities: Iterable[tuple[str, str]]) -> Decision:
    """The parser itself, without the memo (`parse_decision`)."""
    if not isinstance(text, str):
        raise InvalidOrderError(f"cannot read {text!r}: expected text ({SYNTAX})")
    norm = " ".join(text.lower().replace("re-roll", "reroll").split())
    words = norm.split(" ") if norm else []
    if not words:
        raise InvalidOrderError(f"cannot read {text!r}: empty decision (expected {SYNTAX})")
    # "die 3" and "3" mean the same thing everywhere.
    words = [w for i, w in enumerate(words) if not (w == "die" and i > 0)]
    verb, args = words[0], words[1:]

    if verb == "roll":
        if args in ([], ["event"]):
            return RollEvent()
        raise InvalidOrderError(f"cannot read {text!r}: expected 'roll event'")
    if verb == "accept":
        if not args:
            return Accept()
        raise InvalidOrderError(f"cannot read {text!r}: expected 'accept' alone")
    if verb in ("end", "done"):
        if args in ([], ["phase"], ["turn"]):
            return End()
        raise InvalidOrderError(f"cannot read {text!r}: expected 'end'")
    if verb == "reroll":
        expected = "expected 'reroll event' or 'reroll <die>'"
        if args == ["event"]:
            return RerollEvent()
        if len(args) == 1:
            return Reroll(_number(args[0], text, "the die", expected))
        raise InvalidOrderError(f"cannot read {text!r}: {expected}")
    if verb == "boost":
        expected = "expected 'boost event <cubes>' or 'boost <die> <cubes>'"
        if args and args[0] == "event":
            if len(args) == 1:
                return BoostEvent(1)
            if len(args) == 2:
                return BoostEvent(_number(args[1], text, "the number of cubes", expected))
            raise InvalidOrderError(f"cannot read {text!r}: {expected}")
        if len(args) == 1:
            return Boost(_number(args[0], text, "the die", expected), 1)
        if len(args) == 2:
            return Boost(
                _number(args[0], text, "the die", expected),
                _number(args[1], text, "the number of cubes", expected),
            )
        raise InvalidOrderError(f"cannot read {text!r}: {expected}")
    if verb == "claim":
        expected = "expected 'claim <die>'"
        if len(args) == 1:
            return Claim(_number(args[0], text, "the die", expected))
        raise InvalidOrderError(f"cannot read {text!r}: {expected}")
    if verb in ("supply", "resupply"):
        expected = "expected 'supply <die>'"
        if len(args) == 1:
            return Supply(_number(args[0], text, "the die", expected))
        raise InvalidOrderError(f"cannot read {text!r}: {expected}")
    if verb == "attack":
        expected = "expected 'attack <city> with <die>'"
        match = _ATTACK.match(" ".join(words))
        if not match:
            raise InvalidOrderError(f"cannot read {text!r}: {expected}")
        die = _number(match.group("die"), text, "the die", expected)
        return Attack(resolve_city(match.group("city"), cities, text), die)
    raise InvalidOrderError(f"cannot read {text!r}: unknown command {verb!r} (expected {SYNTAX})")
