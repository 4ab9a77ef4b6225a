"""The tamper matrix: no single change to a save of a finished game is ever accepted.

For complete games of every landed title (the demo saves in saves/, and bot games
played here on a `Table`), hypothesis draws one mutation at a time:

1. one byte of an entry's canonical bytes changed, re-armored with its old signature;
2. one character of an entry's armor payload changed;
3. an entry deleted;
4. two entries swapped;
5. an entry duplicated (an identical second copy);
6. an entry replaced by the entry at the same seq of another game of the same title,
   signed with the same keys (so only the game id and the chain can tell);
7. one character anywhere in the save: either it touched human text that is never
   trusted (and the save verifies, with the same report), or it is detected.

Each mutated save is verified twice, in memory (`verify_text`) and streamed from a
file (`verify_path`); both must refuse it with the same message, and that message
names the first bad entry: its seq and role, or its entry block in the text. The
counts are printed at the end of the run (tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core.log import Entry
from pbem.errors import PbemError
from pbem.ledger import engine_by_name
from pbem.transport.armor import BEGIN, END, armor, decode_payload, marker_kind
from pbem.transport.savefile import human_line, save_text
from pbem.verify import Report, parse_entries, verify_path, verify_text
from tests.support.players import Table
from tests.support.signatures_once import per_module

SAVES = Path(__file__).resolve().parents[2] / "saves"
TITLES = ("barbarossa", "race-to-berlin", "berlin-1945")
# Replacement characters: never whitespace, never a quote marker, backtick or bracket (which
# a marker line may carry as decoration), never a case variant of the character replaced.
REPLACEMENTS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#$%*+,.:;=?@^_|~!"


def examples(count: int) -> settings:
    return settings(
        max_examples=count,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
    )


_signatures_checked_once = per_module()  # (tests/support/signatures_once.py)


# --- games ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    text: str
    entries: tuple[Entry, ...]

    @property
    def prefix(self) -> str:
        """The header, up to and including the blank line before the first entry."""
        return self.text[: self.text.index("\n\n") + 2]

    @property
    def suffix(self) -> str:
        """From the RNG LOG line to the end."""
        return self.text[self.text.index("\nRNG LOG\n") + 1 :]


Block = tuple[str, bytes, bytes]  # human line, canonical bytes, signature


def blocks_of(game: Game) -> list[Block]:
    return [(human_line(e), e.canonical, e.signature) for e in game.entries]


def rebuild(game: Game, blocks: list[Block]) -> str:
    """The save with its entry blocks replaced (header and RNG log kept as they are)."""
    body = "\n".join(f"{human}\n{armored(c, s)}" for human, c, s in blocks)
    return game.prefix + body + "\n" + game.suffix


@cache
def armored(canonical: bytes, signature: bytes) -> str:
    """`armor(canonical, signature)`, a pure function of its bytes, once per block: every
    mutated save is rebuilt from hundreds of blocks, all but one or two unchanged (armoring
    them again was a few percent of this file's CPU). A changed block is new bytes, armored
    anew."""
    return armor(canonical, signature)


def of_text(name: str, title: str, text: str) -> Game:
    game = Game(name, title, text, tuple(parse_entries(text)))
    assert rebuild(game, blocks_of(game)) == text, "the save is not in pbem's own layout"
    return game


@cache
def tables(title: str) -> tuple[Table, Table]:
    """Two finished bot games of `title` with the same keys (for cross-game swaps)."""
    roles = tuple(engine_by_name(title).roles)
    first = Table(title, roles, nonce="tamper-1")
    second = Table(title, roles, keys=first.keys, nonce="tamper-2")
    for seed, table in enumerate((first, second), start=1):
        table.join_all()
        table.play(random.Random(seed))
    return first, second


def table_save(table: Table, name: str) -> Game:
    prints = {role: str(key.public.fingerprint()) for role, key in table.keys.items()}
    return of_text(name, table.engine.name, save_text(table.game, f"{name} (bots)", prints))


@cache
def games(title: str) -> tuple[Game, ...]:
    demo = of_text(f"{title} demo", title, (SAVES / f"{title}-demo.pbem").read_text("utf-8"))
    return (demo, table_save(tables(title)[0], f"{title} bot game"))


@cache
def other_game(title: str) -> Game:
    return table_save(tables(title)[1], f"{title} second bot game")


# --- checking ---------------------------------------------------------------------------------


def both(text: str, tmp: Path) -> Report:
    """verify_text and verify_path (a streamed file) agree; returns the in-memory report."""
    report = verify_text(text)
    path = tmp / "mutated.pbem"
    path.write_text(text, encoding="utf-8")
    streamed = verify_path(path)
    assert streamed.ok == report.ok
    assert streamed.text() == report.text()
    return report


def names(failure: str, *, seq: int | None = None, role: str | None = None, block: int = 0) -> bool:
    """Whether a failure names an entry by its seq (and role), or by its place in the text."""
    found = False
    if seq is not None:
        who = rf"entry {seq} by {re.escape(role)}\b" if role else rf"\bentry {seq}\b"
        found = re.search(who, failure) is not None
    if block:
        found = found or re.search(rf"(entry block|armored entry) {block}\b", failure) is not None
    return found


def refused(report: Report) -> str:
    assert not report.ok, "a tampered save was accepted"
    assert report.failure
    return report.failure


def parsed(canonical: bytes, signature: bytes) -> Entry | None:
    try:
        return Entry.from_wire(canonical, signature)
    except PbemError:
        return None


def other(char: str, pick: int) -> str:
    choices = [c for c in REPLACEMENTS if c.lower() != char.lower()]
    return choices[pick % len(choices)]


pick_game = st.sampled_from(TITLES).flatmap(
    lambda title: st.sampled_from(range(len(games(title)))).map(lambda i: games(title)[i])
)


# --- 1. a byte of the canonical bytes ---------------------------------------------------------


def test_a_changed_byte_of_an_entry_is_detected(
    record_property: Callable[[str, object], None], tmp_path: Path
) -> None:
    counts: Counter[str] = Counter()

    @examples(36)
    @given(pick_game, st.data())
    def run(game: Game, data: st.DataObject) -> None:
        blocks = blocks_of(game)
        k = data.draw(st.integers(0, len(blocks) - 1), "entry")
        human, canonical, signature = blocks[k]
        at = data.draw(st.integers(0, len(canonical) - 1), "byte")
        new = data.draw(st.integers(0, 255).filter(lambda b: b != canonical[at]), "value")
        changed = canonical[:at] + bytes([new]) + canonical[at + 1 :]
        blocks[k] = (human, changed, signature)
        failure = refused(both(rebuild(game, blocks), tmp_path))
        entry = game.entries[k]
        as_read = parsed(changed, signature)
        assert names(failure, seq=entry.seq, role=entry.by, block=k + 1) or (
            as_read is not None and names(failure, seq=as_read.seq, role=as_read.by)
        ), failure
        counts["1 canonical byte"] += 1

    try:
        run()
    finally:
        record_property("tamper", dict(counts))


# --- 2. a character of an armor payload -------------------------------------------------------


def test_a_changed_payload_character_is_detected(
    record_property: Callable[[str, object], None], tmp_path: Path
) -> None:
    counts: Counter[str] = Counter()

    @examples(36)
    @given(pick_game, st.data())
    def run(game: Game, data: st.DataObject) -> None:
        k = data.draw(st.integers(0, len(game.entries) - 1), "entry")
        entry = game.entries[k]
        block = armor(entry.canonical, entry.signature)
        lines = block.split("\n")
        payload_lines = range(1, len(lines) - 2)  # between BEGIN and END
        row = data.draw(st.sampled_from(payload_lines), "line")
        col = data.draw(st.integers(0, len(lines[row]) - 1), "column")
        char = other(lines[row][col], data.draw(st.integers(0, 99), "char"))
        lines[row] = lines[row][:col] + char + lines[row][col + 1 :]
        mutated = "\n".join(lines)
        start = game.text.index(block)
        text = game.text[:start] + mutated + game.text[start + len(block) :]
        failure = refused(both(text, tmp_path))
        as_read = None
        with contextlib.suppress(PbemError):
            as_read = parsed(*decode_payload("".join(lines[1:-2])))
        assert names(failure, seq=entry.seq, role=entry.by, block=k + 1) or (
            as_read is not None and names(failure, seq=as_read.seq, role=as_read.by)
        ), failure
        counts["2 payload character"] += 1

    try:
        run()
    finally:
        record_property("tamper", dict(counts))


# --- 3, 4, 5: deleted, swapped, duplicated entries --------------------------------------------


def test_a_deleted_entry_is_detected(
    record_property: Callable[[str, object], None], tmp_path: Path
) -> None:
    counts: Counter[str] = Counter()

    @examples(27)
    @given(pick_game, st.data())
    def run(game: Game, data: st.DataObject) -> None:
        blocks = blocks_of(game)
        k = data.draw(st.integers(0, len(blocks) - 1), "entry")
        del blocks[k]
        failure = refused(both(rebuild(game, blocks), tmp_path))
        if k + 1 < len(game.entries):  # the entry after the gap is refused, the gap named
            after = game.entries[k + 1]
            assert names(failure, seq=after.seq, role=after.by), failure
            assert f"no entry {k} " in failure or (k == 0 and "genesis" in failure), failure
        else:  # the last one: the header counts it
            assert f"entry {k} is missing" in failure, failure
        counts["3 entry deleted"] += 1

    try:
        run()
    finally:
        record_property("tamper", dict(counts))


def test_two_swapped_entries_are_detected(
    record_property: Callable[[str, object], None], tmp_path: Path
) -> None:
    counts: Counter[str] = Counter()

    @examples(27)
    @given(pick_game, st.data())
    def run(game: Game, data: st.DataObject) -> None:
        blocks = blocks_of(game)
        i = data.draw(st.integers(0, len(blocks) - 2), "first")
        j = data.draw(st.integers(i + 1, len(blocks) - 1), "second")
        blocks[i], blocks[j] = blocks[j], blocks[i]
        failure = refused(both(rebuild(game, blocks), tmp_path))
        moved = game.entries[j]  # now at i, before entry i
        assert names(failure, seq=moved.seq, role=moved.by), failure
        assert "out of order" in failure, failure
        counts["4 entries swapped"] += 1

    try:
        run()
    finally:
        record_property("tamper", dict(counts))


def test_a_duplicated_entry_is_detected(
    record_property: Callable[[str, object], None], tmp_path: Path
) -> None:
    counts: Counter[str] = Counter()

    @examples(27)
    @given(pick_game, st.data())
    def run(game: Game, data: st.DataObject) -> None:
        blocks = blocks_of(game)
        k = data.draw(st.integers(0, len(blocks) - 1), "entry")
        at = data.draw(st.integers(0, len(blocks)), "copy at")
        blocks.insert(at, blocks[k])
        failure = refused(both(rebuild(game, blocks), tmp_path))
        copied = game.entries[k]
        if at in (k, k + 1):  # next to itself: the second copy is the one refused
            assert "a copy of it" in failure, failure
        assert names(failure, seq=copied.seq, role=copied.by), failure
        counts["5 entry duplicated"] += 1

    try:
        run()
    finally:
        record_property("tamper", dict(counts))


# --- 6. an entry of another game --------------------------------------------------------------


def test_an_entry_from_another_game_is_detected(
    record_property: Callable[[str, object], None], tmp_path: Path
) -> None:
    counts: Counter[str] = Counter()

    @examples(27)
    @given(st.sampled_from(TITLES), st.data())
    def run(title: str, data: st.DataObject) -> None:
        game, second = games(title)[1], other_game(title)
        assert game.entries[0].body["roles"] == second.entries[0].body["roles"]  # same keys
        last = min(len(game.entries), len(second.entries)) - 1
        k = data.draw(st.integers(0, last), "seq")
        blocks = blocks_of(game)
        stranger = second.entries[k]
        assert stranger.seq == k and stranger.id != game.entries[k].id
        blocks[k] = blocks_of(second)[k]
        failure = refused(both(rebuild(game, blocks), tmp_path))
        assert names(failure, seq=k, role=stranger.by), failure
        assert "game" in failure, failure
        counts["6 entry from another game"] += 1

    try:
        run()
    finally:
        record_property("tamper", dict(counts))


# --- 7. any character of the save -------------------------------------------------------------

TRUSTED = {"payload", "marker", "rng", "rng header", "game header"}
HUMAN = {"magic", "header", "blank", "human"}


def line_kinds(text: str) -> list[str]:
    """What each line of a save (pbem's own layout) is."""
    kinds: list[str] = []
    in_armor = in_header = in_log = False
    lines = text.split("\n")
    for number, line in enumerate(lines):
        marker = marker_kind(line)
        if number == 0:
            kind, in_header = "magic", True
        elif marker is not None:
            kind, in_armor = "marker", marker == "BEGIN"
        elif in_armor:
            kind = "payload"
        elif in_header and line:
            kind = "game header" if line.split(":")[0] in ("game", "entries") else "header"
        elif line == "RNG LOG":
            kind, in_log = "rng header", True
        elif not line:
            kind, in_header = "blank", False
        elif in_log:
            kind = "rng"
        else:
            kind = "human"
            assert lines[number + 1] == BEGIN
        kinds.append(kind)
    assert END in lines and "payload" in kinds and "rng" in kinds
    return kinds


@cache
def layout(game: Game) -> tuple[list[int], list[str]]:
    """Start offset and kind of every line of the save."""
    starts, at = [], 0
    for line in game.text.split("\n"):
        starts.append(at)
        at += len(line) + 1
    return starts, line_kinds(game.text)


def test_a_changed_character_anywhere_is_detected_unless_human_text(
    record_property: Callable[[str, object], None], tmp_path: Path
) -> None:
    counts: Counter[str] = Counter()

    @examples(80)
    @given(pick_game, st.data())
    def run(game: Game, data: st.DataObject) -> None:
        starts, kinds = layout(game)
        if data.draw(st.booleans(), "anywhere"):
            position = data.draw(st.integers(0, len(game.text) - 1), "position")
        else:  # lines other than payload, which are rarer
            # (not the empty "line" after the final newline: it has no character to change)
            rows = [
                n
                for n, kind in enumerate(kinds)
                if kind != "payload" and starts[n] < len(game.text)
            ]
            row = data.draw(st.sampled_from(rows), "line")
            end = starts[row + 1] if row + 1 < len(starts) else len(game.text)
            position = data.draw(st.integers(starts[row], max(starts[row], end - 1)), "column")
        row = max(n for n, start in enumerate(starts) if start <= position)
        old = game.text[position]
        text = (
            game.text[:position]
            + other(old, data.draw(st.integers(0, 99)))
            + game.text[position + 1 :]
        )
        report = both(text, tmp_path)
        kind = kinds[row]
        if report.ok:
            assert kind in HUMAN, f"a change in a {kind} line was accepted: line {row + 1}"
            counts["7 human text, verifies"] += 1
        else:
            assert kind in HUMAN | TRUSTED
            counts["7 any character"] += 1
        if kind in TRUSTED:
            assert not report.ok

    try:
        run()
    finally:
        record_property("tamper", dict(counts))


# --- the matrix itself ------------------------------------------------------------------------


@pytest.mark.parametrize("title", TITLES)
def test_every_game_of_the_matrix_verifies_unchanged(title: str, tmp_path: Path) -> None:
    for game in (*games(title), other_game(title)):
        report = both(game.text, tmp_path)
        assert report.ok, report.failure
        assert report.game is not None and report.game.outcome() is not None  # complete


# --- the search for a damaged signature -------------------------------------------------------


def test_the_damage_search_skips_only_the_entries_the_replay_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a replay refuses an entry, verify looks for a damaged signature from that entry
    on (the replay checked the ones before it: pbem.verify._accepted). Every answer is the
    full search's, and damage after the refused entry (an entry whose seq was changed sorts
    later, and makes the next one look out of place) is still found and named."""
    from pbem import verify

    search = verify._bad_signature_entry
    skipped: list[int] = []

    def both_ways(
        entries: list[Entry],
        genesis: Entry | None,
        numbers: dict[tuple[str, bytes], int],
        accepted: int = 0,
    ) -> tuple[Entry, str] | None:
        found = search(entries, genesis, numbers, accepted)
        assert found == search(entries, genesis, numbers, 0)
        skipped.append(accepted)
        return found

    monkeypatch.setattr(verify, "_bad_signature_entry", both_ways)
    # Entries read from mail (no save layout to refuse them before the replay does).
    entries = list(games("berlin-1945")[0].entries)
    moved = entries[5]
    assert moved.canonical.count(b'"seq":5,') == 1
    entries[5] = Entry.from_wire(
        moved.canonical.replace(b'"seq":5,', b'"seq":500,'), moved.signature
    )
    failure = refused(verify.verify_entries(entries))
    assert "signature does not verify" in failure and names(failure, seq=500, role=moved.by)
    assert skipped == [5]  # entries 0-4 replayed, entry 6 refused: "no entry 5"
    del entries[5]  # no damage left, entry 5 missing
    failure = refused(verify.verify_entries(entries))
    assert "expected seq 5" in failure and skipped == [5, 5]
