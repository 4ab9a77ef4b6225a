"""Götterdämmerung: the prompt of each step of the step table (rules.STEPS), the words a
player is asked with (each a function of the state and the role asked)."""

from __future__ import annotations

from pbem.core.engine import State
from pbem.games.gotterdammerung import phases
from pbem.games.gotterdammerung import state as gs


def _title(state: State) -> str:
    return f"turn {state['turn']}, {phases.TITLES.get(state['phase'], state['phase'])}"


def bid(state: State, role: str) -> str:
    return "bid Soviet Support Points: the lower bid commands the Soviets ('bid 12', 12.42)"


def open_bid(state: State, role: str) -> str:
    return "open your sealed bid ('open bid', 12.42)"


def artillery(state: State, role: str) -> str:
    return (
        "place the four Artillery Support markers on corps of their armies "
        "('artillery art-8ga sov-29grc ...', 6.91)"
    )


def deploy(state: State, role: str) -> str:
    return "deploy the units of areas A-J ('deploy standard' or 'deploy UNIT HEX ...', 10.22)"


def move(state: State, role: str) -> str:
    moving_now = state["moving"]
    going = f"; {moving_now['unit']} has {moving_now['points']} MP left" if moving_now else ""
    return (
        f"{_title(state)}{going}: 'move UNIT HEX...', 'enter UNIT HEX', 'rail UNIT HEX...', "
        "'split CORPS SUPPORT', 'overrun HEX to HEX', then 'done' (5, 7)"
    )


def combat(state: State, role: str) -> str:
    return f"{_title(state)}: 'attack HEX from HEX...' or 'done' (6.3)"


def loss(state: State, role: str) -> str:
    combat = state["combat"]
    side = combat["losing"]
    return (
        f"{combat['result']['code']} at {gs.hex_text(combat['target'])}: lose "
        f"{combat['owed'][side]} step(s): 'lose UNIT...' (6.52)"
    )


def retreat(state: State, role: str) -> str:
    combat = state["combat"]
    left = ", ".join(combat["retreat"]["left"])
    return f"{combat['result']['code']}: retreat {left} two hexes: 'retreat UNIT HEX HEX' (6.6)"


def advance(state: State, role: str) -> str:
    info = state["combat"]["advance"]
    units = ", ".join(info["units"])
    return f"advance after combat with {units}: 'advance UNIT HEX...' or 'done' (6.7)"


def remove(state: State, role: str) -> str:
    hexes = ", ".join(gs.hex_text(h) for h in phases.overstacks(state))
    return f"the stacking limit is broken in {hexes}: remove the excess ('remove UNIT...', 4.18)"


def reinforce(state: State, role: str) -> str:
    data = state["phase_data"]
    parts = []
    if data.get("volkssturm"):
        parts.append(f"place {data['volkssturm']} Volkssturm ('volkssturm HEX...', 8.41)")
    if data.get("jueterbog"):
        parts.append("'reinforce jueterbog UNIT HEX...' (8.32)")
    if data.get("alkett"):
        parts.append("'reinforce alkett UNIT...' (8.33)")
    return f"{_title(state)}: " + ", ".join(parts + ["then 'done'"])
