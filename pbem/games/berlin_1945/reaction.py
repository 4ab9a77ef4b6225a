"""Reaction cards (rulebook 2.3, 6.1): as a Movement phase ends, the opponent may cancel one
of its orders (`play N on K`) or one of its cards (`play N on card T`); what was cancelled
is undone (`undo`)."""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.berlin_1945 import flow
from pbem.games.berlin_1945.cards import card_of
from pbem.games.berlin_1945.decisions import NoReaction, Play
from pbem.games.berlin_1945.hands import play_opened
from pbem.games.berlin_1945.rulebook import NAMES
from pbem.games.berlin_1945.state import illegal
from pbem.games.berlin_1945.undo import check_order_undoable, undo_card, undo_order


def reaction_effect(state: State, role: str, number: int) -> dict[str, Any]:
    card = card_of(state, role, number)
    for e in card["effects"]:
        if e["when"] == "reaction" and e["effect"] == "cancel_order":
            return dict(e)
    raise illegal(f"card {number} ({card['name']}) does not cancel an order", "2.3")


def check_undo(state: State, role: str, number: int, n: int) -> dict[str, Any]:
    """The order `n` that card `number` may cancel (it must be undoable), else refused."""
    effect = reaction_effect(state, role, number)
    log = state["move"]["log"]
    if not 1 <= n <= len(log) or n in state["move"]["undone"]:
        raise illegal(f"the opponent carried out no order {n} this phase", "2.3")
    entry = log[n - 1]
    wanted = effect.get("order", "any")
    if wanted == "movement" and entry["kind"] != "move":
        raise illegal(f"card {number} cancels a Movement order", "2.3")
    if wanted == "rebuild" and entry["kind"] != "rebuild":
        raise illegal(f"card {number} cancels a Rebuild order", "2.3")
    if wanted == "additional" and not entry["extra"]:
        raise illegal(f"card {number} cancels an additional order", "2.3, 6.1")
    check_order_undoable(state, entry)
    return entry


def check_cancel_card(state: State, role: str, number: int, target: int) -> dict[str, Any]:
    """The card `target` that card `number` may cancel (its effect undoable), else refused."""
    card = card_of(state, role, number)
    effect = next(
        (e for e in card["effects"] if e["when"] == "reaction" and e["effect"] == "cancel_card"),
        None,
    )
    if effect is None:
        raise illegal(f"card {number} ({card['name']}) does not cancel a card", "2.3")
    move = state["move"]
    entry = next(
        (e for e in move["card_log"] if e["n"] == target and target not in move["cards_undone"]),
        None,
    )
    if entry is None:
        raise illegal(f"the opponent played no card {target} this Movement phase", "2.3")
    if entry["mode"] not in effect.get("symbols", ["M", "!", "C"]):
        raise illegal(f"card {number} cancels only {'/'.join(effect['symbols'])} cards", "2.3")
    undo_card(state, entry, check_only=True)
    return entry


def do_react(state: State, role: str, d: Play, ctx: Context) -> None:
    if d.target is not None:
        entry = check_cancel_card(state, role, d.card, d.target)
        play_opened(state, role, (d.card,), ctx)
        undo_card(state, entry, check_only=False)
        ctx.event(
            f"{NAMES[role]} plays card #{d.card} {card_of(state, role, d.card)['name']}: the "
            f"opponent's card #{d.target} is cancelled and its effect undone"
        )
        return
    if d.order is None or d.zone is not None:
        raise illegal("name the order the card cancels: 'play N on K'", "2.3")
    entry = check_undo(state, role, d.card, d.order)
    play_opened(state, role, (d.card,), ctx)
    undo_order(state, entry)
    ctx.event(
        f"{NAMES[role]} plays card #{d.card} {card_of(state, role, d.card)['name']}: the "
        f"opponent's order {d.order} is undone; cards discarded for it are not recovered (6.1)"
    )


def do_no_reaction(state: State, role: str, d: NoReaction, ctx: Context) -> None:
    flow.after_reaction(state, ctx)
