"""Götterdämmerung for the text summaries: one role's view read into plain lists
(templates/gotterdammerung/state.*.j2 print them; pbem.render.summary.game_report finds this
module by the game's name).

Everything comes from the view given, never from the stored state. Nothing on the maps is
hidden from one side only, so both sides' summaries list the same units: a face-down
Volkssturm unit as "Volkssturm (face down, 8.44)", Delay markers by their number alone
(6.82: nobody knows their values until the unit moves). Only 12.4's sealed bid is private:
a seat's own bid shows in its own summary while the round is open.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.gotterdammerung.state import NAMES

PHASES = {
    "setup": "set-up (10)",
    "soviet-move": "Soviet Movement Phase (5, 7)",
    "counter-1": "First German Counter-Move Phase (5.5)",
    "soviet-combat": "Soviet Combat Phase (6)",
    "siege-move": "Soviet Siege Movement Phase (5.17)",
    "siege-combat": "Soviet Siege Combat Phase (3.1)",
    "breakthrough": "Soviet Breakthrough Movement Phase (5.16)",
    "counter-2": "Second German Counter-Move Phase (5.5)",
    "german-move": "German Movement Phase (5, 9)",
    "german-combat": "German Combat Phase (6)",
    "supply": "Supply and Reinforcement Phase (8)",
    "over": "the game is over (11)",
}
STEPS = {
    "bid": "Support-Point bids (12.4)",
    "open_bid": "opening the sealed bid (12.42)",
    "artillery": "placing the Artillery Support markers (6.91)",
    "deploy": "German deployment (10.22)",
    "move": "movement",
    "combat": "attacks",
    "loss": "step losses (6.52)",
    "retreat": "retreats (6.6)",
    "advance": "advance after combat (6.7)",
    "remove": "removing an overstack (4.18)",
    "reinforce": "German reinforcements and Volkssturm (8.3, 8.4)",
    "over": "final",
}


def place(view: Mapping[str, Any], h: str) -> str:
    if h == "ngp":
        return "North German Plain Box"
    info = view["board"]["hexes"].get(h) or {}
    number = h.split(":")[1]
    where = "Berlin " if h.startswith("city:") else ""
    kind = " (Transition Hex)" if info.get("kind") == "transition" else ""
    name = f" {info['name']}" if info.get("name") else ""
    return f"{where}{number}{name}{kind}"


def unit_text(view: Mapping[str, Any], unit: Mapping[str, Any]) -> str:
    """One unit in words: name, the strengths it shows, and its markers."""
    if unit.get("volkssturm"):
        if "attack" in unit:
            text = f"{unit['id']} Volkssturm {unit['attack']}-{unit['defence']}-{unit['movement']}"
        else:
            text = f"{unit['id']} Volkssturm (face down, 8.44)"
    else:
        c = view["counters"]["units"][unit["id"]]
        face = c if unit["steps"] >= c["steps"] or not c.get("reduced") else c["reduced"]
        reduced = " reduced" if face is not c else ""
        strengths = f"{face['attack']}-{face['defence']}-{face['movement']}"
        text = f"{unit['id']} {c['name']} {strengths}{reduced}"
    marks = []
    if unit.get("disrupted"):
        marks.append("disrupted")
    if unit.get("out_of_supply"):
        marks.append("defence-only supply" if unit.get("defence_only") else "out of supply")
    if unit.get("delays"):
        marks.append(f"{unit['delays']} Delay marker(s), values unknown")
    if unit.get("artillery"):
        marks.append("Artillery Support")
    return text + (f" ({', '.join(marks)})" if marks else "")


def report(view: Mapping[str, Any], role: str | None) -> dict[str, Any]:
    """The summary's lists for `role` (None: the public) from its `view`."""
    by_hex: dict[str, list[str]] = {}
    for uid in sorted(view["units"]):
        unit = view["units"][uid]
        by_hex.setdefault(str(unit["hex"]), []).append(unit_text(view, unit))
    hexes = [{"place": place(view, h), "units": units} for h, units in sorted(by_hex.items())]
    seats = view.get("seats") or {}
    combat = view.get("combat")
    last = view.get("last_combat")
    return {
        "turn": view.get("turn") or 0,
        "phase": PHASES.get(str(view.get("phase")), str(view.get("phase"))),
        "step": STEPS.get(str(view.get("step")), str(view.get("step"))),
        "seats": {str(r): NAMES.get(str(s), "undecided") for r, s in seats.items()},
        "support_points": view.get("support_points"),
        "occupied": [place(view, h) for h in view.get("occupied") or ()],
        "bonus": [place(view, h) for h in view.get("bonus") or ()],
        "elbe": view.get("elbe"),
        "vlasov": view.get("vlasov"),
        "ubahn": view.get("ubahn"),
        "cups": {
            "12th Army units in the cup (9.32)": len((view.get("cups") or {}).get("twelfth") or ()),
            "Volkssturm units in the cup (8.42)": len(
                (view.get("cups") or {}).get("volkssturm") or ()
            ),
        },
        "destroyed": list(view.get("destroyed") or ()),
        "waiting": sorted(
            f"{uid} (turn {info['turn']}, {info['at']})"
            for uid, info in (view.get("waiting") or {}).items()
        ),
        "combat": None
        if combat is None
        else f"{combat['result']['code']} at {place(view, combat['target'])}",
        "last_combat": None
        if last is None
        else f"{last['result']['code']} at {place(view, last['target'])}",
        "hexes": hexes,
    }
