"""The two messages a referee mails (pure: a game and addresses in, a message out).

* A player's turn: the entries that player has not been sent (the armored entries in
  the text body, as `pbem mail send` writes them: pbem.mail.compose) and that player's
  own turn page attached (HTML, rendered for that role only, without the entries block:
  they are in the body already, and one message carries each entry once).
* A reminder: text only, to the player the game waits for, with its deadline.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from typing import Unpack

from pbem import escape
from pbem.core.adjudicator import Adjudicator
from pbem.core.log import Entry
from pbem.mail.compose import (
    SUBJECT_TAG,
    Envelope,
    compose,
    game_title,
    new_message,
    set_body,
)
from pbem.refereeing.clock import Clock, stamp


def page_name(game: Adjudicator, role: str) -> str:
    return f"pbem-{game.id[:12]}-{role}-{game.head.seq}.html"


def turn_message(
    game: Adjudicator,
    role: str,
    entries: Sequence[Entry],
    *,
    thread: Sequence[str] = (),
    date: datetime | None = None,
    **envelope: Unpack[Envelope],
) -> EmailMessage:
    """`entries` of `game` for `role`'s player, with its own turn page attached."""
    from pbem.render.page import render_page

    message = compose(game, entries, thread=thread, date=date, **envelope)
    # The referee holds no player's secrets: the page is what the role's own view of the
    # public state shows (its hand stays on its own store's pages).
    html = render_page(game, role, entries=())
    message.add_attachment(html, subtype="html", filename=page_name(game, role))
    return message


def reminder_message(
    game: Adjudicator,
    role: str,
    clock: Clock,
    number: int,
    *,
    date: datetime | None = None,
    **envelope: Unpack[Envelope],
) -> EmailMessage:
    """Reminder `number` (1: half the time gone, 2: the last call) to `role`'s player."""
    title = escape.terminal_line(game_title(game))
    deadline = stamp(clock.deadline)
    what = "half your time has passed" if number == 1 else "your time is nearly up"
    message = new_message(
        game,
        f"{SUBJECT_TAG} {title} {game.id[:8]}: reminder, {role} is due by {deadline}",
        date=date,
        **envelope,
    )
    lines = [
        f"{title}, game {game.id[:12]}: the game waits for {role} ({what}).",
        "",
        f"Your entry after entry {game.head.seq} is due by {deadline} (UTC, by the referee's "
        f"clock: it saw entry {game.head.seq} at {stamp(clock.since)}; "
        f"{clock.hours} h per entry).",
        "After the deadline the referee may sign a forfeit: your side loses the game.",
        "",
        f"To play: `pbem play {game.id[:12]}`, then `pbem mail send {game.id[:12]}`.",
    ]
    set_body(message, "\n".join(lines) + "\n")  # (a title may not be ASCII)
    return message
