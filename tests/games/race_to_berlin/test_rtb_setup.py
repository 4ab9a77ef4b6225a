"""Rulebook 1-2 (components, preparation), the engine's metadata, the state and the views."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.errors import DataError
from pbem.games.race_to_berlin.rules import ENGINE
from tests.games.race_to_berlin.rtb_support import (
    new_game,
    put_block,
)


def test_engine_metadata() -> None:
    assert ENGINE.name == "race-to-berlin" and ENGINE.title == "Race to Berlin"
    assert ENGINE.version == "1.1" and ENGINE.earlier_versions == ("1.0",)
    assert ENGINE.roles == ("west", "soviet") and ENGINE.required_roles == ("west", "soviet")
    assert ENGINE.data_files == ("map.toml", "tokens.toml")
    assert set(ENGINE.default_data()) == {"map.toml", "tokens.toml"}
    assert "two-player" in ENGINE.describe()


def test_setup_refuses_options() -> None:
    with pytest.raises(DataError, match="no options"):
        ENGINE.setup(None, {"variant": "x"})


def test_2_preparation_units_fortifications_cubes_markers_tokens(fresh: dict[str, Any]) -> None:
    units = fresh["units"]
    assert len(units) == 40  # rulebook 1: 40 unit tokens, one of them off the board
    on_board = [u for u in units.values() if u["status"] == "board"]
    assert len(on_board) == 39 and units["de-6sspz-east"]["status"] == "reserve"
    assert all(u["strength"] == 4 for u in units.values() if u["force"].startswith("german"))
    assert all(u["strength"] is None for u in units.values() if u["force"] in ("west", "soviet"))
    forts = [a["fortification"] for a in fresh["areas"].values() if a["fortification"]]
    assert len(forts) == 16
    assert fresh["cubes"] == {"west": {"pool": 20, "lost": 0}, "soviet": {"pool": 20, "lost": 0}}
    assert fresh["markers"]["west"] == {"total": 25, "used": 5, "left": 20}
    assert fresh["markers"]["soviet"] == {"total": 25, "used": 5, "left": 20}
    assert all(len(fresh["tokens"][r]) == 8 for r in ("west", "soviet"))
    assert fresh["vp"] == {"west": 0, "soviet": 0}
    assert fresh["block_values"]["west"] == [2, 2, 3, 3, 4, 4, 5, 5]
    assert fresh["turn"] == 1 and fresh["turns"] == 3


def test_the_state_is_plain_json_and_describes_itself(fresh: dict[str, Any]) -> None:
    canonical_bytes({k: v for k, v in fresh.items()})
    for key in (
        "turn",
        "phase",
        "step",
        "active",
        "first",
        "areas",
        "units",
        "blocks",
        "cubes",
        "markers",
        "tokens",
        "vp",
        "eagles",
        "combat",
        "last_combat",
        "result",
    ):
        assert key in fresh, key


def test_views_add_a_board_summary_and_hide_nothing_public(fresh: dict[str, Any]) -> None:
    g = new_game(fresh)
    g.decide("soviet", "place 4 in 29")
    view = ENGINE.view(g.state, None)
    area = next(a for a in view["board"] if a["id"] == "29")
    assert area["control"] == "soviet" and area["supplied"]
    assert [u["id"] for u in area["units"]] == ["su-1bf", "pl-1"]
    assert area["blocks"] == [
        {
            "label": "block/soviet/t1/1",
            "owner": "soviet",
            "force": "soviet",
            "cubes": 0,
            "value": None,
            "revealed": False,
            "exhausted": False,
        }
    ]
    assert view["tokens_left"] == {"west": 8, "soviet": 8}
    assert ENGINE.view(g.state, "west") == ENGINE.view(g.state, "soviet") == view
    own = ENGINE.view_known(g.state, "soviet", g.secrets["soviet"])
    assert next(a for a in own["board"] if a["id"] == "29")["blocks"][0]["value"] == 4
    canonical_bytes(view)


def test_apply_never_mutates_its_input() -> None:
    g = new_game(check=True)
    g.decide("soviet", "place 4 in 29")
    g.decide("west", "place 4 in 1")


def test_prompts_say_what_to_type(fresh: dict[str, Any]) -> None:
    (prompt,) = ENGINE.prompts(fresh)
    assert prompt.role == "soviet" and "'place <value> in <area>'" in prompt.text
    g = new_game()
    put_block(g, "west", "1", 3)
    assert ENGINE.outcome(g.state) is None
