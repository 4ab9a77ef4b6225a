"""Fuzzing the games' TOML data files, loaded as a user's `pbem new --data NAME=FILE` is.

Each shipped data file (pbem/games/*/data/*.toml) is changed and handed to the game
as the user's file: the engine's `load_data` (which `Client.new` calls to validate
before signing), then `setup` on the loaded data (what the genesis entry starts).
Changes: values replaced by wrong types or out-of-range values, keys deleted or
added, array items duplicated or dropped, and, on the text, lines deleted or
duplicated (a table header twice), bytes flipped, random bytes. The only way out is
a DataError (a PbemError) whose message is one line, or a working initial state.
"""

from __future__ import annotations

import copy
import datetime
import json
import math
import tomllib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.core.engine import get_engine
from pbem.errors import DataError, PbemError
from tests.fuzz.fuzzing import (
    SHIPPED_GAMES,
    check_message,
    fuzz_settings,
    load_user_data,
    mutated,
    outcome,
)

FILES = [(game, name) for game in SHIPPED_GAMES for name in get_engine(game).data_files]
IDS = [f"{game}-{name}" for game, name in FILES]


# --- a small TOML writer (tomllib only reads) ----------------------------------------------------


def _key(key: str) -> str:
    return json.dumps(key)  # a JSON string is a TOML basic string


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value).__name__)


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def dump_toml(doc: dict[str, Any]) -> bytes:
    lines = [
        f"{_key(k)} = {_value(v)}"
        for k, v in doc.items()
        if not isinstance(v, dict) and not _is_tables(v)
    ]
    for key, value in doc.items():
        if isinstance(value, dict):
            lines.append(f"[{_key(key)}]")
            lines += [f"{_key(k)} = {_value(v)}" for k, v in value.items()]
        elif _is_tables(value):
            for item in value:
                lines.append(f"[[{_key(key)}]]")
                lines += [f"{_key(k)} = {_value(v)}" for k, v in item.items()]
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


# --- structural mutations -----------------------------------------------------------------------

WRONG = st.sampled_from(
    [0, -1, 1, 2, 3, 7, 99, 2**63 - 1, -(2**63), True, False, "", " ", "x", "a\nb", "17", "B1",
     "stand-in", "rulebook 1", "german", "soviet", "west", "g1", 1.5, float("nan"), [], [1],
     ["x"], {}, {"id": "x"}, [{"id": "x"}], datetime.date(2026, 1, 1)]
)  # fmt: skip


def _wrong(draw: st.DrawFn) -> Any:
    """A wrong value of its own: WRONG's lists and tables are shared by every example, and
    a later change of this one (a key added, an item deleted) must not alter them, or the
    next example (a replay while shrinking) draws from other paths: Hypothesis's
    FlakyStrategyDefinition."""
    return copy.deepcopy(draw(WRONG))


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value in the document (keys and list indices)."""
    found: list[tuple[Any, ...]] = []
    items = (
        doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else []
    )
    for key, value in items:
        found.append((*prefix, key))
        found += _paths(value, (*prefix, key))
    return found


@st.composite
def changed_document(draw: st.DrawFn, doc: dict[str, Any]) -> dict[str, Any]:
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent: Any = doc
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        old = parent[last]
        change = draw(st.sampled_from(["wrong", "delete", "duplicate", "add", "nudge"]))
        if change == "wrong":
            parent[last] = _wrong(draw)
        elif change == "delete":
            del parent[last]
        elif change == "duplicate" and isinstance(parent, list):
            parent.insert(last, json.loads(json.dumps(old, default=str)))
        elif change == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["zz", "id", "name", "provenance", "a\nb", "value"]))] = (
                _wrong(draw)
            )
        elif change == "nudge" and isinstance(old, int) and not isinstance(old, bool):
            parent[last] = old + draw(st.sampled_from([-100, -2, -1, 1, 2, 100]))
        elif change == "nudge" and isinstance(old, str):
            parent[last] = draw(st.sampled_from([old.upper(), old + "x", old[:1], old + "\n"]))
    return doc


def load_as_user_file(game: str, name: str, content: bytes) -> Any:
    state = load_user_data(get_engine(game), name, content)
    assert isinstance(state, dict) and state
    return state


@pytest.mark.parametrize(("game", "name"), FILES, ids=IDS)
def test_shipped_files_load(game: str, name: str) -> None:
    engine = get_engine(game)
    assert load_as_user_file(game, name, engine.default_data()[name])
    assert dump_toml(tomllib.loads(engine.default_data()[name].decode()))  # the writer works


@pytest.mark.parametrize(("game", "name"), FILES, ids=IDS)
@fuzz_settings(25)
@given(data=st.data())
def test_changed_values(game: str, name: str, data: st.DataObject) -> None:
    doc = tomllib.loads(get_engine(game).default_data()[name].decode())
    content = dump_toml(data.draw(changed_document(doc)))
    outcome(lambda raw: load_as_user_file(game, name, raw), content, keep_as=f"data-{game}")


@pytest.mark.parametrize(("game", "name"), FILES, ids=IDS)
@fuzz_settings(25)
@given(data=st.data())
def test_changed_text(game: str, name: str, data: st.DataObject) -> None:
    noise = (b"[map]\n", b"[[unit]]\n", b"x = 1\n", b'id = "x"\n', b"= =\n", b"\xff", b"[" * 50)
    content = data.draw(mutated(get_engine(game).default_data()[name], noise))
    outcome(lambda raw: load_as_user_file(game, name, raw), content, keep_as=f"data-{game}")


@pytest.mark.parametrize(("game", "name"), FILES, ids=IDS)
@fuzz_settings(15)
@given(content=st.binary(max_size=300))
def test_random_bytes(game: str, name: str, content: bytes) -> None:
    with pytest.raises(PbemError) as caught:
        load_as_user_file(game, name, content)
    check_message(caught.value)


REGRESSIONS = {
    "digits": b"x = " + b"9" * 5000 + b"\n",
    "nested": b"x = " + b"[" * 3000 + b"]" * 3000 + b"\n",
    "hex-past-64-bits": b"x = 0x" + b"f" * 5000 + b"\n",
    "newline-key": b'"a\\nb" = 1\n',
}


@pytest.mark.parametrize(("game", "name"), FILES, ids=IDS)
@pytest.mark.parametrize("case", sorted(REGRESSIONS))
def test_toml_that_broke_the_reader(game: str, name: str, case: str) -> None:
    """Regression (fuzz/corpus/data-*): tomllib raised ValueError or RecursionError, or a
    key with a newline made a message of two lines."""
    with pytest.raises(DataError) as caught:
        load_as_user_file(game, name, REGRESSIONS[case])
    message = check_message(caught.value)
    assert name in message
    if case == "hex-past-64-bits":  # refused as TOML, before any check prints the number
        assert "does not fit in 64 bits" in message


def test_rule_and_unit_type_sections_that_are_not_arrays() -> None:
    """Regression (fuzz/corpus/data-berlin-1945/*-not-an-array): TypeError in the checker."""
    engine = get_engine("berlin-1945")
    files = engine.default_data()
    for name, section in (("map.toml", "rule"), ("counters.toml", "unit_type")):
        doc = tomllib.loads(files[name].decode())
        doc[section] = 7
        with pytest.raises(DataError) as caught:
            load_as_user_file("berlin-1945", name, dump_toml(doc))
        assert f"{section}: expected an array of tables" in check_message(caught.value)


def test_id_with_a_trailing_newline_is_refused() -> None:
    """Regression: `$` matched before a final newline, so "kiev\\n" passed as an id."""
    files = get_engine("barbarossa").default_data()
    doc = tomllib.loads(files["gamesheet.toml"].decode())
    doc["paths"][0]["id"] += "\n"
    with pytest.raises(DataError) as caught:
        load_as_user_file("barbarossa", "gamesheet.toml", dump_toml(doc))
    assert "must be lower case letters" in check_message(caught.value)
