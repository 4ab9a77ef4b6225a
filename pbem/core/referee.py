"""What a referee adds to any game: it witnesses every player's dice, and where the
genesis sets a deadline it may end the game with a signed forfeit (issue 17).

Engine-independent, like pbem.core.meta: the adjudicator handles these before and after
the engine, and no engine ever sees them.

* The `referee` role. Any title's genesis may name one (Barbarossa's engine lists it
  already). It plays no side: the engine never asks it, it never resigns or offers a
  draw. When a game has a referee, the referee's next entry rolls every other role's
  dice (protocol section 4: the "different role F"), so an unattended referee that
  acknowledges at once resolves dice in one mail round trip. Without a referee, a role's
  dice are rolled by the next entry of the first other role in join order, as before.
* League options (`LEAGUE_OPTIONS`), signed into the genesis's `options` beside the
  game's own but never passed to its engine. `deadline_hours`: how long each player has
  for each entry it owes, counted from when the referee saw the entry before it. A game
  with a deadline must name a referee. `double_blind: true`: the referee holds every
  player's sealed values (pbem.core.blind); it too needs a referee.
* The `forfeit` entry, signed by the referee only, in a game with a deadline only, while
  a player (not the referee, not a joiner) is the one asked and no dice wait. Its body:

      {"forfeit": ROLE, "waited_on": {"seq": N, "id": HEX},
       "since": TIME, "deadline": TIME, "seen": TIME, "note": TEXT (optional)}

  TIME is UTC written exactly `YYYY-MM-DDTHH:MM:SSZ`. The verifier checks that ROLE is
  the role asked at the head, that `waited_on` is the head, that `deadline` is `since`
  plus the deadline, that `seen` is not before it, and that `since` is not before the
  game's start: the genesis's `created` time, when it has one (a game made before that
  field has no start to compare with). The times themselves are the referee's word:
  nothing in a log can prove when a mail arrived (docs/referee.md); the referee's own
  join vouches for `created`, since its client refuses to join a game created in its
  future. ROLE's side loses; the game is over.
* `created`, in a genesis (optional): when the game was made, a TIME as above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.canonical import JSON
from pbem.core.engine import Outcome
from pbem.core.hashing import is_lower_hex
from pbem.errors import PbemError
from pbem.hints import TYPE_CHECKING
from pbem.lazy import lazy_module, lazy_pattern

if TYPE_CHECKING:
    from datetime import datetime

# Times are read only from a forfeit, a deadline or a creation time, which a genesis of a
# game without a deadline has none of: its `pbem verify` does not load the module.
_dt = lazy_module("datetime")

REFEREE = "referee"
FORFEIT = "forfeit"  # the entry kind
DEADLINE = "deadline_hours"
DOUBLE_BLIND = "double_blind"  # the referee holds every player's secrets (pbem.core.blind)
LEAGUE_OPTIONS = frozenset({DEADLINE, DOUBLE_BLIND})
DEADLINE_MAX = 24 * 366  # hours: a year, far beyond any league's
FORFEIT_FIELDS = frozenset({"forfeit", "waited_on", "since", "deadline", "seen", "note"})
CREATED = "created"  # a genesis body field: when the game was made (a TIME)
_TIME = lazy_pattern(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def engine_options(options: Mapping[str, JSON]) -> dict[str, JSON]:
    """The options the game's engine sees: every option but the league's."""
    return {name: value for name, value in options.items() if name not in LEAGUE_OPTIONS}


def deadline_hours(options: Mapping[str, JSON], roles: Mapping[str, str]) -> int | None:
    """The deadline a genesis sets (None: no deadline, no forfeits), else PbemError."""
    if DEADLINE not in options:
        return None
    hours = options[DEADLINE]
    if not isinstance(hours, int) or isinstance(hours, bool) or not 1 <= hours <= DEADLINE_MAX:
        raise PbemError(f"{DEADLINE} must be a whole number of hours from 1 to {DEADLINE_MAX}")
    if REFEREE not in roles:
        raise PbemError(f"{DEADLINE} needs a referee: name a {REFEREE!r} role in the game")
    return hours


def double_blind(options: Mapping[str, JSON], roles: Mapping[str, str]) -> bool:
    """Whether a genesis makes the game double-blind (pbem.core.blind), else PbemError."""
    if DOUBLE_BLIND not in options:
        return False
    if options[DOUBLE_BLIND] is not True:
        raise PbemError(f"{DOUBLE_BLIND} is true or absent")
    if REFEREE not in roles:
        raise PbemError(f"{DOUBLE_BLIND} needs a referee: name a {REFEREE!r} role in the game")
    return True


def check_engine_options(
    engine_options: Mapping[str, JSON], needing_blind: frozenset[str], blind: bool
) -> None:
    """Refuse an engine option that only a double-blind game can play (an engine's
    `double_blind_options`) in a game that is not one."""
    needs = sorted(name for name in engine_options if name in needing_blind)
    if needs and not blind:
        raise PbemError(
            f"option {needs[0]} needs a referee who holds every secret: --option "
            f"{DOUBLE_BLIND}=true and a {REFEREE!r} role"
        )


def witness(author: str, join_order: Sequence[str]) -> str:
    """The role whose next entry rolls the dice an entry of `author` waits for: the
    referee when the game has one (and `author` is not it), else the first other role in
    join order (the author itself in a one-role game: self-witnessed)."""
    if REFEREE in join_order and author != REFEREE:
        return REFEREE
    return next((role for role in join_order if role != author), author)


def format_time(moment: datetime) -> str:
    return moment.astimezone(_dt.UTC).strftime(TIME_FORMAT)


def parse_time(text: JSON, field: str, what: str = "forfeit") -> datetime:
    """A forfeit's time, written exactly YYYY-MM-DDTHH:MM:SSZ (UTC), else PbemError."""
    if not isinstance(text, str) or not _TIME.fullmatch(text):
        raise PbemError(f"{what} {field} must be a UTC time written YYYY-MM-DDTHH:MM:SSZ")
    try:
        return _dt.datetime.strptime(text, TIME_FORMAT).replace(tzinfo=_dt.UTC)
    except ValueError:
        raise PbemError(f"{what} {field} {text} is not a date and time") from None


def created_time(body: Mapping[str, JSON]) -> datetime | None:
    """When a genesis says its game was made (None: a genesis without the field), else
    PbemError for a time not written as a forfeit writes one."""
    if CREATED not in body:
        return None
    return parse_time(body[CREATED], CREATED, "genesis")


def check_forfeit(
    body: Mapping[str, JSON],
    hours: int | None,
    head: tuple[int, str],
    asked: str | None,
    sides: Sequence[str],
    start: datetime | None = None,
) -> Outcome:
    """The end a referee's forfeit entry signs, checked against the game: `hours` its
    deadline, `head` the (seq, id) of the entry before it, `asked` the role the game
    waits for, `start` when the game was made (its genesis's `created`, if any).
    PbemError (one line) for a forfeit the rules refuse."""
    if hours is None:
        raise PbemError(f"this game sets no deadline ({DEADLINE}): nobody can forfeit it")
    unknown = set(body) - FORFEIT_FIELDS
    if unknown:
        raise PbemError(f"a forfeit carries no {', '.join(sorted(unknown))}")
    role = body.get("forfeit")
    if asked is None or asked == REFEREE or asked not in sides:
        raise PbemError("no player is asked for an entry now: nobody can forfeit")
    if role != asked:
        raise PbemError(f"the game waits for {asked}, not {role}: only {asked} can forfeit")
    waited = body.get("waited_on")
    if (
        not isinstance(waited, dict)
        or set(waited) != {"seq", "id"}
        or waited["seq"] != head[0]
        or not isinstance(waited["id"], str)
        or len(waited["id"]) != 64
        or not is_lower_hex(waited["id"])
        or waited["id"] != head[1]
    ):
        raise PbemError(
            f"a forfeit names the entry it waited on, the head: seq {head[0]}, id {head[1][:12]}"
        )
    since = parse_time(body.get("since"), "since")
    deadline = parse_time(body.get("deadline"), "deadline")
    seen = parse_time(body.get("seen"), "seen")
    if deadline != since + _dt.timedelta(hours=hours):
        raise PbemError(
            f"forfeit deadline {body['deadline']} is not {hours} h after {body['since']}"
        )
    if seen < deadline:
        raise PbemError(
            f"forfeit issued before its deadline: seen {body['seen']}, deadline {body['deadline']}"
        )
    if start is not None and since < start:
        raise PbemError(
            f"forfeit since {body['since']} is before the game was made ({format_time(start)}, "
            "its genesis): no clock runs before the game"
        )
    others = [side for side in sides if side != role]
    winner = others[0] if len(others) == 1 else None
    return Outcome(
        winner,
        FORFEIT,
        {side: int(side == winner) for side in sides},
        f"{role} forfeited: no entry after entry {head[0]} by the deadline {body['deadline']} "
        f"({hours} h; the referee's clock)" + (f": {winner} wins" if winner else ""),
    )
