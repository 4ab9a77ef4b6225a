"""Whole double-blind games through three real stores (issue 17; pbem.core.blind).

The issue's test: over a whole double-blind game, neither player's store, mail or output
ever holds the other's hidden choices before the rules reveal them. After every move file
(pbem.demo's on_step), for each player P and its opponent O, O's openings still sealed in
P's log (their salts, their 64-hex secret values and the canonical JSON of each opening)
must appear nowhere in P's store folder, in the mail sent so far, in the pages and
summaries P's own client renders, nor in the page the referee would mail P. The referee's
store holds no unopened salt either (protocol section 8: no secret in a store alone),
yet the referee discloses every one of them at the end and the save verifies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import pbem.games  # noqa: F401  (registers the shipped games)
from pbem.client import Client
from pbem.core.blind import DISCLOSE, ESCROW, HELD
from pbem.core.canonical import canonical_bytes
from pbem.core.commit import Opening
from pbem.core.hashing import is_lower_hex
from pbem.core.log import ACK, Entry
from pbem.core.referee import REFEREE
from pbem.demo import DemoStep, run_demo
from pbem.refereeing.letters import turn_message
from pbem.render.page import render_page
from pbem.render.show import asked_of, show_text
from pbem.render.summary import render_summary
from pbem.store import Store
from pbem.verify import parse_entries, verify_path

# (title, seed): Berlin 1945 has every kind of secret a player seals (plans, a hidden hand,
# private draws); a seed whose bot game ends fast. (tests/core/test_double_blind.py and
# tests/refereeing/test_referee_double_blind.py play Race to Berlin and Berlin 1945 too.)
GAMES = [("berlin-1945", 2)]
# The stores grow to hundreds of kilobytes and the pages take tens of milliseconds: both
# are searched every few move files (the test stays near six seconds; the whole suite is
# near its four minutes).
STORE_EVERY = 8
PAGE_EVERY = 24


def _hex64(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and is_lower_hex(value)


HEX_RUN = re.compile(rb"[0-9a-fA-F]{64,}")


def _forms(secret: str) -> list[bytes]:
    """The shapes a 64-hex secret could take in a file: hex text, and raw bytes."""
    return [secret.encode(), bytes.fromhex(secret)]


def found_in(haystack: bytes | str, needles: dict[bytes, str]) -> list[str]:
    """The names of the needles `haystack` holds. A hex needle is looked for, in any case,
    among the runs of hex digits alone (one regex pass: the stores grow to hundreds of
    kilobytes and are searched at every step); any other needle in the whole bytes."""
    data = haystack.encode() if isinstance(haystack, str) else haystack
    runs = b"\n".join(HEX_RUN.findall(data)).lower()
    return sorted(
        {
            name
            for needle, name in needles.items()
            if (needle in runs if HEX_RUN.fullmatch(needle) else needle in data)
        }
    )


def folder_bytes(folder: Path) -> Iterable[tuple[Path, bytes]]:
    """Every file under `folder` (the SQLite file, its journal, the key files...)."""
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            yield path, path.read_bytes()


@dataclass
class Watch:
    """Checks made after each move file of a double-blind demo game."""

    tmp: Path
    clients: dict[str, Client] = field(default_factory=dict)
    steps: int = 0
    with_secrets: int = 0  # steps at which some opponent's value was still sealed
    pages: int = 0
    planted: bool = False
    leaks: list[str] = field(default_factory=list)
    openings: dict[str, Opening] = field(default_factory=dict)  # label -> its owner's opening

    def client(self, step: DemoStep, role: str) -> Client:
        if role not in self.clients:
            self.clients[role] = Client(Store(step.homes[role]))
        return self.clients[role]

    def sealed_of(self, step: DemoStep, player: str, owner: str) -> dict[bytes, str]:
        """`owner`'s values still sealed in `player`'s log, as needles -> a name."""
        game = self.client(step, player).game(step.game_id)
        own = self.client(step, owner)
        needles: dict[bytes, str] = {}
        for label, sealed in game.sealed.items():
            if sealed.role != owner or sealed.opened:
                continue
            opening = self.openings.get(label)
            if opening is None:  # (an opening never changes: read from the store once)
                opening = self.openings[label] = own.sealed_opening(step.game_id, owner, label)
            assert _hex64(opening.salt), label
            for form in _forms(opening.salt):
                needles[form] = f"{owner}'s salt of {label}"
            if _hex64(opening.value):
                for form in _forms(str(opening.value)):
                    needles[form] = f"{owner}'s secret value of {label}"
            needles[canonical_bytes(opening.to_json())] = f"{owner}'s opening of {label}"
        return needles

    def __call__(self, step: DemoStep) -> None:
        self.steps += 1
        players = [role for role in step.homes if role != REFEREE]
        pages_now = step.count % PAGE_EVERY == 0
        stores_now = step.count % STORE_EVERY == 0
        all_sealed: dict[bytes, str] = {}
        for player in players:
            for owner in players:
                if owner == player:
                    continue
                needles = self.sealed_of(step, player, owner)
                if not needles:
                    continue
                self.with_secrets += 1
                all_sealed |= needles
                where = f"after move file {step.count}"
                if stores_now:
                    self.check_store(step.homes[player], needles, f"{player}'s store {where}")
                    mail = b"".join(p.read_bytes() for p in sorted(step.path.parent.iterdir()))
                    for name in found_in(mail, needles):
                        self.leaks.append(f"the mail {where} holds {name}")
                if pages_now:
                    self.check_output(step, player, needles, where)
        # The referee's store keeps no player's unopened salt in plain text (it holds the
        # escrows, which only its key opens).
        if stores_now:
            self.check_store(step.homes[REFEREE], all_sealed, f"the referee's store {step.count}")
        if all_sealed and not self.planted:
            self.plant(step, all_sealed)

    def check_store(self, folder: Path, needles: dict[bytes, str], where: str) -> None:
        for path, data in folder_bytes(folder):
            for name in found_in(data, needles):
                self.leaks.append(f"{where}: {path.name} holds {name}")

    def check_output(
        self, step: DemoStep, player: str, needles: dict[bytes, str], where: str
    ) -> None:
        """What P's own client shows P (with P's own known values: `pbem page`, `pbem show`,
        `pbem render`), and the turn page the referee's store would mail P."""
        client = self.client(step, player)
        game = client.game(step.game_id)
        if game.state is None:
            return
        known = client.known(step.game_id, player)
        outputs = {
            "turn page": render_page(
                game, player, known=known, asked=asked_of(client, game, player)
            ),
            "board": show_text(client, game, player, history=True),
            "summary": render_summary(game, player, "text", known),
            "summary markdown": render_summary(game, player, "markdown", known),
        }
        referee = self.client(step, REFEREE)
        letter = turn_message(
            referee.game(step.game_id),
            player,
            parse_entries(step.path.read_bytes()),
            sender="referee@example.org",
            to=f"{player}@example.org",
        )
        attached = [part.get_content() for part in letter.iter_attachments()]
        assert attached, "the referee's letter carries the player's turn page"
        outputs["the referee's letter"] = letter.as_string() + "".join(map(str, attached))
        for what, text in outputs.items():
            for name in found_in(text, needles):
                self.leaks.append(f"{player}'s {what} {where} shows {name}")
        self.pages += 1

    def plant(self, step: DemoStep, needles: dict[bytes, str]) -> None:
        """A broken search must not pass: a salt written into a copy of a store file, or
        into a page, is found."""
        salt = next(needle for needle, name in needles.items() if "salt" in name)
        player = next(role for role in step.homes if role != REFEREE)
        path, data = max(folder_bytes(step.homes[player]), key=lambda item: len(item[1]))
        copy = self.tmp / "planted" / path.name
        copy.parent.mkdir(exist_ok=True)
        middle = len(data) // 2
        copy.write_bytes(data[:middle] + salt + data[middle:])
        assert found_in(copy.read_bytes(), needles)
        assert found_in(data[:middle] + bytes.fromhex(salt.decode()) + data[middle:], needles)
        assert found_in(f"<td>{salt.decode().upper()}</td>", needles)
        assert not found_in(data[:middle], {b"0" * 64 + b"x": "nothing"})
        self.planted = True


@pytest.mark.parametrize(("rules", "seed"), GAMES)
def test_no_store_mail_or_page_holds_the_opponents_sealed_values(
    rules: str, seed: int, tmp_path: Path
) -> None:
    watch = Watch(tmp_path)
    result = run_demo(rules, tmp_path / "demo", seed=seed, double_blind=True, on_step=watch)
    assert watch.leaks == [], "\n".join(watch.leaks[:20])
    # The search was made, on secrets that existed, and finds what is planted.
    assert watch.steps == result.count
    assert watch.with_secrets >= 10 and watch.pages >= 5 and watch.planted

    # The referee could disclose, and did: escrows on the players' moves, attested by the
    # referee's acks, every value opened at the end, and the save checks everything.
    entries = parse_entries(result.save.read_bytes())
    escrows = [e.seq for e in entries if ESCROW in e.body]
    assert escrows and {entries[seq].by for seq in escrows} == {
        role for role in watch.clients if role != REFEREE
    }
    held = [seq for e in entries if e.kind == ACK and HELD in e.body for seq in e.body[HELD]]
    assert held and set(held) <= set(escrows)
    assert all(e.by == REFEREE for e in entries if e.kind == ACK and HELD in e.body)
    report = verify_path(str(result.save))
    assert report.ok, report.failure
    assert report.game is not None and report.game.unopened() == []
    assert report.game.outcome() is not None
    disclosed = [e for e in entries if e.kind == DISCLOSE]
    if disclosed:  # values still sealed when the game ended were opened by the referee
        assert [e.by for e in disclosed] == [REFEREE] and disclosed[-1] == entries[-1]


class _FirstRestack(Exception):
    """Stops a demo once the first markers drawn from the shared cup are committed."""


def test_the_referees_store_deals_the_shared_cup_to_the_owner_alone(tmp_path: Path) -> None:
    """Race to the Sea with `shared_cup` through three real stores (docs/race-to-the-sea.md,
    4.2): the referee's store acknowledges, then deals the markers from the one cup; only
    the owner's store can read them, and its restack commits what it was dealt."""
    from pbem.core.blind import DEAL

    seen: dict[str, object] = {}

    def watch(step: DemoStep) -> None:
        entries = parse_entries(step.path.read_bytes())
        for entry in entries:
            if DEAL in entry.body:
                seen["deal"] = entry
            if "deal" in seen and entry.body.get("decision") == "restack":
                seen["restack"], seen["homes"], seen["game"] = entry, step.homes, step.game_id
                raise _FirstRestack

    with pytest.raises(_FirstRestack):
        run_demo("race-to-the-sea", tmp_path / "demo", seed=2, double_blind=True, on_step=watch)
    deal, restack = seen["deal"], seen["restack"]
    homes, game_id = seen["homes"], str(seen["game"])
    assert isinstance(deal, Entry) and isinstance(restack, Entry) and isinstance(homes, dict)
    assert deal.by == REFEREE and restack.by in deal.body[DEAL]  # type: ignore[operator]
    owner = restack.by
    other = next(role for role in homes if role not in (owner, REFEREE))
    dealt = {label: value for label, value in deal.body["commit"].items()}  # type: ignore[union-attr]
    assert dealt
    knows = Client(Store(homes[owner])).known(game_id, owner)
    assert set(dealt) <= set(knows)  # the owner's store opened its deal...
    assert not set(dealt) & set(Client(Store(homes[other])).known(game_id, other))  # ...alone
    # ... and its restack committed exactly the dealt stacks (same values under its labels).
    for label in dealt:
        stack_label = label.split("/", 2)[2]
        assert stack_label in restack.body["commit"]  # type: ignore[operator]
        assert knows[stack_label] == knows[label]
