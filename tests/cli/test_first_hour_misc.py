"""First hour without traps (issue 14): `G=$(pbem new ...)`, two commands racing on one
store, error messages in words, and mail commands that need no password they do not use."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.client import Client
from pbem.errors import IllegalOrderError, InvalidOrderError, PbemError, StoreError
from pbem.store import Store
from pbem.store.store import GAME_CHANGED, STORE_BUSY

GAME_ID = re.compile(r"[0-9a-f]{64}")


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> Result:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result


def one_error(result: Result) -> str:
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def solo_game(home: Path) -> str:
    ok(home, "key", "new", "me")
    return ok(home, "new", "barbarossa", "--key", "german=me").stdout.strip()


# --- `pbem new`: the game id alone on standard output -------------------------------------------


def test_new_prints_the_full_game_id_alone_on_stdout(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ok(home, "key", "new", "me")
    result = ok(home, "new", "barbarossa", "--key", "german=me")
    assert GAME_ID.fullmatch(result.stdout.removesuffix("\n")), result.stdout
    game = result.stdout.strip()
    # Everything else on stderr: the human line (as before) and the move file.
    assert f"game {game}" in result.stderr
    assert "-----BEGIN PBEM ENTRY-----" in result.stderr
    assert ok(home, "show", game[:8]).exit_code == 0


def test_new_with_output_writes_the_move_file_and_prints_only_the_id(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ok(home, "key", "new", "me")
    start = tmp_path / "start.txt"
    result = ok(home, "new", "barbarossa", "--key", "german=me", "-o", str(start))
    game = result.stdout.strip()
    assert result.stdout == game + "\n" and GAME_ID.fullmatch(game)
    assert f"game {game}" in result.stderr and f"to {start}" in result.stderr
    assert "-----BEGIN PBEM ENTRY-----" in start.read_text()
    # The file is the move file it always was: another store applies it.
    applied = ok(tmp_path / "other", "apply", str(start)).stdout
    assert "applied: entry 0" in applied


def test_new_signs_the_game_options_into_the_genesis(tmp_path: Path) -> None:
    """Götterdämmerung's optional rules (12.1-12.5) are chosen at game creation."""
    home = tmp_path / "home"
    ok(home, "key", "new", "s")
    ok(home, "key", "new", "g")
    keys = ("--key", "soviet=s", "--key", "german=g")
    game = ok(home, "new", "gotterdammerung", *keys, "--option", "curse=true").stdout.strip()
    state = Client(Store(home)).game(game).state
    assert state["options"]["curse"] is True and state["support_points"] == 10  # 12.24
    bad = one_error(run(home, "new", "gotterdammerung", *keys, "--option", "cursed=true"))
    assert "unknown option cursed" in bad
    assert "expected NAME=VALUE" in one_error(
        run(home, "new", "gotterdammerung", *keys, "--option", "x")
    )
    bad = one_error(run(home, "new", "barbarossa", "--key", "german=s", "--option", "curse=true"))
    assert "barbarossa has no options" in bad


# --- two pbem commands on one store -------------------------------------------------------------


def test_the_loser_of_a_race_on_one_store_says_the_game_changed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    game = solo_game(home)
    winner, loser = Client(Store(home)), Client(Store(home))
    stale = loser.game(game)  # the loser has replayed the game ...
    winner.move(game, "roll event")  # ... when the winner signs and stores the next entry
    loser.game = lambda prefix: stale  # type: ignore[method-assign]
    with pytest.raises(StoreError) as caught:
        loser.move(game, "roll event")
    assert str(caught.value) == GAME_CHANGED
    assert "UNIQUE" not in str(caught.value) and "try again" in str(caught.value)
    # Nothing of the loser's entry was kept (not in the store, not in the key's journal):
    # trying again works.
    assert len(Store(home).entries(game)) == 3
    again = ok(home, "move", game[:8], "accept")
    assert again.exit_code == 0


def test_the_race_through_the_command_line_is_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    game = solo_game(home)
    stale = Client(Store(home)).game(game)
    ok(home, "move", game[:8], "roll", "event")
    monkeypatch.setattr(Client, "game", lambda self, prefix: stale)
    line = one_error(run(home, "move", game[:8], "roll", "event"))
    assert "the game changed" in line and "try again" in line
    assert "UNIQUE" not in line and "constraint" not in line


def test_a_duplicate_row_in_a_transaction_is_the_same_clear_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    game = solo_game(home)
    store = Store(home)
    row = store.entries(game)[-1]
    with pytest.raises(StoreError) as caught, store.transaction():
        store.add_entry(game, row["seq"], row["id"], row["canonical"], row["signature"])
    assert str(caught.value) == GAME_CHANGED
    assert not store.db.conn.in_transaction
    assert len(store.entries(game)) == 2


def test_a_store_another_command_is_writing_to_is_busy_not_locked(tmp_path: Path) -> None:
    home = tmp_path / "home"
    holder, waiter = Store(home), Store(home)
    waiter.db.conn.execute("PRAGMA busy_timeout = 50")
    with holder.transaction():
        holder.add_game("ab" * 32, "barbarossa", "")
        with pytest.raises(StoreError) as caught, waiter.transaction():
            pass
    assert str(caught.value) == STORE_BUSY
    assert "database is locked" not in str(caught.value)
    with waiter.transaction():  # free again
        pass


# --- error messages in words --------------------------------------------------------------------


def python_free(message: str) -> None:
    for fragment in ("[[", "None", "{'", "('", "[]"):
        assert fragment not in message, f"{fragment!r} in {message!r}"


def test_an_illegal_berlin_plan_names_the_order_in_the_plan_syntax() -> None:
    from tests.games.berlin_1945.b45_support import say
    from tests.games.berlin_1945.test_b45_binding import planning

    t, pool = planning()
    pool.take("soviet-regular", 2, "15")
    for text, shown in (("plan a -> 5", "order a to 5:all"), ("plan 15 to 8:5", "order 15 to 8:5")):
        with pytest.raises(IllegalOrderError) as caught:
            say(t, "soviet", text)
        assert shown in str(caught.value)
        python_free(str(caught.value))


def test_a_malformed_opened_plan_and_a_foreign_decision_are_told_in_words() -> None:
    from pbem.games.berlin_1945.plan import plan_from_json
    from pbem.games.berlin_1945.rules import ENGINE

    with pytest.raises(IllegalOrderError, match="the opened plan is malformed: it has no extra"):
        plan_from_json({"orders": []})
    bad = {"orders": [{"frm": "5", "dests": 7}], "extra": None, "rebuild": None, "card": None}
    with pytest.raises(IllegalOrderError) as caught:
        plan_from_json(bad)
    python_free(str(caught.value))
    assert "object is not iterable" not in str(caught.value)
    with pytest.raises(InvalidOrderError) as foreign:
        ENGINE.format({"orders": [["5", None]]})
    assert str(foreign.value) == "not a Berlin 1945 decision: a dict"


# --- mail: no password asked for what does not log in ------------------------------------------


@pytest.fixture
def mail_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    for name in ("PBEM_SMTP_PASSWORD", "PBEM_IMAP_PASSWORD", "PBEM_MAIL_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home"
    game = solo_game(home)
    maildir = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    (home / "mail.toml").write_text(
        'address = "me@example.org"\n'
        '[smtp]\nhost = "smtp.invalid"\nuser = "me@example.org"\n'
        f'[maildir]\npath = "{maildir}"\n',
        encoding="utf-8",
    )
    return home, game


def test_fetch_from_a_maildir_asks_for_no_smtp_password(mail_home: tuple[Path, str]) -> None:
    home, _game = mail_home
    result = run(home, "mail", "fetch")
    assert result.exit_code == 0, result.output
    assert "password" not in result.output


def test_send_dry_run_asks_for_no_smtp_password(mail_home: tuple[Path, str]) -> None:
    home, game = mail_home
    result = run(home, "mail", "send", game[:8], "--to", "ref@example.net", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "-----BEGIN PBEM ENTRY-----" in result.stdout and "dry run" in result.stderr


def test_a_real_send_still_asks_for_the_password_before_connecting(
    mail_home: tuple[Path, str],
) -> None:
    home, game = mail_home
    line = one_error(run(home, "mail", "send", game[:8], "--to", "ref@example.net"))
    assert "no password for smtp user me@example.org" in line and "PBEM_SMTP_PASSWORD" in line


def test_store_errors_are_pbem_errors() -> None:
    assert issubclass(StoreError, PbemError)
