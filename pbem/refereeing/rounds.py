"""One round of an unattended referee, over every game its store referees.

    read the mailbox    every message through the Fetcher: all or nothing per message
    invitations         accepted when asked to (games naming this store's key as referee,
                        whose players are on the roster, a few a run: settle.Admission)
    settle              the joins and acknowledgements the referee owes, signed at once
    keep time           the head each game waits on and when the referee first saw it;
                        the reminders, then the forfeit, each once
    deliver             each player the entries it has not been sent, with its turn page

Nothing here waits on a person, and every change is one store transaction that holds
all it needs: a referee killed at any moment loses nothing, and at worst mails a
message twice (recorded only after the SMTP server took it). `now` is the referee's
clock, passed in (the tests and a replayed backlog set it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from pbem.core.referee import REFEREE
from pbem.errors import PbemError
from pbem.refereeing import quiet, settle
from pbem.refereeing.clock import Clock, read_stamp, stamp
from pbem.refereeing.letters import reminder_message, turn_message
from pbem.refereeing.postman import Postman

if TYPE_CHECKING:
    from email.message import EmailMessage

    from pbem.client import Client
    from pbem.core.adjudicator import Adjudicator
    from pbem.core.log import Entry
    from pbem.mail.fetch import MessageReport

Say = Callable[[str], None]


@dataclass
class Referee:
    client: Client
    say: Say
    now: Callable[[], datetime]
    postman: Postman | None = None
    forfeits: bool = True  # False: --no-forfeit, a deadline only reminds
    accept_invitations: bool = False
    # Which invitations --accept-invitations takes (a roster, a cap per run)
    admission: settle.Admission = field(default_factory=settle.Admission)
    seen: set[str] = field(default_factory=set)  # report lines and notes said already
    refused: bool = False  # a message, a held entry or a game failed in this run
    recovered: bool = False  # the journals were read (once per run)

    def round(self, messages: Iterable[tuple[str, bytes]]) -> None:
        from pbem.mail.fetch import Fetcher

        self.client.clock = self.now  # (a game made in its future is refused at its join)
        if not self.recovered:  # a run's first round: what a kill left in the journal
            for line in settle.recover(self.client, settle.refereed_games(self.client)):
                self.say(line)
            self.recovered = True
        fetcher = Fetcher(self.client)
        for key, raw in messages:
            self._report(fetcher.process(key, raw))
        self.refused = self.refused or fetcher.refused
        if self.accept_invitations:
            for line, refused in settle.accept_all(self.client, self.admission):
                if refused:
                    self._once(line)  # (still in the inbox: listed again every round)
                else:
                    self.say(line)
        else:
            for genesis in settle.invitations(self.client):
                self._once(
                    f"invitation to referee game {genesis.id[:12]}: run with "
                    f"--accept-invitations, or `pbem join {genesis.id[:12]}`"
                )
        for game_id in settle.refereed_games(self.client):
            try:
                self.referee(game_id)
            except PbemError as exc:  # one game's trouble (a busy store) never stops the rest
                self.say(f"game {game_id[:12]}: {exc} (next round)")
                self.refused = True

    def referee(self, game_id: str) -> None:
        """Everything the referee does in one game this round (nothing replayed when the
        last round left it quiet at the head it still has: `quiet_round`)."""
        if self.quiet_round(game_id):
            return
        for line in settle.settle(self.client, game_id):
            self.say(line)
        settled = self.client.head_of(game_id)
        self.keep_time(game_id)
        self.deliver(game_id)
        if settled is not None and self.client.head_of(game_id) == settled:
            # settling owes nothing at this head: the next round need not replay it
            facts = quiet.facts(self.client.game(game_id))
            self.client.set_referee_quiet(game_id, settled[0], settled[1], facts)

    def quiet_round(self, game_id: str) -> bool:
        """The round of a game a round left with nothing owed, at the same head, with
        nothing held in the inbox for it (pbem.refereeing.quiet): its clock kept and its
        mail checked from the recorded facts. False, having changed nothing but the start
        of the head's clock, when there is more to do (the whole round then does it)."""
        from pbem.inbox import Inbox

        record = self.client.referee_quiet(game_id)
        if record is None:
            return False
        seq, head_id, text = record
        found = quiet.read(text)
        if found is None or self.client.head_of(game_id) != (seq, head_id):
            return False
        if Inbox(self.client).holds(game_id):
            return False
        asked, hours, news = found
        if asked is not None:
            if hours is None:
                return False
            row = self.client.referee_clock(game_id)
            if row is None or row[0] != seq:
                since = stamp(self.now())
                self.client.set_referee_clock(game_id, seq, since)
                row = (seq, since, 0)
            clock = Clock(read_stamp(row[1]), hours)
            now = self.now().replace(microsecond=0)
            if clock.passed(now):
                if self.forfeits:
                    return False
                self._once(self._past_deadline(game_id, asked, clock))
            if clock.reminders_due(now) > row[2]:
                return False
        addresses: dict[str, str] | None = None
        for role, last in news.items():
            if last <= self.client.referee_mailed(game_id, role):
                continue
            if addresses is None:
                addresses = self.client.player_addresses(game_id)
            address = addresses.get(role)
            if self.postman is not None and address is not None:
                return False  # news to mail
            self._no_mail(game_id, role, address)
        return True

    # --- the mailbox ------------------------------------------------------------------------

    def _report(self, report: MessageReport) -> None:
        from pbem.mail.fetch import HAD

        if report.status == HAD and not report.problems:
            return  # read again on every round: nothing new to say
        self._once(report.line(), key=f"message {report.key} {report.line()}")

    def _once(self, line: str, key: str | None = None) -> None:
        """Say a line once per run (a loop reads the same mailbox every round)."""
        if (key or line) not in self.seen:
            self.seen.add(key or line)
            self.say(line)

    # --- the deadline -----------------------------------------------------------------------

    def clock(self, game: Adjudicator) -> Clock | None:
        """The clock of the head the game waits on, started now if the referee had not
        seen that head; None when nobody can forfeit (no deadline, over, not started,
        or the referee itself is asked)."""
        deadline = game.deadline  # (None: no clock, as asked_on_clock also says)
        if deadline is None or quiet.asked_on_clock(game) is None:
            return None
        row = self.client.referee_clock(game.id)
        if row is None or row[0] != game.head.seq:
            since = stamp(self.now())
            self.client.set_referee_clock(game.id, game.head.seq, since)
            row = (game.head.seq, since, 0)
        return Clock(read_stamp(row[1]), deadline)

    def keep_time(self, game_id: str) -> None:
        game = self.client.game(game_id)
        clock = self.clock(game)
        if clock is None:
            return
        now = self.now().replace(microsecond=0)  # a forfeit signs whole seconds
        short = game_id[:12]
        asked = str(game.next_signer())
        if clock.passed(now) and self.forfeits:
            try:
                entry = self.client.forfeit(game_id, clock.since, now)
            except PbemError as exc:
                self._once(f"game {short}: no forfeit of {asked}: {exc}")
                return
            outcome = self.client.game(game_id).outcome()
            result = f": {outcome.text}" if outcome is not None else ""
            self.say(f"game {short}: signed the forfeit of {asked} (seq {entry.seq}){result}")
            return
        if clock.passed(now):
            self._once(self._past_deadline(game_id, asked, clock))
        self.remind(game, asked, clock, now)

    def _past_deadline(self, game_id: str, asked: str, clock: Clock) -> str:
        return (
            f"game {game_id[:12]}: {asked} is past its deadline {stamp(clock.deadline)}; "
            "no forfeit signed (--no-forfeit)"
        )

    def remind(self, game: Adjudicator, role: str, clock: Clock, now: datetime) -> None:
        row = self.client.referee_clock(game.id)
        sent = row[2] if row is not None else 0
        due = clock.reminders_due(now)
        if due <= sent:
            return
        address = self.client.player_addresses(game.id).get(role)
        if self.postman is None or address is None:
            self._no_mail(game.id, role, address)
            return
        message = reminder_message(
            game,
            role,
            clock,
            due,
            **self.postman.envelope(address),
            date=now,
        )

        def record() -> None:
            self.client.set_referee_clock(game.id, game.head.seq, stamp(clock.since), due)

        if not self._post(game, message, address, record, f"reminder to {role}"):
            return
        self.say(
            f"game {game.id[:12]}: reminded {role} at {address} (reminder {due}, deadline "
            f"{stamp(clock.deadline)})"
        )

    # --- the players' mail ------------------------------------------------------------------

    def deliver(self, game_id: str) -> None:
        game = self.client.game(game_id)
        addresses = self.client.player_addresses(game_id)
        for role in game.roles:
            if role == REFEREE:
                continue
            last = self.client.referee_mailed(game_id, role)
            # The player has its own entries: only the others' are news to it.
            news = [e for e in game.entries if e.seq > last and e.by != role]
            if not news:
                continue
            address = addresses.get(role)
            if self.postman is None or address is None:
                self._no_mail(game.id, role, address)
                continue
            self._mail_turn(game, role, news, address)

    def _mail_turn(self, game: Adjudicator, role: str, news: list[Entry], address: str) -> None:
        assert self.postman is not None
        head = game.head.seq
        thread = [str(row["message_id"]) for row in self.client.mail_thread(game.id)]
        message = turn_message(
            game,
            role,
            news,
            **self.postman.envelope(address),
            thread=thread,
            date=self.now(),
        )

        def record() -> None:
            self.client.set_referee_mailed(game.id, role, head)

        if not self._post(game, message, address, record, f"mail to {role}"):
            return
        first, last = news[0].seq, news[-1].seq
        span = f"entry {first}" if first == last else f"entries {first} to {last}"
        self.say(f"game {game.id[:12]}: mailed {span} and its turn page to {role} at {address}")

    def _post(
        self,
        game: Adjudicator,
        message: EmailMessage,
        address: str,
        record: Callable[[], None],
        what: str,
    ) -> bool:
        """Send `message`, `record` it once the server took it; False, said in a line,
        when it was not sent (the next round tries again)."""
        assert self.postman is not None
        try:
            self.postman.send(message, address, record)
        except PbemError as exc:
            self.say(f"game {game.id[:12]}: {what} not sent (next round): {exc}")
            return False
        return True

    def _no_mail(self, game_id: str, role: str, address: str | None) -> None:
        if address is None:
            self._once(
                f"game {game_id[:12]}: no address for {role}: "
                f"`pbem referee player {game_id[:12]} {role} ADDRESS`"
            )
        # (without a postman the run said once why nothing is mailed)
