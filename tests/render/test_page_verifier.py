"""The turn page's verifier agrees with `pbem verify` (issue 18; protocol section 7).

pbem/render/verifier.js is a second implementation of section 7, run by every HTML turn
page on the save it carries. Here it runs in headless Chromium (tests/support/browser.py,
one browser start for a whole batch) on every save in saves/, on the tamper matrix's
mutations (tests/hardening/test_tamper_matrix.py: a canonical byte, a payload character,
an entry deleted, swapped, duplicated or from another game, any character) and on the
attacks of the security issue (tests/hardening/: forged and reused reveals, a signature
rewrapped with a non-empty reserved field, non-canonical key lines and entries, another
game's id, an equivocation, a false opening, forged RNG records, dice rolled by the wrong
entry, self-witnessed dice), and must give the same verdict as `pbem verify` on each,
naming the same first bad entry. Where they disagree, the one that is wrong is named
below (PBEM_WRONG, BROWSER_BLIND) and each such case is asserted exactly.

The rules aside: the browser does not re-run the rules, read the header or the purposes
of the RNG log, or ask that the log be complete, so it may accept a text pbem refuses for
those reasons only (`allowed`); any other difference is a bug in one of the two.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
import random
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import tests.support.peek  # noqa: F401  (registers toy-peek)
import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.core.canonical import JSON, canonical_bytes
from pbem.core.log import Entry, entry_id
from pbem.crypto import sshsig
from pbem.crypto.keys import generate
from pbem.render.page import packed_save
from pbem.render.verifier import verifier_script
from pbem.testing import sign_entry
from pbem.transport.armor import armor
from pbem.transport.savefile import human_line, save_text
from pbem.verify import Report, verify_path, verify_text
from tests.hardening import test_tamper_matrix as matrix
from tests.hardening.test_signature_encoding import rewrap
from tests.support.browser import CHROMIUM, browser_verdicts, run_page, script_json
from tests.support.peek import opened_and_sealed
from tests.support.players import Table
from tests.support.players import dice as d6_values

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

SAVES = Path(__file__).resolve().parents[2] / "saves"


# --- the texts ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    text: str
    base: str  # the text it was made from (what an RNG line may differ from)
    what: str


@cache
def _games() -> list[tuple[matrix.Game, matrix.Game | None]]:
    """The games mutated, each with another game of its title signed with the same keys:
    small toy games (public dice; private draws, opened and sealed) and a bot game of the
    matrix (a real title, its dice and commitments). Small, so that a few hundred texts
    make one quick batch for the browser."""
    dice = dice_table()
    twin = Table("toy-dice", ("a", "b"), keys=dice.keys, nonce="page verifier 2")
    twin.join_all()
    twin.play(random.Random(19))
    return [
        (
            matrix.of_text("toy dice", "toy-dice", _save(dice, "toy dice")),
            matrix.of_text("toy dice 2", "toy-dice", _save(twin, "toy dice")),
        ),
        (matrix.of_text("toy peek", "toy-peek", _save(peek_table(), "toy peek")), None),
        (matrix.games("barbarossa")[1], matrix.other_game("barbarossa")),
    ]


def _mutations(rng: random.Random, count: int) -> dict[str, Case]:
    """`count` of each mutation of the tamper matrix, on the demo and bot games."""
    cases: dict[str, Case] = {}
    games = _games()
    for n in range(count):
        game = games[n % len(games)][0]
        blocks = matrix.blocks_of(game)

        # 1. a byte of an entry's canonical bytes, re-armored with its old signature
        k = rng.randrange(len(blocks))
        human, canonical, signature = blocks[k]
        at = rng.randrange(len(canonical))
        new = rng.choice([b for b in range(256) if b != canonical[at]])
        changed = [*blocks]
        changed[k] = (human, canonical[:at] + bytes([new]) + canonical[at + 1 :], signature)
        cases[f"1 byte {n}"] = Case(matrix.rebuild(game, changed), game.text, "canonical byte")

        # 2. a character of an armor payload
        entry = game.entries[rng.randrange(len(game.entries))]
        block = armor(entry.canonical, entry.signature)
        lines = block.split("\n")
        row = rng.randrange(1, len(lines) - 2)
        col = rng.randrange(len(lines[row]))
        lines[row] = (
            lines[row][:col]
            + matrix.other(lines[row][col], rng.randrange(99))
            + (lines[row][col + 1 :])
        )
        text = game.text.replace(block, "\n".join(lines), 1)
        cases[f"2 payload {n}"] = Case(text, game.text, "payload character")

        # 3, 4, 5: an entry deleted, two swapped, one duplicated
        gone = [*blocks]
        del gone[rng.randrange(len(gone))]
        cases[f"3 deleted {n}"] = Case(matrix.rebuild(game, gone), game.text, "deleted")
        swapped = [*blocks]
        i = rng.randrange(len(blocks) - 1)
        j = rng.randrange(i + 1, len(blocks))
        swapped[i], swapped[j] = swapped[j], swapped[i]
        cases[f"4 swapped {n}"] = Case(matrix.rebuild(game, swapped), game.text, "swapped")
        doubled = [*blocks]
        doubled.insert(rng.randrange(len(blocks) + 1), blocks[rng.randrange(len(blocks))])
        cases[f"5 duplicated {n}"] = Case(matrix.rebuild(game, doubled), game.text, "duplicated")

        # 6. an entry of another game of the same rules, signed with the same keys
        pairs = [(own, second) for own, second in games if second is not None]
        own, second = pairs[n % len(pairs)]
        k = rng.randrange(min(len(own.entries), len(second.entries)))
        mixed = matrix.blocks_of(own)
        mixed[k] = matrix.blocks_of(second)[k]
        cases[f"6 other game {n}"] = Case(matrix.rebuild(own, mixed), own.text, "other game")

        # 7. any character of the save, half of them off the armor payloads
        for half in ("anywhere", "off payload"):
            starts, kinds = matrix.layout(game)
            if half == "anywhere":
                position = rng.randrange(len(game.text))
            else:
                rows = [r for r, kind in enumerate(kinds) if kind != "payload"]
                row = rng.choice(rows[:-1])
                position = rng.randrange(starts[row], max(starts[row] + 1, starts[row + 1] - 1))
            old = game.text[position]
            text = (
                game.text[:position]
                + matrix.other(old, rng.randrange(99))
                + (game.text[position + 1 :])
            )
            cases[f"7 {half} {n}"] = Case(text, game.text, "any character")
    return cases


# --- the attacks ----------------------------------------------------------------------------------


def _save(table: Table, title: str) -> str:
    prints = {role: str(key.public.fingerprint()) for role, key in table.keys.items()}
    return save_text(table.game, title, prints)


@cache
def blind_table() -> tuple[Table, Entry]:
    """A double-blind Race to Berlin game ended by a resignation with blocks still sealed,
    then the referee's disclose of them all (pbem.core.blind); and that disclose entry."""
    table = Table("race-to-berlin", ("west", "soviet", "referee"), options={"double_blind": True})
    table.join_all()
    rng = random.Random(10)
    while not table.game.unopened() or table.game.next_signer() == "referee":
        table.step(rng)
    signer = str(table.game.next_signer())
    table.apply(table.make(signer, "move", {"resign": True}))
    disclose = table.apply(table.disclose_entry())
    assert {s.role for s in table.game.sealed.values() if s.opened_at == disclose.seq}
    return table, disclose


def _save_entries(save: str, entries: list[Entry], extra: Entry) -> str:
    """`save` with its entries' block replaced by `entries` and `extra` (its RNG log kept)."""
    from pbem.transport.savefile import move_file

    head, _, rest = save.partition(move_file(entries[:1]))
    _, _, log = rest.partition("RNG LOG")
    return head + move_file([*entries, extra]) + "RNG LOG" + log


@cache
def dice_table() -> Table:
    """A finished toy-dice game: public draws only."""
    table = Table("toy-dice", ("a", "b"), nonce="page verifier")
    table.join_all()
    table.play(random.Random(18))
    return table


@cache
def peek_table() -> Table:
    """An unfinished toy-peek game: opened private draws and a sealed one."""
    table: Table = opened_and_sealed("page verifier")
    return table


def _entries(text: str) -> list[Entry]:
    return list(matrix.parse_entries(text))


def _replaced(text: str, entries: list[Entry], at: int, *new: Entry) -> str:
    """`text` with its entry `at` replaced by `new` (block and human line)."""
    old = entries[at]
    old_block = f"{human_line(old)}\n{armor(old.canonical, old.signature)}"
    assert text.count(old_block) == 1
    blocks = "\n".join(f"{human_line(e)}\n{armor(e.canonical, e.signature)}" for e in new)
    return text.replace(old_block, blocks)


def _resigned(table: Table, entry: Entry, **changes: JSON) -> Entry:
    fields = {**entry.data, **changes}
    return sign_entry(table.keys[entry.by], fields)


def _rng_changed(text: str, change: Any) -> str:
    lines = text.split("\n")
    at = next(n for n, line in enumerate(lines) if line.startswith("rng "))
    lines[at : at + 1] = change(lines[at])
    return "\n".join(lines)


def _attacks() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    dice, peek = dice_table(), peek_table()
    dice_save, peek_save = _save(dice, "toy dice"), _save(peek, "toy peek")
    entries = _entries(dice_save)
    last = entries[-1]
    mover = next(e for e in reversed(entries) if e.kind != "join" and e.by == last.by and e != last)

    def add(name: str, text: str, base: str = dice_save) -> None:
        cases[name] = Case(text, base, name)

    # A reveal that is not the next of its signer's chain (forged; an earlier one reused).
    add("forged reveal", _replaced(dice_save, entries, -1, _resigned(dice, last, reveal="ab" * 32)))
    add(
        "reused reveal",
        _replaced(dice_save, entries, -1, _resigned(dice, last, reveal=mover.reveal)),
    )
    # test_signature_encoding: OpenSSH's unsigned `reserved` field, rewrapped.
    for k in (0, 3, len(entries) - 1):
        rewrapped = entries[k].with_signature(rewrap(entries[k].signature))
        add(f"rewrapped signature {k}", _replaced(dice_save, entries, k, rewrapped))
    # test_keys_as_keys: a key line padded, so not canonical (the genesis re-signed).
    genesis = entries[0]
    roles = dict(genesis.body["roles"])  # type: ignore[arg-type]
    kind, b64, *rest = str(roles["b"]).split(" ")
    roles["b"] = " ".join([kind, b64 + "=", *rest])
    padded = _resigned(dice, genesis, body={**genesis.body, "roles": roles})
    add("padded key line", _replaced(dice_save, entries, 0, padded))
    # Equivocation: a second, validly signed entry of the same role for the same seq.
    twin = _resigned(dice, mover, body={"decision": "pass"})
    add("equivocation", _replaced(dice_save, entries, mover.seq, mover, twin))
    # An entry signed by the other role's key.
    add(
        "signed by another key",
        _replaced(
            dice_save,
            entries,
            3,
            sign_entry(dice.keys["a" if entries[3].by == "b" else "b"], dict(entries[3].data)),
        ),
    )
    # A join whose chain is too short to be a chain.
    join = next(e for e in entries if e.kind == "join")
    add(
        "short chain",
        _replaced(
            dice_save, entries, join.seq, _resigned(dice, join, body={**join.body, "length": 10})
        ),
    )

    # The RNG log: a value changed (a forged record), a purpose changed, a line dropped,
    # a line doubled, a line added for an entry that rolled nothing.
    def other_value(line: str) -> list[str]:
        parts = line.split(" ")  # rng REQ PROD LO..HI VALUE purpose...
        lo, hi = parts[3].split("..")
        parts[4] = lo if parts[4] != lo else hi
        return [" ".join(parts)]

    add("rng value forged", _rng_changed(dice_save, other_value))
    add("rng purpose changed", _rng_changed(dice_save, lambda line: [line + " (forged)"]))
    add("rng line dropped", _rng_changed(dice_save, lambda line: []))
    add("rng line doubled", _rng_changed(dice_save, lambda line: [line, line]))
    add(
        "rng line for nothing",
        _rng_changed(dice_save, lambda line: [line, "rng 1 2 1..6 3 a die nobody asked for"]),
    )
    # An entry whose signed bytes are not canonical JSON (a space added), validly signed.
    loose = entries[4].canonical.replace(b",", b", ", 1)
    add(
        "non-canonical entry",
        _replaced(
            dice_save,
            entries,
            4,
            Entry(
                loose, sshsig.sign(dice.keys[entries[4].by], loose), entries[4].data, entries[4].id
            ),
        ),
    )
    # An entry naming another game in its `game` field, its prev and seq right.
    add(
        "wrong game field",
        _replaced(dice_save, entries, 4, _resigned(dice, entries[4], game="cd" * 32)),
    )
    # A key line with a tab inside its base64 (which a lenient base64 reader skips).
    kind, b64, *rest = str(genesis.body["roles"]["a"]).split(" ")  # type: ignore[index]
    tabbed = {**genesis.body["roles"], "a": " ".join([kind, b64[:20] + "\t" + b64[20:], *rest])}  # type: ignore[dict-item]
    fields = {**genesis.data, "body": {**genesis.body, "roles": tabbed}}
    raw = canonical_bytes(fields)
    # (Entry.build refuses the control character: made as a forger would, by hand)
    forged = Entry(raw, sshsig.sign(dice.keys["a"], raw), fields, entry_id(raw))
    add("key line with a tab", _replaced(dice_save, entries, 0, forged))
    # The genesis replaced by one naming another key for b (validly signed by a): a new
    # game, whose first entries are the old game's.
    other_b = generate("another b").public.openssh_line()
    add(
        "genesis with another key",
        _replaced(
            dice_save,
            entries,
            0,
            _resigned(
                dice,
                genesis,
                body={**genesis.body, "roles": {**genesis.body["roles"], "b": other_b}},
            ),
        ),
    )

    # Dice rolled by the wrong entry, each line's value the one that entry's reveal gives:
    # by a later entry of the witness (the deferral rule), by the author's own next entry.
    def rolled_by(pick: Any) -> str:
        line = next(ln for ln in dice_save.split("\n") if ln.startswith("rng "))
        req, prod = (int(x) for x in line.split(" ")[1:3])
        other = pick(req, prod)
        value = d6_values(dice.game.id, entries[req].id, str(entries[other].reveal))[0]
        parts = line.split(" ")
        parts[2], parts[4] = str(other), str(value)
        return dice_save.replace(line, " ".join(parts))

    add(
        "rng deferred",
        rolled_by(
            lambda req, prod: next(e.seq for e in entries[prod + 1 :] if e.by == entries[prod].by)
        ),
    )
    add(
        "rng rolled by its author",
        rolled_by(
            lambda req, prod: next(e.seq for e in entries[req + 1 :] if e.by == entries[req].by)
        ),
    )
    # Headers: the game id and the entry count, which only pbem reads.
    add("header game id", dice_save.replace(f"game: {dice.game.id}", "game: " + "0" * 64))
    # A false opening in a game with commitments: the salt of the first opening changed.
    pentries = _entries(peek_save)
    opener = next(e for e in pentries if e.body.get("open"))
    openings = [dict(o) for o in opener.body["open"]]  # type: ignore[union-attr]
    openings[0]["salt"] = "00" * 32
    false = _resigned(peek, opener, body={**opener.body, "open": openings})
    add("false opening", _replaced(peek_save, pentries, opener.seq, false), peek_save)
    add("peek game", peek_save, peek_save)
    # A private draw's line (opened, and still sealed) printed as a public draw: with the
    # value the public seed gives (BROWSER_BLIND), and with another, false one.
    for line in [ln for ln in peek_save.split("\n") if ln.startswith("rng ")][:2]:
        req, prod = (int(x) for x in line.split(" ")[1:3])
        public = d6_values(peek.game.id, pentries[req].id, str(pentries[prod].reveal))[0]
        state = "sealed" if " private " in line else "opened"
        purpose = line.split(" ", 4 if state == "sealed" else 5)[-1]
        for name, value in (
            (f"{state} private draw as public", public),
            (f"{state} private draw false", 7 - public if public != 3 else 5),
        ):
            forged = f"rng {req} {prod} 1..6 {value} {purpose}"
            if forged != line:
                add(name, peek_save.replace(line, forged), peek_save)
    add("dice game", dice_save)
    # A double-blind game (issue 17): a side resigns with blocks sealed, and the referee's
    # disclose opens every one of them, the other role's included; with one salt changed
    # (re-signed by the referee), both verifiers refuse the disclose.
    blind, disclose = blind_table()
    honest = _save(blind, "double-blind")
    add("double-blind disclose", honest, honest)
    body = dict(disclose.body)
    opens = [dict(o) for o in body["open"]]  # type: ignore[union-attr]
    opens[0]["salt"] = "55" * 32
    at = {"seq": disclose.seq, "prev": disclose.prev, "reveal": disclose.reveal}
    false = blind.make("referee", "disclose", {"open": opens}, **at)  # in the disclose's place
    before = blind.game.entries[:-1]
    add("double-blind false disclose", _save_entries(honest, before, false), honest)
    # Self-witnessed: one key for both roles (test_keys_as_keys). pbem says so and accepts.
    solo = Table(
        "toy-dice", ("a", "b"), keys={"a": dice.keys["a"], "b": dice.keys["a"]}, nonce="self"
    )
    solo.join_all()
    solo.play(random.Random(5))
    text = _save(solo, "self")
    add("self-witnessed", text, text)
    return cases


# --- both verifiers on every text, once ---------------------------------------------------


@cache
def cases() -> dict[str, Case]:
    found = {p.name: Case(p.read_text("utf-8"), "", "save") for p in sorted(SAVES.glob("*.pbem"))}
    found.update(_mutations(random.Random(18), 30))
    found.update(_attacks())
    return found


@cache
def browser() -> dict[str, dict[str, Any]]:
    return browser_verdicts({name: case.text for name, case in cases().items()})


@cache
def pbem(name: str) -> Report:
    return verify_text(cases()[name].text)


_RNG = re.compile(r"^rng (\d+) (\d+) (?:(-?\d+\.\.-?\d+ -?\d+)|private) ")


def _draws(text: str) -> list[tuple[str, ...]]:
    """What the browser reads of an RNG log: each line's entries and value, not its purpose."""
    return [m.groups("") for line in text.split("\n") if (m := _RNG.match(line))]


def _subsequence(short: list[Any], long: list[Any]) -> bool:
    it = iter(long)
    return all(item in it for item in short)


def allowed(case: Case, report: Report) -> bool:
    """Whether pbem refuses the text for a reason the browser does not check: the rules, the
    header, the purposes or completeness of the RNG log (the values it shows are the same)."""
    if report.cheat in ("rules", "forfeit", "header"):
        return True
    if report.cheat == "rng-log":
        return _subsequence(_draws(case.text), _draws(case.base))
    return False


# Disagreements where pbem is the one that is wrong (issue 18: "find which"), pbem left as it
# is: name -> (the seq pbem blames, the seq the browser blames, the browser's reason). When
# pbem is fixed, the test below fails: move the case back among the agreements.
PBEM_WRONG = {
    # The genesis replaced by another, validly signed, that names another key for b: entry
    # 1 (a's join, signed by a) is the first that does not belong to the game the genesis
    # starts; pbem's damage scan names b's first entry, whose signature the new key refuses.
    "genesis with another key": (2, 1, "belongs to game"),
}


# Where the browser is the one that is wrong and cannot be mended from section 7 alone:
# which draws are private is the rules' choice (the engine asks for a private draw, and
# section 7 marks nothing in the entries), so the browser accepts an RNG line when the
# public stream of its entries gives its values, or the private stream of a secret its
# requesting entry committed and opened. A forger can print a private draw (opened, or
# still sealed) as a public one with the public stream's value: pbem refuses the forged
# record, the browser counts it among the dice recomputed.
BROWSER_BLIND = ("opened private draw as public", "sealed private draw as public")


def disagreement(name: str) -> str | None:
    case, report, seen = cases()[name], pbem(name), browser()[name]
    status = seen["status"]
    if report.ok and status == "verified":
        game = report.game
        assert game is not None
        # pbem's RNG log counts the private draws still sealed too; the browser counts them
        # apart (it cannot recompute them either).
        browser_counts = (seen["entries"], seen["dice"] + seen["privateUnopened"])
        if browser_counts != (game.entry_count, game.rng_count):
            return f"counts: browser {browser_counts}, pbem {game.entry_count}/{game.rng_count}"
        if seen["selfWitnessed"] != game.self_witnessed:
            return f"self-witnessed: browser {seen['selfWitnessed']}, pbem {game.self_witnessed}"
        return None
    if not report.ok and status == "failed":
        if name in PBEM_WRONG or name in BROWSER_BLIND:
            return None  # (asserted exactly by its own test)
        # A save's header is pbem's alone: when it is what pbem refused first (the genesis
        # of another game put first, say), the browser finds the first entry that does not
        # follow that genesis instead.
        blamed = seen["seq"]
        if (
            report.bad is None
            and blamed is not None
            and not matrix.names(str(report.failure), seq=blamed, block=blamed + 1)
        ):
            # pbem blames no one entry (damage, the RNG log) or names it by its place in
            # the text (a damaged shape, read before any signature): nor may the browser
            return f"browser blames entry {seen['seq']} ({seen['why']}), pbem: {report.failure}"
        header_first = report.cheat == "header"
        if report.bad is not None and seen["seq"] != report.bad.seq and not header_first:
            return (
                f"first bad entry: browser {seen['seq']} ({seen['why']}), "
                f"pbem {report.bad.seq} ({report.failure})"
            )
        return None
    if not report.ok and status == "verified" and allowed(case, report):
        return None
    if name in BROWSER_BLIND:
        return None  # (asserted exactly by its own test)
    return (
        f"browser {status} ({seen.get('why')}), pbem {report.ok} ({report.cheat}: {report.failure})"
    )


# --- the tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize("save", sorted(p.name for p in SAVES.glob("*.pbem")))
def test_every_save_verifies_in_the_browser_with_pbem_counts(save: str) -> None:
    seen, report = browser()[save], verify_path(SAVES / save)
    assert report.ok and report.game is not None, report.failure
    assert seen["status"] == "verified", seen
    assert seen["entries"] == report.game.entry_count
    assert seen["dice"] == report.game.rng_count
    assert seen["game"] == report.game.id
    # The head it checked, what it checked (the commitments opened: as many as pbem's),
    # and that it did not check the rules.
    last = _entries(cases()[save].text)[-1]
    assert seen["head"] == {"seq": report.game.entry_count - 1, "id": last.id}
    assert seen["text"].startswith("checked in this browser, the rules NOT checked: ")
    assert f"{report.game.entry_count} entries to head seq {last.seq} id {last.id};" in seen["text"]
    opened = [
        m for line in report.lines if (m := re.match(r"commitments: \d+ made, (\d+) opened", line))
    ]
    assert seen["opened"] == (int(opened[0].group(1)) if opened else 0)
    assert f"{seen['opened']} commitments opened" in seen["text"]


def test_the_tamper_matrix_gets_the_same_verdict_in_the_browser() -> None:
    names = [n for n, c in cases().items() if c.what not in ("save",) and n[0].isdigit()]
    assert len(names) > 100
    problems = [f"{n}: {why}" for n in names if (why := disagreement(n))]
    assert not problems, "\n".join(problems)
    # Nearly all are refused by both; the browser accepts only what pbem refuses for the
    # reasons it does not check, and those are few.
    accepted = [n for n in names if browser()[n]["status"] == "verified"]
    refused = [n for n in names if not pbem(n).ok]
    assert len(refused) > 0.8 * len(names)
    for n in accepted:
        assert pbem(n).ok or pbem(n).cheat in ("rules", "forfeit", "header", "rng-log"), n


# Refused by both; the name pbem gives each (pbem.failures).
ATTACKS_REFUSED = {
    "forged reveal": "reveal",
    "reused reveal": "reveal",
    "rewrapped signature 0": "signature",
    "rewrapped signature 3": "signature",
    "rewrapped signature 9": "signature",
    # (pbem blamed b's first entry, "its signature does not verify", until this issue:
    # a key line not in canonical form is the genesis's fault, and both now name it)
    "padded key line": "header",
    "genesis with another key": "signature",
    "key line with a tab": "signature",
    "signed by another key": "signature",
    "equivocation": "equivocation",
    "short chain": "rules",
    "non-canonical entry": "format",
    "wrong game field": "chain",
    "false opening": "false-claim",
    "rng value forged": "rng-log",
    "rng line doubled": "rng-log",
    "rng line for nothing": "rng-log",
    "rng deferred": "rng-log",
    "rng rolled by its author": "rng-log",
    "opened private draw false": "rng-log",
    "sealed private draw false": "rng-log",
}
# Refused by pbem for what the browser does not read; it accepts them.
ATTACKS_RULES_ASIDE = ("rng purpose changed", "rng line dropped", "header game id")


def test_the_security_attacks_get_the_same_verdict_in_the_browser() -> None:
    attacks = [n for n, c in cases().items() if c.what == n]
    problems = [f"{n}: {why}" for n in attacks if (why := disagreement(n))]
    assert not problems, "\n".join(problems)
    for name, cheat in ATTACKS_REFUSED.items():
        assert browser()[name]["status"] == "failed", name
        assert not pbem(name).ok and pbem(name).cheat == cheat, (name, pbem(name).failure)
    for name in ATTACKS_RULES_ASIDE:
        assert not pbem(name).ok and browser()[name]["status"] == "verified", name
    for name in ("peek game", "dice game", "self-witnessed", "double-blind disclose"):
        assert pbem(name).ok and browser()[name]["status"] == "verified", name
    false = browser()["double-blind false disclose"]
    assert false["status"] == "failed" and false["by"] == "referee", false
    assert pbem("double-blind false disclose").cheat == "false-claim"
    assert browser()["peek game"]["privateUnopened"] > 0


def test_a_browser_without_ed25519_says_so_plainly() -> None:
    prelude = """
    const importKey = crypto.subtle.importKey.bind(crypto.subtle);
    crypto.subtle.importKey = (format, data, algorithm, ...rest) => {
      const name = typeof algorithm === "string" ? algorithm : algorithm.name;
      if (String(name).toLowerCase() === "ed25519") {
        return Promise.reject(new DOMException("Ed25519 is not supported", "NotSupportedError"));
      }
      return importKey(format, data, algorithm, ...rest);
    };
    """
    save = (SAVES / "barbarossa-demo.pbem").read_text("utf-8")
    seen = browser_verdicts({"save": save}, prelude=prelude)["save"]
    assert seen["status"] == "unsupported", seen
    assert "this browser cannot check Ed25519 signatures" in seen["text"]
    assert "verified" not in seen["text"]


def test_the_compressed_save_a_page_carries_verifies_as_its_text_does() -> None:
    """A page carries its save as {"gzip": base64} (issue 29): the same verdict as the text;
    a browser with no DecompressionStream says it cannot check it, never that it failed."""
    save = (SAVES / "barbarossa-demo.pbem").read_text("utf-8")
    packed = json.loads(packed_save(save))
    seen = browser_verdicts({"text": save, "packed": packed})
    for verdict in seen.values():
        verdict.pop("ms", None)  # (how long it took)
    assert seen["packed"] == seen["text"] and seen["text"]["status"] == "verified", seen
    prelude = "delete globalThis.DecompressionStream;"
    seen = browser_verdicts({"packed": packed}, prelude=prelude)["packed"]
    assert seen["status"] == "unsupported", seen
    assert "cannot inflate" in seen["text"] and "verified" not in seen["text"]


def test_where_pbem_blames_the_wrong_entry_the_browser_names_the_right_one() -> None:
    for name, (pbem_seq, browser_seq, why) in PBEM_WRONG.items():
        report, seen = pbem(name), browser()[name]
        assert not report.ok and report.bad is not None and seen["status"] == "failed", name
        assert report.cheat == "signature", report.failure
        assert (report.bad.seq, seen["seq"]) == (pbem_seq, browser_seq), (report.failure, seen)
        assert why in seen["why"], seen


def test_self_witnessed_dice_are_said_in_the_browser_as_by_pbem() -> None:
    report, seen = pbem("self-witnessed"), browser()["self-witnessed"]
    assert report.ok and report.game is not None and report.game.self_witnessed
    assert any("SELF-WITNESSED" in line for line in report.lines)
    assert seen["selfWitnessed"] is True and "SELF-WITNESSED" in seen["text"]
    assert browser()["dice game"]["selfWitnessed"] is False
    assert "SELF-WITNESSED" not in browser()["dice game"]["text"]


def test_a_private_draw_printed_as_public_is_seen_by_pbem_only() -> None:
    for name in BROWSER_BLIND:
        report, seen = pbem(name), browser()[name]
        assert not report.ok and report.cheat == "rng-log", (name, report.failure)
        assert seen["status"] == "verified", (name, seen)  # the limitation, said in the docs
    for name in ("opened private draw false", "sealed private draw false"):
        assert not pbem(name).ok and browser()[name]["status"] == "failed", name


_REBUILT = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<pre id="out">running</pre>
<script type="application/json" id="inputs">{inputs}</script>
<script>{verifier}</script>
<script>
(async () => {{
  const inputs = JSON.parse(document.getElementById("inputs").textContent);
  const results = {{}};
  for (const [name, data] of Object.entries(inputs)) {{
    const text = await pbemSaveText(data);
    const bytes = new TextEncoder().encode(text);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    results[name] = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  }}
  document.getElementById("out").textContent = JSON.stringify(results);
}})();
</script></body></html>"""


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_the_browser_rebuilds_every_title_s_save_byte_for_byte_from_its_page() -> None:
    """What a page carries ({"gzip-raw": ...}, its entries as raw bytes) is rebuilt in the
    browser to the exact save text, for every title; and so is the format before it."""
    saves = {p.name: p.read_text("utf-8") for p in sorted(SAVES.glob("*.pbem"))}
    inputs: dict[str, Any] = {}
    for name, save in saves.items():
        inputs[name] = json.loads(packed_save(save))
        assert list(inputs[name]) == ["gzip-raw"], name
    old = gzip.compress(saves["barbarossa-demo.pbem"].encode(), mtime=0)
    inputs["old"] = {"gzip": base64.b64encode(old).decode()}
    page = _REBUILT.format(inputs=script_json(inputs), verifier=verifier_script())
    found = re.search(r'<pre id="out">(.*?)</pre>', run_page(page), re.S)
    assert found is not None
    seen = json.loads(html.unescape(found.group(1)))
    want = {name: hashlib.sha256(save.encode()).hexdigest() for name, save in saves.items()}
    want["old"] = want["barbarossa-demo.pbem"]
    assert seen == want
