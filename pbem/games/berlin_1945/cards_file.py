"""Reading and checking `cards.toml`: the hand, the cost of the additional order and both
decks, each card's effects built from the named primitives of `rulebook.EFFECTS`, checked
against the map, the counters and the cards the rulebook describes.

`load_cards` collects every problem of a stage into one DataError and returns plain JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.berlin_1945.rulebook import (
    ADDITIONAL_ORDER,
    BASE_ORDERS,
    CANCEL_ORDER_KINDS,
    CARD_ID,
    CARDS_PER_SIDE,
    EFFECT_DEFAULTS,
    EFFECT_ONE_OF,
    EFFECTS,
    FLAK_CARD,
    HAND,
    MAX_AMOUNT,
    MAX_COUNT,
    MAX_ORDERS,
    MODE_WHEN,
    ORDER_KINDS,
    PANZERFAUST,
    RINGS,
    RULEBOOK_CARDS,
    SIDES,
    SYMBOLS,
    UNIT_TYPES,
    WHEN,
    ZONE_FILTERS,
    ZONE_IDS,
    zone_names,
)
from pbem.games.datacheck import DataChecker, Numbered, read_toml

CARDS_FILE = "cards.toml"

CARD_FIELDS = (
    "deck",
    "number",
    "name",
    "symbols",
    "timing",
    "text",
    "provenance",
    "text_provenance",
    "effect",
)
EFFECT_BASE_FIELDS = ("mode", "when", "effect")
# a card is named by its deck and its number: card[german-7]
CARD_NUMBERS = Numbered("deck", SIDES, CARDS_PER_SIDE, "card[{}-{}]", CARD_FIELDS)


def load_cards(
    raw: bytes,
    board: Mapping[str, Any],
    counters: Mapping[str, Any],
    file_name: str = CARDS_FILE,
) -> dict[str, Any]:
    """Parse and validate both decks against the map and the counters; plain JSON data."""
    doc, check = read_toml(raw, file_name, ("hand", "decks", "additional_order", "card"))

    # Stage 1: every item on its own.
    _read_fixed_table(check, doc, "hand", HAND, "rulebook 2.3, 7.1")
    _read_fixed_table(check, doc, "decks", {"cards_per_side": CARDS_PER_SIDE}, "rulebook 2.3")
    _read_fixed_table(check, doc, "additional_order", ADDITIONAL_ORDER, "rulebook 2.3, 5.4, 6")
    cards = _read_cards(check, doc)
    check.stop_if_any()

    # Stage 2: the decks, references into the map and the counters, what the rulebook says.
    _check_decks(check, cards)
    check.stop_if_any()
    _check_references(check, cards, board, counters)
    check.stop_if_any()
    _check_rulebook_cards(check, cards, counters)
    _check_order_maximums(check, cards)
    check.stop_if_any()

    return {
        "hand": dict(HAND),
        "cards_per_side": CARDS_PER_SIDE,
        "additional_order": dict(ADDITIONAL_ORDER),
        "decks": {
            side: [
                {k: v for k, v in c.items() if k != "where"}
                for c in sorted(cards, key=lambda c: c["number"])
                if c["deck"] == side
            ]
            for side in SIDES
        },
    }


def _read_fixed_table(
    check: DataChecker, doc: dict[str, Any], key: str, wanted: Mapping[str, int], rule: str
) -> None:
    table = check.table(doc, key)
    if table is None:
        return
    check.fields(table, key, (*wanted, "provenance"))
    for field, value in wanted.items():
        found = check.integer(table, field, key, 0)
        if found is not None:
            check.exact(found, value, f"{key}.{field}", rule)


def _read_cards(check: DataChecker, doc: dict[str, Any]) -> list[dict[str, Any]]:
    cards = []
    for item, where in check.items(doc, "card"):
        deck, number, where = CARD_NUMBERS.read(check, item, where)
        _text_provenance(check, item, where)
        name = check.text(item, "name", where)
        timing = check.text(item, "timing", where)
        text = check.text(item, "text", where)
        symbols = _symbols(check, item, "symbols", where, most=2)
        effects = _read_effects(check, item, where, deck, symbols or [])
        if symbols is not None and effects is not None:
            for symbol in symbols:
                if not any(e["mode"] == symbol for e in effects):
                    check.add(f"{where}.symbols", f"no effect for mode {symbol!r}")
        values = (deck, number, name, timing, text, symbols, effects)
        if any(v is None for v in values):
            continue
        cards.append(
            {
                "id": f"{deck}-{number}",
                "deck": deck,
                "number": number,
                "name": name,
                "symbols": symbols,
                "timing": timing,
                "text": text,
                "effects": effects,
                "where": where,
            }
        )
    return cards


def _text_provenance(check: DataChecker, item: dict[str, Any], where: str) -> None:
    """Required for a rulebook card; a stand-in card's text can only be a stand-in."""
    card_from_rulebook = str(item.get("provenance", "")).startswith("rulebook ")
    if card_from_rulebook:
        check.provenance(item, where, "text_provenance")
    elif "text_provenance" in item and item["text_provenance"] != "stand-in":
        check.add(
            f"{where}.text_provenance",
            f"a stand-in card has stand-in text, found {item['text_provenance']!r}",
        )


def _symbols(
    check: DataChecker, item: dict[str, Any], key: str, where: str, most: int
) -> list[str] | None:
    value = item.get(key)
    if (
        not isinstance(value, list)
        or not value
        or len(value) > most
        or not all(isinstance(s, str) and s in SYMBOLS for s in value)
        or len(set(value)) != len(value)
    ):
        check.add(
            f"{where}.{key}",
            f"expected 1 to {most} different symbols of {', '.join(SYMBOLS)} (rulebook 2.3), "
            f"found {value!r}",
        )
        return None
    return list(value)


def _read_effects(
    check: DataChecker,
    item: dict[str, Any],
    where: str,
    deck: str | None,
    symbols: list[str],
) -> list[dict[str, Any]] | None:
    raw = check.tables(item, "effect", f"{where}.effect")
    if not raw:
        if "effect" not in item:
            check.add(where, "no [[card.effect]]: every card has at least one effect")
        return None
    effects: list[dict[str, Any]] | None = []
    for j, entry in enumerate(raw, start=1):
        here = f"{where}.effect #{j}"
        effect = _read_effect(check, entry, here, deck, symbols)
        if effect is None or effects is None:
            effects = None
        else:
            effects.append(effect)
    return effects


def _read_effect(
    check: DataChecker, entry: Any, where: str, deck: str | None, symbols: list[str]
) -> dict[str, Any] | None:
    if not check.is_table(entry, where):
        return None
    before = len(check.problems)
    mode = check.choice(entry, "mode", where, SYMBOLS)
    when = check.choice(entry, "when", where, WHEN)
    primitive = check.choice(entry, "effect", where, EFFECTS)
    if mode is not None and symbols and mode not in symbols:
        check.add(f"{where}.mode", f"{mode!r} is not a symbol of this card ({', '.join(symbols)})")
    if mode is not None and when is not None and when not in MODE_WHEN[mode]:
        check.add(
            f"{where}.when",
            f"a {mode} effect is played {' or '.join(MODE_WHEN[mode])} (rulebook 2.3), "
            f"found {when!r}",
        )
    if when == "planning" and deck == "german":
        check.add(f"{where}.when", "only the Soviet player has a Planning phase (rulebook 7.2)")
    if primitive is None:
        return None
    required, optional = EFFECTS[primitive]
    known = (*EFFECT_BASE_FIELDS, *required, *optional)
    for key in entry:
        if key not in known:
            listed = ", ".join((*required, *optional)) or "none"
            check.add(where, f"unknown parameter {key!r} for {primitive} (known: {listed})")
    for key in required:
        if key not in entry:
            check.add(where, f"{primitive} needs {key!r}")
    one_of = EFFECT_ONE_OF.get(primitive)
    if one_of and not any(k in entry for k in one_of):
        check.add(where, f"{primitive} needs {' or '.join(repr(k) for k in one_of)}")
    params: dict[str, Any] = {
        k: list(v) if isinstance(v, list) else v
        for k, v in EFFECT_DEFAULTS.get(primitive, {}).items()
    }
    for key, kind in {**required, **optional}.items():
        if key in entry:
            value = _param(check, entry[key], kind, f"{where}.{key}")
            if value is not None:
                params[key] = value
    if len(check.problems) != before:
        return None
    return {"mode": mode, "when": when, "effect": primitive, **params}


def _param(check: DataChecker, value: Any, kind: str, where: str) -> Any:
    """One effect parameter of the given kind; None (and a problem) when it is wrong."""
    problem = ""
    if kind == "bool":
        if not isinstance(value, bool):
            problem = f"expected true or false, found {value!r}"
    elif kind in ("amount", "count"):
        lo, hi = (-MAX_AMOUNT, MAX_AMOUNT) if kind == "amount" else (1, MAX_COUNT)
        if isinstance(value, bool) or not isinstance(value, int):
            problem = f"expected an integer, found {value!r}"
        elif value < lo or value > hi or (kind == "amount" and value == 0):
            zero = ", not 0" if kind == "amount" else ""
            problem = f"{value} is not in {lo}..{hi}{zero}"
    elif kind in ("target", "order", "cancel-order", "filter", "marker"):
        options = {
            "target": ("own", "enemy"),
            "order": ORDER_KINDS,
            "cancel-order": CANCEL_ORDER_KINDS,
            "filter": ZONE_FILTERS,
        }.get(kind)
        if not isinstance(value, str) or not value:
            problem = f"expected a string, found {value!r}"
        elif options is not None and value not in options:
            problem = f"{value!r} is not one of {', '.join(options)}"
    else:  # lists
        allowed = {
            "rings": RINGS,
            "symbols": SYMBOLS,
            "types": tuple(UNIT_TYPES),
            "zones": ZONE_IDS,
        }.get(kind)
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, str) and v for v in value)
        ):
            problem = f"expected a non-empty array of strings, found {value!r}"
        elif len(set(value)) != len(value):
            problem = f"{value!r} names something twice"
        elif allowed is not None and not set(value) <= set(allowed):
            wrong = [v for v in value if v not in allowed]
            problem = f"unknown {', '.join(repr(v) for v in wrong)} (known: {', '.join(allowed)})"
        elif kind == "cards" and not all(CARD_ID.match(v) for v in value):
            problem = f'expected card ids such as "soviet-22", found {value!r}'
    if problem:
        check.add(where, problem)
        return None
    return list(value) if isinstance(value, list) else value


def _check_decks(check: DataChecker, cards: list[dict[str, Any]]) -> None:
    seen: dict[str, str] = {}
    for card in cards:
        if card["id"] in seen:
            check.add(
                card["where"], f"duplicate card number {card['number']} in the {card['deck']} deck"
            )
        seen[card["id"]] = card["where"]
    for side in SIDES:
        numbers = sorted({c["number"] for c in cards if c["deck"] == side})
        found = sum(1 for c in cards if c["deck"] == side)
        if found != CARDS_PER_SIDE:
            missing = sorted(set(range(1, CARDS_PER_SIDE + 1)) - set(numbers))
            check.add(
                "card",
                f"the {side} deck has {found} cards, expected {CARDS_PER_SIDE} (rulebook 2.3: 50 "
                f"Event cards, 25 for each side); missing numbers {missing or 'none'}",
            )


def _check_references(
    check: DataChecker,
    cards: list[dict[str, Any]],
    board: Mapping[str, Any],
    counters: Mapping[str, Any],
) -> None:
    zones = board["zones"]
    units = {u["id"]: u for u in counters["units"]}
    markers = counters["markers"]
    ids = {c["id"]: c for c in cards}
    deployed: dict[str, list[str]] = {}
    for card in cards:
        side, opponent = card["deck"], other_side(card["deck"])
        for j, effect in enumerate(card["effects"], start=1):
            where = f"{card['where']}.effect #{j}"
            for zone_id in effect.get("zones", []):
                if zone_id not in zones:
                    check.add(f"{where}.zones", f"unknown zone {zone_id!r}")
            primitive = effect["effect"]
            if primitive == "reinforce":
                if side != "german":
                    check.add(
                        where,
                        "the Soviets receive reinforcements only once, at turn 4 (rulebook 8.1); "
                        "cards bring German reinforcements (rulebook 8.2)",
                    )
                areas = [
                    z for z in effect.get("zones", []) if zones.get(z, {}).get("ring") == "edge"
                ]
                if areas:
                    check.add(
                        f"{where}.zones",
                        "German units cannot enter Areas A-F (rulebook 5.2), found "
                        f"{zone_names(areas)}",
                    )
                for unit_id in effect["units"]:
                    unit = units.get(unit_id)
                    if unit is None:
                        check.add(f"{where}.units", f"unknown unit {unit_id!r} (counters.toml)")
                    elif unit["card"] != card["number"] or unit["side"] != side:
                        check.add(
                            f"{where}.units",
                            f"{unit_id} is not a unit of card {card['id']} in counters.toml",
                        )
                    deployed.setdefault(unit_id, []).append(card["id"])
            elif primitive == "place_marker":
                kind = effect["marker"]
                if kind not in markers:
                    check.add(f"{where}.marker", f"unknown marker kind {kind!r} (counters.toml)")
                elif effect["count"] > markers[kind]:
                    check.add(
                        f"{where}.count",
                        f"places {effect['count']} {kind} markers, counters.toml has "
                        f"{markers[kind]}",
                    )
            elif primitive == "remove_unit":
                own = [t for t in effect.get("types", []) if UNIT_TYPES[t]["side"] != opponent]
                if own:
                    check.add(
                        f"{where}.types",
                        f"a card removes the opponent's units (rulebook 6), "
                        f"{', '.join(own)} {'is' if len(own) == 1 else 'are'} {side}",
                    )
            elif primitive == "extra_orders":
                for other_id in effect["exclusive_with"]:
                    other = ids.get(other_id)
                    if other is None or other["deck"] != side or other_id == card["id"]:
                        check.add(
                            f"{where}.exclusive_with",
                            f"{other_id!r} is not another card of the {side} deck",
                        )
                    elif not any(
                        card["id"] in e.get("exclusive_with", []) for e in other["effects"]
                    ):
                        check.add(
                            f"{where}.exclusive_with",
                            f"{other_id} does not exclude {card['id']} in turn: exclusion is "
                            "mutual",
                        )
    for unit in counters["units"]:
        if not unit["card"]:
            continue
        by = deployed.get(unit["id"], [])
        if len(by) != 1:
            check.add(
                "card",
                f"{unit['id']} (card {unit['card']} in counters.toml) must be deployed by "
                f"exactly one card effect, found {', '.join(by) or 'none'} (rulebook 8.2)",
            )


def _check_rulebook_cards(
    check: DataChecker, cards: list[dict[str, Any]], counters: Mapping[str, Any]
) -> None:
    by_id = {c["id"]: c for c in cards}
    units = {u["id"]: u for u in counters["units"]}
    for (deck, number), spec in RULEBOOK_CARDS.items():
        card = by_id.get(f"{deck}-{number}")
        rule = f"rulebook {spec['section']}"
        if card is None:
            check.add("card", f"missing {deck} card #{number} {spec['name']!r} ({rule})")
            continue
        where = card["where"]
        if card["name"] != spec["name"]:
            check.add(
                f"{where}.name",
                f"card #{number} is {spec['name']!r} ({rule}), found {card['name']!r}",
            )
        if "symbols" in spec and card["symbols"] != spec["symbols"]:
            check.add(
                f"{where}.symbols",
                f"expected {spec['symbols']!r} ({rule}), found {card['symbols']!r}",
            )
        matching = [
            e
            for e in card["effects"]
            if e["effect"] == spec["effect"]
            and all(e.get(k) == v for k, v in spec["params"].items())
            and e["when"] == spec.get("when", e["when"])
        ]
        if not matching:
            wanted = ", ".join(f"{k} = {v!r}" for k, v in spec["params"].items())
            when = f" at {spec['when']}" if "when" in spec else ""
            check.add(
                where,
                f"{spec['name']} is {spec['effect']}{when}"
                f"{' with ' + wanted if wanted else ''} ({rule})",
            )
            continue
        wanted_units = spec.get("units")
        if wanted_units:
            deployed = [units[u] for u in matching[0]["units"] if u in units]
            problem = len(deployed) != wanted_units["count"] or any(
                u["name"] != wanted_units["name"]
                or u["type"] != wanted_units.get("type", u["type"])
                or u["never_withdraws"] != wanted_units.get("never_withdraws", False)
                for u in deployed
            )
            if problem:
                described = f"{wanted_units['count']} {wanted_units['name']!r} unit(s)"
                if "type" in wanted_units:
                    described += f" of type {wanted_units['type']}"
                if wanted_units.get("never_withdraws"):
                    described += " with never_withdraws = true"
                check.add(f"{where}.effect", f"deploys {described} ({rule})")
    german = [c for c in cards if c["deck"] == "german"]
    panzerfaust = [c for c in german if c["name"] == PANZERFAUST]
    if len(panzerfaust) != 1 or len(panzerfaust[0]["symbols"]) != 2:
        check.add(
            "card",
            f"the German deck needs one {PANZERFAUST!r} card with two symbols: it offers two "
            "alternative effects (rulebook 2.3)",
        )
    flak = [c for c in german if c["name"] == FLAK_CARD]
    if len(flak) != 1 or not any(
        e["effect"] == "place_marker" and e["marker"] == "flak-tower" and e["amount"]
        for e in flak[0]["effects"]
    ):
        check.add(
            "card",
            f"the German deck needs one {FLAK_CARD!r} card placing a flak-tower marker with an "
            "amount: it modifies combat strength in its district (rulebook 7.4.2)",
        )


def _check_order_maximums(check: DataChecker, cards: list[dict[str, Any]]) -> None:
    """rulebook 5.4: at most 6 German Movement orders a turn (4 + 1 by discarding + 1 by #24),
    at most 5 Soviet ones (3 + 2 by #13, which rules out the order bought by discarding)."""
    for side in SIDES:
        adders = [
            (c["id"], e)
            for c in cards
            if c["deck"] == side
            for e in c["effects"]
            if e["effect"] == "extra_orders" and e["order"] in ("movement", "any")
        ]
        doubles = [
            c["id"]
            for c in cards
            if c["deck"] == side
            for e in c["effects"]
            if e["effect"] == "double_move"
        ]
        exclusive = all(
            other in e["exclusive_with"]
            for card_id, e in adders
            for other, _ in adders
            if other != card_id
        )
        if exclusive:  # at most one of them a turn
            options = [e["count"] + (0 if e["blocks_additional_order"] else 1) for _, e in adders]
            extra = max([1, *options])
        else:  # some can be played together: count them all
            blocks = any(e["blocks_additional_order"] for _, e in adders)
            extra = sum(e["count"] for _, e in adders) + (0 if blocks else 1)
        most = BASE_ORDERS[side] + extra + len(doubles)
        if most > MAX_ORDERS[side]:
            adding = [card_id for card_id, _ in adders] + doubles
            check.add(
                "card",
                f"the {side} cards allow {most} Movement orders in a turn "
                f"({', '.join(adding)}); the most is {MAX_ORDERS[side]} (rulebook 5.4)",
            )


def other_side(side: str) -> str:
    return "soviet" if side == "german" else "german"
