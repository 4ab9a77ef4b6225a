"""Götterdämmerung: the Game Turn's ten phases (3.0-3.1) and what happens between them.

3.1 prints six phases and ends at the Soviet Breakthrough Movement Phase; 3.0 says a turn
has ten and 3.1 ends with the Supply and Reinforcement Phase. The four the text omits are
rebuilt from the rules that name them (docs/gotterdammerung.md):

    1 soviet-move    Soviet Movement (not on turn 1, 10.4), reinforcements, overruns 5, 7, 9.5
    2 counter-1      First German Counter-Move (not on turn 1, 10.4)              5.5
    3 soviet-combat  Soviet Combat (turn 1 starts here, 10.4)                     6, 6.9
    4 siege-move     Soviet Siege Movement                                        5.17
    5 siege-combat   Soviet Siege Combat                                          3.1, 6.14
    6 breakthrough   Soviet Breakthrough Movement                                 5.16, 7.21
    7 counter-2      Second German Counter-Move                                   5.51
    8 german-move    German (Normal) Movement, reinforcements, railroads          5.6, 9.2-9.4
    9 german-combat  German Combat                                                6, 6.8
   10 supply         Supply and Reinforcement                                     8, 6.66, 11.17

Automatic steps run here, in the order the rules give them: the artillery markers leave
after turn 1's Soviet Combat Phase (6.94); Delay markers not turned over return to the cup
at the end of the Soviet Movement Phase (6.85) and the cup is whole again when the German
Combat Phase starts (6.82); the Vlasov die (9.4), the 12th Army draws (9.33) and the
reinforcements entering the North German Plain Box (9.22) at the start of the German
Movement Phase; supply (8.11), disruption recovery (6.66) and the Meeting at the Elbe
(11.17) in the Supply and Reinforcement Phase. At every phase end the stacking limits are
checked (4.16-4.18): an overstack is removed by the opposing player (the `remove` step).
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.gotterdammerung import counters as gc
from pbem.games.gotterdammerung import reinforcing, sixth, supply, victory, zoc
from pbem.games.gotterdammerung import state as gs

PHASES = (
    "soviet-move",
    "counter-1",
    "soviet-combat",
    "siege-move",
    "siege-combat",
    "breakthrough",
    "counter-2",
    "german-move",
    "german-combat",
    "supply",
)
SIDE = {
    "soviet-move": "soviet",
    "counter-1": "german",
    "soviet-combat": "soviet",
    "siege-move": "soviet",
    "siege-combat": "soviet",
    "breakthrough": "soviet",
    "counter-2": "german",
    "german-move": "german",
    "german-combat": "german",
    "supply": "german",
}
MOVEMENT = {  # the movement.py phase of each movement phase
    "soviet-move": "normal",
    "counter-1": "counter-move",
    "siege-move": "siege",
    "breakthrough": "breakthrough",
    "counter-2": "counter-move",
    "german-move": "normal",
}
COMBAT = ("soviet-combat", "siege-combat", "german-combat")
TITLES = {
    "soviet-move": "Soviet Movement Phase",
    "counter-1": "First German Counter-Move Phase",
    "soviet-combat": "Soviet Combat Phase",
    "siege-move": "Soviet Siege Movement Phase",
    "siege-combat": "Soviet Siege Combat Phase",
    "breakthrough": "Soviet Breakthrough Movement Phase",
    "counter-2": "Second German Counter-Move Phase",
    "german-move": "German Movement Phase",
    "german-combat": "German Combat Phase",
    "supply": "Supply and Reinforcement Phase",
}
TURNS = 10  # 1.1
FIRST_PHASE = "soviet-combat"  # 10.4: turn 1 begins at the Soviet Combat Phase


def phase_side(state: State) -> str:
    return SIDE[state["phase"]]


def step_for(phase: str) -> str:
    if phase in MOVEMENT:
        return "move"
    if phase in COMBAT:
        return "combat"
    return "reinforce"


def begin_game(state: State, ctx: Context) -> None:
    """10.4: the game starts on turn 1 at the Soviet Combat Phase."""
    state["turn"] = 1
    start_phase(state, FIRST_PHASE, ctx)


def start_phase(state: State, phase: str, ctx: Context) -> None:
    state["phase"] = phase
    state["step"] = step_for(phase)
    state["moving"] = None
    state["combat"] = None
    gs.phase_flags_off(state)
    units = gs.on_map(state)
    board, data = state["board"], state["counters"]
    # who was in enemy ZOC when the phase began (5.53, 5.16, 5.63, 4.27)
    zones = zoc.zones_of_both(board, data, units, gs.SIDES)  # (read only)
    state["phase_data"] = {
        "start_zoc": sorted([u["id"] for u in units if u["hex"] in zones[u["side"]]]),
        "groups": [],
        "rail_load": 0,
        "arrived": [],
    }
    ctx.event(f"turn {state['turn']}: {TITLES[phase]}", turn=state["turn"], phase=phase)
    if state["options"]["sixth_ss"] and phase in ("german-move", "german-combat"):
        cut = sorted(sixth.cut_off(board, data, units))  # 12.34: at the phase start
        state["phase_data"]["sixth_cut"] = cut
        if cut:
            ctx.event(f"6th SS Panzer Army units cut off from their HQ (12.34): {', '.join(cut)}")
    if phase == "soviet-move":
        reinforcing.soviet_phase_start(state, ctx)
    elif phase == "german-move":
        reinforcing.german_phase_start(state, ctx)
    elif phase == "german-combat":
        state["delay_pool"] = {str(k): v for k, v in _delay_mix(state).items()}  # 6.82
    elif phase == "supply":
        supply_phase_start(state, ctx)


def _delay_mix(state: State) -> dict[int, int]:
    return gc.delay_mix(state["counters"])


def end_phase(state: State, ctx: Context) -> None:
    """The phase is over (its player said `done`, or it had nothing to do): end-of-phase
    steps, then the next phase (or the end of the turn)."""
    phase = state["phase"]
    if phase == "soviet-move":
        returned = sum([u.get("delays", 0) for u in state["units"].values()])
        gs.set_for_all(state, "delays", 0)  # 6.85: markers on units not moved go back
        if returned:
            ctx.event(f"{returned} Delay marker(s) on units that did not move return (6.85)")
    if phase == "soviet-combat" and state["turn"] == 1:
        for uid, unit in state["units"].items():
            if "artillery" in unit:
                del gs.own(state, uid)["artillery"]  # 6.94
        ctx.event("the Artillery Support markers leave the game (6.94)")
    if phase == "supply":
        end_turn(state, ctx)
        return
    following = PHASES[PHASES.index(phase) + 1]
    start_phase(state, following, ctx)


def overstacks(state: State) -> dict[str, list[str]]:
    """4.16-4.18: the hexes breaking the stacking limits (or 4.17's nationality rule)."""
    return zoc.end_of_phase_problems(state["board"], state["counters"], gs.on_map(state))


# --- 8, 6.66, 11.17: the Supply and Reinforcement Phase -----------------------------------------


def supply_phase_start(state: State, ctx: Context) -> None:
    """8.11: the Soviet player determines supply (the engine does: nothing is hidden);
    American units are always supplied (9.72); reinforcements of this turn are supplied
    until now (9.15)."""
    board, data = state["board"], state["counters"]
    units = gs.on_map(state)
    status = supply.supply_status(board, data, units, state["turn"], state["occupied"])
    out = []
    for uid, found in status.items():
        if data["units"].get(uid, {}).get("nationality") == "american":
            found = supply.SUPPLIED
        gs.set_field(state, uid, "out_of_supply", found != supply.SUPPLIED)
        gs.set_field(state, uid, "defence_only", found == supply.DEFENCE_ONLY)
        if found != supply.SUPPLIED:
            out.append(uid)
    ctx.event(
        f"supply (8.1): {len(out)} Soviet unit(s) out of supply"
        + (f": {', '.join(sorted(out))}" if out else ""),
        out=sorted(out),
    )
    if not reinforcing.reinforcement_phase_start(state, ctx):
        finish_phase(state, ctx)  # nothing to choose: the phase ends at once


def end_turn(state: State, ctx: Context) -> None:
    """6.66: every disrupted unit recovers; 11.17: the Meeting at the Elbe; then the next
    turn, or the end of the game after turn 10 (11.0)."""
    gs.set_for_all(state, "disrupted", False)
    turn = state["turn"]
    if state["elbe"] is None and turn >= 6:
        units = gs.on_map(state)
        status = {u["id"]: "out" if u["out_of_supply"] else supply.SUPPLIED for u in units}
        points = victory.meeting_at_elbe(state["board"], units, status, turn, False)
        if points:
            state["elbe"] = turn
            ctx.event(f"Meeting at the Elbe on turn {turn}: {points} VP (11.17)")
    if turn >= TURNS:
        state["phase"] = "over"
        state["step"] = "over"
        ctx.event("the tenth Game Turn is over: victory points are counted (11.0)")
        return
    state["turn"] = turn + 1
    start_phase(state, PHASES[0], ctx)


def summary(state: State) -> dict[str, Any]:
    return {"turn": state["turn"], "phase": state["phase"], "step": state["step"]}


def finish_phase(state: State, ctx: Context) -> None:
    """4.16-4.18 at the end of any phase, then the next one."""
    state["moving"] = None
    if overstacks(state):
        state["step"] = "remove"
        return
    end_phase(state, ctx)
