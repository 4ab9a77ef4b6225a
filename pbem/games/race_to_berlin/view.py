"""Views for templates: a role's view of the state (the kit has already stripped every
sealed value that is not the role's own) with a per-area board summary -- control,
supply, terrain, eagle, fortification, units, blocks, neighbours (those across a river
in `rivers`), the German front of the area and of each German unit -- in place of the
static map and the raw area and unit tables; every area is listed, empty ones too, so a
player can rebuild control and the front line from the summary alone. Units off the
board (in reserve, eliminated, transferred) are listed in `off_board`, the special tokens
by force and kind in `token_kinds`. Items the shipped data calls stand-ins carry
`stand_in` (`provenance`), and `data` says whether the map is the shipped stand-in."""

from __future__ import annotations

from typing import Any

from pbem.core.canonical import copy_json
from pbem.games.race_to_berlin.data import FORCE_PLAYER, GERMAN_FRONTS
from pbem.games.race_to_berlin.provenance import Marks
from pbem.games.race_to_berlin.state import ALLIED, GERMAN, State
from pbem.games.race_to_berlin.supply import supplied


def _unit(unit: str, rec: dict[str, Any], marks: Marks) -> dict[str, Any]:
    """A unit as the summaries show it: id, name, force, the player who commands it and,
    for a German unit, its front ("west": the Western Front, played by the Soviet player)
    and strength."""
    return {
        "id": unit,
        "name": rec["name"],
        "force": rec["force"],
        "player": FORCE_PLAYER[rec["force"]],
        "front": GERMAN_FRONTS.get(rec["force"]),
        "strength": rec["strength"],
        "status": rec["status"],
        "stand_in": marks.unit(unit, rec["name"]),
    }


def token_kinds(state: State, marks: Marks) -> dict[str, list[dict[str, Any]]]:
    """Each player's special tokens by force and kind, in data order: how many of each are
    left this turn (rulebook: Special tokens, face down once used until the turn ends)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for role, tokens in state["tokens"].items():
        kinds: dict[tuple[str, str], dict[str, Any]] = {}
        for t in tokens:
            key = (t["force"], t["kind"])
            entry = kinds.setdefault(
                key,
                {
                    "force": t["force"],
                    "kind": t["kind"],
                    "left": 0,
                    "total": 0,
                    "stand_in": marks.token(role, t["force"], t["kind"]),
                },
            )
            entry["total"] += 1
            entry["left"] += not t["used"]
        out[role] = list(kinds.values())
    return out


def board_view(state: State) -> State:
    """The view of `state`, already stripped for its viewer (see the docstring): a deep
    copy, since state copies share their unchanging parts and a view is the caller's."""
    # The static map (borders, rivers) and the raw area table are summarised by `board`.
    view: State = copy_json({k: v for k, v in state.items() if k not in ("map", "areas", "units")})
    view["map_title"] = state["map"]["title"]
    marks = Marks(state["map"]["title"])
    view["data"] = {"stand_in": marks.map, "own": not marks.shipped}
    fed = {c: supplied(state, c) for c in (*ALLIED, GERMAN)}
    board: list[dict[str, Any]] = []
    for area in state["map"]["area_ids"]:
        static = state["map"]["areas"][area]
        control = state["areas"][area]["control"]
        fort = state["areas"][area]["fortification"]
        board.append(
            {
                "id": area,
                "name": static["name"],
                "stand_in": marks.area(area, static["name"]),
                "control": control,
                "supplied": area in fed[control],
                "terrain": static["terrain"],
                # the German front whose player defends the area when it is German and
                # empty (interpretation 8 of docs/race-to-berlin.md); None for Berlin
                "front": static["front"] or None,
                "berlin": static["berlin"] or None,
                "neighbours": list(static["neighbours"]),
                "rivers": list(static["rivers"]),
                "bases": [r for r in ALLIED if area in state["bases"][r]],
                "stranded": area in state["stranded"],
                "eagle": static["eagle"] or None,
                "eagle_stand_in": marks.eagle(area),
                "eagle_holder": state["eagles"].get(area),
                "fortification": None
                if fort is None
                else {**fort, "stand_in": marks.fortification(fort["id"], fort["name"])},
                "units": [
                    _unit(u, rec, marks) for u, rec in state["units"].items() if rec["area"] == area
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
        _unit(u, rec, marks) for u, rec in state["units"].items() if rec["area"] is None
    ]
    view["token_kinds"] = token_kinds(state, marks)
    view["tokens_left"] = {
        role: sum(1 for t in tokens if not t["used"]) for role, tokens in state["tokens"].items()
    }
    return view
