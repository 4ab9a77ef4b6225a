"""Race to Berlin's standing orders (pbem.kit.orders): the combat reactions a player may
answer in advance, so that an attack needs the defender's person only for real choices.

Each order decides among the step's own listed choices (pbem.games.race_to_berlin.choices)
on the deciding player's own state, and gives None where it does not fit (then the
player is asked). `pbem orders GAME` lists them with their forms.
"""

from __future__ import annotations

from typing import Any

from pbem.games.race_to_berlin import choices
from pbem.games.race_to_berlin.decisions import (
    Advance,
    Counterattack,
    EndStrategic,
    Loss,
    Place,
    RemoveBlock,
    Reserves,
    Retreat,
    Support,
    Tokens,
)
from pbem.games.race_to_berlin.state import (
    State,
    blocks_in,
    force_units_in,
    graph,
    on_board,
)
from pbem.kit.orders import Form, StandingOrder, by_name, number_in
from pbem.kit.pieces import known_value

# --- placement (4.1.1) ------------------------------------------------------------------------


def _place(state: State, role: str, argument: str) -> Any | None:
    """The highest block in hand, in the eligible area that faces the most enemy areas."""
    options: list[Place] = choices.placements(state, role)
    if not options:
        return None
    areas = state["areas"]
    order = {area: index for index, area in enumerate(state["map"]["area_ids"])}

    def front(d: Place) -> tuple[int, int, int]:
        mine = areas[d.area]["control"]
        facing = sum(1 for n in graph(state).neighbours(d.area) if areas[n]["control"] != mine)
        return d.value or 0, facing, -order.get(d.area, 0)

    return max(options, key=front)


# --- the Action Phase (4.2) --------------------------------------------------------------------


def _action(state: State, role: str, argument: str) -> Any | None:
    """When none of your blocks can attack: remove the block with the fewest cubes left
    (an exhausted one first), ending its part in the phase (4.2.1.3)."""
    if choices.attacks(state, role):
        return None
    blocks = on_board(state, role)
    if not blocks:
        return None

    def left(block: dict[str, Any]) -> tuple[int, int, str]:
        value = known_value(block)
        cubes_left = 99 if value is None else int(str(value)) - int(block["cubes"])
        return (0 if block["exhausted"] else 1), cubes_left, str(block["area"])

    return RemoveBlock(min(blocks, key=left)["area"])


# --- support (4.2.1.2 step 4) ---------------------------------------------------------------


def _cubes_left(state: State, area: str, owner: str) -> int:
    """Action cubes the owner's block in `area` can still take (unknown value: counted 0)."""
    for block in blocks_in(state, area):
        if block["owner"] == owner:
            value = known_value(block)
            return 0 if value is None else int(str(value)) - int(block["cubes"])
    return 0


def _support(state: State, role: str, argument: str) -> Any | None:
    options = choices.supports(state, role)
    if argument == "none":
        return Support() if Support() in options else None
    own = [d for d in options if d.own]
    if own:
        return own[0]
    least = number_in(argument) if argument.startswith("best min") else 1
    helping = [
        (left, d)
        for d in options
        if d.area is not None
        and (left := _cubes_left(state, d.area, state["combat"]["defender"])) >= least
    ]
    if not helping:
        return Support() if Support() in options else None
    return max(helping, key=lambda pair: pair[0])[1]


# --- tokens, reserves, counterattack (steps 5, 7, 8) ----------------------------------------


def _tokens(state: State, role: str, argument: str) -> Any | None:
    options = choices.tokens(state, role)
    if argument == "none":
        return Tokens() if Tokens() in options else None
    return max(options, key=lambda d: (d.logistics, d.support)) if options else None


def _reserves(state: State, role: str, argument: str) -> Any | None:
    if argument == "keep":
        return Reserves(False)
    combat = state["combat"]
    side = "attack" if combat["stage"] == "reserves_attack" else "defence"
    totals = {
        s: combat[s]["base"] + abs(combat["dice"][s][0] - combat["dice"][s][1])
        for s in ("attack", "defence")
    }
    if argument == "keep if winning":
        attack_wins = totals["attack"] > totals["defence"]  # (4.2.1.2 step 8: only with more)
        return Reserves(attack_wins != (side == "attack"))
    return Reserves(totals[side] < number_in(argument))


def _counterattack(state: State, role: str, argument: str) -> Any | None:
    return Counterattack(argument == "always")


# --- losses, retreat, advance (steps 8-9) ---------------------------------------------------


def _loss(state: State, role: str, argument: str) -> Any | None:
    options: list[Loss] = choices.losses(state, role)
    if not options:
        return None
    sign = 1 if argument == "strongest" else -1
    return max(options, key=lambda d: (sign * (state["units"][d.unit]["strength"] or 0), d.unit))


def _retreat(state: State, role: str, argument: str) -> Any | None:
    options: list[Retreat] = choices.retreats(state, role)
    if not options:
        return None
    dforce = state["combat"]["defence_force"]

    def friends(d: Retreat) -> tuple[int, int]:
        return len(d.units), sum(len(force_units_in(state, to, dforce)) for _u, to in d.units)

    return max(options, key=friends)


def _advance(state: State, role: str, argument: str) -> Any | None:
    options: list[Advance] = choices.advances(state, role)
    if argument == "none":
        return Advance() if Advance() in options else None
    return max(options, key=lambda d: (len(d.units), d.block)) if options else None


def _strategic(state: State, role: str, argument: str) -> Any | None:
    return EndStrategic()


ORDERS = by_name(
    StandingOrder(
        "place",
        ("place",),
        "where each logistics block goes (rulebook 4.1.1)",
        (
            Form(
                "front",
                "your highest block, in the eligible area facing the most enemy areas",
            ),
        ),
        _place,
    ),
    StandingOrder(
        "action",
        ("action",),
        "the Action Phase, when no block of yours can attack (rulebook 4.2)",
        (
            Form(
                "remove when no attack",
                "remove the block with the fewest cubes left, exhausted first (4.2.1.3)",
            ),
        ),
        _action,
    ),
    StandingOrder(
        "support",
        ("support",),
        "the defence's support (rulebook 4.2.1.2 step 4)",
        (
            Form("none", "never support"),
            Form(
                "best",
                "the defending area's own block, else the adjacent block with "
                "the most action cubes left",
            ),
            Form("best min N", "as best, but only a block with at least N cubes left"),
        ),
        _support,
    ),
    StandingOrder(
        "tokens",
        ("tokens",),
        "the attacker's Logistics and Support tokens (4.2.1.2 step 5)",
        (Form("none", "play no token"), Form("all", "play every token you may")),
        _tokens,
    ),
    StandingOrder(
        "reserves",
        ("reserves",),
        "a Reserves re-roll of your own dice (4.2.1.2 step 7)",
        (
            Form("keep", "never re-roll"),
            Form("keep if winning", "re-roll only while your side loses"),
            Form("keep at N", "re-roll only while your side's total is below N"),
        ),
        _reserves,
    ),
    StandingOrder(
        "counterattack",
        ("counterattack",),
        "a Counterattack by the losing German defence (4.2.1.2 step 8)",
        (Form("never", "never counterattack"), Form("always", "always, when possible")),
        _counterattack,
    ),
    StandingOrder(
        "loss",
        ("loss",),
        "the German unit that loses a strength point (4.2.1.2 step 8)",
        (Form("strongest", "the strongest unit"), Form("weakest", "the weakest unit")),
        _loss,
    ),
    StandingOrder(
        "retreat",
        ("retreat",),
        "the defenders' retreat (4.2.1.2 step 9)",
        (
            Form(
                "to friends",
                "save as many units as possible, toward the areas with most friendly units",
            ),
        ),
        _retreat,
    ),
    StandingOrder(
        "advance",
        ("advance",),
        "the attacker's advance after combat (4.2.1.2 step 9)",
        (Form("none", "never advance"), Form("all", "advance every unit you may")),
        _advance,
    ),
    StandingOrder(
        "strategic",
        ("strategic",),
        "the Strategic Movement Phase (4.3)",
        (Form("end", "make no strategic move"),),
        _strategic,
    ),
)
