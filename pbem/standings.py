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

What counts (issue 27, item 8; `league`): one game counts once, by its game id, whatever
file, copy or mailbox it comes from (the first one given; each other copy is listed as
not counted, with where it was counted). Mailboxes (an mbox file, a Maildir folder) are
read as `pbem verify` reads them, one result per game (`source_results`). A league that
gives a roster (`--players FILE`, `read_roster`) counts only games whose every player's
key is on it: anyone can make keys and games that resign at once, and without a roster
the standings count them like any other. The referee of a game is no player and is not
looked up.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
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


# --- what counts: one game once, a roster, mailboxes ------------------------------------------

# (source, its result or None, why it does not count): one item per file or mailbox game.
Found = tuple[str, GameResult | None, str]

ROSTER_BYTES = 1024 * 1024  # a roster is one line per player: a larger file is not one
_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")


@dataclass(frozen=True)
class Roster:
    """The players' keys a league counts (`--players FILE`), as SHA256 fingerprints."""

    source: str
    fingerprints: frozenset[str]

    def missing(self, result: GameResult) -> str | None:
        """Why `result` does not count (a player not on the roster), or None."""
        off = [
            f"{who} ({role})"
            for role, who in sorted(result.players.items())
            if who not in self.fingerprints
        ]
        if not off:
            return None
        return f"not on the roster {self.source}: " + ", ".join(off)


def parse_roster(text: str, source: str) -> Roster:
    """A roster's text: per line one OpenSSH public-key line (`ssh-ed25519 AAAA...
    [comment]`) or one SHA256 fingerprint (`SHA256:...` as `pbem standings` prints it,
    or a line of `ssh-keygen -l`; text after it is ignored); blank lines and lines
    starting with `#` are comments. Any other line is refused, with its number."""
    from pbem.crypto.keys import PublicKey
    from pbem.errors import PbemError

    found: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        # (`ssh-keygen -l` prints the key's size first: `256 SHA256:... comment (ED25519)`)
        first = words[1] if words[0].isdigit() and len(words) > 1 else words[0]
        try:
            if first == "ssh-ed25519":
                found.add(str(PublicKey.parse_line(line).fingerprint()))
                continue
            if _FINGERPRINT.fullmatch(first) and len(base64.b64decode(first[7:] + "=")) == 32:
                found.add(first)
                continue
        except (PbemError, binascii.Error) as exc:
            raise PbemError(f"roster {source} line {number}: {exc}") from None
        raise PbemError(
            f"roster {source} line {number}: not a public-key line (ssh-ed25519 AAAA...) "
            "nor a SHA256 fingerprint (SHA256:...)"
        )
    if not found:
        raise PbemError(f"roster {source} names no player (one key or fingerprint a line)")
    return Roster(source, frozenset(found))


def read_roster(path: str) -> Roster:
    """`parse_roster` of a file, refused over ROSTER_BYTES or not UTF-8."""
    from pbem.errors import PbemError

    try:
        with open(path, "rb") as stream:
            data = stream.read(ROSTER_BYTES + 1)
    except OSError as exc:
        raise PbemError(f"cannot read roster {path}: {exc.strerror or exc}") from None
    if len(data) > ROSTER_BYTES:
        raise PbemError(f"roster {path} is over {ROSTER_BYTES // 1024} KiB: not a roster")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PbemError(f"roster {path} is not UTF-8 text") from None
    return parse_roster(text, path)


def source_results(paths: Iterable[str]) -> Iterator[Found]:
    """Each file's result, and each game's of a mailbox (an mbox file, a Maildir folder),
    verified as `pbem verify` verifies them (pbem.verify), in the order given."""
    from pbem.errors import PbemError
    from pbem.verify import (
        mail_game_label,
        mailbox_games,
        mailbox_kind,
        verify_mail_game,
        verify_path,
    )

    for path in paths:
        kind = mailbox_kind(path)
        if kind is None:
            yield _result(path, partial(verify_path, path))
            continue
        try:
            games = list(mailbox_games(path, kind))
        except (PbemError, OSError) as exc:
            yield path, None, f"cannot read {kind} {path}: {exc}"
            continue
        for game in games:
            yield _result(mail_game_label(game), partial(verify_mail_game, game))


def _result(source: str, verify: Callable[[], Any]) -> Found:
    from pbem.errors import PbemError

    try:
        result, why = result_of(source, verify())
    except PbemError as exc:
        result, why = None, str(exc).partition("\n")[0]
    return source, result, why


def league(found: Iterable[Found], roster: Roster | None = None) -> Standings:
    """The standings of what the sources gave, in order: a result that does not count is
    listed with why; one game (by id) counts once, from its first copy; with a roster,
    only games whose every player is on it count."""
    counted: list[GameResult] = []
    left_out: list[tuple[str, str]] = []
    first: dict[str, GameResult] = {}
    for source, result, why in found:
        if result is None:
            left_out.append((source, why))
            continue
        off = roster.missing(result) if roster is not None else None
        if off is not None:
            left_out.append((source, off))
            continue
        earlier = first.get(result.game)
        if earlier is not None:
            left_out.append((source, _counted_once(result, earlier)))
            continue
        first[result.game] = result
        counted.append(result)
    return standings(counted, left_out)


def _counted_once(copy: GameResult, earlier: GameResult) -> str:
    why = f"game {copy.game[:12]} counts once: already counted from {earlier.source}"
    if (copy.winner, copy.forfeited) != (earlier.winner, earlier.forfeited):
        # Two verified logs of one game that end otherwise: someone signed two branches.
        # The first given counts, and the league is told to look.
        why += (
            f"; this copy's result differs (winner {copy.winner or 'none'}, there "
            f"{earlier.winner or 'none'}): two logs of one game, look at both "
            "(pbem evidence FILE FILE)"
        )
    return why


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
