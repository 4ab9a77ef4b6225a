"""What a player does with pbem, as library calls: the CLI and the demo are thin over this.

A Client owns one local Store. It makes and signs entries for the roles whose
private keys it holds, checks every entry (its own too) by replaying it on the
game's log before storing it, and applies entries that arrive in move files.
Each call that changes the store is one transaction: a refused entry leaves
the store exactly as it was.

A Client is built in layers, one module each, each using only those below it: its keys
and what they unlock (pbem.keyring), what double-blind games seal and open with them
(pbem.blind_side), and its games and the entries it signs and receives in them
(pbem.signing). This module adds what a player does besides moving: the referee's
double-blind entries and a player's unseal, resignations, draws, take-backs and
forfeits, standing orders and automatic answers, and what goes to the other side; and,
from pbem.holdings, what the store holds, as the layers above (the CLI, mail, the
referee, the pages) ask it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from pbem.core import blind
from pbem.core import referee as league
from pbem.core.adjudicator import Adjudicator, EntryRefused
from pbem.core.canonical import JSON
from pbem.core.log import MOVE, Entry
from pbem.core.meta import check_note
from pbem.errors import IllegalOrderError, InvalidOrderError, PbemError
from pbem.holdings import Holdings
from pbem.signing import CHAIN as CHAIN  # (these three names here too, as before)
from pbem.signing import NOISE as NOISE
from pbem.signing import SEALED as SEALED
from pbem.signing import SigningCore

if TYPE_CHECKING:
    from pbem.answers import Answer


class Client(SigningCore, Holdings):
    """A player's pbem on one local Store (see the module's docstring)."""

    # --- a stored game, from its snapshot (pbem.snapshot) ----------------------------------

    def _replay(self, game_id: str) -> Adjudicator:
        """The stored game, replayed (pbem.signing); a process that has not replayed it yet
        starts from the game's snapshot when a valid one is kept, and applies only the
        entries stored since. Keeps a new snapshot once enough entries were applied."""
        from pbem import snapshot
        from pbem.signing import _REPLAYS

        if game_id in self._cache or _REPLAYS.holds(game_id):  # (in this process)
            return super()._replay(game_id)
        genesis = self.genesis_of(game_id)
        kept = snapshot.load(
            genesis, lambda seq: self.store.entry_bytes(game_id, seq), self._fresh_game
        )
        base = -1 if kept is None else kept.head.seq
        if kept is not None:
            self._cache[game_id] = kept
        game = super()._replay(game_id)
        if game.head.seq - base >= snapshot.SAVE_AFTER:
            snapshot.save(game)
        return game

    def _fresh_game(self, genesis: Entry) -> Adjudicator:
        """An empty game of `genesis`, its engine, data tables and signature check made as
        `Adjudicator.start` makes them, for a snapshot to fill in (pbem.snapshot checks
        that the store holds this very genesis and head). The genesis is not checked
        again: a snapshot is made only of a replay that checked it (and a cold `show`
        then loads no cryptography at all)."""
        from pbem.core.tables import load_data_cached
        from pbem.ledger import DISK_TABLES, check_signature, data_source, engine_by_name

        body = genesis.body
        engine = engine_by_name(str(body["rules"]))
        version = str(body["rules_version"])
        if version != engine.version:
            engine = engine.for_version(version)
        files = data_source(self._stored_data(genesis))(engine, body["data"])
        data = load_data_cached(engine, files, DISK_TABLES)
        return Adjudicator(engine, genesis, data, check_signature)

    # --- double-blind games: the referee's entries, a player's unseal (pbem.core.blind) ---

    def blind_duties(self, prefix: str) -> list[Entry]:
        """What the referee of a double-blind game owes now besides acknowledgements,
        signed at once: a `void` for a false escrow not attested yet (in play, or in the
        last moves of a game now over); once the game is over, the `disclose` of every
        value still sealed, whatever it shows (a claim it shows false is the proof the log
        keeps: pbem.core.blind); and the answer to a player's dispute of one of its deals
        (its own key for the deal, which opens it). Nothing else: []."""
        game = self.game(prefix)
        if not game.double_blind or league.REFEREE not in self.my_roles(game):
            return []
        if not game.started or game.disclosed_at is not None:
            return []
        settled = game.blind_end
        if settled is not None:
            if settled.level == blind.DISPUTED and settled.item is not None:
                try:
                    return [self._answer_dispute(game, settled.item)]
                except PbemError:
                    return []  # not a deal this store sealed as the log holds it: no answer
            return []
        for item, _openings, key, problem in self._opened_escrows(game, game.escrows):
            if problem is not None:
                body: dict[str, JSON] = {"escrow_of": item.seq, "key": key}
                return [self._referee_entry(game, blind.VOID, body)]
        if game.outcome() is None or not game.unopened():
            return []
        return [self._referee_entry(game, blind.DISCLOSE, {"open": self._disclosed(game)})]

    def _answer_dispute(self, game: Adjudicator, item: blind.Escrowed) -> Entry:
        """The referee's answer to a player who says its deal does not open: the deal's
        message key, derived on the sender's side (pbem.crypto.escrow.sender_message_key)."""
        openings = [self._opening(game, league.REFEREE, label) for label, _digest in item.commits]
        key = self._sender_key(
            game,
            league.REFEREE,
            item.by,
            blind.plaintext(openings),
            blind.deal_context(game.id, item.seq, item.by),
            item.escrow,
        )
        body: dict[str, JSON] = {"deal_of": item.seq, "to": item.by, "key": key}
        return self._referee_entry(game, blind.UNSEAL, body)

    def unseal(self, prefix: str, seq: int, role: str | None = None) -> Entry:
        """Publish the message key of one sealed message of a double-blind game, for
        anyone to open it (pbem.core.blind.check_unseal): the referee's latest deal to
        `role` that does not open or does not match (a dispute, while `role` is asked), or
        `role`'s own escrow of entry `seq` after the referee voided it on its word."""
        from pbem.crypto.escrow import EscrowError, message_key

        game = self.game(prefix)
        if not game.double_blind:
            raise PbemError("unseal belongs to double-blind games only")
        settled = game.blind_end
        voided = settled.item if settled is not None and settled.level == blind.VOID else None
        mine = self.my_roles(game)
        if role is None:
            # After a void the game is over and asks nobody: the voided escrow's author.
            mine_voided = voided is not None and voided.by in mine and voided.seq == seq
            role = voided.by if voided is not None and mine_voided else self.acting_role(game)
        if role not in mine:
            raise PbemError(f"you hold no key for role {role!r} in this game")
        if voided is not None and voided.seq == seq and voided.by == role:
            openings = [self._opening(game, role, label) for label, _digest in voided.commits]
            key = self._sender_key(
                game,
                role,
                league.REFEREE,
                blind.plaintext(openings),
                blind.context(game.id, seq, role),
                voided.escrow,
            )
            body: dict[str, JSON] = {"escrow_of": seq, "key": key}
        else:
            deal = next((item for item in game.deals if item.by == role), None)
            if deal is None or deal.seq != seq:
                raise PbemError(
                    f"entry {seq} holds neither the referee's latest deal to {role} nor an "
                    f"escrow of {role}'s that the referee voided on its word"
                )
            try:
                key = message_key(
                    self._seed_key_for(game.roles[role], "opening the referee's deal"),
                    bytes.fromhex(deal.escrow),
                    blind.deal_context(game.id, seq, role),
                ).hex()
            except EscrowError as exc:
                raise PbemError(f"the deal in entry {seq} cannot be opened at all: {exc}") from None
            body = {"deal_of": seq, "to": role, "key": key}
        fields = self._next_fields(game, blind.UNSEAL, role)
        fields["body"] = body
        return self._append(game, fields, role)

    def _disclosed(self, game: Adjudicator) -> list[JSON]:
        """The openings of every value still sealed, from the escrows in the log."""
        still = {sealed.label for sealed in game.unopened()}
        items = []
        for entry in game.entries:
            commits = entry.body.get("commit")
            if blind.ESCROW in entry.body and isinstance(commits, dict) and still & set(commits):
                pairs = tuple(sorted((str(k), str(v)) for k, v in commits.items()))
                items.append(blind.Escrowed(entry.seq, entry.by, str(entry.body["escrow"]), pairs))
        openings: list[JSON] = [
            self._opening(game, league.REFEREE, sealed.label)
            for sealed in game.unopened()
            if sealed.role == league.REFEREE
        ]
        for item, opened, _key, problem in self._opened_escrows(game, tuple(items)):
            if problem is not None:
                raise PbemError(f"entry {item.seq}'s escrow by {item.by} is false: {problem}")
            openings += [one.to_json() for one in opened if one.label in still]
        return sorted(openings, key=lambda one: str(one["label"]))

    def _referee_entry(self, game: Adjudicator, kind: str, body: dict[str, JSON]) -> Entry:
        fields = self._next_fields(game, kind, league.REFEREE)
        fields["body"] = body
        return self._append(game, fields, league.REFEREE)

    # --- resignations and draws (pbem.core.meta: handled by the adjudicator, every game) --

    def resign(self, prefix: str, role: str | None = None, note: str | None = None) -> Entry:
        """Sign a resignation: the game ends, the other side wins."""
        return self._meta_entry(prefix, role, {"resign": True}, "resign", note)

    def offer_draw(self, prefix: str, role: str | None = None, note: str | None = None) -> Entry:
        """Sign a draw offer of its own (it is still your turn after it); the other side's
        next entry accepts it (`accept_draw`) or, whatever else it is, declines it."""
        return self._meta_entry(prefix, role, {"draw": "offer"}, "offer a draw", note)

    def accept_draw(self, prefix: str, role: str | None = None, note: str | None = None) -> Entry:
        """Sign the acceptance of the other side's open draw offer: the game ends drawn."""
        return self._meta_entry(prefix, role, {"draw": "accept"}, "accept a draw", note)

    def propose_takeback(
        self, prefix: str, to: int, role: str | None = None, note: str | None = None
    ) -> Entry:
        """Propose taking back the latest entries from `to` on (only those with no dice,
        sealed value, opening or draw: yours and the other side's); the answer is the
        other side's (`answer_takeback`), and nothing else can be signed before it."""
        return self._meta_entry(prefix, role, {"takeback": to}, "propose a take-back", note)

    def answer_takeback(
        self, prefix: str, accept: bool, role: str | None = None, note: str | None = None
    ) -> Entry:
        """Accept (the game returns to the state before the entries taken back) or decline
        the take-back the other side proposed."""
        value = "accept" if accept else "decline"
        return self._meta_entry(prefix, role, {"takeback": value}, f"{value} a take-back", note)

    def forfeit(
        self, prefix: str, since: datetime, seen: datetime, note: str | None = None
    ) -> Entry:
        """As the game's referee, sign the forfeit of the player the game waits for: its
        deadline ran from `since` (when the referee saw the head entry) and has passed by
        `seen`, both by the referee's clock (pbem.core.referee)."""
        game = self.game(prefix)
        if league.REFEREE not in self.my_roles(game):
            raise PbemError("only the game's referee signs a forfeit, and you hold no referee key")
        if game.deadline is None:
            raise PbemError(f"game {game.id[:12]} sets no deadline: nobody can forfeit it")
        deadline = since + timedelta(hours=game.deadline)
        body: dict[str, JSON] = {
            "forfeit": str(game.next_signer()),
            "waited_on": {"seq": game.head.seq, "id": game.head.id},
            "since": league.format_time(since),
            "deadline": league.format_time(deadline),
            "seen": league.format_time(seen),
        }
        if note is not None:
            body["note"] = check_note(note)
        fields = self._next_fields(game, league.FORFEIT, league.REFEREE)
        fields["body"] = body
        return self._append(game, fields, league.REFEREE)

    def _meta_entry(
        self, prefix: str, role: str | None, body: dict[str, JSON], what: str, note: str | None
    ) -> Entry:
        """A move with no decision, signed only by the role that signs next (protocol
        section 8: one signer at a time); refused with one line saying when it can."""
        game = self.game(prefix)
        mine = [r for r in self.my_roles(game) if r in game.sides]
        if role is not None and role not in mine:
            raise PbemError(f"you hold no key for a side {role!r} of this game")
        if not mine:
            raise PbemError(f"you hold no side of this game, so you cannot {what}")
        outcome = game.outcome()
        if outcome is not None:
            raise PbemError(f"the game is over ({outcome.text}): nothing to {what}")
        nxt = game.next_signer()
        if not game.started or nxt not in (mine if role is None else [role]):
            doing = "; ".join(f"{p.role}: {p.text}" for p in game.prompts()) or "nobody"
            raise PbemError(
                f"you can {what} only when you sign the next entry, and {nxt} signs it now "
                f"({doing}); {what} once their entry reaches you"
            )
        if body.get("draw") == "accept" and (game.meta.offer_by in (None, nxt)):
            raise PbemError("there is no draw offer of the other side to accept")
        if note is not None:
            body["note"] = check_note(note)
        fields = self._next_fields(game, MOVE, str(nxt))
        fields["body"] = body
        return self._append(game, fields, str(nxt))

    # --- automatic answers and standing orders --------------------------------------------

    def _order_role(self, game: Adjudicator, role: str | None) -> str:
        mine = self.my_roles(game)
        if role is not None:
            if role not in mine:
                raise PbemError(f"you hold no key for role {role!r} in this game")
            return role
        if len(mine) != 1:
            held = ", ".join(mine) or "none"
            raise PbemError(f"say which role's orders with --role (yours here: {held})")
        return mine[0]

    def orders(self, prefix: str, role: str | None = None) -> tuple[str, dict[str, str]]:
        """(role, its standing orders in the game: name -> argument)."""
        game = self.game(prefix)
        role = self._order_role(game, role)
        return role, self.store.orders(game.id, role)

    def set_order(self, prefix: str, name: str, argument: str, role: str | None = None) -> str:
        """Set one of `role`'s standing orders; returns the argument in normal form."""
        game = self.game(prefix)
        role = self._order_role(game, role)
        table = game.engine.standing_orders()
        if name not in table:
            known = ", ".join(sorted(table)) or "none"
            raise PbemError(f"{game.engine.title} has no standing order {name!r} (it has: {known})")
        normal = str(table[name].read(argument))
        with self.changing():
            self.store.set_order(game.id, role, name, normal)
        return normal

    def clear_orders(self, prefix: str, name: str | None = None, role: str | None = None) -> int:
        """Forget one standing order of `role`, or all of them; how many were set."""
        game = self.game(prefix)
        role = self._order_role(game, role)
        with self.changing():
            return self.store.clear_order(game.id, role, name)

    def automatic_answer(
        self, game: Adjudicator, role: str, use_orders: bool = True
    ) -> Answer | None:
        """What `role`'s client would sign now without asking (pbem.answers), or None."""
        from pbem.answers import automatic

        if not game.started or game.outcome() is not None or not game.asked(role):
            return None
        if game.meta.offer_by not in (None, role) or game.meta.takeback is not None:
            return None  # a draw offer or a take-back to answer: the person's choice
        if role == league.REFEREE and game.waiting_for_entropy:
            # The referee rolls first and decides after: a decision of its own (a double-blind
            # game's deal) reads the private draws this very entry would produce.
            from pbem.answers import ACKNOWLEDGE, Answer

            return Answer(None, ACKNOWLEDGE)
        state = self.state_for(game, role)
        state = game.engine.with_secrets(state, role, self.known(game.id, role))
        orders = self.store.orders(game.id, role) if use_orders else {}
        return automatic(game.engine, state, role, orders, dice_waiting=game.waiting_for_entropy)

    def answer_automatically(
        self, prefix: str, use_orders: bool = True, limit: int = 1000
    ) -> list[tuple[Entry, str]]:
        """Sign every answer this store's roles give without a person (dice
        acknowledgements, only choices, standing orders), until a person must decide or
        the other side must sign. Each is one `move`/`ack`: checked, journalled and
        stored like a typed one. An answer the rules refuse (it should not happen) is
        left to the person. Returns (entry, why it needed no person)."""
        made: list[tuple[Entry, str]] = []
        if not self._holds_a_role(self.store.find_game(prefix)):
            return made  # (nobody to answer for: the game is not replayed to learn it)
        for _ in range(limit):
            game = self.game(prefix)
            role = game.next_signer() if game.started else None
            if role is None or role not in self.my_roles(game):
                break
            answer = self.automatic_answer(game, role, use_orders)
            if answer is None:
                break
            if answer.is_ack:
                entry = self.ack(prefix, role)
            else:
                try:
                    plan = self.plan_move(prefix, game.engine.format(answer.decision), role)
                    entry = self.sign_move(plan)
                except (EntryRefused, InvalidOrderError, IllegalOrderError):
                    break
            made.append((entry, answer.reason))
        return made

    def _roles_held(self, game_id: str) -> tuple[set[str], set[str]]:
        """(the roles of a stored game, those whose private key this store holds), from
        its genesis alone: the game is not replayed."""
        roles = self.genesis_of(game_id).body.get("roles")
        lines = {str(r): str(line) for r, line in roles.items()} if isinstance(roles, dict) else {}
        return set(lines), {role for role, line in lines.items() if self.owns_private_key(line)}

    def _holds_a_role(self, game_id: str) -> bool:
        return bool(self._roles_held(game_id)[1])

    # --- what goes to the other side ------------------------------------------------------

    def unsent(self, prefix: str, since: int | None = None) -> list[Entry]:
        """This store's entries the other side has not answered: every entry of our roles
        after the last entry of another role (one mail or move file carries them all;
        sending one twice is harmless, `apply` says "already had").

        A store that holds every role (a hot seat) has no other side: then only the
        entries from seq `since` on (those the command just signed), or none.

        Read from the store, from the head back, without replaying the game: the store
        holds what a replay holds (an entry is stored once it has been checked), and only
        the entries asked for are read."""
        game_id = self.store.find_game(prefix)
        roles, mine = self._roles_held(game_id)
        if mine >= roles:
            return [] if since is None else self.stored_entries(game_id, since)
        found: list[Entry] = []
        for canonical, signature in self.store.entries_backwards(game_id):
            entry = Entry.from_wire(canonical, signature)
            if entry.by not in mine:
                break
            found.append(entry)
        return found[::-1]

    def export(self, prefix: str) -> str:
        from pbem.ledger import fingerprint
        from pbem.transport.savefile import save_text

        game = self.game(prefix)
        title = str(game.genesis.body.get("title") or game.engine.title)
        prints = {role: fingerprint(line) for role, line in game.roles.items()}
        return save_text(game, title, prints)

    def unreceived(self, prefix: str, found: list[Entry], signer: str | None = None) -> list[Entry]:
        """Of `found` (a file's entries, the file about to be overwritten with a move file
        of this game), those the other side may not have and that the new move file will
        not carry: entries not in this store's log, or in it with no later entry of another
        role (which shows that they were received), counting the entry `signer` is about to
        sign. Unanswered entries of ours are carried again (`unsent`); another game's
        entries are not this game's to keep."""
        game = self.game(prefix)
        log = game.entries
        carried = {entry.id for entry in self.unsent(prefix, since=len(log))}
        unseen = []
        for entry in found:
            if (entry.id if entry.seq == 0 else entry.game) != game.id or entry.id in carried:
                continue
            answered = entry.seq < len(log) and log[entry.seq].id == entry.id
            later = [e.by for e in log[entry.seq + 1 :]] + ([signer] if signer else [])
            if not (answered and any(by != entry.by for by in later)):
                unseen.append(entry)
        return unseen
