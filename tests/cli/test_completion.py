"""Shell completion (click's, README: Scripting): GAME arguments complete the stored game
ids of the store the command would use (--home, PBEM_HOME), an absent store completes
nothing and is not created, and the commands' start stays light."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.store import Store

ROOT = Path(__file__).resolve().parents[2]

# As the installed `pbem` script runs: pbem.cli's main, with the program name `pbem`
# (click's completion variable is then _PBEM_COMPLETE).
PROBE = """
import sys
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
main()
"""

GAMES = [
    ("1e4973a1288d" + "0" * 52, "barbarossa", "Operation Barbarossa"),
    ("1e4973a1288d" + "1" * 52, "race-to-berlin", "Race to Berlin"),  # same 12 digits
    ("7f0c22aa9b31" + "2" * 52, "berlin-1945", "Berlin 1945"),
]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A store holding three games (rows only: completion reads no more than the ids)."""
    folder = tmp_path / "store"
    store = Store(folder)
    for game_id, rules, title in GAMES:
        store.db["games"].insert({"id": game_id, "rules": rules, "title": title})
    return folder


def complete(
    words: str, shell: str = "bash", home: Path | None = None, **env: str
) -> tuple[int, list[str]]:
    """Ask for completions as the shell's script does: the words typed so far (the last
    one possibly empty), the index of the word being completed."""
    environ = dict(os.environ)
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environ.get("PYTHONPATH")]))
    if home is not None:
        environ["PBEM_HOME"] = str(home)
    environ.update(env)
    split = words.split(" ")
    # bash and zsh pass the index of the word being completed, fish the word itself.
    current = split[-1] if shell == "fish" else str(len(split) - 1)
    environ.update(_PBEM_COMPLETE=f"{shell}_complete", COMP_WORDS=words, COMP_CWORD=current)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=environ
    )
    assert done.stderr == "", done.stderr
    return done.returncode, [line for line in done.stdout.splitlines() if line]


def test_show_completes_stored_game_ids(home: Path) -> None:
    code, lines = complete("pbem show ", home=home)
    assert code == 0
    # 12 digits name one game, as `pbem show` lists them; two games that share them get
    # their full ids.
    assert lines == [f"plain,{GAMES[0][0]}", f"plain,{GAMES[1][0]}", "plain,7f0c22aa9b31"]
    assert complete("pbem show 7f", home=home)[1] == ["plain,7f0c22aa9b31"]
    assert complete("pbem show 7F", home=home)[1] == ["plain,7f0c22aa9b31"]
    assert complete("pbem show 1e4973a1288d1", home=home)[1] == [f"plain,{GAMES[1][0]}"]
    assert complete("pbem show ff", home=home)[1] == []


def test_more_than_twelve_digits_complete_to_the_full_id(home: Path) -> None:
    assert complete("pbem show 7f0c22aa9b312", home=home)[1] == [f"plain,{GAMES[2][0]}"]


def test_zsh_and_fish_show_the_rules_and_title(home: Path) -> None:
    assert complete("pbem show 7f", "zsh", home=home)[1] == [
        "plain",
        "7f0c22aa9b31",
        "berlin-1945: Berlin 1945",
    ]
    assert complete("pbem show 7f", "fish", home=home)[1] == [
        "plain,7f0c22aa9b31\tberlin-1945: Berlin 1945"
    ]


def test_home_option_and_environment_name_the_store(home: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    # --home wins over PBEM_HOME, as it does for the command itself.
    assert complete(f"pbem --home {home} show 7f", home=other)[1] == ["plain,7f0c22aa9b31"]
    assert complete("pbem show 7f", home=other)[1] == []
    assert not other.exists()  # completing never creates a store


def test_without_a_store_nothing_is_completed_nor_created(tmp_path: Path) -> None:
    missing = tmp_path / "no store"
    code, lines = complete("pbem show ", home=missing)
    assert (code, lines) == (0, [])
    assert not missing.exists()
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "store.db").write_bytes(b"not a database at all" * 100)
    assert complete("pbem show ", home=tmp_path / "broken") == (0, [])
    env = {k: v for k, v in os.environ.items() if k != "PBEM_HOME"}
    env.update(XDG_DATA_HOME=str(tmp_path / "xdg"))  # the default store: absent too
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env={
            **env,
            "PYTHONPATH": str(ROOT),
            "_PBEM_COMPLETE": "bash_complete",
            "COMP_WORDS": "pbem show ",
            "COMP_CWORD": "2",
        },
    )
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "", "")
    assert not (tmp_path / "xdg").exists()


@pytest.mark.parametrize(
    "command",
    ["show", "move", "ack", "join", "export", "render", "cards", "replay", "mail send"],
)
def test_every_command_taking_a_game_completes_it(home: Path, command: str) -> None:
    assert complete(f"pbem {command} 7f", home=home)[1] == ["plain,7f0c22aa9b31"]


@pytest.mark.parametrize("command", ["render", "cards", "replay"])
def test_a_game_or_a_save_completes_files_when_no_game_matches(home: Path, command: str) -> None:
    assert complete(f"pbem {command} sav", home=home)[1] == ["file,sav"]


def test_move_completes_the_game_not_the_decision(home: Path) -> None:
    assert complete("pbem move 7f0c22aa9b31 7", home=home)[1] == []


def test_bash_source_prints_the_script_to_eval() -> None:
    environ = dict(os.environ, PYTHONPATH=str(ROOT), _PBEM_COMPLETE="bash_source")
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=environ
    )
    assert done.returncode == 0
    assert "_pbem_completion()" in done.stdout
    assert "complete -o nosort -F _pbem_completion pbem" in done.stdout


def test_the_commands_still_start_without_sqlite() -> None:
    """The completion callbacks the commands import load nothing of the store until a
    completion is asked for (a command that never opens the store never imports it)."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, pbem.cli.app; print(sorted(m for m in sys.modules "
            "if m.startswith(('sqlite3', 'sqlite_utils', 'pbem.store'))))",
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
