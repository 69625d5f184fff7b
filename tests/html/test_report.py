"""The report's rating chart (issue 44): it plots what the leaderboard sorts by."""

import re

from alhambra_ai.arena.ratings import compute_standings
from alhambra_ai.html.report import rating_chart, rating_history


def test_the_rating_chart_plots_the_sort_key_with_a_band_of_mu_and_sigma():
    results = [{"game": f"g{k:05d}", "bots": ["a", "b"], "ranks": [1, 2] if k % 3 else [2, 1],
                "scores": [2, 1], "forfeits": []} for k in range(1, 10)]
    history = rating_history(results, ["a", "b"])
    standings = {s.name: s for s in compute_standings(results, ["a", "b"])}
    for name in ("a", "b"):
        mu, sigma, rating = history[-1][name]
        assert round(rating, 2) == round(standings[name].conservative, 2) == round(mu - 3 * sigma, 2)
    svg = rating_chart(history, ["a", "b"])
    assert "line: rating = mu - 3 sigma" in svg and "band: mu ± sigma" in svg
    keys = re.findall(r'class="key">(\w) (-?[\d.]+) \(', svg)
    assert [(n, float(v)) for n, v in keys] == [(n, round(history[-1][n][2], 1)) for n in ("a", "b")]


def test_the_viewer_legend_names_the_module_tiles_of_the_game_only():
    """Issue 44: camps were black squares not in the legend."""
    import random

    from alhambra_ai import new_game
    from alhambra_ai.formats.record import make_record
    from alhambra_ai.html.report import viewer_html

    def page(options):
        state, rng = new_game(2, seed=4, options=options), random.Random(4)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        return viewer_html(make_record(state, ["a", "b"]))

    with_modules, base = page({"camps": True, "bazaars": True}), page(None)
    assert "</i>camp</span>" in with_modules and "</i>bazaar</span>" in with_modules
    assert "</i>camp</span>" not in base and "</i>bazaar</span>" not in base


def test_the_viewer_legend_names_the_module_pieces_of_the_game_only():
    """Issue 44: every module piece is in the legend, in a game with its module only."""
    import random

    from alhambra_ai import new_game
    from alhambra_ai.formats.record import make_record
    from alhambra_ai.html.report import viewer_html

    def pieces(options):
        state = new_game(2, seed=4, options=options)
        state.apply(random.Random(4).choice(state.legal_actions()))
        return set(re.findall(r'data-piece="([\w-]+)"', viewer_html(make_record(state, ["a", "b"]))))

    assert pieces({"change": True, "walls": True}) == {"coin", "wall-card"}
    assert pieces({"vizier": True, "falcons": True}) == {"vizier", "falcon"}
    assert pieces({"thief": True, "residents": True}) == {"thief", "resident", "disc"}
    assert pieces(None) == set() and pieces({"camps": True}) == set()


def test_the_viewer_frames_hold_no_secret_of_a_seat():
    """A spectator's frames: the thieves held are counts, a disc's first figures a count until seen, and a
    ``figures`` choice is masked in the moves and events as every other seat's history shows it."""
    import json
    import random

    from alhambra_ai import new_game
    from alhambra_ai.formats.record import make_record
    from alhambra_ai.games.alhambra.viewer import PUBLIC_MODULE_FIELDS
    from alhambra_ai.html.report import viewer_data
    from alhambra_ai.options import MODULES

    state, rng = new_game(3, seed=2, options=dict.fromkeys(MODULES, True)), random.Random(2)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    record = make_record(state, ["a", "b", "c"])
    data = viewer_data(record)
    for f in data["frames"]:
        assert set(f["modules"]) <= {*PUBLIC_MODULE_FIELDS, "thieves_by_seat"}     # no "thieves", no "disc"
    text = json.dumps(data)
    chosen = [a for a in record["actions"] if a.startswith("figures ")]
    assert len(chosen) == 3 and not any(a in text for a in chosen)
    moves = [f["move"] for f in data["frames"] if "figures" in f["move"]]
    assert sorted(moves) == [f"seat {s}: figures (secret)" for s in (1, 2, 3)]
    last = data["frames"][-1]["modules"]
    assert last["thief_counts"] == [len(state.thieves(p)) for p in range(3)]


def test_the_rating_charts_legend_is_never_cut_at_its_edge():
    import re

    long = "expectimax_with_a_long_name"
    history = [{long: (30.4, 3.7, 19.3), "b": (25.0, 8.3, 0.1)}] * 3
    svg = rating_chart(history, [long, "b"])
    width = float(re.search(r'<svg[^>]* width="(\d+)"', svg).group(1))
    for x, text in re.findall(r'<text x="([\d.]+)"[^>]*class="key">([^<]*)</text>', svg):
        assert float(x) + 7.5 * len(text) <= width, (x, text, width)    # 12 px text: < 7.5 px a character
    assert f"{long} 19.3 (30.4±3.7)" in svg
