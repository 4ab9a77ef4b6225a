"""Götterdämmerung: reinforcements and the German Supply and Reinforcement choices, on the
engine state (8.3, 8.4, 9); their rules are pure functions in arrivals.py.

At the start of the German Movement Phase, in this order (9.4 and 9.33 both say "at the
start"; the die comes first because it decides what is on the map): the Vlasov die (9.4),
the 12th Army draws from the cup (9.33: public dice, without replacement), the NGP Box
arrivals (9.21) and how many German units may leave the box (9.22), and whether the
Transition Hexes serve as roads and railroads this phase (5.33, 5.68). In the Supply and
Reinforcement Phase the German player may bring back infantry at Jüterbog (8.32) and armour
at Spandau (8.33), and places the turn's Volkssturm units (8.41-8.43): the `reinforce`
step. Volkssturm fronts are all alike, so the units drawn are simply the next ones of the
cup; their strengths are drawn when they first fight (fighting.reveal_volkssturm).
"""

from __future__ import annotations

from pbem.core.engine import Context, State
from pbem.games.gotterdammerung import arrivals, rail
from pbem.games.gotterdammerung import counters as gc
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung import tables as tb
from pbem.games.gotterdammerung.decisions import Reinforce, Volkssturm


def soviet_phase_start(state: State, ctx: Context) -> None:
    # 12.35: with the 6th SS Panzer Army the 2BF units of turn 3 are due on turn 2
    # (arrivals.soviet_arrivals); the waiting list holds the printed schedule
    for uid, _ in arrivals.soviet_arrivals(state["counters"], state["turn"], state["options"]):
        info = state["waiting"].get(uid)
        if info is not None and info["turn"] > state["turn"]:
            # (a new dict: copy_state shares the waiting entries, never changed in place)
            state["waiting"][uid] = {**info, "turn": state["turn"]}
    due = sorted(
        uid
        for uid, info in state["waiting"].items()
        if info["turn"] <= state["turn"] and state["counters"]["units"][uid]["side"] != "german"
    )
    if due:
        ctx.event(f"Soviet reinforcements due: {', '.join(due)} (9.5, 9.71)")


def german_phase_start(state: State, ctx: Context) -> None:
    data = state["counters"]
    turn = state["turn"]
    if turn >= 2 and state["vlasov"] is None:
        roll = ctx.roll(1, 6, "the Vlasov die (9.4)")
        if arrivals.vlasov_revolts(roll):
            state["vlasov"] = turn
            division = set(gc.group(data, "600th"))
            gone = sorted(uid for uid in state["units"] if uid in division)
            for uid in gone:
                del state["units"][uid]
                state["gone"].append(uid)
            ctx.event(f"Vlasov die {roll}: the 600th Infantry Division withdraws (9.4)")
        else:
            ctx.event(f"Vlasov die {roll}: the 600th Infantry Division stays (9.4)")
    for draw in data["twelfth_army"]["draws"]:
        if draw["turn"] != turn:
            continue
        cup = state["cups"]["twelfth"]
        drawn = []
        for _ in range(min(int(draw["count"]), len(cup))):
            index = ctx.roll(0, len(cup) - 1, "a 12th Army unit from the cup (9.33)")
            uid, cup = cup[index], cup[:index] + cup[index + 1 :]
            drawn.append(uid)
            state["waiting"][uid] = {"turn": turn, "at": data["twelfth_army"]["at"], "rail": False}
        state["cups"]["twelfth"] = cup
        ctx.event(f"12th Army units drawn: {', '.join(drawn)} (9.33)", drawn=drawn)
    arrived = []
    for uid, info in sorted(state["waiting"].items()):
        if info["turn"] <= turn and info["at"] == "NGP":
            gs.put(state, gs.new_unit(data, uid, gs.NGP))
            del state["waiting"][uid]
            arrived.append(uid)
    german = [u["id"] for u in gs.in_box(state, "german")]
    soviet = gs.in_box(state, "soviet")
    allowed = arrivals.ngp_entries(len(german), len(soviet), len(arrived))
    state["phase_data"].update(ngp_arrived=arrived, ngp_allowed=allowed, ngp_left=[])
    if arrived or german:
        ctx.event(
            f"NGP Box: {len(german)} German against {len(soviet)} Soviet unit(s); "
            f"{allowed} may enter the map (9.22)",
            arrived=arrived,
        )
    state["phase_data"]["transition_benefit"] = rail.transition_benefit(
        gs.on_map(state), state["occupied"], board=state["board"]
    )


# --- the Supply and Reinforcement Phase (8.3, 8.4) ---------------------------------------------


def reinforcement_phase_start(state: State, ctx: Context) -> bool:
    """What the German player may do in this phase (8.32, 8.33, 8.41); False: nothing."""
    count = tb.volkssturm(state["tables"], state["turn"])
    cup = state["cups"]["volkssturm"]
    state["phase_data"]["volkssturm"] = min(count, len(cup))  # 8.41-8.42
    # 8.32, 8.33: "if, at the start of the Supply and Reinforcement Phase", the depot (the
    # factory) is there with a line to the western edge, and a destroyed unit may return
    board, data, units = state["board"], state["counters"], gs.on_map(state)
    state["phase_data"]["jueterbog"] = _eligible(
        state, gc.jueterbog_eligible
    ) and arrivals.jueterbog_open(board, data, units)
    state["phase_data"]["alkett"] = _eligible(state, gc.alkett_eligible) and arrivals.alkett_open(
        board, data, units
    )
    return any(state["phase_data"][k] for k in ("volkssturm", "jueterbog", "alkett"))


def _eligible(state: State, test: object) -> bool:
    data = state["counters"]
    return any(
        uid in data["units"] and test(data["units"][uid])  # type: ignore[operator]
        for uid in state["destroyed"]
    )


def reinforce(state: State, role: str, d: Reinforce, ctx: Context) -> None:
    data = state["counters"]
    key = d.source
    if not state["phase_data"].get(key):
        raise gs.illegal(
            f"no {key} reinforcement is possible now", "8.32" if key == "jueterbog" else "8.33"
        )
    chosen = [uid for uid, _ in d.placements]
    if len(set(chosen)) != len(chosen):
        raise gs.illegal("a unit is named twice", "8.3")
    missing = [uid for uid in chosen if uid not in state["destroyed"]]
    if missing:
        raise gs.illegal(f"{', '.join(missing)} is not a destroyed unit", "8.31")
    units = gs.on_map(state)
    if key == "jueterbog":
        placements = {uid: gs.hex_of(state, str(h)) for uid, h in d.placements}
        problems = arrivals.jueterbog_problems(state["board"], data, units, chosen, placements)
    else:
        problems = arrivals.alkett_problems(state["board"], data, units, chosen)
        placements = {uid: gs.hex_of(state, "op:2324") for uid in chosen}
    if problems:
        raise gs.IllegalOrderError(f"illegal: {problems[0]}")
    for uid in chosen:
        state["destroyed"].remove(uid)
        gs.put(state, gs.new_unit(data, uid, placements[uid]))
    state["phase_data"][key] = False  # once a phase
    ctx.event(f"{', '.join(chosen)} return at {key.title()} (8.3)", units=chosen)


def place_volkssturm(state: State, role: str, d: Volkssturm, ctx: Context) -> None:
    count = state["phase_data"].get("volkssturm", 0)
    if not count:
        raise gs.illegal("no Volkssturm unit is to be placed now", "8.41")
    if len(d.hexes) > count:
        raise gs.illegal(f"{count} Volkssturm unit(s) this turn", "8.41")
    cup = state["cups"]["volkssturm"]
    placed: list[str] = []
    for text in d.hexes:
        h = gs.hex_of(state, text if ":" in text else f"city:{text}")
        uid = cup[len(placed)]
        unit = gs.new_vs_unit(uid, h)
        problems = arrivals.volkssturm_hex_problems(
            state["board"], state["counters"], gs.on_map(state), h
        )
        if problems:
            raise gs.IllegalOrderError(f"illegal: {problems[0]}")
        gs.put(state, unit)
        placed.append(uid)
    state["cups"]["volkssturm"] = cup[len(placed) :]
    state["phase_data"]["volkssturm"] = 0
    ctx.event(
        f"{len(placed)} Volkssturm unit(s) placed face down: "
        + ", ".join(gs.hex_text(state["units"][u]["hex"]) for u in placed)
        + " (8.41-8.44)"
    )
