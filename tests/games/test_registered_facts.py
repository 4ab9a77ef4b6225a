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


def test_registering_the_same_target_again_keeps_its_facts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pbem.core import engine
    from pbem.core.engine import register

    monkeypatch.setattr(engine, "_LAZY", dict(engine._LAZY))  # (gone after the test)
    monkeypatch.setattr(engine, "_FACTS", dict(engine._FACTS))
    name = "facts-test-game"
    register(name, "somewhere:ENGINE", {"version": "1"})
    register(name, "somewhere:ENGINE")  # (as tests re-register a game)
    assert registered_facts(name) == {"version": "1"}
    register(name, "elsewhere:ENGINE")  # another engine: not its facts
    assert registered_facts(name) is None
