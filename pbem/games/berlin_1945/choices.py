"""Prompts and the finite list of legal decisions for a role (menus, bots, tests).

Movement choices are a useful finite subset: for each zone, all movable units to one
adjacent zone, or all but one (German) / all but two (Soviet retreat cover). Plans list
the empty plan and one-order plans; the bot builds richer plans itself.
"""

from __future__ import annotations

import itertools
from typing import Any, cast

from pbem.core.engine import Context, State
from pbem.errors import PbemError
from pbem.games.berlin_1945.cards import (
    MOVEMENT_EFFECTS,
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
    PlanOrder,
    Play,
    Rebuild,
    Reinforce,
    RemoveUnit,
    RetreatOrder,
)
from pbem.games.berlin_1945.flow import reichstag_targets
from pbem.games.berlin_1945.hands import hand_cards, hand_size, in_hand
from pbem.games.berlin_1945.moves import check_order, is_withdrawal
from pbem.games.berlin_1945.plan import (
    allocate,
    check_plan_legal,
    order_at,
    plan_to_json,
    rebuildable,
    snapshot,
)
from pbem.games.berlin_1945.state import NAMES, clone, is_area, units_at


def prompt_text(state: State, role: str) -> str:
    step = state["step"]
    turn = state["turn"]
    texts = {
        "draw": "draw your initial hand"
        if state["phase"] == "deal"
        else f"turn {turn}: draw a card",
        "limit": "discard down to 6 cards ('discard #k')",
        "reinforce": "place the reinforcements ('reinforce b, e')",
        "plan": f"turn {turn}: plan your orders in secret ('plan 15 -> 8:2, 16:2; ...')",
        "german": f"turn {turn}: German movement ('move 4 -> 3: ...', 'end movement')",
        "open": f"turn {turn}: open your plan ('open')",
        "soviet": f"turn {turn}: execute your plan ('execute N', 'retreat N', 'cancel N')",
        "reichstag": "remove a German unit (not SS) or 'remove none'",
        "reveal": "open every hand slot and draw secret ('open')",
        "react": "cancel one of the opponent's orders with a card ('play N on K') or 'no reaction'",
    }
    if step == "combat":
        combat = state["combat"]
        sub = combat["sub"]
        if sub == "pick":
            return f"choose the next combat: {', '.join('fight ' + z for z in combat['left'])}"
        if sub == "cards":
            return (
                f"combat in {combat['zone']}: play cards "
                "('cards play N', 'N!' for a ! mode, or 'no cards')"
            )
        return f"combat in {combat['zone']}: choose {combat['queue'][0][1]} casualties"
    return str(texts.get(step, step))


def choices(state: State, role: str) -> list[Any]:
    step = state["step"]
    if step in ("draw",):
        return [Draw()]
    if step in ("open", "reveal"):
        return [Open()]
    if step == "limit":
        return [Discard((k,)) for k in in_hand(state, role)]
    if step == "reinforce":
        z = state["reinforcement_zones"]
        return [Reinforce(a, b) for a in z["1"] for b in z["2"]]
    if step == "plan":
        return plan_choices(state)
    if step == "german":
        return german_choices(state)
    if step == "soviet":
        return soviet_choices(state)
    if step == "combat":
        return combat_choices(state, role)
    if step == "reichstag":
        return [RemoveUnit(None)] + [RemoveUnit(u) for u in reichstag_targets(state)]
    if step == "react":
        return react_choices(state, role)
    return []


def movable(state: State, side: str, zone: str) -> list[str]:
    moved = set(state["move"]["moved"]) if state["move"] else set()
    double = set(state["move"].get("double") or []) if state["move"] else set()
    return [
        u
        for u in units_at(state, zone, side)
        if (u not in moved or u in double)
        and not (state["units"][u]["frozen"] and not state["flags"]["mitte"])
    ]


def legal_move(state: State, side: str, frm: str, groups: list[tuple[str, list[str]]]) -> bool:
    try:
        kinds = check_order(state, side, frm, groups)
    except PbemError:
        return False
    return not (
        side == "german"
        and is_withdrawal(state, kinds, groups)
        and state["move"]["withdrawals"] >= 2
    )


def german_moves(state: State) -> list[Move]:
    out = []
    for frm in state["map"]["zones"]:
        units = movable(state, "german", frm)
        if not units:
            continue
        for to in state["map"]["adj"]["german"].get(frm, []):
            for group in {tuple(units), tuple(units[1:])}:
                if group and legal_move(state, "german", frm, [(to, list(group))]):
                    out.append(Move(frm, ((to, tuple(sorted(group))),)))
    return out


def german_choices(state: State) -> list[Any]:
    record = state["move"]
    out: list[Any] = [EndMovement()]
    can_move = not record.get("ended") and (
        record["orders"] < state["german_max"] + record["bonus"] or record["extra"] == "bought"
    )
    if can_move:
        out += german_moves(state)
    held = in_hand(state, "german")
    if record["extra"] is None and held and not record.get("ended"):
        out.append(Discard((held[0],), "move"))
    for unit in rebuildable(state, "german")[:1]:
        for zone in state["map"]["zones"]:
            if can_rebuild(state, "german", unit, zone):
                if record["extra"] is None and len(held) >= 2:
                    out.append(Rebuild(unit, zone, (held[0], held[1])))
                if record.get("free_rebuild"):
                    out.append(Rebuild(unit, zone, ()))
    out += play_choices(state, "german")
    return out


def can_rebuild(state: State, role: str, unit: str, zone: str) -> bool:
    from pbem.games.berlin_1945.actions import check_rebuild

    if is_area(state, zone):
        return False
    try:
        check_rebuild(state, role, unit, zone)
    except PbemError:
        return False
    return True


def play_choices(state: State, role: str) -> list[Play]:
    """M cards the owner's state knows are in hand, with each zone their effects accept."""
    from pbem.games.berlin_1945.actions import do_play  # noqa: F401  (same checks)

    out = []
    for _k, card in sorted(hand_cards(state, role).items()):
        try:
            effects = movement_effects(state, role, card)
        except PbemError:
            continue
        zones: list[str] = []
        for zone in [None, *state["map"]["zones"]]:
            try:
                for e in effects:
                    MOVEMENT_EFFECTS[e["effect"]](state, role, e, zone, NULL_CTX, False)
            except PbemError:
                continue
            out.append(Play(card, zone))
            if zone is None:
                break
            zones.append(zone)
        # a card placing several markers, one a zone: one listed choice uses them all
        count = max(
            (int(e.get("count", 1)) for e in effects if e["effect"] == "place_marker"), default=1
        )
        if len(effects) == 1 and count > 1 and len(zones) > 1:
            out.append(Play(card, zones[0], more_zones=tuple(zones[1:count])))
    return out


class _NullCtx:
    """Validation only (do=False) never draws nor records."""

    seq = 0

    def event(self, text: str, **data: Any) -> None:
        pass


NULL_CTX = cast(Context, _NullCtx())


def react_choices(state: State, role: str) -> list[Any]:
    from pbem.games.berlin_1945.actions import check_cancel_card, check_undo

    out: list[Any] = [NoReaction()]
    for card in sorted(set(hand_cards(state, role).values())):
        for entry in state["move"]["log"]:
            try:
                check_undo(state, role, card, entry["n"])
            except PbemError:
                continue
            out.append(Play(card, None, entry["n"]))
        for played in state["move"].get("card_log", []):
            try:
                check_cancel_card(state, role, card, played["n"])
            except PbemError:
                continue
            out.append(Play(card, None, None, played["n"]))
    return out


def soviet_choices(state: State) -> list[Any]:
    plan = state["plan"]
    out: list[Any] = []
    held = in_hand(state, "soviet")
    pay = tuple(held[:2]) if len(held) >= 2 else ()
    blocked = bool(pay) and any(
        s == "todo" and order_at(plan["orders"], int(i))[0] != "basic"
        for i, s in plan["status"].items()
    )
    for index, status in sorted(plan["status"].items(), key=lambda i: int(i[0])):
        if status != "todo":
            continue
        i = int(index)
        kind, order = order_at(plan["orders"], i)
        if kind == "rebuild":
            if not all(plan["status"][str(j)] != "todo" for j in range(1, i)):
                continue
            out.append(Cancel(i, pay))
            if pay:
                zone = plan["orders"]["rebuild"]
                for unit in rebuildable(state, "soviet")[:1]:
                    if can_rebuild(state, "soviet", unit, zone):
                        out.append(Execute(i, ((unit,),), pay))
            continue
        assert order is not None
        if kind == "extra":
            out.append(Cancel(i, pay))
        else:
            out.append(Cancel(i))
        try:
            groups = allocate(state, order)
            check_order(state, "soviet", order["frm"], groups)
            if kind == "basic" or pay:
                out.append(Execute(i, None, pay if kind == "extra" else ()))
        except PbemError:
            if kind == "basic":
                try:
                    groups = allocate(state, order, retreat=True)
                    kinds = check_order(state, "soviet", order["frm"], groups)
                    if units_at(state, order["frm"], "german") and all(
                        k == "retreat" for k in kinds
                    ):
                        out.append(RetreatOrder(i))
                except PbemError:
                    pass
    if not blocked:
        out.append(EndMovement())
    if plan.get("status") and all(s != "todo" for s in plan["status"].values()):
        for unit in rebuildable(state, "soviet")[:1]:
            if state["move"].get("free_rebuild"):
                for zone in state["map"]["zones"]:
                    if can_rebuild(state, "soviet", unit, zone):
                        out.append(Rebuild(unit, zone, ()))
    out += play_choices(state, "soviet")
    return out


def plan_orders(state: State) -> list[PlanOrder]:
    """Single orders legal now: all units (or all but... ) of a zone to one adjacent zone."""
    out = []
    for frm in state["map"]["zones"]:
        units = units_at(state, frm, "soviet")
        if not units:
            continue
        enemy = bool(units_at(state, frm, "german"))
        for to in state["map"]["adj"]["soviet"].get(frm, []):
            counts: list[int | None] = (
                [None] if not enemy else ([len(units) - 2] if len(units) > 2 else [])
            )
            for c in counts:
                out.append(PlanOrder(frm, ((to, c),)))
    return out


def plan_is_legal(state: State, plan: Plan) -> bool:
    temp = clone(state)
    temp["plan"] = {"snapshot": snapshot(state)}
    try:
        check_plan_legal(temp, plan_to_json(plan))
    except PbemError:
        return False
    return True


def plan_choices(state: State) -> list[Any]:
    out: list[Any] = [Plan()]
    for order in plan_orders(state):
        plan = Plan((order,))
        if plan_is_legal(state, plan):
            out.append(plan)
    return out


def combat_card_modes(
    state: State, role: str, zone: str
) -> tuple[list[int], list[tuple[int, bool]]]:
    """The held C cards, and the held ! plays as (card, played as 'N!'): a two-mode card
    such as Panzerfaust is offered in both modes (2.3), its ! mode only with a target."""
    held = sorted(set(hand_cards(state, role).values()))
    c_cards: list[int] = []
    bang: list[tuple[int, bool]] = []
    for n in held:
        for as_bang in (False, True):
            try:
                mode = combat_mode(state, role, n, as_bang)
                if mode == "before":
                    check_before(state, role, n, zone)
            except PbemError:
                continue
            if mode == "C":
                c_cards.append(n)
            elif not any(b == n for b, _x in bang):
                bang.append((n, as_bang))
    return c_cards, bang


def combat_choices(state: State, role: str) -> list[Any]:
    combat = state["combat"]
    sub = combat["sub"]
    if sub == "pick":
        return [Fight(z) for z in combat["left"]]
    if sub == "cards":
        out: list[Any] = [Cards(())]
        c_cards, bang = combat_card_modes(state, role, combat["zone"])
        for n in c_cards:
            out.append(Cards((n,)))
            for b, as_bang in bang:
                if b != n:
                    out.append(Cards(tuple(sorted((n, b))), (b,) if as_bang else ()))
        for b, as_bang in bang:
            out.append(Cards((b,), (b,) if as_bang else ()))
        return out
    side, n = combat["queue"][0]
    here = units_at(state, combat["zone"], side)
    seen = set()
    out = []
    for combo in itertools.combinations(here, n):
        profile = tuple(sorted(state["units"][u]["type"] for u in combo))
        if profile not in seen:
            seen.add(profile)
            out.append(Casualties(tuple(sorted(combo))))
    return out


def describe_role(role: str) -> str:
    return NAMES[role]


__all__ = ["choices", "prompt_text", "hand_size"]
