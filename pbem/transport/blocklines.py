"""A binary file's lines read in blocks, with a one-step reading of a plain armored payload.

The streamed readers of a save or a move file (pbem.verify's, movefile.plain_entries) go
through a file line by line; an armored entry is about twenty lines of base32, each one
trip through Python. `BlockLines` gives the same lines as iterating over the file does
(each with its "\\n", the last one without when the file does not end with one), and
`take_payload` reads a whole payload in one step when it is written exactly as pbem
writes it: only then is it what the line-by-line readers would have gathered, and any
other payload is left for them to read line by line.
"""

from __future__ import annotations

import re
from typing import BinaryIO

from pbem.transport.armor import END

_BLOCK = 1 << 16
# The END line as pbem writes it, at the start of a line (the "\n" before it included).
_END_AFTER_LINE = ("\n" + END + "\n").encode("ascii")
# The bytes a plain payload region holds: base32 symbols (either case) and newlines.
_PAYLOAD_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz234567\n"
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
        self.taken_lines = 0  # how many lines the last `take_payload` read (its END too)

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
        """Right after a BEGIN line: the payload's symbols and the END line read in one step,
        when the lines up to the first END line as pbem writes it are each one or more
        base32 symbols and nothing else; the symbols are returned joined, without the
        newlines. Else None, and nothing is read: the caller reads those lines one by one.

        The lines so read are exactly the ones a line-by-line reader would take as the
        payload: each starts with a base32 symbol (so none is a marker, a blank or a
        decorated line) and holds no whitespace or line break but its newline, and the
        END line ends the entry for such a reader too."""
        while True:
            buf, pos = self._buf, self._pos
            at = buf.find(_END_AFTER_LINE, pos)
            if at >= 0:
                break
            if len(buf) - pos > _MAX_PAYLOAD or not self._fill():
                return None
        region = buf[pos : at + 1]
        if region[:1] == b"\n" or region.translate(None, _PAYLOAD_BYTES) or b"\n\n" in region:
            return None
        self._pos = at + len(_END_AFTER_LINE)
        self.taken_lines = region.count(b"\n") + 1
        return region.replace(b"\n", b"")

    def take_matching(self, lines: re.Pattern[bytes]) -> bytes:
        """The longest run of whole lines from here, within what is buffered, that `lines`
        (a pattern of a repetition of whole lines, each ending with "\\n") matches; they
        are read. Empty when there is none: the caller reads the next line by itself."""
        found = lines.match(self._buf, self._pos)
        if found is None or found.end() == self._pos:
            return b""
        self._pos = found.end()
        return found.group()
