"""The sequential test (alhambra_ai.arena.sprt) and the command ``alhambra-ai sprt``.

The statistic is checked by simulation: many independent runs of the test on deal scores drawn with a
known true strength, counting how often each hypothesis is accepted; that is what alpha and beta promise.
The command runs on the tests' ToyGame (tournament_support), where the bot ``last`` (adds 3) beats
``first`` (adds 1) in every game and ``last`` against itself ties every game.
"""

import doctest
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from tournament_support import GOOD, use_toy_game

from alhambra_ai.arena import sprt, sprt_run
from alhambra_ai.arena.sprt import Sprt, elo_to_share, llr, mle_theta, score_grid, share_to_elo
from alhambra_ai.arena.strength import report
from alhambra_ai.cli import main
from alhambra_ai.sandbox.process import live_count


def test_doctests():
    for module in (sprt, sprt_run):
        assert doctest.testmod(module).failed == 0


# ---------------------------------------------------------------- the statistic alone

def test_elo_and_share():
    for players in range(2, 7):
        assert elo_to_share(0, players) == pytest.approx(1 / players)  # equal bots: par
        for elo in (-300, -5, 0, 5, 40, 300):
            assert share_to_elo(elo_to_share(elo, players), players) == pytest.approx(elo, abs=1e-9)
            s = elo_to_share(elo, players)  # the Bradley-Terry odds of one against N-1
            assert s / (1 - s) * (players - 1) == pytest.approx(10 ** (elo / 400))
    assert elo_to_share(5, 2) == pytest.approx(1 / (1 + 10 ** (-5 / 400)))  # the logistic formula
    assert elo_to_share(100, 4) < elo_to_share(200, 4)
    assert share_to_elo(0, 3) == -math.inf and share_to_elo(1, 3) == math.inf


def test_the_two_player_deal_scores_are_the_pentanomial_ones():
    assert score_grid(2).tolist() == [0, 0.25, 0.5, 0.75, 1]
    assert score_grid(4).tolist() == [k / 8 for k in range(9)]


def test_llr_matches_an_independent_root_finder():
    # values computed with scipy.optimize.brentq on the same model (fastchess's regularisation of empty
    # pentanomial cells to 0.001), elo 0 against 5
    s0, s1 = elo_to_share(0, 2), elo_to_share(5, 2)
    grid = score_grid(2)
    assert llr(grid, [10, 20, 40, 25, 15], s0, s1) == pytest.approx(0.2932857909362132, rel=1e-9)
    assert llr(grid, [30, 60, 300, 80, 40], s0, s1) == pytest.approx(1.1403564938424084, rel=1e-9)
    assert llr(grid, [0, 3, 0, 5, 0], 0.5, 0.6) == pytest.approx(0.14950784711420534, rel=1e-9)
    # one row per run: the same values
    both = llr(grid, [[10, 20, 40, 25, 15], [30, 60, 300, 80, 40]], s0, s1)
    assert both.tolist() == pytest.approx([0.2932857909362132, 1.1403564938424084], rel=1e-9)


def test_the_most_likely_distribution_has_the_hypothesis_mean():
    rng = np.random.default_rng(3)
    grid = score_grid(3)
    counts = rng.integers(0, 30, size=(500, len(grid))).astype(float)
    counts[rng.random(counts.shape) < 0.4] = 0  # many empty cells: regularised, roots near the poles
    p = np.where(counts > 0, counts, 1e-3)
    p /= p.sum(-1, keepdims=True)
    for s in (0.05, 1 / 3, 0.4, 0.95):
        theta = mle_theta(grid - s, p)
        q = p / (1 + theta[:, None] * (grid - s))
        assert np.all(q > 0)
        assert np.allclose(q.sum(-1), 1, atol=1e-9) and np.allclose(q @ grid, s, atol=1e-9)


def test_no_deals_no_evidence_and_more_wins_more_evidence():
    t = Sprt(2, 0, 5)
    assert t.llr() == 0 and t.status is None and t.deals == 0
    before = []
    for score in (0.5, 1, 0.75, 0.5, 1):
        t.add(score)
        before.append(t.llr())
    t.add(1)
    assert t.llr() > before[-1] > 0
    t.add(0)
    assert t.llr() < before[-1] + 1
    assert (t.lower, t.upper) == (pytest.approx(math.log(0.05 / 0.95)), pytest.approx(math.log(0.95 / 0.05)))


def test_equal_shares_in_another_order_are_one_score():
    t = Sprt(3, 0, 20)
    t.add((1 / 3 + 1 + 0) / 3)
    t.add((0 + 1 / 3 + 1) / 3)
    assert t.counts == {round(4 / 9, 12): 2} and t.games == 6


def test_estimate():
    t = Sprt(2, 0, 5)
    for score in [1, 0.5, 0.5, 0]:
        t.add(score)
    e = t.estimate()
    half = 1.959964 * math.sqrt(0.125) / 2  # sd of (1, .5, .5, 0) over sqrt(4)
    assert (e.share, e.share_low, e.share_high) == pytest.approx((0.5, 0.5 - half, 0.5 + half))
    assert e.elo == pytest.approx(0) and e.elo_low == pytest.approx(-e.elo_high)
    assert e.elo_high == pytest.approx(400 * math.log10((0.5 + half) / (0.5 - half)))


@pytest.mark.parametrize("kw", [dict(elo0=5, elo1=0), dict(elo0=0, elo1=1e6), dict(share0=0.6, share1=0.5),
                                dict(share0=0.5), dict(share0=0, share1=0.5), dict(alpha=0), dict(beta=1),
                                dict(alpha=0.6, beta=0.5), dict(players=7)])
def test_impossible_settings(kw):
    with pytest.raises(ValueError):
        Sprt(**kw)


def simulate(test: Sprt, share: float, runs: int, seed: int, tie: float = 0.1, max_deals: int = 50_000):
    """``runs`` independent runs of ``test``'s hypotheses on deals of ``test.players`` independent games, in
    each of which NEW wins (1) with probability share - tie/2, shares first with one other seat (1/2) with
    probability ``tie``, else scores 0: a deal score of mean ``share`` on the multiples of 1/(2N). The test
    is checked after every deal, as the command does. -> (rate of H1, rate of H0, mean deals)."""
    rng = np.random.default_rng(seed)
    n, grid = test.players, score_grid(test.players)
    chances = [1 - share - tie / 2, tie, share - tie / 2]  # half points per game: 0, 1, 2
    counts = np.zeros((runs, len(grid)))
    outcome = np.zeros(runs)  # +1 H1, -1 H0, 0 undecided
    length = np.zeros(runs)
    active = np.arange(runs)
    played = 0
    while len(active) and played < max_deals:
        block = min(100, max_deals - played)
        cells = rng.choice(3, size=(len(active), block, n), p=chances).sum(-1)  # deal score = cell / (2N)
        steps = counts[active][:, None, :] + np.cumsum(np.eye(len(grid))[cells], axis=1)
        value = llr(grid, steps, test.s0, test.s1)
        hit = (value >= test.upper) | (value <= test.lower)
        first = hit.argmax(1)
        for i in np.nonzero(hit.any(1))[0]:
            outcome[active[i]] = 1 if value[i, first[i]] >= test.upper else -1
            length[active[i]] = played + first[i] + 1
        counts[active] = steps[:, -1]
        active = active[~hit.any(1)]
        played += block
    length[active] = played
    return float(np.mean(outcome == 1)), float(np.mean(outcome == -1)), float(length.mean())


# 2,000 runs: a measured rate has a binomial standard error of about 0.005 at 0.05. The GSPRT's alpha and
# beta hold only approximately (its likelihoods are estimated from the data): measured 0.042-0.060 over 2-6
# players, 0.052 in 10,000 runs; so the checks allow 0.07, two standard errors above the worst of those.
RUNS, SLACK = 2000, 0.07


@pytest.mark.compute
@pytest.mark.parametrize("players, tie", [(2, 0.1), (2, 0.0), (4, 0.1)])
def test_equal_bots_rarely_pass_and_better_ones_do(players, tie):
    test = Sprt(players, elo0=0, elo1=40)  # wide bounds: runs of ~100-200 deals, a second each
    h1, h0, deals = simulate(test, test.s0, RUNS, seed=players)  # true Elo 0 = elo0
    assert h1 <= SLACK and h0 + h1 == 1, (h1, h0, deals)
    h1, h0, deals = simulate(test, test.s1, RUNS, seed=10 + players)  # true Elo = elo1
    assert h1 >= 1 - SLACK, (h1, h0, deals)


@pytest.mark.compute
def test_a_clearly_better_bot_passes_fast_and_a_worse_one_fails_fast():
    test = Sprt(2, elo0=0, elo1=40)
    h1, _h0, quick = simulate(test, elo_to_share(120, 2), 500, seed=5)
    assert h1 > 0.99
    _h1, h0, slow = simulate(test, elo_to_share(20, 2), 500, seed=6)  # between the bounds: the longest runs
    assert quick < slow / 3
    h1, h0, _ = simulate(test, elo_to_share(-40, 2), 500, seed=7)
    assert h0 > 0.99


@pytest.mark.slow
@pytest.mark.compute
@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_default_bounds(players):
    """The command's defaults, elo0 0 and elo1 5 (thousands of deals per run)."""
    test = Sprt(players)
    h1, h0, deals = simulate(test, test.s0, 500, seed=20 + players)
    assert h1 <= 0.08, (h1, h0, deals)  # 500 runs: standard error 0.01
    h1, h0, deals = simulate(test, test.s1, 500, seed=30 + players)
    assert h1 >= 0.92, (h1, h0, deals)


# ---------------------------------------------------------------- the command, on the toy game

LAST, FIRST, SEEDED = str(GOOD / "last.py"), str(GOOD / "first.py"), str(GOOD / "seeded.py")
FAST = ["--move-time", "0.5", "--time-bank", "0.5", "--no-progress", "--seed", "1"]
WIDE = ["--share0", "0.5", "--share1", "0.7"]  # H1: NEW wins 70% of the 2-player deal: a short run
WIDER = ["--share0", "0.5", "--share1", "0.8"]


@pytest.fixture
def toy(monkeypatch):
    use_toy_game(monkeypatch)


def invoke(*args):
    r = CliRunner().invoke(main, ["sprt", *map(str, args)])
    if r.exit_code == 0:
        assert all(len(line) <= 80 for line in r.output.splitlines()[2:]), r.output  # the summary's lines
    return r


def summary(output: str) -> list[str]:
    return output.splitlines()[2:]  # after the two header lines


def logged(path):
    lines = path.read_text().splitlines()
    return json.loads(lines[0])["settings"], [json.loads(line) for line in lines[1:]]


def test_a_stronger_bot_is_accepted_quickly(toy, tmp_path):
    out = tmp_path / "s.jsonl"
    r = invoke(LAST, FIRST, *WIDE, "--results", out, *FAST)
    assert r.exit_code == 0, r.output
    lines = summary(r.output)
    # every deal scores 1: the LLR grows by log(0.7 / 0.5) = 0.336 per deal and passes log(19) at the 9th
    assert lines[0].startswith("H1 accepted: NEW is stronger than BASE")
    assert lines[1] == "games 18, deals 9 (2 players)"
    assert lines[3] == "Elo +inf, 95% [+inf, +inf]" and lines[4].startswith("share 1.0000")
    _settings, games = logged(out)
    assert len(games) == 18 and {g["game"] for g in games} == set(range(18))  # no game beyond the decision
    assert [g["bots"] for g in games[:2]] == [["last", "first"], ["first", "last"]]  # both seats of a deal
    assert games[0]["seed"] == games[1]["seed"] != games[2]["seed"]


def test_a_bot_against_itself_is_not_accepted(toy, tmp_path):
    # last against last ties every game: deal score 1/2, exactly par; with the default bounds too
    r = invoke(LAST, LAST, *WIDE, *FAST)
    assert r.exit_code == 0, r.output
    lines = summary(r.output)
    assert lines[0].startswith("H0 accepted: NEW is not stronger"), r.output
    assert lines[3] == "Elo +0.0, 95% [+0.0, +0.0]"
    r = invoke(LAST, LAST, "--max-games", 20, *FAST)
    assert r.exit_code == 0 and "H1" not in summary(r.output)[0], r.output


def test_four_players_one_new_against_three_base(toy, tmp_path):
    out = tmp_path / "s.jsonl"
    r = invoke(LAST, FIRST, "--players", 4, "--elo1", 200, "--jobs", 2, "--results", out, *FAST)
    assert r.exit_code == 0, r.output
    assert "H0 Elo +0.0 (share 0.250), H1 Elo +200.0 (share 0.513)" in r.output
    lines = summary(r.output)
    assert lines[0].startswith("H1 accepted") and lines[4].endswith("(par 0.2500)")
    deals = int(lines[1].split("deals ")[1].split()[0])
    games = sorted(logged(out)[1], key=lambda g: g["game"])  # in finishing order with 2 jobs
    assert len(games) >= 4 * deals and lines[1] == f"games {4 * deals}, deals {deals} (4 players)"
    assert [g["bots"] for g in games[:2]] == [["last", "first", "first#2", "first#3"],
                                              ["first#3", "last", "first", "first#2"]]


def test_the_result_does_not_depend_on_jobs_and_resume_continues(toy, tmp_path):
    # seeded (a random legal action from its seat's seed) against another random bot: deal scores vary
    # (against itself every deal would score 1/2: the swapped seats replay the same game, seeds and all)
    other = tmp_path / "other.py"
    other.write_text((GOOD / "seeded.py").read_text().replace('config["seed"]', 'config["seed"] + 1'))
    runs = {}
    for jobs in (1, 2):
        r = invoke(SEEDED, other, *WIDER, "--jobs", jobs, "--results", tmp_path / f"{jobs}.jsonl", *FAST)
        assert r.exit_code == 0, r.output
        runs[jobs] = summary(r.output)
    assert runs[1] == runs[2] and runs[1][0].startswith("H0 accepted"), runs
    assert live_count() == 0  # with 2 jobs a game was still running at the decision: stopped
    assert "95% [0.5000, 0.5000]" not in runs[1][4]  # not all deals alike

    out = tmp_path / "resumed.jsonl"
    r = invoke(SEEDED, other, *WIDER, "--max-games", 7, "--results", out, *FAST)  # 3 whole deals
    assert r.exit_code == 0 and summary(r.output)[:2] == [
        "no decision: the game limit was reached (LLR between the bounds)", "games 6, deals 3 (2 players)"]
    r = invoke(SEEDED, other, *WIDER, "--results", out, *FAST)
    assert r.exit_code == 2 and "add --resume" in r.output
    r = invoke(SEEDED, other, *WIDER, "--results", out, "--resume", *FAST)
    assert r.exit_code == 0 and summary(r.output) == runs[1], r.output
    _settings, games = logged(out)
    assert sorted(g["game"] for g in games) == list(range(len(games)))  # nothing played twice
    # resuming a decided run plays nothing and says the same
    r = invoke(SEEDED, other, *WIDER, "--results", out, "--resume", *FAST)
    assert summary(r.output) == runs[1] and len(logged(out)[1]) == len(games)
    # the file is a strength log too
    _, rows = report(out)
    assert rows[0].games == len(games) and rows[0].a == "seeded" and rows[0].b == "other"
    # other settings than the log's are refused
    r = invoke(SEEDED, other, *WIDER, "--results", out, "--resume", *FAST, "--seed", 2)
    assert r.exit_code == 2 and "other settings (seed 1 -> 2)" in r.stderr
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1  # refused before anything is printed


@pytest.mark.parametrize("args, message", [
    ([LAST], "Missing argument"),
    ([LAST, "nope"], "no bot file"),
    ([LAST, FIRST, "--elo0", 5, "--elo1", 0], "elo0 must be less than elo1"),
    ([LAST, FIRST, "--elo1", 5, "--share0", 0.5, "--share1", 0.6], "not both"),
    ([LAST, FIRST, "--share0", 0.5], "give both"),
    ([LAST, FIRST, "--share0", 0.6, "--share1", 0.5], "share0 < share1"),
    ([LAST, FIRST, "--alpha", 0], "alpha and beta"),
    ([LAST, FIRST, "--players", 7], "--players"),
    ([LAST, FIRST, "--max-games", 1], "at least one deal"),
    ([LAST, FIRST, "--move-time", 0], "--move-time"),
    ([LAST, FIRST, "--memory", 10], "--memory"),
    ([LAST, FIRST, "--jobs", 0], "--jobs"),
    ([LAST, FIRST, "--resume"], "--resume needs --results FILE"),
    ([LAST, FIRST, "--game", "dice", "--options", "camps"], "base game's"),
    ([LAST, FIRST, "--address", "auto"], "needs --backend ray"),
])
def test_bad_arguments_are_one_line_and_exit_2(args, message):
    r = CliRunner().invoke(main, ["sprt", *map(str, args), "--no-progress"])
    assert r.exit_code == 2 and message in r.stderr and r.stdout == "", r.output
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("Error: "), r.stderr


def test_resume_of_a_missing_file_is_refused(tmp_path):
    r = CliRunner().invoke(main, ["sprt", LAST, FIRST, "--results", str(tmp_path / "none.jsonl"), "--resume"])
    assert r.exit_code == 2 and "nothing to resume" in r.output
