// Change (rules.md §9.5) on the viewer's page (viewer.js's MODULE_VIEWS): each seat's coins under its hand,
// the coins left in the bag.

// A coin: a round piece of its currency, letter on it.
function coin(letter, parent) {
  return el("span", {class: "coin", style: `background: ${CURRENCY[letter]}`, "data-currency": letter,
                     title: `coin: ${currencyName(letter)} (value 1)`}, parent, letter);
}

moduleView({
  name: "change",
  legend: {coin: () => coin("g")},
  facts: (f, m) => m.coin_bag
    ? [`coins in the bag: ${[...CURRENCY_LETTERS].map((c, i) => c + m.coin_bag[i]).join(" ")}`] : [],
  holdings: (m, seat, box) => {
    if (!m.coins) return;
    const row = el("div", {class: "coins", "data-seat": seat + 1}, box);
    el("span", {class: "note"}, row, "coins ");
    m.coins[seat].forEach((n, c) => { for (let k = 0; k < n; k++) coin(CURRENCY_LETTERS[c], row); });
    if (!m.coins[seat].some(n => n)) el("em", {}, row, "none");
  },
});
