"""Handlers: one function per decision type, each validating completely before any draw."""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.errors import IllegalOrderError, PbemError
from pbem.games.berlin_1945 import flow
from pbem.games.berlin_1945.cards import (
    MOVEMENT_EFFECTS,
    before_combat,
    card_of,
    check_before,
    combat_mode,
    movement_effects,
)
from pbem.games.berlin_1945.decisions import (
    Cancel,
    Cards,
    Casualties,
    Discard,
    Draw,
    EndMovement,
    Execute,
    Fight,
    Move,
    NoReaction,
    Open,
    Plan,
    Play,
    Rebuild,
    Reinforce,
    RemoveUnit,
    RetreatOrder,
)
from pbem.games.berlin_1945.hands import (
    HAND_LIMIT,
    discard,
    draw,
    hand_size,
    in_hand,
    play_opened,
    verify_all,
)
from pbem.games.berlin_1945.moves import carry_out, check_order, is_withdrawal
from pbem.games.berlin_1945.plan import (
    BASIC_SOVIET,
    CARD_ORDERS,
    allocate,
    check_plan_legal,
    order_at,
    plan_from_json,
    plan_label,
    rebuildable,
    snapshot,
)
from pbem.games.berlin_1945.state import (
    NAMES,
    disputed,
    illegal,
    is_area,
    limit,
    units_at,
    update_control,
)
from pbem.games.berlin_1945.undo import check_order_undoable, undo_card, undo_order

# --- card draw (2.3, 7.1) -------------------------------------------------------------------


def do_draw(state: State, role: str, d: Draw, ctx: Context) -> None:
    why = "initial hand" if state["phase"] == "deal" else f"turn {state['turn']} card draw"
    draw(state, role, state["draw_count"], ctx, why)
    flow.after_draw(state, ctx)


def do_discard(state: State, role: str, d: Discard, ctx: Context) -> None:
    if state["step"] == "limit":
        if d.purpose != "limit":
            raise illegal("discard down to 6 cards first", "7.1")
        if hand_size(state, role) - len(d.slots) != HAND_LIMIT:
            raise illegal(f"discard down to exactly {HAND_LIMIT} cards", "7.1")
        discard(state, role, d.slots, "hand limit 6, rulebook 7.1", ctx)
        state["todo"] = state["todo"][1:]
        if not state["todo"]:
            flow.check_limit(state, ctx)
        return
    if state["step"] != "german" or d.purpose != "move":
        raise illegal("no discard is possible now", "2.3")
    record = state["move"]
    if record["extra"] is not None:
        raise illegal("one additional order per turn", "5.4, 6.1")
    if len(d.slots) != 1:
        raise illegal("the German discards one card for an additional Movement order", "5.4")
    discard(state, role, d.slots, "additional Movement order, rulebook 5.4", ctx)
    record["extra"] = "bought"


# --- reinforcements (8.1) -------------------------------------------------------------------


def do_reinforce(state: State, role: str, d: Reinforce, ctx: Context) -> None:
    zones = state["reinforcement_zones"]
    if d.first not in zones["1"] or d.second not in zones["2"]:
        raise illegal(
            f"one group in {'/'.join(zones['1'])} and the other in {'/'.join(zones['2'])}", "8.1"
        )
    for group, zone in (("1", d.first), ("2", d.second)):
        for u in state["units"].values():
            if str(u["group"]) == group and u["status"] == "off":
                u.update(status="on", zone=zone)
        ctx.event(f"Soviet reinforcement group {group} enters Area {zone} (rulebook 8.1)")
    state["reinforced"] = True
    flow.start_planning(state, ctx)


# --- Soviet planning (7.2) ------------------------------------------------------------------


def do_plan(state: State, role: str, d: Plan, ctx: Context) -> None:
    label = plan_label(state["turn"])
    if not d.sealed:
        raise illegal(
            "the plan is secret: the public decision is 'plan', the orders are sealed", "7.2"
        )
    if label not in ctx.committed_now():
        raise illegal(f"the plan decision commits the plan as {label}", "7.2")
    state["plan"] = {"label": label, "seq": ctx.seq, "snapshot": snapshot(state), "orders": None}
    ctx.event(f"the Soviet plans turn {state['turn']} in secret (entry {ctx.seq})")
    flow.start_german_movement(state, ctx)


def do_open(state: State, role: str, d: Open, ctx: Context) -> None:
    if state["step"] == "reveal":
        verify_all(state, role, ctx)
        state["todo"] = state["todo"][1:]
        if not state["todo"]:
            state["step"] = "over"
            state["phase"] = "over"
        return
    plan_state = state["plan"]
    opened = ctx.opened_now()
    if plan_state["label"] not in opened:
        raise illegal(f"open the plan {plan_state['label']}", "7.3")
    plan = plan_from_json(opened[plan_state["label"]])
    claim = f"false claim in entry {plan_state['seq']} by soviet"
    # a card named by the plan (#13 / #22) is played now, from a slot held at planning time
    if plan["card"] is not None:
        slots = [lb for lb, v in opened.items() if lb.startswith("hand/soviet/")]
        if len(slots) != 1 or opened[slots[0]] != plan["card"]:
            raise IllegalOrderError(
                f"{claim}: the plan uses card #{plan['card']}, which opening must show "
                "(rulebook 5.4)"
            )
        if slots[0] not in plan_state["snapshot"]["slots"]:
            raise IllegalOrderError(
                f"{claim}: card #{plan['card']} was not in hand when planned (rulebook 7.2)"
            )
    elif len(opened) != 1:
        raise illegal("opening the plan opens nothing else", "7.3")
    try:
        check_plan_legal(state, plan)
    except PbemError as exc:
        raise IllegalOrderError(f"{claim}: an illegal plan: {exc} (rulebook 7.2)") from exc
    if plan["card"] is not None:
        play_opened(state, "soviet", (plan["card"],), ctx)
        # the orders planned beyond the three basic ones are the card's (logged with its
        # number): a German card cancelling it undoes them (2.3, 6.1)
        state["move"].setdefault("card_log", []).append(
            {"n": plan["card"], "mode": "!", "undo": [{"t": "orders"}]}
        )
        ctx.event(
            f"Soviet plays card #{plan['card']}: +{CARD_ORDERS[plan['card']]} order(s) this turn"
        )
    plan_state["orders"] = plan
    plan_state["status"] = {str(i): "todo" for i in range(1, len(plan["orders"]) + 2)}
    if not (plan["extra"] or plan["rebuild"]):
        del plan_state["status"][str(len(plan["orders"]) + 1)]
    ctx.event(f"the Soviet plan of turn {state['turn']} is opened: {describe(plan)}")
    state["step"] = "soviet"


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


# --- German movement (5, 6) -----------------------------------------------------------------


def do_move(state: State, role: str, d: Move, ctx: Context) -> None:
    if state["step"] != "german":
        raise illegal("Soviet orders are planned, then executed with 'execute N'", "7.2")
    record = state["move"]
    if record.get("ended"):
        raise illegal("the Rebuild order ends the Movement phase", "6")
    base = state["german_max"] + record["bonus"]
    extra = False
    if record["orders"] >= base:
        if record["extra"] != "bought":
            raise illegal(
                f"the German has used all {base} Movement orders this turn"
                + ("" if record["extra"] else "; discard a card for one more"),
                "5.4",
            )
        extra = True
    groups = [(to, list(uids)) for to, uids in d.dests]
    kinds = check_order(state, "german", d.frm, groups)
    withdraw = is_withdrawal(state, kinds, groups)
    if withdraw and record["withdrawals"] >= 2:
        raise illegal("the Germans cannot use more than two Withdrawal orders per turn", "5.5.4")
    double = record.get("double") or []
    second = any(u in record["moved"] and u in double for _to, us in groups for u in us)
    log_move(state, d.frm, groups, extra, record.get("double_card") if second else None)
    carry_out(state, "german", d.frm, groups)
    if extra:
        record["extra"] = "used"
    else:
        record["orders"] += 1
    if withdraw:
        record["withdrawals"] += 1
    record["last"] = [u for _to, uids in groups for u in uids]
    ctx.event(
        f"German {'/'.join(kinds)} from {d.frm}: "
        + "; ".join(f"{', '.join(u)} to {to}" for to, u in groups)
        + (" (additional order)" if extra else f" (order {record['orders']} of {base})"),
    )


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


def do_rebuild(state: State, role: str, d: Rebuild, ctx: Context) -> None:
    record = state["move"]
    step = state["step"]
    if step not in ("german", "soviet"):
        raise illegal("Rebuild orders are given in your own Movement phase", "6")
    if step == "soviet" and state["plan"]["orders"] is not None and not all_basic_done(state):
        raise illegal("Rebuild orders come after all Movement orders", "6")
    free = record.get("free_rebuild", 0)
    if d.slots:
        if record["extra"] is not None or (step == "soviet"):
            raise illegal("one additional order per turn; the Soviet plans his in the plan", "6.1")
        if len(d.slots) != 2:
            raise illegal("a Rebuild order costs two cards", "6")
    elif not free:
        raise illegal("a Rebuild order needs two discarded cards or a card that gives one", "6")
    check_rebuild(state, role, d.unit, d.zone)
    if d.slots:
        for k in d.slots:
            if k not in in_hand(state, role):
                raise illegal(f"#{k} is not a card in the {NAMES[role]} hand", "2.3")
        discard(state, role, d.slots, "additional Rebuild order, rulebook 6", ctx)
        record["extra"] = "rebuild"
    else:
        record["free_rebuild"] = free - 1
    log_rebuild(state, d.unit, d.zone, bool(d.slots))
    place_rebuilt(state, d.unit, d.zone, ctx)
    if step == "german":
        record["ended"] = True


def check_rebuild(state: State, role: str, unit: str, zone: str) -> None:
    if unit not in rebuildable(state, role):
        raise illegal(
            f"{unit} is not a removed {NAMES[role]} unit that can be rebuilt (not SS or Guards)",
            "6",
        )
    if zone not in state["map"]["ring"] or is_area(state, zone):
        raise illegal("units cannot be rebuilt in Areas A to F", "6")
    if state["control"].get(zone) != role:
        raise illegal(f"{zone} is not under {NAMES[role]} control", "6")
    cap = limit(state, zone, role)
    if cap is not None and len(units_at(state, zone, role)) + 1 > cap:
        raise illegal(f"the rebuilt unit would exceed the stacking limit of {zone}", "5.3, 6")


def place_rebuilt(state: State, unit: str, zone: str, ctx: Context) -> None:
    state["units"][unit].update(status="on", zone=zone)
    state["move"]["moved"].append(unit)
    update_control(state, zone)
    ctx.event(f"{unit} is rebuilt in {zone} (rulebook 6)")


def do_play(state: State, role: str, d: Play, ctx: Context) -> None:
    if state["step"] == "react":
        do_react(state, role, d, ctx)
        return
    if d.order is not None or d.target is not None:
        raise illegal("reaction cards are played as the opponent's Movement phase ends", "2.3")
    own = "german" if role == "german" else "soviet"
    if state["step"] != own or (role == "soviet" and state["plan"]["orders"] is None):
        raise illegal("M cards are played in your own Movement phase", "2.3")
    effects = movement_effects(state, role, d.card)
    calls = [(e, zone) for e in effects for zone in effect_zones(e, d)]
    for e, zone in calls:
        MOVEMENT_EFFECTS[e["effect"]](state, role, e, zone, ctx, False)
    play_opened(state, role, (d.card,), ctx)
    log = state["move"].setdefault("card_log", [])
    log.append({"n": d.card, "mode": effects[0]["mode"], "undo": []})
    ctx.event(f"{NAMES[role]} plays card #{d.card} {card_of(state, role, d.card)['name']}")
    for e, zone in calls:
        MOVEMENT_EFFECTS[e["effect"]](state, role, e, zone, ctx, True)
    if any(e["effect"] == "remove_unit" for e in effects):
        # 9.2 holds "at any time during any turn", not only after combats
        flow.german_auto_victory(state, ctx)


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


def do_end(state: State, role: str, d: EndMovement, ctx: Context) -> None:
    if state["step"] == "german":
        ctx.event("German movement ends")
        flow.reaction_window(state, "soviet", "open", ctx)
        return
    plan = state["plan"]
    for index, status in plan["status"].items():
        if status != "todo":
            continue
        kind, _o = order_at(plan["orders"], int(index))
        if kind != "basic" and hand_size(state, "soviet") >= 2:
            raise illegal(
                f"the additional order {index} is resolved first: execute it or cancel it "
                "discarding two cards",
                "6.1",
            )
        plan["status"][index] = "cancelled"
    ctx.event("Soviet movement ends")
    flow.reaction_window(state, "german", "combat", ctx)


# --- Soviet execution (7.3) -----------------------------------------------------------------


def all_basic_done(state: State) -> bool:
    plan = state["plan"]
    n = len(plan["orders"]["orders"])
    return all(plan["status"][str(i)] != "todo" for i in range(1, n + 1))


def _todo(state: State, index: int) -> tuple[str, dict[str, Any] | None]:
    plan = state["plan"]
    if state["step"] != "soviet":
        raise illegal("Soviet orders are executed in the Soviet Movement phase", "7.3")
    if plan["status"].get(str(index)) != "todo":
        raise illegal(f"order {index} is not waiting to be executed", "7.3")
    return order_at(plan["orders"], index)


def groups_for(
    state: State, order: dict[str, Any], units: Any, retreat: bool = False
) -> list[tuple[str, list[str]]]:
    groups = allocate(state, order, retreat=retreat)
    if units is None:
        return groups
    if len(units) != len(groups) or any(
        len(u) != len(g) for u, (_t, g) in zip(units, groups, strict=False)
    ):
        sizes = " / ".join(str(len(g)) for _t, g in groups)
        raise PbemError(f"the order moves {sizes} unit(s)")
    return [(to, list(u)) for (to, _g), u in zip(groups, units, strict=True)]


def pay_extra(state: State, slots: tuple[int, ...], ctx: Context, what: str) -> None:
    """6.1: two cards for the additional order; with fewer than two, none and no order."""
    if hand_size(state, "soviet") >= 2:
        if len(slots) != 2:
            raise illegal(
                f"name the two cards discarded for the additional order: '{what} discard #a, #b'",
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


def do_execute(state: State, role: str, d: Execute, ctx: Context) -> None:
    kind, order = _todo(state, d.index)
    status = state["plan"]["status"]
    if kind == "rebuild":
        if not all_basic_done(state):
            raise illegal("the Rebuild order comes after every Movement order", "6")
        if hand_size(state, role) < 2:
            raise illegal(
                "fewer than two cards: the additional order is cancelled ('cancel N')", "6.1"
            )
        pay_extra(state, d.slots, ctx, f"execute {d.index}")
        zone = state["plan"]["orders"]["rebuild"]
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
        status[str(d.index)] = "done"
        return
    assert order is not None
    if kind == "extra":
        if hand_size(state, role) < 2:
            raise illegal(
                "fewer than two cards: the additional order is cancelled ('cancel N')", "6.1"
            )
        pay_extra(state, d.slots, ctx, f"execute {d.index}")
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


def card_of_order(state: State, index: int) -> int | None:
    """The card (#13 / #22) that gave plan order `index`: those beyond the basic three."""
    plan = state["plan"]["orders"]
    if plan["card"] is not None and BASIC_SOVIET < index <= len(plan["orders"]):
        return int(plan["card"])
    return None


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


def do_cancel(state: State, role: str, d: Cancel, ctx: Context) -> None:
    kind, _order = _todo(state, d.index)
    if kind == "basic":
        if d.slots:
            raise illegal("only the additional order is paid with discards", "6.1")
        ctx.event(f"Soviet order {d.index} is cancelled (rulebook 7.3)")
    else:
        if kind == "rebuild" and not all_basic_done(state):
            raise illegal("the Rebuild order comes after every Movement order", "6")
        pay_extra(state, d.slots, ctx, f"cancel {d.index}")
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


# --- combat (7.4) ---------------------------------------------------------------------------


def do_fight(state: State, role: str, d: Fight, ctx: Context) -> None:
    combat = state["combat"]
    if combat["sub"] != "pick":
        raise illegal("a combat is being fought", "7.4")
    if d.zone not in combat["left"]:
        raise illegal(f"no combat waits in {d.zone} (left: {', '.join(combat['left'])})", "7.4")
    flow.begin_combat(state, d.zone, ctx)


def do_cards(state: State, role: str, d: Cards, ctx: Context) -> None:
    combat = state["combat"]
    if combat["sub"] != "cards":
        raise illegal("combat cards are chosen before the combat is resolved", "7.4.1")
    # a two-mode card played in its ! mode ("1!") is not a C card: it leaves the one C card
    # of 7.4.1 free (2.3: the chosen mode is the only one applied)
    modes = [combat_mode(state, role, n, n in d.bang) for n in d.cards]
    if modes.count("C") > 1:
        raise illegal("one C card per side in each combat", "7.4.1")
    for n, mode in zip(d.cards, modes, strict=True):
        if mode == "before":
            check_before(state, role, n, combat["zone"])
    play_opened(state, role, d.cards, ctx)
    combat["played"][role] = list(d.cards)
    combat.setdefault("bang", {"german": [], "soviet": []})[role] = list(d.bang)
    if d.cards:
        names = ", ".join(
            f"#{n} {card_of(state, role, n)['name']}" + (" (! mode)" if n in d.bang else "")
            for n in d.cards
        )
        ctx.event(f"{NAMES[role]} plays {names} in {combat['zone']}")
    else:
        ctx.event(f"{NAMES[role]} plays no card in {combat['zone']}")
    if role == "german":
        combat["asked"] = "soviet"
        return
    if before_combat(state, ctx):
        if flow.german_auto_victory(state, ctx):
            return  # 9.2: a removal by card can end the game at once
        if not disputed(state, combat["zone"]):
            # 7.4: combats are fought in disputed zones only; the card cleared this one
            ctx.event(f"no combat in {combat['zone']}: one side has no units left (7.4)")
            flow.end_combat(state, ctx)
            return
    result = flow.resolve_strengths(state, ctx)
    flow.roll_winner_losses(state, result, ctx)
    combat["result"] = {
        "strength": result["strength"],
        "winner": result["winner"],
        "losses": result["losses"],
    }
    flow.queue_casualties(state, result, ctx)


def do_casualties(state: State, role: str, d: Casualties, ctx: Context) -> None:
    combat = state["combat"]
    if combat["sub"] != "casualties":
        raise illegal("no casualties to choose now", "7.4.4")
    side, n = combat["queue"][0]
    here = units_at(state, combat["zone"], side)
    if len(d.units) != n or any(u not in here for u in d.units):
        raise illegal(
            f"remove exactly {n} of your units in {combat['zone']}: {', '.join(here)}", "7.4.4"
        )
    flow.remove_units(state, list(d.units), ctx, "casualties chosen by their owner, rulebook 7.4.4")
    combat["queue"].pop(0)
    flow.next_casualties(state, ctx)


# --- Reichstag presence check (7.5) ---------------------------------------------------------


def do_remove(state: State, role: str, d: RemoveUnit, ctx: Context) -> None:
    if d.unit is not None:
        if d.unit not in flow.reichstag_targets(state):
            raise illegal(f"{d.unit} is not a German unit on the map other than an SS unit", "7.5")
        flow.remove_units(state, [d.unit], ctx, "Soviet presence in the Reichstag, rulebook 7.5")
    else:
        ctx.event("the Soviet removes no German unit (7.5)")
    flow.end_turn(state, ctx)


# --- reaction cards: cancel an order of the opponent's Movement phase (2.3, 6.1) -----------


def reaction_effect(state: State, role: str, number: int) -> dict[str, Any]:
    card = card_of(state, role, number)
    for e in card["effects"]:
        if e["when"] == "reaction" and e["effect"] == "cancel_order":
            return dict(e)
    raise illegal(f"card {number} ({card['name']}) does not cancel an order", "2.3")


def check_undo(state: State, role: str, number: int, n: int) -> dict[str, Any]:
    effect = reaction_effect(state, role, number)
    log = state["move"]["log"]
    if not 1 <= n <= len(log) or log[n - 1].get("undone"):
        raise illegal(f"the opponent carried out no order {n} this phase", "2.3")
    entry = log[n - 1]
    wanted = effect.get("order", "any")
    if wanted == "movement" and entry["kind"] != "move":
        raise illegal(f"card {number} cancels a Movement order", "2.3")
    if wanted == "rebuild" and entry["kind"] != "rebuild":
        raise illegal(f"card {number} cancels a Rebuild order", "2.3")
    if wanted == "additional" and not entry["extra"]:
        raise illegal(f"card {number} cancels an additional order", "2.3, 6.1")
    check_order_undoable(state, entry)
    return entry


def check_cancel_card(state: State, role: str, number: int, target: int) -> dict[str, Any]:
    card = card_of(state, role, number)
    effect = next(
        (e for e in card["effects"] if e["when"] == "reaction" and e["effect"] == "cancel_card"),
        None,
    )
    if effect is None:
        raise illegal(f"card {number} ({card['name']}) does not cancel a card", "2.3")
    entry = next(
        (e for e in state["move"].get("card_log", []) if e["n"] == target and not e.get("undone")),
        None,
    )
    if entry is None:
        raise illegal(f"the opponent played no card {target} this Movement phase", "2.3")
    if entry["mode"] not in effect.get("symbols", ["M", "!", "C"]):
        raise illegal(f"card {number} cancels only {'/'.join(effect['symbols'])} cards", "2.3")
    undo_card(state, entry, check_only=True)
    return entry


def do_react(state: State, role: str, d: Play, ctx: Context) -> None:
    if d.target is not None:
        entry = check_cancel_card(state, role, d.card, d.target)
        play_opened(state, role, (d.card,), ctx)
        undo_card(state, entry, check_only=False)
        ctx.event(
            f"{NAMES[role]} plays card #{d.card} {card_of(state, role, d.card)['name']}: the "
            f"opponent's card #{d.target} is cancelled and its effect undone"
        )
        return
    if d.order is None or d.zone is not None:
        raise illegal("name the order the card cancels: 'play N on K'", "2.3")
    entry = check_undo(state, role, d.card, d.order)
    play_opened(state, role, (d.card,), ctx)
    undo_order(state, entry)
    ctx.event(
        f"{NAMES[role]} plays card #{d.card} {card_of(state, role, d.card)['name']}: the "
        f"opponent's order {d.order} is undone; cards discarded for it are not recovered (6.1)"
    )


def do_no_reaction(state: State, role: str, d: NoReaction, ctx: Context) -> None:
    flow.after_reaction(state, ctx)


HANDLERS: dict[type, Any] = {
    NoReaction: do_no_reaction,
    Draw: do_draw,
    Discard: do_discard,
    Reinforce: do_reinforce,
    Plan: do_plan,
    Open: do_open,
    Move: do_move,
    Rebuild: do_rebuild,
    Play: do_play,
    EndMovement: do_end,
    Execute: do_execute,
    RetreatOrder: do_retreat,
    Cancel: do_cancel,
    Fight: do_fight,
    Cards: do_cards,
    Casualties: do_casualties,
    RemoveUnit: do_remove,
}

STEPS: dict[str, tuple[type, ...]] = {
    "draw": (Draw,),
    "limit": (Discard,),
    "reinforce": (Reinforce,),
    "plan": (Plan,),
    "german": (Move, Discard, Rebuild, Play, EndMovement),
    "open": (Open,),
    "soviet": (Execute, RetreatOrder, Cancel, Play, Rebuild, EndMovement),
    "combat": (Fight, Cards, Casualties),
    "reichstag": (RemoveUnit,),
    "reveal": (Open,),
    "react": (Play, NoReaction),
}
