"""The Barbarossa gamesheet as the state holds it, and what both phases' handlers share.

Rule citations and the refusal they make, finding cities, boxes and dice (refusing
what is not there), the event chart lookup, and the dice pool: a new die, rolling one
(red dice are D3s) and taking the blue cube of a natural six. The handlers of the
campaign phase (`campaign`) and of the German phase (`german`) are built on these.
"""

from __future__ import annotations

from typing import Any

from pbem.core.canonical import copy_json
from pbem.core.engine import Context, State
from pbem.errors import IllegalOrderError
from pbem.games.barbarossa.data import d3

# The most a die is ever worth raising to: an encirclement of a 6 box needs 12.
# Not a printed rule; it keeps `choices` finite and refuses pointless boosts.
MAX_DIE_VALUE = 12

R_D3 = "rulebook: Important Concept: D3s"
R_TIMELINE = "rulebook: The Timeline"
R_EVENT = "rulebook: Roll on the event chart"
R_SIXES = "rulebook: Rolling sixes"
R_REROLL = "rulebook: Using command cubes to re-roll dice"
R_CONCENTRATION = "rulebook: Concentration of Panzers"
R_RESUPPLY = "rulebook: Re-supplying"
R_ATTACK = "rulebook: Attacking Cities"
R_ENCIRCLE = "rulebook: Encirclements"
R_CAPTURE = "rulebook: Capturing Cities and Gaining Victory Points (VPs)"
R_LOGISTICS = "rulebook: Long Logistical Chains"
R_PATHS = "rulebook: Campaign Map and Army Group Paths"
R_PHASE = "rulebook: The Game Turn"
R_END = "rulebook: Ending the Game"


def fixed(state: State) -> bool:
    """Whether the game plays the rules fixes of version 1.1 (a 1.0 state has no "rules"):
    at most one black cube and one blue cube on the event die (docs/barbarossa.md)."""
    return state.get("rules") is not None


def illegal(message: str, rule: str) -> IllegalOrderError:
    """A refusal quoting the rule it applies: "illegal: ... (rulebook: Re-supplying)"."""
    return IllegalOrderError(f"illegal: {message} ({rule})" if rule else f"illegal: {message}")


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def check_black_cubes(state: State, spent: int) -> None:
    """Black cubes spent on +1s (on a die or on the event die): at least one, and no more
    than the supply tracker holds."""
    supply = state["cubes"]["supply"]
    if spent < 1:
        raise illegal("spend at least one black cube", R_CONCENTRATION)
    if spent > supply:
        raise illegal(
            f"{plural(spent, 'black cube')} needed, {supply} in the supply tracker",
            R_CONCENTRATION,
        )


# --- cities and boxes -------------------------------------------------------------------------


def front_cities(state: State) -> list[dict[str, Any]]:
    """The unlocked cities: the ones an attack may aim at."""
    return [c for p in state["paths"] for c in p["cities"] if c["status"] == "unlocked"]


def current_box(city: dict[str, Any]) -> dict[str, Any]:
    """The first unmarked box of a city (boxes are marked in order)."""
    return next(b for b in city["boxes"] if not b["marked"])


def find_city(state: State, city_id: str) -> tuple[int, int, dict[str, Any]]:
    """(index of its path, index in the path, city) of `city_id`, or a refusal listing the
    city ids. The city is shared with earlier states: read it, change `own_path`'s copy."""
    for p, path in enumerate(state["paths"]):
        for i, city in enumerate(path["cities"]):
            if city["id"] == city_id:
                return p, i, city
    known = ", ".join(c["id"] for p in state["paths"] for c in p["cities"])
    raise illegal(f"there is no city {city_id!r} (cities: {known})", R_ATTACK)


# --- copy on write ------------------------------------------------------------------------------
# The map and the timeline are most of the state and change only when an attack marks a
# box or a turn begins, so the engine's `clone` shares them between states. A handler
# that changes them changes its own copy, made here; it never changes them in place.


def own_path(state: State, p: int) -> dict[str, Any]:
    """Army group path `p` of `state`, copied so that it may be changed."""
    paths = list(state["paths"])
    path: dict[str, Any] = copy_json(paths[p])
    paths[p] = path
    state["paths"] = paths
    return path


def mark_timeline(state: State, turn: int) -> dict[str, Any]:
    """Mark the timeline box of `turn` (in a copy of the timeline); returns the box."""
    timeline = list(state["timeline"])
    box = timeline[turn - 1] = dict(timeline[turn - 1], marked=True)
    state["timeline"] = timeline
    return box


# --- the dice pool ----------------------------------------------------------------------------


def new_die(n: int, colour: str) -> dict[str, Any]:
    return {
        "die": n,
        "colour": colour,
        "roll": None,
        "value": None,
        "boost": 0,
        "six": None,
        "allocated": None,
    }


def die_text(die: dict[str, Any]) -> str:
    colour = "red " if die["colour"] == "red" else ""
    return f"{die['die']}={colour}{die['value']}"


def find_die(state: State, n: int, *, free: bool, rule: str) -> dict[str, Any]:
    """Die `n` of the pool (numbered from 1); with `free`, refused if already allocated."""
    pool = state["pool"]
    if not 1 <= n <= len(pool):
        raise illegal(f"there is no die {n}; the pool has dice 1..{len(pool)}", rule)
    die: dict[str, Any] = pool[n - 1]
    if free and die["allocated"] is not None:
        raise illegal(f"die {n} is already allocated ({_allocation_text(die)})", rule)
    return die


def _allocation_text(die: dict[str, Any]) -> str:
    alloc = die["allocated"]
    if alloc["kind"] == "supply":
        return "to the supply tracker"
    return f"to the attack on {alloc['city']}"


def roll_pool_die(die: dict[str, Any], ctx: Context, purpose: str) -> None:
    """Roll one die of the pool; red dice are D3s (rulebook: Red dice (D3s))."""
    roll = ctx.roll(1, 6, purpose)
    die["roll"] = roll
    die["boost"] = 0
    n = die["die"]
    if die["colour"] == "red":
        die["value"] = d3(roll)
        die["six"] = None
        ctx.event(
            f"die {n} (red) rolled {roll}: D3 result {die['value']}",
            die=n,
            colour="red",
            roll=roll,
            value=die["value"],
            rule=R_D3,
        )
        return
    die["value"] = roll
    die["six"] = "unclaimed" if roll == 6 else None
    text = f"die {n} (white) rolled {roll}"
    if roll == 6:
        text += "; natural six: one blue cube may be claimed"
    ctx.event(text, die=n, colour="white", roll=roll, value=roll, rule=R_SIXES)


def claim_six(state: State, die: dict[str, Any], ctx: Context, how: str) -> bool:
    """Take the blue cube of a natural six if the command tracker has room."""
    cubes, cap = state["cubes"], state["limits"]["command"]
    if cubes["command"] >= cap:
        return False
    cubes["command"] += 1
    die["six"] = "claimed"
    ctx.event(
        f"{how}: natural six on die {die['die']}, +1 blue cube ({cubes['command']} of {cap})",
        die=die["die"],
        command=cubes["command"],
        rule=R_SIXES,
    )
    return True


# --- the event chart --------------------------------------------------------------------------


def chart_lookup(state: State, value: int) -> str:
    for row in state["event_chart"]:
        if row["low"] <= value <= row["high"]:
            return str(row["event"])
    # load_gamesheet guarantees coverage of every reachable value
    raise illegal(f"event die {value} is off the chart", R_EVENT)


def set_event_die(state: State, roll: int, modifier: int) -> None:
    value = roll + modifier
    event_id = chart_lookup(state, value)
    ev = state["events"][event_id]
    state["event_die"] = {
        "roll": roll,
        "modifier": modifier,
        "value": value,
        "event": event_id,
        "name": ev["name"],
        "text": ev["text"],
    }
