"""Mailbox files on this machine: a Maildir and an mbox, read with Python's `mailbox`.

Each gives (key, raw bytes) for every message in mailbox order, changes nothing while
reading, and deletes messages by key only when asked: `pbem mail fetch` reads them
(pbem.mail.sources, beside IMAP) and `pbem verify` checks the games they hold.
"""

from __future__ import annotations

import contextlib
import mailbox
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Self

from pbem.errors import PbemError


class MailSourceError(PbemError):
    """A mailbox or mail server that cannot be read (one line, for the CLI)."""


class Closing:
    """A source that is its own context manager: closed on leaving the `with`."""

    def close(self) -> None:
        pass

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


_UNIQUE = re.compile(r"(\d+)\.([^.]*)")


def _maildir_order(key: str) -> tuple[int, int, int, str]:
    """Delivery order, as far as Maildir names tell it: the delivery time in seconds,
    then the microseconds (M) and the delivering process's counter (Q) when present."""
    match = _UNIQUE.match(key)
    if match is None:
        return (0, 0, 0, key)
    fields = {letter: int(n) for letter, n in re.findall(r"([A-Z])(\d+)", match.group(2))}
    return (int(match.group(1)), fields.get("M", 0), fields.get("Q", 0), key)


class MaildirSource(Closing):
    def __init__(self, path: Path) -> None:
        self.name = f"Maildir {path}"
        if not (path / "cur").is_dir() or not (path / "new").is_dir():
            raise MailSourceError(f"{path} is not a Maildir (it needs cur/ and new/)")
        self._box = mailbox.Maildir(str(path), factory=None, create=False)

    def messages(self) -> Iterator[tuple[str, bytes]]:
        for key in sorted(self._box.keys(), key=_maildir_order):
            try:
                raw = self._box.get_bytes(key)
            except KeyError:
                continue  # removed by a mail client meanwhile
            yield key, raw

    def delete(self, keys: Sequence[str]) -> None:
        for key in keys:
            self._box.discard(key)


class MboxSource(Closing):
    def __init__(self, path: Path) -> None:
        self.name = f"mbox {path}"
        if not path.is_file():
            raise MailSourceError(f"no mbox file at {path}")
        self._path = path
        self._box = mailbox.mbox(str(path), factory=None, create=False)
        self._keys = {str(key): key for key in self._box.iterkeys()}  # ints, in file order

    def messages(self) -> Iterator[tuple[str, bytes]]:
        for name, key in self._keys.items():
            yield name, self._box.get_bytes(key)

    def delete(self, keys: Sequence[str]) -> None:
        if not keys:
            return
        try:
            self._box.lock()
            try:
                for key in keys:
                    self._box.discard(self._keys[key])
                self._box.flush()  # refuses if the file changed since it was read
            finally:
                self._box.unlock()
        except mailbox.Error as exc:
            raise MailSourceError(f"{self._path}: nothing deleted: {exc}") from None

    def close(self) -> None:
        # close() flushes what a refused delete left pending: refused again, and dropped
        # (the file itself is closed either way).
        with contextlib.suppress(mailbox.Error):
            self._box.close()
