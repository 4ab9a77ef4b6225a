"""The side panel of the Berlin 1945 map (`svg.board_svg`): what a role's view holds that
the map itself does not show, as lines of text.

The turn and phase, the result, the Turn track and the orders per turn (rulebook 5.4, 7),
the Reichstag limit (5.3), the combat being fought, the Soviet plan (sealed; the owner's
own orders, `mine`, in its own view; the orders once opened, 7.2-7.3), each hand (only
the cards the view shows), the markers, the Removed units box (2.1) and the units not yet
in play, and what the last turn did. Only the view is read, so the panel can hold nothing
the role may not know.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.games.berlin_1945.rulebook import SIDE_NAMES, SIDES, TURNS

Line = tuple[str, str]  # (style, text): "h" a heading, "t" text, "s" small text
WRAP = 64  # characters on a line of the panel's width


def _wrap(style: str, text: str, indent: str = "  ") -> list[Line]:
    return [
        (style, part)
        for part in textwrap.wrap(text, WRAP, subsequent_indent=indent, break_on_hyphens=False)
    ] or [(style, "")]


def _card(view: Mapping[str, Any], side: str, number: object) -> str:
    card = view.get("cards", {}).get(f"{side}-{number}")
    return f"#{number} {card['name']}" if card else f"#{number}"


def _order(order: Mapping[str, Any]) -> str:
    dests = ", ".join(
        f"{zone} ({'all' if count is None else count})" for zone, count in order["dests"]
    )
    return f"{order['frm']} -> {dests}"


def plan_lines(view: Mapping[str, Any]) -> list[Line]:
    """The Soviet plan as the view holds it (rulebook 7.2: secret until it is opened)."""
    plan = view.get("plan")
    if plan is None:
        return [("t", "No Soviet plan this turn yet.")]
    value = plan.get("orders") or plan.get("mine")
    if value is None:
        return _wrap("t", f"Soviet plan: sealed (entry {plan['placed_at']}; rulebook 7.2).")
    head = "Soviet plan (opened)" if plan.get("orders") else "Your plan (sealed: only you see it)"
    lines: list[Line] = [("t", f"{head}:")]
    status = plan.get("status") or {}
    orders = list(value.get("orders", []))
    for n, order in enumerate(orders, start=1):
        done = status.get(str(n))
        lines += _wrap("t", f"  {n}. {_order(order)}" + (f"  [{done}]" if done else ""), "     ")
    n = len(orders) + 1
    if value.get("extra"):
        done = status.get(str(n))
        text = f"  {n}. additional: {_order(value['extra'])}" + (f"  [{done}]" if done else "")
        lines += _wrap("t", text, "     ")
    if value.get("rebuild"):
        lines.append(("t", f"  {n}. Rebuild order in {value['rebuild']}"))
    if value.get("card") is not None:
        lines += _wrap("t", f"  card: {_card(view, 'soviet', value['card'])}")
    return lines


def hand_lines(view: Mapping[str, Any], side: str) -> list[Line]:
    hand = view["hands"][side]
    held = [
        slot["card"]
        for _key, slot in sorted(hand["slots"].items(), key=lambda kv: int(kv[0]))
        if slot["status"] in ("hand", "pending")
    ]
    head = f"{SIDE_NAMES[side]} hand: {hand['in_hand']} card(s), deck {hand['deck']}"
    shown = [_card(view, side, c) for c in held if c is not None]
    lines = _wrap("t", head)
    if shown:
        lines += _wrap("t", "  " + "; ".join(shown), "  ")
    return lines


def _units(view: Mapping[str, Any], status: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {side: [] for side in SIDES}
    for uid, unit in sorted(view["units"].items()):
        if unit["status"] == status:
            found[unit["side"]].append(uid)
    return found


def _unit_lists(title: str, by_side: Mapping[str, Sequence[str]]) -> list[Line]:
    lines: list[Line] = [("h", title)]
    for side in SIDES:
        uids = by_side.get(side, ())
        lines += _wrap("t", f"{SIDE_NAMES[side]}: {', '.join(uids) if uids else 'none'}")
    return lines


def state_lines(view: Mapping[str, Any], role: str | None) -> list[Line]:
    who = f"the {SIDE_NAMES[role]} player" if role in SIDE_NAMES else "the public"
    lines: list[Line] = [
        ("h", f"Turn {view['turn']} of {TURNS} - phase {view['phase']}"),
        ("t", f"Seen by {who}."),
    ]
    result = view.get("result")
    if result:
        lines += _wrap("t", f"Result: {SIDE_NAMES.get(result['winner'], result['winner'])} "
                       f"{result['level']} - {result['reason']}")  # fmt: skip
    lines += _wrap(
        "t",
        f"Movement orders a turn: German {view['german_max']} (rulebook 5.4), Soviet 3.",
    )
    flags = view.get("flags", {})
    limit = (
        "unlimited: a Soviet unit has entered Sectors I-IV"
        if flags.get("sectors")
        else "4 German units"
    )
    lines += _wrap("t", f"Reichstag (Sector V) limit: {limit}; Soviets unlimited (5.3).")
    reached = [
        name
        for key, name in (
            ("inner", "inner ring"),
            ("sectors", "Sectors I-IV"),
            ("reichstag", "the Reichstag"),
        )
        if flags.get(key)
    ]
    if reached:
        lines += _wrap("t", f"Soviet units have entered: {', '.join(reached)}.")
    combat = view.get("combat")
    if combat:
        left = ", ".join(combat.get("left") or []) or "none"
        lines += _wrap("t", f"Combat: {combat.get('zone') or 'to choose'}; still to fight: {left}.")
    return lines


def marker_lines(view: Mapping[str, Any]) -> list[Line]:
    markers = view.get("markers") or {}
    if not markers:
        return []
    lines: list[Line] = [("h", "Markers")]
    for zone, items in markers.items():
        text = ", ".join(
            f"{m['kind']} ({SIDE_NAMES.get(m['side'], m['side'])} {int(m['amount']):+d})"
            for m in items
        )
        lines += _wrap("t", f"{zone}: {text}")
    return lines


def played_lines(view: Mapping[str, Any]) -> list[Line]:
    lines: list[Line] = []
    for side in SIDES:
        played = (view.get("played") or {}).get(side) or []
        if played:
            lines += _wrap("s", f"{SIDE_NAMES[side]} cards played: "
                           + ", ".join(f"#{n}" for n in played))  # fmt: skip
    return lines


def panel_lines(
    view: Mapping[str, Any],
    role: str | None,
    overflow: Mapping[str, Sequence[str]],
    marks: Sequence[tuple[str, str]],
) -> list[Line]:
    """Every line of the panel but the legend; `overflow`: zone -> the units its box had no
    room for; `marks`: the last turn's results (zone, text), "" for none."""
    lines = state_lines(view, role)
    lines += [("h", "Soviet plan"), *plan_lines(view)]
    lines.append(("h", "Cards"))
    for side in SIDES:
        lines += hand_lines(view, side)
    lines += played_lines(view)
    lines += marker_lines(view)
    lines += _unit_lists("Removed units box", _units(view, "removed"))
    lines += _unit_lists("Not yet in play", _units(view, "off"))
    if overflow:
        lines.append(("h", "More units (no room in their zone's box)"))
        for zone, uids in overflow.items():
            lines += _wrap("t", f"{zone}: {', '.join(uids)}")
    if marks:
        lines.append(("h", "Last turn"))
        for zone, text in marks:
            lines += _wrap("t", f"{zone}: {text}" if zone else text)
    return lines
