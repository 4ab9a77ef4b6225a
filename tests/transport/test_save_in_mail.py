"""A save pasted into a mail still verifies (protocol section 6), and a changed RNG log does not.

Each demo save goes into a mail body as a reply would carry it: quoted with `> `,
every line re-wrapped by the mail client (human lines, `rng` lines and armor
lines alike), sent quoted-printable or base64 as a raw RFC 5322 message. The RNG
log is compared token by token, so wrapping and quoting do not matter; its
content does: a changed value, a missing, extra or reordered line is refused.
"""

from __future__ import annotations

import email.policy
import html
from email.message import EmailMessage
from functools import cache
from pathlib import Path

import pytest

from pbem.transport.armor import BEGIN, END
from pbem.transport.savefile import RNG_HEADER, RngLogError, check_rng_log
from pbem.verify import Report, verify_text
from tests.support.signatures_once import per_module

SAVES = sorted((Path(__file__).resolve().parents[2] / "saves").glob("*.pbem"))
NAMES = [p.name for p in SAVES]


_signatures_checked_once = per_module()  # (tests/support/signatures_once.py)


@cache
def save_of(name: str) -> str:
    return (SAVES[NAMES.index(name)]).read_text(encoding="utf-8")


def rewrap_armor(text: str, width: int) -> str:
    """Armor payload lines joined and cut again at `width` (a tool writing wider lines)."""
    out: list[str] = []
    payload: list[str] | None = None
    for line in text.split("\n"):
        if line == BEGIN:
            payload = []
            out.append(line)
        elif line == END and payload is not None:
            joined = "".join(payload)
            out += [joined[i : i + width] for i in range(0, len(joined), width)]
            out.append(line)
            payload = None
        elif payload is not None:
            payload.append(line)
        else:
            out.append(line)
    return "\n".join(out)


def mail_wrap(text: str, width: int, reprefix: bool) -> str:
    """A mail client breaking every long line: at a space if it can, else hard."""
    out: list[str] = []
    for line in text.split("\n"):
        quote = line[: len(line) - len(line.lstrip("> "))]
        prefix = quote if reprefix else ""
        while len(line) > width:
            start = len(quote) if line.startswith(quote) else len(prefix)
            cut = line.rfind(" ", start + 1, width + 1)
            if cut <= start:
                cut = width
            out.append(line[:cut])
            line = prefix + line[cut:].lstrip(" ")
        out.append(line)
    return "\n".join(out)


def quoted(text: str, prefix: str = "> ") -> str:
    return "\n".join(prefix + line for line in text.rstrip("\n").split("\n"))


def in_a_mail(body: str, cte: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Referee <ref@example.org>"
    msg["To"] = "German player <g@example.org>"
    msg["Subject"] = "Re: the finished game"
    msg.set_content(body, cte=cte)
    return msg.as_bytes(policy=email.policy.SMTP)


def reply_with(save: str, width: int, reprefix: bool) -> str:
    """The save as quoted in a reply, every line re-wrapped at `width` columns."""
    body = quoted(rewrap_armor(save, 76))
    return "Here is the save again, verify it.\n\nOn Sunday you wrote:\n" + mail_wrap(
        body, width, reprefix
    )


def rng_part(save: str) -> tuple[str, list[str]]:
    head, _, tail = save.partition(RNG_HEADER + "\n")
    return head + RNG_HEADER + "\n", tail.rstrip("\n").split("\n")


def assert_refused(report: Report, *words: str) -> None:
    assert not report.ok and report.failure is not None
    for word in words:
        assert word in report.failure, report.failure


# --- verifies ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("cte", ["quoted-printable", "base64"])
@pytest.mark.parametrize(("width", "reprefix"), [(72, True), (40, False)])
def test_a_save_quoted_and_rewrapped_in_a_mail_verifies(
    name: str, cte: str, width: int, reprefix: bool
) -> None:
    save = save_of(name)
    body = reply_with(save, width, reprefix)
    lines = body.split("\n")
    assert max(map(len, lines)) <= width
    cut = [line for line in lines if len(line) == width and " " not in line.lstrip("> ")]
    assert cut, "some armor line was cut by the wrap"
    rng = [line for line in save.split("\n") if line.startswith("rng ")]
    assert len([line for line in lines if line.startswith("> rng ")]) == len(rng)
    if width == 40:  # some rng lines were broken in two
        assert any(len("> " + line) > width for line in rng)
    raw = in_a_mail(body, cte)
    if cte == "base64":
        assert b"RNG LOG" not in raw  # only a decoder sees the RNG log
    report = verify_text(raw)
    assert report.ok, report.failure
    assert "RNG log:" in report.text()


@pytest.mark.parametrize("name", NAMES)
def test_a_save_in_a_forum_code_block_or_html_mail_verifies(name: str) -> None:
    save = save_of(name)
    assert verify_text("[quote=bob][code]" + save.rstrip("\n") + "[/code][/quote]\n").ok
    assert verify_text("Game over!\n```\n" + save + "```\nGG\n").ok
    msg = EmailMessage()
    msg["From"] = "bob@example.org"
    msg["Subject"] = "save"
    msg.set_content(f"<html><body><pre>{html.escape(save)}</pre></body></html>", subtype="html")
    assert verify_text(msg.as_bytes()).ok


def test_a_save_quoted_twice_in_a_thread_verifies_each_copy() -> None:
    save = save_of(NAMES[0])
    thread = save + "\n-- \nBob\n\nOn Monday Bob wrote:\n" + quoted(mail_wrap(save, 50, False))
    report = verify_text(thread)
    assert report.ok, report.failure
    assert "in each of its 2 copies" in report.text()


def test_human_text_after_the_log_is_allowed() -> None:
    save = save_of(NAMES[0])
    assert verify_text(save + "\nThanks for the game!\n-- \nBob\n").ok
    assert verify_text(quoted(save) + "\n\nGG, see you next week\n").ok


# --- refused ----------------------------------------------------------------------------------


def change_first_value(save: str) -> str:
    head, lines = rng_part(save)
    words = lines[0].split(" ")
    assert words[3] != "private"
    lo, hi = map(int, words[3].split(".."))
    words[4] = str(lo + (int(words[4]) - lo + 1) % (hi - lo + 1))  # another value in range
    return head + "\n".join([" ".join(words), *lines[1:]]) + "\n"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("cte", ["quoted-printable", "base64"])
def test_a_changed_rng_value_in_a_mailed_save_is_refused(name: str, cte: str) -> None:
    changed = change_first_value(save_of(name))
    assert changed != save_of(name)
    report = verify_text(in_a_mail(reply_with(changed, 40, False), cte))
    assert_refused(report, "RNG log line 1 differs")


@pytest.mark.parametrize(
    "change", ["drop-first", "drop-middle", "drop-last", "extra", "extra-later", "swap"]
)
def test_missing_extra_or_reordered_lines_are_refused_after_wrapping(change: str) -> None:
    save = save_of("race-to-berlin-demo.pbem")
    head, lines = rng_part(save)
    assert len(lines) > 10
    middle = len(lines) // 2
    tail = ""
    if change == "drop-first":
        lines = lines[1:]
    elif change == "drop-middle":
        del lines[middle]
    elif change == "drop-last":
        lines = lines[:-1]
    elif change == "extra":
        lines.insert(middle, lines[middle])
    elif change == "extra-later":  # after human text, where trailing text is allowed
        tail = "\nThanks!\n\nrng 99 100 1..6 6 a lucky die\n"
    else:
        lines[middle], lines[middle + 1] = lines[middle + 1], lines[middle]
        assert lines[middle] != lines[middle + 1]
    text = head + "\n".join(lines) + "\n" + tail
    report = verify_text(in_a_mail(reply_with(text, 40, True), "quoted-printable"))
    assert_refused(report, "RNG log")


def test_text_glued_to_the_last_rng_line_is_refused() -> None:
    save = save_of(NAMES[0]).rstrip("\n")
    assert_refused(verify_text(save + " and a free reroll\n"), "RNG log line")
    assert verify_text(save + "\nand a free reroll\n").ok  # on its own line: human text


def test_a_tampered_copy_is_refused_even_after_a_good_one() -> None:
    save = save_of(NAMES[0])
    for first, second in ((save, change_first_value(save)), (change_first_value(save), save)):
        report = verify_text(first + "\n\nquoted:\n" + quoted(second))
        assert_refused(report, "RNG log (copy", "line 1 differs")


# --- the comparison itself ----------------------------------------------------------------------

COMPUTED = [
    "rng 3 4 1..6 4 attack 17 from 29: soviet die 1",
    "rng 5 6 private initial hand: German draws card 1 of 5",
    "rng 7 8 0..24 13 turn 2 card draw",
]


def test_check_rng_log_wrapped_and_quoted() -> None:
    wrapped = (
        "RNG LOG\n> rng 3 4 1..6 4 attack 17\n> from 29: soviet die 1\n"
        ">> rng 5 6 private initial hand:\n German draws card 1 of 5\n\n"
        "[code]rng 7 8 0..24 13 turn 2\ncard draw[/code]\n"
    )
    assert check_rng_log(wrapped, COMPUTED) == 1
    assert check_rng_log("no log here\nrng 3 4 1..6 4 x\n", COMPUTED) == 0  # a move file


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("RNG LOG\n" + "\n".join(COMPUTED[:2]), "has 2 lines"),
        ("RNG LOG\n" + "\n".join([*COMPUTED, COMPUTED[2]]), "has 4 lines"),
        ("RNG LOG\n" + "\n".join([COMPUTED[1], COMPUTED[0], COMPUTED[2]]), "line 1 differs"),
        ("RNG LOG\n" + "\n".join(COMPUTED).replace("private", "1..6 2"), "line 2 differs"),
        ("RNG LOG\n" + "\n".join(COMPUTED).replace("13", "14"), "line 3 differs"),
        ("RNG LOG\n" + "\n".join(COMPUTED).replace("die 1", "die 1\nmore"), "line 1 differs"),
        ("RNG LOG\n" + "\n".join(COMPUTED) + "\n\nbye\nRNG 9 10 1..6 1 x", "has 4 lines"),
    ],
)
def test_check_rng_log_refuses(text: str, why: str) -> None:
    with pytest.raises(RngLogError) as exc:
        check_rng_log(text, COMPUTED)
    assert why in str(exc.value) and "\n" not in str(exc.value)


def test_armor_after_the_log_is_not_read_as_records() -> None:
    payload = "RNG 3 4 1..6 4 ATTACK"  # a forum that put spaces into an armor line
    text = "RNG LOG\n" + "\n".join(COMPUTED) + f"\n{BEGIN}\n{payload}\n{END}\n"
    assert check_rng_log(text, COMPUTED) == 1
