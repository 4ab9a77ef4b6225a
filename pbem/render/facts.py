"""What a game's map shows, as a list: the text alternative of the SVG map.

A screen reader cannot read a picture, and a test cannot compare one with the text
summary: both read this list instead. Each place of the map (an area, a zone, a city)
with who controls it and what stands in it, taken from the same view the map and the
summary are drawn from (so it shows exactly what the role may know), in the order the
game's text summary lists them.

One reader per game, keyed by the engine's name; a game without one has no list (its
page says so). The readers only pick fields out of a view: no rule is decided here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Piece:
    """A unit, a block, a fortification... standing in a place."""

    id: str
    label: str  # what the summary calls it ("US 1st Army", "west block 5")
    side: str
    strength: int | None = None


@dataclass(frozen=True)
class PlaceFacts:
    id: str
    name: str
    control: str  # the side that holds it, or the state of a city ("captured")
    pieces: tuple[Piece, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class MapFacts:
    places: tuple[PlaceFacts, ...]
    victory: tuple[str, ...]  # the score now and what wins, as the view tells it


def _barbarossa(view: Mapping[str, Any]) -> MapFacts:
    places = []
    for path in view["paths"]:
        for city in path["cities"]:
            boxes = city["boxes"]
            marked = sum(1 for box in boxes if box["marked"])
            stars = city["stars"]
            places.append(
                PlaceFacts(
                    id=city["id"],
                    name=city["name"],
                    control=city["status"],
                    notes=(
                        path["name"],
                        f"{stars} star{'s' if stars != 1 else ''}",
                        f"{marked} of {len(boxes)} boxes marked",
                    ),
                )
            )
    bands = view["victory"]
    victory = (
        f"German victory points: {view['vp']} of {bands['max']}",
        # The bands of the rulebook's victory table, as the game's outcome reads them.
        f"German triumph at {bands['triumph']} VP or more, victory at {bands['win']} or more;"
        f" {bands['historical']}-{bands['win'] - 1} is the historical outcome (a German"
        f" defeat), fewer a German defeat",
    )
    return MapFacts(tuple(places), victory)


def _block_label(block: Mapping[str, Any]) -> str:
    value = block.get("value")
    if value is None:
        text = f"{block['owner']} block, sealed"
    elif not block.get("revealed"):
        text = f"{block['owner']} block {value} (sealed, known only to you)"
    else:
        text = f"{block['owner']} block {value}"
    cubes = block.get("cubes", 0)
    if cubes:
        text += f", {cubes} cube{'s' if cubes != 1 else ''}"
    if block.get("exhausted"):
        text += ", exhausted"
    return text


def _race_to_berlin(view: Mapping[str, Any]) -> MapFacts:
    places = []
    for area in view["board"]:
        pieces = [Piece(u["id"], u["name"], u["force"], u.get("strength")) for u in area["units"]]
        pieces += [
            Piece(b.get("label") or f"block-{n}", _block_label(b), b["owner"])
            for n, b in enumerate(area["blocks"], start=1)
        ]
        notes = []
        if not area.get("supplied", True):
            notes.append("unsupplied")
        if area.get("terrain"):
            notes.append(f"terrain +{area['terrain']}")
        if area.get("eagle"):
            holder = area.get("eagle_holder")
            notes.append(f"{area['eagle']} eagle" + (f" held by {holder}" if holder else ""))
        fort = area.get("fortification")
        if fort:
            notes.append(f"{fort['name']} ({fort['kind']}, +{fort['defense']})")
        places.append(
            PlaceFacts(area["id"], area["name"], area["control"], tuple(pieces), tuple(notes))
        )
    vp = view.get("vp") or {}
    victory: tuple[str, ...] = ()
    if vp:
        victory = ("Victory points: " + ", ".join(f"{r} {n}" for r, n in vp.items()),)
    victory += (
        "A player who occupies B1 with a Western or Soviet unit wins at once; one who cannot"
        " pay a cube penalty loses at once; else after the third turn the most victory"
        " points win, and ties are possible (rulebook 5)",
    )
    return MapFacts(tuple(places), victory)


def _berlin_1945(view: Mapping[str, Any]) -> MapFacts:
    units = view["units"]
    markers = view.get("markers") or {}
    # The zones with their names when the view lists them; else the control table alone.
    zones = view.get("zones") or [
        {"id": zone, "label": f"zone {zone}", "control": control}
        for zone, control in view["control"].items()
    ]
    places = []
    for zone in zones:
        zid = zone["id"]
        here = [
            Piece(uid, u.get("name") or uid, u["side"], u.get("strength"))
            for uid, u in units.items()
            if u.get("zone") == zid and u.get("status") == "on"
        ]
        notes = tuple(
            f"marker {m['kind']} ({m['side']}" + (f" +{m['amount']})" if m.get("amount") else ")")
            for m in zone.get("markers", markers.get(zid, []))
        )
        control = zone.get("control") or "none"  # the edge areas: nobody's (rulebook 2.1)
        places.append(PlaceFacts(zid, zone.get("label") or zid, control, tuple(here), notes))
    result = view.get("result")
    victory: tuple[str, ...] = ()
    if isinstance(result, dict):
        victory = (f"Result: {result['reason']}",)
    victory += (
        "The Soviet wins if at the end of turn 12 the Soviet combat strength in Sector V"
        " (the Reichstag) is at least twice the German there (rulebook 9.1); from the end of"
        " turn 4 the German wins at once when the German combat strength in Berlin is"
        " greater than the Soviet; otherwise the German wins (rulebook 9.2)",
    )
    return MapFacts(tuple(places), victory)


def _race_to_berlin_own(view: Mapping[str, Any], role: str) -> tuple[str, ...]:
    lines = []
    hand = (view.get("hands") or {}).get(role)
    if hand is not None:
        lines.append("Logistics blocks still to place: " + (", ".join(map(str, hand)) or "none"))
    for area in view["board"]:
        for block in area["blocks"]:
            mine = block["owner"] == role and block.get("value") is not None
            if mine and not block.get("revealed"):
                lines.append(
                    f"Your sealed block in {area['id']} ({area['name']}): {block['value']}"
                )
    return tuple(lines)


def _orders_text(plan: Mapping[str, Any]) -> str:
    return "; ".join(
        f"{o['frm']} -> "
        + ", ".join(d[0] if d[1] is None else f"{d[0]}:{d[1]}" for d in o["dests"])
        for o in plan.get("orders", [])
    )


def _berlin_1945_own(view: Mapping[str, Any], role: str) -> tuple[str, ...]:
    lines = []
    hand = (view.get("hands") or {}).get(role) or {}
    cards = view.get("cards") or {}
    held = [
        slot["card"]
        for slot in (hand.get("slots") or {}).values()
        if slot.get("status") in ("hand", "pending") and slot.get("card") is not None
    ]
    names = []
    for number in held:
        card = cards.get(f"{role}-{number}") or {}
        names.append(f"#{number} {card.get('name', '')}".rstrip())
    if held or hand:
        lines.append("Your hand: " + (", ".join(names) or "no card"))
    plan = view.get("plan") or {}
    mine = plan.get("mine") if isinstance(plan, Mapping) else None
    if isinstance(mine, Mapping) and plan.get("orders") is None:
        lines.append(f"Your sealed plan for turn {view.get('turn')}: {_orders_text(mine)}")
    return tuple(lines)


def _race_to_the_sea(view: Mapping[str, Any]) -> MapFacts:
    """The named hexes and the hexes with counters; a hidden counter by its public face
    only (its unit is in the owner's own facts, `_race_to_the_sea_own`)."""
    from pbem.games.race_to_the_sea import report
    from pbem.games.race_to_the_sea.state import control_of

    by_hex: dict[int, list[str]] = {}
    for name in sorted(view["counters"]):
        by_hex.setdefault(int(view["counters"][name]["hex"]), []).append(name)
    named = {int(info["hex"]) for info in view["board"]["hexes"].values() if info.get("name")}
    flooded = {int(h) for h in view.get("flooded") or ()}
    places = []
    for h in sorted(named | set(by_hex)):
        pieces = tuple(
            Piece(n, report.counter_text(view, n, None), view["counters"][n]["side"])
            for n in by_hex.get(h, [])
        )
        notes = ("flooded (9.8)",) if h in flooded else ()
        control = control_of(view, h) or "none"  # type: ignore[arg-type]
        places.append(PlaceFacts(f"{h:04d}", report.place(view, h), control, pieces, notes))
    return MapFacts(
        tuple(places),
        (
            "Victory is scored only after turn 10 (14): the ports and cities, the hexes"
            " behind enemy lines and the flooded hex; see the victory-level table (14.5)",
        ),
    )


def _race_to_the_sea_own(view: Mapping[str, Any], role: str) -> tuple[str, ...]:
    from pbem.games.race_to_the_sea import report

    lines = []
    hand = (view.get("hands") or {}).get(role)
    if hand is not None:
        lines.append("Initiative Cards in hand: " + (", ".join(map(str, hand)) or "none"))
    for name in sorted(view["counters"]):
        c = view["counters"][name]
        if c["side"] == role and c.get("unit") is None:
            text = report.counter_text(view, name, role)
            if not text.startswith("hidden "):
                lines.append(f"In {report.place(view, int(c['hex']))}, {text}")
    return tuple(lines)


def _gotterdammerung(view: Mapping[str, Any]) -> MapFacts:
    """The VP hexes and the hexes with units (both maps and the NGP Box); nothing on the
    maps is hidden from one side only (a face-down Volkssturm unit reads as such)."""
    from pbem.games.gotterdammerung import report

    by_hex: dict[str, list[Any]] = {}
    for uid in sorted(view["units"]):
        unit = view["units"][uid]
        by_hex.setdefault(str(unit["hex"]), []).append(unit)
    vp = {str(item["hex"]): int(item["vp"]) for item in view["board"]["vp"]}
    occupied = set(view.get("occupied") or ())
    places = []
    for h in sorted(set(vp) | set(by_hex)):
        pieces = tuple(
            Piece(u["id"], report.unit_text(view, u), str(u["side"])) for u in by_hex.get(h, [])
        )
        notes = (f"{vp[h]} VP (11.13)",) if h in vp else ()
        control = "Soviet Occupied" if h in occupied else "none"
        places.append(PlaceFacts(h, report.place(view, h), control, pieces, notes))
    return MapFacts(
        tuple(places),
        (
            "Victory is scored after turn 10 (11): Soviet VP for the occupied VP hexes, the"
            " turn 1-3 bonus and the Meeting at the Elbe; German VP for surviving units;"
            " the difference is read on the 11.2 table",
        ),
    )


_OWN: dict[str, Callable[[Mapping[str, Any], str], tuple[str, ...]]] = {
    "race-to-berlin": _race_to_berlin_own,
    "berlin-1945": _berlin_1945_own,
    "race-to-the-sea": _race_to_the_sea_own,
}


def own_facts(rules: str, view: Any, role: str) -> tuple[str, ...]:
    """What `role`'s own view shows that nobody else's does (its hand, its sealed blocks,
    its plan), in the game's words; only ever called with that role's own view."""
    reader = _OWN.get(rules)
    if reader is None or not isinstance(view, Mapping):
        return ()
    return reader(view, role)


_READERS: dict[str, Callable[[Mapping[str, Any]], MapFacts]] = {
    "barbarossa": _barbarossa,
    "race-to-berlin": _race_to_berlin,
    "berlin-1945": _berlin_1945,
    "race-to-the-sea": _race_to_the_sea,
    "gotterdammerung": _gotterdammerung,
}


def map_facts(rules: str, view: Any) -> MapFacts | None:
    """The places of `rules`' map as `view` shows them; None for a game without a reader
    (or before play starts, when there is no view)."""
    reader = _READERS.get(rules)
    if reader is None or not isinstance(view, Mapping):
        return None
    return reader(view)
