"""The `pbem referee` command group; each subcommand lives with the code it drives.

Loaded only when used (like `pbem mail`), so `pbem --help` stays quick.
"""

from __future__ import annotations

import click

from pbem.lazy_group import LazyGroup

SUBCOMMANDS = {
    "disclose": "pbem.refereeing.disclose_command:disclose",
    "player": "pbem.refereeing.player_command:player",
    "run": "pbem.refereeing.run_command:run",
    "status": "pbem.refereeing.status_command:status",
}


@click.group(cls=LazyGroup, subcommands=SUBCOMMANDS)
def referee() -> None:
    """Referee games unattended: dice, deadlines, forfeits and each player's mail."""
