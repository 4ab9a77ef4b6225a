"""Full verification of a game from any text that holds its entries (save, mail, thread).

Replays every entry from genesis: armor, canonical form, signatures, the hash
chain of entries, each role's reveals, turn order, every rule, every roll. A
save's RNG log must equal the recomputed one. The first failure names the
entry, its signer and the reason; two validly signed entries for one seq are
printed as an equivocation proof.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pbem.core.adjudicator import Adjudicator, EntryRefused, data_digest
from pbem.core.log import GENESIS, Entry
from pbem.errors import PbemError
from pbem.ledger import check_signature, find_equivocation, fingerprint, replay
from pbem.transport.armor import find_entries
from pbem.transport.movefile import extract_text, read_entries
from pbem.transport.savefile import RngLogError, check_rng_log


@dataclass
class Report:
    ok: bool
    lines: list[str] = field(default_factory=list)
    failure: str | None = None
    game: Adjudicator | None = None

    def text(self) -> str:
        tail = [f"FAILED: {self.failure}"] if self.failure else ["OK: every check holds"]
        return "\n".join(self.lines + tail)


def parse_entries(data: bytes | str) -> list[Entry]:
    """Every entry in a text, in order; damage is reported as damage, never as a rules error."""
    return _entries(read_entries(data))


def _entries(found: list[tuple[bytes, bytes]]) -> list[Entry]:
    entries = []
    for number, (canonical, signature) in enumerate(found, start=1):
        try:
            entries.append(Entry.from_wire(canonical, signature))
        except PbemError as exc:
            raise PbemError(
                f"entry block {number} is damaged: its signed bytes are not a valid entry ({exc})"
            ) from None
    return entries


def verify_text(data: bytes | str, extra_data: Mapping[str, bytes] | None = None) -> Report:
    """Verify a whole game from any text holding its entries: a save, a mail, an mbox, a thread."""
    report = Report(ok=False)
    text = extract_text(data)
    try:
        found = _entries(find_entries(text))
    except PbemError as exc:
        report.failure = str(exc)
        return report
    if not found:
        report.failure = "no PBEM entries found"
        return report
    # Entry blocks are numbered by their place in the text, copies included.
    numbers: dict[tuple[str, bytes], int] = {}
    for number, entry in enumerate(found, start=1):
        numbers.setdefault((entry.id, entry.signature), number)
    entries = _unique(found)
    geneses = [e for e in entries if e.kind == GENESIS]
    if len(geneses) != 1:
        report.failure = _bad_signature(entries, None, numbers) or (
            f"expected one genesis entry, found {len(geneses)}"
        )
        return report
    genesis = geneses[0]
    proof = find_equivocation(genesis, entries)
    if proof is not None:
        report.failure = proof.proof()
        return report
    ordered = _in_order(genesis, entries)
    extra = {data_digest(c): c for c in (extra_data or {}).values()}
    game: Adjudicator | None = None
    try:
        game = replay(ordered, extra)
    except (EntryRefused, PbemError) as exc:
        failure = str(exc)
        # Damage first: a damaged entry can make a later, intact one look out of place
        # (a changed seq or author), and the reader must learn that the text is damaged.
        if "signature" not in failure:
            failure = _bad_signature(ordered, genesis, numbers) or failure
        report.failure = failure
        return report
    report.game = game
    report.lines += _summary(game)
    sealed = game.unopened()
    if sealed and game.outcome() is not None:
        first = min(sealed, key=lambda s: s.seq)
        report.failure = (
            f"entry {first.seq} by {first.role}: commitment {first.label} was never opened, "
            "but every commitment must be opened by the end of the game"
        )
        return report
    computed = [r.line() for r in game.rng_log]
    try:
        sections = check_rng_log(text, computed)
    except RngLogError as exc:
        report.failure = str(exc)
        return report
    if sections:
        copies = "" if sections == 1 else f" (in each of its {sections} copies)"
        report.lines.append(f"RNG log: {len(computed)} lines match the recomputed dice{copies}")
    report.ok = True
    return report


def _unique(entries: list[Entry]) -> list[Entry]:
    """The entries with identical copies (a quoted mail, a thread) dropped, in text order.

    Copies are identical only with the same signature too: a copy whose signature was
    damaged stays, and fails its own check.
    """
    seen: set[tuple[str, bytes]] = set()
    unique = []
    for entry in entries:
        key = (entry.id, entry.signature)
        if key not in seen:
            seen.add(key)
            unique.append(entry)
    return unique


def _in_order(genesis: Entry, entries: list[Entry]) -> list[Entry]:
    """Genesis first, then the rest by seq (sort is stable: text order within a seq)."""
    rest = [e for e in entries if e is not genesis and e.kind != GENESIS]
    rest.sort(key=lambda e: e.seq)
    return [genesis, *rest]


def _roles(entry: Entry | None) -> dict[str, str]:
    roles = entry.body.get("roles") if entry is not None else None
    if not isinstance(roles, dict):
        return {}
    return {str(k): v for k, v in roles.items() if isinstance(v, str)}


def _bad_signature(
    entries: list[Entry], genesis: Entry | None, numbers: Mapping[tuple[str, bytes], int]
) -> str | None:
    """The first entry whose signature verifies with no key it could be signed with.

    A genesis is checked against the roles it names, every other entry against the
    game's roles (its author's key, or any role's when its author is not a role, as a
    damaged `by` is not). Run only after a failure, so intact games pay nothing for it.
    """
    game_roles = _roles(genesis)
    for entry in entries:
        roles = _roles(entry) if entry.kind == GENESIS else game_roles
        keys = [roles[entry.by]] if entry.by in roles else list(roles.values())
        if not keys:
            continue
        reason = ""
        for key in keys:
            try:
                check_signature(key, entry.canonical, entry.signature)
                break
            except PbemError as exc:
                reason = reason or str(exc)
        else:
            number = numbers.get((entry.id, entry.signature))
            block = f" (entry block {number} of the text)" if number else ""
            return (
                f"{entry.describe()}{block} refused: its signature does not verify, the "
                f"entry was damaged or altered: {reason}"
            )
    return None


def _summary(game: Adjudicator) -> list[str]:
    outcome = game.outcome()
    lines = [
        f"game {game.id}",
        f"rules: {game.engine.name} {game.engine.version} ({game.engine.title})",
    ]
    for role, line in game.roles.items():
        lines.append(f"role {role}: {fingerprint(line)}")
    lines.append(f"entries: {len(game.entries)}, all signatures and the hash chain verify")
    if game.self_witnessed:
        lines.append(
            "dice: SELF-WITNESSED: only one role exists, so its own reveals seeded its "
            "dice; no second party vouches for them"
        )
    else:
        lines.append("dice: witnessed: every draw seeded by the next reveal of another role")
    lines.append(f"draws: {len(game.rng_log)}")
    if game.sealed:
        still = len(game.unopened())
        lines.append(f"commitments: {len(game.sealed)} made, {len(game.sealed) - still} opened")
    lines.append(f"result: {outcome.text if outcome else 'unfinished'}")
    return lines
