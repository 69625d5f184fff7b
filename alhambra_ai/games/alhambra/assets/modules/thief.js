// The Thief (rules.md §9.6) on the viewer's page (viewer.js's MODULE_VIEWS): each seat's thief cards under
// its hand (held ones face down), how many were played; its word in the interrupt window's line.

// A thief card: held ones show their back (their currency is secret), played ones their currency.
function thiefCard(letter, parent) {
  if (letter === null) return el("span", {class: "thief held", title: "thief card, held (secret)"}, parent, "?");
  return el("span", {class: "thief played", style: `background: ${CURRENCY[letter]}`, "data-currency": letter,
                     title: `thief played: takes one ${currencyName(letter)} card`}, parent,
            letter);
}

moduleView({
  name: "thief",
  window: "thief",
  legend: {thief: () => [thiefCard(null), thiefCard("b")]},
  facts: (f, m) => m.thieves_played ? [`thieves played: ${m.thieves_played.length} of 12`] : [],
  holdings: (m, seat, box) => {       // held: backs only; played: their currency
    if (!m.thief_counts) return;
    const row = el("div", {class: "thieves", "data-seat": seat + 1}, box);
    el("span", {class: "note"}, row, "thieves ");
    for (let k = 0; k < m.thief_counts[seat]; k++) thiefCard(null, row);
    for (const c of m.thieves_by_seat[seat]) thiefCard(c, row);
    if (!m.thief_counts[seat] && !m.thieves_by_seat[seat].length) el("em", {}, row, "none");
  },
});
