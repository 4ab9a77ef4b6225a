"""`--json` of `pbem new`, `pbem show` and `pbem verify` (docs/json.md): one JSON document
alone on stdout with `"schema": 1`, errors one line on stderr, the same facts as the text
commands; one role's document never depends on what the other side keeps secret."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.client import Client
from pbem.core.canonical import canonical_bytes
from pbem.demo import DemoStep, run_demo
from pbem.store import Store
from pbem.testing import other_secrets
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries

ROOT = Path(__file__).resolve().parents[2]
SAVES = ROOT / "saves"

GAME_KEYS = [
    "schema", "game", "short", "rules", "rules_version", "title", "view_of", "roles",
    "your_roles", "self_witnessed", "started", "joined", "to_join", "turn", "waiting_for",
    "next_signer", "dice_waiting", "asked", "over", "outcome", "head",
]  # fmt: skip
FILE_KEYS = [
    "file", "ok", "verdict", "error", "detail", "cheat", "bad_entry", "set_aside", "game",
    "rules", "rules_version", "title", "players",
    "entries", "draws",
    "self_witnessed", "witnesses", "outcome", "unchecked",
]  # fmt: skip


def run(home: Path, *args: str, input: bytes | None = None) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], input=input)


def document(home: Path, *args: str) -> Any:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    assert result.stderr == ""
    parsed = json.loads(result.stdout)  # the whole of stdout is one document
    assert parsed["schema"] == 1
    return parsed


def keys(tmp_path: Path) -> tuple[Path, Path]:
    player, referee = tmp_path / "player", tmp_path / "referee"
    assert run(player, "key", "new", "me").exit_code == 0
    assert run(referee, "key", "new", "ref").exit_code == 0
    pub = str(referee / "keys" / "ref.pub")
    assert run(player, "key", "import", "referee", pub).exit_code == 0
    return player, referee


NEW = ["new", "barbarossa", "--key", "german=me", "--key", "referee=referee"]


def started(tmp_path: Path) -> tuple[Path, Path, str]:
    """A Barbarossa game both stores hold, every role joined: the German moves first."""
    player, referee = keys(tmp_path)
    start = tmp_path / "start.txt"
    game = document(player, *NEW, "-o", str(start), "--json")["game"]
    assert run(referee, "apply", str(start)).exit_code == 0
    join = tmp_path / "join.txt"
    assert run(referee, "join", game[:12], "-o", str(join)).exit_code == 0
    assert run(player, "apply", str(join)).exit_code == 0
    return player, referee, game


# --- pbem new --json ------------------------------------------------------------------------


def test_new_json_names_the_game_roles_entries_and_move_file(tmp_path: Path) -> None:
    player, _ = keys(tmp_path)
    start = tmp_path / "start.txt"
    made = document(player, *NEW, "--title", "Test", "-o", str(start), "--json")
    assert made["rules"] == "barbarossa" and made["title"] == "Test"
    assert [(r["role"], r["key"]) for r in made["roles"]] == [
        ("german", "me"),
        ("referee", "referee"),
    ]
    assert made["creator"] == "german"
    written = parse_entries(start.read_bytes())
    assert [(e["seq"], e["by"], e["kind"]) for e in made["entries"]] == [
        (0, "german", "genesis"),
        (1, "german", "join"),
    ]
    assert [e["id"] for e in made["entries"]] == [e.id for e in written]
    assert made["game"] == written[0].id and made["short"] == written[0].id[:12]
    assert made["move_file"] == str(start) and made["move_text"] is None
    listed = document(player, "show", "--json")["games"]
    assert [g["game"] for g in listed] == [made["game"]]


def test_new_json_without_o_carries_the_move_file(tmp_path: Path) -> None:
    player, _ = keys(tmp_path)
    made = document(player, *NEW, "--json")
    entries = parse_entries(made["move_text"])
    assert [e.id for e in entries] == [e["id"] for e in made["entries"]]
    assert made["move_file"] is None


def test_new_json_error_is_one_line_on_stderr(tmp_path: Path) -> None:
    player, _ = keys(tmp_path)
    result = run(player, "new", "barbarossa", "--key", "german", "--json")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == "error: --key 'german': expected ROLE=KEYNAME\n"


# --- pbem show --json -----------------------------------------------------------------------


def test_show_json_lists_games_before_the_joins(tmp_path: Path) -> None:
    player, referee = keys(tmp_path)
    start = tmp_path / "start.txt"
    game = document(player, *NEW, "-o", str(start), "--json")["game"]
    assert run(referee, "apply", str(start)).exit_code == 0
    (mine,) = document(player, "show", "--json")["games"]
    assert list(mine) == GAME_KEYS[1:]  # the list's games carry no schema of their own
    assert mine["game"] == game and mine["view_of"] == "german"
    assert mine["your_roles"] == ["german"] and not mine["started"]
    assert (mine["joined"], mine["to_join"]) == (["german"], ["referee"])
    assert mine["waiting_for"] == [{"role": "referee", "prompt": "join the game"}]
    assert mine["next_signer"] == "referee" and mine["asked"] is None
    assert mine["head"]["seq"] == 1
    (theirs,) = document(referee, "show", "--json")["games"]
    assert theirs["your_roles"] == ["referee"]
    assert theirs["asked"] == {
        "role": "referee",
        "action": "join",
        "command": f"pbem join {game[:12]}",
        "prompt": "join the game",
        "notes": [],
        "choices": [],
    }


def test_show_json_of_an_empty_store(tmp_path: Path) -> None:
    home = tmp_path / "empty"
    listed = document(home, "show", "--json")
    assert listed == {
        "schema": 1,
        "store": str(home.resolve()),
        "games": [],
        "invitations": [],
    }


def test_show_json_of_a_game_lists_the_choices_as_move_numbers_them(tmp_path: Path) -> None:
    player, referee, game = started(tmp_path)
    shown = document(player, "show", game[:8], "--json")
    assert list(shown) == GAME_KEYS
    assert shown["game"] == game and shown["rules"] == "barbarossa"
    assert shown["rules_version"] == "1.1" and shown["title"] == "Operation Barbarossa"
    assert [(r["role"], r["yours"]) for r in shown["roles"]] == [
        ("german", True),
        ("referee", False),
    ]
    assert shown["started"] and shown["turn"] == 1 and not shown["over"]
    asked = shown["asked"]
    assert asked["role"] == "german" and asked["action"] == "move"
    assert asked["command"] == f"pbem move {game[:12]} N"
    assert shown["waiting_for"] == [{"role": "german", "prompt": asked["prompt"]}]
    # The same choices, with the same numbers, as the text of `pbem show`.
    text = run(player, "show", game[:8]).stdout
    listed = re.findall(r"^  (\d+)\. (.*)$", text, re.MULTILINE)
    assert [(str(c["number"]), c["text"]) for c in asked["choices"]] == listed
    assert listed
    # ... and `pbem move G N` signs the choice numbered N.
    moved = run(player, "move", game[:12], "1", "-o", str(tmp_path / "m.txt"))
    assert moved.exit_code == 0, moved.output
    assert asked["choices"][0]["text"] in moved.stderr + moved.stdout
    after = document(player, "show", game[:8], "--json")
    assert after["head"]["seq"] == shown["head"]["seq"] + 1
    assert after["head"]["by"] == "german"


def test_show_json_of_the_other_side_asks_nothing_of_you(tmp_path: Path) -> None:
    player, referee, game = started(tmp_path)
    theirs = document(referee, "show", game[:8], "--json")
    assert theirs["view_of"] == "referee" and theirs["asked"] is None
    assert theirs["next_signer"] == "german"
    public = document(player, "show", game[:8], "--role", "referee", "--json")
    assert public["view_of"] == "referee" and public["asked"] is None
    assert public["your_roles"] == ["german"]


def test_show_json_of_a_finished_game(tmp_path: Path) -> None:
    home = tmp_path / "home"
    save = SAVES / "race-to-berlin-demo.pbem"
    assert run(home, "apply", str(save)).exit_code == 0
    (listed,) = document(home, "show", "--json")["games"]
    shown = document(home, "show", listed["short"], "--json")
    assert shown["over"] and shown["outcome"]["text"].startswith("West wins")
    assert set(shown["outcome"]) == {"winner", "level", "score", "text"}
    assert shown["waiting_for"] == [] and shown["next_signer"] is None
    assert shown["view_of"] is None and shown["your_roles"] == []  # no key of ours
    entries = parse_entries(save.read_bytes())
    assert shown["head"] == {"seq": entries[-1].seq, "id": entries[-1].id, "by": entries[-1].by}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "abc123", "--json"], "error: no game 'abc123' in the store at"),
        (["show", "--json", "--history", "abc"], "error: --json cannot be combined with"),
        (["show", "--json", "--role", "nobody", "GAME"], "error: this game has no role 'nobody'"),
    ],
)
def test_show_json_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    player, _, game = started(tmp_path)
    result = run(player, *[game[:12] if a == "GAME" else a for a in args])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_show_json_is_ascii_whatever_the_log_holds(tmp_path: Path) -> None:
    """(An entry holds no control characters: the log refuses them. Anything else beyond
    ASCII is escaped, so that no terminal or byte-minded tool has to know the text.)"""
    player, _ = keys(tmp_path)
    title = "Unternehmen Barbarossa \u2014 \u00dcbung \U0001f3b2"
    document(player, *NEW, "--title", title, "--json")
    result = run(player, "show", "--json")
    assert result.stdout.isascii()
    assert json.loads(result.stdout)["games"][0]["title"] == title


# --- the other side's secrets ---------------------------------------------------------------


class _Stop(Exception):
    pass


def _demo_with_secrets(tmp_path: Path) -> tuple[str, dict[str, Path], str]:
    """Race to Berlin between bots, in two stores, stopped once a role holds sealed
    values: (game id, role -> store folder, that role)."""
    found: list[tuple[str, dict[str, Path], str]] = []

    def look(step: DemoStep) -> None:
        if step.count < 8:
            return
        for role, home in step.homes.items():
            if Client(Store(home)).known(step.game_id, role):
                found.append((step.game_id, step.homes, role))
                raise _Stop

    with pytest.raises(_Stop):
        run_demo("race-to-berlin", tmp_path / "demo", seed=3, on_step=look)
    return found[0]


def test_show_json_is_byte_identical_whatever_the_other_side_keeps_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The viewer's store rendering a state that holds the owner's sealed values (as a
    careless build from the state rather than the view would show them): changed to
    other plausible values (pbem.testing.other_secrets), the document is the same."""
    game_id, homes, owner = _demo_with_secrets(tmp_path)
    viewer = next(role for role in homes if role != owner)
    known = Client(Store(homes[owner])).known(game_id, owner)
    game = Client(Store(homes[viewer])).game(game_id)
    assert game.state is not None
    prompts = game.prompts()  # what is asked comes from the public state, as in any store
    printed = []
    states = []
    for secrets in (known, other_secrets(known)):
        shadow = copy.copy(game)
        shadow.state = game.engine.with_secrets(game.state, owner, secrets)
        shadow.prompts = lambda: prompts  # type: ignore[method-assign]
        states.append(canonical_bytes(shadow.state))
        monkeypatch.setattr(Client, "game", lambda self, prefix, shadow=shadow: shadow)
        for args in (["show", game_id[:12], "--json"], ["show", "--json"]):
            result = run(homes[viewer], *args)
            assert result.exit_code == 0, result.output
            printed.append(result.stdout)
        monkeypatch.undo()
    assert states[0] != states[1]  # the secrets were there, and were changed
    assert printed[0] == printed[2] and printed[1] == printed[3]
    assert json.loads(printed[0])["view_of"] == viewer


def test_a_document_built_from_the_stored_state_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check above has teeth: a `turn` read from the state the store holds (here its
    digest) rather than from the role's view differs between the two secret sets."""
    import hashlib

    from pbem.render import page

    game_id, homes, owner = _demo_with_secrets(tmp_path)
    viewer = next(role for role in homes if role != owner)
    known = Client(Store(homes[owner])).known(game_id, owner)
    game = Client(Store(homes[viewer])).game(game_id)
    assert game.state is not None
    prompts = game.prompts()

    def careless(shown: Any, role: str | None, _known: Any) -> dict[str, str]:
        return {"turn": hashlib.sha256(canonical_bytes(shown.state)).hexdigest()}

    printed = []
    for secrets in (known, other_secrets(known)):
        shadow = copy.copy(game)
        shadow.state = game.engine.with_secrets(game.state, owner, secrets)
        shadow.prompts = lambda: prompts  # type: ignore[method-assign]
        monkeypatch.setattr(Client, "game", lambda self, prefix, shadow=shadow: shadow)
        monkeypatch.setattr(page, "role_view", careless)
        printed.append(run(homes[viewer], "show", game_id[:12], "--json").stdout)
        monkeypatch.undo()
    assert printed[0] != printed[1]


# --- pbem verify --json ---------------------------------------------------------------------


def test_verify_json_of_the_shipped_saves(tmp_path: Path) -> None:
    checked = document(tmp_path, "verify", str(SAVES), "--json", "-j", "2")
    assert checked["ok"] is True
    assert [Path(f["file"]).name for f in checked["files"]] == sorted(
        p.name for p in SAVES.glob("*.pbem")
    )
    for found in checked["files"]:
        assert list(found) == FILE_KEYS
        assert found["ok"] and found["error"] is None
        assert found["entries"] == len(parse_entries(Path(found["file"]).read_bytes()))
        assert found["outcome"] is not None and found["unchecked"] == []
        assert found["witnesses"] and not found["self_witnessed"]
        assert found["title"] and all(v.startswith("SHA256:") for v in found["players"].values())
        witnessing = {w["witness"]: w["fingerprint"] for w in found["witnesses"]}
        assert all(found["players"][role] == key for role, key in witnessing.items())
    race = next(f for f in checked["files"] if f["rules"] == "race-to-berlin")
    text = run(tmp_path, "verify", race["file"]).stdout
    for witness in race["witnesses"]:
        line = f"dice of {witness['role']} rolled by {witness['witness']}: {witness['fingerprint']}"
        assert line in text
    assert f"result: {race['outcome']['text']}" in text
    assert f"entries: {race['entries']}," in text


def test_verify_json_of_an_unfinished_game_says_what_cannot_be_checked_yet(
    tmp_path: Path,
) -> None:
    entries = parse_entries((SAVES / "berlin-1945-demo.pbem").read_bytes())
    for count in range(4, len(entries)):
        part = tmp_path / "part.txt"
        part.write_text(move_file(entries[:count]))
        checked = document(tmp_path, "verify", str(part), "--json")
        (found,) = checked["files"]
        if found["unchecked"]:
            break
    else:
        raise AssertionError("no prefix of the demo leaves anything unchecked")
    assert found["ok"] and found["outcome"] is None and found["entries"] == count
    text = run(tmp_path, "verify", str(part)).stdout
    assert f"cannot be checked yet ({len(found['unchecked'])})" in text
    for line in found["unchecked"]:
        assert f"  {line}" in text


def _damaged(tmp_path: Path) -> Path:
    entries = parse_entries((SAVES / "barbarossa-demo.pbem").read_bytes())
    text = move_file(entries[:1])
    damaged = tmp_path / "damaged.txt"
    damaged.write_text(text.replace(text.splitlines()[3][:8], "AAAAAAAA", 1))
    return damaged


def test_verify_json_failure_keeps_the_error_line(tmp_path: Path) -> None:
    damaged = str(_damaged(tmp_path))
    plain = run(tmp_path, "verify", damaged)
    result = run(tmp_path, "verify", damaged, "--json")
    assert result.exit_code == plain.exit_code == 1
    assert result.stderr == plain.stderr and result.stderr.count("\n") == 1
    (found,) = json.loads(result.stdout)["files"]
    assert found["ok"] is False and found["game"] is None
    assert plain.stderr == f"error: {found['error']}\n"


def test_verify_json_of_several_files_says_which_failed(tmp_path: Path) -> None:
    damaged = str(_damaged(tmp_path))
    missing = str(tmp_path / "no such file")
    save = str(SAVES / "barbarossa-demo.pbem")
    result = run(tmp_path, "verify", save, damaged, missing, "--json")
    assert result.exit_code == 1
    assert result.stderr == "error: 2 of 3 files failed verification\n"
    files = json.loads(result.stdout)["files"]
    assert [(f["file"], f["ok"]) for f in files] == [
        (save, True),
        (damaged, False),
        (missing, False),
    ]
    assert files[2]["error"].startswith(f"cannot read {missing}")


def test_verify_json_from_stdin(tmp_path: Path) -> None:
    save = SAVES / "barbarossa-demo.pbem"
    result = run(tmp_path, "verify", "-", "--json", input=save.read_bytes())
    assert result.exit_code == 0, result.output
    (found,) = json.loads(result.stdout)["files"]
    assert found["file"] == "-" and found["ok"] and found["rules"] == "barbarossa"


PROBE = """
import sys
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
try:
    main()
finally:
    print("CLICK", "click" in sys.modules, file=sys.stderr)
"""


@pytest.mark.parametrize("case", ["save", "damaged", "missing"])
@pytest.mark.parametrize("where", ["before", "after"])
def test_verify_json_of_one_file_starts_without_click(
    tmp_path: Path, case: str, where: str
) -> None:
    """`pbem verify --json FILE` is answered by pbem.cli without click, as the click
    command answers it (see tests/cli/test_fast_start.py)."""
    path = {
        "save": str(SAVES / "berlin-1945-demo.pbem"),
        "damaged": str(_damaged(tmp_path)),
        "missing": str(tmp_path / "no such file"),
    }[case]
    env = dict(os.environ, PBEM_CACHE=str(tmp_path / "cache"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    args = ["verify", "--json", path] if where == "before" else ["verify", path, "--json"]
    fast = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env
    )
    assert "CLICK False" in fast.stderr
    expected = CliRunner().invoke(main, args)
    assert fast.returncode == expected.exit_code
    assert fast.stdout == expected.stdout
    assert fast.stderr.replace("CLICK False\n", "") == expected.stderr
