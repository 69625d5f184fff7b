// The Bazaars (rules.md §9.3) on the viewer's page (viewer.js's MODULE_VIEWS): the bazaars waiting beside the
// market, each with its price.

// The bazaars waiting beside the market: each tile with its price under it in two short lines ("price 8",
// "florin (y)"); each column is as wide as its widest label, so labels never run into each other whatever
// their length.
function bazaarRow(tiles, market, parent) {
  el("div", {class: "note"}, parent,
     "bazaars waiting: each costs what the tile in the market slot of its currency costs");
  const svg = el("svg:svg", {height: CELL + 38, class: "tiles bazaars"}, parent);
  let x = 3;
  tiles.forEach(t => {
    const slot = CURRENCY_NAMES.indexOf(DATA.tiles[t].currency), under = market[slot];
    const lines = [under === null || under === undefined ? "no price" : `price ${DATA.tiles[under].cost}`,
                   `${CURRENCY_NAMES[slot]} (${CURRENCY_LETTERS[slot]})`];
    const texts = lines.map((line, k) => el("svg:text", {y: CELL + 18 + 13 * k, "font-size": 11, fill: "#444",
                                                         "text-anchor": "middle", class: k ? "currency" : "price"},
                                              svg, line));
    const measured = texts.map(e => { try { return e.getComputedTextLength(); } catch (_) { return 0; } });
    const wide = Math.max(CELL, ...measured.map((w, k) => w || lines[k].length * 7));
    drawTile(svg, x + (wide - CELL) / 2, 3, t, wallBits(DATA.tiles[t].walls), {"data-tile": t});
    texts.forEach(e => e.setAttribute("x", x + wide / 2));
    x += wide + 14;
  });
  svg.setAttribute("width", x);
  return svg;
}

moduleView({
  name: "bazaars",
  market: (f, m, parent) => {
    if (m.bazaars_waiting && m.bazaars_waiting.length) bazaarRow(m.bazaars_waiting, f.market, parent);
  },
});
