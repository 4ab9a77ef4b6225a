"""One encoding of a signature (protocol section 8; docs/protocol-notes.md, Keys and Duplicates).

OpenSSH does not sign the SSHSIG blob's `reserved` field (it checks the signature over
an empty one, whatever the blob holds), so anyone who sees an entry can rewrap its
signature with another `reserved` and get a second copy of the entry with other bytes,
which `ssh-keygen -Y verify` still accepts. Before pbem refused that encoding, such a
copy put beside the original in a mail thread made `pbem verify` refuse the thread as a
"stale head" naming the honest signer, and a store accepted the rewrapped copy as the
entry itself (and then exported it).

Only the one canonical encoding is accepted now: a rewrapped copy is damage, reported
as damage. Two copies of an entry with the same bytes whose signatures both verify (a
signer whose Ed25519 nonces are random, say) are one entry everywhere.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.client import NOISE
from pbem.core.log import Entry
from pbem.crypto import sshsig
from pbem.crypto.keys import PrivateKey
from pbem.crypto.wire import Reader, string, u32
from pbem.errors import SignatureError
from pbem.ledger import find_equivocation
from pbem.transport.armor import armor
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_path, verify_text
from tests.support.players import Duo, call_refused, entry_count

needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="no ssh-keygen")


# --- the attacker's tools ---------------------------------------------------------------------


def rewrap(signature: bytes, reserved: bytes = b"mallory was here") -> bytes:
    """The same SSHSIG signature with another `reserved` field: no key needed."""
    r = Reader(signature)
    magic = r.raw(6, "magic")
    version = r.u32("version")
    key = r.string("public key")
    namespace = r.string("namespace")
    r.string("reserved")
    hash_alg = r.string("hash algorithm")
    inner = r.string("signature")
    r.end("signature")
    return (
        magic
        + u32(version)
        + string(key)
        + string(namespace)
        + string(reserved)
        + string(hash_alg)
        + string(inner)
    )


# A second, equally valid Ed25519 signature of the same bytes, as a signer whose nonces are
# random (not RFC 8032's deterministic ones) would make: only the key's owner can.
_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_BY = 4 * pow(5, _P - 2, _P) % _P
_BX_SQ = (_BY * _BY - 1) * pow(_D * _BY * _BY + 1, _P - 2, _P) % _P
_BX = pow(_BX_SQ, (_P + 3) // 8, _P)
if (_BX * _BX - _BX_SQ) % _P:
    _BX = _BX * pow(2, (_P - 1) // 4, _P) % _P
if _BX % 2:
    _BX = _P - _BX


def _add(p: tuple[int, int], q: tuple[int, int]) -> tuple[int, int]:
    (x1, y1), (x2, y2) = p, q
    t = _D * x1 * x2 * y1 * y2 % _P
    x = (x1 * y2 + x2 * y1) * pow(1 + t, _P - 2, _P) % _P
    y = (y1 * y2 + x1 * x2) * pow(1 - t, _P - 2, _P) % _P
    return x, y


def _times(n: int, point: tuple[int, int]) -> tuple[int, int]:
    result = (0, 1)
    while n:
        if n & 1:
            result = _add(result, point)
        point = _add(point, point)
        n >>= 1
    return result


def _encode(point: tuple[int, int]) -> bytes:
    x, y = point
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _int(data: bytes) -> int:
    return int.from_bytes(data, "little")


def resign(key: PrivateKey, message: bytes, nonce: int) -> bytes:
    """`key`'s SSHSIG of `message`, canonical in every byte, with Ed25519 nonce `nonce`."""
    digest = hashlib.sha512(key._seed()).digest()
    a = _int(digest[:32]) & ((1 << 254) - 8) | (1 << 254)
    signed = (
        b"SSHSIG"
        + string("pbem-entry")
        + string(b"")
        + string("sha512")
        + string(hashlib.sha512(message).digest())
    )
    r = nonce % _L
    big_r = _encode(_times(r, (_BX, _BY)))
    k = _int(hashlib.sha512(big_r + key.public.raw + signed).digest()) % _L
    raw = big_r + ((r + k * a) % _L).to_bytes(32, "little")
    assert key.public.verify_raw(raw, signed)
    return sshsig.sign(key, message)[:-64] + raw


# --- helpers ----------------------------------------------------------------------------------


def block(entry: Entry) -> str:
    return armor(entry.canonical, entry.signature)


def played(tmp_path: Path) -> tuple[Duo, list[Entry]]:
    duo = Duo(tmp_path)
    duo.finish()
    return duo, list(duo.a.game(duo.game_id).entries)


def honest_entry_of_b(entries: list[Entry]) -> Entry:
    return next(e for e in entries if e.by == "b" and e.seq >= 4)


def cli_verify(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", str(path)])
    return result.exit_code, result.output


# --- the attack on verify ---------------------------------------------------------------------


def test_a_rewrapped_copy_in_a_thread_is_set_aside_not_a_stale_head_of_its_signer(
    tmp_path: Path,
) -> None:
    # Mallory forwards the players' mail thread with one more copy of b's entry, its
    # signature rewrapped. First: "entry N by b refused: stale head", an accusation of
    # the honest b; then the copy's signature was refused as damage, failing the honest
    # game. Now (issue 27, item 9): beside b's copy that verifies, it is an outsider's
    # noise, set aside and said; the game verifies. (Alone, it is refused: below.)
    _duo, entries = played(tmp_path)
    honest = honest_entry_of_b(entries)
    forged = Entry.from_wire(honest.canonical, rewrap(honest.signature))
    assert forged.id == honest.id and forged.signature != honest.signature
    thread = move_file(entries)
    assert verify_text(thread).ok
    attacked = thread.replace(block(honest), block(honest) + "\n" + block(forged))
    report = verify_text(attacked)
    assert report.ok, report.failure
    assert report.set_aside == {honest.seq: 1}
    noise = f"set aside: 1 damaged copy of entry {honest.seq} (an outsider's noise;"
    assert any(line.startswith(noise) for line in report.lines)
    path = tmp_path / "thread.txt"
    path.write_text(attacked)
    code, output = cli_verify(path)
    assert code == 0 and "stale head" not in output and noise in output


def test_a_rewrapped_signature_alone_is_refused_as_a_second_encoding(tmp_path: Path) -> None:
    # The rewrapped copy in place of the original, in a move file and in a save (read
    # strictly and streamed): refused, naming the entry and the reserved field.
    duo, entries = played(tmp_path)
    honest = honest_entry_of_b(entries)
    forged = Entry.from_wire(honest.canonical, rewrap(honest.signature))
    for text in (move_file(entries), duo.save()):
        attacked = text.replace(block(honest), block(forged))
        assert attacked != text
        report = verify_text(attacked)
        assert not report.ok and report.failure is not None
        assert f"entry {honest.seq} by b" in report.failure and "reserved" in report.failure
        path = tmp_path / "attacked.pbem"
        path.write_text(attacked)
        assert verify_path(path).failure == report.failure
        code, output = cli_verify(path)
        assert code != 0 and "reserved" in output
    with pytest.raises(SignatureError, match="reserved"):
        sshsig.verify(duo.key("b").public, honest.canonical, forged.signature)


@needs_ssh_keygen
def test_openssh_accepts_the_rewrapped_signature_which_is_why_pbem_must_refuse_it(
    tmp_path: Path,
) -> None:
    # Not an attack on pbem: the reason for the rule. ssh-keygen -Y verify ignores the
    # reserved field, so it cannot tell the two encodings apart.
    _duo, entries = played(tmp_path)
    honest = honest_entry_of_b(entries)
    allowed = tmp_path / "allowed_signers"
    allowed.write_text(f"b {entries[0].body['roles']['b']}\n")  # type: ignore[index]
    for name, blob in (("honest", honest.signature), ("rewrapped", rewrap(honest.signature))):
        sig = tmp_path / f"{name}.sig"
        sig.write_text(sshsig.to_armored(blob))
        done = subprocess.run(
            ["ssh-keygen", "-Y", "verify", "-f", str(allowed), "-I", "b", "-n", "pbem-entry"]
            + ["-s", str(sig)],
            input=honest.canonical,
            capture_output=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr


def test_two_valid_signatures_of_one_entry_are_one_entry(tmp_path: Path) -> None:
    # b's own second signature of the same bytes (another nonce) beside the first, in a
    # thread: one entry, the thread verifies, no equivocation and no stale head.
    duo, entries = played(tmp_path)
    honest = honest_entry_of_b(entries)
    again = Entry.from_wire(honest.canonical, resign(duo.key("b"), honest.canonical, 12345))
    assert again.signature != honest.signature
    sshsig.verify(duo.key("b").public, honest.canonical, again.signature)
    thread = move_file(entries)
    for attacked in (
        thread.replace(block(honest), block(honest) + "\n" + block(again)),
        thread.replace(block(honest), block(again) + "\n" + block(honest)),
    ):
        report = verify_text(attacked)
        assert report.ok, report.failure
        assert report.lines == verify_text(thread).lines
    assert find_equivocation(entries[0], [honest, again]) is None
    # A store that holds the entry takes the other copy as the same entry.
    results = duo.b.apply_entries(parse_entries(move_file([again])))
    assert [r.status for r in results] == ["already had"]
    # A damaged copy beside the valid one is an outsider's noise (issue 27, item 9): set
    # aside and said, never one entry with it; in place of the valid one, damage.
    flipped = again.signature[:-1] + bytes([again.signature[-1] ^ 1])
    damaged = Entry.from_wire(honest.canonical, flipped)
    report = verify_text(thread.replace(block(honest), block(honest) + "\n" + block(damaged)))
    assert report.ok and report.set_aside == {honest.seq: 1}
    report = verify_text(thread.replace(block(honest), block(damaged)))
    assert not report.ok and report.failure is not None
    assert "stale head" not in report.failure and "signature" in report.failure


# --- the attack on a store --------------------------------------------------------------------


def test_a_store_refuses_a_rewrapped_entry_and_keeps_the_honest_one(tmp_path: Path) -> None:
    # b's move is rewrapped in transit to a. Before: a's store took (and would later
    # export) the second encoding. Now: refused, nothing stored; the real one applies.
    duo = Duo(tmp_path)
    duo.step()  # a rolls
    game = duo.b.game(duo.game_id)
    role = game.prompts()[0].role
    assert role == "b"
    honest = duo.b.ack(duo.game_id, "b")
    forged = Entry.from_wire(honest.canonical, rewrap(honest.signature))
    before = entry_count(duo.a.store, duo.game_id)
    call_refused(
        duo.a.store,
        lambda: duo.a.apply_entries(parse_entries(move_file([forged]))),
        f"entry {honest.seq} by b",
        "reserved",
    )
    # Beside the honest copy, the rewrapped one is an outsider's noise: set aside, never
    # stored (protocol section 8; pbem/noise.py), and the honest one applies.
    results = duo.a.apply_entries(parse_entries(move_file([forged, honest])))
    assert [r.status for r in results] == [NOISE, "applied"]
    assert entry_count(duo.a.store, duo.game_id) == before + 1
    stored = duo.a.game(duo.game_id).entries[honest.seq]
    assert stored.signature == honest.signature
    assert verify_text(duo.save()).ok
