// The dice games' board (Alhambra: The Dice Game, Alcazaba): dice, the six columns with their markers, bonus
// tiles or column tiles, building-point tracks or cities (drawCity of viewer.js), scorings. Each frame was
// replayed by the engine (report.py dice_viewer_data); nothing here knows the rules beyond where to draw.
const TYPES = DATA.types;
const SHORT = {pavilion: "PAV", seraglio: "SER", arcades: "ARC", chambers: "CHA", garden: "GAR", tower: "TOW"};
const BONUS = {points1: "1 point", points2: "2 points", points3: "3 points", void: "void roll", convert: "convert",
               black: "black die", push: "push back", start: "start player"};
const FW = 32, FH = 22, COLW = 3 * FW, GAP = 14, LEFT = 26;        // a field, a column, the row labels
const DIE = 40;
// Alcazaba's columns hold up to this many tiles over the game: the board keeps one height while stepping.
const ITEM_ROWS = Math.max(1, ...FRAMES.map(f => Math.max(0, ...(f.column_items || []).map(c => Math.ceil(c.length / 2)))));

function who(owner) {
  return owner === "dirk" ? "Dirk" : DATA.seats[owner];
}

function ownerColour(owner) {
  return owner === "dirk" ? DIRK_COLOUR : SEAT_COLOURS[owner % SEAT_COLOURS.length];
}

function darkText(type) {
  return type === "chambers" || type === "arcades";
}

// One die: its symbol's colour and short name; state "kept" / "rolled" / "counted" / "other" / "" (plain).
function drawDie(svg, px, py, face, label, state, black) {
  const type = TYPES[face];
  const g = el("svg:g", {class: "die", "data-die": label, "data-face": face, "data-state": state}, svg);
  if (state === "other") g.setAttribute("opacity", 0.3);
  if (black) {
    el("svg:rect", {x: px, y: py, width: DIE, height: DIE, rx: 7, fill: "#111", stroke: "#000"}, g);
    el("svg:rect", {x: px + 6, y: py + 6, width: DIE - 12, height: DIE - 12, rx: 4, fill: TYPE_COLOURS[type]}, g);
  } else {
    el("svg:rect", {x: px, y: py, width: DIE, height: DIE, rx: 7, fill: TYPE_COLOURS[type],
                    stroke: state === "kept" || state === "counted" ? "#111" : "#777",
                    "stroke-width": state === "kept" || state === "counted" ? 3 : 1}, g);
  }
  el("svg:text", {x: px + DIE / 2, y: py + DIE / 2 + 4, "text-anchor": "middle", "font-size": 11,
                  "font-weight": "bold", fill: darkText(type) ? "#222" : "#fff"}, g, SHORT[type]);
  const caption = {kept: "kept", rolled: "rolled", counted: "counted"}[state];
  if (caption || black) {
    el("svg:text", {x: px + DIE / 2, y: py + DIE + 13, "text-anchor": "middle", "font-size": 10,
                    fill: state === "rolled" ? "#1a5fb4" : "#333"}, g, black ? "black" : caption);
  }
}

function drawDice(f) {
  const box = document.getElementById("dice");
  box.replaceChildren();
  const stopped = f.stopped;
  const faces = stopped ? stopped.dice : f.dice, black = stopped ? stopped.black : f.black;
  if (faces.every(x => x === null)) {
    const doing = f.final ? "the game is over" : f.phase === "roll" ? `${who(f.current_player)} to roll`
      : `the columns are scored (${PHASE_WORDS[f.phase] || f.phase})`;
    el("p", {class: "note", id: "dice-note"}, box, `No dice on the table: ${doing}.`);
    return;
  }
  const svg = el("svg:svg", {width: 9 * (DIE + 8) + 10, height: DIE + 22, class: "dice-tray"}, box);
  const rolled = new Set(f.rolled);
  faces.forEach((face, k) => {
    let state = "";
    if (stopped) state = face === stopped.type ? "counted" : "other";
    else if (f.rolled.length) state = rolled.has(k) ? "rolled" : "kept";
    drawDie(svg, 4 + k * (DIE + 8), 3, face, k + 1, state, false);
  });
  if (black !== null) {
    const state = stopped ? (black === stopped.type ? "counted" : "other") : "";
    drawDie(svg, 4 + 8 * (DIE + 8) + 6, 3, black, "black", state, true);
  }
  let text;
  if (stopped) {
    const count = faces.filter(x => x === stopped.type).length + (black === stopped.type ? 1 : 0);
    text = `${who(f.seat)} stopped after ${stopped.rolls} ` +
      `roll${stopped.rolls === 1 ? "" : "s"} and named ${TYPES[stopped.type]}: ${count} ` +
      `${count === 1 ? "die" : "dice"}.`;
  } else {
    const kept = f.rolled.length ? 8 - f.rolled.length : null;
    text = `${who(f.current_player)}: roll ${f.rolls} of 3` +
      (kept === null ? "" : kept ? `; kept ${kept}, rolled ${f.rolled.length}` : "; all 8 rolled");
  }
  el("p", {class: "note", id: "dice-note"}, box, text);
}

// Column t's header, its bonus field or tiles, and its 8 x 3 fields with the markers on them.
function drawBoard(f) {
  const box = document.getElementById("board");
  box.replaceChildren();
  const itemsH = DATA.game === "alcazaba" ? ITEM_ROWS * (CELL + 4) + 4 : 34;
  const top = 24 + itemsH + 16;                     // the first (8-symbol) row
  const width = LEFT + 6 * (COLW + GAP), height = top + 8 * FH + 8;
  const svg = el("svg:svg", {width, height, viewBox: `0 0 ${width} ${height}`, class: "board"}, box);
  for (let count = 8; count >= 1; count--) {
    el("svg:text", {x: LEFT - 8, y: top + (8 - count) * FH + FH / 2 + 4, "text-anchor": "end", "font-size": 11,
                    fill: "#666"}, svg, String(count));
  }
  const changed = new Set(f.changed.map(([t, i]) => `${t},${i}`));
  TYPES.forEach((type, t) => {
    const x0 = LEFT + t * (COLW + GAP);
    const col = el("svg:g", {class: "column", "data-type": t}, svg);
    el("svg:rect", {x: x0, y: 0, width: COLW, height: 22, fill: TYPE_COLOURS[type], rx: 3}, col);
    el("svg:text", {x: x0 + COLW / 2, y: 15, "text-anchor": "middle", "font-size": 12, "font-weight": "bold",
                    fill: darkText(type) ? "#222" : "#fff"}, col, type);
    if (DATA.game === "dice") {
      const bonus = f.bonus_fields[t];
      const g = el("svg:g", {class: "bonus", "data-bonus": bonus || ""}, col);
      el("svg:rect", {x: x0 + 4, y: 26, width: COLW - 8, height: 28, rx: 4, fill: bonus ? "#eee5cf" : "#fafafa",
                      stroke: bonus ? "#a08a52" : "#ccc", "stroke-dasharray": bonus ? "" : "3 3"}, g);
      el("svg:text", {x: x0 + COLW / 2, y: 44, "text-anchor": "middle", "font-size": 11,
                      fill: bonus ? "#333" : "#aaa"}, g, bonus ? BONUS[bonus] : "no tile");
    } else {
      f.column_items[t].forEach((item, k) => {
        const px = x0 + (k % 2) * (CELL + 4), py = 26 + Math.floor(k / 2) * (CELL + 4);
        if (item === "start") {
          const g = el("svg:g", {class: "item", "data-item": "start"}, col);
          el("svg:rect", {x: px, y: py, width: CELL, height: CELL, rx: 4, fill: "#eee5cf", stroke: "#a08a52"}, g);
          el("svg:text", {x: px + CELL / 2, y: py + CELL / 2 - 1, "text-anchor": "middle", "font-size": 10,
                          fill: "#333"}, g, "start");
          el("svg:text", {x: px + CELL / 2, y: py + CELL / 2 + 11, "text-anchor": "middle", "font-size": 10,
                          fill: "#333"}, g, "player");
        } else {
          drawTile(col, px, py, item, wallBits(DATA.tiles[item].walls), {class: "item", "data-item": item});
        }
      });
    }
    ["1", "2", "3"].forEach((rolls, k) => {
      el("svg:text", {x: x0 + k * FW + FW / 2, y: top - 4, "text-anchor": "middle", "font-size": 9, fill: "#888"},
         col, rolls);
    });
    for (let i = 0; i < 24; i++) {
      const count = Math.floor(i / 3) + 1, rolls = 3 - (i % 3);
      el("svg:rect", {x: x0 + (rolls - 1) * FW, y: top + (8 - count) * FH, width: FW, height: FH,
                      fill: (count + rolls) % 2 ? "#f6f1e4" : "#ece4cf", stroke: "#d8ccb0", "stroke-width": 0.5,
                      class: "field", "data-field": i}, col);
    }
    if (f.evaluating === t) {
      el("svg:rect", {x: x0 - 4, y: 1.5, width: COLW + 8, height: height - 3, fill: "none", stroke: "#e0a526",
                      "stroke-width": 3, rx: 5, class: "evaluating"}, col);
    }
  });
  for (const [t, i, owner] of f.markers) {
    const count = Math.floor(i / 3) + 1, rolls = 3 - (i % 3);
    const cx = LEFT + t * (COLW + GAP) + (rolls - 1) * FW + FW / 2, cy = top + (8 - count) * FH + FH / 2;
    const g = el("svg:g", {class: "marker", "data-type": t, "data-field": i, "data-owner": owner}, svg);
    el("svg:title", {}, g, `${who(owner)}: ${TYPES[t]}, ${count} in ${rolls}`);
    if (changed.has(`${t},${i}`)) {
      el("svg:circle", {cx, cy, r: 10.5, fill: "none", stroke: "#f0b400", "stroke-width": 3, class: "changed"}, g);
    }
    el("svg:circle", {cx, cy, r: 8, fill: ownerColour(owner), stroke: "#fff", "stroke-width": 1}, g);
    el("svg:text", {x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 10, "font-weight": "bold",
                    fill: "#fff"}, g, owner === "dirk" ? "D" : String(owner + 1));
  }
}

function rowOwners() {
  return DATA.seats.map((_, s) => s).concat(DATA.num_players === 2 ? ["dirk"] : []);
}

// The building-point tracks, 1..12 per type; at equal points the earlier disc ranks better and sits left.
function drawTracks(f) {
  const box = document.getElementById("tracks");
  box.replaceChildren();
  const FX = 40, RH = 28, L = 84;
  const svg = el("svg:svg", {width: L + 12 * FX + 6, height: 16 + 6 * RH, class: "tracks"}, box);
  for (let p = 1; p <= 12; p++) {
    el("svg:text", {x: L + (p - 1) * FX + FX / 2, y: 11, "text-anchor": "middle", "font-size": 10, fill: "#888"},
       svg, String(p));
  }
  const owners = rowOwners();
  TYPES.forEach((type, t) => {
    const y = 14 + t * RH;
    el("svg:rect", {x: 0, y: y + 3, width: L - 8, height: RH - 6, rx: 3, fill: TYPE_COLOURS[type]}, svg);
    el("svg:text", {x: (L - 8) / 2, y: y + RH / 2 + 4, "text-anchor": "middle", "font-size": 11,
                    fill: darkText(type) ? "#222" : "#fff"}, svg, type);
    for (let p = 1; p <= 12; p++) {
      el("svg:rect", {x: L + (p - 1) * FX, y: y + 2, width: FX - 2, height: RH - 4, rx: 10, fill: "#f6f1e4",
                      stroke: "#d8ccb0"}, svg);
    }
    const discs = owners.map((o, r) => [o, f.building_points[r][t], f.arrivals[r][t]]).filter(d => d[1] > 0);
    discs.sort((a, b) => a[1] - b[1] || a[2] - b[2]);
    const onField = {};
    for (const [owner, points] of discs) {
      const k = onField[points] = (onField[points] || 0) + 1;
      const cx = L + (points - 1) * FX + 8 + (k - 1) * 9, cy = y + RH / 2;
      const g = el("svg:g", {class: "disc", "data-type": t, "data-owner": owner, "data-points": points}, svg);
      el("svg:title", {}, g, `${who(owner)}: ${points} ${type} point${points === 1 ? "" : "s"}`);
      el("svg:circle", {cx, cy, r: 7, fill: ownerColour(owner), stroke: "#fff", "stroke-width": 1}, g);
      el("svg:text", {x: cx, y: cy + 3.5, "text-anchor": "middle", "font-size": 9, fill: "#fff"}, g,
         owner === "dirk" ? "D" : String(owner + 1));
    }
  });
}

function chips(names, parent, label) {
  const line = el("div", {class: "chips"}, parent);
  el("span", {class: "label", style: "background: none; border: none; padding: 0"}, line, label);
  const held = Object.entries(names);
  if (!held.length) el("em", {}, line, " none");
  for (const [name, n] of held) el("span", {"data-bonus": name}, line, BONUS[name] + (n > 1 ? ` ×${n}` : ""));
}

// Dirk ends with up to half the tiles: a row per type keeps his box narrow and shows his majorities.
function tilesByType(tiles, parent) {
  el("div", {class: "note"}, parent, `tiles (${tiles.length})`);
  const rows = TYPES.map(type => tiles.filter(t => tileType(t) === type)).filter(r => r.length);
  const most = Math.max(1, ...rows.map(r => r.length));
  const svg = el("svg:svg", {width: most * (CELL + 6), height: Math.max(1, rows.length) * (CELL + 6), class: "tiles"},
                 parent);
  rows.forEach((row, y) => row.forEach((t, x) => drawTile(svg, 3 + x * (CELL + 6), 3 + y * (CELL + 6), t,
                                                          wallBits(DATA.tiles[t].walls), {"data-tile": t})));
}

function pointsLine(points) {
  const parts = TYPES.map((type, t) => points[t] ? `${type} ${points[t]}` : "").filter(x => x);
  return "building points: " + (parts.join(" · ") || "none");
}

function drawSeats(f) {
  const seats = document.getElementById("seats");
  seats.replaceChildren();
  const owners = rowOwners();
  owners.forEach((owner, r) => {
    const dirk = owner === "dirk";
    const current = !dirk && owner === f.current_player && !f.final;
    const box = el("div", {class: "seat" + (current ? " current" : ""), id: dirk ? "dirk" : `seat-${owner + 1}`},
                   seats);
    const score = dirk ? f.dirk_score : f.scores[owner];
    const tags = [];
    if (!dirk && owner === f.start_player) tags.push("start player");
    if (f.final && !dirk && f.final.ranking[owner] === 1) tags.push("winner");
    el("h3", {style: `color: ${ownerColour(owner)}`}, box,
       (dirk ? "Dirk" : `seat ${owner + 1}: ${who(owner)}`) + ` — ${score} points` +
       (tags.length ? ` (${tags.join(", ")})` : ""));
    if (DATA.game === "dice") {
      el("div", {class: "note"}, box, pointsLine(f.building_points[r]));
      chips(f.bonus_tiles[r], box, "bonus tiles:");
    } else if (dirk) {
      tilesByType(f.dirk_tiles, box);
    } else {
      box.appendChild(drawCity(f.cities[owner], owner + 1));
      tileRow(f.reserves[owner], box, "reserve");
      if (current) tileRow(f.pending, box, "picked, to place");
      if (f.aside[r]) el("div", {class: "note"}, box, `rebuilt instead of placing: ${f.aside[r]} marker(s)`);
    }
    if (f.fallen[r]) el("div", {class: "note"}, box, `markers fallen off this round: ${f.fallen[r]}`);
  });
}

// A row per seat (and Dirk): what each scoring (A after round 1, B after 3, C after 5) gave, and the total.
function drawScorings(f) {
  const box = document.getElementById("scorings");
  box.replaceChildren();
  const table = el("table", {class: "scorings"}, box);
  const head = el("tr", {}, table);
  el("th", {class: "name"}, head, "");
  const done = f.score_breakdown;
  for (const s of done) el("th", {}, head, "ABC"[s.round - 1]);
  el("th", {}, head, "score");
  rowOwners().forEach(owner => {
    const tr = el("tr", {}, table);
    el("td", {class: "name", style: `color: ${ownerColour(owner)}`}, tr, who(owner));
    for (const s of done) {
      const e = owner === "dirk" ? s.dirk : s.seats[owner];
      const extra = "tiles" in e ? ` + tiles ${e.tiles}` : "wall" in e ? ` + wall ${e.wall}` : "";
      el("td", {title: `majorities ${e.majorities.join(" ")}${extra}`}, tr, String(e.total));
    }
    el("td", {}, tr, String(owner === "dirk" ? f.dirk_score : f.scores[owner]));
  });
  if (!done.length) el("p", {class: "note"}, box, "No scoring yet (A after round 1, B after 3, C after 5).");
}

function drawResult(f) {
  const box = document.getElementById("result");
  box.replaceChildren();
  if (!f.final) return;
  const winners = DATA.seats.map((_, s) => s).filter(s => f.final.ranking[s] === 1);
  const names = winners.map(s => `${who(s)} (seat ${s + 1})`).join(" and ");
  box.textContent = `Game over: ${winners.length > 1 ? "shared win" : "winner"} ${names} with ` +
    `${f.scores[winners[0]]} points. Final scores: ` +
    DATA.seats.map((name, s) => `${name} ${f.scores[s]}`).join(", ") +
    (f.dirk_score !== null ? `, Dirk ${f.dirk_score} (Dirk never wins)` : "") + ".";
}

// The engine's phases in a reader's words (its names are internal).
const PHASE_WORDS = {roll: "before the roll", after_roll: "after a roll", reward: "rewards of a scored column",
                     name: "naming the next start player", pick: "picking a column's tile",
                     place: "placing a tile", over: "game over"};

function renderDice(f) {
  const facts = [`round ${f.round} of 5`, `turn ${f.turn + 1}`, PHASE_WORDS[f.phase] || f.phase,
                 `start player ${who(f.start_player)}`, `${DATA.markers_each} markers each`];
  if (!f.final) facts.splice(3, 0, `${who(f.current_player)} to act`);
  if (DATA.game === "alcazaba") {
    facts.push(`bag ${f.bag_size} tiles`);
    if (f.aside_tiles.length) facts.push(`set aside: ${f.aside_tiles.join(" ")}`);
  }
  document.getElementById("table-facts").textContent = facts.join(" · ");
  drawResult(f);
  drawDice(f);
  drawBoard(f);
  if (DATA.game === "dice") drawTracks(f);
  drawSeats(f);
  drawScorings(f);
}
