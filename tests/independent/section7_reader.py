#!/usr/bin/env python3
"""An independent checker for pbem saves, written only from section 7 of docs/protocol.md.

It imports nothing from `pbem`: only the standard library and `cryptography` (for Ed25519),
to show that a referee's own short script can check a save.

    python tests/independent/section7_reader.py SAVE   # prints a report; exit 0 valid, 1 not

Checked: armor, canonical JSON, SSHSIG signatures against the genesis keys, the log
(game id, seq, prev, v), every role's hash chain, and every public value of the RNG log.
Not checked: game rules (whether a draw was due at all), commitments, private draws.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

BEGIN, END = "-----BEGIN PBEM ENTRY-----", "-----END PBEM ENTRY-----"
BASE32 = re.compile(r"[A-Z2-7]*")
HEX32 = re.compile(r"[0-9a-f]{64}")
INT = r"(-?[0-9]+)"
RNG = re.compile(rf"rng ([0-9]+) ([0-9]+) (?:{INT}\.\.{INT} {INT}|(private)) (\S.*)", re.I)
MIN_CHAIN = 4096  # section 4: "N at least 4096"


class Bad(Exception):
    """One failed check; the message is the reason."""


@dataclass
class Failure:
    seq: int | None  # log position (= the seq the entry must have); requesting seq for rng lines
    role: str | None  # role named by the entry's `by`; None for rng lines (they are unsigned)
    reason: str


@dataclass
class Report:
    entries: int = 0
    roles: dict[str, str] = field(default_factory=dict)  # role -> SHA256 fingerprint
    rng_checked: int = 0
    rng_private: int = 0
    self_witnessed: bool = False
    failure: Failure | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None

    def __str__(self) -> str:
        out = [f"pbem save, checked by section7_reader: {'VALID' if self.ok else 'INVALID'}"]
        out.append(f"entries: {self.entries}")
        out += [f"role {role}: {fp}" for role, fp in self.roles.items()]
        out.append(f"rng lines checked: {self.rng_checked} (+{self.rng_private} private, counted)")
        if self.self_witnessed:
            out.append("dice: SELF-WITNESSED (only one role, nobody else supplied entropy)")
        if f := self.failure:
            where = f"seq {f.seq}" if f.seq is not None else ""
            where += f" by {f.role}" if f.role else ""
            out.append(f"first failure: {where + ': ' if where else ''}{f.reason}")
        return "\n".join(out)


def ssh_string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


class Wire:
    """Reads u32-length-prefixed strings (the framing of the armor payload and of SSH)."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise Bad("truncated data")
        self.pos += n
        return self.data[self.pos - n : self.pos]

    def string(self) -> bytes:
        return self.take(struct.unpack(">I", self.take(4))[0])

    def end(self) -> None:
        if self.pos != len(self.data):
            raise Bad("unexpected trailing bytes")


def ed25519_key(blob: bytes) -> Ed25519PublicKey:
    w = Wire(blob)
    if w.string() != b"ssh-ed25519":
        raise Bad("public key is not ssh-ed25519")
    raw = w.string()
    w.end()
    if len(raw) != 32:
        raise Bad("ed25519 public key is not 32 bytes")
    return Ed25519PublicKey.from_public_bytes(raw)


def openssh_blob(line: object) -> bytes:
    """'ssh-ed25519 BASE64 comment' -> the key blob (what fingerprints and SSHSIG use)."""
    parts = line.split() if isinstance(line, str) else []
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (IndexError, binascii.Error):
        raise Bad(f"not an OpenSSH public-key line: {line!r}") from None
    if parts[0] != "ssh-ed25519":
        raise Bad(f"not an ssh-ed25519 key: {line!r}")
    ed25519_key(blob)
    return blob


def fingerprint(blob: bytes) -> str:
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def sshsig_signer(c: bytes, s: bytes) -> bytes:
    """Verify the SSHSIG blob `s` over `c`; return the signer's public-key blob."""
    w = Wire(s)
    if w.take(6) != b"SSHSIG" or w.take(4) != struct.pack(">I", 1):
        raise Bad("signature is not an SSHSIG version 1 blob")
    pub, namespace, reserved, hash_alg, sig = [w.string() for _ in range(5)]
    w.end()
    if namespace != b"pbem-entry" or hash_alg != b"sha512":
        raise Bad(f"SSHSIG namespace {namespace!r} / hash {hash_alg!r}, not pbem-entry / sha512")
    sw = Wire(sig)
    if sw.string() != b"ssh-ed25519":
        raise Bad("signature is not ssh-ed25519")
    raw_sig = sw.string()
    sw.end()
    signed = b"SSHSIG" + b"".join(
        ssh_string(x) for x in (namespace, reserved, hash_alg, hashlib.sha512(c).digest())
    )
    try:
        ed25519_key(pub).verify(raw_sig, signed)
    except InvalidSignature:
        raise Bad("bad signature (entry bytes altered or signature forged)") from None
    return pub


def scan(text: str) -> tuple[list[str | None], list[str]]:
    """Split a text into armor payloads (None: no END line) and `rng ` lines; ignore the rest."""
    blocks: list[str | None] = []
    rng_lines: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        unquoted = line.lstrip("> \t")
        marker = " ".join(unquoted.split()).upper()
        if current is None:
            if marker == BEGIN:
                current = []
            elif re.match(r"rng\s+[0-9]", unquoted, re.I):  # not "RNG LOG" or other human text
                rng_lines.append(" ".join(unquoted.split()))
        elif marker == END:
            blocks.append("".join(current))
            current = None
        else:
            current.append("".join(unquoted.split()).upper())
    if current is not None:
        blocks.append(None)
    return blocks, rng_lines


def unarmor(payload: str | None) -> tuple[bytes, bytes]:
    if payload is None:
        raise Bad("armor has no END line")
    if not BASE32.fullmatch(payload):
        raise Bad("damaged armor: character outside base32")
    try:
        raw = base64.b32decode(payload + "=" * (-len(payload) % 8))
    except binascii.Error:
        raise Bad("damaged armor: bad base32 length") from None
    w = Wire(raw)
    c, s = w.string(), w.string()
    w.end()
    return c, s


def canonical_entry(c: bytes) -> dict:
    def no_float(text: str) -> None:
        raise Bad(f"non-integer number {text} in entry")

    def object_hook(pairs: list) -> dict:
        if len({k for k, _ in pairs}) != len(pairs) or not all(k.isascii() for k, _ in pairs):
            raise Bad("duplicate or non-ASCII key in entry")
        return dict(pairs)

    try:
        hooks = {"parse_float": no_float, "parse_constant": no_float}
        entry = json.loads(c.decode("utf-8"), object_pairs_hook=object_hook, **hooks)
        again = json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        if again.encode("utf-8") != c or not isinstance(entry, dict):
            raise Bad("entry bytes are not canonical JSON")
    except ValueError as err:  # UnicodeError and JSONDecodeError are ValueErrors
        raise Bad(f"entry is not UTF-8 JSON: {err}") from None
    return entry


class Stream:
    """Section 7 generator: block k = HMAC-SHA256(key=seed, msg=u64(k)), concatenated."""

    def __init__(self, seed: bytes) -> None:
        self.seed, self.k, self.buf = seed, 0, b""

    def read(self, n: int) -> bytes:
        while len(self.buf) < n:
            self.buf += hmac.new(self.seed, struct.pack(">Q", self.k), hashlib.sha256).digest()
            self.k += 1
        out, self.buf = self.buf[:n], self.buf[n:]
        return out


def draw_int(stream, n: int) -> int:
    """int(n): unbiased integer in [0, n) by rejection sampling, never a bare `% n`."""
    if not 1 <= n <= 2**64:
        raise Bad(f"range of {n} values cannot be drawn")
    limit = 2**64 - 2**64 % n
    while True:
        chunk = stream.read(8)
        if len(chunk) != 8:
            raise Bad("random stream exhausted")
        x = int.from_bytes(chunk, "big")
        if x < limit:
            return x % n


def rng_seed(game: str, id_e: bytes, reveal_f: str) -> bytes:
    data = b"pbem-rng/v1" + bytes.fromhex(game) + id_e + bytes.fromhex(reveal_f)
    return hashlib.sha256(data).digest()


@dataclass
class Entry:
    by: str
    id: bytes
    reveal: str | None
    secrets: list[str] = field(default_factory=list)  # opened 32-byte secrets it committed


def hex32(entry: dict, name: str) -> str:
    value = entry.get(name)
    if not isinstance(value, str) or not HEX32.fullmatch(value):
        raise Bad(f"`{name}` is missing or not 64 lower-case hex digits")
    return value


def check_entries(blocks: list[str | None], report: Report) -> tuple[str, list[Entry]]:
    """Check every armored entry in order; return the game id and the entries."""
    game, roles, heads, left, log = "", {}, {}, {}, []
    commits: dict[str, tuple[int, str]] = {}  # label -> (committing seq, commitment)
    for pos, payload in enumerate(blocks):
        by = None
        try:
            c, s = unarmor(payload)
            e = canonical_entry(c)
            by = e.get("by") if isinstance(e.get("by"), str) else None
            if missing := {"v", "kind", "seq", "by", "body"} - e.keys():
                raise Bad(f"missing field(s) {sorted(missing)}")
            if e["v"] != 1 or type(e["v"]) is not int:
                raise Bad(f"v is {e['v']!r}, not 1")
            if e["seq"] != pos or type(e["seq"]) is not int:
                raise Bad(f"claims seq {e['seq']!r} at position {pos}: missing/inserted/reordered")
            if pos == 0:
                body = e["body"] if isinstance(e["body"], dict) else {}
                if e["kind"] != "genesis" or {"game", "prev", "reveal"} & e.keys():
                    raise Bad("entry 0 must be the genesis, without game/prev/reveal")
                if missing := {"rules", "rules_version", "data", "options", "roles"} - body.keys():
                    raise Bad(f"genesis body lacks {sorted(missing)}")
                if not isinstance(body["roles"], dict) or not body["roles"]:
                    raise Bad("genesis names no roles")
                roles = {role: openssh_blob(line) for role, line in body["roles"].items()}
                report.roles = {role: fingerprint(blob) for role, blob in roles.items()}
                game = hashlib.sha256(c).hexdigest()
            if by not in roles:
                raise Bad(f"`by` {e['by']!r} is not a role of this game")
            signer = sshsig_signer(c, s)
            if signer != roles[by]:
                owner = [r for r, blob in roles.items() if blob == signer]
                key = f"{owner[0]}'s key" if owner else f"foreign key {fingerprint(signer)}"
                raise Bad(f"signed with {key}, not {by}'s")
            if pos > 0:
                if e["kind"] == "genesis" or e.get("game") != game:
                    raise Bad("second genesis, or `game` is not this game's id")
                if e.get("prev") != log[-1].id.hex():
                    raise Bad(f"`prev` is not the id of entry {pos - 1}")
            reveal = None
            if e["kind"] == "join":
                body = e["body"] if isinstance(e["body"], dict) else {}
                if "reveal" in e or by in heads:
                    raise Bad("a join carries no reveal, and each role joins once")
                length = body.get("length")
                if type(length) is not int or length < MIN_CHAIN:
                    raise Bad(f"chain length {length!r} is not an integer >= {MIN_CHAIN}")
                heads[by], left[by] = bytes.fromhex(hex32(body, "anchor")), length
            elif pos > 0:
                if waiting := sorted(set(roles) - set(heads)):
                    raise Bad(f"play before every role joined (waiting for {waiting})")
                reveal = hex32(e, "reveal")
                if left[by] == 0:
                    raise Bad("hash chain exhausted (re-anchoring is not checked by this reader)")
                if hashlib.sha256(b"pbem-chain/v1" + bytes.fromhex(reveal)).digest() != heads[by]:
                    raise Bad("`reveal` does not hash to this role's previous chain value")
                heads[by], left[by] = bytes.fromhex(reveal), left[by] - 1
            log.append(Entry(by, hashlib.sha256(c).digest(), reveal))
            check_openings(e, pos, game, commits, log)
        except Bad as err:
            report.failure = Failure(pos, by, str(err))
            break
    return game, log


def check_openings(e: dict, pos: int, game: str, commits: dict, log: list[Entry]) -> None:
    """Section 7 commitments: record new ones; check each opening against its commitment.
    An opened 32-byte hex value may be the secret x of private draws its entry asked for."""
    body = e["body"] if isinstance(e["body"], dict) else {}
    for label, digest in (body.get("commit") or {}).items():
        commits[label] = (pos, digest)
    for opening in body.get("open") or []:
        label, salt, value = opening.get("label"), opening.get("salt"), opening.get("value")
        if label not in commits or not isinstance(salt, str) or not HEX32.fullmatch(salt):
            raise Bad(f"opening of {label!r} has no commitment or no 32-byte salt")
        canonical = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        name = label.encode("utf-8")
        data = b"pbem-commit/v1" + bytes.fromhex(game) + struct.pack(">I", len(name)) + name
        data += bytes.fromhex(salt) + canonical.encode("utf-8")
        seq, digest = commits[label]
        if hashlib.sha256(data).hexdigest() != digest:
            raise Bad(f"opening of {label!r} does not match its commitment in entry {seq}")
        if isinstance(value, str) and HEX32.fullmatch(value):
            log[seq].secrets.append(value)


def private_seed(game: str, id_e: bytes, x: str, reveal_f: str) -> bytes:
    data = b"pbem-private/v1" + bytes.fromhex(game) + id_e + bytes.fromhex(x)
    return hashlib.sha256(data + bytes.fromhex(reveal_f)).digest()


def check_rng(lines: list[str], game: str, log: list[Entry], report: Report) -> None:
    """Every printed draw against section 7. A requesting entry's draws are either all
    public or, once opened, all private from one secret x that the entry committed; so
    each (request, producer) group must fit one stream: the public one or an x's."""
    report.self_witnessed = len(report.roles) == 1
    groups: dict[tuple[int, int], list[tuple[int, re.Match[str]]]] = {}
    for number, line in enumerate(lines, 1):
        m = RNG.fullmatch(line)
        req = int(m[1]) if m else None
        try:
            if not m:
                raise Bad(f"malformed rng line {number}: {line!r}")
            prod = int(m[2])
            if not 0 <= req < prod < len(log) or not log[req].reveal:
                raise Bad(f"rng line {number} names entries that cannot request/produce dice")
            e, f = log[req], log[prod]
            if f.by == e.by and not report.self_witnessed:
                raise Bad(f"rng line {number}: produced by seq {prod}, same role as the request")
            others = [i for i in range(req + 1, len(log)) if log[i].by != e.by]
            if not report.self_witnessed and prod != others[0]:
                raise Bad(f"rng line {number}: must be produced at seq {others[0]}, not {prod}")
            if m[6]:
                report.rng_private += 1
                continue
            groups.setdefault((req, prod), []).append((number, m))
        except Bad as err:
            report.failure = Failure(req, None, str(err))
            return
    for (req, prod), group in groups.items():
        e, f = log[req], log[prod]
        seeds = [rng_seed(game, e.id, f.reveal)]
        seeds += [private_seed(game, e.id, x, f.reveal) for x in e.secrets]
        if not any(first_misfit(seed, group) is None for seed in seeds):
            number, purpose, value, got = first_misfit(seeds[0], group) or (0, "", 0, 0)
            reason = f"rng line {number} ({purpose}): printed {value}, recomputed {got}"
            report.failure = Failure(req, None, reason + " (nor does any opened private x fit)")
            return
        report.rng_checked += len(group)


def first_misfit(seed: bytes, group: list[tuple[int, re.Match[str]]]):
    """The first line of a group whose value the stream from `seed` does not give."""
    stream = Stream(seed)
    for number, m in group:
        lo, hi, value = int(m[3]), int(m[4]), int(m[5])
        got = lo + draw_int(stream, hi - lo + 1)
        if got != value:
            return number, m[7], value, got
    return None


def check_save(text: str) -> Report:
    report = Report()
    blocks, rng_lines = scan(text)
    report.entries = len(blocks)
    if not blocks:
        report.failure = Failure(None, None, "no armored entry found")
        return report
    game, log = check_entries(blocks, report)
    if report.ok:
        check_rng(rng_lines, game, log, report)
    return report


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} SAVE_FILE   (or - for standard input)")
    data = sys.stdin.buffer.read() if sys.argv[1] == "-" else Path(sys.argv[1]).read_bytes()
    result = check_save(data.decode("utf-8", errors="replace"))
    print(result)
    sys.exit(0 if result.ok else 1)
