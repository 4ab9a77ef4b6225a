"""Race to the Sea 1914: the Casualties markers, modified ratings and casualty bookkeeping
(pbem.games.race_to_the_sea.casualties), with the rulebook's examples (3.2.7.A, 3.3.4,
5.1.D, 5.2.2, 5.2.4, 5.2.5.A) and the data side of the casualty cup
(docs/race-to-the-sea.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from pbem.errors import DataError, IllegalOrderError
from pbem.games.race_to_the_sea import casualties as cas
from pbem.games.race_to_the_sea.casualties import (
    BLANK,
    absorb,
    apply_hits,
    cup_for,
    default_markers,
    draw_request,
    drawer,
    hits_of,
    load_markers,
    modified,
    rebuild,
    recover,
    roll_range,
    unit_ratings,
)

MARKERS = default_markers()
# 3.3.4: the French 6th Reserve Corps (VI Reserve)
VI_RESERVE = {"sz": 2, "met": "B", "rf": 1, "mg": 3, "art": 2, "special": "SQ"}


def cup_of(*ids: str) -> Callable[[], str]:
    """A draw that yields the given marker ids in order (the test plays the cup)."""
    it: Iterator[str] = iter(ids)
    return lambda: next(it)


def no_draw() -> str:
    raise AssertionError("no marker may be drawn here")


# --- the marker mix (4.1.3, 5.1.D, 3.2.7.A, 3.3.4) --------------------------------------------


def test_the_shipped_mix_24_markers_all_different_5_1_d() -> None:
    assert len(MARKERS) == 24
    sides = {(tuple(m["light"].items()), tuple(m["heavy"].items())) for m in MARKERS.values()}
    assert len(sides) == len(MARKERS)


def test_light_side_sz_minus_1_heavy_side_sz_minus_2_5_1_d() -> None:
    for marker in MARKERS.values():
        assert marker["light"]["sz"] == -1
        assert marker["heavy"]["sz"] == -2


def test_light_sides_reduce_one_level_in_one_or_two_other_categories_5_2_2() -> None:
    for marker in MARKERS.values():
        others = {c: v for c, v in marker["light"].items() if c != "sz" and v}
        assert 1 <= len(others) <= 2, marker["id"]
        assert set(others.values()) == {-1}
        # a Heavy side is never milder than its Light side
        assert all(marker["heavy"][c] <= marker["light"][c] for c in cas.CATEGORIES)


def test_exactly_one_marker_with_minus_2_met_3_2_7_a() -> None:
    assert [m["id"] for m in MARKERS.values() if m["heavy"]["met"] == -2] == ["m02"]
    assert MARKERS["m02"]["heavy_provenance"] == "rulebook 3.2.7.A"


def test_the_marker_of_3_3_4_and_its_provenance() -> None:
    marker = MARKERS["m01"]
    assert marker["light"] == {"sz": -1, "met": 0, "rf": 0, "mg": -1, "art": -1}
    assert marker["light_provenance"] == "rulebook 3.3.4"
    assert marker["heavy_provenance"] == "stand-in"
    for ident, marker in MARKERS.items():
        assert marker["provenance"] in ("stand-in", "rulebook 3.3.4", "rulebook 3.2.7.A")
        if marker["provenance"] == "stand-in":
            assert "Invented" in marker["note"], ident


def test_a_bad_markers_file_lists_every_problem() -> None:
    bad = b"""
[[marker]]
id = "x1"
light = { sz = -2, mg = -1, provenance = "stand-in" }
heavy = { sz = -2, mg = -1, provenance = "stand-in" }
provenance = "stand-in"

[[marker]]
id = "x2"
light = { sz = -1, rf = -1, provenance = "stand-in" }
heavy = { sz = -2, provenance = "stand-in" }
provenance = "stand-in"

[[marker]]
id = "x3"
light = { sz = -1, mg = -1, provenance = "stand-in" }
heavy = { sz = -2, mg = -2, provenance = "stand-in" }
provenance = "rumour"

[[marker]]
id = "x4"
light = { sz = -1, mg = -1, provenance = "stand-in" }
heavy = { sz = -2, mg = -2, provenance = "stand-in" }
provenance = "stand-in"
"""
    with pytest.raises(DataError) as caught:
        load_markers(bad)
    text = str(caught.value)
    assert text.startswith("markers.toml: ")
    assert "marker x1.light.sz: expected -1 (5.1.D" in text
    assert "marker x2.heavy: milder than the Light side in rf" in text
    assert "marker x3.provenance" in text
    assert "marker x4: the same as marker x3: the markers are all different (5.1.D)" in text
    assert "\n" not in text


def test_a_light_side_reduces_only_one_level_5_2_2() -> None:
    bad = b"""
[[marker]]
id = "x1"
light = { sz = -1, met = -2, provenance = "stand-in" }
heavy = { sz = -2, met = -2, provenance = "stand-in" }
provenance = "stand-in"
"""
    with pytest.raises(
        DataError, match=r"marker x1.light.met: -2: a Light side lowers by one level \(5.2.2\)"
    ):
        load_markers(bad)


# --- modified ratings (3.2.7) ------------------------------------------------------------------


def test_rulebook_3_2_7_a_met_b_with_a_heavy_minus_2_met_is_d() -> None:
    unit = {"sz": 3, "met": "B", "rf": 2, "mg": 2, "art": 2}
    assert modified(unit, [{"sz": -2, "met": -2}])["met"] == "D"
    assert unit_ratings(unit, [["m02", "heavy"]], MARKERS)["met"] == "D"


def test_rulebook_3_3_4_vi_reserve_with_the_light_marker_rf_stays_1() -> None:
    """3.3.4 prints RF = 2 after the hit, which 3.2.7.A-B forbid (a casualty only lowers a
    rating): RF stays 1, the misprint is documented in docs/race-to-the-sea.md."""
    after = unit_ratings(VI_RESERVE, [["m01", "light"]], MARKERS)
    assert after == {"sz": 1, "met": "B", "rf": 1, "mg": 2, "art": 1, "special": "SQ"}
    assert VI_RESERVE["rf"] == 1  # the unit's printed ratings are not changed


def test_rulebook_5_2_2_examples_mg_3_to_2_and_met_c_to_d() -> None:
    assert modified({"mg": 3}, [{"sz": -1, "mg": -1}])["mg"] == 2
    assert modified({"met": "C"}, [{"sz": -1, "met": -1}])["met"] == "D"


def test_rulebook_3_2_7_b_floors_d_and_1_but_sz_reaches_0() -> None:
    unit = {"sz": 2, "met": "C", "rf": 1, "mg": 2, "art": 1}
    after = modified(unit, [{"sz": -1, "met": -1, "rf": -1}, {"sz": -2, "met": -2, "mg": -2}])
    assert after == {"sz": 0, "met": "D", "rf": 1, "mg": 1, "art": 1}


def test_modifications_are_cumulative_3_2_7_a_and_5_2_4() -> None:
    unit = {"sz": 4, "met": "A", "rf": 4, "mg": 4, "art": 4, "special": "HA"}
    after = unit_ratings(unit, [["m07", "heavy"], ["m06", "light"]], MARKERS)
    # m07 Heavy: SZ -2, MET -1, MG -2; m06 Light: SZ -1, MET -1, RF -1
    assert after == {"sz": 1, "met": "C", "rf": 3, "mg": 2, "art": 4, "special": "HA"}


def test_a_marker_never_raises_a_rating() -> None:
    with pytest.raises(ValueError, match="never raises a rating"):
        modified(VI_RESERVE, [{"sz": -1, "rf": 1}])
    for marker in MARKERS.values():
        for side in ("light", "heavy"):
            after = modified(VI_RESERVE, [marker[side]])
            assert all(after[c] <= VI_RESERVE[c] for c in ("sz", "rf", "mg", "art"))
            assert after["met"] >= VI_RESERVE["met"]  # "B" < "C" < "D": never better
            assert after["rf"] == 1 and after["special"] == "SQ"


# --- hits bookkeeping (5.2) --------------------------------------------------------------------


def test_rulebook_5_2_1_and_5_2_2_one_hit_draws_a_light_marker() -> None:
    assert hits_of([]) == 0  # 5.2.1: fresh
    stack = apply_hits([], 1, cup_of("m05"))
    assert stack == [["m05", "light"]]
    assert hits_of(stack) == 1


def test_rulebook_5_2_3_a_second_hit_flips_the_light_marker() -> None:
    stack = apply_hits([["m05", "light"]], 1, no_draw)
    assert stack == [["m05", "heavy"]]
    assert apply_hits([], 2, cup_of("m09")) == [["m09", "heavy"]]  # fresh unit, two hits
    assert hits_of(stack) == 2


def test_rulebook_5_2_4_light_plus_two_hits_flips_then_draws_a_new_light() -> None:
    stack = apply_hits([["m03", "light"]], 2, cup_of("m12"))
    assert stack == [["m03", "heavy"], ["m12", "light"]]
    assert hits_of(stack) == 3
    unit = {"sz": 4, "met": "B", "rf": 3, "mg": 3, "art": 3}
    # both sides' effects add up: m03 Heavy RF -2, m12 Light RF -1
    assert unit_ratings(unit, stack, MARKERS) == {"sz": 1, "met": "B", "rf": 1, "mg": 3, "art": 3}


def test_apply_hits_does_not_change_its_argument() -> None:
    stack = [["m03", "light"]]
    apply_hits(stack, 1, no_draw)
    assert stack == [["m03", "light"]]


def test_rulebook_5_2_5_a_heavy_flips_back_to_light() -> None:
    stack, back = recover([["m04", "heavy"]], 1)
    assert stack == [["m04", "light"]] and back == []


def test_rulebook_5_2_5_reverse_order_and_markers_back_to_the_cup() -> None:
    stack = [["m03", "heavy"], ["m12", "light"]]
    assert recover(stack, 1) == ([["m03", "heavy"]], ["m12"])
    assert recover(stack, 2) == ([["m03", "light"]], ["m12"])
    assert recover(stack, 3) == ([], ["m12", "m03"])
    # 9.5.5: a unit with fewer hits than it may remove removes what it has
    assert recover([["m04", "light"]], 2) == ([], ["m04"])


def test_recovery_undoes_application_step_by_step() -> None:
    rng = random.Random(7)
    for _ in range(200):
        before = apply_hits([], rng.randint(0, 3), cup_of("m01", "m02"))
        more = rng.randint(1, 3)
        after = apply_hits(before, more, cup_of("m20", "m21"))
        assert hits_of(after) == hits_of(before) + more
        assert recover(after, more)[0] == before


def test_rulebook_5_1_d_sz_2_absorbing_two_hits_is_eliminated() -> None:
    result = absorb([], 2, 2, no_draw)
    assert result.eliminated and result.stack == [] and result.returned == []


def test_rulebook_5_2_6_elimination_returns_the_markers_to_the_cup() -> None:
    result = absorb([["m03", "heavy"]], 4, 2, no_draw)  # 2 + 2 hits >= SZ 4
    assert result.eliminated and result.returned == ["m03"]
    survived = absorb([["m03", "light"]], 4, 2, cup_of("m12"))
    assert not survived.eliminated
    assert survived.stack == [["m03", "heavy"], ["m12", "light"]]
    # a modified SZ of 0 is the same elimination (3.2.7.B)
    assert unit_ratings({"sz": 3}, [["m03", "heavy"], ["m12", "light"]], MARKERS)["sz"] == 0


def test_rulebook_9_6_rebuild_at_sz_1() -> None:
    for sz, shown in [(1, []), (2, [["m08", "light"]]), (3, [["m08", "heavy"]])]:
        stack = rebuild(sz, cup_of("m08", "m09"))
        assert stack == shown
        assert unit_ratings({"sz": sz}, stack, MARKERS)["sz"] == 1
    assert rebuild(4, cup_of("m08", "m09")) == [["m08", "heavy"], ["m09", "light"]]


# --- the cup: each side's own copy of the mix (docs/race-to-the-sea.md) -----------------------


def test_each_side_s_cup_is_the_full_mix_less_its_own_markers() -> None:
    german = [[["m03", "heavy"], ["m12", "light"]], [["m05", "light"]]]
    assert cup_for("allies", MARKERS) == sorted(MARKERS)
    cup = cup_for("germans", MARKERS, german)
    assert len(cup) == 21 and not {"m03", "m12", "m05"} & set(cup)
    assert cup == sorted(cup)
    # the other side's markers never change a side's cup
    assert cup_for("allies", MARKERS) == cup_for("allies", MARKERS, [])


def test_a_marker_under_two_units_of_one_side_is_refused() -> None:
    with pytest.raises(IllegalOrderError, match="m03 is under two germans units"):
        cup_for("germans", MARKERS, [[["m03", "light"]], [["m03", "heavy"]]])


def test_the_roll_range_divides_evenly_by_every_cup_size() -> None:
    span = roll_range(MARKERS)
    assert span < 2**64
    assert all(span % size == 0 for size in range(1, len(MARKERS) + 1))
    # so each marker left in any cup is hit by exactly span / size of the rolls
    cup = cup_for("allies", MARKERS, [[["m01", "light"]]])
    counts = {m: 0 for m in cup}
    for roll in range(len(cup) * 5):
        counts[drawer(cup, [roll])()] += 1
    assert set(counts.values()) == {5}


def test_the_public_draw_request_does_not_depend_on_the_hidden_markers() -> None:
    """What the log shows of a private marker draw is how many rolls over what range
    (draw_request): the same for any hidden stack and any cup. Only the owner, who knows
    its cup, maps the rolls to markers: the same rolls give different markers for
    different hidden states, so the opponent learns no hidden unit's markers from the draw
    (10.4.A)."""
    rolls = [123456789, 987654321]
    states = [
        ([], []),
        ([["m01", "light"]], [[["m05", "light"]]]),
        ([["m02", "heavy"]], [[["m05", "heavy"], ["m06", "light"]], [["m07", "light"]]]),
    ]
    requests = set()
    outcomes = set()
    for stack, others in states:
        requests.add(draw_request(MARKERS, 2))
        cup = cup_for("allies", MARKERS, [stack, *others])
        after = apply_hits(stack, 2, drawer(cup, rolls))
        assert hits_of(after) == hits_of(stack) + 2
        outcomes.add(repr(after))
    assert requests == {(2, roll_range(MARKERS))}
    assert len(outcomes) == len(states)


def test_the_drawer_takes_one_roll_per_draw_and_a_blank_from_an_empty_cup() -> None:
    draw = drawer(["m01", "m02"], [1, 0, 5])
    assert [draw(), draw(), draw()] == ["m02", "m01", BLANK]
    with pytest.raises(IllegalOrderError, match="no roll left"):
        draw()
    # a blank counts its hits and only its SZ
    stack = apply_hits([], 3, drawer([], [0, 0, 0]))
    assert stack == [[BLANK, "heavy"], [BLANK, "light"]]
    assert unit_ratings(VI_RESERVE | {"sz": 4}, stack, MARKERS) == VI_RESERVE | {"sz": 1}
    assert recover(stack, 3) == ([], [])  # a blank never goes back to the cup
