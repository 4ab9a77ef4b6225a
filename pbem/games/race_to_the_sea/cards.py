"""Race to the Sea 1914: the cards (`data/cards.toml`; rulebook 6, 7.7.1-7.7.3, 11, 12, 13).

`load_cards(raw)` parses and checks the file into plain JSON data, `default_cards()` loads the
shipped one: the Initiative cards (6.1), the Combat Results Cards (6.2), the Event table
(13.0), the turn track's Siege of Antwerp and Foch entries and the Forced March table (7.7).

A Combat Results Card section is written as the printed card reads ("Hit if RF 4/3/2; Hit
if MG 4; Hit if ART 4/3/2") and parsed at load time into lines of structured conditions
(`parse_section`); `evaluate` scores one section for one unit against another. The grammar:

    LINE      := [N " "] ("Hit" | "Hits") [" if " CONDITION (" and " CONDITION)*]
    CONDITION := ["enemy "] ("RF" | "MG" | "ART" | "SZ") " " V("/"V)*      own/enemy rating
               | ["enemy "] "MET " L("/"L)*
               | ["enemy "] ("SQ" | "HA")                                   special artillery
               | ("No" | "Light" | "Medium" | "Heavy") " Cover"           the target hex
               | "Higher Elevation"                                        11.4: own unit higher
               | "larger" | "enemy larger"                                 by SZ

N is 1 when left out; a negative N takes hits away (6.2.E). "No effect" is an empty section.

How the sections combine (the rulebook's sections, this module's reading where it is silent):
- Firepower (11.2.E, H): net hits = Firepower Attack + Firepower Defense, never below 0.
  Firepower Defense lines only take hits away (the target "tries to reduce" them, 11.A).
- Assault (12.3.D-E): the Assault Attack section scores hits on the defender (its negative
  lines lower them: "-1 Hit if Heavy Cover"), the Assault Defense section scores hits on the
  attacker; Assault Defense lines are never negative. Neither total goes below 0.
- Empty hex (12.9.B-C): the defender reads only the card's Empty Hex result (no result: no
  effect), and is a 0 SZ, D MET unit for comparisons (`EMPTY_HEX`).
- Cover (2.1.4.C): a river hexside raises the attacked hex's cover by one level against an
  assault only; the rulebook has no level above Heavy, so Heavy stays Heavy (12.9's Ypres is
  a City, Medium, made Heavy by the river; a Major City across a river is still Heavy).

12.6 (no endless repeated combat): repeated assaults loop only while both sides score no
hit (equal non-zero hits cost SZ, and SZ runs out). The loader requires each deck to hold an
Assault Attack section that scores at least one hit whatever the units and the situation
(`lowest(lines) >= 1`). A deck reshuffles only when it runs out (6.2.D), so any 23
consecutive draws hold all twelve cards, that one included: a repeated combat ends.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from pbem.games.datacheck import DataChecker, Numbered, read_toml, shipped_file
from pbem.games.race_to_the_sea.map_data import COVERS as COVERS  # (one scale, the map's)
from pbem.games.race_to_the_sea.map_data import raised_by_river

PACKAGE = "pbem.games.race_to_the_sea"
CARDS_FILE = "cards.toml"

SIDES = ("germans", "allies")
SECTIONS = ("firepower_attack", "firepower_defense", "assault_attack", "assault_defense")
EMPTY_HEX_SECTION = "empty_hex"
SECTION_NAMES = {
    "firepower_attack": "Firepower Attack",
    "firepower_defense": "Firepower Defense",
    "assault_attack": "Assault Attack",
    "assault_defense": "Assault Defense",
    "empty_hex": "Empty Hex",
}
# the cover classes and a river's raise against an assault (2.1, 2.1.4.C) are the map's
assault_cover = raised_by_river
CARDS_PER_DECK = 12  # 6.2.A
EVENT_CARDS = 6  # 6.2.B: "the first six cards of each deck are also labeled EVENT!"
INITIATIVE_CARDS = 6  # 6.1
TURNS = 10  # 2.2.A
# 12.9.C: the empty hex's defender "is assumed to have a 0 SZ and a D MET Rating"
EMPTY_HEX: dict[str, Any] = {
    "sz": 0,
    "met": "D",
    "rf": None,
    "mg": None,
    "art": None,
    "special": "",
}

# --- what the rulebook fixes --------------------------------------------------------------------

FIXED_TEXTS = {  # rulebook 11.4's example, as this grammar writes it
    ("germans", 5, "firepower_attack"): "Hit if RF 4/3/2; Hit if MG 4; Hit if ART 4/3/2",
    (
        "allies",
        6,
        "firepower_defense",
    ): "-1 Hit if MET A; -1 Hit if Heavy Cover; -1 Hit if Medium Cover",
}
FIXED_BIDS = {"germans": (4, 5), "allies": (2, 5)}  # 7.5.1's example, 8.3's design note
FORCED_MARCH = [  # rulebook 7.7.3
    {"low": 1, "high": 3, "germans": 1, "allies": 0},
    {"low": 4, "high": 7, "germans": 2, "allies": 1},
    {"low": 8, "high": 8, "germans": 2, "allies": 2},
    {"low": 9, "high": 10, "germans": 3, "allies": 2},
    {"low": 11, "high": 12, "germans": 3, "allies": 3},
]
COUNTER_ATTACK = (9, "counter-attack", "higher")  # rulebook 13.0's example
EVENT_KINDS = ("counter-attack", "planned-operations", "momentum", "hit", "reveal")
EVENT_TO = ("higher", "lower", "germans", "allies")
EVENT_TIES = ("momentum",)
EVENT_SUMS = range(2, 2 * EVENT_CARDS + 1)  # two EVENT! cards: 1+1 .. 6+6

# --- the card text grammar -----------------------------------------------------------------------


class CardTextError(ValueError):
    """A card line this grammar cannot read; the message quotes it."""


# The patterns, compiled by `re` when a card text is first read (its own cache): only the
# check of the data files reads them, and compiling five at import was a hundredth of a
# cold `pbem show` of the game (its tables come parsed from the cache).
LINE = r"(?:(?P<n>-?[1-9]) )?(?P<word>Hits?)(?: if (?P<conds>.+))?\Z"
RATING = r"(?P<enemy>enemy )?(?P<rating>RF|MG|ART|SZ) (?P<values>\d(?:/\d)*)\Z"
MET = r"(?P<enemy>enemy )?MET (?P<values>[A-D](?:/[A-D])*)\Z"
SPECIAL = r"(?P<enemy>enemy )?(?P<value>SQ|HA)\Z"
COVER = r"(?P<value>No|Light|Medium|Heavy) Cover\Z"
NO_EFFECT = "No effect"


def _condition(text: str) -> dict[str, Any]:
    if m := re.match(RATING, text):
        rating = m["rating"].lower()
        values = [int(v) for v in m["values"].split("/")]
        low = 0 if rating == "sz" else 1
        if any(not low <= v <= 4 for v in values):
            raise CardTextError(f"{text!r}: a {m['rating']} value is not in {low}..4")
        return {"test": "rating", "whose": _whose(m), "rating": rating, "values": values}
    if m := re.match(MET, text):
        return {
            "test": "rating",
            "whose": _whose(m),
            "rating": "met",
            "values": m["values"].split("/"),
        }
    if m := re.match(SPECIAL, text):
        return {"test": "special", "whose": _whose(m), "value": m["value"]}
    if m := re.match(COVER, text):
        return {"test": "cover", "value": "none" if m["value"] == "No" else m["value"].lower()}
    if text == "Higher Elevation":
        return {"test": "higher"}
    if text in ("larger", "enemy larger"):
        return {"test": "larger", "whose": "enemy" if text.startswith("enemy") else "own"}
    raise CardTextError(f"{text!r} is not a condition this grammar knows")


def _whose(match: re.Match[str]) -> str:
    return "enemy" if match["enemy"] else "own"


def parse_line(text: str) -> dict[str, Any]:
    """One printed line ("-1 Hit if MET A") as {"text", "hits", "if": [conditions]}."""
    m = re.match(LINE, text)
    if m is None:
        raise CardTextError(f"{text!r} is not '[N] Hit(s) [if CONDITION]'")
    hits = int(m["n"] or 1)
    if (m["word"] == "Hits") != (abs(hits) > 1):
        raise CardTextError(f"{text!r}: write 'Hit' for one and 'Hits' for more")
    conds = m["conds"].split(" and ") if m["conds"] else []
    return {"text": text, "hits": hits, "if": [_condition(c) for c in conds]}


def parse_section(text: str) -> list[dict[str, Any]]:
    """A section's printed text, lines joined by "; ", as a list of parsed lines."""
    if text.strip() == NO_EFFECT:
        return []
    return [parse_line(part.strip()) for part in text.split(";")]


# --- evaluating ---------------------------------------------------------------------------------


def _holds(
    cond: Mapping[str, Any],
    own: Mapping[str, Any],
    enemy: Mapping[str, Any],
    situation: Mapping[str, Any],
) -> bool:
    test = cond["test"]
    if test == "rating":
        unit = own if cond["whose"] == "own" else enemy
        return unit.get(cond["rating"]) in cond["values"]
    if test == "special":
        unit = own if cond["whose"] == "own" else enemy
        return unit.get("special") == cond["value"]
    if test == "cover":
        return situation.get("cover", "none") == cond["value"]
    if test == "higher":
        return bool(situation.get("higher", False))
    if test == "larger":
        mine, theirs = own["sz"], enemy["sz"]
        return mine > theirs if cond["whose"] == "own" else theirs > mine
    raise ValueError(f"unknown condition test {test!r}")


def evaluate(
    section_lines: Sequence[Mapping[str, Any]],
    own: Mapping[str, Any],
    enemy: Mapping[str, Any],
    situation: Mapping[str, Any],
) -> int:
    """The hits (negative: hits taken away) one card section gives.

    `own` are the ratings of the unit whose card it is, `enemy` those of its opponent, both
    already modified by casualties (sz, met, rf, mg, art, special). `situation`, from the
    card owner's point of view: `cover` the target hex's cover class (for an assault, with
    the river already added: `assault_cover`), `higher` whether the owner's unit is in a hex
    of higher elevation than the opponent's (11.4.A). Each line counts if all its
    conditions hold.
    """
    return sum(
        line["hits"]
        for line in section_lines
        if all(_holds(c, own, enemy, situation) for c in line["if"])
    )


def lowest(section_lines: Sequence[Mapping[str, Any]]) -> int:
    """The least a section can ever score: its unconditional hits, every reduction applying."""
    return sum(line["hits"] for line in section_lines if line["hits"] < 0 or not line["if"])


def _views(situation: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The attacker's and the defender's situations from a combat's: `cover` and `higher`
    ("attacker", "defender" or None: whose hex is higher, 11.4.A)."""
    cover = situation.get("cover", "none")
    higher = situation.get("higher")
    return (
        {"cover": cover, "higher": higher == "attacker"},
        {"cover": cover, "higher": higher == "defender"},
    )


def firepower_hits(
    attack_card: Mapping[str, Any],
    defense_card: Mapping[str, Any],
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any],
    situation: Mapping[str, Any],
) -> int:
    """11.2.C-H: the net hits on the target, never below 0. `situation`: `cover` the
    target hex's terrain cover (a river does not count, 2.1.4.C), `higher` as `_views`."""
    mine, theirs = _views(situation)
    total = evaluate(attack_card["firepower_attack"]["lines"], attacker, defender, mine)
    total += evaluate(defense_card["firepower_defense"]["lines"], defender, attacker, theirs)
    return max(total, 0)


def assault_hits(
    attack_card: Mapping[str, Any],
    defense_card: Mapping[str, Any],
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any] | None,
    situation: Mapping[str, Any],
) -> tuple[int, int]:
    """12.3.B-E: (hits on the defender, hits on the attacker) of one matchup. `situation`:
    `cover` the assaulted hex's cover with the river added (`assault_cover`), `higher` as
    `_views`, `empty_hex` true (or `defender` None) for 12.9's empty NML hex, a False Report
    (3.1.3.C) or scouting cavalry (10.5.4.2): the defender is then 0 SZ, D MET and reads only
    the Empty Hex result of its card."""
    mine, theirs = _views(situation)
    empty = defender is None or bool(situation.get("empty_hex", False))
    target = EMPTY_HEX if empty else defender
    assert target is not None
    on_defender = evaluate(attack_card["assault_attack"]["lines"], attacker, target, mine)
    if empty:
        section = defense_card.get(EMPTY_HEX_SECTION)
        lines = section["lines"] if section else []
    else:
        lines = defense_card["assault_defense"]["lines"]
    on_attacker = evaluate(lines, target, attacker, theirs)
    return max(on_defender, 0), max(on_attacker, 0)


# --- events, turn track, forced march ---------------------------------------------------------


def combat_card(data: Mapping[str, Any], side: str, number: int) -> dict[str, Any]:
    """`side`'s Combat Results Card `number` (6.2.B), as loaded."""
    found: dict[str, Any] = next(c for c in data["combat"][side] if c["number"] == number)
    return found


def is_event(card: Mapping[str, Any]) -> bool:
    return bool(card["event"])


def event_result(
    data: Mapping[str, Any], numbers: Mapping[str, int], momentum: str
) -> dict[str, Any] | None:
    """13.0.A-B: when both flipped cards are EVENT! cards (#1-#6), the table's entry for the
    sum of their numbers and the side it goes to (`side`; for "higher"/"lower" the side of
    the higher/lower card, the Strategic Momentum side counting as higher on equal cards).
    None when not both cards are EVENT! cards."""
    if any(numbers[side] > EVENT_CARDS for side in SIDES):
        return None
    total = numbers["germans"] + numbers["allies"]
    entry = next(e for e in data["events"]["entries"] if e["sum"] == total)
    to = entry["to"]
    if to in SIDES:
        side = to
    else:
        g, a = numbers["germans"], numbers["allies"]
        higher = momentum if g == a else ("germans" if g > a else "allies")
        side = higher if to == "higher" else _other(higher)
    return {"sum": total, "entry": entry, "side": side}


def _other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def forced_march(data: Mapping[str, Any], number: int) -> dict[str, int]:
    """7.7.3: how many units each side may force march for the drawn Card Number."""
    row = next(r for r in data["forced_march"] if r["low"] <= number <= r["high"])
    return {"germans": row["germans"], "allies": row["allies"]}


def _in_range(entry: Sequence[int], number: int) -> bool:
    return bool(entry) and entry[0] <= number <= entry[1]


def siege_ends(data: Mapping[str, Any], turn: int, number: int) -> bool:
    """7.7.1.B: the Card Number falls within the turn's Siege of Antwerp entry."""
    return _in_range(data["turns"][turn - 1]["siege"], number)


def foch_takes_command(data: Mapping[str, Any], turn: int, number: int) -> bool:
    """7.7.2.B: the Card Number falls within the turn's Foch Takes Command entry."""
    return _in_range(data["turns"][turn - 1]["foch"], number)


# --- loading ------------------------------------------------------------------------------------

INITIATIVE_FIELDS = ("side", "bid", "provenance", "note")
COMBAT_FIELDS = ("side", "number", "event", *SECTIONS, EMPTY_HEX_SECTION, "provenance", "note")
EVENT_FIELDS = ("sum", "title", "kind", "to", "hits", "count", "text", "provenance", "note")
TURN_FIELDS = ("turn", "dates", "siege", "foch", "provenance", "note")
MARCH_FIELDS = ("low", "high", "germans", "allies", "provenance", "note")
# a Combat Card is named by its side and its number: combat germans #3
COMBAT_NUMBERS = Numbered("side", SIDES, CARDS_PER_DECK, "combat {} #{}", COMBAT_FIELDS)


def load_cards(raw: bytes, file_name: str = CARDS_FILE) -> dict[str, Any]:
    """Parse and check the cards file; plain JSON data (see the module docstring)."""
    doc, check = read_toml(
        raw, file_name, ("event_table", "initiative", "combat", "event", "turn", "forced_march")
    )
    initiative = _read_initiative(check, doc)
    combat = _read_combat(check, doc)
    events = _read_events(check, doc)
    turns = _read_turns(check, doc)
    march = _read_forced_march(check, doc)
    check.stop_if_any()
    return {
        "initiative": initiative,
        "combat": combat,
        "events": events,
        "turns": turns,
        "forced_march": march,
    }


def _read_initiative(check: DataChecker, doc: dict[str, Any]) -> dict[str, list[int]]:
    bids: dict[str, list[int]] = {side: [] for side in SIDES}
    for item, where in check.items(doc, "initiative"):
        check.fields(item, where, INITIATIVE_FIELDS)
        side = check.choice(item, "side", where, SIDES)
        bid = check.integer(item, "bid", where, 1, 5)
        if side is not None and bid is not None:
            bids[side].append(bid)
    for side in SIDES:
        if len(bids[side]) != INITIATIVE_CARDS:
            check.add(
                f"initiative {side}",
                f"expected {INITIATIVE_CARDS} cards (6.1), found {len(bids[side])}",
            )
        for bid in FIXED_BIDS[side]:
            if bid not in bids[side]:
                check.add(f"initiative {side}", f"needs a {bid} (rulebook 7.5.1, 8.3)")
    return bids


def _read_combat(check: DataChecker, doc: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    decks: dict[str, dict[int, dict[str, Any]]] = {side: {} for side in SIDES}
    for item, where in check.items(doc, "combat"):
        side, number, where = COMBAT_NUMBERS.read(check, item, where)
        event = check.flag(item, "event", where)
        card: dict[str, Any] = {"side": side, "number": number, "event": event}
        for name in (*SECTIONS, EMPTY_HEX_SECTION):
            card[name] = _read_section(check, item, name, where)
        if number is not None and event is not None:
            check.exact(event, number <= EVENT_CARDS, f"{where}.event", "6.2.B: EVENT! on #1-#6")
        if side is None or number is None:
            continue
        for (fixed_side, fixed_number, section), text in FIXED_TEXTS.items():
            if (side, number) == (fixed_side, fixed_number) and card[section]:
                check.exact(card[section]["text"], text, f"{where}.{section}", "rulebook 11.4")
        card["provenance"] = item.get("provenance")
        card["note"] = item.get("note", "")
        if number in decks[side]:
            check.add(where, "duplicate card number")
            continue
        decks[side][number] = card
    for side in SIDES:
        missing = [n for n in range(1, CARDS_PER_DECK + 1) if n not in decks[side]]
        if missing:
            check.add(
                f"combat {side}", f"missing card(s) #{', #'.join(map(str, missing))} (6.2.A-B)"
            )
        elif not check.problems and not any(
            lowest(card["assault_attack"]["lines"]) >= 1 for card in decks[side].values()
        ):
            check.add(
                f"combat {side}",
                "no Assault Attack that always scores a hit: "
                "repeated combats (12.6) could go on forever",
            )
    return {side: [decks[side][n] for n in sorted(decks[side])] for side in SIDES}


def _read_section(
    check: DataChecker, item: dict[str, Any], name: str, where: str
) -> dict[str, Any] | None:
    text = check.text(item, name, where, required=name != EMPTY_HEX_SECTION)
    if text is None:
        return None
    try:
        lines = parse_section(text)
    except CardTextError as exc:
        check.add(f"{where}.{name}", str(exc))
        return None
    if name == "firepower_defense" and any(line["hits"] > 0 for line in lines):
        check.add(f"{where}.{name}", "Firepower Defense lines only take hits away (-N Hit)")
    if name in ("assault_defense", EMPTY_HEX_SECTION) and any(line["hits"] < 0 for line in lines):
        check.add(f"{where}.{name}", f"{SECTION_NAMES[name]} lines only score hits on the attacker")
    return {"text": text, "lines": lines}


def _read_events(check: DataChecker, doc: dict[str, Any]) -> dict[str, Any]:
    table = check.table(doc, "event_table") or {}
    ties = None
    if table:
        check.fields(table, "event_table", ("ties", "provenance", "note"))
        ties = check.choice(table, "ties", "event_table", EVENT_TIES)
    entries: dict[int, dict[str, Any]] = {}
    for item, where in check.items(doc, "event"):
        total = check.integer(item, "sum", where, EVENT_SUMS.start, EVENT_SUMS.stop - 1)
        if total is not None:
            where = f"event {total}"
        check.fields(item, where, EVENT_FIELDS)
        entry = {
            "sum": total,
            "title": check.text(item, "title", where),
            "kind": check.choice(item, "kind", where, EVENT_KINDS),
            "to": check.choice(item, "to", where, EVENT_TO),
            "text": check.text(item, "text", where),
            "provenance": item.get("provenance"),
            "note": item.get("note", ""),
        }
        if entry["kind"] == "hit":
            entry["hits"] = check.integer(item, "hits", where, 1, 4)
        if entry["kind"] == "reveal":
            entry["count"] = check.integer(item, "count", where, 1, 6)
        if total is None:
            continue
        if total in entries:
            check.add(where, "duplicate sum")
            continue
        entries[total] = entry
        if total == COUNTER_ATTACK[0]:
            check.exact((entry["kind"], entry["to"]), COUNTER_ATTACK[1:], where, "rulebook 13.0")
    missing = [s for s in EVENT_SUMS if s not in entries]
    if missing:
        check.add(
            "event", f"missing sum(s) {', '.join(map(str, missing))} (13.0.B: two cards #1-#6)"
        )
    return {"ties": ties, "entries": [entries[s] for s in sorted(entries)]}


def _read_range(check: DataChecker, item: dict[str, Any], key: str, where: str) -> list[int]:
    value = item.get(key)
    if value == []:
        return []
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not 1 <= value[0] <= value[1] <= CARDS_PER_DECK
    ):
        check.add(f"{where}.{key}", f"expected [] or [low, high] within 1..12, found {value!r}")
        return []
    return list(value)


def _read_turns(check: DataChecker, doc: dict[str, Any]) -> list[dict[str, Any]]:
    turns: dict[int, dict[str, Any]] = {}
    for item, where in check.items(doc, "turn"):
        number = check.integer(item, "turn", where, 1, TURNS)
        if number is not None:
            where = f"turn {number}"
        check.fields(item, where, TURN_FIELDS)
        turn = {
            "turn": number,
            "dates": check.text(item, "dates", where, required=False) or "",
            "siege": _read_range(check, item, "siege", where),
            "foch": _read_range(check, item, "foch", where),
        }
        if number is None:
            continue
        check.unique(turns, number, turn, where, "duplicate turn")
    missing = [t for t in range(1, TURNS + 1) if t not in turns]
    if missing:
        check.add("turn", f"missing turn(s) {', '.join(map(str, missing))} (2.2.A: ten turns)")
    return [turns[t] for t in sorted(turns)]


def _read_forced_march(check: DataChecker, doc: dict[str, Any]) -> list[dict[str, int]]:
    rows = []
    for item, where in check.items(doc, "forced_march"):
        check.fields(item, where, MARCH_FIELDS)
        rows.append({key: item.get(key) for key in ("low", "high", "germans", "allies")})
    check.exact(rows, FORCED_MARCH, "forced_march", "rulebook 7.7.3")
    return rows


@lru_cache(maxsize=1)
def _shipped() -> bytes:
    return shipped_file(PACKAGE, CARDS_FILE)


def default_cards() -> dict[str, Any]:
    """The shipped cards (a fresh copy each call)."""
    return load_cards(_shipped())
