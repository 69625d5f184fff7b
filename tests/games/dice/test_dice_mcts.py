"""The dice games' MCTS (alhambra_ai/games/dice/mcts.py, compiled as alhambra_ai._core.DiceMcts, through
bots/mcts.py): legal in every phase of both games, within its time, deterministic with ``iterations``,
stronger than random and greedy at fixed iterations; and the frozen expectimax baseline plays legal games."""

import random
import time

import pytest

from alhambra_ai import Observation, new_game
from alhambra_ai.bot.api import load_bot
from alhambra_ai.games.dice import mcts as dice_mcts


def positions(game, seed, limit=400):
    """Decisions (more than one legal action) along a random 2-player game."""
    rng = random.Random(seed)
    s = new_game(2, seed, game=game)
    out = []
    while not s.is_terminal() and len(out) < limit:
        if len(s.legal_actions()) > 1:
            out.append(s.clone())
        s.apply(rng.choice(s.legal_actions()))
    return out


def bot(seat, seed=0, **config):
    b = load_bot("bots/mcts.py")()
    b.setup(dict(seat=seat, num_players=2, options={"dirk": True}, seed=seed, **config))
    return b


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_mcts_plays_legal_actions_in_every_phase(game):
    seen = set()
    per_phase = {}
    for s in positions(game, 5):
        if per_phase.get(s.phase, 0) >= 3:        # a few positions of every phase keep the test quick
            continue
        per_phase[s.phase] = per_phase.get(s.phase, 0) + 1
        seat = s.current_player
        a = bot(seat, iterations=25).act(Observation(s.observation(seat)))
        assert s.is_legal(a), (s.phase, a)
        seen.add(s.phase)
    assert "after_roll" in seen and seen & {"reward", "pick", "place", "name"}   # (a roll is forced)


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_mcts_keeps_to_its_move_time(game):
    move_time = 0.05
    for s in positions(game, 7)[:40:4]:
        seat = s.current_player
        obs = s.observation(seat)
        obs["move_time"] = move_time
        b = bot(seat, move_time=move_time)
        t = time.process_time()
        a = b.act(Observation(obs))
        assert time.process_time() - t <= move_time * 1.1
        assert s.is_legal(a)


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_mcts_is_deterministic_with_iterations(game):
    for s in positions(game, 9)[:30:3]:
        seat = s.current_player
        obs = s.observation(seat)
        first = bot(seat, seed=4, iterations=60).act(Observation(obs))
        assert bot(seat, seed=4, iterations=60).act(Observation(obs)) == first


def test_the_tree_samples_roll_outcomes_as_chance_children():
    s = new_game(2, 3, game="dice")
    s.apply("roll")
    tree = dice_mcts.tree(s.observation(s.current_player), seed=1)
    assert tree.run(400) == 400
    children = tree.root_children()
    assert sum(n for _a, n, _m, _k in children) == 400                 # every iteration passes one root edge
    rolls = [(n, k) for a, n, _m, k in children if a & 15 == 1]
    assert rolls and any(k > 1 for _n, k in rolls)  # a re-roll's children are its outcomes
    assert all(k <= n for n, k in rolls)
    assert tree.leaf_calls < 400 and tree.table_calls >= 1  # Python only on cache misses


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_every_phase_is_deterministic_per_seed(game):
    """Same seed and iterations: the same root statistics, in every phase (not only the same move)."""
    per_phase = {}
    for s in positions(game, 11):
        if per_phase.get(s.phase, 0) >= 2:
            continue
        per_phase[s.phase] = per_phase.get(s.phase, 0) + 1
        obs = s.observation(s.current_player)
        stats = []
        for _ in range(2):
            t = dice_mcts.tree(obs, seed=7)
            t.run(80)
            stats.append(t.root_children())
        assert stats[0] == stats[1], s.phase


@pytest.mark.parametrize("game, first", [("dice", True), ("alcazaba", False)])
def test_mcts_beats_random(game, first):
    s = new_game(2, 20, game=game)
    names = ["mcts", "random"] if first else ["random", "mcts"]
    bots = []
    for seat, name in enumerate(names):
        b = load_bot(f"bots/{name}.py")()
        b.setup(dict(seat=seat, num_players=2, options={"dirk": True}, seed=seat, iterations=20))
        bots.append(b)
    while not s.is_terminal():
        seat = s.current_player
        s.apply(bots[seat].act(Observation(s.observation(seat))))
    me = names.index("mcts")
    sc = s.scores()
    assert sc[me] - sc[1 - me] > 20


def _match(game, a_name, b_name, deals, a_cfg, b_cfg, seed0):
    """Seat-rotated in-process games (same deal both ways); A's wins (ties count half)."""
    wins = 0.0
    for d in range(deals):
        for a_seat in (0, 1):
            s = new_game(2, seed0 + d, game=game)
            bots = []
            for seat in (0, 1):
                name, cfg = (a_name, a_cfg) if seat == a_seat else (b_name, b_cfg)
                b = load_bot(name)()
                b.setup(dict(seat=seat, num_players=2, options={"dirk": True}, seed=seed0 * 7 + d + seat,
                             **cfg))
                bots.append(b)
            while not s.is_terminal():
                seat = s.current_player
                a = bots[seat].act(Observation(s.observation(seat)))
                assert s.is_legal(a)
                s.apply(a)
            sc = s.scores()
            wins += 1.0 if sc[a_seat] > sc[1 - a_seat] else 0.5 if sc[a_seat] == sc[1 - a_seat] else 0.0
    return wins


@pytest.mark.slow
@pytest.mark.compute  # 20 s of the default run's 8 minutes: a strength bar, run by CI's slow job
@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_mcts_beats_greedy_at_fixed_iterations(game):
    """A modest, reliable bar (deterministic: fixed deals, seeds and iterations): at 600 iterations mcts won
    15 (dice) and 16 (Alcazaba) of these 20 games (at 300: 11-14 and 16-19 across small changes of the
    search, so 300 was too few to keep a bar); 12 leaves room for changes that cost a little strength and
    still fails a broken search (the first flat mcts won 2.5-5% against greedy)."""
    wins = _match(game, "bots/mcts.py", "bots/greedy.py", 10, {"iterations": 600}, {}, 300)
    assert wins >= 12, wins


@pytest.mark.parametrize("game, players", [("dice", 2), ("alcazaba", 3)])
def test_the_frozen_expectimax_baseline_plays_legal_games(game, players):
    s = new_game(players, 8, game=game)
    bots = []
    for seat in range(players):
        b = load_bot("tests/fixtures/dice_expectimax_frozen.py" if seat == 0 else "bots/greedy.py")()
        b.setup(dict(seat=seat, num_players=players, options={"dirk": players == 2}, seed=seat, samples=1))
        bots.append(b)
    while not s.is_terminal():
        seat = s.current_player
        a = bots[seat].act(Observation(s.observation(seat)))
        assert s.is_legal(a), (s.phase, a)
        s.apply(a)
