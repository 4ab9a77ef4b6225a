"""League standings (issue 17): Elo over the games that verify, per player key; every other
file listed apart with its reason."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.standings import START, GameResult, expected, standings

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
