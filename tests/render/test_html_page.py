"""The one-file HTML turn page, checked in a real browser (issue 12).

For each title's demo save (saves/*.pbem, replayed to the middle of the game, where the
board is full and a turn is under way) each role's page is rendered and opened by a
headless Chromium (the session's one, a fresh context per page: tests/support/headless.py).
The screenshot must not be blank (decoded with zlib and struct: many colours, most pixels
not the background), the map must be laid out at its size (the SVG's own width and
height, fitted to the page's width with its proportions kept: measured in the DOM after
layout), and the page's text alternative of the map must list the same facts as the text
summary: the same areas, zones or cities, with the same control and the same unit ids.
The screenshots are written to bench/screens/ for a person to look at.

Without Chromium these tests skip, unless PBEM_REQUIRE_CHROMIUM=1 (set by .ci/run when
it could install Debian's chromium): then they fail. The tests after them need no browser:
the page fetches nothing and runs nothing, escapes the log's text, shows a role's own hand
only on its own page, and the CLI writes it (0600 when it shows a role's own values),
opens it (`pbem show --open`), draws the map as SVG and PNG, and reads a layout file.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import re
import shutil
import stat
import struct
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import markupsafe
import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.client import Client
from pbem.core.adjudicator import Adjudicator
from pbem.core.history import turn_actions
from pbem.core.log import Entry
from pbem.demo import DemoStep, run_demo
from pbem.ledger import replay
from pbem.render import maps
from pbem.render.page import packed_save, page_map, render_page, render_svg
from pbem.render.png import chromium, svg_size
from pbem.render.summary import render_summary
from pbem.render.verifier import csp_source, map_script, verifier_script
from pbem.store import Store
from pbem.transport.htmltext import embedded_save
from pbem.verify import parse_entries
from tests.render.browser_pixels import colours
from tests.support.headless import open_page

ROOT = Path(__file__).resolve().parents[2]
TITLES = ("barbarossa", "race-to-berlin", "berlin-1945")
SCREENS = ROOT / "bench" / "screens"
WINDOW = (1400, 1800)
REQUIRE = os.environ.get("PBEM_REQUIRE_CHROMIUM", "") not in ("", "0")


@cache
def demo_game(rules: str) -> Adjudicator:
    """The title's demo save, replayed to the middle of its log."""
    entries = parse_entries((ROOT / "saves" / f"{rules}-demo.pbem").read_bytes())
    return replay(entries[: len(entries) // 2], {})


def browser() -> str:
    found = chromium()
    if found is None:
        if REQUIRE:
            pytest.fail("PBEM_REQUIRE_CHROMIUM is set but no Chromium was found")
        pytest.skip("no Chromium here (Debian: apt-get install chromium)")
    return found


# --- what the text summary says about the board, and what the page's list says ----------

Facts = dict[str, tuple[str, frozenset[str]]]  # place -> (control, unit ids)
UNIT_ID = re.compile(r"[a-z]{2,}-[a-z0-9-]+")


def summary_facts(rules: str, summary: str) -> Facts:
    """The places the text summary lists with their control and unit ids. Barbarossa's
    cities are named (their status is their control); the others' places have ids."""
    facts: Facts = {}
    lines = iter(summary.splitlines())
    if rules == "barbarossa":
        city = re.compile(r"^ {6}(\S[^\[]*?)\s+(captured|unlocked|locked)\s+\d+ stars?\s")
        for line in lines:
            found = city.match(line)
            if found:
                facts[found.group(1)] = (found.group(2), frozenset())
        return facts
    start, end = {
        "race-to-berlin": ("  Areas, all ", "  Off the board"),
        "berlin-1945": ("  Zones, all ", "  Removed units"),
    }[rules]
    place = re.compile(r"^ {4}(\S+)\s+.*: (?:(german|soviet|west)\b)?")  # the last ": "
    current = None
    units: dict[str, set[str]] = {}
    for line in _between(lines, start, end):
        head = place.match(line)
        if head:
            current = head.group(1)
            facts[current] = (head.group(2) or "none", frozenset())
            units[current] = set()
            continue
        first = line.split()[0] if line.strip() else ""
        if current is not None and line.startswith(" " * 9) and UNIT_ID.fullmatch(first):
            units[current].add(first)
    return {p: (control, frozenset(units[p])) for p, (control, _) in facts.items()}


def _between(lines: Iterator[str], start: str, end: str) -> Iterator[str]:
    inside = False
    for line in lines:
        if line.startswith(start):
            inside = True
        elif line.startswith(end) or (inside and line and not line.startswith(" ")):
            return
        elif inside:
            yield line


class _PlaceList(HTMLParser):
    """The page's text alternative: <li data-place data-control> with its name and its
    pieces (<span data-piece>)."""

    def __init__(self) -> None:
        super().__init__()
        self.places: dict[str, tuple[str, str, set[str]]] = {}
        self._current: str | None = None
        self._in_name = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "li" and "data-place" in found:
            self._current = str(found["data-place"])
            self.places[self._current] = (str(found["data-control"]), "", set())
        elif self._current is not None and tag == "span":
            if found.get("class") == "name":
                self._in_name = True
            if "data-piece" in found:
                self.places[self._current][2].add(str(found["data-piece"]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "span":
            self._in_name = False
        elif tag == "li":
            self._current = None

    def handle_data(self, data: str) -> None:
        if self._in_name and self._current is not None:
            control, name, pieces = self.places[self._current]
            self.places[self._current] = (control, name + data, pieces)


def page_facts(rules: str, page: str) -> Facts:
    parser = _PlaceList()
    parser.feed(page)
    facts: Facts = {}
    for place, (control, name, pieces) in parser.places.items():
        units = frozenset(p for p in pieces if UNIT_ID.fullmatch(p))  # not the blocks
        facts[name if rules == "barbarossa" else place] = (control, units)
    return facts


def assert_same_facts(rules: str, page: str, summary: str) -> None:
    listed, told = page_facts(rules, page), summary_facts(rules, summary)
    assert told, "the text summary lists no place: has its format changed?"
    assert listed.keys() == told.keys()
    wrong = {p: (listed[p], told[p]) for p in told if listed[p] != told[p]}
    assert not wrong, f"page vs summary (control, units): {wrong}"
    assert any(units for _, units in told.values()) or rules == "barbarossa"


# --- in the browser -----------------------------------------------------------------------

# The test's copy of a page measures the map after layout and writes it into the DOM
# (the page itself runs no script: its policy is loosened for the probe alone).
PROBE = (
    "<script>(function(){var box=document.getElementById('map-picture');"
    "var svg=box&&box.querySelector('svg');var r=svg&&svg.getBoundingClientRect();"
    "document.body.setAttribute('data-probe',JSON.stringify(r?{width:r.width,"
    "height:r.height,room:box.clientWidth}:null));})();</script>"
)


def probed(page: str) -> str:
    policy = re.search(r'<meta http-equiv="Content-Security-Policy"[^>]*>', page)
    assert policy is not None, "the page has no Content-Security-Policy"
    loose = page.replace(policy.group(0), "")
    return loose.replace("</body>", PROBE + "</body>")


def open_in_browser(folder: Path, name: str, page: str) -> tuple[bytes, str]:
    path = folder / f"{name}.html"
    path.write_text(probed(page), encoding="utf-8")
    # (idle: a packed map is drawn once its script has inflated it)
    shot, dom = open_page(
        path, width=WINDOW[0], height=WINDOW[1], screenshot=True, dump_dom=True, idle_ms=5000
    )
    assert shot is not None
    (folder / f"{name}.png").write_bytes(shot)
    return shot, dom


@pytest.mark.parametrize("rules", TITLES)
def test_each_roles_page_draws_in_a_browser(rules: str, tmp_path: Path) -> None:
    browser()
    game = demo_game(rules)
    assert maps.has_map(rules), f"{rules} draws no map"
    roles = list(game.roles)
    pages = {role: render_page(game, role) for role in roles}
    opened = {role: open_in_browser(tmp_path, role, pages[role]) for role in roles}
    SCREENS.mkdir(parents=True, exist_ok=True)
    census = colours([png for png, _dom in opened.values()], every=3)
    for (role, (_png, dom)), shot in zip(opened.items(), census, strict=True):
        shutil.copyfile(tmp_path / f"{role}.png", SCREENS / f"{rules}-{role}.png")
        # Not blank: a screenshot of the whole window, in many colours, mostly not paper.
        assert (shot.width, shot.height) == WINDOW
        assert shot.distinct > 200, f"{role}: only {shot.distinct} colours"
        assert 1 - shot.most / shot.sampled > 0.15, f"{role}: mostly one colour"
        # The map at its size: its own width and height, fitted to the page's width.
        width, height = svg_size(pages[role][pages[role].index("<svg") :])
        probe = re.search(r'data-probe="([^"]*)"', dom)
        assert probe is not None, f"{role}: the probe did not run"
        laid = json.loads(html.unescape(probe.group(1)))
        assert laid is not None, f"{role}: no map in the page"
        assert laid["width"] == pytest.approx(min(width, laid["room"]), abs=1)
        assert laid["height"] == pytest.approx(laid["width"] * height / width, rel=0.01)
        assert laid["width"] > 0.8 * min(width, WINDOW[0] - 100)
        # The drawing itself is in the page once its scripts ran (a packed map inflated),
        # with what a browser shows on hover.
        tips = re.findall(r"<title>[^<]*</title>", page_map(pages[role]))
        assert len(tips) > 1 and all(tip in dom for tip in tips[1:]), role
        # The text alternative after the browser read it: the summary's facts.
        assert_same_facts(rules, dom, render_summary(game, role, "text"))


# --- without a browser ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", TITLES)
def test_the_page_lists_the_summarys_facts_and_fetches_nothing(rules: str) -> None:
    game = demo_game(rules)
    for role in [*game.roles, None]:
        page = render_page(game, role)
        assert_same_facts(rules, page, render_summary(game, role, "text"))
        assert "default-src 'none'" in page
        assert_only_the_verifier_runs(page)
        # No address but the SVG namespace: no style, font, image or link from outside
        # (the save's base64, data never fetched nor run, may hold "//" anywhere).
        markup = re.sub(r'(id="pbem-save">).*?(</script>)', r"\1\2", page, flags=re.S)
        addresses = set(re.findall(r"(?:https?:)?//[\w.-]+[^\s\"'<>)]*", markup))
        assert addresses <= {"http://www.w3.org/2000/svg"}, addresses
        # A reference, if any, is to the page itself: the map's shared outlines are <use
        # href="#shape-N"> (issue 29), never a file or an address.
        links = re.findall(r"\b(?:src|href)\s*=\s*(\"[^\"]*\"|'[^']*'|\S+)", markup)
        assert all(re.fullmatch(r"\"#[\w-]+\"", link) for link in links), links
        # Whose turn, the turn's rolls with their purposes, the entries to copy.
        prompt = game.prompts()[0]
        assert f"<strong>Waiting for:</strong> {html.escape(prompt.role)}" in page
        view = game.engine.view(game.state, role)
        _turn, actions = turn_actions(game.actions, view["turn"])
        assert any(a.rng for a in actions), "a turn with no roll tests nothing here"
        for action in actions:
            assert f"seq {action.seq} {html.escape(action.by)}:" in page
            for record in action.rng:
                assert str(markupsafe.escape(f"roll {record.purpose}: ")) in page
        assert "BEGIN PBEM" in page or "-----BEGIN" in page or "pbem apply" in page
        assert page.count("<svg") == 1


def assert_only_the_verifier_runs(page: str) -> None:
    """Two script elements: the save as JSON data (never run) and pbem's verifier; and on
    a page whose map is packed, a third, pbem's script that draws it (issue 29). Their
    SHA-256 are the only script sources the policy allows (issue 18)."""
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    packed = 'id="pbem-map-gzip"' in page
    assert [attrs for attrs, _body in scripts] == [
        ' type="application/json" id="pbem-save"',
        "",
        *([""] if packed else []),
    ]
    assert scripts[1][1] == verifier_script()
    if packed:
        assert scripts[2][1] == map_script()
    policy = re.search(r"script-src ([^;]+);", page)
    assert policy is not None and policy.group(1) == csp_source()
    digests = [
        base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        for script in (verifier_script(), map_script())
    ]
    assert csp_source() == " ".join(f"'sha256-{digest}'" for digest in digests)
    assert "<" not in scripts[0][1]  # (so the data can never close its element)


def test_text_from_the_log_is_written_as_text(tmp_path: Path) -> None:
    client = Client(Store(tmp_path / "home"))
    client.new_key("me")
    hostile = '</title><script>alert(1)</script><img src=x onerror=alert(2)> & "q"'
    game_id, _ = client.new_game("barbarossa", "german", {"german": "me"}, title=hostile)
    page = render_page(client.game(game_id), "german")
    assert "<script>alert" not in page and "<img src=x" not in page
    assert str(markupsafe.escape(hostile)) in page
    assert_only_the_verifier_runs(page)  # the title is in the save data, as JSON text


# --- a game in two stores: own pages, the CLI ------------------------------------------------


class _Stop(Exception):
    pass


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> DemoStep:
    """A Berlin 1945 demo stopped in the German movement phase of turn 2 (rulebook 6):
    the German is asked to move, each store holds its own hand, the Soviet plan is sealed."""
    seen: list[DemoStep] = []

    def stop(step: DemoStep) -> None:
        game = Client(Store(step.homes["german"])).game(step.game_id)
        if game.state is None or game.waiting_for_entropy:
            return
        view = game.engine.view(game.state, None)
        if view["turn"] >= 2 and view["step"] == "german" and game.asked("german"):
            seen.append(step)
            raise _Stop

    with pytest.raises(_Stop):
        run_demo("berlin-1945", tmp_path_factory.mktemp("demo"), seed=3, on_step=stop)
    return seen[0]


def cli(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def test_a_roles_own_page_shows_its_hand_and_its_choices(stores: DemoStep, tmp_path: Path) -> None:
    game = stores.game_id[:12]
    german, soviet = stores.homes["german"], stores.homes["soviet"]
    mine, theirs = tmp_path / "german.html", tmp_path / "soviet.html"
    assert cli(german, "render", game, "--format", "html", "-o", str(mine)).exit_code == 0
    # The German's store renders the Soviet's page: the Soviet's view, no German secret.
    assert (
        cli(german, "render", game, "--format", "html", "--role", "soviet", "-o", str(theirs))
    ).exit_code == 0
    own, other = mine.read_text(), theirs.read_text()
    assert stat.S_IMODE(mine.stat().st_mode) == 0o600
    assert "Known only to you (german)" in own and "Your hand: #" in own
    assert 'id="choices"' in own and "end movement" in own  # the German is asked
    assert "Known only to you" not in other and 'id="choices"' not in other
    assert "Your hand" not in other
    # The page of a role this store does not hold is the one any save gives.
    from_soviet = cli(soviet, "render", game, "--format", "html", "--role", "german").stdout
    assert "Known only to you" not in from_soviet


def test_show_leads_with_the_board_then_the_turn_then_the_choices(stores: DemoStep) -> None:
    home, game = stores.homes["german"], stores.game_id[:12]
    shown = cli(home, "show", game).stdout
    zones = shown.index("  Zones, all ")
    waiting = shown.index("Waiting for: german")
    choices = shown.index("Your choices as german")
    last = shown.index("Last result:")
    assert shown.index("view of german") < zones < waiting < choices < last
    assert "  1. end movement" in shown
    assert "What happened" not in shown and "--history" in shown
    full = cli(home, "show", game, "--history").stdout
    assert full.index("Your choices as german") < full.index("What happened in turn")
    assert "roll turn 2 card draw" in full  # every roll of the turn, with its purpose


def test_show_open_writes_a_private_page_and_never_needs_a_browser(
    stores: DemoStep, monkeypatch: pytest.MonkeyPatch
) -> None:
    import webbrowser

    home, game = stores.homes["soviet"], stores.game_id[:12]
    opened: list[str] = []

    def no_browser(url: str, *args: object, **kwargs: object) -> bool:
        opened.append(url)
        return False

    monkeypatch.setattr(webbrowser, "open", no_browser)
    result = cli(home, "show", game, "--open")
    assert result.exit_code == 0, result.output
    path = home / "pages" / f"{game}-soviet.html"
    assert result.stdout == f"wrote {path} (no browser found: open it yourself)\n"
    assert opened == [path.resolve().as_uri()]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert "Your sealed plan" in path.read_text() or "Your hand" in path.read_text()

    def broken(url: str, *args: object, **kwargs: object) -> bool:
        raise webbrowser.Error("no runnable browser")

    monkeypatch.setattr(webbrowser, "open", broken)
    assert cli(home, "show", game, "--open").exit_code == 0


def test_render_svg_is_the_roles_map_and_private_when_it_is_ours(
    stores: DemoStep, tmp_path: Path
) -> None:
    home, game = stores.homes["german"], stores.game_id[:12]
    out = tmp_path / "map.svg"
    assert cli(home, "render", game, "--format", "svg", "-o", str(out)).exit_code == 0
    assert out.read_text().startswith("<svg") and stat.S_IMODE(out.stat().st_mode) == 0o600
    public = cli(home, "render", game, "--format", "svg", "--role", "public").stdout
    assert public.startswith("<svg") and public.rstrip().endswith("</svg>")


def test_render_reads_a_users_layout(stores: DemoStep, tmp_path: Path) -> None:
    home, game = stores.homes["german"], stores.game_id[:12]
    shipped = ROOT / "pbem" / "games" / "berlin_1945" / "data" / "layout.toml"
    public = ("render", game, "--format", "svg", "--role", "public")
    same = cli(home, *public, "--layout", str(shipped))
    default = cli(home, *public)
    assert same.exit_code == 0 and same.stdout == default.stdout
    moved = tmp_path / "moved.toml"
    text = shipped.read_text()
    place = re.search(r"(?m)^x = (\d+)", text)
    assert place is not None
    moved.write_text(text.replace(place.group(0), f"x = {int(place.group(1)) + 40}", 1))
    other = cli(home, *public, "--layout", str(moved))
    assert other.exit_code == 0 and other.stdout != default.stdout
    broken = tmp_path / "broken.toml"
    broken.write_text("[layout]\nwidth = 10\n")
    refused = cli(home, "render", game, "--format", "svg", "--layout", str(broken))
    assert refused.exit_code == 1 and len(refused.stderr.strip().splitlines()) == 1
    text_too = cli(home, "render", game, "--layout", str(shipped))
    assert text_too.exit_code == 1 and "--layout is for" in text_too.stderr


def test_render_png_is_drawn_by_chromium_or_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = str(ROOT / "saves" / "barbarossa-demo.pbem")
    home, out = tmp_path / "home", tmp_path / "map.png"
    monkeypatch.setenv("PBEM_CHROMIUM", str(tmp_path / "no-such-browser"))
    refused = cli(home, "render", save, "--format", "png", "-o", str(out))
    assert refused.exit_code == 1 and not out.exists()
    assert refused.stderr.startswith("error: no Chromium found")
    assert len(refused.stderr.strip().splitlines()) == 1
    assert cli(home, "render", save, "--format", "png").exit_code == 1  # a PNG needs -o
    monkeypatch.delenv("PBEM_CHROMIUM")
    browser()
    done = cli(home, "render", save, "--format", "png", "-o", str(out))
    assert done.exit_code == 0, done.output
    png = out.read_bytes()
    width, height = struct.unpack(">II", png[16:24])
    game = replay(parse_entries(Path(save).read_bytes()), {})
    assert (width, height) == svg_size(render_svg(game, None))
    (census,) = colours([png], every=4)
    assert census.distinct > 20


def test_a_game_without_a_map_says_so(tmp_path: Path) -> None:
    from tests.support.players import Duo

    duo = Duo(tmp_path)
    duo.step()
    game = duo.a.game(duo.game_id)
    assert not maps.has_map(game.engine.name)
    page = render_page(game, "a")
    assert "This game has no map yet" in page and "<svg" not in page
    save = tmp_path / "toy.pbem"
    save.write_text(duo.save())
    shown = cli(tmp_path / "home", "render", str(save), "--format", "html", "--role", "b")
    assert shown.exit_code == 0 and "view of <strong>b</strong>" in shown.stdout
    refused = cli(tmp_path / "home", "render", str(save), "--format", "svg")
    assert refused.exit_code == 1 and "has no map to draw" in refused.stderr


# --- the page checks the game it shows (issue 18) --------------------------------------------


def test_the_page_verifies_its_game_when_it_opens_and_says_so() -> None:
    """Opened in headless Chromium with its own policy: the verifier runs offline and
    writes its verdict; a page whose embedded game was changed says which entry is bad."""
    from tests.support.browser import CHROMIUM, run_page

    if CHROMIUM is None:
        pytest.skip("no Chromium here (Debian: apt-get install chromium)")
    game = demo_game("race-to-berlin")
    page = render_page(game, "west")
    dom = run_page(page)
    verdict = re.search(r'<p id="pbem-verdict"([^>]*)>([^<]*)</p>', dom)
    assert verdict is not None, "no verdict in the page"
    assert 'data-status="verified"' in verdict.group(1)
    # What this browser checked, that it did not check the rules, and the head it checked.
    assert verdict.group(2).startswith("checked in this browser, the rules NOT checked: ")
    head = f"{game.entry_count} entries to head seq {game.head.seq} id {game.head.id};"
    assert head in verdict.group(2)
    assert f"{game.rng_count} dice recomputed" in verdict.group(2)
    assert f'data-head-seq="{game.head.seq}" data-head-id="{game.head.id}"' in verdict.group(1)
    # One signed byte changed in the embedded save: the page says so, and where.
    data = re.search(r'<script type="application/json" id="pbem-save">(.*?)</script>', page, re.S)
    assert data is not None
    assert list(json.loads(data.group(1))) == ["gzip-raw"]  # (issue 29: carried compressed)
    save = embedded_save(page)
    assert save is not None
    entry = game.entries[7]
    changed = save.replace(human_armor(entry), human_armor(entry, flip=True))
    assert changed != save
    tampered = page.replace(data.group(1), packed_save(changed))
    dom = run_page(tampered)
    verdict = re.search(r'<p id="pbem-verdict"([^>]*)>([^<]*)</p>', dom)
    assert verdict is not None and 'data-status="failed"' in verdict.group(1)
    assert "NOT VERIFIED: entry 7 by " in html.unescape(verdict.group(2))


def human_armor(entry: Entry, flip: bool = False) -> str:
    """The armored lines of `entry` as a save writes them; `flip`: with one signed byte of
    its canonical JSON changed (the first digit of its `prev` hash)."""
    from pbem.transport.armor import armor

    canonical = entry.canonical
    if flip:
        at = canonical.index(b'"prev":"') + 8
        canonical = (
            canonical[:at]
            + (b"1" if canonical[at : at + 1] != b"1" else b"2")
            + canonical[at + 1 :]
        )
    return armor(canonical, entry.signature)
