"""The new-game skeleton of docs/architecture-notes.md (tests/support/skeleton.py): a step
table, a sealed round and a deck in under 150 lines, played through the real adjudicator."""

from __future__ import annotations

import random
import re
from pathlib import Path

from pbem.kit import pieces
from pbem.testing import Table as EngineTable
from tests.support.players import Table, assert_refused
from tests.support.skeleton import ENGINE, Open, Stake

ROOT = Path(__file__).resolve().parents[2]
SKELETON = ROOT / "tests" / "support" / "skeleton.py"


def test_the_docs_show_the_skeleton_verbatim_and_it_is_short() -> None:
    notes = (ROOT / "docs" / "architecture-notes.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", notes, re.S)
    source = SKELETON.read_text()
    assert source in blocks, "docs/architecture-notes.md must show tests/support/skeleton.py"
    assert len(source.splitlines()) < 150


def test_bots_play_whole_games_through_the_signed_pipeline() -> None:
    for seed in range(8):
        table = Table("toy-high-card", ("north", "south"), nonce=f"hc{seed}")
        table.join_all()
        table.play(random.Random(seed))
        outcome = table.game.outcome()
        assert outcome is not None
        assert table.game.unopened() == []
        # four rounds: one draw each; the fourth draw takes the discards back first
        draws = [r for r in table.game.rng_log if "draws" in r.purpose]
        assert len(draws) == 4 and all(r.lo == 0 for r in draws)
        assert [r.hi for r in draws] == [2, 1, 0, 2]


def test_a_stake_is_sealed_until_the_other_seat_is_bound() -> None:
    table = Table("toy-high-card", ("north", "south"), nonce="sealed")
    table.join_all()
    entry = table.decide("north", Stake(3))
    assert entry.body["decision"] == "stake" and list(entry.body["commit"]) == ["stake/north/1"]
    assert table.game.state["pieces"]["stake/north/1"]["value"] is None
    answer = table.decide("south", Stake(1))
    assert answer.body == {"decision": "stake 1"}
    assert_refused(table.game, table.make("north", "move", {"decision": "open"}), "must open")
    table.decide("north", Open())
    table.ack("south")  # the draw's dice
    state = table.game.state
    assert state["pieces"]["stake/north/1"]["value"] == 3
    assert state["score"]["south"] == 1 and state["score"]["north"] in (1, 2, 3)


def test_the_engine_table_plays_it_with_scripted_draws() -> None:
    table = EngineTable(ENGINE)
    table.decide("north", Stake(1))
    table.decide("south", Stake(2))
    ctx = table.decide("north", Open(), rolls=[2])  # index 2 of [1, 2, 3]
    assert ctx.purposes == ["round 1: south draws"]
    assert table.state["score"] == {"north": 1, "south": 3}
    assert table.state["deck"] == {"pile": [1, 2], "discard": [3], "private": []}
    assert pieces.sealed(table.state["pieces"].values()) == []
