"""The engine's tables, built from the three data files (validated by `data.load_data`).

The rules need: zones with rings, stacking limits per side, adjacency per side (Germans
treat all Mitte sectors as adjacent, 5.1), units with type facts, the two decks, and the
reinforcement zones. The state embeds these so that `apply` needs no data object.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.errors import DataError

FILES = ("map.toml", "counters.toml", "cards.toml")
DATA_DIR = Path(__file__).parent / "data"
RINGS = {"edge": 0, "outer": 1, "middle": 2, "inner": 3, "mitte": 4}


def default_files() -> dict[str, bytes]:
    return {name: (DATA_DIR / name).read_bytes() for name in FILES}


def build(files: Mapping[str, bytes]) -> dict[str, Any]:
    try:
        mp = tomllib.loads(files["map.toml"].decode())
        co = tomllib.loads(files["counters.toml"].decode())
        ca = tomllib.loads(files["cards.toml"].decode())
    except (KeyError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"berlin-1945 data: {exc}") from exc
    zones = [z["id"] for z in mp["zone"]]
    ring = {z["id"]: RINGS[z["ring"]] for z in mp["zone"]}

    def lim(value: Any) -> int | None:
        return None if value == "unlimited" else int(value)

    limit = {
        z["id"]: {"german": lim(z["stack"]), "soviet": lim(z.get("stack_soviet", z["stack"]))}
        for z in mp["zone"]
    }
    pairs = [tuple(b["between"]) for b in mp["border"]]
    adj: dict[str, dict[str, list[str]]] = {"german": {}, "soviet": {}}
    for side in adj:
        links: dict[str, set[str]] = {z: set() for z in zones}
        for a, b in pairs:
            links[a].add(b)
            links[b].add(a)
        if side == "german":
            mitte = [z for z in zones if ring[z] == 4]
            for a in mitte:
                links[a].update(m for m in mitte if m != a)
        adj[side] = {z: sorted(v) for z, v in links.items()}
    types = {t["id"]: t for t in co["unit_type"]}
    units = []
    for u in co["unit"]:
        t = types[u["type"]]
        units.append(
            {
                "id": u["id"],
                "type": u["type"],
                "side": t["side"],
                "strength": t["strength"],
                "elite": t["elite"],
                "rebuild": t["rebuild"],
                "start": u.get("start"),
                "reinforcement": u.get("reinforcement"),
                "card": u.get("card"),
                "yellow_dot": u.get("yellow_dot", False),
            }
        )
    cards: dict[str, Any] = {}
    decks: dict[str, list[int]] = {"german": [], "soviet": []}
    for c in ca["card"]:
        key = f"{c['deck']}-{c['number']}"
        cards[key] = {
            "deck": c["deck"],
            "number": c["number"],
            "name": c["name"],
            "symbols": list(c["symbols"]),
            "effects": [dict(e) for e in c["effect"]],
        }
        decks[c["deck"]].append(int(c["number"]))
    for side in decks:
        decks[side].sort()
    reinforcement_zones = {str(r["group"]): list(r["zones"]) for r in co["reinforcement"]}
    return {
        "zones": zones,
        "ring": ring,
        "limit": limit,
        "adj": adj,
        "units": units,
        "cards": cards,
        "decks": decks,
        "reinforcement_zones": reinforcement_zones,
    }
