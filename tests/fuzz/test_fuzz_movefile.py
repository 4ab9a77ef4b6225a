"""Fuzzing move-file reading: read_entries / extract_text on anything a mailbox could hold.

Arbitrary bytes and text, and valid move files, mails (quoted-printable, base64,
HTML alternatives, forwarded) and mbox files with real entries, mutated: bits
flipped, lines deleted or duplicated, markers damaged, MIME headers mangled,
charsets changed. Whatever comes in, only a PbemError with a one-line message may
come out; an intact input must still give back exactly its entries.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.errors import PbemError
from pbem.transport.armor import BEGIN, END
from pbem.transport.movefile import extract_text, read_entries
from tests.fuzz.fuzzing import check_message, fuzz_settings, move_files, mutated, outcome

ARMOR_ALPHABET = st.sampled_from(
    list("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567abcxyz01890 >-=[]`\n\r\t") + [BEGIN, END, "\u2014"]
)


@fuzz_settings(150)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes(data: bytes) -> None:
    outcome(read_entries, data, keep_as="movefile")
    outcome(extract_text, data, keep_as="movefile")


@fuzz_settings(150)
@given(st.text(st.characters(exclude_categories=()), max_size=2000))  # lone surrogates too
def test_arbitrary_text(text: str) -> None:
    outcome(read_entries, text.encode("utf-8", "surrogatepass"), keep_as="movefile")
    try:
        read_entries(text)
    except PbemError as exc:
        check_message(exc)


@fuzz_settings(150)
@given(st.lists(ARMOR_ALPHABET, max_size=300).map("".join))
def test_armor_like_text(text: str) -> None:
    """Text made of armor pieces: markers, base32, quote marks, dashes."""
    outcome(read_entries, text.encode(), keep_as="movefile")


@fuzz_settings(60)
@given(move_files())
def test_valid_move_files_read_back(sample: tuple[bytes, list[tuple[bytes, bytes]]]) -> None:
    """The seeds of the mutation tests are good: each gives back exactly its entries."""
    data, wanted = sample
    assert read_entries(data) == wanted


@fuzz_settings(200)
@given(st.data())
def test_mutated_move_files(data: st.DataObject) -> None:
    raw, _wanted = data.draw(move_files())
    damaged = data.draw(mutated(raw))
    outcome(read_entries, damaged, keep_as="movefile")
    outcome(read_entries, damaged.decode("latin-1").encode(), keep_as="movefile")


@pytest.mark.parametrize("depth", [5, 3000])
def test_deeply_nested_mail_is_refused_not_a_crash(depth: int) -> None:
    """Regression (fuzz/corpus/movefile/mail-nested-*): the mail parser recursed to death."""
    nested = b"From: a@example.org\nContent-Type: message/rfc822\n\n" * depth
    mail = nested + b"From: a@example.org\n\nno entries here\n"
    if depth == 5:
        assert read_entries(mail) == []
        return
    # (Since issue 11 the cap on MIME parts, nested ones included, refuses it first.)
    refused = r"nested too deep|more than \d+ MIME parts"
    with pytest.raises(PbemError, match=refused):
        read_entries(mail)
    with pytest.raises(PbemError, match=refused):
        extract_text(mail.decode())
