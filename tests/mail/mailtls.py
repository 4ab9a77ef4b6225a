"""A real SMTP server on loopback for mail tests: aiosmtpd with TLS and AUTH.

    from tests.mail.mailtls import smtp_server

    with smtp_server(tmp_path, mode="starttls") as server:   # or mode="ssl"
        server.write_config(home, "alice@example.org")        # home/mail.toml, mode 0600
        ... `pbem --home HOME mail send GAME --to bob@example.org` ...
        [received] = server.messages                          # Received: envelope + bytes

The certificate is made fresh per server: a self-signed CA (`server.ca_file`) and a
server certificate for 127.0.0.1 and localhost signed by it. The server requires
TLS (STARTTLS before anything else, or implicit TLS from the first byte) and a login
(`server.user` / `server.password`, offered only over TLS); recipients in
`refuse` are refused with 550.
"""

from __future__ import annotations

import asyncio
import datetime
import email
import email.policy
import ipaddress
import ssl
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HOST = "127.0.0.1"
MODES = ("starttls", "ssl")


@dataclass(frozen=True)
class Received:
    """One message the server accepted: its envelope, its bytes, and how it came in."""

    mail_from: str
    rcpt_tos: tuple[str, ...]
    data: bytes
    tls: bool  # the connection was encrypted when the message came
    login: str | None  # the user that logged in, if any

    @property
    def message(self) -> EmailMessage:
        parsed = email.message_from_bytes(self.data, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        return parsed


@dataclass(frozen=True)
class Certificates:
    ca_file: Path  # the CA certificate, PEM: what a client must trust
    cert_file: Path  # the server certificate, PEM
    key_file: Path  # the server key, PEM


def make_certificates(folder: Path, names: Iterable[str] = ("localhost",)) -> Certificates:
    """A self-signed CA and a server certificate it signed, for 127.0.0.1 and `names`."""
    folder.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.UTC)
    valid_from, valid_to = now - datetime.timedelta(days=1), now + datetime.timedelta(days=2)

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pbem test CA")])
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(valid_from)
        .not_valid_after(valid_to)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )

    key = ec.generate_private_key(ec.SECP256R1())
    alt_names: list[x509.GeneralName] = [x509.IPAddress(ipaddress.ip_address(HOST))]
    alt_names += [x509.DNSName(name) for name in names]
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(valid_from)
        .not_valid_after(valid_to)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.SubjectAlternativeName(alt_names), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )

    paths = Certificates(folder / "ca.pem", folder / "server.pem", folder / "server.key")
    paths.ca_file.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    paths.cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths.key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    paths.key_file.chmod(0o600)
    return paths


class _Handler:
    """aiosmtpd hooks: refuse some recipients, keep every accepted message."""

    def __init__(self, messages: list[Received], refuse: frozenset[str]) -> None:
        self.messages = messages
        self.refuse = refuse
        self.lock = threading.Lock()

    async def handle_MAIL(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        mail_options: list[str],
    ) -> str:
        if not session.authenticated:
            return "530 5.7.0 Authentication required"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if address.lower() in self.refuse:
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or envelope.content or b""
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        transport = server.transport
        tls = transport is not None and transport.get_extra_info("ssl_object") is not None
        login = None
        if isinstance(session.auth_data, LoginPassword):
            login = session.auth_data.login.decode("utf-8", "replace")
        received = Received(
            mail_from=str(envelope.mail_from),
            rcpt_tos=tuple(envelope.rcpt_tos),
            data=data,
            tls=tls,
            login=login,
        )
        with self.lock:
            self.messages.append(received)
        return "250 2.0.0 accepted"


class _Controller(Controller):
    """Listens on a free port chosen by the system (port 0), then learns which."""

    def _trigger_server(self) -> None:
        assert isinstance(self.server, asyncio.Server)
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


@dataclass
class MailServer:
    """A running server: where it listens, what to trust, who may log in, what came."""

    mode: str
    port: int
    ca_file: Path
    user: str
    password: str
    host: str = HOST
    messages: list[Received] = field(default_factory=list)

    def write_config(
        self,
        home: Path,
        address: str,
        *,
        name: str | None = None,
        user: str | None = None,
        password: str | None = None,
        password_env: str | None = None,
        ca_file: Path | None | bool = True,
        extra: str = "",
    ) -> Path:
        """Write `home/mail.toml` (mode 0600) for sending through this server.

        By default it logs in as the server's user with its password written in the file.
        `password_env`: name the variable to read the password from instead (none in the
        file). `ca_file`: True trusts this server's CA, False or None leaves the system
        CAs only (this server is then untrusted), a path trusts that file. `extra` is
        appended as is (say an [imap] section).
        """
        home.mkdir(parents=True, exist_ok=True)
        lines = [f'address = "{address}"']
        if name is not None:
            lines.append(f'name = "{name}"')
        lines += [
            "",
            "[smtp]",
            f'host = "{self.host}"',
            f"port = {self.port}",
            f'security = "{self.mode}"',
            f'user = "{user if user is not None else self.user}"',
        ]
        if password_env is not None:
            lines.append(f'password_env = "{password_env}"')
        else:
            lines.append(f'password = "{password if password is not None else self.password}"')
        trusted = self.ca_file if ca_file is True else ca_file or None
        if isinstance(trusted, Path):
            lines.append(f'ca_file = "{trusted}"')
        text = "\n".join(lines) + "\n" + (f"\n{extra}\n" if extra else "")
        path = home / "mail.toml"
        path.write_text(text, encoding="utf-8")
        path.chmod(0o600)
        return path


@contextmanager
def smtp_server(
    tmp_path: Path,
    mode: str = "starttls",
    *,
    user: str = "player",
    password: str = "s3cret-pass",
    refuse: Iterable[str] = (),
) -> Iterator[MailServer]:
    """Run an SMTP server on a free loopback port for the length of the block.

    mode "starttls": plain connection that must STARTTLS before anything else;
    mode "ssl": TLS from the first byte. Either way AUTH (PLAIN, LOGIN) is offered only
    over TLS and required before MAIL FROM; only `user` / `password` is accepted.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    certs = make_certificates(tmp_path / f"smtp-{mode}-tls")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certs.cert_file, certs.key_file)
    messages: list[Received] = []
    handler = _Handler(messages, frozenset(a.lower() for a in refuse))

    def authenticator(
        server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
    ) -> AuthResult:
        good = isinstance(auth_data, LoginPassword) and (
            auth_data.login == user.encode() and auth_data.password == password.encode()
        )
        if not good:  # handled=False: aiosmtpd itself answers 535
            return AuthResult(success=False, handled=False)
        return AuthResult(success=True, auth_data=auth_data)

    options: dict[str, Any] = {"authenticator": authenticator, "server_hostname": "localhost"}
    if mode == "starttls":
        options.update(
            tls_context=context, require_starttls=True, auth_required=True, auth_require_tls=True
        )
    else:
        # The whole connection is TLS, but aiosmtpd counts only STARTTLS as TLS for
        # AUTH: its own checks are off here, and the handler's MAIL hook refuses anyone
        # who has not logged in (a plain-text client cannot even connect).
        options.update(ssl_context=context, auth_required=False, auth_require_tls=False)
    controller = _Controller(handler, hostname=HOST, port=0, **options)
    controller.start()
    try:
        yield MailServer(
            mode=mode,
            port=controller.port,
            ca_file=certs.ca_file,
            user=user,
            password=password,
            messages=messages,
        )
    finally:
        controller.stop()
