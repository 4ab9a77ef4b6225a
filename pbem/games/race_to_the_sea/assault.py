"""Assault Combat (9.3, 12), attacks on scouting cavalry (10.5.4.2) and the Counter-Attack
Event (13.0).

The flow of one assault (docs/race-to-the-sea.md, "Combat"); `proceed` moves it on each
time no interruption (openings, markers, hits: interrupts.py) is pending:

1. `assault c09 0605 +c12 0706 to 0707`: the attackers enter the hex (12.1.A-B); their
   identities open in that entry, the defenders' in their owner's next one (12.2.A); a
   revealed False Report leaves the map (12.2.B); more than one attacker needs as many
   actions in a row (12.1.B);
2. matchups (12.2.D-G): the attacker pairs its units (`match c09 c21 c12 c22`), the
   defender places its extra units (`match c23 c09`); one-on-one needs no decision;
3. each matchup in the attacker's order (12.3): both cards flip (with a Big Push for a
   flank attack's later attackers, 12.5, 9.4.B: the defender's card, then two for the
   attacker, who keeps one: `keep 3`); the owners open what the cards read (10.4.A);
   each owner applies the hits on its unit (`absorb`, hits.py); the result (12.6): an
   elimination, more hits, the MET tie-break (which reads both modified MET ratings), or
   the same two fight again; the loser retreats (12.7: `retreat c21 0808` when it has a
   choice; an attacker goes back where it came from; no retreat: one more hit and another
   combat, 12.7.F); before the next matchup either side may withdraw its unit of it
   (12.4.B: `withdraw c12` or `fight on`);
4. when the matchups are over and both sides are still in the hex, new matchups
   (12.4.E-F); otherwise the attackers hold the hex (12.8: beyond 6 SZ the extra ones go
   back, `back c12`);
5. the attackers are activated, and the Events of the assault apply (13.0.B: none may
   touch the assaulted hex while its matchups go on, so they wait for the end).

An empty NML hex (12.9), a hex left empty by revealed False Reports (12.2.B, 12.9.E) and
scouting cavalry (10.5.4.2) are fought as the Empty Hex: the defender reads only its
card's Empty Hex line, is 0 SZ and D MET, ties go to the attacker, and scouting cavalry
never takes a hit but retreats one hex when the attacker wins.
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.race_to_the_sea import cards as rc
from pbem.games.race_to_the_sea import events, firepower, hits
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.decisions import (
    Assault,
    CounterAttack,
    FightOn,
    GoBack,
    Keep,
    Match,
    Retreat,
    Withdraw,
)
from pbem.games.race_to_the_sea.size_claims import record_claims
from pbem.games.race_to_the_sea.state import (
    NAMES,
    flip_card,
    hex_text,
    identity,
    illegal,
    is_hidden,
    other,
    piece_label,
    positions,
    take_control,
    unit,
    writable_counter,
)
from pbem.games.race_to_the_sea.what_next import PENDING
from pbem.kit.steps import NO_OPENINGS, Next, Openings

MET_ORDER = "ABCD"  # 3.2.2: A is the best


# --- who is who ---------------------------------------------------------------------------


def _here(state: State, label: str) -> bool:
    c = state["counters"].get(label)
    return c is not None and c["hex"] == state["combat"]["hex"]


def attackers(state: State) -> list[str]:
    return [k for k in state["combat"]["attackers"] if _here(state, k)]


def defenders(state: State) -> list[str]:
    combat = state["combat"]
    return sorted(
        k
        for k, c in state["counters"].items()
        if c["hex"] == combat["hex"] and c["side"] != combat["side"]
    )


def _scouting(state: State, label: str) -> bool:
    c = state["counters"].get(label)
    return c is not None and bool(c["cavalry"] and c["scouting"])


def actions_in_a_row(state: State, role: str) -> int:
    """12.1.B: the actions `role` may take now before the other side acts."""
    count = 0
    for side in state["order"][state["index"] :]:
        if side != role:
            break
        count += 1
    return count


# --- 1. the announcement -------------------------------------------------------------------


def assault_opens(state: State, role: str, d: Any) -> Openings:
    """12.2.A: the attacking units flip face up when they announce."""
    if not isinstance(d, Assault):
        return NO_OPENINGS
    labels = tuple(
        piece_label(k) for k, _h in d.units if k in state["counters"] and is_hidden(state, k)
    )
    return Openings(labels, rule="12.2.A") if labels else NO_OPENINGS


def check_announcement(
    state: State, role: str, d: Assault, nml: set[int] | None = None
) -> str | None:
    """Why the assault may not be announced, as this state knows it (None: it may).
    `nml`: the enemy's No Man's Land hexes, when the caller has them already."""
    g = rm.adjacency(state["board"])  # (`rm.grid`'s answers)
    seen = set()
    for label, at in d.units:
        c = state["counters"].get(label)
        if c is None or c["side"] != role:
            return f"no counter {label} of {NAMES[role]} on the map"
        if label in seen:
            return f"{label} is named twice"
        seen.add(label)
        if c["activated"]:
            return f"{label} has already acted this round"
        if c["hex"] != at:
            return f"{label} is in hex {hex_text(c['hex'])}"
        if c["cavalry"] and c["scouting"]:
            return f"{label} is scouting cavalry: it may not assault (12.1.C)"
        known = identity(state, label)
        if known is not None and unit(state, known)["kind"] == "false-report":
            return f"{label} is a False Report: it may only move (9.1.C)"
        if not g.adjacent(at, d.target_hex):
            return f"hex {hex_text(d.target_hex)} is not adjacent to {label}"
    if rm.terrain(state["board"], d.target_hex) in rm.PROHIBITED or d.target_hex in (
        state.get("flooded") or []
    ):
        return f"hex {hex_text(d.target_hex)} is prohibited terrain"
    held = {c["side"] for c in state["counters"].values() if c["hex"] == d.target_hex}
    if role in held:
        return f"hex {hex_text(d.target_hex)} holds your own units (12.1.A, 12.9.A)"
    if not held:
        # (without `nml`: No Man's Land asked of the one hex, the enemy's hexes read from the
        # counters, not `mv.nml_hexes` of every counter's position)
        if nml is not None:
            outside = d.target_hex not in nml
        else:
            enemies = mv.enemy_hexes(state["counters"], role)
            outside = d.target_hex not in mv.near_enemies(state["board"], enemies)[1]
        if outside:
            return f"hex {hex_text(d.target_hex)} is neither enemy-occupied nor enemy NML (12.9.A)"
    planned = state.get("plan_units")
    if planned is not None and any(k not in planned for k, _h in d.units):
        return "only the Planned Operations units may assault now (9.4.A)"
    if planned is None and len(d.units) > actions_in_a_row(state, role):
        return (
            f"{len(d.units)} attackers need {len(d.units)} actions in a row "
            f"({NAMES[role]} have {actions_in_a_row(state, role)})"
        )
    return None


def assault(state: State, role: str, d: Assault, ctx: Context) -> Next:
    """9.3, 12.1: the attackers enter the enemy hex; then the combat."""
    problem = check_announcement(state, role, d)
    if problem is not None:
        raise illegal(problem, "9.3, 12.1")
    start(
        state, role, dict(d.units), d.target_hex, ctx, big_push=state.get("plan_units") is not None
    )
    if state.get("plan_units") is None:
        state["index"] += len(d.units) - 1  # 9.3.B: each attacker uses one action
    return PENDING


def start(
    state: State, role: str, units: dict[str, int], hex_: int, ctx: Context, big_push: bool
) -> None:
    """Move the attackers in (12.1.A) and oblige the defenders to flip (12.2.A)."""
    g = rm.adjacency(state["board"])  # (`rm.grid`'s answers)
    froms = sorted(set(units.values()))
    flank = any(not g.adjacent(a, b) for a in froms for b in froms if a != b)  # 12.5.A
    for label in units:
        writable_counter(state, label)["hex"] = hex_
    state["combat"] = {
        "kind": "assault",
        "side": role,
        "hex": hex_,
        "attackers": dict(units),
        "stage": "reveal",
        "matchups": [],
        "current": None,
        "fought": 0,
        "flank": flank,
        "big_push": big_push,  # 9.4.B: a Planned Operations assault
        "cards": None,
        "pushed": None,
        "inflicted": None,
        "events": [],
        "withdraw": None,
        "defenders_at_start": [],
    }
    names = ", ".join(f"{k} ({identity(state, k)}) from {hex_text(h)}" for k, h in units.items())
    ctx.event(
        f"assault on {hex_text(hex_)}: {names}" + (" (a flank attack, 12.5)" if flank else "")
    )
    found = defenders(state)
    state["combat"]["defenders_at_start"] = found
    for label in found:
        hits.need_identity(state, label, "12.2.A: an assaulted unit flips face up")


# --- the machine ---------------------------------------------------------------------------


def proceed(state: State, ctx: Context) -> Next:
    """Move the assault on (called when no interruption is pending)."""
    combat = state["combat"]
    stage = combat["stage"]
    if stage == "reveal":
        gone = [k for k in combat["defenders_at_start"] if k not in state["counters"]]
        if gone:
            ctx.event(f"{', '.join(gone)}: False Report(s) removed (12.2.B)")
        combat["stage"] = "match"
        stage = "match"
    if stage == "match":
        return _start_matching(state, ctx)
    if stage == "fight":
        return _next_matchup(state, ctx)
    if stage == "read":
        return _score(state, ctx)
    if stage == "hit":
        return _after_hits(state, ctx)
    if stage == "tie":
        return _tie_break(state, ctx)
    if stage == "again":
        return again(state, ctx)
    return None


# --- 2. matchups (12.2.D-G) -----------------------------------------------------------------------


def _start_matching(state: State, ctx: Context) -> Next:
    combat = state["combat"]
    atk, dfn = attackers(state), defenders(state)
    if not atk or not dfn:
        if atk and not dfn and combat["fought"] == 0:
            # 12.9, 12.2.B: an empty hex (or one its False Reports left) is still fought
            combat["matchups"] = [[a, None] for a in atk]
            combat["stage"] = "fight"
            return _next_matchup(state, ctx)
        return end(state, ctx)
    if len(atk) == 1 or len(dfn) == 1:
        combat["matchups"] = (
            [[a, d] for a in atk for d in dfn] if len(atk) == 1 else [[a, dfn[0]] for a in atk]
        )
        combat["stage"] = "fight"
        return _next_matchup(state, ctx)
    combat["stage"] = "matching"
    state["step"] = "match"
    return None


def match_side(state: State) -> str:
    """Who assigns now: the attacker first; the defender places its units left over."""
    combat = state["combat"]
    return combat["side"] if not combat["matchups"] else other(combat["side"])


def match_problem(state: State, role: str, pairs: list[tuple[str, str]]) -> str | None:
    combat = state["combat"]
    atk, dfn = attackers(state), defenders(state)
    mine, theirs = (atk, dfn) if role == combat["side"] else (dfn, atk)
    named = [a for a, _d in pairs]
    if role == combat["side"]:
        must = mine
    else:
        already = {d for _a, d in combat["matchups"]}
        must = [k for k in mine if k not in already]
    if sorted(named) != sorted(must) or len(set(named)) != len(named):
        return f"pair each of {', '.join(must)} once"
    load = {k: 0 for k in theirs}
    if role != combat["side"]:
        for a, _d in combat["matchups"]:
            load[a] += 1
    for _mine, their in pairs:
        if their not in load:
            return f"{their} is not an enemy unit in the hex"
        # 12.2.D-F: each enemy unit has one before any has two, two before three...
        if load[their] > min(load.values()):
            return f"{their} already has more opponents than another enemy unit (12.2.E-F)"
        load[their] += 1
    one_on_one = role == combat["side"] and len(mine) <= len(theirs)
    if one_on_one and len({d for _a, d in pairs}) != len(pairs):
        return "one-on-one first: each attacker against a different defender (12.2.D)"
    return None


def match(state: State, role: str, d: Match, ctx: Context) -> Next:
    problem = match_problem(state, role, list(d.pairs))
    if problem is not None:
        raise illegal(problem, "12.2.D-G")
    combat = state["combat"]
    if role == combat["side"]:
        combat["matchups"] = [[a, b] for a, b in d.pairs]
        left = [k for k in defenders(state) if k not in {b for _a, b in d.pairs}]
        if left:
            return None  # the defender places the rest (12.2.E)
    else:
        combat["matchups"] += [[b, a] for a, b in d.pairs]
    ctx.event("matchups: " + ", ".join(f"{a} v {b}" for a, b in combat["matchups"]))
    combat["stage"] = "fight"
    return _next_matchup(state, ctx)


# --- 3. one matchup -------------------------------------------------------------------------------


def _next_matchup(state: State, ctx: Context) -> Next:
    combat = state["combat"]
    while combat["matchups"]:
        a, d = combat["matchups"][0]
        if _here(state, a) and (d is None or _here(state, d)):
            break
        combat["matchups"].pop(0)  # 12.4.E: rematched later
    else:
        return _start_matching(state, ctx)
    if combat["fought"] > 0 and combat["withdraw"] is None and d is not None:
        combat["withdraw"] = [combat["side"], other(combat["side"])]  # 12.4.B
    if combat["withdraw"]:
        state["step"] = "withdraw"
        return None
    combat["withdraw"] = None
    return _flip(state, ctx)


def withdraw_side(state: State) -> str | None:
    combat = state.get("combat")
    if not combat or not combat.get("withdraw"):
        return None
    return str(combat["withdraw"][0])


def withdraw_options(state: State, role: str) -> list[tuple[str, int]]:
    combat = state["combat"]
    a, d = combat["matchups"][0]
    label = a if role == combat["side"] else d
    return [(label, h) for h in _retreat_hexes(state, label)]


def withdraw(state: State, role: str, d: Withdraw, ctx: Context) -> Next:
    if (d.counter, d.to) not in withdraw_options(state, role):
        raise illegal(f"{d.counter} may not withdraw to {hex_text(d.to)}", "12.4.B, 12.7")
    _retreat(state, d.counter, d.to, ctx, "12.4.B")
    return _withdraw_done(state, role, ctx)


def fight_on(state: State, role: str, d: FightOn, ctx: Context) -> Next:
    return _withdraw_done(state, role, ctx)


def _withdraw_done(state: State, role: str, ctx: Context) -> Next:
    combat = state["combat"]
    combat["withdraw"].pop(0)
    a, d = combat["matchups"][0]
    if not (_here(state, a) and _here(state, d)):
        combat["withdraw"] = None
        combat["matchups"].pop(0)
        return _next_matchup(state, ctx)
    if combat["withdraw"]:
        return None
    return _flip(state, ctx)


def _big_push(state: State) -> bool:
    combat = state["combat"]
    return bool(combat["big_push"] or (combat["flank"] and combat["fought"] > 0))


def _flip(state: State, ctx: Context) -> Next:
    """12.3.B-C: both cards; a Big Push draws the defender's first, then two for the
    attacker, who keeps one (9.4.B, 12.5.C)."""
    combat = state["combat"]
    side = combat["side"]
    a, d = combat["matchups"][0]
    combat["current"] = [a, d]
    combat["withdraw"] = None
    foe = other(side)
    defense = flip_card(state, foe, ctx, f"12.3.C: {foe}' assault defense card")
    if _big_push(state):
        first = flip_card(state, side, ctx, "9.4.B: Big Push, first card")
        second = flip_card(state, side, ctx, "9.4.B: Big Push, second card")
        combat["pushed"] = [first, second]
        combat["cards"] = {foe: defense}
        ctx.event(f"Big Push: {NAMES[side]} draw #{first} and #{second} against #{defense}")
        state["step"] = "keep"
        return None
    attack = flip_card(state, side, ctx, f"12.3.B: {side}' assault attack card")
    combat["cards"] = {side: attack, foe: defense}
    return _cards_known(state, ctx)


def keep(state: State, role: str, d: Keep, ctx: Context) -> Next:
    combat = state["combat"]
    if d.card not in combat["pushed"]:
        raise illegal(f"keep #{combat['pushed'][0]} or #{combat['pushed'][1]}", "9.4.B")
    combat["cards"][role] = d.card
    combat["pushed"] = None
    ctx.event(f"{NAMES[role]} keep #{d.card}")
    return _cards_known(state, ctx)


def _sections(state: State) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    combat = state["combat"]
    side, foe = combat["side"], other(combat["side"])
    a_card = rc.combat_card(state["cards_data"], side, combat["cards"][side])
    d_card = rc.combat_card(state["cards_data"], foe, combat["cards"][foe])
    attack = a_card["assault_attack"]["lines"]
    if _empty(state):
        section = d_card.get(rc.EMPTY_HEX_SECTION)
        return attack, (section["lines"] if section else [])
    return attack, d_card["assault_defense"]["lines"]


def _empty(state: State) -> bool:
    """12.9, 10.5.4.2: no defender, or scouting cavalry: the Empty Hex line alone."""
    d = state["combat"]["current"][1]
    return d is None or _scouting(state, d)


def _cards_known(state: State, ctx: Context) -> Next:
    """The owners open what the sections read (10.4.A)."""
    combat = state["combat"]
    a, d = combat["current"]
    numbers = combat["cards"]
    ctx.event(
        f"{a} v {d or 'the empty hex'}: "
        + ", ".join(f"{NAMES[s]} #{n}" for s, n in sorted(numbers.items()))
    )
    attack, defense = _sections(state)
    why = "10.4.A: a card reads its modified ratings"
    if firepower._reads(attack, "own") or firepower._reads(defense, "enemy"):
        hits.need_ratings(state, a, why)
    read = firepower._reads(attack, "enemy") or firepower._reads(defense, "own")
    if d is not None and not _empty(state) and read:
        hits.need_ratings(state, d, why)
    combat["stage"] = "read"
    return PENDING


def _ratings(state: State, label: str | None) -> dict[str, Any]:
    if label is None or _scouting(state, label):
        return dict(rc.EMPTY_HEX)
    found = hits.ratings_of(state, label)
    if found is None:  # not read by any line (else it was opened): its printed ratings
        unit_id = identity(state, label)
        found = dict(unit(state, unit_id)) if unit_id is not None else dict(rc.EMPTY_HEX)
    return found


def _score(state: State, ctx: Context) -> Next:
    """12.3.D-E: the hits both ways; each owner applies those on its unit."""
    combat = state["combat"]
    a, d = combat["current"]
    attack, defense = _sections(state)
    situation = {
        "cover": rm.assault_cover(state["board"], combat["attackers"][a], combat["hex"]),
        "higher": rm.higher_side(state["board"], combat["attackers"][a], combat["hex"]),
    }
    mine, theirs = rc._views(situation)
    a_rates, d_rates = _ratings(state, a), _ratings(state, d)
    on_d = max(rc.evaluate(attack, a_rates, d_rates, mine), 0)
    on_a = max(rc.evaluate(defense, d_rates, a_rates, theirs), 0)
    combat["inflicted"] = {"attacker": on_d, "defender": on_a}
    ctx.event(f"hits: {on_d} on {d or 'the empty hex'}, {on_a} on {a}")
    combat["stage"] = "hit"
    queue = []
    if on_a > 0:
        queue.append((combat["side"], {a: on_a}))
    if on_d > 0 and d is not None and not _scouting(state, d):
        queue.append((other(combat["side"]), {d: on_d}))  # 10.5.4.2: cavalry takes none
    combat["to_absorb"] = queue
    return _absorb_next(state, ctx)


def _absorb_next(state: State, ctx: Context) -> Next:
    combat = state["combat"]
    if combat.get("to_absorb"):
        side, on = combat["to_absorb"].pop(0)
        state["absorbing"] = {"side": side, "hits": on, "rule": "12.3.D"}
    return PENDING


def _after_hits(state: State, ctx: Context) -> Next:
    """12.6: who won."""
    combat = state["combat"]
    if combat.get("to_absorb"):
        return _absorb_next(state, ctx)
    a, d = combat["current"]
    a_on, d_on = _here(state, a), d is not None and _here(state, d)
    _queue_event(state)
    if d is None or _scouting(state, d):
        # 12.9.C-D: the empty hex is 0 SZ, D MET; ties go to the attacker
        if not a_on:
            return _matchup_over(state, ctx)
        if combat["inflicted"]["defender"] > combat["inflicted"]["attacker"]:
            return _lose(state, a, ctx)
        if d is not None:
            return _lose(state, d, ctx)  # 10.5.4.2: the cavalry retreats one hex
        return _matchup_over(state, ctx)
    if not a_on or not d_on:
        return _matchup_over(state, ctx)  # 12.6.B: the survivor wins and stays (or no one)
    on_d, on_a = combat["inflicted"]["attacker"], combat["inflicted"]["defender"]
    if on_d != on_a:
        return _lose(state, d if on_d > on_a else a, ctx)
    # 12.6.B: equal hits: the better MET after the hits wins
    combat["stage"] = "tie"
    why = "12.6.B: the MET tie-break reads the modified MET ratings"
    hits.need_ratings(state, a, why)
    hits.need_ratings(state, d, why)
    return PENDING


def _tie_break(state: State, ctx: Context) -> Next:
    combat = state["combat"]
    a, d = combat["current"]
    met_a, met_d = _ratings(state, a)["met"], _ratings(state, d)["met"]
    if met_a == met_d:
        ctx.event(f"equal hits and MET {met_a}: {a} and {d} fight again (12.6.B)")
        combat["stage"] = "fight"
        combat["fought"] += 1
        return _flip(state, ctx)
    loser = a if MET_ORDER.index(met_a) > MET_ORDER.index(met_d) else d
    ctx.event(f"equal hits: MET {met_a} against {met_d}")
    return _lose(state, loser, ctx)


def _queue_event(state: State) -> None:
    """13.0.B: the Event waits for the end of the assault."""
    combat = state["combat"]
    a, d = combat["current"]
    combat["events"].append(
        {"cards": dict(combat["cards"]), "attacker": a, "defender": d, "hex": combat["hex"]}
    )


# --- retreats (12.7) ------------------------------------------------------------------------------


def _retreat_hexes(state: State, label: str) -> list[int]:
    combat = state["combat"]
    if label in combat["attackers"]:
        return [combat["attackers"][label]]  # 12.7.B
    # the matchup being fought, or (12.4.B: a withdrawal) the one about to be fought
    pair = combat["current"] or (combat["matchups"][0] if combat["matchups"] else None)
    a = pair[0] if pair else None
    entry = combat["attackers"].get(a) if a else None
    # 12.7.C: the attackers in the battle hex do not make its neighbours enemy NML (else
    # every retreat would need a friendly-occupied hex, the rule's "hex from which the
    # attacker entered" could never matter, and 13.0's example could not retreat): the
    # NML of the other enemy units bars the way.
    pieces = {
        k: p
        for k, p in positions(state).items()
        if not (p["hex"] == combat["hex"] and p["side"] == combat["side"])
    }
    found = mv.retreat_options(state["board"], pieces, label, entry, state.get("flooded") or [])
    return sorted({r.hex for r in found})


def _lose(state: State, loser: str, ctx: Context) -> Next:
    combat = state["combat"]
    options = _retreat_hexes(state, loser)
    ctx.event(f"{loser} loses the combat (12.6.B)")
    if not options:
        # 12.7.F: it stays, takes one more hit, and the combat is fought again
        ctx.event(f"{loser} cannot retreat: one more hit, and another combat (12.7.F)")
        combat["fought"] += 1
        combat["stage"] = "again"
        state["absorbing"] = {
            "side": state["counters"][loser]["side"],
            "hits": {loser: 1},
            "rule": "12.7.F",
        }
        return PENDING
    if len(options) == 1:
        _retreat(state, loser, options[0], ctx, "12.7")
        return _matchup_over(state, ctx)
    combat["retreating"] = loser
    state["step"] = "retreat"
    return None


def retreat_side(state: State) -> str | None:
    combat = state.get("combat")
    if not combat or not combat.get("retreating"):
        return None
    return str(state["counters"][combat["retreating"]]["side"])


def retreat(state: State, role: str, d: Retreat, ctx: Context) -> Next:
    combat = state["combat"]
    loser = combat["retreating"]
    if d.counter != loser or d.to not in _retreat_hexes(state, loser):
        raise illegal(
            f"{loser} retreats to one of "
            + ", ".join(hex_text(h) for h in _retreat_hexes(state, loser)),
            "12.7",
        )
    combat["retreating"] = None
    _retreat(state, loser, d.to, ctx, "12.7")
    return _matchup_over(state, ctx)


def _retreat(state: State, label: str, to: int, ctx: Context, rule: str) -> None:
    combat = state["combat"]
    writable_counter(state, label)["hex"] = to
    ctx.event(f"{label} retreats to {hex_text(to)} ({rule})")
    if label in combat["attackers"]:
        return  # 12.7.B: back where it came from, as it stood before
    take_control(state, label, to)
    piece = positions(state)[label]
    check = mv.stacking_check(positions(state), {"id": label, **piece}, to)
    record_claims(state, ctx, state["counters"][label]["side"], label, check.claims)


def _matchup_over(state: State, ctx: Context) -> Next:
    combat = state["combat"]
    combat["fought"] += 1
    if combat["matchups"]:
        combat["matchups"].pop(0)
    combat["current"] = None
    combat["stage"] = "fight"
    return _next_matchup(state, ctx)


def again(state: State, ctx: Context) -> Next:
    """After 12.7.F's extra hit: the same two fight again, if both are still there."""
    combat = state["combat"]
    a, d = combat["current"]
    if _here(state, a) and (d is None or _here(state, d)):
        combat["stage"] = "fight"
        return _flip(state, ctx)
    return _matchup_over(state, ctx)


# --- 4-5. the end ---------------------------------------------------------------------------------


def end(state: State, ctx: Context) -> Next:
    """12.8: the winners hold the hex (at most 6 SZ: the rest go back); the attackers are
    activated (9.B); the Events of the assault apply (13.0.B)."""
    combat = state["combat"]
    atk = attackers(state)
    if atk and not defenders(state):
        over = _over_stacked(state, atk)
        if over:
            combat["stage"] = "occupy"
            state["step"] = "occupy"
            return None
        take_control(state, atk[0], combat["hex"])
        ctx.event(f"{NAMES[combat['side']]} take hex {hex_text(combat['hex'])} (12.8)")
    return _close(state, ctx)


def _over_stacked(state: State, atk: list[str]) -> bool:
    total = 0
    for k in atk:
        unit_id = identity(state, k)
        if unit_id is not None:
            total += unit(state, unit_id)["sz"]
    return total > mv.STACK_LIMIT


def occupy_side(state: State) -> str | None:
    combat = state.get("combat")
    return None if not combat or combat.get("stage") != "occupy" else str(combat["side"])


def go_back(state: State, role: str, d: GoBack, ctx: Context) -> Next:
    combat = state["combat"]
    if d.counter not in attackers(state):
        raise illegal(f"{d.counter} is not an attacker in the hex", "12.8.B")
    writable_counter(state, d.counter)["hex"] = combat["attackers"][d.counter]
    ctx.event(f"{d.counter} goes back to {hex_text(combat['attackers'][d.counter])} (12.8.B)")
    if not _over_stacked(state, attackers(state)):
        take_control(state, attackers(state)[0], combat["hex"])
        return _close(state, ctx)
    return None


def _close(state: State, ctx: Context) -> Next:
    combat = state["combat"]
    state["combat"] = None
    for label in combat["attackers"]:
        if label in state["counters"]:
            writable_counter(state, label)["activated"] = True
    if state.get("resume") is None:
        state["resume"] = "action" if not combat.get("counter") else None
    for found in combat["events"]:
        if state["combat"] is not None or state.get("event") or state.get("absorbing"):
            # (shared by copies: replaced)
            state["later_events"] = [*state.get("later_events", []), found]
            continue
        events.after_combat(state, found, ctx)
    return PENDING


# --- 13.0: the Counter-Attack Event ---------------------------------------------------------------


def counter_side(state: State) -> str | None:
    pending = state.get("counter")
    return None if not pending else str(pending["side"])


def counter(state: State, role: str, d: CounterAttack, ctx: Context) -> Next:
    pending = state["counter"]
    state["counter"] = None
    if d.counter is None:
        ctx.event(f"{NAMES[role]} do not counter-attack")
        return PENDING
    if d.counter not in pending["units"]:
        raise illegal(f"counter-attack with one of {', '.join(pending['units'])}", "13.0")
    at = state["counters"][d.counter]["hex"]
    ctx.event(f"13.0: {d.counter} counter-attacks hex {hex_text(pending['hex'])}")
    start(state, role, {d.counter: at}, pending["hex"], ctx, big_push=False)
    state["combat"]["counter"] = True
    return PENDING
