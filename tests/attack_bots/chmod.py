"""Attack bot: changes the metadata of a file of the host every worker reads (Landlock covers reading and
writing a file's content, not its mode, owner or times). It sets the standard library's os.py to the mode
it already has, so nothing changes; that the call is allowed is the escape: mode 000 there would break
every later worker and the referee itself. The worker's read-only root refuses it."""

import os
import stat


class Bot:
    def setup(self, config):
        path = os.__file__
        try:
            os.chmod(path, stat.S_IMODE(os.stat(path).st_mode))
        except OSError:
            self.escaped = False
        else:
            self.escaped = True

    def act(self, obs):
        if self.escaped:
            raise RuntimeError("ESCAPED: changed the mode of a host file every worker reads")
        return obs.legal_actions[0]
