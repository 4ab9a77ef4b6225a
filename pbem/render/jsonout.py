"""The JSON documents of `--json` (`pbem show`, `pbem new`, `pbem verify`), for scripts.

Every document is one JSON object with `"schema": SCHEMA` first and a fixed set of
keys (docs/json.md); a key whose value is not known is null, never left out. Commands
build a document with the functions here and print it with `dumps`, and nothing else
goes to stdout. The text is ASCII only (json escapes every other character, control
characters included), so a title or a role name from a game's log cannot reach a
terminal as a control sequence.

What one role's document holds comes from what that role may know: its view of the
state (`role_view`), the public prompts and log head, and its own sealed values; never
the stored state itself (see tests/cli/test_json.py, which changes the other side's
secrets and finds the document byte-identical).

Imports stay inside the functions: `pbem verify --json FILE` is answered without click
(pbem.cli), and this module must not slow it.
"""

from __future__ import annotations

# (mypy reads the block below; Python never runs it: see pbem.cli)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any, NoReturn

    from pbem.client import Client
    from pbem.core.adjudicator import Adjudicator
    from pbem.core.engine import Outcome
    from pbem.core.log import Entry
    from pbem.render.board import Asked
    from pbem.verify import Report

# The version of every document's layout: a key is added without changing it; a key that
# is removed, renamed or changes meaning makes it 2.
SCHEMA = 1


def dumps(document: Mapping[str, Any]) -> str:
    """The document as printed: indented, keys in their fixed order, ASCII only."""
    import json

    return json.dumps(document, indent=2, ensure_ascii=True)


def _entries_word(count: int) -> str:
    return f"entr{'y' if count == 1 else 'ies'}"


# --- pbem show ------------------------------------------------------------------------------


def outcome_document(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "winner": outcome.winner,
        "level": outcome.level,
        "score": dict(outcome.score),
        "text": outcome.text,
    }


def asked_document(game: Adjudicator, asked: Asked | None) -> dict[str, Any] | None:
    """What is asked of one of this store's roles: its prompt, the notes, and the choices
    numbered as `pbem move GAME N` takes them; null when nothing is."""
    if asked is None:
        return None
    short = game.id[:12]
    prompt = next((p.text for p in game.prompts() if p.role == asked.role), None)
    if asked.choices:
        action, command = "move", f"pbem move {short} N"
    elif game.started:
        action, command = "ack", f"pbem ack {short}"
    else:
        action, command = "join", f"pbem join {short}"
    return {
        "role": asked.role,
        "action": action,
        "command": command,
        "prompt": prompt,
        "notes": list(asked.notes),
        "choices": [
            {"number": number, "text": text} for number, text in enumerate(asked.choices, 1)
        ],
    }


def game_document(
    game: Adjudicator,
    viewer: str | None,
    mine: list[str],
    known: Mapping[str, Any] | None,
    asked: Asked | None,
) -> dict[str, Any]:
    """One game as `viewer` (a role, or None: the public) sees it, in a store that holds
    the roles `mine`: `known` is the viewer's own sealed values (None unless it is ours),
    `asked` what is asked of one of ours (pbem.render.show.asked_of)."""
    from pbem.ledger import fingerprint
    from pbem.render.page import role_view  # (a test replaces it there)
    from pbem.render.show import joins

    engine = game.engine
    view = role_view(game, viewer, known)
    turn = view.get("turn") if isinstance(view, dict) else None
    outcome = game.outcome()
    joined, to_join = joins(game)
    head = game.head
    waiting = [] if outcome is not None else game.prompts()
    return {
        "schema": SCHEMA,
        "game": game.id,
        "short": game.id[:12],
        "rules": engine.name,
        "rules_version": engine.version,
        "title": str(game.genesis.body.get("title") or engine.title),
        "view_of": viewer,
        "roles": [
            {"role": role, "fingerprint": fingerprint(line), "yours": role in mine}
            for role, line in game.roles.items()
        ],
        "your_roles": [role for role in game.roles if role in mine],
        "self_witnessed": game.self_witnessed,
        "started": game.started,
        "joined": joined,
        "to_join": to_join,
        "turn": turn if isinstance(turn, int | str) else None,
        "waiting_for": [{"role": p.role, "prompt": p.text} for p in waiting],
        "next_signer": None if outcome is not None else game.next_signer(),
        "dice_waiting": game.waiting_for_entropy,
        "asked": asked_document(game, asked),
        "over": outcome is not None,
        "outcome": outcome_document(outcome),
        "head": {"seq": head.seq, "id": head.id, "by": head.by},
    }


def show_document(client: Client, game: Adjudicator, role: str | None) -> dict[str, Any]:
    """`pbem show GAME --json`: the game as `role` (default: this store's first role)
    sees it, with what is asked of it (of the first of ours asked, no role named)."""
    from pbem.errors import PbemError
    from pbem.render.show import asked_of

    mine = client.my_roles(game)
    viewer = role or (mine[0] if mine else None)
    if viewer is not None and viewer not in game.roles:
        raise PbemError(f"this game has no role {viewer!r}")
    known = client.known(game.id, viewer) if viewer in mine else None
    asked = asked_of(client, game, role if role in mine else None)
    if role is not None and role not in mine:
        asked = None  # another side's view: nothing of ours is asked in it
    return game_document(game, viewer, mine, known, asked)


def games_document(client: Client) -> dict[str, Any]:
    """`pbem show --json` with no game: every stored game as `show_document` gives it
    (without its own schema key), one that cannot be read with its error, and the
    invitations `pbem mail fetch` holds."""
    from pbem.errors import PbemError

    games: list[dict[str, Any]] = []
    for row in client.game_rows():
        try:
            document = show_document(client, client.game(row["id"]), None)
        except PbemError as exc:
            games.append(
                {
                    "game": str(row["id"]),
                    "short": str(row["id"])[:12],
                    "rules": str(row["rules"]),
                    "title": str(row["title"]),
                    "error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
                }
            )
            continue
        del document["schema"]
        games.append(document)
    return {
        "schema": SCHEMA,
        "store": str(client.home.resolve()),
        "games": games,
        "invitations": _invitations(client),
    }


def _invitations(client: Client) -> list[dict[str, Any]]:
    from pbem.inbox import Inbox
    from pbem.ledger import replay

    inbox = Inbox(client)
    found = []
    for genesis in inbox.invitations():
        error: str | None = None
        text: str | None = None
        try:
            text = inbox.describe(replay([genesis]))
        except Exception as exc:  # (PbemError: a game this store cannot play)
            from pbem.errors import PbemError

            if not isinstance(exc, PbemError):
                raise
            error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        found.append(
            {
                "game": genesis.id,
                "short": genesis.id[:12],
                "text": text,
                "error": error,
                "command": f"pbem join {genesis.id[:12]}",
            }
        )
    return found


# --- pbem new -------------------------------------------------------------------------------


def new_document(
    game_id: str,
    keys: Mapping[str, str],
    creator: str,
    entries: list[Entry],
    output: str | None,
) -> dict[str, Any]:
    """`pbem new --json`: the new game (from its genesis, `entries[0]`), the key of each
    role (`keys`: role -> key name in this store), the entries signed, and the move file
    written (-o), else the move file's text itself."""
    from pbem.ledger import fingerprint
    from pbem.transport.savefile import move_file

    body = entries[0].body
    lines = body["roles"]
    assert isinstance(lines, dict)  # (a genesis this store just signed)
    return {
        "schema": SCHEMA,
        "game": game_id,
        "short": game_id[:12],
        "rules": body.get("rules"),
        "rules_version": body.get("rules_version"),
        "title": body.get("title"),
        "roles": [
            {"role": role, "key": name, "fingerprint": fingerprint(str(lines[role]))}
            for role, name in keys.items()
        ],
        "creator": creator,
        "entries": [
            {"seq": entry.seq, "id": entry.id, "by": entry.by, "kind": entry.kind}
            for entry in entries
        ],
        "move_file": output,
        "move_text": None if output else move_file(entries),
    }


# --- pbem move, pbem apply ------------------------------------------------------------------


def entry_document(entry: Entry, automatic: str | None = None) -> dict[str, Any]:
    """One entry this store signed: what it says, and why no person was asked (`null`:
    a person decided)."""
    decision = entry.body.get("decision") if entry.kind == "move" else None
    return {
        "seq": entry.seq,
        "id": entry.id,
        "by": entry.by,
        "kind": entry.kind,
        "decision": decision,
        "automatic": automatic,
    }


def next_document(client: Client, game: Adjudicator) -> dict[str, Any]:
    """What the game waits for now, from this store's point of view."""
    signer = game.next_signer() if game.outcome() is None else None
    prompts = [p.text for p in game.prompts() if p.role == signer] if signer else []
    return {
        "signer": signer,
        "yours": signer is not None and signer in client.my_roles(game),
        "prompt": prompts[0] if prompts else None,
        "outcome": outcome_document(game.outcome()),
    }


def move_document(
    client: Client,
    game: Adjudicator,
    signed: list[tuple[Entry, str | None]],
    private: str | None,
    batch: list[Entry],
    output: str | None,
) -> dict[str, Any]:
    """`pbem move --json` / `pbem ack --json`: the entries signed (the person's, then the
    automatic answers), the owner's own sealed text (`private`), the move file."""
    from pbem.transport.savefile import move_file

    return {
        "schema": SCHEMA,
        "game": game.id,
        "short": game.id[:12],
        "signed": [entry_document(entry, why) for entry, why in signed],
        "private": private,
        "move_file": output,
        "move_seqs": [entry.seq for entry in batch],
        "move_text": None if output or not batch else move_file(batch),
        "next": next_document(client, game),
    }


def apply_document(
    client: Client,
    results: list[tuple[str, Entry]],
    games: list[tuple[Adjudicator, list[tuple[Entry, str]], list[Entry]]],
    output: str | None,
) -> dict[str, Any]:
    """`pbem apply --json`: each entry found and what became of it; per game, the
    automatic answers signed, the entries of ours to send back, and what comes next."""
    return {
        "schema": SCHEMA,
        "entries": [
            {
                "game": entry.id if entry.seq == 0 else entry.game,
                "seq": entry.seq,
                "by": entry.by,
                "kind": entry.kind,
                "status": status,
            }
            for status, entry in results
        ],
        "games": [
            {
                "game": game.id,
                "short": game.id[:12],
                "automatic": [entry_document(entry, why) for entry, why in answered],
                "to_send": [entry.seq for entry in waiting],
                "next": next_document(client, game) if game.started else None,
            }
            for game, answered, waiting in games
        ],
        "move_file": output,
    }


# --- pbem verify ----------------------------------------------------------------------------


def report_document(source: str, report: Report) -> dict[str, Any]:
    """One file's verification: ok, the failure's first line, and what was replayed."""
    from pbem import verdicts
    from pbem.ledger import fingerprint

    failure: str | None = None
    detail: str | None = None
    if not report.ok:
        first, _, rest = (report.failure or "verification failed").partition("\n")
        failure, detail = first, rest or None
    game = report.game
    document = file_document(source, report.ok, failure, None if report.ok else report.cheat)
    document["verdict"] = report.verdict
    document["detail"] = detail  # an equivocation proof, in full
    bad = report.bad
    if bad is not None and not report.ok:
        document["bad_entry"] = {"seq": bad.seq, "by": bad.by, "id": bad.id, "kind": bad.kind}
    # (an outsider's noise: copies whose signature fails beside one that verifies)
    document["set_aside"] = [
        {"seq": seq, "copies": count} for seq, count in report.set_aside.items()
    ]
    if game is None:
        return document
    count = getattr(game, "entry_count", None)  # (a lean adjudicator counts, keeps none)
    outcome = game.outcome()
    document.update(
        game=game.id,
        rules=game.engine.name,
        rules_version=game.engine.version,
        title=str(game.genesis.body.get("title") or game.engine.title),
        players={role: fingerprint(line) for role, line in sorted(game.roles.items())},
        entries=count if isinstance(count, int) else len(game.entries),
        draws=game.rng_count,
        self_witnessed=game.self_witnessed,
        witnesses=[
            {"role": role, "witness": witness, "fingerprint": fingerprint(game.roles[witness])}
            for role, witness in game.witnesses()
        ],
        outcome=outcome_document(outcome),
        # (an unfinished game, one ended by an agreement or a forfeit, or whose referee
        # has not disclosed, may leave values sealed: listed, as verify lists them)
        unchecked=game.unchecked() if verdicts.unchecked_why(game) is not None else [],
    )
    return document


def file_document(
    source: str, ok: bool, error: str | None, cheat: str | None = None
) -> dict[str, Any]:
    """A file's verification before anything is known of its game (every key present).
    `cheat`: the failure's name (pbem.failures), from `error` when not given."""
    if error is not None and cheat is None:
        from pbem.failures import classify

        cheat = classify(error)
    return {
        "file": source,
        "ok": ok,
        "verdict": "ok" if ok else "failed",
        "error": error,
        "detail": None,
        "cheat": cheat,
        "bad_entry": None,
        "set_aside": [],
        "game": None,
        "rules": None,
        "rules_version": None,
        "title": None,
        "players": {},
        "entries": None,
        "draws": None,
        "self_witnessed": None,
        "witnesses": [],
        "outcome": None,
        "unchecked": [],
    }


def verify_one(task: tuple[Any, ...]) -> dict[str, Any]:
    """Verify one file (`given`: its bytes, read from stdin) or one game of a mailbox
    (a 4th item, pbem.verify.MailGame) into its document; module level so that a worker
    process of `pbem verify --jobs` can run it."""
    from pbem.errors import PbemError
    from pbem.ledger import cold_engine_by_name
    from pbem.verify import verify_mail_game, verify_path, verify_text

    source, given, files = task[:3]
    mail = task[3] if len(task) > 3 else None
    try:
        if mail is not None:
            report = verify_mail_game(mail, files, cold_engine_by_name)
        elif given is not None:
            report = verify_text(given, files)
        else:
            report = verify_path(source, files, cold_engine_by_name)
    except PbemError as exc:
        return file_document(source, False, str(exc).splitlines()[0] if str(exc) else "failed")
    return report_document(source, report)


def verify_document(documents: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "ok": all(d["ok"] for d in documents),
        "files": documents,
    }


def stream_verify(
    documents: Iterable[dict[str, Any]],
    write: Callable[[str], None],
    fail: Callable[[str], NoReturn],
) -> None:
    """`print_verify` for documents that come one at a time (an archive of thousands of
    games): the same bytes, without holding every document at once.

    The document's `ok` comes before `files` and is known only at the end, so each file's
    record is written to a temporary file as it comes, then the whole is copied out."""
    import shutil
    import tempfile

    from pbem.escape import terminal_line

    count, failed, first_error = 0, 0, ""
    with tempfile.TemporaryFile("w+", encoding="ascii") as spool:
        for document in documents:
            if count:
                spool.write(",\n")
            # A record sits two levels deep in the whole document: 4 spaces more per line.
            spool.write("    " + dumps(document).replace("\n", "\n    "))
            count += 1
            if not document["ok"]:
                failed += 1
                first_error = first_error or str(document["error"])
        head = dumps({"schema": SCHEMA, "ok": not failed, "files": []})
        if not count:
            write(head + "\n")
        else:
            write(head.removesuffix("[]\n}") + "[\n")
            spool.seek(0)
            shutil.copyfileobj(spool, _Writer(write))
            write("\n  ]\n}\n")
    if not failed:
        return
    if count == 1:
        fail(terminal_line(first_error))
    fail(f"{failed} of {count} files failed verification")


class _Writer:
    """A file-like `write` for shutil.copyfileobj."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write


def print_verify(
    documents: list[dict[str, Any]],
    echo: Callable[[str], None],
    fail: Callable[[str], NoReturn],
) -> None:
    """Print `pbem verify --json`'s document; then, if a file failed, its one error line
    (exit 1) as `pbem verify` without --json says it: the failure of a single file, or
    how many of several failed."""
    from pbem.escape import terminal_line

    echo(dumps(verify_document(documents)))
    failed = [d for d in documents if not d["ok"]]
    if not failed:
        return
    if len(documents) == 1:
        fail(terminal_line(str(failed[0]["error"])))
    fail(f"{len(failed)} of {len(documents)} files failed verification")
