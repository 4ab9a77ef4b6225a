"""Secrets never leak: every artefact of a game, scanned for every secret not yet opened.

A demo game of each title is played (pbem.demo.run_demo: two stores, bots, real move
files). At several points during the game, and at the end, each player's store is asked
for what a player looks at or sends: `pbem show`, `pbem render` (text, Markdown, BBCode;
own view, the opponent's, the public), `pbem replay`, `pbem export`, the mail `pbem mail
send --dry-run` would send, and the output of commands that fail (an illegal move, a move
out of turn, a damaged move file, a wrong passphrase, an unreachable mail server). Each
artefact is kept with the position of the log when it was made and who sees it.

The secrets are read from the stores and key files: private keys (raw, hex, base64, the
key file's own lines), each role's hash-chain seed and every chain value, each commitment's
salt and value, private-draw secrets. Each is public only from the entry that publishes it
(a chain value from the entry that reveals it, a salt and value from the entry that opens
them; keys, seeds and the mail password never). An artefact made before that entry must
not contain it, in any of its forms, also not inside the armored entries it carries
(decoded) or in a mail's encoded MIME parts (decoded).

A role's own view may show that role's own sealed values (its hand, its plan), but never a
chain value, a salt or a key. Long random secrets are searched everywhere; short values
(a card number 7, a block strength 4) would match by chance, so they are checked only
where they would be identifiable: RNG-log lines of private draws, summary roll lines, the
way own views show them (a block "known only to you", a hand's "#7"), and by comparing
every view rendered for others by the owner's store with the same view rendered from a
save (which cannot know the owner's values).

Also: the scanner finds planted secrets of each kind; key files, store.db and SQLite's
-wal/-shm files are private whatever the umask (extending tests/cli).
"""

from __future__ import annotations

import base64
import email
import email.policy
import json
import re
import secrets
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.client import SEALED, Client
from pbem.core import chain
from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import canonical_bytes
from pbem.crypto.keys import load_private_key
from pbem.demo import DemoStep, run_demo
from pbem.errors import PbemError
from pbem.store import Store
from pbem.verify import parse_entries

NEVER = 1 << 60  # "public from" of what is never published
HEX_RUN = re.compile(r"[0-9a-fA-F]{16,}")
CHUNK = 16  # long hex secrets are indexed by 16-digit pieces (aligned) and found in any run
RNG_LINE = re.compile(r"rng (\d+) (\d+) (-?\d+)\.\.(-?\d+) (-?\d+) (.+)")
MAIL_PASSWORD = "mail-" + secrets.token_hex(20)


# --- artefacts ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Artefact:
    name: str
    text: str
    as_of: int  # the last seq of the log when it was made
    audience: str | None  # a role: only that role's own eyes; None: anyone


def expanded(artefact: Artefact) -> Iterator[Artefact]:
    """The artefact, the canonical JSON of every armored entry in it, and its MIME parts."""
    yield artefact
    texts = [artefact.text]
    if "\nMIME-Version:" in artefact.text or artefact.text.startswith(("From:", "Content-")):
        message = email.message_from_string(artefact.text, policy=email.policy.default)
        for number, part in enumerate(message.walk()):
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                decoded = payload.decode("utf-8", "replace")
                texts.append(decoded)
                name = f"{artefact.name} part {number}"
                yield Artefact(name, decoded, artefact.as_of, artefact.audience)
    for text in texts:
        try:
            entries = parse_entries(text)
        except PbemError:
            continue
        for entry in entries:
            yield Artefact(
                f"{artefact.name} entry {entry.seq}",
                entry.canonical.decode(),
                artefact.as_of,
                artefact.audience,
            )


# --- secrets --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Secret:
    what: str
    forms: tuple[str, ...]  # how it could be written; hex forms lower case
    public_from: int  # the seq of the entry that publishes it (NEVER: never)
    owner: str | None  # whose own views may show it (None: no view, ever)


Index = tuple[dict[str, list[Secret]], list[tuple[str, Secret]]]


@dataclass
class Secrets:
    found: dict[str, Secret] = field(default_factory=dict)
    # The last index(), until a secret is added (the planted-secrets test scans a dozen
    # times with the same secrets, and built the index anew for each scan).
    indexed: Index | None = field(default=None, repr=False)

    def add(self, secret: Secret) -> None:
        """Keep a secret; seen again from a later log, it may have become public since."""
        known = self.found.get(secret.what)
        if known is None or secret.public_from < known.public_from:
            self.found[secret.what] = secret
            self.indexed = None  # (a changed secret: indexed anew at the next scan)

    def index(self) -> Index:
        """Hex forms by their aligned 16-digit chunks; every other form as is.

        A hex run of an artefact is looked up at every offset, so a secret is found when
        it appears whole, by its first 16 digits, or by any 31 digits of it in a row."""
        if self.indexed is None:
            self.indexed = self._index()
        return self.indexed

    def _index(self) -> Index:
        chunks: dict[str, list[Secret]] = {}
        plain: list[tuple[str, Secret]] = []
        for secret in self.found.values():
            for form in secret.forms:
                if re.fullmatch(r"[0-9a-f]{32,}", form):
                    for start in range(0, len(form) - CHUNK + 1, CHUNK):
                        chunks.setdefault(form[start : start + CHUNK], []).append(secret)
                else:
                    assert len(form) >= 16, f"{secret.what}: {form!r} is too short to scan for"
                    plain.append((form, secret))
        return chunks, plain


def b64_forms(raw: bytes) -> list[str]:
    std = base64.b64encode(raw).decode()
    url = base64.urlsafe_b64encode(raw).decode()
    return [std, std.rstrip("="), url.rstrip("=")]


def key_secrets(path: Path, passphrase: bytes | None = None) -> list[Secret]:
    """A private key file in every form it could leak in: raw seed, hex, base64, its lines."""
    text = path.read_text()
    key = load_private_key(text.encode(), passphrase)
    seed = key._seed()  # the 32 secret bytes
    forms = [seed.hex(), (seed + key.public.raw).hex(), text.strip()]
    forms += b64_forms(seed) + b64_forms(seed + key.public.raw)
    body = [line for line in text.splitlines() if line and not line.startswith("-----")]
    forms += [line for line in body if len(line) >= 16]
    return [
        Secret(f"private key {path}", tuple(forms), NEVER, None),
        Secret("a private key's armor", ("PRIVATE KEY-----",), NEVER, None),
    ]


def reveal_seqs(game: Adjudicator) -> dict[str, list[int]]:
    """role -> the seq publishing s_0 (its join), s_1, s_2, ... (its reveals) in the log."""
    seqs: dict[str, list[int]] = {}
    for entry in game.entries:
        if entry.kind == "join":
            seqs[entry.by] = [entry.seq]
        elif entry.reveal is not None:
            seqs[entry.by].append(entry.seq)
    return seqs


def store_secrets(
    home: Path, role: str, game_id: str, into: Secrets, passphrase: bytes | None = None
) -> Adjudicator:
    """Every secret `role`'s store holds, with the seq that publishes it in its log."""
    client = Client(Store(home), lambda _name: passphrase)
    game = client.game(game_id)
    into.add(Secret(f"{role}'s mail password", (MAIL_PASSWORD,), NEVER, None))
    for row in client.store.list_keys():
        key_file = client.key_file(row)
        if key_file is not None:
            for secret in key_secrets(key_file, passphrase):
                into.add(secret)
    published = reveal_seqs(game)
    # The store keeps them sealed under the role's key (pbem/store/vault.py): read through
    # a Client that holds the key, as the owner would.
    for owner in published:
        if not client.owns_private_key(game.roles[owner]):
            continue
        value = client.chain_seed(game_id, owner)
        length = chain.MIN_LENGTH
        elements = [value]
        for _ in range(length):
            elements.append(chain.step_down(elements[-1]))
        elements.reverse()  # s_0 (the anchor) ... s_N (the seed)
        seqs = published.get(owner, [])
        into.add(Secret(f"{owner}'s chain seed", (value.hex(), *b64_forms(value)), NEVER, None))
        for index, element in enumerate(elements):
            public_from = seqs[index] if index < len(seqs) else NEVER
            into.add(
                Secret(f"{owner}'s chain value s_{index}", (element.hex(),), public_from, None)
            )
    rows = client.store.db.execute(
        "SELECT role, kind FROM secrets WHERE game = ?", [game_id]
    ).fetchall()
    for owner, kind in rows:
        assert kind.startswith(SEALED), kind
        label = kind[len(SEALED) :]
        kept = client.sealed_opening(game_id, owner, label)
        sealed = game.sealed[label]
        public_from = sealed.opened_at if sealed.opened and sealed.opened_at is not None else NEVER
        salt = kept.salt
        into.add(
            Secret(f"salt of {label}", (salt, *b64_forms(bytes.fromhex(salt))), public_from, None)
        )
        value = kept.value
        if isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value):
            # The secret x of private draws (its draws' values are checked structurally).
            forms = (value, *b64_forms(bytes.fromhex(value)))
            into.add(Secret(f"private-draw secret {label}", forms, public_from, owner))
        else:
            forms_set = {
                canonical_bytes(value).decode(),
                json.dumps(value),
                json.dumps(value, sort_keys=True),
            }
            long_forms = tuple(sorted(f for f in forms_set if len(f) >= 16))
            # Short values (a card 7, a block 4) would match anywhere: checked structurally.
            if long_forms:
                into.add(Secret(f"sealed value {label}", long_forms, public_from, owner))
    return game


# --- scanning -------------------------------------------------------------------------------


def expand_all(artefacts: list[Artefact]) -> list[Artefact]:
    return [item for artefact in artefacts for item in expanded(artefact)]


def one(name: str, text: str, as_of: int, audience: str | None) -> list[Artefact]:
    return expand_all([Artefact(name, text, as_of, audience)])


def leaks(items: list[Artefact], found: Secrets) -> list[str]:
    """Every (secret, artefact) where the artefact shows the secret before it is public.

    `items`: artefacts with their armored entries and MIME parts decoded (expand_all)."""
    chunks, plain = found.index()
    problems: set[str] = set()

    def leaked(secret: Secret, item: Artefact) -> None:
        if item.as_of >= secret.public_from:
            return
        if secret.owner is not None and item.audience == secret.owner:
            return  # a role's own view may show its own values
        problems.add(f"{secret.what} in {item.name} (log at seq {item.as_of})")

    for item in items:
        for run in HEX_RUN.findall(item.text):
            run = run.lower()
            for start in range(len(run) - CHUNK + 1):
                for secret in chunks.get(run[start : start + CHUNK], ()):
                    leaked(secret, item)
        for form, secret in plain:
            if form in item.text:
                leaked(secret, item)
    return sorted(problems)


def private_draw_leaks(items: list[Artefact], game: Adjudicator) -> list[str]:
    """Short values where they are identifiable: a private draw's RNG-log line or summary
    roll line must not show a value before its secret is opened (but to its owner)."""
    by_seqs: dict[tuple[int, int], tuple[int, str]] = {}  # (requesting, producing) -> ...
    by_purpose: dict[str, tuple[int, set[str]]] = {}  # purpose -> first opening, owners
    public_purposes = {r.purpose for r in game.rng_log if r.secret is None}
    for draw in game.private.values():
        sealed = game.sealed[draw.secret]
        at = sealed.opened_at if sealed.opened and sealed.opened_at is not None else NEVER
        by_seqs[(draw.requesting_seq, draw.producing_seq)] = (at, sealed.role)
        first, owners = by_purpose.get(draw.purpose, (NEVER, set()))
        by_purpose[draw.purpose] = (min(first, at), owners | {sealed.role})
    problems = []
    for item in items:
        for match in RNG_LINE.finditer(item.text):
            key = (int(match.group(1)), int(match.group(2)))
            at, owner = by_seqs.get(key, (-1, ""))
            if item.as_of < at and item.audience != owner:
                problems.append(f"private draw {match.group(0)!r} in {item.name}")
        if "roll" not in item.text:
            continue
        for purpose, (first, owners) in by_purpose.items():
            # Only while no draw of this purpose is open, and no public roll shares it.
            if purpose in public_purposes or item.as_of >= first or item.audience in owners:
                continue
            if purpose not in item.text:
                continue
            shown = re.search(
                rf"roll (\*|\[i\])?{re.escape(purpose)}(\*|\[/i\])?: (\*\*|\[b\])?\d",
                item.text,
            )
            if shown:
                problems.append(f"private draw value {shown.group(0)!r} in {item.name}")
    return problems


# What only a role's own views show, in the games' own words: (pattern, group naming the role).
# Each pattern is `(\w+) ...` with a lookbehind that lets the search skip the starts inside
# a word (trying each letter of every word of every artefact was a tenth of this file's
# time): the same matches, as finditer gives them. A match of `(\w+) ...` starts where the search
# starts (at 0, or where the previous match ended: after ")" or a digit, which is what the
# lookbehind allows there) or after a character that is not a word character, because one
# starting inside a word would also match from the word's first letter, which comes first.
OWN_MARKERS = {
    "race-to-berlin": (
        "known only to you",
        re.compile(r"(?<!\w)(\w+) block \d+ \(sealed, known only to you\)"),
    ),
    "berlin-1945": ("hand: ", re.compile(r"(?:(?<!\w)|(?<=\d))(\w+) hand: \d+ cards?: #\d+")),
}


def own_marker_leaks(items: list[Artefact], game: Adjudicator) -> tuple[list[str], int]:
    """Sealed values shown the way a role's own view shows them (a block's strength, the
    cards in hand), in an artefact for other eyes. Also: how often own views showed them,
    so that a test can tell the check has something to find."""
    if game.engine.name not in OWN_MARKERS:
        return [], 0
    literal, pattern = OWN_MARKERS[game.engine.name]
    # A role's values are all public once its last sealed value is opened (the game's end).
    public_from: dict[str, int] = {}
    for sealed in game.sealed.values():
        at = sealed.opened_at if sealed.opened and sealed.opened_at is not None else NEVER
        public_from[sealed.role] = max(public_from.get(sealed.role, -1), at)
    problems, own = [], 0
    for item in items:
        if literal not in item.text:
            continue
        for match in pattern.finditer(item.text):
            role = match.group(1)
            if item.audience == role:
                own += 1
            elif item.as_of < public_from.get(role, -1):
                problems.append(f"{match.group(0)!r} in {item.name}")
    return problems, own


def test_the_own_markers_match_as_their_plain_patterns_do() -> None:
    """OWN_MARKERS' lookbehinds change nothing finditer gives (tests of the marks' edges:
    a match after a digit, a word glued to the end of the match before, a word's tail)."""
    plain = {
        "race-to-berlin": re.compile(r"(\w+) block \d+ \(sealed, known only to you\)"),
        "berlin-1945": re.compile(r"(\w+) hand: \d+ cards?: #\d+"),
    }
    text = (
        "west block 3 (sealed, known only to you)soviet block 4 (sealed, known only to you)"
        " x_west block 2 (sealed, known only to you) #12abc hand: 3 cards: #4 soviet hand: 1"
        " card: #7german hand: 2 cards: #9 é9hand: 2 cards: #1 _ hand: 1 card: #2\n"
        "-soviet hand: 6 cards: #1, #2 (hand: 4 cards: #3) 42 hand: 2 cards: #10west"
    )
    for game, (_literal, pattern) in OWN_MARKERS.items():
        found = [(m.span(), m.groups()) for m in pattern.finditer(text)]
        assert found == [(m.span(), m.groups()) for m in plain[game].finditer(text)]
        assert len(found) >= 3, game


def test_the_scanner_finds_planted_secrets(tmp_path: Path) -> None:
    """The scanner is only worth something if it finds a leak: plant each kind of secret."""
    run_demo("berlin-1945", tmp_path / "demo", seed=3)
    homes = {role: tmp_path / "demo" / f"{role}-home" for role in ("german", "soviet")}
    game_id = Client(Store(homes["german"])).store.games()[0]["id"]
    found = Secrets()
    games = {role: store_secrets(home, role, game_id, found) for role, home in homes.items()}
    save = (tmp_path / "demo" / "berlin-1945-demo.pbem").read_text()
    assert leaks(one("save", save, 10**6, None), found) == []  # at the end, all is open
    assert leaks(one("save", save, 10, None), found)  # not ten entries in
    soviet = Client(Store(homes["soviet"]))
    seed = soviet.chain_seed(game_id, "soviet").hex()
    kinds = [row[0] for row in soviet.store.db.execute("SELECT kind FROM secrets").fetchall()]
    label = next(k for k in kinds if k.startswith("sealed:plan/"))[len(SEALED) :]
    plan = soviet.sealed_opening(game_id, "soviet", label).to_json()
    key_file = (homes["soviet"] / "keys" / "soviet").read_text()
    key_line = key_file.splitlines()[2]
    plants = {
        "seed prefix": f"debug: {seed[:20]}",
        "unpublished chain value": "x" + chain.step_down(bytes.fromhex(seed)).hex().upper() + "y",
        "salt in base64": base64.b64encode(bytes.fromhex(plan["salt"])).decode(),
        "plan": json.dumps(plan["value"]),
        "key line": key_line,
        "mail password": f"PASS {MAIL_PASSWORD}",
    }
    # The salt and plan of a plan opened later are public at the end: plant them early.
    for name, text in plants.items():
        assert leaks(one(name, text, 4, None), found), name
    # A chain value is public from the entry that reveals it, not before.
    last = games["soviet"].entries[-1]
    reveal = str(last.reveal)
    assert not leaks(one("reveal", reveal, last.seq, None), found)
    assert leaks(one("reveal", reveal, last.seq - 1, None), found)
    # A secret added after a scan is found by the next one (the index is built anew), and
    # one published earlier than known is no longer reported from then on.
    late = "late-" + secrets.token_hex(16)
    assert not leaks(one("late", late, 4, None), found)
    found.add(Secret("a late secret", (late,), 9, None))
    assert leaks(one("late", late, 4, None), found)
    found.add(Secret("a late secret", (late,), 3, None))
    assert not leaks(one("late", late, 4, None), found)
    # Inside an armored entry (base32 on the wire) it is found too.
    from pbem.core.log import Entry
    from pbem.transport.savefile import move_file

    entry = Entry.build(
        {
            "v": 1,
            "kind": "move",
            "game": game_id,
            "seq": 5,
            "prev": game_id,
            "reveal": game_id,
            "by": "soviet",
            "body": {"decision": "pass", "note": seed},
        },
        b"\0" * 10,
    )
    assert seed not in move_file([entry])
    assert leaks(one("armored", move_file([entry]), 5, None), found)
    # A role's own view may show its own plan, never its salts.
    assert not leaks(one("own", json.dumps(plan["value"]), 4, "soviet"), found)
    assert leaks(one("own", plan["salt"], 4, "soviet"), found)
    assert leaks(one("other", json.dumps(plan["value"]), 4, "german"), found)
    # A private draw's value shown before its secret opens.
    game = games["soviet"]
    draw = min(game.private.values(), key=lambda d: d.log_index)
    line = f"rng {draw.requesting_seq} {draw.producing_seq} {draw.lo}..{draw.hi} 7 {draw.purpose}"
    owner = game.sealed[draw.secret].role
    other = next(role for role in game.roles if role != owner)
    for audience in (other, None):
        assert private_draw_leaks(one("rng", line, draw.producing_seq, audience), game)
    assert not private_draw_leaks(one("rng", line, draw.producing_seq, owner), game)
    private = f"rng {draw.requesting_seq} {draw.producing_seq} private {draw.purpose}"
    assert not private_draw_leaks(one("rng", private, draw.producing_seq, other), game)
    shown = f"    roll {draw.purpose}: 7 (range {draw.lo}..{draw.hi})"
    assert private_draw_leaks(one("summary", shown, draw.producing_seq, other), game)


# --- a whole game, looked at while it runs --------------------------------------------------


class Recorder:
    """Runs `pbem` commands in this process (click's runner) and keeps what they print."""

    def __init__(self) -> None:
        self.artefacts: list[Artefact] = []

    def keep(self, name: str, text: str, as_of: int, audience: str | None) -> None:
        self.artefacts.append(Artefact(name, text, as_of, audience))

    def run(
        self,
        home: Path,
        as_of: int,
        audience: str | None,
        *args: str,
        ok: bool = True,
        env: dict[str, str] | None = None,
    ) -> str:
        """`pbem --home HOME ARGS`: its stdout, stderr and any exception are artefacts."""
        result = CliRunner().invoke(main, ["--home", str(home), *args], env=env)
        name = f"pbem {' '.join(args)} [{home.name} at seq {as_of}]"
        self.keep(name + " stdout", result.stdout, as_of, audience)
        self.keep(name + " stderr", result.stderr, as_of, audience)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"{name} crashed") from result.exception
        assert (result.exit_code == 0) == ok, f"{name}: {result.exit_code} {result.stderr}"
        return result.stdout


def write_mail_config(home: Path) -> None:
    """mail.toml with a password in it (so 0600), and a server that is not there."""
    path = home / "mail.toml"
    path.write_text(
        f'address = "{home.name}@example.org"\n\n[smtp]\nhost = "127.0.0.1"\nport = 9\n'
        f'security = "ssl"\nuser = "{home.name}"\npassword = "{MAIL_PASSWORD}"\n'
    )
    path.chmod(0o600)


def look_at(step: DemoStep, rec: Recorder, tmp_path: Path, full: bool) -> None:
    """What each player can see, print, post or mail at this point of the game (`full`:
    also the other views and commands that fail; else what a player runs every turn)."""
    from pbem.ledger import replay
    from pbem.render.post import last_move, render_post
    from pbem.render.summary import render_summary

    game = step.game_id[:16]
    for role, home in step.homes.items():
        others = [r for r in step.homes if r != role]
        client = Client(Store(home))
        as_of = len(client.game(step.game_id).entries) - 1
        if not (home / "mail.toml").exists():
            write_mail_config(home)
        rec.run(home, as_of, role, "show", game)
        rec.run(home, as_of, role, "render", game)  # its own view, its own values
        save = rec.run(home, as_of, None, "export", game)
        peer = f"{others[0]}@example.org"
        rec.run(home, as_of, None, "mail", "send", game, "--to", peer, "--dry-run")
        # Views for others rendered by this store are exactly those rendered from its save,
        # which cannot know this role's sealed values (short values included).
        from_save = replay(parse_entries(save))
        post = rec.run(home, as_of, None, "render", game, "--format", "markdown")  # public
        assert post == render_post(from_save, None, "markdown", last_move(from_save))
        for viewer in ["public", *others] if full else others:
            mine = rec.run(home, as_of, None, "render", game, "--role", viewer)
            assert mine == render_summary(from_save, None if viewer == "public" else viewer)
        if not full:
            continue
        for other in others:
            rec.run(home, as_of, role, "show", game, "--role", other)
        for viewer in [role, *others]:  # a post never carries sealed values, even its author's
            mine = rec.run(
                home, as_of, None, "render", game, "--role", viewer, "--format", "bbcode"
            )
            assert mine == render_post(from_save, viewer, "bbcode", last_move(from_save))
        rec.run(home, as_of, None, "render", game, "--format", "bbcode", "--since", "1")
        rec.run(home, as_of, None, "replay", game)
        # Commands that fail: their messages are seen by this role only.
        rec.run(home, as_of, role, "move", game, "frobnicate", "the", "reichstag", ok=False)
        rec.run(home, as_of, role, "move", game, "9999", ok=False)
        rec.run(home, as_of, role, "mail", "send", game, "--to", peer, ok=False)
        damaged = tmp_path / "damaged.txt"
        damaged.write_text(step.path.read_text().replace("\n", "\nAAAA", 3))
        rec.run(home, as_of, role, "apply", str(damaged), ok=False)
        try:
            client.move(step.game_id, "frobnicate", role)
        except PbemError as exc:
            rec.keep(f"exception of {role}'s move", f"{exc!r} {exc}", as_of, role)


@pytest.mark.parametrize("rules", ["barbarossa", "race-to-berlin", "berlin-1945"])
def test_no_secret_appears_before_it_is_opened(tmp_path: Path, rules: str) -> None:
    rec = Recorder()
    looked: list[int] = []
    found = Secrets()

    def on_step(step: DemoStep) -> None:
        entries = parse_entries(step.path.read_bytes())
        rec.keep(
            f"move file {step.path.name}", step.path.read_text(), max(e.seq for e in entries), None
        )
        if step.count in (4, 30, 55):
            look_at(step, rec, tmp_path, full=step.count == 4)
            looked.append(step.count)
            for role, home in step.homes.items():  # what the stores hold now
                store_secrets(home, role, step.game_id, found)

    demo = tmp_path / "demo"
    result = run_demo(rules, demo, seed=11, on_step=on_step)
    assert len(looked) == 3, f"the game ended after {result.count} move files"
    homes = {p.name.removesuffix("-home"): p for p in demo.glob("*-home")}
    final = DemoStep(result.count, max((demo / "moves").iterdir()), "", result.game_id, homes)
    look_at(final, rec, tmp_path, full=False)
    end = 10**6
    for path in (result.save, result.summary, demo / "summary.txt"):
        rec.keep(path.name, path.read_text(), end, None)
    games = {role: store_secrets(home, role, result.game_id, found) for role, home in homes.items()}

    # What was collected: every chain value, keys, and each game's kinds of sealed secrets.
    kinds = {re.sub(r"[^a-z -].*", "", s.what.split("'s ")[-1]) for s in found.found.values()}
    assert len(found.found) > 4000 * len(homes)
    expected = {"chain value s", "chain seed", "private key ", "mail password"}
    expected |= {
        "barbarossa": set(),
        "race-to-berlin": {"salt of block"},  # block values are short: checked structurally
        "berlin-1945": {
            "salt of plan",
            "sealed value plan",
            "private-draw secret x",
            "salt of hand",
        },
    }[rules]
    assert expected <= kinds, kinds
    items = expand_all(rec.artefacts)
    problems = leaks(items, found)
    game = next(iter(games.values()))  # the same log in every store
    problems += private_draw_leaks(items, game)
    marked, own_views = own_marker_leaks(items, game)
    problems += marked
    if rules in OWN_MARKERS:  # the own views did show sealed values: the check can find them
        assert own_views > 0
    assert not problems, "\n".join(problems[:20])
    assert len(rec.artefacts) > 100


def test_passphrases_keys_and_passwords_stay_out_of_every_message(tmp_path: Path) -> None:
    """A passphrase-protected key: a wrong passphrase, a key import with it, mail that cannot
    be sent; no message shows the passphrase, the key or the mail password."""
    phrase = "phrase-" + secrets.token_hex(12)
    wrong = {"PBEM_PASSPHRASE": "wrong-" + secrets.token_hex(12)}
    right = {"PBEM_PASSPHRASE": phrase}
    home, other = tmp_path / "home", tmp_path / "other"
    rec = Recorder()
    rec.run(home, 0, None, "key", "new", "me", "--passphrase", env=right)
    with pytest.raises(PbemError, match="passphrase"):
        load_private_key((home / "keys" / "me").read_bytes())  # encrypted on disk
    rec.run(other, 0, None, "key", "import", "me", str(home / "keys" / "me"), ok=False, env=wrong)
    rec.run(home, 1, None, "new", "barbarossa", "--key", "german=me", env=right)  # and join
    game = Client(Store(home)).store.games()[0]["id"]
    rec.run(home, 1, None, "move", game[:12], "roll", "event", ok=False, env=wrong)
    rec.run(home, 1, None, "move", game[:12], "roll", "event", ok=False, env={})
    rec.run(home, 2, None, "move", game[:12], "roll", "event", env=right)
    rec.run(home, 2, None, "move", game[:12], "attack", "nowhere", ok=False, env=wrong)
    rec.run(home, 2, None, "key", "list")
    write_mail_config(home)
    rec.run(home, 2, None, "mail", "send", game[:12], "--to", "r@example.org", ok=False)
    rec.run(home, 2, None, "mail", "send", game[:12], "--to", "r@example.org", "--dry-run")
    # Mail settings that are refused say why without quoting the password.
    (home / "mail.toml").chmod(0o644)
    rec.run(home, 2, None, "mail", "send", game[:12], "--to", "r@example.org", ok=False)
    assert "others can read it" in rec.artefacts[-1].text

    found = Secrets()
    found.add(Secret("the passphrase", (phrase,), NEVER, None))
    store_secrets(home, "german", game, found, phrase.encode())
    assert any(s.what.startswith("private key") for s in found.found.values())
    problems = leaks(expand_all(rec.artefacts), found)
    assert not problems, "\n".join(problems)
    # The failures were the expected ones, each one line.
    # (A command that succeeds may say more on stderr: `pbem new` puts its move file there.)
    failures = [a.text for a in rec.artefacts if a.name.endswith("stderr") and "error:" in a.text]
    assert any("passphrase" in text for text in failures), failures
    assert all(len(text.strip().splitlines()) == 1 for text in failures), failures


PROBE = """
import json, os, sys
from pathlib import Path
os.umask(0)
from pbem.client import Client
from pbem.store import Store

home = Path(sys.argv[1])
client = Client(Store(home))
client.new_key("me")
game, _ = client.new_game("barbarossa", "german", {"german": "me"})
client.move(game, "roll event")
names = ["", "keys", "keys/me", "keys/me.pub", "store.db", "store.db-wal", "store.db-shm"]
modes = {n: os.stat(home / n).st_mode & 0o777 for n in names if (home / n).exists()}
print(json.dumps(modes))
"""


def test_store_keys_and_sqlite_files_are_private_whatever_the_umask(tmp_path: Path) -> None:
    """Extends tests/cli's check of a key and store.db: under umask 0, while the store is
    open, the folders are 0700 and the key, store.db and SQLite's -wal/-shm files 0600."""
    home = tmp_path / "home"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(home)], capture_output=True, text=True, check=True
    )
    modes = json.loads(done.stdout)
    assert modes.pop("keys/me.pub") == 0o644  # public, and meant to be copied
    assert "store.db-wal" in modes and "store.db-shm" in modes  # WAL: they exist while open
    assert modes == {
        "": 0o700,
        "keys": 0o700,
        "keys/me": 0o600,
        "store.db": 0o600,
        "store.db-wal": 0o600,
        "store.db-shm": 0o600,
    }
    for path in (home, home / "keys"):  # and what a later run leaves
        assert stat.S_IMODE(path.stat().st_mode) == 0o700
