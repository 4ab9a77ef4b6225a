"""Canonical JSON (protocol section 3): the only byte form that is hashed or signed.

UTF-8, keys sorted, no insignificant whitespace, ASCII-only keys, and no floats.
Input is refused unless it is already in exactly this form, so that one object
has one byte string and one id.
"""

from __future__ import annotations

import json
import marshal
from typing import Any

from pbem.errors import CanonicalError

JSON = Any  # int | str | bool | None | list[JSON] | dict[str, JSON]


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
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return text.encode("utf-8")
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
