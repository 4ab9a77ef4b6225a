"""The deferral-rule generator (protocol section 7), checked against hand computations."""

from __future__ import annotations

import hashlib
import hmac
import struct

import pytest

from pbem.core.rng import RngRecord, Stream, private_seed, public_seed
from pbem.errors import PbemError
from tests.support.players import hex_of

GAME = hex_of(b"game")
ENTRY = hex_of(b"entry E")
REVEAL = hex_of(b"reveal F")
SECRET = hex_of(b"private x")
TWO_64 = 1 << 64


class FedStream(Stream):
    """A stream whose 8-byte reads come from a list of u64 values (and counts them)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(b"unused")
        self.values = list(values)
        self.reads = 0

    def read(self, count: int) -> bytes:
        assert count == 8
        self.reads += 1
        return struct.pack(">Q", self.values.pop(0))


def hand_stream(seed: bytes, length: int) -> bytes:
    out = b""
    k = 0
    while len(out) < length:
        out += hmac.new(seed, struct.pack(">Q", k), hashlib.sha256).digest()
        k += 1
    return out[:length]


class HandDraws:
    """The spec's int(n) written independently over hand_stream."""

    def __init__(self, seed: bytes) -> None:
        self.data = hand_stream(seed, 8 * 4000)
        self.pos = 0

    def int(self, n: int) -> int:
        while True:
            x = int.from_bytes(self.data[self.pos : self.pos + 8], "big")
            self.pos += 8
            if x < TWO_64 - (TWO_64 % n):
                return x % n


# --- seeds ---------------------------------------------------------------------------------


def test_public_seed_by_hand() -> None:
    expected = hashlib.sha256(
        b"pbem-rng/v1" + bytes.fromhex(GAME) + bytes.fromhex(ENTRY) + bytes.fromhex(REVEAL)
    ).digest()
    assert public_seed(GAME, ENTRY, REVEAL) == expected


def test_private_seed_by_hand() -> None:
    expected = hashlib.sha256(
        b"pbem-private/v1"
        + bytes.fromhex(GAME)
        + bytes.fromhex(ENTRY)
        + bytes.fromhex(SECRET)
        + bytes.fromhex(REVEAL)
    ).digest()
    assert private_seed(GAME, ENTRY, SECRET, REVEAL) == expected
    assert private_seed(GAME, ENTRY, SECRET, REVEAL) != public_seed(GAME, ENTRY, REVEAL)


def test_every_seed_input_matters() -> None:
    base = public_seed(GAME, ENTRY, REVEAL)
    assert public_seed(hex_of(b"g2"), ENTRY, REVEAL) != base
    assert public_seed(GAME, hex_of(b"e2"), REVEAL) != base
    assert public_seed(GAME, ENTRY, hex_of(b"r2")) != base


def test_seed_inputs_must_be_lower_hex_of_32_bytes() -> None:
    with pytest.raises(PbemError, match="reveal"):
        public_seed(GAME, ENTRY, REVEAL.upper())
    with pytest.raises(PbemError, match="entry id"):
        public_seed(GAME, ENTRY[:10], REVEAL)
    with pytest.raises(PbemError, match="private secret"):
        private_seed(GAME, ENTRY, "zz" * 32, REVEAL)


# --- stream --------------------------------------------------------------------------------


def test_stream_is_hmac_blocks_concatenated() -> None:
    seed = public_seed(GAME, ENTRY, REVEAL)
    assert Stream(seed).read(100) == hand_stream(seed, 100)
    pieces = Stream(seed)
    assert pieces.read(5) + pieces.read(40) + pieces.read(55) == hand_stream(seed, 100)


def test_below_rejects_the_biased_top_for_n_3() -> None:
    # 2^64 mod 3 == 1, so only x = 2^64 - 1 is rejected; `x % 3` alone would give 0.
    stream = FedStream([TWO_64 - 1, 5])
    assert stream.below(3) == 2
    assert stream.reads == 2
    stream = FedStream([TWO_64 - 2, 0])
    assert stream.below(3) == (TWO_64 - 2) % 3
    assert stream.reads == 1


def test_below_rejection_boundary_for_n_6() -> None:
    limit = TWO_64 - (TWO_64 % 6)  # 2^64 - 4
    for rejected in range(limit, TWO_64):
        stream = FedStream([rejected, rejected, 7])
        assert stream.below(6) == 1
        assert stream.reads == 3
    stream = FedStream([limit - 1])
    assert stream.below(6) == (limit - 1) % 6


def test_below_edges() -> None:
    assert FedStream([TWO_64 - 1]).below(1) == 0
    assert FedStream([TWO_64 - 1]).below(TWO_64) == TWO_64 - 1
    for n in (0, -1, TWO_64 + 1):
        with pytest.raises(PbemError):
            FedStream([0]).below(n)


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 52, 1000, 2**63 + 1, 2**64 - 1])
def test_below_matches_an_independent_implementation(n: int) -> None:
    seed = public_seed(GAME, ENTRY, REVEAL)
    stream, hand = Stream(seed), HandDraws(seed)
    assert [stream.below(n) for _ in range(300)] == [hand.int(n) for _ in range(300)]


def test_between_is_lo_plus_int_of_range() -> None:
    seed = public_seed(GAME, ENTRY, REVEAL)
    stream, hand = Stream(seed), HandDraws(seed)
    drawn = [stream.between(1, 6) for _ in range(600)]
    assert drawn == [1 + hand.int(6) for _ in range(600)]
    assert set(drawn) == {1, 2, 3, 4, 5, 6}


def test_between_ranges() -> None:
    stream = Stream(public_seed(GAME, ENTRY, REVEAL))
    assert all(-3 <= stream.between(-3, 3) <= 3 for _ in range(200))
    assert stream.between(5, 5) == 5
    with pytest.raises(PbemError, match="empty range"):
        stream.between(6, 1)


def test_shuffle_is_fisher_yates_from_the_top() -> None:
    seed = public_seed(GAME, ENTRY, REVEAL)
    pile = [f"card {i}" for i in range(20)]
    hand = HandDraws(seed)
    expected = list(pile)
    for i in range(len(expected) - 1, 0, -1):
        j = hand.int(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    shuffled = Stream(seed).shuffle(pile)
    assert shuffled == expected
    assert shuffled != pile
    assert sorted(shuffled) == sorted(pile)
    assert pile == [f"card {i}" for i in range(20)]  # input untouched


def test_shuffle_of_tiny_piles_draws_nothing() -> None:
    stream = FedStream([])
    assert stream.shuffle([]) == []
    assert stream.shuffle(["only"]) == ["only"]
    assert stream.reads == 0


def test_pick_takes_index_int_len() -> None:
    seed = public_seed(GAME, ENTRY, REVEAL)
    pile = ["a", "b", "c", "d", "e"]
    hand = HandDraws(seed)
    stream = Stream(seed)
    for _ in range(50):
        assert stream.pick(pile) == pile[hand.int(len(pile))]


# --- RNG log lines -------------------------------------------------------------------------


def test_public_record_line() -> None:
    record = RngRecord(12, 13, 1, 6, 4, "attack 12: west die 1")
    assert record.line() == "rng 12 13 1..6 4 attack 12: west die 1"
    assert not record.private


def test_private_record_line() -> None:
    record = RngRecord(7, 9, None, None, None, "hand/german/12 draw")
    assert record.line() == "rng 7 9 private hand/german/12 draw"
    assert record.private


def test_negative_range_line() -> None:
    assert RngRecord(3, 4, -2, 2, -1, "drift").line() == "rng 3 4 -2..2 -1 drift"
