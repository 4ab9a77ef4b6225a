"""Turn summaries from the jinja2 templates in templates/ (shipped inside the wheel).

The template gets only the role's view, the public history of actions (decisions,
events with their reasons, every roll with its purpose) and the outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import jinja2
import markupsafe

from pbem import escape
from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import JSON
from pbem.core.engine import game_part
from pbem.core.history import turn_actions
from pbem.errors import PbemError
from pbem.render.board import templates_dir as templates_dir

if TYPE_CHECKING:
    from jinja2.bccache import Bucket

FORMATS = {"text": "txt", "markdown": "md", "bbcode": "bbcode"}
# BBCode has no tables: its summary shows the game's text state inside [code].
STATE_FORMAT = {"txt": "txt", "md": "md", "bbcode": "txt"}


# How each output format escapes every value a template prints (protocol section 8:
# text from the log is untrusted): `{{ x }}` is written through the medium's escaper,
# whatever x is; only a value an escaper already made (`markdown_code`) passes as it is.
_ESCAPERS: dict[str, Callable[[object], str]] = {
    "txt": escape.terminal_line,
    "md": escape.markdown,
    "bbcode": escape.bbcode,
    "html": escape.terminal,  # then jinja2's autoescape
}


class _Escaped(str):
    """Text already escaped for its medium: the finalizer leaves it alone."""


def _md_code(value: object) -> _Escaped:
    return _Escaped(escape.markdown_code(value))


def _finalizer(ext: str) -> Callable[[object], object]:
    escaper = _ESCAPERS[ext]

    def finalize(value: object) -> object:
        if isinstance(value, _Escaped):
            return str(value)
        if ext == "html" and isinstance(value, markupsafe.Markup):
            return value  # markup a filter made (tojson): autoescape leaves it alone
        return escaper(value)

    return finalize


class _CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once, kept in the user's cache folder (pbem.cache): a cold `pbem
    show` would otherwise compile its game's state template on every run.

    What a template compiles to depends on its source (jinja2's bucket checksum, a hash of
    it, is part of the key), on the environment's settings (this module: a dependency of
    the entry, and the format `ext` in the key) and on jinja2 and Python (the magic
    jinja2 writes and checks in the bytes: another version's entry is compiled again).
    A missing or stale entry is only compiled again."""

    def __init__(self, ext: str) -> None:
        self.ext = ext

    def _key(self, bucket: Bucket) -> tuple[str, str, str]:
        return (self.ext, bucket.key, bucket.checksum)

    def load_bytecode(self, bucket: Bucket) -> None:
        from pbem import cache

        found = cache.get("template", self._key(bucket))
        if isinstance(found, bytes):
            bucket.bytecode_from_string(found)

    def dump_bytecode(self, bucket: Bucket) -> None:
        from pbem import cache

        deps = cache.deps_of([__file__])
        cache.put("template", self._key(bucket), deps, bucket.bytecode_to_string())


@lru_cache(maxsize=8)
def _environment(ext: str = "txt") -> jinja2.Environment:
    """One environment per format and process: it keeps its compiled templates between
    summaries, and escapes every printed value for that format (included templates too)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        # *.html.j2 autoescapes (after the finalizer); text, Markdown and BBCode are
        # escaped by the finalizer alone.
        autoescape=jinja2.select_autoescape(
            ["html.j2", "htm.j2", "xml.j2"], default_for_string=False, default=False
        ),
        finalize=_finalizer(ext),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        bytecode_cache=_CompiledTemplates(ext),
    )
    env.filters["md_code"] = _md_code
    return env


def game_report(rules: str, view: Any, role: str | None) -> Any:
    """A game's own reading of `role`'s view for its state template (`report` there):
    `pbem.games.<game>.report.report(view, role)`, or None for a game without one. It is
    given the view alone, so it can show nothing the view does not hold."""
    module = game_part(rules, "report")
    return None if view is None or module is None else module.report(view, role)


def heading(game: Adjudicator, role: str | None, turn: Any) -> dict[str, Any]:
    """What a summary and a turn page open with: the game's title, id and rules, whose
    view it is and the turn."""
    engine = game.engine
    return {
        "title": str(game.genesis.body.get("title") or engine.title),
        "game_id": game.id,
        "rules": f"{engine.name} {engine.version}",
        "role": role or "public",
        "turn": turn,
    }


def render_summary(
    game: Adjudicator,
    role: str | None,
    fmt: str = "text",
    known: Mapping[str, JSON] | None = None,
) -> str:
    """A turn summary for `role` (None: the public). `known` holds that role's own sealed
    values, from its own store; nobody else's are ever passed in."""
    if fmt not in FORMATS:
        raise PbemError(f"unknown format {fmt!r} (choose {', '.join(FORMATS)})")
    if role is not None and role not in game.roles:
        raise PbemError(f"this game has no role {role!r}")
    engine = game.engine
    view = None
    if game.state is not None:
        if role is not None and known:
            view = engine.view_known(game.state, role, known)
        else:
            view = engine.view(game.state, role)
    turn = view.get("turn") if isinstance(view, dict) else None
    outcome = game.outcome()
    ext = FORMATS[fmt]
    env = _environment(ext)
    state_template = f"{engine.name}/state.{STATE_FORMAT[ext]}.j2"
    has_state = (templates_dir() / state_template).is_file()
    template = env.get_template(f"summary.{ext}.j2")
    actions_turn, actions = (
        turn_actions(game.actions, turn) if turn is not None else (None, game.actions[-10:])
    )
    return template.render(
        **heading(game, role, turn),
        view=view,
        report=game_report(engine.name, view, role),
        state_template=state_template if has_state and view is not None else None,
        actions=actions,
        actions_turn=actions_turn,
        prompts=game.prompts(),
        outcome=outcome,
        self_witnessed=game.self_witnessed,
    )
