"""Regroup (9.5), Rebuild (9.6) and the hit of a reinforcement placed in the closest
friendly hex (7.1.B), through the casualty machinery of hits.py.

docs/race-to-the-sea.md, "Regroup and Rebuild", is the design.

- Regroup (`regroup c04 0807`) is public, the counter's identity and markers are not. The
  count is public: 1 hit next to an enemy unit (9.5.5.A), else 2 (9.5.5.B); the unit
  always removes all it may (the rule's "may" only caps the count: keeping a hit is never
  useful, and a chosen count would have to be sealed too). A unit with fewer hits removes
  what it has (`casualties.recover`), so how many came off stays hidden. The LOC (9.5.1-4)
  depends on the counter's public nationality: it is checked at once. What the public
  cannot check becomes claims, checked when the pieces open:
  - on the identity piece: no False Report (9.1.C: it may only move);
  - on the old stack piece: it holds a marker (9.5: "a unit with a Casualties marker");
  - on the new stack piece, committed in the same entry: it is the old one less the hits
    (`made: "recover"`, recomputed at the end by hits.check_stacks).
  A counter with no stack piece is publicly fresh: its regroup is refused at once.
- Rebuild (`rebuild fr-xiii 1203`) names an eliminated unit, which is public (5.2.6), so it
  enters face up (a sealed identity would hide nothing; the Fog of War step hides it again
  away from the enemy, 7.7.4.A). It is activated (9.6) and takes SZ - 1 hits drawn
  privately (`hits.absorb`): the entry commits the draw secret, the owner's `restack`
  step commits the markers before play goes on. A unit of SZ 1 draws nothing.
- 7.1.B: a unit placed in the closest friendly hex takes one hit in its placement entry
  (`placement_hit`), drawn the same way, and its owner restacks before the next placement.
  A unit of SZ 1 (only de-iv-cav, public cavalry) is eliminated at once by that hit
  (5.2.6) and may be Rebuilt later; a hidden counter never is (the public cannot tell a
  False Report, SZ 0, from a unit: the draw and its claim cover both).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.engine import FRESH, Context, State
from pbem.errors import IllegalOrderError
from pbem.games.race_to_the_sea import casualties, hits
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.decisions import Place, Rebuild, Regroup
from pbem.games.race_to_the_sea.entry_index import entry_index
from pbem.games.race_to_the_sea.shared_pieces import own
from pbem.games.race_to_the_sea.size_claims import record_claims
from pbem.games.race_to_the_sea.state import (
    NAMES,
    add_counter,
    adjacent_to_enemy,
    flooded,
    hex_text,
    hidden_candidates,
    identity,
    illegal,
    listed_hexes,
    piece_label,
    positions,
    ready_counter,
    take_control,
    unit,
    writable_counter,
)
from pbem.games.race_to_the_sea.what_next import NEXT_ACTION, PENDING
from pbem.kit import pieces
from pbem.kit.steps import Next

# --- Regroup (9.5) ----------------------------------------------------------------------------


def allowance(state: State, counter: str) -> int:
    """9.5.5.A-B: one hit next to an enemy unit (any enemy counter: the public cannot tell
    a False Report), else two."""
    return 1 if adjacent_to_enemy(state, counter) else 2


def has_loc(state: State, nationality: str, hex_: int) -> bool:
    """9.5.1-9.5.4: a path of friendly-controlled hexes to an eligible hex."""
    found = mv.regroup_loc(state["board"], state["control"], nationality, hex_, flooded(state))
    return found is not None


def _false_reports(state: State, nationality: str) -> list[str]:
    return sorted(
        k
        for k, u in state["units_data"]["units"].items()
        if u["kind"] == "false-report" and u["nationality"] == nationality
    )


def _check_regroup(state: State, role: str, d: Regroup) -> dict[str, Any]:
    """The public checks of a Regroup; returns the counter."""
    if d.counter not in state["counters"]:
        raise illegal(f"no counter {d.counter} on the map (a False Report may only move)", "9.5")
    counter = ready_counter(state, role, d.counter)
    if counter["hex"] != d.at:
        raise illegal(f"{d.counter} is in hex {hex_text(counter['hex'])}", "9.5")
    if d.counter not in state["stacks"]:
        raise illegal(f"{d.counter} has taken no hit: it has no Casualties marker", "9.5")
    known = hits.stack_of(state, d.counter)
    if known is not None and casualties.hits_of(known) == 0:
        raise illegal(f"{d.counter} has no Casualties marker", "9.5")
    unit_id = identity(state, d.counter)
    if unit_id is not None and unit(state, unit_id)["kind"] == "false-report":
        raise illegal(f"{d.counter} is a False Report: it may only move", "9.1.C")
    if not has_loc(state, counter["nationality"], d.at):
        raise illegal(f"{d.counter} has no LOC to an eligible {counter['nationality']} hex", "9.5")
    return counter


def regroup_values(state: State, role: str, d: Regroup) -> dict[str, Any]:
    """The owner's client: the new stack, the old one less the allowed hits (5.2.5.A)."""
    _check_regroup(state, role, d)
    old = hits.stack_of(state, d.counter)
    if old is None:
        raise illegal(f"{d.counter}'s markers are not known here", "9.5")
    new, _back = casualties.recover(old, allowance(state, d.counter))
    return {hits.stack_label(state, d.counter): new}


def regroup(state: State, role: str, d: Regroup, ctx: Context) -> Next:
    """9.5: the counter's new stack piece, committed in this entry, with its claims."""
    _check_regroup(state, role, d)
    count = allowance(state, d.counter)
    old = state["stacks"][d.counter]
    label = hits.stack_label(state, d.counter)
    piece = pieces.place(ctx, label, role, "9.5")
    pieces.claim(
        piece,
        ctx,
        role,
        rule="9.5.5",
        made="recover",
        after=old,
        unit=piece_label(d.counter),
        hits=count,
    )
    state["pieces"][label] = piece
    if not state["pieces"][old]["revealed"]:
        pieces.claim(own(state["pieces"], old), ctx, role, rule="9.5", regroup="marked")
    ident = state["pieces"].get(piece_label(d.counter))
    if ident is not None and not ident["revealed"]:
        nationality = state["counters"][d.counter]["nationality"]
        ident = own(state["pieces"], piece_label(d.counter))
        pieces.claim(ident, ctx, role, rule="9.1.C", regroup=_false_reports(state, nationality))
    state["stacks"][d.counter] = label
    state["next_stack"] += 1
    ctx.event(f"{d.counter} regroups in {hex_text(d.at)}: up to {count} hit(s) off (9.5.5)")
    writable_counter(state, d.counter)["activated"] = True  # 4.1.2.B, 9.B
    return NEXT_ACTION


def check_claim(piece: Mapping[str, Any], value: Any) -> None:
    """The Regroup claims checked when a piece opens (flow.check_claims): an identity that
    regrouped is no False Report (9.1.C); a stack that regrouped held a marker (9.5)."""
    for made in piece["claims"]:
        said = made.get("regroup")
        if said is None:
            continue
        if said == "marked" and not value:
            raise pieces.false_claim(
                int(made["seq"]),
                str(made["by"]),
                f"{piece['label']} held no Casualties marker: that unit could not regroup",
                "9.5",
            )
        if isinstance(said, list) and value in said:
            raise pieces.false_claim(
                int(made["seq"]),
                str(made["by"]),
                f"{piece['label']} is {value}, a False Report: it may only move",
                "9.1.C",
            )


# --- Rebuild (9.6) ----------------------------------------------------------------------------


def _check_rebuild(state: State, role: str, d: Rebuild) -> dict[str, Any]:
    if d.unit not in state["eliminated"][role]:
        raise illegal(f"{d.unit} is not an eliminated unit of {NAMES[role]}", "9.6")
    data = unit(state, d.unit)
    if d.hex not in rm.adjacency(state["board"]):  # (`rm.grid`'s hexes)
        raise illegal(f"hex {hex_text(d.hex)} is not on the map", "9.6")
    if any(c["side"] != role and c["hex"] == d.hex for c in state["counters"].values()):
        raise illegal(f"hex {hex_text(d.hex)} holds an enemy unit", "9.6")
    if not has_loc(state, data["nationality"], d.hex):
        raise illegal(
            f"hex {hex_text(d.hex)} has no LOC to an eligible {data['nationality']} hex", "9.6"
        )
    return data


def rebuild_draws(state: State, role: str, d: Rebuild) -> dict[str, Any]:
    """The owner's client: a draw secret when the unit returns with markers (SZ > 1)."""
    data = _check_rebuild(state, role, d)
    return {hits.draw_label(state, role): FRESH} if data["sz"] > 1 else {}


def rebuild(state: State, role: str, d: Rebuild, ctx: Context) -> Next:
    """9.6: the unit returns face up, activated, with SZ - 1 hits drawn privately."""
    data = _check_rebuild(state, role, d)
    cavalry = data["kind"] == "cavalry"
    label = add_counter(state, role, data["nationality"], d.hex, d.unit, cavalry)
    pos = positions(state)
    check = mv.stacking_check(pos, {"id": label, **pos[label]}, d.hex)
    if check.problem is not None:
        raise illegal(check.problem, "9.6, 10.2")
    record_claims(state, ctx, role, label, check.claims)
    left = [u for u in state["eliminated"][role] if u != d.unit]
    state["eliminated"] = {**state["eliminated"], role: left}  # (shared by copies: replaced)
    take_control(state, label, d.hex)
    writable_counter(state, label)["activated"] = True  # 9.6: "give the unit an Activated marker"
    ctx.event(f"{label}: {d.unit} is rebuilt in {hex_text(d.hex)} at SZ 1 (9.6)")
    if data["sz"] > 1:
        hits.absorb(state, role, {label: data["sz"] - 1}, set(), ctx, "9.6")
        state["resume"] = "action"
        return PENDING
    return NEXT_ACTION


def rebuild_hexes(state: State, role: str, unit_id: str) -> list[int]:
    """Where a bot or a menu offers `unit_id`'s Rebuild: the eligible hexes themselves
    (cities, ports...), friendly, with no enemy and room for it (a subset of the legal
    hexes, any of which traces an LOC)."""
    data = unit(state, unit_id)
    pos = positions(state)
    out = []
    board, control = state["board"], state["control"]
    for hex_ in mv.regroup_targets(board, data["nationality"], control, flooded(state)):
        if any(p["side"] != role and p["hex"] == hex_ for p in pos.values()):
            continue
        piece = {"id": "rebuilt", "side": role, "hex": hex_, "kind": data["kind"], "sz": data["sz"]}
        piece["scouting"] = False
        if mv.stacking_check(pos, piece, hex_).ok:
            out.append(hex_)
    return out


# --- the act step's commitments and the owner's seals -----------------------------------------


def act_commits(state: State, role: str, d: Any) -> list[str]:
    if isinstance(d, Regroup) and d.counter in state["counters"]:
        return [hits.stack_label(state, d.counter)]
    if isinstance(d, Rebuild):
        return [hits.draw_label(state, role)]
    return []


def seal_values(state: State, role: str, d: Any) -> dict[str, Any]:
    if isinstance(d, Regroup):
        return regroup_values(state, role, d)
    if isinstance(d, Rebuild):
        return rebuild_draws(state, role, d)
    return {}


# --- 7.1.B: the closest friendly hex costs a hit ----------------------------------------------


def hit_on_placement(state: State, role: str, d: Place) -> bool:
    """7.1.B: whether this placement is in the closest friendly hex (every listed hex of the
    unit, or of every candidate of a hidden placement, being closed to it)."""
    batch = state.get("batch")
    if state["step"] != "place" or batch is None:
        return False
    nationality = d.nationality
    if d.unit is not None:
        kind = state["units_data"]["units"].get(d.unit, {}).get("kind")
        if kind is None:
            return False
        if kind == "cavalry":
            return d.hex not in listed_hexes(state, d.unit, role)
        nationality = unit(state, d.unit)["nationality"]  # sealed as a hidden placement
    index = entry_index(state, role)  # (the position's, once: entry_hexes for each unit)
    candidates = [
        u
        for u in hidden_candidates(state, batch)
        if unit(state, u)["nationality"] == nationality and d.hex in index.entry_hexes(u)
    ]
    return bool(candidates) and all(d.hex not in index.listed_hexes(u) for u in candidates)


def placement_draws(state: State, role: str, d: Place) -> dict[str, Any]:
    """The owner's client: the draw secret of a 7.1.B hit (none if it eliminates: SZ 1)."""
    if not hit_on_placement(state, role, d):
        return {}
    if (
        d.unit is not None
        and unit(state, d.unit)["kind"] == "cavalry"
        and unit(state, d.unit)["sz"] <= 1
    ):
        return {}  # 5.2.6: eliminated by the hit, in the clear
    return {hits.draw_label(state, role): FRESH}


def place_commits(state: State, role: str, d: Any) -> list[str]:
    if isinstance(d, Place) and hit_on_placement(state, role, d):
        return [hits.draw_label(state, role)]
    return []


def placement_hit(state: State, role: str, label: str, ctx: Context) -> Next:
    """7.1.B: one hit on the counter just placed; a survivor's owner restacks before the
    next placement (interrupts.resume goes back to `place`)."""
    counter = state["counters"][label]
    lost: set[str] = set()
    if counter["unit"] is not None and unit(state, counter["unit"])["sz"] <= 1:
        lost.add(label)  # 5.2.6: a hit equal to its SZ eliminates it
    ctx.event(f"{label} is placed in the closest friendly hex: one hit (7.1.B)")
    hits.absorb(state, role, {label: 1}, lost, ctx, "7.1.B")
    if state.get("restack"):
        state["resume"] = "place"
        return PENDING
    return None


# --- choices (choices.py) ---------------------------------------------------------------------


def regroups(state: State, role: str, label: str) -> list[Regroup]:
    """The counter's Regroup, if its owner's state shows it legal (9.5)."""
    d = Regroup(label, state["counters"][label]["hex"])
    try:
        regroup_values(state, role, d)
    except IllegalOrderError:
        return []
    return [d]


def rebuilds(state: State, role: str) -> list[Rebuild]:
    """9.6: each eliminated unit into each eligible hex (`rebuild_hexes`)."""
    return [Rebuild(u, h) for u in state["eliminated"][role] for h in rebuild_hexes(state, role, u)]
