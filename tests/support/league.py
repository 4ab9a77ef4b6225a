"""A league's archive for tests: many small honest games, and cheats planted in others.

Honest games are whole toy games (pbem.testing.SignedTable: every entry signed with real
keys), some refereed with a deadline, some with sealed bids, written as save files. Each
`CHEATS` function makes one game with one cheat of its kind and says what `pbem verify
--json` must name it (`cheat`, docs/json.md) and which entry it must blame.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

import tests.support.bid  # noqa: F401  (registers toy-bid)
import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.core.commit import Opening
from pbem.core.log import Entry
from pbem.core.referee import DEADLINE, FORFEIT, REFEREE
from pbem.crypto.keys import PrivateKey
from pbem.ledger import fingerprint
from pbem.testing import SignedTable
from pbem.transport.armor import armor
from pbem.transport.savefile import move_file, save_text


@dataclass(frozen=True)
class Planted:
    text: str  # the file's text
    cheat: str  # what verify must name it
    seq: int | None  # the entry it must blame (None: no one entry, e.g. a save's RNG log)


def _save(table: SignedTable, title: str) -> str:
    prints = {role: fingerprint(line) for role, line in table.game.roles.items()}
    return save_text(table.game, title, prints)


def _play(table: SignedTable, rng: random.Random, limit: int = 200) -> SignedTable:
    while table.game.outcome() is None and len(table.game.entries) < limit:
        table.step(rng)
    return table


def _table(kind: int, nonce: str) -> SignedTable:
    if kind == 0:
        return SignedTable("toy-dice", ("a", "b"), nonce=nonce)
    if kind == 1:
        return SignedTable("toy-dice", ("a", "b", REFEREE), nonce=nonce, options={DEADLINE: 48})
    return SignedTable("toy-bid", ("a", "b"), nonce=nonce)


def honest_game(index: int) -> str:
    """The save of honest game `index` (about ten entries): toy dice, refereed toy dice
    with a deadline, or sealed bids."""
    table = _table(index % 3, f"honest-{index}")
    table.join_all()
    return _save(_play(table, random.Random(index)), f"league game {index}")


def _started(kind: int, nonce: str, moves: int = 4) -> SignedTable:
    table = _table(kind, nonce)
    table.join_all()
    rng = random.Random(nonce)
    for _ in range(moves):
        if table.game.outcome() is None:
            table.step(rng)
    return table


def _with(entries: list[Entry], extra: Entry) -> str:
    return move_file([*entries, extra])


def _edited_move() -> Planted:
    """A signed move whose decision was changed afterwards: its signature breaks."""
    table = _started(0, "edited", 5)
    text = _save(table, "edited")
    entry = next(e for e in table.game.entries if e.kind == "move")
    forged = entry.canonical.replace(b'"decision":"roll"', b'"decision":"roll twice"')
    assert forged != entry.canonical
    return Planted(
        text.replace(armor(entry.canonical, entry.signature), armor(forged, entry.signature)),
        "signature",
        entry.seq,
    )


def _dropped_entry() -> Planted:
    """A save with one entry cut out of the middle."""
    table = _started(0, "dropped", 6)
    text = _save(table, "dropped")
    gone = table.game.entries[5]
    block = armor(gone.canonical, gone.signature)
    cut = re.sub(r"[^\n]*\n" + re.escape(block) + r"\n", "", text, count=1)
    assert cut != text
    return Planted(cut, "chain", gone.seq + 1)  # (blamed: the entry after the gap)


def _equivocation() -> Planted:
    """A role signs two different entries for one seq (protocol section 1)."""
    table = _started(0, "equivocation", 3)
    signer = table.game.next_signer()
    assert signer is not None
    first = table.move_entry(signer, "roll")
    second = table.move_entry(signer, "roll twice")
    table.apply(first)
    return Planted(_with(table.game.entries, second), "equivocation", second.seq)


def _false_claim() -> Planted:
    """A sealed bid claimed odd in public that opens as 4 (protocol section 5)."""
    table = SignedTable("toy-bid", ("a", "b"), nonce="false-claim")
    table.join_all()
    table.decide("a", tests.support.bid.Bid(4, "odd"))
    table.decide("b", tests.support.bid.Bid(5))
    state = table.engine.with_secrets(table.game.state, "a", table.known("a"))
    public, _values = table.engine.seal(state, "a", tests.support.bid.Reveal())
    due = table.engine.due_openings(state, "a", public)
    body = {"decision": "reveal", "open": [Opening(lb, *table.secrets[lb]).to_json() for lb in due]}
    opening = table.make("a", "move", body)
    return Planted(_with(table.game.entries, opening), "false-claim", opening.seq)


def _forged_forfeit() -> Planted:
    """A referee's forfeit before the deadline it states itself."""
    table = _started(1, "forfeit", 4)
    signer = table.game.next_signer()
    if signer == REFEREE:
        table.ack(REFEREE)
        signer = table.game.next_signer()
    head = table.game.head
    body = {
        "forfeit": signer,
        "waited_on": {"seq": head.seq, "id": head.id},
        "since": "2026-12-01T08:00:00Z",
        "deadline": "2026-12-03T08:00:00Z",
        "seen": "2026-12-02T08:00:00Z",
    }
    forfeit = table.make(REFEREE, FORFEIT, body)
    return Planted(_with(table.game.entries, forfeit), "forfeit", forfeit.seq)


def _wrong_key() -> Planted:
    """An entry in b's name signed with a key that is not b's."""
    table = _started(0, "wrong-key", 4)
    signer = table.game.next_signer()
    assert signer is not None
    stranger = SignedTable("toy-dice", ("a", "b"), nonce="stranger").keys["a"]
    assert isinstance(stranger, PrivateKey)
    entry = table.make(signer, "move", {"decision": "roll"}, key=stranger)
    return Planted(_with(table.game.entries, entry), "signature", entry.seq)


def _rng_log() -> Planted:
    """A save whose printed dice were changed: the entries are untouched."""
    table = _started(0, "rng-log", 8)
    text = _save(table, "rng")
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("rng "))
    words = lines[index].split(" ")
    words[4] = str(int(words[4]) % 6 + 1)
    lines[index] = " ".join(words)
    return Planted("\n".join(lines) + "\n", "rng-log", None)


def _illegal_move() -> Planted:
    """A validly signed entry by a role the game does not ask."""
    table = _started(0, "illegal", 4)
    signer = table.game.next_signer()
    other = "a" if signer == "b" else "b"
    entry = table.move_entry(other, "roll")
    return Planted(_with(table.game.entries, entry), "rules", entry.seq)


def _bad_reveal() -> Planted:
    """A signed entry whose reveal is not the signer's next chain element: the dice it
    seeds would be the signer's choice."""
    table = _started(0, "reveal", 4)
    signer = table.game.next_signer()
    assert signer is not None
    entry = table.make(signer, "move", {"decision": "roll"}, reveal="ab" * 32)
    return Planted(_with(table.game.entries, entry), "reveal", entry.seq)


def _foreign_entry() -> Planted:
    """A validly signed entry lifted from another game with the same keys."""
    table = _started(0, "foreign", 4)
    other_game = SignedTable("toy-dice", ("a", "b"), keys=table.keys, nonce="elsewhere")
    other_game.join_all()
    signer = table.game.next_signer()
    assert signer is not None and table.game.id != other_game.game.id
    lifted = other_game.make(signer, "move", {"decision": "roll"})
    fields = dict(lifted.data)
    fields["seq"], fields["prev"] = table.game.head.seq + 1, table.game.head.id
    entry = other_game.sign(signer, fields)
    return Planted(_with(table.game.entries, entry), "chain", entry.seq)


CHEATS: dict[str, Callable[[], Planted]] = {
    "edited move": _edited_move,
    "dropped entry": _dropped_entry,
    "equivocation": _equivocation,
    "false hidden claim": _false_claim,
    "forged forfeit": _forged_forfeit,
    "wrong key": _wrong_key,
    "edited dice in a save": _rng_log,
    "illegal move": _illegal_move,
    "forged reveal": _bad_reveal,
    "entry from another game": _foreign_entry,
}
