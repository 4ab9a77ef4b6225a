"""Every verify path gives the same answer on the same bytes (issue 11, items 4 and 10).

`pbem verify FILE` streams a save (`verify_path`), `pbem verify -` reads it whole
(`verify_text`); the streamed reader may only vouch for what the in-memory one accepts,
and falls back to it for anything else. The independent section-7 reader
(tests/independent/section7_reader.py) checks less (no rules, no save header), so it
may accept a save pbem refuses, never the reverse: pbem never accepts a save whose
printed RNG records a third-party script reads differently.

A hypothesis property mutates small saves (the toy games': insert, duplicate and delete
lines, forged header lines and RNG records, stray END and BEGIN lines, a second save
header, line breaks that only some readers see, truncation anywhere) and checks both;
named cases show the streamed reader's former gaps, on the CLI too.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import tests.support.peek  # noqa: F401  (registers toy-peek)
import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.cli import main
from pbem.failures import classify
from pbem.transport.armor import BEGIN, END
from pbem.transport.savefile import SAVE_MAGIC, save_text
from pbem.verify import Report, verify_path, verify_text
from tests.support.independent import reader
from tests.support.peek import opened_and_sealed
from tests.support.players import Table

# --- saves ----------------------------------------------------------------------------------


def _save(table: Table, title: str) -> str:
    prints = {role: key.public.fingerprint() for role, key in table.keys.items()}
    return save_text(table.game, title, prints)


@cache
def dice_save() -> str:
    """A finished toy-dice game: public draws only."""
    table = Table("toy-dice", ("a", "b"), nonce="paths agree")
    table.join_all()
    table.play(random.Random(3))
    return _save(table, "toy dice")


@cache
def peek_save() -> str:
    """An unfinished toy-peek game: an opened private draw and a sealed one."""
    return _save(opened_and_sealed("paths agree"), "toy peek")


SAVES = {"dice": dice_save, "peek": peek_save}


@cache
def base(name: str) -> str:
    text = SAVES[name]()
    assert verify_text(text).ok, verify_text(text).failure
    return text


# --- the three readers ----------------------------------------------------------------------


def verdicts(text: str, tmp: Path) -> tuple[Report, Report, bool]:
    """verify_text, verify_path (the text as a file) and the independent reader."""
    path = tmp / "mutated.pbem"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return verify_text(text), verify_path(path), reader.check_save(text).ok


def assert_agree(text: str, tmp: Path) -> Report:
    in_memory, streamed, independent = verdicts(text, tmp)
    assert streamed.ok == in_memory.ok, (streamed.failure, in_memory.failure)
    assert streamed.text() == in_memory.text()
    if in_memory.ok and text.startswith(SAVE_MAGIC + "\n"):
        # (a text that does not start with the magic line is no save file: read leniently)
        assert independent, reader.check_save(text)
    return in_memory


# --- the property ---------------------------------------------------------------------------


def _rng_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("rng ")]


def _forged_record(text: str, rng: random.Random) -> str:
    lines = _rng_lines(text)
    if not lines:
        return "rng 3 4 1..6 6 a die 1"
    words = rng.choice(lines).split(" ")
    if words[3] != "private":
        words[4] = str(int(words[4]) % 6 + 1)
    return " ".join(words)


def _header(text: str) -> list[str]:
    end = text.find("\n\n")
    return text[: end if end >= 0 else 400].split("\n")[:8]


def _new_lines(text: str, rng: random.Random) -> list[str]:
    """Lines an attacker, a mail client or a careless edit may add."""
    header = _header(text)
    game = next((line for line in header if line.startswith("game: ")), "game: ")
    return [
        END,
        BEGIN,
        SAVE_MAGIC,
        "RNG LOG",
        "",
        "  ",
        "thanks for the game",
        _forged_record(text, rng),
        rng.choice(_rng_lines(text) or ["rng 1 2 1..6 3 x"]),  # a copy of a real one
        "> " + _forged_record(text, rng),
        "[code]" + _forged_record(text, rng) + "[/code]",
        "result: a wins 36-0",
        "title: forged",
        "dice: self-witnessed",
        "entries: 3",
        game,
        "game: " + "0" * 64,
        "hello\x0bRNG LOG",  # line breaks that str.splitlines() sees, "\n" does not
        "ok\u2028" + _forged_record(text, rng),
        "x\x85" + END,
        "\r",
        "> " + rng.choice(header),
        "\n".join([SAVE_MAGIC, *header[1:], ""]),  # a second save header
    ]


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, list[str]]:
    name = draw(st.sampled_from(sorted(SAVES)))
    text = base(name)
    done = [name]
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        kinds = ["insert", "insert", "duplicate", "delete", "truncate", "record"]
        kind = draw(st.sampled_from(kinds))
        if kind == "truncate":
            at = draw(st.integers(0, len(text)))
            text = text[:at]
            done.append(f"truncate at {at}")
            continue
        records = [i for i, line in enumerate(lines) if line.startswith("rng ")]
        if kind == "record" and records:  # a printed RNG record, deleted or doubled
            at = draw(st.sampled_from(records))
            kind = draw(st.sampled_from(["delete", "duplicate"]))
        else:
            at = draw(st.integers(0, len(lines) - 1))
            kind = "insert" if kind == "record" else kind
        if kind == "insert":
            seed = draw(st.integers(0, 2**16))
            new = draw(st.sampled_from(_new_lines(text, random.Random(seed))))
            lines.insert(at, new)
            done.append(f"insert {new!r} at line {at + 1}")
        elif kind == "duplicate":
            lines.insert(at, lines[at])
            done.append(f"duplicate line {at + 1}")
        else:
            del lines[at]
            done.append(f"delete line {at + 1}")
        text = "\n".join(lines)
    return text, done


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(case=mutated())
def test_the_verify_paths_agree_on_mutated_saves(
    case: tuple[str, list[str]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    text, done = case
    tmp = tmp_path_factory.mktemp("agree")
    try:
        report = assert_agree(text, tmp)
    except AssertionError as exc:
        raise AssertionError(f"{done}: {exc}") from None
    event("verifies" if report.ok else "refused")


# --- named cases: the streamed reader's former gaps -----------------------------------------


def cli_lines(text: str, tmp: Path) -> tuple[tuple[int, str], tuple[int, str]]:
    """(exit code, error or last line) of `pbem verify FILE` and `pbem verify -`."""
    path = tmp / "cli.pbem"
    path.write_text(text, encoding="utf-8")
    results = []
    for args, piped in ((["verify", str(path)], None), (["verify", "-"], text)):
        result = CliRunner().invoke(main, args, input=piped)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        shown = (result.stderr.strip() or result.stdout.strip()).splitlines()[-1]
        results.append((result.exit_code, shown))
    return results[0], results[1]


def refused_everywhere(text: str, tmp: Path, *fragments: str) -> str:
    report = assert_agree(text, tmp)
    assert not report.ok and report.failure is not None
    for fragment in fragments:
        assert fragment in report.failure, report.failure
    streamed, piped = cli_lines(text, tmp)
    assert streamed == piped == (1, f"error: {report.failure}")
    return report.failure


def _after_entry(text: str, line: str, which: int = 1) -> str:
    """`line` inserted after the END line of entry `which` (0-based)."""
    marker = END + "\n"
    parts = text.split(marker)
    return marker.join(parts[: which + 1]) + marker + line + "\n" + marker.join(parts[which + 1 :])


def test_a_stray_end_line_between_entries(tmp_path: Path) -> None:
    text = _after_entry(base("dice"), END)
    refused_everywhere(text, tmp_path, "END marker", "without a BEGIN")


@pytest.mark.parametrize("after", ["title", "rules", "roles", "result", "dice"])
def test_a_stray_end_or_begin_line_in_the_header(tmp_path: Path, after: str) -> None:
    """Before: the streamed reader took it for a re-wrapped header value and said OK."""
    for marker, fragment in ((END, "without a BEGIN"), (BEGIN, "missing END")):
        lines = base("dice").split("\n")
        at = next(i for i, line in enumerate(lines) if line.startswith(after + ":"))
        lines.insert(at + 1, marker)
        refused_everywhere("\n".join(lines), tmp_path, fragment)


def test_an_rng_log_line_in_the_header(tmp_path: Path) -> None:
    """Before: OK streamed, refused in memory (an empty first RNG log)."""
    lines = base("dice").split("\n")
    lines.insert(next(i for i, line in enumerate(lines) if line.startswith("dice:")) + 1, "RNG LOG")
    refused_everywhere("\n".join(lines), tmp_path, "RNG log (copy 1) has 0 lines")


def test_a_forged_record_before_the_rng_log(tmp_path: Path) -> None:
    """A line reading as an RNG record before the RNG LOG line is refused: a third-party
    script reading every `rng` line would count it (the independent reader does)."""
    text = base("dice")
    forged = _forged_record(text, random.Random(1))
    for place in ("\ndice:", "\ngame "):
        mutated = text.replace(place, f"\n{forged}{place}", 1)
        refused_everywhere(mutated, tmp_path, "reads as an RNG log record", "before its RNG LOG")
        assert not reader.check_save(mutated).ok
    hidden = text.replace("\ndice:", f"\ndice: x\u2028{forged}\ndice:", 1)
    refused_everywhere(hidden, tmp_path, "line 8 holds a line break that is not a newline")


def test_a_second_save_header_between_entries(tmp_path: Path) -> None:
    text = base("dice")
    header = text[: text.index("\n\n") + 1]
    refused_everywhere(_after_entry(text, header), tmp_path, "has no RNG LOG line")
    refused_everywhere(_after_entry(text, SAVE_MAGIC), tmp_path, "has no RNG LOG line")


def test_a_second_save_header_after_the_rng_log(tmp_path: Path) -> None:
    text = base("dice")
    header = text[: text.index("\n\n") + 1]
    refused_everywhere(text + header, tmp_path, "save 2", "has no RNG LOG line")


def test_a_missing_or_doubled_private_rng_line(tmp_path: Path) -> None:
    """Before: the streamed reader never compared the lines of private draws whose secret
    was still sealed at the end of the save, so it said OK without them."""
    text = base("peek")
    private = next(line for line in _rng_lines(text) if " private " in line)
    refused_everywhere(text.replace(private + "\n", ""), tmp_path, "RNG log has 1 lines")
    doubled = text.replace(private + "\n", private + "\n" + private + "\n")
    refused_everywhere(doubled, tmp_path, "RNG log has 3 lines")


def test_a_save_cut_before_its_rng_log(tmp_path: Path) -> None:
    text = base("dice")
    for cut in (text.index("RNG LOG"), text.rindex(END) + len(END) + 1, text.rindex(END)):
        refused_everywhere(text[:cut], tmp_path)


def test_a_save_holding_only_its_header(tmp_path: Path) -> None:
    text = base("dice")
    header = text[: text.index("\n\n") + 2]
    refused_everywhere(header, tmp_path, "no PBEM entries found")
    refused_everywhere(header + "RNG LOG\n", tmp_path, "no PBEM entries found")
    refused_everywhere(header + "RNG LOG\n" + "\n".join(_rng_lines(text)) + "\n", tmp_path)
    refused_everywhere(SAVE_MAGIC + "\n", tmp_path, "no PBEM entries found")


@pytest.mark.parametrize(
    ("line", "char"),
    [
        ("thanks\x0bRNG LOG", "\x0b"),
        ("bye\u2028RNG LOG", "\u2028"),
        ("x\x1c" + END, "\x1c"),
        ("y\u2029" + BEGIN, "\u2029"),
        ("old\rmac", "\r"),
        ("next\x85line", "\x85"),
    ],
)
def test_a_line_break_that_is_not_a_newline_in_a_save(tmp_path: Path, line: str, char: str) -> None:
    """Read at newlines (the armor reader, the save reader), such a line is one line; read
    by str.splitlines() (the RNG log reader, the independent reader, many a script), two:
    a hidden marker, RNG LOG line or record. A save holds none, anywhere."""
    text = base("dice")
    said = ("holds a line break that is not a newline", f"(U+{ord(char):04X})")
    header = text.replace("\ndice:", f"\ndice: {line}\ndice:", 1)
    refused_everywhere(header, tmp_path, "the save's line 8 " + said[0], said[1])
    human = text.replace("\n\ngame ", f"\n\n{line}\ngame ", 1)  # among the entries
    refused_everywhere(human, tmp_path, "the save's line 10 " + said[0], said[1])
    at = text.index(BEGIN) + len(BEGIN) + 10  # inside the first payload line
    refused_everywhere(text[:at] + char + text[at:], tmp_path, *said)
    refused_everywhere(text + line, tmp_path, *said)
    refused_everywhere(text + line + "\n", tmp_path, *said)
    # before a save's first line, it is a mail's text, read leniently: the same answer
    assert_agree(f"hello {line}\n" + text, tmp_path)


@pytest.mark.parametrize("name", sorted(SAVES))
def test_an_intact_save_verifies_on_every_path(tmp_path: Path, name: str) -> None:
    text = base(name)
    report = assert_agree(text, tmp_path)
    assert report.ok and reader.check_save(text).ok
    streamed, piped = cli_lines(text, tmp_path)
    assert streamed == piped == (0, "OK: every check holds")
    # human text after the log, quoting of a record, CRLF: still the same answer
    for variant in (text + "good game\n", text.replace("\n", "\r\n")):
        assert assert_agree(variant, tmp_path).ok


# --- the header's result line (issue 27, item 12) -------------------------------------------


def _result_line(text: str) -> str:
    return next(line for line in text.split("\n") if line.startswith("result: "))


@pytest.mark.parametrize("second", ["result: a wins 36-0", None])
def test_a_second_result_line_in_the_header_is_refused_everywhere(
    tmp_path: Path, second: str | None
) -> None:
    """Before: both paths said OK, whichever of the two lines a reader believed. A second
    line equal to the first is refused too: no pbem writes two."""
    text = base("dice")
    line = _result_line(text)
    for placed in (f"{line}\n{second or line}", f"{second or line}\n{line}"):
        doubled = text.replace(line, placed, 1)
        failure = refused_everywhere(doubled, tmp_path, "the save's header has 2 'result:' lines")
        assert classify(failure) == "header"


def test_a_result_line_that_differs_from_the_log_is_reported(tmp_path: Path) -> None:
    """The header is human text: a result the log does not give is said in the verdict
    (both paths, the same line), and the verdict rests on the recomputed result."""
    text = base("dice")
    line = _result_line(text)
    forged = text.replace(line, "result: b wins 36-0", 1)
    report = assert_agree(forged, tmp_path)
    assert report.ok
    said = (
        f"header says result: b wins 36-0; the log gives: {line.removeprefix('result: ')} "
        "(the header is human text, never trusted)"
    )
    assert said in report.lines
    path = tmp_path / "forged.pbem"
    path.write_text(forged, encoding="utf-8")
    shown = CliRunner().invoke(main, ["verify", str(path)]).stdout.splitlines()
    assert shown[-2:] == [said, "OK: every check holds"]
    # re-wrapped by a mail client, the true line is no disagreement
    wrapped = text.replace(line, line[:20] + "\n  " + line[20:], 1)
    assert not any(x.startswith("header says") for x in assert_agree(wrapped, tmp_path).lines)
    assert not any(x.startswith("header says") for x in assert_agree(text, tmp_path).lines)
