"""A turn page someone else made (issue 27, item 7): what its verdict says, and how a page
you received is checked.

A page carries the save text of its game and a verifier script; its verdict covers what
that script checked of that save (signatures, hash chains, reveals, dice, openings: never
the rules), and the page is only as trustworthy as whoever made it, script included. The
attacks of the issue, each made here as a cheater would make it from an honest page of a
finished toy-dice game (the page's save replaced, or its text edited, or its verifier
replaced with its CSP hash recomputed), are opened in headless Chromium (one start for all
of them: tests/support/browser.page_verdicts) and checked with `pbem verify PAGE.html`
(the click command, and the fast path of pbem.cli in a process of its own).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
import random
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.cli import main
from pbem.core.log import Entry
from pbem.render.page import packed_save, render_page
from pbem.transport.htmltext import embedded_save
from pbem.transport.savefile import move_file, save_text
from tests.support.browser import CHROMIUM, page_verdicts
from tests.support.players import Table

ROOT = Path(__file__).resolve().parents[2]
_SAVE_DATA = re.compile(r'(<script type="application/json" id="pbem-save">)(.*?)(</script>)', re.S)
# What the old page said, false of a page a cheater made.
FALSE_CLAIM = "The rules themselves were checked by pbem"

needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


@cache
def table() -> Table:
    """A finished toy-dice game (a won 16-12), every entry signed."""
    game = Table("toy-dice", ("a", "b"), nonce="received pages")
    game.join_all()
    game.play(random.Random(7))
    assert game.game.outcome() is not None
    return game


def save_of(game: Table) -> str:
    prints = {role: str(key.public.fingerprint()) for role, key in game.keys.items()}
    return save_text(game.game, "toy dice", prints)


@cache
def after_the_end() -> tuple[str, Entry]:
    """The save with one more move by `a` after the game ended, validly signed (its seq,
    prev and next reveal all right) and its header's entry count mended, as a cheater
    with a's key would make it; and that move."""
    game = table()
    honest = save_of(game)
    extra = game.make("a", "move", {"decision": "roll"})
    entries = game.game.entries
    head, _, rest = honest.partition(move_file(entries))
    assert rest, "the save's entries are not one block"
    head = head.replace(f"entries: {len(entries)}\n", f"entries: {len(entries) + 1}\n")
    return head + move_file([*entries, extra]) + rest, extra


def with_save(page: str, save: str | None) -> str:
    """`page` with its embedded save replaced by `save` (None: the element removed)."""
    found = _SAVE_DATA.search(page)
    assert found is not None, "the page carries no save"
    if save is None:
        return page.replace(found.group(0), "")
    return page.replace(found.group(0), found.group(1) + packed_save(save) + found.group(3))


# A verifier a cheater wrote: it checks nothing and says so in pbem's own words.
FORGED_VERIFIER = (
    'const out = document.getElementById("pbem-verdict");'
    'out.textContent = "verified: 380 entries, 228 dice recomputed";'
    'out.className = "verdict verified";'
)


def with_verifier(page: str, script: str) -> str:
    """`page` with its verifier replaced by `script`, the CSP hash recomputed for it."""
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    page = re.sub(r"script-src [^;]+;", f"script-src 'sha256-{digest}';", page)
    return page.replace(f"<script>{scripts[0]}</script>", f"<script>{script}</script>")


@cache
def pages() -> dict[str, str]:
    honest = render_page(table().game, "a")
    result = "<strong>Score:</strong> a 16, b 12"
    assert result in honest
    return {
        "honest": honest,
        "after the end": with_save(honest, after_the_end()[0]),
        "edited text": honest.replace(result, "<strong>Score:</strong> a 12, b 16"),
        "replaced verifier": with_verifier(with_save(honest, None), FORGED_VERIFIER),
    }


@cache
def verdicts() -> dict[str, dict[str, Any]]:
    return page_verdicts(pages())


def written(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name.replace(' ', '-')}.html"
    path.write_text(pages()[name], encoding="utf-8")
    return path


def cli(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


# --- what the page says -----------------------------------------------------------------------


def test_the_page_says_it_is_only_as_trustworthy_as_whoever_made_it() -> None:
    page = pages()["honest"]
    assert FALSE_CLAIM not in page and "checked by pbem" not in page
    note = re.search(r'<p class="note" id="pbem-trust">(.*?)</p>', page, re.S)
    assert note is not None, "no trust note under the verdict"
    text = re.sub(r"<[^>]+>", "", note.group(1))
    assert "This page is only as trustworthy as whoever made it" in text
    assert "It does not check the rules (toy-dice 1" in text
    assert "run pbem verify PAGE.html" in text
    assert "pbem show GAME --open" in text and "pbem render GAME --format html" in text


@needs_chromium
def test_the_verdict_names_what_it_checked_and_the_head_pbem_show_prints(tmp_path: Path) -> None:
    game = table().game
    seen = verdicts()["honest"]
    assert seen["status"] == "verified", seen
    text = seen["text"]
    assert text.startswith("checked in this browser, the rules NOT checked: "), text
    assert "verified" not in text
    for checked in (
        f"game {game.id[:12]}",
        f"{game.entry_count} entries to head seq {game.head.seq} id {game.head.id};",
        "every signature, hash chain and reveal",
        f"{game.rng_count} dice recomputed",
        "0 commitments opened",
    ):
        assert checked in text, (checked, text)
    assert (seen["headSeq"], seen["headId"]) == (str(game.head.seq), game.head.id)
    # A reader with their own store: `pbem show` names the same head in the same words.
    save = tmp_path / "toy.pbem"
    save.write_text(save_of(table()), encoding="utf-8")
    home = tmp_path / "reader"
    assert cli(home, "apply", str(save)).exit_code == 0
    shown = cli(home, "show", game.id[:12])
    assert shown.exit_code == 0, shown.output
    line = f"head: seq {game.head.seq} id {game.head.id} ({game.entry_count} entries)"
    assert line in shown.stdout.splitlines(), shown.stdout
    assert f"seq {game.head.seq} id {game.head.id}" in text


# --- the attacks: what the browser says, what `pbem verify PAGE.html` says ------------------


@needs_chromium
def test_a_move_after_the_end_passes_the_browser_without_the_rules_and_fails_pbem_verify(
    tmp_path: Path,
) -> None:
    _save, extra = after_the_end()
    seen = verdicts()["after the end"]
    # The browser checks no rule: it says so, and names the head it checked, the extra
    # move, which is not the head of the reader's own `pbem show`.
    assert seen["status"] == "verified", seen
    assert "the rules NOT checked" in seen["text"]
    assert f"head seq {extra.seq} id {extra.id};" in seen["text"]
    assert extra.seq == table().game.head.seq + 1
    result = cli(tmp_path / "home", "verify", str(written(tmp_path, "after the end")))
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[0].startswith("turn page: what is checked is the game")
    assert "error: entry 10 by a refused: the game is over" in result.stderr, result.stderr
    assert "OK" not in result.stdout


@needs_chromium
def test_an_edited_page_text_is_not_what_either_verdict_judges(tmp_path: Path) -> None:
    # The browser's verdict is the honest page's, word for word: it covers the game the
    # page carries, not what the page shows.
    assert verdicts()["edited text"] == verdicts()["honest"]
    honest = cli(tmp_path / "home", "verify", str(written(tmp_path, "honest")))
    edited = cli(tmp_path / "home", "verify", str(written(tmp_path, "edited text")))
    assert honest.exit_code == edited.exit_code == 0, edited.output
    assert edited.stdout == honest.stdout
    first, *_rest, last = edited.stdout.splitlines()
    assert first == (
        "turn page: what is checked is the game it carries (its embedded save text, rules"
        " included), not the text it shows nor the script it runs"
    )
    assert "result: 16-12" in edited.stdout and last == "OK: every check holds"


@needs_chromium
def test_a_replaced_verifier_says_anything_and_pbem_verify_refuses_a_page_without_a_game(
    tmp_path: Path,
) -> None:
    # The attack works in the browser (a page's script is its maker's): hence the note.
    seen = verdicts()["replaced verifier"]
    assert seen["text"] == "verified: 380 entries, 228 dice recomputed", seen
    result = cli(tmp_path / "home", "verify", str(written(tmp_path, "replaced verifier")))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        "error: this turn page carries no game (no embedded save text): there is nothing"
        " to check, whatever its own verdict says\n"
    )


def test_a_replaced_verifier_around_the_honest_game_is_judged_by_that_game(
    tmp_path: Path,
) -> None:
    """pbem runs no script of a page: the game it carries is what it checks."""
    page = with_verifier(pages()["honest"], FORGED_VERIFIER)
    path = tmp_path / "forged.html"
    path.write_text(page, encoding="utf-8")
    assert cli(tmp_path / "home", "verify", str(path)).exit_code == 0
    # ... and a page that carries the move after the end fails, whatever script it has.
    path.write_text(with_verifier(pages()["after the end"], FORGED_VERIFIER), encoding="utf-8")
    assert cli(tmp_path / "home", "verify", str(path)).exit_code == 1


# `pbem verify FILE` answered by pbem.cli without click (toy-dice registered first).
PROBE = """
import sys
sys.argv = ["pbem", *sys.argv[1:]]
import tests.support.toy
from pbem.cli import main
try:
    main()
finally:
    print("CLICK", "click" in sys.modules, file=sys.stderr)
"""


def test_the_fast_path_reads_a_page_as_the_click_command_does(tmp_path: Path) -> None:
    env = dict(os.environ)
    env["PBEM_CACHE"] = str(tmp_path / "cache")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    for name, code in (("honest", 0), ("replaced verifier", 1), ("after the end", 1)):
        path = written(tmp_path, name)
        fast = subprocess.run(
            [sys.executable, "-c", PROBE, "verify", str(path)],
            capture_output=True,
            text=True,
            env=env,
        )
        assert "CLICK False" in fast.stderr, (name, fast.stderr)
        clicked = cli(tmp_path / "home", "verify", str(path))
        assert fast.returncode == clicked.exit_code == code, (name, fast.stderr)
        assert fast.stdout == clicked.stdout, name
        assert fast.stderr.replace("CLICK False\n", "") == clicked.stderr, name


def test_a_page_with_two_games_or_a_damaged_one_is_refused_in_one_line(tmp_path: Path) -> None:
    honest = pages()["honest"]
    data = _SAVE_DATA.search(honest)
    assert data is not None
    for name, page, why in (
        ("two", honest.replace("</body>", data.group(0) + "</body>"), "carries 2 games"),
        ("not json", honest.replace(data.group(2), "{not json"), "not a save text"),
        ("a number", honest.replace(data.group(2), "380"), "not a save text"),
        *damaged_pages(honest),
    ):
        path = tmp_path / f"{name}.html"
        path.write_text(page, encoding="utf-8")
        result = cli(tmp_path / "home", "verify", str(path))
        assert result.exit_code == 1 and result.stdout == "", (name, result.output)
        assert result.stderr.startswith("error: this turn page") and why in result.stderr, name
        assert result.stderr.count("\n") == 1


def old_format(page: str) -> str:
    """`page` carrying its save as pages did before its entries were packed raw:
    {"gzip": base64 of the gzip of the save text}."""
    save = embedded_save(page)
    assert save is not None
    packed = gzip.compress(save.encode("utf-8"), compresslevel=9, mtime=0)
    found = _SAVE_DATA.search(page)
    assert found is not None
    data = json.dumps({"gzip": base64.b64encode(packed).decode()})
    return page.replace(found.group(0), found.group(1) + data + found.group(3))


def damaged_pages(honest: str) -> list[tuple[str, str, str]]:
    """`honest` with its compressed save damaged in each way a reader must refuse (issue 29:
    strict base64, one whole gzip member and nothing after it, UTF-8; and, of the packed
    container, every length within it and nothing after its last part)."""
    old = old_format(honest)
    found = _SAVE_DATA.search(old)
    assert found is not None
    packed = base64.b64decode(json.loads(found.group(2))["gzip"])
    raw_found = _SAVE_DATA.search(honest)
    assert raw_found is not None and list(json.loads(raw_found.group(2))) == ["gzip-raw"]
    container = gzip.decompress(base64.b64decode(json.loads(raw_found.group(2))["gzip-raw"]))

    def carrying(data: str) -> str:
        return old.replace(found.group(2), json.dumps({"gzip": data}))

    def raw(data: bytes) -> str:
        zipped = b64(gzip.compress(data, mtime=0))
        return honest.replace(raw_found.group(2), json.dumps({"gzip-raw": zipped}))

    def b64(raw: bytes) -> str:
        return base64.b64encode(raw).decode()

    count = int.from_bytes(container[:4], "big")
    first = int.from_bytes(container[4:8], "big")  # (the text before the first entry)
    return [
        ("not base64", carrying("!" + b64(packed)[1:]), "damaged"),
        ("cut short", carrying(b64(packed[: len(packed) // 2])), "damaged"),
        ("trailing bytes", carrying(b64(packed + b"\0\0\0\0")), "damaged"),
        ("not utf-8", carrying(b64(gzip.compress(b"PBEM SAVE v1\n\xff", mtime=0))), "damaged"),
        ("two keys", old.replace('{"gzip"', '{"x": 1, "gzip"'), "not a save text"),
        ("raw cut short", raw(container[: len(container) // 2]), "damaged"),
        ("raw trailing bytes", raw(container + b"\0\0\0\0"), "damaged"),
        ("raw count", raw((count + 1).to_bytes(4, "big") + container[4:]), "damaged"),
        ("raw length", raw(container[:4] + b"\xff\xff\xff\xff" + container[8:]), "damaged"),
        ("raw empty", raw(b""), "damaged"),
        (
            "raw not utf-8",
            raw(container[: 8 + first - 1] + b"\xff" + container[8 + first :]),
            "damaged",
        ),
        (
            "raw two keys",  # (in the save's element alone: the script names the key too)
            honest.replace(raw_found.group(2), raw_found.group(2).replace("{", '{"x": 1, ', 1)),
            "not a save text",
        ),
    ]


@needs_chromium
def test_a_page_in_the_format_before_raw_entries_still_verifies_in_both(tmp_path: Path) -> None:
    """Pages made before the entries were packed raw carry {"gzip": ...}: the browser and
    `pbem verify PAGE.html` read them still, to the same verdict as a page made now."""
    old = old_format(pages()["honest"])
    assert embedded_save(old) == embedded_save(pages()["honest"])
    seen = page_verdicts({"old": old})["old"]
    assert seen["status"] == "verified" and seen["text"] == verdicts()["honest"]["text"], seen
    path = tmp_path / "old.html"
    path.write_text(old, encoding="utf-8")
    result = cli(tmp_path / "home", "verify", str(path))
    assert result.exit_code == 0, result.output
    assert (
        result.stdout == cli(tmp_path / "home", "verify", str(written(tmp_path, "honest"))).stdout
    )


@needs_chromium
def test_a_page_carrying_its_save_uncompressed_still_verifies_in_both(tmp_path: Path) -> None:
    """Pages made before issue 29 carry the save text as a JSON string: the browser and
    `pbem verify PAGE.html` still read them, to the same head as the compressed page."""
    honest = pages()["honest"]
    found = _SAVE_DATA.search(honest)
    assert found is not None and list(json.loads(found.group(2))) == ["gzip-raw"]
    plain = honest.replace(found.group(2), json.dumps(save_of(table())).replace("<", "\\u003c"))
    seen = page_verdicts({"plain": plain})["plain"]
    assert seen["status"] == "verified" and seen["text"] == verdicts()["honest"]["text"], seen
    path = tmp_path / "plain.html"
    path.write_text(plain, encoding="utf-8")
    result = cli(tmp_path / "home", "verify", str(path))
    assert result.exit_code == 0, result.output
    assert (
        result.stdout == cli(tmp_path / "home", "verify", str(written(tmp_path, "honest"))).stdout
    )


@needs_chromium
def test_a_damaged_compressed_save_fails_in_the_browser_too() -> None:
    """What `pbem verify PAGE.html` refuses as damaged, the page's own verifier fails."""
    damaged = {name: page for name, page, _why in damaged_pages(pages()["honest"])}
    for name, verdict in page_verdicts(damaged).items():
        assert verdict["status"] == "failed", (name, verdict)


def test_apply_of_a_page_imports_the_game_it_carries(tmp_path: Path) -> None:
    """A page read by `pbem apply` is the game it carries too (it held the last move only):
    a reader imports it into their own store, and renders their own page from it."""
    game = table().game
    home = tmp_path / "reader"
    applied = cli(home, "apply", str(written(tmp_path, "honest")))
    assert applied.exit_code == 0, applied.output
    assert applied.stdout.count("applied: entry ") == game.entry_count
    shown = cli(home, "show", game.id[:12])
    assert f"head: seq {game.head.seq} id {game.head.id}" in shown.stdout
    refused = cli(tmp_path / "other", "apply", str(written(tmp_path, "after the end")))
    assert refused.exit_code == 1 and "the game is over" in refused.stderr
