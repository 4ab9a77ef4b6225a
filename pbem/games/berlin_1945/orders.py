"""What both Movement phases share (rulebook 5, 6, 2.3): the log of orders carried out
(which a reaction card may cancel), Rebuild orders, and M cards played in one's own
Movement phase."""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.berlin_1945 import flow, position, tables
from pbem.games.berlin_1945.cards import MOVEMENT_EFFECTS, card_of, movement_effects
from pbem.games.berlin_1945.decisions import Play
from pbem.games.berlin_1945.hands import play_opened
from pbem.games.berlin_1945.plan import order_at, rebuildable
from pbem.games.berlin_1945.position import is_area, limit, units_at, update_control
from pbem.games.berlin_1945.rulebook import NAMES
from pbem.games.berlin_1945.state import fixed, illegal

# --- the log of a Movement phase (for reaction cards, 2.3, 6.1) ------------------------------


def log_move(
    state: State,
    frm: str,
    groups: list[tuple[str, list[str]]],
    extra: bool,
    card: int | None = None,
) -> None:
    """Log an order for the reaction window; `card` names the card that gave it."""
    zones = [frm] + [to for to, _u in groups]
    entry = {
        "n": len(state["move"]["log"]) + 1,
        "kind": "move",
        "extra": extra,
        "frm": frm,
        "groups": [[to, list(u)] for to, u in groups],
        "control": {z: state["control"].get(z) for z in zones},
    }
    if card is not None:
        entry["card"] = card
    if fixed(state) and tables.of(state).units[groups[0][1][0]].side == "soviet":
        # version 1.1: the first-entry flags before a Soviet order, so that undoing it
        # undoes the first entries it made (5.2-5.4, `undo.undo_order`)
        entry["flags"] = dict(state["flags"])
    state["move"]["log"].append(entry)


def log_rebuild(state: State, unit: str, zone: str, extra: bool) -> None:
    state["move"]["log"].append(
        {
            "n": len(state["move"]["log"]) + 1,
            "kind": "rebuild",
            "extra": extra,
            "unit": unit,
            "zone": zone,
            "control": {zone: state["control"].get(zone)},
        }
    )


# --- Rebuild orders (6) ------------------------------------------------------------------------


def check_rebuild(state: State, role: str, unit: str, zone: str) -> None:
    if unit not in rebuildable(state, role):
        raise illegal(
            f"{unit} is not a removed {NAMES[role]} unit that can be rebuilt (not SS or Guards)",
            "6",
        )
    if zone not in tables.of(state).ring or is_area(state, zone):
        raise illegal("units cannot be rebuilt in Areas A to F", "6")
    if state["control"].get(zone) != role:
        raise illegal(f"{zone} is not under {NAMES[role]} control", "6")
    cap = limit(state, zone, role)
    if cap is not None and len(units_at(state, zone, role)) + 1 > cap:
        raise illegal(f"the rebuilt unit would exceed the stacking limit of {zone}", "5.3, 6")


def place_rebuilt(state: State, unit: str, zone: str, ctx: Context) -> None:
    position.restore(state, unit, zone)
    state["move"]["moved"].append(unit)
    update_control(state, zone)
    ctx.event(f"{unit} is rebuilt in {zone} (rulebook 6)")


# --- M cards in one's own Movement phase (2.3) -----------------------------------------------


def play_card(state: State, role: str, d: Play, ctx: Context) -> None:
    """Play an M / ! card: every effect is checked, then its slot opens, then it acts."""
    if d.order is not None or d.target is not None:
        raise illegal("reaction cards are played as the opponent's Movement phase ends", "2.3")
    effects = movement_effects(state, role, d.card)
    ending = fixed(state) and any(e["when"] == "movement-end" for e in effects)
    if ending:
        check_phase_end(state, role, d.card)
    calls = [(e, zone) for e in effects for zone in effect_zones(e, d)]
    for e, zone in calls:
        MOVEMENT_EFFECTS[e["effect"]](state, role, e, zone, ctx, False)
    play_opened(state, role, (d.card,), ctx)
    state["move"]["card_log"].append({"n": d.card, "mode": effects[0]["mode"], "undo": []})
    ctx.event(f"{NAMES[role]} plays card #{d.card} {card_of(state, role, d.card)['name']}")
    for e, zone in calls:
        MOVEMENT_EFFECTS[e["effect"]](state, role, e, zone, ctx, True)
    if ending:
        state["move"]["ended"] = True  # 8.2: the movements are over; no order follows
    if any(e["effect"] == "remove_unit" for e in effects):
        # 9.2 holds "at any time during any turn", not only after combats
        flow.german_auto_victory(state, ctx)


def check_phase_end(state: State, role: str, card: int) -> None:
    """2.3, 8.2 (1.1): a card played "at the end of your Movement phase" comes once the
    side has given its Movement orders: the German gives none after it (as after a Rebuild
    order, 6); the Soviet plays it once no planned Movement order waits to be executed."""
    if role != "soviet":
        return
    plan = state["plan"]
    for index, status in plan["status"].items():
        kind, _o = order_at(plan["value"], int(index))
        if status == "todo" and kind != "rebuild":
            raise illegal(
                f"card {card} is played at the end of your Movement phase: execute, convert "
                f"or cancel order {index} first",
                "2.3, 8.2",
            )


def effect_zones(effect: dict[str, Any], d: Play) -> list[str | None]:
    """The zones one effect acts in: a card placing several markers takes up to its count,
    one a zone (`play 5 in 12, 13, 14`); every other effect one zone or none."""
    zones = [d.zone, *d.more_zones] if d.zone else []
    count = int(effect.get("count", 1)) if effect["effect"] == "place_marker" else 1
    if len(zones) > count:
        raise illegal(
            f"card {d.card} acts in {'one zone' if count == 1 else f'up to {count} zones'}",
            "2.3",
        )
    if len(set(zones)) != len(zones):
        raise illegal(f"card {d.card} places its markers one a zone", "2.3")
    return list(zones) or [None]
