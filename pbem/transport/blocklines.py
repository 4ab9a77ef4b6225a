"""A binary file's lines read in blocks, with a one-step reading of a plain armored payload.

The streamed readers of a save or a move file (pbem.verify's, movefile.plain_entries) go
through a file line by line; an armored entry is about twenty lines of base32, each one
trip through Python. `BlockLines` gives the same lines as iterating over the file does
(each with its "\\n", the last one without when the file does not end with one), and
`take_payload` reads a whole payload in one step, up to an END line as pbem writes it:
when its lines are base32 symbols only, they are what the line-by-line readers would
have gathered (armor.decode_lines tells), and anything else is left to the reader of
the whole text.
"""

from __future__ import annotations

import re

from pbem.hints import TYPE_CHECKING
from pbem.transport.armor import END

if TYPE_CHECKING:
    from typing import BinaryIO

_BLOCK = 1 << 16
# The END line as pbem writes it, at the start of a line (the "\n" before it included).
_END_AFTER_LINE = ("\n" + END + "\n").encode("ascii")
# The most a payload read in one step may span; a longer one (an entry whose END is far
# away or missing) is left to the line readers, so that the buffer never holds more.
_MAX_PAYLOAD = 1 << 22


class BlockLines:
    """The lines of a binary stream, read from where it stands in blocks of 64 KiB.

    Iterating gives exactly what iterating over the stream itself would give. Only what
    is not yet handed out is buffered (one block, or one line when a line is longer)."""

    def __init__(self, stream: BinaryIO, block: int = _BLOCK) -> None:
        self._stream = stream
        self._block = block
        self._buf = b""
        self._pos = 0

    def __iter__(self) -> BlockLines:
        return self

    def _fill(self) -> bool:
        """Read one more block behind what is left; False at the end of the stream."""
        chunk = self._stream.read(self._block)
        if not chunk:
            return False
        self._buf = self._buf[self._pos :] + chunk
        self._pos = 0
        return True

    def __next__(self) -> bytes:
        buf, pos = self._buf, self._pos
        end = buf.find(b"\n", pos)
        while end < 0:
            searched = len(buf) - pos
            if not self._fill():
                if pos < len(buf):  # the last line, without a newline
                    self._pos = len(buf)
                    return buf[pos:]
                raise StopIteration
            buf, pos = self._buf, self._pos
            end = buf.find(b"\n", pos + searched)
        self._pos = end + 1
        return buf[pos : end + 1]

    def take_payload(self) -> bytes | None:
        """Right after a BEGIN line: the lines up to the first END line as pbem writes it
        (`-----END PBEM ENTRY-----` and its newline, at a line's start), read in one step
        and returned as they are, each with its newline; the END line is read too.

        None when no such END line comes within a few megabytes: nothing is read then, and
        the caller reads the lines one by one. The caller judges the lines returned: when
        they are all base32 symbols (armor.decode_lines), they are the lines a
        line-by-line reader takes as the payload, and the END line ends it for that reader
        too; anything else is for the reader of the whole text to judge."""
        while True:
            buf, pos = self._buf, self._pos
            at = buf.find(_END_AFTER_LINE, pos)
            if at >= 0:
                break
            if len(buf) - pos > _MAX_PAYLOAD or not self._fill():
                return None
        self._pos = at + len(_END_AFTER_LINE)
        return buf[pos : at + 1]

    def take_matching(self, lines: re.Pattern[bytes]) -> bytes:
        """The longest run of whole lines from here, within what is buffered, that `lines`
        (a pattern of a repetition of whole lines, each ending with "\\n") matches; they
        are read. Empty when there is none: the caller reads the next line by itself."""
        found = lines.match(self._buf, self._pos)
        if found is None or found.end() == self._pos:
            return b""
        self._pos = found.end()
        return found.group()
