"""Supply lines traced in set operations (`supply._trace`: a ring of areas at a time, the
areas of each control read once) are the supply lines of the plain trace kept here as the
reference (the area graph's region from the sources a control holds, through its
areas), for any control of the map's areas; and the memo of a configuration never
answers for another one or for another map."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.race_to_berlin import supply
from pbem.games.race_to_berlin.state import ALLIED, GERMAN, graph, update_area
from tests.games.race_to_berlin.rtb_support import new_game

CONTROLS = (*ALLIED, GERMAN)


def reference(state: dict[str, Any], control: str) -> tuple[frozenset[str], tuple[str, ...]]:
    areas = state["areas"]
    reached = graph(state).region(
        supply.sources(state, control), lambda a: areas[a]["control"] == control
    )
    cut = tuple(
        a for a in state["map"]["area_ids"] if areas[a]["control"] == control and a not in reached
    )
    return frozenset(reached), cut


def check(state: dict[str, Any]) -> None:
    for control in CONTROLS:
        assert supply._lines(state)[control] == reference(state, control), control
        assert supply.supplied(state, control) == reference(state, control)[0]
        assert supply.unsupplied(state, control) == list(reference(state, control)[1])


STATE = new_game().state
AREAS = STATE["map"]["area_ids"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CONTROLS), min_size=len(AREAS), max_size=len(AREAS)))
def test_any_control_of_the_map_is_traced_as_the_reference(controls: list[str]) -> None:
    state = dict(STATE, areas=dict(STATE["areas"]))
    for area, control in zip(AREAS, controls, strict=True):
        update_area(state, area, control=control)
    check(state)


def test_the_setup_and_a_cut_off_pocket() -> None:
    state = new_game().state
    check(state)
    state = dict(state, areas=dict(state["areas"]))
    for area in AREAS:
        if state["areas"][area]["control"] == GERMAN:
            update_area(state, area, control="west")
    update_area(state, "B1", control=GERMAN)
    update_area(state, AREAS[0], control=GERMAN)
    check(state)


def test_a_new_map_starts_a_new_memo() -> None:
    first = new_game().state
    second = new_game().state
    assert first["map"] is not second["map"]
    supply._lines(first)
    neighbours = supply._MEMO["neighbours"]
    supply._lines(second)
    assert (
        supply._MEMO["map"] is second["map"]
        and "neighbours" not in supply._MEMO
        or (supply._MEMO["neighbours"] is not neighbours)
    )
    check(second)


def test_a_controls_trace_is_kept_by_its_areas_and_never_answers_for_others() -> None:
    """A new configuration traces again only the controls whose areas changed; the trace
    kept for one control's areas is never given for another control or other areas."""
    state = new_game().state
    supply._lines(state)
    traced: list[tuple[str, frozenset[str]]] = []
    trace = supply._trace

    def counted(s: dict[str, Any], control: str, held: frozenset[str]) -> Any:
        traced.append((control, held))
        return trace(s, control, held)

    supply._trace = counted  # type: ignore[assignment]
    try:
        state = dict(state, areas=dict(state["areas"]))
        german = next(a for a in AREAS if state["areas"][a]["control"] == GERMAN)
        update_area(state, german, control="west")
        check(state)
        assert sorted(c for c, _h in traced) == ["german", "west"]  # the Soviets' kept
        traced.clear()
        update_area(state, german, control="soviet")  # the West's areas as at the start,
        check(state)  # the Germans' as just before: only the Soviets' are new
        assert [c for c, _h in traced] == ["soviet"]
        traced.clear()
        update_area(state, german, control=GERMAN)  # the start again: nothing traced
        check(state)
        assert traced == []
    finally:
        supply._trace = trace  # type: ignore[assignment]
