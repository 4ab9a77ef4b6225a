"""Rules engine for Operation Barbarossa: A WW2 Roll & Write Game.

Dynamics: solitaire. One role, "german", makes every decision over 12 turns; each
turn is a campaign phase (timeline, dice pool, event chart) and a German phase
(roll the pool, then spend dice on attacks and re-supply, cubes on re-rolls and
+1 modifiers). A second role, "referee", never decides anything: it only
supplies the entropy for the dice (protocol section 4), so that the German
player cannot know a roll before signing the decision that asks for it.

Chance: six-sided dice only. White dice are d6; red dice are D3s, rolled as a
d6 and halved rounding up. Every roll goes through `ctx.roll` with its purpose,
and only after the decision that asks for it has been validated completely.

Information: perfect; nothing is hidden. `view` returns the whole state.

The state is plain JSON data and describes itself (turn, phase, timeline, pool,
cubes, map, VP, the event chart), so templates need nothing else.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import copy_json
from pbem.core.engine import Context, Engine, Outcome, Prompt, State
from pbem.errors import DataError, IllegalOrderError, InvalidOrderError
from pbem.games.barbarossa.data import EFFECTS, FILE_NAME, d3, load_gamesheet
from pbem.games.barbarossa.decisions import (
    DECISION_TYPES,
    Accept,
    Attack,
    Boost,
    BoostEvent,
    Claim,
    Decision,
    End,
    Reroll,
    RerollEvent,
    RollEvent,
    Supply,
    format_decision,
    parse_decision,
)
from pbem.games.datacheck import given_or_shipped, shipped_files

GERMAN = "german"
REFEREE = "referee"

# The most a die is ever worth raising to: an encirclement of a 6 box needs 12.
# Not a printed rule; it keeps `choices` finite and refuses pointless boosts.
MAX_DIE_VALUE = 12

# Named steps (Rally the Troops' `states`): which decisions each step accepts.
STEPS: dict[str, tuple[type, ...]] = {
    "roll_event": (RollEvent,),
    "modify_event": (BoostEvent, RerollEvent, Accept),
    "allocate": (Reroll, Boost, Claim, Supply, Attack, End),
}

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
R_PHASE = "rulebook: The Game Turn"


def _illegal(message: str, rule: str) -> IllegalOrderError:
    return IllegalOrderError(f"illegal: {message} ({rule})")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


PACKAGE = "pbem.games.barbarossa"  # its data/ folder holds the shipped gamesheet


class BarbarossaEngine(Engine):
    """Operation Barbarossa: A WW2 Roll & Write Game, a solitaire dice game of the 1941 campaign.

    The German player rolls a pool of white (d6) and red (D3) dice each of 12 turns
    and spends them to attack Soviet cities along three army group paths or to
    re-supply; cities captured earn victory points.
    """

    name = "barbarossa"
    title = "Operation Barbarossa"
    version = "1.0"
    roles = (GERMAN, REFEREE)
    required_roles = (GERMAN,)
    data_files = (FILE_NAME,)

    # --- data ---------------------------------------------------------------------------

    def default_data(self) -> dict[str, bytes]:
        return shipped_files(PACKAGE, self.data_files)

    def load_data(self, files: Mapping[str, bytes]) -> dict[str, Any]:
        raw = given_or_shipped(files, self.data_files, "barbarossa", PACKAGE)
        return load_gamesheet(raw[FILE_NAME], FILE_NAME)

    # --- Game Setup ---------------------------------------------------------------------
    # rulebook: Game Setup -- four black cubes in the supply section, two blue cubes in the
    # command section; the timeline is empty and the first city of each path is unlocked.

    def setup(self, data: Any, options: Mapping[str, Any]) -> State:
        if options:
            raise DataError(f"barbarossa has no options (got {', '.join(sorted(options))})")
        if data is None:
            data = self.load_data({})
        data = copy.deepcopy(data)
        paths = []
        for path in data["paths"]:
            cities = []
            for i, city in enumerate(path["cities"]):
                cities.append(
                    {
                        "id": city["id"],
                        "name": city["name"],
                        "stars": city["stars"],
                        "status": "unlocked" if i == 0 else "locked",
                        "boxes": [
                            {"value": b["value"], "supply": b["supply"], "marked": False}
                            for b in city["boxes"]
                        ],
                    }
                )
            paths.append({"id": path["id"], "name": path["name"], "cities": cities})
        return {
            "game": self.name,
            "turn": 1,
            "turns": len(data["timeline"]),
            "phase": "campaign",
            "step": "roll_event",
            "timeline": [dict(box, marked=False) for box in data["timeline"]],
            "event_die": None,
            "event": None,
            "pool": [],
            "cubes": {"supply": data["setup"]["supply"], "command": data["setup"]["command"]},
            "limits": dict(data["limits"], die_value=MAX_DIE_VALUE),
            "pool_size": data["pool"]["white_dice"],
            "paths": paths,
            "vp": 0,
            "victory": data["victory"],
            "events": {
                key: dict(ev, text=EFFECTS[ev["effect"]]) for key, ev in data["events"].items()
            },
            "event_chart": data["event_chart"],
        }

    # --- prompts, choices, syntax -------------------------------------------------------

    def prompts(self, state: State) -> list[Prompt]:
        if state["phase"] == "over":
            return []
        turn = state["turn"]
        label = state["timeline"][turn - 1]["label"]
        head = f"Turn {turn} of {state['turns']} ({label})"
        step = state["step"]
        if step == "roll_event":
            text = f"{head}, campaign phase: roll on the event chart ('roll event')"
        elif step == "modify_event":
            ev = state["event_die"]
            text = (
                f"{head}, campaign phase: event die {ev['value']} = {ev['name']}; "
                "'boost event <cubes>', 'reroll event' or 'accept'"
            )
        else:
            dice = ", ".join(_die_text(d) for d in state["pool"] if d["allocated"] is None)
            text = (
                f"{head}, German phase: free dice {dice or 'none'}; 'attack <city> with <die>', "
                "'supply <die>', 'reroll <die>', 'boost <die> <cubes>', 'claim <die>' or 'end'"
            )
        return [Prompt(GERMAN, text)]

    def choices(self, state: State, role: str) -> list[Any]:
        if role != GERMAN or state["phase"] == "over":
            return []
        cubes = state["cubes"]
        limits = state["limits"]
        step = state["step"]
        if step == "roll_event":
            return [RollEvent()]
        if step == "modify_event":
            top = state["event_chart"][-1]["high"]
            value = state["event_die"]["value"]
            out: list[Any] = [Accept()]
            out += [BoostEvent(n) for n in range(1, min(cubes["supply"], top - value) + 1)]
            if cubes["command"] >= 1:
                out.append(RerollEvent())
            return out
        out = []
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
            for city in _front_cities(state):
                box = _current_box(city)
                if die["value"] >= box["value"] and (not box["supply"] or cubes["supply"] >= 1):
                    out.append(Attack(city["id"], n))
        out.append(End())
        return out

    def parse(self, text: str, state: State, role: str) -> Decision:
        cities = [(c["id"], c["name"]) for p in state["paths"] for c in p["cities"]]
        return parse_decision(text, cities)

    def format(self, decision: Any) -> str:
        if not isinstance(decision, DECISION_TYPES):
            raise InvalidOrderError(f"not a barbarossa decision: {decision!r}")
        return format_decision(decision)

    def view(self, state: State, role: str | None) -> State:
        # Perfect information: every role, and the public, sees everything.
        return copy_json(state)

    # --- Winning the Game / Losing the Game ----------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        vp = state["vp"]
        bands = state["victory"]
        top = bands["max"]
        if vp >= bands["triumph"]:
            winner, level = GERMAN, "triumph"
            text = f"German triumph: {vp} VP ({bands['triumph']}-{top})"
        elif vp >= bands["win"]:
            winner, level = GERMAN, "win"
            text = f"German victory: {vp} VP ({bands['win']} or more)"
        elif vp >= bands["historical"]:
            winner, level = None, "historical loss"
            text = (
                f"Historical outcome, a German defeat: {vp} VP "
                f"({bands['historical']}-{bands['win'] - 1})"
            )
        else:
            winner, level = None, "loss"
            text = f"German defeat: {vp} VP ({bands['win'] - 1} or fewer)"
        return Outcome(winner=winner, level=level, score={GERMAN: vp}, text=text)

    # --- apply --------------------------------------------------------------------------
    # Every handler validates first and rolls last: the adjudicator's first call uses a
    # context whose roll() raises EntropyPending, which must mean "legal, waiting for dice".

    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        if role != GERMAN:
            raise _illegal(f"only the german player decides; {role!r} does not", R_PHASE)
        if not isinstance(decision, DECISION_TYPES):
            raise IllegalOrderError(f"illegal: {decision!r} is not a barbarossa decision")
        if state["phase"] == "over":
            raise _illegal("the game is over", "rulebook: Ending the Game")
        step = state["step"]
        if not isinstance(decision, STEPS[step]):
            allowed = ", ".join(_STEP_HELP[t] for t in STEPS[step])
            raise _illegal(
                f"{format_decision(decision)!r} is not possible now ({_STEP_NAME[step]}; "
                f"expected {allowed})",
                R_PHASE,
            )
        new = copy_json(state)
        handler = _HANDLERS[type(decision)]
        handler(new, decision, ctx)
        return new


# --- helpers ------------------------------------------------------------------------------


_STEP_NAME = {
    "roll_event": "campaign phase, before the event roll",
    "modify_event": "campaign phase, event die rolled",
    "allocate": "German phase",
}
_STEP_HELP: dict[type, str] = {
    RollEvent: "'roll event'",
    BoostEvent: "'boost event <cubes>'",
    RerollEvent: "'reroll event'",
    Accept: "'accept'",
    Reroll: "'reroll <die>'",
    Boost: "'boost <die> <cubes>'",
    Claim: "'claim <die>'",
    Supply: "'supply <die>'",
    Attack: "'attack <city> with <die>'",
    End: "'end'",
}


def _die_text(die: dict[str, Any]) -> str:
    colour = "red " if die["colour"] == "red" else ""
    return f"{die['die']}={colour}{die['value']}"


def _front_cities(state: State) -> list[dict[str, Any]]:
    return [c for p in state["paths"] for c in p["cities"] if c["status"] == "unlocked"]


def _current_box(city: dict[str, Any]) -> dict[str, Any]:
    return next(b for b in city["boxes"] if not b["marked"])


def _find_city(state: State, city_id: str) -> tuple[dict[str, Any], int, dict[str, Any]]:
    for path in state["paths"]:
        for i, city in enumerate(path["cities"]):
            if city["id"] == city_id:
                return path, i, city
    known = ", ".join(c["id"] for p in state["paths"] for c in p["cities"])
    raise _illegal(f"there is no city {city_id!r} (cities: {known})", R_ATTACK)


def _find_die(state: State, n: int, *, free: bool, rule: str) -> dict[str, Any]:
    pool = state["pool"]
    if not 1 <= n <= len(pool):
        raise _illegal(f"there is no die {n}; the pool has dice 1..{len(pool)}", rule)
    die = pool[n - 1]
    if free and die["allocated"] is not None:
        raise _illegal(f"die {n} is already allocated ({_allocation_text(die)})", rule)
    return die


def _allocation_text(die: dict[str, Any]) -> str:
    alloc = die["allocated"]
    if alloc is None:
        return "free"
    if alloc["kind"] == "supply":
        return "to the supply tracker"
    return f"to the attack on {alloc['city']}"


def _chart_lookup(state: State, value: int) -> str:
    for row in state["event_chart"]:
        if row["low"] <= value <= row["high"]:
            return str(row["event"])
    # load_gamesheet guarantees coverage of every reachable value
    raise IllegalOrderError(f"illegal: event die {value} is off the chart ({R_EVENT})")


def _set_event_die(state: State, roll: int, modifier: int) -> None:
    value = roll + modifier
    event_id = _chart_lookup(state, value)
    ev = state["events"][event_id]
    state["event_die"] = {
        "roll": roll,
        "modifier": modifier,
        "value": value,
        "event": event_id,
        "name": ev["name"],
        "text": ev["text"],
    }


def _roll_pool_die(state: State, die: dict[str, Any], ctx: Context, purpose: str) -> None:
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


def _claim_six(state: State, die: dict[str, Any], ctx: Context, how: str) -> bool:
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


# --- The Campaign Phase -------------------------------------------------------------------
# rulebook: The Campaign Phase -- Preparing your dice pool, Mark off a box on the timeline
# (with Rasputitsa), Roll on the event chart. Nothing can be chosen between these steps, so
# `roll event` does all three; the event die can then be modified before `accept`.


def _do_roll_event(state: State, decision: RollEvent, ctx: Context) -> None:
    turn = state["turn"]
    box = state["timeline"][turn - 1]
    box["marked"] = True
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
    state["pool"] = [_new_die(i + 1, c) for i, c in enumerate(colours)]
    state["event"] = None
    roll = ctx.roll(1, 6, "event die")
    _set_event_die(state, roll, 0)
    ev = state["event_die"]
    ctx.event(
        f"event die {roll}: {ev['name']} ({ev['text']})",
        roll=roll,
        event=ev["event"],
        rule=R_EVENT,
    )
    state["step"] = "modify_event"


def _new_die(n: int, colour: str) -> dict[str, Any]:
    return {
        "die": n,
        "colour": colour,
        "roll": None,
        "value": None,
        "boost": 0,
        "six": None,
        "allocated": None,
    }


def _do_boost_event(state: State, decision: BoostEvent, ctx: Context) -> None:
    cubes = state["cubes"]
    ev = state["event_die"]
    top = state["event_chart"][-1]["high"]
    if decision.cubes < 1:
        raise _illegal("spend at least one black cube", R_CONCENTRATION)
    if decision.cubes > cubes["supply"]:
        raise _illegal(
            f"{_plural(decision.cubes, 'black cube')} needed, "
            f"{cubes['supply']} in the supply tracker",
            R_CONCENTRATION,
        )
    if ev["value"] + decision.cubes > top:
        raise _illegal(f"the event chart ends at {top}; the event die shows {ev['value']}", R_EVENT)
    cubes["supply"] -= decision.cubes
    _set_event_die(state, ev["roll"], ev["modifier"] + decision.cubes)
    new = state["event_die"]
    ctx.event(
        f"event die +{decision.cubes} ({_plural(decision.cubes, 'black cube')} spent): "
        f"{new['value']} = {new['name']}",
        cubes=decision.cubes,
        value=new["value"],
        event=new["event"],
        rule=R_CONCENTRATION,
    )


def _do_reroll_event(state: State, decision: RerollEvent, ctx: Context) -> None:
    cubes = state["cubes"]
    if cubes["command"] < 1:
        raise _illegal("no blue cube to spend", R_REROLL)
    cubes["command"] -= 1
    lost = state["event_die"]["modifier"]
    ctx.event(
        "1 blue cube spent to re-roll the event die"
        + (f" (its +{lost} from black cubes is lost with the old roll)" if lost else ""),
        command=cubes["command"],
        rule=R_REROLL,
    )
    roll = ctx.roll(1, 6, "event die re-roll")
    _set_event_die(state, roll, 0)
    ev = state["event_die"]
    ctx.event(
        f"event die re-rolled: {roll} = {ev['name']} ({ev['text']})",
        roll=roll,
        event=ev["event"],
        rule=R_EVENT,
    )


def _do_accept(state: State, decision: Accept, ctx: Context) -> None:
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
            reds.append(_new_die(0, "red"))
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
        whites.append(_new_die(0, "white"))
        ctx.event(f"{name}: one more white die this turn", event=ev["event"], rule=R_EVENT)
    else:
        ctx.event(f"{name}: no effect", event=ev["event"], rule=R_EVENT)
    state["event"] = {"id": ev["event"], "name": ev["name"], "effect": effect}
    # Whites first, then reds; dice are numbered 1..n in this order.
    pool = whites + reds
    for i, die in enumerate(pool, start=1):
        die["die"] = i
    state["pool"] = pool
    state["phase"] = "german"
    state["step"] = "allocate"
    # rulebook: Rolling your dice -- roll all the dice in your dice pool.
    for die in pool:
        _roll_pool_die(state, die, ctx, f"pool die {die['die']} ({die['colour']})")


# --- The German Phase ---------------------------------------------------------------------
# rulebook: The German Phase -- Rolling sixes, Using command cubes to re-roll dice,
# Concentration of Panzers, in any order, before or after allocating dice.


def _do_reroll(state: State, decision: Reroll, ctx: Context) -> None:
    die = _find_die(state, decision.die, free=True, rule=R_REROLL)
    cubes = state["cubes"]
    if cubes["command"] < 1:
        raise _illegal("no blue cube to spend", R_REROLL)
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
    _roll_pool_die(state, die, ctx, f"re-roll die {die['die']} ({die['colour']})")


def _do_boost(state: State, decision: Boost, ctx: Context) -> None:
    die = _find_die(state, decision.die, free=True, rule=R_CONCENTRATION)
    cubes = state["cubes"]
    if decision.cubes < 1:
        raise _illegal("spend at least one black cube", R_CONCENTRATION)
    if decision.cubes > cubes["supply"]:
        raise _illegal(
            f"{_plural(decision.cubes, 'black cube')} needed, "
            f"{cubes['supply']} in the supply tracker",
            R_CONCENTRATION,
        )
    if die["value"] + decision.cubes > MAX_DIE_VALUE:
        raise _illegal(
            f"die {die['die']} would show {die['value'] + decision.cubes}; no box needs more "
            f"than {MAX_DIE_VALUE} (an encirclement of a 6)",
            R_CONCENTRATION,
        )
    cubes["supply"] -= decision.cubes
    die["boost"] += decision.cubes
    die["value"] += decision.cubes
    note = " (a modified six earns no blue cube)" if die["value"] >= 6 else ""
    ctx.event(
        f"Concentration of Panzers: {_plural(decision.cubes, 'black cube')} spent, "
        f"die {die['die']} now {die['value']}{note}",
        die=die["die"],
        cubes=decision.cubes,
        value=die["value"],
        rule=R_CONCENTRATION,
    )


def _do_claim(state: State, decision: Claim, ctx: Context) -> None:
    die = _find_die(state, decision.die, free=False, rule=R_SIXES)
    if die["colour"] != "white" or die["roll"] != 6:
        shown = f"a {die['colour']} die that rolled {die['roll']}"
        raise _illegal(
            f"die {die['die']} is {shown}; only a white die's natural six earns a blue cube",
            R_SIXES,
        )
    if die["six"] == "claimed":
        raise _illegal(f"the blue cube of die {die['die']} was already taken", R_SIXES)
    if state["cubes"]["command"] >= state["limits"]["command"]:
        raise _illegal(
            f"the command tracker is full ({state['limits']['command']} blue cubes); "
            "spend one first",
            R_SIXES,
        )
    _claim_six(state, die, ctx, "claimed")


# --- Re-supplying -------------------------------------------------------------------------


def _do_supply(state: State, decision: Supply, ctx: Context) -> None:
    die = _find_die(state, decision.die, free=True, rule=R_RESUPPLY)
    if die["value"] < 2:
        raise _illegal(
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


# --- German Attacks -----------------------------------------------------------------------
# rulebook: Attacking Cities, Encirclements, Capturing Cities and Gaining Victory Points,
# Long Logistical Chains.


def _do_attack(state: State, decision: Attack, ctx: Context) -> None:
    path, index, city = _find_city(state, decision.city)
    die = _find_die(state, decision.die, free=True, rule=R_ATTACK)
    if city["status"] == "captured":
        raise _illegal(f"{city['name']} is already captured", R_ATTACK)
    if city["status"] == "locked":
        prev = path["cities"][index - 1]["name"]
        raise _illegal(
            f"{city['name']} is locked; capture {prev} first",
            "rulebook: Campaign Map and Army Group Paths",
        )
    boxes = city["boxes"]
    k = next(i for i, b in enumerate(boxes) if not b["marked"])
    box = boxes[k]
    value = die["value"]
    if value < box["value"]:
        raise _illegal(
            f"die {die['die']} shows {value}, box {k + 1} of {city['name']} needs "
            f"{box['value']} or more",
            R_ATTACK,
        )
    cubes = state["cubes"]
    if box["supply"] and cubes["supply"] < 1:
        raise _illegal(
            f"box {k + 1} of {city['name']} has a supply icon and there is no black cube "
            "to discard",
            R_LOGISTICS,
        )
    # validated: from here on the attack happens
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


# --- End of the German phase / Ending the Game --------------------------------------------


def _do_end(state: State, decision: End, ctx: Context) -> None:
    # Sixes not yet claimed earn their cube now, as far as the tracker has room.
    for die in state["pool"]:
        unclaimed = die["colour"] == "white" and die["six"] == "unclaimed"
        if unclaimed and not _claim_six(state, die, ctx, "end of phase"):
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
            rule="rulebook: Ending the Game",
        )
        return
    state["turn"] = turn + 1
    state["phase"] = "campaign"
    state["step"] = "roll_event"


_HANDLERS: dict[type, Any] = {
    RollEvent: _do_roll_event,
    BoostEvent: _do_boost_event,
    RerollEvent: _do_reroll_event,
    Accept: _do_accept,
    Reroll: _do_reroll,
    Boost: _do_boost,
    Claim: _do_claim,
    Supply: _do_supply,
    Attack: _do_attack,
    End: _do_end,
}

ENGINE = BarbarossaEngine()
