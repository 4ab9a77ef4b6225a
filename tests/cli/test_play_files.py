"""`pbem play` without mail (issue 14): it writes a move file of everything the other side
has not got, asks for theirs, applies it, answers what needs no person and shows the next
decision; a wrong decision or a wrong file is one error line and play goes on."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.client import Client
from pbem.play import Player
from pbem.store import Store


def run(home: Path, *args: str, given: str = "") -> Result:
    return CliRunner().invoke(
        main, ["--home", str(home), *args], input=given, catch_exceptions=False
    )


def ok(home: Path, *args: str, given: str = "") -> str:
    result = run(home, *args, given=given)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result.stdout


def barbarossa(tmp_path: Path) -> tuple[Path, Path, str]:
    player, referee = tmp_path / "player", tmp_path / "referee"
    ok(player, "key", "new", "me")
    ok(referee, "key", "new", "ref")
    ok(player, "key", "import", "referee", str(referee / "keys" / "ref.pub"))
    made = run(player, "new", "barbarossa", "--key", "german=me", "--key", "referee=referee",
               "-o", str(tmp_path / "start.txt"))  # fmt: skip
    game = made.stdout.strip()
    ok(referee, "apply", str(tmp_path / "start.txt"))
    ok(referee, "join", game[:12], "-o", str(tmp_path / "join.txt"))
    ok(player, "apply", str(tmp_path / "join.txt"))
    return player, referee, game


def test_play_shows_the_board_refuses_a_wrong_decision_and_stops(tmp_path: Path) -> None:
    player, _referee, game = barbarossa(tmp_path)
    shown = ok(player, "play", game[:12], "--dir", str(tmp_path), given="attack moscow\nq\n")
    assert "role german (you)" in shown and "1. roll event" in shown
    assert "error: " in shown  # the wrong decision: one line, and play goes on
    assert shown.rstrip().endswith("stopped: `pbem play` again to go on")
    assert len(Client(Store(player)).game(game).entries) == 3  # nothing signed


def test_play_by_move_files_until_the_next_decision(tmp_path: Path) -> None:
    player, referee, game = barbarossa(tmp_path)
    said: list[str] = []
    asked: list[str] = []

    def ask(prompt: str) -> str | None:
        asked.append(prompt)
        if prompt.startswith("german> "):
            return "roll event" if len(asked) == 1 else "q"
        # waiting: the referee applies the file play wrote, and answers by itself
        (written,) = sorted(tmp_path.glob("pbem-*.txt"))
        if len(asked) == 2:
            return str(tmp_path / "nonexistent.txt")  # a wrong path: one line, ask again
        back = tmp_path / "back.txt"
        ok(referee, "apply", str(written), "-o", str(back))
        return str(back)

    client = Client(Store(player))
    Player(client, game, said.append, ask, None, sleep=lambda _s: None, interval=1,
           folder=tmp_path).run()  # fmt: skip
    text = "\n".join(said)
    assert "signed entry 3 by german: roll event" in text
    assert f"wrote 1 entry to {tmp_path / f'pbem-{game[:12]}-3.txt'}" in text
    assert "error: cannot read" in text
    assert "applied: entry 4 by referee" in text
    assert asked[-1] == "german> " and "their move file" in asked[1]
    assert len(Client(Store(player)).game(game).entries) == 5
