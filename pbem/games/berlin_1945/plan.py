"""Secret Soviet planning (rulebook 7.2) and its execution (7.3, 6, 6.1).

The plan is one commitment `plan/turn-<n>` (value: the structured plan). The public state
keeps the planning entry's seq and a snapshot of what legality needs at planning time.
When it opens, the plan is checked against the snapshot (an illegal plan is a false claim
naming the planning entry), then executed order by order in the Soviet's chosen order;
orders made illegal by the German are cancelled or converted into a Retreat.
"""

from __future__ import annotations

from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import State
from pbem.errors import IllegalOrderError, PbemError
from pbem.games.berlin_1945.decisions import Plan, PlanOrder
from pbem.games.berlin_1945.moves import carry_out, check_order
from pbem.games.berlin_1945.state import (
    COVER,
    is_area,
    new_move_record,
    units_at,
)

BASIC_SOVIET = 3
CARD_ORDERS = {13: 2, 22: 1}  # Zhukov, Konev (5.4)


def plan_label(turn: int) -> str:
    return f"plan/turn-{turn}"


def plan_to_json(plan: Plan) -> dict[str, JSON]:
    def order(o: PlanOrder) -> JSON:
        return {"frm": o.frm, "dests": [[z, c] for z, c in o.dests]}

    return {
        "orders": [order(o) for o in plan.orders],
        "extra": order(plan.extra) if plan.extra else None,
        "rebuild": plan.rebuild,
        "card": plan.card,
    }


def plan_from_json(value: Any) -> dict[str, Any]:
    """Shape-check an opened plan value (a malformed value is refused)."""
    try:
        orders = [
            {
                "frm": str(o["frm"]),
                "dests": [[str(z), None if c is None else int(c)] for z, c in o["dests"]],
            }
            for o in value["orders"]
        ]
        extra = value["extra"]
        if extra is not None:
            extra = {
                "frm": str(extra["frm"]),
                "dests": [[str(z), None if c is None else int(c)] for z, c in extra["dests"]],
            }
        rebuild = value["rebuild"]
        card = value["card"]
        return {
            "orders": orders,
            "extra": extra,
            "rebuild": None if rebuild is None else str(rebuild),
            "card": None if card is None else int(card),
        }
    except (KeyError, TypeError, ValueError) as exc:
        raise IllegalOrderError(f"the opened plan is malformed: {exc}") from exc


def snapshot(state: State) -> dict[str, Any]:
    from pbem.games.berlin_1945.hands import hand_size, in_hand

    return {
        "units": {
            u: [v["zone"], v["status"]]
            for u, v in state["units"].items()
            if v["side"] == "soviet" or v["status"] == "on"
        },
        "control": dict(state["control"]),
        "flags": dict(state["flags"]),
        "hand": hand_size(state, "soviet"),
        "slots": [
            state["hands"]["soviet"]["slots"][str(k)]["label"] for k in in_hand(state, "soviet")
        ],
    }


def state_at_planning(state: State) -> State:
    snap = state["plan"]["snapshot"]
    temp = dict(state)
    units = {}
    for uid, u in state["units"].items():
        zone, status = snap["units"].get(uid, [None, "off"])
        units[uid] = dict(u, zone=zone, status=status)
    temp["units"] = units
    temp["control"] = dict(snap["control"])
    temp["flags"] = dict(snap["flags"])
    temp["move"] = new_move_record(state)
    return temp


def allocate(
    state: State, order: dict[str, Any], *, retreat: bool = False
) -> list[tuple[str, list[str]]]:
    """The units of an order: planned counts from the unmoved Soviet units (elites first)."""
    frm = order["frm"]
    moved = set(state["move"]["moved"]) if state["move"] else set()
    avail = [u for u in units_at(state, frm, "soviet") if u not in moved]
    avail.sort(key=lambda u: (not state["units"][u]["elite"], u))
    dests = order["dests"]
    n2 = dests[1][1] if len(dests) > 1 else 0
    n1 = dests[0][1] if dests[0][1] is not None else len(avail) - n2
    counts = [n1] + ([n2] if len(dests) > 1 else [])
    if retreat:
        room = len(units_at(state, frm, "soviet")) - COVER["soviet"]
        room = min(room, len(avail))
        excess = max(0, sum(counts) - max(room, 0))
        for i in range(len(counts)):
            cut = min(excess, counts[i])
            counts[i] -= cut
            excess -= cut
        if sum(counts) <= 0:
            raise PbemError(f"a Retreat from {frm} must leave 2 units and move at least one")
    if any(c < 1 for c in counts) and not retreat:
        raise PbemError(f"no units left to move from {frm}")
    if sum(counts) > len(avail):
        raise PbemError(f"{frm} holds only {len(avail)} Soviet unit(s) able to move")
    groups = []
    i = 0
    for (to, _c), n in zip(dests, counts, strict=False):
        if n > 0:
            groups.append((to, avail[i : i + n]))
        i += n
    return groups


def check_plan_legal(state: State, plan: dict[str, Any]) -> None:
    """7.2: every order legal when planned (a simulation on the planning snapshot)."""
    temp = state_at_planning(state)
    snap = state["plan"]["snapshot"]
    card = plan["card"]
    if card is not None and card not in CARD_ORDERS:
        raise PbemError(f"card {card} gives no planned orders (only #13 and #22 do)")
    allowed = BASIC_SOVIET + (CARD_ORDERS[card] if card is not None else 0)
    if len(plan["orders"]) > allowed:
        raise PbemError(f"{len(plan['orders'])} orders planned, at most {allowed} (rulebook 5.4)")
    if card is not None and (plan["extra"] or plan["rebuild"]):
        raise PbemError(f"card #{card} excludes the additional order by discards (rulebook 5.4)")
    if plan["extra"] and plan["rebuild"]:
        raise PbemError("one additional order per turn (rulebook 6.1)")
    if (plan["extra"] or plan["rebuild"]) and snap["hand"] < 2:
        raise PbemError("an additional order needs two cards to discard (rulebook 6.1)")
    starts = set()
    for order in plan["orders"] + ([plan["extra"]] if plan["extra"] else []):
        if order["frm"] in starts:
            raise PbemError(
                f"two orders from {order['frm']}: units of one zone move with one order to at "
                "most two destinations (rulebook 5, 7.3)"
            )
        starts.add(order["frm"])
        try:
            groups = allocate(temp, order)
            check_order(temp, "soviet", order["frm"], groups)
        except PbemError as exc:
            raise PbemError(f"order {order['frm']} -> {order['dests']}: {exc}") from exc
        carry_out(temp, "soviet", order["frm"], groups)
    if plan["rebuild"] is not None:
        zone = plan["rebuild"]
        if zone not in state["map"]["ring"] or is_area(state, zone):
            raise PbemError(f"no rebuild in {zone} (rulebook 6)")
        if temp["control"].get(zone) != "soviet":
            raise PbemError(f"rebuild in {zone}, which the Soviet does not control (rulebook 6)")
        if not rebuildable(temp, "soviet"):
            raise PbemError("no removed Soviet unit can be rebuilt (rulebook 6)")


def rebuildable(state: State, side: str) -> list[str]:
    return sorted(
        uid
        for uid, u in state["units"].items()
        if u["side"] == side and u["status"] == "removed" and u["rebuild"]
    )


def order_at(plan: dict[str, Any], index: int) -> tuple[str, dict[str, Any] | None]:
    """The kind ('basic', 'extra', 'rebuild') and order of a plan index (1-based)."""
    n = len(plan["orders"])
    if 1 <= index <= n:
        return "basic", plan["orders"][index - 1]
    if index == n + 1 and plan["extra"] is not None:
        return "extra", plan["extra"]
    if index == n + 1 and plan["rebuild"] is not None:
        return "rebuild", None
    raise PbemError(f"the plan has no order {index}")


def plan_indices(plan: dict[str, Any]) -> list[int]:
    n = len(plan["orders"]) + (1 if plan["extra"] or plan["rebuild"] else 0)
    return list(range(1, n + 1))
