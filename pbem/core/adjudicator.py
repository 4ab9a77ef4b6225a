"""Applies a log of entries to a game engine: checks, defers, resolves, replays.

The adjudicator is the one place where the protocol meets the rules:

* every entry is checked against the log (game id, seq, prev, signature, reveal);
* joins record each role's hash-chain anchor; play starts when every role has joined;
* a move is parsed in the game's syntax, must come from a role the engine asks,
  and is applied with a context whose draws are *deferred* (protocol section 4):
  the engine validates the decision, and at its first draw the game waits for
  the next entry by another role, whose reveal seeds the dice;
* everything derived (state, RNG log, history) is recomputed from the entries,
  so replaying the same entries always gives the same result.

Processing an entry is all-or-nothing: when an entry is refused, the object is
exactly as it was before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from pbem.core import blind, chain
from pbem.core import meta as meta_rules
from pbem.core import referee as league
from pbem.core.canonical import JSON
from pbem.core.commit import Opening, check_opening
from pbem.core.context import ApplyContext
from pbem.core.engine import Engine, Outcome, State
from pbem.core.hashing import hex_bytes, is_lower_hex, sha256
from pbem.core.history import Action, PrivateDraw, Sealed
from pbem.core.log import ACK, GENESIS, JOIN, MOVE, Entry
from pbem.core.replay import (
    FIELDS,
    MEMOS,
    ChainState,
    Pending,
    Replay,
    RngSink,
    SignatureCheck,
    copy_state,
    role_key_bytes,
)
from pbem.core.rng import RNG_DOMAIN, RngRecord, Stream, public_seed
from pbem.core.tables import DataSource, Unloaded, load_data_cached
from pbem.core.tables import data_digest as data_digest  # (its name here, as before)
from pbem.errors import EntropyPending, FalseClaimError, PbemError
from pbem.hints import TYPE_CHECKING, Any
from pbem.lazy import lazy_module

if TYPE_CHECKING:
    from pbem.core.tables import TableStore


# (copy imports weakref: both run at the first copy, which a genesis alone never makes)
copy = lazy_module("copy")


class EntryRefused(PbemError):
    """An entry that breaks the protocol or the rules; names the entry, its signer and why."""

    def __init__(self, entry: Entry, reason: str) -> None:
        super().__init__(f"{entry.describe()} refused: {reason}")
        self.entry = entry  # (a league's report names the first bad entry: pbem.verify)
        self.seq = entry.seq
        self.by = entry.by
        self.reason = reason


class Adjudicator(Replay, fields=FIELDS, hidden=MEMOS, uncompared=MEMOS):
    """Checks each entry of one game's log against the protocol and the rules, and applies
    it to the Replay it is (pbem.core.replay): all or nothing."""

    # The game's data tables: `start` keeps a snapshot of them (pbem.core.tables.Unloaded),
    # unmarshalled here at the first read (the engine's setup, at the last join).
    @property
    def data(self) -> Any:
        found = self.__dict__["data"]
        if type(found) is Unloaded:
            found = self.__dict__["data"] = found.load()
        return found

    @data.setter
    def data(self, value: Any) -> None:
        self.__dict__["data"] = value

    # --- starting -------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        genesis: Entry,
        engines: Callable[[str], Engine],
        data_source: DataSource,
        check_signature: SignatureCheck,
        *,
        lean: bool = False,
        rng_sink: RngSink | None = None,
        tables: TableStore | None = None,
    ) -> Adjudicator:
        """Check a genesis entry and open its game (`lean`: see Replay; `tables`: where
        parsed data tables are also kept, beyond this process's own cache)."""
        try:
            body = _genesis_body(genesis)
            engine = engines(str(body["rules"]))
            version = str(body["rules_version"])
            if version != engine.version:
                if version not in engine.earlier_versions:
                    raise PbemError(
                        f"rules {engine.name} version {version} is not supported "
                        f"(this pbem has {engine.version})"
                    )
                engine = engine.for_version(version)  # a game of earlier rules keeps them
            roles: dict[str, str] = body["roles"]
            for role in roles:
                if role not in engine.roles and role != league.REFEREE:
                    raise PbemError(f"{engine.name} has no role {role!r}")
            for role in engine.required_roles:
                if role not in roles:
                    raise PbemError(f"{engine.name} needs a {role!r} role")
            if genesis.by not in roles:
                raise PbemError(f"signer {genesis.by!r} is not one of the roles")
            role_key_bytes(roles)  # every role's key line canonical, before any is used
            check_signature(roles[genesis.by], genesis.canonical, genesis.signature)
            files = data_source(engine, body["data"])
            data = load_data_cached(engine, files, tables, lazy=True)
            options: Mapping[str, JSON] = body["options"]
            league.deadline_hours(options, roles)  # (refused here, before any join)
            league.created_time(body)
            league.check_engine_options(
                league.engine_options(options),
                engine.double_blind_options,
                league.double_blind(options, roles),
            )
        except EntryRefused:
            raise
        except PbemError as exc:
            raise EntryRefused(genesis, str(exc)) from None
        game = cls(
            engine,
            genesis,
            data,
            check_signature,
            _options=league.engine_options(options),
            lean=lean,
            rng_sink=rng_sink,
        )
        game._append(genesis)
        return game

    # --- applying -------------------------------------------------------------------------

    def apply(self, entry: Entry, then: Entry | None = None) -> None:
        """Check `entry` against the log and the rules, then append it. All or nothing.

        `then`, when the caller already holds it (a verifier reading a whole log), is the
        entry that follows: if `entry` asks for dice that `then` rolls, they are rolled at
        once instead of applying the decision twice (without entropy now, with it when
        `then` arrives). Only a speed-up: whatever `then` turns out to be, every result,
        refusal and message is the same as without it (see `_play`)."""
        # (the checks in line, not in a method of their own: a call saved on every entry)
        # (`_asked_memo` is kept from the entry before: it names the very state object it
        # asked about, and a state is never changed once made, only replaced; most often
        # it is the state this entry plays on, asked about when the entry before made it)
        self._opened_memo = None
        self._outcome_pin = None
        try:
            roles = self._role_keys
            if entry.by not in roles:
                raise PbemError(f"{entry.by!r} is not a role of this game")
            # The signature first: damage to signed bytes must read as damage, not as a
            # wrong game or a broken chain.
            self.check_signature(roles[entry.by], entry.canonical, entry.signature)
            head = self._head if self.lean else self.entries[-1]  # (`head`, `id` in line)
            assert head is not None  # (a game holds its genesis from its start)
            if entry.game != self.genesis.id or entry.seq != head.seq + 1 or entry.prev != head.id:
                self._check_position(entry)  # (says what is wrong)
            handler = _KINDS.get(entry.kind)
            if handler is None:
                raise PbemError(f"unknown entry kind {entry.kind!r}")
            handler(self, entry, then)
        except EntryRefused:
            raise
        except PbemError as exc:
            raise EntryRefused(entry, str(exc)) from None

    def _commit(self, entry: Entry, link: ChainState, actions: Iterable[Action] = ()) -> None:
        """What every entry kind commits last, once everything is checked: its signer's
        chain moves on to `link`, the entry joins the log and its actions the history."""
        self._chains[entry.by] = link
        self._append(entry)
        if not self.lean:
            self.actions.extend(actions)

    def _apply_turn(self, entry: Entry, then: Entry | None) -> None:
        """A move or an ack: it rolls the dice that wait, if any (the signer's reveal seeds
        them), then carries a decision, an acknowledgement or a meta entry (`_CARRIED`),
        and any meta fields beside (a note, a draw offer: pbem.core.meta)."""
        if self.state is None:  # (not started)
            waiting = ", ".join(r for r in self._role_keys if r not in self._chains)
            raise PbemError(f"play has not started: waiting for {waiting} to join")
        if self.meta.ended is not None or self.engine.outcome(self.state) is not None:
            raise PbemError("the game is over")  # (self.outcome(), one call less)
        body = entry.body
        # (the common cases of `check_entry`, `_resolve_for`, `escrows_after` and
        # `turn_kind` told in line: no meta field and no take-back proposal open, no dice
        # waiting, no escrow field in a game that is not double-blind, a decision)
        if self.meta.takeback is None and meta_rules.FIELDS.isdisjoint(body):
            has_meta = False
        else:
            has_meta = meta_rules.check_entry(self.meta, entry.kind, body)
        link = self._checked_reveal(entry)
        actions: list[Action]
        records: list[RngRecord]
        if self._pending is None:
            state, actions, records = self.state, [], []
        else:
            state, actions, records = self._resolve_for(entry, link.last)
        if self.double_blind or not _BLIND_FIELDS.isdisjoint(body):
            escrows = blind.escrows_after(entry, self.double_blind, self.escrows, self.sides)
        else:
            escrows = self.escrows
        deals = (
            blind.deals_after(self.deals, entry, self.sides) if blind.DEAL in body else self.deals
        )
        if "decision" in body:  # (then never META: see meta_rules.meta_only)
            carried = _CARRIED[entry.kind]
        else:
            carried = _CARRIED[meta_rules.turn_kind(entry.kind, body)]
        state, pending, action, sealed = carried(self, state, entry, then, bool(actions))
        if action is not None:
            actions.append(action)
        new_meta, state = self._meta_after(entry, has_meta, state, actions, records, pending)
        # (both empty for most entries: only asked when there is something to find)
        draws = self._private_draws(records, entry.reveal) if records else []
        memo = self._opened_memo
        if sealed is self.sealed:
            opened_values = {}
        elif memo is not None and memo[0] is sealed:
            opened_values = memo[1]  # computed by _play for this very entry
        else:
            opened_values = self._opened_private_values(sealed)
        # Everything checked: commit.
        self.meta = new_meta
        self.escrows = escrows
        self.deals = deals
        self.sealed = sealed
        self.state = state
        self._pending = pending
        # (`_commit` and `_append` in line: two calls saved on every move and ack)
        self._chains[entry.by] = link
        if self.lean:
            self._head = entry
            self._ids += bytes.fromhex(entry.id)
        else:
            self.entries.append(entry)
            self.actions.extend(actions)
        self.rng_log.extend(records)
        for draw in draws:
            self.private[draw.key] = draw
        if opened_values or (self.lean and self.rng_log):  # (else it does nothing)
            self._record_private_values(opened_values)

    def _acknowledge(
        self, state: State, entry: Entry, _then: Entry | None, rolled: bool
    ) -> tuple[State, Pending | None, Action | None, dict[str, Sealed]]:
        """An ack: it rolls the dice that wait and carries nothing else, but a note or a
        draw offer (and the referee's attestation of escrows, `held`)."""
        if set(entry.body) - _ACK_FIELDS:
            raise PbemError("an ack carries no body but a note or a draw offer")
        if not rolled:
            raise PbemError("out of turn: there are no dice waiting for this ack")
        return state, None, None, self.sealed

    def _meta_move(
        self, state: State, entry: Entry, _then: Entry | None, rolled: bool
    ) -> tuple[State, Pending | None, Action | None, dict[str, Sealed]]:
        """A move with no decision: a resignation, a draw offered or accepted, a take-back
        proposed or answered (pbem.core.meta, which `_meta_after` applies)."""
        if meta_rules.signer_asked(entry.body, rolled):
            self._check_asked(state, entry)
        return state, None, None, self.sealed

    def _meta_after(
        self,
        entry: Entry,
        has_meta: bool,
        state: State,
        actions: list[Action],
        records: list[RngRecord],
        pending: Pending | None,
    ) -> tuple[meta_rules.MetaState, State]:
        """The meta state after a move or an ack whose play gave `state`, and the state it
        leaves (an accepted take-back returns to an earlier one); adds what it said to
        `actions`."""
        new_meta, said, answered, back = meta_rules.after(
            self.meta, entry, has_meta, self.sides, self.state, bool(records), pending is not None
        )
        if new_meta.ended is not None and self.engine.outcome(state) is not None:
            raise PbemError(
                "the game ended with the dice this entry rolls: acknowledge them instead"
            )
        if said:
            actions.append(Action(entry.seq, entry.by, said, turn=_turn(state)))
        if back is not None:
            state = copy_state(back)
        if answered:
            actions.append(Action(entry.seq, entry.by, answered, turn=_turn(state)))
        return new_meta, state

    def _check_position(self, entry: Entry) -> None:
        head = self.head
        if entry.game != self.id:
            raise PbemError(f"belongs to game {entry.game}, not {self.id}")
        if entry.seq != head.seq + 1 or entry.prev != head.id:
            if entry.seq <= head.seq:
                raise PbemError(
                    f"stale head: the log already has entry {entry.seq}; "
                    f"the head is entry {head.seq} ({head.id[:12]})"
                )
            raise PbemError(
                f"does not follow the head: expected seq {head.seq + 1} after "
                f"{head.id[:12]}, got seq {entry.seq} after {str(entry.prev)[:12]}"
            )

    def _apply_join(self, entry: Entry, _then: Entry | None) -> None:
        """A role's join: its hash chain's anchor and length; the last join starts play."""
        body = entry.body
        if entry.by in self._chains:
            raise PbemError(f"{entry.by} has already joined")
        joiner = self._next_joiner()
        if entry.by != joiner:
            raise PbemError(
                f"out of turn: {joiner} joins next (roles join in the order "
                f"{', '.join(self.join_order())}; protocol section 8)"
            )
        if set(body) != {"anchor", "length"}:
            raise PbemError("a join body has exactly anchor and length")
        anchor, length = body["anchor"], body["length"]
        if not isinstance(length, int) or isinstance(length, bool) or length < chain.MIN_LENGTH:
            raise PbemError(f"hash-chain length must be an integer >= {chain.MIN_LENGTH}")
        link = ChainState(length, hex_bytes(anchor, "anchor"))
        state = None
        if set(self._chains) | {entry.by} == set(self._role_keys):
            state = self.engine.setup(self.data, self._options)
            self._check_one_signer(state)
        self._commit(entry, link, [Action(entry.seq, entry.by, "joined")])
        if state is not None:
            self.state = state

    def _apply_forfeit(self, entry: Entry, _then: Entry | None) -> None:
        """A referee's forfeit (pbem.core.referee): it ends the game against the player
        the game waited for, when that player's deadline has passed by the referee's clock."""
        if entry.by != league.REFEREE:
            raise PbemError(f"a forfeit is signed by the referee only, not by {entry.by}")
        if self.state is None:
            raise PbemError("play has not started: a forfeit ends a game in play")
        if self.outcome() is not None:
            raise PbemError("the game is over")
        if self._pending is not None:
            raise PbemError(
                f"entry {self._pending.entry.seq}'s dice wait for the referee's own "
                "acknowledgement: nobody else is late"
            )
        if "note" in entry.body:
            meta_rules.check_note(entry.body["note"])
        head = self.head
        ended = league.check_forfeit(
            entry.body,
            self.deadline,
            (head.seq, head.id),
            self.next_signer(),
            self.sides,
            league.created_time(self.genesis.body),
        )
        link = self._checked_reveal(entry)
        self.meta = self.meta.replace(offer_by=None, offer_seq=None, ended=ended, takeback=None)
        self._commit(entry, link, [Action(entry.seq, entry.by, ended.text, turn=_turn(self.state))])

    # --- double-blind games (pbem.core.blind) ----------------------------------------------

    def _blind_entry(self, entry: Entry, referee_only: bool = True) -> None:
        """What a double-blind game's own entries share: a double-blind game in play or
        over (after its start), signed by the referee (`referee_only`) or by a role of it."""
        if not self.double_blind:
            raise PbemError(f"a {entry.kind} belongs to double-blind games only")
        if referee_only and entry.by != league.REFEREE:
            raise PbemError(f"a {entry.kind} is signed by the referee only, not by {entry.by}")
        if self.state is None:
            raise PbemError("play has not started")
        if self.disclosed_at is not None:
            raise PbemError(
                f"the referee disclosed every sealed value in entry {self.disclosed_at}"
            )

    def _end_blind(self, entry: Entry, ended: Outcome, settled: blind.Settled) -> None:
        """Commit an end of blind.ENDS that `entry` (its reveal not checked yet) signs."""
        link = self._checked_reveal(entry)
        self.meta = self.meta.replace(offer_by=None, offer_seq=None, ended=ended, takeback=None)
        self.blind_end = settled
        self.escrows = ()
        self._pending = None  # (dice that waited are never rolled: the game is over)
        turn = _turn(self.state) if self.state is not None else None
        self._commit(entry, link, [Action(entry.seq, entry.by, ended.text, turn=turn)])

    def _apply_void(self, entry: Entry, _then: Entry | None) -> None:
        """The referee answers an escrow that does not open to its entry's commitments
        (pbem.core.blind): the game ends, against the author when the key proves it. While
        the game is played, or once it is over by its rules or an agreement (an escrow of
        the last moves, never attested), before the disclose."""
        self._blind_entry(entry)
        if self.blind_end is not None:
            raise PbemError(f"the game is over: {self.blind_end.text}")
        ended, settled = blind.check_void(entry.body, self.id, self.escrows, self.sides, entry.seq)
        self._end_blind(entry, ended, settled)

    def _apply_unseal(self, entry: Entry, _then: Entry | None) -> None:
        """A published message key (pbem.core.blind.check_unseal): a player's dispute of a
        deal it must act on, while it is asked; the referee's answer to it; an author's
        answer to a void on the referee's word."""
        self._blind_entry(entry, referee_only=False)
        answers = self.blind_end is not None
        if not answers:
            if self.outcome() is not None:
                raise PbemError("the game is over: a deal is disputed while it is played")
            asked = self.next_signer()
            if self._pending is not None or asked != entry.by:
                raise PbemError(
                    f"out of turn: a deal is disputed by the role asked to act on it "
                    f"({asked}), not by {entry.by}"
                )
        deals = {item.by: item for item in self.deals}
        ended, settled = blind.check_unseal(
            entry.body, self.id, entry.by, self.sides, self.blind_end, deals, entry.seq
        )
        self._end_blind(entry, ended, settled)

    def _apply_disclose(self, entry: Entry, _then: Entry | None) -> None:
        """The referee opens every value still sealed once the game is over; each opening
        is checked against its commitment, then the game's claim checks run on them. A
        claim they show false does not refuse the disclose: it is the proof the log keeps
        (the liar loses; a lie of the referee's own leaves no side the winner)."""
        self._blind_entry(entry)
        if self.outcome() is None:
            raise PbemError("the game is not over: values are disclosed at its end")
        if self.blind_end is not None:
            raise PbemError(f"nothing to disclose: the game ended so: {self.blind_end.text}")
        sealed, labels = blind.disclosed(self.id, entry.seq, entry.body, self.sealed)
        opened_values = self._opened_private_values(sealed)
        ctx = ApplyContext(
            None,
            entry.seq,
            None,
            sealed,
            (),
            tuple(labels),
            {**self.private_values, **opened_values},
        )
        assert self.state is not None
        shown: FalseClaimError | None = None
        try:
            state = self.engine.settle(self.state, ctx)
        except FalseClaimError as exc:
            shown, state = exc, self.state  # (the claims after it are moot: the liar loses)
        link = self._checked_reveal(entry)
        text = f"the referee discloses {len(labels)} sealed values"
        if shown is not None:
            ended, settled = blind.shown_false(shown, self._role_keys, self.sides, entry.seq)
            text += f": {ended.text}"
        # Everything checked: commit.
        self.escrows = ()
        self.sealed = sealed
        self.state = state
        self.disclosed_at = entry.seq
        if shown is not None:
            self.meta = self.meta.replace(ended=ended)
            self.blind_end = settled
        self._commit(
            entry, link, [Action(entry.seq, entry.by, text, tuple(ctx.events), turn=_turn(state))]
        )
        self._record_private_values(opened_values)

    # --- reveals, dice and decisions (protocol sections 4 and 5) ---------------------------

    def _checked_reveal(self, entry: Entry) -> ChainState:
        current = self._chains.get(entry.by)
        if current is None:
            raise PbemError(f"{entry.by} has not joined")
        if current.used >= current.length:
            raise PbemError(f"{entry.by}'s hash chain is used up")
        reveal = bytes.fromhex(str(entry.reveal))
        if not chain.check_reveal(current.last, reveal):
            raise PbemError(
                f"reveal does not hash to {entry.by}'s previous chain value "
                f"(element {current.used + 1} of the chain anchored at join)"
            )
        return ChainState(current.length, reveal, current.used + 1)

    def _check_one_signer(self, state: State) -> None:
        """Refuse a state in which the engine asks two roles at once (protocol section 8)."""
        asked = self.engine.asked_roles(state)
        # The entry that plays on this state asks this again of the same state object (in
        # the same `_apply` when it rolls waiting dice and then decides, else in the next
        # one); nothing changes a state once made (engines return new ones).
        self._asked_memo = (state, asked)
        if len(asked) > 1:
            raise PbemError(
                f"the rules engine asks {' and '.join(asked)} at once; one signer at a time "
                "(protocol section 8): choices made at the same time are a sealed round"
            )

    def _resolve_for(
        self, entry: Entry, reveal_raw: bytes
    ) -> tuple[State, list[Action], list[RngRecord]]:
        """The state `entry` plays on: if dice are waiting and `entry` may roll them, roll
        them; PbemError if they wait for another role's entry."""
        pending = self._pending
        assert self.state is not None
        if pending is None:
            return self.state, [], []
        roller = self._entropy_role(pending.entry.by)
        if entry.by != roller:
            # Same author while its dice wait: the protocol wants another role first.
            raise PbemError(
                f"waiting for entropy: entry {pending.entry.seq}'s dice are rolled "
                f"by the next entry of {roller}"
            )
        rolled = pending.rolled
        if rolled is not None and rolled[0] == entry.reveal and rolled[2].resolved_at == entry.seq:
            _reveal, state, action = rolled  # rolled ahead with this very (now checked) reveal
        else:
            state, action = self._roll(pending, entry.seq, str(entry.reveal), reveal_raw)
        return state, [action], list(action.rng)

    def _private_draws(self, records: list[RngRecord], reveal: str | None) -> list[PrivateDraw]:
        """The private draws among freshly produced records, keyed as the context keyed them."""
        draws: list[PrivateDraw] = []
        counts: dict[int, int] = {}
        for offset, record in enumerate(records):
            if record.secret is None or record.lo is None or record.hi is None:
                continue
            k = counts.get(record.requesting_seq, 0)
            counts[record.requesting_seq] = k + 1
            draws.append(
                PrivateDraw(
                    f"draw/{record.requesting_seq}/{k}",
                    record.secret,
                    record.requesting_seq,
                    self.entry_id(record.requesting_seq),
                    record.producing_seq,
                    str(reveal),
                    record.lo,
                    record.hi,
                    record.purpose,
                    self.rng_count + offset,
                )
            )
        return draws

    def _roll(
        self,
        pending: Pending,
        producing: int,
        reveal: str,
        reveal_raw: bytes | None = None,
        private_values: Mapping[str, int] | None = None,
    ) -> tuple[State, Action]:
        if reveal_raw is not None and reveal_raw.hex() == reveal:
            # public_seed's bytes without decoding the game id and the reveal again: the
            # reveal's bytes were decoded (and checked against its chain) already, and the
            # game id is decoded once per game, with the same checks.
            entry_raw = hex_bytes(pending.entry.id, "entry id")
            seed = sha256(RNG_DOMAIN, self._game_raw, entry_raw, reveal_raw)
        else:
            seed = public_seed(self.id, pending.entry.id, reveal)
        ctx = ApplyContext(
            Stream(seed),
            pending.entry.seq,
            producing,
            pending.sealed,
            pending.committed_now,
            pending.opened_now,
            self.private_values if private_values is None else private_values,
        )
        state = self.engine.apply(pending.state_before, pending.entry.by, pending.decision, ctx)
        self._check_one_signer(state)
        action = Action(
            pending.entry.seq,
            pending.entry.by,
            pending.text,
            tuple(ctx.events),
            tuple(ctx.records),
            resolved_at=producing,
            turn=_turn(state),
        )
        return state, action

    def _rolls_next(self, entry: Entry, then: Entry) -> bool:
        """Whether `then` would be the entry that rolls dice `entry` asks for."""
        return (
            then.seq == entry.seq + 1
            and then.by == self._entropy_role(entry.by)
            and then.kind in (MOVE, ACK)
            and isinstance(then.reveal, str)
        )

    def _roll_ahead(
        self, pending: Pending, then: Entry, private_values: Mapping[str, int]
    ) -> tuple[State, Pending | None, Action | None] | None:
        """Apply a decision with the dice `then`'s reveal gives, in one pass; None when the
        two passes of play must decide (the decision is refused, or the reveal is bad).

        Why the result is the same as two passes: the first pass (no entropy) runs the
        same deterministic code up to the first draw and stops there; a pass that makes
        no draw returns what the first pass would; one that draws and succeeds means the
        first pass would have stopped at that draw, waiting, and the second (at `then`,
        once its reveal is checked) would give this state. The result is only used if
        `then` arrives with this reveal and is accepted."""
        reveal = str(then.reveal)
        if len(reveal) != 64 or not is_lower_hex(reveal):
            return None
        try:
            state, action = self._roll(
                pending, then.seq, reveal, bytes.fromhex(reveal), private_values
            )
        except PbemError:
            return None  # the two passes say which entry is refused, and why
        if not action.rng:  # no draw: not waiting for anything
            if self.lean:  # (no action kept: see `_play`)
                return state, None, None
            plain = Action(action.seq, action.by, action.text, action.events, turn=action.turn)
            return state, None, plain
        pending.rolled = (reveal, state, action)
        return pending.state_before, pending, None

    def _play(
        self, state: State, entry: Entry, then: Entry | None, _rolled: bool
    ) -> tuple[State, Pending | None, Action | None, dict[str, Sealed]]:
        """Parse and apply the decision a move carries; defer it if it needs dice."""
        body = entry.body
        if "decision" not in body or not isinstance(body["decision"], str):
            raise PbemError("a move body needs a decision (text)")
        if not _MOVE_FIELDS.issuperset(body):
            unknown = set(body) - _MOVE_FIELDS
            raise PbemError(f"unknown move body field(s): {', '.join(sorted(unknown))}")
        text = body["decision"]
        memo = self._asked_memo  # (`_check_asked`'s memo: the usual case told in line)
        if memo is None or memo[0] is not state or entry.by not in memo[1]:
            self._check_asked(state, entry)
        if "commit" in body or "open" in body:
            sealed, committed_now, opened_now = self._seal_and_open(entry)
        else:  # (what `_seal_and_open` gives for it)
            sealed, committed_now, opened_now = self.sealed, (), ()
        decision = self.engine.parse(text, state, entry.by)
        canonical_text = self.engine.format(decision)
        if canonical_text != text:
            raise PbemError(f"decision {text!r} is not in canonical form {canonical_text!r}")
        opened_values = {}
        if sealed is not self.sealed:
            opened_values = self._opened_private_values(sealed, opened_now)
            self._opened_memo = (sealed, opened_values)
        private_values = {**self.private_values, **opened_values} if opened_values else None
        if then is not None and self._rolls_next(entry, then):
            ahead = self._roll_ahead(
                Pending(entry, decision, text, state, sealed, committed_now, opened_now),
                then,
                self.private_values if private_values is None else private_values,
            )
            if ahead is not None:
                return ahead[0], ahead[1], ahead[2], sealed
        ctx = ApplyContext(
            None,
            entry.seq,
            None,
            sealed,
            committed_now,
            opened_now,
            self.private_values if private_values is None else private_values,
        )
        try:
            new_state = self.engine.apply(state, entry.by, decision, ctx)
        except EntropyPending:
            pending = Pending(entry, decision, text, state, sealed, committed_now, opened_now)
            return state, pending, None, sealed
        self._check_one_signer(new_state)
        if self.lean:  # (a lean game keeps no actions, `_commit`: none is made for it)
            return new_state, None, None, sealed
        action = Action(entry.seq, entry.by, text, tuple(ctx.events), turn=_turn(new_state))
        return new_state, None, action, sealed

    def _check_asked(self, state: State, entry: Entry) -> None:
        """Refuse a move by a role the game does not ask (one signer at a time)."""
        memo = self._asked_memo
        asked = memo[1] if memo is not None and memo[0] is state else self.engine.asked_roles(state)
        if entry.by not in asked:
            raise PbemError(
                f"out of turn: the game asks {', '.join(asked) or 'nobody'}, not {entry.by}"
            )

    def _seal_and_open(
        self, entry: Entry
    ) -> tuple[dict[str, Sealed], tuple[str, ...], tuple[str, ...]]:
        """Check the commitments and openings an entry carries (protocol section 5)."""
        body = entry.body
        if "commit" not in body and "open" not in body:
            # Nothing committed or opened (most entries): no copy of every commitment.
            # `self.sealed` is only ever replaced, never changed in place, so sharing it
            # is safe.
            return self.sealed, (), ()
        commits = body.get("commit", {})
        openings = body.get("open", [])
        if "commit" in body and (not isinstance(commits, dict) or not commits):
            raise PbemError("commit must be a non-empty object of label -> commitment")
        if "open" in body and (not isinstance(openings, list) or not openings):
            raise PbemError("open must be a non-empty list of openings")
        sealed = dict(self.sealed)
        for label, digest in commits.items():
            if not label or len(label) > 200:
                raise PbemError(f"commitment label {label!r} must be 1 to 200 characters")
            if label in sealed:
                raise PbemError(f"{label} is already committed (entry {sealed[label].seq})")
            hex_bytes(digest, f"commitment {label}")
            sealed[label] = Sealed(label, digest, entry.by, entry.seq)
        opened: list[str] = []
        for raw in openings:
            opening = Opening.from_json(raw)
            known = sealed.get(opening.label)
            if known is None:
                raise PbemError(f"opens {opening.label}, which was never committed")
            if known.seq == entry.seq:
                raise PbemError(f"commits and opens {opening.label} in one entry")
            if known.role != entry.by:
                raise PbemError(f"{opening.label} was committed by {known.role}, not {entry.by}")
            if known.opened:
                raise PbemError(f"{opening.label} was already opened (entry {known.opened_at})")
            check_opening(self.id, known.digest, opening)
            sealed[opening.label] = known.replace(
                opened=True, value=opening.value, opened_at=entry.seq
            )
            opened.append(opening.label)
        return sealed, tuple(commits), tuple(opened)

    def _opened_private_values(
        self, sealed: Mapping[str, Sealed], opened_now: tuple[str, ...] | None = None
    ) -> dict[str, int]:
        """Values of the private draws whose secrets this entry opened (`opened_now`, when
        given, names them)."""
        values: dict[str, int] = {}
        if sealed is self.sealed:
            return values  # the entry commits and opens nothing (see _seal_and_open)
        if opened_now is not None:
            # Only a secret that seeds draws gives values (or an error); with at most one
            # such, the order below (the commitments') cannot matter, and the scan of
            # every commitment of the game is not needed.
            draws = self._draws_of()
            seeding = [label for label in opened_now if label in draws]
            if len(seeding) <= 1:
                for label in seeding:
                    values.update(self._private_values(label, sealed[label].value))
                return values
        for label, item in sealed.items():
            if item.opened and not self.sealed.get(label, item).opened:
                values.update(self._private_values(label, item.value))
        return values

    # --- previews for clients -------------------------------------------------------------

    def preview(self, role: str, reveal: str) -> State | None:
        """The state `role` will decide on if its next entry carries `reveal`.

        A client that is about to roll another role's waiting dice knows its own next
        reveal, so it can show the result before asking for a decision (protocol 4).
        """
        pending = self._pending
        if pending is None or role != self._entropy_role(pending.entry.by):
            return copy.deepcopy(self.state)
        state, _ = self._roll(pending, self.head.seq + 1, reveal)
        return state


# Each entry kind's handler: it checks the entry against the log and the rules, then
# commits it (`Adjudicator._commit`), or raises and leaves the adjudicator as it was.
_KINDS: dict[str, Callable[[Adjudicator, Entry, Entry | None], None]] = {
    JOIN: Adjudicator._apply_join,
    MOVE: Adjudicator._apply_turn,
    ACK: Adjudicator._apply_turn,
    league.FORFEIT: Adjudicator._apply_forfeit,
    blind.VOID: Adjudicator._apply_void,
    blind.DISCLOSE: Adjudicator._apply_disclose,
    blind.UNSEAL: Adjudicator._apply_unseal,
}

# What a move or an ack carries once the dice that wait are rolled (pbem.core.meta.turn_kind):
# a decision, nothing (an ack), or a meta entry (a resignation, a draw, a take-back); each
# gives the state, the decision waiting for dice, its action and the commitments after it.
_CARRIED: dict[
    str,
    Callable[
        [Adjudicator, State, Entry, Entry | None, bool],
        tuple[State, Pending | None, Action | None, dict[str, Sealed]],
    ],
] = {
    MOVE: Adjudicator._play,
    ACK: Adjudicator._acknowledge,
    meta_rules.META: Adjudicator._meta_move,
}

# The body fields of double-blind games (`blind.escrows_after` refuses them in another).
_BLIND_FIELDS = frozenset({blind.ESCROW, blind.HELD, blind.DEAL})

# `note` and `draw` (an offer) may ride on any move: pbem.core.meta checks them.
_MOVE_FIELDS = frozenset(
    {"decision", "commit", "open", "note", "draw", blind.ESCROW, blind.HELD, blind.DEAL}
)
# An ack carries nothing but a note or a draw offer, and the referee's `held`.
_ACK_FIELDS = frozenset({"note", "draw", blind.HELD})


def _turn(state: State) -> JSON:
    return state.get("turn") if isinstance(state, dict) else None


def _genesis_body(genesis: Entry) -> dict[str, Any]:
    if genesis.kind != GENESIS:
        raise PbemError("the first entry of a log must be its genesis")
    body = genesis.body
    needed = {"rules", "rules_version", "data", "options", "roles"}
    missing = needed - set(body)
    if missing:
        raise PbemError(f"genesis body lacks {', '.join(sorted(missing))}")
    if not isinstance(body["rules"], str) or not isinstance(body["rules_version"], str):
        raise PbemError("genesis rules and rules_version must be strings")
    for name in ("data", "options", "roles"):
        if not isinstance(body[name], dict):
            raise PbemError(f"genesis {name} must be an object")
    for name, digest in body["data"].items():
        if not isinstance(digest, str) or len(digest) != 64:
            raise PbemError(f"genesis data {name!r} must name a SHA-256 hex digest")
    if not body["roles"] or not all(isinstance(v, str) for v in body["roles"].values()):
        raise PbemError("genesis roles must map each role to an OpenSSH public-key line")
    return body
