"""Race to the Sea 1914: the decisions and their text (docs/race-to-the-sea.md, "Decision
syntax"). Every word is shell-safe; counters are named by public label, hexes by their
printed XXYY number. A hidden unit's own client may name it by its unit id (`place fr-iv
0714`): `seal` turns that into the public form (`place french 0714`) plus the commitment.

    place fr-iv 0714 | place french 0714 | place fr-ii-cav 0615 scouting   7.1, 15
    done                                   end a placement or a forced march
    discard                                7.2: the unseen discard (a private draw)
    rail c03 0620 1007                     7.3: the counter, its hex, the end hex
    end rail                               7.3: the phase is over
    bid 4 | bid                            7.4 (sealed: the public entry shows "bid")
    open bid                               7.4: the sealed bid opens
    move c17 1203 1204 1305                9.1: the path from the counter's hex
    flip c05                               9.1.B: cavalry turns to its other side
    recon c22 0505 to 0506 c31             9.7: the cavalry, its hex, the target's hex, the target
    pass                                   no eligible action (8.4, 9.A)
    first germans                          7.7.3: who forced-marches first
    forced march c03 1203 1204             7.7.3
    hide                                   7.7.4.A: fresh commitments for the flipped-back units
    open all                               7.7.6.C: every sealed piece opens at the end

Actions that come with combat (fire, assault, plan, regroup, rebuild, flood) are refused
with a "not yet" line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pbem.core.engine import State
from pbem.errors import InvalidOrderError

NATIONALITY_WORDS = ("french", "british", "belgian", "german")
FACES = ("scouting", "deployed")
NOT_YET = {
    "fire": "Firepower Combat (9.2, 11)",
    "assault": "Assault Combat (9.3, 12)",
    "plan": "Planned Operations (9.4)",
    "regroup": "Regroup (9.5)",
    "rebuild": "Rebuild (9.6)",
    "flood": "Opening the Dykes (9.8)",
}
COUNTER = re.compile(r"c[0-9]{2,}\Z")
HEX = re.compile(r"[0-9]{4}\Z")
UNIT_ID = re.compile(r"[a-z]{2}-[a-z0-9-]+\Z")


@dataclass(frozen=True)
class Place:
    unit: str | None  # the unit id: cavalry (public), or the owner's own form of a hidden one
    nationality: str | None  # the public form of a hidden placement
    hex: int
    face: str | None = None  # cavalry only (15.4)


@dataclass(frozen=True)
class Done:
    pass


@dataclass(frozen=True)
class Discard:
    pass


@dataclass(frozen=True)
class Rail:
    counter: str
    start: int
    end: int


@dataclass(frozen=True)
class EndRail:
    pass


@dataclass(frozen=True)
class Bid:
    value: int | None  # None in a sealed bid's public decision


@dataclass(frozen=True)
class OpenBid:
    pass


@dataclass(frozen=True)
class Move:
    counter: str
    path: tuple[int, ...]


@dataclass(frozen=True)
class Flip:
    counter: str


@dataclass(frozen=True)
class Recon:
    counter: str
    at: int
    target_hex: int
    target: str


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class First:
    side: str


@dataclass(frozen=True)
class March:
    counter: str
    path: tuple[int, ...]


@dataclass(frozen=True)
class Hide:
    pass


@dataclass(frozen=True)
class OpenAll:
    pass


DECISION_TYPES = (
    Place,
    Done,
    Discard,
    Rail,
    EndRail,
    Bid,
    OpenBid,
    Move,
    Flip,
    Recon,
    Pass,
    First,
    March,
    Hide,
    OpenAll,
)

SIMPLE: dict[str, Any] = {
    "done": Done(),
    "discard": Discard(),
    "end rail": EndRail(),
    "bid": Bid(None),
    "open bid": OpenBid(),
    "pass": Pass(),
    "hide": Hide(),
    "open all": OpenAll(),
}


def _hex(word: str, text: str) -> int:
    if not HEX.match(word):
        raise InvalidOrderError(f"{text!r}: {word!r} is not a hex (four digits, e.g. 0714)")
    return int(word)


def _counter(word: str, text: str) -> str:
    if not COUNTER.match(word):
        raise InvalidOrderError(f"{text!r}: {word!r} is not a counter label (e.g. c07)")
    return word


def _path(words: list[str], text: str) -> tuple[int, ...]:
    if len(words) < 2:
        raise InvalidOrderError(f"{text!r}: give the counter's hex and at least one more hex")
    return tuple(_hex(w, text) for w in words)


def parse_decision(text: str, state: State | None = None, role: str | None = None) -> Any:
    words = text.split()
    joined = " ".join(words)
    if joined in SIMPLE:
        return SIMPLE[joined]
    if not words:
        raise InvalidOrderError("an empty decision")
    head = words[0]
    if head in NOT_YET:
        raise InvalidOrderError(
            f"{text!r}: {NOT_YET[head]} is not in this engine yet (it comes with combat)"
        )
    if head == "place" and len(words) in (3, 4):
        who, where = words[1], _hex(words[2], text)
        face = words[3] if len(words) == 4 else None
        if face is not None and face not in FACES:
            raise InvalidOrderError(f"{text!r}: a cavalry unit is placed scouting or deployed")
        if who in NATIONALITY_WORDS and face is None:
            return Place(None, who, where)
        if UNIT_ID.match(who):
            return Place(who, None, where, face)
        raise InvalidOrderError(f"{text!r}: name a unit id (fr-iv) or a nationality (french)")
    if head == "bid" and len(words) == 2:
        if words[1] not in ("1", "2", "3", "4", "5"):
            raise InvalidOrderError(f"{text!r}: a Bid Number is 1-5")
        return Bid(int(words[1]))
    if head == "rail" and len(words) == 4:
        return Rail(_counter(words[1], text), _hex(words[2], text), _hex(words[3], text))
    if head == "move" and len(words) >= 4:
        return Move(_counter(words[1], text), _path(words[2:], text))
    if head == "flip" and len(words) == 2:
        return Flip(_counter(words[1], text))
    if head == "recon" and len(words) == 6 and words[3] == "to":
        return Recon(
            _counter(words[1], text),
            _hex(words[2], text),
            _hex(words[4], text),
            _counter(words[5], text),
        )
    if head == "first" and len(words) == 2 and words[1] in ("allies", "germans"):
        return First(words[1])
    if words[:2] == ["forced", "march"] and len(words) >= 5:
        return March(_counter(words[2], text), _path(words[3:], text))
    raise InvalidOrderError(
        f"{text!r}: expected e.g. 'place fr-iv 0714', 'bid 4', 'move c17 1203 1204', "
        "'flip c05', 'recon c22 0505 to 0506 c31', 'rail c03 0620 1007', 'pass', 'done'"
    )


def _h(hex_: int) -> str:
    return f"{hex_:04d}"


def format_decision(d: Any) -> str:
    for text, simple in SIMPLE.items():
        if d == simple:
            return text
    if isinstance(d, Place):
        who = d.unit if d.unit is not None else d.nationality
        return f"place {who} {_h(d.hex)}" + (f" {d.face}" if d.face else "")
    if isinstance(d, Bid):
        return f"bid {d.value}"
    if isinstance(d, Rail):
        return f"rail {d.counter} {_h(d.start)} {_h(d.end)}"
    if isinstance(d, Move):
        return f"move {d.counter} " + " ".join(_h(h) for h in d.path)
    if isinstance(d, Flip):
        return f"flip {d.counter}"
    if isinstance(d, Recon):
        return f"recon {d.counter} {_h(d.at)} to {_h(d.target_hex)} {d.target}"
    if isinstance(d, First):
        return f"first {d.side}"
    if isinstance(d, March):
        return f"forced march {d.counter} " + " ".join(_h(h) for h in d.path)
    raise InvalidOrderError(f"not a race-to-the-sea decision: {d!r}")
