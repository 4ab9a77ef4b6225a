"""League standings over an archive of finished games (issue 17, "Standings").

Only games that verify count: each file is replayed and checked (`pbem.verify`), and a
file that fails, or holds a game without an outcome, is listed apart with its reason and
counts for nobody. Players are their keys (the SHA256 fingerprint of the public key a
game's genesis names for a role), so one player is the same row across titles and seats.

The rating is Elo, a short formula kept here rather than a package: every player starts at
1500; after a two-player game each player's rating moves by K * (score - expected), with
score 1 for a win, 0.5 for a draw, 0 for a loss, expected = 1 / (1 + 10 ** ((Rb - Ra) / 400))
and K = 32. Games are rated in the order the files are given (a folder: its *.pbem files in
name order), so the standings do not depend on anybody's clock. A solitaire game (one
player, as Barbarossa with a referee) counts a win or a loss but moves no rating. The
referee of a game is never a player. A game its referee ended with a signed forfeit
(pbem.core.referee) counts as a loss for the player who forfeited, in the forfeits
column too, and moves the ratings like any loss: a league that wants otherwise reads the
`forfeited` key of the JSON document.

A double-blind game (pbem.core.blind) counts only on what its log proves (pbem.verdicts):
a player proven to have lied (a false escrow, a claim the referee's disclose shows false,
a false dispute of a deal) loses it, in the `proven` key of the JSON document too; a game
whose referee is proven to have lied (a false deal, a false void), one whose result rests
on someone's word (a void of an escrow that does not open, a deal a player says does not
open), and one over whose referee has not disclosed the values it holds are not rated:
they are listed apart with the reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core.referee import FORFEIT

START = 1500.0
K = 32.0
NOT_PLAYERS = ("referee",)  # roles that witness dice and play no side


@dataclass(frozen=True)
class GameResult:
    """One verified, finished game as the standings read it."""

    source: str
    game: str
    rules: str
    players: Mapping[str, str]  # role -> key fingerprint
    winner: str | None  # the winning role, None for a draw
    forfeited: str | None = None  # the role the referee forfeited, if that ended the game
    proven: str | None = None  # the role the log proves lied, if that ended the game


@dataclass
class Row:
    player: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    forfeits: int = 0  # losses by a referee's forfeit (counted in losses too)
    rating: float = START
    titles: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Standings:
    rows: tuple[Row, ...]  # best rating first, then most wins, then the fingerprint
    counted: tuple[GameResult, ...]
    not_counted: tuple[tuple[str, str], ...]  # (source, why)


def expected(rating: float, other: float) -> float:
    """Elo's expected score of a player rated `rating` against one rated `other`."""
    return float(1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0)))


def standings(
    results: Iterable[GameResult], not_counted: Sequence[tuple[str, str]] = ()
) -> Standings:
    rows: dict[str, Row] = {}
    counted = []
    for result in results:
        counted.append(result)
        players = dict(result.players)
        for role, who in players.items():
            row = rows.setdefault(who, Row(who))
            row.games += 1
            row.titles.add(result.rules)
            if result.forfeited == role:
                row.losses += 1
                row.forfeits += 1
            elif result.winner is None and result.forfeited is None:
                row.draws += 1
            elif result.winner == role:
                row.wins += 1
            else:
                row.losses += 1
        if len(players) == 2 and len(set(players.values())) == 2:
            (role_a, a), (role_b, b) = sorted(players.items())
            score_a = 0.5 if result.winner is None else 1.0 if result.winner == role_a else 0.0
            if result.forfeited is not None:
                score_a = 0.0 if result.forfeited == role_a else 1.0
            ra, rb = rows[a].rating, rows[b].rating
            change = K * (score_a - expected(ra, rb))
            rows[a].rating, rows[b].rating = ra + change, rb - change
    ordered = sorted(rows.values(), key=lambda r: (-round(r.rating, 6), -r.wins, r.player))
    return Standings(tuple(ordered), tuple(counted), tuple(not_counted))


def result_of(source: str, report: Any) -> tuple[GameResult | None, str]:
    """A verification report read as a result, or None and why the game does not count."""
    from pbem.ledger import fingerprint

    verdict = getattr(report, "verdict", "ok" if report.ok else "failed")
    first = (report.failure or "verification failed").partition("\n")[0]
    game = report.game
    proven = None
    if verdict == "not-checked":
        return None, f"not rated, not checked in full: {first}"
    if verdict == "proven":
        settled = game.blind_end if game is not None else None
        if settled is None or settled.culprit not in game.sides:
            return None, f"not rated, the referee is proven to have lied: {first}"
        proven = settled.culprit  # (the outcome makes it lose)
    elif not report.ok:
        return None, f"does not verify: {first}"
    outcome = game.outcome() if game is not None else None
    if game is None or outcome is None:
        return None, "the game is not finished"
    players = {
        role: fingerprint(line)
        for role, line in game.roles.items()
        if role not in NOT_PLAYERS and role in game.engine.roles
    }
    forfeited = None
    if outcome.level == FORFEIT:  # (its score: 0 for the side that forfeited)
        forfeited = next(
            (r for r, score in outcome.score.items() if score == 0 and r != outcome.winner), None
        )
    result = GameResult(
        source, game.id, game.engine.name, players, outcome.winner, forfeited, proven
    )
    return result, ""


def document(found: Standings) -> dict[str, Any]:
    """`pbem standings --json`: the table, the games counted and those left out."""
    return {
        "rating": {"system": "elo", "start": START, "k": K},
        "standings": [
            {
                "player": row.player,
                "games": row.games,
                "wins": row.wins,
                "losses": row.losses,
                "draws": row.draws,
                "forfeits": row.forfeits,
                "rating": round(row.rating, 1),
                "titles": sorted(row.titles),
            }
            for row in found.rows
        ],
        "counted": [
            {
                "file": r.source,
                "game": r.game,
                "rules": r.rules,
                "players": dict(r.players),
                "winner": r.winner,
                "forfeited": r.forfeited,
                "proven": r.proven,
            }
            for r in found.counted
        ],
        "not_counted": [{"file": s, "why": why} for s, why in found.not_counted],
    }


def lines(found: Standings) -> list[str]:
    """The standings as text: one row per player, then the files left out."""
    out = [
        f"{'player':<52} {'games':>5} {'won':>4} {'lost':>4} {'drawn':>5} {'forfeit':>7} "
        f"{'rating':>7}"
    ]
    for row in found.rows:
        out.append(
            f"{row.player:<52} {row.games:>5} {row.wins:>4} {row.losses:>4} {row.draws:>5} "
            f"{row.forfeits:>7} {row.rating:>7.1f}"
        )
    out.append(f"{len(found.counted)} game(s) counted, Elo from {START:.0f} with K={K:.0f}")
    for source, why in found.not_counted:
        out.append(f"not counted: {source}: {why}")
    return out
