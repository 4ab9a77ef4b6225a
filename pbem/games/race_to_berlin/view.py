"""Views for templates: the public state (which holds no sealed value) with a per-area
board summary -- control, supply, terrain, eagle, fortification, units, blocks -- in
place of the static map and the raw area and unit tables; units off the board (in
reserve, eliminated, transferred) are listed in `off_board`."""

from __future__ import annotations

from typing import Any

from pbem.games.race_to_berlin.state import ALLIED, GERMAN, State, clone
from pbem.games.race_to_berlin.supply import supplied


def public_view(state: State) -> State:
    # The static map (borders, rivers) and the raw area table are summarised by `board`.
    view: State = clone({k: v for k, v in state.items() if k not in ("map", "areas", "units")})
    view["map_title"] = state["map"]["title"]
    fed = {c: supplied(state, c) for c in (*ALLIED, GERMAN)}
    board: list[dict[str, Any]] = []
    for area in state["map"]["area_ids"]:
        static = state["map"]["areas"][area]
        control = state["areas"][area]["control"]
        board.append(
            {
                "id": area,
                "name": static["name"],
                "control": control,
                "supplied": area in fed[control],
                "terrain": static["terrain"],
                "eagle": static["eagle"] or None,
                "eagle_holder": state["eagles"].get(area),
                "fortification": state["areas"][area]["fortification"],
                "units": [
                    {
                        "id": u,
                        "name": rec["name"],
                        "force": rec["force"],
                        "strength": rec["strength"],
                    }
                    for u, rec in state["units"].items()
                    if rec["area"] == area
                ],
                "blocks": [
                    {
                        k: b[k]
                        for k in (
                            "label",
                            "owner",
                            "force",
                            "cubes",
                            "value",
                            "revealed",
                            "exhausted",
                        )
                    }
                    for b in state["blocks"]
                    if b["area"] == area
                ],
            }
        )
    view["board"] = board
    view["off_board"] = [
        {"id": u, "name": rec["name"], "force": rec["force"], "status": rec["status"]}
        for u, rec in state["units"].items()
        if rec["area"] is None
    ]
    view["tokens_left"] = {
        role: sum(1 for t in tokens if not t["used"]) for role, tokens in state["tokens"].items()
    }
    return view
