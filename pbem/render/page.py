"""The turn page: one self-contained HTML file per role (templates/page.html.j2).

It holds, for one role (or the public): the map inline as SVG with its text alternative
(pbem.render.facts), whose turn it is and what is asked (with the numbered choices when
the page's own role is asked), the turn's events with every roll and its purpose, the
score and what wins, the role's own hand or sealed values on its own page, and the
armored entries of the last move to copy into `pbem apply`.

Everything is inline and nothing is fetched: no external script, style, font or image,
and a Content-Security-Policy that forbids them all, so a page opened from a mail or a
disk can never call out (and text from the log can never run: jinja2's autoescape writes
it as text, after pbem.escape made its controls visible). One script runs: pbem's
own verifier (pbem.render.verifier, issue 18), allowed by its SHA-256 alone, which checks
the game the page carries (its save text, as JSON data) when the page opens.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

import markupsafe

from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import JSON
from pbem.core.history import turn_actions
from pbem.core.log import Entry
from pbem.errors import PbemError
from pbem.maps.svg_compact import compact
from pbem.render import facts, maps
from pbem.render.board import Asked as Asked  # (here too, as before)
from pbem.render.board import role_view as role_view
from pbem.render.board import state_text as state_text
from pbem.render.summary import _environment, heading

# Save texts of the last few games a page was made for, by (game id, head id): the head's
# id fixes every entry before it, so the log, its replay and its save text with it (the
# pages of every role at one head, and a test's pages of one position, share one).
_SAVES: dict[tuple[str, str], str] = {}


def _save_of(game: Adjudicator) -> str:
    """The save text of the game the page shows: what its verifier checks (issue 18)."""
    from pbem.ledger import fingerprint
    from pbem.transport.savefile import save_text

    if game.lean or not game.entries:
        return ""
    key = (game.id, game.head.id)
    found = _SAVES.get(key)
    if found is None:
        title = str(game.genesis.body.get("title") or game.engine.title)
        prints = {role: fingerprint(line) for role, line in game.roles.items()}
        found = save_text(game, title, prints)
        if len(_SAVES) >= 8:
            _SAVES.pop(next(iter(_SAVES)))
        _SAVES[key] = found
    return found


def _script_json(value: object) -> str:
    """JSON safe inside a <script> element: no `<` at all (so no `</script>` and no
    `<!--`), and U+2028/2029 escaped as well."""
    text = json.dumps(value, ensure_ascii=True)
    return text.replace("<", "\\u003c")


@lru_cache(maxsize=4)  # (a referee's pages of one round: one save, a page per role)
def packed_save(save: str) -> str:
    """The save text as the page carries it (issue 29): {"gzip-raw": base64 of the gzip of
    its pbem.transport.savepack container}, the armored entries as their raw bytes, which
    gzip packs a quarter smaller than their base32; a save with no entry in pbem's own
    armor as {"gzip": base64 of its gzip}. The page's verifier inflates either with
    DecompressionStream and `pbem verify PAGE.html` with zlib (pbem.transport.htmltext),
    and both rebuild the same save text. mtime 0: the same save gives the same page."""
    from pbem.transport import savepack
    from pbem.transport.htmltext import GZIP_KEY, GZIP_RAW_KEY

    raw = savepack.pack(save)
    key, data = (GZIP_KEY, save.encode("utf-8")) if raw is None else (GZIP_RAW_KEY, raw)
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    return _script_json({key: base64.b64encode(packed).decode("ascii")})


# A map whose compacted SVG is over this many bytes is carried packed (`packed_map`): the
# heaviest maps (Götterdämmerung's two maps of 1500 hexes, Race to the Sea's) would
# otherwise be most of their page. A smaller one stays inline, drawn without any script.
PACK_MAP_OVER = 100_000
MAP_GZIP_ID = "pbem-map-gzip"  # (mapdraw.js finds the packed drawing by this id)
_ROOT = re.compile(r"<svg\b[^>]*>(?:<title>[^<]*</title>)?")


def packed_map(svg: str) -> str:
    """The map as a large map's page carries it (issue 29): its outer <svg> (its size,
    so the page is laid out as with the drawing, and its title) holding the whole
    drawing as base64 of its gzip in <metadata>, which the page's map script
    (pbem/render/mapdraw.js) inflates and draws in its place: the same SVG, in about a
    tenth of the bytes. mtime 0: the same map gives the same page."""
    root = _ROOT.match(svg)
    if root is None:
        return svg  # (no drawing of pbem.maps.svg: left as it is)
    drawing = svg.rstrip("\n").encode("utf-8")  # (the <svg> element alone, as inline)
    packed = gzip.compress(drawing, compresslevel=9, mtime=0)
    data = base64.b64encode(packed).decode("ascii")
    return f'{root.group(0)}<metadata id="{MAP_GZIP_ID}">{data}</metadata></svg>'


def page_map(page: str) -> str:
    """The SVG element a turn page draws: its inline map, or the drawing its packed map
    holds (what mapdraw.js puts in its place); '' for a page without a map."""
    start = page.find("<svg")
    if start < 0:
        return ""
    svg = page[start : page.find("</svg>", start) + len("</svg>")]
    found = re.search(f'<metadata id="{MAP_GZIP_ID}">([^<]*)</metadata>', svg)
    if found is None:
        return svg
    return gzip.decompress(base64.b64decode(found.group(1), validate=True)).decode("utf-8")


def _check_role(game: Adjudicator, role: str | None) -> None:
    if role is not None and role not in game.roles:
        raise PbemError(f"this game has no role {role!r}")


def render_svg(
    game: Adjudicator,
    role: str | None,
    *,
    known: Mapping[str, JSON] | None = None,
    layout: bytes | None = None,
    scale: float = 1.0,
) -> str:
    """The map of `game` as `role` sees it, with the last turn's changes marked."""
    _check_role(game, role)
    if not maps.has_map(game.engine.name):
        raise PbemError(f"{game.engine.name} has no map to draw yet")
    view = role_view(game, role, known)
    if view is None:
        raise PbemError("play has not started: there is no map to draw yet")
    return maps.board_svg(
        game.engine.name,
        view,
        role=role,
        highlight=maps.highlight_of(game),
        scale=scale,
        layout=layout,
    )


def render_page(
    game: Adjudicator,
    role: str | None,
    *,
    known: Mapping[str, JSON] | None = None,
    asked: Asked | None = None,
    layout: bytes | None = None,
    entries: Sequence[Entry] | None = None,
) -> str:
    """The HTML turn page of `game` for `role` (None: the public).

    `known`: that role's own sealed values, from its own store (never anyone else's);
    `asked`: what this store's role is asked, with its choices (only shown when it is
    the page's role); `entries`: the entries to copy (default: the last move)."""
    from pbem.render.post import last_move
    from pbem.transport.savefile import move_file

    _check_role(game, role)
    engine = game.engine
    view = role_view(game, role, known)
    turn = view.get("turn") if isinstance(view, dict) else None
    shown_turn, actions = (
        turn_actions(game.actions, turn) if turn is not None else (None, game.actions[-10:])
    )
    svg = None
    map_packed = False
    if view is not None and maps.has_map(engine.name):
        # Compacted (pbem.maps.svg_compact): drawn the same, in a third to half the bytes;
        # a large map packed besides (packed_map).
        drawing = compact(
            maps.board_svg(
                engine.name, view, role=role, highlight=maps.highlight_of(game), layout=layout
            )
        )
        map_packed = len(drawing.encode("utf-8")) > PACK_MAP_OVER
        if map_packed:
            drawing = packed_map(drawing)
        # Markup: the SVG is built by pbem.maps.svg, which escapes every value itself.
        svg = markupsafe.Markup(drawing)
    if entries is None:
        entries = last_move(game)
    block = move_file(entries).rstrip("\n") if entries else ""
    seqs = ""
    if entries:
        first, last = entries[0].seq, entries[-1].seq
        seqs = f"#{first}" if first == last else f"#{first}-#{last}"
    # The role's own secrets as its own view shows them (its hand, its sealed blocks):
    # never the raw store values, which hold draw secrets no page needs.
    own = facts.own_facts(engine.name, view, role) if role is not None and known else ()
    template = _environment("html").get_template("page.html.j2")
    from pbem.render import verifier

    save = _save_of(game)
    return template.render(
        script_source=markupsafe.Markup(verifier.csp_source()),  # (ours: quotes kept)
        verifier=markupsafe.Markup(verifier.verifier_script()),
        map_script=markupsafe.Markup(verifier.map_script()) if map_packed else "",
        save_json=markupsafe.Markup(packed_save(save)) if save else "",
        entry_count=len(game.entries),
        **heading(game, role, turn),
        actions_turn=shown_turn,
        actions=actions,
        prompts=game.prompts(),
        outcome=game.outcome(),
        self_witnessed=game.self_witnessed,
        asked=asked if asked is not None and asked.role == role else None,
        svg=svg,
        map_packed=map_packed,
        has_view=view is not None,
        facts=facts.map_facts(engine.name, view),
        state=state_text(game, view, role),
        own=own,
        entries=block,
        entry_seqs=seqs,
    )
