"""Götterdämmerung: reinforcement and arrivals (rulebook 8.3, 8.4, 9, 12.35) as pure functions.

Every function takes plain data: the loaded map (`map_data.load_map`), the counters data
(`counters.load_counters`), the tables (`tables.load_tables`) and the list of units on the
maps as zoc.py takes them (`id`, `side`, `hex`, optional `disrupted`/`volkssturm`). Die
results and cup indexes are parameters: the engine rolls them (ctx.roll).

Readings where the rulebook is terse or contradicts itself (also for docs/gotterdammerung.md):
- 9.13: "enemy units" in an entry hex bar it; enemy ZOC does not. When every hex of the code
  holds enemy units the unit is lost: out of the game, not destroyed for VP (11.14).
- "at any one of the hexes marked X" (9.21, 9.5, 9.71): each entering unit picks one hex of
  the code; 9.22's NGP entry is one "N" hex for all the units entering that phase.
- 5.26 against 9.22: 5.26 ("once a unit has entered the NGP Box it may not return") governs
  units that moved or retreated into the box from the map; 9.22 governs the reinforcements
  that entered the box from off the map. Both kinds count as German units in the box for
  9.22's difference; only the reinforcements may be chosen to enter.
- 9.22: the test is made in every German Normal Movement Phase after that turn's NGP
  reinforcements entered the box, also in turns without NGP reinforcements (waiting units
  may enter then). Units of this turn are chosen first; only when all of them enter may
  older waiting reinforcements fill the rest of the difference. 9.12 makes the entry
  compulsory: the whole difference enters (as far as there are reinforcements to choose).
- 9.33-9.35: the 12th Army draw is public (the units are placed face up as they enter); the
  cup is not used after the last draw turn (9.35).
- 9.37/12.34: an attack by 12th Army units alone, or 6th SS Panzer Army units alone, uses
  the Soviet CRT; any other German attack, a mix of the two included, uses the German CRT.
- 9.4: the roll is made only while some unit of the 600th is on the map or in the NGP Box;
  a revolt removes every 600th unit (the NGP Box included): removed, not destroyed.
- 9.71's "may bring on" names the turn and the entry; 9.12 still makes entry compulsory.
- 8.32: the printed example "1-2-5, 1-1-5, 1-1-5 and 0-1-5" sums to 5 defence; the rule's
  "totalling 4" is kept (at most 4), so that example's four units are too many. The chosen
  units total at most 4 (8.33: 2) defence; a unit left unplaced is "excess" only if it could
  not be placed legally (8.32: removed for good); a "German unit" that allows placement in
  Soviet ZOC is one already in the hex before the placement.
- 8.43: the rulebook does not say where the Volkssturm's unlimited supply line (8.14, 8.15)
  must lead; as 8.32 and 8.33 it is read as the western edge of the Operational Map,
  through a Transition Hex (a parameter `targets` allows another reading).
- 8.45: a Volkssturm marker's strength is drawn from every identity not yet revealed
  (the mix minus the revealed ones), so revealing needs no hidden state.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from pbem.games.gotterdammerung import counters as cn
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import supply, tables, zoc

Unit = Mapping[str, Any]
NGP = "NGP"  # the counters data's "at" for the North German Plain Box (9.21)
NGP_ENTRY = "N"  # 9.22
SIXTH_SS_OPTION = "sixth_ss"  # 12.3, the options key
SIXTH_SS_EARLY = (3, 2)  # 12.35: the 2BF reinforcements of turn 3 arrive on turn 2
VLASOV_FIRST_TURN = 2  # 9.4
VLASOV_REVOLT = (4, 5, 6)  # 9.4
JUETERBOG = "Jüterbog"  # 8.32, hex 3625
SPANDAU = "Spandau"  # 8.33, hex 2324
CHANCELLERY = 825  # 8.43: the Führer Chancellery hex on the City Map


# --- 9.1 entry hexes ----------------------------------------------------------------------


ENTRY_OWNER = {"N": "german", "S": "german", "W": "german", "NE": "soviet", "E": "soviet"}
ENTRY_OWNER["SE"] = "soviet"  # "SW" serves both: the 344th (9.16) and the Americans (9.71)


def entry_hexes(
    board: Mapping[str, Any], units: Iterable[Unit], code: str, side: str | None = None
) -> list[str]:
    """The entry hexes of `code` (N, NE, E, SE, S, SW, W) open to a reinforcement of `side`:
    those holding no enemy unit; enemy ZOC does not bar entry (9.13). [] means the unit is
    lost: out of the game, not destroyed for victory points (9.13). Without `side` the
    code's owner is taken (ENTRY_OWNER); "SW" serves both sides and needs `side`."""
    if code not in board["entry"]:
        raise ValueError(f"no entry hexes marked {code!r} (expected {', '.join(md.ENTRY_CODES)})")
    if side is None:
        if code not in ENTRY_OWNER:
            raise ValueError(f'entry "{code}" serves both sides: say whose unit enters')
        side = ENTRY_OWNER[code]
    enemy = {u["hex"] for u in units if u["side"] != side}
    return [h for h in board["entry"][code] if h not in enemy]


def entry_problem(
    board: Mapping[str, Any], units: Iterable[Unit], side: str, entry: str, h: str
) -> str | None:
    """Why a reinforcement of `side` scheduled at `entry` (a code, or a hex id such as
    "op:3220" for Moltke, 9.21) may not enter at hex `h`, or None."""
    units = list(units)
    if entry in board["entry"]:
        allowed = list(board["entry"][entry])
        where = f'the entry hexes marked "{entry}"'
    else:
        allowed = [entry]
        where = f"hex {entry.split(':')[-1]}"
    if h not in allowed:
        return f"hex {h.split(':')[-1]} is not one of {where} (9.1)"
    if any(u["hex"] == h and u["side"] != side for u in units):
        return f"hex {h.split(':')[-1]} holds enemy units: a reinforcement may not enter it (9.13)"
    return None


def lost_on_entry(board: Mapping[str, Any], units: Iterable[Unit], side: str, entry: str) -> bool:
    """9.13: every designated entry hex holds enemy units, so the reinforcement is lost."""
    units = list(units)
    if entry in board["entry"]:
        return not entry_hexes(board, units, entry, side)
    return any(u["hex"] == entry and u["side"] != side for u in units)


# --- 9.2, 9.5, 9.6 schedules --------------------------------------------------------------


def _entry_of(place: Mapping[str, Any]) -> str:
    if place.get("at"):
        return str(place["at"])
    return md.ref(md.OP, int(place["hex"]))


def german_arrivals(data: Mapping[str, Any], turn: int) -> list[tuple[str, str]]:
    """The German scheduled reinforcements of `turn` (9.21) as (unit id, entry): an entry
    code ("S", "SW", "NGP" for the North German Plain Box) or a hex id ("op:3220", Moltke).
    The 344th (turn 2, "SW") enters by rail (9.16: `by_rail`). The 12th Army's draws are not
    scheduled units (see `twelfth_army_count`)."""
    return [
        (uid, _entry_of(data["units"][uid]["place"]))
        for uid in cn.reinforcements(dict(data), "german", turn)
    ]


def by_rail(data: Mapping[str, Any], uid: str) -> bool:
    """9.16: the 344th enters by railroad movement, outside 5.67's limit."""
    return bool(data["units"][uid]["place"].get("rail"))


def soviet_arrivals(
    data: Mapping[str, Any], turn: int, options: Mapping[str, Any] | None = None
) -> list[tuple[str, str]]:
    """The Soviet (Polish and American included) reinforcements of `turn` as (unit id, entry
    code): 9.5, and the Americans on turn 6 at "SW" (9.71). With the 6th SS Panzer Army
    (12.35) the 2nd Belorussian Front's turn-3 units arrive on turn 2 instead."""
    early = bool((options or {}).get(SIXTH_SS_OPTION))
    late, soon = SIXTH_SS_EARLY

    def scheduled(t: int) -> list[str]:
        return cn.reinforcements(dict(data), "soviet", t)

    def is_2bf(uid: str) -> bool:
        return data["units"][uid].get("front") == "2BF"

    ids = scheduled(turn)
    if early and turn == late:
        ids = [u for u in ids if not is_2bf(u)]
    if early and turn == soon:
        ids = ids + [u for u in scheduled(late) if is_2bf(u)]
    return [(uid, _entry_of(data["units"][uid]["place"])) for uid in ids]


# --- 9.22 the North German Plain Box ------------------------------------------------------


def ngp_entries(german_in_box: int, soviet_in_box: int, arrived_this_turn: int = 0) -> int:
    """9.22: how many German units may leave the NGP Box for the map this phase.
    `german_in_box` counts every German unit in the box once this turn's NGP reinforcements
    (`arrived_this_turn` of them) are in it; the difference over the Soviet units may
    enter, none when the Soviets are as many or more."""
    if not 0 <= arrived_this_turn <= german_in_box:
        raise ValueError(
            f"{arrived_this_turn} units arrived but the box holds {german_in_box} German units"
        )
    return max(0, german_in_box - soviet_in_box)


def ngp_choice_problems(
    german_in_box: Sequence[str],
    arrived_this_turn: Collection[str],
    already_left: Collection[str],
    uid: str,
    left: int,
    from_map: Collection[str] = (),
) -> list[str]:
    """What forbids German unit `uid` leaving the NGP Box now (9.22), [] if allowed: it is in
    the box (`german_in_box`: ids still there), it did not enter the box from the map
    (`from_map`, 5.26), `left` more units may still leave, and this turn's arrivals still in
    the box go first. The entry hex is checked with `entry_hexes(..., "N")`."""
    if uid not in german_in_box:
        return [f"{uid} is not in the North German Plain Box (9.22)"]
    if uid in from_map:
        return [f"{uid} entered the North German Plain Box from the map and may not return (5.26)"]
    if left < 1:
        return ["no more German units may leave the North German Plain Box this turn (9.22)"]
    if uid not in arrived_this_turn:
        waiting = [
            u
            for u in arrived_this_turn
            if u in german_in_box and u not in already_left and u not in from_map
        ]
        if waiting:
            return [
                f"units that entered the box this turn leave it first: {', '.join(waiting)} (9.22)"
            ]
    return []


def ngp_group_problems(
    board: Mapping[str, Any],
    units: Iterable[Unit],
    german_in_box: Sequence[str],
    soviet_in_box: int,
    arrived_this_turn: Collection[str],
    chosen: Sequence[str],
    h: str | None,
    from_map: Collection[str] = (),
) -> list[str]:
    """What is wrong with the German choice of units leaving the NGP Box (9.22), [] if
    legal. `german_in_box`: every German unit in the box, this turn's arrivals included;
    `from_map`: those that entered it from the map (5.26: they never come back); `h`: the
    one "N" entry hex they all use (None if none enters)."""
    problems = []
    arrived = [u for u in german_in_box if u in arrived_this_turn]
    allowed = ngp_entries(len(german_in_box), soviet_in_box, len(arrived))
    eligible = [u for u in german_in_box if u not in from_map]
    for uid in chosen:
        if uid not in german_in_box:
            problems.append(f"{uid} is not in the North German Plain Box (9.22)")
        elif uid in from_map:
            problems.append(
                f"{uid} entered the North German Plain Box from the map and may not return (5.26)"
            )
    if len(set(chosen)) != len(chosen):
        problems.append("a unit is named twice (9.22)")
    if len(chosen) > allowed:
        problems.append(
            f"{len(chosen)} units chosen: only {allowed} may enter "
            f"({len(german_in_box)} German against {soviet_in_box} Soviet units, 9.22)"
        )
    must = min(allowed, len(eligible))
    if len(chosen) < must:
        problems.append(f"{must} units must enter, {len(chosen)} chosen (9.12, 9.22)")
    fresh = [u for u in arrived if u not in from_map]
    picked_old = [u for u in chosen if u in german_in_box and u not in arrived_this_turn]
    if picked_old and any(u not in chosen for u in fresh):
        problems.append("units that entered the box this turn must be chosen first (9.22)")
    if chosen:
        n_hexes = board["entry"][NGP_ENTRY]
        if h is None or h not in n_hexes:
            where = "none" if h is None else h.split(":")[-1]
            problems.append(f'the units enter at one of the "N" entry hexes, not {where} (9.22)')
        else:
            problem = entry_problem(board, units, "german", NGP_ENTRY, h)
            if problem:
                problems.append(problem)
    return problems


# --- 9.3 the 12th Army --------------------------------------------------------------------


def twelfth_army_count(data: Mapping[str, Any], turn: int) -> int:
    """9.33: how many 12th Army units are drawn at the start of the German Movement Phase of
    `turn` (4 on turns 7 and 8; 9.35: none otherwise, the rest of the cup is never used)."""
    return sum(d["count"] for d in data["twelfth_army"]["draws"] if d["turn"] == turn)


def twelfth_army_entry(data: Mapping[str, Any]) -> str:
    """9.34: the entry code of the drawn 12th Army units ("W")."""
    return str(data["twelfth_army"]["at"])


def twelfth_army_draw(cup: Sequence[str], index: int) -> tuple[str, list[str]]:
    """One public draw without replacement from the 12th Army cup (9.32, 9.33): the unit at
    `index` (the engine rolls it with ctx.roll(0, len(cup) - 1)) and the cup left."""
    if not cup:
        raise ValueError("the 12th Army cup is empty (9.35)")
    if not 0 <= index < len(cup):
        raise ValueError(f"draw index {index} is outside the cup's 0..{len(cup) - 1}")
    rest = list(cup)
    drawn = rest.pop(index)
    return drawn, rest


def _groups(data: Mapping[str, Any] | None, unit: Unit) -> Collection[str]:
    if "groups" in unit:
        return tuple(unit["groups"])
    if data is not None and unit.get("id") in data["units"]:
        return tuple(data["units"][unit["id"]]["groups"])
    return ()


def twelfth_barred(
    board: Mapping[str, Any], unit: Unit, h: str, data: Mapping[str, Any] | None = None
) -> str | None:
    """9.36: a 12th Army unit may not enter a Transition Hex or a Berlin City hex by movement,
    retreat or advance. `unit` is a counters-data entry (or a map unit with `data`). The
    reason, or None when the entry is allowed."""
    if "12th-army" not in _groups(data, unit):
        return None
    if md.kind(board, h) in (md.TRANSITION, md.CITY_HEX):
        return (
            f"{unit['id']} is of the 12th Army: it may not enter Transition Hexes or "
            "Berlin City hexes (9.36)"
        )
    return None


def sixth_ss_barred(
    board: Mapping[str, Any], unit: Unit, h: str, data: Mapping[str, Any] | None = None
) -> str | None:
    """12.34: a 6th SS Panzer Army unit may not enter Berlin City hexes (Transition Hexes it
    may). The reason, or None."""
    if "6th-ss" not in _groups(data, unit):
        return None
    if md.kind(board, h) == md.CITY_HEX:
        return (
            f"{unit['id']} is of the 6th SS Panzer Army: it may not enter Berlin City hexes (12.34)"
        )
    return None


def crt_for_attack(data: Mapping[str, Any], attackers: Iterable[Unit | str]) -> str:
    """The Combat Results Table of an attack: "soviet" or "german" (6.3). German attacks use
    the German CRT, except 12th Army units alone (9.37) or 6th SS Panzer Army units alone
    (12.34), which use the Soviet one; any mix uses the German one."""
    ids = [a if isinstance(a, str) else str(a["id"]) for a in attackers]
    if not ids:
        raise ValueError("an attack needs at least one attacking unit (6.3)")
    kinds = set()
    for uid in ids:
        c = data["units"].get(uid)
        if c is None:  # a Volkssturm marker (8.4): a plain German unit
            kinds.add("german")
        elif c["side"] == "soviet":
            return "soviet"
        elif "12th-army" in c["groups"]:
            kinds.add("12th-army")
        elif "6th-ss" in c["groups"]:
            kinds.add("6th-ss")
        else:
            kinds.add("german")
    if kinds in ({"12th-army"}, {"6th-ss"}):
        return "soviet"
    return "german"


# --- 9.4 Vlasov ---------------------------------------------------------------------------


def vlasov_units(data: Mapping[str, Any], units: Iterable[Unit]) -> list[str]:
    """The units of the 600th Infantry Division (counters group "600th") on the map or in the
    NGP Box."""
    return [
        u["id"]
        for u in units
        if u["id"] in data["units"] and "600th" in data["units"][u["id"]]["groups"]
    ]


def vlasov_roll_due(
    data: Mapping[str, Any], units: Iterable[Unit], turn: int, withdrawn: bool
) -> bool:
    """9.4: roll at the start of the German Movement Phase of turn 2 and later, until the
    division has withdrawn, while any of its units is still in play."""
    return turn >= VLASOV_FIRST_TURN and not withdrawn and bool(vlasov_units(data, units))


def vlasov_revolts(roll: int) -> bool:
    """9.4: on 4-6 the 600th withdraws (its units removed, not destroyed, never to return);
    on 1-3 it stays a normal German unit."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a die roll is 1-6, not {roll}")
    return roll in VLASOV_REVOLT


# --- 8.32, 8.33 German reinforcement ------------------------------------------------------


def _west_line(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], start: str
) -> bool:
    """8.32/8.33: a supply line of unlimited length (8.14, 8.15) from `start` to the western
    edge of the map."""
    west = md.edge_hexes(board, "west")
    return supply.reaches_unlimited(board, data, units, "german", start, west)


def _at(units: Sequence[Unit], data: Mapping[str, Any], branch: str, h: str) -> bool:
    return any(
        u["side"] == "german"
        and u["hex"] == h
        and data["units"].get(u["id"], {}).get("branch") == branch
        for u in units
    )


def _choice_problems(
    data: Mapping[str, Any],
    units: Sequence[Unit],
    chosen: Sequence[str],
    destroyed: Collection[str] | None,
    eligible: Any,
    kinds: str,
    limit: int,
    rule: str,
) -> list[str]:
    problems = []
    total = 0
    if len(set(chosen)) != len(chosen):
        problems.append(f"a unit is named twice ({rule})")
    for uid in chosen:
        c = data["units"].get(uid)
        if destroyed is not None and uid not in destroyed:
            problems.append(f"{uid} is not a destroyed unit ({rule})")
        elif c is None or not eligible(c):
            problems.append(f"{uid} is not {kinds} that may be reinforced ({rule})")
        else:
            total += int(c["defence"])
    if total > limit:
        problems.append(
            f"the chosen units total {total} defence strength, at most {limit} ({rule})"
        )
    return problems


def jueterbog_open(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit]
) -> bool:
    """8.32: a German supply depot at Jüterbog with an unlimited line to the western edge, at
    the start of the Supply and Reinforcement Phase."""
    h = md.place(board, JUETERBOG)
    return _at(units, data, "depot", h) and _west_line(board, data, units, h)


def alkett_open(board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit]) -> bool:
    """8.33: the Alkett factory at Spandau with an unlimited line to the western edge."""
    h = md.place(board, SPANDAU)
    return _at(units, data, "factory", h) and _west_line(board, data, units, h)


def _placed(uid: str, h: str) -> dict[str, Any]:
    return {"id": uid, "side": "german", "hex": h}


def _jueterbog_hex_problem(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    before: Sequence[Unit],
    now: Sequence[Unit],
    uid: str,
    h: str,
) -> str | None:
    home = md.place(board, JUETERBOG)
    where = h.split(":")[-1] if ":" in h else h
    if h != home and h not in md.neighbours(board, home, md.OP):
        return f"{uid}: hex {where} is neither Jüterbog nor adjacent to it (8.32)"
    if any(u["hex"] == h and u["side"] == "soviet" for u in before):
        return f"{uid}: hex {where} holds Soviet units (8.32)"
    german_there = any(u["hex"] == h and u["side"] == "german" for u in before)
    if h in zoc._zone(board, data, before, "german") and not german_there:
        return f"{uid}: hex {where} is in Soviet ZOC with no German unit (8.32)"
    stack = [u for u in now if u["hex"] == h]
    problems = zoc.stack_problems(board, data, stack)
    if problems:
        return f"{uid}: {problems[0]}"
    return None


def jueterbog_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    chosen: Sequence[str],
    placements: Mapping[str, str],
    *,
    destroyed: Collection[str] | None = None,
) -> list[str]:
    """What is wrong with an 8.32 reinforcement at Jüterbog, [] if legal. `chosen`: destroyed
    infantry totalling at most 4 defence; `placements`: id -> hex (Jüterbog or adjacent) for
    those placed; a chosen unit not placed is excess, removed for good, and may be left out
    only when no legal hex is left for it. `destroyed`: the destroyed ids, checked when
    given (None: the caller checked them)."""
    if not chosen:
        return []
    if not jueterbog_open(board, data, units):
        return [
            "no German supply depot at Jüterbog (3625) with a supply line to the western "
            "edge of the map (8.32)"
        ]
    problems = _choice_problems(
        data,
        units,
        chosen,
        destroyed,
        cn.jueterbog_eligible,
        'a German "infantry" unit',
        cn.JUETERBOG_DEFENCE,
        "8.32",
    )
    if problems:
        return problems
    for uid in placements:
        if uid not in chosen:
            problems.append(f"{uid} was not chosen for reinforcement (8.32)")
    now = list(units) + [_placed(uid, h) for uid, h in placements.items() if uid in chosen]
    for uid, h in placements.items():
        if uid in chosen:
            problem = _jueterbog_hex_problem(board, data, units, now, uid, h)
            if problem:
                problems.append(problem)
    home = md.place(board, JUETERBOG)
    for uid in chosen:
        if uid in placements:
            continue
        for h in [home, *md.neighbours(board, home, md.OP)]:
            trial = [*now, _placed(uid, h)]
            if _jueterbog_hex_problem(board, data, units, trial, uid, h) is None:
                where = h.split(":")[-1]
                problems.append(
                    f"{uid} can still be placed (hex {where}): only units beyond the "
                    "stacking limit are removed (8.32)"
                )
                break
    return problems


def alkett_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    chosen: Sequence[str],
    placed: Collection[str] | None = None,
    *,
    destroyed: Collection[str] | None = None,
) -> list[str]:
    """What is wrong with an 8.33 reinforcement at Spandau, [] if legal. `chosen`: destroyed
    armour, assault gun and tank hunter units totalling at most 2 defence; `placed`: those
    put on Spandau (default all); the rest are excess, lost for good, only when Spandau's
    stacking limit leaves no room for them. `destroyed` as for `jueterbog_problems`."""
    if not chosen:
        return []
    if not alkett_open(board, data, units):
        return [
            "the Alkett factory is not at Spandau (2324) with a supply line to the western "
            "edge of the map (8.33)"
        ]
    problems = _choice_problems(
        data,
        units,
        chosen,
        destroyed,
        cn.alkett_eligible,
        "a German armour, assault gun or tank hunter unit",
        cn.ALKETT_DEFENCE,
        "8.33",
    )
    if problems:
        return problems
    placed = list(chosen) if placed is None else list(placed)
    h = md.place(board, SPANDAU)
    for uid in placed:
        if uid not in chosen:
            problems.append(f"{uid} was not chosen for reinforcement (8.33)")
    stack = [u for u in units if u["hex"] == h] + [_placed(uid, h) for uid in placed]
    for p in zoc.stack_problems(board, data, stack):
        problems.append(f"{p} (8.33)")
    for uid in chosen:
        if uid not in placed and not zoc.stack_problems(board, data, [*stack, _placed(uid, h)]):
            problems.append(
                f"{uid} fits on Spandau: only units beyond the stacking limit are lost (8.33)"
            )
    return problems


# --- 8.4 Volkssturm -----------------------------------------------------------------------


def volkssturm_count(tables_data: Mapping[str, Any], turn: int, left: int | None = None) -> int:
    """8.41: Volkssturm units brought in on `turn` (the Game-Turn Record Track), no more than
    are `left` in the cup (8.42)."""
    n = tables.volkssturm(dict(tables_data), turn)
    return n if left is None else max(0, min(n, left))


def volkssturm_hex_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    h: str,
    targets: Collection[str] | None = None,
) -> list[str]:
    """What forbids placing one more Volkssturm unit in hex `h` (8.43), [] if allowed: a
    Berlin City hex (not a Transition Hex), no Soviet units, not the Führer Chancellery
    (0825), an unlimited supply line (8.14, 8.15) to `targets` (default: the western edge,
    see the module doc), within the stacking limit (4.13). Soviet ZOC does not matter."""
    where = h.split(":")[-1]
    kind = md.kind(board, h)
    if kind == md.TRANSITION:
        return [f"hex {where} is a Transition Hex: no Volkssturm may be placed there (8.43)"]
    if kind != md.CITY_HEX:
        return [f"hex {where} is not on the Berlin City Map (8.41)"]
    problems = []
    if h == md.ref(md.CITY, CHANCELLERY):
        problems.append(f"hex {where} is the Führer Chancellery (8.43)")
    if any(u["hex"] == h and u["side"] == "soviet" for u in units):
        problems.append(f"hex {where} holds Soviet units (8.43)")
    ends = md.edge_hexes(board, "west") if targets is None else targets
    if not supply.reaches_unlimited(board, data, units, "german", h, ends, on=None):
        problems.append(f"no supply line of unlimited length can be traced from hex {where} (8.43)")
    new = {"id": "vs-new", "side": "german", "hex": h, "volkssturm": True}
    stack = [u for u in units if u["hex"] == h] + [new]
    for p in zoc.stack_problems(board, data, stack):
        problems.append(f"{p} (8.43)")
    return problems


def volkssturm_unrevealed(
    data: Mapping[str, Any], revealed: Iterable[tuple[int, int, int]]
) -> dict[str, int]:
    """8.45: the identities still hidden: the mix ("a-d-m" -> count, counters.volkssturm_mix)
    minus the revealed (attack, defence, movement) backs, destroyed ones included."""
    mix = cn.volkssturm_mix(dict(data))
    for a, d, m in revealed:
        key = f"{a}-{d}-{m}"
        if mix.get(key, 0) <= 0:
            raise ValueError(f"no hidden Volkssturm with strength {key} is left")
        mix[key] -= 1
    return {k: v for k, v in mix.items() if v > 0}


def volkssturm_strength(mix_left: Mapping[str, int], index: int) -> tuple[int, int, int]:
    """8.45: the (attack, defence, movement) a Volkssturm marker shows when first turned: the
    `index`-th (0-based, the engine rolls 0..total-1) of every identity not yet revealed,
    keys in sorted order, each repeated by its count."""
    pool = [key for key in sorted(mix_left) for _ in range(int(mix_left[key]))]
    if not pool:
        raise ValueError("no hidden Volkssturm identity is left (8.42)")
    if not 0 <= index < len(pool):
        raise ValueError(f"draw index {index} is outside 0..{len(pool) - 1}")
    a, d, m = (int(x) for x in pool[index].split("-"))
    return a, d, m
