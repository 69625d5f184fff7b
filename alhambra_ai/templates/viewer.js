// The game viewer: draws one frame of the record (market, money, hands, cities) and steps through them.
// The shared parts (tiles, cities, stepping) serve the dice games' board too (viewer_dice.js).
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

// One tile at (px, py): its colour, id and walls (bits N=1 E=2 S=4 W=8, thick dark lines); ``added``: the
// sides a wall card put on it (Walls module, e.g. "NE"), drawn as brown wall pieces.
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
  drawWalls(g, px, py, CELL, walls, added ? wallBits(added) : 0, 5);
  return g;
}

// Walls on the sides of a square: printed ones dark, those of wall cards (bits ``pieces``) brown.
function drawWalls(g, px, py, size, walls, pieces, w) {
  const edges = [[1, px, py, px + size, py], [2, px + size, py, px + size, py + size],
                 [4, px, py + size, px + size, py + size], [8, px, py, px, py + size]];
  for (const [bit, x1, y1, x2, y2] of edges) {
    if (pieces & bit) {           // a wall piece: dark with a light stripe (a wooden piece on the tile)
      const piece = el("svg:g", {class: "wall-piece", "data-side": bit}, g);
      el("svg:line", {x1, y1, x2, y2, stroke: "#1b1b1b", "stroke-width": w + 1, "stroke-linecap": "square"}, piece);
      el("svg:line", {x1, y1, x2, y2, stroke: WALL_PIECE, "stroke-width": Math.max(1.5, w - 3),
                      "stroke-linecap": "butt"}, piece);
    } else if (walls & bit) el("svg:line", {x1, y1, x2, y2, stroke: "#1b1b1b", "stroke-width": w,
                                          "stroke-linecap": "square", class: "wall"}, g);
  }
}

// A city; ``extra`` (base game with modules): {pieces: {tile: sides}, residents: [tile], falcons: [[n, x, y]],
// disc: {cell, seen, hidden}} of the seat.
function drawCity(cells, seat, extra) {
  extra = extra || {};
  const disc = extra.disc && extra.disc.cell ? extra.disc : null;
  const xs = cells.map(c => c[0]).concat(disc ? [disc.cell[0]] : []);
  const ys = cells.map(c => c[1]).concat(disc ? [disc.cell[1]] : []);
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
  const pieces = extra.pieces || {}, residents = new Set(extra.residents || []);
  for (const [x, y, tile, walls] of cells) {
    const [px, py] = at(x, y);
    const g = drawTile(svg, px, py, tile, walls,
                       {class: "cell", "data-x": x, "data-y": y, "data-tile": tile, "data-walls": walls},
                       pieces[tile]);
    if (residents.has(tile)) {
      drawFigure(g, px + CELL - 9, py + 12, "#fff", {class: "resident", "data-tile": tile},
                 `resident of ${tile} (${tileType(tile)})`);
    }
  }
  for (const [n, x, y] of extra.falcons || []) {      // the corner north-east of cell (x, y)
    const [px, py] = at(x, y);
    drawFalcon(svg, px + CELL, py, n, {class: "falcon", "data-falcon": n, "data-x": x, "data-y": y});
  }
  if (disc) {
    const [px, py] = at(disc.cell[0], disc.cell[1]);
    drawDisc(svg, px + CELL / 2, py + CELL / 2, seat - 1, disc,
             {class: "disc", "data-seat": seat, "data-x": disc.cell[0], "data-y": disc.cell[1]});
  }
  return svg;
}

// ---- The modules' pieces (rules.md §9): each drawn the same on the board and in the legend.

const CURRENCY = {y: "#c9a400", g: "#2e8b3e", b: "#2f5fb3", o: "#d2691e"};   // as the .c-y ... cards
const CURRENCY_NAMES = ["florin", "dirham", "denar", "ducat"];
const WALL_PIECE = "#ffd35c";   // the light stripe of a wall piece
const FALCON = {black: ["#222", "#fff"], brown: ["#8b5a2b", "#fff"], white: ["#fbfbf7", "#222"]};

function title(node, text) {
  if (text) el("svg:title", {}, node, text);
  return node;
}

// A standing figure (resident, vizier): head and body, ``fill`` its colour, centred on (cx, cy), ~14 px tall.
function drawFigure(parent, cx, cy, fill, attrs, text) {
  const g = title(el("svg:g", attrs, parent), text);
  el("svg:path", {d: `M ${cx - 5} ${cy + 7} L ${cx - 2.5} ${cy - 1} L ${cx + 2.5} ${cy - 1} L ${cx + 5} ${cy + 7} Z`,
                  fill, stroke: "#222", "stroke-width": 1.2, "stroke-linejoin": "round"}, g);
  el("svg:circle", {cx, cy: cy - 4, r: 3.4, fill, stroke: "#222", "stroke-width": 1.2}, g);
  return g;
}

// A falcon: a diamond in its colour (black, brown, white) with its number, on a corner of four tiles.
function drawFalcon(parent, cx, cy, n, attrs) {
  const [colour, types] = DATA.falcons[n] || ["black", []];
  const [fill, ink] = FALCON[colour];
  const g = title(el("svg:g", attrs, parent), `falcon ${n} (${colour}: ${types.join(", ")})`);
  el("svg:path", {d: `M ${cx} ${cy - 11} L ${cx + 11} ${cy} L ${cx} ${cy + 11} L ${cx - 11} ${cy} Z`, fill,
                  stroke: colour === "white" ? "#222" : "#fff", "stroke-width": 1.5}, g);
  el("svg:text", {x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: ink},
     g, String(n));
  return g;
}

// A seat's disc (Residents) centred on (cx, cy): a wooden disc ringed in the seat's colour, its figures on it:
// those seen arriving in their type's colour, the still secret ones grey with "?".
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

// The vizier of a seat: a figure with a turban, gold while awake, grey and "z" while asleep.
function drawVizier(parent, awake, attrs) {
  const g = drawFigure(parent, 9, 11, awake ? "#e0a526" : "#c8c8c8", attrs);
  el("svg:path", {d: "M 4.5 7 Q 9 1 13.5 7 Z", fill: awake ? "#fff4d6" : "#eee", stroke: "#222",
                  "stroke-width": 1}, g);
  if (!awake) el("svg:text", {x: 15, y: 8, "font-size": 8, fill: "#555"}, g, "z");
  return g;
}

// A coin (Change): a round piece of its currency, letter on it.
function coin(letter, parent) {
  return el("span", {class: "coin", style: `background: ${CURRENCY[letter]}`, "data-currency": letter,
                     title: `coin: ${CURRENCY_NAMES["ygbo".indexOf(letter)]} (value 1)`}, parent, letter);
}

// A thief card: held ones show their back (their currency is secret), played ones their currency.
function thiefCard(letter, parent) {
  if (letter === null) return el("span", {class: "thief held", title: "thief card, held (secret)"}, parent, "?");
  return el("span", {class: "thief played", style: `background: ${CURRENCY[letter]}`, "data-currency": letter,
                     title: `thief played: takes one ${CURRENCY_NAMES["ygbo".indexOf(letter)]} card`}, parent,
            letter);
}

// A wall card (Walls): a pale square with its striped pieces and its number.
function drawWallCard(parent, px, py, card, size, attrs) {
  const sides = DATA.wall_cards[card] || "";
  const g = title(el("svg:g", attrs, parent), `wall card ${card} (${sides})`);
  el("svg:rect", {x: px, y: py, width: size, height: size, rx: 3, fill: "#f5ecd9", stroke: "#b9a57e"}, g);
  drawWalls(g, px, py, size, 0, wallBits(sides), size > 24 ? 5 : 3);
  if (size > 24) el("svg:text", {x: px + size / 2, y: py + size / 2 + 5, "text-anchor": "middle",
                                 "font-size": 13, fill: "#6b4f2a"}, g, String(card));
  return g;
}

// The legend's icon of each module piece (the template lists the pieces of the game's modules).
function drawLegend() {
  for (const span of document.querySelectorAll("#key-pieces span[data-piece]")) {
    const svg = el("svg:svg", {width: 22, height: 22, viewBox: "0 0 22 22", class: "icon"});
    span.prepend(svg);
    const piece = span.dataset.piece;
    if (piece === "vizier") {
      svg.setAttribute("width", 40);
      svg.setAttribute("viewBox", "0 0 40 22");
      drawVizier(svg, true);
      drawVizier(el("svg:g", {transform: "translate(19 0)"}, svg), false);
    }
    else if (piece === "falcon") drawFalcon(svg, 11, 11, 1, {});
    else if (piece === "resident") drawFigure(svg, 11, 12, "#fff", {});
    else if (piece === "wall-card") drawWallCard(svg, 3, 3, 5, 16, {});
    else if (piece === "disc") {
      el("svg:circle", {cx: 11, cy: 11, r: 9, fill: "#e8cfa0", stroke: SEAT_COLOURS[0], "stroke-width": 2.5}, svg);
      drawFigure(svg, 11, 12, "#bdbdbd", {});
    } else {
      svg.remove();
      if (piece === "coin") span.prepend(coin("g"));
      else if (piece === "thief") { span.prepend(thiefCard("b")); span.prepend(thiefCard(null)); }
    }
  }
}

function cards(list, parent) {
  const box = el("div", {class: "cards"}, parent);
  if (!list.length) el("em", {}, box, "no cards");
  for (const c of list) el("span", {class: "c-" + c[0]}, box, c);
  return box;
}

function tileRow(tiles, parent, label, pieces) {
  if (!tiles || !tiles.length) return;
  el("div", {class: "note"}, parent, label);
  const svg = el("svg:svg", {width: tiles.length * (CELL + 6), height: CELL + 6, class: "tiles"}, parent);
  tiles.forEach((t, i) => drawTile(svg, 3 + i * (CELL + 6), 3, t, DATA.tiles[t] ? wallBits(DATA.tiles[t].walls) : 0,
                                   {"data-tile": t}, pieces && pieces[t]));
  return svg;
}

// The bazaars waiting beside the market (rules.md §9.3): each tile with its price under it in two short
// lines ("price 8", "florin (y)"); each column is as wide as its widest label, so labels never run into
// each other whatever their length.
function bazaarRow(tiles, market, parent) {
  el("div", {class: "note"}, parent,
     "bazaars waiting: each costs what the tile in the market slot of its currency costs");
  const svg = el("svg:svg", {height: CELL + 38, class: "tiles bazaars"}, parent);
  let x = 3;
  tiles.forEach(t => {
    const slot = CURRENCY_NAMES.indexOf(DATA.tiles[t].currency), under = market[slot];
    const lines = [under === null || under === undefined ? "no price" : `price ${DATA.tiles[under].cost}`,
                   `${CURRENCY_NAMES[slot]} (${"ygbo"[slot]})`];
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
  if (m.bazaars_waiting && m.bazaars_waiting.length) bazaarRow(m.bazaars_waiting, f.market, market);
  const display = document.getElementById("display");
  display.replaceChildren();
  el("div", {class: "note"}, display, "money display");
  cards(f.display.filter(c => c), display);
  if (m.walls) drawWallCards(m.walls, display);
  document.getElementById("table-facts").replaceChildren(...tableFacts(f, m));

  const seats = document.getElementById("seats");
  seats.replaceChildren();
  DATA.seats.forEach((name, seat) => {
    const box = el("div", {class: "seat" + (seat === f.current_player ? " current" : ""), id: `seat-${seat + 1}`},
                   seats);
    const head = el("h3", {style: `color: ${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`}, box,
                    `seat ${seat + 1}: ${name} — ${f.scores[seat]} points`);
    if (m.vizier_awake) {
      const awake = m.vizier_awake[seat];
      const badge = el("span", {class: "vizier-badge"}, head);
      drawVizier(el("svg:svg", {width: 20, height: 22, viewBox: "0 0 20 22"}, badge), awake,
                 {class: "vizier", "data-seat": seat + 1, "data-awake": awake});
      el("span", {}, badge, awake ? "vizier awake" : "vizier asleep");
    }
    cards(f.hands[seat], box);
    seatPieces(m, seat, box);
    const pieces = Object.fromEntries(m.walls ? m.walls.pieces[seat] : []);
    box.appendChild(drawCity(f.cities[seat], seat + 1, {
      pieces, residents: m.residents ? m.residents[seat] : [],
      falcons: (m.falcons || []).filter(x => x[1] === seat).map(([n, , x, y]) => [n, x, y]),
      disc: m.discs ? m.discs[seat] : null}));
    if (m.discs) discLine(m, seat, box);
    tileRow(f.reserves[seat], box, "reserve", pieces);
    if (seat === f.current_player) tileRow(f.pending, box, "bought, to place");
  });
  if (f.dirk_tiles) {
    const box = el("div", {class: "seat", id: "dirk"}, seats);
    el("h3", {}, box, `Dirk — ${f.dirk_score} points`);
    tileRow(f.dirk_tiles, box, "tiles");
  }
  drawBaseResult(f);
}

// Under the market: turn and phase, Dirk, and the public supplies of the modules in play.
function tableFacts(f, m) {
  const facts = [`turn ${f.turn + 1}`, `phase ${f.phase}`];
  if (f.dirk_score !== null && f.dirk_score !== undefined) facts.push(`Dirk ${f.dirk_score} points`);
  if (m.window_order && m.window_order.length) {
    facts.push("interrupt window (vizier" + (m.thief_counts ? ", thief" : "") + "): asks " +
               m.window_order.map(s => `seat ${s + 1}`).join(", "));
  }
  if (m.coin_bag) facts.push(`coins in the bag: ${"ygbo".split("").map((c, i) => c + m.coin_bag[i]).join(" ")}`);
  if (m.thieves_played) facts.push(`thieves played: ${m.thieves_played.length} of 12`);
  if (m.walls) {
    const left = m.walls.piles.reduce((n, p) => n + (p ? p[2] : 0), 0);
    facts.push(`wall cards: ${m.walls.used.length} used, ${left} still in the draw pile`);
  }
  const out = [el("span", {}, null, facts.join(" · "))];
  if (m.supply) {              // the Residents' supply: the figures anyone may draw
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

// A seat's coins and thief cards (held: backs only; played: their currency).
function seatPieces(m, seat, box) {
  if (m.coins) {
    const row = el("div", {class: "coins", "data-seat": seat + 1}, box);
    el("span", {class: "note"}, row, "coins ");
    m.coins[seat].forEach((n, c) => { for (let k = 0; k < n; k++) coin("ygbo"[c], row); });
    if (!m.coins[seat].some(n => n)) el("em", {}, row, "none");
  }
  if (m.thief_counts) {
    const row = el("div", {class: "thieves", "data-seat": seat + 1}, box);
    el("span", {class: "note"}, row, "thieves ");
    for (let k = 0; k < m.thief_counts[seat]; k++) thiefCard(null, row);
    for (const c of m.thieves_by_seat[seat]) thiefCard(c, row);
    if (!m.thief_counts[seat] && !m.thieves_by_seat[seat].length) el("em", {}, row, "none");
  }
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

// The last frame: the winner, then every seat's points summed over the scorings (types, walls, modules).
function drawBaseResult(f) {
  const box = document.getElementById("result");
  box.replaceChildren();
  if (!f.final) return;
  const ranked = DATA.seats.map((_, s) => s).sort((a, b) => f.final.ranking[a] - f.final.ranking[b] || a - b);
  const winners = ranked.filter(s => f.final.ranking[s] === 1);
  el("p", {id: "winner"}, box, `Game over: ${winners.length > 1 ? "shared win" : "winner"} ` +
     winners.map(s => `${DATA.seats[s]} (seat ${s + 1})`).join(" and ") + ` with ${f.scores[winners[0]]} points.`);
  const modules = ["camps", "bazaars", "falcons", "residents"].filter(
    m => f.final.breakdown.some(d => m in d));
  const table = el("table", {class: "breakdown"}, box);
  const head = el("tr", {}, table);
  ["", "seat", ...f.final.types, "walls", ...modules, "total"].forEach(h => el("th", {}, head, h));
  const row = (place, name, d, total) => {
    const tr = el("tr", {}, table);
    [place, name, ...d.majorities, d.wall, ...modules.map(m => d[m] ?? "-"), total].forEach(
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
