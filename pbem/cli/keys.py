"""`pbem key`: make, import, list and remove the Ed25519 keys of this store (pbem.client)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from pbem.cli.common import client_of, say


@click.group()
def key() -> None:
    """Make, import, list and remove Ed25519 keys."""


NO_PASSPHRASE_NOTE = (
    "A passphrase encrypts the key file; without one, anyone who copies it (a backup of "
    "the store folder) can sign as you and open your sealed orders. Empty for none."
)


@key.command("new")
@click.argument("name")
@click.option(
    "--passphrase/--no-passphrase",
    "protect",
    default=None,
    help="Protect the key with a passphrase (from a prompt or PBEM_PASSPHRASE), or not. "
    "Default: asked at a terminal, none otherwise.",
)
@click.pass_context
def key_new(ctx: click.Context, name: str, protect: bool | None) -> None:
    """Make an Ed25519 OpenSSH key pair NAME (file mode 0600)."""
    phrase = None
    if protect:
        phrase = (
            os.environ.get("PBEM_PASSPHRASE")
            or click.prompt("passphrase", hide_input=True, confirmation_prompt=True)
        ).encode()
    elif protect is None and _at_a_terminal() and os.environ.get("PBEM_PASSPHRASE") is None:
        # Offered, never forced: an empty answer (twice) keeps today's unencrypted key.
        say(NO_PASSPHRASE_NOTE, err=True)
        typed = click.prompt(
            f"passphrase for key {name}",
            hide_input=True,
            confirmation_prompt=True,
            default="",
            show_default=False,
        )
        phrase = typed.encode() or None
    client = client_of(ctx)
    click.echo(client.new_key(name, phrase))
    # Standard output keeps the fingerprint line alone; what to send goes to stderr.
    row = client.key_row(name)
    say(f"send your opponent {client.key_file(row)}.pub, this line: {row['public']}", err=True)


def _at_a_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


@key.command("import")
@click.argument("name")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--public",
    "public_only",
    is_flag=True,
    help="From a private key file, import only its public half.",
)
@click.option(
    "--agent",
    is_flag=True,
    help="Your own key, held by ssh-agent (SSH_AUTH_SOCK), which signs: PATH is its key "
    "file (no passphrase asked) or its .pub line (no key file needed).",
)
@click.pass_context
def key_import(ctx: click.Context, name: str, path: str, public_only: bool, agent: bool) -> None:
    """Import an OpenSSH private key (your own, for signing) or an opponent's public-key
    line as NAME."""
    client = client_of(ctx)
    say(client.import_key(name, Path(path), public_only, agent))
    row = client.key_row(name)
    if row["private_path"] and client.key_location(row) == "agent":
        say(f"imported {name}: your own key, signed by ssh-agent", err=True)
    elif row["private_path"]:
        say(f"imported {name}: your own key, for signing (the file stays at {path})", err=True)
    else:
        say(f"imported {name}: an opponent's public key", err=True)


@key.command("rm")
@click.argument("name")
@click.option("--force", is_flag=True, help="Remove it even if a stored game uses it.")
@click.option(
    "--delete-file",
    is_flag=True,
    help="Also delete the key files `pbem key new` made under the store's keys/ folder.",
)
@click.pass_context
def key_rm(ctx: click.Context, name: str, force: bool, delete_file: bool) -> None:
    """Forget the key NAME (the store's row; a key file it did not make is never deleted)."""
    for line in client_of(ctx).remove_key(name, force, delete_file):
        say(line, err=True)


@key.command("list")
@click.pass_context
def key_list(ctx: click.Context) -> None:
    """List keys: name, fingerprint, where the private half is (private: its key file;
    agent: ssh-agent signs; missing: neither; public: an opponent's key), and its file."""
    client = client_of(ctx)
    for row in client.key_rows():
        private = client.key_file(row)
        where = client.key_location(row)
        if private is not None and where == "agent" and not private.exists():
            private = None  # held by the agent alone: no key file to name
        say(f"{row['name']}\t{row['fingerprint']}\t{where}" + (f"\t{private}" if private else ""))


COMMANDS = (key,)
