"""Race to the Sea 1914: the cavalry skirmish (10.5.3, pbem.games.race_to_the_sea.skirmish):
a Cavalry Recon into a hex that also holds enemy scouting cavalry is fought for first."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.race_to_the_sea import choices, skirmish
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea.decisions import Recon
from pbem.testing import Table
from tests.games.race_to_the_sea.test_rts_engine import table


def _arrange(seed: int = 2) -> tuple[Table, str, str, str, str, Recon]:
    """A position (arranged on a bot game's first action): the active side's scouting
    cavalry next to a hex holding an enemy hidden counter and the enemy's scouting
    cavalry. Returns (table, side, own cavalry, enemy cavalry, target, the recon)."""
    t = table(seed)
    t.until("act")
    side = t.asked()
    assert side is not None
    s = t.state
    cav = next(k for k, c in sorted(s["counters"].items()) if c["side"] == side and c["cavalry"])
    enemy = next(k for k, c in sorted(s["counters"].items()) if c["side"] != side and c["cavalry"])
    board = s["board"]
    g = rm.grid(board)
    target = ""
    for label, c in sorted(s["counters"].items()):
        if c["side"] == side or c["cavalry"] or c["unit"] is not None:
            continue
        near = [
            h
            for h in g.neighbours(c["hex"])
            if rm.move_cost(board, c["hex"], h) is not None
            and not any(o["hex"] == h for o in s["counters"].values())
        ]
        if near:
            target = label
            break
    else:
        raise AssertionError("no hidden enemy counter to scout")
    hex_ = s["counters"][target]["hex"]
    s["counters"][cav].update(hex=near[0], scouting=True, activated=False)
    s["counters"][enemy].update(hex=hex_, scouting=True)
    return t, side, cav, enemy, target, Recon(cav, near[0], hex_, target)


def _cards(t: Table, side: str, mine: int, theirs: int) -> None:
    """The next cards of the two Combat Results decks (the rest in the discard piles)."""
    for who, card in ((side, mine), (_other(side), theirs)):
        deck = t.state["decks"][who]
        every = sorted({*deck["pile"], *deck["discard"]})
        deck["pile"], deck["discard"] = [card], [c for c in every if c != card]


def _other(side: str) -> str:
    return "germans" if side == "allies" else "allies"


def _finish_retreat(t: Table, loser: str) -> None:
    if t.state["step"] == "skirmish_retreat":
        owner = t.asked()
        assert owner == t.state["counters"][loser]["side"]
        t.decide(owner, t.choose(owner))


def test_10_5_3_a_a_recon_into_enemy_scouting_cavalry_is_listed_and_skirmishes() -> None:
    t, side, cav, enemy, target, recon = _arrange()
    assert recon in choices.actions(t.private(side), side)
    _cards(t, side, 9, 8)
    t.decide(side, recon)
    assert t.last is not None and t.last.said("a skirmish (10.5.3)")


def test_10_5_3_b_c_e_the_higher_card_wins_and_the_active_cavalry_then_scouts() -> None:
    """Both cavalry SZ 2: both numbers doubled (18 against 16); the enemy cavalry retreats
    one hex and the recon follows: the target's owner must open it."""
    t, side, cav, enemy, target, recon = _arrange()
    hex_ = recon.target_hex
    _cards(t, side, 9, 8)
    t.decide(side, recon)
    assert t.last is not None and t.last.said(f"{side} 18, {_other(side)} 16")
    if t.state["step"] == "skirmish_retreat":  # the loser's owner chooses (10.5.3.C)
        with pytest.raises(IllegalOrderError, match=r"may not retreat.*10\.5\.3\.C"):
            t.decide(_other(side), f"retreat {enemy} {hex_:04d}")
    _finish_retreat(t, enemy)
    assert t.state["counters"][enemy]["hex"] != hex_
    assert rm.grid(t.state["board"]).adjacent(t.state["counters"][enemy]["hex"], hex_)
    assert t.state["pieces"][f"unit/{target}"]["due"]  # 10.5.3.E: the recon
    assert t.state["counters"][cav]["activated"] and t.state["combat"] is None


def test_10_5_3_c_e_the_active_cavalry_that_loses_retreats_and_does_not_scout() -> None:
    t, side, cav, enemy, target, recon = _arrange()
    start = recon.at
    _cards(t, side, 7, 10)
    t.decide(side, recon)
    _finish_retreat(t, cav)
    assert t.state["counters"][cav]["hex"] != start
    assert t.state["counters"][enemy]["hex"] == recon.target_hex
    assert not t.state["pieces"][f"unit/{target}"]["due"]


@pytest.mark.parametrize("momentum", ["germans", "allies"])
def test_10_5_3_d_a_tie_goes_to_the_strategic_momentum_side(momentum: str) -> None:
    t, side, cav, enemy, target, recon = _arrange()
    t.state["momentum"] = momentum
    _cards(t, side, 8, 8)
    t.decide(side, recon)
    winner = "the Allies" if momentum == "allies" else "the Germans"
    assert t.last is not None and t.last.said(f"{winner} win (a tie")
    _finish_retreat(t, enemy if momentum == side else cav)
    assert bool(t.state["pieces"][f"unit/{target}"]["due"]) == (momentum == side)


def test_10_5_3_b_a_sealed_stack_opens_before_the_cards_are_compared() -> None:
    """10.4.A: the enemy cavalry carries a Light marker (SZ 2 -> 1): its owner opens its
    stack in a `show` entry, and its number is no longer doubled (9 x 2 against 10)."""
    t, side, cav, enemy, target, recon = _arrange()
    owner = _other(side)
    label = f"markers/{enemy}/1"
    t.state["pieces"][label] = {
        "label": label,
        "owner": owner,
        "value": None,
        "revealed": False,
        "placed_at": 5,
        "claims": [],
        "due": None,
    }
    t.state["stacks"][enemy] = label
    t.seal_for(owner, label, [["m01", "light"]])
    _cards(t, side, 9, 10)  # 18 against 10 (not 20)
    t.decide(side, recon)
    assert t.state["step"] == "show" and t.asked() == owner
    assert t.state["combat"]["winner"] is None  # not compared yet
    t.decide(owner, "show")
    assert t.state["pieces"][label]["revealed"]
    assert t.last is not None and t.last.said(f"{side} 18, {owner} 10")
    _finish_retreat(t, enemy)
    assert t.state["pieces"][f"unit/{target}"]["due"]


def test_10_5_3_f_no_hits_are_inflicted() -> None:
    t, side, cav, enemy, target, recon = _arrange()
    _cards(t, side, 12, 11)
    stacks = dict(t.state["stacks"])
    t.decide(side, recon)
    _finish_retreat(t, enemy)
    assert t.state["stacks"] == stacks and not t.state.get("restack")
    assert not any(k.startswith("draw/") for k in t.state["pieces"])


def test_13_0_a_two_event_cards_in_a_skirmish_bring_the_event() -> None:
    t, side, cav, enemy, target, recon = _arrange()
    _cards(t, side, 4, 5)
    t.decide(side, recon)
    assert t.last is not None
    seen: list[Any] = list(t.last.texts)
    _finish_retreat(t, cav)  # 8 against 10: the active cavalry lost
    assert t.last is not None
    seen += t.last.texts
    assert any("13.0: Event 9" in text for text in seen)
    assert skirmish.loser(t.state) is None
