"""Hash commitments (protocol sections 5 and 7), checked against a hand computation."""

from __future__ import annotations

import hashlib
import json
import struct
from typing import Any

import pytest

from pbem.core.commit import Opening, check_opening, commitment, new_salt
from pbem.errors import CanonicalError, PbemError
from tests.support.players import hex_of

GAME = hex_of(b"game")
OTHER_GAME = hex_of(b"other game")
SALT = hex_of(b"salt")


def by_hand(game: str, label: str, salt: str, value: Any) -> str:
    """SHA256("pbem-commit/v1" || game || u32(len(label)) || label || salt || canonical(value))."""
    label_bytes = label.encode("utf-8")
    value_bytes = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")
    return hashlib.sha256(
        b"pbem-commit/v1"
        + bytes.fromhex(game)
        + struct.pack(">I", len(label_bytes))
        + label_bytes
        + bytes.fromhex(salt)
        + value_bytes
    ).hexdigest()


@pytest.mark.parametrize(
    ("label", "value"),
    [
        ("plan/turn-3", {"orders": ["attack 12 from 11"], "bid": 3}),
        ("block/soviet/7", 4),
        ("hand/german/12", "card 31"),
        ("", None),
        ("étiquette/é", {"z": [True, False], "a": "valeur é"}),
        ("x" * 300, [1, [2, [3]]]),
    ],
)
def test_commitment_matches_hand_computation(label: str, value: Any) -> None:
    assert commitment(GAME, label, SALT, value) == by_hand(GAME, label, SALT, value)


def test_label_length_is_counted_in_utf8_bytes() -> None:
    label = "é"  # one character, two bytes
    good = by_hand(GAME, label, SALT, 1)
    assert commitment(GAME, label, SALT, 1) == good
    char_count = hashlib.sha256(
        b"pbem-commit/v1"
        + bytes.fromhex(GAME)
        + struct.pack(">I", 1)
        + label.encode()
        + bytes.fromhex(SALT)
        + b"1"
    ).hexdigest()
    assert good != char_count


def test_label_boundary_is_unambiguous() -> None:
    # Moving a character between label and value must change the commitment.
    assert commitment(GAME, "ab", SALT, "c") != commitment(GAME, "a", SALT, "bc")


def test_value_key_order_does_not_matter() -> None:
    assert commitment(GAME, "l", SALT, {"a": 1, "b": 2}) == commitment(
        GAME, "l", SALT, {"b": 2, "a": 1}
    )


def test_opening_checks() -> None:
    value = {"block": 7, "strength": 3}
    committed = commitment(GAME, "block/soviet/7", SALT, value)
    check_opening(GAME, committed, Opening("block/soviet/7", SALT, value))
    wrong = [
        (GAME, Opening("block/soviet/7", hex_of(b"other salt"), value)),
        (GAME, Opening("block/soviet/8", SALT, value)),
        (GAME, Opening("block/soviet/7", SALT, {"block": 7, "strength": 4})),
        (GAME, Opening("block/soviet/7", SALT, {"block": 7})),
        (OTHER_GAME, Opening("block/soviet/7", SALT, value)),
    ]
    for game, opening in wrong:
        with pytest.raises(PbemError, match="does not match its commitment"):
            check_opening(game, committed, opening)


def test_commitment_refuses_floats_and_bad_hex() -> None:
    with pytest.raises(CanonicalError):
        commitment(GAME, "l", SALT, 1.5)
    with pytest.raises(PbemError, match="salt"):
        commitment(GAME, "l", SALT[:-2], 1)
    with pytest.raises(PbemError, match="salt"):
        commitment(GAME, "l", SALT.upper(), 1)
    with pytest.raises(PbemError, match="game id"):
        commitment("zz" * 32, "l", SALT, 1)


def test_new_salt_is_fresh_32_bytes_of_lower_hex() -> None:
    a, b = new_salt(), new_salt()
    assert a != b
    assert len(bytes.fromhex(a)) == 32
    assert a == a.lower()
    commitment(GAME, "l", a, 1)  # usable as is


def test_opening_json_round_trip() -> None:
    opening = Opening("hand/german/12", SALT, ["card", 31])
    assert opening.to_json() == {"label": "hand/german/12", "salt": SALT, "value": ["card", 31]}
    assert Opening.from_json(opening.to_json()) == opening
    assert Opening.from_json({"label": "l", "salt": SALT, "value": None}).value is None


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "label",
        {"label": "l", "salt": SALT},
        {"label": "l", "value": 1},
        {"label": "l", "salt": SALT, "value": 1, "extra": 2},
        {"label": 1, "salt": SALT, "value": 1},
        {"label": "l", "salt": None, "value": 1},
        {"label": "l", "salt": 5, "value": 1},
    ],
)
def test_opening_from_json_refuses_bad_shapes(data: Any) -> None:
    with pytest.raises(PbemError):
        Opening.from_json(data)
