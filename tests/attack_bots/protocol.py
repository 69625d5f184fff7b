"""Attack bot: stops the whole run with one reply. It writes straight to its worker's protocol pipe a
reply nested 100,000 deep (a recursive JSON reader overflows), then a forged hello whose isolation
report holds Infinity (an int() of it overflows), then other bytes no reader expects."""

import gc

DEEP = b'{"action": ' + b"[" * 100000 + b"]" * 100000 + b"}\n"
FORGED = b'{"hello": "x", "isolation": {"namespaces": true, "landlock": Infinity, "seccomp": true}}\n'


def protocol_out():
    for obj in gc.get_objects():
        if type(obj).__name__ == "Worker" and hasattr(obj, "proto_out"):
            return obj.proto_out
    return None


class Bot:
    def setup(self, config):
        self.out = protocol_out()
        self.moves = 0
        if self.out is not None:
            self.out.write(FORGED)
            self.out.flush()

    def act(self, obs):
        self.moves += 1
        if self.out is not None:
            self.out.write(DEEP if self.moves == 1 else b"\xff\xfe{\x00NaN]\n")
            self.out.flush()
        return obs.legal_actions[0]
