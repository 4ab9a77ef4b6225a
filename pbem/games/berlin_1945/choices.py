"""The legal decisions of a role (menus, tests, bots): listed, or sampled where listing every
one would cost more than a bot's move is worth.

Movement choices are a useful finite subset: for each zone, all movable units to one
adjacent zone, or all but one (German) / all but two (Soviet retreat cover). Plans list the
empty plan and one-order plans; the bot builds richer plans itself (`bot`). Every choice
comes from the same checks `apply` makes; none changes the state it is given (a role's own
state shares its parts with the public one).
"""

from __future__ import annotations

import itertools
import random
from typing import Any, cast

from pbem.core.engine import Context, State
from pbem.errors import PbemError
from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.cards import (
    MOVEMENT_EFFECTS,
    after_card_numbers,
    check_before,
    combat_mode,
    movement_effects,
    played_modes,
)
from pbem.games.berlin_1945.combat import profile as unit_profile
from pbem.games.berlin_1945.decisions import (
    Cancel,
    Cards,
    Casualties,
    Discard,
    EndMovement,
    Execute,
    Fight,
    Move,
    NoReaction,
    Plan,
    PlanOrder,
    Play,
    Rebuild,
    Reinforce,
    RemoveUnit,
    RetreatOrder,
)
from pbem.games.berlin_1945.flow import reichstag_targets
from pbem.games.berlin_1945.german import has_room
from pbem.games.berlin_1945.hands import hand_cards, in_hand
from pbem.games.berlin_1945.moves import check_order, is_withdrawal
from pbem.games.berlin_1945.orders import check_phase_end, check_rebuild
from pbem.games.berlin_1945.plan import Draft, allocate, order_at, rebuildable, snapshot
from pbem.games.berlin_1945.position import is_area, units_at
from pbem.games.berlin_1945.reaction import check_cancel_card, check_undo
from pbem.games.berlin_1945.soviet import blocked
from pbem.games.berlin_1945.state import fixed

# --- the simple steps --------------------------------------------------------------------------


def limit_choices(state: State, role: str) -> list[Any]:
    return [Discard((k,)) for k in in_hand(state, role)]


def reinforce_choices(state: State, role: str) -> list[Any]:
    zones = tables.of(state).reinforcement_zones
    return [Reinforce(a, b) for a in zones["1"] for b in zones["2"]]


def reichstag_choices(state: State, role: str) -> list[Any]:
    return [RemoveUnit(None)] + [RemoveUnit(u) for u in reichstag_targets(state)]


# --- planning (7.2) ------------------------------------------------------------------------------


def plan_orders(state: State) -> list[PlanOrder]:
    """Single orders: all units of a zone to one adjacent zone (from a disputed zone, all
    but the two that cover a Retreat)."""
    t = tables.of(state)
    out = []
    for frm in t.zones:
        units = state["at"]["soviet"].get(frm)
        if not units:
            continue
        enemy = frm in state["at"]["german"]
        counts: list[int | None] = (
            [None] if not enemy else ([len(units) - 2] if len(units) > 2 else [])
        )
        for to in t.adj["soviet"].get(frm, ()):
            for c in counts:
                out.append(PlanOrder(frm, ((to, c),)))
    return out


def order_json(order: PlanOrder) -> dict[str, Any]:
    return {"frm": order.frm, "dests": [[z, c] for z, c in order.dests]}


def plan_choices(state: State, role: str) -> list[Any]:
    draft = Draft(state, snapshot(state))
    return [Plan()] + [Plan((o,)) for o in plan_orders(state) if draft.fits(order_json(o))]


# --- German movement (5, 6) ----------------------------------------------------------------------


def movable(state: State, side: str, zone: str) -> list[str]:
    record = state["move"]
    moved = set(record["moved"]) if record else set()
    double = set(record["double"] or []) if record else set()
    frozen = not state["flags"]["mitte"]
    units = tables.of(state).units
    return [
        u
        for u in state["at"][side].get(zone, ())
        if (u not in moved or u in double) and not (frozen and units[u].frozen)
    ]


def legal_move(state: State, side: str, frm: str, groups: list[tuple[str, list[str]]]) -> bool:
    try:
        kinds = check_order(state, side, frm, groups)
    except PbemError:
        return False
    if side == "german" and not has_room(state, groups):
        return False
    return not (
        side == "german"
        and is_withdrawal(state, kinds, groups)
        and state["move"]["withdrawals"] >= 2
    )


def move_groups(units: list[str]) -> list[list[str]]:
    """The groups a listed order moves: all the units, or all but the first."""
    return [units] + ([units[1:]] if len(units) > 1 else [])


def german_moves(state: State) -> list[Move]:
    t = tables.of(state)
    out = []
    for frm in t.zones:
        units = movable(state, "german", frm)
        if not units:
            continue
        for to in t.adj["german"].get(frm, ()):
            for group in move_groups(units):
                if legal_move(state, "german", frm, [(to, group)]):
                    out.append(Move(frm, ((to, tuple(group)),)))
    return out


def can_move(state: State) -> bool:
    record = state["move"]
    return not record["ended"] and (
        record["orders"] < state["german_max"] + record["bonus"] or record["extra"] == "bought"
    )


def german_extras(state: State) -> list[Any]:
    """The additional order bought with a card, and Rebuild orders (5.4, 6)."""
    record = state["move"]
    out: list[Any] = []
    held = in_hand(state, "german")
    if record["extra"] is None and held and not record["ended"]:
        out.append(Discard((held[0],), "move"))
    for unit in rebuildable(state, "german")[:1]:
        for zone in tables.of(state).zones:
            if can_rebuild(state, "german", unit, zone):
                if record["extra"] is None and len(held) >= 2:
                    out.append(Rebuild(unit, zone, (held[0], held[1])))
                if record["free_rebuild"]:
                    out.append(Rebuild(unit, zone, ()))
    return out


def german_choices(state: State, role: str) -> list[Any]:
    out: list[Any] = [EndMovement()]
    if can_move(state):
        out += german_moves(state)
    out += german_extras(state)
    out += play_choices(state, "german")
    return out


def can_rebuild(state: State, role: str, unit: str, zone: str) -> bool:
    if is_area(state, zone):
        return False
    try:
        check_rebuild(state, role, unit, zone)
    except PbemError:
        return False
    return True


# --- M cards (2.3) -------------------------------------------------------------------------------


class _NullCtx:
    """Validation only (do=False) never draws nor records."""

    seq = 0

    def event(self, text: str, **data: Any) -> None:
        pass


NULL_CTX = cast(Context, _NullCtx())


def card_plays(state: State, role: str, card: int) -> list[Play]:
    """The plays of one M card the owner holds, with each zone its effects accept."""
    try:
        effects = movement_effects(state, role, card)
    except PbemError:
        return []
    if fixed(state) and any(e["when"] == "movement-end" for e in effects):
        try:
            check_phase_end(state, role, card)
        except PbemError:
            return []
    out = []
    zones: list[str] = []
    for zone in [None, *tables.of(state).zones]:
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


def play_choices(state: State, role: str) -> list[Play]:
    """M cards the owner's state knows are in hand, with each zone their effects accept."""
    out = []
    for _k, card in sorted(hand_cards(state, role).items()):
        out += card_plays(state, role, card)
    return out


def react_choices(state: State, role: str) -> list[Any]:
    out: list[Any] = [NoReaction()]
    for card in sorted(set(hand_cards(state, role).values())):
        for entry in state["move"]["log"]:
            try:
                check_undo(state, role, card, entry["n"])
            except PbemError:
                continue
            out.append(Play(card, None, entry["n"]))
        for played in state["move"]["card_log"]:
            try:
                check_cancel_card(state, role, card, played["n"])
            except PbemError:
                continue
            out.append(Play(card, None, None, played["n"]))
    return out


# --- Soviet execution (7.3) ----------------------------------------------------------------------


def soviet_pay(state: State) -> tuple[int, ...]:
    """The two cards the listed choices discard for the additional order (6.1)."""
    held = in_hand(state, "soviet")
    return tuple(held[:2]) if len(held) >= 2 else ()


def todo_orders(state: State) -> list[tuple[int, str, dict[str, Any] | None]]:
    plan = state["plan"]
    return [
        (int(i), *order_at(plan["value"], int(i)))
        for i, status in sorted(plan["status"].items(), key=lambda s: int(s[0]))
        if status == "todo"
    ]


def soviet_orders(state: State) -> tuple[list[Any], list[Any], list[Any]]:
    """(executions, conversions into a Retreat, cancellations) of the orders still to do."""
    plan = state["plan"]
    pay = soviet_pay(state)
    execute: list[Any] = []
    retreat: list[Any] = []
    cancel: list[Any] = []
    for i, kind, order in todo_orders(state):
        if kind == "rebuild":
            if not all(plan["status"][str(j)] != "todo" for j in range(1, i)):
                continue
            if droppable(state, i):
                cancel.append(Cancel(i, pay))
            if pay:
                zone = plan["value"]["rebuild"]
                for unit in rebuildable(state, "soviet")[:1]:
                    if can_rebuild(state, "soviet", unit, zone):
                        execute.append(Execute(i, ((unit,),), pay))
            continue
        assert order is not None
        if droppable(state, i):
            cancel.append(Cancel(i, pay) if kind == "extra" else Cancel(i))
        try:
            check_order(state, "soviet", order["frm"], allocate(state, order))
            if kind == "basic" or pay:
                execute.append(Execute(i, None, pay if kind == "extra" else ()))
        except PbemError:
            if kind == "basic" and retreat_possible(state, order):
                retreat.append(RetreatOrder(i))
    return execute, retreat, cancel


def droppable(state: State, index: int) -> bool:
    """Whether planned order `index` may be cancelled: in version 1.1 only when it cannot be
    carried out now (7.3)."""
    return not fixed(state) or blocked(state, index) is not None


def retreat_possible(state: State, order: dict[str, Any]) -> bool:
    try:
        groups = allocate(state, order, retreat=True)
        kinds = check_order(state, "soviet", order["frm"], groups)
    except PbemError:
        return False
    return bool(units_at(state, order["frm"], "german")) and all(k == "retreat" for k in kinds)


def soviet_end(state: State) -> list[Any]:
    """Ending the phase, unless an additional order must be resolved first (6.1)."""
    plan = state["plan"]
    first = bool(soviet_pay(state)) and any(
        s == "todo" and order_at(plan["value"], int(i))[0] != "basic"
        for i, s in plan["status"].items()
    )
    legal = any(s == "todo" and not droppable(state, int(i)) for i, s in plan["status"].items())
    return [] if first or legal else [EndMovement()]


def soviet_rebuilds(state: State) -> list[Any]:
    """Rebuild orders a card gave, once every planned order is resolved (6)."""
    plan = state["plan"]
    out: list[Any] = []
    if state["move"]["free_rebuild"] and all(s != "todo" for s in plan["status"].values()):
        for unit in rebuildable(state, "soviet")[:1]:
            for zone in tables.of(state).zones:
                if can_rebuild(state, "soviet", unit, zone):
                    out.append(Rebuild(unit, zone, ()))
    return out


def soviet_choices(state: State, role: str) -> list[Any]:
    execute, retreat, cancel = soviet_orders(state)
    return (
        cancel
        + execute
        + retreat
        + soviet_end(state)
        + soviet_rebuilds(state)
        + play_choices(state, "soviet")
    )


# --- combat (7.4) --------------------------------------------------------------------------------


def combat_card_modes(
    state: State, role: str, zone: str
) -> tuple[list[int], list[tuple[int, bool]]]:
    """The held C cards, and the held ! plays as (card, played as 'N bang'): a two-mode card
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
            if mode == "answer" or (mode == "after" and fixed(state)):
                continue  # 7.4.1 (1.1): played in answer, or once the combat is over
            if mode == "C":
                c_cards.append(n)
            elif not any(b == n for b, _x in bang):
                bang.append((n, as_bang))
    return c_cards, bang


def answer_choices(state: State, role: str) -> list[Any]:
    combat = state["combat"]
    soviet_bang = any(m == "!" for _n, m in played_modes(state, "soviet", combat))
    out: list[Any] = [Cards(())]
    for n in sorted(set(hand_cards(state, role).values())):
        for as_bang in (False, True):
            try:
                mode = combat_mode(state, role, n, as_bang)
                if mode == "before":
                    check_before(state, role, n, combat["zone"])
            except PbemError:
                continue
            if mode == "before" or (mode == "answer" and soviet_bang):
                out.append(Cards((n,), (n,) if as_bang else ()))
                break
    return out


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
    if sub == "answer":  # 7.4.1 (1.1): the German's ! cards in answer
        return answer_choices(state, role)
    if sub == "after":  # 7.4.1 (1.1): the ! cards acting once the combat is over
        return [Cards(())] + [
            Cards((n,))
            for n in sorted(set(hand_cards(state, role).values()))
            if n in after_card_numbers(state, role)
        ]
    side, n = combat["queue"][0]
    here = units_at(state, combat["zone"], side)
    seen = set()
    out = []
    for combo in itertools.combinations(here, n):
        profile = tuple(sorted(unit_profile(state, u) for u in combo))
        if profile not in seen:
            seen.add(profile)
            out.append(Casualties(tuple(sorted(combo))))
    return out


# --- sampling: one decision at random without listing them all (bots, fuzzing) -----------------


def sample_move(state: State, rng: random.Random, tries: int = 12) -> Move | None:
    """A legal German order of the listed kind, found by trying random ones (None: none
    found, then the caller lists them)."""
    t = tables.of(state)
    starts = [z for z in state["at"]["german"] if movable(state, "german", z)]
    for _ in range(tries if starts else 0):
        frm = rng.choice(starts)
        units = movable(state, "german", frm)
        to = rng.choice(t.adj["german"][frm])
        group = rng.choice(move_groups(units))
        if legal_move(state, "german", frm, [(to, group)]):
            return Move(frm, ((to, tuple(group)),))
    moves = german_moves(state)
    return rng.choice(moves) if moves else None


def sample_play(state: State, role: str, rng: random.Random) -> Play | None:
    """One of the M cards in hand, played where it may be (None: none can be played now)."""
    cards = sorted(set(hand_cards(state, role).values()))
    rng.shuffle(cards)
    for card in cards:
        plays = card_plays(state, role, card)
        if plays:
            return rng.choice(plays)
    return None


def sample_german(state: State, role: str, rng: random.Random) -> Any:
    """Sometimes a card, mostly an order while orders are left, sometimes an additional or
    Rebuild order, else the end of the phase."""
    if rng.random() < 0.3:
        play = sample_play(state, "german", rng)
        if play is not None:
            return play
    if can_move(state) and rng.random() < 0.75:
        move = sample_move(state, rng)
        if move is not None:
            return move
    if rng.random() < 0.2:
        extras = german_extras(state)
        if extras:
            return rng.choice(extras)
    return EndMovement()


def sample_soviet(state: State, role: str, rng: random.Random) -> Any:
    """Execute what can be executed, convert what can be converted, sometimes play a card,
    then Rebuild, cancel, end."""
    execute, retreat, cancel = soviet_orders(state)
    for picks in (execute, retreat):
        if picks:
            return rng.choice(picks)
    if rng.random() < 0.5:
        play = sample_play(state, "soviet", rng)
        if play is not None:
            return play
    for picks in (soviet_rebuilds(state), cancel, soviet_end(state)):
        if picks:
            return rng.choice(picks)
    raise PbemError("dead end: the Soviet has no legal choice")  # soviet_end is never empty then
