"""A real IMAP server for tests: Debian's dovecot, on a free loopback port, TLS only.

`Dovecot(tmp_path)` writes its own configuration under `tmp_path` (nothing in /etc is
read or changed): a self-signed certificate made with `cryptography`, a passwd-file with
one user, and dovecot's runtime and state folders. It listens on 127.0.0.1 with implicit
TLS (imaps) and on a STARTTLS port, with `ssl = required` (no login before TLS), runs in
the foreground (`-F`) as a child of the test, and stops when the test ends.

Mail is a Maildir owned by a non-root user, since dovecot refuses uid 0: run by any
other user, every dovecot process and the Maildir (under `tmp_path`) belong to that
user; run as root (CI), the login and mail processes use the packaged `dovenull` and
`dovecot` users, and the Maildir lives in its own folder under the system temp dir
(the `dovecot` user cannot enter pytest's root-only `tmp_path`), removed on close.

`dovecot_binary()` finds the binary; `require_dovecot()` skips a test without it,
unless PBEM_REQUIRE_IMAP=1 (CI), where a missing dovecot fails the test.
"""

from __future__ import annotations

import datetime
import grp
import ipaddress
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

USER = "player"
PASSWORD = "s3cret-for-tests"
DOVECOT_PATHS = ("/usr/sbin/dovecot", "/usr/local/sbin/dovecot")


def dovecot_binary() -> str | None:
    found = shutil.which("dovecot")
    if found:
        return found
    return next((p for p in DOVECOT_PATHS if os.access(p, os.X_OK)), None)


def require_dovecot() -> str:
    """The dovecot binary; skip without it (fail instead when PBEM_REQUIRE_IMAP=1)."""
    binary = dovecot_binary()
    if binary is None:
        if os.environ.get("PBEM_REQUIRE_IMAP") == "1":
            pytest.fail("PBEM_REQUIRE_IMAP=1 but dovecot is not installed")
        pytest.skip("dovecot is not installed (apt-get install dovecot-imapd)")
    return binary


def free_port(*taken: int) -> int:
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if port not in taken:
            return port


def write_certificate(folder: Path, name: str = "localhost") -> tuple[Path, Path]:
    """A self-signed certificate for `name` and 127.0.0.1: (cert.pem, key.pem)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName(name), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    key_path.chmod(0o600)
    return cert_path, key_path


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


class Dovecot:
    """One dovecot instance; use as a context manager (it stops on exit)."""

    def __init__(self, root: Path, binary: str | None = None) -> None:
        self.binary = binary or require_dovecot()
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self.port = 0  # implicit TLS (imaps)
        self.starttls_port = 0
        # Mail belongs to a non-root user: see the module's docstring.
        self.mail_uid, self.mail_gid = os.getuid(), os.getgid()
        self._own_mail_root = False
        if os.getuid() == 0:
            if not _user_exists("dovecot"):
                raise RuntimeError("running dovecot as root needs its packaged 'dovecot' user")
            account = pwd.getpwnam("dovecot")
            self.mail_uid, self.mail_gid = account.pw_uid, account.pw_gid
            self.mail_root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-mail-"))
            os.chown(self.mail_root, self.mail_uid, self.mail_gid)
            self._own_mail_root = True
        else:
            self.mail_root = root / "mail"
            self.mail_root.mkdir(exist_ok=True)
        self.maildir = self.mail_root / USER
        self.ca_file, self._key_file = write_certificate(root)
        self._process: subprocess.Popen[bytes] | None = None
        # dovecot's unix sockets live under base_dir, and a socket path has at most 107
        # bytes: a deep tmp_path (pytest-xdist workers, a long TMPDIR) would not fit.
        self.run_dir = Path(tempfile.mkdtemp(prefix="pbd-", dir="/tmp"))

    # --- configuration --------------------------------------------------------------------

    def _config(self) -> str:
        me = pwd.getpwuid(os.getuid()).pw_name
        group = grp.getgrgid(os.getgid()).gr_name
        if os.getuid() == 0 and _user_exists("dovecot") and _user_exists("dovenull"):
            internal, login = "dovecot", "dovenull"
        else:
            internal = login = me
        run, state = self.run_dir, self.root / "state"
        for folder in (run, state):
            folder.mkdir(exist_ok=True)
        passwd = self.root / "passwd"
        passwd.write_text(f"{USER}:{{PLAIN}}{PASSWORD}:::::\n")
        log = self.root / "dovecot.log"
        # auth reads the passwd-file in tmp_path: it runs as the current user (root in CI).
        auth_user = f"  user = {me}\n"
        return f"""\
protocols = imap
listen = 127.0.0.1
base_dir = {run}
state_dir = {state}
instance_name = pbem-test-{self.port}
log_path = {log}
info_log_path = {log}
default_internal_user = {internal}
default_internal_group = {grp.getgrgid(pwd.getpwnam(internal).pw_gid).gr_name}
default_login_user = {login}
first_valid_uid = 0
first_valid_gid = 0
ssl = required
ssl_cert = <{self.ca_file}
ssl_key = <{self._key_file}
ssl_min_protocol = TLSv1.2
disable_plaintext_auth = yes
auth_mechanisms = plain login
mail_location = maildir:{self.mail_root}/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {passwd}
}}
userdb {{
  driver = static
  args = uid={self.mail_uid} gid={self.mail_gid} home={self.mail_root}/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.starttls_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
service stats {{
  chroot =
}}
service auth {{
{auth_user}  unix_listener auth-userdb {{
    user = {me}
    group = {group}
    mode = 0660
  }}
}}
service auth-worker {{
{auth_user}}}
"""

    # --- running --------------------------------------------------------------------------

    def start(self, timeout: float = 15.0) -> Dovecot:
        for _attempt in range(3):
            self.port = free_port()
            self.starttls_port = free_port(self.port)
            config = self.root / "dovecot.conf"
            config.write_text(self._config())
            with (self.root / "dovecot.out").open("ab") as out:
                self._process = subprocess.Popen(
                    [self.binary, "-F", "-c", str(config)],
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            if self._wait_ready(timeout):
                return self
            self.stop()
        raise RuntimeError(f"dovecot did not start:\n{self.log()}")

    def _wait_ready(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                return False
            ready = 0
            for port in (self.port, self.starttls_port):
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                        ready += 1
                except OSError:
                    pass
            if ready == 2:
                return True
            time.sleep(0.05)
        return False

    def log(self) -> str:
        """Dovecot's log and whatever it printed itself."""
        parts = []
        for name in ("dovecot.log", "dovecot.out"):
            path = self.root / name
            if path.exists():
                parts.append(path.read_text(errors="replace"))
        return "\n".join(parts)

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)

    def close(self) -> None:
        """Stop the server and remove a mail folder made outside `root`."""
        self.stop()
        shutil.rmtree(self.run_dir, ignore_errors=True)
        if self._own_mail_root:
            shutil.rmtree(self.mail_root, ignore_errors=True)
            self._own_mail_root = False

    def __enter__(self) -> Dovecot:
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
