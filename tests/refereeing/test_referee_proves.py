"""A player's cheat in a double-blind game is proven by the referee's disclose, whatever it
exposes (issue 27, item 1), through three real stores.

The attack, as performed: in Race to the Sea with the shared cup (rulebook 4.2), a player
restacks one marker more than the referee dealt it, then the game ends (a resignation).
The honest referee's client used to refuse to sign the disclose ("false claim in entry N
by allies ..."), so no disclose ever came: `pbem verify` said OK, `pbem evidence` found
an honest log, and `pbem standings` counted the cheater's win. Now the unattended referee
(what `pbem referee run` does each round) and `pbem referee disclose` by hand both sign
it, and the log proves the false claim: the result names the cheater, evidence writes
the proof, and the standings count it as the cheater's loss.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import pbem.games  # noqa: F401  (registers the shipped games)
from pbem import evidence
from pbem.bots import choose
from pbem.cli import main
from pbem.client import Client
from pbem.core.blind import DEAL, DISCLOSE, FALSE_CLAIM
from pbem.core.referee import DOUBLE_BLIND, REFEREE
from pbem.errors import StoreError
from pbem.games.race_to_the_sea import hits
from pbem.refereeing.settle import settle
from pbem.standings import result_of, standings
from pbem.store import Store
from pbem.verify import verify_path, verify_text

SIDES = ("allies", "germans")


def _stores(root: Path, state: Path | None = None) -> tuple[dict[str, Client], str]:
    clients = {role: Client(Store(root / role, state)) for role in (*SIDES, REFEREE)}
    for role, client in clients.items():
        client.new_key(role)
    for role in (SIDES[1], REFEREE):
        clients[SIDES[0]].import_key(role, root / role / "keys" / f"{role}.pub")
    keys = {role: role for role in clients}
    options = {DOUBLE_BLIND: True, "shared_cup": True}
    game, _made = clients[SIDES[0]].new_game("race-to-the-sea", SIDES[0], keys, options=options)
    _sync(clients, game)
    clients[SIDES[1]].join(game)
    _sync(clients, game)
    settle(clients[REFEREE], game)  # the referee joins: play starts
    _sync(clients, game)
    return clients, game


@pytest.fixture(scope="module")
def before_deal(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The three stores of one game, played by bots up to the referee's first deal (its
    next entry): each test plays on from copies of them. (Its own state folder: a module
    fixture runs before any test's isolated one.)"""
    root = tmp_path_factory.mktemp("before-deal")
    clients, game = _stores(root, root / "state")
    rng = random.Random(2)
    for _ in range(3000):
        _sync(clients, game)
        log = clients[REFEREE].game(game)
        assert log.outcome() is None
        signer = log.next_signer()
        if signer == REFEREE and not log.waiting_for_entropy and log.state["step"] == "deal":
            return root, game
        if signer == REFEREE and log.waiting_for_entropy:
            clients[REFEREE].ack(game, REFEREE)  # (what its round does first: the dice)
        elif signer == REFEREE:
            settle(clients[REFEREE], game)
        else:
            assert signer is not None
            _play(clients[signer], game, signer, rng)
    raise AssertionError("no deal in 3000 turns")


def _copies(before: tuple[Path, str], root: Path) -> tuple[dict[str, Client], str]:
    """This test's own copies of the three stores (their journals: the test's state)."""
    source, game = before
    for role in (*SIDES, REFEREE):
        shutil.copytree(source / role, root / role)
    return {role: Client(Store(root / role)) for role in (*SIDES, REFEREE)}, game


def _sync(clients: dict[str, Client], game: str) -> None:
    """Every store up to the longest log (what the mail would bring)."""
    logs = {role: _log(client, game) for role, client in clients.items()}
    longest = max(logs.values(), key=len)
    for role, client in clients.items():
        if len(logs[role]) < len(longest):
            client.apply_entries(longest[len(logs[role]) :])


def _log(client: Client, game: str) -> list[Any]:
    try:
        return list(client.game(game).entries)
    except StoreError:
        return []  # (not received yet)


def _play(client: Client, game: str, role: str, rng: random.Random) -> None:
    """One decision (or an acknowledgement) by the bot of `role`."""
    played = client.game(game)
    engine = played.engine
    state = engine.with_secrets(client.state_for(played, role), role, client.known(game, role))
    if any(p.role == role for p in engine.prompts(state)):
        client.move(game, engine.format(choose(engine, state, role, rng)), role)
    else:
        client.ack(game, role)


def _cheat_then_resign(clients: dict[str, Client], game: str, monkeypatch: Any) -> int:
    """The referee deals; its owner restacks one marker more than it was dealt, then the
    next side resigns; returns the restack's seq."""
    honest = hits.restack_values

    def one_more(state: Any, role: str, known: Any) -> Any:
        values = honest(state, role, known)
        label = sorted(values)[0]
        return {**values, label: [*values[label], [sorted(state["markers"])[-1], "light"]]}

    owner = _deal(clients, game)
    monkeypatch.setattr(hits, "restack_values", one_more)
    _play(clients[owner], game, owner, random.Random(2))  # the owner's false restack
    monkeypatch.setattr(hits, "restack_values", honest)
    restack = clients[owner].game(game).head
    assert restack.body.get("decision") == "restack"
    for _ in range(50):
        _sync(clients, game)
        signer = clients[REFEREE].game(game).next_signer()
        if signer == REFEREE:
            settle(clients[REFEREE], game)
            continue
        assert signer in SIDES
        clients[signer].resign(game, signer)
        _sync(clients, game)
        return restack.seq
    raise AssertionError("nobody could resign")


def _deal(clients: dict[str, Client], game: str) -> str:
    """The referee's deal, signed by its store's round; returns the side it is dealt to
    (asked next)."""
    settle(clients[REFEREE], game)
    _sync(clients, game)
    head = clients[REFEREE].game(game).head
    assert head.by == REFEREE and DEAL in head.body
    (owner,) = head.body[DEAL]  # type: ignore[misc]
    assert clients[REFEREE].game(game).next_signer() == owner
    return str(owner)


def test_the_referee_discloses_a_players_false_claim_and_the_log_proves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, before_deal: tuple[Path, str]
) -> None:
    clients, game = _copies(before_deal, tmp_path)
    restack_seq = _cheat_then_resign(clients, game, monkeypatch)
    cheat = clients[REFEREE].game(game).entries[restack_seq].by
    honest_side = next(side for side in SIDES if side != cheat)
    # By hand: `pbem referee disclose` in a copy of the referee's store signs it.
    by_hand = tmp_path / "by-hand"
    shutil.copytree(tmp_path / REFEREE, by_hand)
    out = tmp_path / "disclose.txt"
    result = CliRunner().invoke(
        main, ["--home", str(by_hand), "referee", "disclose", game[:12], "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "false claim in entry" in result.output and f"{honest_side} wins" in result.output
    # Unattended: the round of `pbem referee run` signs the very same entry.
    said = settle(clients[REFEREE], game)
    assert any("disclosure of every value still sealed" in line for line in said), said
    final = clients[REFEREE].game(game)
    assert final.head.kind == DISCLOSE
    handmade = [e for e in Client(Store(by_hand)).game(game).entries if e.kind == DISCLOSE]
    assert [e.id for e in handmade] == [final.head.id]
    # The result names the cheater, and every player's store takes the disclose.
    ended = final.outcome()
    assert ended is not None and ended.level == FALSE_CLAIM and ended.winner == honest_side
    assert f"false claim in entry {restack_seq} by {cheat}" in ended.text
    _sync(clients, game)
    assert all(c.game(game).head.id == final.head.id for c in clients.values())
    # verify: PROVEN, the restack blamed; never OK.
    save = tmp_path / "game.pbem"
    save.write_text(clients[SIDES[0]].export(game), encoding="utf-8")
    report = verify_path(save)
    assert report.verdict == "proven" and not report.ok, report.text()
    assert report.bad is not None and (report.bad.seq, report.bad.by) == (restack_seq, cheat)
    assert "OK: every check holds" not in report.text()
    cli = CliRunner().invoke(main, ["verify", str(save)])
    assert cli.exit_code == 1 and f"PROVEN: false claim in entry {restack_seq} by {cheat}" in (
        cli.output
    )
    # evidence: the proof, which stands on its own.
    written = tmp_path / "proof.txt"
    cli = CliRunner().invoke(main, ["evidence", str(save), "-o", str(written)])
    assert cli.exit_code == 0, cli.output
    proof = evidence.check(written.read_text())
    assert (proof.role, proof.claim) == (cheat, "false-claim")
    assert [e.seq for e in proof.accused] == [restack_seq]
    # standings: the cheater's loss.
    counted, why = result_of(str(save), verify_text(save.read_bytes()))
    assert counted is not None, why
    assert counted.winner == honest_side and counted.proven == cheat
    table = standings([counted])
    loser = next(row for row in table.rows if row.player == counted.players[cheat])
    assert (loser.losses, loser.wins) == (1, 0)


def test_a_deal_its_owner_cannot_open_is_shown_disputed_and_not_rated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, before_deal: tuple[Path, str]
) -> None:
    """Item 3: the referee deals bytes its owner cannot open. `pbem show` tells the owner
    and names `pbem unseal`; the unseal publishes the key it derives, the game stops on
    its word (NOT CHECKED, not rated), and the referee's store, holding no key that opens
    it, signs no answer."""
    from pbem.crypto.escrow import seal

    real = Client._deal

    def garbage(self: Client, log: Any, seq: int, sealed: list[Any]) -> Any:
        honest = real(self, log, seq, sealed)
        return {side: seal(bytes(range(32)), b"garbage", b"elsewhere").hex() for side in honest}

    clients, game = _copies(before_deal, tmp_path)
    monkeypatch.setattr(Client, "_deal", garbage)
    owner = _deal(clients, game)
    monkeypatch.setattr(Client, "_deal", real)
    deal_seq = clients[owner].game(game).head.seq
    home = ["--home", str(tmp_path / owner)]
    shown = CliRunner().invoke(main, [*home, "show", game[:12]])
    assert shown.exit_code == 0, shown.output
    assert "does not open with your key" in shown.output
    assert f"pbem unseal {game[:12]} {deal_seq}" in shown.output
    unsealed = CliRunner().invoke(
        main, [*home, "unseal", game[:12], str(deal_seq), "-o", str(tmp_path / "u.txt")]
    )
    assert unsealed.exit_code == 0, unsealed.output
    _sync(clients, game)
    assert settle(clients[REFEREE], game) == []  # nothing opens it: no answer to sign
    report = verify_text(clients[REFEREE].export(game))
    assert report.verdict == "not-checked" and f"on {owner}'s word" in report.tail()
    assert "not rated" in result_of("stalled.pbem", report)[1]


def test_the_referees_store_answers_a_false_dispute_with_its_own_key(
    tmp_path: Path, before_deal: tuple[Path, str]
) -> None:
    """A player disputes an honest deal with a key that opens nothing: the unattended
    referee's next round answers with the deal's own key, which opens it, so the dispute
    is proven false and its author loses."""
    from pbem.core.blind import FALSE_DISPUTE, UNSEAL

    clients, game = _copies(before_deal, tmp_path)
    owner = _deal(clients, game)
    client = clients[owner]
    log = client.game(game)
    fields = client._next_fields(log, UNSEAL, owner)
    fields["body"] = {"deal_of": log.head.seq, "to": owner, "key": "22" * 32}
    dispute = client._append(log, fields, owner)  # (a forged key: the client signs no such)
    _sync(clients, game)
    said = settle(clients[REFEREE], game)
    assert any("unseal" in line for line in said), said
    ended = clients[REFEREE].game(game).outcome()
    assert ended is not None and ended.level == FALSE_DISPUTE and ended.winner != owner
    report = verify_text(clients[REFEREE].export(game))
    assert report.verdict == "proven" and report.bad is not None
    assert (report.bad.seq, report.bad.by) == (dispute.seq, owner)
