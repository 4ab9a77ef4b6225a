"""Race to the Sea 1914's standing orders (pbem.kit.orders): the recurring answers of a
combat and of the end of a turn that a player may give in advance, so that the other
side's fire, assaults and Events need this player's person only for real choices.

Each order decides among the step's own listed choices, on the player's own state (its
hidden units and markers known). Where it does not fit, it gives None and the player is
asked.
"""

from __future__ import annotations

from typing import Any

from pbem.games.race_to_the_sea import cards as rc
from pbem.games.race_to_the_sea import combat_choices, firepower, hits
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea.decisions import (
    CounterAttack,
    Deploy,
    Done,
    FallBack,
    FightOn,
    Keep,
    Stand,
)
from pbem.games.race_to_the_sea.state import identity, unit
from pbem.kit.orders import Form, StandingOrder, by_name

State = dict[str, Any]


def _reply(state: State, role: str, argument: str) -> Any | None:
    """11.2.I-J, 11.3.A: 'take' the hits as they come; 'met' uses the MET rating only
    when it takes a hit away; 'met and fall back' also falls back one hex (the first
    listed, not closer to the enemy's side: 12.7.D) rather than take a hit."""
    options = combat_choices.replies(state, role)
    plain = firepower.net_hits(state, False)
    with_met = firepower.net_hits(state, True)
    met = argument != "take" and with_met is not None and plain is not None and with_met < plain
    wanted = [r for r in options if r.met == met]
    if argument == "met and fall back":
        backs = [r for r in wanted if r.back is not None]
        if backs:
            return backs[0]
    plain_choice = [r for r in wanted if r.back is None]
    return plain_choice[0] if plain_choice else None


def _cavalry(state: State, role: str, argument: str) -> Any | None:
    """11.3.B: scouting cavalry under fire stands, or falls back to the first listed hex."""
    options = combat_choices.cavalry_replies(state, role)
    if argument == "stand":
        return Stand()
    backs = [d for d in options if isinstance(d, FallBack)]
    return backs[0] if backs else Stand()


def _withdraw(state: State, role: str, argument: str) -> Any | None:
    return FightOn()  # 12.4.B: 'never'


def _keep(state: State, role: str, argument: str) -> Any | None:
    """9.4.B: keep the Big Push card that scores more hits on the defender, less those
    taken, as this side can judge them (the defender's printed ratings when its markers
    are sealed)."""
    combat = state["combat"]
    a, d = combat["current"]
    foe = "germans" if role == "allies" else "allies"
    defense = rc.combat_card(state["cards_data"], foe, combat["cards"][foe])
    mine = hits.ratings_of(state, a) or {}
    theirs: dict[str, Any] = dict(rc.EMPTY_HEX)
    if d is not None:
        theirs = hits.ratings_of(state, d) or _printed(state, d) or theirs
    situation = {
        "cover": rm.assault_cover(state["board"], combat["attackers"][a], combat["hex"]),
        "higher": None,
    }
    best, score = None, None
    for number in combat["pushed"]:
        card = rc.combat_card(state["cards_data"], role, number)
        on_d, on_a = rc.assault_hits(card, defense, mine, None if d is None else theirs, situation)
        if score is None or on_d - on_a > score:
            best, score = number, on_d - on_a
    return None if best is None else Keep(best)


def _printed(state: State, label: str) -> dict[str, Any] | None:
    unit_id = identity(state, label)
    return None if unit_id is None else dict(unit(state, unit_id))


def _retreat(state: State, role: str, argument: str) -> Any | None:
    options = combat_choices.retreats(state, role)
    return options[0] if options else None  # 12.7.D: listed not closer to the enemy first


def _counter(state: State, role: str, argument: str) -> Any | None:
    if argument == "never":
        return CounterAttack(None)
    units = state["counter"]["units"]
    return CounterAttack(units[0]) if units else CounterAttack(None)


def _deploy(state: State, role: str, argument: str) -> Any | None:
    return Deploy(None)  # 7.7.5: 'keep': hold the marker for later


def _march(state: State, role: str, argument: str) -> Any | None:
    return Done()  # 7.7.3: 'none': no forced march


ORDERS = by_name(
    StandingOrder(
        "reply",
        ("fire_reply",),
        "the target's answer to a Firepower Combat (11.2.I-J, 11.3.A)",
        (
            Form("take", "take the hits, never use the MET rating nor fall back"),
            Form("met", "use the MET rating when it takes a hit away"),
            Form("met and fall back", "as 'met', and fall back one hex instead of a hit"),
        ),
        _reply,
    ),
    StandingOrder(
        "cavalry",
        ("fire_cavalry",),
        "scouting cavalry under fire (11.3.B)",
        (
            Form("stand", "stay and let the cards decide"),
            Form("fall back", "fall back one hex before the cards flip"),
        ),
        _cavalry,
    ),
    StandingOrder(
        "withdraw",
        ("withdraw",),
        "withdrawing before the next matchup of an assault (12.4.B)",
        (Form("never", "fight on"),),
        _withdraw,
    ),
    StandingOrder(
        "keep",
        ("keep",),
        "the Big Push card kept (9.4.B, 12.5.C)",
        (Form("best", "the card that scores most against the defender"),),
        _keep,
    ),
    StandingOrder(
        "retreat",
        ("retreat",),
        "the hex a beaten unit retreats to (12.7)",
        (Form("first", "the first listed hex (not closer to the enemy's side)"),),
        _retreat,
    ),
    StandingOrder(
        "counter",
        ("counter",),
        "the Counter-Attack Event (13.0)",
        (
            Form("never", "never counter-attack"),
            Form("always", "counter-attack with the first listed unit"),
        ),
        _counter,
    ),
    StandingOrder(
        "deploy",
        ("deploy",),
        "deploying the Planned Operations marker (7.7.5)",
        (Form("keep", "keep the marker off the map"),),
        _deploy,
    ),
    StandingOrder(
        "march",
        ("march",),
        "forced marches at the end of a turn (7.7.3)",
        (Form("none", "no forced march"),),
        _march,
    ),
)
