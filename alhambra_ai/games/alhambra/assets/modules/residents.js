// The Residents (rules.md §9.8) on the viewer's page (viewer.js's MODULE_VIEWS): the residents on their
// tiles, each seat's disc on its city (or beside it, lifted) and in words under it, the figure supply.

// A seat's disc centred on (cx, cy): a wooden disc ringed in the seat's colour, its figures on it: those seen
// arriving in their type's colour, the still secret ones grey with "?".
function drawDisc(parent, cx, cy, seat, disc, attrs) {
  const figures = [...disc.seen.map(t => [TYPE_COLOURS[t], t]), ...Array(disc.hidden).fill(["#bdbdbd", null])];
  const g = title(el("svg:g", attrs, parent),
                  `disc of seat ${seat + 1}: ${disc.seen.join(", ") || "none seen"}; ${disc.hidden} secret` +
                  (disc.gone.length ? `; gone: ${disc.gone.join(", ")}` : ""));
  el("svg:circle", {cx, cy, r: CELL / 2 - 3, fill: "#e8cfa0", stroke: SEAT_COLOURS[seat % SEAT_COLOURS.length],
                    "stroke-width": 4}, g);
  const step = 12, x0 = cx - (figures.length - 1) * step / 2;
  figures.forEach(([fill, type], i) => {
    const f = drawFigure(g, x0 + i * step, cy + 1, fill,
                         {class: "disc-figure", "data-type": type || "secret"}, type || "secret figure");
    if (!type) el("svg:text", {x: x0 + i * step, y: cy + 7, "text-anchor": "middle", "font-size": 8,
                               "font-weight": 700, fill: "#222"}, f, "?");
  });
  return g;
}

// A seat's disc in words: where it is, its figures (seen ones by type, the rest secret), those known gone.
function discLine(m, seat, box) {
  const d = m.discs[seat];
  const line = el("div", {class: "note disc-line", "data-seat": seat + 1}, box);
  if (!d.cell && !d.seen.length && !d.hidden) { line.textContent = "disc: figures not chosen yet"; return; }
  if (!d.cell) {                        // lifted (or not yet set beside the fountain): drawn here
    const svg = el("svg:svg", {width: CELL, height: CELL, class: "disc-aside"}, line);
    drawDisc(svg, CELL / 2, CELL / 2, seat, d, {class: "disc", "data-seat": seat + 1, "data-lifted": "true"});
  }
  el("span", {}, line, `disc${d.cell ? ` at ${d.cell.join(",")}` : m.setup_left ? " not set yet" : " lifted"}: ` + [...d.seen, ...Array(d.hidden).fill("?")].join(" ") +
     ` (${d.hidden} secret)`);
  if (d.gone.length) {
    el("span", {}, line, "; known gone: ");
    el("s", {}, line, d.gone.join(" "));
  }
}

moduleView({
  name: "residents",
  legend: {
    resident: () => {
      const svg = legendIcon();
      drawFigure(svg, 11, 12, "#fff", {});
      return svg;
    },
    disc: () => {
      const svg = legendIcon();
      el("svg:circle", {cx: 11, cy: 11, r: 9, fill: "#e8cfa0", stroke: SEAT_COLOURS[0], "stroke-width": 2.5}, svg);
      drawFigure(svg, 11, 12, "#bdbdbd", {});
      return svg;
    },
  },
  notes: (f, m) => {
    const out = [];
    if (m.supply) {              // the supply: the figures anyone may draw
      const box = el("span", {class: "supply"}, null, " · figure supply: ");
      m.supply.forEach((n, t) => {
        const type = DATA.types[t];
        const svg = el("svg:svg", {width: 14, height: 16, viewBox: "0 0 14 16"}, box);
        drawFigure(svg, 7, 8, TYPE_COLOURS[type], {}, type);
        el("span", {class: "count", "data-type": type}, box, `${n} `);
      });
      out.push(box);
    }
    if (m.lifted) out.push(el("div", {}, null, `tile ${m.lifted.tile} lifted the disc: a resident may move in`));
    return out;
  },
  city: (m, seat) => {
    const residents = new Set(m.residents ? m.residents[seat] : []);
    const d = m.discs ? m.discs[seat] : null, disc = d && d.cell ? d : null;
    return {
      cells: disc ? [disc.cell] : [],          // the disc may stand beside the tiles
      tile: (g, px, py, tile) => {
        if (residents.has(tile)) {
          drawFigure(g, px + CELL - 9, py + 12, "#fff", {class: "resident", "data-tile": tile},
                     `resident of ${tile} (${tileType(tile)})`);
        }
      },
      over: (svg, at) => {
        if (!disc) return;
        const [px, py] = at(disc.cell[0], disc.cell[1]);
        drawDisc(svg, px + CELL / 2, py + CELL / 2, seat, disc,
                 {class: "disc", "data-seat": seat + 1, "data-x": disc.cell[0], "data-y": disc.cell[1]});
      },
    };
  },
  underCity: (m, seat, box) => { if (m.discs) discLine(m, seat, box); },
});
