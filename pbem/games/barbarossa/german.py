"""The German Phase of Barbarossa: the handlers and choices of step "allocate".

rulebook: The German Phase -- Rolling sixes, Using command cubes to re-roll dice and
Concentration of Panzers, in any order, before or after allocating dice to
Re-supplying or to Attacking Cities (with Encirclements, Capturing Cities and Gaining
Victory Points, Long Logistical Chains); `end` closes the phase and the turn.

Every handler validates first and rolls last (`rules` says why).
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.barbarossa.board import (
    MAX_DIE_VALUE,
    R_ATTACK,
    R_CAPTURE,
    R_CONCENTRATION,
    R_ENCIRCLE,
    R_END,
    R_LOGISTICS,
    R_PATHS,
    R_PHASE,
    R_REROLL,
    R_RESUPPLY,
    R_SIXES,
    check_black_cubes,
    claim_six,
    current_box,
    find_city,
    find_die,
    front_cities,
    illegal,
    own_path,
    plural,
    roll_pool_die,
)
from pbem.games.barbarossa.data import d3
from pbem.games.barbarossa.decisions import Attack, Boost, Claim, End, Reroll, Supply

# --- Using command cubes to re-roll dice, Concentration of Panzers, Rolling sixes --------------


def reroll(state: State, role: str, decision: Reroll, ctx: Context) -> None:
    die = find_die(state, decision.die, free=True, rule=R_REROLL)
    cubes = state["cubes"]
    if cubes["command"] < 1:
        raise illegal("no blue cube to spend", R_REROLL)
    cubes["command"] -= 1
    notes = []
    if die["boost"]:
        notes.append(f"its +{die['boost']} from black cubes is lost with the old roll")
    if die["six"] == "unclaimed":
        notes.append("the unclaimed blue cube of its natural six is lost")
    ctx.event(
        f"1 blue cube spent to re-roll die {die['die']} ({die['colour']}, showing "
        f"{die['value']})" + (f"; {'; '.join(notes)}" if notes else ""),
        die=die["die"],
        command=cubes["command"],
        rule=R_REROLL,
    )
    roll_pool_die(die, ctx, f"re-roll die {die['die']} ({die['colour']})")


def boost(state: State, role: str, decision: Boost, ctx: Context) -> None:
    die = find_die(state, decision.die, free=True, rule=R_CONCENTRATION)
    cubes = state["cubes"]
    check_black_cubes(state, decision.cubes)
    if die["value"] + decision.cubes > MAX_DIE_VALUE:
        raise illegal(
            f"die {die['die']} would show {die['value'] + decision.cubes}; no box needs more "
            f"than {MAX_DIE_VALUE} (an encirclement of a 6)",
            R_CONCENTRATION,
        )
    cubes["supply"] -= decision.cubes
    die["boost"] += decision.cubes
    die["value"] += decision.cubes
    note = " (a modified six earns no blue cube)" if die["value"] >= 6 else ""
    ctx.event(
        f"Concentration of Panzers: {plural(decision.cubes, 'black cube')} spent, "
        f"die {die['die']} now {die['value']}{note}",
        die=die["die"],
        cubes=decision.cubes,
        value=die["value"],
        rule=R_CONCENTRATION,
    )


def claim(state: State, role: str, decision: Claim, ctx: Context) -> None:
    die = find_die(state, decision.die, free=False, rule=R_SIXES)
    if die["colour"] != "white" or die["roll"] != 6:
        shown = f"a {die['colour']} die that rolled {die['roll']}"
        raise illegal(
            f"die {die['die']} is {shown}; only a white die's natural six earns a blue cube",
            R_SIXES,
        )
    if die["six"] == "claimed":
        raise illegal(f"the blue cube of die {die['die']} was already taken", R_SIXES)
    if state["cubes"]["command"] >= state["limits"]["command"]:
        raise illegal(
            f"the command tracker is full ({state['limits']['command']} blue cubes); "
            "spend one first",
            R_SIXES,
        )
    claim_six(state, die, ctx, "claimed")


# --- Re-supplying -------------------------------------------------------------------------------


def supply(state: State, role: str, decision: Supply, ctx: Context) -> None:
    die = find_die(state, decision.die, free=True, rule=R_RESUPPLY)
    if die["value"] < 2:
        raise illegal(
            f"die {die['die']} shows {die['value']}; re-supply needs a die of 2 or higher",
            R_RESUPPLY,
        )
    cubes, cap = state["cubes"], state["limits"]["supply"]
    # A D3 never shows more than 3, even for a die raised above 6.
    earned = min(d3(die["value"]), 3)
    gained = min(earned, cap - cubes["supply"])
    cubes["supply"] += gained
    die["allocated"] = {"kind": "supply", "gained": gained}
    capped = f", capped at {cap}" if gained < earned else ""
    ctx.event(
        f"die {die['die']} ({die['colour']} {die['value']}) to re-supply: D3 of "
        f"{die['value']} is {earned}, +{gained} black cube{'s' if gained != 1 else ''}"
        f" ({cubes['supply']} of {cap}{capped})",
        die=die["die"],
        earned=earned,
        gained=gained,
        supply=cubes["supply"],
        rule=R_RESUPPLY,
    )


# --- Attacking Cities, Encirclements, Capturing Cities, Long Logistical Chains -----------------


def attack(state: State, role: str, decision: Attack, ctx: Context) -> None:
    p, index, city = find_city(state, decision.city)
    die = find_die(state, decision.die, free=True, rule=R_ATTACK)
    if city["status"] == "captured":
        raise illegal(f"{city['name']} is already captured", R_ATTACK)
    if city["status"] == "locked":
        prev = state["paths"][p]["cities"][index - 1]["name"]
        raise illegal(f"{city['name']} is locked; capture {prev} first", R_PATHS)
    boxes = city["boxes"]
    k = next(i for i, b in enumerate(boxes) if not b["marked"])
    box = boxes[k]
    value = die["value"]
    if value < box["value"]:
        raise illegal(
            f"die {die['die']} shows {value}, box {k + 1} of {city['name']} needs "
            f"{box['value']} or more",
            R_ATTACK,
        )
    cubes = state["cubes"]
    if box["supply"] and cubes["supply"] < 1:
        raise illegal(
            f"box {k + 1} of {city['name']} has a supply icon and there is no black cube "
            "to discard",
            R_LOGISTICS,
        )
    # validated: from here on the attack happens, on this state's own copy of the path
    path = own_path(state, p)
    city = path["cities"][index]
    boxes = city["boxes"]
    marked = [k + 1]
    die["allocated"] = {"kind": "attack", "city": city["id"], "marked": marked}
    ctx.event(
        f"die {die['die']} ({value}) attacks {city['name']}",
        die=die["die"],
        city=city["id"],
        value=value,
        rule=R_ATTACK,
    )
    _mark_box(state, city, k, ctx, f"die {value} >= {box['value']}", R_ATTACK)
    if value >= 2 * box["value"] and k + 1 < len(boxes):
        nxt = boxes[k + 1]
        if nxt["supply"] and cubes["supply"] < 1:
            ctx.event(
                f"encirclement: die {value} >= 2x{box['value']}, but box {k + 2} "
                f"({nxt['value']}) of {city['name']} has a supply icon and no black cube is "
                "left: not marked",
                city=city["id"],
                box=k + 2,
                rule=R_LOGISTICS,
            )
        else:
            marked.append(k + 2)
            _mark_box(
                state,
                city,
                k + 1,
                ctx,
                f"encirclement: die {value} >= 2x{box['value']}, next box marked",
                R_ENCIRCLE,
            )
    if all(b["marked"] for b in boxes):
        _capture(state, path, index, ctx)


def _mark_box(
    state: State, city: dict[str, Any], k: int, ctx: Context, reason: str, rule: str
) -> None:
    box = city["boxes"][k]
    if box["supply"]:
        state["cubes"]["supply"] -= 1
        ctx.event(
            f"supply icon on box {k + 1} of {city['name']}: 1 supply cube spent "
            f"({state['cubes']['supply']} left)",
            city=city["id"],
            box=k + 1,
            supply=state["cubes"]["supply"],
            rule=R_LOGISTICS,
        )
    box["marked"] = True
    ctx.event(
        f"box {k + 1} of {city['name']} ({box['value']}) marked ({reason})",
        city=city["id"],
        box=k + 1,
        value=box["value"],
        rule=rule,
    )


def _capture(state: State, path: dict[str, Any], index: int, ctx: Context) -> None:
    city = path["cities"][index]
    city["status"] = "captured"
    state["vp"] += city["stars"]
    text = f"{city['name']} captured: every box marked, +{city['stars']} VP (total {state['vp']})"
    if index + 1 < len(path["cities"]):
        nxt = path["cities"][index + 1]
        nxt["status"] = "unlocked"
        text += f"; {nxt['name']} unlocked"
    else:
        text += f"; the end of {path['name']}'s path"
    ctx.event(text, city=city["id"], stars=city["stars"], vp=state["vp"], rule=R_CAPTURE)


# --- End of the German phase / Ending the Game --------------------------------------------------


def end(state: State, role: str, decision: End, ctx: Context) -> None:
    # Sixes not yet claimed earn their cube now, as far as the tracker has room.
    for die in state["pool"]:
        unclaimed = die["colour"] == "white" and die["six"] == "unclaimed"
        if unclaimed and not claim_six(state, die, ctx, "end of phase"):
            die["six"] = "lost"
            ctx.event(
                f"natural six on die {die['die']}: no blue cube, the command tracker is "
                f"full ({state['limits']['command']})",
                die=die["die"],
                rule=R_SIXES,
            )
    unused = [d["die"] for d in state["pool"] if d["allocated"] is None]
    turn = state["turn"]
    ctx.event(
        f"turn {turn}: German phase ends"
        + (f"; unused dice lost: {', '.join(map(str, unused))}" if unused else ""),
        turn=turn,
        unused=unused,
        rule=R_PHASE,
    )
    state["pool"] = []
    state["event_die"] = None
    state["event"] = None
    if turn >= state["turns"]:
        state["phase"] = "over"
        state["step"] = "over"
        ctx.event(
            f"timeline complete after turn {turn}: game over with {state['vp']} VP",
            vp=state["vp"],
            rule=R_END,
        )
        return
    state["turn"] = turn + 1
    state["phase"] = "campaign"
    state["step"] = "roll_event"


# --- choices ------------------------------------------------------------------------------------


def allocate_choices(state: State, role: str) -> list[Any]:
    cubes = state["cubes"]
    limits = state["limits"]
    fronts = [(city, current_box(city)) for city in front_cities(state)]
    out: list[Any] = []
    for die in state["pool"]:
        n = die["die"]
        unclaimed = die["colour"] == "white" and die["six"] == "unclaimed"
        if unclaimed and cubes["command"] < limits["command"]:
            out.append(Claim(n))
        if die["allocated"] is not None:
            continue
        if cubes["command"] >= 1:
            out.append(Reroll(n))
        for k in range(1, min(cubes["supply"], MAX_DIE_VALUE - die["value"]) + 1):
            out.append(Boost(n, k))
        if die["value"] >= 2:
            out.append(Supply(n))
        for city, box in fronts:
            if die["value"] >= box["value"] and (not box["supply"] or cubes["supply"] >= 1):
                out.append(Attack(city["id"], n))
    out.append(End())
    return out
