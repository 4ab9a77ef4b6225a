"""Evidence files (issue 17, docs/evidence.md): one cheat, proven to anyone, in one text file.

`pbem evidence` looks through a game's log for a cheat that signed entries prove by
themselves, and writes the few entries that prove it:

* an equivocation: two different entries one role signed for one `seq` after one same
  entry (`prev`; protocol section 1): the genesis (it fixes the game id and the role's
  key) and the two entries. Two entries that follow different earlier entries are two
  branches of the log, not a proof against their signer (an honest store restored from
  a backup answers both): the proof is where the branches part (pbem.ledger.find_fork);
* a false hidden claim: a claim bound to a commitment whose opening contradicts it
  (section 5): the log from the genesis up to the entry the rules refuse because of it;
* a refused forfeit: a `forfeit` entry the rules refuse (pbem.core.referee): the genesis
  and the forfeit when it contradicts itself or its genesis (seen before its deadline, a
  deadline that is not `since` plus the genesis's hours, signed by another role than the
  referee, ...), else the log up to it;
* a lie a double-blind game's own entries prove (pbem.core.blind, claim `false-claim`): a
  void whose key opens a false escrow, a referee's disclose that shows a player's claim
  (or its own deal) false, an unseal whose key opens a false deal, or answers a void or
  a dispute the key shows false: the log from the genesis up to that entry, which the
  rules accept, and whose end names the liar. An end on someone's word (a void of an
  escrow that does not open, a deal a player says does not open) and a game whose
  referee has not disclosed prove nothing, and `pbem evidence` says so.

`judge` re-checks such a bundle from its signed entries alone: it decides the claim and
the accused from them, never from the file's human lines, and `pbem verify` calls it for
a file whose first line is MAGIC. A signature that does not verify proves nothing against
anyone (anyone can write bad bytes in someone's name), so it is never evidence.

Imports stay inside the functions: `pbem.cli` asks `is_evidence_file` on its fast path.
"""

from __future__ import annotations

import re

from pbem.errors import PbemError
from pbem.lazy import lazy_pattern

# (mypy reads the block below; Python never runs it: see pbem.cli)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from pbem.core.adjudicator import Adjudicator
    from pbem.core.log import Entry

MAGIC = "PBEM EVIDENCE v1"
EQUIVOCATION, FALSE_CLAIM, FORFEIT = "equivocation", "false-claim", "forfeit"
CLAIMS = (EQUIVOCATION, FALSE_CLAIM, FORFEIT)
# How the rules name a false claim (pbem.kit.pieces.false_claim and the games' own).
_FALSE_CLAIM = lazy_pattern(r"false claim in entry (\d+) by ([^\s:]+)")
_ROLE = lazy_pattern(r"[A-Za-z0-9_.-]{1,64}")  # a role usable as an allowed_signers identity
_NOT_EVIDENCE = "a broken signature is not evidence against anyone (anyone can write one)"


class NotProven(PbemError):
    """A bundle (or a log) that proves no cheat; the message says why, in one line."""


class Proof:
    """A cheat the signed entries prove: the claim, the accused role and key, the reason,
    the bundle's entries (genesis first) and, among them, those the accused signed."""

    def __init__(
        self,
        claim: str,
        role: str,
        fingerprint: str,
        game: str,
        reason: str,
        entries: Sequence[Entry],
        accused: Sequence[Entry],
    ) -> None:
        self.claim, self.role, self.fingerprint = claim, role, fingerprint
        self.game, self.reason = game, reason
        self.entries, self.accused = list(entries), list(accused)

    def line(self) -> str:
        """What `pbem verify` prints for a proven bundle."""
        return (
            f"PROVEN: {self.claim} by {self.role} ({self.fingerprint}) in game "
            f"{self.game[:12]}: {self.reason}"
        )

    def document(self) -> dict[str, object]:
        """The `evidence` record of `pbem verify --json` (docs/evidence.md)."""
        return {
            "proven": True,
            "claim": self.claim,
            "role": self.role,
            "fingerprint": self.fingerprint,
            "game": self.game,
            "short": self.game[:12],
            "reason": self.reason,
            "entries": [{"seq": e.seq, "by": e.by, "id": e.id} for e in self.entries],
            "accused_entries": [e.id for e in self.accused],
            "why_not": None,
        }


def not_proven_document(why: str) -> dict[str, object]:
    """The `evidence` record of a bundle that proves nothing (the keys of Proof.document)."""
    keys = ("claim", "role", "fingerprint", "game", "short", "reason")
    found: dict[str, object] = {"proven": False, **dict.fromkeys(keys)}
    return {**found, "entries": [], "accused_entries": [], "why_not": why}


# --- recognising and reading a file ------------------------------------------------------------


def is_evidence(data: bytes | str) -> bool:
    """Whether a text is an evidence file: its first line is MAGIC (a BOM, CR or trailing
    spaces allowed)."""
    if isinstance(data, bytes):
        data = data[:128].decode("utf-8", errors="replace")
    first = data.lstrip("\ufeff").split("\n", 1)[0]
    return first.rstrip() == MAGIC


def is_evidence_file(path: str) -> bool:
    """Whether the file at `path` is an evidence file (False when it cannot be read)."""
    try:
        with open(path, "rb") as stream:
            return is_evidence(stream.read(128))
    except OSError:
        return False


def read(data: bytes | str) -> list[Entry]:
    """The signed entries of an evidence file, from its armor only (protocol section 7)."""
    from pbem.core.log import Entry
    from pbem.transport.armor import find_entries

    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    if not is_evidence(text):
        raise NotProven(f"not an evidence file: its first line is not {MAGIC!r}")
    try:
        found = find_entries(text)
        return [Entry.from_wire(canonical, signature) for canonical, signature in found]
    except PbemError as exc:
        raise NotProven(f"the file is damaged: {_first_line(exc)}") from None


# --- judging a bundle ------------------------------------------------------------------------


def check(data: bytes | str, extra_data: Mapping[str, bytes] | None = None) -> Proof:
    """`pbem verify` of an evidence file: the Proof its entries give, else NotProven. The
    file's ssh-keygen material, if any, must be what its entries give (docs/evidence.md)."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    proof = judge(read(text), extra_data)
    material = _material(text)
    # (A file without any material is judged by its entries alone; a file with some must
    # show exactly the bytes judged, for whoever checks that part with ssh-keygen.)
    if material != ([], []) and material != _material(render(proof)):
        raise NotProven(
            "its ssh-keygen material (allowed_signers, entry-*.json or signature lines) "
            "is not what its signed entries give: the file was edited"
        )
    return proof


def judge(entries: Sequence[Entry], extra_data: Mapping[str, bytes] | None = None) -> Proof:
    """The cheat a bundle of signed entries proves, decided from them alone, else
    NotProven. The bundle's shape says which claim it makes: two entries with one seq (an
    equivocation), a genesis and one forfeit, or the log from its genesis up to an entry
    the rules refuse (a false claim, a refused forfeit)."""
    from pbem.core.log import GENESIS
    from pbem.core.referee import FORFEIT as FORFEIT_KIND

    unique: dict[str, Entry] = {}
    for entry in entries:
        unique.setdefault(entry.id, entry)  # an entry is its canonical bytes (section 8)
    geneses = [e for e in unique.values() if e.kind == GENESIS]
    if len(geneses) != 1:
        raise NotProven(f"an evidence file holds one genesis entry, this one {len(geneses)}")
    genesis = geneses[0]
    # Sorted by seq, then id: the names of the entries (`names`) never depend on the
    # order of the file's blocks.
    rest = sorted((e for e in unique.values() if e is not genesis), key=lambda e: (e.seq, e.id))
    for entry in rest:
        if entry.game != genesis.id:
            raise NotProven(
                f"{entry.describe()} belongs to game {str(entry.game)[:12]}, not to the "
                f"genesis's game {genesis.id[:12]}"
            )
    roles = _roles(genesis)
    _signed(genesis, roles)
    if not rest:
        raise NotProven("the file holds a genesis alone, which proves nothing")
    seqs = [e.seq for e in rest]
    if len(set(seqs)) != len(seqs):
        if len(rest) != 2:
            raise NotProven(
                "an equivocation is proven by the genesis and two entries with one seq; "
                f"this file holds {len(rest)} entries beside its genesis"
            )
        return _equivocation(genesis, roles, rest[0], rest[1])
    if len(rest) == 1 and rest[0].kind == FORFEIT_KIND:
        reason = forfeit_contradiction(genesis, rest[0])
        if reason is not None:
            forfeit = rest[0]
            return _proof(FORFEIT, forfeit.by, genesis, roles, reason, [forfeit], [forfeit])
        if rest[0].seq != 1:
            raise NotProven(
                f"{rest[0].describe()} contradicts neither itself nor its genesis: whether "
                "the rules refuse it needs the log from the genesis up to it"
            )
    if seqs != list(range(1, len(rest) + 1)):
        missing = next(n for n in range(1, len(rest) + 2) if n not in seqs)
        raise NotProven(
            f"the entries are not the log from its genesis up to the accused entry: "
            f"seq {missing} is missing"
        )
    return _prefix(genesis, roles, rest, extra_data)


def _roles(genesis: Entry) -> dict[str, str]:
    found = genesis.body.get("roles")
    if not isinstance(found, dict):
        raise NotProven("the genesis names no roles")
    return {str(role): line for role, line in found.items() if isinstance(line, str)}


def _signed(entry: Entry, roles: Mapping[str, str]) -> str:
    """The fingerprint of the key that validly signed `entry` for its role, else NotProven."""
    from pbem.ledger import check_signature, fingerprint

    line = roles.get(entry.by)
    if line is None:
        raise NotProven(f"{entry.describe()}: {entry.by} is not a role of the game")
    try:
        check_signature(line, entry.canonical, entry.signature)
        return fingerprint(line)
    except PbemError:
        raise NotProven(
            f"{entry.describe()}: its signature does not verify with the key the genesis "
            f"names for {entry.by}, and {_NOT_EVIDENCE}"
        ) from None


def _proof(
    claim: str,
    role: str,
    genesis: Entry,
    roles: Mapping[str, str],
    reason: str,
    rest: Sequence[Entry],
    accused: Sequence[Entry],
) -> Proof:
    from pbem.core.log import escape_text
    from pbem.ledger import fingerprint

    entries = [genesis, *rest]
    return Proof(
        claim, role, fingerprint(roles[role]), genesis.id, escape_text(reason), entries, accused
    )


def _equivocation(genesis: Entry, roles: Mapping[str, str], first: Entry, second: Entry) -> Proof:
    if first.by != second.by:
        roles_of = (first.by, second.by)
        raise NotProven(
            f"the two entries at seq {first.seq} are by {' and '.join(sorted(roles_of))}: entries "
            "of two roles that crossed are no equivocation"
        )
    _signed(first, roles)
    _signed(second, roles)
    if first.prev != second.prev:
        # Each answers a different earlier entry: an honest store restored from a backup
        # does that when the other side re-sends a different entry (issue 27, item 6).
        raise NotProven(
            f"entries {first.seq} follow different entries {first.seq - 1} "
            f"({str(first.prev)[:12]} and {str(second.prev)[:12]}): {first.by} signed one on "
            f"each of two branches of the log, which proves no cheat by {first.by} on its "
            "own; the proof is where the branches part (two entries with one seq and one "
            "prev)"
        )
    reason = (
        f"{first.by} signed two different entries for seq {first.seq} "
        f"(ids {first.id[:12]} and {second.id[:12]})"
    )
    return _proof(EQUIVOCATION, first.by, genesis, roles, reason, [first, second], [first, second])


def forfeit_contradiction(genesis: Entry, forfeit: Entry) -> str | None:
    """Why a validly signed forfeit contradicts itself or its genesis, so that no log can
    hold it (pbem.core.referee's rules that need nothing else), or None. NotProven when
    its signature does not verify: that is no evidence."""
    from datetime import timedelta

    from pbem.core import referee as league

    roles = _roles(genesis)
    _signed(forfeit, roles)
    if forfeit.by != league.REFEREE:
        return f"a forfeit signed by {forfeit.by}, not by the referee: only the referee signs one"
    options = genesis.body.get("options")
    try:
        hours = league.deadline_hours(options if isinstance(options, dict) else {}, roles)
    except PbemError:
        return None  # a genesis no game can start from: nothing is proven by it
    if hours is None:
        return (
            f"a forfeit in a game whose genesis sets no deadline ({league.DEADLINE}): "
            "nobody can forfeit it"
        )
    body = forfeit.body
    unknown = set(body) - league.FORFEIT_FIELDS
    if unknown:
        return f"a forfeit carries no {', '.join(sorted(unknown))}"
    role = body.get("forfeit")
    if not isinstance(role, str) or role not in roles or role == league.REFEREE:
        return "the forfeit names no player of the game"
    waited = body.get("waited_on")
    if not isinstance(waited, dict) or waited != {"seq": forfeit.seq - 1, "id": forfeit.prev}:
        return (
            f"the forfeit does not name the entry it follows (seq {forfeit.seq - 1}, "
            f"id {str(forfeit.prev)[:12]}) as the one it waited on"
        )
    try:
        since = league.parse_time(body.get("since"), "since")
        deadline = league.parse_time(body.get("deadline"), "deadline")
        seen = league.parse_time(body.get("seen"), "seen")
    except PbemError as exc:
        return str(exc)
    if deadline != since + timedelta(hours=hours):
        return f"forfeit deadline {body['deadline']} is not {hours} h after {body['since']}"
    if seen < deadline:
        seen_at, due = body["seen"], body["deadline"]
        return f"forfeit issued before its deadline: seen {seen_at}, deadline {due}"
    return None


def _start(genesis: Entry, extra_data: Mapping[str, bytes] | None) -> Adjudicator:
    from pbem.core.adjudicator import Adjudicator, data_digest
    from pbem.ledger import DISK_TABLES, check_signature, data_source, engine_by_name

    extra = {data_digest(c): c for c in (extra_data or {}).values()}
    try:
        return Adjudicator.start(
            genesis, engine_by_name, data_source(extra), check_signature, tables=DISK_TABLES
        )
    except PbemError as exc:
        raise NotProven(f"the genesis is refused: {_first_line(exc)}") from None


def _prefix(
    genesis: Entry,
    roles: Mapping[str, str],
    rest: Sequence[Entry],
    extra_data: Mapping[str, bytes] | None,
) -> Proof:
    """The log from its genesis up to its last entry, which the rules must refuse for a
    false claim or as a forfeit; every entry before it must be accepted."""
    from pbem.core.adjudicator import EntryRefused
    from pbem.core.referee import FORFEIT as FORFEIT_KIND
    from pbem.failures import classify

    game = _start(genesis, extra_data)
    *before, last = rest
    for entry in before:
        try:
            game.apply(entry)
        except PbemError as exc:
            raise NotProven(
                f"{_first_line(exc)} (the log before the accused entry must verify)"
            ) from None
    _signed(last, roles)  # a refusal of bad bytes proves nothing against anyone
    if last.prev != game.head.id:
        raise NotProven(f"{last.describe()} does not follow the entry before it")
    try:
        game.apply(last)
    except EntryRefused as exc:
        reason = exc.reason
    except PbemError as exc:
        reason = str(exc)
    else:
        return _settled(game, genesis, roles, rest, last)
    refused = f"{last.describe()} refused: {reason}"
    if last.kind == FORFEIT_KIND and classify(reason, FORFEIT_KIND) == FORFEIT:
        return _proof(FORFEIT, last.by, genesis, roles, refused, rest, [last])
    found = _FALSE_CLAIM.search(reason)
    if found is not None:
        seq, role = int(found.group(1)), found.group(2)
        claim = next((e for e in rest if e.seq == seq), None)
        if claim is not None and claim.by == role and role in roles:
            accused = [claim] + ([last] if last.by == role and last is not claim else [])
            return _proof(FALSE_CLAIM, role, genesis, roles, refused, rest, accused)
    raise NotProven(
        f"{refused}; that is not a cheat an evidence file proves (an equivocation, a false "
        "hidden claim, a refused forfeit)"
    )


def _settled(
    game: Adjudicator,
    genesis: Entry,
    roles: Mapping[str, str],
    rest: Sequence[Entry],
    last: Entry,
) -> Proof:
    """The proof a log gives whose last entry, accepted, ends a double-blind game with a
    lie it proves (pbem.core.blind: a void that opens a false escrow, a disclose that
    shows a false claim, an unseal that opens a false deal or answers a false void or
    dispute), else NotProven: an honest log, or an end on someone's word."""
    settled = game.blind_end
    if settled is None or settled.at != last.seq:
        raise NotProven(
            f"{last.describe()} is accepted by the rules: the log up to it is honest and "
            "proves nothing"
        )
    if not settled.proven:
        raise NotProven(
            f"{last.describe()} ends the game on {settled.word}'s word, which nothing in the "
            f"log proves: {settled.text}"
        )
    lied = next((e for e in rest if e.seq == settled.seq), None)
    accused = [e for e in (lied, last) if e is not None and e.by == settled.culprit]
    if settled.culprit not in roles or not accused:
        raise NotProven(f"{settled.text}: no entry of the liar's is in the log")
    unique = list(dict.fromkeys(accused))
    return _proof(FALSE_CLAIM, settled.culprit, genesis, roles, settled.text, rest, unique)


def _first_line(exc: BaseException) -> str:
    return str(exc).partition("\n")[0] or type(exc).__name__


# --- finding a cheat in a log ----------------------------------------------------------------


def find(entries: Sequence[Entry], extra_data: Mapping[str, bytes] | None = None) -> Proof:
    """The first cheat the entries of a log (one game or several) prove, as the bundle
    that proves it (`judge` accepts it), else NotProven saying why nothing is proven."""
    from pbem.core.log import GENESIS

    unique: dict[str, Entry] = {}
    for entry in entries:
        unique.setdefault(entry.id, entry)
    geneses = [e for e in unique.values() if e.kind == GENESIS]
    if not geneses:
        raise NotProven("no genesis entry: the log must start at its genesis")
    notes: list[str] = []
    for genesis in geneses:
        own = [e for e in unique.values() if e.kind != GENESIS and e.game == genesis.id]
        proof = _find_in_game(genesis, own, extra_data, notes)
        if proof is not None:
            return proof
    raise NotProven(notes[0] if notes else "every entry is accepted")


def _find_in_game(
    genesis: Entry,
    own: list[Entry],
    extra_data: Mapping[str, bytes] | None,
    notes: list[str],
) -> Proof | None:
    from pbem.core.adjudicator import EntryRefused
    from pbem.core.referee import FORFEIT as FORFEIT_KIND
    from pbem.ledger import find_equivocation, find_fork

    def attempt(bundle: list[Entry]) -> Proof | None:
        try:
            return judge(bundle, extra_data)
        except NotProven as why:
            notes.append(str(why))
            return None

    twin = find_equivocation(genesis, own)  # where branches part, never a branch's answer
    if twin is not None:
        proof = attempt([genesis, twin.first, twin.second])
        if proof is not None:
            return proof
    else:
        fork = find_fork(genesis, own)
        if fork is not None:
            notes.append(fork.text())  # why nothing is proven, unless something else is
    for forfeit in (e for e in own if e.kind == FORFEIT_KIND):
        try:
            if forfeit_contradiction(genesis, forfeit) is not None:
                return judge([genesis, forfeit], extra_data)
        except NotProven:
            pass  # a broken signature: the replay below says so
    try:
        game = _start(genesis, extra_data)
    except NotProven as why:
        notes.append(str(why))
        return None
    refused = False
    for entry in sorted(own, key=lambda e: e.seq):
        if entry.seq <= game.head.seq:
            # Another entry for a seq already applied (the first copy in seq order wins,
            # as in `pbem verify`): judged on the log before that seq.
            refused = True
            proof = attempt([*game.entries[: entry.seq], entry])
        else:
            try:
                game.apply(entry)
                continue
            except EntryRefused:
                refused = True
                proof = attempt([*game.entries, entry])
        if proof is not None:
            return proof
    settled = game.blind_end
    if settled is not None and settled.proven:
        proof = attempt(game.entries[: settled.at + 1])
        if proof is not None:
            return proof
    if not refused:
        from pbem import verdicts

        verdict = verdicts.of(game)
        if verdict.kind == verdicts.NOT_CHECKED:
            notes.append(f"game {genesis.id[:12]} is not checked in full: {verdict.text}")
        elif settled is None:
            notes.append(
                f"every entry of game {genesis.id[:12]} is accepted by the rules: an honest log"
            )
    return None


# --- writing and unpacking a file ------------------------------------------------------------


def names(entries: Sequence[Entry]) -> dict[str, str]:
    """Entry id -> its file name stem `entry-<seq>-<n>` (n counts the bundle's entries
    with that seq from 1, in the bundle's order)."""
    counts: dict[int, int] = {}
    found: dict[str, str] = {}
    for entry in entries:
        counts[entry.seq] = counts.get(entry.seq, 0) + 1
        found[entry.id] = f"entry-{entry.seq}-{counts[entry.seq]}"
    return found


def render(proof: Proof) -> str:
    """The evidence file of a proof (docs/evidence.md): MAGIC, the human lines, every
    entry armored as protocol section 7, then the ssh-keygen material for the accused's
    entries."""
    from pbem.core.log import escape_text
    from pbem.crypto.sshsig import to_armored
    from pbem.transport.armor import armor

    stems = names(proof.entries)
    accused = {e.id for e in proof.accused}
    genesis = proof.entries[0]
    key_line = _roles(genesis)[proof.role]
    lines = [
        MAGIC,
        f"claim: {proof.claim}",
        f"accused: {escape_text(proof.role)} {proof.fingerprint}",
        f"game: {proof.game}",
        "entries: " + ", ".join(f"seq {e.seq}" for e in proof.entries),
        f"reason: {proof.reason}",
        "",
        "The lines above are for people and never trusted: `pbem verify THIS-FILE` decides",
        "the claim and the accused from the signed entries below (docs/evidence.md).",
        "",
    ]
    for entry in proof.entries:
        mark = " (accused)" if entry.id in accused else ""
        lines.append(
            f"{stems[entry.id]}: {escape_text(entry.kind)} by {escape_text(entry.by)}{mark}"
        )
        lines.append(armor(entry.canonical, entry.signature))
    lines += [
        "Without pbem (protocol sections 2 and 7): each entry the accused signed, its",
        "canonical bytes (the line after `.json:`, without its line end) and its signature,",
        "to check with: ssh-keygen -Y verify -f allowed_signers -I ROLE -n pbem-entry",
        "-s entry-SEQ-N.sig < entry-SEQ-N.json  (or: pbem evidence --unpack THIS-FILE DIR,",
        "then sh DIR/check.sh). The key must be the one the genesis names for the role.",
        "",
        f"allowed_signers: {escape_text(proof.role)} {escape_text(key_line)}",
    ]
    for entry in proof.accused:
        stem = stems[entry.id]
        lines.append(f"{stem}.json: {entry.canonical.decode('utf-8')}")
        lines.append(f"{stem}.sig:")
        lines.append(to_armored(entry.signature))
    return "\n".join(lines).rstrip("\n") + "\n"


_SIG_BLOCK = lazy_pattern(
    r"-----BEGIN SSH SIGNATURE-----(.*?)-----END SSH SIGNATURE-----", re.DOTALL
)


def _material(text: str) -> tuple[list[str], list[str]]:
    """The machine lines of a file's ssh-keygen material: the `allowed_signers:` and
    `entry-*.json:` lines, and the base64 of each SSH SIGNATURE block (whitespace
    dropped), in order."""
    lines = [
        line.rstrip()
        for line in text.replace("\r\n", "\n").split("\n")
        if line.startswith("allowed_signers: ") or re.match(r"entry-\d+-\d+\.json: ", line)
    ]
    blocks = ["".join(found.group(1).split()) for found in _SIG_BLOCK.finditer(text)]
    return lines, blocks


def unpack(data: bytes | str, directory: Path) -> list[Path]:
    """Write an evidence file's entries for ssh-keygen: entry-<seq>-<n>.json (the
    canonical bytes exactly) and .sig (the signature as ssh-keygen writes it) for every
    entry, allowed_signers (every role of the genesis) and check.sh. Returns the paths."""
    import shlex

    from pbem.core.log import GENESIS
    from pbem.crypto.sshsig import to_armored

    entries = read(data)
    unique: dict[str, Entry] = {}
    for entry in entries:
        unique.setdefault(entry.id, entry)
    ordered = list(unique.values())
    geneses = [e for e in ordered if e.kind == GENESIS]
    if len(geneses) != 1:
        raise NotProven(f"an evidence file holds one genesis entry, this one {len(geneses)}")
    genesis = geneses[0]
    roles = _roles(genesis)
    for role, line in roles.items():
        if not _ROLE.fullmatch(role) or "\n" in line:
            raise NotProven("the genesis names a role or key that cannot go in allowed_signers")
    for entry in ordered:
        if entry.by not in roles:
            raise NotProven(f"{entry.describe()}: {entry.by} is not a role of the game")
    ordered.sort(key=lambda e: (e.kind != GENESIS, e.seq, e.id))  # as `judge` orders them
    stems = names(ordered)
    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def write(name: str, content: bytes, mode: int = 0o644) -> None:
        path = directory / name
        path.write_bytes(content)
        path.chmod(mode)
        written.append(path)

    for entry in ordered:
        write(f"{stems[entry.id]}.json", entry.canonical)
        write(f"{stems[entry.id]}.sig", to_armored(entry.signature).encode("ascii"))
    signers = "".join(f"{role} {line}\n" for role, line in roles.items())
    write("allowed_signers", signers.encode("utf-8"))
    script = [
        "#!/bin/sh",
        "# Checks an evidence file's signatures with OpenSSH alone (docs/evidence.md).",
        "# Written by `pbem evidence --unpack`: read it before you trust it; it only reads",
        "# the files beside it.",
        "set -eu",
        'cd "$(dirname "$0")"',
        'sha() { if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1";'
        " else shasum -a 256 \"$1\"; fi | cut -d' ' -f1; }",
        "# The game id is the SHA-256 of the genesis's canonical bytes (protocol section 7),",
        "# and every other entry names it in its signed bytes.",
        f"game=$(sha {stems[genesis.id]}.json)",
        f'test "$game" = {shlex.quote(genesis.id)}',
    ]
    for entry in ordered:
        if entry is not genesis:
            script.append(f'grep -qF "\\"game\\":\\"$game\\"" {stems[entry.id]}.json')
    script.append("# Each key in allowed_signers is the one the genesis names for its role.")
    for line in roles.values():
        script.append(f"grep -qF {shlex.quote(line.split()[1])} {stems[genesis.id]}.json")
    script.append("# Every entry is signed by its role's key (protocol section 2).")
    for entry in ordered:
        stem = stems[entry.id]
        script.append(
            f"ssh-keygen -Y verify -f allowed_signers -I {shlex.quote(entry.by)} "
            f"-n pbem-entry -s {stem}.sig < {stem}.json"
        )
    script.append('echo "every signature verifies; what the entries prove: docs/evidence.md"')
    write("check.sh", ("\n".join(script) + "\n").encode("utf-8"), 0o755)
    return written
