"""Götterdämmerung 12.34: the 6th SS Panzer Army's own supply, from its HQ.

A unit of the army is "cut off" when no six-hex supply line (8.14, 8.15) runs from it to
the army's HQ unit; the HQ counts as off the map when it cannot trace a line of unlimited
length to a north, west or south edge hex west of the initial-deployment codes (11.15's
hexes, victory.exit_hexes), and then every unit of the army is cut off. A cut-off unit
moves with half its allowance in the German Movement Phase, attacks at half strength in the
German Combat Phase and defends at half strength when Soviet units attack it (fractions
rounded up, as 8.16). The engine takes the first two at the start of their phase and the
third at the moment of the attack (12.34's "at the start of" and "at the moment").

Readings: the lines are traced as German supply lines of 8.14-8.15 with 11.15's strong-ZOC
reading (a Soviet strong ZOC does not reach into a German-occupied hex); the HQ's own line
to the edge likewise; units in the City are never in the army (12.34 keeps them out).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.games.gotterdammerung import deployment, supply, victory

Unit = Mapping[str, Any]
RANGE = 6  # 12.34


def cut_off(board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit]) -> set[str]:
    """The ids of the army's units on the map with no six-hex line to a working HQ."""
    hq_id, members = deployment.sixth_ss_members(data)
    army = [u for u in units if u["id"] in members and u["hex"] not in (None, "ngp")]
    if not army:
        return set()
    hq = next((u for u in units if u["id"] == hq_id), None)
    blocked = supply.blocker(board, data, units, "german", strong_cancelled=True)
    edge = victory.exit_hexes(board)
    if hq is None or supply.trace(board, "german", hq["hex"], edge, blocked) is None:
        return {u["id"] for u in army}  # the HQ counts as off the map
    return {
        u["id"]
        for u in army
        if supply.trace(board, "german", u["hex"], {hq["hex"]}, blocked, limit=RANGE) is None
    }


def halved(value: int) -> int:
    return supply.halved(value)
