"""The `pbem` command line through click's CliRunner: a referee game end to end, and errors."""

from __future__ import annotations

import os
import re
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from pbem.cli import main


def run(home: Path, *args: str, input: str | None = None) -> Result:
    runner = CliRunner()
    return runner.invoke(main, ["--home", str(home), *args], input=input, catch_exceptions=False)


def ok(home: Path, *args: str, input: str | None = None) -> str:
    result = run(home, *args, input=input)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result.stdout


def entry_count(home: Path) -> int:
    with sqlite3.connect(home / "store.db") as db:
        return int(db.execute("select count(*) from entries").fetchone()[0])


def start_game(tmp_path: Path) -> tuple[Path, Path, str]:
    """Player and referee make keys; the player starts a game; the referee joins."""
    player, referee = tmp_path / "player", tmp_path / "referee"
    fingerprint = ok(player, "key", "new", "me")
    assert re.fullmatch(r"256 SHA256:[A-Za-z0-9+/]{43} me \(ED25519\)\n", fingerprint)
    ok(referee, "key", "new", "ref")
    ok(player, "key", "import", "referee", str(referee / "keys" / "ref.pub"))
    start = tmp_path / "start.txt"
    result = run(
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
    assert result.exit_code == 0, result.output
    game_id = re.search(r"game ([0-9a-f]{64})", result.stderr)
    assert game_id is not None
    assert "applied: entry 0 by german" in ok(referee, "apply", str(start))
    join = tmp_path / "join.txt"
    ok(referee, "join", game_id.group(1)[:10], "-o", str(join))
    assert "applied: entry 2 by referee" in ok(player, "apply", str(join))
    return player, referee, game_id.group(1)


def test_a_referee_game_runs_through_the_cli(tmp_path: Path) -> None:
    player, referee, game = start_game(tmp_path)
    shown = ok(player, "show", game[:8])
    assert "role german (you)" in shown and "1. roll event" in shown

    move = tmp_path / "m1.txt"
    ok(player, "move", game[:8], "1", "-o", str(move))  # by number: roll event
    # The dice wait for the referee: the player cannot go on.
    refused = run(player, "move", game[:8], "accept")
    assert refused.exit_code == 1
    assert "not your turn" in refused.stderr
    ok(referee, "apply", "--no-auto", str(move))
    ack = tmp_path / "a1.txt"
    ok(referee, "ack", game[:8], "-o", str(ack))
    ok(player, "apply", str(ack))
    shown = ok(player, "show", game[:8])
    assert "roll event die:" in shown  # the result of the roll is shown with its purpose
    assert "accept" in shown

    save = tmp_path / "game.pbem"
    ok(player, "export", game[:8], "-o", str(save))
    verified = ok(player, "verify", str(save))
    assert "OK: every check holds" in verified
    assert "witnessed" in verified and "SELF-WITNESSED" not in verified
    history = ok(player, "replay", str(save))
    assert re.search(r"rng 3 4 1\.\.6 [1-6] event die", history)
    summary = ok(player, "render", game[:8], "--format", "markdown")
    assert summary.startswith("# Operation Barbarossa")
    assert "roll *event die*" in summary


def test_refused_entries_change_nothing_and_say_one_line(tmp_path: Path) -> None:
    player, referee, game = start_game(tmp_path)
    move = tmp_path / "m1.txt"
    ok(player, "move", game[:8], "roll", "event", "-o", str(move))
    text = move.read_text()
    # Damage one armor character: a signature/armor error, never a rules error.
    lines = text.splitlines()
    armor_line = next(i for i, line in enumerate(lines) if line and line[0] in "ABCDEFGHIJ")
    lines[armor_line] = ("B" if lines[armor_line][0] != "B" else "C") + lines[armor_line][1:]
    damaged = tmp_path / "damaged.txt"
    damaged.write_text("\n".join(lines) + "\n")
    before = entry_count(referee)
    result = run(referee, "apply", str(damaged))
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert entry_count(referee) == before

    # An illegal move is refused by the mover's own pbem, quoting the rule.
    result = run(player, "move", game[:8], "attack", "minsk", "with", "1")
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1


def test_wrong_game_and_unknown_text_are_clear_errors(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (tmp_path / "junk.txt").write_text("hello, no entries here\n")
    result = run(home, "apply", str(tmp_path / "junk.txt"))
    assert result.exit_code == 1 and "no PBEM entries" in result.stderr
    result = run(home, "show", "abcdef")
    assert result.exit_code == 1 and "no game" in result.stderr
    result = run(home, "verify", str(tmp_path / "missing.pbem"))
    assert result.exit_code == 1 and "cannot read" in result.stderr


@pytest.mark.parametrize("rules", ["barbarossa", "race-to-berlin", "berlin-1945"])
def test_demo_writes_a_save_that_verifies(tmp_path: Path, rules: str) -> None:
    out = tmp_path / "demo"
    printed = ok(tmp_path / "home", "demo", rules, "--dir", str(out))
    save = out / f"{rules}-demo.pbem"
    assert f"save:    {save}" in printed
    assert save.exists() and (out / "summary.md").exists()
    assert len(list((out / "moves").iterdir())) > 20
    assert "OK: every check holds" in ok(tmp_path / "home", "verify", str(save))


def test_keys_and_store_are_private(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ok(home, "key", "new", "me")
    assert stat.S_IMODE(os.stat(home / "keys" / "me").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(home / "store.db").st_mode) == 0o600
    listed = ok(home, "key", "list")
    assert listed.startswith("me\tSHA256:") and "private" in listed


def test_rules_lists_barbarossa(tmp_path: Path) -> None:
    assert "barbarossa\tOperation Barbarossa" in ok(tmp_path, "rules")


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    found = []
    for name, command in group.commands.items():
        found.append((prefix + name, command))
        if isinstance(command, click.Group):
            found += _commands(command, prefix + name + " ")
    return found


def test_every_command_has_help_text() -> None:
    commands = _commands(main)
    names = {name for name, _ in commands}
    for wanted in (
        "key new",
        "key import",
        "new",
        "join",
        "show",
        "move",
        "ack",
        "apply",
        "verify",
        "replay",
        "export",
        "render",
        "demo",
        "rules",
    ):
        assert wanted in names
    for name, command in commands:
        assert command.help and command.help.strip(), f"pbem {name} has no help text"


def test_help_imports_neither_jinja2_nor_sqlite_utils() -> None:
    probe = (
        "import sys; sys.argv = ['pbem', '--help']\n"
        "from pbem.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('jinja2', 'sqlite_utils') if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "HEAVY []" in out.stdout


def test_apply_reads_a_raw_quoted_printable_email(tmp_path: Path) -> None:
    from email.message import EmailMessage

    player, referee, game = start_game(tmp_path)
    move = tmp_path / "m1.txt"
    ok(player, "move", game[:8], "roll", "event", "-o", str(move))
    mail = EmailMessage()
    mail["From"] = "player@example.org"
    mail["To"] = "referee@example.org"
    mail["Subject"] = "[pbem] my move"
    mail.set_content("Hi, here is my move.\n\n" + move.read_text(), cte="quoted-printable")
    raw = tmp_path / "move.eml"
    raw.write_bytes(bytes(mail).replace(b"\n", b"\r\n"))
    assert "applied: entry 3 by german" in ok(referee, "apply", str(raw))


def test_two_signed_entries_for_one_seq_print_an_equivocation_proof(tmp_path: Path) -> None:
    import shutil

    from pbem.crypto.keys import generate, write_private_key
    from pbem.store.journal import default_state

    solo = tmp_path / "solo"
    # The key file lives outside the store, so the copy below signs with the same file; its
    # signing journal is in the state folder (conftest's), apart from both stores.
    own = tmp_path / "ssh" / "me"
    own.parent.mkdir()
    write_private_key(own, generate("me"))
    ok(solo, "key", "import", "me", str(own))
    start = tmp_path / "start.txt"
    result = run(solo, "new", "barbarossa", "--key", "german=me", "-o", str(start))
    game = re.search(r"game ([0-9a-f]{64})", result.stderr)
    assert game is not None
    first = tmp_path / "roll.txt"
    ok(solo, "move", game.group(1)[:8], "roll", "event", "-o", str(first))
    # The same player, from a copy of its store, signs two different next entries.
    twin = tmp_path / "twin"
    shutil.copytree(solo, twin)
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    ok(solo, "move", game.group(1)[:8], "accept", "-o", str(a))
    # An honest client refuses (the key's signing journal knows seq 3 was signed:
    # tests/hardening/test_reveal_reuse.py); a cheater deletes the journal and signs anyway.
    refused = run(twin, "move", game.group(1)[:8], "reroll", "event", "-o", str(b))
    assert refused.exit_code == 1 and "already signed" in refused.stderr
    shutil.rmtree(default_state() / "journals")
    ok(twin, "move", game.group(1)[:8], "reroll", "event", "-o", str(b))
    thread = tmp_path / "thread.txt"
    thread.write_text("".join(p.read_text() for p in (start, first, a, b)))
    result = run(tmp_path / "referee", "verify", str(thread))
    assert result.exit_code == 1
    assert "EQUIVOCATION: role german" in result.stdout
    assert result.stdout.count("-----BEGIN PBEM ENTRY-----") >= 2
    assert result.stderr.startswith("error: EQUIVOCATION")

    # Applying the other branch to the first store prints the same proof and changes nothing.
    before = entry_count(solo)
    result = run(solo, "apply", str(b))
    assert result.exit_code == 1 and "EQUIVOCATION" in result.stderr
    assert result.stdout.count("-----BEGIN PBEM ENTRY-----") == 2
    assert entry_count(solo) == before


def test_a_solo_game_verifies_as_self_witnessed(tmp_path: Path) -> None:
    solo = tmp_path / "solo"
    ok(solo, "key", "new", "me")
    result = run(solo, "new", "barbarossa", "--key", "german=me")
    game = re.search(r"game ([0-9a-f]{64})", result.stderr)
    assert game is not None
    ok(solo, "move", game.group(1)[:8], "roll", "event")
    ok(solo, "move", game.group(1)[:8], "accept")
    save = tmp_path / "solo.pbem"
    ok(solo, "export", game.group(1)[:8], "-o", str(save))
    verified = ok(solo, "verify", str(save))
    assert "SELF-WITNESSED" in verified and "OK: every check holds" in verified


def test_key_import_of_a_passphrase_protected_ssh_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.crypto.keys import generate, write_private_key

    key_file = tmp_path / "id_ed25519"
    key = generate("alice@laptop")
    write_private_key(key_file, key, b"correct horse")
    home = tmp_path / "home"
    monkeypatch.setenv("PBEM_PASSPHRASE", "wrong")
    result = run(home, "key", "import", "alice", str(key_file))
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1
    monkeypatch.setenv("PBEM_PASSPHRASE", "correct horse")
    printed = ok(home, "key", "import", "alice", str(key_file))
    assert printed.strip() == key.public.fingerprint_line().replace("alice@laptop", "alice")
    # The imported key signs: a solo game can be started with it.
    result = run(home, "new", "barbarossa", "--key", "german=alice")
    assert result.exit_code == 0, result.output


def test_a_game_with_a_user_gamesheet(tmp_path: Path) -> None:
    from pbem.games.barbarossa.rules import ENGINE

    shipped = ENGINE.default_data()["gamesheet.toml"].decode()
    mine = tmp_path / "my-sheet.toml"
    mine.write_text(shipped.replace('label = "late June"', 'label = "22 June"'))
    broken = tmp_path / "broken.toml"
    broken.write_text(shipped.replace("supply = 4", "supply = -1", 1))

    player, referee = tmp_path / "player", tmp_path / "referee"
    ok(player, "key", "new", "me")
    result = run(
        player, "new", "barbarossa", "--key", "german=me", "--data", f"gamesheet.toml={broken}"
    )
    assert result.exit_code == 1
    assert "gamesheet.toml" in result.stderr and len(result.stderr.strip().splitlines()) == 1

    start = tmp_path / "start.txt"
    result = run(
        player,
        "new",
        "barbarossa",
        "--key",
        "german=me",
        "--data",
        f"gamesheet.toml={mine}",
        "-o",
        str(start),
    )
    assert result.exit_code == 0, result.output
    # Another store cannot check the game without the file, and says which one it needs.
    refused = run(referee, "apply", str(start))
    assert refused.exit_code == 1 and "--data" in refused.stderr
    assert "applied" in ok(referee, "apply", str(start), "--data", f"gamesheet.toml={mine}")
    result = run(referee, "verify", str(start))
    assert result.exit_code == 1
    assert "OK" in ok(referee, "verify", str(start), "--data", f"gamesheet.toml={mine}")


def test_usage_errors_are_one_line(tmp_path: Path) -> None:
    for args in (["move"], ["frobnicate"], ["key", "new"], ["render", "x", "--format", "pdf"]):
        result = run(tmp_path, *args)
        assert result.exit_code != 0
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert result.stderr.startswith("error: ")


def test_export_since_sends_entries_again(tmp_path: Path) -> None:
    player, referee, game = start_game(tmp_path)
    ok(player, "move", game[:8], "roll", "event")
    again = tmp_path / "again.txt"
    ok(player, "export", game[:8], "--since", "3", "-o", str(again))
    assert again.read_text().count("-----BEGIN PBEM ENTRY-----") == 1
    assert "applied: entry 3 by german" in ok(referee, "apply", str(again))
    assert "already had: entry 3 by german" in ok(referee, "apply", str(again))


def test_output_to_a_device_a_pipe_or_a_symlink_writes_into_it(tmp_path: Path) -> None:
    """`-o /dev/null` once replaced the device with a regular file (as root); a pipe or a
    symlink given to -o must likewise be written into, not renamed over."""
    import threading

    player, _referee, game = start_game(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    ok(player, "export", game[:8], "-o", str(fifo))
    reader.join(timeout=30)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert got and got[0].startswith(b"PBEM SAVE v1")

    target = tmp_path / "real.pbem"
    target.write_text("old\n")
    link = tmp_path / "link.pbem"
    link.symlink_to(target)
    ok(player, "export", game[:8], "-o", str(link))
    assert link.is_symlink() and target.read_text().startswith("PBEM SAVE v1")

    ok(player, "export", game[:8], "-o", os.devnull)
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
