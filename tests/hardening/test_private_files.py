"""A player's own secrets never land in a file others can read.

Issue 11, item 8. Every file the CLI writes, by what it holds:

* `pbem render` of one of the store's own roles (its hand, its sealed values "known only
  to you"): private, created 0600 whatever the umask, and an existing file made 0600;
* `pbem render` of the public view or another role's, forum posts (`--format markdown`,
  `bbcode`), `pbem export` (a save), move files (`new`, `join`, `move`, `ack`, `export
  --since`): public (they go to the opponent or a forum), so the umask's mode, or the
  mode the file already had;
* the store and key files: 0600 already (tests/cli, tests/hardening/test_secret_scan.py).
  `pbem mail send --dry-run` prints, and writes no file.

A real Race to Berlin game between two stores, played by bots until one role holds a
sealed block, then the CLI of that role's store.
"""

from __future__ import annotations

import os
import random
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.bots import choose
from pbem.cli import main
from pbem.client import Client
from pbem.ledger import engine_by_name
from pbem.store import Store
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries

RULES = "race-to-berlin"


@pytest.fixture
def loose_umask() -> Iterator[None]:
    """A umask that lets anyone read what is created: the mode must not depend on it."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def cli(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args])


def sealed_game(tmp_path: Path) -> tuple[dict[str, Client], str, str]:
    """Stores of both roles; play until a role holds a sealed value. (clients, game, role)"""
    engine = engine_by_name(RULES)
    first, second = engine.roles[0], engine.roles[1]
    clients = {role: Client(Store(tmp_path / role)) for role in (first, second)}
    for role, client in clients.items():
        client.new_key(role)
    clients[first].import_key(second, tmp_path / second / "keys" / f"{second}.pub")
    game, made = clients[first].new_game(RULES, first, {first: first, second: second})

    def send(author: str, entries: list) -> None:  # type: ignore[type-arg]
        for role, client in clients.items():
            if role != author:
                client.apply_entries(parse_entries(move_file(entries)))

    send(first, made)
    send(second, clients[second].join(game))
    rng = random.Random(3)
    for _ in range(400):
        for role, client in clients.items():
            if client.known(game, role):
                return clients, game, role
        adjudicator = clients[first].game(game)
        role = adjudicator.prompts()[0].role
        client = clients[role]
        state = client.state_for(client.game(game), role)
        state = engine.with_secrets(state, role, client.known(game, role))
        if any(p.role == role for p in engine.prompts(state)):
            entry = client.move(game, engine.format(choose(engine, state, role, rng)), role)
        else:
            entry = client.ack(game, role)
        send(role, [entry])
    pytest.fail("no sealed value in 400 entries")


def test_own_view_files_are_owner_only_and_public_files_keep_the_usual_mode(
    tmp_path: Path, loose_umask: None
) -> None:
    clients, game, role = sealed_game(tmp_path)
    home = tmp_path / role
    short = game[:12]
    out = tmp_path / "out"
    out.mkdir()

    # The role's own view: its sealed block is in it, and so the file is private.
    own = out / "own.txt"
    result = cli(home, "render", short, "-o", str(own))
    assert result.exit_code == 0, result.output
    assert "known only to you" in own.read_text()
    assert mode(own) == 0o600
    named = out / "named.txt"
    assert cli(home, "render", short, "--role", role, "-o", str(named)).exit_code == 0
    assert mode(named) == 0o600

    # An existing, readable file that gets a private view is made owner-only.
    existing = out / "existing.txt"
    existing.write_text("old\n")
    existing.chmod(0o644)
    assert cli(home, "render", short, "-o", str(existing)).exit_code == 0
    assert "known only to you" in existing.read_text()
    assert mode(existing) == 0o600

    # Public files keep the umask's mode (or the one they had).
    public = {
        "public.txt": ("render", short, "--role", "public"),
        "post.md": ("render", short, "--format", "markdown"),
        "post.bbcode": ("render", short, "--format", "bbcode", "--role", role),
        "save.pbem": ("export", short),
        "moves.txt": ("export", short, "--since", "1"),
    }
    for name, args in public.items():
        path = out / name
        result = cli(home, *args, "-o", str(path))
        assert result.exit_code == 0, (name, result.output)
        assert "known only to you" not in path.read_text(), name
        assert mode(path) == 0o644, name
    kept = out / "kept.pbem"
    kept.write_text("")
    kept.chmod(0o640)
    assert cli(home, "export", short, "-o", str(kept)).exit_code == 0
    assert mode(kept) == 0o640


def test_own_view_is_private_under_the_most_open_umask(tmp_path: Path) -> None:
    clients, game, role = sealed_game(tmp_path)
    old = os.umask(0)
    try:
        own = tmp_path / "own.txt"
        assert cli(tmp_path / role, "render", game[:12], "-o", str(own)).exit_code == 0
        public = tmp_path / "public.txt"
        assert (
            cli(
                tmp_path / role, "render", game[:12], "--role", "public", "-o", str(public)
            ).exit_code
            == 0
        )
    finally:
        os.umask(old)
    assert mode(own) == 0o600
    assert mode(public) == 0o666
