"""Hidden hands (rulebook 2.3, 7.1): private draws from the kit's private decks, hand slots
as the kit's hidden pieces (protocol notes, private draws).

Each side draws from its own private deck (`pbem.kit.decks`): a draw decision commits a
fresh secret `x/<role>/<n>` and asks one private roll per card, an index into the cards
still in the deck in card-number order, which only the drawing side can compute. Draw
number k fills hand slot k: pending (the opponent sees that a card was drawn) until the
owner's next decision commits it as the hidden piece `hand/<role>/<k>` (its value: the
card). Playing a card opens its slot; discards name slots and stay sealed ("discarded
unseen"). At the end each side opens every remaining slot and every draw secret: every draw
is recomputed and checked against its slot (a mismatch is a false claim naming the entry
that committed the slot).
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.core.canonical import JSON
from pbem.core.engine import Context, State
from pbem.errors import IllegalOrderError
from pbem.games.berlin_1945.rulebook import HAND_LIMIT, NAMES
from pbem.games.berlin_1945.shared_parts import own_part
from pbem.games.berlin_1945.state import illegal
from pbem.kit import decks, pieces
from pbem.kit.pieces import Piece


def slot_label(role: str, k: int) -> str:
    return f"hand/{role}/{k}"


def secret_label(role: str, n: int) -> str:
    return f"x/{role}/{n}"


def next_secret(state: State, role: str) -> str:
    """The label the next draw decision of `role` commits its fresh secret as."""
    return secret_label(role, len(state["hands"][role]["secrets"]) + 1)


# --- what is in a hand --------------------------------------------------------------------------


def in_hand(state: State, role: str) -> list[int]:
    """Slot numbers in `role`'s hand: drawn (pending or committed), neither played nor
    discarded."""
    hand = state["hands"][role]
    held = [int(k) for k, p in hand["slots"].items() if p["status"] == "hand"]
    return sorted(held + hand["pending"])


def hand_size(state: State, role: str) -> int:
    return len(in_hand(state, role))


def over_limit(state: State, role: str) -> bool:
    return hand_size(state, role) > HAND_LIMIT


def held_labels(state: State, role: str) -> frozenset[str]:
    """The committed slots in hand: those a card play may open."""
    slots = state["hands"][role]["slots"].values()
    return frozenset(p["label"] for p in slots if p["status"] == "hand")


def hand_cards(state: State, role: str) -> dict[int, int]:
    """Slot -> card for the committed slots in hand whose card this state knows (the owner's
    state). A card drawn but not yet committed is played from the decision after next."""
    out = {}
    for k, piece in state["hands"][role]["slots"].items():
        card = pieces.known_value(piece)
        if piece["status"] == "hand" and isinstance(card, int):
            out[int(k)] = card
    return out


def slot_of(state: State, role: str, card: int) -> int | None:
    for k, held in hand_cards(state, role).items():
        if held == card:
            return k
    return None


def writable(state: State, role: str, k: int | str) -> Piece:
    """Slot `k` of `role`, ready to be changed. The hand slots are the one part of the state
    that grows all game, so a copy of the state shares them with the state it copies
    (`rules.Berlin1945Engine.clone`) and a rule copies a slot before changing it."""
    slots = state["hands"][role]["slots"]
    piece: Piece = dict(slots[str(k)])
    piece["claims"] = list(piece["claims"])
    slots[str(k)] = piece
    return piece


# --- drawing (2.3, 7.1) -----------------------------------------------------------------------


def draw(state: State, role: str, count: int, ctx: Context, why: str) -> None:
    """Private draws of `count` cards (the secret is checked before the first roll)."""
    hand = state["hands"][role]
    deck = state["decks"][role]
    secret = next_secret(state, role)
    if secret not in ctx.committed_now():
        raise illegal(f"a draw commits a fresh secret as {secret}", "2.3")
    count = min(count, decks.left(deck))
    deck = own_part(state, "decks")[role]
    hand["secrets"].append(secret)
    first = len(deck["private"]) + 1
    decks.draw_private(
        deck, ctx, secret, count, lambda i, n: f"{why}: {NAMES[role]} draws card {i} of {n}"
    )
    hand["pending"].extend(range(first, first + count))
    ctx.event(
        f"{NAMES[role]} draws {count} card(s) ({why}); hand {hand_size(state, role)}", role=role
    )


def pending_labels(state: State, role: str) -> list[str]:
    """The slots of cards drawn and not yet committed: `role`'s next decision commits them."""
    return [slot_label(role, k) for k in state["hands"][role]["pending"]]


def commit_pending(state: State, role: str, ctx: Context) -> None:
    """The owner's next decision after a draw commits every drawn card to its slot."""
    hand = state["hands"][role]
    if not hand["pending"]:
        return
    committed = ctx.committed_now()
    for label in pending_labels(state, role):
        if label not in committed:
            raise illegal(f"this decision must commit the drawn card as {label}", "2.3")
    for k in hand["pending"]:
        hand["slots"][str(k)] = pieces.place(ctx, slot_label(role, k), role, "2.3", status="hand")
    hand["pending"] = []


def drawn_cards(state: State, role: str, known: Mapping[str, JSON]) -> dict[str, int]:
    """Pending slot -> card, as far as the owner's own private draw values (`known`) go."""
    hand = state["hands"][role]
    if not hand["pending"]:
        return {}
    cards = decks.private_cards(state["decks"][role], known)
    return {str(k): int(cards[k - 1]) for k in hand["pending"] if k <= len(cards)}


def seal_drawn(state: State, role: str) -> dict[str, JSON]:
    """The slot commitments `role`'s next decision carries (on its own state)."""
    drawn = state["hands"][role].get("drawn", {})
    return {slot_label(role, int(k)): card for k, card in drawn.items()}


# --- playing and discarding --------------------------------------------------------------------


def play_opened(state: State, role: str, cards: tuple[int, ...], ctx: Context) -> None:
    """Each played card's slot is opened now and holds that card (2.3); the entry opens no
    other slot."""
    prefix = f"hand/{role}/"
    found: dict[int, Piece] = {}
    for label, value in ctx.opened_now().items():
        if not label.startswith(prefix):
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value not in cards:
            shown = value if isinstance(value, int) and not isinstance(value, bool) else "no card"
            raise illegal(f"{label} opens as {shown}, not a card played now", "2.3")
        if value in found:
            raise illegal(f"card {value} is played once", "2.3")
        found[value] = writable(state, role, label[len(prefix) :])
    for card in cards:
        if card not in found:
            raise illegal(f"playing card {card} opens the hand slot that holds it", "2.3")
        if card not in state["decks"][role]["pile"]:
            raise illegal(f"card {card} is not in the {NAMES[role]} deck", "2.3")
    for card, piece in found.items():
        pieces.reveal(piece, ctx)
        piece["status"] = "played"
        own_part(state, "played")[role].append(card)


def discard(state: State, role: str, slots: tuple[int, ...], why: str, ctx: Context) -> None:
    held = in_hand(state, role)
    for k in slots:
        if k not in held:
            raise illegal(f"#{k} is not a card in the {NAMES[role]} hand", "2.3")
    for k in slots:
        writable(state, role, k)["status"] = "discarded"
    ctx.event(
        f"{NAMES[role]} discards {len(slots)} card(s) unseen ({why})",
        role=role,
        slots=list(slots),
    )


# --- the end of the game: every secret opens ---------------------------------------------------


def reveal_labels(state: State, role: str) -> list[str]:
    """Every slot not yet opened, then every draw secret: what the end of the game opens."""
    hand = state["hands"][role]
    labels = [p["label"] for p in hand["slots"].values() if not p["revealed"]]
    return sorted(labels) + list(hand["secrets"])


def verify_all(state: State, role: str, ctx: Context) -> None:
    """End of game: recompute every draw and check every slot (protocol, private draws)."""
    deck = state["decks"][role]
    values: dict[str, JSON] = {}
    for key in deck["private"]:
        value = ctx.private_value(key)
        if value is None:
            raise IllegalOrderError(f"draw {key} of {role} cannot be recomputed")
        values[key] = value
    cards = decks.private_cards(deck, values)
    if len(cards) < len(deck["private"]):
        key = deck["private"][len(cards)]
        raise IllegalOrderError(f"draw {key} of {role} cannot be recomputed")
    for k, card in enumerate(cards, start=1):
        piece = writable(state, role, k)

        def check(piece: Piece, claimed: JSON, k: int = k, card: JSON = card) -> None:
            if claimed != card:
                raise pieces.false_claim(
                    piece["placed_at"],
                    role,
                    f"hand slot #{k} ({piece['label']}) holds card {claimed}, but the private "
                    f"draw gave {card}",
                    "2.3: you draw from your own deck",
                )

        if piece["revealed"]:
            check(piece, piece["value"])
        else:
            pieces.reveal(piece, ctx, check)
    ctx.event(f"{NAMES[role]} opens every hand slot and draw secret; all draws check out")
