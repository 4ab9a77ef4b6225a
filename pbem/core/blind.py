"""Double-blind games (issue 17): the referee holds every player's sealed values.

A game opts in at creation with the league option `double_blind: true`
(pbem.core.referee), and must name a referee. Peer play's commitments stay as they are
(protocol section 5: a player's own commitment binds the player). What the mode adds,
checked by the adjudicator like every other rule:

* `escrow`, on every move by a player that commits: lowercase hex of the entry's
  openings sealed to the referee's key (pbem.crypto.escrow), whose plaintext is the
  canonical JSON `{"open": [opening, ...]}` (one opening per label the entry commits,
  sorted by label) and whose context is `pbem-blind/v1 escrow GAME SEQ ROLE`. Required on
  such a move, refused on every other entry. Nobody but the referee can read it.
* `held`, on every acknowledgement the referee signs: the seqs, ascending, of every
  escrow not attested yet (absent when there is none). The referee says: I opened these
  and every opening matches its commitment. Nothing in the log can check that until the
  game ends; the `disclose` entry then does.
* `deal`, on a move of the referee (an engine may ask it for one: Race to the Sea's
  shared casualty cup, where only the referee knows what the cup holds): every value the
  referee commits is labelled `for/ROLE/...` and `deal` maps each such ROLE to the
  openings of its labels, sealed to ROLE's key with the context `pbem-blind/v1 deal GAME
  SEQ ROLE`. Only ROLE learns them; the referee's commitments bind it, and its disclose
  opens them at the end like any other.
* the `void` entry, by the referee while the game is in play: `{"escrow_of": N, "key":
  HEX}`, N an escrow not attested yet and HEX its message key (escrow.message_key):
  - the key opens the escrow and it is not exactly the openings of entry N's
    commitments: entry N's author sealed a false escrow, proven, and loses;
  - the key opens a true escrow: the void is refused (the referee is proven wrong);
  - the key does not open it: entry N's author loses, on the referee's word, like a
    forfeit on its clock (docs/referee.md): proving that a message does not open would
    take a proof of correct decryption, which protocol v1 has no primitive for. (Ending
    such a game with no result instead would let a losing player escape its loss by
    sealing garbage.) The author can answer a false word in public: its escrow's
    ephemeral key derives from its own key (escrow.seal_derived), and published, it
    opens the escrow for anyone.
* the `disclose` entry, by the referee once the game is over: `{"open": [opening, ...]}`
  with every commitment still sealed, each checked against its commitment; the game's
  claim checks then run on them (Engine.settle), so a double-blind game leaves nothing
  unchecked, whoever stopped answering.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from pbem.core.canonical import JSON, canonical_bytes, parse_canonical
from pbem.core.engine import Outcome
from pbem.core.hashing import is_lower_hex
from pbem.errors import PbemError

ESCROW = "escrow"  # a move body field
HELD = "held"  # an ack body field
DEAL = "deal"  # a referee's move body field: role -> its openings sealed to it
FOR = "for/"  # the label prefix of a value the referee commits for one role
VOID = "void"  # entry kinds
DISCLOSE = "disclose"
FALSE_ESCROW = "false-escrow"  # the level of the end a proven void gives
VOIDED = frozenset({VOID, FALSE_ESCROW})  # the ends a void entry gives
ESCROW_MAX = 2 * 65536  # hex digits: 64 KiB of sealed openings, far beyond any entry's
VOID_FIELDS = frozenset({"escrow_of", "key"})
DOMAIN = "pbem-blind/v1"


class Escrowed(NamedTuple):
    """An escrow the referee has not attested yet: the entry, its author, the sealed hex
    and the commitments (label, digest) it must open."""

    seq: int
    by: str
    escrow: str
    commits: tuple[tuple[str, str], ...]


def context(game: str, seq: int, role: str) -> bytes:
    """What an escrow is bound to: moved to another game, entry or role, it does not open."""
    return f"{DOMAIN} escrow {game} {seq} {role}".encode()


def deal_context(game: str, seq: int, role: str) -> bytes:
    """What a deal sealed to `role` is bound to."""
    return f"{DOMAIN} deal {game} {seq} {role}".encode()


def dealt_to(label: str) -> str | None:
    """The role a referee's commitment is for (`for/ROLE/...`), else None."""
    if not label.startswith(FOR):
        return None
    role, _slash, rest = label[len(FOR) :].partition("/")
    return role if role and rest else None


def check_deal(body: Mapping[str, JSON], sides: Sequence[str]) -> None:
    """A referee's entry commits only values for a side (`for/SIDE/...`), and deals each
    such side its openings (`deal`: side -> sealed hex), and nothing else."""
    commits = body.get("commit")
    labels = list(commits) if isinstance(commits, dict) else []
    wanted: set[str] = set()
    for label in labels:
        role = dealt_to(label)
        if role is None or role not in sides:
            raise PbemError(
                f"the referee commits values for a side only (for/SIDE/...), not {label}"
            )
        wanted.add(role)
    deal = body.get(DEAL)
    if not wanted:
        if DEAL in body:
            raise PbemError("a deal goes with the referee's commitments for a side")
        return
    if not isinstance(deal, dict) or set(deal) != wanted:
        raise PbemError(f"the referee deals its commitments to {', '.join(sorted(wanted))}")
    for value in deal.values():
        check_escrow_field(value)


def plaintext(openings: Sequence[Mapping[str, JSON]]) -> bytes:
    """The sealed text of an entry's openings: canonical JSON, sorted by label."""
    ordered = sorted(openings, key=lambda opening: str(opening["label"]))
    return canonical_bytes({"open": [dict(opening) for opening in ordered]})


def check_escrow_field(value: JSON) -> bytes:
    """The sealed bytes of a move's `escrow` field, else PbemError."""
    from pbem.crypto.escrow import OVERHEAD  # (only double-blind games need cryptography)

    if (
        not isinstance(value, str)
        or len(value) % 2
        or not 2 * OVERHEAD <= len(value) <= ESCROW_MAX
        or not is_lower_hex(value)
    ):
        raise PbemError(
            f"escrow must be lowercase hex of {OVERHEAD} to {ESCROW_MAX // 2} sealed bytes"
        )
    return bytes.fromhex(value)


def false_in(game: str, sealed_text: bytes, commits: Sequence[tuple[str, str]]) -> str | None:
    """What is false in an opened escrow (one line), or None when it holds exactly one
    true opening for each of `commits` (label, digest)."""
    from pbem.core.commit import Opening, commitment

    try:
        found = parse_canonical(sealed_text)
    except PbemError:
        return "it is not canonical JSON"
    if not isinstance(found, dict) or set(found) != {"open"} or not isinstance(found["open"], list):
        return 'it is not {"open": [opening, ...]}'
    try:
        openings = [Opening.from_json(raw) for raw in found["open"]]
    except PbemError as exc:
        return str(exc)
    labels = [opening.label for opening in openings]
    wanted = dict(commits)
    if sorted(labels) != sorted(wanted) or len(set(labels)) != len(labels):
        return f"it opens {', '.join(labels) or 'nothing'}, not {', '.join(sorted(wanted))}"
    for opening in openings:
        try:
            digest = commitment(game, opening.label, opening.salt, opening.value)
        except PbemError as exc:
            return f"{opening.label}: {exc}"
        if digest != wanted[opening.label]:
            return f"its opening of {opening.label} does not match the commitment"
    return None


def check_held(body: Mapping[str, JSON], waiting: Sequence[Escrowed]) -> None:
    """A referee's ack in a double-blind game attests exactly the escrows not yet held."""
    wanted = [item.seq for item in waiting]
    held = body.get(HELD)
    if not wanted:
        if HELD in body:
            raise PbemError("held names escrows, and none waits to be attested")
        return
    if held != wanted:
        listed = ", ".join(str(seq) for seq in wanted)
        raise PbemError(f"the referee's entry attests the escrows not held yet: held [{listed}]")


def check_void(
    body: Mapping[str, JSON], game: str, waiting: Sequence[Escrowed], sides: Sequence[str]
) -> Outcome:
    """The end a referee's `void` entry signs (see the module's docstring); PbemError when
    the rules refuse it."""
    from pbem.crypto.escrow import EscrowError, open_with_key

    if set(body) != VOID_FIELDS:
        raise PbemError("a void body has exactly escrow_of and key")
    seq, key = body["escrow_of"], body["key"]
    item = next((w for w in waiting if w.seq == seq), None)
    if item is None:
        raise PbemError(f"a void names an escrow the referee has not attested yet, not entry {seq}")
    if not isinstance(key, str) or len(key) != 64 or not is_lower_hex(key):
        raise PbemError("a void's key is 64 lowercase hex digits")
    sealed = bytes.fromhex(item.escrow)
    try:
        opened = open_with_key(bytes.fromhex(key), sealed, context(game, item.seq, item.by))
    except EscrowError:
        problem: str | None = "it does not open with the referee's key (the referee's word)"
        level = VOID
    else:
        problem = false_in(game, opened, item.commits)
        level = FALSE_ESCROW
    if problem is None:
        raise PbemError(
            f"entry {item.seq}'s escrow opens with that key and matches its commitments"
        )
    others = [side for side in sides if side != item.by]
    winner = others[0] if len(others) == 1 else None
    return Outcome(
        winner,
        level,
        {side: int(side == winner) for side in sides},
        f"false escrow in entry {item.seq} by {item.by}: {problem}"
        + (f": {winner} wins" if winner else ""),
    )
