"""Tests for the independent section 7 reader.

The saves here are built from scratch with this file's own signing, chain and dice code
(standard library + cryptography only), so neither the reader nor the builder borrows from
`pbem` or from each other.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import importlib.util
import io
import json
import shutil
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

HERE = Path(__file__).parent
READER_PATH = HERE / "section7_reader.py"
DEMO_SAVE = Path(__file__).parents[2] / "saves" / "barbarossa-demo.pbem"

_spec = importlib.util.spec_from_file_location("section7_reader", READER_PATH)
reader = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = reader
_spec.loader.exec_module(reader)

CHAIN_LENGTH = 4096


# --- the test's own implementation of section 7 (written differently from the reader) ---


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def sstr(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def canon(obj: object) -> bytes:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def manual_hmac_sha256(key: bytes, msg: bytes) -> bytes:
    """RFC 2104 by hand (the reader uses hmac.new), to cross-check the generator."""
    key = key.ljust(64, b"\0")
    inner = sha(bytes(b ^ 0x36 for b in key) + msg)
    return sha(bytes(b ^ 0x5C for b in key) + inner)


def words(seed: bytes):
    """The stream as successive big-endian u64 words."""
    k = 0
    while True:
        block = manual_hmac_sha256(seed, struct.pack(">Q", k))
        k += 1
        for i in range(0, 32, 8):
            yield int.from_bytes(block[i : i + 8], "big")


def uniform(word_iter, lo: int, hi: int) -> int:
    n = hi - lo + 1
    bound = (1 << 64) // n * n  # the largest multiple of n not above 2^64
    for x in word_iter:
        if x < bound:
            return lo + x % n
    raise AssertionError("stream ended")


def pub_blob(key: Ed25519PrivateKey) -> bytes:
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return sstr(b"ssh-ed25519") + sstr(raw)


def openssh_line(key: Ed25519PrivateKey, comment: str) -> str:
    line = key.public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    )
    return f"{line.decode()} {comment}"


def expected_fingerprint(key: Ed25519PrivateKey) -> str:
    return "SHA256:" + base64.b64encode(sha(pub_blob(key))).decode().replace("=", "")


def sshsig(key: Ed25519PrivateKey, message: bytes, namespace: bytes = b"pbem-entry") -> bytes:
    head = sstr(namespace) + sstr(b"") + sstr(b"sha512")
    signature = key.sign(b"SSHSIG" + head + sstr(hashlib.sha512(message).digest()))
    return (
        b"SSHSIG"
        + (1).to_bytes(4, "big")
        + sstr(pub_blob(key))
        + head
        + sstr(sstr(b"ssh-ed25519") + sstr(signature))
    )


def armor(c: bytes, s: bytes) -> list[str]:
    payload = base64.b32encode(sstr(c) + sstr(s)).decode().rstrip("=")
    body = [payload[i : i + 64] for i in range(0, len(payload), 64)]
    return ["-----BEGIN PBEM ENTRY-----", *body, "-----END PBEM ENTRY-----"]


def make_key(name: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(sha(b"test key " + name.encode()))


@dataclass
class Built:
    obj: dict
    c: bytes
    s: bytes


class SaveBuilder:
    """Builds a save entry by entry; `overrides[seq]` tampers with one entry as it is made."""

    def __init__(self, roles=("german", "referee"), overrides=None, options=None):
        self.roles = roles
        self.keys = {r: make_key(r) for r in (*roles, "intruder")}
        self.overrides = overrides or {}
        self.options = options or {}
        self.chains: dict[str, list[bytes]] = {}
        self.used: dict[str, int] = {}
        self.entries: list[Built] = []
        self.rng_lines: list[str] = []
        self.dice: dict[tuple[int, int], object] = {}
        self.game = ""

    def genesis(self) -> int:
        body = {
            "rules": "barbarossa-test",
            "rules_version": "1",
            "data": {"map.toml": sha(b"map").hex()},
            "options": self.options,
            "roles": {r: openssh_line(self.keys[r], f"{r}@example") for r in self.roles},
        }
        return self.add("genesis", self.roles[0], body)

    def add(self, kind: str, by: str, body: dict | None = None) -> int:
        seq = len(self.entries)
        tamper = self.overrides.get(seq, {})
        entry = {"v": 1, "kind": kind, "seq": seq, "by": by, "body": body or {}}
        if seq:
            entry["game"] = self.game
            entry["prev"] = sha(self.entries[-1].c).hex()
        if kind == "join":
            chain = [sha(b"secret " + by.encode())]  # s_N, then hash down to s_0
            for _ in range(CHAIN_LENGTH):
                chain.append(sha(b"pbem-chain/v1" + chain[-1]))
            self.chains[by], self.used[by] = chain[::-1], 0
            entry["body"] = {"anchor": self.chains[by][0].hex(), "length": CHAIN_LENGTH}
        elif seq:
            self.used[by] += 1
            entry["reveal"] = tamper.get("reveal", self.chains[by][self.used[by]].hex())
        c = tamper.get("encode", canon)(entry)
        s = sshsig(self.keys[tamper.get("signer", by)], c)
        if "after_signing" in tamper:
            c = canon(tamper["after_signing"](entry))
        if seq == 0:
            self.game = sha(c).hex()
        self.entries.append(Built(entry, c, s))
        return seq

    def roll(self, req: int, prod: int, lo: int, hi: int, purpose: str) -> int:
        if (req, prod) not in self.dice:
            reveal = bytes.fromhex(self.entries[prod].obj["reveal"])
            seed = sha(
                b"pbem-rng/v1" + bytes.fromhex(self.game) + sha(self.entries[req].c) + reveal
            )
            self.dice[(req, prod)] = words(seed)
        value = uniform(self.dice[(req, prod)], lo, hi)
        self.rng_lines.append(f"rng {req} {prod} {lo}..{hi} {value} {purpose}")
        return value

    def private(self, req: int, prod: int, purpose: str) -> None:
        self.rng_lines.append(f"rng {req} {prod} private {purpose}")

    def blocks(self) -> list[list[str]]:
        return [
            [f"game {self.game[:8]}… seq {e.obj['seq']} by {e.obj['by']}: {e.obj['kind']}"]
            + armor(e.c, e.s)
            for e in self.entries
        ]

    def text(self, blocks: list[list[str]] | None = None) -> str:
        lines = ["PBEM SAVE: Barbarossa (test game)", f"roles: {', '.join(self.roles)}", ""]
        for block in blocks if blocks is not None else self.blocks():
            lines += [*block, ""]
        return "\n".join([*lines, "RNG LOG", *self.rng_lines, ""])


def demo(overrides=None, options=None) -> SaveBuilder:
    b = SaveBuilder(overrides=overrides, options=options)
    b.genesis()  # 0
    b.add("join", "german")  # 1
    b.add("join", "referee")  # 2
    b.add("move", "german", {"orders": ["attack 12 from 11"]})  # 3
    b.add("ack", "referee")  # 4
    b.roll(3, 4, 1, 6, "attack 12: german die 1")
    b.roll(3, 4, 1, 6, "attack 12: german die 2")
    b.add("move", "german", {"orders": ["attack 14 from 13"], "note": "Wintergewitter ü"})  # 5
    b.add("ack", "referee")  # 6
    b.roll(5, 6, 1, 6, "attack 14: german die 1")
    b.private(5, 6, "card into german hand")
    b.roll(5, 6, 1, 6, "attack 14: soviet die 1")
    b.add("move", "german", {"orders": ["weather"]})  # 7
    b.add("ack", "referee")  # 8
    b.roll(7, 8, 0, 99, "weather table")
    b.roll(7, 8, 1, 3, "mud turns")
    b.roll(7, 8, -2, 2, "supply drift")
    b.add("move", "german", {"orders": []})  # 9
    return b


# --- a valid save passes, also after mail has mangled it ---


def test_valid_save_passes():
    b = demo()
    report = reader.check_save(b.text())
    assert report.ok, report
    assert report.entries == 10
    assert report.rng_checked == 7 and report.rng_private == 1
    assert not report.self_witnessed
    assert report.roles == {r: expected_fingerprint(b.keys[r]) for r in ("german", "referee")}
    assert "VALID" in str(report) and "first failure" not in str(report)


def test_save_survives_quoting_crlf_case_and_trailing_spaces():
    text = demo().text()
    mangled = "\r\n".join("> > " + line.lower() + "   " for line in text.splitlines())
    report = reader.check_save(mangled)
    assert report.ok, report
    assert report.rng_checked == 7


# --- tampering is reported at the right entry ---


def flip_payload_char(block: list[str]) -> list[str]:
    line = block[3]  # human line, BEGIN, then payload lines
    i = 20
    block[3] = line[:i] + ("A" if line[i] != "A" else "B") + line[i + 1 :]
    return block


def test_flipped_payload_character():
    b = demo()
    blocks = b.blocks()
    blocks[5] = flip_payload_char(blocks[5])
    report = reader.check_save(b.text(blocks))
    assert not report.ok
    assert report.failure.seq == 5


@pytest.mark.parametrize("line_index, seq", [(0, 3), (2, 5), (5, 7)])
def test_changed_rng_value(line_index, seq):
    b = demo()
    words_ = b.rng_lines[line_index].split(" ")
    lo, hi = map(int, words_[3].split(".."))
    words_[4] = str(lo + (int(words_[4]) - lo + 1) % (hi - lo + 1))
    b.rng_lines[line_index] = " ".join(words_)
    report = reader.check_save(b.text())
    assert not report.ok
    assert report.failure.seq == seq
    assert "recomputed" in report.failure.reason


def test_reordered_entries():
    b = demo()
    blocks = b.blocks()
    blocks[5], blocks[6] = blocks[6], blocks[5]
    report = reader.check_save(b.text(blocks))
    assert report.failure.seq == 5
    assert "claims seq 6" in report.failure.reason


def test_dropped_entry():
    b = demo()
    blocks = b.blocks()
    del blocks[4]
    report = reader.check_save(b.text(blocks))
    assert report.failure.seq == 4


def test_entry_from_another_game():
    b, other = demo(), demo(options={"variant": "other"})
    blocks = b.blocks()
    blocks[5] = other.blocks()[5]
    report = reader.check_save(b.text(blocks))
    assert report.failure.seq == 5
    assert "game" in report.failure.reason


@pytest.mark.parametrize(
    "reveal",
    [sha(b"junk").hex(), "skip"],  # an unrelated value; a real chain value, but one too far
)
def test_changed_reveal_signed_by_its_author(reveal):
    if reveal == "skip":
        reveal = demo().chains["german"][3].hex()  # entry 5 must reveal s_2
    report = reader.check_save(demo({5: {"reveal": reveal}}).text())
    assert report.failure.seq == 5 and report.failure.role == "german"
    assert "reveal" in report.failure.reason


def test_changed_reveal_after_signing():
    def swap(entry):
        return {**entry, "reveal": sha(b"junk").hex()}

    report = reader.check_save(demo({5: {"after_signing": swap}}).text())
    assert report.failure.seq == 5
    assert "signature" in report.failure.reason


@pytest.mark.parametrize("signer, named", [("referee", "referee's key"), ("intruder", "foreign")])
def test_wrong_signer(signer, named):
    report = reader.check_save(demo({5: {"signer": signer}}).text())
    assert report.failure.seq == 5 and report.failure.role == "german"
    assert named in report.failure.reason


def test_non_canonical_json_and_floats_refused():
    spaced = demo({6: {"encode": lambda obj: json.dumps(obj, sort_keys=True).encode()}})
    report = reader.check_save(spaced.text())
    assert report.failure.seq == 6 and "canonical" in report.failure.reason

    b = demo()
    b.entries = b.entries[:3]
    b.rng_lines = []
    b.add("move", "german", {"strength": 1.5})
    report = reader.check_save(b.text())
    assert report.failure.seq == 3 and "non-integer" in report.failure.reason


def test_play_before_every_role_joined():
    b = SaveBuilder()
    b.genesis()
    b.add("join", "german")
    b.add("move", "german")
    report = reader.check_save(b.text())
    assert report.failure.seq == 2 and "joined" in report.failure.reason


@pytest.mark.parametrize("req, prod", [(3, 5), (3, 6)])
def test_dice_must_come_from_the_next_entry_of_another_role(req, prod):
    b = demo()
    b.rng_lines = []
    b.roll(req, prod, 1, 6, "attack 12: german die 1")  # values are right, the witness is not
    report = reader.check_save(b.text())
    assert report.failure.seq == req


def test_single_role_game_is_self_witnessed():
    b = SaveBuilder(roles=("german",))
    b.genesis()
    b.add("join", "german")
    b.add("move", "german")
    b.add("move", "german")
    b.roll(2, 3, 1, 6, "attack 1: german die 1")
    report = reader.check_save(b.text())
    assert report.ok, report
    assert report.self_witnessed and report.rng_checked == 1
    assert "SELF-WITNESSED" in str(report)


def test_no_armor_at_all():
    report = reader.check_save("just a mail\nrng 1 2 1..6 3 nothing\n")
    assert not report.ok and report.entries == 0


# --- the sample game shipped with the project ---


def test_demo_save_passes():
    report = reader.check_save(DEMO_SAVE.read_text(encoding="utf-8"))
    assert report.ok, str(report)
    assert report.rng_checked >= 1
    assert not report.self_witnessed


# --- known answers: any change to the derivation or the sampling is caught ---

KAT_SEED = "b6efff8ca370ec5f68575e8904b6b1efcf33e831a330729515250c7239c860f3"
KAT_FIRST_U64 = 0x777DE59F2F9C0044
KAT_D6 = [1, 1, 2, 2, 3, 5, 2, 5, 6, 6, 6, 4]
KAT_D6_COUNTING_SEED = [6, 5, 6, 2, 4, 1, 4, 5, 5, 5, 4, 4]  # seed = bytes 0..31


def test_known_answer_seed_and_d6():
    game, id_e, reveal_f = "11" * 32, b"\x22" * 32, "33" * 32
    seed = reader.rng_seed(game, id_e, reveal_f)
    assert seed.hex() == KAT_SEED
    assert sha(b"pbem-rng/v1" + b"\x11" * 32 + b"\x22" * 32 + b"\x33" * 32).hex() == KAT_SEED

    stream = reader.Stream(seed)
    assert [1 + reader.draw_int(stream, 6) for _ in range(12)] == KAT_D6
    independent = words(seed)
    assert next(words(seed)) == KAT_FIRST_U64
    assert [uniform(independent, 1, 6) for _ in range(12)] == KAT_D6

    counting = bytes(range(32))
    stream = reader.Stream(counting)
    assert [1 + reader.draw_int(stream, 6) for _ in range(12)] == KAT_D6_COUNTING_SEED
    independent = words(counting)
    assert [uniform(independent, 1, 6) for _ in range(12)] == KAT_D6_COUNTING_SEED


def u64s(*values: int) -> io.BytesIO:
    return io.BytesIO(b"".join(v.to_bytes(8, "big") for v in values))


def test_rejection_sampling_boundary():
    top = 2**64 - 1
    # n = 3: 2^64 mod 3 = 1, so only x = 2^64 - 1 is rejected and the next word is read.
    assert reader.draw_int(u64s(top, 4), 3) == 1
    assert reader.draw_int(u64s(top - 1), 3) == (top - 1) % 3 == 2
    with pytest.raises(reader.Bad):  # a bare `% n` would have returned 0 here
        reader.draw_int(io.BytesIO(b"\xff" * 8), 3)
    # n = 6: 2^64 mod 6 = 4, so 2^64 - 4 ... 2^64 - 1 are rejected, 2^64 - 5 is accepted.
    assert reader.draw_int(u64s(top - 3, top - 4), 6) == 5
    assert reader.draw_int(u64s(top, top - 1, top - 2, top - 3, 7), 6) == 1
    # n = 4 divides 2^64: nothing is rejected.
    assert reader.draw_int(u64s(top), 4) == 3
    # the test's own sampler agrees on the same boundary words
    assert uniform(iter([top - 3, top - 4]), 1, 6) == 6
    assert uniform(iter([top, 4]), 0, 2) == 1


# --- interoperability with OpenSSH itself, and the script as a program ---


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen not installed")
def test_signatures_match_openssh(tmp_path):
    b = demo()
    key = b.keys["german"]
    key_file = tmp_path / "id_ed25519"
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.OpenSSH,
            serialization.NoEncryption(),
        )
    )
    key_file.chmod(0o600)
    entry_file = tmp_path / "entry.json"
    entry_file.write_bytes(b.entries[5].c)
    subprocess.run(
        [
            "ssh-keygen",
            "-Y",
            "sign",
            "-q",
            "-f",
            str(key_file),
            "-n",
            "pbem-entry",
            str(entry_file),
        ],
        check=True,
        capture_output=True,
    )
    armored = (tmp_path / "entry.json.sig").read_text().splitlines()
    openssh_sig = base64.b64decode("".join(armored[1:-1]))
    assert openssh_sig == b.entries[5].s  # Ed25519 is deterministic: byte-for-byte the same

    allowed = tmp_path / "allowed_signers"
    allowed.write_text(f"german {openssh_line(key, 'german')}\n")
    subprocess.run(
        ["ssh-keygen", "-Y", "verify", "-f", str(allowed), "-I", "german", "-n", "pbem-entry"]
        + ["-s", str(tmp_path / "entry.json.sig")],
        input=b.entries[5].c,
        check=True,
        capture_output=True,
    )
    pub_file = tmp_path / "german.pub"
    pub_file.write_text(openssh_line(key, "german") + "\n")
    listing = subprocess.run(
        ["ssh-keygen", "-l", "-f", str(pub_file)], check=True, capture_output=True, text=True
    ).stdout
    assert listing.split()[1] == reader.check_save(b.text()).roles["german"]


def test_command_line(tmp_path):
    good, bad = tmp_path / "good.pbem", tmp_path / "bad.pbem"
    good.write_text(demo().text(), encoding="utf-8")
    bad.write_text(demo({5: {"signer": "referee"}}).text(), encoding="utf-8")
    ok = subprocess.run([sys.executable, str(READER_PATH), str(good)], capture_output=True)
    assert ok.returncode == 0 and b"VALID" in ok.stdout
    ko = subprocess.run([sys.executable, str(READER_PATH), str(bad)], capture_output=True)
    assert ko.returncode == 1 and b"first failure: seq 5 by german" in ko.stdout


def test_reader_imports_nothing_but_stdlib_and_cryptography():
    tree = ast.parse(READER_PATH.read_text(encoding="utf-8"))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules.add((node.module or "").split(".")[0])
    assert modules - set(sys.stdlib_module_names) == {"cryptography"}
