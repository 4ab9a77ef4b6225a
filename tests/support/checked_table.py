"""`pbem.testing.Table` with its "apply leaves its input unchanged" check made cheaper and
no weaker, for the test files that play whole bot games with that check on.

The Table fingerprints the state before and after each apply: every 25th entry by its
canonical bytes (which also checks that the state is canonical JSON), otherwise by
`json.dumps(sort_keys=True)` of all but the static parts. Here the latter are marshal's
version 0 bytes instead: they tell apart all that sorted JSON does (True, 1 and 1.0;
-0.0 and 0.0; every str and int) and more (a tuple from a list, a key 1 from "1", the
order of a dict's keys), version 0 writes no references between equal parts (equal
states give equal bytes), and they cost a third as much. A state marshal cannot write
(an object of another type) is fingerprinted as the Table does it. The 25th-entry
canonical check, the dice left unused and the one role asked are the Table's own.
"""

from __future__ import annotations

import json
import marshal

from pbem.core.canonical import canonical_bytes
from pbem.core.engine import State
from pbem.testing import Table


class CheckedTable(Table):
    def _fingerprint(self, state: State) -> bytes:
        if self.seq % 25 == 0:
            return canonical_bytes(state)  # also checks that the state is canonical JSON
        static = set(getattr(self.engine, "static_keys", ()) or ())
        rest = {k: v for k, v in state.items() if k not in static}
        try:
            return marshal.dumps(rest, 0)
        except ValueError:
            return json.dumps(rest, sort_keys=True, default=repr).encode()
