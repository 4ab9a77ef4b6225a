"""`pbem referee run --accept-invitations` takes only the invitations a league wants
(issue 27, item 8; docs/referee.md): anyone can mail a referee invitations from keys
made for the purpose (101 games were joined in 1.4 s), so it accepts only games whose
every player is on a roster (`--players FILE`), and no more than `--max-new-games` a run
(5 without a roster). Each invitation not accepted is said once, with why, and stays in
the inbox."""

from __future__ import annotations

import mailbox
from datetime import UTC, datetime
from pathlib import Path

import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.core.log import Entry
from pbem.core.referee import REFEREE
from pbem.refereeing.settle import invitations
from pbem.testing import SignedTable, sign_entry
from pbem.transport.savefile import move_file
from tests.refereeing.league import Desk

NOW = "2026-12-01T10:00:00Z"


def invitation(referee_line: str, nonce: str) -> tuple[Entry, SignedTable]:
    """A toy-dice genesis naming two players' keys (from `nonce`: throwaway unless the
    nonce is reused) and the referee's key."""
    table = SignedTable("toy-dice", ("a", "b"), nonce=nonce)
    fields = dict(table.genesis.data)
    body = dict(table.genesis.body)
    body["roles"] = {**body["roles"], REFEREE: referee_line}
    fields["body"] = body
    return sign_entry(table.keys["a"], fields), table


def mail_to(desk: Desk, genesis: Entry) -> None:
    text = f"Subject: referee our game?\n\nPlease referee:\n\n{move_file([genesis])}\n"
    mailbox.Maildir(desk.maildir, create=False).add(text.encode())


def run(desk: Desk, *options: str, code: int = 0) -> str:
    return desk.cli(
        "referee",
        "run",
        "--once",
        "--maildir",
        str(desk.maildir),
        "--now",
        NOW,
        *options,
        code=code,
    )


def stored(desk: Desk) -> set[str]:
    return {str(row["id"]) for row in desk.client.store.games()}


def test_throwaway_invitations_are_capped_without_a_roster(tmp_path: Path) -> None:
    referee = Desk(tmp_path, REFEREE)
    line = (referee.home / "keys" / f"{REFEREE}.pub").read_text().strip()
    sent = [invitation(line, f"throwaway-{n}")[0] for n in range(8)]
    for genesis in sent:
        mail_to(referee, genesis)
    said = run(referee, "--accept-invitations", "--max-new-games", "2")
    assert said.count("accepted the invitation") == 2 and len(stored(referee)) == 2
    refused = [x for x in said.splitlines() if "not accepted" in x]
    assert len(refused) == 6
    assert all("its limit (--max-new-games 2); the next run takes more" in x for x in refused)
    # the next run, no cap given and no roster: at most 5
    said = run(referee, "--accept-invitations")
    assert said.count("accepted the invitation") == 5 and len(stored(referee)) == 7
    refused = [x for x in said.splitlines() if "not accepted" in x]
    assert len(refused) == 1
    assert "its limit (--max-new-games 5, the default without --players)" in refused[0]


def test_only_players_on_the_roster_are_accepted(tmp_path: Path) -> None:
    referee = Desk(tmp_path, REFEREE)
    line = (referee.home / "keys" / f"{REFEREE}.pub").read_text().strip()
    league, table = invitation(line, "league players")
    strangers = [invitation(line, f"stranger-{n}")[0] for n in range(3)]
    for genesis in (*strangers, league):
        mail_to(referee, genesis)
    roster = tmp_path / "players.txt"
    roster.write_text(
        "# our league\n"
        f"{table.keys['a'].public.openssh_line()}\n"
        f"{table.keys['b'].public.fingerprint_line()}\n",  # as ssh-keygen -l prints it
        encoding="utf-8",
    )
    said = run(referee, "--accept-invitations", "--players", str(roster))
    assert said.count("accepted the invitation") == 1 and stored(referee) == {league.id}
    refused = [x for x in said.splitlines() if "not accepted" in x]
    assert len(refused) == 3
    shorts = {shown.split()[4] for shown in refused}  # (a Maildir has no order)
    assert shorts == {genesis.id[:12] for genesis in strangers}
    for shown in refused:
        assert shown.startswith("invitation to referee game ")
        assert f"not accepted: not every player is on the roster {roster}: SHA256:" in shown
        assert "(a), SHA256:" in shown and shown.endswith("(b)")
    # said once per run: a loop reads the same inbox every round (pbem.refereeing.rounds)
    again = run(referee, "--accept-invitations", "--players", str(roster))
    assert again.count("not accepted") == 3  # (a new run says them again, once)
    # the invitations stay in the inbox (`pbem join` would accept one by hand)
    assert {g.id for g in invitations(referee.client)} == {g.id for g in strangers}


def test_a_loop_says_each_refusal_once(tmp_path: Path) -> None:
    from pbem.refereeing.rounds import Referee
    from pbem.refereeing.settle import Admission
    from pbem.standings import parse_roster

    referee = Desk(tmp_path, REFEREE)
    line = (referee.home / "keys" / f"{REFEREE}.pub").read_text().strip()
    for n in range(2):
        mail_to(referee, invitation(line, f"stranger-{n}")[0])
    friend = SignedTable(nonce="friend").keys["a"].public.openssh_line()
    said: list[str] = []
    admission = Admission(parse_roster(friend, "players.txt"), None)
    clock = lambda: datetime(2026, 12, 1, 10, tzinfo=UTC)  # noqa: E731
    loop = Referee(referee.client, said.append, clock, accept_invitations=True, admission=admission)
    box = mailbox.Maildir(referee.maildir, create=False)
    messages = [(key, box.get_bytes(key)) for key in box.iterkeys()]
    for _ in range(3):  # three rounds of one run
        loop.round(messages)
    assert len([x for x in said if "not accepted" in x]) == 2
    assert stored(referee) == set()


def test_the_roster_and_cap_go_with_accept_invitations(tmp_path: Path) -> None:
    referee = Desk(tmp_path, REFEREE)
    said = run(referee, "--max-new-games", "3", code=1)
    assert "--players and --max-new-games go with --accept-invitations" in said
    bad = tmp_path / "players.txt"
    bad.write_text("mallory\n", encoding="utf-8")
    said = run(referee, "--accept-invitations", "--players", str(bad), code=1)
    assert said.strip().splitlines()[-1].startswith(f"error: roster {bad} line 1: not a public")
