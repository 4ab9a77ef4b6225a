"""Race to the Sea 1914: movement (10), railroad movement (7.3), forced marches (7.7.3),
retreats (12.7, 11.3), hex control (14.1 B, 15.3) and lines of communications (9.5, 14.1 C)
on the shipped stand-in map, with the positions model of pbem/games/race_to_the_sea/movement.py."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv


@pytest.fixture(scope="module")
def board() -> dict[str, Any]:
    return rm.default_map()


def at(board: dict[str, Any], name: str) -> int:
    return rm.hex_of(board, name)


def step(board: dict[str, Any], start: str | int, direction: str) -> int:
    h = at(board, start) if isinstance(start, str) else start
    found = rm.grid(board).neighbour(h, direction)
    assert found is not None
    return found


def unit(
    id_: str,
    side: str,
    hex_: int,
    sz: int | None = 2,
    kind: str = "infantry",
    scouting: bool = False,
) -> dict[str, Any]:
    return {"id": id_, "side": side, "hex": hex_, "kind": kind, "scouting": scouting, "sz": sz}


# --- 10: normal movement -----------------------------------------------------------------------


def test_movement_example_from_albert(board: dict[str, Any]) -> None:
    """10.3.4: from Albert north, Arras, Lens (three hexes); or south-east across the river
    (two) then one hex toward Noyon; not on north-east into Perrone across the river."""
    albert = at(board, "Albert")
    pieces = [unit("fr", "allies", albert)]
    north = step(board, "Albert", "N")
    assert mv.legal_move(
        board, pieces, "fr", [albert, north, at(board, "Arras"), at(board, "Lens")]
    ).ok
    south_east = step(board, "Albert", "SE")
    toward_noyon = step(board, south_east, "S")
    g = rm.grid(board)
    noyon = at(board, "Noyon")
    assert g.distance(toward_noyon, noyon) < g.distance(south_east, noyon)
    assert mv.legal_move(board, pieces, "fr", [albert, south_east, toward_noyon]).ok
    perrone = at(board, "Perrone")
    check = mv.legal_move(board, pieces, "fr", [albert, south_east, perrone])
    assert check.problem is not None and check.problem.startswith("10.3.1 D")
    assert "4 needed, 3 allowed" in check.problem
    found = mv.reachable(board, pieces, "fr")
    assert at(board, "Lens") in found and toward_noyon in found
    assert found[at(board, "Lens")][0] == albert


def test_scouting_cavalry_moves_five_hexes(board: dict[str, Any]) -> None:
    """10.1 B: MA 3, scouting cavalry 5."""
    albert = at(board, "Albert")
    path = [albert]
    for _ in range(5):
        path.append(step(board, path[-1], "NW"))
    assert all(rm.path_cost(board, path[: i + 1]) == i for i in range(6))
    scout = unit("cav", "allies", albert, kind="cavalry", scouting=True)
    deployed = unit("cav", "allies", albert, kind="cavalry")
    assert mv.legal_move(board, [scout], "cav", path).ok
    assert not mv.legal_move(board, [scout], "cav", [*path, step(board, path[-1], "NW")]).ok
    assert mv.legal_move(board, [deployed], "cav", path[:4]).ok
    assert mv.legal_move(board, [deployed], "cav", path[:5]).problem is not None


def test_forest_and_river_are_not_cumulative(board: dict[str, Any]) -> None:
    """10.3.1 A-C: a forest costs 2, a river hexside 2, both together still 2."""
    noyon = at(board, "Noyon")
    south = step(board, "Noyon", "S")
    assert rm.terrain(board, south) == "forest" and rm.is_river(board, noyon, south)
    pieces = [unit("fr", "allies", noyon)]
    beyond = step(board, south, "SE")
    assert rm.move_cost(board, south, beyond) == 1
    assert mv.legal_move(board, pieces, "fr", [noyon, south, beyond]).ok  # 2 + 1


def test_prohibited_hexes(board: dict[str, Any]) -> None:
    """10.3.2: never water or entrenchment; 9.8 B / 2.1.8 B: a flooded hex is water."""
    calais = at(board, "Calais")
    water = step(board, "Calais", "N")
    check = mv.legal_move(board, [unit("br", "allies", calais)], "br", [calais, water])
    assert check.problem is not None and check.problem.startswith("10.3.2")
    trench = board["entrenchments"]["allies"]
    beside = step(board, trench, "N")
    check = mv.legal_move(board, [unit("fr", "allies", beside)], "fr", [beside, trench])
    assert check.problem is not None and "entrenchment" in check.problem
    dixmude = at(board, "Dixmude")
    ypres = at(board, "Ypres")
    pieces = [unit("be", "allies", ypres)]
    assert mv.legal_move(board, pieces, "be", [ypres, dixmude]).ok
    check = mv.legal_move(board, pieces, "be", [ypres, dixmude], flooded={dixmude})
    assert check.problem is not None and check.problem.startswith("9.8 B")
    assert dixmude not in mv.reachable(board, pieces, "be", flooded={dixmude})


def test_no_mans_land_stops_the_move(board: dict[str, Any]) -> None:
    """10.1.1 A-B: the six hexes next to an enemy unit are NML; entering one ends the
    move, even a friendly-occupied one."""
    albert = at(board, "Albert")
    north = step(board, "Albert", "N")
    arras = at(board, "Arras")
    enemy = step(board, arras, "NE")
    pieces = [unit("fr", "allies", albert), unit("de", "germans", enemy)]
    assert mv.nml_hexes(board, pieces, "allies") == set(rm.grid(board).neighbours(enemy))
    assert arras in mv.nml_hexes(board, pieces, "allies")
    assert mv.legal_move(board, pieces, "fr", [albert, north, arras]).ok
    lens = at(board, "Lens")
    check = mv.legal_move(board, pieces, "fr", [albert, north, arras, lens])
    assert check.problem is not None and check.problem.startswith("10.1.1 B")
    friend = [*pieces, unit("fr2", "allies", arras)]
    assert mv.legal_move(board, friend, "fr", [albert, north, arras, lens]).problem is not None
    assert all(
        h not in mv.nml_hexes(board, pieces, "allies") or path[-1] == h
        for h, path in mv.reachable(board, pieces, "fr").items()
    )


def test_nml_to_nml_only_screened(board: dict[str, Any]) -> None:
    """10.1.1 C, 10.1.2: from one NML hex straight into another only if friendly units
    occupy both, and then one hex only."""
    arras = at(board, "Arras")
    enemy = step(board, arras, "NE")
    neighbours = rm.grid(board).neighbours(enemy)
    here = arras
    there = next(h for h in neighbours if rm.grid(board).adjacent(here, h) and h != here)
    assert rm.move_cost(board, here, there) is not None
    pieces = [unit("fr", "allies", here), unit("de", "germans", enemy)]
    check = mv.legal_move(board, pieces, "fr", [here, there])
    assert check.problem is not None and check.problem.startswith("10.1.1 C")
    assert mv.reachable(board, pieces, "fr").get(there) != [here, there]  # only by a detour
    screened = [*pieces, unit("fr2", "allies", here), unit("fr3", "allies", there)]
    assert mv.legal_move(board, screened, "fr", [here, there]).ok
    assert mv.reachable(board, screened, "fr")[there] == [here, there]
    # only the one hex: going on from `there` means entering NML and not stopping
    onward = [h for h in rm.grid(board).neighbours(there) if h not in (here, enemy)]
    assert all(
        mv.legal_move(board, screened, "fr", [here, there, h]).problem is not None for h in onward
    )
    only_there = [*pieces, unit("fr3", "allies", there)]  # start hex: only the mover
    assert mv.legal_move(board, only_there, "fr", [here, there]).problem is not None


def test_stacking_pass_through_but_not_stop(board: dict[str, Any]) -> None:
    """10.2 A-C: at most 6 SZ stop in a hex, a move may pass through a fuller hex, False
    Reports are free; a hidden size makes a claim (docs/race-to-the-sea.md)."""
    albert = at(board, "Albert")
    north = step(board, "Albert", "N")
    arras = at(board, "Arras")
    pieces = [unit("fr", "allies", albert, sz=3), unit("big", "allies", north, sz=4)]
    check = mv.legal_move(board, pieces, "fr", [albert, north])
    assert check.problem is not None and check.problem.startswith("10.2 B")
    assert mv.legal_move(board, pieces, "fr", [albert, north, arras]).ok
    assert north not in mv.reachable(board, pieces, "fr") and arras in mv.reachable(
        board, pieces, "fr"
    )
    false = [unit("fr", "allies", albert, sz=None, kind="false"), pieces[1]]
    assert mv.legal_move(board, false, "fr", [albert, north]) == mv.MoveCheck()
    fits = [unit("fr", "allies", albert, sz=2), pieces[1]]
    assert mv.legal_move(board, fits, "fr", [albert, north]) == mv.MoveCheck()
    hidden = [unit("fr", "allies", albert, sz=None), pieces[1]]
    check = mv.legal_move(board, hidden, "fr", [albert, north])
    assert check.ok and len(check.claims) == 1 and check.claims[0].startswith("10.2 A")
    assert north in mv.reachable(board, hidden, "fr")


def test_no_entering_enemy_hexes_by_movement(board: dict[str, Any]) -> None:
    """10.2 D: an enemy-occupied hex is entered only by Assault Combat."""
    albert = at(board, "Albert")
    north = step(board, "Albert", "N")
    pieces = [unit("fr", "allies", albert), unit("de", "germans", north)]
    check = mv.legal_move(board, pieces, "fr", [albert, north])
    assert check.problem is not None and check.problem.startswith("10.2 D")
    assert north not in mv.reachable(board, pieces, "fr")


def test_bad_paths_are_refused_in_one_line(board: dict[str, Any]) -> None:
    albert = at(board, "Albert")
    pieces = [unit("fr", "allies", albert)]
    for path in ([albert], [at(board, "Arras"), albert], [albert, at(board, "Lens")]):
        check = mv.legal_move(board, pieces, "fr", path)
        assert check.problem is not None and "\n" not in check.problem
    assert mv.legal_move(board, pieces, "nobody", [albert, 812]).problem is not None


def test_every_reachable_hex_is_a_legal_move(board: dict[str, Any]) -> None:
    """`reachable` agrees with `legal_move`, in the middle of enemies and friends."""
    ypres = at(board, "Ypres")
    pieces = [
        unit("br", "allies", ypres),
        unit("fr", "allies", at(board, "Hazebrouck"), sz=4),
        unit("de", "germans", at(board, "Lille")),
        unit("de2", "germans", at(board, "Dixmude"), sz=None),
        unit("cav", "allies", at(board, "Bethune"), kind="cavalry", scouting=True),
    ]
    for piece_id in ("br", "fr", "cav", "de"):
        found = mv.reachable(board, pieces, piece_id)
        assert found
        for path in found.values():
            assert mv.legal_move(board, pieces, piece_id, path).ok, path


# --- 7.7.3: forced march -------------------------------------------------------------------------


def test_forced_march(board: dict[str, Any]) -> None:
    """7.7.3.1: the Germans two hexes without forest or river, else one; 7.7.3.2: the
    Allies one; 7.7.3.3 A: the terrain cost does not matter, the other rules do."""
    pieces = [unit("de", "germans", 1211)]
    clear = [1211, step(board, 1211, "S"), step(board, step(board, 1211, "S"), "S")]
    assert all(rm.terrain(board, h) != "forest" for h in clear)
    assert not any(rm.is_river(board, a, b) for a, b in zip(clear, clear[1:], strict=False))
    assert mv.forced_march_check(board, pieces, "de", clear).ok
    nml = [*pieces, unit("fr", "allies", step(board, clear[1], "SW"))]
    check = mv.forced_march_check(board, nml, "de", clear)  # 10.1.1 B still applies
    assert check.problem is not None and check.problem.startswith("10.1.1 B")
    allied = [unit("fr", "allies", 813)]
    assert mv.forced_march_check(board, allied, "fr", [813, 812]).ok
    check = mv.forced_march_check(board, allied, "fr", [813, 812, 811])
    assert check.problem is not None and check.problem.startswith("7.7.3.2")
    noyon = at(board, "Noyon")
    south = step(board, "Noyon", "S")  # forest across a river
    germans = [unit("de", "germans", noyon)]
    assert mv.forced_march_check(board, germans, "de", [noyon, south]).ok  # cost ignored
    check = mv.forced_march_check(board, germans, "de", [noyon, south, step(board, south, "S")])
    assert check.problem is not None and check.problem.startswith("7.7.3.1")


# --- 7.3: railroad movement ---------------------------------------------------------------------


def test_rail_movement(board: dict[str, Any]) -> None:
    """7.3 A-D, F: Allied units only, from a railroad hex along connected track to a
    railroad town/city/major city, never through an enemy-controlled or enemy NML hex."""
    amiens, calais = at(board, "Amiens"), at(board, "Calais")
    pieces = [unit("fr", "allies", amiens)]
    assert mv.rail_move_problem(board, pieces, {}, "fr", calais).ok
    line = board["railroads"][0]["hexes"]
    path = line[line.index(amiens) :]
    assert path[-1] == calais
    assert mv.rail_move_problem(board, pieces, {}, "fr", path).ok
    # C: not a town, city or major city at the end
    plain = path[1]
    assert rm.terrain(board, plain) == "clear"
    check = mv.rail_move_problem(board, pieces, {}, "fr", plain)
    assert check.problem is not None and check.problem.startswith("7.3 C")
    # D: an enemy-controlled hex on the only line to Calais; enemy NML on it
    check = mv.rail_move_problem(board, pieces, {plain: "germans"}, "fr", path)
    assert check.problem is not None and "not Allied-controlled" in check.problem
    enemy = [*pieces, unit("de", "germans", step(board, plain, "SW"))]
    check = mv.rail_move_problem(board, enemy, {}, "fr", path)
    assert check.problem is not None and "No Man's Land" in check.problem
    # D: not even starting in enemy NML
    watched = [*pieces, unit("de", "germans", step(board, "Amiens", "S"))]
    check = mv.rail_move_problem(board, watched, {}, "fr", calais)
    assert check.problem is not None and "(the rail move starts there)" in check.problem
    # Lille is German at the start (15.3), and off the Allied network
    check = mv.rail_move_problem(board, pieces, {}, "fr", at(board, "Lille"))
    assert check.problem is not None and check.problem.startswith("7.3 D")
    # A, F: Germans and scouting cavalry never; deployed cavalry and False Reports may
    for piece in (
        unit("fr", "germans", amiens),
        unit("fr", "allies", amiens, kind="cavalry", scouting=True),
    ):
        assert mv.rail_move_problem(board, [piece], {}, "fr", calais).problem is not None
    for piece in (
        unit("fr", "allies", amiens, kind="cavalry"),
        unit("fr", "allies", amiens, sz=None, kind="false"),
    ):
        assert mv.rail_move_problem(board, [piece], {}, "fr", calais) == mv.MoveCheck()
    # C: the start must be a railroad hex; a path step must follow the track
    off = step(board, "Amiens", "SE")
    assert not rm.is_railroad(board, off)
    check = mv.rail_move_problem(board, [unit("fr", "allies", off)], {}, "fr", calais)
    assert check.problem is not None and check.problem.startswith("7.3 C")
    check = mv.rail_move_problem(board, pieces, {}, "fr", [amiens, step(board, "Amiens", "SE")])
    assert check.problem is not None and check.problem.startswith("7.3 C")


def test_rail_limit_of_four_sz(board: dict[str, Any]) -> None:
    """7.3 A-B: one 4 SZ unit or two 2 SZ units, plus any False Reports; hidden sizes are
    a claim."""
    a = at(board, "Amiens")
    pieces = [
        unit("four", "allies", a, sz=4),
        unit("two", "allies", a, sz=2),
        unit("two2", "allies", a, sz=2),
        unit("fake", "allies", a, sz=None, kind="false"),
        unit("hid", "allies", a, sz=None),
    ]
    assert mv.rail_limit_check(pieces, ["four", "fake"]) == mv.MoveCheck()
    assert mv.rail_limit_check(pieces, ["two", "two2", "fake"]).ok
    check = mv.rail_limit_check(pieces, ["four", "two"])
    assert check.problem is not None and check.problem.startswith("7.3 A")
    check = mv.rail_limit_check(pieces, ["two", "hid"])
    assert check.ok and check.claims and "hid" in check.claims[0]


# --- 12.7, 11.3: retreats ------------------------------------------------------------------------


def test_noyon_retreats_south_west(board: dict[str, Any]) -> None:
    """11.4 example: the German II Corps at Chauny fires on the French IV Corps in Noyon,
    which falls back (11.3 A, by 12.7) one hex south-west: legal, not in the II Corps' NML,
    not toward the German side of the map (12.7 C-D)."""
    noyon, chauny = at(board, "Noyon"), at(board, "Chauny")
    pieces = [unit("iv", "allies", noyon, sz=4), unit("ii", "germans", chauny, sz=4)]
    options = [r.hex for r in mv.retreat_options(board, pieces, "iv")]
    south_west = step(board, "Noyon", "SW")
    assert south_west in options
    assert chauny not in options  # enemy-occupied
    assert step(board, "Noyon", "N") not in options  # enemy NML, empty
    assert step(board, "Noyon", "SE") not in options  # enemy NML and toward the east


def test_retreat_restrictions(board: dict[str, Any]) -> None:
    """12.7 B-C: not into the attacker's entry hex, an enemy-occupied hex, an enemy NML
    hex unless friendly-occupied, a prohibited hex."""
    noyon, chauny = at(board, "Noyon"), at(board, "Chauny")
    north = step(board, "Noyon", "N")
    south_west = step(board, "Noyon", "SW")
    pieces = [unit("iv", "allies", noyon, sz=2), unit("ii", "germans", chauny)]
    options = [
        r.hex for r in mv.retreat_options(board, pieces, "iv", attacker_entry_hex=south_west)
    ]
    assert south_west not in options and options
    held = [*pieces, unit("fr", "allies", north, sz=2)]
    assert north in [r.hex for r in mv.retreat_options(board, held, "iv")]


def test_retreat_prefers_not_toward_the_enemy_side(board: dict[str, Any]) -> None:
    """12.7 D: when it has a choice, a unit does not retreat closer to the enemy's side of
    the map (the Allies' east, the Germans' west); without a choice it may."""
    albert = at(board, "Albert")
    allies = mv.retreat_options(board, [unit("fr", "allies", albert)], "fr")
    germans = mv.retreat_options(board, [unit("de", "germans", albert)], "de")
    col = albert // 100
    assert {r.hex // 100 for r in allies} == {col, col - 1}
    assert {r.hex // 100 for r in germans} == {col, col + 1}
    assert mv.closer_to_enemy_side("allies", albert, step(board, "Albert", "NE"))
    assert not mv.closer_to_enemy_side("germans", albert, step(board, "Albert", "NE"))


def test_retreat_through_an_overstacked_hex_or_not_at_all(board: dict[str, Any]) -> None:
    """12.7 E: blocked only by overstacking, the unit retreats through that hex; 12.7 F:
    no retreat at all is an empty list (the unit stays and takes a hit)."""
    calais = at(board, "Calais")
    land = [h for h in rm.grid(board).neighbours(calais) if rm.terrain(board, h) != "water"]
    assert len(land) == 3
    crowd = [unit(f"f{h}", "allies", h, sz=6) for h in land]
    pieces = [unit("br", "allies", calais, sz=1), *crowd]
    options = mv.retreat_options(board, pieces, "br")
    assert options and all(len(r.path) == 2 and r.path[0] in land for r in options)
    # the way out blocked by enemies too: attacker in one, enemies on the far side
    g = rm.grid(board)
    far = {h for x in land for h in g.neighbours(x)} - {calais, *land}
    boxed = [
        *pieces,
        *(unit(f"d{h}", "germans", h) for h in far if rm.terrain(board, h) != "water"),
    ]
    assert mv.retreat_options(board, boxed, "br") == []
    # hidden sizes: the one-hex retreat is offered on a claim, and the two-hex ones on
    # the claim that the hex would be overstacked
    hidden = [unit("br", "allies", calais, sz=1), *(dict(p, sz=None) for p in crowd)]
    options = mv.retreat_options(board, hidden, "br")
    ones = [r for r in options if len(r.path) == 1]
    twos = [r for r in options if len(r.path) == 2]
    assert ones and all(r.claims[0].startswith("10.2 A") for r in ones)
    assert twos and all(any(c.startswith("12.7 E") for c in r.claims) for r in twos)


# --- 14.1 B, 15.3: control; 9.5, 14.1 C: LOC ----------------------------------------------------


def test_initial_control_and_changes(board: dict[str, Any]) -> None:
    """15.3: west of the trench line (and behind the Allied entrenchment) Allied, east
    (and behind the German entrenchment) German; 14.1 B: the last infantry to enter
    takes the hex, a hidden False Report too (3.1.3 B), scouting cavalry not."""
    ypres, lille = at(board, "Ypres"), at(board, "Lille")
    assert mv.control_of(board, {}, ypres) == "allies"
    assert mv.control_of(board, {}, lille) == "germans"
    for h in board["behind_enemy_lines"]["germans"]:
        assert mv.control_of(board, {}, h) == "allies"
    for h in board["behind_enemy_lines"]["allies"]:
        assert mv.control_of(board, {}, h) == "germans"
    assert mv.control_of(board, {}, board["entrenchments"]["allies"]) is None
    assert mv.control_of(board, {}, step(board, "Calais", "N")) is None  # water
    dixmude = at(board, "Dixmude")
    assert mv.control_of(board, {}, dixmude, flooded={dixmude}) is None  # 9.8 B

    control = mv.update_control(board, {}, unit("de", "germans", ypres), ypres)
    assert control == {ypres: "germans"}
    assert mv.control_of(board, control, ypres) == "germans"
    assert mv.control_of(board, {"0906": "germans"}, ypres) == "germans"  # JSON keys
    back = mv.update_control(board, {str(ypres): "germans"}, unit("be", "allies", ypres), ypres)
    assert back == {}
    fake = unit("x", "allies", lille, sz=None, kind="false")
    assert mv.update_control(board, {}, fake, lille) == {lille: "allies"}
    scout = unit("c", "allies", lille, kind="cavalry", scouting=True)
    assert mv.update_control(board, {}, scout, lille) == {}


def test_regroup_targets_by_nationality(board: dict[str, Any]) -> None:
    """9.5.1-9.5.4: German and French cities and major cities (the French also the South
    Entry), the British five ports, the Belgian Ghent, each only if friendly-controlled."""
    german = mv.regroup_targets(board, "german", {})
    assert at(board, "Lille") in german and at(board, "Ypres") not in german
    assert all(rm.terrain(board, h) in ("city", "major city") for h in german)
    french = mv.regroup_targets(board, "french", {})
    assert at(board, "Ypres") in french and at(board, "South Entry") in french
    assert at(board, "Albert") not in french  # a town
    british = mv.regroup_targets(board, "british", {})
    ports = {at(board, n) for n in ("Calais", "Dunkirk", "Nieuport")}  # Ostend, Zeebrugge German
    assert set(british) == ports
    assert mv.regroup_targets(board, "belgian", {}) == []  # Ghent is German at the start
    assert mv.regroup_targets(board, "belgian", {at(board, "Ghent"): "allies"}) == [
        at(board, "Ghent")
    ]
    with pytest.raises(ValueError):
        mv.regroup_targets(board, "swiss", {})


def test_loc_through_friendly_hexes(board: dict[str, Any]) -> None:
    """9.5: a connected path of friendly-controlled hexes to an eligible hex; 14.1 C: to
    the side's own map edge."""
    ypres = at(board, "Ypres")
    path = mv.regroup_loc(board, {}, "british", ypres)
    assert (
        path is not None
        and path[0] == ypres
        and path[-1] in mv.regroup_targets(board, "british", {})
    )
    g = rm.grid(board)
    assert all(g.adjacent(a, b) for a, b in zip(path, path[1:], strict=False))
    # a British unit cut off in Mons (German ground) has no LOC
    control = {at(board, "Mons"): "allies"}
    assert mv.regroup_loc(board, control, "british", at(board, "Mons")) is None
    # surround Ypres with German control: cut off
    ring = {h: "germans" for h in g.neighbours(ypres)}
    assert mv.regroup_loc(board, ring, "british", ypres) is None
    assert mv.loc(board, {}, ypres, [ypres]) == [ypres]
    west = mv.strategic_loc_hexes(board, {}, "allies")
    assert ypres in west and at(board, "Lille") not in west
    assert ypres not in mv.strategic_loc_hexes(board, ring, "allies")
