"""Attack bot: plants a module where later workers would import it (every import path, the package and
its bytecode cache); a planted file is removed at once, so a run without the sandbox leaves nothing."""

import os
import sys

import alhambra_ai


class Bot:
    def setup(self, config):
        self.attack()

    def attack(self):
        package = os.path.dirname(alhambra_ai.__file__)
        planted = []
        for d in {*filter(None, sys.path), package, os.path.join(package, "__pycache__")}:
            path = os.path.join(d, f"planted_{os.getpid()}.py")
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            except OSError:
                continue
            os.unlink(path)
            planted.append(d)
        if planted:
            raise RuntimeError(f"ESCAPED: could plant modules in {planted}")

    def act(self, obs):
        self.attack()
        return obs.legal_actions[0]
