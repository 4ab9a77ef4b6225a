"""What `pbem referee status` says of each refereed game: whom it waits for and since
when, its deadline, the reminders sent, where each player gets mail and what it was sent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.core.referee import REFEREE
from pbem.refereeing.clock import Clock, read_stamp

if TYPE_CHECKING:
    from pbem.client import Client


def status_lines(client: Client, game_id: str) -> list[str]:
    """The lines for one game (unescaped: the title comes from the log)."""
    game = client.game(game_id)
    title = str(game.genesis.body.get("title") or game.engine.title)
    lines = [f"game {game_id[:12]} ({game.engine.name}, {title!r}), head seq {game.head.seq}"]
    outcome = game.outcome()
    asked = game.next_signer()
    row = client.referee_clock(game_id)
    if outcome is not None:
        lines.append(f"  over: {outcome.text}")
    elif not game.started:
        lines.append(f"  not started: waits for {asked} to join")
    elif asked == REFEREE:
        lines.append("  waits for the referee (its next round signs it)")
    else:
        lines.append(f"  waits for {asked}")
    if game.deadline is None:
        lines.append("  no deadline (no deadline_hours in the genesis): no reminders, no forfeit")
    elif row is not None and row[0] == game.head.seq and outcome is None:
        clock = Clock(read_stamp(row[1]), game.deadline)
        lines.append(f"  {clock.line()} ({game.deadline} h per entry)")
        lines.append(f"  reminders sent: {row[2]} of 2")
    elif outcome is None:
        lines.append(f"  {game.deadline} h per entry; the clock starts at the referee's next round")
    addresses = client.player_addresses(game_id)
    for role in game.roles:
        if role == REFEREE:
            continue
        where = addresses.get(role, "no address (`pbem referee player`)")
        mailed = client.referee_mailed(game_id, role)
        sent = "nothing mailed yet" if mailed < 0 else f"mailed up to seq {mailed}"
        lines.append(f"  {role}: {where}, {sent}")
    return lines
