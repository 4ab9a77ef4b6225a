"""League standings (issue 17): Elo over the games that verify, per player key; every other
file listed apart with its reason."""

from __future__ import annotations

import json
import mailbox
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.cli import main
from pbem.crypto.keys import PrivateKey
from pbem.ledger import fingerprint
from pbem.standings import START, GameResult, expected, standings
from pbem.testing import SignedTable
from pbem.transport.savefile import save_text
from tests.cli.test_archive_verify import mail, mbox_of, thread

SAVES = Path(__file__).resolve().parents[2] / "saves"


def game(winner: str | None, a: str = "A", b: str = "B", n: int = 1) -> GameResult:
    return GameResult(f"g{n}.pbem", f"g{n}", "toy", {"x": a, "y": b}, winner)


def test_elo_moves_the_winner_up_and_the_loser_down_by_the_same_points() -> None:
    assert expected(1500, 1500) == 0.5
    found = standings([game("x")])
    rows = {r.player: r for r in found.rows}
    assert rows["A"].rating == pytest.approx(START + 16)  # K * (1 - 0.5)
    assert rows["B"].rating == pytest.approx(START - 16)
    assert (rows["A"].wins, rows["A"].losses, rows["B"].wins, rows["B"].losses) == (1, 0, 0, 1)
    assert [r.player for r in found.rows] == ["A", "B"]


def test_a_draw_between_equals_moves_nobody_and_a_favourite_loses_points() -> None:
    found = standings([game(None)])
    assert all(r.rating == START and r.draws == 1 for r in found.rows)
    found = standings([game("x", n=1), game(None, n=2)])  # A 1516 draws with B 1484
    rows = {r.player: r for r in found.rows}
    assert rows["A"].rating < START + 16 and rows["B"].rating > START - 16
    assert rows["A"].rating + rows["B"].rating == pytest.approx(2 * START)


def test_one_key_is_one_player_across_games_and_seats() -> None:
    found = standings([game("x", "A", "B", 1), game("x", "B", "A", 2), game("y", "C", "A", 3)])
    rows = {r.player: r for r in found.rows}
    assert (rows["A"].games, rows["A"].wins, rows["A"].losses) == (3, 2, 1)
    assert rows["B"].games == 2 and rows["C"].games == 1


def test_a_solitaire_game_counts_but_moves_no_rating() -> None:
    solo = GameResult("s.pbem", "s", "barbarossa", {"german": "A"}, "german")
    found = standings([solo])
    assert found.rows[0].wins == 1 and found.rows[0].rating == START


def test_standings_count_only_saves_that_verify(tmp_path: Path) -> None:
    for name in ("race-to-berlin-demo.pbem", "berlin-1945-demo.pbem"):
        shutil.copy(SAVES / name, tmp_path / name)
    tampered = (SAVES / "berlin-1945-demo.pbem").read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(tampered) if line.startswith("rng "))
    words = tampered[index].split(" ")
    words[4] = str(int(words[4]) % 6 + 1)  # another die face
    tampered[index] = " ".join(words)
    (tmp_path / "zz-tampered.pbem").write_text("\n".join(tampered) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["standings", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert len(doc["counted"]) == 2
    assert [Path(x["file"]).name for x in doc["not_counted"]] == ["zz-tampered.pbem"]
    assert doc["not_counted"][0]["why"].startswith("does not verify")
    assert sum(row["wins"] for row in doc["standings"]) == 2
    assert all(row["player"].startswith("SHA256:") for row in doc["standings"])
    text = CliRunner().invoke(main, ["standings", str(tmp_path)])
    assert "2 game(s) counted" in text.output and "not counted:" in text.output


def test_a_forfeit_is_a_loss_in_its_own_column_and_moves_the_ratings() -> None:
    forfeit = GameResult("f.pbem", "f", "toy", {"x": "A", "y": "B"}, "x", forfeited="y")
    found = standings([forfeit])
    rows = {r.player: r for r in found.rows}
    assert (rows["B"].losses, rows["B"].forfeits, rows["A"].wins, rows["A"].forfeits) == (
        1,
        1,
        1,
        0,
    )
    assert rows["A"].rating == pytest.approx(START + 16)
    solo = GameResult("s.pbem", "s", "barbarossa", {"german": "A"}, None, forfeited="german")
    row = standings([solo]).rows[0]
    assert (row.losses, row.forfeits, row.draws) == (1, 1, 0)  # not a draw


def test_a_refereed_save_ended_by_forfeit_counts_it(tmp_path: Path) -> None:
    from pbem.core.referee import FORFEIT, REFEREE
    from pbem.transport.savefile import move_file
    from tests.support.players import Table

    table = Table("toy-dice", ("a", "b", REFEREE), options={"deadline_hours": 24})
    table.join_all()
    table.move("a", "roll")
    table.apply(table.ack_entry(REFEREE))
    head = table.game.head
    body = {
        "forfeit": "b",
        "waited_on": {"seq": head.seq, "id": head.id},
        "since": "2026-12-01T00:00:00Z",
        "deadline": "2026-12-02T00:00:00Z",
        "seen": "2026-12-02T06:00:00Z",
    }
    table.apply(table.make(REFEREE, FORFEIT, body))
    (tmp_path / "forfeit.pbem").write_text(move_file(table.game.entries), encoding="utf-8")
    result = CliRunner().invoke(main, ["standings", str(tmp_path / "forfeit.pbem"), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["counted"][0]["forfeited"] == "b" and doc["counted"][0]["winner"] == "a"
    forfeits = {row["player"]: row["forfeits"] for row in doc["standings"]}
    assert sorted(forfeits.values()) == [0, 1]  # the referee is no player
    text = CliRunner().invoke(main, ["standings", str(tmp_path / "forfeit.pbem")]).output
    assert "forfeit" in text.splitlines()[0]


# --- what counts (issue 27, item 8): the attacks, performed -------------------------------


def finished(nonce: str, keys: dict[str, PrivateKey] | None = None) -> SignedTable:
    """A whole toy-dice game (about ten entries), signed; `keys` fixes some roles' keys."""
    table = SignedTable("toy-dice", ("a", "b"), keys=keys, nonce=nonce)
    table.join_all()
    rng = random.Random(nonce)
    while table.game.outcome() is None:
        table.step(rng)
    return table


def resigned_at_once(a: PrivateKey, nonce: str) -> SignedTable:
    """`a` against a throwaway key that resigns at its first move."""
    table = SignedTable("toy-dice", ("a", "b"), keys={"a": a}, nonce=nonce)
    table.join_all()
    table.move("a", "roll")
    table.apply(table.make("b", "move", {"resign": True}))
    assert table.game.outcome() is not None and table.game.outcome().winner == "a"
    return table


def save_of(table: SignedTable) -> str:
    prints = {role: fingerprint(line) for role, line in table.game.roles.items()}
    return save_text(table.game, "league", prints)


def league_json(*args: str, code: int = 0) -> Any:
    result = CliRunner().invoke(main, ["standings", "--json", *args])
    assert result.exit_code == code, result.output
    return json.loads(result.stdout) if code == 0 else result


def test_eight_copies_of_one_save_count_once(tmp_path: Path) -> None:
    """Before: eight wins, rating 1595. Each copy after the first is listed with where the
    game was counted, and a copy in a mailbox is the same game too."""
    table = finished("copies")
    text = save_of(table)
    for number in range(8):
        (tmp_path / f"copy-{number}.pbem").write_text(text, encoding="utf-8")
    box = tmp_path / "league.mbox"
    box.write_bytes(mbox_of(thread(list(table.game.entries), "copies")))
    doc = league_json(str(tmp_path), str(box))
    assert len(doc["counted"]) == 1 and doc["counted"][0]["game"] == table.game.id
    first = str(tmp_path / "copy-0.pbem")
    assert doc["counted"][0]["file"] == first
    assert [x["file"] for x in doc["not_counted"]] == [
        *(str(tmp_path / f"copy-{n}.pbem") for n in range(1, 8)),
        f"{box}#{table.game.id[:12]}",
    ]
    short = table.game.id[:12]
    assert all(
        x["why"] == f"game {short} counts once: already counted from {first}"
        for x in doc["not_counted"]
    )
    winner = {row["wins"]: row["rating"] for row in doc["standings"]}
    assert winner[1] == pytest.approx(START + 16, abs=0.05)


def test_throwaway_keys_count_only_without_a_roster(tmp_path: Path) -> None:
    """Eight games against throwaway keys that resign at once: 1609 without a roster;
    with `--players FILE` only games whose every player is on it count."""
    alice = SignedTable(nonce="alice").keys["a"]
    bob = SignedTable(nonce="bob").keys["a"]
    games = tmp_path / "games"
    games.mkdir()
    for number in range(8):
        text = save_of(resigned_at_once(alice, f"throwaway-{number}"))
        (games / f"throwaway-{number}.pbem").write_text(text, encoding="utf-8")
    real = finished("real", keys={"a": alice, "b": bob})
    (games / "zz-real.pbem").write_text(save_of(real), encoding="utf-8")
    throwaway = sorted(str(p) for p in games.glob("throwaway-*.pbem"))
    anyone = league_json(*throwaway)  # no roster: the attack, counted as it was
    assert len(anyone["counted"]) == 8
    ratings = {row["player"]: row["rating"] for row in anyone["standings"]}
    assert ratings[alice.public.fingerprint()] == pytest.approx(1609, abs=1)
    roster = tmp_path / "players.txt"
    roster.write_text(
        "# the league's players\n\n"
        f"{alice.public.openssh_line()}\n"
        f"  {bob.public.fingerprint()}  bob, by fingerprint\n",
        encoding="utf-8",
    )
    doc = league_json("--players", str(roster), str(games))
    assert [x["game"] for x in doc["counted"]] == [real.game.id]
    assert len(doc["not_counted"]) == 8
    for item in doc["not_counted"]:
        assert item["why"].startswith(f"not on the roster {roster}: SHA256:")
        assert item["why"].endswith(" (b)")  # the throwaway key, named with its role
    assert {row["player"] for row in doc["standings"]} == {
        alice.public.fingerprint(),
        bob.public.fingerprint(),
    }
    text = CliRunner().invoke(main, ["standings", "--players", str(roster), str(games)])
    assert "1 game(s) counted" in text.output and text.output.count("not on the roster") == 8


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("ssh-ed25519 AAAA", "line 2: public key is damaged"),
        ("SHA256:short", "line 2: not a public-key line"),
        ("alice@example.org", "line 2: not a public-key line"),
    ],
)
def test_a_roster_line_that_is_no_key_is_one_error(tmp_path: Path, line: str, said: str) -> None:
    roster = tmp_path / "players.txt"
    roster.write_text(f"# players\n{line}\n", encoding="utf-8")
    result = league_json("--players", str(roster), str(SAVES), code=1)
    assert result.stderr.startswith(f"error: roster {roster} {said}"), result.stderr
    assert result.stdout == ""


def test_a_roster_naming_nobody_or_missing_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nobody yet\n", encoding="utf-8")
    assert "names no player" in league_json("--players", str(empty), str(SAVES), code=1).stderr
    gone = league_json("--players", str(tmp_path / "gone.txt"), str(SAVES), code=1)
    assert gone.stderr.startswith(f"error: cannot read roster {tmp_path / 'gone.txt'}")


def test_mailboxes_of_several_games_count_each_game(tmp_path: Path) -> None:
    """Before: a mailbox of two games counted nothing (`expected one genesis entry, found
    2`) while `pbem verify` read it. An mbox, a Maildir and a save, in one command."""
    one, two, three, four = (finished(n) for n in ("one", "two", "three", "four"))
    box = tmp_path / "league.mbox"
    box.write_bytes(
        mbox_of([*thread(list(one.game.entries), "one"), *thread(list(two.game.entries), "2")])
    )
    folder = tmp_path / "Maildir"
    maildir = mailbox.Maildir(str(folder), create=True)
    for raw in thread(list(three.game.entries), "three"):
        maildir.add(raw)
    save = tmp_path / "four.pbem"
    save.write_text(save_of(four), encoding="utf-8")
    doc = league_json(str(box), str(folder), str(save))
    assert doc["not_counted"] == []
    assert [x["game"] for x in doc["counted"]] == [t.game.id for t in (one, two, three, four)]
    assert [x["file"] for x in doc["counted"]] == [
        f"{box}#{one.game.id[:12]}",
        f"{box}#{two.game.id[:12]}",
        f"{folder}#{three.game.id[:12]}",
        str(save),
    ]
    # a damaged message of a mailbox is listed, and the games in it still count
    broken = tmp_path / "broken.mbox"
    broken.write_bytes(box.read_bytes() + mbox_of([mail("-----BEGIN PBEM ENTRY-----\n!!\n", "x")]))
    doc = league_json(str(broken))
    assert len(doc["counted"]) == 2
    assert [x["file"].rpartition("#")[2].startswith("message-") for x in doc["not_counted"]] == [
        True
    ]
