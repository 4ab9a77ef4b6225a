"""Götterdämmerung: the enemy ZOC and the broken stacks of a position, kept up to date from
one position to the next instead of found again from every unit (issue 29).

The rules ask `zoc._zone`, `zones_of_both`, `zone_of_all` and `end_of_phase_problems` a
few times an entry, each time of a list of 100-150 unit dicts that differs from the list
asked before by the unit or two an entry moved. A `_Slot` remembers the last list asked
(its `snap`), each unit's facts those answers read (`_facts`: id, side, hex, disrupted,
Volkssturm), per side the ZOC strengths reaching each hex (counts) and the map made from
them, and per hex the units there and whether the stack breaks 4.1. A new list is compared
with the snap; the units that differ are taken out of the counts and put back with their
new facts, and only the hexes they reach or stand in are worked out again.

When a remembered answer is valid: `units == snap`, a comparison of contents. The snap holds
a unit dict itself only where it cannot change: a dict that a state's units mapping holds
without owning it (state.py's copy-on-write: the rules change a unit only through
`state.own`, which copies any unit the mapping does not own yet, so such a dict is shared
with an earlier state and never written again; units_owned.frozen_test). Any other dict
(one the newest state owns and may still change in place, one made by a caller) is held as
a copy, so a change made in place since is a difference. A list equal in content gives the same
answers, since every fact read is compared by `==`.

Anything the counts cannot answer exactly goes to zoc's strict computations, which give
the answer or raise their error: a unit not in the counters data among the sources, a
counters file's own ZOC kinds (neither strong nor weak), more than `_REBUILD_AFTER` units
changed at once (then the slot is made again from the strict answer), any error while a
slot is updated (the slot is dropped). The maps given out are never changed while a caller
holds one (it may hold the map of an earlier position): an update makes a new one, unless
nothing but the slot holds the map any more (`_unheld`: then it is changed in place). Their
order of hexes is not the strict one's (`zoc._zone`'s readers test membership only; `enemy_zoc`,
which hands out a copy, stays strict).
tests/games/gotterdammerung/test_gd_zoc_index.py: the answers equal the strict ones on bot
game positions and on random changes to them, in place or not.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Mapping
from itertools import chain
from operator import itemgetter
from typing import Any

from pbem.games.gotterdammerung.units_owned import frozen_test

STRONG, WEAK = "strong", "weak"  # (zoc's)
_OFF_MAP = (None, "ngp")  # zone_of_all's units off the maps (state.NGP)
_REBUILD_AFTER = 40  # more units with new facts than this: the slot is made again
_SLOTS_KEPT = 6  # slots per map, counters data and kind of list


class _Fallback(Exception):
    """The counts cannot answer this exactly: ask the strict computation."""


Facts = tuple[Any, Any, Any, bool, bool]  # id, side, hex, disrupted, Volkssturm


def _facts(unit: Mapping[str, Any]) -> Facts:
    return (
        unit["id"],
        unit["side"],
        unit["hex"],
        bool(unit.get("disrupted")),
        bool(unit.get("volkssturm")),
    )


class _Zone:
    """One side's enemy ZOC in a slot: per hex the strong and weak sources reaching it, and
    the map made from them (`made`, None until asked; never changed once made). The units'
    new facts are taken in when the side is next asked (`pending`, in the order they came):
    a movement phase asks one side only, many times."""

    __slots__ = ("side", "strong", "weak", "made", "pending")

    def __init__(self, side: str) -> None:
        self.side = side
        self.strong: Counter[str] = Counter()
        self.weak: Counter[str] = Counter()
        self.made: dict[str, str] | None = None
        self.pending: list[Move] = []


Reach = Callable[[Mapping[str, Any], str], list[str]]  # zoc.zoc_reach
Check = Callable[[Mapping[str, Any], Mapping[str, Any], list[Any]], list[str]]  # stack_problems


class _Slot:
    __slots__ = (
        "board", "token", "data", "kinds", "on_maps", "uids", "snap", "copies",
        "facts", "zones", "stacks", "broken", "reach", "check", "reached",
    )  # fmt: skip

    def __init__(
        self, board: Mapping[str, Any], token: object, data: Mapping[str, Any], on_maps: bool
    ) -> None:
        self.board = board
        self.token = token
        self.data = data
        self.kinds: Mapping[str, str] = {}
        self.on_maps = on_maps  # zone_of_all's lists: units off the maps are not read
        self.uids: list[Any] = []  # the units' ids, in the list's order (no id twice)
        self.snap: list[Any] = []
        self.copies: list[int] = []  # the positions where `snap` holds a copy
        self.facts: dict[Any, Facts] = {}  # unit id -> its facts
        self.zones: dict[str, _Zone] = {}
        self.stacks: dict[Any, list[Any]] | None = None  # hex -> unit ids, once asked
        self.broken: set[Any] = set()  # hexes breaking 4.1 (with `stacks`)
        self.reach: Reach = _unset
        self.check: Check = _unset
        self.reached: dict[str, list[str]] = {}  # hex -> reach(board, hex), as asked


def _unset(*args: Any) -> Any:
    raise _Fallback


_SLOTS: dict[tuple[int, int, bool], list[_Slot]] = {}
_ID = itemgetter("id")
_HEX = itemgetter("hex")


# --- which unit dicts cannot change -------------------------------------------------------


def _kept(unit: Any, frozen: Callable[[Any], bool]) -> tuple[Any, bool]:
    """What the snap holds for `unit`: itself if frozen, else a copy (and True)."""
    if frozen(unit):
        return unit, False
    return dict(unit), True


# --- the slot for a list -------------------------------------------------------------------


def _slot(
    board: Mapping[str, Any],
    token: object,
    data: Mapping[str, Any],
    kinds: Mapping[str, str],
    units: list[Any],
    on_maps: bool,
    reach: Reach,
    check: Check,
) -> _Slot:
    """The slot of `units`, up to date: the one whose snap equals it, else one of the same
    length listing the same units in the same order brought up to date, else the one used
    last if its units are nearly these, else a new one."""
    key = (id(board), id(data), on_maps)
    slots = _SLOTS.get(key)
    if slots is None:
        if len(_SLOTS) >= 8:
            _SLOTS.clear()
        slots = _SLOTS[key] = []
    n = len(units)
    for i, slot in enumerate(slots):
        if (
            len(slot.snap) == n
            and slot.snap == units
            and slot.board is board
            and slot.token is token
            and slot.data is data
        ):
            if i:
                slots.insert(0, slots.pop(i))
            return slot
    for i, slot in enumerate(slots):
        if slot.board is not board or slot.token is not token or slot.data is not data:
            continue
        if len(slot.snap) == n:
            changed = _aligned(slot, units)
            if changed is not None:
                del slots[i]
                try:
                    if _update_aligned(slot, units, changed):
                        slots.insert(0, slot)
                        return slot
                except Exception:
                    pass  # (dropped: made again below, or the strict computation raises)
                break
    else:
        # no slot of these units: the last one used, if these are its units and new ones
        # after them (units put in a state)
        last = slots[0] if slots else None
        if last is not None and last.board is board and last.token is token:
            m = len(last.snap)
            if last.data is data and m < n <= m + _REBUILD_AFTER and _new_ids(last, units, m):
                changed = _aligned(last, units[:m])
                if changed is not None:
                    del slots[0]
                    try:
                        if _update_aligned(last, units, changed):
                            slots.insert(0, last)
                            return last
                    except Exception:
                        pass
    if slots:
        slot = slots[0]
        if slot.board is board and slot.token is token and slot.data is data:
            uids = list(map(_ID, units))
            if len(set(uids).symmetric_difference(slot.uids)) <= _REBUILD_AFTER:
                del slots[0]
                try:
                    if _update_by_id(slot, units, uids):
                        slots.insert(0, slot)
                        return slot
                except Exception:
                    pass
    slot = _Slot(board, token, data, on_maps)
    slot.kinds = kinds
    slot.reach = reach
    slot.check = check
    _fill(slot, units)
    slots.insert(0, slot)
    del slots[_SLOTS_KEPT:]
    return slot


def _fill(slot: _Slot, units: list[Any]) -> None:
    uids = list(map(_ID, units))
    facts = {u["id"]: _facts(u) for u in units}
    if len(facts) != len(uids):
        raise _Fallback  # (an id twice: only the strict computations)
    frozen = frozen_test()
    snap = []
    copies = []
    for i, u in enumerate(units):
        kept, copied = _kept(u, frozen)
        snap.append(kept)
        if copied:
            copies.append(i)
    slot.uids = uids
    slot.facts = facts
    slot.snap = snap
    slot.copies = copies


Move = tuple[Facts | None, Facts | None]  # a unit's facts before and now (None: not listed)


def _aligned(slot: _Slot, units: list[Any]) -> list[int] | None:
    """The positions where `units` (of the snap's length) differs from the snap, if the
    units there have the same ids as before (else None: the lists do not align). Found a
    run of `_RUN` at a time (one C-level comparison a run; most runs are the same)."""
    changed = _differing(units, slot.snap)
    uids = slot.uids
    for i in changed:
        u = units[i]
        if type(u) is not dict or u.get("id") != uids[i]:
            return None
    return changed


def _differing(units: list[Any], snap: list[Any]) -> list[int]:
    """The positions where two lists of one length differ (by identity, then content): a
    run of `_RUN` compared at a time, then a quarter of a run, then each dict."""
    n = len(snap)
    changed = []
    for lo in range(0, n, _RUN):
        hi = lo + _RUN
        if units[lo:hi] != snap[lo:hi]:
            for qlo in range(lo, hi if hi < n else n, 4):
                qhi = qlo + 4
                if units[qlo:qhi] != snap[qlo:qhi]:
                    for i in range(qlo, qhi if qhi < n else n):
                        u = units[i]
                        kept = snap[i]
                        if u is not kept and u != kept:
                            changed.append(i)
    return changed


_RUN = 16


def _new_ids(slot: _Slot, units: list[Any], m: int) -> bool:
    """Are the units of `units` after its first `m` dicts of ids new to `slot`, none twice?"""
    tail = units[m:]
    if not all(type(u) is dict for u in tail):
        return False
    ids = [u.get("id") for u in tail]
    return len(set(ids)) == len(ids) and slot.facts.keys().isdisjoint(ids)


def _take_in(
    facts: dict[Any, Any],
    units: list[Any],
    positions: list[int],
    snap: list[Any],
    frozen: Callable[[Any], bool],
    moves: list[Move],
) -> list[int]:
    """Take in the units at `positions` (changed since the snap): each one's new facts
    (a move recorded where they differ) and its kept dict in `snap`; the positions whose
    dict was kept as a copy."""
    copies = []
    for i in positions:
        u = units[i]
        new = _facts(u)
        old = facts.get(new[0])
        if new != old:
            moves.append((old, new))
            facts[new[0]] = new
        kept, copied = _kept(u, frozen)
        snap[i] = kept
        if copied:
            copies.append(i)
    return copies


def _update_aligned(slot: _Slot, units: list[Any], changed: list[int]) -> bool:
    """Bring `slot` to `units`, whose positions `changed` hold other dicts of the same ids
    and whose dicts after the snap's length are new units (`_new_ids`): False if too much
    changed (the slot, changed in part, is to be dropped)."""
    frozen = frozen_test()
    facts = slot.facts
    snap = slot.snap
    moves: list[Move] = []
    m = len(snap)
    if len(units) > m:  # (new units: listed after the others)
        changed = [*changed, *range(m, len(units))]
        snap += [None] * (len(units) - m)
        slot.uids += [u["id"] for u in units[m:]]
    copies = _take_in(facts, units, changed, snap, frozen, moves)
    for i in slot.copies:  # (copies the same in content: held as the dict, once frozen)
        if snap[i] is not units[i] and i not in changed:
            kept, copied = _kept(units[i], frozen)
            snap[i] = kept
            if copied:
                copies.append(i)
    slot.copies = copies
    return _moved(slot, units, slot.uids, moves)


def _update_by_id(slot: _Slot, units: list[Any], uids: list[Any]) -> bool:
    """Bring `slot` to `units` (ids `uids`), units having come or gone: False if too much
    changed (the slot, changed in part, is to be dropped)."""
    if len(set(uids)) != len(uids):
        return False
    facts = slot.facts
    moves: list[Move] = []
    before = dict(zip(slot.uids, slot.snap, strict=True))
    snap = list(map(before.get, uids))  # (the snap's dict of each id; None if new)
    frozen = frozen_test()
    copies = _take_in(facts, units, _differing(units, snap), snap, frozen, moves)
    at = dict(zip(uids, range(len(uids)), strict=True))
    for uid in [slot.uids[i] for i in slot.copies]:  # (the copies kept: where they are now)
        at_now = at.get(uid)
        if at_now is not None and at_now not in copies:
            kept, copied = _kept(units[at_now], frozen)  # (the same in content: `_differing`)
            snap[at_now] = kept
            if copied:
                copies.append(at_now)
    for uid in set(slot.uids).difference(uids):  # (gone from the list)
        moves.append((facts.pop(uid), None))
    slot.uids = uids
    slot.snap = snap
    slot.copies = copies
    return _moved(slot, units, uids, moves)


def _moved(slot: _Slot, units: list[Any], uids: list[Any], moves: list[Move]) -> bool:
    """The units of `moves` have new facts: their ZOC and stacks, in every map kept."""
    if len(moves) > _REBUILD_AFTER:
        return False
    if moves:
        zones = slot.zones
        for side, zone in list(zones.items()):
            zone.pending += moves
            if len(zone.pending) > _REBUILD_AFTER:
                del zones[side]  # (made again from the facts when next asked)
        if slot.stacks is not None:
            _move_stacks(slot, uids, units, moves)
    return True


# --- ZOC -------------------------------------------------------------------------------------


def _kind(slot: _Slot, fact: Facts | None, side: str) -> str:
    """The ZOC kind a unit's facts give against `side` ("" for none, or not an enemy)."""
    if fact is None:
        return ""
    uid, unit_side, h, disrupted, volkssturm = fact
    if unit_side == side or disrupted:
        return ""
    if slot.on_maps and h in _OFF_MAP:
        return ""
    if volkssturm:
        return WEAK
    kind = slot.kinds.get(uid)
    if kind is None or (kind and kind != STRONG and kind != WEAK):
        raise _Fallback  # (not in the counters data, or a kind of its own)
    return kind


def _reached(slot: _Slot, h: str) -> list[str]:
    found = slot.reached.get(h)
    if found is None:
        found = slot.reached[h] = slot.reach(slot.board, h)
    return found


def _move_sources(slot: _Slot, zone: _Zone, moves: list[Move]) -> None:
    side = zone.side
    strong, weak = zone.strong, zone.weak
    touched: list[str] = []
    for old, new in moves:
        was = _kind(slot, old, side)
        now = _kind(slot, new, side)
        if was == now and (not was or old[2] == new[2]):  # type: ignore[index]
            continue
        if was:
            found = _reached(slot, old[2])  # type: ignore[index]
            counts = strong if was == STRONG else weak
            for n in found:
                counts[n] -= 1
            touched += found
        if now:
            found = _reached(slot, new[2])  # type: ignore[index]
            counts = strong if now == STRONG else weak
            for n in found:
                counts[n] = counts.get(n, 0) + 1
            touched += found
    if touched and zone.made is not None:
        made = zone.made if _unheld(zone) else dict(zone.made)
        for n in set(touched):
            if strong.get(n):
                made[n] = STRONG
            elif weak.get(n):
                made[n] = WEAK
            else:
                made.pop(n, None)
        zone.made = made


def _unheld(zone: _Zone) -> bool:
    """Does nothing but `zone` hold its map (so that changing it in place changes no map a
    caller was given)? Its reference count says so in CPython: the attribute and the count's
    own argument. Elsewhere (no `sys.getrefcount`), never: an update makes a new map."""
    return _refcount is not None and _refcount(zone.made) <= 2


_refcount: Callable[[Any], int] | None = getattr(sys, "getrefcount", None)


def _zone_in(slot: _Slot, side: str) -> dict[str, str]:
    zone = slot.zones.get(side)
    if zone is not None and zone.pending:
        moves = zone.pending
        zone.pending = []
        _move_sources(slot, zone, moves)
    if zone is None:
        zone = _Zone(side)
        strong: list[list[str]] = []
        weak: list[list[str]] = []
        for fact in slot.facts.values():
            kind = _kind(slot, fact, side)
            if kind:
                (strong if kind == STRONG else weak).append(_reached(slot, fact[2]))
        zone.strong = Counter(chain.from_iterable(strong))
        zone.weak = Counter(chain.from_iterable(weak))
        slot.zones[side] = zone
    if zone.made is None:
        made = {n: WEAK for n, c in zone.weak.items() if c}
        made.update((n, STRONG) for n, c in zone.strong.items() if c)
        zone.made = made
    return zone.made


def zone(
    board: Mapping[str, Any],
    token: object,
    data: Mapping[str, Any],
    kinds: Mapping[str, str],
    units: list[Any],
    side: str,
    on_maps: bool,
    reach: Reach,
    check: Check,
) -> dict[str, str] | None:
    """The enemy ZOC of `side` among `units` (`zoc._zone`; of those on the maps if
    `on_maps`, as zone_of_all), or None where only the strict computation answers."""
    try:
        return _zone_in(_slot(board, token, data, kinds, units, on_maps, reach, check), side)
    except Exception:
        _SLOTS.pop((id(board), id(data), on_maps), None)
        return None


# --- stacking (4.1) ----------------------------------------------------------------------------


def _move_stacks(slot: _Slot, uids: list[Any], units: list[Any], moves: list[Move]) -> None:
    stacks = slot.stacks
    assert stacks is not None
    touched = set()
    for old, new in moves:
        if old is not None:
            stacks[old[2]].remove(old[0])
            touched.add(old[2])
        if new is not None:
            stacks.setdefault(new[2], []).append(new[0])
            touched.add(new[2])
    board, data, broken = slot.board, slot.data, slot.broken
    by_id = dict(zip(uids, units, strict=True))
    for h in touched:
        here = stacks.get(h)
        if not here:
            broken.discard(h)
            stacks.pop(h, None)
        elif slot.check(board, data, [by_id[uid] for uid in here]):
            broken.add(h)
        else:
            broken.discard(h)


def overstacked(
    board: Mapping[str, Any],
    token: object,
    data: Mapping[str, Any],
    kinds: Mapping[str, str],
    units: list[Any],
    reach: Reach,
    check: Check,
    strict: Callable[[], dict[str, list[str]]],
) -> dict[str, list[str]]:
    """`zoc.end_of_phase_problems` of `units`: {} from the slot when no hex breaks 4.1,
    else (or where the slot cannot tell) `strict()`."""
    try:
        slot = _slot(board, token, data, kinds, units, False, reach, check)
        if slot.stacks is None:
            found = strict()
            stacks: dict[Any, list[Any]] = {}
            for uid, fact in slot.facts.items():
                stacks.setdefault(fact[2], []).append(uid)
            slot.stacks = stacks
            slot.broken = set(found)
            return found
    except Exception:
        _SLOTS.pop((id(board), id(data), False), None)
        return strict()
    if not slot.broken:
        return {}
    # the broken hexes in the order they first come in `units`, each with its units in
    # that order (as end_of_phase_strict finds and words them)
    hexes = list(map(_HEX, units))
    uids = slot.uids
    out = {}
    for h in sorted(slot.broken, key=hexes.index):
        here = sorted(map(uids.index, slot.stacks[h]))
        problems = check(board, data, [units[i] for i in here])
        if not problems:
            return strict()  # (not what the slot says: the strict answer)
        out[h] = problems
    return out
