"""Keys are compared as keys (protocol section 8; docs/protocol-notes.md, Keys).

The self-witness check compared the text of key lines, and a key line was read
leniently (Python's base64 takes `=` padding a canonical line does not have). A player
who crafts the genesis by hand could then name their own key for both roles, written
twice differently, and play alone while every save and `pbem verify` said "witnessed by
another role". Now a key line must be canonical (its base64 re-encodes to exactly the
same text), every role's line in a genesis is read when the game starts, and roles,
witnesses and self-witnessing are decided on the raw 32-byte keys: two lines with
different comments are one key.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from click.testing import CliRunner

import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.cli import main
from pbem.client import Client
from pbem.core.adjudicator import Adjudicator, data_digest
from pbem.core.canonical import JSON
from pbem.core.engine import register
from pbem.core.log import GENESIS, Entry
from pbem.crypto.keys import PrivateKey, PublicKey, generate, load_private_key
from pbem.errors import KeyError_
from pbem.ledger import engine_by_name
from pbem.store import Store
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_text
from tests.support.players import Table, call_refused, sign_entry
from tests.support.toy import ToyDice


class ToyTrio(ToyDice):
    """Toy dice with a third role, `c`, that joins and never rolls (a referee, say)."""

    name = "toy-trio"
    title = "Toy dice with a referee"
    roles = ("a", "b", "c")
    required_roles = ("a", "b", "c")


TRIO = ToyTrio()
register("toy-trio", f"{__name__}:TRIO")


# --- the cheat's tools ------------------------------------------------------------------------


def padded(line: str) -> str:
    """The same key line with one more `=` after its base64: the same key, other text."""
    kind, b64, *comment = line.split(" ", 2)
    return " ".join([kind, b64 + "=", *comment])


def relabelled(line: str, comment: str) -> str:
    kind, b64 = line.split()[:2]
    return f"{kind} {b64} {comment}"


def key_of(client: Client, name: str) -> PrivateKey:
    return load_private_key((client.store.keys_dir / name).read_bytes())


def crafted_genesis(client: Client, key: str, rules: str, roles: dict[str, str]) -> Entry:
    """A genesis made by hand (not by `pbem new`), signed by `client`'s key `key` as `a`."""
    engine = engine_by_name(rules)
    body: dict[str, JSON] = {
        "rules": engine.name,
        "rules_version": engine.version,
        "data": {n: data_digest(c) for n, c in engine.default_data().items()},
        "options": {},
        "roles": dict(roles),
        "title": "a fair game",
        "nonce": secrets.token_hex(16),
    }
    fields: dict[str, JSON] = {"v": 1, "kind": GENESIS, "seq": 0, "by": "a", "body": body}
    return sign_entry(key_of(client, key), fields)


def send(entries: list[Entry], to: Client) -> None:
    to.apply_entries(parse_entries(move_file(entries)))


def play_out(client: Client, game_id: str) -> None:
    """`client` holds every role still asked: it plays each of them to the end."""
    while True:
        game = client.game(game_id)
        if game.outcome() is not None:
            return
        role = str(game.next_signer())
        state = client.state_for(game, role)
        if any(p.role == role for p in game.engine.prompts(state)):
            client.move(game_id, "roll", role)
        else:
            client.ack(game_id, role)


def cli_verify(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", str(path)])
    return result.exit_code, result.output


def cheat(tmp_path: Path) -> Client:
    mallory = Client(Store(tmp_path / "mallory"))
    mallory.new_key("m")
    return mallory


# --- key lines ----------------------------------------------------------------------------------


@pytest.mark.parametrize("extra", ["=", "==", "==="])
def test_a_key_line_with_extra_padding_is_refused(extra: str) -> None:
    public = generate("me").public
    kind, b64, comment = public.openssh_line().split()
    assert PublicKey.parse_line(f"{kind} {b64} {comment}") == public
    with pytest.raises(KeyError_) as caught:
        PublicKey.parse_line(f"{kind} {b64}{extra} {comment}")
    message = str(caught.value)
    assert "canonical" in message and "\n" not in message


# --- a genesis naming one key twice -------------------------------------------------------------


def test_one_key_for_two_roles_written_with_extra_padding_is_refused(tmp_path: Path) -> None:
    # Mallory names her key for a and, padded, for b. Before: the game started, she played
    # both sides, and the save and `pbem verify` said the dice were witnessed by another
    # role. Now: the genesis is refused, by her store, by any store, and by verify.
    mallory = cheat(tmp_path)
    line = mallory.store.key("m")["public"]
    genesis = crafted_genesis(mallory, "m", "toy-dice", {"a": line, "b": padded(line)})
    refusal = call_refused(
        mallory.store,
        lambda: send([genesis], mallory),
        "entry 0 by a refused",
        "role 'b'",
        "canonical",
    )
    assert "\n" not in str(refusal)
    victim = Client(Store(tmp_path / "victim"))
    victim.new_key("v")
    call_refused(victim.store, lambda: send([genesis], victim), "role 'b'", "canonical")
    report = verify_text(move_file([genesis]))
    assert not report.ok and report.failure is not None and "canonical" in report.failure
    path = tmp_path / "genesis.txt"
    path.write_text(move_file([genesis]))
    code, output = cli_verify(path)
    assert code != 0 and "canonical" in output


def test_one_key_for_two_roles_under_two_comments_is_self_witnessed(tmp_path: Path) -> None:
    # The same key as two canonical lines that differ only in their comments: one key.
    # Mallory plays both sides to the end; everything says self-witnessed.
    mallory = cheat(tmp_path)
    line = mallory.store.key("m")["public"]
    roles = {"a": relabelled(line, "alice"), "b": relabelled(line, "bob@elsewhere")}
    genesis = crafted_genesis(mallory, "m", "toy-dice", roles)
    send([genesis], mallory)
    mallory.join(genesis.id)
    play_out(mallory, genesis.id)
    game = mallory.game(genesis.id)
    assert mallory.my_roles(game) == ["a", "b"]
    assert game.self_witnessed
    save = mallory.export(genesis.id)
    assert "dice: self-witnessed" in save
    report = verify_text(save)
    assert report.ok, report.failure
    assert any("SELF-WITNESSED" in line for line in report.lines)
    path = tmp_path / "game.pbem"
    path.write_text(save)
    code, output = cli_verify(path)
    assert code == 0, output


def test_two_of_three_roles_on_one_key_are_self_witnessed(tmp_path: Path) -> None:
    # Three roles, two keys: Mallory holds a and b (whose reveals roll each other's dice),
    # an honest referee holds c. Before: "witnessed by another role", as two keys differ.
    # Now: self-witnessed, because a's dice are rolled by b's reveals, the same key.
    mallory = cheat(tmp_path)
    referee = Client(Store(tmp_path / "referee"))
    referee.new_key("c")
    line = mallory.store.key("m")["public"]
    roles = {
        "a": relabelled(line, "alice"),
        "b": relabelled(line, "bob"),
        "c": referee.store.key("c")["public"],
    }
    genesis = crafted_genesis(mallory, "m", "toy-trio", roles)
    send([genesis], mallory)
    joins = mallory.join(genesis.id)
    send([genesis, *joins], referee)
    send(referee.join(genesis.id), mallory)
    play_out(mallory, genesis.id)
    game = mallory.game(genesis.id)
    assert game.outcome() is not None and game.rng_count > 0
    assert game.self_witnessed
    assert game.witness_roles() == ["a", "b"]
    save = mallory.export(genesis.id)
    assert "dice: self-witnessed" in save
    report = verify_text(save)
    assert report.ok, report.failure
    assert any("SELF-WITNESSED" in line for line in report.lines)
    assert report.game is not None and report.game.self_witnessed


# --- who witnesses whom -------------------------------------------------------------------------


def test_witness_roles() -> None:
    two = Table()
    assert two.game.witness_roles() == ["a", "b"]
    assert not two.game.self_witnessed
    solo = Table("toy-solo", ("solo",))
    assert solo.game.witness_roles() == []
    assert solo.game.self_witnessed
    same = generate("same")
    shared = Table(keys={"a": same, "b": PrivateKey(same._key, "other comment")})
    assert shared.game.self_witnessed
    assert shared.game.witness_roles() == ["a", "b"]  # roles: self_witnessed tells the keys
    trio = Table("toy-trio", ("a", "b", "c"))
    assert trio.game.witness_roles() == ["a", "b"]  # c's dice would be rolled by a
    assert not trio.game.self_witnessed
    assert isinstance(trio.game, Adjudicator)


def test_verify_names_the_key_that_witnessed_the_dice(tmp_path: Path) -> None:
    """Barbarossa with a referee in another store: verify prints the referee's fingerprint
    as the witness of the German's dice, so a league can pin its referees' keys."""
    import random

    from pbem.bots import choose

    german, referee = Client(Store(tmp_path / "g")), Client(Store(tmp_path / "r"))
    german.new_key("g")
    printed = referee.new_key("r")
    german.import_key("r", tmp_path / "r" / "keys" / "r.pub")
    game_id, made = german.new_game("barbarossa", "german", {"german": "g", "referee": "r"})
    referee.apply_entries(parse_entries(move_file(made)))
    german.apply_entries(parse_entries(move_file(referee.join(game_id))))
    rng = random.Random(1)
    clients = {"german": german, "referee": referee}
    for _ in range(12):
        game = german.game(game_id)
        role = game.prompts()[0].role
        me = clients[role]
        mine = me.game(game_id)
        state = me.state_for(mine, role)
        if any(p.role == role for p in mine.engine.prompts(state)):
            text = mine.engine.format(choose(mine.engine, state, role, rng))
            entry = me.move(game_id, text, role)
        else:
            entry = me.ack(game_id, role)
        other = referee if role == "german" else german
        other.apply_entries(parse_entries(move_file([entry])))
    report = verify_text(german.export(game_id))
    assert report.ok, report.failure
    referee_print = printed.split()[1]
    assert f"dice of german rolled by referee: {referee_print}" in report.lines
    assert not any(line.startswith("dice of german rolled by german") for line in report.lines)
    assert "dice: witnessed" in report.text()
