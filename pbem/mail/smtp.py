"""Handing a message to an SMTP server: TLS always (STARTTLS or implicit), the server verified.

Every failure (no connection, TLS, an untrusted certificate, a refused login, sender or
recipient) is one SendError line; when `send` returns, the server has accepted the
message for every recipient.
"""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Sequence
from email.message import EmailMessage

from pbem.errors import PbemError
from pbem.mail.config import ServerConfig

TIMEOUT = 30.0  # seconds, per network operation


class SendError(PbemError):
    """The SMTP server could not be reached, or did not accept the message."""


def tls_context(server: ServerConfig) -> ssl.SSLContext:
    """A client context that verifies the server's certificate and host name.

    The system's trusted CAs, or only the one in `ca_file` when it is set.
    """
    cafile = str(server.ca_file) if server.ca_file is not None else None
    try:
        return ssl.create_default_context(cafile=cafile)
    except (OSError, ssl.SSLError) as exc:
        raise SendError(f"cannot read the CA file {cafile}: {_reason(exc)}") from exc


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return exc.verify_message or str(exc)
    if isinstance(exc, smtplib.SMTPResponseException):
        text = exc.smtp_error
        detail = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
        return f"{exc.smtp_code} {' '.join(detail.split())}".strip()
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return " ".join(str(exc).split()) or type(exc).__name__


def _connect(server: ServerConfig, context: ssl.SSLContext, timeout: float) -> smtplib.SMTP:
    where = f"{server.host}:{server.port}"
    try:
        if server.security == "ssl":
            return smtplib.SMTP_SSL(server.host, server.port, timeout=timeout, context=context)
        client = smtplib.SMTP(server.host, server.port, timeout=timeout)
    except ssl.SSLCertVerificationError as exc:
        raise _untrusted(server, exc) from exc
    except ssl.SSLError as exc:
        raise SendError(f"TLS with the SMTP server {where} failed: {_reason(exc)}") from exc
    except (OSError, smtplib.SMTPException) as exc:
        raise SendError(f"cannot connect to the SMTP server {where}: {_reason(exc)}") from exc
    try:
        client.ehlo()
        if not client.has_extn("starttls"):
            raise SendError(
                f"the SMTP server {where} does not offer STARTTLS "
                '(mail is never sent in plain text; try security = "ssl")'
            )
        client.starttls(context=context)
        client.ehlo()
    except ssl.SSLCertVerificationError as exc:
        client.close()
        raise _untrusted(server, exc) from exc
    except (OSError, smtplib.SMTPException) as exc:
        client.close()
        raise SendError(f"STARTTLS with the SMTP server {where} failed: {_reason(exc)}") from exc
    except SendError:
        client.close()
        raise
    return client


def _untrusted(server: ServerConfig, exc: ssl.SSLCertVerificationError) -> SendError:
    hint = "" if server.ca_file else " (for a private server, set ca_file in [smtp])"
    return SendError(
        f"the SMTP server {server.host}:{server.port} has a certificate that is not "
        f"trusted: {_reason(exc)}{hint}"
    )


def send(
    server: ServerConfig,
    message: EmailMessage,
    sender: str,
    recipients: Sequence[str],
    timeout: float = TIMEOUT,
) -> None:
    """Hand `message` to the server (envelope from `sender` to `recipients`).

    Returns only when the server has accepted it for every recipient.
    """
    password = server.password  # looked up now: a missing one fails before connecting
    context = tls_context(server)
    client = _connect(server, context, timeout)
    where = f"{server.host}:{server.port}"
    try:
        if server.user is not None:
            try:
                client.login(server.user, password or "")
            except smtplib.SMTPAuthenticationError as exc:
                raise SendError(
                    f"the SMTP server {where} refused the login of {server.user}: {_reason(exc)}"
                ) from exc
            except smtplib.SMTPNotSupportedError as exc:
                raise SendError(f"the SMTP server {where} offers no login (AUTH)") from exc
        try:
            refused = client.send_message(message, from_addr=sender, to_addrs=list(recipients))
        except smtplib.SMTPRecipientsRefused as exc:
            who = ", ".join(
                f"{address} ({_reason(smtplib.SMTPResponseException(code, text))})"
                for address, (code, text) in exc.recipients.items()
            )
            raise SendError(f"the SMTP server {where} refused the recipient {who}") from exc
        except smtplib.SMTPSenderRefused as exc:
            raise SendError(
                f"the SMTP server {where} refused the sender {sender}: {_reason(exc)}"
            ) from exc
        except smtplib.SMTPDataError as exc:
            raise SendError(f"the SMTP server {where} refused the message: {_reason(exc)}") from exc
        if refused:
            # Accepted for some recipients only: report it as a failure, so nothing is
            # recorded as sent and the player can send again.
            raise SendError(
                f"the SMTP server {where} refused the recipient " + ", ".join(sorted(refused))
            )
    except SendError:
        client.close()
        raise
    except (OSError, smtplib.SMTPException) as exc:
        client.close()
        raise SendError(f"sending through the SMTP server {where} failed: {_reason(exc)}") from exc
    try:
        client.quit()
    except (OSError, smtplib.SMTPException):
        client.close()  # the message is accepted already: a failed goodbye changes nothing
