"""Hash chains (protocol section 4): anchors, reveals, minimum length, running out."""

from __future__ import annotations

import hashlib

import pytest

from pbem.core import chain
from pbem.core.adjudicator import EntryRefused
from pbem.errors import ChainError
from tests.support.players import Table, assert_refused, hex_of

SEED = bytes.fromhex(hex_of(b"chain test seed"))


def by_hand(value: bytes) -> bytes:
    return hashlib.sha256(b"pbem-chain/v1" + value).digest()


def test_step_down_is_domain_separated_sha256() -> None:
    assert chain.step_down(SEED) == by_hand(SEED)
    assert chain.step_down(SEED) != hashlib.sha256(SEED).digest()


def test_element_relations() -> None:
    length = 10
    assert chain.element(SEED, length, length) == SEED
    for i in range(1, length + 1):
        assert chain.element(SEED, length, i - 1) == chain.step_down(chain.element(SEED, length, i))
    assert chain.anchor(SEED, length) == chain.element(SEED, length, 0)


def test_anchor_of_a_full_length_chain_by_hand() -> None:
    value = SEED
    for _ in range(chain.MIN_LENGTH):
        value = by_hand(value)
    assert chain.anchor(SEED, chain.MIN_LENGTH) == value
    assert chain.MIN_LENGTH >= 4096


def test_element_out_of_range() -> None:
    with pytest.raises(ChainError, match="re-anchor"):
        chain.element(SEED, 5, 6)
    with pytest.raises(ChainError):
        chain.element(SEED, 5, -1)


def test_check_reveal() -> None:
    s = [chain.element(SEED, 5, i) for i in range(6)]
    assert chain.check_reveal(s[0], s[1])
    assert chain.check_reveal(s[3], s[4])
    assert not chain.check_reveal(s[0], s[2])  # skipping an element
    assert not chain.check_reveal(s[1], s[0])  # backwards
    assert not chain.check_reveal(s[1], s[1])  # repeating


def test_new_seed_is_32_random_bytes() -> None:
    a, b = chain.new_seed(), chain.new_seed()
    assert len(a) == len(b) == 32
    assert a != b


# --- joins ---------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [chain.MIN_LENGTH - 1, 1, 0, -5, True, "4096", None])
def test_join_with_a_short_or_bad_length_is_refused(length: object) -> None:
    table = Table()
    anchor = table.element("a", 0).hex()
    entry = table.make("a", "join", {"anchor": anchor, "length": length})
    assert_refused(table.game, entry, "entry 1 by a", f"length must be an integer >= {4096}")


def test_join_with_minimum_length_is_accepted_and_recorded() -> None:
    table = Table()
    table.join_all()
    assert table.game.started
    assert table.game.chain_length("a") == chain.MIN_LENGTH
    assert table.game.next_reveal_index("a") == 1


def test_join_body_must_be_exactly_anchor_and_length() -> None:
    table = Table()
    body = {"anchor": table.element("a", 0).hex(), "length": 4096, "extra": 1}
    assert_refused(table.game, table.make("a", "join", body), "exactly anchor and length")


def test_join_with_a_short_anchor_is_refused() -> None:
    table = Table()
    body = {"anchor": "ab" * 16, "length": 4096}
    assert_refused(table.game, table.make("a", "join", body), "anchor must be 64 hex digits")


@pytest.mark.parametrize("anchor", ["zz" * 32, "AB" * 32])
def test_join_with_a_non_hex_anchor_is_refused(anchor: str) -> None:
    table = Table()
    with pytest.raises(EntryRefused):
        table.apply(table.make("a", "join", {"anchor": anchor, "length": 4096}))


# --- reveals -------------------------------------------------------------------------------


def test_each_entry_reveals_the_next_element() -> None:
    table = Table()
    table.join_all()
    first = table.move("a", "roll")
    assert first.reveal == table.element("a", 1).hex()
    table.move("b", "roll")
    second = table.move("a", "roll")
    assert second.reveal == table.element("a", 2).hex()
    assert table.game.next_reveal_index("a") == 3


def test_wrong_reveal_refused_with_a_clear_message() -> None:
    table = Table()
    table.join_all()
    skipped = table.move_entry("a", "roll", reveal=table.element("a", 2).hex())
    message = assert_refused(table.game, skipped, "entry 3 by a refused")
    assert "reveal does not hash to a's previous chain value" in message
    assert "element 1" in message
    foreign = table.move_entry("a", "roll", reveal=table.element("b", 1).hex())
    assert_refused(table.game, foreign, "reveal does not hash")
    table.move("a", "roll")  # the right one still works afterwards


def test_a_reveal_cannot_be_reused() -> None:
    table = Table()
    table.join_all()
    first = table.move("a", "roll")
    table.move("b", "roll")
    again = table.move_entry("a", "roll", reveal=first.reveal)
    assert_refused(table.game, again, "reveal does not hash")


def test_used_up_chain_is_refused() -> None:
    # 4096 entries, so no signatures: the adjudicator gets a signature check that accepts all.
    table = Table("toy-solo", ("solo",), signed=False)
    table.join_all()
    for _ in range(chain.MIN_LENGTH):
        table.move("solo", "pass")
    assert table.game.next_reveal_index("solo") == chain.MIN_LENGTH + 1
    assert table.game.state is not None and table.game.state["passes"] == chain.MIN_LENGTH
    # the last element revealed was the secret seed itself
    assert table.game.head.reveal == table.seeds["solo"]
    extra = table.move_entry("solo", "pass", reveal=hex_of(b"anything"))
    assert_refused(table.game, extra, "hash chain is used up")
    with pytest.raises(ChainError):
        chain.element(bytes.fromhex(table.seeds["solo"]), chain.MIN_LENGTH, chain.MIN_LENGTH + 1)
