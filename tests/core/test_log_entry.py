"""Entries alone (protocol section 3): fields, ids, and shape checks of pbem.core.log."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.core.log import Entry, entry_id
from pbem.errors import CanonicalError, PbemError
from tests.support.players import hex_of

GAME = hex_of(b"game")
PREV = hex_of(b"prev")
REVEAL = hex_of(b"reveal")


def move_fields(**changes: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "v": 1,
        "kind": "move",
        "game": GAME,
        "seq": 3,
        "prev": PREV,
        "by": "a",
        "reveal": REVEAL,
        "body": {"decision": "roll"},
    }
    for name, value in changes.items():
        if value is None:
            fields.pop(name)
        else:
            fields[name] = value
    return fields


def test_build_and_id() -> None:
    entry = Entry.build(move_fields())
    assert entry.canonical == canonical_bytes(move_fields())
    assert entry.id == hashlib.sha256(entry.canonical).hexdigest() == entry_id(entry.canonical)
    assert (entry.kind, entry.seq, entry.by, entry.game, entry.prev, entry.reveal) == (
        "move",
        3,
        "a",
        GAME,
        PREV,
        REVEAL,
    )
    assert entry.body == {"decision": "roll"}
    assert entry.describe() == "entry 3 by a"
    assert entry.signature == b""
    signed = entry.with_signature(b"sig")
    assert signed.signature == b"sig" and signed.id == entry.id


def test_from_wire_round_trip() -> None:
    entry = Entry.build(move_fields())
    again = Entry.from_wire(entry.canonical, b"sig")
    assert again.data == entry.data and again.id == entry.id


def test_the_id_covers_every_field() -> None:
    base = Entry.build(move_fields()).id
    changes: list[dict[str, Any]] = [
        {"seq": 4},
        {"prev": hex_of(b"x")},
        {"game": hex_of(b"y")},
        {"reveal": hex_of(b"z")},
        {"by": "b"},
        {"body": {"decision": "roll twice"}},
    ]
    for change in changes:
        assert Entry.build(move_fields(**change)).id != base


def test_from_wire_refuses_non_canonical_bytes() -> None:
    canonical = Entry.build(move_fields()).canonical
    spaced = canonical.replace(b'"kind":', b'"kind": ')
    with pytest.raises(CanonicalError):
        Entry.from_wire(spaced, b"")
    with pytest.raises(CanonicalError):
        Entry.from_wire(canonical + b"\n", b"")


def test_unknown_fields_refused() -> None:
    fields = move_fields()
    data = canonical_bytes({**fields, "note": "hi"})
    with pytest.raises(PbemError, match="unknown entry field.*note"):
        Entry.from_wire(data, b"")
    with pytest.raises(PbemError, match="unknown entry field"):
        Entry.build({**fields, "zz": 1})


GENESIS = {"v": 1, "kind": "genesis", "seq": 0, "by": "a", "body": {}}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ([1, 2], "JSON object"),
        (move_fields(v=2), "unsupported protocol version"),
        (move_fields(v=None), "unsupported protocol version"),
        (move_fields(v="1"), "unsupported protocol version"),
        (move_fields(kind=""), "no kind"),
        (move_fields(kind=None), "no kind"),
        (move_fields(seq=-1), "seq"),
        (move_fields(seq=True), "seq"),
        (move_fields(seq="3"), "seq"),
        (move_fields(by=""), "signing role"),
        (move_fields(body=[]), "body must be an object"),
        (move_fields(body=None), "body must be an object"),
        (move_fields(seq=0), "only the genesis"),
        (move_fields(game=GAME.upper()), "game must be 64 lower-case hex"),
        (move_fields(game=None), "game must be"),
        (move_fields(prev=PREV[:-1]), "prev must be"),
        (move_fields(reveal=None), "reveal must be"),
        (move_fields(reveal="g" * 64), "reveal must be"),
        (move_fields(kind="join", body={"anchor": REVEAL, "length": 4096}), "no reveal"),
        ({**GENESIS, "seq": 1}, "genesis must have seq 0"),
        ({**GENESIS, "game": GAME}, "genesis must have"),
        ({**GENESIS, "prev": PREV}, "genesis must have"),
        ({**GENESIS, "reveal": REVEAL}, "genesis must have"),
    ],
)
def test_shape_checks(fields: Any, message: str) -> None:
    with pytest.raises(PbemError, match=message):
        Entry.build(fields)
    with pytest.raises(PbemError, match=message):
        Entry.from_wire(canonical_bytes(fields), b"")


def test_version_true_is_not_version_1() -> None:
    with pytest.raises(PbemError, match="unsupported protocol version"):
        Entry.build(move_fields(v=True))


def test_minimal_valid_shapes() -> None:
    Entry.build(dict(GENESIS))
    Entry.build(move_fields(kind="join", reveal=None, body={"anchor": REVEAL, "length": 4096}))
    Entry.build(move_fields(kind="ack", body={}))
