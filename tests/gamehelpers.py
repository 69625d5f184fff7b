"""Shared helpers for the game tests: positions built with State.from_setup."""

from collections import Counter

from alhambra_ai import State, card_text


def all_cards(copies=3):
    return [card_text(c) for c in range(36) for _ in range(copies)]


def setup(n=3, rest_to=None, **kw):
    """State.from_setup, optionally giving every card not named anywhere to seat ``rest_to``'s hand
    (so that draw pile, discard and display can be set exactly)."""
    if rest_to is not None:
        copies = 2 if kw.get("options", {}).get("dirk", n == 2) else 3
        named = Counter()
        for hand in (kw.get("hands") or [[]] * n):
            named.update(hand or [])
        for key in ("display", "discard", "draw_pile"):
            named.update(c for c in (kw.get(key) or []) if c and c not in ("s1", "s2"))
        rest = list((Counter(all_cards(copies)) - named).elements())
        hands = [list(h or []) for h in (kw.get("hands") or [[]] * n)]
        hands[rest_to] += rest
        kw["hands"] = hands
        kw.setdefault("discard", [])
        kw.setdefault("draw_pile", [])
    return State.from_setup(n, **kw)


def texts(s):
    return [s.action_to_text(a) for a in s.legal_actions()]


def play(s, *actions):
    for a in actions:
        s.apply(a)
    return s


def random_game_checking_every_action(n: int, seed: int, options: dict) -> set[str]:
    """One random game (the rng seeded with ``n``) in which every legal action is checked before each move:
    no duplicates, a 32-bit code, a text that parses back to it; the cities stay valid after every action.
    Returns the kinds played (the text's first word; ``"buy coins"`` too for a payment with coins)."""
    import random

    from alhambra_ai import new_game

    rng = random.Random(n)
    s = new_game(n, seed, options)
    kinds = set()
    while not s.is_terminal():
        legal = s.legal_actions()
        assert len(set(legal)) == len(legal)
        for a in legal:
            assert 0 <= a < 2 ** 32
            text = s.action_to_text(a)
            assert s.parse_action(text) == a, text
        a = rng.choice(legal)
        text = s.action_to_text(a)
        kinds.add(text.split()[0])
        if text.split()[0] in ("buy", "bazaar") and text.endswith("c"):
            kinds.add("buy coins")
        s.apply(a)
        for seat in range(n):
            assert s.city(seat).is_valid() is None
    return kinds


def built_in_bots_game(n: int, seed: int, options: dict) -> set[str]:
    """One game of the built-in bots (greedy, mcts, expectimax, random, greedy; tiny budgets) through their
    observations; every action they choose must be legal. Returns the kinds played (the text's first word;
    ``"buy with coins"`` too for a buy paid with coins)."""
    from pathlib import Path

    from alhambra_ai import new_game
    from alhambra_ai.bot.api import Observation, load_bot

    bots_dir = Path(__file__).resolve().parent.parent / "bots"
    tiny = {"mcts": {"iterations": 20}, "expectimax": {"samples": 1, "breadth": 3}}
    names = ["greedy", "mcts", "expectimax", "random", "greedy"][:n]
    s = new_game(n, seed, options)
    bots = []
    for i, name in enumerate(names):
        bot = load_bot(bots_dir / f"{name}.py")()
        bot.setup({"seat": i, "num_players": n, "options": s.options, "seed": i, **tiny.get(name, {})})
        bots.append(bot)
    used = set()
    while not s.is_terminal():
        seat = s.current_player
        obs = Observation(s.observation(seat))
        a = bots[seat].act(obs)
        if isinstance(a, str):
            a = s.parse_action(a)
        assert a in obs.legal_actions, (names[seat], a)
        text = s.action_to_text(a)
        used.add(text.split()[0])
        if text.startswith("buy") and text.endswith("c"):
            used.add("buy with coins")
        s.apply(a)
    return used


def random_positions(n, seed, count, game="alhambra", options=None, most=25):
    """States along one random game (seeded), one every 3 to ``most`` random moves, at most ``count``."""
    import random

    from alhambra_ai import new_game

    rng = random.Random(seed)
    s = new_game(n, seed=seed, game=game, options=options)
    out = []
    while not s.is_terminal() and len(out) < count:
        for _ in range(rng.randint(3, most)):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
        out.append(s.clone())
    return out
