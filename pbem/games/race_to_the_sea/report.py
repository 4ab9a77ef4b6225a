"""Race to the Sea 1914 for the text summaries: one role's view read into plain lists
(templates/race-to-the-sea/state.*.j2 print them; pbem.render.summary.game_report finds
this module by the game's name).

Everything comes from the view the summary is given (`Engine.view`, or the owner's
`view_known`), never from the stored state. A hidden counter is "hidden <nationality>
counter cNN" unless the view holds its identity and it is the viewing role's own: the
owner's view, where it reads "cNN: IV Corps (hidden)". Its Casualties markers follow the
same rule (10.4.A): shown when the view holds them, else "markers sealed".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.race_to_the_sea import hits
from pbem.games.race_to_the_sea import state as rs
from pbem.games.race_to_the_sea.state import NAMES
from pbem.maps.hexes import label as hex_label

STEPS = {
    "place": "placing counters (15, 7.1)",
    "discard": "the unseen Initiative discard (7.2)",
    "rail": "Allied railroad movement (7.3)",
    "bid": "Initiative bids (7.4, 8)",
    "open_bid": "opening the sealed bid (7.4)",
    "act": "actions (7.5, 9)",
    "march_first": "forced march (7.7.3)",
    "march": "forced march (7.7.3)",
    "fog": "fog of war (7.7.4)",
    "final": "opening every sealed piece (7.7.6.C)",
    "over": "the game is over (14)",
}


def _ratings(face: Mapping[str, Any]) -> str:
    special = f" {face['special']}" if face.get("special") else ""
    return (
        f"SZ {face.get('sz')} MET {face.get('met')} RF-MG-ART "
        f"{face.get('rf')}-{face.get('mg')}-{face.get('art')}{special}"
    )


def markers(view: Mapping[str, Any], counter: str) -> str:
    """The counter's Casualties markers as the view knows them ("" for none)."""
    if "stacks" not in view:
        return ""
    stack = hits.stack_of(view, counter)  # type: ignore[arg-type]
    if stack is None:
        return "markers sealed (10.4.A)"
    if not stack:
        return ""
    return "markers " + ", ".join(f"{marker} {side}" for marker, side in stack)


def counter_text(view: Mapping[str, Any], name: str, role: str | None) -> str:
    """One counter in words, with what `role`'s view may show of it."""
    c = view["counters"][name]
    nation = str(c["nationality"]).capitalize()
    unit_id = c.get("unit")
    hidden = unit_id is None
    if hidden and role is not None and c["side"] == role:
        unit_id = rs.identity(view, name)  # type: ignore[arg-type]
    if unit_id is None:
        text = f"hidden {nation} counter {name}"
    else:
        data = view["units_data"]["units"][unit_id]
        if data["kind"] == "false-report":
            text = f"{name}: {nation} False Report (hidden, known only to you)"
        else:
            face = dict(data)
            if "stacks" in view:
                modified = hits.ratings_of(view, name)  # type: ignore[arg-type]
                face.update(modified or {})
            how = "hidden, known only to you" if hidden else "scouting" if c.get("scouting") else ""
            how = how or ("deployed" if c.get("cavalry") else "face up")
            called = data["name"] if data["name"].startswith(nation) else f"{nation} {data['name']}"
            text = f"{name}: {called} ({how}), {_ratings(face)}"
            more = markers(view, name)
            if more:
                text += f", {more}"
    if c.get("activated"):
        text += ", activated"
    return text


def place(view: Mapping[str, Any], hex_: int) -> str:
    info = view["board"]["hexes"].get(hex_label(hex_)) or {}
    name = info.get("name")
    return f"{hex_label(hex_)} {name}" if name else hex_label(hex_)


def _deck(deck: Mapping[str, Any]) -> dict[str, Any]:
    pile = list(deck.get("pile") or ())
    private = list(deck.get("private") or ())
    return {"left": len(pile) - len(private), "discard": list(deck.get("discard") or ())}


def report(view: Mapping[str, Any], role: str | None) -> dict[str, Any]:
    """The summary's lists for `role` (None: the public) from its `view`."""
    turn = view.get("turn") or 0
    by_hex: dict[int, list[str]] = {}
    for name in sorted(view["counters"]):
        by_hex.setdefault(int(view["counters"][name]["hex"]), []).append(name)
    hexes = [
        {"place": place(view, h), "counters": [counter_text(view, n, role) for n in names]}
        for h, names in sorted(by_hex.items())
    ]
    hands = view.get("hands") or {}
    own_hand = hands.get(role) if role is not None else None
    ops = view.get("planned_ops")
    return {
        "turn": "set-up (15)" if turn == 0 else f"{turn} of 10",
        "round": view.get("round") or None,
        "step": STEPS.get(str(view.get("step")), str(view.get("step"))),
        "active": NAMES.get(str(view.get("active")), ""),
        "momentum": NAMES.get(str(view.get("momentum")), "nobody"),
        "foch": view.get("foch"),
        "siege": view.get("siege"),
        "hexes": hexes,
        "activated": sorted(n for n, c in view["counters"].items() if c.get("activated")),
        "played": {NAMES[s]: list(v) for s, v in (view.get("played") or {}).items()},
        "hand": None if own_hand is None else list(own_hand),
        "control": [
            {"place": place(view, int(h)), "side": NAMES.get(s, s)}
            for h, s in sorted((view.get("control") or {}).items())
        ],
        "flooded": [place(view, int(h)) for h in view.get("flooded") or ()],
        "planned_ops": (
            NAMES.get(str(ops.get("holder")), "nobody") if isinstance(ops, Mapping) else None
        ),
        "decks": {NAMES[s]: _deck(d) for s, d in (view.get("decks") or {}).items()},
    }
