"""Event cards (rulebook 2.3): data plus small named effect functions.

Each card's effects are data (`cards.toml`); `MOVEMENT_EFFECTS` and `COMBAT_EFFECTS` map an
effect primitive's name to the function that applies it. A card is playable at a moment
when one of its modes has an implemented effect for that moment:

- own Movement phase (`play N [in Z]`): reinforce, place_marker, double_move,
  extra_orders (rebuild), remove_unit, discard_cards;
- the combat card step (`cards play ...`): combat_modifier, place_marker in the combat
  zone, cancel_card of C cards, and a ! mode removing units before the strengths
  (Panzerfaust, `cards play 1 bang`);
- planning: extra_orders of #13 / #22 (claimed in the plan, see plan.py);
- the reaction window after the opponent's Movement phase (`play N on K`,
  `play N on card T`): cancel_order and cancel_card, undone by undo.py.

What a played card did is recorded by `remember`, so a cancelling card can undo it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from pbem.core.engine import Context, State
from pbem.games.berlin_1945 import position, tables
from pbem.games.berlin_1945.hands import writable
from pbem.games.berlin_1945.position import disputed, is_area, limit, units_at, update_control
from pbem.games.berlin_1945.rulebook import NAMES, RING_INDEX, ROLES
from pbem.games.berlin_1945.shared_parts import own_part
from pbem.games.berlin_1945.state import illegal, other

Effect = dict[str, Any]


def card_key(role: str, number: int) -> str:
    return f"{role}-{number}"


def card_of(state: State, role: str, number: int) -> dict[str, Any]:
    card = tables.of(state).cards.get(card_key(role, number))
    if card is None:
        raise illegal(f"there is no {NAMES[role]} card {number}", "2.3")
    return card


def zone_ok(
    state: State,
    role: str,
    effect: Effect,
    zone: str | None,
    combat: str | None,
    target: bool = False,
) -> str:
    """Check a card's zone; with `target`, "no-enemy" is read from the target unit's side
    (German Desertions: a Wehrmacht unit in a zone without Soviet units)."""
    zones = effect.get("zones")
    flt = effect.get("zone_filter", "any")
    if zone is None and flt == "combat":
        zone = combat
    if zone is None:
        raise illegal("say the zone: 'play N in Z'", "2.3")
    if zone not in tables.of(state).ring or is_area(state, zone):
        raise illegal(f"{zone} is not a district or sector", "2.3")
    if zones and zone not in zones:
        raise illegal(f"this card works only in {', '.join(zones)}", "2.3")
    enemy = units_at(state, zone, role if target else other(role))
    ok = {
        "controlled": state["control"].get(zone) == role,
        "no-enemy": not enemy,
        "own-units": bool(units_at(state, zone, role)),
        "disputed": disputed(state, zone),
        "combat": zone == combat,
        "any": True,
    }[flt]
    if not ok:
        raise illegal(f"{zone} does not qualify for this card ({flt})", "2.3")
    return zone


def of_types(state: State, uids: list[str], types: list[str] | None) -> list[str]:
    """The units among `uids` of the card's types (all of them if it names none)."""
    if not types:
        return uids
    units = tables.of(state).units
    return [u for u in uids if units[u].type in types]


def remember(state: State, undo: dict[str, Any]) -> None:
    """What a reaction card cancelling this card must undo (see undo.undo_card). The card
    being played is the last one logged, logged by this very entry: an entry logged earlier
    is shared between copies of the state and never changes."""
    log = state["move"]["card_log"]
    if log:
        log[-1]["undo"].append(undo)


# --- movement-phase effects: validate(state, role, effect, zone, ctx, do) -------------------
# Each function validates when do=False and applies when do=True (after every check).


def reinforce(
    state: State, role: str, effect: Effect, zone: str | None, ctx: Context, do: bool
) -> None:
    zone = zone_ok(state, role, effect, zone, None)
    units = [u for u in effect["units"] if position.status_of(state, u) == "off"]
    if not units:
        raise illegal("these units are already in play", "8.2")
    cap = limit(state, zone, role)
    if cap is not None and len(units_at(state, zone, role)) + len(units) > cap:
        raise illegal(f"the reinforcements would exceed the stacking limit of {zone}", "5.3")
    if do:
        remember(state, {"t": "off", "units": units, "control": {zone: state["control"].get(zone)}})
        for u in units:
            position.put(state, u, zone)
            state["move"]["moved"].append(u)
        update_control(state, zone)
        ctx.event(f"{NAMES[role]} reinforcements {', '.join(units)} deployed in {zone}")


def place_marker(
    state: State, role: str, effect: Effect, zone: str | None, ctx: Context, do: bool
) -> None:
    zone = zone_ok(state, role, effect, zone, None)
    if any(m["kind"] == effect["marker"] for m in state["markers"].get(zone, [])):
        raise illegal(f"{zone} already has a {effect['marker']} marker: one a zone", "2.3")
    if do:
        marker = {"kind": effect["marker"], "side": role, "amount": int(effect.get("amount", 0))}
        own_part(state, "markers").setdefault(zone, []).append(marker)
        remember(state, {"t": "marker", "zone": zone, "marker": marker})
        ctx.event(f"{effect['marker']} marker placed in {zone} ({NAMES[role]} +{marker['amount']})")


def double_move(
    state: State, role: str, effect: Effect, zone: str | None, ctx: Context, do: bool
) -> None:
    last = state["move"]["last"]
    if not last:
        raise illegal(
            "play Panzergrenadiers right after the order of the group that moves twice", "5.4"
        )
    if do:
        # the second move is logged with this card's number, so cancelling the card undoes it
        remember(state, {"t": "orders"})
        state["move"]["double_card"] = state["move"]["card_log"][-1]["n"]
        state["move"]["double"] = list(last)
        state["move"]["bonus"] += 1
        ctx.event(f"Panzergrenadiers: {', '.join(last)} may move a second time", units=list(last))


def extra_orders(
    state: State, role: str, effect: Effect, zone: str | None, ctx: Context, do: bool
) -> None:
    if effect.get("order") != "rebuild":
        raise illegal("this card's extra orders are planned, not played now", "5.4")
    if do:
        state["move"]["free_rebuild"] += int(effect["count"])
        remember(state, {"t": "free_rebuild", "count": int(effect["count"])})
        ctx.event(f"{NAMES[role]} gains {effect['count']} Rebuild order(s) by card")


def remove_unit(
    state: State, role: str, effect: Effect, zone: str | None, ctx: Context, do: bool
) -> None:
    zone = zone_ok(state, role, effect, zone, None, target=True)
    targets = of_types(state, units_at(state, zone, other(role)), effect.get("types"))
    if not targets:
        raise illegal(f"no enemy unit of the card's type in {zone}", "2.3")
    if do:
        chosen = targets[: int(effect.get("count", 1))]
        remember(
            state,
            {
                "t": "restore",
                "units": [[u, zone] for u in chosen],
                "control": {zone: state["control"].get(zone)},
            },
        )
        for u in chosen:
            position.remove(state, u, zone)
            ctx.event(f"{u} is removed by card", unit=u)
        update_control(state, zone)


def discard_cards(
    state: State, role: str, effect: Effect, zone: str | None, ctx: Context, do: bool
) -> None:
    if do:
        enemy = other(role)
        slots = state["hands"][enemy]["slots"]
        for _ in range(int(effect.get("count", 1))):
            # the opponent's drawn cards are all committed by now: each of its entries
            # commits them, and one was signed since its last draw
            held = sorted(int(k) for k, p in slots.items() if p["status"] == "hand")
            if not held:
                break
            pick = ctx.roll(1, len(held), f"{NAMES[enemy]} card discarded at random")
            k = held[pick - 1]
            writable(state, enemy, k)["status"] = "discarded"
            remember(state, {"t": "undiscard", "role": enemy, "slot": k})
            ctx.event(f"{NAMES[enemy]} discards card slot #{k} unseen (random)", slot=k)


MovementEffect = Callable[[State, str, Effect, "str | None", Context, bool], None]
MOVEMENT_EFFECTS: dict[str, MovementEffect] = {
    "reinforce": reinforce,
    "place_marker": place_marker,
    "double_move": double_move,
    "extra_orders": extra_orders,
    "remove_unit": remove_unit,
    "discard_cards": discard_cards,
}
MOVEMENT_WHEN = ("movement", "movement-end")


def movement_effects(state: State, role: str, number: int) -> list[Effect]:
    card = card_of(state, role, number)
    effects = [
        e for e in card["effects"] if e["when"] in MOVEMENT_WHEN and e["effect"] in MOVEMENT_EFFECTS
    ]
    if not effects:
        raise illegal(f"card {number} ({card['name']}) is not played in the Movement phase", "2.3")
    return effects


# --- combat effects -----------------------------------------------------------------------


def combat_modifier(state: State, role: str, effect: Effect, zone: str) -> tuple[str, int]:
    rings = effect.get("rings")
    if rings and tables.of(state).ring[zone] not in [RING_INDEX[r] for r in rings]:
        return role, 0
    target = role if effect.get("target", "own") == "own" else other(role)
    return target, int(effect["amount"])


def combat_marker(state: State, role: str, effect: Effect, zone: str) -> tuple[str, int]:
    return role, int(effect.get("amount", 0))


CombatEffect = Callable[[State, str, Effect, str], tuple[str, int]]
COMBAT_EFFECTS: dict[str, CombatEffect] = {
    "combat_modifier": combat_modifier,
    "place_marker": combat_marker,
}


def combat_mode(state: State, role: str, number: int, bang: bool = False) -> str:
    """'C' for a combat card, '!' for a card cancelling C cards, 'after' for a ! card that
    acts once the combat is over (declared in the card step, applied after the casualties),
    'before' for a ! card that removes units before the strengths (7.4.1); else illegal.
    A two-mode card is its C card unless `bang` asks for its ! mode (2.3: one mode, never
    both)."""
    card = card_of(state, role, number)
    if not bang:
        for e in card["effects"]:
            if e["mode"] == "C" and e["effect"] in COMBAT_EFFECTS:
                return "C"
    for e in card["effects"]:
        if e["mode"] != "!":
            continue
        if e["effect"] == "cancel_card" and "C" in e.get("symbols", ["M", "!", "C"]):
            return "!"
        if e["when"] == "after-combat" and e["effect"] == "remove_unit":
            return "after"
        if e["when"] == "combat" and e["effect"] == "remove_unit":
            return "before"
        if e["effect"] == "cancel_card" and "!" in e.get("symbols", []):
            return "answer"  # 7.4.1: cancels a ! card the opponent played in this combat
    if bang:
        raise illegal(
            f"card {number} ({card['name']}) has no ! mode played in combat", "2.3, 7.4.1"
        )
    raise illegal(f"card {number} ({card['name']}) is not played in combat", "7.4.1")


def played_modes(state: State, role: str, combat: dict[str, Any]) -> list[tuple[int, str]]:
    """The (card, mode) pairs a side played in this combat; `bang` holds the cards played in
    their ! mode (absent in a combat with none)."""
    bang = combat.get("bang", {}).get(role, [])
    return [(n, combat_mode(state, role, n, n in bang)) for n in combat["played"][role]]


def _played_in(state: State, combat: dict[str, Any], mode: str) -> Iterator[tuple[str, int]]:
    """Each side's cards played in this combat in `mode` ("before", "after"), as (side, card),
    the sides in turn order."""
    for role in ROLES:
        for n, played in played_modes(state, role, combat):
            if played == mode:
                yield role, n


def before_targets(state: State, role: str, number: int, zone: str) -> list[str]:
    """The enemy units a 'before' card removes in `zone` (its types, up to its count)."""
    for e in card_of(state, role, number)["effects"]:
        if e["mode"] == "!" and e["when"] == "combat" and e["effect"] == "remove_unit":
            enemy = units_at(state, zone, other(role))
            return of_types(state, enemy, e.get("types"))[: int(e.get("count", 1))]
    return []


def check_before(state: State, role: str, number: int, zone: str) -> None:
    """A 'before' card needs a target now: the card's text names the unit it removes (2.3)."""
    if not before_targets(state, role, number, zone):
        card = card_of(state, role, number)
        raise illegal(
            f"card {number} ({card['name']}) in its ! mode removes an enemy unit of its "
            f"type from {zone}, and there is none there",
            "2.3, 7.4.1",
        )


def before_combat(state: State, ctx: Context) -> list[str]:
    """The 'before' cards of this combat remove their units once both sides have played,
    before the strengths are determined (the card's `when` is "combat", 7.4.1)."""
    combat = state["combat"]
    zone = combat["zone"]
    removed: list[str] = []
    for role, n in _played_in(state, combat, "before"):
        for u in before_targets(state, role, n, zone):
            position.remove(state, u, zone)
            removed.append(u)
            ctx.event(
                f"{u} is removed by card {NAMES[role]} #{n} in its ! mode before the "
                "strengths (rulebook 2.3, 7.4.1)",
                unit=u,
            )
    if removed:
        update_control(state, zone)
    return removed


def combat_strength_mods(
    state: State,
    zone: str,
    played: dict[str, list[int]],
    bang: dict[str, list[int]] | None = None,
) -> list[tuple[str, int, str]]:
    """Modifiers (side, amount, reason) from the cards played in this combat and markers;
    the cards in `bang` were played in their ! mode and add nothing here."""
    mods: list[tuple[str, int, str]] = []
    combat = {"played": played, "bang": bang or {}}
    modes = {role: played_modes(state, role, combat) for role in played}
    # 7.4.1: a ! card answering the opponent's ! cards (1.1) cancels them
    answered = {other(role) for role in modes for _n, mode in modes[role] if mode == "answer"}
    cancelled = {
        other(role)
        for role in modes
        for _n, mode in modes[role]
        if mode == "!" and role not in answered
    }
    for role in ROLES:
        for n, mode in modes[role]:
            card = card_of(state, role, n)
            if mode == "!" and role in answered:
                mods.append((role, 0, f"{card['name']} cancelled"))
            if mode != "C":
                continue
            if role in cancelled:
                mods.append((role, 0, f"{card['name']} cancelled"))
                continue
            for e in card["effects"]:
                if e["mode"] == "C" and e["effect"] in COMBAT_EFFECTS:
                    side, amount = COMBAT_EFFECTS[e["effect"]](state, role, e, zone)
                    mods.append((side, amount, f"card {NAMES[role]} #{n} {card['name']}"))
    for marker in state["markers"].get(zone, []):
        mods.append((marker["side"], int(marker["amount"]), f"{marker['kind']} marker"))
    return mods


def after_card_numbers(state: State, role: str) -> list[int]:
    """The cards of `role`'s deck with a ! mode acting once a combat is over."""
    return sorted(
        int(c["number"])
        for key, c in tables.of(state).cards.items()
        if key.startswith(f"{role}-")
        and any(
            e["mode"] == "!" and e["when"] == "after-combat" and e["effect"] == "remove_unit"
            for e in c["effects"]
        )
    )


def after_combat(state: State, ctx: Context) -> list[str]:
    """The 'after' cards of this combat: each removes enemy units of its types in the zone."""
    combat = state["combat"]
    zone = combat["zone"]
    removed: list[str] = []
    for role, n in _played_in(state, combat, "after"):
        for e in card_of(state, role, n)["effects"]:
            if e["when"] != "after-combat" or e["effect"] != "remove_unit":
                continue
            enemy = units_at(state, zone, other(role))
            for u in of_types(state, enemy, e.get("types"))[: int(e.get("count", 1))]:
                position.remove(state, u, zone)
                removed.append(u)
                ctx.event(f"{u} is removed by card {NAMES[role]} #{n} once the combat is over")
    return removed
