"""Race to the Sea 1914: Regroup (9.5), Rebuild (9.6) and the hit of a reinforcement placed
in the closest friendly hex (7.1.B), through the engine (recovery.py, hits.py)."""

from __future__ import annotations

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.core.engine import State
from pbem.errors import IllegalOrderError, PbemError
from pbem.games.race_to_the_sea import casualties, hits, recovery
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea.decisions import (
    Rebuild,
    Regroup,
    format_decision,
    parse_decision,
)
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.games.race_to_the_sea.state import adjacent_to_enemy, hex_text, unit
from pbem.testing import Table, leaks

DATA = ENGINE.load_data({})
HEAVY_LIGHT = [["m01", "heavy"], ["m02", "light"]]  # three hits (5.2.4)


def allied_act(seed: int = 1) -> Table:
    """Bots play to the Allies' first action of Turn 1."""
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=seed)
    for _ in range(3000):
        if t.state["step"] == "act" and t.asked() == "allies":
            return t
        t.step()
    raise AssertionError("never reached an Allied action")


def hidden_units(t: Table, false_report: bool = False) -> list[str]:
    """The Allies' hidden counters that can act, real units (or False Reports) only."""
    s, known = t.state, t.known("allies")
    out = []
    for label, c in sorted(s["counters"].items()):
        unit_id = known.get(f"unit/{label}")
        if c["side"] != "allies" or c["unit"] is not None or c["activated"] or unit_id is None:
            continue
        if (unit(s, str(unit_id))["kind"] == "false-report") == false_report:
            out.append(label)
    return out


def arrange_stack(t: Table, label: str, stack: list[list[str]]) -> str:
    """Give `label` a sealed stack piece of the Allies holding `stack`."""
    s = t.state
    piece_label = hits.stack_label(s, label)
    s["pieces"][piece_label] = {
        "label": piece_label,
        "owner": "allies",
        "value": None,
        "revealed": False,
        "placed_at": 5,
        "claims": [],
        "due": None,
    }
    s["stacks"][label] = piece_label
    s["next_stack"] += 1
    t.seal_for("allies", piece_label, stack)
    return piece_label


def away_from_enemies(t: Table, label: str) -> None:
    """Move every German counter next to `label` away (9.5.5.B), to a German hex far off."""
    s = t.state
    g = rm.grid(s["board"])
    here = s["counters"][label]["hex"]
    far = max(
        (c["hex"] for c in s["counters"].values() if c["side"] == "germans"),
        key=lambda h: g.distance(h, here),
    )
    for c in s["counters"].values():
        if c["side"] == "germans" and g.distance(c["hex"], here) <= 1:
            c["hex"] = far


def next_to_an_enemy(t: Table, label: str) -> None:
    """Put a German counter next to `label` (9.5.5.A), leaving control as it is."""
    s = t.state
    g = rm.grid(s["board"])
    here = s["counters"][label]["hex"]
    german = next(k for k, c in sorted(s["counters"].items()) if c["side"] == "germans")
    s["counters"][german]["hex"] = next(iter(g.neighbours(here)))


def regrouping(t: Table, false_report: bool = False) -> str:
    for label in hidden_units(t, false_report):
        nationality = t.state["counters"][label]["nationality"]
        if recovery.has_loc(t.state, nationality, t.state["counters"][label]["hex"]):
            return label
    raise AssertionError("no hidden Allied counter with an LOC")


def everything(t: Table) -> State:
    state = ENGINE.with_secrets(t.state, "allies", t.known("allies"))
    return ENGINE.with_secrets(state, "germans", t.known("germans"))


# --- the syntax ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["regroup c04 0807", "rebuild fr-xiii 1203"])
def test_regroup_and_rebuild_round_trip(text: str) -> None:
    decision = parse_decision(text)
    assert isinstance(decision, (Regroup, Rebuild))
    assert format_decision(decision) == text


# --- Regroup (9.5) --------------------------------------------------------------------------------


def test_rulebook_9_5_5_b_a_hidden_unit_away_from_the_enemy_removes_two_hits() -> None:
    """9.5.5.B, 5.2.5.A: two hits off in reverse order: the Light marker comes off (back to
    the cup, 5.2.5.B), the Heavy one flips to Light. The entry is public, the stack is not."""
    t = allied_act()
    label = regrouping(t)
    away_from_enemies(t, label)
    old = arrange_stack(t, label, HEAVY_LIGHT)
    here = t.state["counters"][label]["hex"]
    index = t.state["index"]
    assert Regroup(label, here) in ENGINE.choices(t.private("allies"), "allies")
    t.decide("allies", f"regroup {label} {hex_text(here)}")
    assert t.history[-1][2] == f"regroup {label} {hex_text(here)}"
    new = t.state["stacks"][label]
    assert new != old
    assert t.state["pieces"][new]["value"] is None  # hidden from the public
    assert t.known("allies")[new] == [["m01", "light"]]
    claim = t.state["pieces"][new]["claims"][-1]
    assert (claim["made"], claim["after"], claim["hits"]) == ("recover", old, 2)
    assert t.state["counters"][label]["activated"]  # 9.B
    assert t.state["index"] == index + 1
    assert "m02" in hits.cup_now(t.private("allies"), "allies")  # 5.2.5.B
    hits.check_recover(everything(t), everything(t)["pieces"][new], claim)  # true


def test_rulebook_9_5_5_a_next_to_an_enemy_one_hit_comes_off() -> None:
    t = allied_act()
    label = regrouping(t)
    next_to_an_enemy(t, label)
    assert adjacent_to_enemy(t.state, label)
    arrange_stack(t, label, HEAVY_LIGHT)
    t.decide("allies", f"regroup {label} {hex_text(t.state['counters'][label]['hex'])}")
    new = t.state["stacks"][label]
    assert t.known("allies")[new] == [["m01", "heavy"]]  # 5.2.5.A: the last Light off
    assert t.state["pieces"][new]["claims"][-1]["hits"] == 1


def test_rulebook_5_2_5_a_reverse_order_and_a_unit_with_fewer_hits() -> None:
    """5.2.5.A: a Heavy marker flips back to Light; 9.5.5: a one-hit unit allowed two
    removes what it has (how many came off stays hidden)."""
    assert casualties.recover([["m01", "heavy"]], 1) == ([["m01", "light"]], [])
    assert casualties.recover([["m01", "light"]], 2) == ([], ["m01"])


def test_a_publicly_fresh_counter_may_not_regroup() -> None:
    """9.5: 'a unit with a Casualties marker': no stack piece means no hit, publicly."""
    t = allied_act()
    label = regrouping(t)
    assert label not in t.state["stacks"]
    with pytest.raises(IllegalOrderError, match=r"no Casualties marker.*9\.5"):
        t.raw("allies", Regroup(label, t.state["counters"][label]["hex"]))
    assert recovery.regroups(t.private("allies"), "allies", label) == []


def test_a_regroup_needs_an_loc_for_its_nationality() -> None:
    """9.5.1-9.5.4: the nationality is public, so the LOC is checked at once."""
    t = allied_act()
    label = regrouping(t)
    arrange_stack(t, label, HEAVY_LIGHT)
    here = t.state["counters"][label]["hex"]
    t.state["control"] = {k: v for k, v in t.state["control"].items()}
    for h in rm.grid(t.state["board"]):
        if h != here and rm.grid(t.state["board"]).distance(h, here) == 1:
            t.state["control"][hex_text(h)] = "germans"  # cut off on every side
    with pytest.raises(IllegalOrderError, match=r"no LOC.*9\.5"):
        t.decide("allies", f"regroup {label} {hex_text(here)}")


def test_a_regroup_by_a_hidden_false_report_is_caught_when_it_opens() -> None:
    """9.1.C: a False Report may only move. Its client would refuse; a cheating client's
    regroup is public and carries the claim, found false when the identity opens."""
    t = allied_act()
    label = regrouping(t, false_report=True)
    identity = t.known("allies")[f"unit/{label}"]
    arrange_stack(t, label, [["m03", "light"]])
    here = t.state["counters"][label]["hex"]
    with pytest.raises(IllegalOrderError, match=r"False Report.*9\.1\.C"):
        t.decide("allies", f"regroup {label} {hex_text(here)}")  # the honest client
    new = hits.stack_label(t.state, label)
    t.raw("allies", Regroup(label, here), {new: []})
    seq = t.history[-1][0]
    piece = t.state["pieces"][f"unit/{label}"]
    with pytest.raises(PbemError, match=rf"false claim in entry {seq} by allies: .*{identity}"):
        ENGINE.check_claims(piece, identity)
    # through the engine: the identity is due, the Allies' next entry opens it and is refused
    t.state["pieces"][f"unit/{label}"] = dict(piece, due="a test opens it")
    while t.asked() != "allies":
        t.step()
    with pytest.raises(PbemError, match=rf"false claim in entry {seq} by allies.*9\.1\.C"):
        t.step()


def test_a_regroup_by_an_unhit_unit_is_caught_when_its_stack_opens() -> None:
    """9.5: a hidden unit whose stack piece holds no marker (a re-hidden fresh unit,
    7.7.4.A) may not regroup: the old stack's claim fails when it opens, naming the entry."""
    t = allied_act()
    label = regrouping(t)
    old = arrange_stack(t, label, [])
    here = t.state["counters"][label]["hex"]
    with pytest.raises(IllegalOrderError, match=r"no Casualties marker"):
        t.decide("allies", f"regroup {label} {hex_text(here)}")  # the honest client
    new = hits.stack_label(t.state, label)
    t.raw("allies", Regroup(label, here), {new: []})
    seq = t.history[-1][0]
    with pytest.raises(PbemError, match=rf"false claim in entry {seq} by allies.*9\.5"):
        ENGINE.check_claims(t.state["pieces"][old], [])
    full = everything(t)
    with pytest.raises(PbemError, match=rf"false claim in entry {seq} by allies.*9\.5"):
        hits.check_recover(full, full["pieces"][new], full["pieces"][new]["claims"][-1])


def test_a_recovered_stack_that_lies_is_caught_at_the_end() -> None:
    """hits.check_stacks: the new stack must be the old one less the allowed hits."""
    t = allied_act()
    label = regrouping(t)
    away_from_enemies(t, label)
    arrange_stack(t, label, HEAVY_LIGHT)
    new = hits.stack_label(t.state, label)
    t.raw("allies", Regroup(label, t.state["counters"][label]["hex"]), {new: []})  # 3 hits off
    seq = t.history[-1][0]
    full = everything(t)
    with pytest.raises(PbemError, match=rf"false claim in entry {seq} by allies.*9\.5\.5"):
        hits.check_recover(full, full["pieces"][new], full["pieces"][new]["claims"][-1])


def _regrouped_view(identity: str, stack: list[list[str]]) -> tuple[bytes, bytes, list[str]]:
    t = allied_act()
    label = regrouping(t)
    t.seal_for("allies", f"unit/{label}", identity)
    away_from_enemies(t, label)
    arrange_stack(t, label, stack)
    t.decide("allies", f"regroup {label} {hex_text(t.state['counters'][label]['hex'])}")
    mine = ENGINE.with_secrets(t.state, "allies", t.known("allies"))
    assert leaks(ENGINE, t.state, "allies", t.known("allies"), ["germans", None]) == []
    return (
        canonical_bytes(ENGINE.view(mine, "germans")),
        canonical_bytes(t.state),
        t.last.texts if t.last else [],
    )


def test_the_germans_view_of_a_regroup_does_not_depend_on_the_unit_nor_its_stack() -> None:
    """Design page, "Regroup and Rebuild": how many hits came off stays hidden; so does the
    unit. Two regroups of one counter, different units and stacks: byte-identical views."""
    a = _regrouped_view("fr-xiii", [["m01", "light"]])
    b = _regrouped_view("fr-iv", HEAVY_LIGHT)
    assert a == b


# --- Rebuild (9.6) --------------------------------------------------------------------------------


def test_rulebook_9_6_an_eliminated_unit_returns_at_sz_1_activated() -> None:
    """9.6: face up (the Rebuild names it), activated, with SZ - 1 hits drawn privately
    and committed by its owner's `restack` before play goes on."""
    t = allied_act()
    t.state["eliminated"]["allies"] = ["fr-viii"]
    hexes = recovery.rebuild_hexes(t.state, "allies", "fr-viii")
    assert hexes
    assert Rebuild("fr-viii", hexes[0]) in ENGINE.choices(t.private("allies"), "allies")
    index = t.state["index"]
    t.decide("allies", f"rebuild fr-viii {hex_text(hexes[0])}")
    s = t.state
    label = next(k for k, c in s["counters"].items() if c["unit"] == "fr-viii")
    assert s["counters"][label]["hex"] == hexes[0] and s["counters"][label]["activated"]
    assert s["eliminated"]["allies"] == []
    assert s["step"] == "restack" and t.asked() == "allies"
    assert s["restack"]["pending"][0]["hits"] == unit(s, "fr-viii")["sz"] - 1
    t.decide("allies", "restack")
    stack = hits.stack_of(t.private("allies"), label)
    assert stack is not None and casualties.hits_of(stack) == unit(s, "fr-viii")["sz"] - 1
    assert hits.stack_of(t.state, label) is None  # the markers stay hidden (4.2)
    assert t.state["step"] == "act" and t.state["index"] == index + 1
    rated = hits.ratings_of(t.private("allies"), label)
    assert rated is not None and rated["sz"] == 1


def test_a_rebuild_of_a_unit_not_eliminated_or_without_loc_is_refused() -> None:
    t = allied_act()
    with pytest.raises(IllegalOrderError, match=r"not an eliminated unit.*9\.6"):
        t.raw("allies", Rebuild("fr-viii", 1203))
    t.state["eliminated"]["allies"] = ["fr-viii"]
    german_hex = next(
        h
        for h in rm.grid(t.state["board"])
        if recovery.has_loc(t.state, "german", h)
        and not any(c["hex"] == h for c in t.state["counters"].values())
    )
    with pytest.raises(IllegalOrderError, match=r"no LOC.*9\.6"):
        t.raw("allies", Rebuild("fr-viii", german_hex))


# --- 7.1.B: a hit for the closest friendly hex ---------------------------------------------


def _placing(side: str, units: list[str]) -> Table:
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=3)
    s = t.state
    s["turn"] = 5
    s["batch"] = {
        "side": side,
        "units": units,
        "extra_false": 0,
        "false_ids": [],
        "labels": [],
        "grl_used": [],
    }
    s["step"], s["active"], s["place_order"] = "place", side, []
    return t


def test_rulebook_7_1_b_a_hidden_reinforcement_in_the_closest_hex_takes_a_hit() -> None:
    """7.1.B: Ostend is German (15.3): the British IV Corps enters the closest friendly
    hex, hidden, and draws one hit privately in its placement entry; its owner restacks
    before the next placement."""
    from pbem.games.race_to_the_sea.state import entry_hexes

    t = _placing("allies", ["gb-iv"])
    hex_ = entry_hexes(t.state, "gb-iv", "allies")[0]
    ctx = t.decide("allies", f"place gb-iv {hex_text(hex_)}")
    assert t.history[-1][2] == f"place british {hex_text(hex_)}"
    assert ctx.said("7.1.B")
    s = t.state
    label = s["batch"]["labels"][-1]
    assert s["step"] == "restack" and t.asked() == "allies"
    t.decide("allies", "restack")
    assert t.state["step"] == "place" and t.asked() == "allies"
    stack = hits.stack_of(t.private("allies"), label)
    assert stack is not None and casualties.hits_of(stack) == 1
    assert hits.stack_of(t.state, label) is None


def test_rulebook_7_1_b_a_unit_of_sz_1_is_eliminated_by_the_hit() -> None:
    """7.1.B, 5.2.6: the German IV Cavalry Corps (SZ 1, public) placed in the closest
    friendly hex is eliminated at once; it may be Rebuilt (9.6)."""
    from pbem.games.race_to_the_sea.state import entry_hexes, listed_hexes

    t = _placing("germans", ["de-iv-cav"])
    s = t.state
    s["control"] = dict(s["control"])
    for h in listed_hexes(s, "de-iv-cav", "germans"):
        s["control"][hex_text(h)] = "allies"
    hexes = entry_hexes(s, "de-iv-cav", "germans")
    assert hexes and not set(hexes) & set(listed_hexes(s, "de-iv-cav", "germans"))
    ctx = t.decide("germans", f"place de-iv-cav {hex_text(hexes[0])} deployed")
    assert ctx.said("eliminated")
    assert t.state["eliminated"]["germans"] == ["de-iv-cav"]
    assert not any(c["unit"] == "de-iv-cav" for c in t.state["counters"].values())
    assert t.state["restack"] is None
