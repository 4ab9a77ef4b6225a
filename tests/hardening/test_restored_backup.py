"""A restored backup (issue 27, item 6), performed through the real CLI with two stores.

The attack as the issue tried it: both players back up their store folders; the first
(a) signs E; the second (b) answers F, whose reveal r rolls E's dice; both restore their
folders; a signs a different E'; b's client applies E' and signs a new entry F' with the
same reveal r. a saw r before choosing E', so a chose E''s dice (or, with a draw in E',
the whole hand). When the signing journal lived in keys/ inside the store folder, the
restore rolled it back with store.db and b's client signed F'; and `pbem evidence` of the
thread then called b, the player who was robbed, the proven cheat.

Now the journal lives in the user's state folder (pbem/store/journal.py), which a restore
of the store folder does not touch: b's restored client refuses to sign with r again and
says how to get F back (`pbem recover`). The thread's proof names a, who signed two
entries for one seq on one prev; b's two entries on different prevs, were they ever
signed, prove nothing against b.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pbem.transport.savefile import move_file
from pbem.verify import parse_entries
from tests.support.machines import Player, start


def test_a_restored_store_folder_cannot_make_its_player_reuse_a_reveal(tmp_path: Path) -> None:
    a, b, game = start(tmp_path)
    a.back_up()
    b.back_up()
    e = a.sign(game, "roll", "E")
    b.ok("apply", str(e))
    f = b.sign(game, "roll", "F")  # its reveal r rolls E's die
    a.ok("apply", str(f))  # a has seen r
    [sent_f] = parse_entries(f.read_text())

    a.restore()
    b.restore()
    # a's own client refuses too (its journal knows E); a cheater deletes it and signs E'.
    refused = a.run("move", game[:8], "roll", "twice")
    assert refused.exit_code == 1 and "already signed" in refused.stderr
    shutil.rmtree(a.state / "journals")
    e2 = a.sign(game, "roll twice", "E2")

    b.ok("apply", str(e2))
    refused = b.run("move", game[:8], "roll", "-o", str(tmp_path / "F2.txt"))
    assert refused.exit_code == 1, refused.output
    message = refused.stderr.strip()
    assert message.count("\n") == 0  # one error line
    assert f"refusing to sign seq {sent_f.seq} of game {game[:12]} as b" in message
    assert f"already signed the entry with its reveal 1 (entry {sent_f.id[:12]})" in message
    assert f"pbem recover {game[:12]}" in message
    assert not (tmp_path / "F2.txt").exists()
    # Nothing of the restore touched the state folder: it holds F, with r.
    recovered = tmp_path / "recovered.txt"
    b.ok("recover", game[:8], "-o", str(recovered))
    assert sent_f in parse_entries(recovered.read_text())

    # The thread holds a's two entries for one seq on one prev: the proof names a.
    thread = tmp_path / "thread.txt"
    thread.write_text("".join(p.read_text() for p in (tmp_path / "start.txt", e, f, e2)))
    checker = Player(tmp_path, "checker")
    found = checker.ok("evidence", str(thread), "-o", str(tmp_path / "evidence.txt"))
    assert found.exit_code == 0
    verdict = checker.ok("verify", str(tmp_path / "evidence.txt")).stdout
    assert verdict.startswith("PROVEN: equivocation by a ")
    assert "EQUIVOCATION: role a " in checker.run("verify", str(thread)).stdout


def test_even_a_robbed_players_second_answer_is_not_called_its_cheat(tmp_path: Path) -> None:
    """Where no local record is left (the issue's run: the journal restored with the
    store; here b's state folder is lost too), b's client signs F' with r again. The
    thread then holds a's E and E' (the proof against a) and b's F and F' on different
    prevs, which verify and evidence report as two branches, never as b's cheat."""
    a, b, game = start(tmp_path)
    a.back_up()
    b.back_up()
    e = a.sign(game, "roll", "E")
    b.ok("apply", str(e))
    f = b.sign(game, "roll", "F")
    a.ok("apply", str(f))
    a.restore()
    b.restore()
    shutil.rmtree(a.state)
    shutil.rmtree(b.state)  # a whole-machine restore, without mail to relearn from
    e2 = a.sign(game, "roll twice", "E2")
    b.ok("apply", str(e2))
    f2 = b.sign(game, "roll", "F2")
    [first], [second] = parse_entries(f.read_text()), parse_entries(f2.read_text())
    assert first.reveal == second.reveal and first.id != second.id  # r, twice

    checker = Player(tmp_path, "checker")
    genesis = (tmp_path / "start.txt").read_text()
    for order in ((e, f, e2, f2), (f2, f, e2, e)):
        thread = tmp_path / "thread.txt"
        thread.write_text(genesis + "".join(p.read_text() for p in order))
        checker.ok("evidence", str(thread), "-o", str(tmp_path / "evidence.txt"))
        verdict = checker.ok("verify", str(tmp_path / "evidence.txt")).stdout
        assert verdict.startswith("PROVEN: equivocation by a "), verdict
    # b's two answers alone: two branches, and nothing proven against b.
    thread.write_text(genesis + move_file(parse_entries(e.read_text()) + [first, second]))
    said = checker.run("verify", str(thread))
    assert said.exit_code == 1
    assert said.stderr.startswith(
        f"error: entries {first.seq} follow different entries {first.seq - 1} "
        f"({str(first.prev)[:12]} by a, {str(second.prev)[:12]} by a role not in this log)"
    )
    assert "EQUIVOCATION" not in said.output and "proves no cheat by b" in said.stderr


def test_what_the_readme_promises_of_a_restored_store_folder(tmp_path: Path) -> None:
    """README ("Backups: what restoring each folder does"): a store folder restored from a
    backup forgets the entries signed since, the state folder does not; pbem refuses to
    sign over them and `pbem recover GAME` puts them back, and the game goes on."""
    a, b, game = start(tmp_path)
    a.back_up()
    e = a.sign(game, "roll", "E")
    b.ok("apply", str(e))
    a.ok("apply", str(b.sign(game, "roll", "F")))
    a.restore()
    refused = a.run("move", game[:8], "roll", "twice")
    assert refused.exit_code == 1 and f"pbem recover {game[:12]}" in refused.stderr
    assert "applied: entry 3 by a" in a.ok("recover", game[:8]).stdout
    a.ok("apply", str(tmp_path / "F.txt"))
    b.ok("apply", str(a.sign(game, "roll", "G")))
