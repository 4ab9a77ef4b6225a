"""The static tables of a game: what the rules read and never change (the map, the fixed
attributes of every unit, the cards), built from the loaded data files.

They travel in the state as one canonical JSON text, `state["tables"]`, which the engine
declares a kit static key: a copy of the state shares it instead of copying 20 KB of map
and card texts on every entry, the canonical bytes of a state cost one string, and a state
stays self-contained plain JSON. `of(state)` parses each text once per process (a memo
keyed by the text itself, so it is a pure function) into `Tables`, with the lookups the
rules make on every entry (a unit's side and strength, a zone's ring and neighbours).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pbem.core.engine import State
from pbem.games.berlin_1945.board import area_graph
from pbem.games.berlin_1945.rulebook import REICHSTAG, RING_INDEX, ROLES, UNIT_TYPES, UNLIMITED
from pbem.maps.areas import AreaGraph
from pbem.record import Record

Card = dict[str, Any]

# Unit and Tables are records (pbem.record), not dataclasses: they compare, hash and
# refuse assignment alike, and making a dataclass costs a cold `pbem show` about a hundredth.
_UNIT_FIELDS = (
    "side",
    "type",
    "strength",
    "elite",
    "rebuild",
    "yellow",
    "group",
    "card",
    "start",
    "frozen",
)


class Unit(Record, fields=_UNIT_FIELDS):
    """What a counter is; where it is lives in the state (`position`)."""

    side: str
    type: str
    strength: int  # rulebook 7.4.2
    elite: bool  # rulebook 7.4.4: SS and Guards
    rebuild: bool  # rulebook 6: SS and Guards are never rebuilt
    yellow: bool  # rulebook 5.5.4: brought in by an Event card
    group: int | None  # rulebook 8.1: the Soviet reinforcement group
    card: int | None  # rulebook 8.2: the German card that brings it in
    start: str | None  # the zone of the initial display
    # rulebook 5.2: the German garrison of Sector V may not move until Soviet troops enter
    # the Mitte; the flag stays with the counter (a rebuilt unit keeps it)
    frozen: bool

    def __init__(
        self,
        side: str,
        type: str,
        strength: int,
        elite: bool,
        rebuild: bool,
        yellow: bool,
        group: int | None,
        card: int | None,
        start: str | None,
        frozen: bool,
    ) -> None:
        fields = self.__dict__
        fields["side"] = side
        fields["type"] = type
        fields["strength"] = strength
        fields["elite"] = elite
        fields["rebuild"] = rebuild
        fields["yellow"] = yellow
        fields["group"] = group
        fields["card"] = card
        fields["start"] = start
        fields["frozen"] = frozen


_TABLES_FIELDS = (
    "zones",
    "ring",
    "limit",
    "adj",
    "graph",
    "units",
    "cards",
    "decks",
    "reinforcement_zones",
)


class Tables(Record, fields=_TABLES_FIELDS):
    zones: tuple[str, ...]  # every zone, Areas A-F, Districts 1-18, Sectors I-V
    ring: Mapping[str, int]  # 0 the outer edge .. 4 the Mitte
    limit: Mapping[str, Mapping[str, int | None]]  # zone -> side -> stacking limit (None: any)
    adj: Mapping[str, Mapping[str, tuple[str, ...]]]  # side -> zone -> neighbours (rule 5.1)
    graph: Mapping[str, AreaGraph]  # side -> the zones as a graph, the same adjacency
    units: Mapping[str, Unit]
    cards: Mapping[str, Card]  # "german-3" -> deck, number, name, symbols, effects
    decks: Mapping[str, tuple[int, ...]]  # side -> card numbers
    reinforcement_zones: Mapping[str, tuple[str, ...]]  # group "1" / "2" -> Areas (8.1)

    def __init__(
        self,
        zones: tuple[str, ...],
        ring: Mapping[str, int],
        limit: Mapping[str, Mapping[str, int | None]],
        adj: Mapping[str, Mapping[str, tuple[str, ...]]],
        graph: Mapping[str, AreaGraph],
        units: Mapping[str, Unit],
        cards: Mapping[str, Card],
        decks: Mapping[str, tuple[int, ...]],
        reinforcement_zones: Mapping[str, tuple[str, ...]],
    ) -> None:
        fields = self.__dict__
        fields["zones"] = zones
        fields["ring"] = ring
        fields["limit"] = limit
        fields["adj"] = adj
        fields["graph"] = graph
        fields["units"] = units
        fields["cards"] = cards
        fields["decks"] = decks
        fields["reinforcement_zones"] = reinforcement_zones


def build(data: Mapping[str, Any]) -> str:
    """The tables text of loaded data (`data.load_data`), canonical JSON."""
    zones = list(data["zone_ids"])
    # rulebook 5.1: for the German player all Mitte sectors are adjacent (`board.area_graph`)
    adj = {side: {z: list(area_graph(data, side).neighbours(z)) for z in zones} for side in ROLES}
    units = {
        u["id"]: {
            "side": u["side"],
            "type": u["type"],
            "strength": u["strength"],
            "elite": UNIT_TYPES[u["type"]]["elite"],
            "rebuild": UNIT_TYPES[u["type"]]["rebuild"],
            "yellow": u["yellow_dot"],
            "group": u["reinforcement"] or None,
            "card": u["card"] or None,
            "start": u["start"] or None,
            "frozen": u["start"] == REICHSTAG and u["side"] == "german",
        }
        for u in data["units"]
    }
    cards = {
        f"{side}-{c['number']}": {
            "deck": side,
            "number": c["number"],
            "name": c["name"],
            "symbols": list(c["symbols"]),
            "effects": [dict(e) for e in c["effects"]],
        }
        for side in ROLES
        for c in data["decks"][side]
    }
    tables = {
        "zones": zones,
        "ring": {z: RING_INDEX[data["zones"][z]["ring"]] for z in zones},
        "limit": {
            z: {
                side: None if limit == UNLIMITED else int(limit)
                for side, limit in data["zones"][z]["stack"].items()
            }
            for z in zones
        },
        "adj": adj,
        "units": units,
        "cards": cards,
        "decks": {side: sorted(c["number"] for c in data["decks"][side]) for side in ROLES},
        "reinforcement_zones": {str(r["group"]): list(r["zones"]) for r in data["reinforcements"]},
    }
    return json.dumps(tables, sort_keys=True, separators=(",", ":"))


def parse(text: str) -> Tables:
    raw = json.loads(text)
    return Tables(
        zones=tuple(raw["zones"]),
        ring=raw["ring"],
        limit=raw["limit"],
        adj={side: {z: tuple(n) for z, n in by.items()} for side, by in raw["adj"].items()},
        graph={
            side: AreaGraph.from_neighbours(by, order=raw["zones"])
            for side, by in raw["adj"].items()
        },
        units={uid: Unit(**u) for uid, u in raw["units"].items()},
        cards=raw["cards"],
        decks={side: tuple(numbers) for side, numbers in raw["decks"].items()},
        reinforcement_zones={g: tuple(z) for g, z in raw["reinforcement_zones"].items()},
    )


_PARSED: dict[str, Tables] = {}
_KEPT = 16  # distinct tables texts kept (each game of a title usually has the same)


def of(state: State) -> Tables:
    """The tables of `state`, parsed once per text."""
    text = state["tables"]
    tables = _PARSED.get(text)
    if tables is None:
        if len(_PARSED) >= _KEPT:
            _PARSED.pop(next(iter(_PARSED)))
        tables = _PARSED[text] = parse(text)
    return tables
