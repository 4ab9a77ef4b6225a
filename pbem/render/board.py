"""What `pbem show` prints of a game besides its log: what a role is asked (`Asked`), the
role's view and the game's own text state (its board or gamesheet). The turn page shows
them too (pbem.render.page); they live apart from it so that `show` imports neither the
page nor the map (issue 29: a cold `show` pays for what it prints, nothing more)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


def kept_state_text(
    game: Adjudicator, view: Any, role: str | None, known: Mapping[str, JSON] | None
) -> str:
    """`state_text` as `pbem show` prints it, kept in the user's cache folder (pbem.cache)
    for a view that holds no secret of the role's own, so that the next `show` of the same
    position need not load jinja2 and the game's report to write it again.

    Keyed by the game, its head's id (which fixes every entry before it: so the state, and
    the view a role gets from it) and the role; dependent on every pbem, jinja2 and
    markupsafe source file loaded when it was written (the engine's view, the game's
    report, the escaping) and on every template file. A view that shows any of the role's
    own sealed values (`known`: one that differs from the view without them) is rendered
    every time and never written to a file."""
    if game.state is None:
        return state_text(game, view, role)
    if known and view != role_view(game, role, None):
        return state_text(game, view, role)  # (it shows the role's secrets)
    from pbem import cache

    key = (game.id, game.head.id, role)
    found = cache.get("board", key)
    if isinstance(found, str):
        return found
    text = state_text(game, view, role)
    sources = [cache.module_files(name) for name in ("pbem", "jinja2", "markupsafe")]
    templates = [str(path) for path in templates_dir().rglob("*") if path.is_file()]
    cache.put("board", key, cache.deps_of([*sum(sources, []), *templates]), text)
    return text
