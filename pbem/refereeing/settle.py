"""The referee's own entries: accepting the games it is invited to referee (only from a
roster of players, or a few a run: `Admission`), its join, and the acknowledgements that
roll the players' dice, signed at once.

Each entry is one store transaction with the signing journal (pbem.client), and each
is deterministic for a key and a game (chain seeds are derived from the key): a referee
killed between signing and storing signs the same bytes again on its next round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.core.log import Entry
from pbem.core.referee import REFEREE
from pbem.errors import PbemError
from pbem.refereeing import DEFAULT_NEW_GAMES

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.standings import Roster

ROUNDS = 10_000  # the referee's own entries in one round, at most (a safety stop)


def genesis_of(client: Client, game_id: str) -> Entry:
    return client.genesis_of(game_id)


def refereed_by_us(client: Client, genesis: Entry) -> bool:
    """Whether the genesis names one of this store's private keys as its referee."""
    roles = genesis.body.get("roles")
    line = roles.get(REFEREE) if isinstance(roles, dict) else None
    if not isinstance(line, str):
        return False
    try:
        return client.owns_private_key(line)
    except PbemError:
        return False


def refereed_games(client: Client) -> list[str]:
    """Every stored game whose referee key this store holds (read from the genesis alone:
    no replay of the games it does not referee)."""
    return [
        str(row["id"])
        for row in client.game_rows()
        if refereed_by_us(client, genesis_of(client, str(row["id"])))
    ]


def invitations(client: Client) -> list[Entry]:
    """The geneses held in the inbox that name this store's key as their referee."""
    from pbem.inbox import Inbox

    return [g for g in Inbox(client).invitations() if refereed_by_us(client, g)]


@dataclass
class Admission:
    """Which invitations `pbem referee run --accept-invitations` accepts: those whose every
    player key is on the roster (`--players FILE`, pbem.standings.read_roster), if one is
    given, and no more than `limit` new games in one run (`--max-new-games`; without a
    roster DEFAULT_NEW_GAMES, with one no cap unless given). `accepted` counts this run's."""

    roster: Roster | None = None
    limit: int | None = DEFAULT_NEW_GAMES
    accepted: int = 0

    def refusal(self, genesis: Entry) -> str | None:
        """Why the invitation is not accepted now, or None."""
        from pbem.ledger import fingerprint

        if self.roster is not None:
            roles = genesis.body.get("roles")
            players = {
                str(role): str(line)
                for role, line in (roles.items() if isinstance(roles, dict) else ())
                if role != REFEREE
            }
            off = []
            for role, line in sorted(players.items()):
                try:
                    who = fingerprint(line)
                except PbemError:
                    who = "a key that does not parse"
                if who not in self.roster.fingerprints:
                    off.append(f"{who} ({role})")
            if off or not players:
                named = ", ".join(off) or "it names no player"
                return f"not every player is on the roster {self.roster.source}: {named}"
        if self.limit is not None and self.accepted >= self.limit:
            by_default = self.roster is None and self.limit == DEFAULT_NEW_GAMES
            default = ", the default without --players" if by_default else ""
            return (
                f"this run has accepted {self.accepted} new game(s), its limit "
                f"(--max-new-games {self.limit}{default}); the next run takes more"
            )
        return None


def accept_all(client: Client, admission: Admission) -> list[tuple[str, bool]]:
    """Accept the invitations to referee a game that `admission` lets in (each stored with
    the entries held with it): a line each, and whether it says one was not accepted.
    An invitation not accepted stays in the inbox (`pbem join` accepts it by hand)."""
    from pbem.inbox import Inbox

    lines = []
    for genesis in invitations(client):
        short = genesis.id[:12]
        why = admission.refusal(genesis)
        if why is not None:
            lines.append((f"invitation to referee game {short} not accepted: {why}", True))
            continue
        try:
            lines.append((Inbox(client).accept(genesis.id), False))
        except PbemError as exc:
            lines.append((f"invitation to game {short} not accepted: {exc}", True))
        else:
            admission.accepted += 1
    return lines


def journaled(client: Client) -> dict[str, list[Entry]]:
    """Per game, the referee's entries in the signing journals of this store's keys
    (pbem.store.journal: the user's state folder, and an earlier version's file beside
    the key), in seq order."""
    found: dict[str, list[Entry]] = {}
    for journal in client.own_journals().values():
        for game_id, entries in journal.by_game().items():
            for entry in entries:
                if entry.by == REFEREE and entry.kind != "genesis":
                    found.setdefault(game_id, []).append(entry)
    return {game: sorted(entries, key=lambda e: e.seq) for game, entries in found.items()}


def recover(client: Client, game_ids: list[str]) -> list[str]:
    """Store what a referee killed between signing and storing left only in its journal
    (a forfeit signs the time it was made: signing it again would be another entry for
    the same reveal, which the journal refuses). Done before anything else in a run."""
    lines = []
    signed = journaled(client)
    for game_id in game_ids:
        count = client.stored_count(game_id)
        missing = [e for e in signed.get(game_id, []) if e.seq >= count]
        if not missing:
            continue
        try:
            client.apply_entries(missing)
        except PbemError as exc:
            lines.append(f"game {game_id[:12]}: the referee's journal does not fit: {exc}")
            continue
        seqs = ", ".join(str(e.seq) for e in missing)
        lines.append(f"game {game_id[:12]}: stored from the referee's journal: seq {seqs}")
    return lines


def settle(client: Client, game_id: str) -> list[str]:
    """Sign everything the referee owes in the game now (its join, acknowledgements),
    applying the held entries each one lets in, until a player must sign; one line each."""
    from pbem.inbox import Inbox

    inbox = Inbox(client)
    lines: list[str] = []
    for _ in range(ROUNDS):
        game = client.game(game_id)
        if REFEREE not in client.my_roles(game):
            signed: list[Entry] = []
        elif not game.started:
            signed = client.join(game_id) if game.next_signer() == REFEREE else []
        else:
            # A double-blind game's void (a false escrow, never attested) or, once it is
            # over, its disclose come first, whoever is asked (like a forfeit).
            signed = client.blind_duties(game_id)
            if not signed and game.next_signer() == REFEREE:
                signed = [entry for entry, _why in client.answer_automatically(game_id)]
        lines += [f"game {game_id[:12]}: signed {_what(e)} (seq {e.seq})" for e in signed]
        applied: list[int] = []
        if inbox.holds(game_id):
            applied, problems = inbox.drain(game_id)
            lines += [f"game {game_id[:12]}: {problem}" for problem in problems]
            if applied:
                lines.append(
                    f"game {game_id[:12]}: applied held entries {applied[0]}-{applied[-1]}"
                )
        if not signed and not applied:
            break
    return lines


def _what(entry: Entry) -> str:
    if entry.kind == "join":
        return "the referee's join"
    if entry.kind == "ack":
        return "an acknowledgement (the dice)"
    if entry.kind == "disclose":
        return "the disclosure of every value still sealed"
    if entry.kind == "void":
        return f"a void of entry {entry.body.get('escrow_of')}'s escrow"
    return f"a {entry.kind}"
