"""Text from the other side never reaches a screen, a forum or a page as anything but text.

Issue 11, item 5. The escapers themselves (pbem.escape) on every kind of control
sequence a terminal acts on, and on the markup of Markdown, BBCode and HTML; then the
attacks end to end, with real stores and the real CLI:

* an opponent's game title full of forum markup (legal in an entry: no control
  character) rendered by `pbem render` as Markdown and BBCode posts and summaries, and
  listed by `pbem show`;
* a mail whose Subject (RFC 2047 encoded) holds terminal escape sequences and whose
  From decodes to two lines, read by `pbem mail fetch`;
* an invitation (a genesis from someone else naming this store's key) arriving by mail:
  listed, never stored, until the player accepts it with `pbem join` (or declines it).
"""

from __future__ import annotations

import base64
import mailbox
import re
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem import escape
from pbem.cli import main
from pbem.client import Client
from pbem.core.log import Entry
from pbem.store import Store
from pbem.transport.savefile import move_file

# Every character a terminal may act on, or that reorders what it shows.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

SEQUENCES = {
    "ESC alone": ("a\x1bb", "\\x1b"),
    "CSI clear screen": ("\x1b[2J\x1b[H", "\\x1b[2J"),
    "CSI colour": ("\x1b[31mred\x1b[0m", "\\x1b[31m"),
    "OSC hyperlink": ("\x1b]8;;https://evil.example\x07click\x1b]8;;\x07", "\\x1b]8;;"),
    "OSC title, ST": ("\x1b]0;owned\x1b\\", "\\x1b]0;owned"),
    "C1 CSI": ("\x9b2J", "\\x9b2J"),
    "C1 OSC": ("\x9d0;t\x9c", "\\x9d0;t\\x9c"),
    "bidi override": ("invoice\u202egnp.exe", "\\u202e"),
    "bidi isolate": ("\u2066x\u2069", "\\u2066x\\u2069"),
    "carriage return": ("ok\rFAKE", "ok\\x0dFAKE"),
    "NUL and DEL": ("\x00\x7f", "\\x00\\x7f"),
    "backspace": ("abc\x08\x08\x08xyz", "\\x08"),
    "line separator": ("a\u2028b", "\\u2028"),
    "lone surrogate": ("b\udcff", "\\udcff"),
}


# --- the escapers ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", SEQUENCES)
def test_terminal_escaping_makes_every_control_sequence_visible(name: str) -> None:
    text, shown = SEQUENCES[name]
    for escaper in (escape.terminal, escape.terminal_line, escape.one_line):
        out = escaper(text)
        assert UNSAFE.search(out) is None, (escaper.__name__, out)
        assert not any(0xD800 <= ord(c) <= 0xDFFF for c in out)
        assert escaper(out) == out  # idempotent: escaping twice shows the same
        if escaper is not escape.one_line:  # (which turns a line break into a space)
            assert shown in out
    for escaper in (escape.markdown, escape.markdown_code, escape.bbcode, escape.html):
        out = escaper(text)
        assert UNSAFE.search(out) is None, (escaper.__name__, out)


def test_terminal_keeps_lines_and_tabs_and_terminal_line_does_not() -> None:
    assert escape.terminal("a\tb\nc") == "a\tb\nc"
    assert escape.terminal_line("a\tb\nc") == "a\\x09b\\x0ac"
    assert escape.one_line("Re: a\n  b\r\n\tc") == "Re: a b c"
    assert escape.terminal("café ♞ 日本") == "café ♞ 日本"  # printable text is untouched


def unescaped(markdown: str, raw: str) -> bool:
    """Whether `raw` occurs in `markdown` with its first character not backslash-escaped."""
    return re.search(r"(?<!\\)" + re.escape(raw), markdown) is not None


def test_markdown_escaping_leaves_no_markup() -> None:
    text = (
        "# <script>alert(1)</script> *b* _i_ [x](https://evil.example) ![i](x) a|b `c` ~~s~~ &lt;"
    )
    out = escape.markdown(text)
    for raw in ("<script", "](", "[x", "*b*", "_i_", "|", "`c`", "~~", "&lt;"):
        assert not unescaped(out, raw), raw
    assert out.startswith("\\#")
    assert "\\<script\\>" in out and "\\[x\\]" in out and "a\\|b" in out
    assert escape.markdown("- item") == "\\- item"
    assert escape.markdown("12. item") == "12\\. item"
    assert escape.markdown("two\nlines") == "two lines"


def test_markdown_code_span_cannot_be_closed_from_inside() -> None:
    assert escape.markdown_code("roll") == "`roll`"
    assert escape.markdown_code("a`b") == "``a`b``"
    assert escape.markdown_code("``") == "``` `` ```"
    assert escape.markdown_code("x\ny") == "`x y`"


def test_bbcode_and_html_escaping() -> None:
    text = "[url=https://evil.example]x[/url][/code][img]y[/img]"
    out = escape.bbcode(text)
    assert "[" not in out and "]" not in out
    assert out.startswith("\uff3burl=https://evil.example\uff3d")
    assert escape.html('<script>alert("x")</script> & \'') == (
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;"
    )


def test_every_value_a_template_prints_is_escaped_for_its_format() -> None:
    """The summary templates' environments (pbem.render.summary): whatever a template
    prints with {{ }} goes through its format's escaper; an HTML template autoescapes."""
    import jinja2

    from pbem.render.summary import _environment

    value = "<b>*x*</b> [url=https://evil.example]\x1b[2J"
    rendered = {}
    for ext in ("txt", "md", "bbcode", "html"):
        loader = jinja2.DictLoader({f"t.{ext}.j2": "{{ v }}|{{ v | md_code }}"})
        rendered[ext] = _environment(ext).overlay(loader=loader).get_template(f"t.{ext}.j2")
    assert (
        rendered["txt"].render(v=value).startswith("<b>*x*</b> [url=https://evil.example]\\x1b[2J|")
    )
    assert rendered["md"].render(v=value) == (
        "\\<b\\>\\*x\\*\\</b\\> \\[url=https://evil.example\\]\\\\x1b\\[2J|"
        "`<b>*x*</b> [url=https://evil.example]\\x1b[2J`"
    )
    assert "[" not in rendered["bbcode"].render(v=value).split("|")[0]
    assert rendered["html"].render(v=value).split("|")[0] == (
        "&lt;b&gt;*x*&lt;/b&gt; [url=https://evil.example]\\x1b[2J"
    )


# --- a hostile title, end to end ---------------------------------------------------------------

# Legal in an entry (no control character) but markup in every medium a post goes to.
HOSTILE_TITLE = (
    "# War [url=https://evil.example]prize[/url] [/code] [a](https://evil.example) "
    "<script>alert(1)</script> *x* | y | ```"
)


def _players(tmp_path: Path, title: str) -> tuple[Client, Client, str, list[Entry]]:
    """A (creator, role a) and B (role b) in stores of their own; A's genesis and join."""
    a = Client(Store(tmp_path / "a"))
    b = Client(Store(tmp_path / "b"))
    a.new_key("a")
    b.new_key("b")
    a.import_key("b", tmp_path / "b" / "keys" / "b.pub")
    game_id, made = a.new_game("toy-dice", "a", {"a": "a", "b": "b"}, title=title)
    return a, b, game_id, made


def cli(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], color=True)


def test_a_hostile_title_is_only_text_in_posts_summaries_and_listings(tmp_path: Path) -> None:
    a, b, game_id, made = _players(tmp_path, HOSTILE_TITLE)
    (tmp_path / "invite.txt").write_text(move_file(made))
    assert cli(tmp_path / "b", "apply", str(tmp_path / "invite.txt")).exit_code == 0
    assert cli(tmp_path / "b", "join", game_id[:12], "-o", str(tmp_path / "j.txt")).exit_code == 0
    short = game_id[:12]

    markdown = cli(tmp_path / "b", "render", short, "--format", "markdown", "--role", "public")
    assert markdown.exit_code == 0, markdown.output
    head = markdown.stdout.splitlines()[0]
    assert head.startswith("# \\# War \\[url=")
    for raw in ("<script", "](https://evil", "*x*", "| y |"):
        assert not unescaped(markdown.stdout, raw), raw
    # The entries' fence is the only one: the title's ``` is escaped.
    assert len(re.findall(r"^```+$", markdown.stdout, re.MULTILINE)) == 2

    bbcode = cli(tmp_path / "b", "render", short, "--format", "bbcode", "--role", "public")
    assert bbcode.exit_code == 0, bbcode.output
    assert "[url" not in bbcode.stdout and "[/url]" not in bbcode.stdout
    assert bbcode.stdout.count("[/code]") == 1 and bbcode.stdout.count("[code]") == 1
    assert "\uff3burl=https://evil.example\uff3d" in bbcode.stdout

    summary = cli(tmp_path / "b", "render", short, "--format", "markdown", "--role", "b")
    assert summary.exit_code == 0, summary.output
    assert not unescaped(summary.stdout, "<script")
    assert not unescaped(summary.stdout, "](https://evil")

    listing = cli(tmp_path / "b", "show")
    assert listing.exit_code == 0
    assert f"{short}\ttoy-dice\t{HOSTILE_TITLE}" in listing.stdout  # text is text on a terminal


# --- mail headers ------------------------------------------------------------------------------


def _encoded(text: str) -> str:
    """`text` as one RFC 2047 encoded word (how a mail hides bytes in a header)."""
    return "=?utf-8?b?" + base64.b64encode(text.encode("utf-8")).decode() + "?="


EVIL_SUBJECT = (
    "\x1b]8;;https://evil.example\x07your move\x1b]8;;\x07 \x1b[2J\x1b[H\x9b31m \u202eexe.txt"
)
EVIL_FROM = "Referee\nerror: your store is damaged, run rm -rf ~ <b@example.org>"


def _deliver(path: Path, messages: list[EmailMessage | bytes]) -> None:
    box = mailbox.Maildir(str(path), create=True)
    for mail in messages:
        box.add(mail)


def _mail(subject: str, body: str, sender: str = "b@example.org", number: int = 0) -> bytes:
    head = (
        f"From: {sender}\r\nTo: a@example.org\r\nSubject: {subject}\r\n"
        f"Message-ID: <evil-{number}@example.org>\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\n"
    )
    return head.encode() + body.replace("\n", "\r\n").encode()


def test_fetch_shows_a_subject_with_escape_sequences_as_text(tmp_path: Path) -> None:
    home = tmp_path / "me"
    Client(Store(home)).new_key("me")
    path = tmp_path / "Maildir"
    _deliver(path, [_mail(_encoded(EVIL_SUBJECT), "no moves here\n")])

    result = cli(home, "mail", "fetch", "--maildir", str(path))

    assert result.exit_code == 0, result.output
    assert UNSAFE.search(result.stdout) is None, repr(result.stdout)
    (line,) = result.stdout.splitlines()
    assert "\\x1b]8;;https://evil.example\\x07your move" in line
    assert "\\x1b[2J" in line and "\\x9b31m" in line and "\\u202eexe.txt" in line
    assert line.endswith(": no pbem entries")


# --- invitations -------------------------------------------------------------------------------


def test_an_invitation_is_listed_not_stored_until_the_player_joins(tmp_path: Path) -> None:
    a, b, game_id, made = _players(tmp_path, HOSTILE_TITLE)
    short = game_id[:12]
    path = tmp_path / "Maildir"
    _deliver(path, [_mail(_encoded(EVIL_SUBJECT), move_file(made), _encoded(EVIL_FROM), 1)])
    home = tmp_path / "b"

    for _ in range(2):  # listed on every fetch, and never stored
        result = cli(home, "mail", "fetch", "--maildir", str(path), "--delete-applied")
        assert result.exit_code == 0, result.output
        assert UNSAFE.search(result.stdout) is None, repr(result.stdout)
        (line,) = result.stdout.splitlines()  # the From's line break is shown, not made
        assert f"invitation to game {short} of toy-dice" in line
        assert "by a SHA256:" in line and "for your role b" in line
        assert "(mail from Referee error: your store is damaged" in line  # one line
        assert f"not stored: accept it with `pbem join {short}`" in line
        assert not b.store.has_game(game_id)
        assert len(list(mailbox.Maildir(str(path), create=False).keys())) == 1  # not deleted

    listing = cli(home, "show")
    assert listing.exit_code == 0
    assert f"invitation to game {short} of toy-dice" in listing.stdout
    assert UNSAFE.search(listing.stdout) is None

    joined = cli(home, "join", short)
    assert joined.exit_code == 0, joined.output
    assert f"accepted the invitation to game {short}" in joined.stderr
    assert "stored entries 0-1" in joined.stderr
    assert [e.seq for e in b.game(game_id).entries] == [0, 1, 2]  # and b's own join

    again = cli(home, "mail", "fetch", "--maildir", str(path))
    assert again.exit_code == 0
    # (recorded when it was read, with the genesis that makes it the thread's root)
    assert again.stdout.strip().endswith(f"already had (game {short} seqs 0)")


def test_an_invitation_can_be_accepted_by_fetch_or_declined(tmp_path: Path) -> None:
    a, b, game_id, made = _players(tmp_path, "friendly")
    short = game_id[:12]
    path = tmp_path / "Maildir"
    _deliver(path, [_mail("new game", move_file(made[:1]), number=2)])
    home = tmp_path / "b"
    assert "invitation to game" in cli(home, "mail", "fetch", "--maildir", str(path)).stdout

    # Its creator's join comes in a later mail: held with the invitation.
    later = tmp_path / "later"
    _deliver(later, [_mail("join", move_file(made[1:]), number=3)])
    result = cli(home, "mail", "fetch", "--maildir", str(later))
    assert result.exit_code == 0, result.output
    assert f"holding 1 of game {short} until its invitation is accepted" in result.stdout
    assert not b.store.has_game(game_id)

    declined = cli(home, "mail", "fetch", "--maildir", str(later), "--decline", short)
    assert declined.exit_code == 0, declined.output
    held, forgotten = declined.stdout.splitlines()
    assert held.endswith(f"holding 1 of game {short} until its invitation is accepted")
    assert forgotten.startswith(f"declined the invitation to game {short}: forgotten")
    assert b.store.buffered(game_id) == []
    alone = cli(home, "mail", "fetch", "--maildir", str(later))
    assert alone.exit_code == 1  # no invitation to hold it for any more
    assert f"refused: entry 1 by a belongs to game {short}, unknown here" in alone.stdout

    # Accepted in the fetch that brings it (the invitation again, from its mail).
    accepted = cli(home, "mail", "fetch", "--maildir", str(path), "--accept", short)
    assert accepted.exit_code == 0, accepted.output
    invitation, done = accepted.stdout.splitlines()
    assert f"invitation to game {short}" in invitation
    assert done.startswith(f'accepted the invitation to game {short} of toy-dice "friendly"')
    assert done.endswith("stored entries 0")
    assert [e.seq for e in b.game(game_id).entries] == [0]
    result = cli(home, "mail", "fetch", "--maildir", str(later))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().endswith(f"applied game {short} seqs 1")


def test_a_game_made_on_another_device_is_not_an_invitation(tmp_path: Path) -> None:
    """A genesis signed by one of this store's own keys is the player's own game."""
    a, _b, game_id, made = _players(tmp_path, "mine")
    laptop = tmp_path / "laptop"
    Client(Store(laptop)).import_key("a", tmp_path / "a" / "keys" / "a")
    path = tmp_path / "Maildir"
    _deliver(path, [_mail("new game", move_file(made), number=4)])

    result = cli(laptop, "mail", "fetch", "--maildir", str(path))

    assert result.exit_code == 0, result.output
    assert result.stdout.strip().endswith(f"applied game {game_id[:12]} seqs 0-1")
