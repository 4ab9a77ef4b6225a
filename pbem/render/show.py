"""The text of `pbem show` (state, whose turn, what is asked, choices) and `pbem replay`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.core.adjudicator import Adjudicator
from pbem.ledger import fingerprint
from pbem.render import escape

if TYPE_CHECKING:
    from pbem.client import Client


def show_text(client: Client, game: Adjudicator, role: str | None = None) -> str:
    from pbem.render.summary import render_summary

    mine = client.my_roles(game)
    viewer = role or (mine[0] if mine else None)
    known = client.known(game.id, viewer) if viewer in mine else None
    lines = [render_summary(game, viewer, "text", known).rstrip(), ""]
    for name, line in game.roles.items():
        you = " (you)" if name in mine else ""
        lines.append(f"role {name}{you}: {fingerprint(line)}")
    asked = [r for r in mine if game.asked(r)]
    if game.outcome() is None and asked:
        acting = asked[0]
        state = client.state_for(game, acting)
        if game.waiting_for_entropy:
            lines.append(f"Your next entry rolls the waiting dice (as {acting}).")
        if state is not None:
            state = game.engine.with_secrets(state, acting, client.known(game.id, acting))
        if state is not None and any(p.role == acting for p in game.engine.prompts(state)):
            lines.append(f"Your choices as {acting} (`pbem move GAME N` or the text):")
            for number, decision in enumerate(game.engine.choices(state, acting), start=1):
                lines.append(f"  {number}. {game.engine.format(decision)}")
        elif game.started:
            lines.append(f"`pbem ack {game.id[:12]}` to roll them.")
        else:
            lines.append(f"`pbem join {game.id[:12]}` to join.")
    return escape.terminal("\n".join(lines) + "\n")


def history_lines(game: Adjudicator) -> list[str]:
    """Every action in order with its events and rolls, then the RNG log of the save."""
    lines = [f"game {game.id} ({game.engine.name} {game.engine.version})"]
    for action in game.actions:
        rolled = f" (dice at seq {action.resolved_at})" if action.resolved_at is not None else ""
        turn = f" [turn {action.turn}]" if action.turn is not None else ""
        lines.append(f"seq {action.seq} {action.by}{turn}: {action.text}{rolled}")
        for record in action.rng:
            lines.append(f"    {record.line()}")
        for event in action.events:
            lines.append(f"    - {event.text}")
    outcome = game.outcome()
    lines.append(f"result: {outcome.text if outcome else 'unfinished'}")
    return [escape.terminal_line(line) for line in lines]
