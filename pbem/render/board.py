"""What `pbem show` prints of a game besides its log: what a role is asked (`Asked`), the
role's view and the game's own text state (its board or gamesheet). The turn page shows
them too (pbem.render.page); they live apart from it so that `show` imports neither the
page nor the map (issue 29: a cold `show` pays for what it prints, nothing more)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pbem
from pbem.errors import PbemError
from pbem.record import Record

if TYPE_CHECKING:
    from pbem.core.adjudicator import Adjudicator
    from pbem.core.canonical import JSON


class Asked(Record, fields=("role", "notes", "choices", "hint")):
    """What a role of this store is asked now, as `pbem show` and the page list it.

    A frozen record (pbem.record): a @dataclass costs a `pbem show` the compiling of its
    methods."""

    role: str
    notes: tuple[str, ...]  # "your next entry rolls the waiting dice"
    choices: tuple[str, ...]  # numbered from 1, as `pbem move GAME N` takes them
    hint: str  # how to answer

    def __init__(
        self, role: str, notes: tuple[str, ...] = (), choices: tuple[str, ...] = (), hint: str = ""
    ) -> None:
        fields = self.__dict__
        fields["role"] = role
        fields["notes"] = notes
        fields["choices"] = choices
        fields["hint"] = hint


def role_view(game: Adjudicator, role: str | None, known: Mapping[str, JSON] | None) -> Any:
    """What `role` sees (None: the public); with `known`, its own sealed values too."""
    if game.state is None:
        return None
    if role is not None and known:
        return game.engine.view_known(game.state, role, known)
    return game.engine.view(game.state, role)


def templates_dir() -> Path:
    """templates/ inside the installed package, or beside it in a source checkout."""
    package = Path(pbem.__file__).resolve().parent
    for candidate in (package / "templates", package.parent / "templates"):
        if (candidate / "summary.txt.j2").is_file():
            return candidate
    raise PbemError("pbem's templates are missing from this installation")


def state_text(game: Adjudicator, view: Any, role: str | None = None) -> str:
    """The game's own text state (its gamesheet or board), as the text summary shows it
    (`role`: whose view it is, for a game's own reading of it, summary.game_report)."""
    from pbem.render.summary import _environment, game_report

    name = f"{game.engine.name}/state.txt.j2"
    if view is None or not (templates_dir() / name).is_file():
        return ""
    report = game_report(game.engine.name, view, role)
    return _environment("txt").get_template(name).render(view=view, report=report).strip("\n")


class Sealer(Protocol):
    """What seals a text under a role's private key and opens it again (the role's vault,
    pbem.store.vault.Vault): `open` raises for a text it did not seal."""

    def seal(self, name: str, plain: str) -> str: ...

    def open(self, name: str, stored: str) -> str: ...


SEALED_BOARD = "board-text"  # the name a kept board that shows secrets is sealed under


def kept_state_text(
    game: Adjudicator,
    view: Any,
    role: str | None,
    known: Mapping[str, JSON] | None,
    sealer: Sealer | None = None,
) -> str:
    """`state_text` as `pbem show` prints it, kept in the user's cache folder (pbem.cache),
    so that the next `show` of the same position need not load jinja2 and the game's
    report to write it again.

    Keyed by the game, its head's id (which fixes every entry before it: so the state, and
    the view a role gets from it) and the role; dependent on every pbem, jinja2 and
    markupsafe source file loaded when it was written (the engine's view, the game's
    report, the escaping) and on every template file. A view that shows any of the role's
    own sealed values (`known`: one that differs from the view without them) is kept only
    sealed by `sealer` (the role's vault, already open: so under the role's private key,
    as the store keeps the values themselves), with the view it was drawn from, and used
    only for that same view (the role's values may change while the head does not);
    without a sealer it is drawn every time."""
    if game.state is None:
        return state_text(game, view, role)
    if known and view != role_view(game, role, None):  # (it shows the role's secrets)
        return _sealed_state_text(game, view, role, sealer)
    from pbem import cache

    key = (game.id, game.head.id, role)
    found = cache.get("board", key)
    if isinstance(found, str):
        return found
    text = state_text(game, view, role)
    cache.put("board", key, _board_deps(), text)
    return text


def _board_deps() -> tuple[tuple[str, int, int], ...] | None:
    from pbem import cache

    sources = [cache.module_files(name) for name in ("pbem", "jinja2", "markupsafe")]
    templates = [str(path) for path in templates_dir().rglob("*") if path.is_file()]
    return cache.deps_of([*sum(sources, []), *templates])


def _sealed_state_text(
    game: Adjudicator, view: Any, role: str | None, sealer: Sealer | None
) -> str:
    """`state_text` of a view that shows the role's secrets: kept sealed (kept_state_text)."""
    if sealer is None:
        return state_text(game, view, role)
    import json

    from pbem import cache

    try:  # the view, in a form that tells any two different views apart
        drawn_from = json.dumps(view, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return state_text(game, view, role)
    key = (game.id, game.head.id, role, SEALED_BOARD)
    found = cache.get("board", key)
    if isinstance(found, str):
        try:
            kept_view, text = json.loads(sealer.open(SEALED_BOARD, found))
        except (PbemError, ValueError, TypeError):  # (damaged, or sealed under another key)
            kept_view, text = None, None
        if kept_view == drawn_from and isinstance(text, str):
            return text
    text = state_text(game, view, role)
    sealed = sealer.seal(SEALED_BOARD, json.dumps([drawn_from, text], ensure_ascii=False))
    cache.put("board", key, _board_deps(), sealed)
    return text
