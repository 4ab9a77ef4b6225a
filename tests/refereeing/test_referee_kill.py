"""An unattended referee never loses an entry across a restart (issue 17): every message
is one store transaction (pbem.mail.fetch), every entry the referee signs is one
transaction with its signing journal, and the referee's entries are the same bytes
whenever it signs them (its chain is derived from its key). So `pbem referee run` killed
with SIGKILL at any moment, then run to completion, ends with the store an
uninterrupted run ends with: the same entries, a game that verifies, no message applied
twice or lost."""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from pbem.client import Client
from pbem.core.log import Entry
from pbem.core.referee import REFEREE
from pbem.mail.compose import compose
from pbem.store import Store
from pbem.transport.movefile import read_entries
from pbem.verify import verify_text
from tests.mail.mailtls import smtp_server
from tests.refereeing.league import PLAYERS, Desk, desks, hand, new_game, play_turn

MESSAGES = 16  # player messages after the two joins' (the last one resigns)
ATTEMPTS = 10  # runs killed before the one left to finish
# On a loaded machine a kill can miss the run's work: more runs then, each round starting
# again from the configured home once a run has finished the work (nothing left to kill).
MORE_ATTEMPTS = 40


def _mailbox(root: Path, made: dict[str, Desk], shadow: Client) -> tuple[str, list[bytes]]:
    """A game played by the two players and a shadow of the referee (a copy of its home
    made before it signed anything), as the mails the players sent the referee."""
    first, second = (made[role] for role in PLAYERS)
    to = made[REFEREE].address
    game = new_game(made)
    mails = [
        compose(
            first.client.game(game), first.client.game(game).entries, sender=first.address, to=to
        )
    ]
    hand(first.client, second.client, game)
    joined = second.client.join(game)
    mails.append(compose(second.client.game(game), joined, sender=second.address, to=to))
    hand(second.client, shadow, game)
    shadow.join(game)
    rng = random.Random(3)
    while len(mails) < MESSAGES + 2:
        shadow.answer_automatically(game)
        asked = shadow.game(game).next_signer()
        assert asked in PLAYERS
        desk = made[str(asked)]
        hand(shadow, desk.client, game)
        before = len(desk.client.game(game).entries)
        if len(mails) == MESSAGES + 1:
            desk.client.resign(game, desk.role)
        else:
            play_turn(desk, game, rng, 6)
        adjudicator = desk.client.game(game)
        made_now = adjudicator.entries[before:]
        mails.append(compose(adjudicator, made_now, sender=desk.address, to=to))
        hand(desk.client, shadow, game)
    return game, [m.as_bytes() for m in mails]


def _run(home: Path, maildir: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "pbem", "--home", str(home), "referee", "run", "--once"]
    command += ["--maildir", str(maildir), "--accept-invitations", "--now", "2026-12-01T10:00:00Z"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)


def _entries(home: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(home / "store.db") as db:
        rows = db.execute(
            "SELECT game, seq, id, canonical, signature FROM entries ORDER BY game, seq"
        ).fetchall()
        held = db.execute("SELECT count(*) FROM inbox").fetchone()[0]
    assert held == 0, "entries left waiting in the inbox"
    return rows


def test_a_referee_killed_at_any_moment_loses_nothing(tmp_path: Path) -> None:
    import mailbox

    with smtp_server(tmp_path) as server:
        made = desks(tmp_path)
        referee = made[REFEREE]
        clean, killed, shadow_home = (tmp_path / name for name in ("clean", "killed", "shadow"))
        for copy in (clean, killed, shadow_home):
            shutil.copytree(referee.home, copy)
        game, mails = _mailbox(tmp_path, made, Client(Store(shadow_home)))
        box = mailbox.Maildir(referee.maildir, create=False)
        for raw in mails:
            box.add(raw)
        # the interrupted referee also mails the players (recorded only once sent)
        server.write_config(killed, referee.address)
        _addresses(killed, game, made)
        pristine = tmp_path / "pristine"
        shutil.copytree(killed, pristine)

        started = time.monotonic()
        done = _run(clean, referee.maildir)
        output, _ = done.communicate(timeout=120)
        took = time.monotonic() - started
        assert done.returncode == 0, output.decode()
        expected = _entries(clean)
        assert len({row[1] for row in expected}) == len(expected) > len(mails)

        rng = random.Random(17)
        midway = 0  # kills after the run had stored something and before it finished
        for attempt in range(ATTEMPTS + MORE_ATTEMPTS):
            if attempt >= ATTEMPTS and midway >= 3:
                break
            before = _count(killed)
            process = _run(killed, referee.maildir)
            if attempt % 2 == 0:
                # a random moment, later at each attempt (start-up, reading, signing)
                step = attempt % ATTEMPTS
                time.sleep(rng.uniform(step, step + 2) * took / ATTEMPTS)
            else:
                # a random moment just after the run stored its next entry
                deadline = time.monotonic() + 3 * took
                while _count(killed) == before and process.poll() is None:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.005)
                # (soon after: a fast run, one that starts from a snapshot, is done within
                # tens of milliseconds of its first stored entry)
                time.sleep(rng.uniform(0, 0.005))
            was_killed = process.poll() is None
            if was_killed:
                process.send_signal(signal.SIGKILL)
                if _count(killed) > before:
                    midway += 1
            process.communicate(timeout=120)
            if _count(killed):  # whatever was stored replays: never half a message
                assert Client(Store(killed)).game(game).entries
            if not was_killed and process.returncode == 0 and midway < 3:
                # this run did all the work left: start again for more kills mid-work
                shutil.rmtree(killed)
                shutil.copytree(pristine, killed)
        assert midway >= 3, "the referee was hardly ever killed mid-work: the test proves little"
        finish = _run(killed, referee.maildir)
        output, _ = finish.communicate(timeout=120)
        assert finish.returncode == 0, output.decode()
        assert "refused" not in output.decode()

        assert _entries(killed) == expected
        saved = Client(Store(killed)).export(game)
        report = verify_text(saved)
        assert report.ok, report.failure
        assert saved == Client(Store(clean)).export(game)
        # every message of the mailbox is in: a last run has nothing to apply or sign
        again = _run(killed, referee.maildir)
        output, _ = again.communicate(timeout=120)
        text = output.decode()
        assert "applied" not in text and "signed" not in text and "mailed" not in text, text
        # each player was mailed every entry of the others (some twice, after a kill
        # between sending and recording: harmless), and the store says so
        final = Client(Store(killed)).game(game)
        for role in PLAYERS:
            address = made[role].address
            got = {
                Entry.from_wire(*found).seq
                for m in server.messages
                if m.rcpt_tos == (address,)
                for found in read_entries(m.data)
            }
            others = {e.seq for e in final.entries if e.by != role}
            assert others <= got, f"{role} was never mailed {sorted(others - got)}"
            assert Store(killed).referee_mailed(game, role) == final.head.seq


def _addresses(home: Path, game: str, made: dict[str, Desk]) -> None:
    store = Store(home)
    with store.transaction():
        for role in PLAYERS:
            store.set_player_address(game, role, made[role].address)


def _count(home: Path) -> int:
    """Entries stored so far (read while the referee may be writing: WAL readers wait
    for nobody)."""
    if not (home / "store.db").exists():
        return 0
    with sqlite3.connect(home / "store.db", timeout=5) as db:
        try:
            return int(db.execute("SELECT count(*) FROM entries").fetchone()[0])
        except sqlite3.OperationalError:  # the tables are not made yet
            return 0
