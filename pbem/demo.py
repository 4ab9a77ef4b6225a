"""`pbem demo`: a whole game between bots through the real signed pipeline.

Each side has its own store (its own keys, chain seeds and copy of the log).
Every entry is signed by its author, written to a move file on disk, read back
from that file by the other side and applied to its store, exactly as if it
had been mailed. Each bot sets its game's standing orders, and its client answers by
itself what needs no person (pbem.answers): one move file carries every entry of one
side between two handovers. At the end both stores must hold the identical log; the save
file and a rendered summary are written beside the move files.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pbem.bots import bot_orders, choose
from pbem.client import Client
from pbem.core.log import Entry
from pbem.core.referee import DOUBLE_BLIND, REFEREE
from pbem.errors import PbemError
from pbem.ledger import engine_by_name
from pbem.store import Store
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries


@dataclass(frozen=True)
class DemoStep:
    """One move file of a running demo, written and applied by the other side's store."""

    count: int  # move files so far
    path: Path  # the move file just written
    author: str
    game_id: str
    homes: dict[str, Path]  # role -> its store's folder


@dataclass(frozen=True)
class DemoResult:
    save: Path
    summary: Path
    moves: Path
    count: int
    outcome: str
    game_id: str


def run_demo(
    rules: str,
    directory: Path,
    seed: int = 1,
    echo: Callable[[str], None] | None = None,
    max_entries: int = 20000,
    on_step: Callable[[DemoStep], None] | None = None,
    referee: bool = False,
    double_blind: bool = False,
) -> DemoResult:
    """Play a whole game of `rules` between bots in `directory`.

    `on_step`, if given, is called after each move file has been applied by the other
    side (tests use it to look at the stores and files while the game runs). `referee`
    adds a referee's store to a title whose rules do not list one (pbem.core.referee);
    `double_blind` (a referee implied) makes the referee hold every sealed value and
    disclose them all at the end (pbem.core.blind).
    """
    referee = referee or double_blind
    say = echo or (lambda _text: None)
    engine = engine_by_name(rules)
    if directory.exists() and any(directory.iterdir()):
        if not (directory / ".pbem-demo").exists():
            raise PbemError(f"{directory} is not empty and not an earlier demo folder")
        shutil.rmtree(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / ".pbem-demo").write_text("made by pbem demo\n")
    moves = directory / "moves"
    moves.mkdir()

    roles = list(engine.roles)
    if referee and REFEREE not in roles:
        roles.append(REFEREE)  # any title may have one: it then rolls every player's dice
    homes = {role: directory / f"{role}-home" for role in roles}
    # Each side's state folder (its signing journal: pbem.store.journal) beside its
    # store, inside the demo folder: a demo leaves nothing in the user's own state folder.
    clients = {
        role: Client(Store(home, state=directory / f"{role}-state")) for role, home in homes.items()
    }
    for role, client in clients.items():
        client.new_key(role)
    creator = engine.required_roles[0]
    for role in clients:
        if role != creator:
            pub = directory / f"{role}-home" / "keys" / f"{role}.pub"
            clients[creator].import_key(role, pub)
    say(f"keys made for {', '.join(roles)}; {creator} creates the game")

    count = 0
    game_id = ""

    def send(author: str, entries: list[Entry]) -> None:
        nonlocal count
        count += 1
        path = moves / f"{count:04d}-{author}.txt"
        path.write_text(move_file(entries), encoding="utf-8")
        received = parse_entries(path.read_bytes())
        for role, client in clients.items():
            if role != author:
                client.apply_entries(received)
        if on_step is not None:
            on_step(DemoStep(count, path, author, game_id, dict(homes)))

    game_id, first = clients[creator].new_game(
        rules,
        creator,
        {role: role for role in roles},
        title=f"{engine.title} (demo)",
        # (and whatever the title plays only double-blind: Race to the Sea's shared cup)
        options=(
            {DOUBLE_BLIND: True, **{name: True for name in engine.double_blind_options}}
            if double_blind
            else None
        ),
    )
    send(creator, first)
    for role, client in clients.items():
        if role != creator:
            send(role, client.join(game_id))

    # Each bot sets its game's standing orders; its client then answers by itself what
    # needs no person (pbem.answers), and one move file carries each handover.
    for role, client in clients.items():
        for name, argument in bot_orders(rules).items():
            client.set_order(game_id, name, argument, role)
    rng = random.Random(seed)
    while True:
        if referee:  # a double-blind game's void or disclose, the moment it is owed
            owed = clients[REFEREE].blind_duties(game_id)
            if owed:
                send(REFEREE, owed)
        game = clients[creator].game(game_id)
        if game.outcome() is not None:
            break
        prompts = game.prompts()
        if not prompts:
            raise PbemError("dead end: nobody is asked for anything and there is no outcome")
        role = prompts[0].role
        client = clients[role]
        if not client.answer_automatically(game_id):
            # The author of the next entry sees waiting dice rolled by its own reveal first.
            state = client.state_for(client.game(game_id), role)
            state = engine.with_secrets(state, role, client.known(game_id, role))
            if any(p.role == role for p in engine.prompts(state)):
                decision = choose(engine, state, role, rng)
                client.move(game_id, engine.format(decision), role)
            else:
                client.ack(game_id, role)
            client.answer_automatically(game_id)
        after = client.game(game_id)
        if after.outcome() is not None or after.next_signer() != role:
            send(role, client.unsent(game_id))
            # (only here, with both stores holding the same log)
            if len(after.entries) > max_entries and after.outcome() is None:
                raise PbemError(f"demo stopped after {max_entries} entries without an outcome")
        elif len(after.entries) > 2 * max_entries:  # one side alone, never handing over
            raise PbemError(f"demo stopped: {role} signed on alone past {max_entries} entries")

    saves = {role: client.export(game_id) for role, client in clients.items()}
    if len(set(saves.values())) != 1:
        raise PbemError("the two stores disagree about the game: the demo found a bug")
    save = directory / f"{rules}-demo.pbem"
    save.write_text(saves[creator], encoding="utf-8")
    from pbem.render.summary import render_summary

    final = clients[creator].game(game_id)
    summary = directory / "summary.md"
    summary.write_text(render_summary(final, creator, "markdown"), encoding="utf-8")
    (directory / "summary.txt").write_text(render_summary(final, creator, "text"), "utf-8")
    outcome = final.outcome()
    return DemoResult(save, summary, moves, count, outcome.text if outcome else "?", game_id)
