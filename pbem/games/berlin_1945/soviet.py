"""The Soviet plan (rulebook 7.2) and its execution (7.3, 6, 6.1): the plan committed in
secret, opened after the German movement and checked for legality at planning time, then
executed order by order; an order the German made illegal is cancelled or converted into a
Retreat; the additional order is paid with two cards when it is resolved."""

from __future__ import annotations

from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context, State
from pbem.errors import IllegalOrderError, PbemError
from pbem.games.berlin_1945 import flow
from pbem.games.berlin_1945.decisions import (
    Cancel,
    EndMovement,
    Execute,
    Open,
    Plan,
    Rebuild,
    RetreatOrder,
)
from pbem.games.berlin_1945.hands import discard, hand_size, in_hand, play_opened
from pbem.games.berlin_1945.moves import carry_out, check_order
from pbem.games.berlin_1945.orders import check_rebuild, log_move, log_rebuild, place_rebuilt
from pbem.games.berlin_1945.plan import (
    CARD_ORDERS,
    allocate,
    check_plan_legal,
    order_at,
    plan_from_json,
    plan_label,
    rebuildable,
    snapshot,
)
from pbem.games.berlin_1945.position import units_at
from pbem.games.berlin_1945.rulebook import BASIC_SOVIET
from pbem.games.berlin_1945.state import fixed, illegal
from pbem.kit import pieces
from pbem.kit.pieces import Piece

# --- planning (7.2) ---------------------------------------------------------------------------


def do_plan(state: State, role: str, d: Plan, ctx: Context) -> None:
    label = plan_label(state["turn"])
    if not d.sealed:
        raise illegal(
            "the plan is secret: the public decision is 'plan', the orders are sealed", "7.2"
        )
    if label not in ctx.committed_now():
        raise illegal(f"the plan decision commits the plan as {label}", "7.2")
    state["plan"] = pieces.place(ctx, label, "soviet", "7.2", snapshot=snapshot(state))
    ctx.event(f"the Soviet plans turn {state['turn']} in secret (entry {ctx.seq})")
    flow.start_german_movement(state, ctx)


def legal_when_planned(state: State, piece: Piece, plan: dict[str, Any]) -> None:
    """7.2: the orders were legal at planning time; else a false claim of the planning entry."""
    try:
        check_plan_legal(state, piece["snapshot"], plan)
    except PbemError as exc:
        raise pieces.false_claim(
            piece["placed_at"], "soviet", f"an illegal plan: {exc}", "7.2"
        ) from exc


def not_held(piece: Piece, card: int) -> IllegalOrderError:
    return pieces.false_claim(
        piece["placed_at"], "soviet", f"card #{card} was not in hand when planned", "7.2"
    )


def do_open(state: State, role: str, d: Open, ctx: Context) -> None:
    """7.3: the plan opens (and the slot of a card it uses, #13 / #22), then is executed."""
    piece = state["plan"]
    opened = ctx.opened_now()
    checked: dict[str, Any] = {}

    def check(piece: Piece, value: JSON) -> None:
        plan = plan_from_json(value)
        card = plan["card"]
        if card is not None:
            # a card named by the plan is played now, from a slot held at planning time
            slots = [lb for lb in opened if lb.startswith("hand/soviet/")]
            if len(slots) != 1 or opened[slots[0]] != card:
                raise pieces.false_claim(
                    piece["placed_at"],
                    "soviet",
                    f"the plan uses card #{card}, which opening must show",
                    "5.4",
                )
            if slots[0] not in piece["snapshot"]["slots"]:
                raise pieces.false_claim(
                    piece["placed_at"],
                    "soviet",
                    f"card #{card} was not in hand when planned",
                    "7.2",
                )
        elif len(opened) != 1:
            raise illegal("opening the plan opens nothing else", "7.3")
        legal_when_planned(state, piece, plan)
        checked["plan"] = plan

    pieces.reveal(piece, ctx, check)
    plan = piece["value"] = checked["plan"]  # the plan as the rules read it
    del piece["snapshot"]  # it served the check
    if plan["card"] is not None:
        play_opened(state, "soviet", (plan["card"],), ctx)
        # the orders planned beyond the three basic ones are the card's (logged with its
        # number): a German card cancelling it undoes them (2.3, 6.1)
        state["move"]["card_log"].append(
            {"n": plan["card"], "mode": "!", "undo": [{"t": "orders"}]}
        )
        ctx.event(
            f"Soviet plays card #{plan['card']}: +{CARD_ORDERS[plan['card']]} order(s) this turn"
        )
    last = len(plan["orders"]) + (1 if plan["extra"] or plan["rebuild"] else 0)
    piece["status"] = {str(i): "todo" for i in range(1, last + 1)}
    ctx.event(f"the Soviet plan of turn {state['turn']} is opened: {describe(plan)}")
    state["step"] = "soviet"


def open_at_the_end(state: State, ctx: Context) -> None:
    """A plan still sealed when the game ends (a German card decided it during the German
    movement) opens with the rest, and its legality at planning time is checked too."""
    piece = state["plan"]

    def check(piece: Piece, value: JSON) -> None:
        plan = plan_from_json(value)
        card = plan["card"]
        slots = state["hands"]["soviet"]["slots"]
        held = [p for p in slots.values() if p["label"] in piece["snapshot"]["slots"]]
        if card is not None and not any(p["value"] == card for p in held):
            raise not_held(piece, card)
        legal_when_planned(state, piece, plan)

    pieces.reveal(piece, ctx, check)


def describe(plan: dict[str, Any]) -> str:
    def one(o: dict[str, Any]) -> str:
        return f"{o['frm']} -> " + ", ".join(
            f"{z}:{'all' if c is None else c}" for z, c in o["dests"]
        )

    parts = [f"{i}. {one(o)}" for i, o in enumerate(plan["orders"], start=1)]
    n = len(plan["orders"]) + 1
    if plan["extra"]:
        parts.append(f"{n}. extra {one(plan['extra'])}")
    if plan["rebuild"]:
        parts.append(f"{n}. rebuild in {plan['rebuild']}")
    return "; ".join(parts) or "no orders"


# --- execution (7.3) ---------------------------------------------------------------------------


def all_basic_done(state: State) -> bool:
    plan = state["plan"]
    n = len(plan["value"]["orders"])
    return all(plan["status"][str(i)] != "todo" for i in range(1, n + 1))


def _todo(state: State, index: int) -> tuple[str, dict[str, Any] | None]:
    plan = state["plan"]
    if plan["status"].get(str(index)) != "todo":
        raise illegal(f"order {index} is not waiting to be executed", "7.3")
    return order_at(plan["value"], index)


def groups_for(
    state: State, order: dict[str, Any], units: Any, retreat: bool = False
) -> list[tuple[str, list[str]]]:
    """The planned counts as units: elites first, or the units the Soviet names (`with`)."""
    groups = allocate(state, order, retreat=retreat)
    if units is None:
        return groups
    if len(units) != len(groups) or any(
        len(u) != len(g) for u, (_t, g) in zip(units, groups, strict=False)
    ):
        sizes = " / ".join(str(len(g)) for _t, g in groups)
        raise PbemError(f"the order moves {sizes} unit(s)")
    return [(to, list(u)) for (to, _g), u in zip(groups, units, strict=True)]


def pay_extra(state: State, slots: tuple[int, ...], what: str) -> None:
    """6.1: two cards for the additional order; with fewer than two, none and no order."""
    if hand_size(state, "soviet") >= 2:
        if len(slots) != 2:
            raise illegal(
                f"name the two cards discarded for the additional order: "
                f"'{what} discard slots A, B'",
                "6.1",
            )
        for k in slots:
            if k not in in_hand(state, "soviet"):
                raise illegal(f"#{k} is not a card in the Soviet hand", "2.3")
    elif slots:
        raise illegal(
            "with fewer than two cards the additional order is cancelled and nothing is discarded",
            "6.1",
        )


def card_of_order(state: State, index: int) -> int | None:
    """The card (#13 / #22) that gave plan order `index`: those beyond the basic three."""
    plan = state["plan"]["value"]
    if plan["card"] is not None and BASIC_SOVIET < index <= len(plan["orders"]):
        return int(plan["card"])
    return None


def do_execute(state: State, role: str, d: Execute, ctx: Context) -> None:
    kind, order = _todo(state, d.index)
    status = state["plan"]["status"]
    if kind == "rebuild":
        execute_rebuild(state, role, d, ctx)
        return
    assert order is not None
    if kind == "extra":
        if hand_size(state, role) < 2:
            raise illegal(
                "fewer than two cards: the additional order is cancelled ('cancel N')", "6.1"
            )
        pay_extra(state, d.slots, f"execute {d.index}")
    elif d.slots:
        raise illegal("only the additional order is paid with discards", "6.1")
    try:
        groups = groups_for(state, order, d.units)
        kinds = check_order(state, "soviet", order["frm"], groups)
    except PbemError as exc:
        raise illegal(
            f"order {d.index} cannot be executed now ({exc}); it is cancelled: 'cancel {d.index}'"
            + (f" or 'retreat {d.index}'" if kind == "basic" else " with its discards"),
            "7.3",
        ) from exc
    if kind == "extra":
        discard(state, role, d.slots, "additional Movement order, rulebook 6.1", ctx)
    log_move(state, order["frm"], groups, kind == "extra", card_of_order(state, d.index))
    carry_out(state, "soviet", order["frm"], groups)
    status[str(d.index)] = "done"
    ctx.event(
        f"Soviet order {d.index} ({'/'.join(kinds)}) from {order['frm']}: "
        + "; ".join(f"{', '.join(u)} to {to}" for to, u in groups)
    )


def execute_rebuild(state: State, role: str, d: Execute, ctx: Context) -> None:
    """6.1: the planned Rebuild order, after every Movement order, paid with two cards."""
    if not all_basic_done(state):
        raise illegal("the Rebuild order comes after every Movement order", "6")
    if hand_size(state, role) < 2:
        raise illegal("fewer than two cards: the additional order is cancelled ('cancel N')", "6.1")
    pay_extra(state, d.slots, f"execute {d.index}")
    zone = state["plan"]["value"]["rebuild"]
    candidates = rebuildable(state, role)
    unit = d.units[0][0] if d.units else (candidates[0] if candidates else "")
    if d.units and (len(d.units) != 1 or len(d.units[0]) != 1):
        raise illegal("a Rebuild order rebuilds one unit", "6")
    try:
        check_rebuild(state, role, unit, zone)
    except IllegalOrderError as exc:
        raise illegal(
            f"the Rebuild order cannot be executed ({exc}); cancel it with its discards", "6.1"
        ) from exc
    discard(state, role, d.slots, "additional Rebuild order, rulebook 6.1", ctx)
    log_rebuild(state, unit, zone, True)
    place_rebuilt(state, unit, zone, ctx)
    state["plan"]["status"][str(d.index)] = "done"


def do_retreat(state: State, role: str, d: RetreatOrder, ctx: Context) -> None:
    kind, order = _todo(state, d.index)
    if kind != "basic" or order is None:
        raise illegal("only a cancelled Movement order converts into a Retreat", "7.3")
    try:
        check_order(state, "soviet", order["frm"], allocate(state, order))
        legal = True
    except PbemError:
        legal = False
    if legal:
        raise illegal(f"order {d.index} is legal: execute it ('execute {d.index}')", "7.3")
    if not units_at(state, order["frm"], "german"):
        raise illegal(
            f"{order['frm']} is not disputed: a Retreat starts from a disputed zone", "5.5.3"
        )
    try:
        groups = groups_for(state, order, d.units, retreat=True)
        kinds = check_order(state, "soviet", order["frm"], groups)
    except PbemError as exc:
        raise illegal(f"order {d.index} cannot become a Retreat: {exc}", "7.3") from exc
    if any(k != "retreat" for k in kinds):
        raise illegal("a converted order must be a Retreat", "7.3")
    log_move(state, order["frm"], groups, False, card_of_order(state, d.index))
    carry_out(state, "soviet", order["frm"], groups)
    state["plan"]["status"][str(d.index)] = "done"
    ctx.event(
        f"Soviet order {d.index} is cancelled and converted into a Retreat from {order['frm']}, "
        f"leaving 2 units: "
        + "; ".join(f"{', '.join(u)} to {to}" for to, u in groups)
        + " (rulebook 7.3)"
    )


def blocked(state: State, index: int) -> str | None:
    """7.3: why planned order `index` cannot be carried out now, None if it can. The Soviet
    "must stick to what they planned": only an order the German moves (or a card) made
    illegal may be cancelled or converted, and the additional order with fewer than two
    cards in hand (6.1)."""
    kind, order = order_at(state["plan"]["value"], index)
    if kind != "basic" and hand_size(state, "soviet") < 2:
        return "fewer than two cards in hand"
    if order is None:
        zone = state["plan"]["value"]["rebuild"]
        why = "no removed Soviet unit can be rebuilt"
        for unit in rebuildable(state, "soviet"):
            try:
                check_rebuild(state, "soviet", unit, zone)
            except IllegalOrderError as exc:
                why = str(exc)
                continue
            return None
        return why
    try:
        check_order(state, "soviet", order["frm"], allocate(state, order))
    except PbemError as exc:
        return str(exc)
    return None


def must_execute(state: State, index: int) -> None:
    """Version 1.1: a planned order still legal is executed, never dropped (7.3)."""
    if fixed(state) and blocked(state, index) is None:
        raise illegal(
            f"order {index} of the plan is legal now and must be executed ('execute {index}'): "
            "the Soviet sticks to what he planned; only orders the German movement made "
            "illegal are cancelled",
            "7.3",
        )


def do_cancel(state: State, role: str, d: Cancel, ctx: Context) -> None:
    kind, _order = _todo(state, d.index)
    if kind != "rebuild" or all_basic_done(state):
        must_execute(state, d.index)
    if kind == "basic":
        if d.slots:
            raise illegal("only the additional order is paid with discards", "6.1")
        ctx.event(f"Soviet order {d.index} is cancelled (rulebook 7.3)")
    else:
        if kind == "rebuild" and not all_basic_done(state):
            raise illegal("the Rebuild order comes after every Movement order", "6")
        pay_extra(state, d.slots, f"cancel {d.index}")
        if d.slots:
            discard(
                state,
                role,
                d.slots,
                "cancelled additional order: the cards are not recovered, rulebook 6.1",
                ctx,
            )
            ctx.event(
                f"Soviet additional order {d.index} is cancelled; its two cards are discarded"
            )
        else:
            ctx.event(
                f"Soviet additional order {d.index} is cancelled: fewer than two cards, "
                "none discarded (6.1)"
            )
    state["plan"]["status"][str(d.index)] = "cancelled"


def do_rebuild(state: State, role: str, d: Rebuild, ctx: Context) -> None:
    """6: a Rebuild order a card gave (the planned one is executed with 'execute N'), after
    every Movement order."""
    record = state["move"]
    if not all_basic_done(state):
        raise illegal("Rebuild orders come after all Movement orders", "6")
    free = record["free_rebuild"]
    if d.slots:
        raise illegal("one additional order per turn; the Soviet plans his in the plan", "6.1")
    if not free:
        raise illegal("a Rebuild order needs two discarded cards or a card that gives one", "6")
    check_rebuild(state, role, d.unit, d.zone)
    record["free_rebuild"] = free - 1
    log_rebuild(state, d.unit, d.zone, False)
    place_rebuilt(state, d.unit, d.zone, ctx)


def do_end(state: State, role: str, d: EndMovement, ctx: Context) -> None:
    plan = state["plan"]
    for index, status in plan["status"].items():
        if status != "todo":
            continue
        kind, _o = order_at(plan["value"], int(index))
        if kind != "basic" and hand_size(state, "soviet") >= 2:
            raise illegal(
                f"the additional order {index} is resolved first: execute it or cancel it "
                "discarding two cards",
                "6.1",
            )
        must_execute(state, int(index))
        plan["status"][index] = "cancelled"
    ctx.event("Soviet movement ends")
    flow.reaction_window(state, "german", "combat", ctx)
