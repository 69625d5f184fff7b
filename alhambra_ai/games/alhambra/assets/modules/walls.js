// The Walls (rules.md §9.7) on the viewer's page (viewer.js's MODULE_VIEWS): the wall cards face up beside the
// money display, the wall pieces they put on the seats' tiles (city and reserve), the cards used and left.

const WALL_PIECE = "#ffd35c";   // the light stripe of a wall piece

// A wall piece on one side (drawWalls's ``draw``): dark with a light stripe (a wooden piece on the tile).
function drawWallPiece(g, x1, y1, x2, y2, bit, w) {
  const piece = el("svg:g", {class: "wall-piece", "data-side": bit}, g);
  el("svg:line", {x1, y1, x2, y2, stroke: "#1b1b1b", "stroke-width": w + 1, "stroke-linecap": "square"}, piece);
  el("svg:line", {x1, y1, x2, y2, stroke: WALL_PIECE, "stroke-width": Math.max(1.5, w - 3),
                  "stroke-linecap": "butt"}, piece);
}

// A wall card: a pale square with its striped pieces and its number.
function drawWallCard(parent, px, py, card, size, attrs) {
  const sides = DATA.wall_cards[card] || "";
  const g = title(el("svg:g", attrs, parent), `wall card ${card} (${sides})`);
  el("svg:rect", {x: px, y: py, width: size, height: size, rx: 3, fill: "#f5ecd9", stroke: "#b9a57e"}, g);
  drawWalls(g, px, py, size, 0, {bits: wallBits(sides), draw: drawWallPiece}, size > 24 ? 5 : 3);
  if (size > 24) el("svg:text", {x: px + size / 2, y: py + size / 2 + 5, "text-anchor": "middle",
                                 "font-size": 13, fill: "#6b4f2a"}, g, String(card));
  return g;
}

// The face-up wall cards beside the money display.
function drawWallCards(walls, parent) {
  if (!walls.face_up.length) return;
  el("div", {class: "note"}, parent, "wall cards face up");
  const svg = el("svg:svg", {width: walls.face_up.length * (CELL + 6), height: CELL + 6, class: "wall-cards"},
                 parent);
  walls.face_up.forEach((c, i) => drawWallCard(svg, 3 + i * (CELL + 6), 3, c, CELL,
                                               {class: "wall-card", "data-card": c}));
}

moduleView({
  name: "walls",
  legend: {
    "wall-card": () => {
      const svg = legendIcon();
      drawWallCard(svg, 3, 3, 5, 16, {});
      return svg;
    },
  },
  display: (f, m, parent) => { if (m.walls) drawWallCards(m.walls, parent); },
  facts: (f, m) => {
    if (!m.walls) return [];
    const left = m.walls.piles.reduce((n, p) => n + (p ? p[2] : 0), 0);
    return [`wall cards: ${m.walls.used.length} used, ${left} still in the draw pile`];
  },
  city: (m, seat) => m.walls ? {sides: Object.fromEntries(m.walls.pieces[seat]), drawSide: drawWallPiece} : null,
});
