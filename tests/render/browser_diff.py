"""Two screenshots compared pixel by pixel by Chromium itself.

The browser decodes both PNGs (its own decoder, as it shows them) into a canvas and counts
the pixels whose red, green or blue differ by more than a threshold. Undoing PNG's Paeth
filter and comparing millions of pixels in Python took most of a map comparison's time
(tests/render/png_pixels.py remains for counting colours); here it is one more Chromium
start. tests/render/test_browser_diff.py plants known differences for it to find.
"""

from __future__ import annotations

import base64
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pbem.render.png import run_headless

# The images are data: URLs, which leave the canvas readable (a file: image would taint
# it). Everything runs in the load handler, which fires once both images are decoded and
# before Chromium dumps the DOM.
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<img id="a" src="data:image/png;base64,{first}"><img id="b" src="data:image/png;base64,{second}">
<script>
window.addEventListener("load", () => {{
  const pixels = (img) => {{
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
    const context = canvas.getContext("2d");
    context.drawImage(img, 0, 0);
    return context.getImageData(0, 0, canvas.width, canvas.height).data;
  }};
  const a = document.getElementById("a"), b = document.getElementById("b");
  const result = {{widths: [a.naturalWidth, b.naturalWidth],
                  heights: [a.naturalHeight, b.naturalHeight], differing: null}};
  if (a.naturalWidth === b.naturalWidth && a.naturalHeight === b.naturalHeight) {{
    const x = pixels(a), y = pixels(b);
    let differing = 0;
    for (let i = 0; i < x.length; i += 4) {{
      if (Math.abs(x[i] - y[i]) > {threshold} || Math.abs(x[i + 1] - y[i + 1]) > {threshold}
          || Math.abs(x[i + 2] - y[i + 2]) > {threshold}) differing++;
    }}
    result.differing = differing;
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


def differing_pixels(first: bytes, second: bytes, threshold: int) -> Difference:
    """How many pixels of two PNGs of one size differ by more than `threshold` in a
    colour channel, as Chromium decodes them. Different sizes fail the assertion."""
    page = PAGE.format(
        first=base64.b64encode(first).decode("ascii"),
        second=base64.b64encode(second).decode("ascii"),
        threshold=int(threshold),
    )
    with tempfile.TemporaryDirectory(prefix="pbem-diff-") as folder:
        path = Path(folder) / "diff.html"
        path.write_text(page, encoding="utf-8")
        dom = run_headless(path, width=200, height=200, dump_dom=True)
    found = re.search(r'data-result="([^"]*)"', dom)
    assert found is not None, "the comparison did not run in Chromium"
    result = json.loads(found.group(1).replace("&quot;", '"'))
    widths, heights = result["widths"], result["heights"]
    assert widths[0] == widths[1] and heights[0] == heights[1], (widths, heights)
    assert widths[0] > 0 and heights[0] > 0, "an image did not load"
    return Difference(widths[0], heights[0], int(result["differing"]))
