"""The pixel counts Chromium makes for the browser tests find planted pixels."""

from __future__ import annotations

import random

import pytest

from pbem.render.png import chromium
from tests.render.browser_pixels import colours, differing_pixels
from tests.render.png_pixels import read_png
from tests.render.test_png_pixels import _encode

pytestmark = pytest.mark.skipif(chromium() is None, reason="chromium is not installed")


def test_it_counts_the_pixels_over_the_threshold_and_no_others() -> None:
    rng = random.Random(29)
    width, height, bpp = 41, 23, 3
    rows = [bytearray(rng.randrange(20, 236) for _ in range(width * bpp)) for _ in range(height)]
    changed = [bytearray(row) for row in rows]
    spots = rng.sample([(x, y) for x in range(width) for y in range(height)], 12)
    for n, (x, y) in enumerate(spots):
        channel = n % 3
        # Seven pixels 9 or more apart in one channel (counted), five 8 apart (not).
        changed[y][x * bpp + channel] += (9 + n) if n < 7 else -8
    kinds = [r % 5 for r in range(height)]  # every PNG filter, both images
    first = _encode([bytes(r) for r in rows], width, bpp, kinds)
    second = _encode([bytes(r) for r in changed], width, bpp, kinds[::-1])
    found = differing_pixels(first, second, threshold=8)
    assert (found.width, found.height, found.differing) == (width, height, 7)
    assert differing_pixels(first, first, threshold=8).differing == 0
    assert differing_pixels(first, second, threshold=7).differing == 12


def test_images_of_two_sizes_are_not_compared() -> None:
    row = bytes(range(30))
    small = _encode([row] * 4, 10, 3, [0] * 4)
    tall = _encode([row] * 5, 10, 3, [0] * 5)
    with pytest.raises(AssertionError):
        differing_pixels(small, tall, threshold=8)


def test_its_colour_census_is_the_python_readers() -> None:
    rng = random.Random(7)
    width, height, bpp = 29, 17, 3
    palette = [bytes(rng.randrange(256) for _ in range(3)) for _ in range(9)]
    weights = [30, 1, 2, 3, 4, 5, 6, 7, 8]  # one colour most common
    rows = [b"".join(rng.choices(palette, weights=weights, k=width)) for _ in range(height)]
    png = _encode(rows, width, bpp, [r % 5 for r in range(height)])
    for every in (1, 3):
        expected = read_png(png).colours(every=every)
        (found,) = colours([png], every=every)
        assert (found.width, found.height) == (width, height)
        assert found.distinct == len(expected)
        assert found.most == expected.most_common(1)[0][1]
        assert found.sampled == sum(expected.values()) == width * len(range(0, height, every))
