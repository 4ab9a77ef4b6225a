"""The summary's turn header and its "Waiting for" line always agree (issue 12).

For every title's demo save, cut at many places, the turn the header names is the turn
the waiting prompt names whenever the prompt names one (Barbarossa's header once said
"after turn 5" at the start of turn 5; tests/games/barbarossa/test_barbarossa_summary.py
checks its own wording at every position).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.core.adjudicator import Adjudicator
from pbem.ledger import check_signature, data_source, engine_by_name
from pbem.render.summary import render_summary
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_text

SAVES = Path(__file__).resolve().parents[2] / "saves"


@pytest.mark.parametrize("title", ["barbarossa", "race-to-berlin", "berlin-1945"])
def test_the_turn_header_and_the_waiting_line_agree(title: str) -> None:
    entries = parse_entries((SAVES / f"{title}-demo.pbem").read_text())
    cuts = range(4, len(entries) + 1, 9)
    # The game at each cut is the one verifying that many entries gives: the log is
    # verified once, whole, and its prefixes are the one game applied entry by entry as
    # they arrive (Adjudicator.apply: the same results with or without the next entry
    # at hand), instead of verifying each prefix from its genesis again (the same
    # signatures checked some fifty times over). The last cut's game is also verified
    # on its own and must show the same summary.
    assert verify_text(move_file(entries)).ok
    game = Adjudicator.start(entries[0], engine_by_name, data_source(), check_signature)
    compared = 0
    text = ""
    for n, entry in enumerate(entries[1:], start=2):
        game.apply(entry)
        if n not in cuts:
            continue
        text = render_summary(game, None, "text", None)
        waiting = [line for line in text.splitlines() if line.startswith("Waiting for:")]
        headers = re.findall(r"^== Turn (\d+) ==$", text, flags=re.MULTILINE)
        if not waiting or not headers:
            continue
        said = re.search(r"\bturn (\d+)\b", waiting[0], flags=re.IGNORECASE)
        if said is None:
            continue
        compared += 1
        assert headers[-1] == said.group(1), f"cut {n}: == Turn {headers[-1]} == vs {waiting[0]}"
    assert compared >= 5, "the demo's prompts name their turn: some positions must be compared"
    verified = verify_text(move_file(entries[: cuts[-1]])).game
    assert verified is not None
    assert render_summary(verified, None, "text", None) == text
