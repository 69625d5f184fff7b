// The Vizier (rules.md §9.1) on the viewer's page (viewer.js's MODULE_VIEWS): each seat's vizier in its
// heading, awake or asleep; its word in the interrupt window's line.

// The vizier of a seat: a figure with a turban, gold while awake, grey and "z" while asleep.
function drawVizier(parent, awake, attrs) {
  const g = drawFigure(parent, 9, 11, awake ? "#e0a526" : "#c8c8c8", attrs);
  el("svg:path", {d: "M 4.5 7 Q 9 1 13.5 7 Z", fill: awake ? "#fff4d6" : "#eee", stroke: "#222",
                  "stroke-width": 1}, g);
  if (!awake) el("svg:text", {x: 15, y: 8, "font-size": 8, fill: "#555"}, g, "z");
  return g;
}

moduleView({
  name: "vizier",
  window: "vizier",
  legend: {
    vizier: () => {
      const svg = legendIcon(40);
      drawVizier(svg, true);
      drawVizier(el("svg:g", {transform: "translate(19 0)"}, svg), false);
      return svg;
    },
  },
  heading: (m, seat, head) => {
    if (!m.vizier_awake) return;
    const awake = m.vizier_awake[seat];
    const badge = el("span", {class: "vizier-badge"}, head);
    drawVizier(el("svg:svg", {width: 20, height: 22, viewBox: "0 0 20 22"}, badge), awake,
               {class: "vizier", "data-seat": seat + 1, "data-awake": awake});
    el("span", {}, badge, awake ? "vizier awake" : "vizier asleep");
  },
});
