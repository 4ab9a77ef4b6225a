"""Barbarossa's parser keeps the decision of a text whose parse never read the map's cities
(`decisions._PLAIN`): a text parsed again is the decision the parser itself gives, a text
that names a city is parsed against the cities given every time, and a refusal is refused
every time."""

from __future__ import annotations

import pytest

from pbem.errors import InvalidOrderError
from pbem.games.barbarossa import decisions
from pbem.games.barbarossa.decisions import parse_decision, parse_text
from pbem.games.barbarossa.rules import ENGINE
from tests.games.barbarossa.demo_save import entries


def cities_of(state: dict) -> list[tuple[str, str]]:
    return [(c["id"], c["name"]) for p in state["paths"] for c in p["cities"]]


def test_the_demo_save_decisions_parse_alike_with_the_memo() -> None:
    decisions._PLAIN.clear()
    state = ENGINE.setup(None, {})
    cities = cities_of(state)
    texts = [e.body["decision"] for e in entries() if "decision" in e.body]
    assert len(texts) > 100
    for text in texts * 2:
        assert parse_decision(text, cities) == parse_text(text, cities)
        assert ENGINE.parse_decision(text, state, "german") == parse_text(text, cities)
    assert decisions._PLAIN and all(not k.startswith("attack") for k in decisions._PLAIN)


def test_a_city_is_read_from_the_cities_given_each_time() -> None:
    decisions._PLAIN.clear()
    assert parse_decision("attack kiev with 3", [("kiev", "Kiev")]).city == "kiev"
    assert parse_decision("attack kiev with 3", [("kiev-2", "Kiev")]).city == "kiev-2"
    with pytest.raises(InvalidOrderError):
        parse_decision("attack kiev with 3", [("minsk", "Minsk")])
    assert "attack kiev with 3" not in decisions._PLAIN


def test_a_refusal_is_refused_every_time() -> None:
    decisions._PLAIN.clear()
    for _ in range(2):
        with pytest.raises(InvalidOrderError):
            parse_decision("boost 0", [])
        with pytest.raises(InvalidOrderError):
            parse_decision("", [])
    assert not decisions._PLAIN
    assert parse_decision("Accept", []) == parse_text("accept", [])
