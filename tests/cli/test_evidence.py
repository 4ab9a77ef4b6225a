"""Evidence files (issue 17, docs/evidence.md; protocol sections 1, 5, 7 and 8).

`pbem evidence LOG -o FILE` writes a small file that proves one cheat; `pbem verify FILE`
re-checks it from its signed entries alone, and `pbem evidence --unpack FILE DIR` gives
what `ssh-keygen -Y verify` needs to check the signatures without pbem. Cheats are made
by hand on a `Table` (tests/support/players.py): an equivocation (section 1), a false
hidden claim with its opening (section 5), a forfeit the referee signed before its
deadline or against the wrong player (pbem.core.referee).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.core.commit import Opening, commitment
from pbem.core.log import Entry
from pbem.core.referee import DEADLINE, REFEREE
from pbem.evidence import MAGIC
from pbem.transport.armor import armor
from pbem.transport.savefile import move_file
from tests.support.bid import Bid
from tests.support.players import FORFEIT_DUE, FORFEIT_SINCE, Table, forfeit_entry, hex_of

needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="no ssh-keygen")

SINCE, DUE = FORFEIT_SINCE, FORFEIT_DUE
PROVEN = re.compile(r"PROVEN: (\S+) by (\S+) \((SHA256:\S+)\) in game ([0-9a-f]{12}): (.+)\n")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def write(path: Path, entries: list[Entry]) -> Path:
    path.write_text(move_file(entries))
    return path


def evidence_of(tmp_path: Path, log: list[Entry], name: str = "evidence.txt") -> Path:
    """`pbem evidence` of a log, which must find a cheat; the evidence file's path."""
    out = tmp_path / name
    result = run("evidence", str(write(tmp_path / f"log-{name}", log)), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith(MAGIC + "\n")
    return out


def proven(path: Path) -> tuple[str, str, str, str, str]:
    """`pbem verify` of an evidence file that must prove its claim: (claim, role,
    fingerprint, short game id, reason)."""
    result = run("verify", str(path))
    assert result.exit_code == 0, result.output
    found = PROVEN.fullmatch(result.stdout)
    assert found is not None, result.stdout
    return found.group(1), found.group(2), found.group(3), found.group(4), found.group(5)


def not_proven(path: Path, *fragments: str) -> str:
    result = run("verify", str(path))
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith("NOT PROVEN: ") and result.stdout.count("\n") == 1
    for fragment in fragments:
        assert fragment in result.stdout, f"{fragment!r} not in {result.stdout!r}"
    return result.stdout


# --- the three cheats ------------------------------------------------------------------------


def equivocation(nonce: str = "") -> tuple[Table, list[Entry]]:
    """a signs two different moves for seq 3: the log holds both."""
    table = Table(nonce=nonce)
    table.join_all()
    first = table.move_entry("a", "roll")
    second = table.move_entry("a", "roll twice")
    return table, [*table.game.entries, first, second]


def false_claim() -> tuple[Table, list[Entry]]:
    """a commits to a bid of 4 while claiming it odd, and opens it (protocol section 5)."""
    table = Table("toy-bid", ("a", "b"))
    table.join_all()
    salt = hex_of(b"salt")
    liar = {
        "decision": "bid odd",
        "commit": {"bid/a/1": commitment(table.game.id, "bid/a/1", salt, 4)},
    }
    table.apply(table.make("a", "move", liar))
    table.decide("b", Bid(2))
    opening = Opening("bid/a/1", salt, 4).to_json()
    opens = table.make("a", "move", {"decision": "reveal", "open": [opening]})
    return table, [*table.game.entries, opens]


def refereed() -> Table:
    """A refereed toy-dice game with a 72 h deadline where b is asked (a rolled, the
    referee's acknowledgement rolled a's die)."""
    table = Table("toy-dice", ("a", "b", REFEREE), options={DEADLINE: 72})
    table.join_all()
    table.move("a", "roll")
    table.apply(table.ack_entry(REFEREE))
    return table


def test_an_equivocation_is_proven_by_the_genesis_and_both_entries(tmp_path: Path) -> None:
    table, log = equivocation()
    path = evidence_of(tmp_path, log)
    claim, role, fingerprint, short, reason = proven(path)
    assert (claim, role, short) == ("equivocation", "a", table.game.id[:12])
    assert fingerprint == table.keys["a"].public.fingerprint()
    assert reason.startswith("a signed two different entries for seq 3")
    text = path.read_text()
    # Small: the genesis and the two entries only, each armored exactly as section 7.
    assert text.count("-----BEGIN PBEM ENTRY-----") == 3
    for entry in (log[0], log[-2], log[-1]):
        assert armor(entry.canonical, entry.signature) in text
    assert "claim: equivocation\n" in text and f"game: {table.game.id}\n" in text
    assert f"accused: a {fingerprint}\n" in text


def test_a_false_hidden_claim_is_proven_by_the_log_up_to_its_opening(tmp_path: Path) -> None:
    table, log = false_claim()
    path = evidence_of(tmp_path, log)
    claim, role, _fingerprint, short, reason = proven(path)
    assert (claim, role, short) == ("false-claim", "a", table.game.id[:12])
    assert reason.startswith("entry 5 by a refused: false claim in entry 3 by a")
    assert "bid/a/1 claimed odd, but it opens as 4" in reason
    # The prefix from the genesis up to the opening: self-contained, pbem verify replays it.
    assert path.read_text().count("-----BEGIN PBEM ENTRY-----") == len(log) == 6


def test_a_forfeit_before_its_deadline_needs_only_the_genesis_and_the_forfeit(
    tmp_path: Path,
) -> None:
    table = refereed()
    early = forfeit_entry(table, seen="2026-12-02T10:00:00Z")
    path = evidence_of(tmp_path, [*table.game.entries, early])
    claim, role, fingerprint, _short, reason = proven(path)
    assert (claim, role) == ("forfeit", REFEREE)
    assert fingerprint == table.keys[REFEREE].public.fingerprint()
    assert (
        reason == "forfeit issued before its deadline: seen 2026-12-02T10:00:00Z, deadline " + DUE
    )
    assert path.read_text().count("-----BEGIN PBEM ENTRY-----") == 2


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"deadline": "2026-12-02T10:00:00Z", "seen": "2026-12-02T10:00:00Z"}, "is not 72 h after"),
        ({"seen": "2026-12-04 10:00:01"}, "forfeit seen must be a UTC time"),
        ({"waited_on": {"seq": 1, "id": "00" * 32}}, "does not name the entry it follows"),
    ],
)
def test_a_forfeit_that_contradicts_itself(
    tmp_path: Path, changes: dict[str, object], fragment: str
) -> None:
    table = refereed()
    path = evidence_of(tmp_path, [*table.game.entries, forfeit_entry(table, **changes)])
    claim, role, _fingerprint, _short, reason = proven(path)
    assert (claim, role) == ("forfeit", REFEREE) and fragment in reason
    assert path.read_text().count("-----BEGIN PBEM ENTRY-----") == 2


def test_a_forfeit_signed_by_a_player_is_evidence_against_that_player(tmp_path: Path) -> None:
    table = refereed()
    forged = forfeit_entry(table, role="b", by="a")  # a signs, in its own name, b's forfeit
    claim, role, fingerprint, _short, reason = proven(
        evidence_of(tmp_path, [*table.game.entries, forged])
    )
    assert (claim, role) == ("forfeit", "a")
    assert fingerprint == table.keys["a"].public.fingerprint()
    assert "not by the referee" in reason


def test_a_forfeit_against_the_wrong_player_needs_the_log_up_to_it(tmp_path: Path) -> None:
    table = refereed()
    wrong = forfeit_entry(table, role="a", seen="2026-12-05T10:00:00Z")  # well after; b is asked
    path = evidence_of(tmp_path, [*table.game.entries, wrong])
    claim, role, _fingerprint, _short, reason = proven(path)
    assert (claim, role) == ("forfeit", REFEREE)
    assert reason == "entry 6 by referee refused: the game waits for b, not a: only b can forfeit"
    assert path.read_text().count("-----BEGIN PBEM ENTRY-----") == 7  # seq 0 to 6
    # Without the log before it, nothing in the forfeit itself is wrong: not proven.
    text = path.read_text()
    blocks = re.findall(r"-----BEGIN PBEM ENTRY-----\n.*?-----END PBEM ENTRY-----\n", text, re.S)
    short = tmp_path / "short.txt"
    for block in blocks[1:6]:
        text = text.replace(block, "")
    short.write_text(text)
    not_proven(short, "contradicts neither itself nor its genesis")


# --- no evidence -----------------------------------------------------------------------------


def test_an_honest_game_gives_no_evidence(tmp_path: Path) -> None:
    table = Table()
    table.join_all()
    table.play(random.Random(7))
    assert table.game.outcome() is not None
    log = write(tmp_path / "honest.txt", table.game.entries)
    result = run("evidence", str(log), "-o", str(tmp_path / "out.txt"))
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: no provable cheat in the log: every entry of game {table.game.id[:12]} is "
        "accepted by the rules: an honest log\n"
    )
    assert not (tmp_path / "out.txt").exists()


def test_a_broken_signature_is_evidence_against_no_one(tmp_path: Path) -> None:
    table = Table()
    table.join_all()
    forged = table.move_entry("a", "roll", key=table.keys["b"])  # "by a", signed by b's key
    log = write(tmp_path / "log.txt", [*table.game.entries, forged])
    result = run("evidence", str(log))
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert "no provable cheat in the log: entry 3 by a: its signature does not verify" in (
        result.stderr
    )
    assert "not evidence against anyone" in result.stderr
    # Two moves "by a" at seq 3, one of them signed by someone else: no equivocation.
    real = table.move_entry("a", "roll twice")
    result = run("evidence", str(write(tmp_path / "two.txt", [*table.game.entries, real, forged])))
    assert result.exit_code == 1
    assert "no provable cheat in the log: entry 3 by a: its signature does not verify" in (
        result.stderr
    )


def test_a_rules_refusal_that_is_no_cheat_is_no_evidence(tmp_path: Path) -> None:
    table = Table()
    table.join_all()
    late = table.move_entry("b", "roll")  # out of turn: refused, but it lies about nothing
    result = run("evidence", str(write(tmp_path / "log.txt", [*table.game.entries, late])))
    assert result.exit_code == 1
    assert "entry 3 by b refused: out of turn" in result.stderr
    assert "not a cheat an evidence file proves" in result.stderr


# --- a third party's checks ------------------------------------------------------------------


def _blocks(text: str) -> list[str]:
    return re.findall(r"-----BEGIN PBEM ENTRY-----\n.*?-----END PBEM ENTRY-----", text, re.S)


def test_one_byte_changed_inside_an_armored_entry_proves_nothing(tmp_path: Path) -> None:
    for name, (_table, log) in {"eq": equivocation(), "fc": false_claim()}.items():
        text = evidence_of(tmp_path, log, f"{name}.txt").read_text()
        last = _blocks(text)[-1]
        lines = last.split("\n")
        middle = lines[2]
        # One base32 character changed in the middle of the block's payload.
        changed = middle[:30] + ("B" if middle[30] != "B" else "C") + middle[31:]
        tampered = tmp_path / f"{name}-tampered.txt"
        tampered.write_text(text.replace(middle, changed, 1))
        not_proven(tampered)


def test_an_entry_swapped_for_another_games_proves_nothing(tmp_path: Path) -> None:
    table, log = equivocation("one")
    other, other_log = equivocation("two")
    assert other.game.id != table.game.id
    text = evidence_of(tmp_path, log).read_text()
    swapped = tmp_path / "swapped.txt"
    own = armor(log[-1].canonical, log[-1].signature)
    foreign = armor(other_log[-1].canonical, other_log[-1].signature)
    assert own in text
    swapped.write_text(text.replace(own, foreign))
    not_proven(swapped, f"belongs to game {other.game.id[:12]}")


def _hand_made(path: Path, entries: list[Entry], accused: str = "b") -> Path:
    """An evidence file made by hand, its human lines accusing `accused`."""
    lines = [MAGIC, "claim: equivocation", f"accused: {accused} SHA256:whatever", ""]
    path.write_text("\n".join(lines) + "".join(armor(e.canonical, e.signature) for e in entries))
    return path


def test_a_bundle_accusing_the_wrong_role_proves_nothing(tmp_path: Path) -> None:
    table = Table()
    table.join_all()
    genesis = table.genesis
    mine, theirs = table.move_entry("a", "roll"), table.move_entry("b", "roll")
    # Entries of two roles at one seq (mail that crossed) are no equivocation by b.
    not_proven(
        _hand_made(tmp_path / "crossed.txt", [genesis, mine, theirs]),
        "are by a and b: entries of two roles that crossed are no equivocation",
    )
    # Two entries "by b" that a signed with its own key do not accuse b.
    forged = [table.move_entry("b", text, key=table.keys["a"]) for text in ("roll", "roll twice")]
    not_proven(
        _hand_made(tmp_path / "forged.txt", [genesis, *forged]),
        "its signature does not verify with the key the genesis names for b",
        "not evidence against anyone",
    )
    # The log up to an honest entry of b accuses b of nothing.
    table.move("a", "roll")
    table.ack("b")
    not_proven(
        _hand_made(tmp_path / "honest.txt", table.game.entries),
        "is accepted by the rules: the log up to it is honest",
    )


def test_human_lines_edited_to_lie_change_nothing(tmp_path: Path) -> None:
    table, log = equivocation()
    path = evidence_of(tmp_path, log)
    before = run("verify", str(path)).stdout
    text = path.read_text()
    fingerprint_b = table.keys["b"].public.fingerprint()
    lies = (
        text.replace("claim: equivocation", "claim: false-claim")
        .replace("accused: a ", f"accused: b {fingerprint_b} was ")
        .replace(f"game: {table.game.id}", "game: " + "0" * 64)
        .replace("reason: a signed", "reason: b signed")
        .replace("entry-3-2: move by a (accused)", "entry-3-2: move by b (accused)")
    )
    assert lies != text
    path.write_text(lies)
    assert run("verify", str(path)).stdout == before
    assert before.startswith("PROVEN: equivocation by a ")


def test_edited_ssh_keygen_material_proves_nothing(tmp_path: Path) -> None:
    _table, log = equivocation()
    path = evidence_of(tmp_path, log)
    text = path.read_text()
    json_line = next(line for line in text.split("\n") if line.startswith("entry-3-2.json: "))
    path.write_text(text.replace(json_line, json_line.replace("roll twice", "roll")))
    not_proven(path, "ssh-keygen material")
    signature = text.rindex("-----BEGIN SSH SIGNATURE-----")
    path.write_text(text[:signature])  # one signature dropped
    not_proven(path, "ssh-keygen material")
    # Without any material, the armored entries alone still prove it.
    path.write_text(text[: text.index("Without pbem")])
    assert proven(path)[:2] == ("equivocation", "a")


def _unpack(tmp_path: Path, evidence: Path) -> Path:
    folder = tmp_path / "unpacked"
    result = run("evidence", "--unpack", str(evidence), str(folder))
    assert result.exit_code == 0, result.output
    return folder


@needs_ssh_keygen
@pytest.mark.parametrize("cheat", ["equivocation", "false-claim", "forfeit"])
def test_ssh_keygen_checks_the_unpacked_signatures(tmp_path: Path, cheat: str) -> None:
    if cheat == "equivocation":
        table, log = equivocation()
        accused = [log[-2], log[-1]]
    elif cheat == "false-claim":
        table, log = false_claim()
        accused = [log[3], log[5]]
    else:
        table = refereed()
        accused = [forfeit_entry(table, seen=SINCE)]
        log = [*table.game.entries, *accused]
    evidence = evidence_of(tmp_path, log)
    folder = _unpack(tmp_path, evidence)
    text = evidence.read_text()
    signers = (folder / "allowed_signers").read_text()
    role = accused[0].by
    line = f"{role} {table.keys[role].public.openssh_line()}"
    assert f"{line}\n" in signers and f"allowed_signers: {line}\n" in text
    for entry in accused:
        # entry-<seq>-<n>.json holds exactly the canonical bytes (n: 1, 2 within a seq)
        name = next(
            p.stem for p in folder.glob("entry-*.json") if p.read_bytes() == entry.canonical
        )
        assert re.fullmatch(rf"entry-{entry.seq}-[12]", name)
        stem = folder / name
        # the evidence file shows the same bytes on one line, and the same signature
        assert f"{name}.json: {entry.canonical.decode()}\n" in text
        assert (folder / f"{name}.sig").read_text() in text
        command = ["ssh-keygen", "-Y", "verify", "-f", str(folder / "allowed_signers")]
        command += ["-I", role, "-n", "pbem-entry", "-s", f"{stem}.sig"]
        done = subprocess.run(command, input=entry.canonical, capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr
        # and the real ssh-keygen refuses the same signature over other bytes
        done = subprocess.run(
            command, input=entry.canonical + b" ", capture_output=True, timeout=60
        )
        assert done.returncode != 0
    done = subprocess.run(["sh", str(folder / "check.sh")], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"every signature verifies" in done.stdout


@needs_ssh_keygen
def test_check_sh_fails_on_a_changed_entry(tmp_path: Path) -> None:
    _table, log = equivocation()
    folder = _unpack(tmp_path, evidence_of(tmp_path, log))
    entry = folder / "entry-3-1.json"
    entry.write_bytes(entry.read_bytes().replace(b'"roll"', b'"rolL"'))
    done = subprocess.run(["sh", str(folder / "check.sh")], capture_output=True, timeout=120)
    assert done.returncode != 0
    assert b"every signature verifies" not in done.stdout


# --- the command line -----------------------------------------------------------------------


def test_verify_json_carries_the_evidence_record(tmp_path: Path) -> None:
    table, log = equivocation()
    path = evidence_of(tmp_path, log)
    result = run("verify", "--json", str(path))
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    (record,) = document["files"]
    assert document["ok"] is True and record["ok"] is True and record["error"] is None
    found = record["evidence"]
    assert (found["claim"], found["role"], found["game"]) == ("equivocation", "a", table.game.id)
    assert [e["seq"] for e in found["entries"]] == [0, 3, 3]
    assert set(found["accused_entries"]) == {log[-1].id, log[-2].id}
    path.write_text(path.read_text().replace("entry-3-1.json: {", "entry-3-1.json: {{"))
    result = run("verify", "--json", str(path))
    assert result.exit_code == 1
    record = json.loads(result.stdout)["files"][0]
    assert record["ok"] is False and record["evidence"]["proven"] is False
    assert record["error"].startswith("NOT PROVEN: ")


def test_the_fast_entry_point_hands_an_evidence_file_to_the_command(tmp_path: Path) -> None:
    """`pbem verify FILE` is answered without click for a log (pbem.cli); an evidence
    file is recognised by its first line and checked as evidence there too. (A real
    process: an equivocation needs no engine, only the genesis's keys.)"""
    _table, log = equivocation()
    path = evidence_of(tmp_path, log)
    done = subprocess.run(
        [sys.executable, "-m", "pbem", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PBEM_HOME": str(tmp_path / "home")},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("PROVEN: equivocation by a ")


def test_evidence_files_are_verified_on_their_own(tmp_path: Path) -> None:
    _table, log = equivocation()
    path = evidence_of(tmp_path, log)
    result = run("verify", str(path), str(tmp_path / "log-evidence.txt"))
    assert result.exit_code == 1
    assert "is not an evidence file: verify evidence files on their own" in result.stderr
    result = run("evidence")
    assert result.exit_code == 1 and "SOURCE" in result.stderr


def test_a_false_exhaustion_claim_in_race_to_berlin(tmp_path: Path) -> None:
    """Rulebook 4.1 (a logistics block claimed exhausted at 2 cubes opens as 4): the
    evidence is checked by a fresh `pbem` process that knows only the shipped games."""
    from pbem.games.race_to_berlin.decisions import Tokens
    from pbem.games.race_to_berlin.rules import ENGINE
    from tests.games.race_to_berlin.test_rtb_hidden import entry_for, place_all, state

    table = Table("race-to-berlin", ("west", "soviet"), nonce="evidence")
    table.join_all()
    place_all(table)
    table.decide("soviet", ENGINE.parse("remove block in 30", state(table), "soviet"))
    liar = table.apply(table.move_entry("west", "attack 4 from 1 cubes 2 exhausting"))
    table.decide("soviet", ENGINE.parse("support in 4", state(table), "soviet"))
    opening = entry_for(table, "west", Tokens())
    path = evidence_of(tmp_path, [*table.game.entries, opening])
    done = subprocess.run(
        [sys.executable, "-m", "pbem", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PBEM_HOME": str(tmp_path / "home")},
    )
    assert done.returncode == 0, done.stderr
    found = PROVEN.fullmatch(done.stdout)
    assert found is not None, done.stdout
    assert (found.group(1), found.group(2)) == ("false-claim", "west")
    assert f"false claim in entry {liar.seq} by west" in found.group(5)
    assert "block/west/t1/1 was claimed exhausted at 2 cubes, but it opens as 4" in found.group(5)
