"""`pbem play` and `pbem mail watch`: a game by email that waits for a person only when a
person has a real choice to make.

`play` is for the person at the terminal: it answers what needs no person (pbem.answers),
shows the board and what is asked, takes a decision, sends what the other side has not
got (by mail when the store's mail configuration can send and read, else as a move file
to pass on by hand) and waits for the next real decision: polling the mailbox, or asking
for the other side's move file. `watch` is the same loop without a person, for a machine
left running: it answers automatically, sends, and never decides anything else.

Everything goes through the Client (one store transaction per entry, the journal, the
rules) and a Post (the store's mail: pbem.mail.mailer); these loops only decide when to
call them. Input and output are passed in, so the tests drive them without a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pbem.client import Client
from pbem.core.log import Entry
from pbem.errors import PbemError

Say = Callable[[str], None]
Ask = Callable[[str], str | None]  # None: end of input
QUIT = {"q", "quit", "exit"}


class Post(Protocol):
    """How entries reach the other side and theirs come back, without a person: the
    store's mail (pbem.mail.mailer.Mailer) when it is configured."""

    def send(self, game_id: str) -> str | None:
        """Send the game's entries of ours the other side has not got; a line saying so,
        None when there are none."""
        ...

    def fetch(self) -> list[str]:
        """Apply what has come in (one line per message not seen before)."""
        ...


def answered_lines(answered: list[tuple[Entry, str]]) -> list[str]:
    lines = []
    for entry, why in answered:
        what = entry.body.get("decision") if entry.kind == "move" else "acknowledged the dice"
        lines.append(f"signed automatically entry {entry.seq} by {entry.by}: {what} ({why})")
    return lines


def whose_turn(client: Client, game_id: str) -> str:
    """One line: what the game waits for now, from this store's point of view."""
    game = client.game(game_id)
    outcome = game.outcome()
    if outcome is not None:
        return f"game {game_id[:12]} is over: {outcome.text}"
    signer = game.next_signer()
    if signer is None:
        return f"game {game_id[:12]}: nobody is asked"
    if signer in client.my_roles(game):
        asked = "; ".join(p.text for p in game.prompts() if p.role == signer)
        return f"game {game_id[:12]}: your turn ({signer}): {asked}"
    return f"game {game_id[:12]}: waits for {signer}"


def _over(client: Client, game_id: str) -> str | None:
    outcome = client.game(game_id).outcome()
    return None if outcome is None else f"the game is over: {outcome.text}"


def _my_turn(client: Client, game_id: str) -> str | None:
    game = client.game(game_id)
    signer = game.next_signer()
    return signer if signer in client.my_roles(game) else None


def watch(
    client: Client,
    game_ids: list[str],
    mailer: Post,
    say: Say,
    sleep: Callable[[float], None],
    interval: float,
    rounds: int | None = None,
) -> None:
    """Unattended: fetch, answer automatically, send; `rounds` times (None: forever)."""
    done = 0
    while rounds is None or done < rounds:
        for line in mailer.fetch():
            say(line)
        for game_id in game_ids:
            if not client.game(game_id).started:
                continue
            for line in answered_lines(client.answer_automatically(game_id)):
                say(line)
            sent = mailer.send(game_id)
            if sent:
                say(sent)
        done += 1
        if rounds is None or done < rounds:
            sleep(interval)


@dataclass
class Player:
    """The terminal loop of `pbem play` for one game."""

    client: Client
    game_id: str
    say: Say
    ask: Ask
    mailer: Post | None
    sleep: Callable[[float], None]
    interval: float
    folder: Path  # where move files go when there is no mail
    polls: int | None = None  # how many mailbox polls before giving up (None: forever)

    def run(self) -> None:
        from pbem.render.show import show_text

        while True:
            for said in answered_lines(self.client.answer_automatically(self.game_id)):
                self.say(said)
            over = _over(self.client, self.game_id)
            if over:
                self._send()
                self.say(over)
                return
            role = _my_turn(self.client, self.game_id)
            if role is None:
                if not self._wait():
                    return
                continue
            self.say(show_text(self.client, self.client.game(self.game_id), role, False))
            line = self.ask(f"{role}> ")
            if line is None or line.strip().lower() in QUIT:
                self._send()
                self.say("stopped: `pbem play` again to go on")
                return
            if not line.strip():
                continue
            try:
                plan = self.client.plan_move(self.game_id, line.strip(), role)
                self.client.sign_move(plan)
            except PbemError as exc:
                self.say(f"error: {exc}")
                continue
            self.say(f"signed {plan.line}")

    def _send(self) -> None:
        """Send what the other side has not got: by mail, or as a move file."""
        if self.mailer is not None:
            sent = self.mailer.send(self.game_id)
            if sent:
                self.say(sent)
            return
        waiting = self.client.unsent(self.game_id)
        if not waiting:
            return
        from pbem.files import write_atomically
        from pbem.transport.savefile import move_file

        path = self.folder / f"pbem-{self.game_id[:12]}-{waiting[-1].seq}.txt"
        write_atomically(path, move_file(waiting).encode("utf-8"), 0o644)
        count = f"{len(waiting)} entr{'y' if len(waiting) == 1 else 'ies'}"
        self.say(f"wrote {count} to {path}: send it to the other side")

    def _wait(self) -> bool:
        """Send, then wait for the other side: False when the person stops."""
        self._send()
        game = self.client.game(self.game_id)
        signer = game.next_signer()
        if self.mailer is not None:
            self.say(f"waiting for {signer}: polling the mailbox every {self.interval:g} s")
            head = game.head.id
            polls = 0
            while self.client.game(self.game_id).head.id == head:
                if self.polls is not None and polls >= self.polls:
                    self.say("no answer yet: `pbem play` again later")
                    return False
                if polls:
                    self.sleep(self.interval)
                for said in self.mailer.fetch():
                    self.say(said)
                polls += 1
            return True
        line = self.ask(f"waiting for {signer}: their move file (q to stop)> ")
        if line is None or line.strip().lower() in QUIT:
            self.say("stopped: `pbem play` again to go on")
            return False
        self._apply_file(Path(line.strip()).expanduser())
        return True

    def _apply_file(self, path: Path) -> None:
        from pbem.verify import parse_entries

        try:
            entries = parse_entries(path.read_bytes())
        except OSError as exc:
            self.say(f"error: cannot read {path}: {exc.strerror or exc}")
            return
        except PbemError as exc:
            self.say(f"error: {exc}")
            return
        if not entries:
            self.say(f"error: no PBEM entries found in {path}")
            return
        try:
            for result in self.client.apply_entries(entries):
                self.say(f"{result.status}: {result.entry.describe()}")
        except PbemError as exc:
            self.say(f"error: {exc}")
