"""The mail `pbem mail send` sends: a human summary above the move file, threaded per game.

Pure: a game (replayed from its public entries), the entries to send and the addresses
in, an EmailMessage out; nothing here reads the store or the network. The summary uses
only what the entries and the public game state show (decisions as signed, the events
and dice of the adjudicator's replay, who is asked next), never a store's secrets: the
adjudicator never sees them, and nothing here is given them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import NotRequired, TypedDict, Unpack

from pbem import escape
from pbem.core.adjudicator import Action, Adjudicator
from pbem.core.log import JOIN, MOVE, Entry
from pbem.errors import PbemError
from pbem.transport.savefile import human_line, move_file

SUBJECT_TAG = "[pbem]"
REFERENCES_TAIL = 4  # References: the thread's root and up to this many of its last messages
GAME_HEADER = "X-Pbem-Game"
_MESSAGE_ID = re.compile(r"<[!-;=?-~]+>")  # printable ASCII, no spaces or angle brackets


class ComposeError(PbemError):
    """A message that cannot be built (no entries, a bad address)."""


class Envelope(TypedDict):
    """Who a message is from and to: the keyword arguments every message here takes
    (`sender` and `to`: addresses; `sender_name`: the From header's display name)."""

    sender: str
    to: str
    sender_name: NotRequired[str | None]


def game_title(game: Adjudicator) -> str:
    return str(game.genesis.body.get("title") or game.engine.title)


def subject(game: Adjudicator, entries: Sequence[Entry]) -> str:
    """`[pbem] <title> <first 8 hex of the game id> #<seq of the last entry sent>`, the
    title on one line and escaped (it comes from the log; a header is read in terminals)."""
    title = escape.terminal_line(game_title(game))
    return f"{SUBJECT_TAG} {title} {game.id[:8]} #{entries[-1].seq}"


def bracketed(message_id: str) -> str:
    """A Message-ID in angle brackets, as headers carry it."""
    value = message_id.strip()
    return value if value.startswith("<") else f"<{value}>"


def thread_headers(thread: Sequence[str]) -> tuple[str | None, str | None]:
    """(In-Reply-To, References) for a new message in a thread (oldest message first).

    In-Reply-To is the thread's last message; References its root and its last few,
    without repeats, oldest first (RFC 5322 section 3.6.4, trimmed as mail clients do).
    """
    ids = [bracketed(m) for m in thread if m.strip()]
    ids = [m for m in ids if _MESSAGE_ID.fullmatch(m)]  # a received id may be damaged
    if not ids:
        return None, None
    chosen: list[str] = []
    for message_id in [ids[0], *ids[-REFERENCES_TAIL:]]:
        if message_id not in chosen:
            chosen.append(message_id)
    return ids[-1], " ".join(chosen)


def _action_lines(action: Action, indent: str) -> list[str]:
    lines = [f"{indent}{record.line()}" for record in action.rng]
    lines += [f"{indent}- {event.text}" for event in action.events]
    return lines


def summary_lines(game: Adjudicator, entries: Sequence[Entry]) -> list[str]:
    """Per entry: its human line, then the events and dice it produced in the game.

    An entry's own decision, when it needed no dice, produces its events at once; a
    decision that needs dice waits for another role's reveal, and the events and rolls
    then belong to the entry whose reveal produced them.
    """
    lines: list[str] = []
    for entry in entries:
        lines.append(human_line(entry))
        if entry.kind == JOIN:
            continue
        own = [a for a in game.actions if a.seq == entry.seq]
        for action in own:
            if action.resolved_at is None:
                lines += _action_lines(action, "    ")
            else:
                lines.append(f"    (its dice were rolled by seq {action.resolved_at})")
        if entry.kind == MOVE and not own:
            lines.append("    (its dice wait for the next entry of another role)")
        for action in game.actions:
            if action.resolved_at == entry.seq:
                lines.append(
                    f"    rolls the dice of seq {action.seq} by {action.by}: {action.text}"
                )
                lines += _action_lines(action, "      ")
    return lines


def _state_line(game: Adjudicator) -> str:
    outcome = game.outcome()
    if outcome is not None:
        return f"Result: {outcome.text}"
    asked = sorted({p.role for p in game.prompts()})
    if game.waiting_for_entropy and not asked:
        return "Now: waiting for dice."
    return f"Now: waiting for {', '.join(asked) or 'nobody'}."


def body_text(game: Adjudicator, entries: Sequence[Entry]) -> str:
    """The summary, a line on how to apply, then the move file; escaped for a terminal
    (text mail is often read in one), which leaves the armor as it is."""
    first, last = entries[0].seq, entries[-1].seq
    span = f"entry {first}" if first == last else f"entries {first} to {last}"
    title = game_title(game)
    if title != game.engine.title:
        title = f"{title} ({game.engine.title})"
    lines = [
        f"{title}, game {game.id[:12]}: {span}",
        "",
        *summary_lines(game, entries),
        "",
        _state_line(game),
        "",
        "To apply: `pbem mail fetch`, or save this mail and run `pbem apply FILE`.",
        "Everything below is checked by pbem; the lines above are only a summary.",
        "",
        move_file(entries),
    ]
    return escape.terminal("\n".join(lines) + "\n")


def mail_address(address: str, name: str | None = None) -> Address:
    """An address header value, refused in one line unless it looks like an address."""
    local, at, domain = address.strip().rpartition("@")
    if not at or not local or not domain or any(c.isspace() for c in address.strip()):
        raise ComposeError(f"{address!r} is not an email address")
    return Address(display_name=name or "", username=local, domain=domain)


def compose(
    game: Adjudicator,
    entries: Sequence[Entry],
    *,
    thread: Sequence[str] = (),
    date: datetime | None = None,
    message_id: str | None = None,
    **envelope: Unpack[Envelope],
) -> EmailMessage:
    """The message carrying `entries` of `game` from `sender` to `to` (the `envelope`).

    `thread` holds the Message-IDs of the game's earlier messages, sent and received,
    oldest first. The Message-ID is made with the sender's domain unless given.
    """
    if not entries:
        raise ComposeError("no entries to send")
    entries = sorted(entries, key=lambda e: e.seq)
    message = new_message(
        game, subject(game, entries), date=date, message_id=message_id, thread=thread, **envelope
    )
    set_body(message, body_text(game, entries))
    return message


def new_message(
    game: Adjudicator,
    subject_line: str,
    *,
    date: datetime | None = None,
    message_id: str | None = None,
    thread: Sequence[str] = (),
    **envelope: Unpack[Envelope],
) -> EmailMessage:
    """A message about `game` with its headers and no body yet: From, To, Date, Subject,
    a Message-ID (made with the sender's domain unless given), the thread's In-Reply-To
    and References, and the game header."""
    origin = mail_address(envelope["sender"], envelope.get("sender_name"))
    message = EmailMessage()
    message["From"] = origin
    message["To"] = mail_address(envelope["to"])
    message["Date"] = format_datetime(date or datetime.now(UTC))
    message["Subject"] = subject_line
    message["Message-ID"] = bracketed(message_id or make_msgid(domain=origin.domain))
    reply_to, references = thread_headers(thread)
    if reply_to is not None and references is not None:
        message["In-Reply-To"] = reply_to
        message["References"] = references
    message[GAME_HEADER] = game.id
    return message


def set_body(message: EmailMessage, body: str) -> None:
    """The plain-text body: 7bit when it can be (readable as is), quoted-printable
    otherwise, so that the message is ASCII for any server (no 8BITMIME needed) and stays
    mostly readable."""
    plain = body.isascii() and all(len(line) <= 998 for line in body.splitlines())
    message.set_content(
        body, subtype="plain", charset="utf-8", cte="7bit" if plain else "quoted-printable"
    )
