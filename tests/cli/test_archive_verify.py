"""`pbem verify` over a league's archive (issue 17): mailboxes of many games, the first bad
entry named with a short stable name of what failed (`cheat`, pbem/failures.py), a
progress line on a terminal, and a JSON document streamed record by record.

Games are played by hand on a SignedTable (pbem.testing), so that a test can sign any
bad entry it wants; a mailbox holds them as mail does: several entries per message, each
reply quoting the message before it (the same entries again).
"""

from __future__ import annotations

import contextlib
import email.policy
import json
import mailbox
import random
import re
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.core.log import Entry
from pbem.failures import NAMES, TABLE, classify
from pbem.kit.pieces import false_claim
from pbem.render.jsonout import dumps, stream_verify, verify_document, verify_one
from pbem.testing import SignedTable as Table
from pbem.transport.savefile import move_file
from pbem.verify import verify_entries, verify_text

ROOT = Path(__file__).resolve().parents[2]
SAVE = ROOT / "saves" / "barbarossa-demo.pbem"


def verify(*args: str) -> Result:
    return CliRunner().invoke(main, ["verify", *args], catch_exceptions=False)


def played(nonce: str, steps: int = 4) -> Table:
    """A toy-dice game: genesis, both joins and `steps` entries of play."""
    table = Table(nonce=nonce)
    table.join_all()
    rng = random.Random(nonce)
    for _ in range(steps):
        table.step(rng)
    return table


def log(table: Table) -> list[Entry]:
    return list(table.game.entries)


def mail(body: str, subject: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Player <player@example.org>"
    msg["To"] = "League <league@example.org>"
    msg["Subject"] = subject
    msg.set_content(body, cte="quoted-printable")
    return msg.as_bytes(policy=email.policy.SMTP)


def thread(entries: list[Entry], subject: str) -> list[bytes]:
    """The game as a mail thread: two entries a message, each quoting the one before."""
    messages, previous = [], ""
    for start in range(0, len(entries), 2):
        body = f"My move:\n\n{move_file(entries[start : start + 2])}\n"
        if previous:
            body += "\nYou wrote:\n" + "\n".join("> " + line for line in previous.split("\n"))
        previous = body
        messages.append(mail(body, f"{subject} {start}"))
    return messages


def mbox_of(messages: list[bytes]) -> bytes:
    out = b""
    for raw in messages:
        raw = re.sub(rb"(?m)^(>*From )", rb">\1", raw.replace(b"\r\n", b"\n"))
        out += b"From player@example.org Mon Jun 22 04:00:00 1941\n" + raw + b"\n"
    return out


def interleave(*threads: list[bytes]) -> list[bytes]:
    """Messages of several games mixed as they arrive in one mailbox."""
    mixed = []
    for row in range(max(len(t) for t in threads)):
        mixed += [t[row] for t in threads if row < len(t)]
    return mixed


def document(result: Result) -> Any:
    parsed = json.loads(result.stdout)
    assert parsed["schema"] == 1
    return parsed


def records(result: Result) -> dict[str, dict[str, Any]]:
    return {record["file"]: record for record in document(result)["files"]}


# --- mailboxes of many games ----------------------------------------------------------------


def test_an_mbox_of_two_games_gives_one_record_per_game(tmp_path: Path) -> None:
    one, two = played("one"), played("two", steps=6)
    chatter = mail("From my phone: shall we start the next round?", "league")
    box = tmp_path / "league.mbox"
    box.write_bytes(
        mbox_of([chatter, *interleave(thread(log(one), "one"), thread(log(two), "two"))])
    )
    result = verify("--json", str(box))
    assert result.exit_code == 0, result.output
    found = document(result)["files"]
    # in the order each game's first entry appears; quoted copies counted once
    assert [r["file"] for r in found] == [f"{box}#{one.game.id[:12]}", f"{box}#{two.game.id[:12]}"]
    assert [r["game"] for r in found] == [one.game.id, two.game.id]
    assert [r["entries"] for r in found] == [len(log(one)), len(log(two))]
    assert all(r["ok"] and r["cheat"] is None and r["bad_entry"] is None for r in found)
    plain = verify(str(box))
    assert plain.exit_code == 0, plain.output
    assert plain.stdout.splitlines() == [
        f"{box}#{one.game.id[:12]}: OK: toy-dice, {len(log(one))} entries, result: unfinished",
        f"{box}#{two.game.id[:12]}: OK: toy-dice, {len(log(two))} entries, result: unfinished",
    ]
    # --jobs 2 gives the same document
    assert verify("--json", "--jobs", "2", str(box)).stdout == result.stdout


def test_a_forked_worker_never_shares_the_parents_open_mbox(tmp_path: Path) -> None:
    """An mbox keeps its file open: a worker of `--jobs N` forked from a process that had
    opened the mailbox must open its own, or the workers share one read offset and read
    each other's messages half the time. And a mailbox written again is read again."""
    import os

    from pbem import verify as verifying

    box = tmp_path / "league.mbox"
    box.write_bytes(mbox_of(thread(log(played("one")), "one")))
    parent = verifying._open_box(str(box), "mbox")
    assert verifying._open_box(str(box), "mbox") is parent  # once per process
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child reports through the pipe)
        os.write(write, b"own" if verifying._open_box(str(box), "mbox") is not parent else b"x")
        os._exit(0)
    os.waitpid(child, 0)
    assert os.read(read, 3) == b"own"
    os.close(read)
    os.close(write)
    box.write_bytes(mbox_of(thread(log(played("two", steps=6)), "two")))
    assert verifying._open_box(str(box), "mbox") is not parent


def test_an_mbox_of_one_game_still_gets_its_full_report(tmp_path: Path) -> None:
    one = played("one")
    box = tmp_path / "one.mbox"
    box.write_bytes(mbox_of(thread(log(one), "one")))
    result = verify(str(box))
    assert result.exit_code == 0, result.output
    assert "OK: every check holds" in result.stdout
    assert f"entries: {len(log(one))}," in result.stdout


def test_a_maildir_of_games(tmp_path: Path) -> None:
    one, two = played("one"), played("two")
    folder = tmp_path / "Maildir"
    box = mailbox.Maildir(str(folder), create=True)
    for number, raw in enumerate(interleave(thread(log(one), "one"), thread(log(two), "two"))):
        key = box.add(raw)
        if number % 2:  # some read (cur/), some not (new/)
            message = box[key]
            message.set_subdir("cur")
            box[key] = message
    assert any((folder / "cur").iterdir()) and any((folder / "new").iterdir())
    result = verify("--json", str(folder))
    assert result.exit_code == 0, result.output
    found = records(result)
    assert set(found) == {f"{folder}#{one.game.id[:12]}", f"{folder}#{two.game.id[:12]}"}
    assert all(r["ok"] for r in found.values())


def test_a_tampered_game_among_good_ones_is_named(tmp_path: Path) -> None:
    good, bad, other = played("good"), played("bad"), played("other")
    role = bad.game.next_signer()
    assert role is not None
    forged = bad.move_entry(role, "roll", reveal="ab" * 32)  # not the next link of its chain
    box = tmp_path / "league.mbox"
    box.write_bytes(
        mbox_of(
            interleave(
                thread(log(good), "good"),
                thread([*log(bad), forged], "bad"),
                thread(log(other), "o"),
            )
        )
    )
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "barbarossa.pbem").write_bytes(SAVE.read_bytes())
    result = verify("--json", str(box), str(saves))
    assert result.exit_code == 1
    assert result.stderr == "error: 1 of 4 files failed verification\n"
    found = records(result)
    named = found.pop(f"{box}#{bad.game.id[:12]}")
    assert named["ok"] is False
    assert named["cheat"] == "reveal"
    assert named["bad_entry"] == {"seq": forged.seq, "by": role, "id": forged.id, "kind": "move"}
    assert named["error"].startswith(f"entry {forged.seq} by {role} refused: reveal does not hash")
    assert list(found) == [
        f"{box}#{good.game.id[:12]}",
        f"{box}#{other.game.id[:12]}",
        str(saves / "barbarossa.pbem"),
    ]
    assert all(r["ok"] and r["cheat"] is None and r["bad_entry"] is None for r in found.values())
    plain = verify(str(box), str(saves))
    assert plain.exit_code == 1
    line = next(x for x in plain.stdout.splitlines() if "FAILED" in x)
    assert line.startswith(f"{box}#{bad.game.id[:12]}: FAILED: entry {forged.seq} by {role}")
    assert line.endswith(f"[reveal, entry {forged.seq} by {role}]")


def test_a_game_without_its_genesis_is_one_failed_record(tmp_path: Path) -> None:
    whole, headless = played("whole"), played("headless")
    box = tmp_path / "league.mbox"
    box.write_bytes(mbox_of([*thread(log(whole), "w"), *thread(log(headless)[1:], "h")]))
    result = verify("--json", str(box))
    assert result.exit_code == 1
    found = records(result)
    record = found[f"{box}#{headless.game.id[:12]}"]
    assert record["error"] == f"no genesis for game {headless.game.id[:12]}"
    assert record["cheat"] == "chain"
    first = log(headless)[1]
    assert record["bad_entry"] == {"seq": 1, "by": first.by, "id": first.id, "kind": "join"}
    assert found[f"{box}#{whole.game.id[:12]}"]["ok"]


# --- every failure's name -------------------------------------------------------------------


def refused(entries: list[Entry]) -> tuple[str | None, Entry | None]:
    report = verify_entries(entries)
    assert not report.ok
    return report.cheat, report.bad


@pytest.fixture
def table() -> Table:
    return played("names")


def test_signature_chain_reveal_rules_and_equivocation_are_named(table: Table) -> None:
    role = table.game.next_signer()
    assert role is not None
    other = "b" if role == "a" else "a"
    entries = log(table)
    cases = {
        "signature": table.move_entry(role, "roll", key=table.keys[other]),
        "chain": table.move_entry(role, "roll", prev="00" * 32),
        "reveal": table.move_entry(role, "roll", reveal="cd" * 32),
        "rules": table.move_entry(role, "jump three hexes"),
    }
    for name, bad in cases.items():
        assert refused([*entries, bad]) == (name, bad), name
    # two validly signed entries of one role for one seq: the proof stays in `detail`
    first, second = table.move_entry(role, "roll"), table.move_entry(role, "roll twice")
    cheat, bad = refused([*entries, first, second])
    assert cheat == "equivocation" and bad == second
    record = verify_one((str(SAVE), move_file([*entries, first, second]).encode(), {}))
    assert record["cheat"] == "equivocation"
    assert record["detail"] is not None and "BEGIN PBEM ENTRY" in record["detail"]


def test_a_save_whose_rng_log_or_header_differs_is_named() -> None:
    text = SAVE.read_text()
    rng = verify_text(text.replace("rng 3 4 1..6 4 event die", "rng 3 4 1..6 5 event die", 1))
    assert (rng.cheat, rng.bad) == ("rng-log", None)
    game = re.search(r"(?m)^game: ([0-9a-f]{64})$", text)
    assert game is not None
    header = verify_text(text.replace(game.group(1), "0" * 64, 1))
    assert header.cheat == "header"
    assert header.bad is not None and header.bad.seq == 0
    dropped = text.replace(re.findall(r"(?m)^entries: \d+$", text)[0], "entries: 1000", 1)
    missing = verify_text(dropped)
    assert missing.cheat == "chain", missing.failure


def test_damage_and_an_unreadable_file_are_named(tmp_path: Path) -> None:
    lines = SAVE.read_text().split("\n")
    begin = lines.index("-----BEGIN PBEM ENTRY-----", 40)
    lines[begin + 1] = "!!!!" + lines[begin + 1][4:]  # not base32: the armor is damaged
    damaged = verify_text("\n".join(lines))
    assert damaged.cheat == "format", damaged.failure
    missing = verify_one((str(tmp_path / "gone.pbem"), None, {}))
    assert missing["cheat"] == "unreadable" and missing["bad_entry"] is None


def test_a_refused_forfeit_is_named() -> None:
    """A referee's forfeit issued before the player's deadline (docs/referee.md)."""
    from pbem.core.referee import DEADLINE, FORFEIT, REFEREE

    table = Table("toy-dice", ("a", "b", REFEREE), options={DEADLINE: 72})
    table.join_all()
    table.move("a", "roll")
    table.apply(table.ack_entry(REFEREE))  # rolls a's die; b is asked now
    head = table.game.head
    body = {
        "forfeit": "b",
        "waited_on": {"seq": head.seq, "id": head.id},
        "since": "2026-12-01T10:00:00Z",
        "deadline": "2026-12-04T10:00:00Z",
        "seen": "2026-12-01T10:00:00Z",  # before the deadline
    }
    early = table.make(REFEREE, FORFEIT, body)
    assert refused([*log(table), early]) == ("forfeit", early)


# A reason each name is given for, as pbem says it: every name of the table has one.
REASONS = {
    "equivocation": "EQUIVOCATION: role a (SHA256:x) signed two different entries for game g",
    "unreadable": "cannot read gone.pbem: No such file or directory",
    "signature": "entry 7 by a refused: its signature does not verify, the entry was damaged",
    "false-claim": str(false_claim(12, "german", "slot #2 holds card 7, not 3", "4.1")),
    "unopened": "entry 9 by a: commitment hand was never opened, but every commitment must be",
    "reveal": "reveal does not hash to a's previous chain value (element 3 of the chain)",
    "chain": "does not follow the head: expected seq 7 after 0a1b, got seq 7 after 0000",
    "rng-log": "the save's RNG log line 1 differs from the recomputed one: 'x' != 'y'",
    "header": "the save's header has no 'game:' line",
    "forfeit": "this game sets no deadline (deadline_hours): nobody can forfeit it",
    "format": "entry block 3 is damaged: its signed bytes are not a valid entry",
}


@pytest.mark.parametrize("name", NAMES)
def test_every_name_has_a_reason_and_is_documented(name: str) -> None:
    docs = (ROOT / "docs" / "json.md").read_text()
    assert f"`{name}`" in docs
    if name == "rules":
        # what no row names: a refusal of the rules (a forfeit entry's: forfeit)
        assert classify("'jump': expected 'roll' or 'roll twice'", "move") == "rules"
        assert classify("the game is over", "forfeit") == "forfeit"
        assert classify("the game is over") == "format"  # not a refusal: damage
        return
    assert classify(REASONS[name], "move") == name
    assert name in {row for row, _ in TABLE}


# --- progress, streaming --------------------------------------------------------------------


def test_progress_only_for_several_sources_on_a_terminal() -> None:
    from pbem.verify_many import progress_shown

    assert progress_shown(3, lambda: True)
    assert not progress_shown(3, lambda: False)
    assert not progress_shown(1, lambda: True)


@pytest.mark.parametrize("as_json", [False, True])
def test_progress_line_on_stderr_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    import pbem.verify_many

    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.pbem").write_bytes(SAVE.read_bytes())
    (tmp_path / "d.pbem").write_text("not a save")
    args = ["--json", str(tmp_path)] if as_json else [str(tmp_path)]
    quiet = verify(*args)  # CliRunner's stderr is no terminal: no progress
    assert "verifying" not in quiet.stderr
    monkeypatch.setattr(pbem.verify_many, "progress_shown", lambda count, isatty: count > 1)
    shown = verify(*args)
    assert shown.stdout == quiet.stdout  # never on stdout
    assert "verifying 4/4, 1 failed" in shown.stderr
    assert "\r" in shown.stderr
    # cleared at the end: the error line starts a clean line
    drawn = shown.stderr.rsplit("\r", 1)
    assert drawn[0].endswith(" " * len("verifying 4/4, 1 failed"))
    assert drawn[1] == "error: 1 of 4 files failed verification\n"


def streamed(documents: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """What stream_verify writes of `documents`, and the error lines it fails with."""
    written: list[str] = []
    failures: list[str] = []

    def fail(message: str) -> Any:
        failures.append(message)
        raise SystemExit(1)

    with contextlib.suppress(SystemExit):
        stream_verify(iter(documents), written.append, fail)
    return "".join(written), failures


def test_the_streamed_document_equals_the_whole_one(table: Table) -> None:
    role = table.game.next_signer()
    assert role is not None
    bad = table.move_entry(role, "roll", reveal="ef" * 32)
    documents = [
        verify_one((str(SAVE), None, {})),
        verify_one(("bad", move_file([*log(table), bad]).encode(), {})),
        verify_one(("good", move_file(log(table)).encode(), {})),
    ]
    for some in (documents, documents[:1], documents[2:], []):
        written, failures = streamed(some)
        assert written == dumps(verify_document(some)) + "\n"
        assert len(failures) == any(not d["ok"] for d in some)
    assert documents[1]["bad_entry"] == {"seq": bad.seq, "by": role, "id": bad.id, "kind": "move"}
