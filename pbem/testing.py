"""Tables and contexts for testing engines: the real adjudicator's checks, scripted dice.

- `ScriptedContext` is the adjudicator's own `ApplyContext` (the same checks as in play:
  one-line purposes, public and private draws never mixed, private draws only from a
  secret the entry commits) with dice from a script, a seeded `random.Random` or none
  at all (`pending=True`: the first draw raises EntropyPending, as before entropy exists).
- `Table` is an in-memory table for a game's tests and bots: every role's client and the
  adjudicator at once, without keys. Each owner decides on its own `with_secrets` state,
  `seal` splits the public decision from the values it commits, `due_openings` says what
  the entry opens, the public decision goes through `format` and `parse`, and `apply` runs
  twice as in play: first with no entropy (the decision must be valid before its first
  draw), then with the dice. Positions are arranged by editing `table.state` (like setting
  up a rulebook example on the board) and `table.seal_for` (a hidden value on the board).
- `SignedTable` plays every role of one game on the real adjudicator with signed entries
  (keys derived from a nonce: the same nonce plays the same game), for protocol tests,
  the conformance test and the benchmarks.

Nothing here is used by pbem itself; it is shipped so that a game author's tests (and
bench/) need nothing from tests/.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.bots import choose
from pbem.core import blind, chain
from pbem.core.adjudicator import Adjudicator, ApplyContext, Sealed, data_digest
from pbem.core.canonical import _FAST_ENCODE, _SCAN, JSON, canonical_bytes
from pbem.core.commit import Opening, commitment
from pbem.core.engine import FRESH, Engine, State
from pbem.core.log import ACK, GENESIS, JOIN, MOVE, VERSION, Entry
from pbem.core.rng import Stream
from pbem.crypto import sshsig
from pbem.crypto.keys import PrivateKey
from pbem.errors import EntropyPending, PbemError
from pbem.ledger import check_signature, data_source, engine_by_name


def hex_of(*parts: bytes) -> str:
    """A deterministic 32-byte hex string (made-up reveals, anchors, salts, secrets)."""
    return hashlib.sha256(b"".join(parts)).hexdigest()


class ScriptedStream:
    """Dice from a script (each checked against its range), then from `rng` if given."""

    def __init__(self, values: Iterable[int] = (), rng: random.Random | None = None) -> None:
        self.values = list(values)
        self.rng = rng

    def between(self, lo: int, hi: int) -> int:
        if self.values:
            value = self.values.pop(0)
            assert lo <= value <= hi, f"scripted {value} outside {lo}..{hi}"
            return value
        if self.rng is not None:
            return self.rng.randint(lo, hi)
        raise AssertionError(f"a roll in {lo}..{hi} was asked for and no scripted value is left")


class ScriptedContext(ApplyContext):
    """The adjudicator's context for one entry, with scripted dice.

    `committed`: labels the entry commits; `opened`: label -> value it opens; `sealed`:
    earlier commitments (label -> Sealed) for `is_committed`/`value`; `private`: values of
    private draws whose secrets are open (key -> value).
    """

    def __init__(
        self,
        rolls: Iterable[int] = (),
        *,
        rng: random.Random | None = None,
        seq: int = 1,
        committed: Iterable[str] = (),
        opened: Mapping[str, JSON] | None = None,
        sealed: Mapping[str, Sealed] | None = None,
        private: Mapping[str, int] | None = None,
        pending: bool = False,
        by: str = "",
    ) -> None:
        known = dict(sealed or {})
        committed = tuple(committed)
        for label in committed:
            known[label] = Sealed(label, "", by, seq)
        for label, value in (opened or {}).items():
            before = known.get(label) or Sealed(label, "", by, seq - 1)
            known[label] = Sealed(label, before.digest, before.role, before.seq, True, value, seq)
        self.stream = None if pending else ScriptedStream(rolls, rng)
        super().__init__(
            self.stream,
            seq,
            None if pending else seq + 1,
            known,
            committed,
            tuple(opened or {}),
            private,
        )
        self.requests = 0

    def roll(self, lo: int, hi: int, purpose: str) -> int:
        self.requests += 1
        return super().roll(lo, hi, purpose)

    @property
    def rolls(self) -> list[tuple[str, int]]:
        return [(r.purpose, r.value) for r in self.records if r.value is not None]

    @property
    def purposes(self) -> list[str]:
        return [r.purpose for r in self.records]

    @property
    def texts(self) -> list[str]:
        return [e.text for e in self.events]

    def said(self, fragment: str) -> bool:
        return any(fragment in text for text in self.texts)

    @property
    def unused(self) -> list[int]:
        return [] if self.stream is None else list(self.stream.values)


class Table:
    """Every role of one game at one table, in memory, through the adjudicator's checks."""

    def __init__(
        self,
        engine: Engine,
        state: State | None = None,
        *,
        seed: int = 0,
        data: Any = None,
        options: Mapping[str, JSON] | None = None,
        check: bool = True,
    ) -> None:
        self.engine = engine
        self.rng = random.Random(seed)
        self.seed = seed
        if state is None:
            state = engine.setup(engine.load_data({}) if data is None else data, options or {})
        self.state = state
        self.check = check
        self.seq = 10  # entries before play (genesis, joins) and room for arranged pieces
        self.secrets: dict[str, dict[str, JSON]] = {role: {} for role in engine.roles}
        self.sealed: dict[str, Sealed] = {}
        self.draws: dict[str, tuple[str, int]] = {}  # private draw key -> (secret label, value)
        self.last: ScriptedContext | None = None
        self.history: list[tuple[int, str, str]] = []

    # --- what each role knows ---------------------------------------------------------------

    def known(self, role: str) -> dict[str, JSON]:
        """`role`'s sealed values and the values of its private draws (its client's store)."""
        own = dict(self.secrets.get(role, {}))
        for key, (secret, value) in self.draws.items():
            if secret in own:
                own[key] = value
        return own

    def private(self, role: str) -> State:
        """The state as `role` knows it."""
        return self.engine.with_secrets(self.state, role, self.known(role))

    def asked(self) -> str | None:
        roles = self.engine.asked_roles(self.state)
        assert len(roles) <= 1, f"two roles asked at once: {roles}"
        return roles[0] if roles else None

    def over(self) -> bool:
        return self.engine.outcome(self.state) is not None

    def seal_for(self, role: str, label: str, value: JSON, seq: int = 5) -> None:
        """Arrange a hidden value in a position: `role` committed `value` as `label`."""
        self.secrets.setdefault(role, {})[label] = value
        self.sealed[label] = Sealed(label, "", role, seq)

    def opened(self, label: str) -> bool:
        return label in self.sealed and self.sealed[label].opened

    # --- playing ----------------------------------------------------------------------------

    def prepare(self, role: str, decision: Any) -> tuple[Any, dict[str, JSON], list[str]]:
        """(public decision, values to commit, labels to open) as `role`'s client makes them."""
        private = self.private(role)
        if isinstance(decision, str):
            decision = self.engine.parse(decision, private, role)
        public, values = self.engine.seal(private, role, decision)
        due = self.engine.due_openings(private, role, public)
        return public, values, list(due)

    def decide(self, role: str, decision: Any, rolls: Iterable[int] = ()) -> ScriptedContext:
        """Play `decision` (or its text) as `role`'s client and the adjudicator would."""
        public, values, due = self.prepare(role, decision)
        return self.raw(role, public, values, due, rolls)

    def raw(
        self,
        role: str,
        public: Any,
        commits: Mapping[str, JSON] | None = None,
        opens: Iterable[str] | Mapping[str, JSON] = (),
        rolls: Iterable[int] = (),
    ) -> ScriptedContext:
        """Apply a public decision with these commitments and openings (a client may cheat:
        any label, any value: `opens` may map labels to the values they open as). `commits`
        values equal to FRESH become fresh secrets."""
        text = public if isinstance(public, str) else self.engine.format(public)
        decision = self.engine.parse(text, self.state, role)
        assert self.engine.format(decision) == text, f"{text!r} does not round-trip"
        self.seq += 1
        values: dict[str, JSON] = {}
        for label, value in (commits or {}).items():
            if value == FRESH:
                value = hex_of(b"fresh", str(self.seed).encode(), label.encode())
            values[label] = value
        if isinstance(opens, Mapping):
            opened: dict[str, JSON] = dict(opens)
        else:
            opened = {label: self.secrets.get(role, {}).get(label) for label in opens}
        private = {k: v for k, (secret, v) in self.draws.items() if self.opened(secret)}
        private.update({k: v for k, (secret, v) in self.draws.items() if secret in opened})
        before = self._fingerprint(self.state) if self.check else b""

        def context(pending: bool) -> ScriptedContext:
            return ScriptedContext(
                list(rolls),
                rng=self.rng,
                seq=self.seq,
                committed=list(values),
                opened=opened,
                sealed=self.sealed,
                private=private,
                pending=pending,
                by=role,
            )

        ctx = context(pending=True)
        try:
            new = self.engine.apply(self.state, role, decision, ctx)
        except EntropyPending:
            ctx = context(pending=False)
            try:
                new = self.engine.apply(self.state, role, decision, ctx)
            except PbemError as exc:
                # In play the decision was signed and accepted as "waiting for dice"; a
                # refusal now would refuse the other role's entry that rolls them.
                raise AssertionError(
                    f"{text!r} was refused only after its first draw ({exc}): validate "
                    "completely before asking for dice"
                ) from exc
        if self.check:
            assert self._fingerprint(self.state) == before, "apply changed its input state"
            assert not ctx.unused, f"{text!r} left scripted dice unused: {ctx.unused}"
            assert len(self.engine.asked_roles(new)) <= 1, "two roles asked at once"
        for label, value in values.items():
            self.secrets.setdefault(role, {})[label] = value
            self.sealed[label] = Sealed(label, "", role, self.seq)
        for label, value in opened.items():
            known = self.sealed.get(label) or Sealed(label, "", role, 0)
            self.sealed[label] = Sealed(label, "", known.role, known.seq, True, value, self.seq)
        self._private_draws(ctx, values)
        self.state = new
        self.last = ctx
        self.history.append((self.seq, role, text))
        return ctx

    def _fingerprint(self, state: State) -> bytes:
        """Bytes of the state, to catch an engine that changes its input. Every 25th entry
        they are the whole state's canonical bytes (which also checks that it is canonical
        JSON); otherwise the C JSON encoder's, without the static parts (the engine's
        `static_keys`: maps, card texts, shared by every copy and never changed): the
        canonical check of a long game's state is most of its tests' time."""
        if self.seq % 25 == 0:
            return canonical_bytes(state)  # also checks that the state is canonical JSON
        static = set(getattr(self.engine, "static_keys", ()) or ())
        rest = {k: v for k, v in state.items() if k not in static}
        return json.dumps(rest, sort_keys=True, default=repr).encode()

    def _private_draws(self, ctx: ScriptedContext, values: Mapping[str, JSON]) -> None:
        """Give each private draw its value, from one stream seeded by the secret and the
        entry (as the protocol's seed is: the same secrets draw the same)."""
        records = [r for r in ctx.records if r.secret is not None]
        streams: dict[str, Stream] = {}
        for key, record in zip(ctx.private_keys, records, strict=True):
            assert record.secret is not None and record.lo is not None and record.hi is not None
            x = str(values.get(record.secret, record.secret))
            stream = streams.setdefault(
                record.secret, Stream(bytes.fromhex(hex_of(x.encode(), str(self.seq).encode())))
            )
            self.draws[key] = (record.secret, stream.between(record.lo, record.hi))

    def choose(self, role: str, rng: random.Random | None = None) -> Any:
        """A bot's decision for `role` on the state it knows."""
        return choose(self.engine, self.private(role), role, rng or self.rng)

    def step(self, rng: random.Random | None = None) -> ScriptedContext:
        role = self.asked()
        assert role is not None, "dead end: nobody is asked and there is no outcome"
        return self.decide(role, self.choose(role, rng))

    def play(self, limit: int = 20000, rng: random.Random | None = None) -> None:
        """Bots play until the game is over."""
        for _ in range(limit):
            if self.over():
                return
            self.step(rng)
        raise AssertionError(f"no outcome after {limit} decisions")

    def until(self, step: str, role: str | None = None, limit: int = 5000) -> None:
        """Bots play until the game reaches `step` (with `role` asked)."""
        for _ in range(limit):
            if self.state.get("step") == step and (role is None or self.asked() == role):
                return
            self.step()
        raise AssertionError(f"never reached step {step!r}")


# --- the differential leak check ------------------------------------------------------------


def other_secrets(known: Mapping[str, JSON]) -> dict[str, JSON]:
    """`known` (one role's sealed values and private draws) with every value changed but
    kept plausible: values swapped among labels of one kind (the label up to its last
    '/': a hand's slots, a turn's blocks, one entry's draws), a value with no partner
    nudged (an int +1, a string or list reversed, a dict changed inside)."""
    groups: dict[str, list[str]] = {}
    for label in sorted(known):
        groups.setdefault(label.rsplit("/", 1)[0], []).append(label)
    changed: dict[str, JSON] = {}
    for labels in groups.values():
        values = [known[label] for label in labels]
        rotated = values[1:] + values[:1]
        for label, value, new in zip(labels, values, rotated, strict=True):
            changed[label] = new if new != value else _nudged(value)
    return changed


def _nudged(value: JSON) -> JSON:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value[::-1]
    if isinstance(value, list):
        return [_nudged(v) for v in reversed(value)]
    if isinstance(value, dict):
        return {k: _nudged(v) for k, v in value.items()}
    return value


def leaks(
    engine: Engine,
    state: State,
    owner: str,
    known: Mapping[str, JSON],
    viewers: Iterable[str | None],
) -> list[str]:
    """The views for `viewers` (roles, or None: the public) that change when `owner`'s
    secrets change: each is computed from a state that holds the owner's secrets (as a
    store that holds them would render it), once with `known` and once with
    `other_secrets(known)`. A sound engine gives byte-identical views: nothing a viewer
    sees may depend on what it may not know. Empty when nothing leaks."""
    mine = engine.with_secrets(state, owner, known)
    other = engine.with_secrets(state, owner, other_secrets(known))
    found = []
    for viewer in viewers:
        if viewer == owner:
            continue
        if not same_views(engine.view(mine, viewer), engine.view(other, viewer)):
            found.append(f"the view for {viewer or 'the public'} shows {owner}'s secrets")
    return found


def same_views(a: State, b: State) -> bool:
    """Whether two views have the same canonical bytes. Parts that are one and the same
    object in both (the static data a game shares between state copies: its map, its
    card texts) are equal without being encoded again."""
    if not isinstance(a, dict) or not isinstance(b, dict) or a.keys() != b.keys():
        return same_bytes(a, b)
    return all(a[k] is b[k] or same_bytes(a[k], b[k]) for k in a)


def same_bytes(a: JSON, b: JSON) -> bool:
    """`canonical_bytes(a) == canonical_bytes(b)`, raising as it does, in C where it can.

    canonical_bytes walks every node in Python to check it (most of a long game's leak
    check). Here both are encoded by the C encoder and, when equal and ASCII, parsed back
    by the C scanner, which refuses floats: a value equal to what its own bytes parse to
    has only str keys and JSON values, so both are canonical and their bytes the same.
    Anything else (different bytes, non-ASCII text, tuples, int keys, other types, an
    encoder error) is decided by canonical_bytes itself, with its errors."""
    try:
        text = _FAST_ENCODE(a)
        if text == _FAST_ENCODE(b) and text.isascii():
            parsed, end = _SCAN(text, 0)
            if end == len(text) and parsed == a and parsed == b:
                return True
    except Exception:  # (canonical_bytes below decides, and says what is wrong)
        pass
    return canonical_bytes(a) == canonical_bytes(b)


def page_leaks(
    game: Adjudicator,
    owner: str,
    known: Mapping[str, JSON],
    viewers: Iterable[str | None],
) -> list[str]:
    """Like `leaks`, for what is drawn from the views: the SVG map and the HTML turn page
    of each other viewer, rendered by a store whose state holds `owner`'s secrets, once
    with `known` and once with `other_secrets(known)`, must be byte-identical. (The page
    embeds the map, so one page per secret set is rendered and its SVG compared too.)"""
    from pbem.render.page import render_page  # only here: pbem.testing imports no jinja2

    if game.state is None:
        return []
    prompts = game.prompts()  # what is asked comes from the public state, as in any store
    pages: dict[str | None, list[str]] = {}
    for secrets in (known, other_secrets(known)):
        shadow = copy.copy(game)
        shadow.state = game.engine.with_secrets(game.state, owner, secrets)
        shadow.prompts = lambda: prompts  # type: ignore[method-assign]
        for viewer in viewers:
            if viewer != owner:
                pages.setdefault(viewer, []).append(render_page(shadow, viewer))
    found = []
    for viewer, (mine, other) in pages.items():
        who = viewer or "the public"
        if _svg_of(mine) != _svg_of(other):
            found.append(f"the map for {who} shows {owner}'s secrets")
        elif mine != other:
            found.append(f"the turn page for {who} shows {owner}'s secrets")
    return found


def _svg_of(page: str) -> str:
    """The inline SVG map of a turn page ('' when the game draws none)."""
    start = page.find("<svg")
    return page[start : page.find("</svg>", start) + 6] if start >= 0 else ""


# --- signed entries on the real adjudicator ---------------------------------------------


def sign_entry(key: PrivateKey, fields: dict[str, JSON]) -> Entry:
    unsigned = Entry.build(fields)
    return unsigned.with_signature(sshsig.sign(key, unsigned.canonical))


def no_signature_check(public_line: str, message: bytes, signature: bytes) -> None:
    """For tests that need thousands of entries: accept every signature."""


_DROP = object()


class SignedTable:
    """Every role of one game, played by hand on one Adjudicator, every entry signed."""

    def __init__(
        self,
        rules: str = "toy-dice",
        roles: tuple[str, ...] = ("a", "b"),
        *,
        keys: Mapping[str, PrivateKey] | None = None,
        length: int = chain.MIN_LENGTH,
        signed: bool = True,
        options: Mapping[str, JSON] | None = None,
        nonce: str = "",
        data: Mapping[str, bytes] | None = None,
        version: str | None = None,
        genesis_body: Mapping[str, JSON] | None = None,
    ) -> None:
        """`genesis_body`: more fields for the genesis's body (a `created` time, say)."""
        self.engine: Engine = engine_by_name(rules)
        self.roles = roles
        self.keys: dict[str, PrivateKey] = dict(keys) if keys else {}
        for role in roles:
            # Keys derived from the nonce: the same nonce plays the same game every run.
            seed = bytes.fromhex(hex_of(b"key", role.encode(), nonce.encode()))
            self.keys.setdefault(role, PrivateKey(Ed25519PrivateKey.from_private_bytes(seed), role))
        self.signed = signed
        self.length = length
        self.seeds = {role: hex_of(b"seed", role.encode(), nonce.encode()) for role in roles}
        self.secrets: dict[str, tuple[str, JSON]] = {}  # label -> (salt, value)
        self.owners: dict[str, str] = {}  # label -> the role that sealed it
        self._draws: dict[str, tuple[int, dict[str, int]]] = {}  # secret -> its draws' values
        # role -> the labels of `secrets` it knows (it sealed them, or they are dealt to it:
        # `for/ROLE/...`), in the order of `secrets`: known() reads only these, instead of
        # every secret of the game at every step. Kept by `_keep_secret`, the only writer of
        # `secrets` and `owners`; rebuilt whole (`_index_secrets`) if a label changes owner.
        self._known_labels: dict[str, dict[str, None]] = {}
        self._elements: dict[str, list[bytes]] = {}
        files = {**self.engine.default_data(), **(data or {})}
        body: dict[str, JSON] = {
            "rules": self.engine.name,
            "rules_version": version or self.engine.version,  # (an earlier one: its rules)
            "data": {n: data_digest(c) for n, c in files.items()},
            "options": dict(options or {}),
            "roles": {role: self.keys[role].public.openssh_line() for role in roles},
            "nonce": nonce,
            **(genesis_body or {}),
        }
        fields: dict[str, JSON] = {
            "v": VERSION,
            "kind": GENESIS,
            "seq": 0,
            "by": roles[0],
            "body": body,
        }
        self.genesis = self.sign(roles[0], fields)
        check = check_signature if signed else no_signature_check
        extra = {data_digest(c): c for c in files.values()}
        self.game = Adjudicator.start(self.genesis, engine_by_name, data_source(extra), check)
        self.engine = self.game.engine  # the engine of the genesis's version

    # chains

    def element(self, role: str, index: int) -> bytes:
        """s_index of `role`'s chain (s_0 is the anchor)."""
        if role not in self._elements:
            values = [bytes.fromhex(self.seeds[role])]
            for _ in range(self.length):
                values.append(chain.step_down(values[-1]))
            self._elements[role] = list(reversed(values))
        return self._elements[role][index]

    def next_index(self, role: str) -> int:
        try:
            return self.game.next_reveal_index(role)
        except KeyError:  # not joined yet
            return 1

    def next_reveal(self, role: str) -> str:
        return self.element(role, self.next_index(role)).hex()

    # building

    def sign(self, role: str, fields: dict[str, JSON], key: PrivateKey | None = None) -> Entry:
        if not self.signed:
            return Entry.build(fields)
        return sign_entry(key or self.keys[role], fields)

    def fields(self, role: str, kind: str, body: JSON = None, **overrides: Any) -> dict[str, JSON]:
        head = self.game.head
        fields: dict[str, JSON] = {
            "v": VERSION,
            "kind": kind,
            "game": self.game.id,
            "seq": head.seq + 1,
            "prev": head.id,
            "by": role,
            "body": body if body is not None else {},
        }
        if kind != JOIN and "reveal" not in overrides:
            fields["reveal"] = self.next_reveal(role)
        for name, value in overrides.items():
            if value is _DROP:
                fields.pop(name, None)
            else:
                fields[name] = value
        return fields

    def make(
        self,
        role: str,
        kind: str,
        body: JSON = None,
        *,
        key: PrivateKey | None = None,
        **overrides: Any,
    ) -> Entry:
        return self.sign(role, self.fields(role, kind, body, **overrides), key)

    def join_entry(self, role: str, **overrides: Any) -> Entry:
        body = {"anchor": self.element(role, 0).hex(), "length": self.length}
        return self.make(role, JOIN, body, **overrides)

    def move_entry(self, role: str, text: str, **overrides: Any) -> Entry:
        return self.make(role, MOVE, {"decision": text}, **overrides)

    def ack_entry(self, role: str, **overrides: Any) -> Entry:
        body = self._held() if role == "referee" else {}
        return self.make(role, ACK, body, **overrides)

    def _held(self) -> dict[str, JSON]:
        """What a double-blind game's referee attests in its entry (pbem.core.blind)."""
        if self.game.double_blind and self.game.escrows:
            return {blind.HELD: [item.seq for item in self.game.escrows]}
        return {}

    # double-blind games (pbem.core.blind)

    def escrow(self, role: str, seq: int, openings: list[JSON]) -> str:
        """`openings` sealed to the referee as `role`'s client seals them for entry `seq`."""
        from pbem.crypto.escrow import seal_derived

        secret = bytes.fromhex(hex_of(b"escrow", role.encode(), self.game.id.encode()))
        text = blind.plaintext(openings)
        referee = self.keys["referee"].public.raw
        return seal_derived(secret, referee, text, blind.context(self.game.id, seq, role)).hex()

    def deal(self, seq: int, openings: list[JSON]) -> dict[str, JSON]:
        """The referee's `for/SIDE/...` openings, each side's sealed to that side."""
        from pbem.crypto.escrow import seal_derived

        secret = bytes.fromhex(hex_of(b"deal", self.game.id.encode()))
        by_side: dict[str, list[JSON]] = {}
        for opening in openings:
            assert isinstance(opening, dict)
            side = blind.dealt_to(str(opening["label"]))
            assert side is not None
            by_side.setdefault(side, []).append(opening)
        return {
            side: seal_derived(
                secret,
                self.keys[side].public.raw,
                blind.plaintext(found),
                blind.deal_context(self.game.id, seq, side),
            ).hex()
            for side, found in sorted(by_side.items())
        }

    def sender_key(self, seq: int, to: str | None = None) -> str:
        """The message key (hex) of the escrow of entry `seq`, or (`to`) of the referee's
        deal in it to `to`, as its sender derives it (escrow.sender_message_key): what a
        player answering a void, or the referee answering a dispute, publishes."""
        from pbem.crypto.escrow import sender_message_key

        entry = self.game.entries[seq]
        labels = [label for label, _digest in blind.commits_of(entry.body, to)]
        text = blind.plaintext([Opening(lb, *self.secrets[lb]).to_json() for lb in labels])
        if to is None:
            secret = hex_of(b"escrow", entry.by.encode(), self.game.id.encode())
            recipient, where = "referee", blind.context(self.game.id, seq, entry.by)
        else:
            secret = hex_of(b"deal", self.game.id.encode())
            recipient, where = to, blind.deal_context(self.game.id, seq, to)
        raw = self.keys[recipient].public.raw
        sealed, key = sender_message_key(bytes.fromhex(secret), raw, text, where)
        sent = blind.escrow_of(entry.body) if to is None else blind.deal_to(entry.body, to)
        assert sealed.hex() == sent, "not the message this table sealed"
        return key.hex()

    def disclose_entry(self, **overrides: Any) -> Entry:
        """The referee's disclose of every value still sealed (the table knows them all)."""
        labels = sorted(sealed.label for sealed in self.game.unopened())
        body = {"open": [Opening(lb, *self.secrets[lb]).to_json() for lb in labels]}
        return self.make("referee", blind.DISCLOSE, body, **overrides)

    # playing

    def apply(self, entry: Entry) -> Entry:
        self.game.apply(entry)
        return entry

    def join_all(self) -> None:
        for role in self.roles:
            self.apply(self.join_entry(role))

    def move(self, role: str, text: str) -> Entry:
        return self.apply(self.move_entry(role, text))

    def ack(self, role: str) -> Entry:
        return self.apply(self.ack_entry(role))

    # bots

    def state_for(self, role: str) -> Any:
        """What `role` decides on: waiting dice rolled by its own next reveal first."""
        if self.game.waiting_for_entropy:
            return self.game.preview(role, self.next_reveal(role))
        return self.game.state

    def step(self, rng: random.Random) -> Entry:
        """One entry by the first role asked: a bot decision, or an ack that rolls dice."""
        prompts = self.game.prompts()
        if not prompts:
            raise AssertionError("dead end: nobody is asked and there is no outcome")
        role = prompts[0].role
        if role == "referee" and self.game.waiting_for_entropy:
            return self.ack(role)  # (it rolls first, then decides: Client.automatic_answer)
        state = self.state_for(role)
        if any(p.role == role for p in self.engine.prompts(state)):
            private = self.engine.with_secrets(state, role, self.known(role))
            return self.decide(role, choose(self.engine, private, role, rng), private)
        return self.ack(role)

    def decide(self, role: str, decision: Any, state: Any = None) -> Entry:
        """Play a decision as its owner's client does: seal its secrets, open what is due.

        `state` is the owner's private state (`with_secrets`); by default it is made here.
        """
        if state is None:
            state = self.engine.with_secrets(self.state_for(role), role, self.known(role))
        public, values = self.engine.seal(state, role, decision)
        body: dict[str, JSON] = {"decision": self.engine.format(public)}
        if values:
            commits: dict[str, JSON] = {}
            for label, value in values.items():
                if value == FRESH:
                    value = hex_of(b"fresh secret", label.encode(), self.game.id.encode())
                salt = hex_of(b"salt", label.encode(), self.game.id.encode())
                self._keep_secret(label, salt, value, role)
                commits[label] = commitment(self.game.id, label, salt, value)
            body["commit"] = commits
        due = self.engine.due_openings(state, role, public)
        if due:
            body["open"] = [Opening(lb, *self.secrets[lb]).to_json() for lb in due]
        if values and self.game.double_blind:
            openings: list[JSON] = [Opening(lb, *self.secrets[lb]).to_json() for lb in values]
            seq = self.game.head.seq + 1
            if role == "referee":  # its values for a side, sealed to that side
                body[blind.DEAL] = self.deal(seq, openings)
                body.update(self._held())
            else:
                body[blind.ESCROW] = self.escrow(role, seq, openings)
        elif role == "referee" and self.game.double_blind:
            body.update(self._held())
        return self.apply(self.make(role, MOVE, body))

    def _keep_secret(self, label: str, salt: str, value: JSON, role: str) -> None:
        """Hold `label`'s opening, sealed by `role`, and index who knows it."""
        before = self.owners.get(label)
        self.secrets[label] = (salt, value)
        self.owners[label] = role
        if before is None:  # a new label: last in `secrets`, so last in each role's index
            self._known_labels.setdefault(role, {})[label] = None
            dealt = blind.dealt_to(label)
            if dealt is not None and dealt != role:
                self._known_labels.setdefault(dealt, {})[label] = None
        elif before != role:
            self._known_labels = self._index_secrets()

    def _index_secrets(self) -> dict[str, dict[str, None]]:
        """`_known_labels` made afresh from `secrets` and `owners`."""
        index: dict[str, dict[str, None]] = {}
        for label in self.secrets:
            index.setdefault(self.owners[label], {})[label] = None
            dealt = blind.dealt_to(label)
            if dealt is not None:
                index.setdefault(dealt, {})[label] = None
        return index

    def known(self, role: str) -> dict[str, JSON]:
        """`role`'s own sealed values and private draws, as its client computes them."""
        secrets = self.secrets
        if role == "referee" and self.game.double_blind:  # it holds every escrow
            own = {lb: v for lb, (_salt, v) in secrets.items()}
        else:  # (tests/core/test_table_known.py: the same as a scan of every secret)
            own = {lb: secrets[lb][1] for lb in self._known_labels.get(role, ())}
        # A secret's draws are all made by one entry: once computed for that many draws,
        # they never change (the bots ask for this at every step).
        counts: dict[str, int] = {}
        for draw in self.game.private.values():
            counts[draw.secret] = counts.get(draw.secret, 0) + 1
        values: dict[str, JSON] = {}
        for label, count in counts.items():
            if label not in own:
                continue
            cached = self._draws.get(label)
            if cached is None or cached[0] != count:
                cached = (count, self.game.private_values_for({label: own[label]}))
                self._draws[label] = cached
            values.update(cached[1])
        own.update(values)
        return own

    def play(self, rng: random.Random, limit: int = 20000) -> None:
        while self.game.outcome() is None:
            if len(self.game.entries) > limit:
                raise AssertionError(f"no outcome after {limit} entries")
            self.step(rng)

    def unrevealed(self) -> list[str]:
        """Chain values not yet published and every salt: secrets no view may contain."""
        chains = [
            self.element(role, index).hex()
            for role in self.roles
            for index in range(self.next_index(role), self.length + 1)
        ]
        return chains + [salt for salt, _value in self.secrets.values()]


DROP = _DROP
