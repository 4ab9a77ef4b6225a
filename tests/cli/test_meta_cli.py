"""`pbem move --note`, `pbem resign`, `pbem offer-draw`, `pbem accept-draw` between two real
stores (issue 14; docs/protocol-notes.md, "Notes, resignations and draws"): a Race to
Berlin game, each side in its own store, entries carried by move files."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.client import Client
from pbem.render.page import render_page
from pbem.store import Store


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> Result:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result


def refused(home: Path, *args: str) -> str:
    """The one error line of a refused command, which stored nothing."""
    before = entry_count(home)
    result = run(home, *args)
    assert result.exit_code == 1, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert entry_count(home) == before
    return result.stderr


def entry_count(home: Path) -> int:
    with sqlite3.connect(home / "store.db") as db:
        return int(db.execute("select count(*) from entries").fetchone()[0])


class Match:
    """West and soviet, each in its own store; `send` carries a move file across."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.homes = {"west": tmp_path / "west", "soviet": tmp_path / "soviet"}
        ok(self.homes["west"], "key", "new", "w")
        ok(self.homes["soviet"], "key", "new", "s")
        pub = self.homes["soviet"] / "keys" / "s.pub"
        ok(self.homes["west"], "key", "import", "soviet", str(pub))
        start = tmp_path / "start.txt"
        made = ok(
            self.homes["west"],
            "new",
            "race-to-berlin",
            "--key",
            "west=w",
            "--key",
            "soviet=soviet",
            "-o",
            str(start),
        )
        self.game = made.stdout.strip()[:12]
        ok(self.homes["soviet"], "apply", str(start))
        self.count = 0
        self.play("soviet", "join")

    def play(self, role: str, *args: str, auto: bool = True) -> Result:
        """`pbem ARGS GAME -o FILE` in `role`'s store, then applied in the other's (which
        answers by itself what needs no person, unless not `auto`)."""
        self.count += 1
        path = self.tmp / f"m{self.count}.txt"
        command, *rest = args
        result = ok(self.homes[role], command, self.game, *rest, "-o", str(path))
        other = "west" if role == "soviet" else "soviet"
        ok(self.homes[other], "apply", str(path), *([] if auto else ["--no-auto"]))
        return result

    def show(self, role: str, *args: str) -> str:
        return ok(self.homes[role], "show", self.game, *args).stdout

    def verify(self, role: str) -> str:
        save = self.tmp / f"{role}.pbem"
        ok(self.homes[role], "export", self.game, "-o", str(save))
        return ok(self.homes[role], "verify", str(save)).stdout


@pytest.fixture
def match(tmp_path: Path) -> Match:
    return Match(tmp_path)


def test_a_note_travels_with_the_move_and_is_shown_escaped(match: Match) -> None:
    note = "hello <b>west</b> [url=x]*hi*[/url]"
    match.play("soviet", "move", "place", "4", "in", "29", "--note", note)
    history = match.show("west", "--history")
    assert f"soviet: says: {note}" in history
    markdown = ok(match.homes["west"], "render", match.game, "--format", "markdown").stdout
    assert f"`says: {note}`" in markdown  # a code span, as every action's text
    bbcode = ok(match.homes["west"], "render", match.game, "--format", "bbcode").stdout
    assert "[url=x]" not in bbcode and "says: hello" in bbcode
    client = Client(Store(match.homes["west"]))
    page = render_page(client.game(match.game), "west")
    assert "says: hello &lt;b&gt;west&lt;/b&gt;" in page
    assert "OK: every check holds" in match.verify("west")


def test_a_bad_note_is_refused_in_one_line_and_signs_nothing(match: Match) -> None:
    home, game = match.homes["soviet"], match.game
    place = ("move", game, "place", "4", "in", "29")
    assert "control character U+001B" in refused(home, *place, "--note", "hi \x1b[2J")
    assert "at most 500 characters, this one has 501" in refused(home, *place, "--note", "n" * 501)
    assert "empty" in refused(home, *place, "--note", "  ")


def test_resign_only_when_you_sign_next_then_the_other_side_wins(match: Match) -> None:
    west, soviet = match.homes["west"], match.homes["soviet"]
    line = refused(west, "resign", match.game)
    assert "you can resign only when you sign the next entry, and soviet signs it now" in line
    assert "resign once their entry reaches you" in line
    match.play("soviet", "move", "place", "4", "in", "29")  # sealed: never opened below
    assert "and west signs it now" in refused(soviet, "resign", match.game)
    signed = match.play("west", "resign", "--note", "gg")
    assert "resigns; west resigned: soviet wins" in signed.stdout
    shown = match.show("soviet", "--history")
    assert "Result: west resigned: soviet wins" in shown
    assert "west: resigns; says: gg" in shown
    assert "the game waits for nobody" in refused(soviet, "move", match.game, "1")
    assert "the game is over (west resigned: soviet wins)" in refused(soviet, "resign", match.game)
    verified = match.verify("west")
    assert "OK: every check holds" in verified
    assert "result: west resigned: soviet wins" in verified
    # The soviet's sealed placement is never opened: said, not a failure.
    assert "cannot be checked yet (1): the game ended by agreement" in verified
    assert "entry 3 by soviet: commitment" in verified
    document = json.loads(ok(west, "verify", "--json", str(match.tmp / "west.pbem")).stdout)
    [checked] = document.get("files", [document])
    assert checked["ok"] and checked["outcome"]["level"] == "resignation"
    assert checked["outcome"]["winner"] == "soviet"
    assert [line for line in checked["unchecked"] if "entry 3 by soviet" in line]


def test_a_draw_offered_and_accepted_ends_the_game_drawn(match: Match) -> None:
    offered = match.play("soviet", "offer-draw", "--note", "peace?")
    assert "offers a draw" in offered.stdout
    match.play("soviet", "move", "place", "4", "in", "29")  # still the soviet's turn
    assert "Draw offered by soviet in entry 3: the other side's next entry accepts it" in (
        match.show("west")
    )
    line = refused(match.homes["soviet"], "accept-draw", match.game)
    assert "only when you sign the next entry, and west signs it now" in line
    accepted = match.play("west", "accept-draw")
    assert "drawn by agreement" in accepted.stdout
    shown = match.show("soviet", "--history")
    assert "Result: drawn by agreement: soviet offered a draw in entry 3, west accepted" in shown
    assert "accepts the draw soviet offered in entry 3" in shown
    assert "OK: every check holds" in match.verify("soviet")


def test_any_other_entry_declines_the_offer(match: Match) -> None:
    match.play("soviet", "offer-draw")
    match.play("soviet", "move", "place", "4", "in", "29")
    match.play("west", "move", "place", "2", "in", "1")
    assert "declines the draw soviet offered in entry 3" in match.show("soviet", "--history")
    # The soviet signs next, and no offer of the other side is open.
    line = refused(match.homes["soviet"], "accept-draw", match.game)
    assert "there is no draw offer of the other side to accept" in line


def test_a_take_back_by_agreement_between_two_stores(match: Match) -> None:
    """The Soviet attacks, then asks by note to take it back; the West proposes the
    take-back, the Soviet accepts, and both stores are back before the attack."""
    client = Client(Store(match.homes["west"]))
    for _ in range(40):  # the Logistics Phase (sealed placements), then the first action
        game = client.game(match.game)
        if game.state["step"] == "action" and game.next_signer() == "soviet":
            break
        match.play(str(game.next_signer()), "move", "1")
    before = client.game(match.game).state
    attacked = match.play("soviet", "move", "1", auto=False)  # the first action listed
    seq = client.game(match.game).head.seq
    assert f"signed entry {seq} by soviet" in attacked.stdout
    line = refused(match.homes["soviet"], "takeback", match.game, str(seq))
    assert "only when you sign the next entry" in line
    line = refused(match.homes["west"], "takeback", match.game, str(seq - 1))
    assert f"entry {seq - 1} cannot be taken back" in line  # a sealed placement
    proposed = match.play("west", "takeback", str(seq), "--note", "take it back")
    assert f"proposes taking back entries from {seq}" in proposed.stdout
    line = refused(match.homes["soviet"], "move", match.game, "1")
    assert f"answer it first (`pbem takeback {match.game} accept` or `decline`)" in line
    accepted = match.play("soviet", "takeback", "accept")
    assert "accepts the take-back; soviet signs next" in accepted.stdout
    for role in ("west", "soviet"):
        assert Client(Store(match.homes[role])).game(match.game).state == before
        assert "OK: every check holds" in match.verify(role)
    history = match.show("west", "--history")
    assert "accepts the take-back west proposed" in history
