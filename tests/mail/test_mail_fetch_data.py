"""`pbem mail fetch --data NAME=FILE`: a game started with the player's own data file
(`pbem new --data`) arrives by mail (issue 14).

The genesis names the file by its SHA-256 (protocol: data files); a store that has not
got it cannot check the game and refuses the message in one line that names the file
and --data. With the file, the game is stored (its data file with it), or held as an
invitation and accepted, as `pbem apply --data` does for a move file.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.games.barbarossa.rules import ENGINE
from tests.mail.test_mail_fetch import fetch, message, write_maildir, write_mbox


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> Result:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result


def games(home: Path) -> list[str]:
    from pbem.store import Store

    return [str(g["id"]) for g in Store(home).games()]


def own_sheet_game(tmp_path: Path) -> tuple[Path, str, str]:
    """A Barbarossa game started with the player's own gamesheet.toml: (the file, the
    game id, the text of the move file that starts it)."""
    shipped = ENGINE.default_data()["gamesheet.toml"].decode()
    mine = tmp_path / "my-sheet.toml"
    mine.write_text(shipped.replace('label = "late June"', 'label = "22 June"'))
    assert mine.read_text() != shipped
    player, referee = tmp_path / "player", tmp_path / "referee"
    ok(player, "key", "new", "me")
    ok(referee, "key", "new", "ref")
    ok(player, "key", "import", "referee", str(referee / "keys" / "ref.pub"))
    start = tmp_path / "start.txt"
    made = ok(
        player,
        "new",
        "barbarossa",
        "--key",
        "german=me",
        "--key",
        "referee=referee",
        "--data",
        f"gamesheet.toml={mine}",
        "-o",
        str(start),
    )
    return mine, made.stdout.strip(), start.read_text()


def test_fetch_applies_a_game_with_its_own_data_file_only_with_data(tmp_path: Path) -> None:
    mine, game, text = own_sheet_game(tmp_path)
    # The player's second store ("the laptop") holds a copy of the player's key.
    laptop = tmp_path / "laptop"
    ok(laptop, "key", "import", "me", str(tmp_path / "player" / "keys" / "me"))
    box = tmp_path / "Maildir"
    write_maildir(box, [message([], "new game", body="Hi, a new game.\n\n" + text)])

    refused = fetch(laptop, "--maildir", str(box))
    assert refused.exit_code == 1
    [line] = refused.stdout.splitlines()
    assert "refused" in line
    assert "this game uses its own gamesheet.toml" in line and "--data" in line
    assert games(laptop) == []

    applied = fetch(laptop, "--maildir", str(box), "--data", f"gamesheet.toml={mine}")
    assert applied.exit_code == 0, applied.output
    assert f"applied game {game[:12]} seqs 0-1" in applied.stdout
    assert games(laptop) == [game]
    # The store kept the file: the game replays (and exports) with no --data from now on.
    exported = ok(laptop, "export", game[:8]).stdout
    checked = CliRunner().invoke(
        main,
        ["--home", str(tmp_path / "checker"), "verify", "-", "--data", f"gamesheet.toml={mine}"],
        input=exported,
    )
    assert checked.exit_code == 0, checked.output


def test_an_invitation_with_its_own_data_file_is_held_and_accepted_with_data(
    tmp_path: Path,
) -> None:
    mine, game, text = own_sheet_game(tmp_path)
    referee = tmp_path / "referee"
    box = tmp_path / "mbox"
    write_mbox(box, [message([], "new game", body=text)])

    refused = fetch(referee, "--mbox", str(box), "--accept", game[:10])
    assert refused.exit_code == 1
    assert "this game uses its own gamesheet.toml" in refused.stdout
    assert games(referee) == []

    # Held as an invitation; its data file is kept with it, so a later accept (here a
    # plain `pbem join`) needs no --data again.
    held = fetch(referee, "--mbox", str(box), "--data", f"gamesheet.toml={mine}")
    assert held.exit_code == 0, held.output
    assert re.search(rf"invitation.*{game[:12]}", held.stdout), held.stdout
    assert games(referee) == []
    joined = ok(referee, "join", game[:10], "-o", str(tmp_path / "join.txt"))
    assert "accepted the invitation" in joined.output
    assert games(referee) == [game]
    assert (
        "applied: entry 2 by referee"
        in ok(tmp_path / "player", "apply", str(tmp_path / "join.txt")).stdout
    )


def test_fetch_accepts_an_invitation_with_its_data_file_in_one_run(tmp_path: Path) -> None:
    mine, game, text = own_sheet_game(tmp_path)
    referee = tmp_path / "referee"
    box = tmp_path / "Maildir"
    write_maildir(box, [message([], "new game", body=text)])
    result = fetch(
        referee, "--maildir", str(box), "--data", f"gamesheet.toml={mine}", "--accept", game[:10]
    )
    assert result.exit_code == 0, result.output
    assert "accepted the invitation" in result.stdout
    assert games(referee) == [game]
