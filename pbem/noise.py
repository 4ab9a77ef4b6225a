"""An outsider's noise: damaged copies of an entry beside a copy that verifies.

Protocol section 8: "A copy of an entry whose signature fails, beside a copy whose
signature verifies, is an outsider's noise, set aside and named as such." Anybody can
post such a copy into a thread, a mailbox or a move file: it proves nothing against
anyone, and it must not fail an honest game. `pbem verify` (pbem.verify) and the
client's `apply` of a file read entries through `set_aside`.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.core.log import GENESIS, Entry
from pbem.errors import PbemError
from pbem.ledger import check_signature


def set_aside(
    entries: list[Entry], known: Mapping[str, Entry] | None = None
) -> tuple[list[Entry], dict[int, int]]:
    """The entries without an outsider's noise, and how many copies of each seq were set
    aside (protocol section 8).

    Copies of one seq (different bytes, or the same bytes with another signature) are
    judged by their signatures alone: those that verify with their author's key (the
    genesis's key for the role in `by`; a genesis, the key it names itself) are the
    real candidates, and those that do not (a flipped byte, a stranger's key, a `by`
    that names no role) are set aside when at least one copy of that seq verifies. They
    prove nothing against anyone: anybody can post such a copy into a thread or a
    mailbox. A seq with no copy that verifies keeps all of them, and fails as damage; two
    valid different entries for one seq stay too (an equivocation). A strict save is
    refused for a second copy of an entry whatever this finds (`_check_saves`).

    `known`: geneses by game id from elsewhere (a store's), for entries whose genesis is
    not among them. An intact log holds one entry per seq and pays one pass over its
    entries for this.
    """
    groups: dict[tuple[str | None, int], list[Entry]] = {}
    for entry in entries:
        key = (None, 0) if entry.kind == GENESIS else (entry.game, entry.seq)
        groups.setdefault(key, []).append(entry)
    if len(groups) == len(entries):
        return entries, {}
    noise: list[Entry] = []
    geneses = groups.get((None, 0), [])
    if len(geneses) > 1:
        noise += _damaged_beside_valid(geneses, {})
    kept_geneses = dict(known or {})
    kept_geneses.update({g.id: g for g in geneses if not any(g is n for n in noise)})
    for (game, _seq), copies in groups.items():
        genesis = kept_geneses.get(str(game))
        if len(copies) > 1 and game is not None and genesis is not None:
            noise += _damaged_beside_valid(copies, _roles(genesis))
    if not noise:
        return entries, {}
    aside = {id(entry) for entry in noise}
    counts: dict[int, int] = {}
    for entry in sorted(noise, key=lambda e: e.seq):
        counts[entry.seq] = counts.get(entry.seq, 0) + 1
    return [e for e in entries if id(e) not in aside], counts


def _damaged_beside_valid(copies: list[Entry], roles: Mapping[str, str]) -> list[Entry]:
    """The copies of one seq whose signature fails, when another copy's verifies (else
    none). `roles`: the game's role keys (empty for geneses: each names its own)."""
    valid, damaged = [], []
    for copy in copies:
        line = (_roles(copy) if copy.kind == GENESIS else roles).get(copy.by)
        try:
            if line is None:
                raise PbemError(f"{copy.by!r} is no role of the game")
            check_signature(line, copy.canonical, copy.signature)
        except PbemError:
            damaged.append(copy)
        else:
            valid.append(copy)
    return damaged if valid else []


def _roles(entry: Entry | None) -> dict[str, str]:
    roles = entry.body.get("roles") if entry is not None else None
    if not isinstance(roles, dict):
        return {}
    return {str(k): v for k, v in roles.items() if isinstance(v, str)}
