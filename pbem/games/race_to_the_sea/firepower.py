"""Firepower Combat (9.2, 11) and fire against scouting cavalry (10.5.4.1).

The entries of one Firepower Combat (docs/race-to-the-sea.md, "Combat"):

1. the attacker announces `fire c04 0807 to 0808 [c21]`, opening its identity (11.1.C);
   unless the target is scouting cavalry, both cards flip in that entry (11.2.A-B:
   public draws, produced when the defender's next entry brings its reveal);
   scouting cavalry first says `stand` or `fall back HEX` (11.3.B), and the cards flip
   in that entry;
2. where a card section reads a modified rating (10.4.A), the owner opens the identity
   and the stack (`show`): the attacker's ratings whenever its section reads them, the
   target's when the attack section reads the enemy's;
3. the target replies (`reply [met] [back HEX] [lost]`): using its MET rating reveals it
   (11.2.I-J), a Fallback Move turns one hit into a one-hex retreat (11.3.A), hits reveal
   it (11.2.I: "recon by fire"), and its client says whether the hits eliminate it
   (`lost`, checked when it opens: 5.2.6);
4. a surviving target draws its markers privately and commits them (`restack`, hits.py);
5. two EVENT! cards bring the Event of their sum (13.0, events.py).
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.race_to_the_sea import cards as rc
from pbem.games.race_to_the_sea import events, hits
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.decisions import FallBack, Fire, Reply, Stand
from pbem.games.race_to_the_sea.size_claims import record_claims
from pbem.games.race_to_the_sea.state import (
    flip_card,
    hex_text,
    identity,
    illegal,
    is_hidden,
    other,
    piece_label,
    positions,
    ready_counter,
    take_control,
    unit,
    writable_counter,
)
from pbem.games.race_to_the_sea.what_next import PENDING
from pbem.kit.steps import NO_OPENINGS, Next, Openings

RATING_TESTS = ("rating", "larger")  # conditions that read a modified rating (SQ/HA do not)
ALL_TESTS = (*RATING_TESTS, "special")  # and those that read the unit's identity


# --- what the cards read --------------------------------------------------------------------------


def _reads(lines: list[dict[str, Any]], whose: str, tests: tuple[str, ...] = RATING_TESTS) -> bool:
    """Whether a section's lines read a rating of `whose` ("own" or "enemy"); "larger"
    compares both sizes."""
    for line in lines:
        for cond in line["if"]:
            if cond["test"] == "larger" and "larger" in tests:
                return True
            if cond["test"] in tests and cond.get("whose") == whose:
                return True
    return False


def situation(state: State, attacker: str, defender: str) -> dict[str, Any]:
    """11.2, 11.4: the target hex's cover (a river does not count against fire, 2.1.4.C)
    and whose hex is higher."""
    board = state["board"]
    a, d = state["counters"][attacker]["hex"], state["counters"][defender]["hex"]
    return {"cover": rm.cover(board, d), "higher": rm.higher_side(board, a, d)}


# --- 1. the announcement --------------------------------------------------------------------------


def fire_opens(state: State, role: str, d: Any) -> Openings:
    """11.1.C: the attacker is revealed when it announces the fire."""
    if isinstance(d, Fire) and d.counter in state["counters"] and is_hidden(state, d.counter):
        return Openings((piece_label(d.counter),), rule="11.1.C")
    return NO_OPENINGS


def target_of(state: State, role: str, d: Fire) -> str:
    enemies = sorted(
        k for k, c in state["counters"].items() if c["side"] != role and c["hex"] == d.target_hex
    )
    if not enemies:
        raise illegal(f"no enemy unit in hex {hex_text(d.target_hex)}", "9.2")
    if d.target is None:
        if len(enemies) > 1:
            raise illegal(
                f"hex {hex_text(d.target_hex)} holds {', '.join(enemies)}: name the target "
                f"('fire {d.counter} {d.at:04d} to {d.target_hex:04d} {enemies[0]}')",
                "11.1.A",
            )
        return enemies[0]
    if d.target not in enemies:
        raise illegal(f"no enemy counter {d.target} in hex {hex_text(d.target_hex)}", "11.1.A")
    return d.target


def fire(state: State, role: str, d: Fire, ctx: Context) -> Next:
    """9.2, 11.1: one unit adjacent to an enemy-occupied hex fires at one unit there."""
    if d.counter not in state["counters"]:
        raise illegal(f"{d.counter} was a False Report: it may only move", "9.1.C")
    counter = ready_counter(state, role, d.counter)
    if counter["hex"] != d.at:
        raise illegal(f"{d.counter} is in hex {hex_text(counter['hex'])}", "9.2")
    if counter["cavalry"] and counter["scouting"]:
        raise illegal(f"{d.counter} is scouting cavalry: it may not fire", "11.1.B")
    if not rm.adjacency(state["board"]).adjacent(d.at, d.target_hex):
        raise illegal(f"hex {hex_text(d.target_hex)} is not adjacent to {d.counter}", "9.2")
    target = target_of(state, role, d)
    ctx.event(
        f"{d.counter} ({identity(state, d.counter)}) fires at {target} in {hex_text(d.target_hex)}"
    )
    state["combat"] = {
        "kind": "fire",
        "side": role,
        "attacker": d.counter,
        "defender": target,
        "hex": d.target_hex,  # the combat hex an Event reads (13.0), even after a fallback
        "cards": None,
        "fell_back": False,
    }
    tc = state["counters"][target]
    if tc["cavalry"] and tc["scouting"]:
        state["step"] = "fire_cavalry"  # 11.3.B: it may fall back before the flip
        return None
    return _flip(state, ctx)


# --- scouting cavalry under fire (11.3.B, 10.5.4.1) -----------------------------------------------


def retreats(state: State, counter: str) -> dict[int, mv.Retreat]:
    """The retreats a Fallback Move may make, by the hex they end in (11.3.A: a retreat by
    12.7, through an overstacked hex when it must, 12.7.E)."""
    found = mv.retreat_options(state["board"], positions(state), counter, None, flooded(state))
    return {r.hex: r for r in found}


def fallbacks(state: State, counter: str) -> list[int]:
    return sorted(retreats(state, counter))


def flooded(state: State) -> list[int]:
    return list(state.get("flooded") or [])


def stand(state: State, role: str, d: Stand, ctx: Context) -> Next:
    return _flip(state, ctx)


def fall_back(state: State, role: str, d: FallBack, ctx: Context) -> Next:
    target = state["combat"]["defender"]
    if d.to not in fallbacks(state, target):
        raise illegal(f"{target} may not fall back to hex {hex_text(d.to)}", "11.3.A, 12.7")
    _move(state, target, d.to, ctx, "11.3.B")
    state["combat"]["fell_back"] = True
    return _flip(state, ctx)


def _move(state: State, counter: str, to: int, ctx: Context, rule: str) -> None:
    """The retreat, with the stacking claims hidden sizes make (10.2.A, 12.7.E)."""
    found = retreats(state, counter)[to]
    writable_counter(state, counter)["hex"] = to
    take_control(state, counter, to)
    side = state["counters"][counter]["side"]
    record_claims(state, ctx, side, counter, found.claims)
    ctx.event(f"{counter} falls back to {hex_text(to)} ({rule})")


# --- 2. the flip ----------------------------------------------------------------------------------


def _flip(state: State, ctx: Context) -> Next:
    """11.2.A-B: both top cards; then whoever owes a rating opens it (10.4.A)."""
    combat = state["combat"]
    side, attacker, defender = combat["side"], combat["attacker"], combat["defender"]
    numbers = {}
    for who, purpose in ((side, "firepower attack"), (other(side), "firepower defense")):
        numbers[who] = flip_card(state, who, ctx, f"11.2: {who}' {purpose} card")
    combat["cards"] = numbers
    ctx.event(f"the cards: {side} #{numbers[side]}, {other(side)} #{numbers[other(side)]}")
    if combat["fell_back"]:
        return finish(state, ctx)  # 11.3.B: "flipped anyway only to check for an Event"
    attack, defense = _lines(state)
    why = "10.4.A: a card reads its modified ratings"
    if _reads(attack, "own") or _reads(defense, "enemy"):
        hits.need_ratings(state, attacker, why)
    if _reads(attack, "enemy"):
        hits.need_ratings(state, defender, why)
    elif _reads(attack, "enemy", ("special",)):
        hits.need_identity(state, defender, "11.2: a card reads its SQ/HA")
    return PENDING


def proceed(state: State, ctx: Context) -> Next:
    """After the openings (interrupts.continue_play): a False Report target that opened
    has left the map (10.4.C) and the fire ends; otherwise the target replies."""
    combat = state["combat"]
    if combat["defender"] not in state["counters"]:
        ctx.event(f"{combat['defender']} was a False Report: the fire ends")
        return finish(state, ctx)
    state["step"] = "fire_reply"
    return None


# --- 3. the target's reply ------------------------------------------------------------------------


def _lines(state: State) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    combat = state["combat"]
    side, numbers = combat["side"], combat["cards"]
    data = state["cards_data"]
    attack = rc.combat_card(data, side, numbers[side])["firepower_attack"]["lines"]
    defense = rc.combat_card(data, other(side), numbers[other(side)])["firepower_defense"]["lines"]
    return attack, defense


def reads_met(state: State) -> bool:
    """Whether the target's defense section has lines on its own ratings (11.2.I: using
    them is the owner's choice, and reveals it)."""
    _attack, defense = _lines(state)
    return _reads(defense, "own", ALL_TESTS)


def net_hits(state: State, met: bool) -> int | None:
    """11.2.C-H: the net hits, as this state can know them (None: it lacks a rating a
    line reads). Without the defender's choice (`met` False) the lines on its own ratings
    do not count."""
    combat = state["combat"]
    attacker, defender = combat["attacker"], combat["defender"]
    attack, defense = _lines(state)
    if not met:
        defense = [line for line in defense if not _reads([line], "own", ALL_TESTS)]
    mine = _rated(state, attacker, (attack, "own"), (defense, "enemy"))
    theirs = _rated(state, defender, (attack, "enemy"), (defense, "own"))
    if mine is None or theirs is None:
        return None
    mine_view, their_view = rc._views(situation(state, attacker, defender))
    total = rc.evaluate(attack, mine, theirs, mine_view)
    total += rc.evaluate(defense, theirs, mine, their_view)
    return max(total, 0)


def _rated(
    state: State, counter: str, *readers: tuple[list[dict[str, Any]], str]
) -> dict[str, Any] | None:
    """The counter's ratings as the lines read them: modified (3.2.7) when a line reads a
    rating, printed when only its SQ/HA is read (markers never change it), a stand-in no
    line reads otherwise; None when this state lacks what is read."""
    if any(_reads(lines, whose) for lines, whose in readers):
        return hits.ratings_of(state, counter)
    if any(_reads(lines, whose, ("special",)) for lines, whose in readers):
        unit_id = identity(state, counter)
        return None if unit_id is None else dict(unit(state, unit_id))
    return dict(rc.EMPTY_HEX)


def reply_opens(state: State, role: str, d: Any) -> Openings:
    """11.2.I: hits reveal the target; the MET choice reveals its ratings; an elimination
    opens it (5.2.6)."""
    if not isinstance(d, Reply) or state["combat"] is None:
        return NO_OPENINGS
    defender = state["combat"]["defender"]
    if d.met or d.lost:
        return Openings(tuple(hits.sealed_labels(state, defender)), rule="11.2.I")
    count = net_hits(state, False)
    if count and is_hidden(state, defender):
        return Openings((piece_label(defender),), rule="11.2.I")
    return NO_OPENINGS


def false_target(state: State) -> bool:
    """The owner's client: whether the target is a False Report (hits reveal it, and it
    leaves the map without drawing markers, 10.4.C)."""
    unit_id = identity(state, state["combat"]["defender"])
    return unit_id is not None and unit(state, unit_id)["kind"] == "false-report"


def reply(state: State, role: str, d: Reply, ctx: Context) -> Next:
    combat = state["combat"]
    defender = combat["defender"]
    if defender not in state["counters"]:  # a False Report opened: it leaves (10.4.C)
        if ctx.committed_now():
            raise illegal("a False Report leaving the map draws no markers", "10.4.C")
        ctx.event(f"{defender} was a False Report: the fire ends")
        return finish(state, ctx)
    count = net_hits(state, d.met)
    if count is None:
        raise illegal("the target's ratings must open to use its MET rating", "11.2.I")
    ctx.event(f"net hits on {defender}: {count}" + (" (MET used)" if d.met else ""))
    if d.back is not None:
        if count < 1:
            raise illegal("a Fallback Move replaces a hit: there is none", "11.3.A")
        if d.back not in fallbacks(state, defender):
            raise illegal(f"{defender} may not fall back to hex {hex_text(d.back)}", "11.3.A")
        _move(state, defender, d.back, ctx, "11.3.A")
        count -= 1
    if count > 0:
        hits.absorb(state, role, {defender: count}, {defender} if d.lost else set(), ctx, "11.2.G")
    elif d.lost:
        raise illegal(f"{defender} takes no hit: it is not eliminated", "5.2.6")
    return finish(state, ctx)


def lost_after(state: State, d: Reply) -> bool:
    """The owner's client: whether the hits of this reply eliminate the target."""
    count = net_hits(state, d.met)
    if count is None:
        return False
    count -= 1 if d.back is not None and count > 0 else 0
    return hits.eliminated_by(state, state["combat"]["defender"], count)


# --- the end of the combat ------------------------------------------------------------------------


def finish(state: State, ctx: Context) -> Next:
    """11.2.F, 13.0: the attacker is activated (9.B), an Event follows the combat, and the
    owner of fresh draws commits its markers before play goes on (interrupts.py)."""
    combat = state["combat"]
    state["combat"] = None
    attacker = combat["attacker"]
    if attacker in state["counters"]:
        writable_counter(state, attacker)["activated"] = True
    state["resume"] = "action"
    events.after_combat(state, combat, ctx)
    return PENDING
