"""Where `pbem mail fetch` reads messages: an IMAP folder over TLS, a Maildir or an mbox.

Every source gives (key, raw bytes) for each message in mailbox order, changes nothing
while reading (IMAP: EXAMINE and BODY.PEEK[], so no flag is set; Maildir and mbox:
Python's `mailbox`, read only), and deletes messages by key only when asked.
"""

from __future__ import annotations

import contextlib
import imaplib
import mailbox
import re
import ssl
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Protocol

from pbem.mail import MAX_MESSAGE_BYTES
from pbem.mail.config import ServerConfig
from pbem.transport.mailboxes import (
    Closing,
    MaildirSource,
    MailSourceError,
    MboxSource,
    _maildir_order,
)

TIMEOUT = 60.0  # seconds for any one network operation


class Source(Protocol):
    name: str

    def messages(self) -> Iterator[tuple[str, bytes]]:
        """(key, raw RFC 5322 bytes) of every message, in mailbox order."""
        ...

    def delete(self, keys: Sequence[str]) -> None:
        """Remove these messages (and no other)."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Source: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None: ...


# --- IMAP ---------------------------------------------------------------------------------


def _imap_text(value: object) -> str:
    """An IMAP error or response as one readable line."""
    if isinstance(value, list | tuple) and value:
        value = value[-1]
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    text = " ".join(str(value).split())
    # imaplib's own errors quote the server's bytes: "b'[AUTHENTICATIONFAILED] ...'".
    match = re.fullmatch(r"b(['\"])(.*)\1", text)
    return match.group(2) if match else text


def _quote_mailbox(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


class ImapSource(Closing):
    """One IMAP folder, read with EXAMINE (read only) unless messages are to be deleted."""

    def __init__(self, server: ServerConfig, writable: bool = False, select: bool = True) -> None:
        if server.user is None or server.password is None:
            raise MailSourceError("[imap] needs a user (and its password) to log in")
        self.server = server
        self.name = f"IMAP {server.user}@{server.host}:{server.port}/{server.folder}"
        self._writable = writable
        self._conn = self._connect()
        try:
            self._login()
            if select:
                self._select()
        except BaseException:
            self.close()
            raise

    def exists(self, folder: str) -> bool:
        """Whether the account has a folder of that name (LIST)."""
        try:
            status, data = self._conn.list('""', _quote_mailbox(folder))
        except (imaplib.IMAP4.error, OSError) as exc:
            raise MailSourceError(f"IMAP LIST at {self._where()} failed: {exc}") from None
        return status == "OK" and any(part for part in data if part)

    def append(self, folder: str, raw: bytes) -> None:
        """File a message in `folder`, marked read (what a mail client does with what it
        sent); the folder is made first when the server says it does not exist."""
        when = imaplib.Time2Internaldate(time.time())
        for attempt in (1, 2):
            try:
                status, data = self._conn.append(_quote_mailbox(folder), "(\\Seen)", when, raw)
            except (imaplib.IMAP4.error, OSError) as exc:
                raise MailSourceError(f"IMAP APPEND at {self._where()} failed: {exc}") from None
            if status == "OK":
                return
            if attempt == 1 and "TRYCREATE" in _imap_text(data).upper():
                with contextlib.suppress(imaplib.IMAP4.error, OSError):
                    self._conn.create(_quote_mailbox(folder))
                continue
            raise MailSourceError(
                f"IMAP APPEND to folder {folder!r} at {self._where()} failed: {_imap_text(data)}"
            )

    def _where(self) -> str:
        return f"{self.server.host}:{self.server.port}"

    def _connect(self) -> imaplib.IMAP4:
        server = self.server
        ca = str(server.ca_file) if server.ca_file else None
        try:
            context = ssl.create_default_context(cafile=ca)
        except (OSError, ssl.SSLError) as exc:
            raise MailSourceError(f"cannot read the IMAP ca_file {ca}: {exc}") from None
        try:
            if server.security == "ssl":
                return imaplib.IMAP4_SSL(
                    server.host, server.port, ssl_context=context, timeout=TIMEOUT
                )
            conn = imaplib.IMAP4(server.host, server.port, timeout=TIMEOUT)
            try:
                conn.starttls(ssl_context=context)
            except BaseException:
                with contextlib.suppress(OSError):
                    conn.shutdown()
                raise
            return conn
        except ssl.SSLCertVerificationError as exc:
            raise MailSourceError(
                f"the IMAP server {self._where()} has a certificate this machine does not "
                f"trust ({exc.verify_message}); if it uses a private CA, set ca_file in [imap]"
            ) from None
        except ssl.SSLError as exc:
            raise MailSourceError(
                f"TLS with the IMAP server {self._where()} failed: {exc.reason or exc}"
            ) from None
        except imaplib.IMAP4.error as exc:
            raise MailSourceError(
                f"the IMAP server {self._where()} refused STARTTLS: {_imap_text(exc.args)}"
            ) from None
        except TimeoutError:
            raise MailSourceError(f"the IMAP server {self._where()} did not answer") from None
        except OSError as exc:
            raise MailSourceError(
                f"cannot connect to the IMAP server {self._where()}: {exc.strerror or exc}"
            ) from None

    def _login(self) -> None:
        assert self.server.user is not None and self.server.password is not None
        try:
            self._conn.login(self.server.user, self.server.password)
        except imaplib.IMAP4.error as exc:
            raise MailSourceError(
                f"IMAP login as {self.server.user} at {self._where()} failed: "
                f"{_imap_text(exc.args)}"
            ) from None
        except OSError as exc:
            raise MailSourceError(f"IMAP connection to {self._where()} lost: {exc}") from None

    def _select(self) -> None:
        folder = self.server.folder
        try:
            status, data = self._conn.select(_quote_mailbox(folder), readonly=not self._writable)
        except (imaplib.IMAP4.error, OSError) as exc:
            raise MailSourceError(f"cannot open IMAP folder {folder!r}: {exc}") from None
        if status != "OK":
            raise MailSourceError(f"cannot open IMAP folder {folder!r}: {_imap_text(data)}")

    def _command(self, *args: str) -> list[object]:
        try:
            status, data = self._conn.uid(*args)
        except (imaplib.IMAP4.error, OSError) as exc:
            raise MailSourceError(f"IMAP {args[0]} at {self._where()} failed: {exc}") from None
        if status != "OK":
            raise MailSourceError(f"IMAP {args[0]} at {self._where()} failed: {_imap_text(data)}")
        return list(data)

    def messages(self) -> Iterator[tuple[str, bytes]]:
        found = self._command("SEARCH", "ALL")
        uids = b" ".join(part for part in found if isinstance(part, bytes)).split()
        for uid in sorted(int(u) for u in uids):
            raw = self._fetch(str(uid))
            if raw is not None:
                yield str(uid), raw
            del raw  # (before the next message is read: one in memory at a time)

    def _fetch(self, uid: str) -> bytes | None:
        # BODY.PEEK[] returns the message and, unlike BODY[], sets no \Seen flag; <0.N>
        # stops at one byte past the size a fetch accepts, which refuses the message.
        limit = MAX_MESSAGE_BYTES + 1
        for part in self._command("FETCH", uid, f"(BODY.PEEK[]<0.{limit}>)"):
            if isinstance(part, tuple) and len(part) == 2 and isinstance(part[1], bytes):
                return part[1]
        return None  # expunged meanwhile

    def delete(self, keys: Sequence[str]) -> None:
        """Flag the messages \\Deleted and expunge exactly them (UID EXPUNGE, RFC 4315).

        Without UIDPLUS a plain EXPUNGE would also remove whatever else the player had
        flagged for deletion, so the messages are then only flagged.
        """
        if not keys:
            return
        if not self._writable:
            raise MailSourceError("the IMAP folder was opened read only")
        uid_set = ",".join(keys)
        self._command("STORE", uid_set, "+FLAGS.SILENT", "(\\Deleted)")
        if "UIDPLUS" in self._capabilities():
            self._command("EXPUNGE", uid_set)

    def _capabilities(self) -> set[str]:
        try:
            status, data = self._conn.capability()
        except (imaplib.IMAP4.error, OSError):
            return set()
        words = b" ".join(d for d in data if isinstance(d, bytes)).decode(errors="replace")
        return set(words.upper().split()) if status == "OK" else set()

    def close(self) -> None:
        conn = getattr(self, "_conn", None)
        if conn is None:
            return
        self._conn = None  # type: ignore[assignment]
        try:
            # LOGOUT only: CLOSE on a folder opened read-write would expunge every
            # message flagged \Deleted, the player's own included.
            conn.logout()
        except (imaplib.IMAP4.error, OSError):
            with contextlib.suppress(OSError):
                conn.shutdown()


# --- Maildir and mbox, one copy of a message at a time ------------------------------------


class _Readable(Protocol):
    def read(self) -> bytes: ...


def _whole(stream: _Readable) -> bytes:
    """A message file's bytes, as `mailbox`'s get_bytes gives them (the platform's line
    ends made LF) but with no second copy where that changes nothing (LF already)."""
    data = stream.read()
    return data if mailbox.linesep == b"\n" else data.replace(mailbox.linesep, b"\n")


class MaildirReader(MaildirSource):
    """A Maildir read for `pbem mail fetch`: as MaildirSource reads it, each message read
    once into memory and let go once the next is asked for (a mail of moves may be
    megabytes: the fetch then holds one, not two or three)."""

    def messages(self) -> Iterator[tuple[str, bytes]]:
        for key in sorted(self._box.keys(), key=_maildir_order):
            try:
                with self._box.get_file(key) as stream:
                    raw = _whole(stream)
            except KeyError:
                continue  # removed by a mail client meanwhile
            yield key, raw
            del raw


class MboxReader(MboxSource):
    """An mbox read for `pbem mail fetch`, one copy of a message at a time (MaildirReader)."""

    def messages(self) -> Iterator[tuple[str, bytes]]:
        for name, key in self._keys.items():
            with self._box.get_file(key) as stream:
                raw = _whole(stream)
            yield name, raw
            del raw


def open_source(
    *,
    imap: ServerConfig | None = None,
    maildir: Path | None = None,
    mbox: Path | None = None,
    writable: bool = False,
) -> Source:
    """The one source named (the IMAP server, a Maildir or an mbox)."""
    named = [s for s in (imap, maildir, mbox) if s is not None]
    if len(named) != 1:
        raise MailSourceError("name exactly one mailbox: IMAP, a Maildir or an mbox")
    if imap is not None:
        return ImapSource(imap, writable=writable)
    if maildir is not None:
        return MaildirReader(maildir)
    assert mbox is not None
    return MboxReader(mbox)
