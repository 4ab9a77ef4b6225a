"""`pbem referee player`, `status` and `run`'s options refuse what they cannot use in one
line (docs/referee.md)."""

from __future__ import annotations

from pathlib import Path

from pbem.core.referee import REFEREE
from tests.refereeing.league import PLAYERS, desks, hand, new_game


def test_the_commands_refuse_in_one_line(tmp_path: Path) -> None:
    made = desks(tmp_path)
    referee, first = made[REFEREE], made[PLAYERS[0]]
    assert "this store referees no game" in referee.cli("referee", "status")
    game = new_game(made)
    short = game[:12]
    hand(first.client, referee.client, game)

    def refused(desk_output: str, wanted: str) -> None:
        lines = [line for line in desk_output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: ") and wanted in lines[0], lines

    refused(referee.cli("referee", "player", short, REFEREE, "x@example.org", code=1), "no player")
    refused(referee.cli("referee", "player", short, "german", "not an address", code=1), "not an")
    refused(
        first.cli("referee", "player", short, "german", "x@example.org", code=1), "not refereed"
    )
    refused(first.cli("referee", "status", short, code=1), "not refereed")
    refused(
        referee.cli(
            "referee", "run", "--once", "--maildir", str(referee.maildir), "--now", "soon", code=1
        ),
        "YYYY-MM-DDTHH:MM:SSZ",
    )
    assert "german gets its mail at g@example.org" in referee.cli(
        "referee", "player", short, "german", "g@example.org"
    )
    status = referee.cli("referee", "status")
    assert f"game {short}" in status and "waits for soviet to join" in status
    assert "german: g@example.org, nothing mailed yet" in status
    assert "soviet: no address" in status
    # --now is for tests and backlogs: named in the text, not listed among the options
    assert "  --now" not in referee.cli("referee", "run", "--help")
