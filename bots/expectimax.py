"""expectimax: depth-limited search over the chance of the money and market refills.

Max nodes: this seat's decisions until its turn ends (an exact payment's extra action, the placements), the
best few actions by the greedy evaluation at each, up to `depth` decisions (the rest of the turn is greedy).
Chance node: the end of the turn, where the display and market refill from the hidden order. It is sampled:
each sample resamples the hidden order (draw pile with the scoring cards in their public ranges, tile bag).
Opponent model: after the chance sample every other seat plays the greedy bot's one-ply policy, until this
seat is to start its next turn; that position is scored by the greedy evaluation (own value minus the best
other). All candidate plans share the same samples (common random numbers); samples are added until the time
budget (or `samples`, which replaces it: deterministic) is used up.

Config: seed, move_time, samples, breadth (candidates per decision, default 6), depth (default 3)."""

import time

from alhambra_ai import dice_search, search


class Bot:
    def setup(self, config: dict) -> None:
        self.config = dict(config)
        self.seed = int(config.get("seed", 0))
        self.samples = config.get("samples")
        self.breadth = int(config.get("breadth", 6))
        self.depth = int(config.get("depth", 3))
        self.last_samples = 0

    def act(self, obs) -> int:
        if not hasattr(self, "config"):
            self.setup({})
        clock = search.MoveClock(obs, self.config)
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if dice_search.is_dice(obs):  # the dice games: alhambra_ai/dice_search.py
            return dice_search.expectimax_bot(obs, self.seed, self.config)
        seed = search.move_seed(self.seed, obs)
        root = search.determinize(obs, seed)
        me, turn0 = root.current_player, root.turn
        ranges = search.scoring_ranges(obs)
        leaves = []  # [parent state, action, sum of margins, samples]

        def expand(state, depth):
            """A max node: [(action, child)], child a leaf index or a nested max node."""
            _best, margins = search.search_greedy(state)
            margins.sort(key=lambda e: -e[1])  # stable: generator order among equals
            node = []
            for action, _m in margins[: self.breadth]:
                nxt = state.clone()
                nxt.record_history = False
                nxt.apply(action)
                same_turn = nxt.current_player == me and nxt.turn == turn0 and not nxt.is_terminal()
                # (with a time budget, stop widening the plans once half of it is gone)
                roomy = self.samples or clock.left() > clock.budget / 2
                if same_turn and depth + 1 < self.depth and roomy:
                    node.append((action, expand(nxt, depth + 1)))
                else:
                    leaves.append([state, action, 0.0, 0])
                    node.append((action, len(leaves) - 1))
            return node

        root.record_history = False
        tree = expand(root, 0)
        limit = int(self.samples) if self.samples else None
        n = 0  # complete passes over the leaves (every leaf got sample n)
        done, t0 = 0, time.monotonic()
        while limit is None or n < limit:
            for leaf in leaves:  # leaves are in the greedy order: the likely best are sampled first
                # stop when the next sample would likely overrun (at least one leaf gets one sample)
                if limit is None and done and clock.left() < (time.monotonic() - t0) / done:
                    break
                leaf[2] += search.search_chance_leaf(leaf[0], leaf[1], seed + 1 + n, me, ranges)
                leaf[3] += 1
                done += 1
            else:
                n += 1
                if limit is None and clock.left() < (clock.budget - clock.left()) / n:
                    break  # the next pass would likely overrun
                continue
            break
        self.last_samples = n

        def value(node):
            if isinstance(node, int):
                _s, _a, total, count = leaves[node]
                return total / count if count else float("-inf")
            return max(value(child) for _a, child in node)

        best = max(tree, key=lambda e: value(e[1]))  # first of equals: the greedy order
        return best[0]
