"""Attack bot: reaches a host service through its Unix socket (a Docker daemon, Ray's raylet): the
test listens on @SOCKET@, a path outside every directory the bot may open; and on 127.0.0.1:@PORT@."""

import socket

PATH, PORT = "@SOCKET@", int("@PORT@")


class Bot:
    def setup(self, config):
        reached = []
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(2)
                s.connect(PATH)
                reached.append(f"unix socket {PATH}")
        except OSError:
            pass
        try:
            with socket.create_connection(("127.0.0.1", PORT), timeout=2):
                reached.append(f"tcp 127.0.0.1:{PORT}")
        except OSError:
            pass
        if reached:
            raise RuntimeError(f"ESCAPED: connected to {', '.join(reached)}")

    def act(self, obs):
        return obs.legal_actions[0]
