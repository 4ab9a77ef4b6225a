"""Race to the Sea 1914: Assault Combat through the engine (12, 10.5.4.2, 13.0's
Counter-Attack), pbem.games.race_to_the_sea.assault.

The worked example of 12.9 is played entry by entry: the flank attack on Ypres, the XXIII
Reserve eliminated by #9 against #7 across the river, the III Reserve's Big Push keeping
#3 against #12, the British IV Corps eliminated, Ypres taken."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.core.engine import State
from pbem.errors import IllegalOrderError
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea.decisions import Assault, format_decision, parse_decision
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.games.race_to_the_sea.state import control_of, copy_state
from pbem.testing import Table, leaks
from tests.games.race_to_the_sea.rts_arrange import markers_of, sealed_piece

DATA = ENGINE.load_data({})
BOARD = DATA["map"]
YPRES = rm.hex_of(BOARD, "Ypres")
DIXMUDE = rm.hex_of(BOARD, "Dixmude")
SOUTH_EAST = rm.grid(BOARD).neighbour(YPRES, "SE")


def h(hex_: int) -> str:
    return f"{hex_:04d}"


def action_table(side: str, actions: int, seed: int = 1) -> Table:
    """A table at an Action Round where `side` has `actions` actions in a row."""
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=seed)
    for _ in range(3000):
        if t.state["step"] == "act":
            break
        t.step()
    s = copy_state(t.state)
    s["order"] = [side] * actions + [("allies" if side == "germans" else "germans")]
    s["index"] = 0
    s["counters"] = {}
    s["stacks"] = {}
    t.state = s
    return t


def counter(
    t: Table, label: str, side: str, unit_id: str, hex_: int, hidden: bool = False, **extra: Any
) -> None:
    """Put a counter on the map: face up, or hidden with its identity sealed by its owner."""
    data = DATA["units"]["units"][unit_id]
    t.state["counters"][label] = {
        "side": side,
        "nationality": data["nationality"],
        "hex": hex_,
        "cavalry": data["kind"] == "cavalry",
        "scouting": False,
        "unit": None if hidden else unit_id,
        "activated": False,
        **extra,
    }
    if hidden:
        sealed_piece(t, side, f"unit/{label}", unit_id)


def deal(s: State, side: str, *cards: int) -> None:
    """The next cards `side` flips, in order (a pile of one card draws it whatever the roll)."""
    s["decks"][side]["pile"] = list(cards)


# --- syntax --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "assault c09 0605 to 0707",
        "assault c09 0605 +c12 0706 to 0707",
        "match c09 c21 c12 c22",
        "keep 3",
        "retreat c21 0808",
        "withdraw c12 0706",
        "fight on",
        "back c12",
        "counter c21",
        "no counter",
        "plan 0807 0808",
        "deploy 0807",
        "keep marker",
    ],
)
def test_assault_decisions_round_trip_in_shell_safe_words(text: str) -> None:
    decision = parse_decision(text)
    assert format_decision(decision) == text
    assert all(ch.isalnum() or ch in " +" for ch in text)


# --- 12.9's worked example ------------------------------------------------------------------


def test_rulebook_12_9_the_flank_attack_on_ypres() -> None:
    """12.9: the Germans (4 against the Allies' 2: two actions, 12.1.B) assault the British
    IV Corps in Ypres with the XXIII Reserve from the Elevated hex south-east of Ypres and
    the III Reserve from Dixmude, hexes not adjacent to each other: a Flank Attack (12.5)."""
    t = action_table("germans", 2)
    counter(t, "c90", "allies", "gb-iv", YPRES, hidden=True)
    counter(t, "c91", "germans", "de-xxiii-res", SOUTH_EAST)
    counter(t, "c92", "germans", "de-iii-res", DIXMUDE)
    deal(t.state, "allies", 7)
    deal(t.state, "germans", 9)
    t.decide("germans", f"assault c91 {h(SOUTH_EAST)} +c92 {h(DIXMUDE)} to {h(YPRES)}")
    s = t.state
    assert s["combat"]["flank"]  # 12.5.A
    assert s["counters"]["c91"]["hex"] == s["counters"]["c92"]["hex"] == YPRES  # 12.1.B
    # 12.2.A: the defender flips face up in its owner's next entry
    assert t.asked() == "allies" and s["step"] == "show"
    t.decide("allies", "show")
    assert t.state["counters"]["c90"]["unit"] == "gb-iv"
    # the first matchup: #9 against #7, across the river into a city: Heavy Cover
    # (2.1.4.C): no hit on the British, two on the XXIII Reserve (SZ 2): eliminated
    assert t.last.said("hits: 0 on c90, 2 on c91")
    assert t.asked() == "germans" and t.state["step"] == "absorb"
    t.decide("germans", "absorb")
    assert t.history[-1][2] == "absorb lost"  # the client says it (5.2.6)
    assert "c91" not in t.state["counters"]
    assert "de-xxiii-res" in t.state["eliminated"]["germans"]
    # 12.4.B: before the next matchup, either side may withdraw (neither does)
    assert t.state["step"] == "withdraw"
    t.decide("germans", "fight on")
    deal(t.state, "allies", 12)
    deal(t.state, "germans", 3, 11)
    t.decide("allies", "fight on")
    # 12.5.C, 9.4.B: the Big Push: the Allies' card first, then two German cards
    assert t.state["step"] == "keep" and t.asked() == "germans"
    assert sorted(t.state["combat"]["pushed"]) == [3, 11]
    t.decide("germans", "keep 3")
    assert t.last.said("hits: 3 on c90, 1 on c92")  # "(Note that the German unit is larger.)"
    # the III Reserve takes a Light Casualties marker, drawn privately (5.2.2)
    assert t.asked() == "germans" and t.state["step"] == "absorb"
    t.decide("germans", "absorb")
    assert t.state["step"] == "restack"  # the marker drawn is committed first (5.2.2)
    t.decide("germans", "restack")
    t.decide("allies", "absorb")
    assert t.history[-1][2] == "absorb lost"
    assert "c90" not in t.state["counters"]  # the British IV Corps is eliminated
    stack = t.private("germans")["pieces"][t.state["stacks"]["c92"]]["value"]
    assert len(stack) == 1 and stack[0][1] == "light"
    # 12.8: the German unit occupies Ypres
    assert t.state["counters"]["c92"]["hex"] == YPRES
    assert control_of(t.state, YPRES) == "germans"
    assert t.state["combat"] is None
    assert t.state["counters"]["c92"]["activated"]
    # both actions are used (9.3.B): the Allies act next
    assert t.state["step"] == "act" and t.asked() == "allies"


# --- eligibility (12.1) -----------------------------------------------------------------------


def test_12_1_b_two_attackers_need_two_actions_in_a_row() -> None:
    t = action_table("germans", 1)
    counter(t, "c90", "allies", "gb-iv", YPRES, hidden=True)
    counter(t, "c91", "germans", "de-xxiii-res", SOUTH_EAST)
    counter(t, "c92", "germans", "de-iii-res", DIXMUDE)
    with pytest.raises(IllegalOrderError, match=r"2 attackers need 2 actions in a row"):
        t.decide("germans", f"assault c91 {h(SOUTH_EAST)} +c92 {h(DIXMUDE)} to {h(YPRES)}")
    listed = ENGINE.choices(t.private("germans"), "germans")
    assert not any(isinstance(d, Assault) and len(d.units) > 1 for d in listed)
    assert any(isinstance(d, Assault) and len(d.units) == 1 for d in listed)


def test_12_1_c_scouting_cavalry_may_not_assault() -> None:
    t = action_table("germans", 1)
    counter(t, "c90", "allies", "gb-iv", YPRES, hidden=True)
    counter(t, "c91", "germans", "de-ii-cav", SOUTH_EAST, scouting=True)
    with pytest.raises(IllegalOrderError, match=r"scouting cavalry: it may not assault"):
        t.decide("germans", f"assault c91 {h(SOUTH_EAST)} to {h(YPRES)}")


def test_12_9_a_an_empty_hex_that_is_not_enemy_nml_is_not_assaulted() -> None:
    t = action_table("germans", 1)
    counter(t, "c91", "germans", "de-xxiii-res", SOUTH_EAST)
    with pytest.raises(IllegalOrderError, match=r"neither enemy-occupied nor enemy NML"):
        t.decide("germans", f"assault c91 {h(SOUTH_EAST)} to {h(YPRES)}")


# --- 12.9: the empty NML hex, 12.2.B: a False Report ----------------------------------------


def test_12_9_b_d_an_empty_nml_hex_reads_only_the_empty_hex_line_and_ties_go_to_the_attacker() -> (
    None
):
    """The German #5 Empty Hex line says "Hit": the British IV Corps takes one hit (12.9.C)
    and, scoring as many with Allied #8 ("Hit if RF 4/3/2": RF 4; "Hit if ART 4": ART 2),
    still wins the tie (12.9.D): it holds the hex."""
    t = action_table("allies", 1)
    nml = rm.grid(BOARD).neighbour(YPRES, "N")
    counter(t, "c90", "allies", "gb-iv", YPRES)
    far = rm.grid(BOARD).neighbour(nml, "N")
    counter(t, "c91", "germans", "de-xxiii-res", far)  # `nml` is next to it: German NML
    deal(t.state, "germans", 5)
    deal(t.state, "allies", 8)
    t.decide("allies", f"assault c90 {h(YPRES)} to {h(nml)}")
    assert t.last.said("hits: 1 on the empty hex, 1 on c90")
    t.decide("allies", "absorb")
    assert t.state["counters"]["c90"]["hex"] == nml  # it won: it stays (12.8)


def test_12_2_b_a_revealed_false_report_leaves_and_the_hex_is_fought_as_empty() -> None:
    t = action_table("germans", 1)
    counter(t, "c90", "allies", "fr-false-1", YPRES, hidden=True)
    counter(t, "c91", "germans", "de-iii-res", DIXMUDE)
    deal(t.state, "allies", 8)  # no Empty Hex line on Allied #8: no effect (12.9.B)
    deal(t.state, "germans", 9)
    t.decide("germans", f"assault c91 {h(DIXMUDE)} to {h(YPRES)}")
    t.decide("allies", "show")
    assert "c90" not in t.state["counters"]  # 10.4.C, 12.2.B
    assert t.state["counters"]["c91"]["hex"] == YPRES
    assert control_of(t.state, YPRES) == "germans"


# --- an open field: clear, Low, no river within two hexes of C (no cover, no elevation) -------

C = 417
N, NE, SE, S, SW, NW = (rm.grid(BOARD).neighbour(C, d) for d in ("N", "NE", "SE", "S", "SW", "NW"))


def said(t: Table, fragment: str) -> bool:
    """Whether any entry so far said `fragment` (t.last is only the latest entry)."""
    return any(fragment in text for text in _texts(t))


def _texts(t: Table) -> list[str]:
    return [text for ctx in t.contexts for text in ctx.texts]


def play(t: Table, role: str, text: str) -> None:
    """Decide, remembering every entry's context (said() reads them all)."""
    t.contexts.append(t.decide(role, text))


def field(side: str, actions: int) -> Table:
    t = action_table(side, actions)
    t.contexts = []  # type: ignore[attr-defined]
    return t


def listed(t: Table, role: str) -> list[str]:
    return [ENGINE.format(d) for d in ENGINE.choices(t.private(role), role)]


# --- 12.2.D-G: matchups --------------------------------------------------------------------


def test_12_2_d_two_attackers_against_two_defenders_fight_one_on_one() -> None:
    """12.2.D: each attacker against a different defender, as the attacker sees fit; 12.6:
    more hits wins, the loser retreats (its owner picks the hex, 12.7); 12.4.B: both sides
    may withdraw before the next matchup; 12.5.A: entry hexes adjacent to each other are
    no Flank Attack, so no Big Push; elimination wins and the Germans take the hex (12.8)."""
    t = field("germans", 2)
    counter(t, "c90", "allies", "fr-81-82-terr", C, hidden=True)
    counter(t, "c91", "allies", "fr-xiv", C, hidden=True)
    counter(t, "c10", "germans", "de-ii", N)
    counter(t, "c11", "germans", "de-iv", NE)
    play(t, "germans", f"assault c10 {h(N)} +c11 {h(NE)} to {h(C)}")
    assert not t.state["combat"]["flank"]  # N and NE are adjacent (12.5.A)
    play(t, "allies", "show")
    assert t.state["step"] == "match" and t.asked() == "germans"
    assert sorted(listed(t, "germans")) == ["match c10 c90 c11 c91", "match c10 c91 c11 c90"]
    with pytest.raises(IllegalOrderError, match=r"c90 already has more opponents"):
        t.decide("germans", "match c10 c90 c11 c90")
    with pytest.raises(IllegalOrderError, match=r"pair each of c10, c11 once"):
        t.decide("germans", "match c10 c90")
    deal(t.state, "germans", 8)  # 2 Hits if MG 4: de-ii has MG 4
    deal(t.state, "allies", 7)  # RF 4/3, Heavy Cover: fr-xiv has RF 2, no cover here
    play(t, "germans", "match c10 c91 c11 c90")
    assert said(t, "matchups: c10 v c91, c11 v c90")
    assert t.last.said("hits: 2 on c91, 0 on c10")
    play(t, "allies", "absorb")
    play(t, "allies", "restack")
    # 12.6.B: c91 loses; 12.7.C-D: not the entry hex N, not east (the Germans' side)
    assert t.state["step"] == "retreat" and t.asked() == "allies"
    assert sorted(listed(t, "allies")) == [f"retreat c91 {h(x)}" for x in sorted((NW, SW, S))]
    with pytest.raises(IllegalOrderError, match=r"c91 retreats to one of"):
        t.decide("allies", f"retreat c91 {h(N)}")
    play(t, "allies", f"retreat c91 {h(SW)}")
    assert t.state["counters"]["c91"]["hex"] == SW
    # 12.4.B: before the next matchup, the attacker first, then the defender
    assert t.state["step"] == "withdraw" and t.asked() == "germans"
    assert listed(t, "germans") == ["fight on", f"withdraw c11 {h(NE)}"]
    play(t, "germans", "fight on")
    assert t.asked() == "allies"
    deal(t.state, "germans", 7)  # Hit if RF 4/3, Hit if MG 4/3: two hits on SZ 2
    deal(t.state, "allies", 8)
    play(t, "allies", "fight on")
    assert t.state["step"] != "keep"  # no Big Push without a Flank Attack (12.5)
    assert t.last.said("hits: 2 on c90, 0 on c11")
    play(t, "allies", "absorb")
    assert t.history[-1][2] == "absorb lost" and "c90" not in t.state["counters"]
    assert t.state["combat"] is None
    assert t.state["counters"]["c10"]["hex"] == t.state["counters"]["c11"]["hex"] == C
    assert control_of(t.state, C) == "germans"
    assert t.state["counters"]["c10"]["activated"] and t.state["counters"]["c11"]["activated"]
    assert t.state["step"] == "act" and t.asked() == "allies"  # two actions used (9.3.B)


def test_12_2_e_three_attackers_against_two_double_up_one_defender() -> None:
    """12.2.E: after one-on-one, the attacker's extra unit doubles up on a defender of its
    choice; never a second opponent before each enemy unit has one (12.2.D-F). Two
    attackers from one hex: one entry hex, no Flank Attack."""
    t = field("germans", 3)
    counter(t, "c90", "allies", "fr-81-82-terr", C, hidden=True)
    counter(t, "c91", "allies", "fr-84-88-terr", C, hidden=True)
    counter(t, "c10", "germans", "de-ii", N)
    counter(t, "c12", "germans", "de-iv", N)
    counter(t, "c11", "germans", "de-xiii", NE)
    play(t, "germans", f"assault c10 {h(N)} +c12 {h(N)} +c11 {h(NE)} to {h(C)}")
    assert not t.state["combat"]["flank"]
    play(t, "allies", "show")
    assert t.asked() == "germans" and t.state["step"] == "match"
    options = listed(t, "germans")
    assert "match c10 c90 c12 c90 c11 c91" not in options  # c91 has none yet
    assert "match c10 c90 c11 c91 c12 c90" in options or "match c10 c90 c12 c91 c11 c90" in options
    with pytest.raises(IllegalOrderError, match=r"c90 already has more opponents"):
        t.decide("germans", "match c10 c90 c11 c90 c12 c91")
    with pytest.raises(IllegalOrderError, match=r"pair each of c10, c12, c11 once"):
        t.decide("germans", "match c10 c90 c11 c91")
    deal(t.state, "germans", 8)
    deal(t.state, "allies", 8)
    play(t, "germans", "match c10 c90 c11 c91 c12 c90")
    # the matchups in the attacker's order (12.3.A); the defender has no extra unit
    assert said(t, "matchups: c10 v c90, c11 v c91, c12 v c90")
    assert t.state["combat"]["current"] == ["c10", "c90"]


def test_12_2_one_attacker_against_two_defenders_fights_both() -> None:
    """12.2.E, 12.4.A: a lone attacker is matched with every defender (no decision) and
    fights them one by one; 12.4.B: after the first, both sides may withdraw."""
    t = field("germans", 1)
    counter(t, "c90", "allies", "fr-81-82-terr", C, hidden=True)
    counter(t, "c91", "allies", "fr-84-88-terr", C, hidden=True)
    counter(t, "c10", "germans", "de-ii", N)
    deal(t.state, "germans", 7)  # two hits on the SZ 2 Territorials
    deal(t.state, "allies", 8)
    play(t, "germans", f"assault c10 {h(N)} to {h(C)}")
    play(t, "allies", "show")
    assert said(t, "c10 v c90") and t.state["combat"]["matchups"] == [
        ["c10", "c90"],
        ["c10", "c91"],
    ]
    play(t, "allies", "absorb")
    assert "c90" not in t.state["counters"]
    assert t.state["step"] == "withdraw" and t.asked() == "germans"
    play(t, "germans", "fight on")
    deal(t.state, "germans", 7)
    deal(t.state, "allies", 8)
    play(t, "allies", "fight on")
    assert t.last.said("c10 v c91") and t.last.said("hits: 2 on c91, 0 on c10")
    play(t, "allies", "absorb")
    assert "c91" not in t.state["counters"] and control_of(t.state, C) == "germans"


def test_12_2_e_the_defender_places_its_extra_units() -> None:
    """12.2.E: the defender's units left over after one-on-one are doubled up by their
    owner (`match` asked of the defender), against an attacker, not its own unit."""
    t = field("germans", 2)
    for label, unit_id in (
        ("c90", "fr-81-82-terr"),
        ("c91", "fr-84-88-terr"),
        ("c92", "fr-87-89-terr"),
    ):
        counter(t, label, "allies", unit_id, C, hidden=True)
    counter(t, "c10", "germans", "de-ii", N)
    counter(t, "c11", "germans", "de-iv", NE)
    play(t, "germans", f"assault c10 {h(N)} +c11 {h(NE)} to {h(C)}")
    play(t, "allies", "show")
    play(t, "germans", "match c10 c90 c11 c91")
    assert t.state["step"] == "match" and t.asked() == "allies"
    assert sorted(listed(t, "allies")) == ["match c92 c10", "match c92 c11"]
    with pytest.raises(IllegalOrderError, match=r"c90 is not an enemy unit in the hex"):
        t.decide("allies", "match c92 c90")
    with pytest.raises(IllegalOrderError, match=r"pair each of c92 once"):
        t.decide("allies", "match c90 c10")
    deal(t.state, "germans", 8)
    deal(t.state, "allies", 8)
    play(t, "allies", "match c92 c11")
    assert t.state["combat"]["matchups"][-1] == ["c11", "c92"]
    assert said(t, "matchups: c10 v c90, c11 v c91, c11 v c92")


# --- 12.4: withdrawals and rematches ----------------------------------------------------------


def test_12_4_b_a_defender_withdraws_between_matchups() -> None:
    """12.4.B: before the next matchup either side may retreat its unit of it (normal
    retreat rules: not into the attacker's entry hex); the matchup is then not fought."""
    t = field("germans", 1)
    counter(t, "c90", "allies", "fr-81-82-terr", C, hidden=True)
    counter(t, "c91", "allies", "fr-84-88-terr", C, hidden=True)
    counter(t, "c10", "germans", "de-ii", N)
    deal(t.state, "germans", 7)
    deal(t.state, "allies", 8)
    play(t, "germans", f"assault c10 {h(N)} to {h(C)}")
    play(t, "allies", "show")
    play(t, "allies", "absorb")
    play(t, "germans", "fight on")
    assert f"withdraw c91 {h(N)}" not in listed(t, "allies")  # 12.7.C: the entry hex
    with pytest.raises(IllegalOrderError, match=r"c91 may not withdraw to"):
        t.decide("allies", f"withdraw c91 {h(N)}")
    play(t, "allies", f"withdraw c91 {h(SW)}")
    assert t.state["counters"]["c91"]["hex"] == SW
    assert t.state["combat"] is None and control_of(t.state, C) == "germans"
    assert not said(t, "c10 v c91")


def test_12_4_e_an_attacker_whose_enemy_is_gone_is_rematched() -> None:
    """12.4.E: c12's defender is eliminated before c12 fights it; after the first
    matchups, with both sides still in the hex, the attackers there are rematched with
    the survivor."""
    t = field("germans", 3)
    counter(t, "c90", "allies", "fr-81-82-terr", C, hidden=True)
    counter(t, "c91", "allies", "fr-iv", C, hidden=True)
    counter(t, "c10", "germans", "de-ii", N)
    counter(t, "c12", "germans", "de-iv", N)
    counter(t, "c11", "germans", "de-xiii", NE)
    play(t, "germans", f"assault c10 {h(N)} +c12 {h(N)} +c11 {h(NE)} to {h(C)}")
    play(t, "allies", "show")
    deal(t.state, "germans", 7)  # two hits: c90 (SZ 2) eliminated
    deal(t.state, "allies", 8)
    play(t, "germans", "match c10 c90 c11 c91 c12 c90")
    play(t, "allies", "absorb")
    assert "c90" not in t.state["counters"]
    # c12 v c90 is skipped; c11 v c91 next: c11 loses (G#8: 0 hits; A#7 RF 4/3: 1 hit)
    play(t, "germans", "fight on")
    deal(t.state, "germans", 8)
    deal(t.state, "allies", 7)
    play(t, "allies", "fight on")
    assert t.last.said("c11 v c91") and t.last.said("hits: 0 on c91, 1 on c11")
    deal(t.state, "germans", 7)
    deal(t.state, "allies", 8)
    play(t, "germans", "absorb")
    play(t, "germans", "restack")
    assert t.state["counters"]["c11"]["hex"] == NE  # 12.7.B: back where it came from
    # 12.4.E-F: new matchups: the attackers still in the hex against the survivor (no
    # decision with one defender); 12.4.B: first, either side may withdraw
    assert t.state["combat"]["matchups"] == [["c10", "c91"], ["c12", "c91"]]
    assert not said(t, "c12 v c90: ")  # its matchup was never fought
    assert t.state["step"] == "withdraw" and t.asked() == "germans"
    play(t, "germans", "fight on")
    play(t, "allies", "fight on")
    assert t.last.said("c10 v c91: the Allies #8, the Germans #7")


# --- 12.6: the result ------------------------------------------------------------------------


def test_12_6_b_equal_hits_the_better_met_wins_and_the_attacker_goes_back() -> None:
    """12.6.B: no hits either way: MET B against A, the attacker loses and returns to the
    hex it entered from (12.7.B)."""
    t = field("germans", 1)
    counter(t, "c90", "allies", "fr-iv", C)
    counter(t, "c10", "germans", "de-iv", N)
    deal(t.state, "germans", 8)  # reads only de-iv's own MG and MET: none
    deal(t.state, "allies", 9)  # Medium / Heavy Cover: none in the open
    play(t, "germans", f"assault c10 {h(N)} to {h(C)}")
    assert said(t, "hits: 0 on c90, 0 on c10") and said(t, "equal hits: MET B against A")
    assert t.state["counters"]["c10"]["hex"] == N and t.state["counters"]["c10"]["activated"]
    assert t.state["combat"] is None and control_of(t.state, C) == "allies"


def test_12_6_b_the_met_tie_break_opens_the_modified_met_and_equal_met_fights_again() -> None:
    """12.6.B, 10.4.A: equal hits: the MET ratings after the hits decide, so the hidden
    stack of the defender opens (`show`) only then: fr-iv (MET A) carries marker m02's
    Light side (MET -1): B against de-iv's B, the same two fight again; the second combat
    eliminates fr-iv (its 1 hit + 2)."""
    t = field("germans", 1)
    counter(t, "c90", "allies", "fr-iv", C, hidden=True)
    piece = markers_of(t, "allies", "c90", [["m02", "light"]])
    counter(t, "c10", "germans", "de-iv", N)
    deal(t.state, "germans", 8)
    deal(t.state, "allies", 9)
    play(t, "germans", f"assault c10 {h(N)} to {h(C)}")
    play(t, "allies", "show")  # 12.2.A: the identity only
    assert t.state["counters"]["c90"]["unit"] == "fr-iv"
    assert not t.state["pieces"][piece]["revealed"]
    assert said(t, "hits: 0 on c90, 0 on c10")
    assert t.state["step"] == "show" and t.asked() == "allies"
    assert t.state["pieces"][piece]["due"]  # hits.need_ratings
    deal(t.state, "germans", 7)  # RF 4/3 + MG 4/3: two hits
    deal(t.state, "allies", 8)  # MET A (now B): no; SQ: one hit
    play(t, "allies", "show")
    assert t.state["pieces"][piece]["revealed"]
    assert said(t, "equal hits and MET B: c10 and c90 fight again")
    assert t.last.said("hits: 2 on c90, 1 on c10")
    play(t, "germans", "absorb")
    play(t, "germans", "restack")
    play(t, "allies", "absorb")
    assert t.history[-1][2] == "absorb lost" and "c90" not in t.state["counters"]
    assert t.state["counters"]["c10"]["hex"] == C and control_of(t.state, C) == "germans"


# --- 12.7: retreats --------------------------------------------------------------------------


def test_12_7_c_where_a_losing_defender_may_retreat() -> None:
    """12.7.C: not the attacker's entry hex (N), not an enemy-occupied hex (S), not enemy
    NML (SE, next to S) unless a friendly unit is there (SW, next to S, held by c91);
    12.7.D: not east, toward the German side (NE), when it has another choice."""
    t = field("germans", 1)
    counter(t, "c90", "allies", "fr-xiii", C, hidden=True)
    counter(t, "c91", "allies", "fr-81-82-terr", SW)
    counter(t, "c10", "germans", "de-ii", N)
    counter(t, "c12", "germans", "de-iv", S, activated=True)
    deal(t.state, "germans", 8)
    deal(t.state, "allies", 7)
    play(t, "germans", f"assault c10 {h(N)} to {h(C)}")
    play(t, "allies", "show")
    play(t, "allies", "absorb")
    play(t, "allies", "restack")
    assert t.state["step"] == "retreat" and t.asked() == "allies"
    assert sorted(listed(t, "allies")) == [f"retreat c90 {h(x)}" for x in sorted((NW, SW))]
    for bad in (N, S, SE, NE):
        with pytest.raises(IllegalOrderError, match=r"c90 retreats to one of"):
            t.decide("allies", f"retreat c90 {h(bad)}")
    play(t, "allies", f"retreat c90 {h(SW)}")
    assert t.state["counters"]["c90"]["hex"] == SW and control_of(t.state, C) == "germans"


def test_12_7_f_no_retreat_one_more_hit_and_a_new_combat() -> None:
    """12.7.F: surrounded (enemy in SE and SW, their NML on every other hex but the entry
    hex), the loser stays, takes one more hit and fights again."""
    t = field("germans", 1)
    counter(t, "c90", "allies", "fr-xiii", C, hidden=True)
    counter(t, "c10", "germans", "de-ii", N)
    counter(t, "c12", "germans", "de-iv", SE, activated=True)
    counter(t, "c13", "germans", "de-xiii", SW, activated=True)
    deal(t.state, "germans", 3)  # Hit if larger: no; HA: no; ART 4/3/2: one hit
    deal(t.state, "allies", 11)  # Hit if enemy MET D: no; Higher Elevation: no
    play(t, "germans", f"assault c10 {h(N)} to {h(C)}")
    play(t, "allies", "show")
    assert said(t, "hits: 1 on c90, 0 on c10")
    play(t, "allies", "absorb")
    play(t, "allies", "restack")
    assert said(t, "c90 cannot retreat: one more hit, and another combat (12.7.F)")
    assert t.state["step"] == "absorb" and t.asked() == "allies"
    deal(t.state, "germans", 8)  # 2 Hits if MG 4: the third hit eliminates it
    deal(t.state, "allies", 7)
    play(t, "allies", "absorb")
    play(t, "allies", "restack")
    assert t.last.said("c10 v c90: the Allies #7, the Germans #8")
    # Allied #7 reads c90's own RF: its new stack opens (10.4.A)
    assert t.state["step"] == "show" and t.asked() == "allies"
    play(t, "allies", "show")
    assert t.last.said("hits: 2 on c90, 0 on c10")
    play(t, "allies", "absorb")
    assert t.history[-1][2] == "absorb lost" and "c90" not in t.state["counters"]
    assert control_of(t.state, C) == "germans"


# --- 12.8: occupying -----------------------------------------------------------------------------


def test_12_8_b_beyond_6_sz_the_extra_attackers_go_back() -> None:
    t = field("germans", 2)
    counter(t, "c90", "allies", "fr-81-82-terr", C, hidden=True)
    counter(t, "c10", "germans", "de-guard", N)  # SZ 4
    counter(t, "c11", "germans", "de-iv", NE)  # SZ 3
    deal(t.state, "germans", 7)
    deal(t.state, "allies", 8)
    play(t, "germans", f"assault c10 {h(N)} +c11 {h(NE)} to {h(C)}")
    play(t, "allies", "show")
    play(t, "allies", "absorb")
    assert "c90" not in t.state["counters"]
    assert t.state["step"] == "occupy" and t.asked() == "germans"
    assert sorted(listed(t, "germans")) == ["back c10", "back c11"]
    play(t, "germans", "back c11")
    assert t.state["counters"]["c11"]["hex"] == NE and t.state["counters"]["c10"]["hex"] == C
    assert t.state["combat"] is None and control_of(t.state, C) == "germans"
    assert t.state["counters"]["c11"]["activated"]


# --- 10.5.4.2: scouting cavalry ---------------------------------------------------------------


def test_10_5_4_2_scouting_cavalry_is_fought_as_the_empty_hex_and_retreats_unhit() -> None:
    """Resolved as an Empty NML Hex (12.9): the Allies read only their card's Empty Hex
    line (#8 has none); the two German hits are ignored (no marker), the cavalry retreats
    one hex and the Germans take the hex."""
    t = field("germans", 1)
    counter(t, "c90", "allies", "fr-ii-cav", C, scouting=True)
    counter(t, "c10", "germans", "de-ii", N)
    deal(t.state, "germans", 7)
    deal(t.state, "allies", 8)
    play(t, "germans", f"assault c10 {h(N)} to {h(C)}")
    assert said(t, "hits: 2 on c90, 0 on c10")
    if t.state["step"] == "retreat":
        play(t, "allies", f"retreat c90 {h(SW)}")
    cavalry = t.state["counters"]["c90"]
    assert cavalry["hex"] in rm.grid(BOARD).neighbours(C) and cavalry["hex"] != N
    assert "c90" not in t.state["stacks"] and not t.state.get("absorbing")
    assert t.state["counters"]["c10"]["hex"] == C and control_of(t.state, C) == "germans"


def test_10_5_4_2_scouting_cavalry_holds_when_the_empty_hex_line_wins() -> None:
    """Allied #3's Empty Hex line: "Hit": one hit on the attacker, none scored by German #8
    (de-iv: MG 3, MET B): the attacker loses and goes back; the cavalry stays."""
    t = field("germans", 1)
    counter(t, "c90", "allies", "fr-ii-cav", C, scouting=True)
    counter(t, "c10", "germans", "de-iv", N)
    deal(t.state, "germans", 8)
    deal(t.state, "allies", 3)
    play(t, "germans", f"assault c10 {h(N)} to {h(C)}")
    assert said(t, "hits: 0 on c90, 1 on c10")
    play(t, "germans", "absorb")
    play(t, "germans", "restack")
    assert t.state["counters"]["c10"]["hex"] == N and t.state["counters"]["c90"]["hex"] == C


# --- 12.5: flank attacks ------------------------------------------------------------------------


def test_12_5_a_only_entry_hexes_not_adjacent_make_a_flank_attack() -> None:
    t = field("germans", 2)
    counter(t, "c90", "allies", "fr-81-82-terr", C, hidden=True)
    counter(t, "c91", "allies", "fr-84-88-terr", C, hidden=True)
    counter(t, "c10", "germans", "de-ii", N)
    counter(t, "c11", "germans", "de-iv", S)
    deal(t.state, "germans", 7)
    deal(t.state, "allies", 8)
    play(t, "germans", f"assault c10 {h(N)} +c11 {h(S)} to {h(C)}")
    assert t.state["combat"]["flank"] and said(t, "a flank attack, 12.5")
    play(t, "allies", "show")
    play(t, "germans", "match c10 c90 c11 c91")
    assert t.state["step"] == "absorb"  # 12.5.B: the first attacker resolves normally
    play(t, "allies", "absorb")
    play(t, "germans", "fight on")
    deal(t.state, "allies", 8)
    deal(t.state, "germans", 7, 8)
    play(t, "allies", "fight on")
    assert t.state["step"] == "keep" and t.asked() == "germans"  # 12.5.C: the Big Push
    assert sorted(t.state["combat"]["pushed"]) == [7, 8]
    with pytest.raises(IllegalOrderError, match=r"keep #"):
        t.decide("germans", "keep 5")
    play(t, "germans", "keep 7")
    assert t.last.said("hits: 2 on c91, 0 on c11")


# --- 13.0: Events during an assault -------------------------------------------------------------


def test_13_0_the_counter_attack_example() -> None:
    """13.0's example: the French unit assaults a German unit, which loses and retreats;
    French #4 and German #5 are EVENT! cards, sum 9, Counter-Attack/Wave-Attack to the
    higher card: the Germans move the defeated unit back in and assault the French at
    once. That counter-attack's own Event (German #4 + Allied #6 = 10: the Strategic
    Momentum to the higher card) is resolved after it."""
    t = field("allies", 1)
    t.state["momentum"] = "germans"
    counter(t, "c90", "allies", "fr-iv", N)
    counter(t, "c10", "germans", "de-xxii-res", C, hidden=True)
    deal(t.state, "allies", 4)  # Hit if RF 4/3/2: one hit
    deal(t.state, "germans", 5)  # Hit if RF 4/3/2: de-xxii-res has RF 1
    play(t, "allies", f"assault c90 {h(N)} to {h(C)}")
    play(t, "germans", "show")
    assert said(t, "hits: 1 on c10, 0 on c90")
    play(t, "germans", "absorb")
    play(t, "germans", "restack")
    if t.state["step"] == "retreat":
        play(t, "germans", f"retreat c10 {h(NE)}")
    back = t.state["counters"]["c10"]["hex"]
    assert back != C and t.state["counters"]["c90"]["hex"] == C
    assert said(t, "13.0: Event 9, Counter-Attack/Wave-Attack, to the Germans")
    assert t.state["step"] == "counter" and t.asked() == "germans"
    assert listed(t, "germans") == ["no counter", "counter c10"]
    deal(t.state, "germans", 4)
    deal(t.state, "allies", 6)  # RF 4/3/2: one hit on the counter-attacker
    play(t, "germans", "counter c10")
    assert said(t, f"counter-attacks hex {h(C)}")
    while t.asked() == "germans" and t.state["step"] in ("show", "absorb", "restack"):
        play(t, "germans", t.state["step"])
    # the counter-attack is over (c10 lost, back to its hex), then its Event applies
    assert t.state["counters"]["c10"]["hex"] == back
    texts = _texts(t)
    ten = next(i for i, x in enumerate(texts) if x.startswith("13.0: Event 10"))
    assert ten > next(i for i, x in enumerate(texts) if "c10 retreats to" in x and i > 0)
    assert t.state["momentum"] == "allies"
    assert t.state["combat"] is None and t.state["step"] == "act"


def test_13_0_b_the_event_of_a_multi_unit_assault_waits_for_its_end() -> None:
    """13.0.B's exception: German #2 and Allied #5 (sum 7) in the first matchup; the
    Event is applied only when the matchups are over."""
    t = field("germans", 2)
    counter(t, "c90", "allies", "fr-81-82-terr", C, hidden=True)
    counter(t, "c91", "allies", "fr-xiv", C, hidden=True)
    counter(t, "c10", "germans", "de-ii", N)
    counter(t, "c11", "germans", "de-iv", NE)
    play(t, "germans", f"assault c10 {h(N)} +c11 {h(NE)} to {h(C)}")
    play(t, "allies", "show")
    deal(t.state, "germans", 2)
    deal(t.state, "allies", 5)
    play(t, "germans", "match c10 c91 c11 c90")
    assert t.last.said("hits: 2 on c91, 0 on c10")
    play(t, "allies", "absorb")
    play(t, "allies", "restack")
    play(t, "allies", f"retreat c91 {h(SW)}")
    assert not said(t, "13.0: Event")
    assert len(t.state["combat"]["events"]) == 1
    play(t, "germans", "fight on")
    deal(t.state, "germans", 7)
    deal(t.state, "allies", 8)
    play(t, "allies", "fight on")
    play(t, "allies", "absorb")
    assert t.state["combat"] is None
    assert said(t, "13.0: Event 7, Aerial Reconnaissance, to the Allies")


# --- 9.4, 7.7.5: Planned Operations -----------------------------------------------------------


def test_7_7_5_a_the_marker_is_deployed_in_a_friendly_controlled_hex() -> None:
    from pbem.games.race_to_the_sea import operations

    t = field("germans", 1)
    t.state["planned_ops"] = {"holder": "germans", "hex": None}
    t.state["step"], t.state["active"] = "deploy", "germans"
    assert operations.deploying(t.state) == "germans"
    mine = operations.deploy_hexes(t.state, "germans")
    assert mine and C not in mine  # 0417 is Allied
    assert f"deploy {h(mine[0])}" in listed(t, "germans") and "keep marker" in listed(t, "germans")
    with pytest.raises(IllegalOrderError, match=r"not a friendly-controlled hex"):
        t.decide("germans", f"deploy {h(C)}")
    play(t, "germans", f"deploy {h(mine[0])}")
    assert t.state["planned_ops"] == {"holder": "germans", "hex": mine[0]}
    assert operations.deploying(t.state) is None


def test_7_7_5_a_keep_marker_holds_it_off_the_map() -> None:
    t = field("germans", 1)
    t.state["planned_ops"] = {"holder": "germans", "hex": None}
    t.state["step"], t.state["active"] = "deploy", "germans"
    play(t, "germans", "keep marker")
    assert t.state["planned_ops"] == {"holder": "germans", "hex": None}
    assert t.state["step"] != "deploy"  # asked once a turn (7.7.5)


def _planned(t: Table) -> None:
    t.state["planned_ops"] = {"holder": "germans", "hex": N}
    counter(t, "c10", "germans", "de-ii", N)
    counter(t, "c11", "germans", "de-iv", NE)
    counter(t, "c12", "germans", "de-xiii", NW)


def test_9_4_planned_operations_activate_two_hexes_and_give_the_big_push() -> None:
    """9.4.A: `plan N NE` activates the units of both hexes (not NW's); they act one by
    one; 9.4.B: their assault draws two cards per attacker, after the defender's, and
    keeps one; 9.4.C: the marker goes back to the pool; 9.4.D: one action in all."""
    t = field("germans", 1)
    _planned(t)
    counter(t, "c90", "allies", "fr-81-82-terr", C, hidden=True)
    counter(t, "c91", "allies", "fr-84-88-terr", C, hidden=True)
    with pytest.raises(IllegalOrderError, match=r"not adjacent"):
        t.decide("germans", f"plan {h(N)} {h(S)}")
    play(t, "germans", f"plan {h(N)} {h(NE)}")
    assert t.state["plan_units"] == ["c10", "c11"] and t.state["planned_ops"] is None
    assert t.asked() == "germans" and t.state["step"] == "act"
    with pytest.raises(IllegalOrderError, match=r"only the Planned Operations units"):
        t.decide("germans", f"assault c12 {h(NW)} to {h(C)}")
    play(t, "germans", f"assault c10 {h(N)} +c11 {h(NE)} to {h(C)}")  # one action: 9.4.D
    play(t, "allies", "show")
    deal(t.state, "allies", 8)
    deal(t.state, "germans", 7, 9)
    play(t, "germans", "match c10 c90 c11 c91")
    assert t.state["step"] == "keep" and sorted(t.state["combat"]["pushed"]) == [7, 9]
    assert said(t, "Big Push: the Germans draw")
    play(t, "germans", "keep 7")
    assert t.last.said("hits: 2 on c90, 0 on c10")
    play(t, "allies", "absorb")
    play(t, "germans", "fight on")
    deal(t.state, "allies", 8)
    deal(t.state, "germans", 7, 9)
    play(t, "allies", "fight on")
    assert t.state["step"] == "keep"
    play(t, "germans", "keep 7")
    play(t, "allies", "absorb")
    assert t.state["combat"] is None and control_of(t.state, C) == "germans"
    assert t.state["plan_units"] is None and t.state["planned_ops"] is None
    assert t.state["step"] == "act" and t.asked() == "allies"  # the one action is used


def test_9_4_done_ends_the_planned_operations_early() -> None:
    t = field("germans", 1)
    _planned(t)
    counter(t, "c90", "allies", "fr-81-82-terr", C, hidden=True)
    play(t, "germans", f"plan {h(N)} {h(NE)}")
    play(t, "germans", "done")
    assert t.state["plan_units"] is None or t.state["plan_units"] == []
    assert t.state["counters"]["c10"]["activated"] and t.state["counters"]["c11"]["activated"]
    assert not t.state["counters"]["c12"]["activated"]
    assert t.asked() == "allies" and t.state["planned_ops"] is None


def test_7_7_5_b_an_enemy_unit_in_the_marker_hex_sends_it_back() -> None:
    t = field("allies", 1)
    t.state["planned_ops"] = {"holder": "germans", "hex": C}
    counter(t, "c90", "allies", "fr-iv", N)
    counter(t, "c10", "germans", "de-xxiii-res", C, hidden=True)
    deal(t.state, "allies", 12)  # Hit, Hit if MET A: two hits on the SZ 2 reserve
    deal(t.state, "germans", 8)
    play(t, "allies", f"assault c90 {h(N)} to {h(C)}")
    play(t, "germans", "show")
    assert t.last.said("hits: 2 on c10, 1 on c90")  # German #8: Hit if MET A/B/C
    play(t, "allies", "absorb")
    play(t, "allies", "restack")
    play(t, "germans", "absorb")
    assert "c10" not in t.state["counters"] and t.state["counters"]["c90"]["hex"] == C
    assert t.state["planned_ops"] is None
    assert said(t, "7.7.5.B")


def test_7_7_5_c_an_event_awarding_the_marker_to_the_other_side_steals_it() -> None:
    """German #1 and Allied #1: sum 2, German Staff Planning: the Germans are awarded the
    marker, deployed by the Allies: they steal it (held off the map)."""
    t = field("germans", 1)
    t.state["planned_ops"] = {"holder": "allies", "hex": SW}
    counter(t, "c90", "allies", "fr-81-82-terr", C, hidden=True)
    counter(t, "c10", "germans", "de-ii", N)
    deal(t.state, "germans", 1)
    deal(t.state, "allies", 1)
    play(t, "germans", f"assault c10 {h(N)} to {h(C)}")
    play(t, "allies", "show")
    while t.state["step"] in ("absorb", "restack", "show", "retreat") and t.asked():
        role = t.asked()
        assert role is not None
        play(t, role, listed(t, role)[0])
    assert said(t, "13.0: Event 2")
    assert t.state["planned_ops"] == {"holder": "germans", "hex": None}


# --- hidden information ---------------------------------------------------------------------------


def test_12_2_a_the_defender_opens_its_identity_not_its_markers_and_nothing_leaks() -> None:
    """12.2.A: the defender's identity opens; its markers stay sealed while no card reads
    its ratings (German #7 reads the attacker's own, Allied #9 only the cover); the
    Germans' view is byte-identical whatever the unread stack is."""
    t = field("germans", 1)
    counter(t, "c90", "allies", "fr-xiii", C, hidden=True)
    piece = markers_of(t, "allies", "c90", [["m03", "light"]])
    counter(t, "c10", "germans", "de-iv", N)
    deal(t.state, "germans", 7)
    deal(t.state, "allies", 9)
    play(t, "germans", f"assault c10 {h(N)} to {h(C)}")
    assert leaks(ENGINE, t.state, "allies", t.known("allies"), ["germans", None]) == []
    play(t, "allies", "show")
    assert t.state["counters"]["c90"]["unit"] == "fr-xiii"
    assert not t.state["pieces"][piece]["revealed"] and not t.state["pieces"][piece]["due"]
    assert t.last.said("hits: 2 on c90, 0 on c10")
    assert t.state["step"] == "absorb"

    def view_with(stack: list[list[str]]) -> bytes:
        known = dict(t.known("allies"), **{piece: stack})
        return canonical_bytes(
            ENGINE.view(ENGINE.with_secrets(t.state, "allies", known), "germans")
        )

    assert view_with([["m03", "light"]]) == view_with([["m02", "heavy"]]) == view_with([])
    assert leaks(ENGINE, t.state, "allies", t.known("allies"), ["germans", None]) == []
