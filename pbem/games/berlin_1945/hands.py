"""Hidden hands (rulebook 2.3, 7.1) with private draws (protocol notes, private draws).

A draw decision commits a fresh secret `x/<role>/<n>` and asks one private roll per card:
an index into the side's remaining deck in canonical order (sorted card numbers). Draw
number k fills hand slot k (`hand/<role>/<k>`), which the owner commits (card number) in
its next decision; the opponent only sees how many slots are in hand. Playing a card opens
its slot; discards name slots and stay sealed ("discarded unseen"). At the end each side
opens every remaining slot and every draw secret: the engine recomputes every draw and
checks every slot (a mismatch is a false claim naming the entry that committed the slot).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context, State
from pbem.errors import IllegalOrderError
from pbem.games.berlin_1945.state import HAND_LIMIT, NAMES, clone, illegal


def slot_label(role: str, k: int) -> str:
    return f"hand/{role}/{k}"


def secret_label(role: str, n: int) -> str:
    return f"x/{role}/{n}"


def in_hand(state: State, role: str) -> list[int]:
    """Slot numbers in `role`'s hand (drawn and neither played nor discarded)."""
    slots = state["hands"][role]["slots"]
    return sorted(int(k) for k, s in slots.items() if s["status"] in ("pending", "hand"))


def hand_size(state: State, role: str) -> int:
    return len(in_hand(state, role))


def pending_labels(state: State, role: str) -> list[str]:
    slots = state["hands"][role]["slots"]
    return [
        s["label"]
        for _k, s in sorted(slots.items(), key=lambda i: int(i[0]))
        if s["status"] == "pending"
    ]


def deck_left(state: State, role: str) -> int:
    return len(state["decks"][role]) - len(state["hands"][role]["draws"])


def draw(state: State, role: str, count: int, ctx: Context, why: str) -> None:
    """Commit-checked private draws of `count` cards (validated before the first roll)."""
    hand = state["hands"][role]
    n = len(hand["secrets"]) + 1
    secret = secret_label(role, n)
    count = min(count, deck_left(state, role))
    if secret not in ctx.committed_now():
        raise illegal(f"a draw commits a fresh secret as {secret}", "2.3")
    hand["secrets"].append(secret)
    left = deck_left(state, role)
    for i in range(count):
        key = ctx.private_roll(
            secret, 0, left - 1 - i, f"{why}: {NAMES[role]} draws card {i + 1} of {count}"
        )
        k = len(hand["draws"]) + 1
        hand["draws"].append({"key": key, "secret": secret, "seq": ctx.seq})
        hand["slots"][str(k)] = {
            "label": slot_label(role, k),
            "status": "pending",
            "card": None,
            "seq": None,
        }
    ctx.event(
        f"{NAMES[role]} draws {count} card(s) ({why}); hand {hand_size(state, role)}", role=role
    )


def commit_pending(state: State, role: str, ctx: Context) -> None:
    """The owner's next decision after a draw commits every drawn card to its slot."""
    committed = set(ctx.committed_now())
    for label in pending_labels(state, role):
        if label not in committed:
            raise illegal(f"this decision must commit the drawn card as {label}", "2.3")
    for k, slot in state["hands"][role]["slots"].items():
        if slot["status"] == "pending":
            slot["status"] = "hand"
            slot["seq"] = ctx.seq
            del k


def check_commits(state: State, role: str, ctx: Context, allowed: set[str]) -> None:
    expected = set(pending_labels(state, role)) | allowed
    extra = [lb for lb in ctx.committed_now() if lb not in expected]
    if extra:
        raise illegal(f"{', '.join(extra)} may not be committed by this decision", "2.3")


def known_cards(state: State, role: str, known: Mapping[str, JSON]) -> dict[int, int]:
    """Slot -> card as the owner knows it (its sealed slots, or its own private draws)."""
    hand = state["hands"][role]
    pile = sorted(int(c) for c in state["decks"][role])
    cards: dict[int, int] = {}
    for k, d in enumerate(hand["draws"], start=1):
        index = known.get(d["key"])
        if not isinstance(index, int) or not 0 <= index < len(pile):
            break
        cards[k] = pile.pop(index)
    for k, slot in hand["slots"].items():
        value = known.get(slot["label"])
        if isinstance(value, int):
            cards[int(k)] = value
        if slot["card"] is not None:
            cards[int(k)] = int(slot["card"])
    return cards


def fill_secrets(state: State, role: str, known: Mapping[str, JSON]) -> State:
    new = clone(state)
    cards = known_cards(state, role, known)
    for k, slot in new["hands"][role]["slots"].items():
        if slot["card"] is None and int(k) in cards:
            slot["card"] = cards[int(k)]
            slot["known"] = True
    plan = new.get("plan")
    if role == "soviet" and plan is not None and plan.get("orders") is None:
        value = known.get(plan["label"])
        if value is not None:
            plan["mine"] = value
    return new


def hand_cards(state: State, role: str) -> dict[int, int]:
    """Slot -> card for the committed slots in hand whose card this state knows (the owner's
    state). A card drawn but not yet committed is played from the decision after next."""
    slots = state["hands"][role]["slots"]
    return {
        int(k): int(s["card"])
        for k, s in slots.items()
        if s["status"] == "hand" and s["card"] is not None
    }


def slot_of(state: State, role: str, card: int) -> int | None:
    for k, c in hand_cards(state, role).items():
        if c == card:
            return k
    return None


def seal_values(state: State, role: str) -> dict[str, JSON]:
    """The slot commitments `role`'s next decision must carry."""
    values: dict[str, JSON] = {}
    slots = state["hands"][role]["slots"]
    for slot in slots.values():
        if slot["status"] == "pending" and slot["card"] is not None:
            values[slot["label"]] = int(slot["card"])
    return values


def play_opened(state: State, role: str, cards: tuple[int, ...], ctx: Context) -> None:
    """Each played card's slot must be opened now, holding that card (2.3)."""
    opened = ctx.opened_now()
    by_label = {s["label"]: (k, s) for k, s in state["hands"][role]["slots"].items()}
    found: dict[int, str] = {}
    for label, value in opened.items():
        if label in by_label and isinstance(value, int) and value in cards:
            k, slot = by_label[label]
            if slot["status"] != "hand":
                raise illegal(f"card slot #{k} is not in the {NAMES[role]} hand", "2.3")
            found[value] = k
    for card in cards:
        if card not in found:
            raise illegal(f"playing card {card} opens the hand slot that holds it", "2.3")
        if card not in [int(c) for c in state["decks"][role]]:
            raise illegal(f"card {card} is not in the {NAMES[role]} deck", "2.3")
    for card, k in found.items():
        slot = state["hands"][role]["slots"][str(k)]
        slot["status"] = "played"
        slot["card"] = card
        state["played"][role].append(card)


def discard(state: State, role: str, slots: tuple[int, ...], why: str, ctx: Context) -> None:
    held = in_hand(state, role)
    for k in slots:
        if k not in held:
            raise illegal(f"#{k} is not a card in the {NAMES[role]} hand", "2.3")
    for k in slots:
        state["hands"][role]["slots"][str(k)]["status"] = "discarded"
    ctx.event(
        f"{NAMES[role]} discards {len(slots)} card(s) unseen ({why})",
        role=role,
        slots=list(slots),
    )


def over_limit(state: State, role: str) -> bool:
    return hand_size(state, role) > HAND_LIMIT


def reveal_labels(state: State, role: str) -> list[str]:
    hand = state["hands"][role]
    labels = [
        s["label"]
        for s in hand["slots"].values()
        if s["status"] != "played" and not s.get("opened")
    ]
    return sorted(labels) + list(hand["secrets"])


def verify_all(state: State, role: str, ctx: Context) -> None:
    """End of game: recompute every draw and check every slot (protocol, private draws)."""
    opened = ctx.opened_now()
    for label in reveal_labels(state, role):
        if label not in opened:
            raise illegal(f"the end of the game opens {label}", "2.3")
    hand = state["hands"][role]
    pile = sorted(int(c) for c in state["decks"][role])
    for k, d in enumerate(hand["draws"], start=1):
        index = ctx.private_value(d["key"])
        if index is None or not 0 <= index < len(pile):
            raise IllegalOrderError(f"draw {d['key']} of {role} cannot be recomputed")
        card = pile.pop(index)
        slot = hand["slots"][str(k)]
        claimed = slot["card"] if slot["status"] == "played" else opened.get(slot["label"])
        if claimed != card:
            raise IllegalOrderError(
                f"false claim in entry {slot['seq']} by {role}: hand slot #{k} "
                f"({slot['label']}) holds card {claimed}, but the private draw gave {card} "
                "(rulebook 2.3: you draw from your own deck)"
            )
        slot["card"] = card
        slot["opened"] = True
    ctx.event(f"{NAMES[role]} opens every hand slot and draw secret; all draws check out")


def public_hand(state: State, role: str) -> dict[str, Any]:
    return {"in_hand": hand_size(state, role), "deck": deck_left(state, role)}
