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
* the `void` entry, by the referee while the game is in play, or once it is over by its
  rules or an agreement and before the disclose (an escrow of the last moves is never
  attested): `{"escrow_of": N, "key": HEX}`, N an escrow not attested yet and HEX its
  message key (escrow.message_key):
  - the key opens the escrow and it is not exactly the openings of entry N's
    commitments: entry N's author sealed a false escrow, proven, and loses (FALSE_ESCROW);
  - the key opens a true escrow: the void is refused (the referee is proven wrong);
  - the key does not open it: entry N's author loses, on the referee's word (VOID), like
    a forfeit on its clock (docs/referee.md): proving that a message does not open would
    take a proof of correct decryption, which protocol v1 has no primitive for. (Ending
    such a game with no result instead would let a losing player escape its loss by
    sealing garbage.) The author answers it with an `unseal` (below).
* the `unseal` entry (`check_unseal`): a published message key, checked as a void is.
  A player disputes the referee's latest deal to it, while asked; the referee answers a
  dispute with its own key for the deal; an escrow's author answers a void on the
  referee's word. Either end of a sealed message can derive its key (the sender from the
  ephemeral key it derived: escrow.sender_message_key), so a key that opens the message
  settles the dispute for anyone.
* the `disclose` entry, by the referee once the game is over: `{"open": [opening, ...]}`
  with every commitment still sealed, each checked against its commitment; the game's
  claim checks then run on them (Engine.settle), so a double-blind game leaves nothing
  unchecked, whoever stopped answering. A claim they show false (FalseClaimError) does
  not refuse the disclose: it ends the game against the liar (FALSE_CLAIM, or FALSE_DEAL
  for the referee's own), the proof the log keeps.
* every sealed text (escrow, deal) must have an ephemeral key some recipient can open:
  one of small order (all zeros among them) is refused (sealcheck.check_ephemeral).

How each end reads (proven, or on whose word) is `Settled`; pbem.verdicts turns it into
the verdict every verifier gives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.canonical import JSON, canonical_bytes, parse_canonical
from pbem.core.commit import Opening, check_opening, commitment
from pbem.core.engine import Outcome
from pbem.core.hashing import is_lower_hex
from pbem.core.history import Sealed
from pbem.core.log import MOVE, Entry
from pbem.core.referee import REFEREE
from pbem.crypto.sealcheck import OVERHEAD, EscrowError, check_ephemeral, open_with_key
from pbem.errors import FalseClaimError, PbemError
from pbem.record import NamedTuple

ESCROW = "escrow"  # a move body field
HELD = "held"  # an ack body field
DEAL = "deal"  # a referee's move body field: role -> its openings sealed to it
FOR = "for/"  # the label prefix of a value the referee commits for one role
VOID = "void"  # entry kinds
DISCLOSE = "disclose"
UNSEAL = "unseal"
ESCROW_MAX = 2 * 65536  # hex digits: 64 KiB of sealed openings, far beyond any entry's
VOID_FIELDS = frozenset({"escrow_of", "key"})
DOMAIN = "pbem-blind/v1"

# How a double-blind game's own entries end it (Outcome.level). A proven end needs nothing
# but the log; an end on someone's word is only that (protocol section 8), and verify,
# evidence and standings say so.
# (the level VOID: on the referee's word, an escrow that does not open with its key)
FALSE_ESCROW = "false-escrow"  # proven: an escrow that opens false; its author loses
FALSE_CLAIM = "false-claim"  # proven at the disclose: a player's claim was false; it loses
FALSE_DEAL = "false-deal"  # proven: the referee's deal (or claim) was false; no side wins
FALSE_VOID = "false-void"  # proven: the escrow the referee voided opens true; no side wins
DISPUTED = "disputed"  # on a player's word: a deal to it does not open with the key it gave
FALSE_DISPUTE = "false-dispute"  # proven: the disputed deal opens true; the player loses
PROVEN = frozenset({FALSE_ESCROW, FALSE_CLAIM, FALSE_DEAL, FALSE_VOID, FALSE_DISPUTE})
ON_WORD = frozenset({VOID, DISPUTED})
ENDS = PROVEN | ON_WORD
UNSEAL_FIELDS = (frozenset({"escrow_of", "key"}), frozenset({"deal_of", "to", "key"}))


class Escrowed(NamedTuple):
    """A sealed message in the log: the entry, its author (for a deal: the role it is
    sealed to), the sealed hex and the commitments (label, digest) it must open. What the
    adjudicator keeps of the escrows the referee has not attested yet, and of its deals."""

    seq: int
    by: str
    escrow: str
    commits: tuple[tuple[str, str], ...]


class Settled(NamedTuple):
    """How a double-blind game's own entry ended it: `level` (one of ENDS), whether the
    log `proven`s it, the `culprit` (proven: the role that lied; on a word: the role
    accused), `seq` (the entry of the lie, or the sealed message in question), `at` (the
    entry that settled it), `word` (whose word it rests on; None when proven), the
    outcome's `text` and, for an end a later entry may answer (VOID, DISPUTED), the
    sealed message in question (`item`)."""

    level: str
    proven: bool
    culprit: str
    seq: int
    at: int
    word: str | None
    text: str
    item: Escrowed | None = None


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
    """The sealed bytes of a move's `escrow` field (or of one deal), else PbemError: the
    hex of 48 bytes to 64 KiB whose ephemeral key some recipient could open (one of small
    order, all zeros among them, opens for nobody: sealcheck.check_ephemeral)."""
    if (
        not isinstance(value, str)
        or len(value) % 2
        or not 2 * OVERHEAD <= len(value) <= ESCROW_MAX
        or not is_lower_hex(value)
    ):
        raise PbemError(
            f"escrow must be lowercase hex of {OVERHEAD} to {ESCROW_MAX // 2} sealed bytes"
        )
    sealed = bytes.fromhex(value)
    try:
        check_ephemeral(sealed)
    except EscrowError as exc:
        raise PbemError(f"a sealed message that cannot open: {exc}") from None
    return sealed


def false_in(game: str, sealed_text: bytes, commits: Sequence[tuple[str, str]]) -> str | None:
    """What is false in an opened escrow (one line), or None when it holds exactly one
    true opening for each of `commits` (label, digest)."""
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


def _winner(sides: Sequence[str], loser: str | None) -> str | None:
    """The side that wins when `loser` loses (None: no side, or no single other side)."""
    others = [side for side in sides if side != loser]
    return others[0] if loser is not None and len(others) == 1 else None


def ending(
    level: str,
    sides: Sequence[str],
    culprit: str,
    seq: int,
    at: int,
    text: str,
    word: str | None = None,
    item: Escrowed | None = None,
) -> tuple[Outcome, Settled]:
    """The outcome and its record for an end of ENDS. A player proven to have lied loses
    (FALSE_ESCROW, FALSE_CLAIM, FALSE_DISPUTE), and so does the author of an escrow voided
    on the referee's word (VOID, like a forfeit on its clock). When the referee is proven
    to have lied (FALSE_DEAL, FALSE_VOID) or a player's word stops the game (DISPUTED), no
    side wins: the play was not fair, or nothing shows who spoiled it."""
    loses = culprit if level in (FALSE_ESCROW, FALSE_CLAIM, FALSE_DISPUTE, VOID) else None
    winner = _winner(sides, loses)
    tail = f": {winner} wins" if winner else ": no side wins" if loses is None else ""
    outcome = Outcome(winner, level, {side: int(side == winner) for side in sides}, text + tail)
    return outcome, Settled(level, level in PROVEN, culprit, seq, at, word, outcome.text, item)


def opened_by_key(key: JSON, sealed: bytes, where: bytes) -> bytes | None:
    """What `sealed` opens to with a published message key (64 lowercase hex digits, else
    PbemError), or None when the key does not open it."""
    if not isinstance(key, str) or len(key) != 64 or not is_lower_hex(key):
        raise PbemError("a message key is 64 lowercase hex digits")
    try:
        return open_with_key(bytes.fromhex(key), sealed, where)
    except EscrowError:
        return None


def check_void(
    body: Mapping[str, JSON],
    game: str,
    waiting: Sequence[Escrowed],
    sides: Sequence[str],
    at: int,
) -> tuple[Outcome, Settled]:
    """The end a referee's `void` entry (seq `at`) signs (see the module's docstring);
    PbemError when the rules refuse it."""
    if set(body) != VOID_FIELDS:
        raise PbemError("a void body has exactly escrow_of and key")
    seq, key = body["escrow_of"], body["key"]
    item = next((w for w in waiting if w.seq == seq), None)
    if item is None:
        raise PbemError(f"a void names an escrow the referee has not attested yet, not entry {seq}")
    opened = opened_by_key(key, bytes.fromhex(item.escrow), context(game, item.seq, item.by))
    if opened is None:
        text = (
            f"on the referee's word, which nothing in the log proves: it voids entry "
            f"{item.seq}'s escrow by {item.by} as one that does not open (the key it "
            f"published in entry {at} does not open it)"
        )
        return ending(VOID, sides, item.by, item.seq, at, text, word=REFEREE, item=item)
    problem = false_in(game, opened, item.commits)
    if problem is None:
        raise PbemError(
            f"entry {item.seq}'s escrow opens with that key and matches its commitments"
        )
    text = f"false escrow in entry {item.seq} by {item.by}: {problem}"
    return ending(FALSE_ESCROW, sides, item.by, item.seq, at, text)


def escrow_of(entry_body: Mapping[str, JSON]) -> str | None:
    """The escrow hex an entry's body carries (None: none)."""
    value = entry_body.get(ESCROW)
    return value if isinstance(value, str) else None


def deal_to(entry_body: Mapping[str, JSON], role: str) -> str | None:
    """The hex of the deal an entry's body seals to `role` (None: none)."""
    deal = entry_body.get(DEAL)
    value = deal.get(role) if isinstance(deal, dict) else None
    return value if isinstance(value, str) else None


def commits_of(
    entry_body: Mapping[str, JSON], role: str | None = None
) -> tuple[tuple[str, str], ...]:
    """The (label, digest) pairs an entry commits, sorted; with `role`, only those it
    commits for that role (`for/ROLE/...`: a referee's deal)."""
    commits = entry_body.get("commit")
    if not isinstance(commits, dict):
        return ()
    pairs = sorted((str(label), str(digest)) for label, digest in commits.items())
    return tuple(p for p in pairs if role is None or dealt_to(p[0]) == role)


def check_unseal(
    body: Mapping[str, JSON],
    game: str,
    by: str,
    sides: Sequence[str],
    settled: Settled | None,
    deals: Mapping[str, Escrowed],
    at: int,
) -> tuple[Outcome, Settled]:
    """The end an `unseal` entry (seq `at`, signed by `by`) gives, else PbemError. It
    publishes the message key of one sealed message, as a `void` does, and is checked
    the same way: the key opens the message or proves nothing. Three cases:

    * a player, asked to act on the referee's latest deal to it (`deals`: role -> it),
      says it does not open or does not match: `{"deal_of": N, "to": ITSELF, "key": K}`.
      K opens a false deal: the referee's lie is proven (FALSE_DEAL). K does not open it:
      the game stops on the player's word (DISPUTED). K opens a true deal: refused.
    * the referee answers that dispute with its own key for the deal (the sender derives
      it too: escrow.sender_message_key): it opens a true deal, so the player's dispute
      was false (FALSE_DISPUTE); a key that does not open it is refused.
    * the author of an escrow the referee voided on its word answers with its own key:
      `{"escrow_of": N, "key": K}`; K opens a true escrow, so the referee's void was
      false (FALSE_VOID); a key that does not open it is refused."""
    fields = frozenset(body)
    if fields not in UNSEAL_FIELDS:
        raise PbemError("an unseal body has exactly escrow_of and key, or deal_of, to and key")
    if "escrow_of" in body:
        return _answer_void(body, game, by, sides, settled, at)
    seq, to = body["deal_of"], body["to"]
    if by == REFEREE:
        return _answer_dispute(body, game, sides, settled, at)
    if settled is not None:
        raise PbemError("the game is over: a deal is disputed while it is played")
    if to != by:
        raise PbemError(f"{by} publishes the key of a deal sealed to itself only, not to {to}")
    item = deals.get(by)
    if item is None or item.seq != seq:
        latest = f"entry {item.seq}" if item is not None else "none yet"
        raise PbemError(
            f"{by} disputes the referee's latest deal to it ({latest}), not entry {seq}"
        )
    opened = opened_by_key(body["key"], bytes.fromhex(item.escrow), deal_context(game, seq, by))
    if opened is None:
        text = (
            f"on {by}'s word, which nothing in the log proves: the referee's deal in entry "
            f"{seq} does not open (the key {by} published in entry {at} does not open it)"
        )
        return ending(DISPUTED, sides, REFEREE, seq, at, text, word=by, item=item)
    problem = false_in(game, opened, item.commits)
    if problem is None:
        raise PbemError(
            f"the deal in entry {seq} opens with that key and matches the referee's commitments"
        )
    text = f"false deal in entry {seq} by the referee: {problem} ({by}'s key, entry {at}, opens it)"
    return ending(FALSE_DEAL, sides, REFEREE, seq, at, text)


def _answered(body: Mapping[str, JSON], game: str, item: Escrowed, where: bytes) -> str | None:
    """What is false in the sealed message `item` opened with the key an answer publishes
    (None: it is true); PbemError when the key does not open it: an answer must."""
    opened = opened_by_key(body["key"], bytes.fromhex(item.escrow), where)
    if opened is None:
        raise PbemError(f"that key does not open entry {item.seq}'s message: it answers nothing")
    return false_in(game, opened, item.commits)


def _answer_dispute(
    body: Mapping[str, JSON],
    game: str,
    sides: Sequence[str],
    settled: Settled | None,
    at: int,
) -> tuple[Outcome, Settled]:
    seq, to = body["deal_of"], body["to"]
    item = settled.item if settled is not None and settled.level == DISPUTED else None
    if settled is None or item is None or (item.seq, item.by) != (seq, to):
        raise PbemError(
            f"the referee publishes the key of its deal in entry {seq} only to answer {to}'s "
            "dispute of it"
        )
    problem = _answered(body, game, item, deal_context(game, seq, to))
    if problem is None:
        text = (
            f"false dispute by {to} in entry {settled.at}: the referee's key (entry {at}) opens "
            f"its deal of entry {seq}, and it matches its commitments"
        )
        return ending(FALSE_DISPUTE, sides, to, settled.at, at, text)
    text = f"false deal in entry {seq} by the referee: {problem} (its own key, entry {at})"
    return ending(FALSE_DEAL, sides, REFEREE, seq, at, text)


def _answer_void(
    body: Mapping[str, JSON],
    game: str,
    by: str,
    sides: Sequence[str],
    settled: Settled | None,
    at: int,
) -> tuple[Outcome, Settled]:
    seq = body["escrow_of"]
    item = settled.item if settled is not None and settled.level == VOID else None
    if settled is None or item is None or item.seq != seq:
        raise PbemError(
            f"an escrow's key is published by its author only to answer a void of it on the "
            f"referee's word, and entry {seq}'s escrow was not voided so"
        )
    if by != item.by:
        raise PbemError(f"entry {seq}'s escrow is {item.by}'s: only its author answers its void")
    problem = _answered(body, game, item, context(game, seq, by))
    if problem is None:
        text = (
            f"false void by the referee in entry {settled.at}: {by}'s key (entry {at}) opens "
            f"its escrow of entry {seq}, and it matches its commitments"
        )
        return ending(FALSE_VOID, sides, REFEREE, settled.at, at, text)
    text = f"false escrow in entry {seq} by {by}: {problem} (its own key, entry {at}, shows it)"
    return ending(FALSE_ESCROW, sides, by, seq, at, text)


# --- what the adjudicator keeps of them, entry by entry ----------------------------------------


def escrows_after(
    entry: Entry, double_blind: bool, escrows: tuple[Escrowed, ...], sides: Sequence[str]
) -> tuple[Escrowed, ...]:
    """The escrows waiting for the referee's attestation once `entry` (a move or an ack)
    is applied: the referee's entry attests them all (`held`), a player's move that
    commits adds its own. PbemError for an escrow or attestation the game refuses."""
    body = entry.body
    if not double_blind:
        if ESCROW in body or HELD in body or DEAL in body:
            raise PbemError("escrow, held and deal belong to double-blind games only")
        return escrows
    if entry.by == REFEREE:
        if ESCROW in body:
            raise PbemError("the referee seals nothing to itself: no escrow")
        check_held(body, escrows)
        check_deal(body, sides)
        return ()
    if HELD in body or DEAL in body:
        raise PbemError("only the referee attests escrows (held) and deals (deal)")
    commits = body.get("commit")
    if not isinstance(commits, dict) or entry.kind != MOVE:
        if ESCROW in body:
            raise PbemError("escrow rides only on a move that commits")
        return escrows
    if ESCROW not in body:
        raise PbemError(
            "in a double-blind game a move that commits carries its openings sealed to "
            "the referee (escrow)"
        )
    sealed = body[ESCROW]
    check_escrow_field(sealed)
    pairs = tuple(sorted((str(label), str(digest)) for label, digest in commits.items()))
    return (*escrows, Escrowed(entry.seq, entry.by, str(sealed), pairs))


def deals_after(
    deals: tuple[Escrowed, ...], entry: Entry, sides: Sequence[str]
) -> tuple[Escrowed, ...]:
    """The referee's latest deal to each role once `entry` (a referee's move that deals,
    checked by `escrows_after`) is applied: what a player may dispute (`unseal`)."""
    latest = {item.by: item for item in deals}
    for role in sorted(sides):
        sealed = deal_to(entry.body, role)
        if sealed is not None:
            commits = commits_of(entry.body, role)
            latest[role] = Escrowed(entry.seq, role, sealed, commits)
    return tuple(latest[role] for role in sorted(latest))


def disclosed(
    game: str, at: int, body: Mapping[str, JSON], sealed: Mapping[str, Sealed]
) -> tuple[dict[str, Sealed], list[str]]:
    """The commitments once the referee's disclose (entry `at`) opens every value still
    sealed, each checked against its commitment, and the labels it opens in its order;
    PbemError when the rules refuse it."""
    if set(body) != {"open"} or not isinstance(body["open"], list):
        raise PbemError('a disclose body has exactly "open", a list of openings')
    still = {s.label: s for s in sealed.values() if not s.opened}
    if not still:
        raise PbemError("nothing is sealed any more: nothing to disclose")
    openings = [Opening.from_json(raw) for raw in body["open"]]
    labels = [opening.label for opening in openings]
    if len(set(labels)) != len(labels) or set(labels) != set(still):
        missing = sorted(set(still) - set(labels))
        raise PbemError(
            "a disclose opens every value still sealed, each once"
            + (f"; missing {', '.join(missing[:5])}" if missing else "")
        )
    after = dict(sealed)
    for opening in openings:
        known = still[opening.label]
        check_opening(game, known.digest, opening)
        after[opening.label] = known.replace(opened=True, value=opening.value, opened_at=at)
    return after, labels


def shown_false(
    shown: FalseClaimError, roles: Mapping[str, str], sides: Sequence[str], at: int
) -> tuple[Outcome, Settled]:
    """The end a claim shown false by the referee's disclose (entry `at`) gives: the liar
    loses (FALSE_CLAIM); a lie of the referee's own leaves no side the winner
    (FALSE_DEAL)."""
    level = FALSE_DEAL if shown.by == REFEREE else FALSE_CLAIM
    culprit = shown.by if shown.by in roles else REFEREE
    text = f"{shown} (shown by the referee's disclose, entry {at})"
    return ending(level, sides, culprit, shown.seq, at, text)
