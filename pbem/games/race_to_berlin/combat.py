"""The attack action, rulebook 4.2.1.2 steps 1-8, with the special tokens before the dice.

Entries, in the order the rules place the decisions (protocol section 4: the dice are
asked for only after the last decision before the roll):

1. attack declaration (attacker): from, target, 1 or 2 cubes (steps 1-3);
2. support declaration (the player resolving the defence): the defending area's own block
   (mandatory when active), an adjacent block, or none (step 4); it opens that block
   when its owner signs it (step 5);
3. tokens (attacker): opens the attacker's sealed participating blocks (step 5), plays
   Logistics and/or Support, and asks for the 4 combat dice (steps 6-7);
4. Reserves: the attacker decides first whether to re-roll its own two dice, then the
   defender; each re-roll asks for its own 2 dice (step 7, Special tokens).

Then `effects` resolves step 8 and 9. When one player commands both sides (Soviets
against Western Front Germans, the West against Eastern Front Germans), that player is
asked for both sides; Germans of both fronts defending together are resolved by the
inactive player (rulebook 4.2.1.2, step 9), even with the active player's block in the
target area: its support cube (from its owner's pool) carries no exhaustion claim, since
the resolver cannot know the sealed value, and the block opens with the attacker's
tokens decision (step 5).

The openings each decision must carry are the step table's (`support_openings`,
`token_openings`); the kit refuses an entry that opens more or less.
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context
from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin.blocks import add_cubes, open_block, take_off
from pbem.games.race_to_berlin.board import berlin_problem
from pbem.games.race_to_berlin.decisions import (
    Attack,
    Reserves,
    Support,
    Tokens,
    format_decision,
)
from pbem.games.race_to_berlin.effects import proceed
from pbem.games.race_to_berlin.state import (
    ALLIED,
    GERMAN,
    NAMES,
    SOVIET,
    WEST,
    State,
    adjacent,
    area_name,
    block_by_label,
    blocks_in,
    force_units_in,
    graph,
    illegal,
    in_berlin,
    is_active,
    other,
    own_block_in,
    pool,
)
from pbem.games.race_to_berlin.supply import distances_to_supply, supplied
from pbem.games.race_to_berlin.tokens import (
    free_token,
    reserves_force,
    token_force,
    use_token,
)
from pbem.kit.pieces import known_value

R_ATTACK = "4.2.1.2"
R_TOKENS = "4.2.1.2: Special tokens"


# --- step 1-3: the declaration ----------------------------------------------------------------


def attack_problem(
    state: State, role: str, d: Attack, fed_cache: dict[str, frozenset[str]] | None = None
) -> IllegalOrderError | None:
    """Why `role` may not make attack `d` now (None: it may). Uses only what the state
    knows: the public state, or the owner's own state with its sealed values.
    `fed_cache` keeps the supplied areas per force across calls on one unchanged state."""
    areas = state["map"]["areas"]
    if d.frm not in areas or d.target not in areas:
        return illegal(f"unknown area in {d!r}", R_ATTACK)
    block = own_block_in(state, d.frm, role)
    if block is None:
        return illegal(
            f"{NAMES[role]} has no logistics block in {d.frm}",
            f"{R_ATTACK} step 1: the attack starts from an area with an own block",
        )
    if block["exhausted"]:
        return illegal(f"the block in {d.frm} is exhausted", "4.1: exhausted blocks cannot be used")
    force = block["force"]
    if not adjacent(state, d.frm, d.target):
        return illegal(
            f"{d.target} is not adjacent to {d.frm}",
            f"{R_ATTACK} step 2: an adjacent enemy area",
        )
    target_control = state["areas"][d.target]["control"]
    if force == GERMAN and target_control not in ALLIED:
        return illegal(
            f"area {d.target} is German; German units attack Western or Soviet areas",
            f"{R_ATTACK} step 2: an enemy area",
        )
    if force in ALLIED and target_control != GERMAN:
        what = "own" if target_control == force else "allied"
        return illegal(
            f"area {d.target} is an {what} area, not an enemy one",
            "4.2.1.1: Allied - neither Western nor Soviet pieces can attack an allied area",
        )
    if force in ALLIED:
        problem = berlin_problem(force, d.frm, d.target, "attack")
        if problem:
            return illegal(problem.replace(" (rulebook 4.5)", ""), "4.5")
    if force == GERMAN and d.cubes != 2:
        return illegal(
            "a German attack always uses 2 action cubes (not doubled)", f"{R_ATTACK} step 3"
        )
    if d.cubes not in (1, 2):
        return illegal("an attack uses 1 or 2 action cubes", f"{R_ATTACK} step 3")
    if pool(state, role) < d.cubes:
        return illegal(
            f"{NAMES[role]} has {pool(state, role)} action cubes in the pool, {d.cubes} needed",
            f"{R_ATTACK} step 3",
        )
    value = known_value(block)
    if value is not None:
        after = block["cubes"] + d.cubes
        if after > value:
            return illegal(
                f"the {value}-block in {d.frm} has {block['cubes']} cubes; {d.cubes} more "
                "would exceed its value",
                "4.1: a block is exhausted when its cubes reach its value",
            )
        if d.exhausting != (after == value):
            word = "add" if after == value else "drop"
            return illegal(
                f"{after} cubes {'exhaust' if after == value else 'do not exhaust'} the "
                f"{value}-block in {d.frm}: {word} the claim 'exhausting'",
                "4.1",
            )
    if block["revealed"]:
        strength = block["value"] * (2 if d.cubes == 2 and force != GERMAN else 1)
        for enemy in blocks_in(state, d.target):
            # a block turned face down (exhausted, 4.1) shows no value: no limit
            if enemy["revealed"] and not enemy["exhausted"] and enemy["value"] > strength:
                return illegal(
                    f"the revealed {block['value']}-block in {d.frm} (attacking with "
                    f"{strength}) cannot attack the revealed {enemy['value']}-block in "
                    f"{d.target}",
                    f"{R_ATTACK} step 5",
                )
    if fed_cache is None:
        fed_cache = {}
    if force not in fed_cache:
        fed_cache[force] = supplied(state, force)
    if d.frm not in fed_cache[force]:
        dist = distances_to_supply(state, force)
        here, there = dist.get(d.frm), dist.get(d.target)
        if here is None or there is None or there >= here:
            return illegal(
                f"area {d.frm} is cut off from supply; its block may attack only toward the "
                f"nearest supplied {NAMES[force]} area, and {d.target} is not on the way",
                "4.4",
            )
    return None


def declare(state: State, role: str, d: Attack, ctx: Context) -> None:
    problem = attack_problem(state, role, d)
    if problem is not None:
        raise problem
    block = own_block_in(state, d.frm, role)
    assert block is not None
    force = block["force"]
    target_control = state["areas"][d.target]["control"]
    defence_area = d.target
    if (
        force in ALLIED
        and in_berlin(d.target)
        and d.target != "B1"
        and force_units_in(state, "B1", GERMAN)
    ):
        # rulebook 4.5: the Germans in B1 defend the outer sub-areas and stay in B1
        defence_area = "B1"
    defenders = force_units_in(state, defence_area, target_control)
    resolver = defence_player(state, role, target_control, defenders, defence_area)
    doubled = d.cubes == 2 and force != GERMAN
    combat: dict[str, Any] = {
        "attacker": role,
        "defender": resolver,
        "from": d.frm,
        "target": d.target,
        "defence_area": defence_area,
        "attack_force": force,
        "defence_force": target_control,
        "attack_block": block["label"],
        "cubes": d.cubes,
        "doubled_by_cubes": doubled,
        "defenders": list(defenders),
        "support": None,
        "tokens": {"logistics": False, "support": False},
        "attack": None,
        "defence": None,
        "dice": None,
        "rerolled": {"attack": False, "defence": False},
        "totals": None,
        "winner": None,
        "counterattack": False,
        "losses_left": 0,
        "stage": "support",
        "asked": resolver,
    }
    state["combat"] = combat
    both = " (one player commands both sides)" if resolver == role else ""
    ctx.event(
        f"{NAMES[role]} attacks {area_name(state, d.target)} from {d.frm} with "
        f"{NAMES[force]} forces, {d.cubes} action cube{'s' if d.cubes > 1 else ''}"
        + (" (block doubled)" if doubled else "")
        + f"; {NAMES[resolver]} resolves the defence{both}",
        attacker=role,
        defender=resolver,
        target=d.target,
        frm=d.frm,
        cubes=d.cubes,
    )
    add_cubes(state, block, d.cubes, ctx, f"{R_ATTACK} step 3", role, d.exhausting)
    if defence_area != d.target:
        ctx.event(
            f"the German units in B1 defend {d.target} and stay in B1 (rulebook 4.5)",
            units=list(defenders),
        )
    if defenders:
        state["step"] = "support"
    else:
        ctx.event(
            f"{d.target} holds no defending unit: no block can help the defence "
            f"(rulebook {R_ATTACK} step 4)"
        )
        combat["stage"] = "tokens"
        combat["asked"] = role
        state["step"] = "tokens"


def defence_player(
    state: State, attacker: str, control_: str, defenders: list[str], area: str
) -> str:
    """Who resolves the defence (rulebook 4.1.1 and 4.2.1.2 step 9)."""
    if control_ in ALLIED:
        return control_
    fronts = {state["units"][u]["force"] for u in defenders}
    if fronts == {"german-west"}:
        return SOVIET
    if fronts == {"german-east"}:
        return WEST
    if fronts:
        return other(attacker)  # both fronts defend together: the inactive player
    front = state["map"]["areas"][area]["front"]
    if front == "west":
        return SOVIET
    if front == "east":
        return WEST
    return other(attacker)


# --- step 4: support --------------------------------------------------------------------------


def defence_block(state: State, combat: dict[str, Any]) -> dict[str, Any] | None:
    """The defending area's own block (B1 with two: the resolver's, rulebook 4.5)."""
    found = [
        b for b in blocks_in(state, combat["defence_area"]) if b["force"] == combat["defence_force"]
    ]
    if len(found) > 1:
        found = [b for b in found if b["owner"] == combat["defender"]] or found[:1]
    return found[0] if found else None


def support_options(state: State) -> list[Support]:
    combat = state["combat"]
    if not combat["defenders"]:
        return []
    own = defence_block(state, combat)
    if own is not None:
        if own["exhausted"] or pool(state, own["owner"]) < 1:
            return [Support()]
        return [Support(combat["defence_area"], True)]
    options = [Support()]
    for area in graph(state).neighbours(combat["target"]):
        if area == combat["defence_area"]:
            continue
        for b in blocks_in(state, area):
            if (
                b["owner"] == combat["defender"]
                and b["force"] == combat["defence_force"]
                and is_active(b)
                and pool(state, b["owner"]) >= 1
            ):
                options.append(Support(area, False))
    return options


def support_block(state: State, d: Support) -> dict[str, Any] | None:
    combat = state["combat"]
    if d.area is None:
        return None
    if d.own:
        return defence_block(state, combat)
    for b in blocks_in(state, d.area):
        if b["owner"] == combat["defender"] and b["force"] == combat["defence_force"]:
            return b
    return None


def support_openings(state: State, role: str, d: Support) -> list[str]:
    """Step 5 for the support: the supporting block opens now if the resolver owns it (a
    block of the other player, in a defence of both German fronts, opens with the
    attacker's tokens decision)."""
    block = support_block(state, d)
    if block is not None and block["owner"] == role and not block["revealed"]:
        return [block["label"]]
    return []


def declare_support(state: State, role: str, d: Support, ctx: Context) -> None:
    combat = state["combat"]
    options = support_options(state)
    if d not in options:
        allowed = " or ".join(repr(format_decision(o)) for o in options)
        raise illegal(
            f"{format_decision(d)!r} is not possible here; the defender may: {allowed}",
            f"{R_ATTACK} step 4",
        )
    own = defence_block(state, combat)
    if d.area is None and own is not None and not own["exhausted"]:
        take_off(
            state,
            own,
            ctx,
            f"the defender has no action cube left to place (rulebook {R_ATTACK} step 4)",
        )
        combat["support"] = {"removed": own["label"]}
    elif d.area is None:
        why = (
            "the defending area's block is exhausted, so no adjacent block can help"
            if own is not None
            else "no block helps the defence"
        )
        ctx.event(f"{NAMES[role]}: no support ({why}; rulebook {R_ATTACK} step 4)")
    else:
        block = support_block(state, d)
        assert block is not None
        if block["label"] in ctx.opened_now():
            open_block(state, block, ctx)
        # A sealed block here is the other player's (see support_openings): its cube
        # carries no exhaustion claim; the block's value settles it at step 5.
        add_cubes(state, block, 1, ctx, f"{R_ATTACK} step 4", role)
        combat["support"] = {"block": block["label"], "area": d.area, "own": d.own}
        ctx.event(
            f"{NAMES[role]} supports the defence with the block in {d.area} (1 action cube)",
            block=block["label"],
            area=d.area,
        )
    combat["stage"] = "tokens"
    combat["asked"] = combat["attacker"]
    state["step"] = "tokens"


# --- steps 5-7: reveal, tokens, dice ----------------------------------------------------------


def participating(state: State) -> list[dict[str, Any]]:
    combat = state["combat"]
    blocks = [block_by_label(state, combat["attack_block"])]
    support = combat["support"]
    if support and "block" in support:
        blocks.append(block_by_label(state, support["block"]))
    return blocks


def token_openings(state: State, role: str) -> list[str]:
    """Step 5 for the attacker: its sealed blocks taking part open with its tokens."""
    return [b["label"] for b in participating(state) if b["owner"] == role and not b["revealed"]]


def tokens_problem(state: State, role: str, d: Tokens) -> IllegalOrderError | None:
    combat = state["combat"]
    force = token_force(combat["attack_force"], role)
    if d.logistics:
        if combat["doubled_by_cubes"]:
            return illegal(
                "the block is already doubled by 2 action cubes; Logistics cannot double it",
                R_TOKENS,
            )
        if free_token(state, role, "logistics", force) is None:
            return illegal(f"{NAMES[role]} has no Logistics token left for {force}", R_TOKENS)
    if d.support and free_token(state, role, "support", force) is None:
        return illegal(f"{NAMES[role]} has no Support token left for {force}", R_TOKENS)
    return None


def play_tokens(state: State, role: str, d: Tokens, ctx: Context) -> None:
    combat = state["combat"]
    problem = tokens_problem(state, role, d)
    if problem is not None:
        raise problem
    opened = ctx.opened_now()
    for block in participating(state):
        if block["label"] in opened:
            open_block(state, block, ctx)
    for block in participating(state):
        if not block["revealed"]:
            raise illegal(
                f"{block['label']} must be revealed before the dice",
                f"{R_ATTACK} step 5",
            )
    # Validated: the dice now (the first draw ends the adjudicator's first pass, which
    # waits for entropy; nothing after this can refuse the decision), then the tokens
    # and the strengths, and the dice shown last.
    attack_dice = _roll_pair(state, ctx, "attack")
    combat["dice"] = {"attack": attack_dice, "defence": _roll_pair(state, ctx, "defence")}
    force = token_force(combat["attack_force"], role)
    if d.logistics:
        use_token(state, role, "logistics", force, ctx, "the attacking block is doubled")
    if d.support:
        use_token(state, role, "support", force, ctx, "extra attack strength")
    combat["tokens"] = {"logistics": d.logistics, "support": d.support}
    compute_strengths(state, ctx)
    _dice_event(state, ctx, "attack")
    _dice_event(state, ctx, "defence")
    combat["stage"] = "reserves_attack"
    proceed(state, ctx)


def compute_strengths(state: State, ctx: Context) -> None:
    """Step 6: base strengths and every modifier, each an event with its reason."""
    combat = state["combat"]
    block = block_by_label(state, combat["attack_block"])
    value = block["value"]
    german = combat["attack_force"] == GERMAN
    doubled = combat["doubled_by_cubes"] or combat["tokens"]["logistics"]
    attack: list[dict[str, Any]] = [{"reason": f"logistics block {value}", "value": value}]
    if doubled:
        why = (
            "2 action cubes double the block"
            if combat["doubled_by_cubes"]
            else ("logistics token doubles")
        )
        attack.append({"reason": why, "value": value})
    if combat["tokens"]["support"]:
        bonus = 1 if german or not doubled else 2
        attack.append({"reason": f"support token +{bonus}", "value": bonus})
    defence: list[dict[str, Any]] = []
    support = combat["support"]
    if support and "block" in support:
        sb = block_by_label(state, support["block"])
        where = "" if support["own"] else f" from {support['area']}"
        defence.append(
            {"reason": f"defending logistics block {sb['value']}{where}", "value": sb["value"]}
        )
    elif combat["defenders"]:
        defence.append({"reason": "defending units without a block 1", "value": 1})
    target = combat["target"]
    fort = state["areas"][target]["fortification"]
    if fort is not None:
        defence.append(
            {
                "reason": f"fortification +{fort['defense']} ({fort['name']}, {fort['kind']})",
                "value": fort["defense"],
            }
        )
    terrain = state["map"]["areas"][target]["terrain"]
    if terrain:
        defence.append({"reason": f"difficult terrain +{terrain}", "value": terrain})
    if graph(state).is_river(combat["from"], target):
        defence.append({"reason": "river +1", "value": 1})
    combat["attack"] = {"modifiers": attack, "base": sum(m["value"] for m in attack)}
    combat["defence"] = {"modifiers": defence, "base": sum(m["value"] for m in defence)}
    for side, mods in (("attack", attack), ("defence", defence)):
        for m in mods:
            ctx.event(f"{side} strength: {m['reason']}", side=side, value=m["value"])
    ctx.event(
        f"attack strength {combat['attack']['base']}, defence strength "
        f"{combat['defence']['base']} before the dice (rulebook {R_ATTACK} step 6)",
        attack=combat["attack"]["base"],
        defence=combat["defence"]["base"],
    )


def side_name(combat: dict[str, Any], side: str) -> str:
    return str(combat["attack_force"] if side == "attack" else combat["defence_force"])


def _roll_pair(state: State, ctx: Context, side: str, reroll: bool = False) -> list[int]:
    combat = state["combat"]
    head = f"attack {combat['target']} from {combat['from']}: {side_name(combat, side)}"
    extra = " reserves" if reroll else ""
    return [ctx.roll(1, 6, f"{head}{extra} die {n}") for n in (1, 2)]


def _dice_event(state: State, ctx: Context, side: str) -> None:
    combat = state["combat"]
    a, b = combat["dice"][side]
    ctx.event(
        f"{side_name(combat, side)} dice {a} and {b}: +{abs(a - b)} to the {side} "
        f"(rulebook {R_ATTACK} step 7)",
        side=side,
        dice=[a, b],
        bonus=abs(a - b),
    )


# --- Reserves ---------------------------------------------------------------------------------


def reserves(state: State, role: str, d: Reserves, ctx: Context) -> None:
    combat = state["combat"]
    side = "attack" if combat["stage"] == "reserves_attack" else "defence"
    owner, force = reserves_force(state, side)
    if d.reroll:
        if free_token(state, owner, "reserves", force) is None:
            raise illegal(f"{NAMES[owner]} has no Reserves token left for {force}", R_TOKENS)
        use_token(state, owner, "reserves", force, ctx, f"re-roll the {side} dice")
        combat["dice"][side] = _roll_pair(state, ctx, side, reroll=True)
        combat["rerolled"][side] = True
        _dice_event(state, ctx, side)
    else:
        ctx.event(f"{NAMES[owner]} keeps the {side} dice", side=side)
    combat["stage"] = "reserves_defence" if side == "attack" else "result"
    proceed(state, ctx)
