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

// One tile at (px, py): its colour, id and walls (bits N=1 E=2 S=4 W=8, thick dark lines).
function drawTile(svg, px, py, tile, walls, attrs) {
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
  const w = 5, edges = [[1, px, py, px + CELL, py], [2, px + CELL, py, px + CELL, py + CELL],
                        [4, px, py + CELL, px + CELL, py + CELL], [8, px, py, px, py + CELL]];
  for (const [bit, x1, y1, x2, y2] of edges) {
    if (walls & bit) el("svg:line", {x1, y1, x2, y2, stroke: "#1b1b1b", "stroke-width": w,
                                     "stroke-linecap": "square", class: "wall"}, g);
  }
  return g;
}

function drawCity(cells, seat) {
  const xs = cells.map(c => c[0]), ys = cells.map(c => c[1]);
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
  for (const [x, y, tile, walls] of cells) {
    drawTile(svg, pad + (x - x0) * CELL, pad + (y1 - y) * CELL, tile, walls,
             {class: "cell", "data-x": x, "data-y": y, "data-tile": tile, "data-walls": walls});
  }
  return svg;
}

function cards(list, parent) {
  const box = el("div", {class: "cards"}, parent);
  if (!list.length) el("em", {}, box, "no cards");
  for (const c of list) el("span", {class: "c-" + c[0]}, box, c);
  return box;
}

function tileRow(tiles, parent, label) {
  if (!tiles || !tiles.length) return;
  el("div", {class: "note"}, parent, label);
  const svg = el("svg:svg", {width: tiles.length * (CELL + 6), height: CELL + 6, class: "tiles"}, parent);
  tiles.forEach((t, i) => drawTile(svg, 3 + i * (CELL + 6), 3, t, DATA.tiles[t] ? wallBits(DATA.tiles[t].walls) : 0,
                                   {"data-tile": t}));
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
  const display = document.getElementById("display");
  display.replaceChildren();
  el("div", {class: "note"}, display, "money display");
  cards(f.display.filter(c => c), display);
  const facts = [`turn ${f.turn + 1}`, `phase ${f.phase}`];
  if (f.dirk_score !== null && f.dirk_score !== undefined) facts.push(`Dirk ${f.dirk_score} points`);
  document.getElementById("table-facts").textContent = facts.join(" · ");

  const seats = document.getElementById("seats");
  seats.replaceChildren();
  DATA.seats.forEach((name, seat) => {
    const box = el("div", {class: "seat" + (seat === f.current_player ? " current" : ""), id: `seat-${seat + 1}`},
                   seats);
    el("h3", {style: `color: ${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`}, box,
       `seat ${seat + 1}: ${name} — ${f.scores[seat]} points`);
    cards(f.hands[seat], box);
    box.appendChild(drawCity(f.cities[seat], seat + 1));
    tileRow(f.reserves[seat], box, "reserve");
    if (seat === f.current_player) tileRow(f.pending, box, "bought, to place");
  });
  if (f.dirk_tiles) {
    const box = el("div", {class: "seat", id: "dirk"}, seats);
    el("h3", {}, box, `Dirk — ${f.dirk_score} points`);
    tileRow(f.dirk_tiles, box, "tiles");
  }
  drawBaseResult(f);
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
