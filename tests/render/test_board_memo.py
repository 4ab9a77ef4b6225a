"""The board `pbem show` prints, kept in the cache folder (pbem.render.board.kept_state_text):
the text state_text gives, for the very position and role it was written for, never for
another head, never with the role's own secrets, never once its code or templates changed."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from pbem.core.adjudicator import Adjudicator
from pbem.crypto.keys import PrivateKey
from pbem.ledger import replay
from pbem.render import board
from pbem.store.vault import Vault
from pbem.verify import parse_entries

ROOT = Path(__file__).resolve().parents[2]


@cache
def game_at(count: int) -> Adjudicator:
    entries = parse_entries((ROOT / "saves" / "race-to-berlin-demo.pbem").read_bytes())
    return replay(entries[:count], {})


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PBEM_CACHE", str(folder))
    return folder


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    calls: list[object] = []
    real = board.state_text

    def counted(game: Adjudicator, view: object, role: str | None = None) -> str:
        calls.append(role)
        return real(game, view, role)

    monkeypatch.setattr(board, "state_text", counted)
    return calls


def test_kept_text_is_the_rendered_text_and_is_used(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = game_at(60)
    for role in [*game.roles, None]:
        view = board.role_view(game, role, None)
        expected = board.state_text(game, view, role)
        assert expected
        calls = _counting(monkeypatch)
        assert board.kept_state_text(game, view, role, {}) == expected
        assert board.kept_state_text(game, view, role, None) == expected
        assert calls == [role]  # the second from the cache
        monkeypatch.undo()
        monkeypatch.setenv("PBEM_CACHE", str(cache_dir))


def test_another_head_is_never_given_the_kept_text(cache_dir: Path) -> None:
    early, late = game_at(40), game_at(80)
    role = next(iter(early.roles))
    first = board.kept_state_text(early, board.role_view(early, role, None), role, None)
    view = board.role_view(late, role, None)
    assert first != board.state_text(late, view, role)  # (two positions that differ)
    assert board.kept_state_text(late, view, role, None) == board.state_text(late, view, role)


def test_a_view_with_the_roles_secrets_is_never_written(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = game_at(60)
    role = next(iter(game.roles))
    view = board.role_view(game, role, None)
    # Secrets that change nothing the role sees (all opened by now, say): kept as it is.
    assert board.kept_state_text(game, view, role, {"some-label": 3}) == board.state_text(
        game, view, role
    )
    assert len(list(cache_dir.glob("board-*"))) == 1
    # A view that shows one (its own sealed value): rendered, never written.
    secret = {**view, "hand": ["a sealed card"]}
    text = board.kept_state_text(game_at(61), secret, role, {"x": 1})
    assert text == board.state_text(game_at(61), secret, role)
    assert len(list(cache_dir.glob("board-*"))) == 1


def test_a_changed_template_is_not_trusted(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = game_at(60)
    role = next(iter(game.roles))
    view = board.role_view(game, role, None)
    board.kept_state_text(game, view, role, None)
    assert list(cache_dir.glob("board-*"))
    from pbem import cache as pbem_cache

    template = str(board.templates_dir() / "race-to-berlin" / "state.txt.j2")
    real = pbem_cache.file_state
    monkeypatch.setattr(
        pbem_cache, "file_state", lambda path: None if path == template else real(path)
    )
    calls = _counting(monkeypatch)
    board.kept_state_text(game, view, role, None)
    assert calls == [role]  # rendered again


def _vault(comment: str = "a") -> Vault:
    return Vault(PrivateKey.generate(comment), "g" * 64, "soviet")


def _secret_view(game: Adjudicator, role: str, card: str) -> dict[str, object]:
    return {**board.role_view(game, role, None), "hand": [card]}


def test_a_view_with_the_roles_secrets_is_kept_sealed_under_its_vault(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = game_at(61)
    role = next(iter(game.roles))
    vault = _vault()
    secret = _secret_view(game, role, "a sealed card")
    expected = board.state_text(game, secret, role)
    calls = _counting(monkeypatch)
    assert board.kept_state_text(game, secret, role, {"x": 1}, vault) == expected
    assert board.kept_state_text(game, secret, role, {"x": 1}, vault) == expected
    assert calls == [role]  # the second opened the kept text
    (kept,) = cache_dir.glob("board-*")
    raw = kept.read_bytes()
    assert b"a sealed card" not in raw  # sealed: nothing of the view nor the text in clear
    assert all(line.encode() not in raw for line in expected.splitlines() if len(line) > 12)


def test_a_sealed_board_is_used_only_for_its_view_and_its_key(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = game_at(61)
    role = next(iter(game.roles))
    vault = _vault()
    board.kept_state_text(game, _secret_view(game, role, "card one"), role, {"x": 1}, vault)
    # The role's values changed at the same head: drawn again, for the new view.
    other = _secret_view(game, role, "card two")
    calls = _counting(monkeypatch)
    text = board.kept_state_text(game, other, role, {"x": 2}, vault)
    assert text == board.state_text(game, other, role) and calls[:1] == [role]
    # Another key cannot open it: drawn again (and kept under that key instead).
    calls.clear()
    assert board.kept_state_text(game, other, role, {"x": 2}, _vault("b")) == text
    assert calls[:1] == [role]
    # A damaged kept text: drawn again.
    from pbem import cache as pbem_cache

    key = (game.id, game.head.id, role, board.SEALED_BOARD)
    pbem_cache.put("board", key, pbem_cache.deps_of([__file__]), "vault1:AAAA")
    calls.clear()
    assert board.kept_state_text(game, other, role, {"x": 2}, vault) == text
    assert calls[:1] == [role]
    # Without a vault nothing is read nor written.
    for kept in cache_dir.glob("board-*"):
        kept.unlink()
    assert board.kept_state_text(game, other, role, {"x": 2}) == text
    assert not list(cache_dir.glob("board-*"))
