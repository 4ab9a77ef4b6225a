"""`pbem show` and `pbem render` in the first hour: a game before every role has joined
(in the creator's store and in the opponent's, after `apply` and before `join`), the list
of the store's games, and "no game" errors that name the store's folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> str:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result.stdout


def created(tmp_path: Path) -> tuple[Path, Path, str]:
    """The player creates a referee game; the referee applies the start file, no join."""
    player, referee = tmp_path / "player", tmp_path / "referee"
    ok(player, "key", "new", "me")
    ok(referee, "key", "new", "ref")
    ok(player, "key", "import", "referee", str(referee / "keys" / "ref.pub"))
    start = tmp_path / "start.txt"
    result = run(
        player, "new", "barbarossa", "--key", "german=me", "--key", "referee=referee",
        "-o", str(start),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    found = re.search(r"game ([0-9a-f]{64})", result.stderr)
    assert found is not None
    ok(referee, "apply", str(start))
    return player, referee, found.group(1)


def test_show_before_the_joins_in_the_creators_store(tmp_path: Path) -> None:
    player, _, game = created(tmp_path)
    shown = ok(player, "show", game[:8])
    assert "Waiting for: referee (join the game)" in shown
    assert "joined german; to join referee" in shown
    assert f"then `pbem join {game[:12]}`" in shown  # what the opponent must do
    assert "role german (you)" in shown
    assert "Traceback" not in shown


def test_show_before_the_join_in_the_opponents_store(tmp_path: Path) -> None:
    _, referee, game = created(tmp_path)
    shown = ok(referee, "show", game[:8])
    assert "Waiting for: referee (join the game)" in shown
    assert "joined german; to join referee" in shown
    assert "role referee (you)" in shown
    assert f"`pbem join {game[:12]}` to join." in shown
    assert "in their store" not in shown  # the join is ours to make
    assert "seq 1 german: joined" in ok(referee, "show", game[:8], "--history")


@pytest.mark.parametrize("store", ["player", "referee"])
@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_render_before_the_joins(tmp_path: Path, store: str, fmt: str) -> None:
    created(tmp_path)
    home = tmp_path / store
    game = ok(home, "show").split("\t", 1)[0]
    for role in ([], ["--role", "public"]):
        rendered = ok(home, "render", game, "--format", fmt, *role)
        assert "Traceback" not in rendered and "Undefined" not in rendered
        assert "Operation Barbarossa" in rendered
        assert "referee (join the game)" in rendered  # waiting for the join
    if fmt == "html" and store == "referee":  # the opponent's page says how to join
        assert f"pbem join {game}" in ok(home, "render", game, "--format", "html")


def test_show_without_a_game_lists_turn_and_what_is_asked(tmp_path: Path) -> None:
    player, referee, game = created(tmp_path)
    short = game[:12]
    (mine,) = ok(player, "show").splitlines()
    assert mine.split("\t") == [
        short,
        "barbarossa",
        "Operation Barbarossa",
        "waiting for joins: referee",
        "you are german: nothing asked of you now",
    ]
    (theirs,) = ok(referee, "show").splitlines()
    assert theirs.split("\t")[3:] == [
        "waiting for joins: referee",
        f"you are referee: join as referee with `pbem join {short}`",
    ]

    join = tmp_path / "join.txt"
    ok(referee, "join", short, "-o", str(join))
    ok(player, "apply", str(join))
    (mine,) = ok(player, "show").splitlines()
    turn, asked = mine.split("\t")[3:]
    assert turn.startswith("turn of german (")
    assert re.fullmatch(
        rf"you are german: your move as german \(\d+ choices?: `pbem show {short}`\)", asked
    )
    (theirs,) = ok(referee, "show").splitlines()
    assert theirs.split("\t")[4] == "you are referee: nothing asked of you now"


def test_an_empty_store_says_so_and_names_its_folder(tmp_path: Path) -> None:
    home = tmp_path / "empty"
    listing = ok(home, "show")
    assert listing == f"no games in the store at {home.resolve()}\n"


def test_no_game_names_the_store_folder(tmp_path: Path) -> None:
    player, _, _ = created(tmp_path)
    for args in (["show", "abc123"], ["render", "abc123"], ["join", "abc123"]):
        result = run(player, *args)
        assert result.exit_code == 1
        assert f"no game 'abc123' in the store at {player.resolve()}" in result.stderr, args
        assert len(result.stderr.strip().splitlines()) == 1
