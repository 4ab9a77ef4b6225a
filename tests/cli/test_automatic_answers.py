"""Automatic answers through the real command line and stores (issue 14): `pbem orders`,
`apply` and `mail fetch` answering what needs no person, `move -o` and `outbox` carrying
every entry the other side has not answered, and `--no-auto`."""

from __future__ import annotations

import mailbox
import re
from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.client import Client
from pbem.mail.compose import compose
from pbem.store import Store
from pbem.verify import parse_entries


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> Result:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result


def two_stores(tmp_path: Path, rules: str, mine: str, theirs: str) -> tuple[Path, Path, str]:
    """`rules` between two stores: `mine` creates, `theirs` applies the start and joins."""
    me, them = tmp_path / mine, tmp_path / theirs
    ok(me, "key", "new", mine)
    ok(them, "key", "new", theirs)
    ok(me, "key", "import", theirs, str(them / "keys" / f"{theirs}.pub"))
    start, join = tmp_path / "start.txt", tmp_path / "join.txt"
    made = ok(me, "new", rules, "--key", f"{mine}={mine}", "--key", f"{theirs}={theirs}",
              "-o", str(start))  # fmt: skip
    game = made.stdout.strip()
    ok(them, "apply", str(start))
    ok(them, "join", game[:12], "-o", str(join))
    ok(me, "apply", str(join))
    return me, them, game


def seqs(path: Path) -> list[int]:
    return [e.seq for e in parse_entries(path.read_bytes())]


def test_orders_list_set_and_clear(tmp_path: Path) -> None:
    west, _soviet, game = two_stores(tmp_path, "race-to-berlin", "west", "soviet")
    listed = ok(west, "orders", game[:12]).stdout
    assert "standing orders of west" in listed
    assert "support: (not set: you are asked)" in listed
    assert "reserves keep at N: re-roll only while your side's total is below N" in listed
    said = ok(west, "orders", game[:12], "set", "reserves", "KEEP", "at", "7").stdout
    assert said.strip() == "standing order reserves: keep at 7"
    assert "reserves: keep at 7" in ok(west, "orders", game[:12]).stdout
    assert Client(Store(west)).orders(game, "west") == ("west", {"reserves": "keep at 7"})
    for args, fragment in [
        (("set", "reserves", "keep;", "rm"), "is not one of"),
        (("set", "nonsense", "none"), "has no standing order 'nonsense'"),
        (("set", "support"), "say which order and what it says"),
    ]:
        refused = run(west, "orders", game[:12], *args)
        assert refused.exit_code == 1 and refused.stderr.count("\n") == 1
        assert fragment in refused.stderr
    assert ok(west, "orders", game[:12], "clear").stdout.strip() == "cleared 1 standing order"
    assert Client(Store(west)).orders(game, "west") == ("west", {})


def test_apply_answers_by_standing_order_and_writes_the_answer(tmp_path: Path) -> None:
    """Race to Berlin 4.1.1: the players alternate placing blocks. West's order places
    its blocks for it as soon as the Soviet's placement arrives."""
    soviet, west, game = two_stores(tmp_path, "race-to-berlin", "soviet", "west")
    ok(west, "orders", game[:12], "set", "place", "front")
    placed = tmp_path / "m3.txt"
    ok(soviet, "move", game[:12], "place", "4", "in", "29", "-o", str(placed))
    back = tmp_path / "back.txt"
    applied = ok(west, "apply", str(placed), "-o", str(back)).stdout
    assert "applied: entry 3 by soviet" in applied
    line = re.search(r"signed automatically entry 4 by west: place block in (\w+) "
                     r"\(standing order place: front\)", applied)  # fmt: skip
    assert line is not None, applied
    assert f"game {game[:12]}: waits for soviet" in applied
    assert seqs(back) == [4]
    # the sealed value is west's alone: its store opens it, the Soviet's does not
    own = Client(Store(west)).known(game, "west")
    assert len(own) == 1, own
    assert Client(Store(soviet)).known(game, "west") == {}
    ok(soviet, "apply", str(back))
    assert Client(Store(soviet)).game(game).head.id == Client(Store(west)).game(game).head.id


def test_no_auto_applies_and_signs_nothing(tmp_path: Path) -> None:
    soviet, west, game = two_stores(tmp_path, "race-to-berlin", "soviet", "west")
    ok(west, "orders", game[:12], "set", "place", "front")
    placed = tmp_path / "m3.txt"
    ok(soviet, "move", game[:12], "place", "4", "in", "29", "-o", str(placed))
    applied = ok(west, "apply", "--no-auto", str(placed)).stdout
    assert "automatically" not in applied
    assert len(Client(Store(west)).game(game).entries) == 4


def barbarossa(tmp_path: Path) -> tuple[Path, Path, str]:
    return two_stores(tmp_path, "barbarossa", "german", "referee")


def test_the_witness_acknowledges_the_dice_by_itself(tmp_path: Path) -> None:
    """A dice acknowledgement is no choice: the referee's client signs it on apply."""
    german, referee, game = barbarossa(tmp_path)
    rolled = tmp_path / "m.txt"
    ok(german, "move", game[:12], "roll", "event", "-o", str(rolled))
    back = tmp_path / "back.txt"
    applied = ok(referee, "apply", str(rolled), "-o", str(back)).stdout
    assert "signed automatically entry 4 by referee: acknowledged the dice (rolls the dice)" in (
        applied
    )
    assert seqs(back) == [4]
    result = ok(german, "apply", str(back)).stdout
    assert "applied: entry 4 by referee" in result
    # The referee never decides for the German: every entry it signed is an ack or a join.
    log = Client(Store(referee)).game(game).entries
    assert {e.kind for e in log if e.by == "referee"} == {"join", "ack"}


def test_a_move_file_carries_every_unanswered_entry_and_outbox_writes_them(
    tmp_path: Path,
) -> None:
    german, referee, game = barbarossa(tmp_path)
    first = tmp_path / "m1.txt"
    ok(german, "move", game[:12], "roll", "event", "-o", str(first))
    ok(referee, "apply", "--no-auto", str(first))
    # The move file of the start is answered by the referee's join: not carried again.
    assert seqs(first) == [3]
    out = tmp_path / "outbox.txt"
    ok(german, "outbox", game[:12], "-o", str(out))
    assert seqs(out) == [3]  # not yet answered: the referee's ack has not come back
    refused = run(referee, "outbox", game[:12])
    assert refused.exit_code == 1 and "nothing to send" in refused.stderr
    # A lost move file is no loss: a second move file carries the entry again.
    first.unlink()
    ok(german, "outbox", game[:12], "-o", str(first))
    assert seqs(first) == [3]


def test_mail_fetch_answers_and_says_what_to_send(tmp_path: Path) -> None:
    german, referee, game = barbarossa(tmp_path)
    ok(german, "move", game[:12], "roll", "event", "-o", str(tmp_path / "m.txt"))
    client = Client(Store(german))
    adjudicator = client.game(game)
    message = compose(
        adjudicator, [adjudicator.entries[3]], sender="g@example.org", sender_name="G",
        to="r@example.org", thread=[],
    )  # fmt: skip
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(message)
    fetched = ok(referee, "mail", "fetch", "--maildir", str(tmp_path / "Maildir")).stdout
    assert "applied game" in fetched
    assert "signed automatically entry 4 by referee: acknowledged the dice" in fetched
    assert f"to send them: pbem mail send {game[:12]}" in fetched
    assert len(Client(Store(referee)).game(game).entries) == 5


def test_no_automatic_answer_declines_an_open_draw_offer(tmp_path: Path) -> None:
    """Any entry of the other side declines a draw offer: that is a person's choice, so a
    standing order that would answer waits until the person has seen the offer."""
    soviet, west, game = two_stores(tmp_path, "race-to-berlin", "soviet", "west")
    ok(west, "orders", game[:12], "set", "place", "front")
    ok(soviet, "offer-draw", game[:12], "-o", str(tmp_path / "offer.txt"))
    placed = tmp_path / "m.txt"
    ok(soviet, "move", game[:12], "place", "4", "in", "29", "-o", str(placed))
    assert seqs(placed) == [3, 4]  # the offer, not yet answered, travels again
    applied = ok(west, "apply", str(placed)).stdout
    assert "automatically" not in applied
    assert len(Client(Store(west)).game(game).entries) == 5
    # once the person has answered (here: declined by placing), the orders work again
    ok(west, "move", game[:12], "place", "2", "in", "1", "-o", str(tmp_path / "w.txt"))
    assert Client(Store(west)).game(game).meta.offer_by is None


def test_move_and_apply_json_name_the_automatic_answers(tmp_path: Path) -> None:
    import json

    german, referee, game = barbarossa(tmp_path)
    rolled = tmp_path / "m.txt"
    moved = json.loads(ok(german, "move", game[:12], "roll", "event", "--json", "-o",
                          str(rolled)).stdout)  # fmt: skip
    assert moved["schema"] == 1 and moved["game"] == game
    assert moved["signed"] == [
        {"seq": 3, "id": moved["signed"][0]["id"], "by": "german", "kind": "move",
         "decision": "roll event", "automatic": None}
    ]  # fmt: skip
    assert moved["move_seqs"] == [3] and moved["move_text"] is None and seqs(rolled) == [3]
    assert moved["next"] == {"signer": "referee", "yours": False,
                             "prompt": "acknowledge entry 3 to roll its dice",
                             "outcome": None}  # fmt: skip
    back = tmp_path / "back.txt"
    applied = json.loads(ok(referee, "apply", str(rolled), "--json", "-o", str(back)).stdout)
    assert applied["entries"] == [
        {"game": game, "seq": 3, "by": "german", "kind": "move", "status": "applied"}
    ]
    (one,) = applied["games"]
    assert [(a["seq"], a["kind"], a["automatic"]) for a in one["automatic"]] == [
        (4, "ack", "rolls the dice")
    ]
    assert one["to_send"] == [4] and seqs(back) == [4]
    assert one["next"]["signer"] == "german" and one["next"]["yours"] is False
