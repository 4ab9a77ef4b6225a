"""pbem.maps.areas: the area graph's queries on a small hand-made map, its refusals, and
properties over random graphs (symmetric neighbours, the triangle inequality, paths as long
as distances, components that partition)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.maps.areas import AreaGraph

# A small map drawn on paper, map order a..g:
#
#   a - b - c        d - e is a river; g stands alone
#   |   |   |
#   d ~ e - f    g
AREAS = ["a", "b", "c", "d", "e", "f", "g"]
BORDERS = [("a", "b"), ("b", "c"), ("a", "d"), ("b", "e"), ("c", "f"), ("e", "d"), ("e", "f")]


@pytest.fixture
def graph() -> AreaGraph:
    return AreaGraph(
        AREAS,
        BORDERS,
        features={frozenset(("d", "e")): ["river"]},
        groups={"top": ["c", "a", "b"]},
    )


def test_neighbours_come_in_map_order_and_adjacency_is_symmetric(graph: AreaGraph) -> None:
    assert graph.neighbours("e") == ("b", "d", "f")
    assert graph.neighbours("g") == ()
    assert graph.adjacent("a", "b") and graph.adjacent("b", "a")
    assert not graph.adjacent("a", "e")
    assert len(graph) == 7 and "g" in graph and "z" not in graph


def test_borders_are_listed_once_in_map_order(graph: AreaGraph) -> None:
    assert graph.borders == (
        ("a", "b"),
        ("a", "d"),
        ("b", "c"),
        ("b", "e"),
        ("c", "f"),
        ("d", "e"),
        ("e", "f"),
    )


def test_river_borders_both_ways(graph: AreaGraph) -> None:
    assert graph.is_river("d", "e") and graph.is_river("e", "d")
    assert not graph.is_river("a", "d")
    assert graph.features("e", "d") == frozenset({"river"})
    assert graph.borders_with("river") == [("d", "e")]
    with pytest.raises(ValueError, match="share no border"):
        graph.is_river("a", "f")
    with pytest.raises(KeyError, match="unknown area 'z'"):
        graph.is_river("a", "z")


def test_groups_in_map_order(graph: AreaGraph) -> None:
    assert graph.group("top") == ("a", "b", "c")
    with pytest.raises(KeyError, match="unknown group"):
        graph.group("bottom")


def test_region_goes_only_through_the_predicate(graph: AreaGraph) -> None:
    # supply: from "a" through own areas a, b, d, f only (c and e are the enemy's)
    own = {"a", "b", "d", "f"}
    assert graph.region(["a"], own) == {"a", "b", "d"}
    assert graph.region(["a"], lambda x: x in own) == {"a", "b", "d"}
    assert graph.region(["c"], own) == set()  # a start outside is left out
    assert graph.region(["a"]) == {"a", "b", "c", "d", "e", "f"}
    # a step rule: no crossing of the river
    assert graph.region(["d"], None, lambda x, y: not graph.is_river(x, y)) == {
        "a",
        "b",
        "c",
        "d",
        "e",
        "f",
    }
    assert graph.region(["d"], {"d", "e"}, lambda x, y: not graph.is_river(x, y)) == {"d"}


def test_components_in_map_order(graph: AreaGraph) -> None:
    assert graph.components(["f", "d", "a", "g", "c"]) == [["a", "d"], ["c", "f"], ["g"]]
    assert graph.components() == [["a", "b", "c", "d", "e", "f"], ["g"]]
    assert graph.connected({"a", "b", "e"}) and not graph.connected({"a", "e"})


def test_distances_and_shortest_paths(graph: AreaGraph) -> None:
    assert graph.distances("a") == {"a": 0, "b": 1, "d": 1, "c": 2, "e": 2, "f": 3}
    assert graph.distances(["a", "f"]) == {"a": 0, "f": 0, "b": 1, "d": 1, "c": 1, "e": 1}
    assert graph.distance("a", "f") == 3
    assert graph.distance("a", "g") is None
    # the first neighbour in map order wins a tie: a-b-c-f before a-b-e-f
    assert graph.shortest_path("a", "f") == ["a", "b", "c", "f"]
    assert graph.shortest_path("a", "f", {"a", "d", "e", "f"}) == ["a", "d", "e", "f"]
    assert graph.shortest_path("a", "f", {"a", "b"}) is None
    assert graph.shortest_path("a", "a") == ["a"]
    assert graph.distances_from("e")["a"] == 2
    with pytest.raises(TypeError):
        graph.distances_from("e")["a"] = 5  # type: ignore[index]


def test_front_lines(graph: AreaGraph) -> None:
    west = {"a", "d"}
    assert graph.touching(west) == ["b", "e"]
    assert graph.cut(west) == [("a", "b"), ("d", "e")]
    assert graph.bordering(west, lambda x: x not in west) == ["a", "d"]
    assert graph.bordering(lambda x: x not in west, west) == ["b", "e"]
    assert graph.borders_around(["e"]) == [("b", "e"), ("d", "e"), ("e", "f")]


def test_from_neighbours_matches_the_pairs(graph: AreaGraph) -> None:
    lists = {a: list(graph.neighbours(a)) for a in AREAS}
    again = AreaGraph.from_neighbours(lists)
    assert again.borders == graph.borders
    with pytest.raises(ValueError, match="does not list"):
        AreaGraph.from_neighbours({"a": ["b"], "b": []})
    with pytest.raises(ValueError, match="unknown area"):
        AreaGraph.from_neighbours({"a": ["x"]})


@pytest.mark.parametrize(
    "borders,features,message",
    [
        ([("a", "a")], {}, "cannot border itself"),
        ([("a", "b"), ("b", "a")], {}, "given twice"),
        ([("a", "x")], {}, "unknown area"),
        ([("a", "b")], {frozenset(("a", "c")): ["river"]}, "share no border"),
    ],
)
def test_refusals(
    borders: list[tuple[str, str]], features: dict[frozenset[str], list[str]], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        AreaGraph(["a", "b", "c"], borders, features=features)


# --- properties over random graphs ---------------------------------------------------------------


@st.composite
def graphs(draw: st.DrawFn) -> AreaGraph:
    n = draw(st.integers(1, 12))
    areas = [f"x{i}" for i in range(n)]
    pairs = [(a, b) for i, a in enumerate(areas) for b in areas[i + 1 :]]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    return AreaGraph(draw(st.permutations(areas)), chosen)


@settings(max_examples=150, deadline=None)
@given(graphs())
def test_property_neighbours_are_symmetric(graph: AreaGraph) -> None:
    for a in graph:
        assert a not in graph.neighbours(a)
        assert list(graph.neighbours(a)) == graph.in_order(graph.neighbours(a))
        for b in graph.neighbours(a):
            assert a in graph.neighbours(b)
    assert 2 * len(graph.borders) == sum(len(graph.neighbours(a)) for a in graph)


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data())
def test_property_triangle_inequality_and_paths(graph: AreaGraph, data: st.DataObject) -> None:
    a, b, c = (data.draw(st.sampled_from(graph.areas)) for _ in range(3))
    ab, bc, ac = graph.distance(a, b), graph.distance(b, c), graph.distance(a, c)
    assert ab == graph.distance(b, a)
    if ab is not None and bc is not None:
        assert ac is not None and ac <= ab + bc
    path = graph.shortest_path(a, b)
    if ab is None:
        assert path is None
    else:
        assert path is not None and len(path) - 1 == ab
        assert all(graph.adjacent(x, y) for x, y in zip(path, path[1:], strict=False))


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data())
def test_property_components_partition_and_regions_agree(
    graph: AreaGraph, data: st.DataObject
) -> None:
    subset = data.draw(st.sets(st.sampled_from(graph.areas)))
    parts = graph.components(subset)
    assert sorted(a for part in parts for a in part) == sorted(subset)
    for part in parts:
        assert graph.region(part[:1], subset) == set(part)
        assert graph.connected(part)
    # the areas touching a set are exactly the outside ends of its cut borders
    ends = {b if a in subset else a for a, b in graph.cut(subset)}
    assert set(graph.touching(subset)) == ends
