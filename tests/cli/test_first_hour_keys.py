"""The first hour with keys: import says which kind it took, a private key given as an
opponent's is refused, `key rm`, what `key new` tells to send, a wrong key at join."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.crypto.keys import generate, write_private_key


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> Result:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result


def keys(home: Path) -> dict[str, str]:
    rows = ok(home, "key", "list").stdout.splitlines()
    return {line.split("\t")[0]: line.split("\t")[2] for line in rows}


def own_key_file(tmp_path: Path) -> Path:
    path = tmp_path / "ssh" / "id_ed25519"
    path.parent.mkdir()
    write_private_key(path, generate("me@laptop"))
    return path


def test_key_import_says_which_kind_and_echoes_the_name(tmp_path: Path) -> None:
    home, own = tmp_path / "home", own_key_file(tmp_path)
    result = ok(home, "key", "import", "me", str(own))
    assert re.fullmatch(r"256 SHA256:\S{43} me \(ED25519\)\n", result.stdout)
    assert "imported me: your own key, for signing" in result.stderr
    bob = tmp_path / "bob"
    write_private_key(bob, generate("robert@elsewhere"))
    result = ok(home, "key", "import", "bob", str(bob.with_name("bob.pub")))
    assert re.fullmatch(r"256 SHA256:\S{43} bob \(ED25519\)\n", result.stdout)
    assert "robert" not in result.stdout
    assert "imported bob: an opponent's public key" in result.stderr
    assert keys(home) == {"me": "private", "bob": "public"}


def test_own_private_key_imported_as_an_opponent_is_refused(tmp_path: Path) -> None:
    home, own = tmp_path / "home", own_key_file(tmp_path)
    ok(home, "key", "import", "me", str(own))
    result = run(home, "key", "import", "bob", str(own))
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert "already in this store as 'me'" in result.stderr
    assert keys(home) == {"me": "private"}
    # The same with a key made by `key new`.
    ok(home, "key", "new", "mine")
    result = run(home, "key", "import", "bob", str(home / "keys" / "mine"))
    assert result.exit_code == 1 and "as 'mine'" in result.stderr


def test_key_import_public_takes_only_the_public_half(tmp_path: Path) -> None:
    home, other = tmp_path / "home", own_key_file(tmp_path)
    result = ok(home, "key", "import", "bob", "--public", str(other))
    assert "imported bob: an opponent's public key" in result.stderr
    assert keys(home) == {"bob": "public"}


def test_key_new_prints_the_pub_file_and_the_line_to_send(tmp_path: Path) -> None:
    home = tmp_path / "home"
    result = ok(home, "key", "new", "me")
    assert re.fullmatch(r"256 SHA256:\S{43} me \(ED25519\)\n", result.stdout)
    pub = home / "keys" / "me.pub"
    assert result.stderr == f"send your opponent {pub}, this line: {pub.read_text()}"


def start_solo(home: Path) -> str:
    ok(home, "key", "new", "me")
    return ok(home, "new", "barbarossa", "--key", "german=me").stdout.strip()


def test_key_rm_refuses_a_key_a_game_uses_unless_forced(tmp_path: Path) -> None:
    home = tmp_path / "home"
    game = start_solo(home)
    result = run(home, "key", "rm", "me")
    assert result.exit_code == 1
    assert f"german in game {game[:12]}" in result.stderr and "--force" in result.stderr
    result = ok(home, "key", "rm", "me", "--force")
    assert "removed key 'me'" in result.stderr
    assert "--delete-file removes it" in result.stderr
    assert keys(home) == {}
    # Only the row went: the key file stays, and `key new me` adopts it again.
    assert (home / "keys" / "me").exists() and (home / "keys" / "me.pub").exists()
    ok(home, "key", "new", "me")
    assert keys(home) == {"me": "private"}
    assert "role german (you)" in ok(home, "show", game[:8]).stdout


def test_key_rm_deletes_a_key_new_file_only_when_asked(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ok(home, "key", "new", "spare")
    ok(home, "key", "rm", "spare", "--delete-file")
    assert keys(home) == {}
    assert not (home / "keys" / "spare").exists()
    assert not (home / "keys" / "spare.pub").exists()


def test_key_rm_never_deletes_an_imported_private_key_file(tmp_path: Path) -> None:
    home, own = tmp_path / "home", own_key_file(tmp_path)
    ok(home, "key", "import", "me", str(own))
    result = run(home, "key", "rm", "me", "--delete-file")
    assert result.exit_code == 1 and "never deletes it" in result.stderr
    assert keys(home) == {"me": "private"}
    result = ok(home, "key", "rm", "me")
    assert f"kept the private key file {own}" in result.stderr
    assert own.exists() and keys(home) == {}
    assert run(home, "key", "rm", "me").exit_code == 1  # no such key any more


def test_a_wrong_key_at_join_names_the_fingerprints(tmp_path: Path) -> None:
    player, referee = tmp_path / "player", tmp_path / "referee"
    ok(player, "key", "new", "me")
    ref_print = ok(referee, "key", "new", "ref").stdout.split()[1]
    other_print = ok(referee, "key", "new", "other").stdout.split()[1]
    # The player imports the wrong public key for the referee.
    ok(player, "key", "import", "referee", str(referee / "keys" / "other.pub"))
    start = tmp_path / "start.txt"
    made = ok(
        player,
        "new",
        "barbarossa",
        "--key",
        "german=me",
        "--key",
        "referee=referee",
        "-o",
        str(start),
    )
    game = made.stdout.strip()
    ok(referee, "key", "rm", "other", "--delete-file")
    ok(referee, "apply", str(start))
    result = run(referee, "join", game[:8])
    assert result.exit_code == 1
    message = result.stderr
    assert len(message.strip().splitlines()) == 1
    assert "holds the private key of no role" in message
    assert f"referee {other_print}" in message and "german SHA256:" in message
    assert f"your private keys: ref {ref_print}" in message
