"""Attack bot: stops the whole run through its own input. At its second move it opens its protocol input
again through /proc/self/fd (a pipe opened by path is the same pipe), fills it, sends its reply itself and
then never reads again: the referee's next write of an observation waits for room that never comes. With
the protocol on a socket the reopening fails, and the referee's writes run under the move's clock."""

import gc
import json
import os
import time


def worker():
    for obj in gc.get_objects():
        if type(obj).__name__ == "Worker" and hasattr(obj, "proto_in"):
            return obj
    return None


class Bot:
    def setup(self, config):
        self.worker = worker()
        self.moves = 0

    def act(self, obs):
        self.moves += 1
        if self.moves < 2 or self.worker is None:
            return obs.legal_actions[0]
        try:  # the jam: our own input, filled until the referee can write nothing more
            jam = os.open(f"/proc/self/fd/{self.worker.proto_in.fileno()}", os.O_WRONLY | os.O_NONBLOCK)
            try:
                while True:
                    os.write(jam, b" " * 4096)
            except BlockingIOError:
                pass
        except OSError:
            pass  # the channel cannot be reopened: the rest still tries a stall
        self.worker.proto_out.write(json.dumps({"action": obs.legal_actions[0]}).encode() + b"\n")
        self.worker.proto_out.flush()
        time.sleep(3600)  # never reads its next request
