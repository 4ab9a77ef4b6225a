"""The facts each game is registered with (pbem.games) are its engine's own, for every
version of its rules: what verifying a genesis reads instead of importing the game."""

from __future__ import annotations

import pytest

import pbem.games  # noqa: F401  (registers the games)
from pbem.core.engine import get_engine, registered, registered_facts, registered_target
from pbem.ledger import CachedEngine

GAMES = [name for name in registered() if str(registered_target(name)).startswith("pbem.games.")]


def test_every_game_is_here() -> None:
    assert len(GAMES) >= 5


@pytest.mark.parametrize("name", GAMES)
def test_the_registered_facts_are_the_engine_s(name: str) -> None:
    facts = registered_facts(name)
    assert facts is not None, f"{name} is registered without its facts"
    engine = get_engine(name)
    assert (facts["version"], tuple(facts["earlier_versions"])) == (
        engine.version,
        engine.earlier_versions,
    )
    for version in (engine.version, *engine.earlier_versions):
        played = engine.for_version(version)
        standing = CachedEngine(name, facts, version)
        assert standing.name == played.name == name
        assert standing.title == played.title
        assert standing.version == played.version == version
        assert standing.roles == played.roles
        assert standing.required_roles == played.required_roles
        assert standing.data_files == played.data_files
        assert standing.double_blind_options == played.double_blind_options
        assert standing.default_data() == played.default_data()
