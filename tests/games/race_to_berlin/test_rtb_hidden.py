"""Hidden logistics blocks (protocol section 5, rulebook 4.1) through the real adjudicator.

`SignedTable` signs every entry; `SignedTable.decide` seals and opens like a player's
client. Cheats are entries made by hand with their own commitments. Also here: the
deferral rule (protocol section 4) seen from the adjudicator -- the attack and support
declarations complete at once, the tokens decision waits for the other role's entropy.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pbem.core.commit import Opening, commitment
from pbem.core.engine import register
from pbem.core.log import Entry
from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin.decisions import OpenBlocks, Place, Tokens
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.testing import SignedTable
from tests.games.race_to_berlin.rtb_support import (
    action_game,
    put_block,
)
from tests.support.players import assert_refused, hex_of

register("race-to-berlin", "pbem.games.race_to_berlin.rules:ENGINE")


def new_table(nonce: str = "hidden") -> SignedTable:
    table = SignedTable("race-to-berlin", ("west", "soviet"), nonce=nonce, signed=False)
    table.join_all()
    return table


def state(table: SignedTable) -> dict[str, Any]:
    assert table.game.state is not None
    return table.game.state


def entry_for(table: SignedTable, role: str, decision: Any) -> Entry:
    """The entry `SignedTable.decide` would sign, without applying it."""
    private = ENGINE.with_secrets(table.state_for(role), role, table.known(role))
    public, values = ENGINE.seal(private, role, decision)
    body: dict[str, Any] = {"decision": ENGINE.format(public)}
    assert not values
    due = ENGINE.due_openings(private, role, public)
    if due:
        body["open"] = [Opening(lb, *table.secrets[lb]).to_json() for lb in due]
    return table.make(role, "move", body)


def sealed_placement(table: SignedTable, role: str, area: str, value: int) -> Entry:
    """A placement signed by hand (its value need not be one the player still has)."""
    st = state(table)
    label = f"block/{role}/t{st['turn']}/{st['placed'][role] + 1}"
    salt = hex_of(b"cheat", label.encode())
    table.secrets[label] = (salt, value)
    table.owners[label] = role
    body = {
        "decision": f"place block in {area}",
        "commit": {label: commitment(table.game.id, label, salt, value)},
    }
    return table.apply(table.make(role, "move", body))


PLAN = {
    "soviet": [(3, "4"), (5, "29"), (2, "28"), (2, "30"), (3, "5"), (4, "6"), (4, "9"), (5, "13")],
    "west": [(4, "1"), (5, "2"), (2, "3"), (3, "16"), (3, "17"), (4, "18"), (5, "21"), (2, "22")],
}


def place_all(table: SignedTable, cheat: dict[int, tuple[int, str]] | None = None) -> None:
    """Both players place by PLAN (West's n-th placement replaced by `cheat[n]`)."""
    done = {"west": 0, "soviet": 0}
    while state(table)["phase"] == "logistics":
        role = table.game.prompts()[0].role
        value, area = PLAN[role][done[role]]
        done[role] += 1
        if role == "west" and cheat and done[role] in cheat:
            value, area = cheat[done[role]]
            sealed_placement(table, role, area, value)
        else:
            table.decide(role, Place(area, value))


def block_values(view: dict[str, Any], owner: str) -> list[Any]:
    return [b["value"] for b in view["blocks"] if b["owner"] == owner]


# --- views --------------------------------------------------------------------------------------


def test_protocol_5_no_view_shows_the_other_sides_sealed_values() -> None:
    table = new_table()
    place_all(table)
    st = state(table)
    assert block_values(st, "west") == [None] * 8 and block_values(st, "soviet") == [None] * 8
    for role, other in (("west", "soviet"), ("soviet", "west")):
        own = ENGINE.view_known(st, role, table.known(role))
        assert block_values(own, other) == [None] * 8
        assert sorted(block_values(own, role)) == [2, 2, 3, 3, 4, 4, 5, 5]
        assert own["hands"][other] is None and own["hands"][role] == []
        for area in own["board"]:
            for b in area["blocks"]:
                assert b["owner"] == role or b["value"] is None
        public = ENGINE.view(st, other)
        assert block_values(public, role) == [None] * 8
        assert block_values(ENGINE.view(st, None), role) == [None] * 8
    # no salt anywhere in any view
    salts = {salt for salt, _ in table.secrets.values()}
    for role in ("west", "soviet"):
        text = json.dumps(ENGINE.view_known(st, role, table.known(role)))
        assert not any(salt in text for salt in salts)


def test_protocol_5_the_hand_left_to_place_is_the_owners_only() -> None:
    table = new_table()
    table.decide("soviet", Place("29", 5))
    table.decide("west", Place("1", 4))
    st = state(table)
    assert ENGINE.with_secrets(st, "west", table.known("west"))["hands"]["west"] == [
        2,
        2,
        3,
        3,
        4,
        5,
        5,
    ]
    assert ENGINE.with_secrets(st, "west", table.known("west"))["hands"]["soviet"] is None
    assert st["hands"] == {"west": None, "soviet": None}


def test_protocol_5_a_revealed_block_shows_in_both_views() -> None:
    table = new_table()
    place_all(table)
    table.decide("soviet", ENGINE.parse("remove block in 30", state(table), "soviet"))
    table.decide("west", ENGINE.parse("attack 4 from 1 cubes 1", state(table), "west"))
    table.decide("soviet", ENGINE.parse("support in 4", state(table), "soviet"))
    for role in ("west", "soviet"):
        view = ENGINE.view_known(state(table), role, table.known(role))
        soviet_4 = next(b for b in view["blocks"] if b["area"] == "4")
        assert soviet_4["revealed"] and soviet_4["value"] == 3
    for role in ("west", "soviet"):
        view = ENGINE.view(state(table), role)
        assert next(b for b in view["blocks"] if b["area"] == "4")["value"] == 3


# --- the deferral rule --------------------------------------------------------------------------


def test_protocol_4_attack_and_support_complete_the_tokens_decision_waits() -> None:
    table = new_table()
    place_all(table)
    table.decide("soviet", ENGINE.parse("remove block in 30", state(table), "soviet"))
    table.decide("west", ENGINE.parse("attack 4 from 1 cubes 1", state(table), "west"))
    assert not table.game.waiting_for_entropy and state(table)["step"] == "support"
    table.decide("soviet", ENGINE.parse("support in 4", state(table), "soviet"))
    assert not table.game.waiting_for_entropy and state(table)["step"] == "tokens"
    assert table.game.rng_log == []
    table.decide("west", Tokens())
    assert table.game.waiting_for_entropy
    assert [p.role for p in table.game.prompts()] == ["soviet"]
    table.ack("soviet")
    purposes = [r.purpose for r in table.game.rng_log]
    assert purposes == [
        "attack 4 from 1: west die 1",
        "attack 4 from 1: west die 2",
        "attack 4 from 1: german die 1",
        "attack 4 from 1: german die 2",
    ]


# --- false claims -------------------------------------------------------------------------------


def test_rulebook_4_1_a_false_exhaustion_claim_is_caught_when_the_block_opens() -> None:
    table = new_table()
    place_all(table)
    table.decide("soviet", ENGINE.parse("remove block in 30", state(table), "soviet"))
    # the West's block in 1 is a 4: two cubes do not exhaust it, yet the West claims so
    liar = table.apply(table.move_entry("west", "attack 4 from 1 cubes 2 exhausting"))
    assert state(table)["blocks"][1]["exhausted"] is True  # the public believes it for now
    table.decide("soviet", ENGINE.parse("support in 4", state(table), "soviet"))
    message = assert_refused(table.game, entry_for(table, "west", Tokens()), "false claim")
    assert f"false claim in entry {liar.seq} by west" in message
    assert "block/west/t1/1 was claimed exhausted at 2 cubes, but it opens as 4" in message
    assert message.endswith("(rulebook 4.1)")


def test_rulebook_4_1_a_missing_exhaustion_claim_is_a_false_claim_too() -> None:
    table = new_table()
    place_all(table, cheat=None)
    table.decide("soviet", ENGINE.parse("remove block in 30", state(table), "soviet"))
    # West's block in 3 is a 2: two cubes exhaust it; the West keeps silent
    silent = table.apply(table.move_entry("west", "attack 6 from 3 cubes 2"))
    table.decide("soviet", ENGINE.parse("support in 6", state(table), "soviet"))
    message = assert_refused(table.game, entry_for(table, "west", Tokens()), "false claim")
    assert f"false claim in entry {silent.seq} by west" in message
    assert "reached 2 cubes without the exhaustion claim" in message


def test_rulebook_4_1_a_block_value_used_twice_is_caught_at_the_end_of_turn_opening() -> None:
    table = new_table()
    # the West's 8th placement is a third 5 (it has two): the 22 block never fights
    place_all(table, cheat={8: (5, "22")})
    cheat_seq = next(
        b["placed_at"] for b in state(table)["blocks"] if b["label"] == "block/west/t1/8"
    )
    # everyone removes blocks until the Action Phase ends
    while state(table)["phase"] == "action":
        role = table.game.prompts()[0].role
        own = [b["area"] for b in state(table)["blocks"] if b["owner"] == role and b["area"]]
        table.decide(role, ENGINE.parse(f"remove block in {own[0]}", state(table), role))
    assert state(table)["step"] == "open"
    assert [p.role for p in table.game.prompts()] == ["west"]  # one at a time, West first
    message = assert_refused(table.game, entry_for(table, "west", OpenBlocks()), "false claim")
    assert f"false claim in entry {cheat_seq} by west" in message
    assert "block/west/t1/8 opens as 5, but West has only 2 blocks of 5" in message
    assert "block/west/t1/2" in message  # the honest 5s it duplicates


def test_rulebook_4_1_claims_are_checked_again_at_the_end_of_turn_opening() -> None:
    """A claim recorded while a block was sealed (test arrangement: the block never
    reached step 5) is checked when its owner opens it at the end of the turn."""
    g = action_game("west")
    liar = put_block(g, "west", "2", 4)
    g.state["blocks"][-1].update(
        cubes=2,
        exhausted=True,
        claims=[{"seq": 42, "by": "west", "cubes": 2, "exhausting": True}],
    )
    g.state["cubes"]["west"]["pool"] -= 2
    put_block(g, "west", "1", 3)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "remove block in 1")
    g.decide("soviet", "remove block in 29")  # the Action Phase ends
    assert g.state["step"] == "open"
    with pytest.raises(IllegalOrderError) as info:
        g.decide("west", "open blocks")
    assert str(info.value) == (
        f"false claim in entry 42 by west: {liar} was claimed exhausted at 2 cubes, but it "
        "opens as 4 (rulebook 4.1)"
    )


def test_protocol_5_every_sealed_block_is_opened_by_the_end_of_the_turn() -> None:
    table = new_table()
    place_all(table)
    while state(table)["phase"] == "action":
        role = table.game.prompts()[0].role
        own = [b["area"] for b in state(table)["blocks"] if b["owner"] == role and b["area"]]
        table.decide(role, ENGINE.parse(f"remove block in {own[0]}", state(table), role))
    assert [p.role for p in table.game.prompts()] == ["west"]  # one signer at a time
    opening = table.decide("west", OpenBlocks())
    assert len(opening.body["open"]) == 8
    assert [p.role for p in table.game.prompts()] == ["soviet"]
    table.decide("soviet", OpenBlocks())
    assert table.game.unopened() == []
    assert state(table)["phase"] == "strategic"
    assert all(b["revealed"] for b in state(table)["blocks"])


def test_protocol_5_openings_only_where_due() -> None:
    table = new_table()
    place_all(table)
    label = "block/soviet/t1/2"
    salt, value = table.secrets[label]
    body = {"decision": "remove block in 30", "open": [Opening(label, salt, value).to_json()]}
    assert_refused(table.game, table.make("soviet", "move", body), "may not be opened")
