"""The Combat phase's decisions (rulebook 7.4): the German chooses the next combat, each
side plays its cards (German first, 7.4.1), the owner chooses casualties (7.4.4)."""

from __future__ import annotations

from pbem.core.engine import Context, State
from pbem.games.berlin_1945 import flow
from pbem.games.berlin_1945.cards import before_combat, card_of, check_before, combat_mode
from pbem.games.berlin_1945.combat import remove_units, resolve_strengths, roll_winner_losses
from pbem.games.berlin_1945.decisions import Cards, Casualties, Fight
from pbem.games.berlin_1945.hands import play_opened
from pbem.games.berlin_1945.position import disputed, units_at
from pbem.games.berlin_1945.rulebook import NAMES
from pbem.games.berlin_1945.state import illegal


def do_fight(state: State, role: str, d: Fight, ctx: Context) -> None:
    combat = state["combat"]
    if combat["sub"] != "pick":
        raise illegal("a combat is being fought", "7.4")
    if d.zone not in combat["left"]:
        raise illegal(f"no combat waits in {d.zone} (left: {', '.join(combat['left'])})", "7.4")
    flow.begin_combat(state, d.zone, ctx)


def do_cards(state: State, role: str, d: Cards, ctx: Context) -> None:
    combat = state["combat"]
    if combat["sub"] != "cards":
        raise illegal("combat cards are chosen before the combat is resolved", "7.4.1")
    # a two-mode card played in its ! mode ("1!") is not a C card: it leaves the one C card
    # of 7.4.1 free (2.3: the chosen mode is the only one applied)
    modes = [combat_mode(state, role, n, n in d.bang) for n in d.cards]
    if modes.count("C") > 1:
        raise illegal("one C card per side in each combat", "7.4.1")
    for n, mode in zip(d.cards, modes, strict=True):
        if mode == "before":
            check_before(state, role, n, combat["zone"])
    play_opened(state, role, d.cards, ctx)
    combat["played"][role] = list(d.cards)
    combat["bang"][role] = list(d.bang)
    if d.cards:
        names = ", ".join(
            f"#{n} {card_of(state, role, n)['name']}" + (" (! mode)" if n in d.bang else "")
            for n in d.cards
        )
        ctx.event(f"{NAMES[role]} plays {names} in {combat['zone']}")
    else:
        ctx.event(f"{NAMES[role]} plays no card in {combat['zone']}")
    if role == "german":
        combat["asked"] = "soviet"
        return
    if before_combat(state, ctx):
        if flow.german_auto_victory(state, ctx):
            return  # 9.2: a removal by card can end the game at once
        if not disputed(state, combat["zone"]):
            # 7.4: combats are fought in disputed zones only; the card cleared this one
            ctx.event(f"no combat in {combat['zone']}: one side has no units left (7.4)")
            flow.end_combat(state, ctx)
            return
    result = resolve_strengths(state, ctx)
    roll_winner_losses(state, result, ctx)
    combat["result"] = result
    flow.queue_casualties(state, result, ctx)


def do_casualties(state: State, role: str, d: Casualties, ctx: Context) -> None:
    combat = state["combat"]
    if combat["sub"] != "casualties":
        raise illegal("no casualties to choose now", "7.4.4")
    side, n = combat["queue"][0]
    here = units_at(state, combat["zone"], side)
    if len(d.units) != n or any(u not in here for u in d.units):
        raise illegal(
            f"remove exactly {n} of your units in {combat['zone']}: {', '.join(here)}", "7.4.4"
        )
    remove_units(state, list(d.units), ctx, "casualties chosen by their owner, rulebook 7.4.4")
    combat["queue"].pop(0)
    flow.next_casualties(state, ctx)
