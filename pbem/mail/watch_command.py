"""`pbem mail watch`: answer by mail, unattended, what needs no person (pbem.play.watch)."""

from __future__ import annotations

import click

from pbem.mail.options import config_option


@click.command("watch")
@click.argument("games", metavar="[GAME]...", nargs=-1)
@config_option()
@click.option(
    "--interval",
    type=click.FloatRange(min=1),
    default=300,
    show_default=True,
    help="Seconds between two looks at the mailbox.",
)
@click.option("--once", is_flag=True, help="Look once, answer, send, and stop (for cron).")
@click.pass_context
def watch(
    ctx: click.Context,
    games: tuple[str, ...],
    config_path: str | None,
    interval: float,
    once: bool,
) -> None:
    """Fetch your mail, sign the answers that need no person (dice acknowledgements, only
    choices, your standing orders: `pbem orders`) and mail them, again every INTERVAL
    seconds, for every GAME (default: every game in the store). It never makes a real
    decision: those wait for `pbem play` or `pbem move`. Stop it with Ctrl-C."""
    import time

    from pbem.cli.app import _client
    from pbem.errors import PbemError
    from pbem.mail.mailer import Mailer
    from pbem.play import watch as watch_loop
    from pbem.render.escape import terminal_line

    client = _client(ctx)
    mailer = Mailer.configured(client, config_path)
    if mailer is None:
        raise PbemError(
            "mail watch needs a mail configuration that can send ([smtp], address) and "
            "read ([imap], [maildir] or [mbox]); see the README"
        )
    ids = [client.store.find_game(g) for g in games] or [
        str(row["id"]) for row in client.store.games()
    ]

    def say(line: str) -> None:
        click.echo(terminal_line(line))

    try:
        watch_loop(client, ids, mailer, say, time.sleep, interval, 1 if once else None)
    except KeyboardInterrupt:
        say("stopped")
