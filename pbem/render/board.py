"""What `pbem show` prints of a game besides its log: what a role is asked (`Asked`), the
role's view and the game's own text state (its board or gamesheet). The turn page shows
them too (pbem.render.page); they live apart from it so that `show` imports neither the
page nor the map (issue 29: a cold `show` pays for what it prints, nothing more)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.core.adjudicator import Adjudicator
    from pbem.core.canonical import JSON


@dataclass(frozen=True)
class Asked:
    """What a role of this store is asked now, as `pbem show` and the page list it."""

    role: str
    notes: tuple[str, ...] = ()  # "your next entry rolls the waiting dice"
    choices: tuple[str, ...] = ()  # numbered from 1, as `pbem move GAME N` takes them
    hint: str = ""  # how to answer


def role_view(game: Adjudicator, role: str | None, known: Mapping[str, JSON] | None) -> Any:
    """What `role` sees (None: the public); with `known`, its own sealed values too."""
    if game.state is None:
        return None
    if role is not None and known:
        return game.engine.view_known(game.state, role, known)
    return game.engine.view(game.state, role)


def state_text(game: Adjudicator, view: Any, role: str | None = None) -> str:
    """The game's own text state (its gamesheet or board), as the text summary shows it
    (`role`: whose view it is, for a game's own reading of it, summary.game_report)."""
    from pbem.render.summary import _environment, game_report, templates_dir

    name = f"{game.engine.name}/state.txt.j2"
    if view is None or not (templates_dir() / name).is_file():
        return ""
    report = game_report(game.engine.name, view, role)
    return _environment("txt").get_template(name).render(view=view, report=report).strip("\n")
