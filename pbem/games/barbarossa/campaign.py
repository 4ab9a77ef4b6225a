"""The Campaign Phase of Barbarossa: the handlers and choices of its two steps.

rulebook: The Campaign Phase -- Preparing your dice pool, Mark off a box on the timeline
(with Rasputitsa), Roll on the event chart. Nothing can be chosen between these, so
`roll event` (step "roll_event") does all three; the event die can then be raised with
black cubes or re-rolled with a blue cube before `accept` (step "modify_event") applies
the event and rolls the pool.

Every handler validates first and rolls last (`rules` says why).
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.barbarossa.board import (
    R_CONCENTRATION,
    R_EVENT,
    R_REROLL,
    R_TIMELINE,
    check_black_cubes,
    fixed,
    illegal,
    mark_timeline,
    new_die,
    plural,
    roll_pool_die,
    set_event_die,
)
from pbem.games.barbarossa.decisions import Accept, BoostEvent, RerollEvent, RollEvent

# --- step "roll_event" --------------------------------------------------------------------------


def roll_event(state: State, role: str, decision: RollEvent, ctx: Context) -> None:
    turn = state["turn"]
    box = mark_timeline(state, turn)
    ctx.event(
        f"turn {turn}: timeline box {box['box']} ({box['label']}) marked",
        turn=turn,
        box=box["box"],
        rule=R_TIMELINE,
    )
    whites = state["pool_size"]
    ctx.event(
        f"dice pool prepared: {whites} white {'die' if whites == 1 else 'dice'}",
        white=whites,
        rule="rulebook: Preparing your dice pool",
    )
    reds = min(box["red_dice"], state["limits"]["red_dice"], whites)
    if reds:
        ctx.event(
            f"Rasputitsa: timeline box {box['box']} shows {reds} red die symbol"
            f"{'s' if reds > 1 else ''}: {reds} white "
            f"{'die' if reds == 1 else 'dice'} replaced by red this turn",
            red=reds,
            rule="rulebook: The Timeline (Rasputitsa)",
        )
    colours = ["white"] * (whites - reds) + ["red"] * reds
    state["pool"] = [new_die(i + 1, c) for i, c in enumerate(colours)]
    state["event"] = None
    if fixed(state):
        state["event_cubes"] = {"black": 0, "blue": 0}
    _roll_event_die(state, ctx, "event die", "event die {roll}: {name} ({text})")
    state["step"] = "modify_event"


def _roll_event_die(state: State, ctx: Context, purpose: str, says: str) -> None:
    """Roll the event die (`purpose` in the RNG log) and tell what it gave: `says` with
    the {roll}, the event's {name} and its {text}."""
    roll = ctx.roll(1, 6, purpose)
    set_event_die(state, roll, 0)
    ev = state["event_die"]
    ctx.event(
        says.format(roll=roll, name=ev["name"], text=ev["text"]),
        roll=roll,
        event=ev["event"],
        rule=R_EVENT,
    )


def roll_event_choices(state: State, role: str) -> list[Any]:
    return [RollEvent()]


# --- step "modify_event" ------------------------------------------------------------------------
# rulebook: Roll on the event chart -- "You may use a black cube or/and a blue cube to either
# add +1 to the roll or even re-roll the die": from rules 1.1 on, one black cube (+1) and
# one blue cube (a re-roll) at most on the event die, in either order (docs/barbarossa.md).
# Rules 1.0 let any number of black cubes and blue cubes be spent on it.


def _one_cube(state: State, colour: str, what: str) -> None:
    """Rules 1.1: refuse a second cube of `colour` on this turn's event die."""
    if fixed(state) and state["event_cubes"][colour]:
        raise illegal(
            f"a {colour} cube was already spent {what} this turn; the event die takes one "
            "black cube and one blue cube at most",
            R_EVENT,
        )


def boost_event(state: State, role: str, decision: BoostEvent, ctx: Context) -> None:
    cubes = state["cubes"]
    ev = state["event_die"]
    top = state["event_chart"][-1]["high"]
    check_black_cubes(state, decision.cubes)
    if ev["value"] + decision.cubes > top:
        raise illegal(f"the event chart ends at {top}; the event die shows {ev['value']}", R_EVENT)
    if fixed(state) and decision.cubes > 1:
        raise illegal(
            f"{decision.cubes} black cubes: the event die takes one black cube at most (+1)",
            R_EVENT,
        )
    _one_cube(state, "black", "on the event die")
    if fixed(state):
        state["event_cubes"]["black"] += decision.cubes
    cubes["supply"] -= decision.cubes
    set_event_die(state, ev["roll"], ev["modifier"] + decision.cubes)
    new = state["event_die"]
    ctx.event(
        f"event die +{decision.cubes} ({plural(decision.cubes, 'black cube')} spent): "
        f"{new['value']} = {new['name']}",
        cubes=decision.cubes,
        value=new["value"],
        event=new["event"],
        rule=R_CONCENTRATION,
    )


def reroll_event(state: State, role: str, decision: RerollEvent, ctx: Context) -> None:
    cubes = state["cubes"]
    if cubes["command"] < 1:
        raise illegal("no blue cube to spend", R_REROLL)
    _one_cube(state, "blue", "to re-roll the event die")
    if fixed(state):
        state["event_cubes"]["blue"] += 1
    cubes["command"] -= 1
    lost = state["event_die"]["modifier"]
    ctx.event(
        "1 blue cube spent to re-roll the event die"
        + (f" (its +{lost} from black cubes is lost with the old roll)" if lost else ""),
        command=cubes["command"],
        rule=R_REROLL,
    )
    _roll_event_die(
        state, ctx, "event die re-roll", "event die re-rolled: {roll} = {name} ({text})"
    )


def accept(state: State, role: str, decision: Accept, ctx: Context) -> None:
    ev = state["event_die"]
    effect = state["events"][ev["event"]]["effect"]
    pool = state["pool"]
    whites = [d for d in pool if d["colour"] == "white"]
    reds = [d for d in pool if d["colour"] == "red"]
    name = f"event {ev['name']} (die {ev['value']})"
    if effect == "remove_white":
        if whites:
            whites.pop()
            ctx.event(f"{name}: one white die fewer this turn", event=ev["event"], rule=R_EVENT)
        else:
            ctx.event(f"{name}: no white die left to remove", event=ev["event"], rule=R_EVENT)
    elif effect == "white_to_red":
        if whites and len(reds) < state["limits"]["red_dice"]:
            whites.pop()
            reds.append(new_die(0, "red"))
            ctx.event(
                f"{name}: one white die replaced by a red die this turn",
                event=ev["event"],
                rule=R_EVENT,
            )
        else:
            ctx.event(
                f"{name}: no effect, all {state['limits']['red_dice']} red dice are already "
                "in the pool (rulebook: Game Components)"
                if whites
                else f"{name}: no white die left to replace",
                event=ev["event"],
                rule=R_EVENT,
            )
    elif effect == "add_white":
        whites.append(new_die(0, "white"))
        ctx.event(f"{name}: one more white die this turn", event=ev["event"], rule=R_EVENT)
    else:
        ctx.event(f"{name}: no effect", event=ev["event"], rule=R_EVENT)
    state["event"] = {"id": ev["event"], "name": ev["name"], "effect": effect}
    if fixed(state):
        state["event_cubes"] = None
    # Whites first, then reds; dice are numbered 1..n in this order.
    pool = whites + reds
    for i, die in enumerate(pool, start=1):
        die["die"] = i
    state["pool"] = pool
    state["phase"] = "german"
    state["step"] = "allocate"
    # rulebook: Rolling your dice -- roll all the dice in your dice pool.
    for die in pool:
        roll_pool_die(die, ctx, f"pool die {die['die']} ({die['colour']})")


def modify_event_choices(state: State, role: str) -> list[Any]:
    cubes = state["cubes"]
    top = state["event_chart"][-1]["high"]
    value = state["event_die"]["value"]
    out: list[Any] = [Accept()]
    most = min(cubes["supply"], top - value)
    if fixed(state):
        spent = state["event_cubes"]
        most = 0 if spent["black"] else min(most, 1)
        if spent["blue"]:
            return out + [BoostEvent(n) for n in range(1, most + 1)]
    out += [BoostEvent(n) for n in range(1, most + 1)]
    if cubes["command"] >= 1:
        out.append(RerollEvent())
    return out
