"""Counting handovers: how often a game by email waits for the other side's person.

A bot game is played in memory (pbem.testing.SignedTable) as two clients would play
it: before a bot (the "person") is asked, the role's client gives its automatic answer
if it has one (pbem.answers: acknowledgements, only choices, the bots' standing orders).
Every entry is labelled "person" or "automatic". The log is cut into batches at each
change of signer: one batch is one mail. A mail *needs a person* when the batch that
answers it holds a person's entry; the others are answered by the receiving machine
alone (`pbem mail watch`, or at once when its person next opens the game).

With automatic answers off, every entry is a person's (acknowledgements are typed) and
every mail needs a person. bench/handovers.py compares the two over seeded games; the
tests check the same counts on a few (tests/play/test_handover_counts.py). A measuring
tool, not a part of pbem: it lives beside the script that prints its figures.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from pbem.answers import automatic
from pbem.bots import bot_orders, choose
from pbem.core.log import Entry
from pbem.ledger import engine_by_name
from pbem.testing import SignedTable


@dataclass(frozen=True)
class Count:
    """One whole game's handovers."""

    rules: str
    seed: int
    auto: bool
    entries: int
    turns: int
    mails: int  # changes of signer after the joins: one mail each
    person_mails: int  # mails whose answer needed a person
    automatic_entries: int
    person_changes: int  # times the next person's decision is the other side's

    @property
    def changes_per_turn(self) -> float:
        return self.person_changes / max(self.turns, 1)

    @property
    def per_turn(self) -> float:
        return self.person_mails / max(self.turns, 1)


def play_counted(
    rules: str,
    seed: int,
    auto: bool,
    orders: Mapping[str, Mapping[str, str]] | None = None,
    roles: tuple[str, ...] | None = None,
    limit: int = 20000,
) -> tuple[Count, SignedTable]:
    """Play one bot game of `rules` and count its handovers. `orders`: role -> standing
    orders (default: the bot's own, for every role) when `auto`."""
    table = SignedTable(rules, roles or _roles(rules), signed=False, nonce=f"handovers-{seed}")
    table.join_all()
    engine, game = table.engine, table.game
    if orders is None:
        orders = {role: bot_orders(rules) for role in table.roles}
    rng = random.Random(seed)
    first = len(game.entries)
    person: list[bool] = []
    while game.outcome() is None:
        if len(game.entries) > limit:
            raise AssertionError(f"no outcome after {limit} entries")
        role = game.next_signer()
        assert role is not None
        state = table.state_for(role)
        private = engine.with_secrets(state, role, table.known(role))
        asked = any(p.role == role for p in engine.prompts(private))
        answer = None
        if auto:
            waiting = game.waiting_for_entropy
            answer = automatic(engine, private, role, orders.get(role, {}), dice_waiting=waiting)
        if answer is not None and answer.decision is None:
            table.ack(role)
        elif answer is not None:
            table.decide(role, answer.decision, private)
        elif asked:
            table.decide(role, choose(engine, private, role, rng), private)
        else:
            table.ack(role)
        person.append(answer is None)
    played = game.entries[first:]
    mails = person_mails = 0
    for index in range(1, len(played)):
        if played[index].by != played[index - 1].by:
            mails += 1
            # the mail that ends the previous batch is answered by the batch starting here
            answered_by_person = _batch_has_person(played, person, index)
            person_mails += answered_by_person
    deciders = [entry.by for entry, by_person in zip(played, person, strict=True) if by_person]
    changes = sum(1 for a, b in zip(deciders, deciders[1:], strict=False) if a != b)
    state = game.state
    turns = int(state.get("turn", 1) or 1) if isinstance(state, dict) else 1
    count = Count(
        rules,
        seed,
        auto,
        entries=len(played),
        turns=turns,
        mails=mails,
        person_mails=person_mails,
        automatic_entries=person.count(False),
        person_changes=changes,
    )
    return count, table


def _batch_has_person(played: list[Entry], person: list[bool], start: int) -> bool:
    by = played[start].by
    index = start
    while index < len(played) and played[index].by == by:
        if person[index]:
            return True
        index += 1
    return False


def _roles(rules: str) -> tuple[str, ...]:
    return tuple(engine_by_name(rules).roles)
