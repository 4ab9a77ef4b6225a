"""Götterdämmerung: splitting Soviet corps (rulebook 5.7, with 4.12, 5.48) as pure functions.

Functions take the loaded map (`map_data.load_map`), the counters data
(`counters.load_counters`) and plain unit dicts as the engine state holds them (`id`,
`side`, `hex`, `steps`, optional `disrupted`, `out_of_supply`, `delays`, `moved`). A corps'
two Battle groups are units of the counters data, linked to it by `place = {"split": corps
id}` (counters.battle_groups) with the values of 5.73 for the corps' branch and status; the
support units are the units of the "support" pool (5.74).

Readings where the rulebook is silent or terse:
- 5.72: the split is how a corps in a Transition Hex begins a move into a Berlin City hex;
  it is a decision of the Soviet Normal or Siege Movement Phase, made by a corps that has
  not moved yet in that phase (5.13), and counts as that corps beginning to move. A
  disrupted corps may not split in the Siege Movement Phase, where it may not move (6.67);
  in the Normal Movement Phase it may (its groups move at half their allowance, 5.19).
- Delay markers (5.18, 6.83-6.85): the split is the marked corps beginning its move, so
  the engine reveals the markers first (their own entry, signed before the draw, 6.84) and
  returns them to the cup (6.85); the revealed total is then lost by EACH Battle group as it
  begins its own move in that phase (`split(..., delay=n)` puts it in their `delay`, to be
  passed to movement.movement_points). The delay fell on the whole formation, so neither
  group escapes it, and no marker is duplicated or drawn twice. The support unit, which
  comes from the pool, is not delayed. Markers exist only in the Soviet Normal Movement
  Phase (6.85 returns every unrevealed one then), so a Siege-phase split never has any.
- Disruption and supply carry over: each Battle group is disrupted (6.66) and out of
  supply (8.11) if the corps was; the support unit is never disrupted (it did not retreat)
  and takes the corps' supply status (it stands in the same hex, and 8.11's status holds
  until the next Supply Phase). An Artillery Support marker never meets a split (6.94
  removes the markers after the Soviet Combat Phase of turn 1, before any split).
- 5.77: a reduced corps (one step left of two) becomes one Battle group: the Soviet
  player's choice (`keep`), by default the first of 5.73's pair.
- 5.75 "available": a support unit of the pool that has never been committed. A committed
  one stays on the maps until destroyed (5.76), so it is unavailable either way:
  `used_support` is every support id committed so far (state "destroyed" ids, or a record
  of commitments), and the units on the maps are checked too.
- 4.12 and 4.17 after the split: two Battle groups and a support unit may share the
  Transition Hex only during the phase (4.16); a Polish tank corps splits like a Soviet one,
  but its groups may not end a phase with the (Soviet) support unit (4.17). Neither is
  checked here: zoc.end_of_phase_problems does it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from pbem.games.gotterdammerung import counters as ct
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import zoc

Unit = Mapping[str, Any]
SPLIT_PHASES = ("normal", "siege")  # 5.48, 5.72 (movement.PHASES names)
SUPPORT_POOL = "support"  # 5.74


def is_splittable(data: Mapping[str, Any], unit: Unit) -> bool:
    """A Soviet (or Polish) corps-size tank, mechanized or cavalry unit (5.71)."""
    c = zoc.counter(data, unit)
    return (
        unit["side"] == "soviet"
        and c.get("size") == "corps"
        and c.get("branch") in ct.SPLIT_BRANCHES
        and bool(ct.battle_groups(dict(data), str(unit["id"])))
    )


def is_reduced(data: Mapping[str, Any], unit: Unit) -> bool:
    """Has the corps lost a step (6.52; 5.77)?"""
    full = int(zoc.counter(data, unit).get("steps", 1))
    return int(unit.get("steps", full)) < full


def available_support(
    data: Mapping[str, Any], units: Sequence[Unit], used_support: Collection[str]
) -> list[str]:
    """The support units the Soviet player may choose from (5.75): the pool less those
    committed (on the maps or destroyed)."""
    on_map = {u["id"] for u in units}
    return [
        s
        for s in ct.pool(dict(data), SUPPORT_POOL)
        if s not in on_map and s not in set(used_support)
    ]


def split_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    corps: Unit,
    support_id: str,
    *,
    phase: str,
    used_support: Collection[str],
) -> list[str]:
    """Why `corps` may not split now, taking support unit `support_id` (empty: it may)."""
    name = corps.get("id", "the unit")
    c = zoc.counter(data, corps)
    if corps["side"] != "soviet":
        return [f"{name}: only Soviet corps split (5.71)"]
    if c.get("size") == "corps" and c.get("branch") == "rifle":
        return [f"{name} is a Rifle Corps: it enters Berlin City hexes without splitting (5.79)"]
    if not is_splittable(data, corps):
        return [f"{name}: only a corps-size tank, mechanized or cavalry unit splits (5.71, 5.73)"]
    problems = []
    if md.kind(board, corps["hex"]) != md.TRANSITION:
        problems.append(f"{name} splits only in a Transition Hex (5.72)")
    if phase not in SPLIT_PHASES:
        problems.append(
            "a corps splits only in the Soviet Normal or Siege Movement Phase (5.48, 5.72)"
        )
    if corps.get("moved"):
        problems.append(f"{name} has already moved this phase (5.13)")
    if phase == "siege" and corps.get("disrupted"):
        problems.append(f"{name} is disrupted and may not move in the Siege Movement Phase (6.67)")
    support = data["units"].get(support_id)
    if support is None or support.get("place", {}).get("pool") != SUPPORT_POOL:
        problems.append(
            f"{support_id} is not a support unit (heavy tank, heavy SP gun or heavy "
            "artillery, 5.74)"
        )
    elif any(u["id"] == support_id for u in units):
        problems.append(f"{support_id} is already on the map (5.75)")
    elif support_id in set(used_support):
        problems.append(
            f"{support_id} was committed and destroyed: it may not be used again (5.75)"
        )
    return problems


def split(
    data: Mapping[str, Any],
    corps: Unit,
    support_id: str,
    *,
    keep: str | None = None,
    delay: int = 0,
) -> list[dict[str, Any]]:
    """The units that replace `corps` in its hex (5.72-5.77): its two Battle groups (one,
    `keep` or the first, if the corps was reduced), then the support unit. `delay` is the
    total of the corps' revealed Delay markers (see the module doc)."""
    groups = ct.battle_groups(dict(data), str(corps["id"]))
    if not groups:
        raise ValueError(f"{corps['id']} has no Battle groups to split into (5.73)")
    if is_reduced(data, corps):
        if keep is not None and keep not in groups:
            raise ValueError(f"{keep} is not a Battle group of {corps['id']}: {', '.join(groups)}")
        groups = [keep or groups[0]]  # 5.77
    out = []
    for g in groups:
        bg = dict(corps)  # status and per-phase flags carry over (the module doc)
        bg.update(id=g, steps=1, delays=0, delay=delay, artillery=False, moved=False)
        out.append(bg)
    out.append(
        {
            "id": support_id,
            "side": "soviet",
            "hex": corps["hex"],
            "steps": 1,
            "disrupted": False,
            "out_of_supply": bool(corps.get("out_of_supply")),
            "delays": 0,
            "delay": 0,
            "artillery": False,
            "moved": False,
        }
    )
    return out
