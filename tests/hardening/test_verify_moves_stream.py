"""A move file streamed by `verify_path` (one game's entries in log order, read one at a
time into a lean game) gives exactly what `verify_text` gives for the whole file; any
other move file, and every failure, is left to `verify_text` itself.

A hypothesis property mutates small move files (lines inserted, duplicated, deleted,
moved; save and RNG LOG lines; truncation) and compares the two reports, as
test_verify_paths_agree.py does for saves.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import tests.support.peek  # noqa: F401  (registers toy-peek)
import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.transport.armor import BEGIN, END
from pbem.transport.savefile import SAVE_MAGIC, move_file
from pbem.verify import Report, verify_path, verify_text
from tests.support.peek import opened_and_sealed
from tests.support.players import Table


@cache
def dice_moves() -> str:
    """A finished toy-dice game's entries as a move file."""
    table = Table("toy-dice", ("a", "b"), nonce="moves stream")
    table.join_all()
    table.play(random.Random(5))
    return move_file(table.game.entries) + "\n"


@cache
def peek_moves() -> str:
    """An unfinished toy-peek game (an opened private draw and a sealed one)."""
    return move_file(opened_and_sealed("moves stream").game.entries) + "\n"


MOVES = {"dice": dice_moves, "peek": peek_moves}


def both(text: str, tmp: Path) -> tuple[Report, Report]:
    path = tmp / "moves.txt"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return verify_text(text.encode("utf-8", "surrogatepass")), verify_path(path)


def assert_agree(text: str, tmp: Path) -> tuple[Report, Report]:
    in_memory, streamed = both(text, tmp)
    assert streamed.ok == in_memory.ok, (streamed.failure, in_memory.failure)
    assert streamed.text() == in_memory.text()
    assert streamed.verdict == in_memory.verdict
    assert streamed.bad == in_memory.bad
    return in_memory, streamed


@pytest.mark.parametrize("name", sorted(MOVES))
def test_a_plain_move_file_streams_and_says_what_verify_text_says(
    name: str, tmp_path: Path
) -> None:
    in_memory, streamed = assert_agree(MOVES[name](), tmp_path)
    assert in_memory.ok
    assert streamed.game is not None and streamed.game.lean  # (streamed, not read whole)
    assert in_memory.game is not None and not in_memory.game.lean


def _entry_blocks(text: str) -> tuple[list[str], str]:
    """The move file's blocks (a human line and its armor) and what follows the last."""
    blocks = text.split(END + "\n")
    return [block + END + "\n" for block in blocks[:-1]], blocks[-1]


@pytest.mark.parametrize(
    "change",
    ["swap", "copy", "drop genesis", "save line", "rng log", "rng record", "another game"],
)
def test_anything_else_is_read_whole(change: str, tmp_path: Path) -> None:
    blocks, tail = _entry_blocks(dice_moves())
    if change == "swap":
        blocks[3], blocks[4] = blocks[4], blocks[3]
    elif change == "copy":
        blocks.insert(5, blocks[4])
    elif change == "drop genesis":
        del blocks[0]
    elif change == "save line":
        blocks.insert(2, SAVE_MAGIC + "\n")
    elif change == "rng log":
        blocks.append("RNG LOG\nrng 3 4 1..6 5 a die\n")
    elif change == "rng record":
        blocks.insert(2, "> Rng 3 4 1..6 5 a die\n")
    else:
        blocks += _entry_blocks(peek_moves())[0]
    in_memory, streamed = assert_agree("".join(blocks) + tail, tmp_path)
    assert streamed.game is None or not streamed.game.lean  # (verify_text's own report)


def test_a_finished_game_with_a_note_of_human_text_streams(tmp_path: Path) -> None:
    blocks, tail = _entry_blocks(dice_moves())
    blocks.insert(3, "thanks for the game - see you\n")
    in_memory, streamed = assert_agree("".join(blocks) + tail, tmp_path)
    assert in_memory.ok and streamed.game is not None and streamed.game.lean


def _new_lines(rng: random.Random) -> list[str]:
    return [
        END,
        BEGIN,
        SAVE_MAGIC,
        "RNG LOG",
        "rng 3 4 1..6 5 a die",
        "",
        "  ",
        "thanks for the game",
        "a save of it follows",
        "game: " + "0" * 64,
        "hello\x0bRNG LOG",
        "ok\u2028rng 1 2 1..6 3 x",
        "x\x85" + END,
        "\r",
        "—" + BEGIN.strip("-") + "—",
        "> quoted " + str(rng.randrange(100)),
    ]


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, list[str]]:
    name = draw(st.sampled_from(sorted(MOVES)))
    text = MOVES[name]()
    done = [name]
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        kind = draw(
            st.sampled_from(["insert", "insert", "duplicate", "delete", "truncate", "move"])
        )
        if kind == "truncate":
            at = draw(st.integers(0, len(text)))
            text = text[:at]
            done.append(f"truncate at {at}")
            continue
        at = draw(st.integers(0, len(lines) - 1))
        if kind == "insert":
            new = draw(st.sampled_from(_new_lines(random.Random(at))))
            lines.insert(at, new)
            done.append(f"insert {new!r} at line {at + 1}")
        elif kind == "duplicate":
            lines.insert(at, lines[at])
            done.append(f"duplicate line {at + 1}")
        elif kind == "delete":
            del lines[at]
            done.append(f"delete line {at + 1}")
        else:
            to = draw(st.integers(0, len(lines) - 1))
            lines.insert(to, lines.pop(at))
            done.append(f"move line {at + 1} to {to + 1}")
        text = "\n".join(lines)
    return text, done


@settings(
    max_examples=200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(case=mutated())
def test_the_verify_paths_agree_on_mutated_move_files(
    case: tuple[str, list[str]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    text, done = case
    tmp = tmp_path_factory.mktemp("moves")
    try:
        in_memory, streamed = assert_agree(text, tmp)
    except AssertionError as exc:
        raise AssertionError(f"{done}: {exc}") from None
    lean = streamed.game is not None and streamed.game.lean
    event("streamed" if lean else "verifies" if in_memory.ok else "refused")
