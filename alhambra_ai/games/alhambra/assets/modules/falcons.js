// The Falconers (rules.md §9.4) on the viewer's page (viewer.js's MODULE_VIEWS): each falcon on the corner of
// its seat's city where it stands.

const FALCON = {black: ["#222", "#fff"], brown: ["#8b5a2b", "#fff"], white: ["#fbfbf7", "#222"]};

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

moduleView({
  name: "falcons",
  legend: {
    falcon: () => {
      const svg = legendIcon();
      drawFalcon(svg, 11, 11, 1, {});
      return svg;
    },
  },
  city: (m, seat) => {
    const mine = (m.falcons || []).filter(x => x[1] === seat).map(([n, , x, y]) => [n, x, y]);
    return {
      over: (svg, at) => {
        for (const [n, x, y] of mine) {      // the corner north-east of cell (x, y)
          const [px, py] = at(x, y);
          drawFalcon(svg, px + CELL, py, n, {class: "falcon", "data-falcon": n, "data-x": x, "data-y": y});
        }
      },
    };
  },
});
