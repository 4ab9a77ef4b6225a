"""What a referee's round needs of a game it had nothing to do in, so that the next round
leaves it unreplayed while its head stays the same (a league keeps hundreds of games, and
most wait on a player for days).

After a round of a game in which the referee's settling ended with nothing owed (no entry
to sign, none held to apply) and nothing changed the head since, the round records the
head (seq, id) with these facts of the game at it (`facts`):

    asked     the role the deadline runs for, None when no clock runs (no deadline, not
              started, over, or the referee itself is asked: Referee.clock)
    deadline  the genesis's hours per entry
    news      per player, the seq of the last entry not its own (what `deliver` mails)

The next round uses them only while the store's head is that very entry and the inbox
holds nothing of the game, and only to find that there is still nothing to do: a
reminder or a forfeit due, or entries to mail, and the round goes the whole way (replay
and all). What settling owes depends beside the log only on the store's keys, the
game's secrets and its standing orders; changing any of them forgets the record
(pbem.store.Store).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pbem.core.referee import REFEREE

if TYPE_CHECKING:
    from pbem.core.adjudicator import Adjudicator


def asked_on_clock(game: Adjudicator) -> str | None:
    """The role whose deadline runs at the game's head, or None (see Referee.clock)."""
    asked = game.next_signer()
    if (
        game.deadline is None
        or not game.started
        or game.outcome() is not None
        or asked is None
        or asked == REFEREE
    ):
        return None
    return str(asked)


def facts(game: Adjudicator) -> str:
    """The facts of the game at its head, as the store keeps them (JSON)."""
    news: dict[str, int] = {}
    for role in game.roles:
        if role == REFEREE:
            continue
        last = -1
        for entry in reversed(game.entries):
            if entry.by != role:
                last = entry.seq
                break
        news[role] = last
    found: dict[str, Any] = {"asked": asked_on_clock(game), "deadline": game.deadline, "news": news}
    return json.dumps(found, sort_keys=False)


def read(text: str) -> tuple[str | None, int | None, dict[str, int]] | None:
    """(asked, deadline, news) from a record, or None when it does not read as one."""
    try:
        found = json.loads(text)
        asked, deadline, news = found["asked"], found["deadline"], found["news"]
        if asked is not None and not isinstance(asked, str):
            return None
        if deadline is not None and not isinstance(deadline, int):
            return None
        if not isinstance(news, dict):
            return None
        return asked, deadline, {str(role): int(seq) for role, seq in news.items()}
    except (ValueError, KeyError, TypeError):
        return None
