// pbem's turn page draws a large map from the gzip it carries (issue 29): the page holds
// the map's outer <svg> (its size, its title) with the whole drawing inside as base64 of
// its gzip, in <metadata id="pbem-map-gzip">, a tenth of its bytes; this script inflates it
// (DecompressionStream, offline) and puts the drawing in the outer <svg>'s place, parsed as
// the page itself would parse it inline. Without scripts the box stays empty, and the map
// as text below it says the same (pbem.render.page; `pbem render GAME --format svg` draws it).
"use strict";
(function () {
  const packed = document.getElementById("pbem-map-gzip");
  if (!packed || typeof DecompressionStream !== "function") return;
  const shell = packed.parentNode;
  const bytes = Uint8Array.from(atob(packed.textContent), (c) => c.charCodeAt(0));
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  new Response(inflated).text().then((markup) => {
    const holder = document.createElement("div");
    holder.innerHTML = markup;
    const drawn = holder.firstElementChild;
    if (drawn && drawn.localName === "svg") shell.replaceWith(drawn);
  });
})();
