"""The save a turn page carries with its entries as raw bytes (pbem.transport.savepack,
issue 29): rebuilt to the exact save text, for every title; any block not in pbem's own
armor kept as text; a damaged container refused in one line, never read in part."""

from __future__ import annotations

import base64
import gzip
import json
import random
import struct
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.render.page import packed_save
from pbem.transport import savepack
from pbem.transport.armor import armor
from pbem.transport.htmltext import MAX_SAVE_BYTES, embedded_save

SAVES = Path(__file__).resolve().parents[2] / "saves"


def page_of(data: str) -> str:
    return f'<html><script type="application/json" id="pbem-save">{data}</script></html>'


@pytest.mark.parametrize("save", sorted(p.name for p in SAVES.glob("*.pbem")))
def test_a_page_of_every_title_carries_its_exact_save_and_less_of_it(save: str) -> None:
    text = (SAVES / save).read_text("utf-8")
    data = packed_save(text)
    assert list(json.loads(data)) == ["gzip-raw"]
    assert embedded_save(page_of(data)) == text
    old = base64.b64encode(gzip.compress(text.encode(), compresslevel=9, mtime=0)).decode()
    assert len(data) < 0.9 * len(old)  # (the point: smaller than the save's own gzip)
    # The format before it still reads as it did.
    assert embedded_save(page_of(json.dumps({"gzip": old}))) == text


def test_a_block_not_in_pbem_s_own_armor_stays_text() -> None:
    text = (SAVES / "barbarossa-demo.pbem").read_text("utf-8")
    start = text.index("-----BEGIN PBEM ENTRY-----\n") + len("-----BEGIN PBEM ENTRY-----\n")
    lower = text[:start] + text[start : start + 64].lower() + text[start + 64 :]
    packed = savepack.pack(lower)
    assert packed is not None
    assert lower[start : start + 64].encode() in packed
    assert savepack.unpack(packed, MAX_SAVE_BYTES) == lower
    assert embedded_save(page_of(packed_save(lower))) == lower
    # No entry at all: carried as the text's own gzip.
    assert list(json.loads(packed_save("PBEM SAVE v1\n"))) == ["gzip"]
    assert savepack.pack("PBEM SAVE v1\n") is None


def test_a_damaged_container_is_refused_in_one_line() -> None:
    text = (SAVES / "barbarossa-demo.pbem").read_text("utf-8")
    packed = savepack.pack(text)
    assert packed is not None
    first = int.from_bytes(packed[4:8], "big")
    for damaged in (
        b"",
        packed[:3],
        packed[: len(packed) // 2],
        packed[:-1],
        packed + b"\0",
        (int.from_bytes(packed[:4], "big") + 1).to_bytes(4, "big") + packed[4:],
        packed[:4] + b"\xff\xff\xff\xff" + packed[8:],
        packed[: 8 + first - 1] + b"\xff" + packed[8 + first :],
    ):
        with pytest.raises(savepack.PackError) as error:
            savepack.unpack(damaged, MAX_SAVE_BYTES)
        assert "\n" not in str(error.value) and "damaged" in str(error.value)
        zipped = base64.b64encode(gzip.compress(damaged, mtime=0)).decode()
        with pytest.raises(PbemError, match="^this turn page's embedded game is damaged"):
            embedded_save(page_of(json.dumps({"gzip-raw": zipped})))
    with pytest.raises(savepack.PackError, match="over"):
        savepack.unpack(packed, len(text) - 1)


def test_the_fast_armor_is_pbem_s_own_armor() -> None:
    """savepack.armors, which rebuilds every entry of a page's save, writes exactly what
    pbem.transport.armor.armor writes, whatever the lengths (each 5-byte alignment)."""
    rng = random.Random(29)
    wanted, payloads = [], []
    for size in [*range(0, 90), 300, 4096, 70_000]:
        canonical = rng.randbytes(size)
        signature = rng.randbytes(rng.randrange(0, 100))
        wanted.append(armor(canonical, signature))
        payloads.append(
            struct.pack(">I", size) + canonical + struct.pack(">I", len(signature)) + signature
        )
    assert savepack.armors(payloads) == wanted
    assert savepack.armors([]) == []
