"""The Combat phase's decisions (rulebook 7.4): the German chooses the next combat, each
side plays its cards (German first, 7.4.1), the owner chooses casualties (7.4.4)."""

from __future__ import annotations

from pbem.core.engine import Context, State
from pbem.games.berlin_1945 import flow
from pbem.games.berlin_1945.cards import (
    before_combat,
    card_of,
    check_before,
    combat_mode,
    played_modes,
)
from pbem.games.berlin_1945.combat import remove_units, resolve_strengths, roll_winner_losses
from pbem.games.berlin_1945.decisions import Cards, Casualties, Fight
from pbem.games.berlin_1945.hands import hand_size, play_opened
from pbem.games.berlin_1945.position import disputed, units_at
from pbem.games.berlin_1945.rulebook import NAMES
from pbem.games.berlin_1945.state import fixed, illegal


def do_fight(state: State, role: str, d: Fight, ctx: Context) -> None:
    combat = state["combat"]
    if combat["sub"] != "pick":
        raise illegal("a combat is being fought", "7.4")
    if d.zone not in combat["left"]:
        raise illegal(f"no combat waits in {d.zone} (left: {', '.join(combat['left'])})", "7.4")
    flow.begin_combat(state, d.zone, ctx)


def do_cards(state: State, role: str, d: Cards, ctx: Context) -> None:
    combat = state["combat"]
    if combat["sub"] == "after":
        after_cards(state, role, d, ctx)
        return
    if combat["sub"] == "answer":
        answer_cards(state, role, d, ctx)
        return
    if combat["sub"] != "cards":
        raise illegal("combat cards are chosen before the combat is resolved", "7.4.1")
    # a two-mode card played in its ! mode ("1 bang") is not a C card: it leaves the one C card
    # of 7.4.1 free (2.3: the chosen mode is the only one applied)
    modes = [combat_mode(state, role, n, n in d.bang) for n in d.cards]
    if modes.count("C") > 1:
        raise illegal("one C card per side in each combat", "7.4.1")
    for n, mode in zip(d.cards, modes, strict=True):
        if mode == "before":
            check_before(state, role, n, combat["zone"])
        if mode == "answer":
            raise illegal(
                f"card {n} cancels a ! card: it is played in the German's answer to a ! "
                "card the Soviet played in this combat",
                "7.4.1",
            )
        if mode == "after" and fixed(state):
            raise illegal(
                f"card {n} acts once the combat is over: it is declared then, with the "
                "outcome known",
                "7.4.1",
            )
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
    if fixed(state) and d.cards and hand_size(state, "german"):
        # 7.4.1 (1.1): the German may answer the Soviet's cards with ! cards
        combat["sub"] = "answer"
        combat["asked"] = "german"
        return
    resolve(state, ctx)


def answer_cards(state: State, role: str, d: Cards, ctx: Context) -> None:
    """7.4.1 (1.1): ! cards "as a reaction to an opponent's card": a ! card removing a unit
    before the strengths (Panzerfaust !), or one cancelling a ! card the Soviet played in
    this combat (#21 against #10 Air Superiority). The Soviet has seen the German cards
    already; the exchange ends here (one answer)."""
    combat = state["combat"]
    soviet_bang = any(m == "!" for _n, m in played_modes(state, "soviet", combat))
    for n in d.cards:
        mode = combat_mode(state, role, n, n in d.bang)
        if mode == "before":
            check_before(state, role, n, combat["zone"])
        elif mode != "answer":
            raise illegal(f"card {n}: the German answers with ! cards only", "7.4.1")
        elif not soviet_bang:
            raise illegal(f"card {n}: the Soviet played no ! card to cancel", "7.4.1")
    names = _play(state, role, d, ctx)
    ctx.event(
        f"{NAMES[role]} answers with {names} in {combat['zone']}"
        if d.cards
        else f"{NAMES[role]} does not answer in {combat['zone']}"
    )
    combat["sub"] = "cards"
    resolve(state, ctx)


def _play(state: State, role: str, d: Cards, ctx: Context) -> str:
    """Play `role`'s cards `d` in the combat (opened from its hand); their names, for the
    event that tells it."""
    combat = state["combat"]
    play_opened(state, role, d.cards, ctx)
    combat["played"][role] = [*combat["played"][role], *d.cards]
    combat["bang"][role] = [*combat["bang"][role], *d.bang]
    return ", ".join(f"#{n} {card_of(state, role, n)['name']}" for n in d.cards)


def resolve(state: State, ctx: Context) -> None:
    """Once the cards are played: the ! cards acting before the strengths, then 7.4.2-7.4.4."""
    combat = state["combat"]
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


def after_cards(state: State, role: str, d: Cards, ctx: Context) -> None:
    """7.4.1 (1.1): once the combat is over, the ! cards acting then (German first); they
    act together once both sides have declared."""
    combat = state["combat"]
    if any(combat_mode(state, role, n, n in d.bang) != "after" for n in d.cards):
        raise illegal("once the combat is over, only ! cards acting then are played", "7.4.1")
    names = _play(state, role, d, ctx)
    ctx.event(
        f"{NAMES[role]} plays {names} once the combat in {combat['zone']} is over"
        if d.cards
        else f"{NAMES[role]} plays no card once the combat in {combat['zone']} is over"
    )
    combat["after_left"] = combat["after_left"][1:]
    if combat["after_left"]:
        combat["asked"] = combat["after_left"][0]
        return
    flow.end_combat(state, ctx)


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
