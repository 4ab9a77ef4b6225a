"""Regressions: Race to Berlin defects found in real play, each replayed where it bit.

A. Two roles asked at once fork the game for good: the end-of-turn openings asked both
   players at once; when both answered on the same head (two mails crossing), each store
   refused the other's entry as a stale head, and the game was dead. Now one signer at a
   time (protocol section 8): West opens first, then the Soviet player.
B. The mixed-front defence (rulebook 4.2.1.2 steps 4, 5 and 9): the Soviet player, resolving
   the defence of German units of both fronts, played the support cube on the West's
   sealed Eastern Front block, and that cube carried a "does not exhaust" claim in the
   West's name; when the cube reached the block's value, the West's tokens decision
   (which opens the block at step 5) was refused whatever it chose, as a false claim by
   the West for a cube it never played. No choice was legal again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.client import Client
from pbem.core.commit import Opening
from pbem.core.log import Entry
from pbem.errors import EntropyPending
from pbem.games.race_to_berlin.decisions import OpenBlocks, Place, RemoveBlock, Support
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.store import Store
from pbem.testing import ScriptedContext, SignedTable, Table
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_text
from tests.games.race_to_berlin.rtb_support import (
    action_game,
    block,
    put_block,
    put_unit,
    units_at,
)
from tests.support.players import assert_refused, call_refused

ROLES = ("west", "soviet")

# --- A. one signer at a time at the end-of-turn openings -------------------------------------


def quick_decision(state: dict[str, Any], role: str) -> Any:
    """A placement of the highest block left, or the removal of a block: the shortest road
    to the end of the Action Phase (the first player to run out of blocks ends it)."""
    if state["step"] == "place":
        hand = state["hands"][role]
        area = ENGINE.choices(state, role)[0].area
        return Place(area, hand[-1])
    own = [b["area"] for b in state["blocks"] if b["owner"] == role and b["area"]]
    return RemoveBlock(own[0])


class Players:
    """West's and the Soviet player's own stores, exchanging move files."""

    def __init__(self, home: Path) -> None:
        self.clients = {role: Client(Store(home / role)) for role in ROLES}
        for role, client in self.clients.items():
            client.new_key(role)
        self.west.import_key("soviet", home / "soviet" / "keys" / "soviet.pub")
        self.game_id, made = self.west.new_game("race-to-berlin", "west", {r: r for r in ROLES})
        self.send(made, self.soviet)
        self.send(self.soviet.join(self.game_id), self.west)

    @property
    def west(self) -> Client:
        return self.clients["west"]

    @property
    def soviet(self) -> Client:
        return self.clients["soviet"]

    @staticmethod
    def send(entries: list[Entry], to: Client) -> None:
        to.apply_entries(parse_entries(move_file(entries)))

    def asked(self) -> str:
        return self.west.game(self.game_id).next_signer() or ""

    def state(self, role: str) -> dict[str, Any]:
        client = self.clients[role]
        state = client.game(self.game_id).state
        return ENGINE.with_secrets(state, role, client.known(self.game_id, role))

    def play(self, role: str, text: str) -> Entry:
        entry = self.clients[role].move(self.game_id, text)
        self.send([entry], self.clients["soviet" if role == "west" else "west"])
        return entry

    def ids(self, role: str) -> list[str]:
        return [e.id for e in self.clients[role].game(self.game_id).entries]


def test_regression_a_openings_one_signer_at_a_time_through_two_stores(tmp_path: Path) -> None:
    players = Players(tmp_path)
    while players.west.game(players.game_id).state["step"] != "open":
        role = players.asked()
        players.play(role, ENGINE.format(quick_decision(players.state(role), role)))
    assert players.ids("west") == players.ids("soviet")
    head = players.ids("west")[-1]
    # Both players would answer this head. The Soviet client refuses to sign: not its turn,
    # whether it is asked for its role or not (its own entry passes the same checks).
    call_refused(
        players.soviet.store,
        lambda: players.soviet.move(players.game_id, "open blocks"),
        "not your turn: the game waits for west",
    )
    call_refused(
        players.soviet.store,
        lambda: players.soviet.move(players.game_id, "open blocks", "soviet"),
        "out of turn: the game asks west, not soviet",
    )
    assert players.ids("soviet")[-1] == head
    # The West's opening applies in both stores; then the Soviet player opens.
    west_opens = players.play("west", "open blocks")
    assert west_opens.prev == head  # the head both players saw
    assert players.ids("west") == players.ids("soviet")
    assert players.asked() == "soviet"
    players.play("soviet", "open blocks")
    assert players.ids("west") == players.ids("soviet")
    state = players.west.game(players.game_id).state
    assert state["phase"] == "strategic" and all(b["revealed"] for b in state["blocks"])
    saves = {client.export(players.game_id) for client in players.clients.values()}
    assert len(saves) == 1
    report = verify_text(saves.pop())
    assert report.ok, report.failure


def test_regression_a_a_soviet_opening_on_the_wests_head_is_out_of_turn() -> None:
    table = SignedTable("race-to-berlin", ROLES, nonce="regression-a")
    table.join_all()
    game = table.game
    while game.state["step"] != "open":
        role = game.next_signer()
        assert role is not None
        private = ENGINE.with_secrets(game.state, role, table.known(role))
        table.decide(role, quick_decision(private, role))
    sealed = [b["label"] for b in game.state["blocks"] if b["owner"] == "soviet"]
    body = {
        "decision": "open blocks",
        "open": [Opening(label, *table.secrets[label]).to_json() for label in sealed],
    }
    soviet_opens = table.make("soviet", "move", body)  # signed on the head the West answers
    assert_refused(game, soviet_opens, "out of turn: the game asks west, not soviet")
    table.decide("west", OpenBlocks())
    assert_refused(game, soviet_opens)  # and once the West has answered, it is stale
    table.decide("soviet", OpenBlocks())
    assert game.unopened() == [] and game.state["phase"] == "strategic"


# --- B. the mixed-front defence: whose claim is a cube on a sealed block? --------------------


def mixed_front_attack() -> tuple[Table, str, str]:
    """Rulebook 4.2.1.2 step 9's position: area 4 holds de-1fj (Western Front, the Soviet
    player's) and de-4 (Eastern Front, the West player's) with the West's sealed German
    3-block, already holding 2 cubes from an earlier German attack (and the West's honest
    claim that they do not exhaust it). The West attacks 4 from 1 with its 4-block."""
    g = action_game("west")
    for role in ROLES:  # no Reserves prompt between the dice and the result
        for token in g.state["tokens"][role]:
            if token["kind"] == "reserves":
                token["used"] = True
    put_unit(g, "de-25", None)
    put_unit(g, "de-4", "4")
    attacker = put_block(g, "west", "1", 4)
    mixed = put_block(g, "west", "4", 3, cubes=2)
    block(g, mixed)["claims"] = [{"seq": 8, "by": "west", "cubes": 2, "exhausting": False}]
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 4 from 1 cubes 1")
    return g, attacker, mixed


def test_regression_b_the_soviet_support_cube_on_the_wests_sealed_block_claims_nothing() -> None:
    g, attacker, mixed = mixed_front_attack()
    # step 9: both fronts defend together, so the inactive player resolves the defence,
    # even with the active player's block in the target area; step 4: that block, active
    # and with a cube in its owner's pool, must support
    assert g.state["combat"]["defender"] == "soviet" and g.asked() == "soviet"
    assert ENGINE.choices(g.private("soviet"), "soviet") == [Support("4", True)]
    ctx = g.decide("soviet", "support in 4")
    assert ctx.said("Soviet supports the defence with the block in 4")
    # The Soviet player cannot know the West's value: its cube claims nothing, in nobody's
    # name; the block is not opened by the Soviet entry and not yet known to be exhausted.
    b = block(g, mixed)
    assert b["cubes"] == 3 and not b["revealed"] and not b["exhausted"]
    assert b["claims"] == [{"seq": 8, "by": "west", "cubes": 2, "exhausting": False}]
    assert g.state["cubes"]["west"]["pool"] == 20 - 2 - 1 - 1  # the cube is its owner's
    # step 5: the West's tokens decision opens both of its blocks; every choice is legal
    assert g.asked() == "west"
    options = ENGINE.choices(g.private("west"), "west")
    assert options
    for decision in options:
        public, values, due = g.prepare("west", decision)
        assert sorted(due) == sorted([attacker, mixed]) and not values
        pending = ScriptedContext(
            pending=True, seq=99, opened={label: g.secrets["west"][label] for label in due}
        )
        with pytest.raises(EntropyPending):  # legal: it waits for the dice
            ENGINE.apply(g.state, "west", public, pending)
    # the block's value settles its exhaustion when it opens: 3 cubes on a 3-block
    ctx = g.decide("west", "no tokens", rolls=[6, 1, 1, 1])
    assert ctx.said("West reveals " + mixed + ": a 3-block in 4")
    assert ctx.said("defending logistics block 3")
    b = block(g, mixed)
    assert b["revealed"] and b["value"] == 3 and b["exhausted"]
    # attack 4 + 5 against 3 + 2 (regular fortification) + 1 (terrain): the attacker wins;
    # the exhausted supporting block allows no Counterattack, the Soviet player (resolving
    # the defence) chooses the loss and the retreat of both fronts' units and the block
    assert g.state["step"] == "loss" and g.asked() == "soviet"
    g.decide("soviet", "loss de-4")
    assert g.state["units"]["de-4"]["strength"] == 3
    assert g.state["step"] == "retreat" and g.asked() == "soviet"
    g.decide("soviet", "retreat de-1fj -> 7, de-4 -> 7, block -> 7")
    assert units_at(g, "7") == ["de-1fj", "de-4"] and block(g, mixed)["area"] == "7"
    assert g.state["areas"]["4"]["control"] == "west"
    assert g.state["step"] == "advance" and g.asked() == "west"
    g.decide("west", "advance us-9 + block")
    # the combat is over: the next action is the Soviet player's
    assert g.state["combat"] is None
    assert g.state["step"] == "action" and g.asked() == "soviet"
    assert g.state["last_combat"]["winner"] == "attack"


def test_regression_b_the_cube_never_lets_the_soviet_player_learn_or_claim_the_value() -> None:
    """The Soviet entry neither opens nor commits anything about the West's block, and the
    Soviet player's view still shows it sealed (with its 3 cubes) until step 5."""
    g, _, mixed = mixed_front_attack()
    public, values, due = g.prepare("soviet", "support in 4")
    assert (values, due) == ({}, [])
    g.decide("soviet", public)
    view = ENGINE.view_known(g.state, "soviet", g.known("soviet"))
    shown = next(b for b in view["blocks"] if b["label"] == mixed)
    assert shown["value"] is None and shown["cubes"] == 3
