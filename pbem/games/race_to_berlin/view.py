"""Views for templates: a role's view of the state (the kit has already stripped every
sealed value that is not the role's own) with a per-area board summary -- control,
supply, terrain, eagle, fortification, units, blocks -- in place of the static map and
the raw area and unit tables; units off the board (in reserve, eliminated, transferred)
are listed in `off_board`."""

from __future__ import annotations

from typing import Any

from pbem.core.canonical import copy_json
from pbem.games.race_to_berlin.state import ALLIED, GERMAN, State
from pbem.games.race_to_berlin.supply import supplied


def board_view(state: State) -> State:
    """The view of `state`, already stripped for its viewer (see the docstring): a deep
    copy, since state copies share their unchanging parts and a view is the caller's."""
    # The static map (borders, rivers) and the raw area table are summarised by `board`.
    view: State = copy_json({k: v for k, v in state.items() if k not in ("map", "areas", "units")})
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
