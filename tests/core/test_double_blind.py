"""Double-blind games (issue 17; pbem.core.blind, docs/referee.md): every move that commits
carries its openings sealed to the referee, the referee attests them (`held`), answers a
false one with a `void` that proves it, and discloses every value still sealed once the
game is over, so that its claims are checked (Engine.settle)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pbem.bots import choose
from pbem.core.adjudicator import ApplyContext
from pbem.core.blind import DISCLOSE, ESCROW, HELD, VOID, context
from pbem.core.canonical import JSON
from pbem.core.log import ACK, MOVE
from pbem.core.referee import DOUBLE_BLIND, REFEREE
from pbem.crypto.escrow import message_key, seal
from pbem.errors import PbemError
from pbem.standings import result_of
from pbem.transport.savefile import move_file
from pbem.verify import verify_text
from tests.support.players import Table, assert_refused

RTB = ("west", "soviet", REFEREE)


def _table(options: dict[str, Any] | None = None, roles: tuple[str, ...] = RTB) -> Table:
    table = Table("race-to-berlin", roles, options={DOUBLE_BLIND: True} | (options or {}))
    table.join_all()
    return table


def _to_commit(table: Table, rng: random.Random) -> tuple[str, Any, Any]:
    """Play bots until a player's next decision seals values; return it unplayed."""
    for _ in range(400):
        role = table.game.prompts()[0].role
        state = table.state_for(role)
        if not any(p.role == role for p in table.engine.prompts(state)):
            table.ack(role)
            continue
        private = table.engine.with_secrets(state, role, table.known(role))
        decision = choose(table.engine, private, role, rng)
        if table.engine.seal(private, role, decision)[1]:
            return role, decision, private
        table.decide(role, decision, private)
    raise AssertionError("no committing move in 400 entries")


def _escrowed_move(table: Table, rng: random.Random) -> str:
    role, decision, private = _to_commit(table, rng)
    table.decide(role, decision, private)
    assert ESCROW in table.game.head.body
    return role


def _key_of(table: Table, seq: int) -> str:
    entry = table.game.entries[seq]
    sealed = bytes.fromhex(str(entry.body[ESCROW]))
    where = context(table.game.id, seq, entry.by)
    return message_key(table.keys[REFEREE], sealed, where).hex()


def test_double_blind_needs_a_referee_and_is_true_or_absent() -> None:
    with pytest.raises(PbemError, match="double_blind needs a referee"):
        Table("race-to-berlin", ("west", "soviet"), options={DOUBLE_BLIND: True})
    with pytest.raises(PbemError, match="double_blind is true or absent"):
        Table("race-to-berlin", RTB, options={DOUBLE_BLIND: 1})
    table = _table()
    assert table.game.double_blind
    assert DOUBLE_BLIND not in table.game._options  # a league option, never the engine's


def test_a_move_that_commits_carries_an_escrow_the_referee_alone_opens() -> None:
    table = _table()
    rng = random.Random(4)
    role, decision, private = _to_commit(table, rng)
    public, values = table.engine.seal(private, role, decision)
    entry = table.decide(role, decision, private)
    assert entry.body.get(ESCROW)
    commits = entry.body["commit"]
    assert isinstance(commits, dict)
    bare = {key: value for key, value in entry.body.items() if key != ESCROW}
    # The same move without its escrow, on the same head, is refused.
    game = table.game
    twin = Table("race-to-berlin", RTB, options={DOUBLE_BLIND: True})
    assert twin.game.id == game.id
    twin.join_all()
    for earlier in game.entries[len(twin.game.entries) : entry.seq]:
        twin.apply(earlier)
    assert_refused(twin.game, twin.make(role, MOVE, bare), "escrow")
    # A player cannot open it: it is sealed to the referee's key only.
    from pbem.crypto.escrow import EscrowError, open_sealed

    sealed = bytes.fromhex(str(entry.body[ESCROW]))
    where = context(game.id, entry.seq, role)
    for other in ("west", "soviet"):
        with pytest.raises(EscrowError):
            open_sealed(table.keys[other], sealed, where)
    opened = open_sealed(table.keys[REFEREE], sealed, where)
    assert [o["label"] for o in json.loads(opened)["open"]] == sorted(commits) == sorted(values)
    assert str(public) not in json.dumps(commits)  # (only digests in the clear)


def test_escrow_and_held_are_refused_where_they_do_not_belong() -> None:
    plain = Table("race-to-berlin", RTB)
    plain.join_all()
    role = plain.game.prompts()[0].role
    state = plain.engine.with_secrets(plain.state_for(role), role, plain.known(role))
    decision = choose(plain.engine, state, role, random.Random(1))
    text = plain.engine.format(plain.engine.seal(state, role, decision)[0])
    assert_refused(
        plain.game,
        plain.make(role, MOVE, {"decision": text, ESCROW: "00" * 60}),
        "double-blind games only",
    )
    table = _table()
    rng = random.Random(5)
    _escrowed_move(table, rng)
    waiting = [item.seq for item in table.game.escrows]
    assert waiting
    # The referee's ack attests exactly the escrows not held yet.
    if table.game.next_signer() == REFEREE:
        assert_refused(table.game, table.make(REFEREE, ACK, {}), "held")
        assert_refused(table.game, table.make(REFEREE, ACK, {HELD: waiting + [1]}), "held")
        table.apply(table.make(REFEREE, ACK, {HELD: waiting}))
        assert table.game.escrows == ()
        assert HELD in table.game.head.body


def _committing_entry(table: Table, rng: random.Random, openings_of: Any = None) -> Any:
    """The next committing move, with its escrow made by `openings_of(openings) -> bytes`
    (a false escrow), signed but not applied."""
    role, decision, private = _to_commit(table, rng)
    real = table.escrow

    def forged(who: str, seq: int, openings: list[JSON]) -> str:
        return openings_of(who, seq, openings, real)

    table.escrow = forged  # type: ignore[method-assign]
    try:
        return table.decide(role, decision, private)
    finally:
        table.escrow = real  # type: ignore[method-assign]


def test_a_false_escrow_is_proven_by_its_message_key_and_its_author_loses() -> None:
    table = _table()

    def wrong_salt(who: str, seq: int, openings: list[JSON], real: Any) -> str:
        bad = [dict(o, salt="11" * 32) for o in openings]  # type: ignore[arg-type]
        return str(real(who, seq, bad))

    entry = _committing_entry(table, random.Random(6), wrong_salt)
    cheat = entry.by
    # An honest ack would attest it; the referee voids it with the proof instead.
    if table.game.next_signer() == REFEREE:
        assert_refused(table.game, table.make(REFEREE, ACK, {HELD: [entry.seq, 0]}), "held")
    key = _key_of(table, entry.seq)
    assert_refused(
        table.game, table.make(cheat, VOID, {"escrow_of": entry.seq, "key": key}), "referee only"
    )
    table.apply(table.make(REFEREE, VOID, {"escrow_of": entry.seq, "key": key}))
    ended = table.game.outcome()
    assert ended is not None and ended.level == "false-escrow"
    assert ended.winner not in (None, cheat)
    assert f"false escrow in entry {entry.seq} by {cheat}" in ended.text
    result, _why = result_of("cheat.pbem", verify_text(move_file(table.game.entries)))
    assert result is not None and result.winner == ended.winner  # a loss for the cheat


def test_a_void_of_a_true_escrow_is_refused_and_one_that_does_not_open_is_the_referees_word() -> (
    None
):
    table = _table()
    rng = random.Random(7)
    _escrowed_move(table, rng)
    seq = table.game.head.seq
    author = table.game.head.by
    assert_refused(
        table.game,
        table.make(REFEREE, VOID, {"escrow_of": seq, "key": _key_of(table, seq)}),
        "matches its commitments",
    )
    # A key that does not open it: the author loses on the referee's word, like a forfeit
    # on its clock (else a losing player would seal garbage to escape its loss), but the
    # league does not rate it: nothing proves it (tests/core/test_blind_verdicts.py).
    table.apply(table.make(REFEREE, VOID, {"escrow_of": seq, "key": "22" * 32}))
    ended = table.game.outcome()
    assert ended is not None and ended.level == VOID
    assert ended.winner not in (None, author) and "the referee's word" in ended.text
    result, why = result_of("void.pbem", verify_text(move_file(table.game.entries)))
    assert result is None and "not rated" in why


def test_garbage_sealed_to_the_referee_loses_on_the_referees_word() -> None:
    table = _table()

    def garbage(who: str, seq: int, openings: list[JSON], real: Any) -> str:
        return seal(table.keys[REFEREE].public.raw, b"not openings", b"another context").hex()

    entry = _committing_entry(table, random.Random(8), garbage)
    table.apply(
        table.make(REFEREE, VOID, {"escrow_of": entry.seq, "key": _key_of(table, entry.seq)})
    )
    ended = table.game.outcome()
    assert ended is not None and ended.level == VOID and ended.winner != entry.by


def test_an_attested_escrow_cannot_be_voided() -> None:
    table = _table()
    rng = random.Random(9)
    _escrowed_move(table, rng)
    seq = table.game.head.seq
    while any(item.seq == seq for item in table.game.escrows):
        table.step(rng)  # until the referee's next ack attests it (held)
    assert seq in table.game.head.body[HELD]  # type: ignore[operator]
    assert_refused(
        table.game,
        table.make(REFEREE, VOID, {"escrow_of": seq, "key": _key_of(table, seq)}),
        "not attested yet",
    )


def test_after_a_resignation_the_referee_discloses_everything_and_nothing_stays_unchecked() -> None:
    """A side resigns with blocks still sealed and claims made on them (rulebook 4.1-4.3):
    in peer play verify lists them unchecked; the referee's disclose opens and checks all."""
    table = _table()
    rng = random.Random(10)
    for _ in range(300):
        if (
            table.game.engine.unchecked_claims(table.game.state)
            and not table.game.waiting_for_entropy
        ):
            break
        table.step(rng)
    assert table.game.engine.unchecked_claims(table.game.state)
    signer = table.game.next_signer()
    assert signer in table.game.sides
    assert_refused(table.game, table.disclose_entry(), "not over")
    table.apply(table.make(signer, MOVE, {"resign": True}))
    assert table.game.unchecked()
    assert_refused(table.game, table.make(signer, DISCLOSE, {"open": []}), "referee only")
    entry = table.disclose_entry()
    openings = list(entry.body["open"])  # type: ignore[arg-type]
    assert_refused(
        table.game,
        table.make(REFEREE, DISCLOSE, {"open": openings[1:]}),
        "every value still sealed",
    )
    wrong = [dict(openings[0], salt="33" * 32), *openings[1:]]  # type: ignore[arg-type]
    assert_refused(table.game, table.make(REFEREE, DISCLOSE, {"open": wrong}), "does not match")
    table.apply(entry)
    assert table.game.unchecked() == []
    assert table.game.unopened() == []
    assert_refused(table.game, table.make(REFEREE, DISCLOSE, {"open": openings}), "disclosed every")
    report = verify_text(move_file(table.game.entries))
    assert report.ok, report.failure


def test_settle_checks_the_claims_on_a_block_opened_after_the_game() -> None:
    """Race to Berlin 4.1-4.3: a block opened by the referee's disclose meets the checks of
    a block opened in play; a value that contradicts a cube claim is a false claim."""
    table = Table("race-to-berlin", ("west", "soviet"))
    table.join_all()
    rng = random.Random(10)
    for _ in range(300):
        if table.game.engine.unchecked_claims(table.game.state):
            break
        table.step(rng)
    state = table.game.state
    engine = table.game.engine
    claimed = next(b for b in engine.pieces(state) if b["claims"] and not b["revealed"])
    label = claimed["label"]
    value = table.secrets[label][1]
    sealed = table.game.sealed[label]

    def settle(opened: JSON) -> Any:
        item = sealed.replace(opened=True, value=opened, opened_at=99)
        ctx = ApplyContext(None, 99, None, {**table.game.sealed, label: item}, (), (label,), {})
        return engine.settle(state, ctx)

    after = settle(value)
    assert next(b for b in engine.pieces(after) if b["label"] == label)["revealed"]
    assert not next(b for b in engine.pieces(state) if b["label"] == label)["revealed"]
    cubes = max(claim["cubes"] for claim in claimed["claims"])
    with pytest.raises(PbemError, match="false claim"):
        settle(cubes - 1 if cubes > 1 else 99)
