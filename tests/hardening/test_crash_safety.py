"""Crash safety: SIGKILL real `pbem` processes at random points and look at what is left.

Every command that changes a store does it in one SQLite transaction (BEGIN IMMEDIATE,
WAL, synchronous=FULL), so a process killed at any instant leaves the store exactly as it
was before the command or exactly as it is after it, never in between. These tests kill

- `pbem apply` of a whole game's save on a fresh store (one long transaction),
- `pbem move -o FILE` in games whose decisions commit secrets (the Soviet plan and card
  draws of Berlin 1945, the logistics blocks of Race to Berlin), where the entry and its
  sealed salts and values must land together, and the move file may appear only whole
  and only after the store has the entry,
- `pbem key new` (a key file is written beside the store transaction),

at delays drawn from a seeded random, stratified over the measured duration of an unkilled
run so that kills land at the start, the middle and the end. "After" is a fixed dump for
`apply`; a move draws fresh salts on every run, so there it means: the dump before plus
exactly that one entry and one secret row per commitment it carries, each opening it.
After every kill the game goes on: the same command run again succeeds (or, when the move
had landed but its file had not, `pbem export --since` writes it), and at the end both
stores hold the same log and the exported save verifies.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pbem.bots import choose
from pbem.client import SEALED, Client
from pbem.core.commit import commitment
from pbem.core.log import Entry
from pbem.crypto.keys import generate, load_private_key, write_private_key
from pbem.errors import PbemError
from pbem.ledger import engine_by_name
from pbem.store import Store
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_text

ROOT = Path(__file__).resolve().parents[2]
Dump = dict[str, list[tuple[Any, ...]]]


# --- running and killing pbem ---------------------------------------------------------------


def pbem(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the real CLI to the end; it must succeed."""
    done = subprocess.run(
        [sys.executable, "-m", "pbem", "--home", str(home), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, f"pbem {' '.join(args)}: {done.stderr}"
    return done


def timed(home: Path, *args: str) -> float:
    start = time.monotonic()
    pbem(home, *args)
    return time.monotonic() - start


def killed(home: Path, delay: float, *args: str) -> bool:
    """Start `pbem ARGS` and SIGKILL it after `delay` seconds; False if it finished first."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "pbem", "--home", str(home), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.stderr is not None
        proc.stderr.close()
        return True
    assert proc.stderr is not None
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.returncode == 0, err
    return False


def delays(rng: random.Random, count: int, duration: float) -> list[float]:
    """`count` kill delays, one in each slice of [0, 1.1 * duration): start, middle, end."""
    return [1.1 * duration * (i + rng.random()) / count for i in range(count)]


def dump(home: Path) -> Dump:
    """Every row of every table of a store (entries, secrets, mail, inbox, games, ...)."""
    db = sqlite3.connect(home / "store.db")
    try:
        tables = [
            str(name)
            for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {t: sorted(db.execute(f"SELECT * FROM [{t}]").fetchall(), key=repr) for t in tables}
    finally:
        db.close()


@dataclass
class Tally:
    """What the kills found, for the assertions at the end (and for a failing test's report)."""

    kills: int = 0
    finished: int = 0  # the command ended before its delay
    states: dict[str, int] = field(default_factory=dict)

    def saw(self, state: str) -> None:
        self.states[state] = self.states.get(state, 0) + 1


# --- pbem apply -----------------------------------------------------------------------------


def test_killed_apply_of_a_whole_game_leaves_the_store_before_or_after(tmp_path: Path) -> None:
    """A fresh store applies a whole Berlin 1945 save (over 200 entries) in one transaction."""
    save = ROOT / "saves" / "berlin-1945-demo.pbem"
    empty = tmp_path / "empty"
    Store(empty).db.close()  # the player's store exists before the mail arrives
    before = dump(empty)

    warm_up = tmp_path / "warm-up"  # the first run of a checkout fills its caches: slower
    shutil.copytree(empty, warm_up)
    timed(warm_up, "apply", str(save))
    reference = tmp_path / "reference"
    shutil.copytree(empty, reference)
    duration = timed(reference, "apply", str(save))
    after = dump(reference)
    assert len(after["entries"]) == len(parse_entries(save.read_bytes())) > 200

    rng = random.Random(6)
    tally = Tally()

    def fractions() -> Iterator[float]:
        """Twelve delays over the run; on a loaded machine (runs that finished before
        their kill), up to twelve more within its first 90% until six kills landed."""
        yield from delays(rng, 12, 1.0)
        for _ in range(12):
            if tally.kills >= 6:
                return
            yield 0.9 * rng.random()

    for number, fraction in enumerate(fractions()):
        home = tmp_path / f"kill-{number}"
        shutil.copytree(empty, home)
        delay = fraction * duration  # of the latest unkilled run: the machine's speed varies
        if killed(home, delay, "apply", str(save)):
            tally.kills += 1
        else:
            tally.finished += 1
        left = dump(home)
        assert left in (before, after), f"kill {number} at {delay:.3f}s left the store between"
        tally.saw("before" if left == before else "after")
        # The same command again finishes the job, whatever the kill left.
        start = time.monotonic()
        again = pbem(home, "apply", str(save))
        if left == before:
            duration = time.monotonic() - start  # a whole run again
        assert "applied" in again.stdout or "already had" in again.stdout
        assert dump(home) == after
        shutil.rmtree(home)
    assert tally.kills >= 6, tally
    assert tally.states.get("before", 0) >= 1, tally


# --- pbem move ------------------------------------------------------------------------------


class Game:
    """Two stores playing a game with bots in this process; chosen moves go through the CLI."""

    def __init__(self, tmp_path: Path, rules: str, seed: int) -> None:
        self.engine = engine_by_name(rules)
        self.tmp_path = tmp_path
        self.homes = {role: tmp_path / f"{role}-home" for role in self.engine.roles}
        self.clients = {role: Client(Store(home)) for role, home in self.homes.items()}
        for role, client in self.clients.items():
            client.new_key(role)
        creator = self.engine.required_roles[0]
        for role in self.clients:
            if role != creator:
                self.clients[creator].import_key(role, self.homes[role] / "keys" / f"{role}.pub")
        self.game_id, made = self.clients[creator].new_game(
            rules, creator, {role: role for role in self.clients}
        )
        self.send(creator, made)
        for role, client in self.clients.items():
            if role != creator:
                self.send(role, client.join(self.game_id))
        self.bot = random.Random(seed)

    def send(self, author: str, entries: list[Entry]) -> None:
        received = parse_entries(move_file(entries))
        for role, client in self.clients.items():
            if role != author:
                client.apply_entries(received)

    def over(self) -> bool:
        return self.clients[self.engine.required_roles[0]].game(self.game_id).outcome() is not None

    def next(self) -> tuple[str, str | None, bool]:
        """The asked role, its decision text (None: an ack), and whether it seals values."""
        first = self.clients[self.engine.required_roles[0]].game(self.game_id)
        role = first.prompts()[0].role
        client = self.clients[role]
        state = client.state_for(client.game(self.game_id), role)
        state = self.engine.with_secrets(state, role, client.known(self.game_id, role))
        if not any(p.role == role for p in self.engine.prompts(state)):
            return role, None, False
        decision = choose(self.engine, state, role, self.bot)
        _public, values = self.engine.seal(state, role, decision)
        return role, self.engine.format(decision), bool(values)

    def play_here(self, role: str, text: str | None) -> None:
        client = self.clients[role]
        if text is None:
            entry = client.ack(self.game_id, role)
        else:
            entry = client.move(self.game_id, text, role)
        self.send(role, [entry])

    def head(self) -> int:
        return len(self.clients[self.engine.required_roles[0]].game(self.game_id).entries) - 1


def check_one_entry_landed(
    home: Path, before: Dump, after: Dump, game_id: str, seq: int, role: str
) -> None:
    """`after` is `before` plus exactly the entry at `seq` and the secrets it committed
    (sealed under the role's key: opened through a Client holding it)."""
    for table in set(before) | set(after):
        if table not in ("entries", "secrets"):
            assert before.get(table) == after.get(table), f"{table} changed"
    new_entries = [row for row in after["entries"] if row not in before["entries"]]
    assert set(before["entries"]) <= set(after["entries"])
    assert len(new_entries) == 1, "the entry landed partly or more than once"
    game, row_seq, entry_id, canonical, signature = new_entries[0]
    assert (game, row_seq) == (game_id, seq)
    entry = Entry.from_wire(canonical, signature)
    assert entry.id == entry_id and entry.by == role
    commits = dict(entry.body.get("commit", {}))
    assert commits, "a sealing decision's entry carries its commitments"
    assert set(before["secrets"]) <= set(after["secrets"])
    new_secrets = {row[2]: row for row in after["secrets"] if row not in before["secrets"]}
    # Each commitment has its salt and value in the store, and there is nothing else new.
    assert set(new_secrets) == {SEALED + label for label in commits}
    client = Client(Store(home))
    for label, digest in commits.items():
        assert not new_secrets[SEALED + label][3].startswith("{"), "kept in plain text"
        kept = client.sealed_opening(game_id, role, label)
        assert commitment(game_id, label, kept.salt, kept.value) == digest


def kill_a_move(
    game: Game, role: str, text: str, delay: float, number: int
) -> tuple[str, float | None]:
    """Kill `pbem move -o` once, check what it left, and bring the move out anyway.

    Returns the state the kill left ("before"/"after", "(finished)" if it came too late)
    and the duration of the unkilled run again, if there was one."""
    home = game.homes[role]
    moves = game.tmp_path / "moves"
    moves.mkdir(exist_ok=True)
    out = moves / f"{number:03d}-{role}.txt"
    seq = game.head() + 1
    before = dump(home)
    rerun = None
    args = ("move", game.game_id[:16], text, "--role", role, "--no-auto", "-o", str(out))
    was_killed = killed(home, delay, *args)
    after = dump(home)
    if after == before:
        state = "before"
        # The move file is written only after the store has the entry.
        assert not out.exists(), "a move file exists for an entry the store does not have"
        rerun = timed(home, *args)  # the same command again
    else:
        state = "after"
        check_one_entry_landed(home, before, after, game.game_id, seq, role)
        if not out.exists():  # killed between the commit and the file: send it again
            pbem(home, "export", game.game_id[:16], "--since", str(seq), "-o", str(out))
    # A move file is whole or absent: here it is whole, and it ends with the stored entry
    # (before it: this role's earlier entries not yet answered, carried again; issue 14).
    *earlier, entry = parse_entries(out.read_bytes())
    assert entry.seq == seq and entry.by == role
    assert all(e.by == role and e.seq < seq for e in earlier)
    stored = game.clients[role].store.entries(game.game_id, from_seq=seq)
    assert [row["id"] for row in stored] == [entry.id]
    # Temporary files of killed writes may stay behind, hidden; never a visible partial one.
    for left in moves.iterdir():
        hidden_temp = left.name.startswith(".") and left.suffix == ".tmp"
        assert hidden_temp or re.fullmatch(r"\d{3}-[a-z]+\.txt", left.name), left.name
    game.send(role, [entry])
    return f"{state}{'' if was_killed else ' (finished)'}", rerun


@pytest.mark.parametrize(("rules", "kills"), [("berlin-1945", 10), ("race-to-berlin", 6)])
def test_killed_moves_that_commit_secrets_land_whole_or_not_at_all(
    tmp_path: Path, rules: str, kills: int
) -> None:
    game = Game(tmp_path, rules, seed=45)
    rng = random.Random(1945)
    tally = Tally()
    duration: float | None = None  # of the latest unkilled `pbem move` (it grows with the log)
    plan: list[float] = []  # kill delays as fractions of that
    sealing = 0
    while not game.over():
        role, text, seals = game.next()
        if not seals or text is None or tally.kills + tally.finished >= kills:
            game.play_here(role, text)
            continue
        sealing += 1
        if duration is None:  # the first sealing move, unkilled, measures a run
            home = game.homes[role]
            out = tmp_path / "measured.txt"
            args = ("move", game.game_id[:16], text, "--role", role, "-o", str(out))
            duration = timed(home, *args)
            game.send(role, parse_entries(out.read_bytes()))
            plan = delays(rng, kills, 1.0)
            continue
        if rules == "berlin-1945" and sealing % 2:  # spread the kills over the whole game
            game.play_here(role, text)
            continue
        delay = plan[tally.kills + tally.finished] * duration
        state, rerun = kill_a_move(game, role, text, delay, sealing)
        duration = rerun or duration
        if "finished" in state:  # it took less than `delay`: the runs got quicker (a
            duration = min(duration, delay)  # warm disk cache, a busy machine calmer)
        tally.kills += "finished" not in state
        tally.finished += "finished" in state
        tally.saw(state.split()[0])
    assert tally.kills + tally.finished == kills, (sealing, tally)
    assert tally.kills >= kills // 2, tally

    saves = {role: client.export(game.game_id) for role, client in game.clients.items()}
    assert len(set(saves.values())) == 1, "the stores disagree about the game"
    report = verify_text(next(iter(saves.values())))
    assert report.ok, report.failure


# --- pbem key new ---------------------------------------------------------------------------


def test_killed_key_new_can_always_be_run_again(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    Store(empty).db.close()
    reference = tmp_path / "reference"
    shutil.copytree(empty, reference)
    duration = timed(reference, "key", "new", "me")
    rng = random.Random(7)
    for number, delay in enumerate(delays(rng, 5, duration)):
        home = tmp_path / f"kill-{number}"
        shutil.copytree(empty, home)
        killed(home, delay, "key", "new", "me")
        rows = dump(home)["keys"]
        assert len(rows) <= 1
        if rows:  # after: the key row and both files
            assert (home / "keys" / "me").exists() and (home / "keys" / "me.pub").exists()
        printed = subprocess.run(
            [sys.executable, "-m", "pbem", "--home", str(home), "key", "new", "me"],
            capture_output=True,
            text=True,
        )
        if rows:
            assert printed.returncode == 1 and "already exists" in printed.stderr
        else:  # before, or a key file the store never recorded: running it again works
            assert printed.returncode == 0, printed.stderr
        [(name, public, fingerprint, private_path)] = dump(home)["keys"]
        key = load_private_key((home / "keys" / "me").read_bytes())
        assert public == key.public.openssh_line() == (home / "keys" / "me.pub").read_text().strip()
        assert private_path == "keys/me"  # relative: the store folder can be moved


def test_a_key_file_left_by_an_interrupted_key_new_is_adopted(tmp_path: Path) -> None:
    """Regression: a kill after the key file was written but before the store committed
    left `keys/NAME` without its row, and `pbem key new NAME` refused it forever."""
    client = Client(Store(tmp_path / "home"))
    orphan = generate(comment="me")
    path = client.store.keys_dir / "me"
    write_private_key(path, orphan)
    (path.parent / "me.pub").unlink()  # killed between the two files
    printed = client.new_key("me")
    assert printed == orphan.public.fingerprint_line()
    assert (path.parent / "me.pub").read_text() == orphan.public.openssh_line() + "\n"
    assert load_private_key(path.read_bytes()).public == orphan.public
    assert os.stat(path).st_mode & 0o777 == 0o600

    # A key file that is not such a leftover is never taken over nor overwritten.
    for name, comment, phrase in (("other", "someone", None), ("locked", "locked", None)):
        key = generate(comment=comment)
        write_private_key(client.store.keys_dir / name, key, b"pw" if name == "locked" else None)
        content = (client.store.keys_dir / name).read_bytes()
        with pytest.raises(PbemError, match="already exists"):
            client.new_key(name, phrase)
        assert (client.store.keys_dir / name).read_bytes() == content
    with pytest.raises(PbemError, match="already exists"):
        client.new_key("me")  # now known to the store


# --- the -o file ----------------------------------------------------------------------------

WRITER = """
import sys
from pathlib import Path
from pbem.cli.common import write_file as _write_file

path, size = Path(sys.argv[1]), int(sys.argv[2])
texts = ["old " * size + "end\\n", "new " * size + "end\\n"]
_write_file(path, texts[0])
print("ready", flush=True)
n = 0
while True:
    n += 1
    _write_file(path, texts[n % 2])
"""


def test_a_killed_write_of_an_output_file_leaves_the_old_or_the_new_file(tmp_path: Path) -> None:
    """`-o FILE` goes through a temporary file and a rename: a kill at any point leaves
    the old file or the new one whole, and at most a hidden temporary file beside it."""
    size = 1 << 20
    whole = {"old " * size + "end\n", "new " * size + "end\n"}
    rng = random.Random(11)
    target = tmp_path / "out" / "move.txt"
    target.parent.mkdir()
    for _ in range(6):
        # Two runs writing the same file at once (a shared temporary name would mix them).
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", WRITER, str(target), str(size)],
                stdout=subprocess.PIPE,
                cwd=ROOT,
            )
            for _ in range(2)
        ]
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline() == b"ready\n"
        time.sleep(rng.uniform(0.0, 0.3))
        for proc in procs:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            assert proc.stdout is not None
            proc.stdout.close()
        assert target.read_text() in whole
        for left in target.parent.iterdir():
            assert left == target or (left.name.startswith(".move.txt.") and left.suffix == ".tmp")
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0o077)
    os.umask(mask)
    return mask
