"""Shell completion of game ids (click's `shell_complete=` for GAME arguments).

`eval "$(_PBEM_COMPLETE=bash_source pbem)"` (README: Scripting) makes the shell ask
`pbem` for completions; click parses the words typed so far and calls `complete_game`
for a GAME argument. The ids come from the store's `games` table, read directly and
read-only: completing never creates a store (no folder, no store.db), and an absent or
unreadable store completes nothing rather than failing. Imports stay inside the
functions: the commands (pbem.cli.options) import this module for every command.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import click
    from click.shell_completion import CompletionItem

# As `pbem show` lists them: a game is named by the first 12 hex digits of its id.
SHORT = 12


def store_home(ctx: click.Context) -> Path:
    """The store folder the command would use: `pbem --home`, else PBEM_HOME (click puts
    it in the root's --home while parsing), else the default (pbem.store.default_home)."""
    home = ctx.find_root().params.get("home")
    if home:
        return Path(home)
    from pbem.store.store import default_home  # (imports sqlite-utils: only when needed)

    return default_home()


def stored_games(home: Path) -> list[tuple[str, str, str]]:
    """(id, rules, title) of every stored game, oldest first; [] without a readable store."""
    import sqlite3

    path = home / "store.db"
    if not path.is_file():
        return []
    try:
        # mode=ro: never creates the file, never writes (the store may be busy: it waits
        # briefly, then completes nothing).
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.5)
        try:
            rows = db.execute("SELECT id, rules, title FROM games ORDER BY rowid").fetchall()
        finally:
            db.close()
    except sqlite3.Error:
        return []
    return [(str(i), str(r), str(t)) for i, r, t in rows]


def game_ids(home: Path, incomplete: str) -> list[tuple[str, str]]:
    """(id to insert, help) for the stored games whose id starts with `incomplete`: the
    12-digit id `pbem show` lists, or the full id when 12 digits name several games or
    more than 12 were typed."""
    prefix = incomplete.strip().lower()
    games = stored_games(home)
    shorts: dict[str, int] = {}
    for game_id, _, _ in games:
        shorts[game_id[:SHORT]] = shorts.get(game_id[:SHORT], 0) + 1
    found = []
    for game_id, rules, title in games:
        if not game_id.startswith(prefix):
            continue
        short = game_id[:SHORT]
        value = short if len(prefix) <= SHORT and shorts[short] == 1 else game_id
        found.append((value, f"{rules}: {title}" if title else rules))
    return found


def complete_game(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Complete a GAME argument with stored game ids."""
    from click.shell_completion import CompletionItem

    try:
        found = game_ids(store_home(ctx), incomplete)
    except OSError:
        return []
    return [CompletionItem(value, help=text) for value, text in found]


def complete_game_or_file(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Complete an argument that is a stored game or a file (a save): game ids while
    some stored id starts with what was typed, else the shell's own file completion."""
    from click.shell_completion import CompletionItem

    found = complete_game(ctx, param, incomplete)
    return found or [CompletionItem(incomplete, type="file")]
