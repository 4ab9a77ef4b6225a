"""Double-blind games, this store's side (pbem.core.blind holds the rules): the escrows a
player's moves seal to the referee, the deals the referee seals to each side, what a role
was dealt and what the referee knows (opened with their keys), the message key of a
sealed message shown to settle a dispute, and a deal a player cannot act on.
"""

from __future__ import annotations

from pbem.core import blind
from pbem.core import referee as league
from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import JSON
from pbem.core.commit import Opening
from pbem.core.log import Entry
from pbem.errors import PbemError
from pbem.keyring import KeyRing, Passphrase
from pbem.store import Store


class BlindSide(KeyRing):
    """What this store's keys seal and open in double-blind games (a layer of
    pbem.client.Client, above its keys)."""

    def __init__(self, store: Store, passphrase: Passphrase | None = None) -> None:
        super().__init__(store, passphrase)
        # A double-blind game's referee: what it knows, by game, at the head it was read.
        self._referee_known: dict[str, tuple[str, dict[str, JSON]]] = {}

    def _double_blind(self, game_id: str) -> bool:
        """Whether a stored game is double-blind, from its genesis alone (no replay)."""
        rows = self.store.entries(game_id)
        if not rows:
            return False
        options = Entry.from_wire(rows[0]["canonical"], rows[0]["signature"]).body.get("options")
        return isinstance(options, dict) and options.get(league.DOUBLE_BLIND) is True

    def _escrow(
        self, game: Adjudicator, role: str, seq: int, sealed: list[tuple[str, str, JSON]]
    ) -> str:
        """A double-blind move's openings sealed to the referee (pbem.core.blind): the same
        bytes every time this entry is signed (its ephemeral key derives from our key)."""
        from pbem.crypto.escrow import seal_derived
        from pbem.crypto.keyline import key_bytes

        text = blind.plaintext([Opening(*item).to_json() for item in sealed])
        secret = self._vault(game, role).escrow_secret()
        referee = key_bytes(game.roles[league.REFEREE])
        return seal_derived(secret, referee, text, blind.context(game.id, seq, role)).hex()

    def _deal(
        self, game: Adjudicator, seq: int, sealed: list[tuple[str, str, JSON]]
    ) -> dict[str, JSON]:
        """The referee's commitments for each side (`for/SIDE/...`), sealed to that side."""
        from pbem.crypto.escrow import seal_derived
        from pbem.crypto.keyline import key_bytes

        by_role: dict[str, list[JSON]] = {}
        for label, salt, value in sealed:
            role = blind.dealt_to(label)
            if role is None:
                raise PbemError(f"the referee commits values for a side only, not {label}")
            by_role.setdefault(role, []).append(Opening(label, salt, value).to_json())
        secret = self._vault(game, league.REFEREE).escrow_secret()
        return {
            role: seal_derived(
                secret,
                key_bytes(game.roles[role]),
                blind.plaintext(openings),
                blind.deal_context(game.id, seq, role),
            ).hex()
            for role, openings in sorted(by_role.items())
        }

    def _dealt(self, game: Adjudicator, role: str) -> dict[str, JSON]:
        """Label -> value of every value the referee of a double-blind game dealt `role`
        (its `deal` entries, opened with `role`'s key; each checked against the referee's
        commitment, and one that does not match is left out)."""
        from pbem.core.canonical import parse_canonical
        from pbem.core.commit import check_opening
        from pbem.crypto.escrow import open_sealed

        found: dict[str, JSON] = {}
        key = None
        for entry in game.entries:
            deal = entry.body.get(blind.DEAL) if entry.by == league.REFEREE else None
            sealed = deal.get(role) if isinstance(deal, dict) else None
            commits = entry.body.get("commit")
            if not isinstance(sealed, str) or not isinstance(commits, dict):
                continue
            key = key or self._seed_key_for(
                game.roles[role], f"opening the referee's deals to {role}"
            )
            try:
                text = open_sealed(
                    key, bytes.fromhex(sealed), blind.deal_context(game.id, entry.seq, role)
                )
                raw = parse_canonical(text)
            except PbemError:
                continue
            if not isinstance(raw, dict) or not isinstance(raw.get("open"), list):
                continue
            for item in raw["open"]:
                try:
                    opening = Opening.from_json(item)
                    check_opening(game.id, str(commits.get(opening.label, "")), opening)
                except PbemError:
                    continue
                found[opening.label] = opening.value
        return found

    def _referee_knows(self, game: Adjudicator) -> dict[str, JSON]:
        """Everything the referee of a double-blind game knows: every opening the players
        escrowed (opened with its key) and the values of every private draw. Kept for the
        head it was computed at (the referee asks at every step of its own)."""
        kept = self._referee_known.get(game.id)
        if kept is not None and kept[0] == game.head.id:
            return dict(kept[1])
        items = []
        for entry in game.entries:
            commits = entry.body.get("commit")
            if blind.ESCROW in entry.body and isinstance(commits, dict):
                pairs = tuple(sorted((str(k), str(v)) for k, v in commits.items()))
                items.append(blind.Escrowed(entry.seq, entry.by, str(entry.body["escrow"]), pairs))
        known: dict[str, JSON] = {}
        for _item, opened, _key, problem in self._opened_escrows(game, tuple(items)):
            if problem is None:
                known.update({one.label: one.value for one in opened})
        known.update(game.private_values_for(known))
        self._referee_known[game.id] = (game.head.id, dict(known))
        return known

    def _opened_escrows(
        self, game: Adjudicator, items: tuple[blind.Escrowed, ...]
    ) -> list[tuple[blind.Escrowed, list[Opening], str, str | None]]:
        """Each escrow opened with the referee's key: (it, its openings, its message key in
        hex, what is false in it or None). Nothing is stored: the key and the log are
        enough to open them again (protocol section 8: no secret in the store alone)."""
        from pbem.core.canonical import parse_canonical
        from pbem.crypto.escrow import EscrowError, message_key, open_with_key

        key = None
        found: list[tuple[blind.Escrowed, list[Opening], str, str | None]] = []
        for item in items:
            key = key or self._seed_key_for(
                game.roles[league.REFEREE], "opening the escrows sealed to the referee"
            )
            sealed = bytes.fromhex(item.escrow)
            where = blind.context(game.id, item.seq, item.by)
            try:
                secret = message_key(key, sealed, where)
            except EscrowError:  # too short, or an unusable ephemeral key
                found.append((item, [], bytes(32).hex(), "it does not open"))
                continue
            try:
                text = open_with_key(secret, sealed, where)
            except EscrowError:
                found.append((item, [], secret.hex(), "it does not open"))
                continue
            problem = blind.false_in(game.id, text, item.commits)
            openings = []
            if problem is None:
                raw = parse_canonical(text)
                assert isinstance(raw, dict) and isinstance(raw["open"], list)
                openings = [Opening.from_json(one) for one in raw["open"]]
            found.append((item, openings, secret.hex(), problem))
        return found

    def _sender_key(
        self,
        game: Adjudicator,
        sender: str,
        recipient: str,
        plaintext: bytes,
        where: bytes,
        sealed_hex: str,
    ) -> str:
        """The message key (hex) of a message `sender` sealed from this store, checked to
        be the very message in the log."""
        from pbem.crypto.escrow import sender_message_key
        from pbem.crypto.keyline import key_bytes

        secret = self._vault(game, sender).escrow_secret()
        sealed, key = sender_message_key(secret, key_bytes(game.roles[recipient]), plaintext, where)
        if sealed.hex() != sealed_hex:
            raise PbemError(
                "this store did not seal that message as the log holds it: it cannot show its key"
            )
        return key.hex()

    def deal_problem(self, game: Adjudicator, role: str) -> tuple[int, str] | None:
        """(seq, what is wrong) when the referee's latest deal to `role` does not open with
        `role`'s key or does not match the referee's commitments: the player cannot act on
        it, and answers it by publishing its key (`unseal`); else None."""
        deal = next((item for item in game.deals if item.by == role), None)
        if deal is None or not game.double_blind or role not in self.my_roles(game):
            return None
        from pbem.crypto.escrow import EscrowError, open_sealed  # (only once there is a deal)

        where = blind.deal_context(game.id, deal.seq, role)
        try:
            text = open_sealed(
                self._seed_key_for(game.roles[role], "opening the referee's deal"),
                bytes.fromhex(deal.escrow),
                where,
            )
        except EscrowError:
            return deal.seq, f"the referee's deal in entry {deal.seq} does not open with your key"
        problem = blind.false_in(game.id, text, deal.commits)
        if problem is None:
            return None
        return deal.seq, f"the referee's deal in entry {deal.seq} does not match: {problem}"
