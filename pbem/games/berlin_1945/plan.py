"""Secret Soviet planning (rulebook 7.2) and what its execution needs (7.3, 6, 6.1).

The plan is a kit hidden piece, `state["plan"]`, labelled `plan/turn-<n>` (value: the
structured plan), with the public facts legality at planning time needs (`snapshot`: the
position and the Soviet hand when it was committed). When it opens, the plan is checked
against the snapshot (an illegal plan is a false claim naming the planning entry), then
executed order by order in the order the Soviet chooses; orders the German made illegal
are cancelled or converted into a Retreat.

A plan is checked by playing it on a copy of the planning position, one order after the
other (`Draft`); the bot builds its plans on a draft too, order by order.
"""

from __future__ import annotations

from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import State
from pbem.errors import IllegalOrderError, PbemError
from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.decisions import Plan, PlanOrder, zone_text
from pbem.games.berlin_1945.hands import held_labels, in_hand
from pbem.games.berlin_1945.moves import carry_out, check_destinations, check_order
from pbem.games.berlin_1945.position import is_area, units_at
from pbem.games.berlin_1945.rulebook import BASIC_SOVIET, COVER, ROLES
from pbem.games.berlin_1945.state import fixed, new_move_record

CARD_ORDERS = {13: 2, 22: 1}  # Zhukov, Konev (5.4)
Order = dict[str, Any]


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


def order_text(order: Order) -> str:
    """A planned order as the plan syntax writes it ('15 to 8:2, 16:all'), for messages."""
    dests = ", ".join(f"{zone_text(str(z))}:{'all' if c is None else c}" for z, c in order["dests"])
    return f"{zone_text(str(order['frm']))} to {dests}"


def _order_from_json(value: Any) -> Order:
    return {
        "frm": str(value["frm"]),
        "dests": [[str(z), None if c is None else int(c)] for z, c in value["dests"]],
    }


def plan_from_json(value: Any) -> dict[str, Any]:
    """Shape-check an opened plan value (a malformed value is refused)."""
    try:
        extra, rebuild, card = value["extra"], value["rebuild"], value["card"]
        return {
            "orders": [_order_from_json(o) for o in value["orders"]],
            "extra": None if extra is None else _order_from_json(extra),
            "rebuild": None if rebuild is None else str(rebuild),
            "card": None if card is None else int(card),
        }
    except KeyError as exc:
        raise IllegalOrderError(f"the opened plan is malformed: it has no {exc.args[0]}") from exc
    except (TypeError, ValueError) as exc:
        raise IllegalOrderError("the opened plan is malformed: a part has the wrong form") from exc


# --- legality at planning time ------------------------------------------------------------------


def snapshot(state: State) -> dict[str, Any]:
    """What legality at planning time needs: the position and the Soviet hand now."""
    units = tables.of(state).units
    return {
        # `position` replaces the lists of `at`, never changes them: they can be shared
        "at": {side: dict(state["at"][side]) for side in ROLES},
        "removed": [u for u in state["removed"] if units[u].side == "soviet"],
        "control": dict(state["control"]),
        "flags": dict(state["flags"]),
        "hand": len(in_hand(state, "soviet")),
        "slots": sorted(held_labels(state, "soviet")),
    }


class Draft:
    """A plan being checked: the planning position, with the orders so far carried out."""

    def __init__(self, state: State, snap: dict[str, Any]) -> None:
        temp = dict(state)  # the static parts are shared, the position is the snapshot's
        temp["at"] = {side: dict(snap["at"][side]) for side in ROLES}
        temp["removed"] = list(snap["removed"])
        temp["control"] = dict(snap["control"])
        temp["flags"] = dict(snap["flags"])
        temp["move"] = new_move_record()
        self.state = temp
        self.starts: set[str] = set()
        self.log: list[dict[str, Any]] = []  # the orders so far, for two destinations a zone

    def add(self, order: Order) -> None:
        """Carry out one more planned order, or refuse it (PbemError)."""
        frm = order["frm"]
        if not fixed(self.state) and frm in self.starts:
            raise PbemError(
                f"two orders from {frm}: units of one zone move with one order to at "
                "most two destinations (rulebook 5, 7.3)"
            )
        try:
            if fixed(self.state):  # 1.1: two destinations a zone, as for the German
                check_destinations(self.log, frm, [to for to, _c in order["dests"]], False)
            groups = allocate(self.state, order)
            check_order(self.state, "soviet", frm, groups)
        except PbemError as exc:
            raise PbemError(f"order {order_text(order)}: {exc}") from exc
        carry_out(self.state, "soviet", frm, groups)
        self.starts.add(frm)
        self.log.append({"kind": "move", "frm": frm, "groups": [[to, []] for to, _u in groups]})

    def fits(self, order: Order) -> bool:
        """Whether `order` would be legal next (the draft is unchanged)."""
        if not fixed(self.state) and order["frm"] in self.starts:
            return False
        try:
            if fixed(self.state):
                dests = [to for to, _c in order["dests"]]
                check_destinations(self.log, order["frm"], dests, False)
            check_order(self.state, "soviet", order["frm"], allocate(self.state, order))
        except PbemError:
            return False
        return True

    def check_rebuild(self, zone: str) -> None:
        state = self.state
        if zone not in tables.of(state).ring or is_area(state, zone):
            raise PbemError(f"no rebuild in {zone} (rulebook 6)")
        if state["control"].get(zone) != "soviet":
            raise PbemError(f"rebuild in {zone}, which the Soviet does not control (rulebook 6)")
        if not rebuildable(state, "soviet"):
            raise PbemError("no removed Soviet unit can be rebuilt (rulebook 6)")


def check_plan_legal(state: State, snap: dict[str, Any], plan: dict[str, Any]) -> None:
    """7.2: every order legal when planned (played on the planning snapshot)."""
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
    draft = Draft(state, snap)
    for order in plan["orders"] + ([plan["extra"]] if plan["extra"] else []):
        draft.add(order)
    if plan["rebuild"] is not None:
        draft.check_rebuild(plan["rebuild"])


# --- execution ---------------------------------------------------------------------------------


def allocate(state: State, order: Order, *, retreat: bool = False) -> list[tuple[str, list[str]]]:
    """The units of an order: planned counts from the unmoved Soviet units (elites first)."""
    frm = order["frm"]
    moved = set(state["move"]["moved"]) if state["move"] else set()
    here = units_at(state, frm, "soviet")
    avail = [u for u in here if u not in moved]
    units = tables.of(state).units
    avail.sort(key=lambda u: (not units[u].elite, u))
    dests = order["dests"]
    n2 = dests[1][1] if len(dests) > 1 else 0
    n1 = dests[0][1] if dests[0][1] is not None else len(avail) - n2
    counts = [n1] + ([n2] if len(dests) > 1 else [])
    if retreat:
        room = min(len(here) - COVER["soviet"], len(avail))
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


def rebuildable(state: State, side: str) -> list[str]:
    """Removed units of `side` that can be rebuilt (not SS or Guards, rulebook 6)."""
    units = tables.of(state).units
    return [u for u in state["removed"] if units[u].side == side and units[u].rebuild]


def order_at(plan: dict[str, Any], index: int) -> tuple[str, Order | None]:
    """The kind ('basic', 'extra', 'rebuild') and order of a plan index (1-based)."""
    n = len(plan["orders"])
    if 1 <= index <= n:
        return "basic", plan["orders"][index - 1]
    if index == n + 1 and plan["extra"] is not None:
        return "extra", plan["extra"]
    if index == n + 1 and plan["rebuild"] is not None:
        return "rebuild", None
    raise PbemError(f"the plan has no order {index}")
