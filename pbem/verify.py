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
from pbem.ledger import find_equivocation, fingerprint, replay
from pbem.transport.movefile import read_entries
from pbem.transport.savefile import rng_lines


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
    found = read_entries(data)
    entries = []
    for number, (canonical, signature) in enumerate(found, start=1):
        try:
            entries.append(Entry.from_wire(canonical, signature))
        except PbemError as exc:
            raise PbemError(f"entry block {number} is damaged: {exc}") from None
    return entries


def verify_text(data: bytes | str, extra_data: Mapping[str, bytes] | None = None) -> Report:
    report = Report(ok=False)
    try:
        entries = parse_entries(data)
    except PbemError as exc:
        report.failure = str(exc)
        return report
    if not entries:
        report.failure = "no PBEM entries found"
        return report
    geneses = [e for e in entries if e.kind == GENESIS]
    if len(geneses) != 1:
        report.failure = f"expected one genesis entry, found {len(geneses)}"
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
    except EntryRefused as exc:
        report.failure = str(exc)
        return report
    except PbemError as exc:
        report.failure = str(exc)
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
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    printed = rng_lines(text)
    if printed is not None:
        computed = [r.line() for r in game.rng_log]
        if printed != computed:
            report.failure = _rng_difference(printed, computed)
            return report
        report.lines.append(f"RNG log: {len(printed)} lines match the recomputed dice")
    report.ok = True
    return report


def _in_order(genesis: Entry, entries: list[Entry]) -> list[Entry]:
    """Genesis first, then the rest by seq, identical copies (quoted mails) dropped."""
    seen: set[str] = set()
    rest = []
    for entry in entries:
        if entry.id in seen or entry.kind == GENESIS:
            continue
        seen.add(entry.id)
        rest.append(entry)
    rest.sort(key=lambda e: e.seq)
    return [genesis, *rest]


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


def _rng_difference(printed: list[str], computed: list[str]) -> str:
    for index, (a, b) in enumerate(zip(printed, computed, strict=False), start=1):
        if a != b:
            return f"RNG log line {index} differs from the recomputed one: {a!r} != {b!r}"
    return f"RNG log has {len(printed)} lines, the recomputed log {len(computed)}"
