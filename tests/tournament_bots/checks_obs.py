"""Test bot: checks what the referee sends it (raising forfeits, so a test sees any mistake)."""


class Bot:
    def setup(self, config):
        assert set(config) >= {"seat", "num_players", "options", "seed", "move_time", "time_bank"}, config
        self.seat = config["seat"]
        self.seen = []

    def act(self, obs):
        d = obs.to_dict()
        assert obs.seat == self.seat and obs.current_player == self.seat, (obs.seat, self.seat)
        assert obs.legal_actions, "no legal actions on my turn"
        assert obs.time_left >= obs.move_time > 0, (obs.time_left, obs.move_time)
        assert {"hand", "hand_sizes", "cities", "market", "history"} <= set(d), sorted(d)
        assert len(obs.hand) == obs.hand_sizes[self.seat]
        # the logs come over the channel as their new lines only: put together, they are the whole logs
        assert len(obs.events) == len(obs.history) and obs.history[:len(self.seen)] == self.seen
        from alhambra_ai._core import event_line
        assert all(event_line(e) == line for e, line in zip(obs.events, obs.history, strict=True)
                   if e["kind"] != "action")
        self.seen = list(obs.history)
        return obs.legal_actions[-1]
