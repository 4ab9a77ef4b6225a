"""The mail configuration: where to send from and where to read from.

A TOML file, `mail.toml` in the pbem home (or the path in PBEM_MAIL_CONFIG, or
`--config`). Passwords never come from the command line: they come from the
environment (PBEM_SMTP_PASSWORD, PBEM_IMAP_PASSWORD, or the variable named by
`password_env`), or from the file itself, which must then be readable by its owner only.

    address = "alice@example.org"     # your From address
    name = "Alice"                    # optional display name

    [smtp]
    host = "smtp.example.org"
    port = 587                        # default: 587 for starttls, 465 for ssl
    security = "starttls"             # or "ssl"; there is no plain-text mode
    user = "alice@example.org"        # optional: no login without it
    password_env = "PBEM_SMTP_PASSWORD"   # the default
    ca_file = "/path/to/ca.pem"       # optional: trust this CA (a private server)

    [imap]
    host = "imap.example.org"
    port = 993                        # default: 993 for ssl, 143 for starttls
    security = "ssl"                  # or "starttls"
    user = "alice@example.org"
    password_env = "PBEM_IMAP_PASSWORD"
    folder = "INBOX"
    sent = "Sent"                     # optional: your sent mail (see below)
    ca_file = "/path/to/ca.pem"

    [maildir]
    path = "~/Maildir"

    [mbox]
    path = "~/mail/pbem.mbox"

`[imap] sent` names the IMAP folder of your sent mail (as your mail client calls it:
"Sent", "Sent Items", "[Gmail]/Sent Mail"). SMTP keeps no copy of what it sends, so
`pbem mail send` files each message there itself (IMAP APPEND, marked read), and
`pbem mail fetch` reads it before the inbox and relearns what your keys signed and sent,
so that a store and state folder restored from a backup (a whole machine) learn what they
already sent before they sign again (protocol section 8; pbem/mail/sent.py).
"""

from __future__ import annotations

import os
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import PbemError

CONFIG_NAME = "mail.toml"
SECURITY = ("starttls", "ssl")
DEFAULT_PORTS = {
    ("smtp", "starttls"): 587,
    ("smtp", "ssl"): 465,
    ("imap", "starttls"): 143,
    ("imap", "ssl"): 993,
}


class MailConfigError(PbemError):
    """A mail configuration that is missing, unreadable or incomplete."""


@dataclass(frozen=True)
class ServerConfig:
    """An SMTP or IMAP server; `password` is None when no login is configured.

    The password is looked up only when it is read (at login): a command that does not
    talk to this server (a fetch from a Maildir, `mail send --dry-run`) never needs it.
    """

    kind: str  # "smtp" or "imap"
    host: str
    port: int
    security: str  # "starttls" or "ssl"
    user: str | None
    ca_file: Path | None
    folder: str = "INBOX"  # IMAP only
    sent: str | None = None  # IMAP only: the folder of the user's sent mail, if configured
    password_env: str = ""  # the environment variable that holds the password
    file_password: str | None = None  # `password` of the (owner-only) file, if any
    config_path: Path = Path(CONFIG_NAME)

    @property
    def password(self) -> str | None:
        """The login password (environment first, then file); None without a user."""
        if self.user is None:
            return None
        if os.environ.get(self.password_env):
            return os.environ[self.password_env]
        if self.file_password is None:
            raise MailConfigError(
                f"no password for {self.kind} user {self.user}: set {self.password_env} in "
                f"the environment (or password in {self.config_path}, readable by you only)"
            )
        return self.file_password


@dataclass(frozen=True)
class MailConfig:
    path: Path
    address: str | None
    name: str | None
    smtp: ServerConfig | None
    imap: ServerConfig | None
    maildir: Path | None
    mbox: Path | None


def config_path(home: Path, explicit: str | Path | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get("PBEM_MAIL_CONFIG"):
        return Path(os.environ["PBEM_MAIL_CONFIG"]).expanduser()
    return home / CONFIG_NAME


def load_config(home: Path, explicit: str | Path | None = None) -> MailConfig:
    """Read and check the mail configuration; one MailConfigError line if it is wrong."""
    path = config_path(home, explicit)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise MailConfigError(
            f"no mail configuration at {path} (see `pbem mail --help` and the README)"
        ) from None
    except OSError as exc:
        raise MailConfigError(f"{path}: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise MailConfigError(f"{path}: not valid TOML ({exc})") from exc
    return _parse(path, data)


def _parse(path: Path, data: dict[str, Any]) -> MailConfig:
    known = {"address", "name", "smtp", "imap", "maildir", "mbox"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise MailConfigError(f"{path}: unknown setting {unknown[0]!r}")
    address = _opt_str(path, data, "address")
    if address is not None and "@" not in address:
        raise MailConfigError(f"{path}: address {address!r} is not an email address")
    return MailConfig(
        path=path,
        address=address,
        name=_opt_str(path, data, "name"),
        smtp=_server(path, data, "smtp"),
        imap=_server(path, data, "imap"),
        maildir=_folder(path, data, "maildir"),
        mbox=_folder(path, data, "mbox"),
    )


def _opt_str(path: Path, table: dict[str, Any], key: str, where: str = "") -> str | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise MailConfigError(f"{path}: {where}{key} must be a non-empty string")
    return value.strip()


def _table(path: Path, data: dict[str, Any], kind: str) -> dict[str, Any] | None:
    """The file's [kind] table, None when it has none."""
    table = data.get(kind)
    if table is not None and not isinstance(table, dict):
        raise MailConfigError(f"{path}: [{kind}] must be a table")
    return table


def _folder(path: Path, data: dict[str, Any], kind: str) -> Path | None:
    table = _table(path, data, kind)
    if table is None:
        return None
    value = _opt_str(path, table, "path", f"[{kind}] ")
    if value is None:
        raise MailConfigError(f"{path}: [{kind}] needs a path")
    return Path(value).expanduser()


def _server(path: Path, data: dict[str, Any], kind: str) -> ServerConfig | None:
    table = _table(path, data, kind)
    if table is None:
        return None
    where = f"[{kind}] "
    allowed = {"host", "port", "security", "user", "password", "password_env", "ca_file"}
    if kind == "imap":
        allowed |= {"folder", "sent"}
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise MailConfigError(f"{path}: {where}unknown setting {unknown[0]!r}")
    host = _opt_str(path, table, "host", where)
    if host is None:
        raise MailConfigError(f"{path}: {where}needs a host")
    security = table.get("security", "starttls" if kind == "smtp" else "ssl")
    if security not in SECURITY:
        raise MailConfigError(
            f"{path}: {where}security must be 'starttls' or 'ssl' (mail is never sent "
            "or read in plain text)"
        )
    port = table.get("port", DEFAULT_PORTS[(kind, security)])
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise MailConfigError(f"{path}: {where}port must be a number from 1 to 65535")
    user = _opt_str(path, table, "user", where)
    if "password" in table:
        _check_private(path)  # even when unused: a password others can read has leaked
    ca = _opt_str(path, table, "ca_file", where)
    folder = _opt_str(path, table, "folder", where) or "INBOX"
    sent = _opt_str(path, table, "sent", where)
    if sent is not None and sent == folder:
        raise MailConfigError(
            f"{path}: {where}sent names the folder read for moves ({folder!r}): name the "
            "folder of your sent mail"
        )
    return ServerConfig(
        kind=kind,
        host=host,
        port=port,
        security=security,
        user=user,
        ca_file=Path(ca).expanduser() if ca else None,
        folder=folder,
        sent=sent,
        password_env=_opt_str(path, table, "password_env", where)
        or f"PBEM_{kind.upper()}_PASSWORD",
        file_password=_file_password(path, table, kind),
        config_path=path,
    )


def _file_password(path: Path, table: dict[str, Any], kind: str) -> str | None:
    value = table.get("password")
    if value is not None and not isinstance(value, str):
        raise MailConfigError(f"{path}: [{kind}] password must be a string")
    return value


def _check_private(path: Path) -> None:
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise MailConfigError(f"{path} holds a password but others can read it: chmod 600 {path}")
