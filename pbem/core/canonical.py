"""Canonical JSON (protocol section 3): the only byte form that is hashed or signed.

UTF-8, keys sorted, no insignificant whitespace, ASCII-only keys, and no floats.
Input is refused unless it is already in exactly this form, so that one object
has one byte string and one id.
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Callable
from functools import cache

from pbem.errors import CanonicalError
from pbem.hints import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import re

JSON = Any  # int | str | bool | None | list[JSON] | dict[str, JSON]


# The encoder and decoder are built once: json.dumps and json.loads with options build new
# ones on every call, which costs more than encoding a small entry.
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _no_float_fast(text: str) -> JSON:
    raise ValueError(text)  # the fast path only needs to know; the strict path says what


_FAST_DECODER = json.JSONDecoder(parse_float=_no_float_fast, parse_constant=_no_float_fast)
# Its scanner alone (C): value, end = _SCAN(text, 0), without decode()'s Python around it.
_SCAN: Callable[[str, int], tuple[JSON, int]] = getattr(_FAST_DECODER, "scan_once")  # noqa: B009


def _fast_encoder() -> Callable[[JSON], str]:
    """_ENCODER.encode for values that json.loads made: the C encoder built once, not on
    every call as JSONEncoder.encode does. (No check for circular references: parsed
    JSON has none; the output is the same.)"""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # a Python without the _json accelerator
        return _ENCODER.encode
    chunks = make(
        None,  # markers: no circular check
        _ENCODER.default,
        json.encoder.encode_basestring,  # ensure_ascii=False
        None,  # indent
        ":",
        ",",
        True,  # sort_keys
        False,  # skipkeys
        True,  # allow_nan (as _ENCODER; parsing refused every float anyway)
    )

    def encode(value: JSON) -> str:
        if isinstance(value, str):  # (as JSONEncoder.encode does for a top-level string)
            return json.encoder.encode_basestring(value)
        return "".join(chunks(value, 0))

    return encode


_FAST_ENCODE = _fast_encoder()


def _check(value: JSON, path: str) -> None:
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        return
    if isinstance(value, float):
        raise CanonicalError(f"floating-point number at {path or '/'} is not allowed")
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check(item, f"{path}/{i}")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise CanonicalError(f"non-string key {key!r} at {path or '/'}")
            if not key.isascii():
                raise CanonicalError(f"non-ASCII key {key!r} at {path or '/'}")
            _check(item, f"{path}/{key}")
        return
    raise CanonicalError(f"{type(value).__name__} at {path or '/'} is not a JSON value")


def canonical_bytes(value: JSON) -> bytes:
    """The canonical encoding of a JSON value; raises CanonicalError for anything not allowed."""
    _check(value, "")
    try:
        return _ENCODER.encode(value).encode("utf-8")
    except UnicodeEncodeError:
        raise CanonicalError("string holds a lone surrogate, which is not UTF-8") from None
    except ValueError as exc:  # e.g. an integer past Python's digit limit
        raise CanonicalError(f"not encodable: {exc}") from None


def _no_duplicates(pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
    result: dict[str, JSON] = {}
    for key, value in pairs:
        if key in result:
            raise CanonicalError(f"duplicate key {key!r}")
        result[key] = value
    return result


def _no_float(text: str) -> JSON:
    raise CanonicalError(f"floating-point number {text} is not allowed")


def parse_canonical(data: bytes) -> JSON:
    """Parse bytes that must be canonical JSON; anything else raises CanonicalError."""
    # Fast path for the common case (every entry of a log is parsed here): C-level parsing
    # without a Python hook per object, then one C-level re-encoding compared with the
    # input. When the bytes are ASCII and equal their re-encoding, the strict path below
    # would accept them and return an equal value: equal bytes leave no room for a
    # duplicate key (the re-encoding holds each key once), a float or a constant (refused
    # while parsing), a non-ASCII key, an escaped character or a space. Anything else, even
    # a mere doubt, goes the strict way, which raises exactly the errors it always did.
    if data.isascii():
        text = data.decode("ascii")
        try:
            value, end = _SCAN(text, 0)
            # (str comparison: the text is ASCII, so equal strings are equal bytes)
            if end == len(text):
                if type(value) is dict and len(value) == 8 and "\\" not in text:
                    written = _entry_written(value)
                    if written is not None and written == text:
                        return value
                if _FAST_ENCODE(value) == text:
                    return value
        except (ValueError, RecursionError, StopIteration):
            pass  # the strict path says what is wrong
    return _parse_strict(data)


@cache
def _plain_turn() -> re.Pattern[str]:
    """The text of a move or an ack as canonical JSON writes it when each of its strings is
    printable ASCII without a double quote, a backslash or DEL (nothing escaped, nothing an
    entry's text refuses), its body a decision alone or nothing, its seq above 0 and its v
    1 (compiled at its first use)."""
    import re  # (loaded by then: only a verifier reading entries asks)

    plain = r"[ !#-\[\]-~]"
    hex64 = "([0-9a-f]{64})"
    return re.compile(
        rf'\{{"body":\{{(?:"decision":"({plain}*+)")?\}},"by":"({plain}++)","game":"{hex64}",'
        rf'"kind":"({plain}++)","prev":"{hex64}","reveal":"{hex64}","seq":([1-9][0-9]{{0,17}}),'
        r'"v":1\}'
    )


def parse_plain_turn(data: bytes) -> dict[str, JSON] | None:
    """`parse_canonical(data)` when `data` is the text of a move or an ack in its plainest
    form (`_plain_turn`), told by one match; None for any other text (which the caller
    gives to parse_canonical).

    The same value: such a text is JSON of one object whose keys, in this order, are
    sorted, each once, with no space, no escape, an integer seq without leading zeros: the
    text canonical JSON writes for the object the scanner reads from it, with its keys in
    this order, strings as written and ints as read."""
    found = plain_turn_fields(data)
    if found is None:
        return None
    decision, by, game, kind, prev, reveal, seq = found
    return {
        "body": {} if decision is None else {"decision": decision},
        "by": by,
        "game": game,
        "kind": kind,
        "prev": prev,
        "reveal": reveal,
        "seq": int(seq),
        "v": 1,
    }


def plain_turn_fields(data: bytes) -> tuple[Any, ...] | None:
    """The groups of `_plain_turn` in `data` (decision or None, by, game, kind, prev,
    reveal, seq as text), when `data` is ASCII that it matches whole; else None.
    `parse_plain_turn` makes its value of them; `Entry.from_wire` reads them at once."""
    if not data.isascii():
        return None
    found = _plain_turn().fullmatch(data.decode("ascii"))
    return None if found is None else found.groups()


def _entry_written(value: dict[str, JSON]) -> str | None:
    """`_FAST_ENCODE(value)` for an entry of every field (protocol section 3: what a move or
    an ack holds) parsed from a text without a backslash, written with only its body
    encoded; None for any other value (the caller encodes it whole).

    The same text: its keys are these eight, in sorted order; the encoder writes a string
    between double quotes, escaping only a double quote, a backslash and a control
    character, which a string read from a text without a backslash cannot hold (the
    scanner refuses a raw control character and ends a string at a quote); an int (never
    a bool, whose int is not written as such) as str() writes it; and the body as it
    encodes it alone, its own separators and key order being the same inside the entry."""
    try:
        body, by, game, kind = value["body"], value["by"], value["game"], value["kind"]
        prev, reveal, seq, v = value["prev"], value["reveal"], value["seq"], value["v"]
    except KeyError:
        return None
    if not (
        type(body) is dict
        and type(by) is str
        and type(game) is str
        and type(kind) is str
        and type(prev) is str
        and type(reveal) is str
        and type(seq) is int
        and type(v) is int
    ):
        return None
    # (the usual bodies, a decision alone or nothing, written as the encoder would too)
    decision = body.get("decision") if len(body) == 1 else None
    if type(decision) is str:
        body_text = f'{{"decision":"{decision}"}}'
    else:
        body_text = "{}" if not body else _FAST_ENCODE(body)
    return (
        f'{{"body":{body_text},"by":"{by}","game":"{game}","kind":"{kind}",'
        f'"prev":"{prev}","reveal":"{reveal}","seq":{seq},"v":{v}}}'
    )


def _parse_strict(data: bytes) -> JSON:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CanonicalError(f"not UTF-8: {exc.reason} at byte {exc.start}") from None
    try:
        value = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_float=_no_float,
            parse_constant=_no_float,
        )
    except CanonicalError:
        raise
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, huge integers
        raise CanonicalError(f"not JSON: {exc}") from None
    if canonical_bytes(value) != data:
        raise CanonicalError("JSON is not in canonical form (sorted keys, no spaces, UTF-8)")
    return value


def copy_json(value: JSON) -> JSON:
    """A deep copy of plain JSON data, several times faster than copy.deepcopy.

    Engines copy their state on every `apply`; this is the one copy they share.
    marshal round-trips exactly the types JSON data is made of, and nothing is
    ever read back from outside the process, so it is safe here.
    """
    return marshal.loads(marshal.dumps(value))
