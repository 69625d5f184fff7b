"""Attack bot: computes before its turn. A thread started when its file is imported spins from then on;
if the file is imported when the worker starts, it runs through the earlier seats' set-up, on the
game's one CPU, taking their time."""

import threading
import time

STARTED = (time.monotonic(), time.process_time())


def spin():
    while True:
        pass


threading.Thread(target=spin, daemon=True).start()


class Bot:
    def setup(self, config):
        wall, cpu = time.monotonic() - STARTED[0], time.process_time() - STARTED[1]
        if wall > 0.3 and cpu > 0.25:
            raise RuntimeError(f"ESCAPED: {cpu:.2f} s of CPU in the {wall:.2f} s before its own set-up")

    def act(self, obs):
        return obs.legal_actions[0]
