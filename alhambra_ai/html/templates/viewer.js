// The game viewer: draws one frame of the record (market, money, hands, cities) and steps through them.
// The shared parts (tiles, cities, stepping) serve the dice games' board too (viewer_dice.js). The modules
// draw their own pieces: each registers a view (MODULE_VIEWS below) from its script in templates/modules/.
"use strict";
const DATA = JSON.parse(document.getElementById("game-data").textContent);
const FRAMES = DATA.frames;
const CELL = 46;
const NS = "http://www.w3.org/2000/svg";
let index = 0;
let draw = null;      // the frame renderer of this game: renderBase or renderDice

function el(tag, attrs, parent, text) {
  const node = tag.startsWith("svg:") ? document.createElementNS(NS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function tileType(tile) {
  const info = DATA.tiles[tile];
  return info ? info.type : "fountain";
}

// One tile at (px, py): its colour, id and walls (bits N=1 E=2 S=4 W=8, thick dark lines); ``added``: sides a
// module put on it ({bits, draw}: drawWalls draws them with ``draw``).
function drawTile(svg, px, py, tile, walls, attrs, added) {
  const g = el("svg:g", attrs, svg);
  const type = tileType(tile);
  el("svg:rect", {x: px, y: py, width: CELL, height: CELL, fill: TYPE_COLOURS[type], stroke: "#555",
                  "stroke-width": 0.6, class: "tile"}, g);
  if (tile === 0) {
    el("svg:circle", {cx: px + CELL / 2, cy: py + CELL / 2, r: CELL / 4, fill: "#dff6fa", stroke: "#137d8c",
                      "stroke-width": 2}, g);
  } else {
    el("svg:text", {x: px + CELL / 2, y: py + CELL / 2 + 5, "text-anchor": "middle", "font-size": 14,
                    fill: type === "chambers" || type === "arcades" ? "#222" : "#fff"}, g, String(tile));
  }
  drawWalls(g, px, py, CELL, walls, added, 5);
  return g;
}

// Walls on the sides of a square: printed ones dark; those of ``added`` ({bits, draw}: a module's pieces)
// drawn by its ``draw(g, x1, y1, x2, y2, bit, w)`` instead.
function drawWalls(g, px, py, size, walls, added, w) {
  const edges = [[1, px, py, px + size, py], [2, px + size, py, px + size, py + size],
                 [4, px, py + size, px + size, py + size], [8, px, py, px, py + size]];
  for (const [bit, x1, y1, x2, y2] of edges) {
    if (added && added.bits & bit) added.draw(g, x1, y1, x2, y2, bit, w);
    else if (walls & bit) el("svg:line", {x1, y1, x2, y2, stroke: "#1b1b1b", "stroke-width": w,
                                        "stroke-linecap": "square", class: "wall"}, g);
  }
}

// A city. ``parts``: what the modules in play put on it (their views' ``city``, see MODULE_VIEWS): each may
// name ``cells`` ([x, y]) the drawing must hold besides the tiles, draw on each tile (``tile(g, px, py,
// tile)``) and over the city (``over(svg, at)``, ``at(x, y)`` the cell's top left corner in the svg), and add
// sides to its tiles (``sides``: {tile: "NE"}, drawn by its ``drawSide``).
function drawCity(cells, seat, parts) {
  parts = parts || [];
  const more = parts.flatMap(p => p.cells || []);
  const xs = cells.map(c => c[0]).concat(more.map(c => c[0]));
  const ys = cells.map(c => c[1]).concat(more.map(c => c[1]));
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
  const pad = 18, width = (x1 - x0 + 1) * CELL + pad + 6, height = (y1 - y0 + 1) * CELL + pad + 6;
  const svg = el("svg:svg", {width, height, viewBox: `0 0 ${width} ${height}`, class: "city",
                             "data-seat": seat});
  for (let x = x0; x <= x1; x++) {
    el("svg:text", {x: pad + (x - x0) * CELL + CELL / 2, y: 12, "text-anchor": "middle", "font-size": 10,
                    fill: "#888"}, svg, String(x));
  }
  for (let y = y1; y >= y0; y--) {
    el("svg:text", {x: 2, y: pad + (y1 - y) * CELL + CELL / 2 + 4, "font-size": 10, fill: "#888"}, svg, String(y));
  }
  const at = (x, y) => [pad + (x - x0) * CELL, pad + (y1 - y) * CELL];
  const added = addedSides(parts);
  for (const [x, y, tile, walls] of cells) {
    const [px, py] = at(x, y);
    const g = drawTile(svg, px, py, tile, walls,
                       {class: "cell", "data-x": x, "data-y": y, "data-tile": tile, "data-walls": walls},
                       added[tile]);
    for (const p of parts) if (p.tile) p.tile(g, px, py, tile);
  }
  for (const p of parts) if (p.over) p.over(svg, at);
  return svg;
}

// The sides the city's parts add to tiles: {tile: {bits, draw}} (drawTile's ``added``).
function addedSides(parts) {
  const added = {};
  for (const p of parts) {
    for (const [tile, sides] of Object.entries(p.sides || {})) {
      added[tile] = {bits: wallBits(sides), draw: p.drawSide};
    }
  }
  return added;
}

// ---- The modules' views (rules.md §9). Each module in play that draws something has its own script
// (templates/modules/, named by its Python ``Module.script``), inlined after this one; it registers one view
// here, an object with any of these hooks (``f`` the frame, ``m`` its ``modules``, ``seat`` from 0):
//   name                      its option's name;
//   window                    its word in the facts' line of the interrupt window (``m.window_order``);
//   legend                    {piece: () => node or nodes}: the legend's icon of each of its pieces (the
//                             template lists the pieces of the modules in play, ``data-piece``);
//   market(f, m, parent)      what it shows beside the market's slots;
//   display(f, m, parent)     what it shows beside the money display;
//   facts(f, m)               its facts (texts) on the line under the market;
//   notes(f, m)               nodes after that line;
//   heading(m, seat, head)    what it adds to the seat's heading;
//   holdings(m, seat, box)    the seat's pieces under its hand;
//   city(m, seat)             what it puts on the seat's city: a part of drawCity (null: nothing);
//   underCity(m, seat, box)   lines under the seat's city.
// Each piece is drawn the same on the board and in the legend. The views run in the rulebook's order.
const MODULE_VIEWS = [];

function moduleView(view) {
  MODULE_VIEWS.push(view);
}

const CURRENCY = {y: "#c9a400", g: "#2e8b3e", b: "#2f5fb3", o: "#d2691e"};   // as the .c-y ... cards
const CURRENCY_NAMES = ["florin", "dirham", "denar", "ducat"];
const CURRENCY_LETTERS = "ygbo";                                              // in currency order

function currencyName(letter) {
  return CURRENCY_NAMES[CURRENCY_LETTERS.indexOf(letter)];
}

function title(node, text) {
  if (text) el("svg:title", {}, node, text);
  return node;
}

// A standing figure: head and body, ``fill`` its colour, centred on (cx, cy), ~14 px tall.
function drawFigure(parent, cx, cy, fill, attrs, text) {
  const g = title(el("svg:g", attrs, parent), text);
  el("svg:path", {d: `M ${cx - 5} ${cy + 7} L ${cx - 2.5} ${cy - 1} L ${cx + 2.5} ${cy - 1} L ${cx + 5} ${cy + 7} Z`,
                  fill, stroke: "#222", "stroke-width": 1.2, "stroke-linejoin": "round"}, g);
  el("svg:circle", {cx, cy: cy - 4, r: 3.4, fill, stroke: "#222", "stroke-width": 1.2}, g);
  return g;
}

// An icon of the legend: an svg 22 px high.
function legendIcon(width) {
  width = width || 22;
  return el("svg:svg", {width, height: 22, viewBox: `0 0 ${width} 22`, class: "icon"});
}

// The legend's icon of each module piece.
function drawLegend() {
  const icons = Object.assign({}, ...MODULE_VIEWS.map(v => v.legend || {}));
  for (const span of document.querySelectorAll("#key-pieces span[data-piece]")) {
    const icon = icons[span.dataset.piece];
    if (icon) span.prepend(...[].concat(icon()));
  }
}

function cards(list, parent) {
  const box = el("div", {class: "cards"}, parent);
  if (!list.length) el("em", {}, box, "no cards");
  for (const c of list) el("span", {class: "c-" + c[0]}, box, c);
  return box;
}

// A row of tiles (a reserve, the tiles to place); ``added``: sides the modules added to them (addedSides).
function tileRow(tiles, parent, label, added) {
  if (!tiles || !tiles.length) return;
  el("div", {class: "note"}, parent, label);
  const svg = el("svg:svg", {width: tiles.length * (CELL + 6), height: CELL + 6, class: "tiles"}, parent);
  tiles.forEach((t, i) => drawTile(svg, 3 + i * (CELL + 6), 3, t, DATA.tiles[t] ? wallBits(DATA.tiles[t].walls) : 0,
                                   {"data-tile": t}, added && added[t]));
  return svg;
}

function wallBits(text) {
  let bits = 0;
  for (const [ch, bit] of [["N", 1], ["E", 2], ["S", 4], ["W", 8]]) if (text.includes(ch)) bits |= bit;
  return bits;
}

function renderBase(f) {

  const market = document.getElementById("market");
  market.replaceChildren();
  const svg = el("svg:svg", {width: 4 * (CELL + 64), height: CELL + 24, class: "market"}, market);
  ["florin (y)", "dirham (g)", "denar (b)", "ducat (o)"].forEach((name, slot) => {
    const px = 4 + slot * (CELL + 64), t = f.market[slot];
    el("svg:text", {x: px, y: 12, "font-size": 11, fill: "#444"}, svg, `${slot + 1} ${name}`);
    if (t === null || t === undefined) {
      el("svg:text", {x: px + 4, y: 40, "font-size": 12, fill: "#999"}, svg, "empty");
    } else {
      drawTile(svg, px, 18, t, wallBits(DATA.tiles[t].walls), {class: "slot", "data-slot": slot + 1,
                                                               "data-tile": t});
      el("svg:text", {x: px + CELL + 4, y: 46, "font-size": 11, fill: "#444"}, svg, `cost ${DATA.tiles[t].cost}`);
    }
  });
  const m = f.modules || {};
  for (const v of MODULE_VIEWS) if (v.market) v.market(f, m, market);
  const display = document.getElementById("display");
  display.replaceChildren();
  el("div", {class: "note"}, display, "money display");
  cards(f.display.filter(c => c), display);
  for (const v of MODULE_VIEWS) if (v.display) v.display(f, m, display);
  document.getElementById("table-facts").replaceChildren(...tableFacts(f, m));

  const seats = document.getElementById("seats");
  seats.replaceChildren();
  DATA.seats.forEach((name, seat) => {
    const box = el("div", {class: "seat" + (seat === f.current_player ? " current" : ""), id: `seat-${seat + 1}`},
                   seats);
    const head = el("h3", {style: `color: ${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`}, box,
                    `seat ${seat + 1}: ${name} — ${f.scores[seat]} points`);
    for (const v of MODULE_VIEWS) if (v.heading) v.heading(m, seat, head);
    cards(f.hands[seat], box);
    for (const v of MODULE_VIEWS) if (v.holdings) v.holdings(m, seat, box);
    const parts = MODULE_VIEWS.map(v => v.city && v.city(m, seat)).filter(p => p);
    box.appendChild(drawCity(f.cities[seat], seat + 1, parts));
    for (const v of MODULE_VIEWS) if (v.underCity) v.underCity(m, seat, box);
    tileRow(f.reserves[seat], box, "reserve", addedSides(parts));
    if (seat === f.current_player) tileRow(f.pending, box, "bought, to place");
  });
  if (f.dirk_tiles) {
    const box = el("div", {class: "seat", id: "dirk"}, seats);
    el("h3", {}, box, `Dirk — ${f.dirk_score} points`);
    tileRow(f.dirk_tiles, box, "tiles");
  }
  drawBaseResult(f);
}

// Under the market: turn and phase, Dirk, the interrupt window, and the facts of the modules in play (their
// public supplies), then their notes.
function tableFacts(f, m) {
  const facts = [`turn ${f.turn + 1}`, `phase ${f.phase}`];
  if (f.dirk_score !== null && f.dirk_score !== undefined) facts.push(`Dirk ${f.dirk_score} points`);
  if (m.window_order && m.window_order.length) {
    facts.push(`interrupt window (${MODULE_VIEWS.filter(v => v.window).map(v => v.window).join(", ")}): asks ` +
               m.window_order.map(s => `seat ${s + 1}`).join(", "));
  }
  for (const v of MODULE_VIEWS) if (v.facts) facts.push(...v.facts(f, m));
  const out = [el("span", {}, null, facts.join(" · "))];
  for (const v of MODULE_VIEWS) if (v.notes) out.push(...v.notes(f, m));
  return out;
}

// The last frame: the winner, then every seat's points summed over the scorings (types, walls, modules).
function drawBaseResult(f) {
  const box = document.getElementById("result");
  box.replaceChildren();
  if (!f.final) return;
  const ranked = DATA.seats.map((_, s) => s).sort((a, b) => f.final.ranking[a] - f.final.ranking[b] || a - b);
  const winners = ranked.filter(s => f.final.ranking[s] === 1);
  el("p", {id: "winner"}, box, `Game over: ${winners.length > 1 ? "shared win" : "winner"} ` +
     winners.map(s => `${DATA.seats[s]} (seat ${s + 1})`).join(" and ") + ` with ${f.scores[winners[0]]} points.`);
  // the modules' columns (Python's SCORE_COLUMNS) where some seat scored
  const columns = f.final.columns.filter(k => f.final.breakdown.some(d => k in d));
  const table = el("table", {class: "breakdown"}, box);
  const head = el("tr", {}, table);
  ["", "seat", ...f.final.types, "walls", ...columns, "total"].forEach(h => el("th", {}, head, h));
  const row = (place, name, d, total) => {
    const tr = el("tr", {}, table);
    [place, name, ...d.majorities, d.wall ?? "-", ...columns.map(k => d[k] ?? "-"), total].forEach(
      v => el("td", {}, tr, String(v)));
  };
  ranked.forEach(s => row(`${f.final.ranking[s]}.`, DATA.seats[s], f.final.breakdown[s], f.scores[s]));
  if (f.final.dirk) row("", "Dirk (never wins)", f.final.dirk, f.dirk_score);
}

function go(i) {
  index = Math.max(0, Math.min(FRAMES.length - 1, i));
  const f = FRAMES[index];
  document.body.dataset.frame = index;
  document.getElementById("slider").value = index;
  document.getElementById("counter").textContent = `position ${index} of ${FRAMES.length - 1}`;
  document.getElementById("move").textContent = f.move || "set-up";
  document.getElementById("events").textContent = f.events.join("; ");
  draw(f);
}

// Called by the page after every script is in (the dice renderer comes after this file).
function start(renderer) {
  draw = renderer;
  drawLegend();
  document.getElementById("slider").max = FRAMES.length - 1;
  document.getElementById("slider").addEventListener("input", e => go(Number(e.target.value)));
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(index - 1));
  document.getElementById("next").addEventListener("click", () => go(index + 1));
  document.getElementById("last").addEventListener("click", () => go(FRAMES.length - 1));
  document.addEventListener("keydown", e => {
    const moves = {ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10};
    if (e.target.tagName === "INPUT" && e.key.startsWith("Arrow")) return;  // the slider steps itself
    if (e.key in moves) go(index + moves[e.key]);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(FRAMES.length - 1);
    else return;
    e.preventDefault();
  });
  go(Number((location.hash || "#0").slice(1)) || 0);
}
