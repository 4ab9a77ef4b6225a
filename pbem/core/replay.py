"""A game's log as replayed (`Replay`): everything derived from its entries, and what it
answers: whose turn it is, who rolls whose dice, what the log cannot check yet.

`pbem.core.adjudicator.Adjudicator` is a Replay that checks and applies entries; a Replay
changes only through it. It is a record (pbem.record: what @dataclass gives, without
the dataclasses module a `pbem verify` would otherwise import); `Pending` and `ChainState`
are plain classes.
"""

from __future__ import annotations

import itertools
import marshal
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cached_property

from pbem.core import blind
from pbem.core import meta as meta_rules
from pbem.core import referee as league
from pbem.core.canonical import JSON
from pbem.core.engine import Engine, Outcome, Prompt, State
from pbem.core.hashing import hex_bytes
from pbem.core.history import Action, PrivateDraw, Sealed
from pbem.core.log import Entry
from pbem.core.rng import RngRecord, Stream, private_seed
from pbem.crypto.keyline import key_bytes  # (plain encoding: no cryptography here)
from pbem.errors import PbemError
from pbem.hints import TYPE_CHECKING, Any
from pbem.lazy import lazy_module
from pbem.record import MutableRecord

if TYPE_CHECKING:
    from typing import Self

# (copy imports weakref: both run at the first copy, which a genesis alone never makes)
copy = lazy_module("copy")

# (OpenSSH public-key line, message, signature) -> None, raising on a bad signature.
SignatureCheck = Callable[[str, bytes, bytes], None]
# Receives each RNG record of a lean adjudicator once its line is final, in log order.
RngSink = Callable[[RngRecord], None]


class Pending:
    """A decision that asked for dice and waits for another role's reveal."""

    __slots__ = (
        "entry",
        "decision",
        "text",
        "state_before",
        "sealed",
        "committed_now",
        "opened_now",
        "rolled",
    )

    def __init__(
        self,
        entry: Entry,
        decision: Any,
        text: str,
        state_before: State,
        sealed: Mapping[str, Sealed],
        committed_now: tuple[str, ...],
        opened_now: tuple[str, ...],
    ) -> None:
        self.entry = entry
        self.decision = decision
        self.text = text
        self.state_before = state_before
        self.sealed = sealed
        self.committed_now = committed_now
        self.opened_now = opened_now
        # (reveal, state, action): the dice already rolled with the reveal of the entry
        # that follows in a log being verified (`Adjudicator.apply(..., then=...)`)
        self.rolled: tuple[str, State, Action] | None = None

    def __eq__(self, other: object) -> bool:  # (by value, as the dataclass it was)
        if other.__class__ is not self.__class__:
            return NotImplemented
        names = [name for name in self.__slots__ if name != "rolled"]  # (a cache)
        return all(getattr(self, name) == getattr(other, name) for name in names)

    __hash__ = None  # type: ignore[assignment]


class ChainState:
    """A role's hash chain: its length, the last element seen, how many reveals used."""

    __slots__ = ("length", "last", "used")

    def __init__(self, length: int, last: bytes, used: int = 0) -> None:
        self.length = length
        self.last = last  # the anchor, then each reveal in turn
        self.used = used

    def __eq__(self, other: object) -> bool:  # (by value, as the dataclass it was)
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.length, self.last, self.used) == (other.length, other.last, other.used)

    __hash__ = None  # type: ignore[assignment]


_NEW: Any = object()  # a Replay argument not given: a fresh, empty container


# A Replay's fields, in the order of its __init__ (an Adjudicator names the same: a record
# takes its fields from its own class statement, pbem.record); the memos are caches,
# neither shown nor compared.
FIELDS = (
    "engine",
    "genesis",
    "data",
    "check_signature",
    "entries",
    "state",
    "actions",
    "rng_log",
    "sealed",
    "private",
    "private_values",
    "_options",
    "_chains",
    "_pending",
    "lean",
    "rng_sink",
    "_head",
    "_ids",
    "_rng_base",
    "_asked_memo",
    "_opened_memo",
    "_draw_index",
    "meta",
    "escrows",
    "deals",
    "blind_end",
    "disclosed_at",
    "_outcome_pin",
)
MEMOS = ("_asked_memo", "_opened_memo", "_draw_index", "_outcome_pin")


class Replay(MutableRecord, fields=FIELDS, hidden=MEMOS, uncompared=MEMOS):
    """The replayed state of one game's log.

    In lean mode (`start(..., lean=True)`, for verifying long logs) it keeps only what
    later checks need: the entry ids as an index, the head, the entry waiting for
    entropy, commitments, private draws and the engine state. `entries` and `actions`
    stay empty, and `rng_log` holds only the records from the first one whose line can
    still change (a private draw not opened yet); every record before it has been
    handed, final, to `rng_sink`. Counts: `entry_count`, `rng_count`.
    """

    engine: Engine
    genesis: Entry
    data: Any
    check_signature: SignatureCheck
    entries: list[Entry]
    state: State | None
    actions: list[Action]
    rng_log: list[RngRecord]
    sealed: dict[str, Sealed]
    private: dict[str, PrivateDraw]
    private_values: dict[str, int]
    _options: Mapping[str, JSON]
    _chains: dict[str, ChainState]
    _pending: Pending | None
    lean: bool
    rng_sink: RngSink | None
    _head: Entry | None
    _ids: bytearray  # lean: 32 bytes per entry
    _rng_base: int  # index in the whole RNG log of rng_log[0]
    # (state, engine.asked_roles(state)) of the last one-signer check in this `_apply`
    _asked_memo: tuple[State, list[str]] | None
    # (sealed, its opened private values) computed by `_play` in this `_apply`
    _opened_memo: tuple[Mapping[str, Sealed], dict[str, int]] | None
    # (len(private), secret label -> its draws in log order): derived from `private`,
    # which only ever grows; brought up to date when it has grown
    _draw_index: tuple[int, dict[str, list[PrivateDraw]]]
    # the open draw offer and an end agreed in the log (resignation, draw): pbem.core.meta
    meta: meta_rules.MetaState
    # double-blind games (pbem.core.blind): the escrows the referee has not attested yet;
    # the referee's latest deal to each role (Escrowed.by: the role it is sealed to); how
    # one of the game's own entries ended it (a void, a disclose that shows a false claim,
    # an unseal), if one did; the seq of the referee's disclose, once signed
    escrows: tuple[blind.Escrowed, ...]
    deals: tuple[blind.Escrowed, ...]
    blind_end: blind.Settled | None
    disclosed_at: int | None
    # (state, meta, outcome()) while `outcome_pinned` runs, for those very state and meta
    # objects; dropped by every apply and at the block's end
    _outcome_pin: tuple[State | None, meta_rules.MetaState, Outcome | None] | None

    def __init__(
        self,
        engine: Engine,
        genesis: Entry,
        data: Any,
        check_signature: SignatureCheck,
        entries: list[Entry] = _NEW,
        state: State | None = None,
        actions: list[Action] = _NEW,
        rng_log: list[RngRecord] = _NEW,
        sealed: dict[str, Sealed] = _NEW,
        private: dict[str, PrivateDraw] = _NEW,
        private_values: dict[str, int] = _NEW,
        _options: Mapping[str, JSON] = _NEW,
        _chains: dict[str, ChainState] = _NEW,
        _pending: Pending | None = None,
        lean: bool = False,
        rng_sink: RngSink | None = None,
        _head: Entry | None = None,
        _ids: bytearray = _NEW,
        _rng_base: int = 0,
        _asked_memo: tuple[State, list[str]] | None = None,
        _opened_memo: tuple[Mapping[str, Sealed], dict[str, int]] | None = None,
        _draw_index: tuple[int, dict[str, list[PrivateDraw]]] = _NEW,
        meta: meta_rules.MetaState = meta_rules.NONE,
        escrows: tuple[blind.Escrowed, ...] = (),
        deals: tuple[blind.Escrowed, ...] = (),
        blind_end: blind.Settled | None = None,
        disclosed_at: int | None = None,
        _outcome_pin: tuple[State | None, meta_rules.MetaState, Outcome | None] | None = None,
    ) -> None:
        self.engine = engine
        self.genesis = genesis
        self.data = data
        self.check_signature = check_signature
        self.entries = [] if entries is _NEW else entries
        self.state = state
        self.actions = [] if actions is _NEW else actions
        self.rng_log = [] if rng_log is _NEW else rng_log
        self.sealed = {} if sealed is _NEW else sealed
        self.private = {} if private is _NEW else private
        self.private_values = {} if private_values is _NEW else private_values
        self._options = {} if _options is _NEW else _options
        self._chains = {} if _chains is _NEW else _chains
        self._pending = _pending
        self.lean = lean
        self.rng_sink = rng_sink
        self._head = _head
        self._ids = bytearray() if _ids is _NEW else _ids
        self._rng_base = _rng_base
        self._asked_memo = _asked_memo
        self._opened_memo = _opened_memo
        self._draw_index = (0, {}) if _draw_index is _NEW else _draw_index
        self.meta = meta
        self.escrows = escrows
        self.deals = deals
        self.blind_end = blind_end
        self.disclosed_at = disclosed_at
        self._outcome_pin = _outcome_pin

    def fork(self) -> Self:
        """An independent copy: what replaying the same entries again would give, without
        checking them again (a replay is a pure function of the entries' bytes).

        Everything immutable is shared (entries, actions, RNG records, commitments, private
        draws, the engine and its tables); every container and the engine states are
        copied, so that applying entries to one never shows in the other.
        """
        twin = copy.copy(self)
        twin.entries = list(self.entries)
        twin.actions = list(self.actions)
        twin.rng_log = list(self.rng_log)
        twin.sealed = dict(self.sealed)
        twin.private = dict(self.private)
        twin.private_values = dict(self.private_values)
        twin._chains = {r: ChainState(c.length, c.last, c.used) for r, c in self._chains.items()}
        twin._ids = bytearray(self._ids)
        twin.state = copy_state(self.state)
        pending = self._pending
        if pending is not None:
            twin._pending = Pending(
                pending.entry,
                pending.decision,
                pending.text,
                copy_state(pending.state_before),
                pending.sealed,
                pending.committed_now,
                pending.opened_now,
            )
        twin._asked_memo = None
        twin._opened_memo = None
        twin._outcome_pin = None
        twin._draw_index = (0, {})
        return twin

    # --- reading --------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.genesis.id

    @property
    def roles(self) -> dict[str, str]:
        """Role -> OpenSSH public-key line, from genesis."""
        return dict(self.genesis.body["roles"])

    # The genesis never changes, so what is derived from it alone is computed once: these
    # are read on every entry (a copy of the roles, the join order, the entropy role).

    @cached_property
    def _role_keys(self) -> Mapping[str, str]:
        """Role -> public-key line, the genesis's own map: read, never changed or handed out."""
        roles: Mapping[str, str] = self.genesis.body["roles"]
        return roles

    @cached_property
    def _role_raw(self) -> dict[str, bytes]:
        """Role -> its raw 32-byte public key: what keys are compared by, never their lines
        (protocol section 8; the lines were checked canonical by `start`)."""
        return role_key_bytes(self._role_keys)

    @cached_property
    def _game_raw(self) -> bytes:
        return hex_bytes(self.id, "game id")

    @cached_property
    def deadline(self) -> int | None:
        """Hours each player has for each entry it owes, when the genesis sets a deadline
        (then the referee may sign a forfeit: pbem.core.referee), else None."""
        return league.deadline_hours(self.genesis.body["options"], self._role_keys)

    @cached_property
    def double_blind(self) -> bool:
        """Whether the referee holds every player's sealed values (pbem.core.blind)."""
        return league.double_blind(self.genesis.body["options"], self._role_keys)

    @cached_property
    def _join_order(self) -> tuple[str, ...]:
        creator = self.genesis.by
        roles = self._role_keys
        # A referee the engine does not list (any title may have one) joins last.
        listed = (*self.engine.roles, league.REFEREE)
        return (creator, *(r for r in dict.fromkeys(listed) if r in roles and r != creator))

    @cached_property
    def _entropy_roles(self) -> dict[str, str]:
        """Author -> the role that rolls its dice (`_entropy_role`), for every role."""
        order = self._join_order
        return {author: league.witness(author, order) for author in order}

    @property
    def head(self) -> Entry:
        if self.lean:
            assert self._head is not None
            return self._head
        return self.entries[-1]

    @property
    def entry_count(self) -> int:
        """How many entries the log holds (in lean mode too)."""
        return len(self._ids) // 32 if self.lean else len(self.entries)

    def entry_id(self, seq: int) -> str:
        """The id of the log's entry `seq`."""
        if self.lean:
            return self._ids[32 * seq : 32 * seq + 32].hex()
        return self.entries[seq].id

    @property
    def rng_count(self) -> int:
        """How many lines the whole RNG log has (in lean mode too)."""
        return self._rng_base + len(self.rng_log)

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def self_witnessed(self) -> bool:
        """True when some role's dice are seeded by reveals of its own key: a one-role game,
        or a role whose witness (`witness_roles`) holds the same key, however its key line
        is written. Keys are compared as raw bytes (protocol section 8)."""
        keys = self._role_raw
        return any(keys[witness] == keys[author] for author, witness in self._entropy_roles.items())

    def witness_roles(self) -> list[str]:
        """The witnesses, in join order: the roles whose reveals seed draws requested by
        another role. Fixed by the genesis: each role's dice are rolled by the next entry of
        the first other role in join order (`_entropy_role`), and no other entry may roll
        them. Empty in a one-role game. Roles, not keys: when a witness holds the key of a
        role it witnesses, the game is `self_witnessed`."""
        witnesses = {w for author, w in self._entropy_roles.items() if w != author}
        return [role for role in self._join_order if role in witnesses]

    def witnesses(self) -> list[tuple[str, str]]:
        """(role, the role whose next entry rolls its dice), in join order, for every role
        whose dice another role rolls (`witness_roles` are the second ones)."""
        pairs = self._entropy_roles
        return [(r, pairs[r]) for r in self._join_order if r in pairs and pairs[r] != r]

    @property
    def waiting_for_entropy(self) -> bool:
        return self._pending is not None

    def outcome(self) -> Outcome | None:
        """The result: an end the log's own entries signed (a resignation or an agreed draw:
        pbem.core.meta; a forfeit: pbem.core.referee; a double-blind game's void, disclose
        or unseal: pbem.core.blind), else the engine's."""
        pin = self._outcome_pin
        if pin is not None and pin[0] is self.state and pin[1] is self.meta:
            return pin[2]
        if self.meta.ended is not None:
            return self.meta.ended
        return None if self.state is None else self.engine.outcome(self.state)

    @contextmanager
    def outcome_pinned(self) -> Iterator[Outcome | None]:
        """`outcome()` worked out once for the reads of a `with` block, and given.

        A verification's report asks it five times (the summary, the verdict, the ending
        lines, the save header's result), each time asking the engine, whose answer can
        cost (about 2% of verifying a Gotterdammerung save). While the block runs, the
        answer is kept with the very state and meta objects it was worked out from and is
        given only while the game still holds those; every `apply` drops it (a game that
        moves on is asked again), and so does the block's end."""
        self._outcome_pin = None
        outcome = self.outcome()
        self._outcome_pin = (self.state, self.meta, outcome)
        try:
            yield outcome
        finally:
            self._outcome_pin = None

    @property
    def ended_by_agreement(self) -> bool:
        """Whether one of the log's own entries ended the game, not its rules (a
        resignation, an agreed draw, a forfeit, a double-blind end): pbem.verdicts.basis
        says which."""
        return self.meta.ended is not None

    @cached_property
    def sides(self) -> tuple[str, ...]:
        """The roles that play a side (may resign, offer or accept a draw): pbem.core.meta."""
        return meta_rules.sides(self.engine.required_roles, self._role_keys)

    def prompts(self) -> list[Prompt]:
        """Who is asked for what now, joins and entropy acknowledgements included: at most
        one role (protocol section 8, one signer at a time)."""
        joiner = self._next_joiner()
        if joiner is not None:
            return [Prompt(joiner, "join the game")]
        if self.meta.ended is not None:
            return []
        if self.meta.takeback is not None:
            proposer, to, at, whose = self.meta.takeback
            text = f"{proposer} proposes (entry {at}) taking back your entries from {to}: "
            return [Prompt(whose, text + "accept or decline")]
        if self._pending is not None:
            author = self._pending.entry.by
            return [
                Prompt(
                    self._entropy_role(author),
                    f"acknowledge entry {self._pending.entry.seq} to roll its dice",
                )
            ]
        assert self.state is not None
        return self.engine.prompts(self.state)

    def next_signer(self) -> str | None:
        """The one role entitled to sign the next entry (None once the game is over)."""
        joiner = self._next_joiner()
        if joiner is not None:
            return joiner
        if self.meta.ended is not None:
            return None
        if self.meta.takeback is not None:
            return self.meta.takeback[3]  # the proposal asks the role whose entries go
        if self._pending is not None:
            return self._entropy_role(self._pending.entry.by)
        assert self.state is not None
        asked = self.engine.asked_roles(self.state)
        return asked[0] if asked else None

    def asked(self, role: str) -> bool:
        return self.next_signer() == role

    def next_reveal_index(self, role: str) -> int:
        """Which chain element `role` reveals in its next entry."""
        return self._chains[role].used + 1

    def chain_length(self, role: str) -> int:
        return self._chains[role].length

    def join_order(self) -> list[str]:
        """The order in which the roles join: the creator first, then the others in the
        engine's role order (one signer at a time: two joins never compete for a seq)."""
        return list(self._join_order)

    def _next_joiner(self) -> str | None:
        if len(self._chains) == len(self._join_order):
            return None  # everyone has joined (the usual case, once play has started)
        for role in self._join_order:
            if role not in self._chains:
                return role
        return None

    def _entropy_role(self, author: str) -> str:
        """Who rolls the dice an entry of `author` waits for: the referee, else the first
        other role in join order (the author itself in a one-role game, self-witnessed)."""
        found = self._entropy_roles.get(author)
        if found is not None:
            return found
        return league.witness(author, self._join_order)  # (an author that is no role)

    # --- hidden information (protocol section 5) ------------------------------------------

    def unopened(self) -> list[Sealed]:
        """Commitments still sealed: by the end of a game there must be none."""
        return [s for s in self.sealed.values() if not s.opened]

    def unchecked(self) -> list[str]:
        """What this log cannot check yet, by entry and role (protocol section 8): sealed
        values, private draws of a sealed secret, claims about sealed values, and dice that
        wait for an entry nobody has sent. Empty when everything is checked."""
        found: list[tuple[int, str, str]] = []
        for sealed in self.unopened():
            found.append((sealed.seq, sealed.role, f"commitment {sealed.label} is not opened"))
        for draw in self.private.values():
            owner = self.sealed.get(draw.secret)
            if owner is not None and not owner.opened:
                found.append(
                    (
                        draw.requesting_seq,
                        owner.role,
                        f"private draw {draw.purpose!r} (its secret {draw.secret} is not opened)",
                    )
                )
        if self.state is not None:
            for seq, role, what in self.engine.unchecked_claims(self.state):
                found.append((seq, role, f"{what}: not checked while it is sealed"))
        pending = self._pending
        if pending is not None:
            found.append(
                (
                    pending.entry.seq,
                    pending.entry.by,
                    "its dice are not rolled: they wait for the next entry of "
                    + self._entropy_role(pending.entry.by),
                )
            )
        found.sort(key=lambda item: item[0])
        return [f"entry {seq} by {role}: {what}" for seq, role, what in found]

    def private_values_for(self, known: Mapping[str, JSON]) -> dict[str, int]:
        """The values of private draws whose secrets are in `known` (an owner's own store)."""
        values: dict[str, int] = {}
        for label in {d.secret for d in self.private.values()} & set(known):
            values.update(self._private_values(label, known[label]))
        return values

    def _private_values(self, secret: str, x: JSON) -> dict[str, int]:
        """Values of every private draw seeded by the secret labelled `secret` (now opened)."""
        draws = self._draws_of().get(secret)
        if not draws:
            return {}
        if not isinstance(x, str):
            raise PbemError(f"{secret} seeds private draws, so it must open as 64 hex digits")
        hex_bytes(x, f"private secret {secret}")
        streams: dict[str, Stream] = {}
        values = {}
        for draw in draws:
            stream = streams.setdefault(
                draw.requesting_id,
                Stream(private_seed(self.id, draw.requesting_id, x, draw.reveal)),
            )
            values[draw.key] = stream.between(draw.lo, draw.hi)
        return values

    def _draws_of(self) -> dict[str, list[PrivateDraw]]:
        """Secret label -> its private draws in log order (what `_private_values` used to
        filter and sort out of every draw of the game, for each secret opened)."""
        known, index = self._draw_index
        if known != len(self.private):
            for draw in itertools.islice(self.private.values(), known, None):
                group = index.setdefault(draw.secret, [])
                group.append(draw)
                if len(group) > 1 and group[-2].log_index > draw.log_index:
                    group.sort(key=lambda d: d.log_index)  # (stable, as sorted() was)
            self._draw_index = (len(self.private), index)
        return index

    # --- the log's own bookkeeping, as an entry is committed ------------------------------

    def _append(self, entry: Entry) -> None:
        if self.lean:
            self._head = entry
            self._ids += bytes.fromhex(entry.id)
        else:
            self.entries.append(entry)

    def _flush_rng(self) -> None:
        """Lean mode: hand every record before the first still-private one to the sink."""
        final = 0
        for record in self.rng_log:
            if record.value is None:
                break
            final += 1
        if not final:
            return
        if self.rng_sink is not None:
            for record in self.rng_log[:final]:
                self.rng_sink(record)
        del self.rng_log[:final]
        self._rng_base += final

    def _record_private_values(self, opened_values: Mapping[str, int]) -> None:
        """Private draws whose secrets were just opened: their values, in the RNG log too."""
        for key, value in opened_values.items():
            self.private_values[key] = value
            at = self.private[key].log_index - self._rng_base
            self.rng_log[at] = self.rng_log[at].replace(value=value)
        if self.lean and self.rng_log:
            self._flush_rng()


def copy_state(state: Any) -> Any:
    """A deep copy of an engine state: marshal's (several times faster) for plain data,
    copy.deepcopy's for anything else."""
    if state is None:
        return None
    try:
        return marshal.loads(marshal.dumps(state))
    except ValueError:  # not plain data (a type marshal does not know)
        return copy.deepcopy(state)


def role_key_bytes(roles: Mapping[str, str]) -> dict[str, bytes]:
    """Role -> raw public key of a genesis's roles; PbemError naming the role whose key line
    is not a canonical Ed25519 public-key line (protocol section 8: keys compared as keys)."""
    found: dict[str, bytes] = {}
    for role, line in roles.items():
        try:
            found[role] = key_bytes(line)
        except PbemError as exc:
            raise PbemError(f"role {role!r}: {exc}") from None
    return found
