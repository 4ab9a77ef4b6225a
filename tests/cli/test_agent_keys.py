"""Keys that ssh-agent holds (issue 27, item 10): no plain private key file is needed.

Each test starts a real `ssh-agent` and adds keys with the real `ssh-add`
(tests/crypto/sshagent.py). A key only the agent holds plays a whole game; a key file and
the agent derive the same chain, salts and sealed values (a game begun with the file goes
on through the agent); a passphrase-protected key file is never asked for its passphrase
while the agent holds the key; and what needs the key's seed (a double-blind referee
opening escrows) says in one line that it needs the key file.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.bots import choose
from pbem.cli import main
from pbem.client import Client
from pbem.core.blind import ESCROW
from pbem.core.referee import DOUBLE_BLIND, REFEREE
from pbem.crypto.keys import generate, load_private_key, write_private_key
from pbem.errors import PbemError
from pbem.store import Store
from tests.crypto.sshagent import needs_ssh_agent, running_agent
from tests.refereeing.league import PLAYERS, RULES, desks, hand, play_turn
from tests.support.players import Duo

pytestmark = needs_ssh_agent
NEEDS_FILE = "needs the private key file: ssh-agent signs but cannot decrypt"


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> Result:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result


def failed(home: Path, *args: str) -> str:
    """The one error line of a command that must fail."""
    result = run(home, *args)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def listed(home: Path) -> dict[str, list[str]]:
    rows = ok(home, "key", "list").stdout.splitlines()
    return {line.split("\t")[0]: line.split("\t")[2:] for line in rows}


def play_out(clients: dict[str, Client], game: str, seed: int = 1) -> None:
    """Bots play both roles to the end, each entry handed to the other store at once."""
    rng = random.Random(seed)
    for _ in range(60):
        log = clients["a"].game(game)
        if log.outcome() is not None:
            return
        role = str(log.next_signer())
        me, other = clients[role], clients["b" if role == "a" else "a"]
        mine = me.game(game)
        state = mine.engine.with_secrets(me.state_for(mine, role), role, me.known(game, role))
        if any(p.role == role for p in mine.engine.prompts(state)):
            entry = me.move(game, mine.engine.format(choose(mine.engine, state, role, rng)), role)
        else:
            entry = me.ack(game, role)
        other.apply_entries([entry])
    raise AssertionError("the game did not end")


def test_a_whole_game_signed_by_ssh_agent_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    own = tmp_path / "ssh" / "id_ed25519"
    own.parent.mkdir()
    write_private_key(own, generate("a@laptop"))
    ok(b, "key", "new", "b")
    with running_agent() as agent:
        monkeypatch.setenv("SSH_AUTH_SOCK", str(agent.socket))
        # Not in the agent yet: refused, nothing recorded.
        refused = failed(a, "key", "import", "a", "--agent", f"{own}.pub")
        assert "ssh-agent does not hold" in refused and "ssh-add" in refused
        agent.add(own)
        own.unlink()  # from now on the agent alone holds the private key
        result = ok(a, "key", "import", "a", "--agent", f"{own}.pub")
        assert "imported a: your own key, signed by ssh-agent" in result.stderr
        assert listed(a) == {"a": ["agent"]}
        ok(a, "key", "import", "b", str(b / "keys" / "b.pub"))
        ok(b, "key", "import", "a", f"{own}.pub")
        game = ok(a, "new", "toy-bid", "--key", "a=a", "--key", "b=b").stdout.strip()
        clients = {"a": Client(Store(a)), "b": Client(Store(b))}
        clients["b"].apply_entries(list(clients["a"].game(game).entries))
        clients["a"].apply_entries(clients["b"].join(game))
        play_out(clients, game)  # sealed bids (salts, sealed values) and dice, via the agent
        save = tmp_path / "game.pbem"
        save.write_text(ok(a, "export", game[:8]).stdout)
        checked = ok(tmp_path / "checker", "verify", str(save)).stdout
        assert "OK" in checked
        assert len(clients["a"].game(game).entries) > 8
    # No private key anywhere in a's store folder, and without the agent a cannot sign.
    for path in a.rglob("*"):
        assert not path.is_file() or b"PRIVATE KEY" not in path.read_bytes(), path
    assert listed(a)["a"] == ["missing", str(a / "keys" / "a")]
    refused = failed(a, "new", "toy-dice", "--key", "a=a", "--key", "b=b")
    assert "cannot read the private key" in refused and "ssh-agent does not hold" in refused
    removed = ok(a, "key", "rm", "a", "--force").stderr
    assert f"it had no key file at {a / 'keys' / 'a'} (ssh-agent keeps its own copy)" in removed


def test_the_key_file_and_the_agent_derive_the_same_chain_salts_and_seals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game begun with the key file goes on through the agent from a copy of the store
    whose key file is gone: the same chain (its join anchors the reveals), the same
    salts, and the sealed bid opens."""
    duo = Duo(tmp_path, "toy-bid")
    bid = duo.a.move(duo.game_id, "bid 7 odd")  # a commits, with a salt, and seals its bid
    duo.send([bid], duo.b)
    copy = tmp_path / "a-agent"
    shutil.copytree(tmp_path / "a", copy)
    with running_agent() as agent:
        agent.add(copy / "keys" / "a")
        (copy / "keys" / "a").unlink()
        monkeypatch.setenv("SSH_AUTH_SOCK", str(agent.socket))
        through_agent = Client(Store(copy))
        assert listed(copy)["a"] == ["agent"]
        assert through_agent.chain_seed(duo.game_id, "a") == duo.a.chain_seed(duo.game_id, "a")
        label = next(iter(dict(bid.body["commit"])))
        opened = through_agent.sealed_opening(duo.game_id, "a", label)
        assert opened == duo.a.sealed_opening(duo.game_id, "a", label) and opened.value == 7
        duo.send([duo.b.move(duo.game_id, "bid 3")], through_agent)
        reveal = through_agent.move(duo.game_id, "reveal", "a")
        duo.send([reveal], duo.b)  # b checks the opening and the reveal against the join
        assert duo.b.game(duo.game_id).head.id == reveal.id
        assert reveal.reveal == duo.a._reveal(duo.a.game(duo.game_id), "a").hex()


def test_a_passphrase_protected_key_signs_through_the_agent_without_asking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, other = tmp_path / "home", tmp_path / "other"
    monkeypatch.setenv("PBEM_PASSPHRASE", "correct horse")
    ok(home, "key", "new", "me", "--passphrase")
    monkeypatch.delenv("PBEM_PASSPHRASE")
    key_file = home / "keys" / "me"
    assert "a passphrase is needed" in failed(home, "new", "barbarossa", "--key", "german=me")
    plain = tmp_path / "plain"  # ssh-add reads a key without its passphrase: a copy
    write_private_key(plain, load_private_key(key_file.read_bytes(), b"correct horse"))
    with running_agent() as agent:
        agent.add(plain)
        plain.unlink()
        monkeypatch.setenv("SSH_AUTH_SOCK", str(agent.socket))
        assert listed(home)["me"] == ["agent", str(key_file)]
        ok(home, "new", "barbarossa", "--key", "german=me")  # no passphrase asked
        # Importing the protected file elsewhere asks for no passphrase either.
        result = ok(other, "key", "import", "me", str(key_file))
        assert "signed by ssh-agent" in result.stderr


def test_a_double_blind_referee_whose_key_only_the_agent_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The referee joins and signs through the agent, but opening an escrow needs the key's
    seed: one error line, and nothing is signed."""
    made = desks(tmp_path)
    referee = made[REFEREE]
    with running_agent() as agent:
        agent.add(referee.home / "keys" / REFEREE)
        (referee.home / "keys" / REFEREE).rename(tmp_path / "referee-key-elsewhere")
        monkeypatch.setenv("SSH_AUTH_SOCK", str(agent.socket))
        first, second = made[PLAYERS[0]].client, made[PLAYERS[1]].client
        game, _ = first.new_game(
            RULES, PLAYERS[0], {r: r for r in made}, options={DOUBLE_BLIND: True}
        )
        hand(first, second, game)
        second.join(game)
        hand(second, referee.client, game)
        referee.client.join(game)  # signed by the agent
        rng = random.Random(3)
        for role in PLAYERS * 3:
            hand(referee.client, made[role].client, game)
            if play_turn(made[role], game, rng, 6):
                hand(made[role].client, referee.client, game)
            if any(ESCROW in e.body for e in referee.client.game(game).entries):
                break
        log = referee.client.game(game)
        assert log.escrows and log.next_signer() == REFEREE
        with pytest.raises(PbemError, match=NEEDS_FILE):
            referee.client.ack(game)
        refused = failed(referee.home, "ack", game[:12])
        assert "opening the escrows sealed to the referee " + NEEDS_FILE in refused
        assert referee.client.game(game).head.id == log.head.id


def test_a_player_whose_key_only_the_agent_holds_cannot_open_a_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Race to the Sea's shared cup: the referee deals a side its markers sealed to the
    side's key. Through the agent the side's store reads the game, but opening the deal
    needs the key file: one line saying so."""
    from pbem.core.blind import DEAL
    from tests.games.race_to_the_sea.test_rts_shared_cup import _table, _until_deal

    table = _table()
    rng = random.Random(1)
    _until_deal(table, rng)
    deal = table.step(rng)
    (side,) = dict(deal.body[DEAL])
    key_file = tmp_path / "side-key"
    write_private_key(key_file, table.keys[side])
    with running_agent() as agent:
        agent.add(key_file)
        key_file.unlink()
        monkeypatch.setenv("SSH_AUTH_SOCK", str(agent.socket))
        player = Client(Store(tmp_path / "player"))
        player.import_key(side, Path(f"{key_file}.pub"), agent=True)
        player.apply_entries(list(table.game.entries))
        with pytest.raises(PbemError) as refused:
            player.known(table.game.id, side)
        message = str(refused.value)
        assert "\n" not in message
        assert message.startswith(f"opening the referee's deals to {side} {NEEDS_FILE}")
