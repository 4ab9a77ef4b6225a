"""Every save in saves/ must keep verifying: formats are promises.

A change to the protocol, the armor, an engine or a data file that breaks an
old save fails here. Saves are named after their game (`<rules>-....pbem`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.verify import verify_text
from tests.independent import section7_reader

SAVES = sorted((Path(__file__).resolve().parents[1] / "saves").glob("*.pbem"))


@pytest.mark.parametrize(
    "name",
    [
        "barbarossa-demo.pbem",
        "race-to-berlin-demo.pbem",
        "berlin-1945-demo.pbem",
        "race-to-the-sea-demo.pbem",
        "gotterdammerung-demo.pbem",
    ],
)
def test_the_demo_saves_are_there(name: str) -> None:
    assert any(p.name == name for p in SAVES)


@pytest.mark.parametrize("save", SAVES, ids=lambda p: p.name)
def test_save_verifies_completely(save: Path) -> None:
    text = save.read_text(encoding="utf-8")
    report = verify_text(text)
    assert report.ok, report.failure
    game = report.game
    assert game is not None
    assert save.name.startswith(game.engine.name + "-")
    assert game.outcome() is not None, "a sample save holds a complete game"
    assert "RNG log:" in report.text()
    independent = section7_reader.check_save(text)
    assert independent.ok, str(independent)


@pytest.mark.parametrize("save", SAVES, ids=lambda p: p.name)
def test_a_save_quoted_in_a_reply_still_verifies(save: Path) -> None:
    quoted = "".join(f"> {line}\r\n" for line in save.read_text(encoding="utf-8").splitlines())
    assert verify_text("On Sunday, the German player wrote:\r\n" + quoted).ok


@pytest.mark.parametrize("save", SAVES, ids=lambda p: p.name)
def test_a_save_with_one_changed_roll_is_refused(save: Path) -> None:
    lines = save.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("rng "))
    words = lines[index].split(" ")
    words[4] = str(int(words[4]) % 6 + 1)  # another die face
    lines[index] = " ".join(words)
    report = verify_text("\n".join(lines) + "\n")
    assert not report.ok
    assert report.failure is not None and "RNG log line 1" in report.failure
