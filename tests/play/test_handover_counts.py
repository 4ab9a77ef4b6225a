"""Handovers that need a person (bench/handover_counts.py; bench/handovers.py prints the figures):
automatic answers cut them without changing what a game is, on seeded bot games."""

from __future__ import annotations

from bench.handover_counts import play_counted


def test_race_to_berlin_needs_a_person_at_least_three_times_less_often() -> None:
    off = [play_counted("race-to-berlin", seed, auto=False)[0] for seed in (1, 2, 3, 4)]
    on = [play_counted("race-to-berlin", seed, auto=True)[0] for seed in (1, 2, 3, 4)]
    assert all(c.person_mails == c.mails and c.automatic_entries == 0 for c in off)
    per_turn_off = sum(c.per_turn for c in off) / len(off)
    per_turn_on = sum(c.per_turn for c in on) / len(on)
    assert per_turn_off >= 3 * per_turn_on, (per_turn_off, per_turn_on)
    assert per_turn_on <= 25, per_turn_on  # issue 14's figure for Race to Berlin
    for count in on:
        assert 0 < count.person_mails < count.mails
        assert count.automatic_entries > count.entries // 3


def test_every_title_saves_handovers_and_still_ends() -> None:
    for rules in ("barbarossa", "berlin-1945"):
        on, table = play_counted(rules, 5, auto=True)
        off, _ = play_counted(rules, 5, auto=False)
        assert table.game.outcome() is not None
        assert on.person_mails < off.person_mails


def test_race_to_the_sea_answers_its_forced_steps_without_a_person() -> None:
    # the only choices, acknowledgements and the bot's standing orders (combat reactions)
    on, table = play_counted("race-to-the-sea", 5, auto=True)
    assert table.game.outcome() is not None
    assert on.automatic_entries >= 20  # at least the 20 unseen discards (7.2.A)
    assert on.person_mails < on.mails
