"""The speed-ups of the protocol's own work give exactly what the plain code gave.

Each fast path here stands for a slower, obvious one (kept as the reference in this file,
or still in the module as the general path): the same results and the same errors, for
valid input and for every kind of damage. The figures are in bench/README.md.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import pickle
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import canonical
from pbem.core.adjudicator import Action, PrivateDraw, Sealed
from pbem.core.engine import Event, Outcome, Prompt
from pbem.core.hashing import hex_bytes, is_lower_hex
from pbem.core.log import Entry, _is_hex32
from pbem.core.rng import RngRecord, Stream
from pbem.crypto import keys, sshsig
from pbem.errors import ArmorError, CanonicalError, PbemError, SignatureError
from pbem.record import FrozenInstanceError
from pbem.transport import armor, savefile

# --- canonical JSON: the fast check is exactly as strict as the strict one ------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)


def _strict_outcome(data: bytes) -> Any:
    try:
        return ("ok", canonical._parse_strict(data))
    except CanonicalError as exc:
        return ("error", str(exc))


def _fast_outcome(data: bytes) -> Any:
    try:
        return ("ok", canonical.parse_canonical(data))
    except CanonicalError as exc:
        return ("error", str(exc))


# One test for both properties of a value: drawing the nested values is most of the time
# (some 5 ms each), the checks a fraction of it. It was two tests drawing the same strategy,
# `test_canonical_bytes_parse_the_same` (300 values) and this one (500): here each of the
# 500 values is checked both ways.
@settings(max_examples=500, deadline=None)
@given(json_values, st.integers(min_value=0, max_value=10_000), st.binary(max_size=3))
def test_canonical_bytes_parse_the_same_and_damaged_bytes_are_refused_with_the_same_message(
    value: Any, at: int, junk: bytes
) -> None:
    try:
        data = canonical.canonical_bytes(value)
    except CanonicalError:
        pass  # (a non-ASCII key: refused on the way out already)
    else:
        assert _fast_outcome(data) == _strict_outcome(data)
    text = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    at %= len(text) + 1
    for data in (text, text[:at] + junk + text[at:], text[:at] + text[at + 1 :]):
        assert _fast_outcome(data) == _strict_outcome(data)


@pytest.mark.parametrize(
    "data",
    [
        b'{"a":1,"a":1}',
        b'{"b":1,"a":2}',
        b'{"a": 1}',
        b'{"a":1.0}',
        b'{"a":NaN}',
        b'"\\u00e9"',
        b'"\\ud800"',
        b'"\\/"',
        b'{"\\u00e9":1}',
        '{"é":1}'.encode(),
        b"-0",
        b"01",
        b"1e2",
        b"9" * 5000,
        b"[" * 100_000,
        b"\xff",
        b'{"a":1}\n',
        b"",
    ],
)
def test_every_kind_of_non_canonical_input_is_refused_as_before(data: bytes) -> None:
    assert _fast_outcome(data) == _strict_outcome(data)


# --- hex fields ---------------------------------------------------------------------------


@settings(max_examples=300)
@given(st.text(alphabet="0123456789abcdefABCDEF xg\n", max_size=70))
def test_hex_checks_agree_with_a_character_test(value: str) -> None:
    plain = len(value) % 2 == 0 and all(c in "0123456789abcdef" for c in value)
    assert is_lower_hex(value) == plain
    assert _is_hex32(value) == (plain and len(value) == 64)


def _hex_bytes_reference(value: Any, what: str, length: int = 32) -> bytes:
    if not isinstance(value, str) or len(value) != 2 * length:
        raise PbemError(f"{what} must be {2 * length} hex digits")
    if value != value.lower():
        raise PbemError(f"{what} must be lower-case hex")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise PbemError(f"{what} is not hex") from None


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        return ("ok", call())
    except PbemError as exc:
        return ("error", str(exc))


@settings(max_examples=300)
@given(st.text(alphabet="0123456789abcdefABCDEF xg", min_size=60, max_size=66) | st.none())
def test_hex_bytes_gives_the_same_bytes_and_errors(value: Any) -> None:
    assert _outcome(lambda: hex_bytes(value, "salt")) == _outcome(
        lambda: _hex_bytes_reference(value, "salt")
    )


# --- armor: marker lines found line by line are the regex's matches -------------------------

_LINES = [
    armor.BEGIN,
    armor.END,
    "> " + armor.BEGIN,
    "[code]" + armor.END + "[/code]",
    "  ```-----begin pbem entry-----",
    "-----END PBEM ENTRY----- x",
    "- END PBEM ENTRY -",
    "\u2014 BEGIN PBEM ENTRY \u2014",
    "game 3f9a seq 1 by a: attack 12-13",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
    "",
    "\r",
    "-",
    "----",
]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(_LINES), max_size=12), st.sampled_from(["\n", "\r\n"]))
def test_markers_are_the_regex_matches(lines: list[str], newline: str) -> None:
    text = newline.join(lines)
    fast = [(m.start(), m.end(), m.group(1)) for m in armor._markers(text)]
    slow = [(m.start(), m.end(), m.group(1)) for m in armor._MARKER.finditer(text)]
    assert fast == slow


def _decode_reference(payload: str) -> tuple[bytes, bytes]:
    """decode_payload before its fast path: a regex for damage, str translation."""
    bad = armor._NOT_BASE32.search(payload)
    if bad:
        raise ArmorError(f"character {bad.group()!r} is not base32")
    data = armor._base32_decode(payload)
    if len(data) < 4:
        raise ArmorError("payload too short for the entry length")
    (c_len,) = armor.struct.unpack_from(">I", data, 0)
    s_at = 4 + c_len
    if s_at + 4 > len(data):
        raise ArmorError(f"entry length {c_len} runs past the end of the payload")
    (s_len,) = armor.struct.unpack_from(">I", data, s_at)
    end = s_at + 4 + s_len
    if end > len(data):
        raise ArmorError(f"signature length {s_len} runs past the end of the payload")
    if end != len(data):
        raise ArmorError(f"{len(data) - end} trailing bytes after the signature")
    return data[4:s_at], data[s_at + 4 : end]


def _armor_outcome(call: Callable[[], Any]) -> Any:
    try:
        return ("ok", call())
    except ArmorError as exc:
        return ("error", str(exc))


payloads = st.one_of(
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef234567=189é\u00a0", max_size=40),
    st.tuples(st.binary(max_size=12), st.binary(max_size=12), st.binary(max_size=3)).map(
        lambda parts: (
            armor.encode_payload(parts[0], parts[1])
            + armor.base64.b32encode(parts[2]).decode().rstrip("=")
        )
    ),
)


@settings(max_examples=500)
@given(payloads, st.booleans())
def test_payloads_decode_or_fail_as_before(payload: str, lower: bool) -> None:
    payload = payload.lower() if lower else payload
    assert _armor_outcome(lambda: armor.decode_payload(payload)) == _armor_outcome(
        lambda: _decode_reference(payload)
    )


# --- the RNG log: the plain layout's one comparison gives the general reading's answer -------


def _general(text: str, computed: list[str]) -> Any:
    try:
        original = savefile._plain_log_matches
        savefile._plain_log_matches = lambda text, computed: False  # type: ignore[assignment]
        return ("ok", savefile.check_rng_log(text, computed))
    except savefile.RngLogError as exc:
        return ("error", str(exc))
    finally:
        savefile._plain_log_matches = original  # type: ignore[assignment]


def _fast(text: str, computed: list[str]) -> Any:
    try:
        return ("ok", savefile.check_rng_log(text, computed))
    except savefile.RngLogError as exc:
        return ("error", str(exc))


_RECORDS = [
    "rng 3 4 1..6 5 a die 1",
    "rng 3 4 1..6 2 a die 2 [code]",
    "rng 10 11 private draw of soviet",
    "rng 5 6 1..10 7 note ` ",
    "RNG 1 2 1..2 1 upper",
    "rng 1 2 1..6 3 trailing   ",
    "rng 7 8 1..6 6 entry in purpose",
    "rng 2 3 1..6 1 line\u2028break",
]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(_RECORDS), max_size=5),
    st.lists(st.sampled_from(_RECORDS), max_size=5),
    st.sampled_from(["", "PBEM SAVE v1\ntitle: RNG LOG test\n\n", "see the rng log\n"]),
    st.sampled_from(["RNG LOG", "rng log", "> RNG LOG", "RNG  LOG"]),
    st.sampled_from(["", "\n", "\nhuman text after\n", "\nRNG LOG\n"]),
)
def test_rng_log_fast_check_agrees(
    printed: list[str], computed: list[str], before: str, header: str, after: str
) -> None:
    for lines in (printed, computed):
        text = before + header + "\n" + "".join(line + "\n" for line in lines) + after
        assert _fast(text, computed) == _general(text, computed)
        assert savefile._first_header(text) == _first_header_reference(text)


def _first_header_reference(text: str) -> int | None:
    found = savefile._HEADER.search(text)
    return None if found is None else found.start()


# --- SSHSIG: the one-layout fast path decides as the general parse does ----------------------


def _verify_reference(public: keys.PublicKey, message: bytes, blob: bytes) -> None:
    """sshsig.verify before the fast path: always the general parse."""
    parsed = sshsig._Parsed(blob)
    if parsed.public != public:
        raise SignatureError(
            f"signed by {parsed.public.fingerprint()}, expected {public.fingerprint()}"
        )
    if parsed.namespace != sshsig.NAMESPACE:
        raise SignatureError(
            f"signature namespace is {parsed.namespace[:40]!r}, expected {sshsig.NAMESPACE!r}"
        )
    if parsed.hash_alg != sshsig.HASH_ALG:
        raise SignatureError(
            f"signature hash algorithm is {parsed.hash_alg[:20]!r}, expected {sshsig.HASH_ALG!r}"
        )
    if parsed.sig_type != keys.KEY_TYPE or len(parsed.sig) != 64:
        raise SignatureError("signature is not an Ed25519 signature")
    if not public.verify_raw(parsed.sig, sshsig._signed_data(message, sshsig.NAMESPACE)):
        raise SignatureError(f"bad signature by {public.fingerprint()}: data or signature altered")


def _sig_outcome(call: Callable[[], None]) -> Any:
    try:
        call()
        return "ok"
    except SignatureError as exc:
        return str(exc)


def test_every_one_byte_change_of_a_signature_is_judged_as_before() -> None:
    key, other = keys.generate("a"), keys.generate("b")
    message = b'{"v":1}'
    blob = sshsig.sign(key, message)
    variants = [blob, blob + b"\x00", blob[:-1], sshsig.sign(other, message)]
    for at in range(len(blob)):
        for bit in (0x01, 0x80):
            variants.append(blob[:at] + bytes([blob[at] ^ bit]) + blob[at + 1 :])
    for variant in variants:
        for public in (key.public, other.public):
            for data in (message, message + b" "):
                fast = _sig_outcome(lambda p=public, d=data, v=variant: sshsig.verify(p, d, v))
                ref = _sig_outcome(lambda p=public, d=data, v=variant: _verify_reference(p, d, v))
                assert fast == ref


# --- records: what @dataclass gave, without it ------------------------------------------------


def _records() -> list[Any]:
    entry = Entry.build({"v": 1, "kind": "genesis", "seq": 0, "by": "a", "body": {"x": 1}}, b"sig")
    record = RngRecord(1, 2, 1, 6, 4, "a die 1")
    return [
        Prompt("a", "roll"),
        Event("a rolls 4", {"dice": 4}),
        Event("nothing"),
        Outcome("a", "win", {"a": 4, "b": 2}, "4-2"),
        record,
        Action(1, "a", "roll", (Event("x"),), (record,), 2, 3),
        Sealed("plan/1", "ab" * 32, "soviet", 5),
        PrivateDraw("draw/3/0", "x", 3, "cd" * 32, 4, "ef" * 32, 1, 6, "card", 0),
        entry,
        keys.generate("c").public,
    ]


def _as_dataclass(record: Any) -> Any:
    """The same values in the frozen dataclass the record class stands for."""
    cls = type(record)
    spec = [
        (
            name,
            Any,
            dataclasses.field(repr=name in cls._shown, compare=name in cls._compared),
        )
        for name in cls._fields
    ]
    made = dataclasses.make_dataclass(cls.__qualname__, spec, frozen=True)
    return made(**{name: record.__dict__[name] for name in cls._fields})


def _hash_or_error(value: Any) -> Any:
    try:
        return hash(value)
    except TypeError as exc:
        return str(exc)


@pytest.mark.parametrize("record", _records(), ids=lambda r: type(r).__name__)
def test_records_behave_as_frozen_dataclasses(record: Any) -> None:
    cls = type(record)
    values = {name: record.__dict__[name] for name in cls._fields}
    twin, model = cls(**values), _as_dataclass(record)
    assert twin == record and (record == object()) is False
    assert _hash_or_error(record) == _hash_or_error(model)  # (a dict field: unhashable)
    assert repr(record) == repr(model)
    assert cls.__match_args__ == type(model).__match_args__
    for name in cls._fields:
        with pytest.raises(FrozenInstanceError, match=f"cannot assign to field {name!r}"):
            setattr(record, name, None)
        with pytest.raises(FrozenInstanceError, match=f"cannot delete field {name!r}"):
            delattr(record, name)
    assert pickle.loads(pickle.dumps(record)) == record
    assert copy.deepcopy(record) == record and copy.copy(record) == record
    if cls is not keys.PublicKey:  # (whose raw key must be 32 bytes)
        changed = record.replace(**{cls._compared[0]: "other"})
        assert changed != record and getattr(changed, cls._compared[0]) == "other"


def test_uncompared_fields_are_left_out_of_equality_and_hash() -> None:
    one = keys.generate("x").public
    two = keys.PublicKey(one.raw, "another comment")
    assert one == two and hash(one) == hash(two)
    entry = _records()[-2]
    assert Entry(entry.canonical, entry.signature, {}, "id") == entry


def test_event_data_defaults_to_a_fresh_dict_each_time() -> None:
    first, second = Event("a"), Event("b")
    assert first.data == {} and first.data is not second.data
    assert Event("c", None).data is None  # as given, as a dataclass kept it


# --- the generator: the one-shot HMAC draws the same stream ----------------------------------


@settings(max_examples=100)
@given(st.binary(min_size=32, max_size=32), st.lists(st.integers(1, 2**64), max_size=30))
def test_draws_are_those_of_the_section_7_stream(seed: bytes, sizes: list[int]) -> None:
    import hmac

    stream, block, buffer = Stream(seed), 0, b""
    for n in sizes:
        limit = 2**64 - (2**64 % n)
        while True:
            while len(buffer) < 8:
                buffer += hmac.new(seed, block.to_bytes(8, "big"), hashlib.sha256).digest()
                block += 1
            x, buffer = int.from_bytes(buffer[:8], "big"), buffer[8:]
            if x < limit:
                expected = x % n
                break
        assert stream.below(n) == expected


def test_markers_pattern_is_unchanged() -> None:
    # _markers relies on every match being one whole line that holds a dash.
    assert armor._MARKER.flags & re.MULTILINE
    assert armor._MARKER.pattern.startswith("^") and armor._MARKER.pattern.endswith("$")


# --- rolling waiting dice ahead while a whole log is verified -------------------------------


def _one_by_one(entries: list[Entry]) -> Any:
    """The plain replay: each entry applied alone (dice decisions in two passes)."""
    from pbem.core.adjudicator import Adjudicator
    from pbem.ledger import check_signature, data_source, engine_by_name

    game = Adjudicator.start(entries[0], engine_by_name, data_source(), check_signature)
    for entry in entries[1:]:
        game.apply(entry)
    return game


def _outcome_of(run: Callable[[], Any]) -> tuple[str, Any]:
    try:
        game = run()
    except PbemError as exc:
        return "refused", str(exc)
    state = canonical.canonical_bytes(game.state)
    return "ok", (state, [r.line() for r in game.rng_log], game.actions, game.sealed)


@pytest.mark.parametrize("save", ["barbarossa", "race-to-berlin", "berlin-1945"])
def test_dice_rolled_ahead_give_the_same_game(save: str) -> None:
    from pathlib import Path

    from pbem.ledger import replay
    from pbem.verify import parse_entries

    root = Path(__file__).resolve().parents[2]
    entries = parse_entries((root / "saves" / f"{save}-demo.pbem").read_text())
    assert _outcome_of(lambda: replay(entries)) == _outcome_of(lambda: _one_by_one(entries))


@pytest.mark.parametrize("cut", [4, 5, 9, 17])
def test_dice_rolled_ahead_refuse_the_same_entries_with_the_same_words(cut: int) -> None:
    """Logs damaged where dice wait: a decision replaced by another (valid or not), the
    rolling entry dropped, duplicated, signed by the wrong role, or with a bad reveal."""
    import random

    from pbem.ledger import replay
    from pbem.testing import SignedTable, sign_entry

    table = SignedTable("barbarossa", ("german", "referee"), nonce=f"ahead{cut}")
    table.join_all()
    table.play(random.Random(cut))
    good = list(table.game.entries)
    keys = table.keys
    variants: list[list[Entry]] = [
        good[:cut] + good[cut + 1 :],  # an entry dropped
        good[: cut + 1] + [good[cut]] + good[cut + 1 :],  # an entry twice
        good[:cut] + [good[cut + 1], good[cut]] + good[cut + 2 :],  # two swapped
    ]
    for index in (cut, cut + 1):
        entry = good[index]
        for change in (
            {"reveal": "0" * 64},
            {"by": "german" if entry.by != "german" else "referee"},
        ):
            fields = {**entry.data, **change}

            forged = sign_entry(keys[str(fields["by"])], fields)
            variants.append(good[:index] + [forged] + good[index + 1 :])
    for log in variants:
        assert _outcome_of(lambda log=log: replay(log)) == _outcome_of(
            lambda log=log: _one_by_one(log)
        )


# --- Entry.from_wire: a move or an ack told by its fast path, as the strict checks tell it --

_HEX = "0123456789abcdef" * 4
_TURN = {
    "v": 1,
    "kind": "move",
    "game": _HEX,
    "seq": 5,
    "prev": _HEX[::-1],
    "by": "german",
    "reveal": "ab" * 32,
    "body": {"decision": "pass"},
}
_ODD_VALUES = [
    None, True, False, 0, 1, -1, 2, "", "move", "ack", "genesis", "join", "x\x7fy",
    "a\u202eb", "é", [], {}, {"a": 1}, _HEX, _HEX.upper(), _HEX[:-2], _HEX + "00",
    _HEX[:-1] + " ", _HEX[:-2] + "0g", " " + _HEX[1:], "ab" * 31 + "a\n",
]  # fmt: skip


def _strict_entry(raw: bytes, signature: bytes) -> Entry:
    """Entry.from_wire as it was before its fast path: every check, in order."""
    from pbem.core.log import _check_shape, _check_text, _with_fields, entry_id

    data = canonical.parse_canonical(raw)
    _check_shape(data)
    return _check_text(_with_fields(Entry(raw, signature, data, entry_id(raw))))


def _outcome(make: Callable[[], Entry]) -> tuple[str, Any]:
    try:
        entry = make()
    except PbemError as exc:
        return type(exc).__name__, str(exc)
    # (its fields in the order they are stored, as the strict path stores them)
    return "ok", (entry, list(vars(entry).items()))


def _turn_variants() -> list[dict[str, Any]]:
    variants: list[dict[str, Any]] = [dict(_TURN), {**_TURN, "kind": "ack", "body": {}}]
    for name in _TURN:
        variants.append({key: value for key, value in _TURN.items() if key != name})
        for value in _ODD_VALUES:
            variants.append({**_TURN, name: value})
    variants.append({**_TURN, "extra": 1})
    variants.append({**_TURN, "body": {"note": "line\nbreak"}})
    variants.append({**_TURN, "body": {"note": 'quote " and \\ slash'}})
    return variants


@pytest.mark.parametrize("fields", _turn_variants())
def test_from_wire_fast_path_judges_as_the_strict_checks(fields: dict[str, Any]) -> None:
    data = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    raw = data.encode("utf-8")
    assert _outcome(lambda: Entry.from_wire(raw, b"sig")) == _outcome(
        lambda: _strict_entry(raw, b"sig")
    )


# --- canonical JSON: an entry's text written field by field (canonical._entry_written) ------

_ENTRY_KEYS = ("body", "by", "game", "kind", "prev", "reveal", "seq", "v")
_short_text = st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=6)
_entry_values = st.fixed_dictionaries(
    {
        "body": st.one_of(
            st.fixed_dictionaries({"decision": _short_text | st.integers() | st.none()}),
            st.dictionaries(_short_text, json_values, max_size=3),
            json_values,
        ),
        **{name: _short_text | json_values for name in ("by", "game", "kind", "prev", "reveal")},
        "seq": st.integers() | st.booleans() | json_values,
        "v": st.integers() | st.booleans() | json_values,
    }
)


# One test for both properties of an entry's fields: drawing them (eight nested values) is
# nearly all of the time, some 7 ms each. It was two tests of 500 values each drawing the
# same strategy, `test_an_entry_written_field_by_field_is_its_encoding` and
# `test_damaged_entries_are_refused_with_the_same_message`: here each of the 500 is checked
# both ways.
@settings(max_examples=500, deadline=None)
@given(_entry_values, st.integers(min_value=0, max_value=10_000), st.binary(max_size=3))
def test_an_entry_written_field_by_field_is_its_encoding_and_damaged_is_refused_alike(
    value: dict[str, Any], at: int, junk: bytes
) -> None:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if "\\" not in text:  # (written field by field only for a text without a backslash)
        parsed = json.loads(text)
        assert canonical._entry_written(parsed) in (None, canonical._FAST_ENCODE(parsed))
    raw = text.encode("utf-8", "surrogatepass")
    at %= len(raw) + 1
    swapped = raw.replace(b'"by"', b'"bz"').replace(b'"kind"', b'"by"')
    for data in (raw, raw[:at] + junk + raw[at:], raw[:at] + raw[at + 1 :], swapped):
        strict = _strict_outcome(data)
        assert _fast_outcome(data) == strict
        _assert_plain_turn_agrees(data, strict)


def _assert_plain_turn_agrees(data: bytes, strict: Any) -> None:
    """parse_plain_turn gives nothing, or parse_canonical's value, keys in the same order."""
    plain = canonical.parse_plain_turn(data)
    if plain is not None:
        assert strict == ("ok", plain) and list(strict[1]) == list(plain)
        assert list(strict[1]["body"]) == list(plain["body"])


_plain_text = st.text(alphabet=st.characters(min_codepoint=0x1F, max_codepoint=0x80), max_size=5)


@settings(max_examples=500, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "body": st.sampled_from([{}, {"decision": ""}, {"decision": "a b"}, {"x": 1}])
            | st.fixed_dictionaries({"decision": _plain_text}),
            "by": _plain_text,
            "game": st.sampled_from([_HEX, _HEX.upper(), _HEX[:-1], "0" * 64]),
            "kind": _plain_text | st.sampled_from(["move", "ack", "join", "genesis"]),
            "prev": st.just(_HEX),
            "reveal": st.just("ab" * 32),
            "seq": st.integers(min_value=-2, max_value=10**19) | st.booleans(),
            "v": st.integers(min_value=-1, max_value=2) | st.booleans(),
        }
    )
)
def test_plain_turns_parse_as_canonical_json_does(fields: dict[str, Any]) -> None:
    raw = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    strict = _strict_outcome(raw)
    assert _fast_outcome(raw) == strict
    _assert_plain_turn_agrees(raw, strict)
    assert _outcome(lambda: Entry.from_wire(raw, b"s")) == _outcome(
        lambda: _strict_entry(raw, b"s")
    )


@pytest.mark.parametrize(
    "change",
    [
        (b'"seq":5', b'"seq":-0'),
        (b'"seq":5', b'"seq": 5'),
        (b'"seq":5', b'"seq":true'),
        (b'"v":1', b'"v":1,"v":1'),
        (b'"by":"german",', b""),
        (b'{"body"', b'{"by":"x","body"'),
        (b'"decision":"pass"', b'"decision":"pass","decision":"pass"'),
        (b'"decision":"pass"', b'"decision":"pa\\u0073s"'),
        (b'"decision":"pass"', b'"decision":"pass",'),
        (b'"decision":"pass"', b'"decision":1.5'),
        (b"}", b"} "),
    ],
)
def test_non_canonical_entries_are_refused_as_before(change: tuple[bytes, bytes]) -> None:
    fields = {**_TURN, "body": {"decision": "pass"}}
    raw = json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()
    assert _fast_outcome(raw) == _strict_outcome(raw) and _fast_outcome(raw)[0] == "ok"
    damaged = raw.replace(*change, 1)
    assert damaged != raw
    assert _fast_outcome(damaged) == _strict_outcome(damaged)
    _assert_plain_turn_agrees(damaged, _strict_outcome(damaged))
    _assert_plain_turn_agrees(raw, _strict_outcome(raw))
    assert canonical.parse_plain_turn(raw) is not None  # (the path this test is about)


# --- ApplyContext.opened_now: made once per context, a new dict at each call -------------


def test_opened_now_is_the_openings_values_and_a_fresh_dict_each_call() -> None:
    from pbem.core.context import ApplyContext
    from pbem.core.history import Sealed

    sealed = {
        f"piece/{n}": Sealed(f"piece/{n}", "00" * 32, "a", 2, True, {"n": n}, 3) for n in range(5)
    }
    opened = ("piece/3", "piece/0", "piece/4")
    ctx = ApplyContext(None, 3, None, sealed, (), opened)
    first = ctx.opened_now()
    assert list(first.items()) == [(label, sealed[label].value) for label in opened]
    first["piece/3"] = "changed by a caller"
    del first["piece/0"]
    again = ctx.opened_now()
    assert again is not first
    assert list(again.items()) == [(label, sealed[label].value) for label in opened]
    assert ApplyContext(None, 3, None, sealed, ()).opened_now() == {}


# --- armor.decode_lines: its unpacking in line, as decode_payload's checks judge ----------


def _lines_outcome(decode: Callable[[Any], Any], given: Any) -> Any:
    try:
        return "ok", decode(given)
    except ArmorError as exc:
        return "refused", str(exc)


@settings(max_examples=400, deadline=None)
@given(
    st.binary(max_size=40),
    st.binary(max_size=40),
    st.integers(min_value=-6, max_value=6),
    st.integers(min_value=-6, max_value=6),
    st.binary(max_size=3),
    st.integers(min_value=0, max_value=3),
)
def test_decode_lines_gives_decode_payload_s_bytes_and_errors(
    canonical_bytes: bytes, signature: bytes, c_off: int, s_off: int, tail: bytes, cut: int
) -> None:
    import base64
    import struct

    packed = (
        struct.pack(">I", max(0, len(canonical_bytes) + c_off))
        + canonical_bytes
        + struct.pack(">I", max(0, len(signature) + s_off))
        + signature
        + tail
    )[: None if cut == 0 else -cut]
    symbols = base64.b32encode(packed).decode("ascii").rstrip("=")
    for payload in {symbols, symbols[:-1], symbols[:-1] + "7", symbols + "A"} - {""}:
        lines = "".join(payload[i : i + 64] + "\n" for i in range(0, len(payload), 64))
        assert _lines_outcome(armor.decode_lines, lines.encode("ascii")) == (
            _lines_outcome(armor.decode_payload, payload)
        )
