"""The mail configuration (pbem/mail/config.py): defaults, passwords, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.config import MailConfigError, config_path, load_config


@pytest.fixture(autouse=True)
def _no_mail_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PBEM_SMTP_PASSWORD", "PBEM_IMAP_PASSWORD", "PBEM_MAIL_CONFIG"):
        monkeypatch.delenv(name, raising=False)


def write(home: Path, text: str, mode: int = 0o600) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    path = home / "mail.toml"
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def refused(home: Path, *fragments: str) -> str:
    with pytest.raises(MailConfigError) as caught:
        load_config(home)
    message = str(caught.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return message


def test_defaults(tmp_path: Path) -> None:
    write(
        tmp_path,
        'address = "alice@example.org"\n'
        '[smtp]\nhost = "smtp.example.org"\n'
        '[imap]\nhost = "imap.example.org"\n'
        '[maildir]\npath = "~/Maildir"\n',
    )
    config = load_config(tmp_path)
    assert config.path == tmp_path / "mail.toml"
    assert config.address == "alice@example.org" and config.name is None
    assert config.smtp is not None and config.imap is not None
    assert (config.smtp.host, config.smtp.port, config.smtp.security) == (
        "smtp.example.org",
        587,
        "starttls",
    )
    assert config.smtp.user is None and config.smtp.password is None
    assert config.smtp.ca_file is None
    assert (config.imap.port, config.imap.security, config.imap.folder) == (993, "ssl", "INBOX")
    assert config.maildir == Path("~/Maildir").expanduser()
    assert config.mbox is None


def test_default_ports_follow_security(tmp_path: Path) -> None:
    write(
        tmp_path,
        '[smtp]\nhost = "s"\nsecurity = "ssl"\n[imap]\nhost = "i"\nsecurity = "starttls"\n',
    )
    config = load_config(tmp_path)
    assert config.smtp is not None and config.smtp.port == 465
    assert config.imap is not None and config.imap.port == 143


def test_password_from_the_file_when_only_its_owner_can_read_it(tmp_path: Path) -> None:
    text = '[smtp]\nhost = "s"\nuser = "alice"\npassword = "from-file"\nca_file = "~/ca.pem"\n'
    write(tmp_path, text, 0o600)
    config = load_config(tmp_path)
    assert config.smtp is not None and config.smtp.password == "from-file"
    assert config.smtp.ca_file == Path("~/ca.pem").expanduser()
    for mode in (0o644, 0o640, 0o604):
        write(tmp_path, text, mode)
        refused(tmp_path, "others can read it", "chmod 600")


def test_a_password_others_can_read_is_refused_even_unused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "from-env")  # the file's password is not used
    write(tmp_path, '[smtp]\nhost = "s"\nuser = "alice"\npassword = "leaked"\n', 0o644)
    refused(tmp_path, "others can read it")
    write(tmp_path, '[smtp]\nhost = "s"\npassword = "leaked"\n', 0o644)  # and no user
    refused(tmp_path, "others can read it")


def test_password_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A world-readable file is fine when it holds no password.
    write(tmp_path, '[smtp]\nhost = "s"\nuser = "alice"\n', 0o644)
    config = load_config(tmp_path)  # asked for only when it is used (to log in)
    assert config.smtp is not None
    with pytest.raises(MailConfigError, match="no password for smtp user alice.*PBEM_SMTP_"):
        _ = config.smtp.password
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "from-env")
    config = load_config(tmp_path)
    assert config.smtp is not None and config.smtp.password == "from-env"
    # The environment wins over the file.
    write(tmp_path, '[smtp]\nhost = "s"\nuser = "alice"\npassword = "from-file"\n')
    config = load_config(tmp_path)
    assert config.smtp is not None and config.smtp.password == "from-env"


def test_password_env_names_another_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, '[imap]\nhost = "i"\nuser = "bob"\npassword_env = "MY_IMAP_PW"\n', 0o644)
    unset = load_config(tmp_path).imap
    assert unset is not None
    with pytest.raises(MailConfigError, match="MY_IMAP_PW"):
        _ = unset.password
    monkeypatch.setenv("MY_IMAP_PW", "hunter2")
    config = load_config(tmp_path)
    assert config.imap is not None and config.imap.password == "hunter2"


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ('[smtp]\nhost = "s"\nsecurity = "plain"\n', ("security must be", "plain text")),
        ('[smtp]\nhost = "s"\nsecurity = "none"\n', ("security must be",)),
        ('adress = "a@example.org"\n', ("unknown setting 'adress'",)),
        ('[smtp]\nhost = "s"\npasword = "x"\n', ("[smtp] unknown setting 'pasword'",)),
        ('[smtp]\nhost = "s"\nfolder = "INBOX"\n', ("unknown setting 'folder'",)),
        ("[smtp]\nport = 25\n", ("[smtp] needs a host",)),
        ('[smtp]\nhost = "s"\nport = 0\n', ("port must be",)),
        ('[smtp]\nhost = "s"\nport = "587"\n', ("port must be",)),
        ('[smtp]\nhost = "s"\nport = true\n', ("port must be",)),
        ('address = "alice"\n', ("not an email address",)),
        ('address = ""\n', ("address must be a non-empty string",)),
        ('smtp = "s"\n', ("[smtp] must be a table",)),
        ("[maildir]\n", ("[maildir] needs a path",)),
        ("address = \n", ("not valid TOML",)),
    ],
)
def test_bad_settings_are_one_line_errors(
    tmp_path: Path, text: str, fragments: tuple[str, ...]
) -> None:
    write(tmp_path, text)
    refused(tmp_path, str(tmp_path / "mail.toml"), *fragments)


def test_where_the_file_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    refused(home, "no mail configuration at", str(home / "mail.toml"))
    other = write(tmp_path / "elsewhere", 'address = "env@example.org"\n')
    monkeypatch.setenv("PBEM_MAIL_CONFIG", str(other))
    assert config_path(home) == other
    assert load_config(home).address == "env@example.org"
    explicit = write(tmp_path / "explicit", 'address = "flag@example.org"\n')
    assert load_config(home, explicit).address == "flag@example.org"  # --config wins
