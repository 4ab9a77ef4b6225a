"""The cavalry skirmish (10.5.3): a Cavalry Recon into a hex that also holds enemy
scouting cavalry is fought for first.

The entries (docs/race-to-the-sea.md, "The cavalry skirmish (10.5.3)"):

1. the recon (`recon c22 0505 to 0506 c31`) flips both Combat Results cards, the active
   side's first (10.5.3.B: public draws, one entry; "simultaneously" is random, not a
   choice); the enemy scouting cavalry it meets is the hex's first by label;
2. the SZ each card number is doubled by is a modified rating (3.2.7: a Casualties marker
   lowers SZ), and a cavalry unit's markers are sealed (10.4.A): the owner of each
   cavalry unit with a sealed stack opens it (`show`, Allies first) before the cards are
   compared. The cards are drawn before the openings: the openings are obligations, so
   knowing the cards changes no one's choice, and a skirmish of fresh cavalry (the common
   case) then takes no entry beyond the recon;
3. the higher net number wins, the Strategic Momentum side on a tie (10.5.3.C-D,
   `initiative.skirmish_winner`); the loser retreats one hex (12.7's legal hexes,
   `movement.retreat_options`), its owner choosing the hex when it has a choice
   (`retreat c21 0808`, step `skirmish_retreat`); a loser with no legal hex stays (no hit
   replaces it: 10.5.3.F, a reading of a gap);
4. if the active cavalry won, its recon follows (10.5.3.E: the target's owner opens it in
   its next entry, 9.7); no hits either way (10.5.3.F); the active cavalry is activated;
5. two EVENT! cards bring the Event of their sum (13.0.A, `events.after_combat`).
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.race_to_the_sea import events, hits, initiative
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.decisions import Recon, Retreat
from pbem.games.race_to_the_sea.shared_pieces import own
from pbem.games.race_to_the_sea.size_claims import record_claims
from pbem.games.race_to_the_sea.state import (
    NAMES,
    flip_card,
    flooded,
    hex_text,
    illegal,
    other,
    piece_label,
    positions,
    take_control,
    writable_counter,
)
from pbem.games.race_to_the_sea.what_next import PENDING
from pbem.kit import pieces
from pbem.kit.steps import Next

RULE = "10.5.3"


def opponent(state: State, role: str, hex_: int) -> str | None:
    """The enemy scouting cavalry of `hex_` a recon there must skirmish with (10.5.3.A)."""
    found = sorted(
        k
        for k, c in state["counters"].items()
        if c["side"] != role and c["cavalry"] and c["scouting"] and c["hex"] == hex_
    )
    return found[0] if found else None


def start(state: State, role: str, d: Recon, enemy: str, ctx: Context) -> Next:
    """10.5.3.A-B: the recon waits for the skirmish; both cards flip now; the cavalry
    whose stack is sealed opens it before the comparison (10.4.A)."""
    numbers: dict[str, int] = {}
    for side in (role, other(role)):
        numbers[side] = flip_card(state, side, ctx, f"10.5.3.B: {side}' skirmish card")
    state["combat"] = {
        "kind": "skirmish",
        "side": role,
        "attacker": d.counter,
        "defender": enemy,
        "hex": d.target_hex,
        "target": d.target,
        "cards": numbers,
        "winner": None,
    }
    ctx.event(
        f"{d.counter} meets {enemy} in {hex_text(d.target_hex)}: a skirmish (10.5.3); the "
        f"cards: {role} #{numbers[role]}, {other(role)} #{numbers[other(role)]}"
    )
    why = "10.5.3.B: a skirmish reads its SZ"
    hits.need_ratings(state, d.counter, why)
    hits.need_ratings(state, enemy, why)
    return PENDING


def size(state: State, counter: str) -> int:
    rated = hits.ratings_of(state, counter)
    if rated is None:
        raise illegal(f"{counter}'s SZ must be open before the skirmish is decided", "10.4.A")
    return int(rated["sz"])


def proceed(state: State, ctx: Context) -> Next:
    """After the openings (interrupts.continue_play): decide, then the loser retreats."""
    combat = state["combat"]
    if combat["winner"] is not None:
        return None  # waiting for the loser's retreat
    side, attacker, defender = combat["side"], combat["attacker"], combat["defender"]
    sizes = {side: size(state, attacker), other(side): size(state, defender)}
    winner = initiative.skirmish_winner(side, combat["cards"], sizes, state["momentum"])
    combat["winner"] = winner
    net = {s: combat["cards"][s] * (2 if sizes[s] == 2 else 1) for s in sizes}
    tie = (
        " (a tie: the Strategic Momentum side wins, 10.5.3.D)"
        if len(set(net.values())) == 1
        else ""
    )
    ctx.event(
        f"the skirmish: {side} {net[side]}, {other(side)} {net[other(side)]}: "
        f"{NAMES[winner]} win{tie}"
    )
    loser = defender if winner == side else attacker
    options = retreats(state, loser)
    if not options:
        ctx.event(f"{loser} has no hex to retreat to: it stays (10.5.3.F: no hit)")
        return finish(state, ctx)
    if len(options) == 1 and not options[0].claims:
        _retreat(state, loser, options[0], ctx)
        return finish(state, ctx)
    state["step"] = "skirmish_retreat"
    return None


def retreats(state: State, counter: str) -> list[mv.Retreat]:
    """10.5.3.C: one hex (12.7's legal hexes; through an overstacked hex when it must)."""
    return mv.retreat_options(state["board"], positions(state), counter, None, flooded(state))


def loser(state: State) -> str | None:
    combat = state.get("combat")
    if not combat or combat.get("kind") != "skirmish" or combat.get("winner") is None:
        return None
    return str(combat["defender"] if combat["winner"] == combat["side"] else combat["attacker"])


def loser_side(state: State) -> str | None:
    found = loser(state)
    return None if found is None else str(state["counters"][found]["side"])


def choices(state: State, role: str) -> list[Any]:
    found = loser(state)
    if found is None:
        return []
    return [Retreat(found, r.hex) for r in retreats(state, found)]


def retreat(state: State, role: str, d: Retreat, ctx: Context) -> Next:
    """10.5.3.C: the losing cavalry's owner chooses its retreat hex."""
    found = loser(state)
    if d.counter != found:
        raise illegal(f"{found} is the cavalry that lost the skirmish", "10.5.3.C")
    option = next((r for r in retreats(state, found) if r.hex == d.to), None)
    if option is None:
        raise illegal(f"{found} may not retreat to hex {hex_text(d.to)}", "10.5.3.C, 12.7")
    _retreat(state, found, option, ctx)
    return finish(state, ctx)


def _retreat(state: State, counter: str, option: mv.Retreat, ctx: Context) -> None:
    writable_counter(state, counter)["hex"] = option.hex
    take_control(state, counter, option.hex)
    side = state["counters"][counter]["side"]
    record_claims(state, ctx, side, counter, option.claims)
    ctx.event(f"{counter} retreats to {hex_text(option.hex)} (10.5.3.C)")


def finish(state: State, ctx: Context) -> Next:
    """10.5.3.E-F: the winner's recon, if it was the active cavalry; no hits; an Event if
    both cards say EVENT! (13.0.A); then play goes on (interrupts.py)."""
    combat = state["combat"]
    state["combat"] = None
    attacker, target = combat["attacker"], combat["target"]
    if combat["winner"] == combat["side"] and target in state["counters"]:
        piece = own(state["pieces"], piece_label(target))
        pieces.oblige(piece, f"9.7, 10.5.3.E: {attacker}'s cavalry recon")
        ctx.event(f"{attacker} scouts {target} in {hex_text(combat['hex'])} (10.5.3.E)")
    if attacker in state["counters"]:
        writable_counter(state, attacker)["activated"] = True  # 9.B
    state["resume"] = "action"
    events.after_combat(state, combat, ctx)
    return PENDING
