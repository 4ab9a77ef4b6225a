"""The text of `pbem show GAME` kept whole in the user's cache folder (pbem.cache), so that
showing a position shown before reads two rows of the store and one file: no click, no
sqlite-utils, no rules, no replay (pbem.cli's fast path; issue 29).

What the text depends on, and so the key it is kept under:
- the store (its home folder, resolved) and the game's id;
- the game's head (seq and id) as the store holds it: an entry's id is the hash of its
  bytes, which name the previous entry's id, so the head fixes the whole log, and with
  it the state, the board, the outcome, the prompts, the roles and the actions;
- the role asked for (None: this store's first role);
- the store's keys (name, public line, private key path): which roles are this store's
  (`(you)`, whose view, what they are asked);
- the count of the game's sealed secrets in the store, which must be 0 (below);
and, as dependencies, every loaded pbem, jinja2 and markupsafe source file, every
template (like the board memo, pbem.render.board) and every file of the rules' folder
when it was written.

Only a text that holds nothing beyond what the store keeps in the clear is written:
never one of a game whose store holds a sealed secret of any role (a hand, a hidden
value, what `Client.known` opens with the role's key), never one of a double-blind game
(what the referee dealt a role), never one where a role of this store is asked while
dice wait for its reveal (its choices would show dice that only its key rolls). Those
are shown the long way every time, as is everything but `pbem show GAME` itself.
"""

from __future__ import annotations

import os

from pbem import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from typing import Any

    from pbem.client import Client
    from pbem.core.adjudicator import Adjudicator

KIND = "show"
_SEALED = "sealed:"  # pbem.signing.SEALED (not imported: it loads the whole client)


def _key(
    conn: sqlite3.Connection, home: str, game_id: str, head: tuple[int, str], role: str | None
) -> tuple[Any, ...] | None:
    """The key of the text shown of `game_id` at `head` for `role`, or None when the store
    holds a sealed secret of the game (such a text is never kept)."""
    (sealed,) = conn.execute(
        "SELECT count(*) FROM secrets WHERE game = ? AND substr(kind, 1, ?) = ?",
        (game_id, len(_SEALED), _SEALED),
    ).fetchone()
    if sealed:
        return None
    keys = conn.execute("SELECT name, public, private_path FROM keys ORDER BY name").fetchall()
    return (
        os.path.realpath(home),
        game_id,
        int(head[0]),
        str(head[1]),
        role,
        tuple(tuple(str(value) for value in row) for row in keys),
    )


def _deps(game: Adjudicator) -> tuple[tuple[str, int, int], ...] | None:
    """Every loaded pbem, jinja2 and markupsafe source, every template, and every file of
    the rules' own folder (the data files a game's labels are read from)."""
    import sys
    from pathlib import Path

    from pbem.render.board import templates_dir

    sources = [cache.module_files(name) for name in ("pbem", "jinja2", "markupsafe")]
    files = [path for path in templates_dir().rglob("*") if path.is_file()]
    rules = getattr(sys.modules.get(type(game.engine).__module__), "__file__", None)
    if not isinstance(rules, str):
        return None
    files += [path for path in Path(rules).parent.rglob("*") if path.suffix != ".pyc"]
    return cache.deps_of([*sum(sources, []), *(str(path) for path in files if path.is_file())])


def keep(client: Client, game: Adjudicator, role: str | None, text: str) -> None:
    """Keep `text`, what `show_text(client, game, role)` gave, when it may be kept (see
    the module's docstring); failing to is never an error."""
    if cache.folder() is None or game.double_blind:
        return
    if game.waiting_for_entropy and any(game.asked(r) for r in client.my_roles(game)):
        return
    conn = client.store.conn
    key = _key(conn, str(client.store.home), game.id, (game.head.seq, game.head.id), role)
    if key is not None:
        cache.put(KIND, key, _deps(game), text)


def shown(client: Client, prefix: str, role: str | None = None, history: bool = False) -> str:
    """`pbem show PREFIX` (`--role`, `--history`) the long way: the stored game replayed
    (from its snapshot), its text, kept when it may be (`keep`). The click command and
    pbem.cli's fast path both show a game with this."""
    from pbem.render.show import show_text

    game = client.game(prefix)
    text = show_text(client, game, role, history)
    if not history:
        keep(client, game, role, text)
    return text


def _game_id(conn: sqlite3.Connection, prefix: str) -> str | None:
    """The one game whose id starts with `prefix` (as Store.find_game finds it), else None
    (no such game, several, or not a game id: the long way says which)."""
    prefix = prefix.strip().lower()
    if not prefix or any(c not in "0123456789abcdef" for c in prefix):
        return None
    ids = conn.execute("SELECT id FROM games WHERE id LIKE ?", (prefix + "%",)).fetchall()
    return str(ids[0][0]) if len(ids) == 1 else None


def kept(home: str, prefix: str, role: str | None = None) -> str | None:
    """The text kept for `pbem show PREFIX` (`--role ROLE`) in the store at `home` while
    nothing it depends on changed, else None. Never writes to the store, nor makes it."""
    import sqlite3

    path = os.path.join(home, "store.db")
    if cache.folder() is None or not os.path.isfile(path):
        return None
    try:
        conn = sqlite3.connect(path)
        try:
            game_id = _game_id(conn, prefix)
            if game_id is None:
                return None
            head = conn.execute(
                "SELECT seq, id FROM entries WHERE game = ? ORDER BY seq DESC LIMIT 1", (game_id,)
            ).fetchone()
            key = None if head is None else _key(conn, home, game_id, head, role)
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    if key is None:
        return None
    text = cache.get(KIND, key)
    return text if isinstance(text, str) else None
