"""The HTML report and game viewer in a real headless browser (Debian's chromium, driven by Selenium).

The pages load from file:// without console errors, the viewer steps through a whole game with the keys
and buttons, and each city as drawn (the SVG's cells, and the pixels of a screenshot) is the record's city.

Needs /usr/bin/chromium and /usr/bin/chromedriver (``.ci/run`` installs both); without them the tests are
skipped locally, and fail on CI (``CI`` set), where a skip would hide a broken install step.
"""

import json
import os
import random
import re
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from dicehelpers import random_record

from alhambra_ai import new_game
from alhambra_ai.formats.record import make_record, replay, save_record
from alhambra_ai.html.report import TYPE_COLOURS, write_report, write_viewer

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
ABSENT = None if CHROMIUM and DRIVER else \
    "chromium and chromedriver are not installed (apt-get install chromium chromium-driver; .ci/run does it)"
if ABSENT and not os.environ.get("CI"):
    pytest.skip(ABSENT, allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver",
                                reason="selenium is not installed (pip install -e .[test])")


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service

    assert not ABSENT, ABSENT
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1800", "--force-device-scale-factor=1", "--hide-scrollbars"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def load(driver, path, fragment=""):
    driver.get(Path(path).resolve().as_uri() + fragment)
    driver.get_log("browser")  # nothing before this page counts


def console_errors(driver):
    return [e["message"] for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]


def game_record(players=2, seed=8):
    state, rng = new_game(players, seed=seed), random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return make_record(state, [f"bot{k + 1}" for k in range(players)])


def frame(driver):
    return int(driver.find_element("tag name", "body").get_attribute("data-frame"))


def test_the_viewer_steps_through_a_whole_game(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    record = game_record(2, 8)
    write_viewer(record, tmp_path / "g.html")
    load(browser, tmp_path / "g.html")
    body = browser.find_element("tag name", "body")
    assert frame(browser) == 0 and browser.find_element("id", "move").text == "set-up"
    actions, chunk = record["actions"], 8      # real key presses, checked after every 8 (a round trip each)
    for i in range(0, len(actions), chunk):
        step = min(chunk, len(actions) - i)
        body.send_keys(Keys.ARROW_RIGHT * step)
        assert frame(browser) == i + step
        assert browser.find_element("id", "move").text.endswith(": " + actions[i + step - 1])
    body.send_keys(Keys.ARROW_RIGHT)                       # past the end: stays on the final position
    assert frame(browser) == len(record["actions"])
    final = replay(record)
    assert f"{final.scores()[0]} points" in browser.find_element("id", "seat-1").text
    # the last frame names the winner and gives each seat's breakdown, best first (issue 44)
    best = min(range(2), key=lambda p: (final.ranking()[p], p))
    assert browser.find_element("id", "winner").text.startswith(
        f"Game over: winner {record['seats'][best]} (seat {best + 1}) with {final.scores()[best]} points")
    rows = [r.text for r in browser.find_elements("css selector", "#result table.breakdown tr")]
    assert rows[0].split()[:2] == ["seat", "pavilion"]
    assert rows[1].split()[:2] == ["1.", record["seats"][best]]
    assert rows[1].split()[-1] == str(final.scores()[best]) and rows[-1].startswith("Dirk")
    body.send_keys(Keys.ARROW_LEFT)
    assert frame(browser) == len(record["actions"]) - 1
    assert browser.find_element("id", "result").text == ""  # only on the last frame
    body.send_keys(Keys.HOME)
    assert frame(browser) == 0
    browser.find_element("id", "next").click()
    browser.find_element("id", "next").click()
    browser.find_element("id", "prev").click()
    assert frame(browser) == 1
    browser.find_element("id", "last").click()
    assert frame(browser) == len(record["actions"])
    assert console_errors(browser) == []


def png_pixels(data):
    """(width, height, rows of RGB tuples) of an 8-bit RGB/RGBA, non-interlaced PNG (what chromium writes)."""
    width, height, depth, kind = struct.unpack(">IIBB", data[16:26])
    assert depth == 8 and kind in (2, 6) and data[28] == 0
    chunks, pos = b"", 8
    while pos < len(data):
        length, name = struct.unpack(">I4s", data[pos:pos + 8])
        if name == b"IDAT":
            chunks += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw, bpp = zlib.decompress(chunks), 4 if kind == 6 else 3
    stride, rows, prev = width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def hex_rgb(colour):
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def test_a_screenshot_of_each_city_is_the_records_city(browser, tmp_path):
    from alhambra_ai._core import tile_info

    record = game_record(3, 4)
    write_viewer(record, tmp_path / "g.html")
    load(browser, tmp_path / "g.html", "#100000")         # beyond the end: the final position
    state = replay(record)
    for seat in range(3):
        svg = browser.find_element("css selector", f"svg.city[data-seat='{seat + 1}']")
        drawn = {(int(c.get_attribute("data-x")), int(c.get_attribute("data-y"))):
                 (int(c.get_attribute("data-tile")), int(c.get_attribute("data-walls")))
                 for c in svg.find_elements("css selector", "g.cell")}
        assert drawn == {(x, y): (t, w) for x, y, t, w in state.city(seat).cells()}
        # The pixels: a point inside each cell (clear of walls and label) has the colour of its tile type.
        _, _, pixels = png_pixels(svg.screenshot_as_png)
        boxes = browser.execute_script(
            "const s = arguments[0].getBoundingClientRect();"
            "return [...arguments[0].querySelectorAll('g.cell')].map(g => {"
            "  const r = g.querySelector('rect').getBoundingClientRect();"
            "  return [+g.dataset.x, +g.dataset.y, r.left - s.left, r.top - s.top]; });", svg)
        for x, y, left, top in boxes:
            tile = drawn[(x, y)][0]
            kind = "fountain" if tile == 0 else tile_info(tile)[0]
            got = pixels[round(top) + 9][round(left) + 9]
            want = hex_rgb(TYPE_COLOURS[kind])
            assert max(abs(g - w) for g, w in zip(got, want, strict=True)) <= 8, (seat, x, y, kind, got)


def test_the_report_and_its_game_pages_load_without_console_errors(browser, tmp_path):
    from alhambra_ai.arena.ratings import write_standings
    from alhambra_ai.arena.store import ResultStore

    store = ResultStore(tmp_path / "run")
    results = []
    for i, (seed, bots) in enumerate([(1, ["a<b>", "greedy"]), (2, ["greedy", "a<b>"]), (3, ["a<b>", "x"])]):
        record = game_record(2, seed)
        record["seats"] = bots
        ranks = [1, 2] if record["scores"][0] >= record["scores"][1] else [2, 1]
        result = {"game": f"g{i + 1:05d}", "bots": bots, "ranks": ranks, "scores": record["scores"],
                  "forfeits": [{"seat": 1, "reason": "times out", "detail": "", "move": 5}] if i == 2 else []}
        store.add(result, record)
        results.append(result)
    write_standings(tmp_path / "run", results, ["a<b>", "greedy", "x"])
    index = write_report(tmp_path / "run")
    load(browser, index)
    assert console_errors(browser) == []
    rows = browser.find_elements("css selector", "#leaderboard tr")
    assert len(rows) == 4 and "a<b>" in browser.find_element("id", "leaderboard").text   # escaped, shown
    assert browser.find_element("css selector", "svg.chart polyline[data-bot='greedy']")
    assert "times out" in browser.find_element("id", "forfeits").text
    assert "rating = mu - 3 sigma" in browser.find_element("css selector", "p.legend").text
    links = [a.get_attribute("href") for a in browser.find_elements("css selector", "#games a")]
    assert len(links) == 3
    for link in links:
        browser.get(link)
        assert browser.find_elements("css selector", "svg.city") and console_errors(browser) == []
    json.loads((tmp_path / "run" / "standings.json").read_text())


def test_replay_html_of_a_saved_game(browser, tmp_path):
    from click.testing import CliRunner

    from alhambra_ai.cli import main

    save_record(game_record(4, 2), tmp_path / "g.json")
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "g.json"), "--html",
                                       str(tmp_path / "g.html")])
    assert result.exit_code == 0, result.output
    load(browser, tmp_path / "g.html", "#50")
    assert frame(browser) == 50 and len(browser.find_elements("css selector", "svg.city")) == 4
    assert console_errors(browser) == []


# ----------------------------------------------------------------------------------------------------------
# All eight modules (issue 44): every module piece is drawn, frame by frame as the engine has it, and in the
# legend; no seat's secret is on the page.

PIECE_KEYS = ["vizier", "falcon", "coin", "thief", "wall-card", "resident", "disc"]
KEEN = ("wall ", "resident ", "falcon ", "wake", "exchange ")   # moves that bring the module pieces out


def all_modules_record(players=3, seed=1):
    """A whole game with every module, played to the end by a seeded mix of greedy and random moves that
    favours the modules' moves and keeps thieves in hand a while (so wall cards, thieves held and residents
    meet on the table)."""
    from alhambra_ai.bot.toolkit import greedy_action
    from alhambra_ai.options import MODULES

    state, rng = new_game(players, seed=seed, options=dict.fromkeys(MODULES, True)), random.Random(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        if state.phase == "interrupt" and rng.random() < 0.9:
            actions = [a for a in actions if not state.action_to_text(a).startswith("thief ")]
        keen = [a for a in actions if state.action_to_text(a).startswith(KEEN)]
        if keen and rng.random() < 0.7:
            action = rng.choice(keen)
        elif state.phase != "interrupt" and rng.random() < 0.6:
            action = greedy_action(state.clone())
        else:
            action = rng.choice(actions)
        state.apply(action)
    return make_record(state, ["alice", "bob", "carol"][:players])


# What the page shows of the modules, read from the DOM (seat s's pieces under #seat-s).
MODULES_DRAWN = """
const all = (root, sel, f) => [...root.querySelectorAll(sel)].map(f);
const seats = [...document.querySelectorAll("#seats .seat[id^=seat-]")].map(box => {
  const city = box.querySelector("svg.city"), disc = box.querySelector("g.disc");
  const pieces = {};
  for (const p of box.querySelectorAll("g[data-tile] g.wall-piece")) {
    const t = p.closest("g[data-tile]").dataset.tile;
    pieces[t] = (pieces[t] || 0) | +p.dataset.side;
  }
  return {
    vizier: all(box, "g.vizier", g => g.dataset.awake === "true"),
    coins: all(box, ".coins .coin", c => c.dataset.currency).sort(),
    held: all(box, ".thieves .thief.held", c => c.textContent),
    played: all(box, ".thieves .thief.played", c => c.dataset.currency),
    pieces,
    residents: all(city, "g.resident", g => +g.dataset.tile).sort((a, b) => a - b),
    falcons: all(city, "g.falcon", g => [+g.dataset.falcon, +g.dataset.x, +g.dataset.y]).sort(),
    disc: disc ? (disc.dataset.lifted ? null : [+disc.dataset.x, +disc.dataset.y]) : "none",
    figures: disc ? all(disc, "g.disc-figure", g => g.dataset.type).sort() : [],
  };
});
return {
  frame: +document.body.dataset.frame, seats,
  wall_cards: all(document, "#display g.wall-card", g => +g.dataset.card).sort((a, b) => a - b),
  bazaars: all(document, "#market svg.bazaars g[data-tile]", g => +g.dataset.tile),
  supply: all(document, "#table-facts .supply .count", c => +c.textContent),
  result: document.getElementById("result").textContent,
};
"""
MODULES_DRAWN_THEN_RIGHT = "const got = (() => {" + MODULES_DRAWN + "})();" \
    "document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));" \
    "return got;"


def expected_pieces(record):
    """Per frame, the module pieces as the engine has them (its State calls; the discs' public knowledge and
    the figure supply from the observation), and the kinds each frame shows."""
    from alhambra_ai.formats.record import steps

    out, played = [], [[] for _ in range(record["num_players"])]
    for _, seat, text, state in steps(record):
        if text.startswith("thief "):
            played[seat].append(text.split()[1][0])
        public = state.observation(0)["modules"]
        seats = []
        for p in range(state.num_players):
            disc = public["discs"][p]
            cell = state.disc_cell(p)
            seats.append({
                "vizier": [state.vizier_awake(p)],
                "coins": sorted(c for c, n in zip("ygbo", state.coins(p), strict=True) for _ in range(n)),
                "held": ["?"] * len(state.thieves(p)), "played": list(played[p]),
                "pieces": {str(t): sum(b for ch, b in zip("NESW", (1, 2, 4, 8), strict=True) if ch in sides)
                           for t, sides in state.card_walls(p).items()},
                "residents": sorted(state.residents(p)),
                "falcons": sorted([n, x, y] for n, (x, y) in state.falcons(p)),
                "disc": list(cell) if cell else (None if disc["seen"] or disc["hidden"] else "none"),
                "figures": sorted(disc["seen"] + ["secret"] * disc["hidden"]),
            })
        out.append({"seats": seats, "wall_cards": sorted(state.wall_cards()),
                    "bazaars": list(state.bazaars_waiting()), "supply": list(state.supply())})
    return out, state


def kinds_shown(want):
    """The piece kinds a frame's expectation holds."""
    seats = want["seats"]
    return {k for k, shown in {
        "vizier awake": any(s["vizier"] == [True] for s in seats),
        "vizier asleep": any(s["vizier"] == [False] for s in seats),
        "coin": any(s["coins"] for s in seats), "thief held": any(s["held"] for s in seats),
        "thief played": any(s["played"] for s in seats), "wall card": bool(want["wall_cards"]),
        "wall piece": any(s["pieces"] for s in seats), "resident": any(s["residents"] for s in seats),
        "falcon": any(s["falcons"] for s in seats), "disc on the city": any(
            isinstance(s["disc"], list) for s in seats),
        "disc figure seen": any(f != "secret" for s in seats for f in s["figures"]),
        "disc figure secret": any("secret" in s["figures"] for s in seats),
        "bazaar waiting": bool(want["bazaars"])}.items() if shown}


ALL_KINDS = {"vizier awake", "vizier asleep", "coin", "thief held", "thief played", "wall card",
             "wall piece", "resident", "falcon", "disc on the city", "disc figure seen", "disc figure secret",
             "bazaar waiting"}


def test_the_viewer_shows_every_piece_of_all_eight_modules(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    from alhambra_ai.options import MODULES

    record = all_modules_record(3, seed=1)
    assert set(record["options"]) >= set(MODULES) and all(record["options"][m] for m in MODULES)
    want, final = expected_pieces(record)
    full = [k for k, w in enumerate(want) if kinds_shown(w) == ALL_KINDS]
    assert full, "the seeded game never shows every piece kind at once: pick another seed"
    write_viewer(record, tmp_path / "all.html")
    page = (tmp_path / "all.html").read_text()
    chosen = [text for text in record["actions"] if text.startswith("figures ")]
    assert len(chosen) == 3 and not any(text in page for text in chosen)    # each seat's choice stays secret
    assert page.count("figures (secret)") == 3

    # a frame with every kind of piece: the legend, the DOM and a screenshot
    load(browser, tmp_path / "all.html", f"#{full[0]}")
    assert frame(browser) == full[0]
    legend = browser.find_elements("css selector", "#key-pieces span[data-piece]")
    assert [s.get_attribute("data-piece") for s in legend] == PIECE_KEYS
    assert all(s.find_elements("css selector", "svg, span.coin, span.thief") for s in legend)
    got = drawn_pieces(browser)
    assert {k: got[k] for k in want[0]} == want[full[0]]
    shot = tmp_path / "all-modules.png"
    browser.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the waiting bazaars' prices: "price N" and the currency under each tile, no label over another
    boxes = browser.execute_script(
        "const sel = '#market svg.bazaars text.price, #market svg.bazaars text.currency';"
        "return [...document.querySelectorAll(sel)].map(t => {"
        "  const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.right, r.top]; });")
    assert boxes and all(re.fullmatch(r"price \d+|no price|\w+ \([ygbo]\)", b[0]) for b in boxes), boxes
    for row in {round(b[3]) for b in boxes}:
        spans = sorted((b[1], b[2]) for b in boxes if round(b[3]) == row)
        assert all(a[1] + 4 <= b[0] for a, b in zip(spans, spans[1:], strict=False)), spans
    # the pixels of each city: the light stripe of its wall pieces, the ring of its disc in its seat's colour
    seat_colours = browser.execute_script("return SEAT_COLOURS;")
    stripe, checked = hex_rgb(browser.execute_script("return WALL_PIECE;")), 0
    for svg in browser.find_elements("css selector", "svg.city"):
        _, _, pixels = png_pixels(svg.screenshot_as_png)
        ring = hex_rgb(seat_colours[int(svg.get_attribute("data-seat")) - 1])
        # [what, x, y] relative to the svg: each stripe's middle, each ring's top
        points = browser.execute_script(
            "const s = arguments[0].getBoundingClientRect(), out = [];"
            "for (const p of arguments[0].querySelectorAll('g.wall-piece line:last-child')) {"
            "  const r = p.getBoundingClientRect();"
            "  out.push(['stripe', r.left + r.width / 2 - s.left, r.top + r.height / 2 - s.top]); }"
            "for (const d of arguments[0].querySelectorAll('g.disc > circle')) {"
            "  const r = d.getBoundingClientRect();"
            "  out.push(['ring', r.left + r.width / 2 - s.left, r.top + 1.5 - s.top]); }"
            "return out;", svg)
        for what, x, y in points:
            got_px, want_px = pixels[round(y)][round(x)], stripe if what == "stripe" else ring
            assert max(abs(g - w) for g, w in zip(got_px, want_px, strict=True)) <= 30, (what, x, y, got_px)
            checked += 1
    assert checked >= 3
    # forward through the whole game from the set-up: each frame draws what the engine has
    body = browser.find_element("tag name", "body")
    body.send_keys(Keys.HOME)
    seen = set()
    for k, expect in enumerate(want):
        got = drawn_pieces(browser, MODULES_DRAWN_THEN_RIGHT)
        assert got["frame"] == k
        assert {key: got[key] for key in expect} == expect, (k, record["actions"][k - 1] if k else "set-up")
        assert got["result"] == "" or k == len(want) - 1
        seen |= kinds_shown(expect)
    assert seen == ALL_KINDS
    # the last frame names the winner
    assert frame(browser) == len(want) - 1
    scores, ranking = final.scores(), final.ranking()
    best = min(range(3), key=lambda p: (ranking[p], p))
    assert browser.find_element("id", "winner").text.startswith(
        f"Game over: winner {record['seats'][best]} (seat {best + 1}) with {scores[best]} points")
    # and back with the keys: the drawing follows
    for key, step in [(Keys.PAGE_UP, -10), (Keys.ARROW_LEFT, -1), (Keys.PAGE_UP, -10), (Keys.ARROW_LEFT, -1)]:
        before = frame(browser)
        body.send_keys(key)
        got = drawn_pieces(browser)
        assert got["frame"] == before + step and got["result"] == ""
        assert {k: got[k] for k in want[0]} == want[got["frame"]]
    body.send_keys(Keys.END)
    assert frame(browser) == len(want) - 1 and browser.find_element("id", "winner")
    assert console_errors(browser) == []


def drawn_pieces(driver, script=MODULES_DRAWN):
    got = driver.execute_script(script)
    for seat in got["seats"]:
        seat["falcons"] = sorted(seat["falcons"])
        seat["pieces"] = {t: bits for t, bits in seat["pieces"].items()}
    return got


# ----------------------------------------------------------------------------------------------------------
# The dice games' viewer (Alhambra: The Dice Game, Alcazaba): the same stepping, its own board.

DICE_TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")

# What the page shows, read from the DOM: markers, dice, bonus fields / column tiles, building-point discs.
DRAWN = """
const all = (sel, f) => [...document.querySelectorAll(sel)].map(f);
return {
  markers: all("g.marker", g => [+g.dataset.type, +g.dataset.field,
                                 g.dataset.owner === "dirk" ? "dirk" : +g.dataset.owner]),
  changed: all("g.marker", g => !!g.querySelector(".changed")),
  dice: all("g.die", g => [g.dataset.die, +g.dataset.face, g.dataset.state]),
  bonus: all("g.bonus", g => g.dataset.bonus || null),
  items: all("g.column", c => [...c.querySelectorAll("g.item")].map(
    i => i.dataset.item === "start" ? "start" : +i.dataset.item)),
  discs: all("g.disc", g => [+g.dataset.type, g.dataset.owner === "dirk" ? "dirk" : +g.dataset.owner,
                             +g.dataset.points]),
  result: document.getElementById("result").textContent,
  frame: +document.body.dataset.frame,
};
"""
# One round trip a frame: read the drawing, then step as the arrow key does (real key presses cost ~60 ms
# each; the way back below uses them).
DRAWN_THEN_RIGHT = "const got = (() => {" + DRAWN + "})();" \
    "document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));" \
    "return got;"


def expected_drawing(record):
    """Per frame, what the page must show, from the engine's replay and the record's texts alone."""
    from alhambra_ai.formats.record import steps

    out, before = [], None
    for _, _, text, state in steps(record):
        rows = list(range(state.num_players)) + (["dirk"] if state.dirk_score is not None else [])
        dice, black = state.dice()
        words = text.split()
        if words[:1] == ["stop"]:                       # the dice the turn ended with, the named ones counted
            named = DICE_TYPES.index(words[1])
            dice, black = before
            states = ["counted" if f == named else "other" for f in dice]
            black_state = "counted" if black == named else "other"
        else:
            rolled = set(range(8)) if words == ["roll"] else {int(w) - 1 for w in words[1:]} \
                if words[:1] == ["reroll"] else set()
            states = ["rolled" if k in rolled else "kept" if rolled else "" for k in range(8)]
            black_state = ""
        shown = [] if all(f is None for f in dice) else \
            [[str(k + 1), f, states[k]] for k, f in enumerate(dice)] + \
            ([["black", black, black_state]] if black is not None else [])
        out.append({
            "markers": sorted([t, v, o] for t in range(6) for v, o in enumerate(state.column(t))
                              if o is not None),
            "dice": shown,
            "bonus": state.bonus_fields() if state.game == "dice" else [],
            "items": [state.column_items(t) if state.game == "alcazaba" else [] for t in range(6)],
            "phase": state.phase,
            "discs": sorted(([t, r, p] for r in rows for t, p in enumerate(state.building_points(r)) if p),
                            key=str) if state.game == "dice" else [],
        })
        before = state.dice()
    return out, state


def drawn(driver, script=DRAWN):
    got = driver.execute_script(script)
    got["markers"], got["discs"] = sorted(got["markers"]), sorted(got["discs"], key=str)
    return got


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_the_dice_viewer_draws_every_frame_as_the_engine_replays_it(browser, tmp_path, game):
    from selenium.webdriver.common.keys import Keys

    record = random_record(game, 2, seed=3 if game == "dice" else 4)
    want, final = expected_drawing(record)
    write_viewer(record, tmp_path / f"{game}.html")
    load(browser, tmp_path / f"{game}.html")
    body = browser.find_element("tag name", "body")
    shot = None
    for k, expect in enumerate(want):                # forward through the whole game
        got = drawn(browser, DRAWN_THEN_RIGHT)
        assert got["frame"] == k
        for key in ("markers", "dice", "bonus", "items"):
            assert got[key] == expect[key], (k, key, record["actions"][k - 1] if k else "set-up")
        assert got["discs"] == expect["discs"], k
        assert got["result"] == "" or k == len(want) - 1
        if shot is None and (expect["phase"] == "place" if game == "alcazaba" else     # a tile picked,
                             any(d[2] == "kept" for d in got["dice"]) and           # or dice kept with
                             any(m[2] != "dirk" for m in got["markers"])):          # players' markers out
            shot = k
    assert frame(browser) == len(want) - 1
    for k in range(len(want) - 1, len(want) - 21, -1):   # and back with the key: the drawing follows
        got = drawn(browser)
        assert (got["frame"], got["markers"], got["dice"]) == (k, want[k]["markers"], want[k]["dice"])
        body.send_keys(Keys.ARROW_LEFT)

    # a stop puts a marker on the board, ringed as the move's; one step back it is gone again
    stop = next(k for k, a in enumerate(record["actions"]) if a.startswith("stop") and
                len(want[k + 1]["markers"]) > len(want[k]["markers"]))
    go_to(browser, stop + 1)
    got = drawn(browser)
    new = [m for m in got["markers"] if m not in want[stop]["markers"]]
    named = DICE_TYPES.index(record["actions"][stop].split()[1])
    assert len(new) == 1 and new[0][2] in (0, 1) and new[0][0] == named
    assert sum(got["changed"]) >= 1 and all(d[2] in ("counted", "other") for d in got["dice"])
    browser.find_element("id", "prev").click()
    assert drawn(browser)["markers"] == want[stop]["markers"]
    assert console_errors(browser) == []

    # the last frame: the final scores and the winner (Dirk may score more, he never wins)
    body.send_keys(Keys.END)
    scores, winners = final.scores(), [s for s, r in enumerate(final.ranking()) if r == 1]
    result = browser.find_element("id", "result").text
    assert result.startswith("Game over: " + ("shared win " if len(winners) > 1 else "winner "))
    assert f"bot{winners[0] + 1} (seat {winners[0] + 1}) with {scores[winners[0]]} points" in result
    assert f"Final scores: bot1 {scores[0]}, bot2 {scores[1]}, Dirk {final.dirk_score}" in result
    for s in range(2):
        head = browser.find_element("css selector", f"#seat-{s + 1} h3").text
        assert f"— {scores[s]} points" in head and ("winner" in head) == (s in winners)
    if game == "alcazaba":                              # the cities, drawn by the base viewer's drawCity
        for s in range(2):
            svg = browser.find_element("css selector", f"svg.city[data-seat='{s + 1}']")
            cells = {(int(c.get_attribute("data-x")), int(c.get_attribute("data-y"))):
                     (int(c.get_attribute("data-tile")), int(c.get_attribute("data-walls")))
                     for c in svg.find_elements("css selector", "g.cell")}
            assert cells == {(x, y): (t, w) for x, y, t, w in final.city(s).cells()}
    browser.save_screenshot(str(tmp_path / f"{game}-final.png"))
    go_to(browser, shot)
    browser.save_screenshot(str(tmp_path / f"{game}-frame-{shot}.png"))
    for name in (f"{game}-final.png", f"{game}-frame-{shot}.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert console_errors(browser) == []


def go_to(driver, k):
    driver.execute_script("go(arguments[0]);", k)
    assert frame(driver) == k


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_a_screenshot_of_the_dice_and_the_markers_has_their_colours(browser, tmp_path, game):
    record = random_record(game, 3, seed=6)
    write_viewer(record, tmp_path / "g.html")
    load(browser, tmp_path / "g.html")
    k = next(k for k, a in enumerate(record["actions"]) if a.startswith("reroll") and k > 30)
    go_to(browser, k + 1)                                  # a re-roll some turns in: dice and markers out
    seat_colours = browser.execute_script("return SEAT_COLOURS;")
    checked = 0
    for svg_sel, part, colour_of, dx, dy in (
            ("svg.dice-tray", "g.die:not([data-die=black]) rect",
             lambda g: TYPE_COLOURS[DICE_TYPES[int(g["face"])]], 20, 8),
            ("svg.board", "g.marker circle:not(.changed)", lambda g: seat_colours[int(g["owner"])]
             if g["owner"] != "dirk" else "#7f7f7f", 3, 8)):
        svg = browser.find_element("css selector", svg_sel)
        _, _, pixels = png_pixels(svg.screenshot_as_png)
        boxes = browser.execute_script(
            "const s = arguments[0].getBoundingClientRect();"
            "return [...arguments[0].querySelectorAll(arguments[1])].map(n => {"
            "  const r = n.getBoundingClientRect();"
            "  return [{...n.parentNode.dataset}, r.left - s.left, r.top - s.top]; });", svg, part)
        assert boxes
        for data, left, top in boxes:
            got, want = pixels[round(top) + dy][round(left) + dx], hex_rgb(colour_of(data))
            assert max(abs(g - w) for g, w in zip(got, want, strict=True)) <= 8, (svg_sel, data, got, want)
            checked += 1
    assert checked >= 9
    # each marker sits on its field: row = symbols counted (8 on top), sub-column = rolls made (1 left)
    misplaced = browser.execute_script("""
      const out = [];
      for (const m of document.querySelectorAll("g.marker")) {
        const c = m.querySelector("circle:not(.changed)").getBoundingClientRect();
        const field = document.querySelector(
          `g.column[data-type="${m.dataset.type}"] rect.field[data-field="${m.dataset.field}"]`);
        const r = field.getBoundingClientRect(), x = c.left + c.width / 2, y = c.top + c.height / 2;
        if (!(r.left < x && x < r.right && r.top < y && y < r.bottom)) out.push(m.dataset);
      }
      const f = i => document.querySelector(`g.column[data-type="0"] rect.field[data-field="${i}"]`)
        .getBoundingClientRect();
      // v = 24 (8 in 1 roll) top left, v = 1 (1 in 3 rolls) bottom right, 2 in 3 rolls (v = 4) above 1 in 3
      if (!(f(23).top < f(0).top && f(23).left < f(0).left && f(3).top < f(0).top && f(3).left === f(0).left))
        out.push("field order");
      return out;""")
    assert misplaced == [] and console_errors(browser) == []
