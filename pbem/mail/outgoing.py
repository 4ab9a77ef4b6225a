"""Mailing a game's entries not mailed yet (`pbem mail send`, `pbem play`, `pbem mail watch`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from pbem.client import Client


def send_pending(
    client: Client,
    game: str,
    to: str | None = None,
    config_path: str | None = None,
    dry_run: bool = False,
) -> str:
    """Mail GAME's entries of this store not mailed yet (the message itself on stdout
    with `dry_run`); returns the line that says what was sent. Refused in one line when
    there is nothing to send, no address or no SMTP server."""
    from pbem.errors import PbemError
    from pbem.mail.compose import compose
    from pbem.mail.config import MailConfigError, load_config

    adjudicator = client.game(game)
    game_id = adjudicator.id
    mine = set(client.my_roles(adjudicator))
    mailed = client.mailed_seqs(game_id)
    pending = [e for e in adjudicator.entries if e.by in mine and e.seq not in mailed]
    if not pending:
        raise PbemError(
            f"nothing to send in game {game_id[:12]}: every entry of yours has been mailed "
            f"(to send one again: `pbem export {game_id[:12]} --since SEQ`)"
        )
    address = (to or "").strip() or client.peer(game_id)
    if not address:
        raise PbemError(f"no address for game {game_id[:12]}: give --to ADDRESS (it is remembered)")

    config = load_config(client.home, config_path)
    if config.address is None:
        raise MailConfigError(f"{config.path}: set address (your From address) to send mail")
    if config.smtp is None and not dry_run:
        raise MailConfigError(f"{config.path}: no [smtp] section: nowhere to send mail")

    thread = [str(row["message_id"]) for row in client.mail_thread(game_id)]
    message = compose(
        adjudicator,
        pending,
        sender=config.address,
        sender_name=config.name,
        to=address,
        thread=thread,
    )
    first, last = pending[0].seq, pending[-1].seq
    span = f"entry {first}" if first == last else f"entries {first} to {last}"
    if dry_run:
        click.echo(message.as_string(), nl=False)
        return f"dry run: {span} of game {game_id[:12]} not sent, nothing recorded"

    from pbem.mail.smtp import send as smtp_send

    assert config.smtp is not None
    smtp_send(config.smtp, message, config.address, [address])
    client.record_sent(str(message["Message-ID"]), game_id, first, last, address)
    line = f"sent {span} of game {game_id[:12]} to {address} ({message['Message-ID']})"
    # SMTP keeps no copy: filed in the user's sent mail, where `pbem mail fetch` relearns
    # it after a whole-machine restore (pbem.mail.sent). The message is sent either way.
    from pbem.mail.sent import file_sent

    filed = file_sent(config, message)
    return f"{line}; {filed}" if filed else line
