"""The area graphs of Race to Berlin and Berlin 1945, rebuilt here straight from the shipped
map.toml files (read with tomllib, not through the games' loaders), match what the engines
use: the same neighbours for every area, in the same order, the same rivers, and the same
answers to the graph questions the rules ask (supply, fronts, the German Mitte rule)."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from pbem.games.berlin_1945 import board as b45_board
from pbem.games.berlin_1945 import data as b45_data
from pbem.games.berlin_1945 import tables as b45_tables
from pbem.games.berlin_1945.rules import Berlin1945Engine
from pbem.games.race_to_berlin import data as rtb_data
from pbem.games.race_to_berlin import state as rtb_state
from pbem.games.race_to_berlin.board import front_line_areas, markers_used
from pbem.games.race_to_berlin.rules import ENGINE as RTB
from pbem.games.race_to_berlin.supply import supplied
from pbem.maps.areas import AreaGraph

# --- Race to Berlin ------------------------------------------------------------------------------


def rtb_graph_from_toml() -> AreaGraph:
    doc = tomllib.loads(rtb_data.default_data()["map.toml"].decode())
    numbered = sorted((a["id"] for a in doc["area"] if a["id"].isdigit()), key=int)
    berlin = sorted(a["id"] for a in doc["area"] if not a["id"].isdigit())
    return AreaGraph(
        numbered + berlin,  # map order: 1..N, then B1..B5
        [b["between"] for b in doc["border"]],
        features={frozenset(b["between"]): ["river"] for b in doc["border"] if b.get("river")},
    )


@pytest.fixture(scope="module")
def rtb_state_fresh() -> dict[str, Any]:
    return RTB.setup(RTB.load_data({}), {})


def test_race_to_berlin_engine_graph_matches_map_toml(rtb_state_fresh: dict[str, Any]) -> None:
    toml_graph = rtb_graph_from_toml()
    engine_graph = rtb_state.graph(rtb_state_fresh)
    static = rtb_state_fresh["map"]
    assert engine_graph.areas == toml_graph.areas == tuple(static["area_ids"])
    for area in toml_graph:
        assert engine_graph.neighbours(area) == toml_graph.neighbours(area), area
        assert list(toml_graph.neighbours(area)) == static["areas"][area]["neighbours"], area
        rivers = [n for n in toml_graph.neighbours(area) if toml_graph.is_river(area, n)]
        assert rivers == static["areas"][area]["rivers"], area
        assert rtb_state.neighbours(rtb_state_fresh, area) == list(toml_graph.neighbours(area))
    assert engine_graph.borders == toml_graph.borders
    assert [tuple(b) for b in static["borders"]] == list(toml_graph.borders)
    assert len(toml_graph.borders) == 89 and len(toml_graph.borders_with("river")) == 20
    # built once per static map, and the loaded data's graph is the same map
    assert rtb_state.graph(rtb_state_fresh) is engine_graph
    loaded = rtb_data.area_graph(RTB.load_data({}))
    assert loaded.borders == engine_graph.borders
    assert loaded.borders_with("river") == engine_graph.borders_with("river")
    assert engine_graph.group("berlin") == ("B1", "B2", "B3", "B4", "B5")


def test_race_to_berlin_graph_questions_match_the_engine(rtb_state_fresh: dict[str, Any]) -> None:
    """rulebook 4.4: supply through own areas from the bases; 4.2.1.1: a marker on every
    border between a player's area and any other."""
    graph = rtb_graph_from_toml()
    areas = rtb_state_fresh["areas"]

    def owned(force: str) -> set[str]:
        return {a for a in graph if areas[a]["control"] == force}

    for force in ("west", "soviet", "german"):
        bases = {a for a in rtb_state_fresh["map"]["sources"][force] if a in owned(force)}
        assert supplied(rtb_state_fresh, force) == graph.region(bases, owned(force))
    used = markers_used(rtb_state_fresh)
    assert (
        used
        == {p: len(graph.cut(owned(p))) for p in ("west", "soviet")}
        == {
            "west": 5,
            "soviet": 5,
        }
    )
    german, soviet = owned("german"), owned("soviet")
    assert front_line_areas(rtb_state_fresh, "soviet") == graph.bordering(german, soviet)
    assert graph.distance("1", "B1") == rtb_state.graph(rtb_state_fresh).distances_from("B1")["1"]


# --- Berlin 1945 ---------------------------------------------------------------------------------


def b45_graphs_from_toml() -> dict[str, AreaGraph]:
    doc = tomllib.loads(b45_data.default_data()["map.toml"].decode())
    zones = [z["id"] for z in doc["zone"]]
    borders = [tuple(b["between"]) for b in doc["border"]]
    sectors = [z["id"] for z in doc["zone"] if z["ring"] == "mitte"]
    rule = {r["id"]: r["value"] for r in doc["rule"]}
    assert rule["german-mitte-all-adjacent"] is True
    known = {frozenset(b) for b in borders}
    # rulebook 5.1: for the German player every Mitte sector is adjacent to every other
    mitte = [
        (a, b)
        for i, a in enumerate(sectors)
        for b in sectors[i + 1 :]
        if frozenset((a, b)) not in known
    ]
    return {"soviet": AreaGraph(zones, borders), "german": AreaGraph(zones, borders + mitte)}


def test_berlin_1945_engine_graph_matches_map_toml() -> None:
    expected = b45_graphs_from_toml()
    data = b45_data.load_data({})
    engine = Berlin1945Engine()
    state = engine.setup(engine.load_data({}), {})
    t = b45_tables.of(state)
    assert list(expected["soviet"].areas) == list(t.zones) == data["zone_ids"]
    for side, graph in expected.items():
        for zone in graph:
            want = graph.neighbours(zone)
            assert t.adj[side][zone] == want, (side, zone)
            assert t.graph[side].neighbours(zone) == want, (side, zone)
            assert b45_board.neighbours(data, zone, side) == list(want), (side, zone)
        assert t.graph[side].borders == graph.borders
    for zone in expected["soviet"]:
        assert data["zones"][zone]["neighbours"] == list(expected["soviet"].neighbours(zone))
        assert b45_board.neighbours(data, zone) == list(expected["soviet"].neighbours(zone))
    assert [tuple(b) for b in data["borders"]] == list(expected["soviet"].borders)


def test_berlin_1945_graph_groups_are_the_rings() -> None:
    """rulebook 1: Areas A-F on the edge, Districts 12-18 outer, 6-11 middle, 1-5 inner, the
    Mitte I-V; every zone reaches Sector V, and no border skips a ring."""
    data = b45_data.load_data({})
    graph = b45_board.area_graph(data, "soviet")
    assert graph.group("edge") == ("A", "B", "C", "D", "E", "F")
    assert graph.group("mitte") == ("I", "II", "III", "IV", "V")
    assert graph.region(["V"]) == set(graph.areas)
    depth = {z: b45_board.ring_depth(data, z) for z in graph}
    assert graph.distances("V") == {z: graph.distance("V", z) for z in graph}
    assert all(graph.distance("V", z) >= depth[z] for z in graph)
    assert b45_board.area_graph(data, "soviet") is graph
    with pytest.raises(ValueError, match="unknown side"):
        b45_board.area_graph(data, "french")
