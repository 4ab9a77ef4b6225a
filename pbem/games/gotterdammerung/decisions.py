"""Götterdämmerung: the decisions and their text (docs/gotterdammerung.md, "Decision
syntax"). Every word is shell-safe; units are named by counter id (`sov-8gtc`, `ger-18-pzg-1`,
`vs-07`), hexes by their printed XXYY number, with `op:` or `city:` where a number exists on
both maps (1320, 0825). A hex of a path is read as a neighbour of the hex before it, so a
bare number is enough wherever it is unambiguous (state.resolve_path).

    bid 7 | bid                          12.42: Support Points (sealed: the public entry
                                         shows "bid")
    open bid                             12.42: the sealed bid opens
    artillery art-8ga sov-29grc ...      6.91: each marker and the corps it is placed on
    deploy standard | deploy ger-281-inf 0307 ger-x 0407 ...
                                         10.22 (and 12.33): the German set-up in one entry
    move sov-8gtc 2419 2420              5.1: the unit, then its path (its own hex may lead)
    enter ger-fru-1 4409 4408            9.1, 9.22: a reinforcement enters at an entry hex
    rail ger-344-inf-1 4032 3931 3831    5.6: railroad movement along the path
    split sov-1gtc sov-htr-1             5.72: the corps in a Transition Hex, the support unit
    overrun 1611 to 1711 | overrun sov-8gtc 1611 to 1711
                                         7.1: from the moving unit's hex into the target
    attack 2420 from 2520 2521 [with sov-a sov-b] [ubahn]
                                         6.3: the target, the attacking hexes (all able units
                                         there, or those named), 12.12's modifier
    lose sov-a sov-b                     6.52: which units take the steps (one name per step)
    retreat ger-x 2419 2418 | retreat ger-x
                                         6.6: the unit's retreat path (none: it cannot, 6.53)
    advance sov-a 2420 2419              6.7: the unit's advance path
    remove ger-x ger-y                   4.18: the opposing player removes an overstack
    reinforce jueterbog ger-a 3625 ger-b 3525 | reinforce alkett ger-c
                                         8.32 (units and hexes) and 8.33 (units: Spandau)
    volkssturm city:0726 city:0827       8.41: one hex per Volkssturm unit drawn
    done                                 the end of a phase, an advance or a choice
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pbem.core.engine import State
from pbem.errors import InvalidOrderError
from pbem.kit.decisions import decision, decision_types

UNIT = re.compile(r"(?:sov|ger|pol|us|art|vs)-[a-z0-9-]+\Z")
HEX = re.compile(r"(?:(?:op|city):)?[0-9]{4}\Z|ngp\Z")  # ngp: the North German Plain Box
SOURCES = ("jueterbog", "alkett")  # 8.32, 8.33


@decision
class Bid:
    points: int | None  # None: the public form of a sealed bid


@decision
class OpenBid:
    pass


@decision
class Artillery:
    placements: tuple[tuple[str, str], ...]  # (marker, corps)


@decision
class Deploy:
    placements: tuple[tuple[str, str], ...] | None  # (unit, hex); None: "standard"


@dataclass(frozen=True)
class UnitPath:
    """A unit and the hexes of its path: what the decisions of a unit on the move give."""

    unit: str
    path: tuple[str, ...]


@decision
class Move(UnitPath):
    """5.1: the unit, then its path (its own hex may lead; no path: 6.84)."""


@decision
class Enter(UnitPath):
    """9.1, 9.22: a reinforcement enters at an entry hex."""


@decision
class Rail(UnitPath):
    """5.6: railroad movement along the path."""


@decision
class Split:
    unit: str
    support: str


@decision
class Overrun:
    unit: str | None
    launch: str
    target: str


@decision
class Attack:
    target: str
    sources: tuple[str, ...]
    units: tuple[str, ...] = ()  # () : every unit in the sources that may attack
    ubahn: bool = False


@decision
class Lose:
    units: tuple[str, ...]


@decision
class Retreat(UnitPath):
    """6.6: the unit's retreat path (none: it cannot, 6.53)."""


@decision
class Advance(UnitPath):
    """6.7: the unit's advance path."""


@decision
class Remove:
    units: tuple[str, ...]


@decision
class Reinforce:
    source: str
    placements: tuple[tuple[str, str | None], ...]  # (unit, hex); Alkett: hex None


@decision
class Volkssturm:
    hexes: tuple[str, ...]


@decision
class Done:
    pass


DECISION_TYPES = decision_types(__name__)

# The decisions written as a verb, a unit and its path, by their verb.
_PATH_KINDS: dict[str, type[UnitPath]] = {
    "move": Move,
    "enter": Enter,
    "rail": Rail,
    "advance": Advance,
    "retreat": Retreat,
}
_PATH_VERBS = {kind: verb for verb, kind in _PATH_KINDS.items()}


def _unit(word: str, text: str) -> str:
    if not UNIT.match(word):
        raise InvalidOrderError(f"{word!r} is not a unit such as sov-8gtc or ger-281-inf: {text!r}")
    return word


def _hex(word: str, text: str) -> str:
    if not HEX.match(word):
        raise InvalidOrderError(f"{word!r} is not a hex such as 2419 or city:1320: {text!r}")
    return word


def _path(words: list[str], text: str, *, empty: bool = False) -> tuple[str, ...]:
    if not words and not empty:
        raise InvalidOrderError(f"a path of hexes is missing: {text!r}")
    return tuple(_hex(w, text) for w in words)


def _pairs(words: list[str], text: str, first: Any, second: Any) -> tuple[tuple[str, str], ...]:
    if not words or len(words) % 2:
        raise InvalidOrderError(f"expected pairs of names: {text!r}")
    return tuple(
        (first(words[i], text), second(words[i + 1], text)) for i in range(0, len(words), 2)
    )


def parse_decision(text: str, state: State | None = None, role: str | None = None) -> Any:
    words = text.strip().lower().split()
    if not words:
        raise InvalidOrderError("an empty decision")
    verb, rest = words[0], words[1:]
    if verb == "done" and not rest:
        return Done()
    if verb == "bid":
        if not rest:
            return Bid(None)
        if len(rest) == 1 and re.fullmatch(r"[0-9]{1,3}", rest[0]):
            return Bid(int(rest[0]))
        raise InvalidOrderError(f"a bid is a number of support points: 'bid 7' (12.42): {text!r}")
    if words == ["open", "bid"]:
        return OpenBid()
    if verb == "artillery":
        return Artillery(_pairs(rest, text, _unit, _unit))
    if verb == "deploy":
        if rest == ["standard"]:
            return Deploy(None)
        return Deploy(_pairs(rest, text, _unit, _hex))
    if verb in _PATH_KINDS and rest:
        unit = _unit(rest[0], text)
        path = _path(rest[1:], text, empty=verb in ("retreat", "move"))  # 6.84: "move sov-x"
        return _PATH_KINDS[verb](unit, path)
    if verb == "split" and len(rest) == 2:
        return Split(_unit(rest[0], text), _unit(rest[1], text))
    if verb == "overrun":
        return _overrun(rest, text)
    if verb == "attack":
        return _attack(rest, text)
    if verb == "lose" and rest:
        return Lose(tuple(_unit(w, text) for w in rest))
    if verb == "remove" and rest:
        return Remove(tuple(_unit(w, text) for w in rest))
    if verb == "reinforce" and rest and rest[0] in SOURCES:
        if rest[0] == "alkett":
            return Reinforce("alkett", tuple((_unit(w, text), None) for w in rest[1:]))
        pairs = _pairs(rest[1:], text, _unit, _hex) if rest[1:] else ()
        return Reinforce("jueterbog", tuple((u, h) for u, h in pairs))
    if verb == "volkssturm":
        return Volkssturm(_path(rest, text, empty=True))
    raise InvalidOrderError(
        f"unknown decision {text!r} (move, enter, rail, split, overrun, attack, lose, retreat, "
        "advance, remove, reinforce, volkssturm, artillery, deploy, bid, done)"
    )


def _overrun(rest: list[str], text: str) -> Overrun:
    unit = None
    if rest and UNIT.match(rest[0]):
        unit, rest = rest[0], rest[1:]
    if len(rest) == 3 and rest[1] in ("to", "->"):
        return Overrun(unit, _hex(rest[0], text), _hex(rest[2], text))
    raise InvalidOrderError(f"write 'overrun 1611 to 1711' (7.1): {text!r}")


def _attack(rest: list[str], text: str) -> Attack:
    ubahn = bool(rest) and rest[-1] == "ubahn"
    if ubahn:
        rest = rest[:-1]
    if len(rest) < 3 or rest[1] != "from":
        raise InvalidOrderError(f"write 'attack 2420 from 2520 2521' (6.3): {text!r}")
    target = _hex(rest[0], text)
    words = rest[2:]
    units: tuple[str, ...] = ()
    if "with" in words:
        at = words.index("with")
        units = tuple(_unit(w, text) for w in words[at + 1 :])
        words = words[:at]
        if not units:
            raise InvalidOrderError(f"name the units after 'with': {text!r}")
    return Attack(target, _path(words, text), units, ubahn)


def format_decision(d: Any) -> str:
    if isinstance(d, Done):
        return "done"
    if isinstance(d, Bid):
        return "bid" if d.points is None else f"bid {d.points}"
    if isinstance(d, OpenBid):
        return "open bid"
    if isinstance(d, Artillery):
        return "artillery " + " ".join(f"{m} {u}" for m, u in d.placements)
    if isinstance(d, Deploy):
        if d.placements is None:
            return "deploy standard"
        return "deploy " + " ".join(f"{u} {h}" for u, h in d.placements)
    if isinstance(d, UnitPath):
        return " ".join((_PATH_VERBS[type(d)], d.unit, *d.path))
    if isinstance(d, Split):
        return f"split {d.unit} {d.support}"
    if isinstance(d, Overrun):
        who = f"{d.unit} " if d.unit else ""
        return f"overrun {who}{d.launch} to {d.target}"
    if isinstance(d, Attack):
        text = f"attack {d.target} from " + " ".join(d.sources)
        if d.units:
            text += " with " + " ".join(d.units)
        return text + (" ubahn" if d.ubahn else "")
    if isinstance(d, Lose):
        return "lose " + " ".join(d.units)
    if isinstance(d, Remove):
        return "remove " + " ".join(d.units)
    if isinstance(d, Reinforce):
        words = [f"{u} {h}" if h is not None else u for u, h in d.placements]
        return " ".join(("reinforce", d.source, *words))
    if isinstance(d, Volkssturm):
        return " ".join(("volkssturm", *d.hexes))
    raise InvalidOrderError(f"not a gotterdammerung decision: {d!r}")
