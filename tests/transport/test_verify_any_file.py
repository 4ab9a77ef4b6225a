"""`pbem verify FILE` accepts any file holding a game's entries (protocol section 6).

A raw email, an mbox file with the game's messages, a forum thread saved as an
HTML page (armor in <pre>/<code>, or lines joined by <br> with HTML entities, the
same entries quoted again and again), a Markdown or a BBCode post. Damage in any
of them is still reported.
"""

from __future__ import annotations

import email.policy
import html
import re
from email.message import EmailMessage
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.core.log import Entry
from pbem.transport.movefile import extract_text, looks_like_html, read_entries
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries

SAVES = Path(__file__).resolve().parents[2] / "saves"
SAVE = SAVES / "barbarossa-demo.pbem"


@cache
def entries() -> tuple[Entry, ...]:
    return tuple(parse_entries(SAVE.read_bytes()))


def chunks(count: int) -> list[list[Entry]]:
    """The game's entries cut into `count` consecutive move files."""
    all_entries = list(entries())
    size = -(-len(all_entries) // count)
    return [all_entries[i : i + size] for i in range(0, len(all_entries), size)]


def verify(path: Path) -> Result:
    return CliRunner().invoke(main, ["verify", str(path)], catch_exceptions=False)


def assert_verifies(path: Path) -> Result:
    result = verify(path)
    assert result.exit_code == 0, result.output
    assert "OK: every check holds" in result.output
    assert f"entries: {len(entries())}," in result.output
    return result


def assert_refused(path: Path, *words: str) -> str:
    result = verify(path)
    assert result.exit_code == 1, result.output
    assert "OK: every check holds" not in result.output
    for word in words:
        assert word in result.output, result.output
    return result.output


def mail(body: str, subject: str, cte: str = "quoted-printable", subtype: str = "plain") -> bytes:
    msg = EmailMessage()
    msg["From"] = "German player <german@example.org>"
    msg["To"] = "Referee <referee@example.org>"
    msg["Subject"] = subject
    msg.set_content(body, subtype=subtype, cte=cte)
    return msg.as_bytes(policy=email.policy.SMTP)


def damage(text: str) -> str:
    """One base32 character changed to another inside the Ed25519 signature of an entry."""
    lines = text.split("\n")
    end = next(i for i, line in enumerate(lines) if line == "-----END PBEM ENTRY-----")
    line = lines[end - 2]  # the last full payload line: the signature's own bytes
    assert re.fullmatch(r"[A-Z2-7]{64}", line)
    lines[end - 2] = line[:7] + ("A" if line[7] != "A" else "B") + line[8:]
    return "\n".join(lines)


# --- a raw email ------------------------------------------------------------------------------


@pytest.mark.parametrize("cte", ["quoted-printable", "base64"])
def test_a_raw_email_with_the_save(tmp_path: Path, cte: str) -> None:
    path = tmp_path / "save.eml"
    path.write_bytes(mail("The whole game:\n\n" + SAVE.read_text(), "Barbarossa: save", cte))
    result = assert_verifies(path)
    assert "RNG log:" in result.output  # the log inside the encoded body was compared
    tampered = SAVE.read_text().replace("rng 3 4 1..6 4 event die", "rng 3 4 1..6 5 event die")
    path.write_bytes(mail(tampered, "Barbarossa: save", cte))
    assert_refused(path, "RNG log line 1 differs")


# --- an mbox file -----------------------------------------------------------------------------


def mbox_of(messages: list[bytes]) -> bytes:
    out = b""
    for raw in messages:
        raw = re.sub(rb"(?m)^(>*From )", rb">\1", raw.replace(b"\r\n", b"\n"))
        out += b"From german@example.org Mon Jun 22 04:00:00 1941\n" + raw + b"\n"
    return out


def game_messages() -> list[bytes]:
    """The game as a mail exchange: each mail quotes the previous one, in varied encodings."""
    messages: list[bytes] = []
    previous = ""
    kinds = ["quoted-printable", "base64", "html", "8bit", "quoted-printable", "base64"]
    for number, part in enumerate(chunks(6)):
        body = f"From the front, turn {number}:\n\n{move_file(part)}\n"
        if previous:  # a reply quotes the mail before it
            body += "\nOn the previous turn you wrote:\n" + "\n".join(
                "> " + line for line in previous.split("\n")
            )
        previous = body
        kind = kinds[number]
        if kind == "html":
            page = f"<html><body><pre>{html.escape(body)}</pre></body></html>"
            messages.append(mail(page, f"turn {number}", "quoted-printable", "html"))
        else:
            messages.append(mail(body, f"turn {number}", kind))
    return messages


def test_an_mbox_with_the_whole_game(tmp_path: Path) -> None:
    messages = game_messages()
    path = tmp_path / "barbarossa.mbox"
    path.write_bytes(mbox_of(messages))
    assert_verifies(path)
    # each message alone holds only part of the game: the mbox is really read whole
    single = tmp_path / "one.eml"
    single.write_bytes(messages[2])
    assert f"entries: {len(entries())}," not in verify(single).output


def test_an_mbox_in_any_order_with_unrelated_mail(tmp_path: Path) -> None:
    messages = game_messages()
    chatter = mail("Shall we play Race to Berlin next?\nFrom my phone", "next game", "8bit")
    path = tmp_path / "mixed.mbox"
    path.write_bytes(mbox_of([messages[3], chatter, *messages[:3], *messages[4:]]))
    assert_verifies(path)


def noise_line(seq: int) -> str:
    return f"set aside: 1 damaged copy of entry {seq} (an outsider's noise;"


def test_damage_in_one_mbox_message_is_reported(tmp_path: Path) -> None:
    messages = game_messages()
    text = move_file(chunks(6)[1])
    messages[1] = mail(damage(text), "turn 1, damaged", "base64")
    path = tmp_path / "damaged.mbox"
    path.write_bytes(mbox_of(messages))
    # the next mail quotes an intact copy: the damaged one is set aside, and said
    assert noise_line(chunks(6)[1][0].seq) in assert_verifies(path).output
    # the last mail, quoted by none: its entry has no intact copy, damage fails the game
    messages[-1] = mail(damage(move_file(chunks(6)[-1])), "last turn, damaged", "base64")
    path.write_bytes(mbox_of(messages))
    assert_refused(path, "refused", "signature")


# --- a forum thread saved as an HTML page ----------------------------------------------------


def as_br_lines(text: str) -> str:
    """Lines joined by <br>, entities for dashes, indentation by &nbsp; (forum software)."""
    escaped = html.escape(text).replace("-", "&#45;")
    return "<br />\n".join("&nbsp;" + line for line in escaped.split("\n"))


def thread_page(posts: list[str]) -> str:
    body = "".join(
        f'<article class="post" id="p{i}"><header>Post #{i} by player{i % 2}</header>'
        f'<div class="content">{post}</div></article>\n'
        for i, post in enumerate(posts)
    )
    return (
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
        "<title>Barbarossa PBEM &ndash; page 1</title>"
        "<style>pre { white-space: pre-wrap }</style>"
        # a script that mentions the armor must not count as an entry
        '<script>const hint = "-----BEGIN PBEM ENTRY-----";</script>'
        f"</head><body><main>\n{body}</main></body></html>\n"
    )


def thread_posts() -> list[str]:
    posts = []
    parts = chunks(5)
    for number, part in enumerate(parts):
        text = move_file(part)
        if number % 2:
            shown = f"<p>My move, turn {number}:</p><p>{as_br_lines(text)}</p>"
        else:
            shown = f"<p>Turn {number} &amp; dice:</p><pre><code>{html.escape(text)}</code></pre>"
        if number:  # quote the genesis and the previous post again, as threads do
            quote = html.escape(move_file(parts[0][:1] + parts[number - 1]))
            shown = f"<blockquote><cite>earlier</cite><pre>{quote}</pre></blockquote>" + shown
        posts.append(shown)
    return posts


def test_a_forum_thread_saved_as_html(tmp_path: Path) -> None:
    page = thread_page(thread_posts())
    assert looks_like_html(page)
    text = extract_text(page)
    assert "&#45;" not in text and "<br" not in text
    found = read_entries(page)
    assert len(found) > len(entries())  # quoted copies are there, and dropped by verify
    path = tmp_path / "thread.html"
    path.write_text(page, encoding="utf-8")
    assert_verifies(path)


def test_a_damaged_forum_thread_is_refused(tmp_path: Path) -> None:
    posts = thread_posts()
    text = move_file(chunks(5)[2])
    posts[2] = f"<pre>{html.escape(damage(text))}</pre>"
    path = tmp_path / "thread.html"
    path.write_text(thread_page(posts), encoding="utf-8")
    # the next post quotes an intact copy: the damaged one is set aside, and said
    assert noise_line(chunks(5)[2][0].seq) in assert_verifies(path).output
    last = move_file(chunks(5)[-1])  # quoted by no later post: no intact copy
    posts[-1] = f"<pre>{html.escape(damage(last))}</pre>"
    path.write_text(thread_page(posts), encoding="utf-8")
    assert_refused(path, "refused", "signature")
    posts = thread_posts()
    # an entity that decodes to a character base32 does not have: damage, not skipped
    posts[2] = f"<pre>{html.escape(text)}</pre>".replace("\nAAAA", "\n&#49;AAA", 1)
    assert "&#49;" in posts[2]
    path.write_text(thread_page(posts), encoding="utf-8")
    assert_refused(path, "armored entry", "'1' is damage")


def test_an_html_fragment_of_posts(tmp_path: Path) -> None:
    fragment = "\n".join(f"<div>{post}</div>" for post in thread_posts())
    path = tmp_path / "posts.htm"
    path.write_text(fragment, encoding="utf-8")
    assert_verifies(path)


# --- Markdown and BBCode posts ----------------------------------------------------------------


def test_a_markdown_post(tmp_path: Path) -> None:
    posts = [f"**Turn {i}**\n\n```text\n{move_file(part)}```\n" for i, part in enumerate(chunks(4))]
    path = tmp_path / "thread.md"
    path.write_text("\n---\n\n".join(posts), encoding="utf-8")
    assert_verifies(path)


def test_a_bbcode_post(tmp_path: Path) -> None:
    posts = [
        f"[b]Turn {i}[/b]\n[quote=referee][code]{move_file(part).rstrip()}[/code][/quote]"
        for i, part in enumerate(chunks(4))
    ]
    path = tmp_path / "thread.bbcode"
    path.write_text("\n\n".join(posts), encoding="utf-8")
    assert_verifies(path)


def test_a_file_without_entries(tmp_path: Path) -> None:
    path = tmp_path / "empty.html"
    path.write_text("<!DOCTYPE html><html><body><p>No moves yet.</p></body></html>")
    assert_refused(path, "no PBEM entries found")


def test_a_damaged_copy_of_an_entry_is_not_dropped_as_a_duplicate(tmp_path: Path) -> None:
    """Not dropped silently: beside the save's intact copy it is set aside and said (an
    outsider's noise, issue 27 item 9); in place of the only copy, it fails the game."""
    save = SAVE.read_text()
    quoted_again = "\n".join("> " + line for line in damage(move_file(entries()[5:6])).split("\n"))
    path = tmp_path / "thread.txt"
    path.write_text(save + "\nOn Monday you wrote:\n" + quoted_again + "\n")
    assert noise_line(5) in assert_verifies(path).output
    alone = move_file([*entries()[:5], *entries()[6:]])
    path.write_text(alone + "\nOn Monday you wrote:\n" + quoted_again + "\n")
    output = assert_refused(path, "signature")
    assert "entry 5 by" in output
    intact = "\n".join("> " + line for line in move_file(entries()[5:6]).split("\n"))
    path.write_text(save + "\nOn Monday you wrote:\n" + intact + "\n")
    assert_verifies(path)
