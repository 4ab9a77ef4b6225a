"""The text of `pbem show` (the board, whose turn, what is asked, the choices, the last
results; the turn's history with `--history`) and of `pbem replay`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem import escape
from pbem.core.adjudicator import Action, Adjudicator
from pbem.core.history import turn_actions
from pbem.errors import PbemError
from pbem.ledger import fingerprint

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.render.board import Asked


def asked_of(client: Client, game: Adjudicator, role: str | None = None) -> Asked | None:
    """What a role of this store is asked now, with its numbered choices: `role` if it is
    ours and asked, else (no role named) the first of ours that is asked."""
    from pbem.render.board import Asked

    mine = client.my_roles(game)
    asked = [r for r in mine if game.asked(r)]
    if role is not None:
        asked = [r for r in asked if r == role]
    if not asked or game.outcome() is not None:  # (the outcome last: a score to count)
        return None
    acting = asked[0]
    short = game.id[:12]
    notes = []
    if game.waiting_for_entropy:
        notes.append(f"Your next entry rolls the waiting dice (as {acting}).")
    state = client.state_for(game, acting)
    if state is not None:
        state = game.engine.with_secrets(state, acting, client.known(game.id, acting))
    if state is not None and any(p.role == acting for p in game.engine.prompts(state)):
        choices = tuple(game.engine.format(d) for d in game.engine.choices(state, acting))
        return Asked(acting, tuple(notes), choices)
    if game.started:
        return Asked(acting, tuple(notes), hint=f"`pbem ack {short}` to roll them.")
    return Asked(acting, tuple(notes), hint=f"`pbem join {short}` to join.")


def joins(game: Adjudicator) -> tuple[list[str], list[str]]:
    """Before play starts: the roles that have joined and those still to join, in the
    join order (roles join one at a time in that order; both empty once play starts)."""
    if game.started:
        return [], []
    order = game.join_order()
    nxt = game.next_signer()
    at = order.index(nxt) if nxt in order else len(order)
    return order[:at], order[at:]


def joins_lines(client: Client, game: Adjudicator) -> list[str]:
    """For a game whose roles have not all joined: who has, who must, and how."""
    joined, to_join = joins(game)
    if not to_join:
        return []
    short = game.id[:12]
    mine = client.my_roles(game)
    lines = [
        "Play starts when every role has joined:"
        f" joined {', '.join(joined) or 'nobody yet'}; to join {', '.join(to_join)}."
    ]
    if to_join[0] not in mine:  # (ours: asked_of says `pbem join`)
        lines.append(
            f"Waiting for {to_join[0]} to join: in their store, `pbem apply` the start file,"
            f" then `pbem join {short}`."
        )
    return [escape.terminal_line(line) for line in lines]


def game_list_lines(client: Client) -> list[str]:
    """`pbem show` with no game: one line per stored game, tab-separated: id prefix,
    rules, title, whose turn it is, and what is asked of this store's roles."""
    lines = []
    for row in client.game_rows():
        short = str(row["id"])[:12]
        head = [short, str(row["rules"]), str(row["title"])]
        try:
            game = client.game(row["id"])
            head += list(_turn_and_asked(client, game))
        except PbemError as exc:
            head.append(f"cannot be read: {exc}")
        lines.append("\t".join(escape.terminal_line(field) for field in head))
    return lines


def _turn_and_asked(client: Client, game: Adjudicator) -> tuple[str, str]:
    short = game.id[:12]
    outcome = game.outcome()
    _, to_join = joins(game)
    if outcome is not None:
        turn = f"over: {outcome.text}"
    elif to_join:
        turn = f"waiting for joins: {', '.join(to_join)}"
    else:
        prompts = game.prompts()
        turn = "turn of " + ("; ".join(f"{p.role} ({p.text})" for p in prompts) or "nobody")
    mine = client.my_roles(game)
    if not mine:
        return turn, "you hold no role"
    you = f"you are {', '.join(mine)}"
    asked = asked_of(client, game)
    if outcome is not None:
        return turn, f"{you}: the game is over"
    if asked is None:
        return turn, f"{you}: nothing asked of you now"
    if to_join:
        return turn, f"{you}: join as {asked.role} with `pbem join {short}`"
    if asked.choices:
        count = f"{len(asked.choices)} choice{'s' if len(asked.choices) != 1 else ''}"
        return turn, f"{you}: your move as {asked.role} ({count}: `pbem show {short}`)"
    return turn, f"{you}: acknowledge as {asked.role} with `pbem ack {short}`"


def action_lines(action: Action) -> list[str]:
    """One action as the text summary writes it: who, what, every roll with its purpose
    (a private draw's value is not shown), every event."""
    rolled = f" (dice rolled at seq {action.resolved_at})" if action.resolved_at is not None else ""
    lines = [f"  seq {action.seq} {action.by}: {action.text}{rolled}"]
    for record in action.rng:
        value = record.value if record.value is not None else "(private draw)"
        lines.append(f"    roll {record.purpose}: {value} (range {record.lo}..{record.hi})")
    lines += [f"    - {event.text}" for event in action.events]
    return [escape.terminal_line(line) for line in lines]


def show_text(
    client: Client, game: Adjudicator, role: str | None = None, history: bool = False
) -> str:
    """The board first, then whose turn and what this store's role is asked with its
    numbered choices, then the last results (the whole turn's with `history`)."""
    from pbem.render.board import kept_state_text, role_view

    mine = client.my_roles(game)
    viewer = role or (mine[0] if mine else None)
    if viewer is not None and viewer not in game.roles:
        raise PbemError(f"this game has no role {viewer!r}")
    known = client.known(game.id, viewer) if viewer in mine else None
    engine = game.engine
    title = str(game.genesis.body.get("title") or engine.title)
    lines = [
        escape.terminal_line(
            f"{title} -- game {game.id[:12]} ({engine.name} {engine.version}),"
            f" view of {viewer or 'public'}"
        )
    ]
    # The head in the form a turn page's verdict names the head it checked (verifier.js),
    # so that a reader compares a page they received with their own store.
    lines.append(f"head: seq {game.head.seq} id {game.head.id} ({game.entry_count} entries)")
    if game.self_witnessed:
        lines.append("Dice are SELF-WITNESSED: no second role supplies entropy in this game.")
    view = role_view(game, viewer, known)
    # The role's vault, when reading `known` opened it (none is opened for this alone: that
    # could ask for a passphrase): it keeps a board that shows the role's secrets sealed.
    vault = client.open_vault(game.id, viewer) if known and viewer is not None else None
    board = kept_state_text(game, view, viewer, known, vault)
    if board:
        lines += ["", board]
    lines.append("")
    outcome = game.outcome()
    if outcome is not None:
        lines.append(escape.terminal_line(f"Result: {outcome.text}"))
        score = ", ".join(f"{r} {s}" for r, s in outcome.score.items())
        lines.append(escape.terminal_line(f"Score: {score}"))
    else:
        waiting = "; ".join(f"{p.role} ({p.text})" for p in game.prompts()) or "nobody"
        lines.append(escape.terminal_line(f"Waiting for: {waiting}"))
        lines += joins_lines(client, game)
        if game.meta.offer_by is not None:  # (pbem.core.meta)
            lines.append(
                f"Draw offered by {game.meta.offer_by} in entry {game.meta.offer_seq}: the"
                f" other side's next entry accepts it (`pbem accept-draw {game.id[:12]}`);"
                " any other entry of theirs declines it."
            )
    for name, line in game.roles.items():
        you = " (you)" if name in mine else ""
        lines.append(f"role {name}{you}: {fingerprint(line)}")
    asked = asked_of(client, game)
    if asked is not None:
        # A double-blind deal this role cannot act on: say so, and what answers it.
        try:
            trouble = client.deal_problem(game, asked.role)
        except PbemError:
            trouble = None  # (a key that cannot decrypt: said where the deal is needed)
        if trouble is not None:
            seq, problem = trouble
            lines.append(
                escape.terminal_line(
                    f"{problem}: publish its key for anyone to check "
                    f"(`pbem unseal {game.id[:12]} {seq}`; docs/referee.md)"
                )
            )
        lines += asked.notes
        if asked.choices:
            lines.append(f"Your choices as {asked.role} (`pbem move GAME N` or the text):")
            lines += [
                escape.terminal_line(f"  {n}. {text}")
                for n, text in enumerate(asked.choices, start=1)
            ]
        if asked.hint:
            lines.append(asked.hint)
    turn = view.get("turn") if isinstance(view, dict) else None
    shown, actions = turn_actions(game.actions, turn) if turn is not None else (None, game.actions)
    of_turn = f" in turn {shown}" if shown is not None else ""
    if history:
        lines += ["", f"What happened{of_turn}:"]
        for action in actions:
            lines += action_lines(action)
        if not actions:
            lines.append("  nothing yet")
    elif game.actions:
        lines += ["", "Last result:", *action_lines(game.actions[-1])]
        if len(actions) > 1:
            lines.append(
                f"(`pbem show {game.id[:12]} --history`: all {len(actions)} actions{of_turn})"
            )
    return escape.terminal("\n".join(lines) + "\n")


def history_lines(game: Adjudicator) -> list[str]:
    """Every action in order with its events and rolls, then the RNG log of the save."""
    lines = [f"game {game.id} ({game.engine.name} {game.engine.version})"]
    for action in game.actions:
        rolled = f" (dice at seq {action.resolved_at})" if action.resolved_at is not None else ""
        turn = f" [turn {action.turn}]" if action.turn is not None else ""
        lines.append(f"seq {action.seq} {action.by}{turn}: {action.text}{rolled}")
        for record in action.rng:
            lines.append(f"    {record.line()}")
        for event in action.events:
            lines.append(f"    - {event.text}")
    outcome = game.outcome()
    lines.append(f"result: {outcome.text if outcome else 'unfinished'}")
    return [escape.terminal_line(line) for line in lines]
