"""Attack bot: computes in background threads — between its moves (on the other seats' clocks) and,
during a move, on more than one CPU at a time."""

import threading
import time


class Bot:
    def setup(self, config):
        self.ticks, self.replied = 0, None
        threading.Thread(target=self.tick, daemon=True).start()

    def tick(self):
        while True:
            self.ticks += 1
            time.sleep(0.001)

    def act(self, obs):
        if self.replied is not None:
            away, ticks = time.monotonic() - self.replied[0], self.ticks - self.replied[1]
            if away > 0.15 and ticks > 30:
                raise RuntimeError(f"ESCAPED: {ticks} ticks in {away:.2f} s between its moves")
        self.spin()
        self.replied = (time.monotonic(), self.ticks)
        return obs.legal_actions[0]

    def spin(self):
        def busy(until):
            while time.monotonic() < until:
                pass

        wall, cpu = time.monotonic(), time.process_time()
        threads = [threading.Thread(target=busy, args=(wall + 0.05,)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ratio = (time.process_time() - cpu) / (time.monotonic() - wall)
        if ratio > 1.4:
            raise RuntimeError(f"ESCAPED: {ratio:.1f} s of CPU per second of its clock")
