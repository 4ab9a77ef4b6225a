"""Fetching a hostile mailbox: time per hostile message vs an ordinary message of the same size.

A real store (player a's second store, as in tests/mail) fetches, through
`pbem.mail.fetch.Fetcher.process` (what `pbem mail fetch` runs per message):

* an ordinary message: a real move mail of a toy-dice game (its entries already in the
  store, so they are read, decoded and found already had) padded with plain text, and
* hostile messages of the same size, each built to make the mail parser, the header
  decoder, the HTML converter or the entry reader work hard: tens of thousands of MIME
  parts, parts nested thousands deep, tens of thousands of header fields, a Subject of
  thousands of RFC 2047 words, a Content-Type with thousands of parameters, an HTML
  part of tags, armor markers with junk, the same entry copied over and over.

Each is timed `--rounds` times (default 5), alternately, the best kept; at each size
(default 256 KiB and 2 MiB, and the 8 MiB cap with --big) it prints seconds per
message and the ratio hostile / ordinary. The ratio stays flat as the size grows
(the cost of a hostile mailbox grows no faster than its size); a message refused by a
cap says so. Run: python bench/hostile_mail.py [--rounds N] [--big]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.client import Client  # noqa: E402
from pbem.mail.fetch import Fetcher  # noqa: E402
from pbem.store import Store  # noqa: E402
from pbem.transport.savefile import move_file  # noqa: E402
from tests.support.players import Duo  # noqa: E402

HEAD = "From: b@example.org\r\nTo: a@example.org\r\nSubject: {subject}\r\nMIME-Version: 1.0\r\n"


def fill(unit: str, size: int, head: str = "", tail: str = "") -> str:
    """`head`, then `unit` repeated, then `tail`: `size` characters or a little less."""
    room = max(0, size - len(head) - len(tail))
    return head + unit * (room // len(unit)) + tail


def ordinary(moves: str, size: int) -> bytes:
    head = HEAD.format(subject="[pbem] my move") + "Content-Type: text/plain\r\n\r\n"
    head += moves.replace("\n", "\r\n") + "\r\n\r\n"
    return fill(
        "the quick brown fox jumps over the lazy dog, again and again\r\n", size, head
    ).encode()


def many_parts(moves: str, size: int) -> bytes:
    head = HEAD.format(subject="parts") + "Content-Type: multipart/mixed; boundary=b\r\n\r\n"
    return fill("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n", size, head, "--b--\r\n").encode()


def nested(moves: str, size: int) -> bytes:
    levels = size // 80
    body = "x\r\n"
    opening = "".join(
        f"Content-Type: multipart/mixed; boundary=n{i}\r\n\r\n--n{i}\r\n" for i in range(levels)
    )
    closing = "".join(f"\r\n--n{i}--\r\n" for i in reversed(range(levels)))
    return (HEAD.format(subject="deep") + opening + body + closing).encode()


def many_fields(moves: str, size: int) -> bytes:
    # Within the first 256 KiB, so that the text is read as a mail at all.
    fields = fill("X-Filler: y\r\n", min(size, 250_000), HEAD.format(subject="fields"))
    return fill("z", size, fields + "Content-Type: text/plain\r\n\r\n").encode()


def encoded_subject(moves: str, size: int) -> bytes:
    words = fill(" =?utf-8?q?a?=", min(size, 250_000))
    head = HEAD.format(subject=words.strip()) + "Content-Type: text/plain\r\n\r\n"
    return fill("z", size, head).encode()


def content_type_params(moves: str, size: int) -> bytes:
    """As many parts as allowed, each with a Content-Type of parameters as long as allowed."""
    from pbem.transport.mime import MAX_FIELD_CHARS, MAX_PARTS

    params = fill("; p=v", MAX_FIELD_CHARS - 64)
    head = HEAD.format(subject="params") + "Content-Type: multipart/mixed; boundary=b\r\n\r\n"
    part = f"--b\r\nContent-Type: text/plain{params}\r\n\r\nx\r\n"
    parts = part * min(MAX_PARTS - 1, size // len(part))
    return fill("z", size, head + parts + "--b--\r\n").encode()


def html_tags(moves: str, size: int) -> bytes:
    head = HEAD.format(subject="html") + "Content-Type: text/html\r\n\r\n"
    return fill("<p>a", size, head).encode()


def junk_armor(moves: str, size: int) -> bytes:
    head = HEAD.format(subject="armor") + "Content-Type: text/plain\r\n\r\n"
    unit = "-----BEGIN PBEM ENTRY-----\r\nAAAA\r\n-----END PBEM ENTRY-----\r\n"
    return fill(unit, size, head).encode()


def copied_entries(moves: str, size: int) -> bytes:
    head = HEAD.format(subject="copies") + "Content-Type: text/plain\r\n\r\n"
    return fill(moves.replace("\n", "\r\n") + "\r\n", size, head).encode()


HOSTILE: dict[str, Callable[[str, int], bytes]] = {
    "MIME parts": many_parts,
    "nested parts": nested,
    "header fields": many_fields,
    "encoded words": encoded_subject,
    "type params": content_type_params,
    "HTML tags": html_tags,
    "junk armor": junk_armor,
    "entry copies": copied_entries,
}


def best(fetcher: Fetcher, raw: bytes, rounds: int) -> tuple[float, str]:
    times = []
    outcome = ""
    for _ in range(rounds):
        started = time.perf_counter()
        report = fetcher.process("bench", raw)
        times.append(time.perf_counter() - started)
        outcome = report.outcome()
    return min(times), outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--big", action="store_true", help="also at the 8 MiB cap")
    args = parser.parse_args()
    sizes = [256 * 1024, 2 * 1024 * 1024] + ([8 * 1024 * 1024 - 1024] if args.big else [])

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        duo = Duo(root / "players")
        for _ in range(2):
            duo.step()
        home = root / "laptop"
        reader = Client(Store(home))
        reader.import_key("a", root / "players" / "a" / "keys" / "a")
        entries = list(duo.a.game(duo.game_id).entries)
        moves = move_file(entries)
        fetcher = Fetcher(reader)
        fetcher.process("setup", ordinary(moves, 4096))  # the store now has the game

        print(f"{'message':<14} {'size':>9} {'s/message':>10} {'ratio':>7}  outcome")
        for size in sizes:
            base, outcome = best(fetcher, ordinary(moves, size), args.rounds)
            print(f"{'ordinary':<14} {size:>9} {base:>10.4f} {1:>7.1f}  {outcome[:60]}")
            for name, build in HOSTILE.items():
                raw = build(moves, size)
                spent, outcome = best(fetcher, raw, args.rounds)
                print(
                    f"{name:<14} {len(raw):>9} {spent:>10.4f} {spent / base:>7.1f}  {outcome[:60]}"
                )
            print()


if __name__ == "__main__":
    main()
