"""Entries of the log (protocol section 3): their fields, their ids, and their shape checks.

An entry is canonical JSON bytes plus an SSHSIG signature over exactly those bytes.
This module checks what can be checked of one entry alone; whether it fits the
log (game, seq, prev, reveal, turn order) is the adjudicator's job.
"""

from __future__ import annotations

import re
from functools import cache

from pbem import digests
from pbem.core.canonical import JSON, canonical_bytes, parse_canonical, plain_turn_fields
from pbem.core.hashing import is_lower_hex
from pbem.errors import PbemError
from pbem.hints import Any
from pbem.record import Record

VERSION = 1
GENESIS, JOIN, MOVE, ACK = "genesis", "join", "move", "ack"
_FIELDS = {"v", "kind", "game", "seq", "prev", "by", "reveal", "body"}


# Text from the log is untrusted (protocol section 8): no string of an entry, key or value,
# holds a control character (Unicode category Cc: C0, DEL, C1, which include every line
# break but the two below), a line or paragraph separator, or a bidi embedding, override or
# isolate (what reorders a line on screen, "Trojan Source").
UNTRUSTED = "\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_UNTRUSTED_CHARS = frozenset(
    chr(code)
    for first, last in ((0x00, 0x1F), (0x7F, 0x9F), (0x2028, 0x202E), (0x2066, 0x2069))
    for code in range(first, last + 1)
)


@cache
def _untrusted() -> re.Pattern[str]:
    """The pattern of UNTRUSTED, compiled at its first use: most logs are ASCII text with no
    escape, which `_check_text` clears without it, and compiling its character class is
    about 1% of a genesis's cold `pbem verify`."""
    return re.compile(f"[{UNTRUSTED}]")


class UntrustedTextError(PbemError):
    """An entry whose text holds a character of UNTRUSTED: refused when it is made and
    when it is read (protocol section 8). `entry` is the refused entry, for a reader that
    reports damage first (a changed byte can make both a bad signature and bad text)."""

    def __init__(self, message: str, entry: Entry) -> None:
        super().__init__(message)
        self.entry = entry


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_text(text: str) -> str:
    """`text` with every character an entry may not hold written as a Python escape
    (`\\x0a`, `\\u202e`): one line, nothing that reorders it, safe in a save header."""
    return _untrusted().sub(_visible, text)


def refused_character(text: str) -> str | None:
    """The first character of `text` that no text in an entry may hold, or None."""
    found = _untrusted().search(text)
    return None if found is None else found.group()


def untrusted_character(value: JSON) -> tuple[str, str] | None:
    """The first refused character in any string of `value` (keys included), with where
    it is: ("body/title", "\\n"); None when there is none."""
    # Iterative (a stack; an object's keys before its values): any depth the JSON parser
    # accepts is walked.
    stack: list[tuple[JSON, str]] = [(value, "")]
    untrusted = _untrusted()
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            found = untrusted.search(item)
            if found is not None:
                return path or "/", found.group()
        elif isinstance(item, dict):
            inner: list[tuple[JSON, str]] = []
            for key, child in item.items():
                where = f"{path}/{escape_text(key)}" if path else escape_text(key)
                found = untrusted.search(key)
                if found is not None:
                    return f"a key at {path or '/'} ({where})", found.group()
                inner.append((child, where))
            stack.extend(reversed(inner))
        elif isinstance(item, list):
            stack.extend(
                (child, f"{path}/{index}" if path else str(index))
                for index, child in reversed(list(enumerate(item)))
            )
    return None


def _check_text(entry: Entry) -> Entry:
    """`entry`, unless its text holds a character of UNTRUSTED (protocol section 8)."""
    canonical = entry.canonical
    # Canonical JSON writes every C0 control as an escape (a backslash), and DEL raw: an
    # ASCII entry without either holds none of them (the common case, one C-level pass).
    # Without a backslash, every character of every string (key or value) stands in the
    # text as itself, so a text that holds no character of UNTRUSTED has no string that
    # does (a title with accents: no walk of every string, no pattern compiled).
    # (find, not `in`: a bytes `in` tries its operand as an int first, raising and
    # clearing a TypeError each time)
    if canonical.find(b"\\") < 0:
        if canonical.isascii():
            if canonical.find(b"\x7f") < 0:
                return entry
        elif _UNTRUSTED_CHARS.isdisjoint(canonical.decode("utf-8", errors="replace")):
            return entry
    found = untrusted_character(entry.data)
    if found is None:
        return entry
    where, char = found
    raise UntrustedTextError(
        f"entry {entry.seq} by {escape_text(entry.by)} refused: {where} holds the control "
        f"character U+{ord(char):04X}; text in an entry holds no control characters, line "
        "separators or bidi controls (protocol section 8: text from the log is untrusted)",
        entry,
    )


def entry_id(canonical: bytes) -> str:
    return digests.sha256(canonical).hexdigest()


def _is_hex32(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and is_lower_hex(value)


class Entry(
    Record,
    fields=("canonical", "signature", "data", "id"),
    hidden=("data",),
    uncompared=("data", "id"),
):
    """One signed entry: canonical bytes, signature, and the parsed fields.

    A frozen record (pbem.record): equal when the bytes and the signature are.

    The fields of `data` (kind, seq, by, game, prev, reveal, body) are read many times per
    entry while a log is checked (`by` about ten times), so each is kept in the instance
    from the start, as a plain attribute: no descriptor of the class bears their names,
    which lets the interpreter read them at the speed of a specialised attribute load
    (Python 3.11 leaves a name that a non-data descriptor, such as a cached property,
    bears unspecialised). An entry's data never changes. Data without them (a value no
    checked entry holds: only tests build such) leaves the missing ones unset."""

    canonical: bytes
    signature: bytes
    data: dict[str, JSON]
    id: str
    kind: str
    seq: int
    by: str
    game: str | None
    prev: str | None
    reveal: str | None
    body: dict[str, JSON]

    def __init__(self, canonical: bytes, signature: bytes, data: dict[str, JSON], id: str) -> None:
        fields = self.__dict__
        fields["canonical"] = canonical
        fields["signature"] = signature
        fields["data"] = data
        fields["id"] = id
        try:  # (in `_with_fields`' order and terms)
            fields["kind"] = str(data["kind"])
            fields["seq"] = int(data["seq"])
            fields["by"] = str(data["by"])
            fields["game"] = data.get("game")
            fields["prev"] = data.get("prev")
            fields["reveal"] = data.get("reveal")
            fields["body"] = data["body"]
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # (see the class's doc)

    @staticmethod
    def from_wire(canonical: bytes, signature: bytes) -> Entry:
        """Parse and shape-check an entry received from outside."""
        # (only an entry with a reveal may be one: a genesis or a join, of a move file that
        # holds nothing else, is read without compiling the plain form's pattern)
        # (find: see `_check_text`)
        plain = plain_turn_fields(canonical) if canonical.find(b'"reveal":"') >= 0 else None
        if plain is not None:
            decision, by, game, kind, prev, reveal, seq = plain
            if kind != GENESIS and kind != JOIN:
                # A move or an ack in its plainest form: parsed as parse_canonical parses
                # it (parse_plain_turn's value, made here in line), and of the shape and
                # text `_plain_turn_fields` tells (every field, exact types, v 1, seq above
                # 0, kind and signer, three hex fields, ASCII text with no backslash nor
                # DEL), which `_check_shape` and `_check_text` accept. Its fields are
                # stored at once, as Entry() and `_with_fields` would store them.
                body: dict[str, JSON] = {} if decision is None else {"decision": decision}
                number = int(seq)
                entry = _bare_entry(Entry)
                entry.__dict__.update(
                    canonical=canonical,
                    signature=signature,
                    data={
                        "body": body,
                        "by": by,
                        "game": game,
                        "kind": kind,
                        "prev": prev,
                        "reveal": reveal,
                        "seq": number,
                        "v": 1,
                    },
                    id=digests.sha256(canonical).hexdigest(),
                    kind=kind,
                    seq=number,
                    by=by,
                    game=game,
                    prev=prev,
                    reveal=reveal,
                    body=body,
                )
                return entry
        data = parse_canonical(canonical)
        fields = _plain_turn_fields(canonical, data)
        if fields is not None:  # (a move or an ack as pbem writes them: see there)
            entry = _bare_entry(Entry)
            entry.__dict__.update(
                canonical=canonical,
                signature=signature,
                data=data,
                id=digests.sha256(canonical).hexdigest(),
                **fields,
            )
            return entry
        _check_shape(data)
        return _check_text(Entry(canonical, signature, data, entry_id(canonical)))

    @staticmethod
    def build(fields: dict[str, JSON], signature: bytes = b"") -> Entry:
        """An entry from fields we made ourselves (signature added by the signer)."""
        _check_shape(fields)
        canonical = canonical_bytes(fields)
        entry = Entry(canonical, signature, parse_canonical(canonical), entry_id(canonical))
        return _check_text(entry)

    def with_signature(self, signature: bytes) -> Entry:
        return Entry(self.canonical, signature, self.data, self.id)

    def describe(self) -> str:
        """Short reference used in every error: 'entry 7 by german'."""
        return f"entry {self.seq} by {self.by}"


# An instance made without __init__ (whose fields the caller stores in its __dict__).
_bare_entry = object.__new__


def _with_fields(entry: Entry) -> Entry:
    """`entry` with its fields stored again from its data, as Entry() stores them (what the
    strict reading did before Entry() stored them itself; tests compare with it): only
    for data that passed the shape check."""
    data = entry.data
    entry.__dict__.update(
        kind=str(data["kind"]),
        seq=int(data["seq"]),
        by=str(data["by"]),
        game=data.get("game"),
        prev=data.get("prev"),
        reveal=data.get("reveal"),
        body=data["body"],
    )
    return entry


def _plain_turn_fields(canonical: bytes, data: JSON) -> dict[str, Any] | None:
    """The fields `_with_fields` keeps, when `data` (parsed from `canonical`) is an entry that
    `_check_shape` and `_check_text` accept, told in a few C-level tests; None when that is
    not told so (the strict checks then judge it, and say what is wrong).

    Told for an entry of every field (`_FIELDS`: a move or an ack, not a genesis nor a
    join) of the types the JSON parser gives (exactly int, str, dict: never a bool), v 1,
    a seq above 0, a kind, signer and body, game, prev and reveal 64 lower-case hex digits
    each (the three in one round trip: each is 64 digits, so the pairs of the whole are
    the pairs of each), and text that `_check_text` clears at its first test (ASCII,
    no backslash, no DEL): what `_check_shape` asks of such an entry, in the same terms."""
    if type(data) is not dict or len(data) != len(_FIELDS) or data.keys() != _FIELDS:
        return None
    kind, seq, by, body = data["kind"], data["seq"], data["by"], data["body"]
    game, prev, reveal = data["game"], data["prev"], data["reveal"]
    v = data["v"]
    if not (
        type(v) is int
        and v == VERSION
        and type(kind) is str
        and kind
        and kind != GENESIS
        and kind != JOIN
        and type(seq) is int
        and seq > 0
        and type(by) is str
        and by
        and type(body) is dict
        and type(game) is str
        and type(prev) is str
        and type(reveal) is str
        and len(game) == len(prev) == len(reveal) == 64
        and canonical.find(b"\\") < 0  # (find: see `_check_text`)
        and canonical.isascii()
        and canonical.find(b"\x7f") < 0
    ):
        return None
    hexes = game + prev + reveal
    try:
        if bytes.fromhex(hexes).hex() != hexes:
            return None
    except ValueError:
        return None
    return {
        "kind": kind,
        "seq": seq,
        "by": by,
        "game": game,
        "prev": prev,
        "reveal": reveal,
        "body": body,
    }


def _check_shape(data: JSON) -> None:
    if not isinstance(data, dict):
        raise PbemError("an entry must be a JSON object")
    if not _FIELDS.issuperset(data):
        unknown = set(data) - _FIELDS
        names = ", ".join(sorted(unknown))
        if not names.isprintable():  # ASCII keys may still hold a newline or a control byte
            names = ", ".join(repr(name) for name in sorted(unknown))
        raise PbemError(f"unknown entry field(s): {names}")
    if type(data.get("v")) is not int or data.get("v") != VERSION:
        raise PbemError(f"unsupported protocol version {data.get('v')!r} (this is v{VERSION})")
    kind, seq, by, body = data.get("kind"), data.get("seq"), data.get("by"), data.get("body")
    if not isinstance(kind, str) or not kind:
        raise PbemError("entry has no kind")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise PbemError("entry seq must be a non-negative integer")
    if not isinstance(by, str) or not by:
        raise PbemError("entry has no signing role (by)")
    if not isinstance(body, dict):
        raise PbemError("entry body must be an object")
    if kind == GENESIS:
        if seq != 0 or "game" in data or "prev" in data or "reveal" in data:
            raise PbemError("genesis must have seq 0 and no game, prev or reveal")
        return
    if seq == 0:
        raise PbemError("only the genesis entry has seq 0")
    for name in ("game", "prev"):
        if not _is_hex32(data.get(name)):
            raise PbemError(f"entry {seq}: {name} must be 64 lower-case hex digits")
    if kind == JOIN:
        if "reveal" in data:
            raise PbemError(f"entry {seq}: a join carries no reveal")
    elif not _is_hex32(data.get("reveal")):
        raise PbemError(f"entry {seq}: reveal must be 64 lower-case hex digits")
