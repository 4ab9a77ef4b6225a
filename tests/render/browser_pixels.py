"""Screenshots measured pixel by pixel by Chromium itself.

The browser decodes the PNGs (its own decoder, as it shows them) into a canvas and counts
there: the pixels where two screenshots differ by more than a threshold in red, green or
blue, and the colours of one screenshot (in the session's one browser:
tests/support/headless.py). Undoing PNG's Paeth filter and walking millions
of pixels in Python took most of these tests' time (tests/render/png_pixels.py, tested
against the PNG spec, stays for small images); here it is one more Chromium start.
tests/render/test_browser_pixels.py plants known pixels for it to find.
"""

from __future__ import annotations

import base64
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.support.headless import open_page

# The images are data: URLs, which leave the canvas readable (a file: image would taint
# it). Everything runs in the load handler, which fires once every image is decoded and
# before Chromium dumps the DOM.
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
{images}
<script>
const TASK = {task};
window.addEventListener("load", () => {{
  const images = Array.from(document.images);
  const pixels = (img) => {{
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
    const context = canvas.getContext("2d");
    context.drawImage(img, 0, 0);
    return context.getImageData(0, 0, canvas.width, canvas.height).data;
  }};
  const result = {{sizes: images.map((img) => [img.naturalWidth, img.naturalHeight])}};
  if (TASK.kind === "difference") {{
    const [a, b] = images, t = TASK.threshold;
    if (a.naturalWidth === b.naturalWidth && a.naturalHeight === b.naturalHeight) {{
      const x = pixels(a), y = pixels(b);
      let differing = 0;
      for (let i = 0; i < x.length; i += 4) {{
        if (Math.abs(x[i] - y[i]) > t || Math.abs(x[i + 1] - y[i + 1]) > t
            || Math.abs(x[i + 2] - y[i + 2]) > t) differing++;
      }}
      result.differing = differing;
    }}
  }} else {{
    result.colours = images.map((img) => {{
      const data = pixels(img), row = img.naturalWidth * 4, counts = new Map();
      for (let start = 0; start < data.length; start += row * TASK.every) {{
        for (let i = start; i < start + row; i += 4) {{
          const colour = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
          counts.set(colour, (counts.get(colour) || 0) + 1);
        }}
      }}
      let most = 0, total = 0;
      for (const n of counts.values()) {{ total += n; if (n > most) most = n; }}
      return [counts.size, most, total];
    }});
  }}
  document.body.setAttribute("data-result", JSON.stringify(result));
}});
</script></body></html>"""


@dataclass(frozen=True)
class Difference:
    width: int
    height: int
    differing: int  # pixels with a channel (R, G or B) more than the threshold apart

    @property
    def pixels(self) -> int:
        return self.width * self.height


@dataclass(frozen=True)
class Colours:
    width: int
    height: int
    distinct: int  # RGB colours among the sampled pixels
    most: int  # pixels of the commonest colour
    sampled: int  # pixels counted (every `every`-th row)


def _measure(pngs: list[bytes], task: dict[str, object]) -> dict[str, list[object]]:
    images = "".join(
        f'<img src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}">' for png in pngs
    )
    page = PAGE.format(images=images, task=json.dumps(task))
    with tempfile.TemporaryDirectory(prefix="pbem-pixels-") as folder:
        path = Path(folder) / "pixels.html"
        path.write_text(page, encoding="utf-8")
        _shot, dom = open_page(path, width=200, height=200, dump_dom=True)
    found = re.search(r'data-result="([^"]*)"', dom)
    assert found is not None, "the measurement did not run in Chromium"
    result: dict[str, list[object]] = json.loads(found.group(1).replace("&quot;", '"'))
    assert all(w and h for w, h in result["sizes"]), "an image did not load"  # type: ignore[misc]
    return result


def differing_pixels(first: bytes, second: bytes, threshold: int) -> Difference:
    """How many pixels of two PNGs of one size differ by more than `threshold` in a
    colour channel, as Chromium decodes them. Different sizes fail the assertion."""
    result = _measure([first, second], {"kind": "difference", "threshold": int(threshold)})
    (w1, h1), (w2, h2) = result["sizes"]  # type: ignore[misc]
    assert (w1, h1) == (w2, h2), ((w1, h1), (w2, h2))
    return Difference(w1, h1, int(result["differing"]))  # type: ignore[call-overload]


def colours(pngs: list[bytes], every: int = 1) -> list[Colours]:
    """Each PNG's size and colour census, on every `every`-th row from the first."""
    result = _measure(pngs, {"kind": "colours", "every": int(every)})
    return [
        Colours(w, h, distinct, most, sampled)
        for (w, h), (distinct, most, sampled) in zip(
            result["sizes"],  # type: ignore[misc]
            result["colours"],  # type: ignore[misc]
            strict=True,
        )
    ]
